#!/usr/bin/env python3
r"""Lie-group operations of the spherical and planar joints at the angles
where their formulas switch branches, from Pinocchio 4.1.0 and exactly.

    .venv/bin/python scripts/make_joint_lie_reference.py \
        --out tests/reference/joints/lie_edge_cases.json

For a single JointModelSpherical (SO(3), q = [qx qy qz qw]) and a single
JointModelPlanar (SE(2), q = [x y cos sin]), a fixed q0 and velocities v
whose rotation angle runs through 0, the series thresholds of either side
(Pinocchio's SE(2) exp switches at 1e-14, its SE(2) log at 1e-4; SO(3) at
eps^(1/3) and eps^(1/4)), moderate angles and pi, each case holds:

  "q0", "v", "integrate" = integrate(q0, v), "dintegrate_d0" / "_d1",
  "q1" = integrate(q0, v), "difference" = difference(q0, q1),
  "ddifference_d0" / "_d1"   (Pinocchio's values), and
  "<key>_exact" for each: the same quantity with high-precision arithmetic
  (mpmath, 150 digits): the group operations in closed form, the Jacobians by central
  differences in the tangent space (step 1e-50), rounded to double.

Matrices are lists of rows. Cases at angle pi hold integrate only (the
logarithm is not differentiable there). Needs mpmath.
"""

import argparse
import json
import os

import mpmath as mp
import numpy as np
import pinocchio as pin

mp.mp.dps = 150
H = mp.mpf("1e-50")


# SO(3) on quaternions [x y z w] (Hamilton product, as Eigen).
def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]


def so3_exp(w):
    t = mp.sqrt(sum(x * x for x in w))
    if t == 0:
        return [mp.mpf(0), mp.mpf(0), mp.mpf(0), mp.mpf(1)]
    s = mp.sin(t / 2) / t
    return [w[0] * s, w[1] * s, w[2] * s, mp.cos(t / 2)]


def so3_log(q):
    x, y, z, w = q
    if w < 0:
        x, y, z, w = -x, -y, -z, -w
    n = mp.sqrt(x * x + y * y + z * z)
    if n == 0:
        return [mp.mpf(0)] * 3
    t = 2 * mp.atan2(n, w)
    return [x * t / n, y * t / n, z * t / n]


def so3_integrate(q, v):
    return qmul(q, so3_exp(v))


def so3_difference(q0, q1):
    x, y, z, w = q0
    return so3_log(qmul([-x, -y, -z, w], q1))


# SE(2) on [x y cos sin].
def se2_exp(v):
    t = v[2]
    c, s = mp.cos(t), mp.sin(t)
    if t == 0:
        a, b = mp.mpf(1), mp.mpf(0)
    else:
        a, b = s / t, (1 - c) / t
    return (c, s), [a * v[0] - b * v[1], b * v[0] + a * v[1]]


def se2_integrate(q, v):
    (c, s), t = se2_exp(v)
    c0, s0 = q[2], q[3]
    return [c0 * t[0] - s0 * t[1] + q[0], s0 * t[0] + c0 * t[1] + q[1],
            c0 * c - s0 * s, s0 * c + c0 * s]


def se2_difference(q0, q1):
    c0, s0 = q0[2], q0[3]
    dx, dy = q1[0] - q0[0], q1[1] - q0[1]
    p = [c0 * dx + s0 * dy, c0 * dy - s0 * dx]
    c = c0 * q1[2] + s0 * q1[3]
    s = c0 * q1[3] - s0 * q1[2]
    t = mp.atan2(s, c)
    alpha = mp.mpf(1) if t == 0 else t * mp.sin(t) / (2 * (1 - mp.cos(t)))
    return [alpha * p[0] + t / 2 * p[1], alpha * p[1] - t / 2 * p[0], t]


def unit(e, k, h):
    x = [mp.mpf(0)] * e
    x[k] = h
    return x


def jacobian(f, n):
    """Columns k of (f(+H e_k) - f(-H e_k)) / 2H."""
    cols = []
    for k in range(n):
        a, b = f(unit(n, k, H)), f(unit(n, k, -H))
        cols.append([(x - y) / (2 * H) for x, y in zip(a, b)])
    return [[float(cols[k][i]) for k in range(n)] for i in range(n)]


def exact(group, q0, v):
    """integrate(q0, v) and dIntegrate in high precision."""
    integrate, difference = group
    q0m, vm = [mp.mpf(x) for x in q0], [mp.mpf(x) for x in v]
    n = len(vm)
    q1 = integrate(q0m, vm)
    return {
        "integrate_exact": [float(x) for x in q1],
        "dintegrate_d1_exact": jacobian(
            lambda e: difference(q1, integrate(q0m, [a + b for a, b in zip(vm, e)])), n),
        "dintegrate_d0_exact": jacobian(
            lambda e: difference(q1, integrate(integrate(q0m, e), vm)), n),
    }


def pinocchio(joint, q0, v, with_difference):
    m = pin.Model()
    m.addJoint(0, joint, pin.SE3.Identity(), "j")
    q0, v = np.array(q0), np.array(v)
    q1 = pin.integrate(m, q0, v)
    out = {
        "q0": list(q0), "v": list(v), "integrate": list(q1),
        "dintegrate_d0": pin.dIntegrate(m, q0, v, pin.ARG0).tolist(),
        "dintegrate_d1": pin.dIntegrate(m, q0, v, pin.ARG1).tolist(),
    }
    if with_difference:
        # Pinocchio's q1, rounded to double: the Jacobians at that point.
        out["q1"] = list(q1)
        out["difference"] = list(pin.difference(m, q0, q1))
        out["ddifference_d0"] = pin.dDifference(m, q0, q1, pin.ARG0).tolist()
        out["ddifference_d1"] = pin.dDifference(m, q0, q1, pin.ARG1).tolist()
    return out


ANGLES = [0.0, 1e-14, 1e-12, 1e-9, 1e-6, 6e-6, 1e-5, 9e-5, 1.1e-4, 1.3e-4, 1e-3, 0.3, 2.0,
          np.pi - 1e-6, np.pi]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True)
    args = p.parse_args()
    rng = np.random.default_rng(3)
    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    quat = rng.normal(size=4)
    q0_sphere = list(quat / np.linalg.norm(quat))
    q0_plane = [0.3, -0.2, np.cos(0.7), np.sin(0.7)]
    doc = {"pinocchio": pin.__version__, "spherical": [], "planar": []}
    groups = [
        ("spherical", pin.JointModelSpherical(), q0_sphere, lambda a: list(axis * a),
         (so3_integrate, so3_difference)),
        ("planar", pin.JointModelPlanar(), q0_plane, lambda a: [0.7, -0.4, a],
         (se2_integrate, se2_difference)),
    ]
    for angle in ANGLES:
        with_difference = angle < np.pi
        for key, joint, q0, velocity, group in groups:
            v = velocity(angle)
            case = pinocchio(joint, q0, v, with_difference)
            case.update(exact(group, q0, v))
            if with_difference:
                # The difference and its Jacobians at Pinocchio's q1 (a double).
                integrate, difference = group
                q0m, q1 = [mp.mpf(x) for x in q0], [mp.mpf(x) for x in case["q1"]]
                n = len(v)
                case["difference_exact"] = [float(x) for x in difference(q0m, q1)]
                case["ddifference_d1_exact"] = jacobian(
                    lambda d: difference(q0m, integrate(q1, d)), n)
                case["ddifference_d0_exact"] = jacobian(
                    lambda d: difference(integrate(q0m, d), q1), n)
            doc[key].append(case)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
