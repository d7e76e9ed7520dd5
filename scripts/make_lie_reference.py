#!/usr/bin/env python3
r"""Pinocchio reference values of the Lie-group operations at the angles where
their formulas switch branches (zero, the Taylor-series thresholds, pi).

    .venv/bin/python scripts/make_lie_reference.py --out tests/reference/lie_group/edge_cases.json

The eval-format reference files hold these operations at random states only,
which never come near a branch point. This file holds, for a list of twists
m = [linear; angular] (angular norms 0, 1e-12 .. 1e-3 around the thresholds
eps^(1/3) and eps^(1/4), moderate, pi and beyond):

  "se3":  exp6(m) as a 4 x 4 matrix, Jexp6(m), and for the transform M = exp6(m)
          log6(M) and Jlog6(M) (Pinocchio's matrix log)
  "free_flyer": with q0 a fixed configuration [x y z qx qy qz qw] and the
          Lie group SE(3) of JointModelFreeFlyer:
          integrate(q0, m), dIntegrate(q0, m, ARG0 / ARG1),
          q1 = integrate(q0, m) (and -q1's quaternion, the same rotation),
          difference(q0, q1), dDifference(q0, q1, ARG0 / ARG1)
  "so2":  for angles a0, a1: q0 = [cos a0, sin a0], q1 = [cos a1, sin a1],
          difference(q0, q1), integrate(q0, [a1])
plus the rotations of angle exactly pi as matrices R = diag(1, -1, -1) and its
permutations, whose log Pinocchio takes on its singular branch ("se3_pi").
Matrices are lists of rows.

Pinocchio's Jexp6 / Jlog6 (and so dIntegrate ARG1 and dDifference of the free
flyer) lose up to 1e-5 to cancellation just above its series threshold
(angle 1.3e-4; 4e-8 at 1e-3). Each such matrix therefore also comes as
"<key>_exact": the same closed-form formulas evaluated with 50 significant
digits (mpmath) and rounded to double, the values to test accuracy against.
Needs mpmath (a dependency of sympy; `pip install mpmath`).
"""

import argparse
import json
import os

import mpmath as mp
import numpy as np
import pinocchio as pin

mp.mp.dps = 50


def mat(m):
    return np.asarray(m, dtype=float).tolist()


def vec(x):
    return [float(e) for e in np.asarray(x, dtype=float).reshape(-1)]


# ---- 50-digit evaluation of the closed forms (Pinocchio's formulas, exact arithmetic)

def mpv(x):
    return [mp.mpf(float(e)) for e in np.asarray(x, dtype=float).reshape(-1)]


def skew(v):
    return mp.matrix([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def outer(a, b):
    return mp.matrix([[a[i] * b[j] for j in range(3)] for i in range(3)])


def col(m):
    return [m[i] for i in range(3)]


def blocks(tl, tr, br):
    out = mp.zeros(6, 6)
    for i in range(3):
        for j in range(3):
            out[i, j], out[i, j + 3], out[i + 3, j + 3] = tl[i, j], tr[i, j], br[i, j]
    return out


def to_list(m):
    return [[float(m[i, j]) for j in range(m.cols)] for i in range(m.rows)]


def quat_mul(a, b):
    """Hamilton product of [x, y, z, w] quaternions."""
    av, bv = a[:3], b[:3]
    cross = [av[1] * bv[2] - av[2] * bv[1], av[2] * bv[0] - av[0] * bv[2], av[0] * bv[1] - av[1] * bv[0]]
    return [a[3] * bv[i] + b[3] * av[i] + cross[i] for i in range(3)] + \
        [a[3] * b[3] - sum(av[i] * bv[i] for i in range(3))]


def quat_matrix(q):
    x, y, z, w = q
    return mp.matrix([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def quat_log(q):
    """(omega, theta), |omega| = theta in [0, pi]."""
    sign = 1 if q[3] >= 0 else -1
    v = [sign * e for e in q[:3]]
    n = mp.sqrt(sum(e * e for e in v))
    if n == 0:
        return [mp.mpf(0)] * 3, mp.mpf(0)
    theta = 2 * mp.atan2(n, sign * q[3])
    return [theta / n * e for e in v], theta


def matrix_log(R):
    """log3 through the quaternion of R (largest-component extraction)."""
    tr = R[0, 0] + R[1, 1] + R[2, 2]
    cands = [tr] + [2 * R[i, i] - tr for i in range(3)]
    k = max(range(4), key=lambda i: cands[i])
    if k == 0:
        w = mp.sqrt(1 + tr) / 2
        q = [(R[2, 1] - R[1, 2]) / (4 * w), (R[0, 2] - R[2, 0]) / (4 * w), (R[1, 0] - R[0, 1]) / (4 * w), w]
    else:
        i = k - 1
        j, l = (i + 1) % 3, (i + 2) % 3
        qi = mp.sqrt(1 + 2 * R[i, i] - tr) / 2
        q = [0, 0, 0, (R[l, j] - R[j, l]) / (4 * qi)]
        q[i] = qi
        q[j] = (R[j, i] + R[i, j]) / (4 * qi)
        q[l] = (R[l, i] + R[i, l]) / (4 * qi)
    return quat_log(q)


def log_coefficients(theta):
    """(beta, beta'/theta, theta sin / (2 (1 - cos))), their limits at 0."""
    if theta == 0:
        return mp.mpf(1) / 12, mp.mpf(1) / 360, mp.mpf(1)
    st, ct = mp.sin(theta), mp.cos(theta)
    t2inv = 1 / theta ** 2
    inv_2_2ct = 1 / (2 * (1 - ct))
    beta = t2inv - st / theta * inv_2_2ct
    beta_dot = -2 * t2inv * t2inv + (1 + st / theta) * t2inv * inv_2_2ct
    return beta, beta_dot, theta * st * inv_2_2ct


def coupling(theta, w, p):
    beta, bdot, _ = log_coefficients(theta)
    wtp = sum(w[i] * p[i] for i in range(3))
    v3 = [bdot * wtp * w[i] - (theta ** 2 * bdot + 2 * beta) * p[i] for i in range(3)]
    return outer(v3, w) + beta * outer(w, p) + wtp * beta * mp.eye(3) + skew([e / 2 for e in p])


def jlog6_exact(theta, w, p):
    beta, _, diag = log_coefficients(theta)
    j3 = beta * outer(w, w) + diag * mp.eye(3) + skew([e / 2 for e in w])
    return blocks(j3, coupling(theta, w, p) * j3, j3)


def jexp6_exact(m):
    v, w = m[:3], m[3:]
    n = mp.sqrt(sum(e * e for e in w))
    if n == 0:
        a, b, c = mp.mpf(1), mp.mpf(-0.5), mp.mpf(1) / 6
    else:
        a = mp.sin(n) / n
        b = -(1 - mp.cos(n)) / n ** 2
        c = (1 - a) / n ** 2
    j3 = a * mp.eye(3) + b * skew(w) + c * outer(w, w)
    p = col(j3.T * mp.matrix(v))
    return blocks(j3, -j3 * coupling(n, w, p), j3)


def rotate(q, v):
    return col(quat_matrix(q) * mp.matrix(v))


def conj(q):
    return [-q[0], -q[1], -q[2], q[3]]


def ddifference_exact(q0, q1):
    """dDifference(q0, q1, ARG0 / ARG1) of SE(3) in 50 digits."""
    q0, q1 = mpv(q0), mpv(q1)
    dp = [q1[i] - q0[i] for i in range(3)]
    quat0, quat1 = q0[3:], q1[3:]
    trans = rotate(conj(quat0), dp)
    quat_diff = quat_mul(conj(quat0), quat1)
    w, theta = quat_log(quat_diff)
    j1 = jlog6_exact(theta, w, trans)
    rt = quat_matrix(quat_diff).T
    p1_p0 = rotate(conj(quat1), dp)
    j0 = blocks(-rt, skew(p1_p0) * rt, -rt)
    return j1 * j0, j1


def twists(rng):
    """Twists whose angular parts have the norms where the formulas branch."""
    norms = [0.0, 1e-12, 1e-9, 1e-7, 5e-6, 7e-6, 1e-5, 1e-4, 1.3e-4, 1e-3, 3e-3,
             0.0999, 0.1, 0.15, 0.3, 1.5, 3.0, np.pi - 1e-3, np.pi - 1e-6, np.pi, 3.5, 5.0]
    out = []
    for n in norms:
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        linear = rng.uniform(-1.0, 1.0, 3)
        out.append(np.concatenate([linear, n * axis]))
    # Coordinate axes: exact zeros in the other components.
    for k in range(3):
        for n in [1e-9, 1.0, np.pi]:
            m = np.zeros(6)
            m[:3] = [0.3, -0.2, 0.1]
            m[3 + k] = n
            out.append(m)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=2024)
    args = p.parse_args(argv)
    rng = np.random.default_rng(args.seed)

    se3 = []
    free_flyer = []
    group = pin.liegroups.SE3()
    quat = rng.normal(size=4)
    quat /= np.linalg.norm(quat)
    q0 = np.concatenate([rng.uniform(-1.0, 1.0, 3), quat])
    for m in twists(rng):
        M = pin.exp6(m)
        w_exact, theta_exact = matrix_log(mp.matrix(M.rotation.tolist()))
        se3.append({
            "motion": vec(m),
            "exp6": mat(M.homogeneous),
            "jexp6": mat(pin.Jexp6(m)),
            "jexp6_exact": to_list(jexp6_exact(mpv(m))),
            "log6": vec(pin.log6(M).vector),
            "jlog6": mat(pin.Jlog6(M)),
            "jlog6_exact": to_list(jlog6_exact(theta_exact, w_exact, mpv(M.translation))),
        })
        q1 = group.integrate(q0, m)
        q1_flipped = np.concatenate([q1[:3], -q1[3:]])
        entry = {
            "q0": vec(q0),
            "v": vec(m),
            "integrate": vec(q1),
            "dintegrate_d0": mat(group.dIntegrate(q0, m, pin.ARG0)),
            "dintegrate_d1": mat(group.dIntegrate(q0, m, pin.ARG1)),
            "dintegrate_d1_exact": to_list(jexp6_exact(mpv(m))),
            "differences": [],
        }
        for q1_ in [q1, q1_flipped]:
            d0_exact, d1_exact = ddifference_exact(q0, q1_)
            entry["differences"].append({
                "ddifference_d0_exact": to_list(d0_exact),
                "ddifference_d1_exact": to_list(d1_exact),
                "q1": vec(q1_),
                "difference": vec(group.difference(q0, q1_)),
                "ddifference_d0": mat(group.dDifference(q0, q1_, pin.ARG0)),
                "ddifference_d1": mat(group.dDifference(q0, q1_, pin.ARG1)),
            })
        free_flyer.append(entry)

    se3_pi = []
    for d in [(1.0, -1.0, -1.0), (-1.0, 1.0, -1.0), (-1.0, -1.0, 1.0)]:
        M = pin.SE3(np.diag(d), np.array([0.4, -0.5, 0.6]))
        se3_pi.append({
            "placement": mat(M.homogeneous),
            "log6": vec(pin.log6(M).vector),
            "jlog6": mat(pin.Jlog6(M)),
        })

    so2 = []
    so2_group = pin.liegroups.SO2()
    for a0, a1 in [(0.3, 0.3), (0.3, 0.3 + 1e-9), (0.3, -0.2), (1.0, 1.0 + np.pi - 1e-9),
                   (1.0, 1.0 - np.pi + 1e-9), (-2.5, 2.5), (2.0, -2.0), (0.0, 3.0)]:
        qa = np.array([np.cos(a0), np.sin(a0)])
        qb = np.array([np.cos(a1), np.sin(a1)])
        so2.append({
            "q0": vec(qa),
            "q1": vec(qb),
            "difference": vec(so2_group.difference(qa, qb)),
            "ddifference_d0": mat(so2_group.dDifference(qa, qb, pin.ARG0)),
            "ddifference_d1": mat(so2_group.dDifference(qa, qb, pin.ARG1)),
            "v": [float(a1)],
            "integrate": vec(so2_group.integrate(qa, np.array([a1]))),
        })

    doc = {"pinocchio": pin.__version__, "se3": se3, "se3_pi": se3_pi,
           "free_flyer": free_flyer, "so2": so2}
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
