#!/usr/bin/env python3
r"""Compute Pinocchio reference values for a URDF in the eval JSON format.

    .venv/bin/python scripts/make_reference.py URDF [--floating-base] \
        --states N --seed S --out FILE.json [--omit-nonfinite] \
        [--wbc] [--armature-seed A] [--contacts FRAME:point,FRAME:6d,...] \
        [--frames NAME,...]

The format, its conventions and the Pinocchio function behind every key are
defined in the project's eval-format specification (eval-format.md). Besides
the keys of that format, each state carries:
  "omi": the 4 x 4 placements data.oMi[i] of the joints i = 1 .. njoints-1
         after forwardKinematics(q);
  "fext": njoints x 6, one external wrench [linear; angular] per joint id
          (row 0, the universe, included: Pinocchio ignores it), each in its
          joint's local frame;
  "rnea_fext": rnea(q, v, a, fext), nv.

Pinocchio's values can be NaN or infinite (aba and minv of a robot with a
massless moving body, whose mass matrix is singular); JSON has no such numbers,
so such a file is refused, unless --omit-nonfinite: then each such quantity is
left out of its state (per frame for frame quantities) and named in the state's
"nonfinite" list (e.g. ["aba", "aba_derivatives.ddq_dq"]).

Whole-body control quantities (eval-format.md, "Whole-body control quantities
(extension)"); without these options the output is what it always was:
  --armature-seed A: model.armature drawn from default_rng([A, 2]) in
      U[0.01, 0.5]^nv (every dof, the free-flyer's too), written in the header
      as "armature"; every quantity is then computed with it.
  --contacts FRAME:point,FRAME:6d,...: header "contacts" [{"frame", "type"}];
      per state "contact_jacobian" (point: the 3 linear rows of the
      LOCAL_WORLD_ALIGNED frame Jacobian; 6d: the 6 rows of the LOCAL one),
      "contact_drift" (point: linear part of getFrameClassicalAcceleration
      LOCAL_WORLD_ALIGNED at a = 0; 6d: getFrameAcceleration LOCAL at a = 0) and
      "contact_dynamics" {"ddq", "lambda"} = forwardDynamics(model, data, q, v,
      tau, J, gamma) with gamma = contact_drift, lambda = data.lambda_c.
  --wbc: per state "aba_fext", "aba_derivatives_fext" (ddq_dtau symmetrised),
      "dhg" ([linear; angular]), "regressor" (nv x 10 (njoints - 1)), and per
      frame "jacobian_time_variation_local|_world|_local_world_aligned",
      "acceleration_drift_local|_local_world_aligned",
      "classical_acceleration_drift_local_world_aligned".
  --frames NAME,...: the per-frame keys (old and new) only for these link
      frames (the header's "frames" still names every link frame of the model).

Checked numerically with Pinocchio 4.1.0 (go2_z1 floating and fixed, go2, z1;
largest error seen in brackets), not asserted here:
  - armature: rnea and rnea_fext add armature * a [0], crba adds it on the
    diagonal [0], dtau_da = that M [4e-15], aba, aba_fext, computeMinverse,
    computeABADerivatives (with and without fext) and the contact
    forwardDynamics all use that M [3e-14], computeKineticEnergy adds
    0.5 sum armature v^2 [4e-15]; nle, gravity, dtau_dq, dtau_dv, the potential
    energy, ccrba (Ag, hg), dccrba, dhg and the regressor ignore it [0].
  - ddq_dq|dv with fext = -M^-1 dtau_dq|dv(q, v, aba_fext, fext) [4e-14].
  - acceleration_drift_local = Jdot_local v [1e-15];
    acceleration_drift_local_world_aligned = the same vector rotated by oMf.R
    [2e-16] and NOT Jdot_lwa v (differs by O(1));
    classical LWA = Jdot_lwa v [8e-16] (its linear part = the spatial LWA
    linear part + omega x v, its angular part the spatial one);
    getFrameAcceleration WORLD = Jdot_world v [7e-16]; every Jdot matches a
    central difference of J along v [3e-10 relative].
  - dhg = Ag a + dAg v [7e-15], = d/dt hg by central difference [8e-11 rel].
  - toDynamicParameters = [m, m c_x, m c_y, m c_z, Ixx, Ixy, Iyy, Ixz, Iyz,
    Izz], I about the joint frame origin (I_C + m S(c)^T S(c)) [1e-20];
    regressor @ concat(toDynamicParameters(model.inertias[1:])) = rnea with
    zero armature, + armature * a with it [3e-14].
  - contacts: J ddq + gamma = 0 [3e-14] and M ddq + nle = tau + J^T lambda
    [5e-14]: data.lambda_c is the force on the robot (the KKT unknown is
    -lambda) [2e-13 against a dense KKT solve].

States are drawn from numpy's default_rng(S):
    q   = integrate(neutral, U[-1,1]^nv)
    v, a, tau, w  in U[-1,1]^nv
    q2  = integrate(neutral, U[-1,1]^nv)
in that order, state after state. Joint limits are not used. The fext of
every state comes from a second generator, default_rng([S, 1]), in state order
(fext in U[-1,1]^(njoints x 6)), so that the other draws do not depend on it.
"""

import argparse
import json
import os
import sys

import numpy as np
import pinocchio as pin


def mat(m, rows, cols):
    """Matrix as a list of rows. The shape is explicit because Pinocchio's
    Python layer returns an N x 1 matrix (e.g. a Jacobian when nv = 1) as a
    1-D array."""
    return np.asarray(m, dtype=float).reshape(rows, cols).tolist()


def vec(x):
    return [float(e) for e in np.asarray(x, dtype=float).reshape(-1)]


def sym_upper(m):
    """Full symmetric matrix from the upper triangle (Pinocchio's storage)."""
    m = np.asarray(m, dtype=float)
    return np.triu(m) + np.triu(m, 1).T


def body_frames(model):
    return [(f.name, i) for i, f in enumerate(model.frames) if f.type == pin.FrameType.BODY]


def draw_state(model, rng):
    nv = model.nv
    q0 = pin.neutral(model)
    q = pin.integrate(model, q0, rng.uniform(-1.0, 1.0, nv))
    v = rng.uniform(-1.0, 1.0, nv)
    a = rng.uniform(-1.0, 1.0, nv)
    tau = rng.uniform(-1.0, 1.0, nv)
    w = rng.uniform(-1.0, 1.0, nv)
    q2 = pin.integrate(model, q0, rng.uniform(-1.0, 1.0, nv))
    return q, v, a, tau, w, q2


def draw_fext(model, rng):
    return rng.uniform(-1.0, 1.0, (model.njoints, 6))


def compute_state(model, frames, q, v, a, tau, w, q2, fext, wbc=False, contacts=()):
    nv = model.nv
    s = {"q": vec(q), "v": vec(v), "a": vec(a), "tau": vec(tau), "w": vec(w), "q2": vec(q2)}

    # Pinocchio's Python functions return views into `data` (data.tau, data.M,
    # data.Minv, ...): every group gets its own Data, kept alive until the
    # results are copied out.
    def run(fn, *args):
        d = model.createData()
        out = fn(model, d, *args)
        if isinstance(out, tuple):
            return tuple(np.array(o, dtype=float, copy=True) for o in out), d
        return np.array(out, dtype=float, copy=True), d

    s["rnea"] = vec(run(pin.rnea, q, v, a)[0])
    s["nle"] = vec(run(pin.nonLinearEffects, q, v)[0])
    s["gravity"] = vec(run(pin.computeGeneralizedGravity, q)[0])
    s["crba"] = mat(sym_upper(run(pin.crba, q)[0]), nv, nv)
    s["aba"] = vec(run(pin.aba, q, v, tau)[0])
    s["minv"] = mat(sym_upper(run(pin.computeMinverse, q)[0]), nv, nv)

    s["com"] = vec(run(pin.centerOfMass, q)[0])
    s["jcom"] = mat(run(pin.jacobianCenterOfMass, q)[0], 3, nv)

    ag, d = run(pin.ccrba, q, v)
    s["ag"] = mat(ag, 6, nv)
    s["hg"] = vec(d.hg.vector)  # [linear; angular]
    _, d = run(pin.dccrba, q, v)
    s["dag"] = mat(d.dAg, 6, nv)

    s["kinetic_energy"] = float(pin.computeKineticEnergy(model, model.createData(), q, v))
    if np.any(np.asarray(model.armature) != 0.0):
        # Pinocchio 4.1.0's computeKineticEnergy leaves the armature of
        # unaligned revolute / helical joints out (anymal_c's): with an
        # armature, the reference is the identity T = 1/2 v' M v on its crba.
        m_full = sym_upper(run(pin.crba, q)[0])
        s["kinetic_energy"] = float(0.5 * v @ m_full @ v)
    s["potential_energy"] = float(pin.computePotentialEnergy(model, model.createData(), q))

    d = model.createData()
    pin.computeJointJacobians(model, d, q)
    pin.updateFramePlacements(model, d)
    fr = {}
    for name, fid in frames:
        fr[name] = {
            "placement": mat(d.oMf[fid].homogeneous, 4, 4),
            "jacobian_local": mat(pin.getFrameJacobian(model, d, fid, pin.LOCAL), 6, nv),
            "jacobian_world": mat(pin.getFrameJacobian(model, d, fid, pin.WORLD), 6, nv),
            "jacobian_local_world_aligned": mat(
                pin.getFrameJacobian(model, d, fid, pin.LOCAL_WORLD_ALIGNED), 6, nv
            ),
        }
    s["frames"] = fr

    (dtau_dq, dtau_dv, dtau_da), _ = run(pin.computeRNEADerivatives, q, v, a)
    s["rnea_derivatives"] = {
        "dtau_dq": mat(dtau_dq, nv, nv),
        "dtau_dv": mat(dtau_dv, nv, nv),
        "dtau_da": mat(sym_upper(dtau_da), nv, nv),
    }
    (ddq_dq, ddq_dv, ddq_dtau), _ = run(pin.computeABADerivatives, q, v, tau)
    s["aba_derivatives"] = {
        "ddq_dq": mat(ddq_dq, nv, nv),
        "ddq_dv": mat(ddq_dv, nv, nv),
        "ddq_dtau": mat(sym_upper(ddq_dtau), nv, nv),
    }

    s["integrate"] = vec(pin.integrate(model, q, w))
    s["difference"] = vec(pin.difference(model, q, q2))
    s["dintegrate"] = {
        "d0": mat(pin.dIntegrate(model, q, w, pin.ARG0), nv, nv),
        "d1": mat(pin.dIntegrate(model, q, w, pin.ARG1), nv, nv),
    }
    s["ddifference"] = {
        "d0": mat(pin.dDifference(model, q, q2, pin.ARG0), nv, nv),
        "d1": mat(pin.dDifference(model, q, q2, pin.ARG1), nv, nv),
    }

    d = model.createData()
    pin.forwardKinematics(model, d, q)
    s["omi"] = [mat(d.oMi[i].homogeneous, 4, 4) for i in range(1, model.njoints)]

    s["fext"] = mat(fext, model.njoints, 6)
    forces = pin.StdVec_Force()
    for row in fext:
        forces.append(pin.Force(np.asarray(row, dtype=float)))  # [linear; angular]
    s["rnea_fext"] = vec(run(pin.rnea, q, v, a, forces)[0])
    if wbc:
        add_wbc(model, frames, s, run, q, v, a, tau, forces)
    if contacts:
        add_contacts(model, s, q, v, tau, contacts)
    return s


def add_wbc(model, frames, s, run, q, v, a, tau, forces):
    """The whole-body control keys of a state (--wbc)."""
    nv = model.nv
    s["aba_fext"] = vec(run(pin.aba, q, v, tau, forces)[0])
    (ddq_dq, ddq_dv, ddq_dtau), _ = run(pin.computeABADerivatives, q, v, tau, forces)
    s["aba_derivatives_fext"] = {
        "ddq_dq": mat(ddq_dq, nv, nv),
        "ddq_dv": mat(ddq_dv, nv, nv),
        "ddq_dtau": mat(sym_upper(ddq_dtau), nv, nv),
    }

    dj = model.createData()
    pin.computeJointJacobiansTimeVariation(model, dj, q, v)
    pin.updateFramePlacements(model, dj)
    da = model.createData()
    pin.forwardKinematics(model, da, q, v, np.zeros(nv))
    pin.updateFramePlacements(model, da)
    for name, fid in frames:
        f = s["frames"][name]
        for suffix, ref in (
            ("local", pin.LOCAL),
            ("world", pin.WORLD),
            ("local_world_aligned", pin.LOCAL_WORLD_ALIGNED),
        ):
            f["jacobian_time_variation_" + suffix] = mat(
                pin.getFrameJacobianTimeVariation(model, dj, fid, ref), 6, nv
            )
        f["acceleration_drift_local"] = vec(pin.getFrameAcceleration(model, da, fid, pin.LOCAL).vector)
        f["acceleration_drift_local_world_aligned"] = vec(
            pin.getFrameAcceleration(model, da, fid, pin.LOCAL_WORLD_ALIGNED).vector
        )
        f["classical_acceleration_drift_local_world_aligned"] = vec(
            pin.getFrameClassicalAcceleration(model, da, fid, pin.LOCAL_WORLD_ALIGNED).vector
        )

    d = model.createData()
    dhg = pin.computeCentroidalMomentumTimeVariation(model, d, q, v, a)
    s["dhg"] = vec(np.array(dhg.vector, copy=True))  # [linear; angular]
    s["regressor"] = mat(run(pin.computeJointTorqueRegressor, q, v, a)[0], nv, 10 * (model.njoints - 1))


def contact_terms(model, q, v, contacts):
    """The stacked contact Jacobian and drift of `contacts`, a list of
    (frame id, "point" | "6d")."""
    nv = model.nv
    dj = model.createData()
    pin.computeJointJacobians(model, dj, q)
    pin.updateFramePlacements(model, dj)
    da = model.createData()
    pin.forwardKinematics(model, da, q, v, np.zeros(nv))
    pin.updateFramePlacements(model, da)
    rows, drift = [], []
    for fid, kind in contacts:
        if kind == "point":
            j = np.array(pin.getFrameJacobian(model, dj, fid, pin.LOCAL_WORLD_ALIGNED), copy=True).reshape(6, nv)
            rows.append(j[:3])
            acc = pin.getFrameClassicalAcceleration(model, da, fid, pin.LOCAL_WORLD_ALIGNED)
            drift.append(np.array(acc.linear, copy=True))
        else:
            rows.append(np.array(pin.getFrameJacobian(model, dj, fid, pin.LOCAL), copy=True).reshape(6, nv))
            drift.append(np.array(pin.getFrameAcceleration(model, da, fid, pin.LOCAL).vector, copy=True))
    return np.vstack(rows), np.concatenate(drift)


def add_contacts(model, s, q, v, tau, contacts):
    """The contact keys of a state (--contacts)."""
    nv = model.nv
    jac, gamma = contact_terms(model, q, v, contacts)
    nc = jac.shape[0]
    s["contact_jacobian"] = mat(jac, nc, nv)
    s["contact_drift"] = vec(gamma)
    d = model.createData()
    ddq = np.array(pin.forwardDynamics(model, d, q, v, tau, jac, gamma), copy=True)
    s["contact_dynamics"] = {"ddq": vec(ddq), "lambda": vec(np.array(d.lambda_c, copy=True))}


def refine_ill_conditioned(model, state, q, v, tau, threshold, fext=None):
    """Where M is ill-conditioned (condition number above `threshold`),
    Pinocchio's M⁻¹ (and with it ABA's derivatives) carries rounding errors of
    order cond(M)·ε, above the spec tolerance on robots with tiny link inertias
    (iCub). Those quantities are then recomputed from Pinocchio's own M and RNEA
    derivatives with LAPACK's pivoted solver: `minv = M⁻¹`, `ddq_dq = -M⁻¹
    dtau_dq`, `ddq_dv = -M⁻¹ dtau_dv` at `a = aba(q, v, tau)` (and, when the
    state has them, `aba_derivatives_fext` the same way at `a = aba(q, v, tau,
    fext)` with the RNEA derivatives with `fext`). The state records it under
    "refined": {"cond": ..., "quantities": [...]}."""
    M = np.array(state["crba"])
    cond = float(np.linalg.cond(M))
    if not np.isfinite(cond) or cond <= threshold:
        return state
    nv = model.nv
    a = pin.aba(model, model.createData(), q, v, tau).copy()
    d = model.createData()
    dtau_dq, dtau_dv, _ = (np.array(x, copy=True) for x in pin.computeRNEADerivatives(model, d, q, v, a))
    minv = np.linalg.inv(M)
    minv = 0.5 * (minv + minv.T)
    state["minv"] = mat(minv, nv, nv)
    state["aba_derivatives"] = {
        "ddq_dq": mat(-np.linalg.solve(M, dtau_dq), nv, nv),
        "ddq_dv": mat(-np.linalg.solve(M, dtau_dv), nv, nv),
        "ddq_dtau": mat(minv, nv, nv),
    }
    quantities = ["minv", "aba_derivatives"]
    if "aba_derivatives_fext" in state and fext is not None:
        # The same with the external forces: a = aba(q, v, tau, fext), the
        # RNEA derivatives with fext.
        forces = pin.StdVec_Force()
        for row in fext:
            forces.append(pin.Force(np.asarray(row, dtype=float)))
        a = pin.aba(model, model.createData(), q, v, tau, forces).copy()
        d = model.createData()
        dtau_dq, dtau_dv, _ = (
            np.array(x, copy=True) for x in pin.computeRNEADerivatives(model, d, q, v, a, forces)
        )
        state["aba_derivatives_fext"] = {
            "ddq_dq": mat(-np.linalg.solve(M, dtau_dq), nv, nv),
            "ddq_dv": mat(-np.linalg.solve(M, dtau_dv), nv, nv),
            "ddq_dtau": mat(minv, nv, nv),
        }
        quantities.append("aba_derivatives_fext")
    state["refined"] = {"cond": cond, "quantities": quantities}
    return state


def is_finite(x):
    if isinstance(x, dict):
        return all(is_finite(v) for v in x.values())
    return bool(np.all(np.isfinite(np.asarray(x, dtype=float))))


def omit_nonfinite(state):
    """Removes the quantities of a state that hold NaN or infinities (one level
    into objects, two into "frames") and lists them under "nonfinite"."""
    omitted = []
    for key in list(state):
        if key == "refined":
            continue
        value = state[key]
        if key == "frames":
            for frame, quantities in value.items():
                for name in [n for n, v in quantities.items() if not is_finite(v)]:
                    del quantities[name]
                    omitted.append(f"frames.{frame}.{name}")
        elif isinstance(value, dict):
            for name in [n for n, v in value.items() if not is_finite(v)]:
                del value[name]
                omitted.append(f"{key}.{name}")
            if not value:
                del state[key]
        elif not is_finite(value):
            del state[key]
            omitted.append(key)
    if omitted:
        state["nonfinite"] = omitted
    return state


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("urdf", help="URDF path, recorded as given")
    p.add_argument("--floating-base", action="store_true", help="free-flyer root joint")
    p.add_argument("--states", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument(
        "--omit-nonfinite",
        action="store_true",
        help="leave NaN or infinite quantities out (listed in each state's 'nonfinite')",
    )
    p.add_argument(
        "--refine-ill-conditioned",
        type=float,
        metavar="COND",
        help="recompute minv and aba_derivatives with LAPACK where cond(M) > COND",
    )
    p.add_argument("--wbc", action="store_true", help="add the whole-body control quantities")
    p.add_argument(
        "--armature-seed",
        type=int,
        metavar="A",
        help="model.armature from default_rng([A, 2]) in U[0.01, 0.5]^nv, written in the header",
    )
    p.add_argument(
        "--contacts",
        metavar="FRAME:point|6d,...",
        help="contact set (link frames): contact_jacobian, contact_drift, contact_dynamics",
    )
    p.add_argument(
        "--frames",
        metavar="NAME,...",
        help="per-frame quantities for these link frames only (default: every link frame)",
    )
    args = p.parse_args(argv)

    if args.floating_base:
        model = pin.buildModelFromUrdf(args.urdf, pin.JointModelFreeFlyer())
    else:
        model = pin.buildModelFromUrdf(args.urdf)
    frames = body_frames(model)

    doc = {
        "model": {
            "urdf": args.urdf,
            "floating_base": bool(args.floating_base),
            "nq": int(model.nq),
            "nv": int(model.nv),
            "joint_names": list(model.names)[1:],
            "frames": [name for name, _ in frames],
        },
        "states": [],
    }
    if len({name for name, _ in frames}) != len(frames):
        sys.exit(f"{args.urdf}: duplicate BODY frame names")
    frame_ids = dict(frames)
    if args.armature_seed is not None:
        model.armature = np.random.default_rng([args.armature_seed, 2]).uniform(0.01, 0.5, model.nv)
        doc["model"]["armature"] = vec(model.armature)
    contacts = []
    if args.contacts:
        for item in args.contacts.split(","):
            name, _, kind = item.rpartition(":")
            if kind not in ("point", "6d") or name not in frame_ids:
                sys.exit(f"--contacts: {item!r} is not LINK_FRAME:point or LINK_FRAME:6d")
            contacts.append((frame_ids[name], kind))
        doc["model"]["contacts"] = [
            {"frame": model.frames[fid].name, "type": kind} for fid, kind in contacts
        ]
    if args.frames:
        wanted = args.frames.split(",")
        unknown = [n for n in wanted if n not in frame_ids]
        if unknown:
            sys.exit(f"--frames: no link frame {', '.join(unknown)}")
        frames = [(name, fid) for name, fid in frames if name in wanted]

    rng = np.random.default_rng(args.seed)
    fext_rng = np.random.default_rng([args.seed, 1])
    for _ in range(args.states):
        inputs = draw_state(model, rng)
        fext = draw_fext(model, fext_rng)
        state = compute_state(model, frames, *inputs, fext, wbc=args.wbc, contacts=contacts)
        if args.refine_ill_conditioned is not None:
            q, v, _, tau = inputs[:4]
            state = refine_ill_conditioned(model, state, q, v, tau, args.refine_ill_conditioned, fext)
        doc["states"].append(omit_nonfinite(state) if args.omit_nonfinite else state)

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
