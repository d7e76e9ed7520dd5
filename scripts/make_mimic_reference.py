#!/usr/bin/env python3
r"""Pinocchio reference values for models with mimic joints.

    .venv/bin/python scripts/make_mimic_reference.py URDF [--floating-base] \
        [--model-urdf URDF2] --states N --seed S --out FILE.json

URDF is loaded with Pinocchio 4.1.0's buildModelFromUrdf(URDF[, JointModelFreeFlyer()],
mimic=True) (the mimic model) and without mimic (the full model). --model-urdf
names the file the runtime loads, when it differs (a chain of mimics, which
Pinocchio refuses: URDF is then its composed equivalent).

The header gives nq, nv, the joint names and, per joint, idx_q, idx_v and, for
a mimicking joint, Pinocchio's scaling and offset. States: q = integrate(neutral,
U[-1,1]^nv), then v, a, tau in U[-1,1]^nv, from numpy's default_rng(S).

From the mimic model (Pinocchio supports these with mimic joints): rnea, nle,
gravity, crba (symmetrised), com, jcom, ag, hg, dhg, and per link frame its
placement and getFrameJacobian in LOCAL, WORLD and LOCAL_WORLD_ALIGNED.
Pinocchio 4.1.0 refuses aba, computeMinverse, computeKineticEnergy and
computePotentialEnergy on a mimic model; those keys come from the full model at
q_full = G q + offset, v_full = G v (G: the full model's dof of each joint
from its mimic's scaling): minv = (G' M_full G)^-1, aba = minv (tau - G' nle_full),
kinetic_energy = 1/2 v_full' M_full v_full, potential_energy of the full model.
Checked when this was written: rnea = G' rnea_full(G v, G a), crba = G' M_full G,
J = J_full G, Ag = Ag_full G, com and dhg equal, to 2e-15 (not asserted here).
"""

import argparse
import json
import os

import numpy as np
import pinocchio as pin


def mat(m, rows, cols):
    return np.asarray(m, dtype=float).reshape(rows, cols).tolist()


def vec(x):
    return [float(e) for e in np.asarray(x, dtype=float).reshape(-1)]


def sym_upper(m):
    m = np.asarray(m, dtype=float)
    return np.triu(m) + np.triu(m, 1).T


def build(path, floating, mimic):
    if floating:
        return pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer(), mimic=mimic)
    return pin.buildModelFromUrdf(path, mimic=mimic)


def reduction(model, full):
    """G [nv_full x nv] and the offset [nq_full] with q_full = G q + offset
    for the 1-dof joints (mimicking joints are revolute or prismatic)."""
    g = np.zeros((full.nv, model.nv))
    offset = np.zeros(full.nq)
    expand_q = np.zeros((full.nq, model.nq))
    for i in range(1, model.njoints):
        j, fj = model.joints[i], full.joints[i]
        if j.shortname() == "JointModelMimic":
            m = j.extract()
            g[fj.idx_v, j.idx_v] = m.scaling
            expand_q[fj.idx_q, j.idx_q] = m.scaling
            offset[fj.idx_q] = m.offset
        else:
            for k in range(fj.nv):
                g[fj.idx_v + k, j.idx_v + k] = 1.0
            for k in range(fj.nq):
                expand_q[fj.idx_q + k, j.idx_q + k] = 1.0
    return g, expand_q, offset


def main():
    p = argparse.ArgumentParser()
    p.add_argument("urdf")
    p.add_argument("--floating-base", action="store_true")
    p.add_argument("--model-urdf")
    p.add_argument("--states", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--out", required=True)
    args = p.parse_args()

    model = build(args.urdf, args.floating_base, True)
    full = build(args.urdf, args.floating_base, False)
    g, expand_q, offset = reduction(model, full)
    nv = model.nv
    joints = []
    for i in range(1, model.njoints):
        j = model.joints[i]
        entry = {"name": model.names[i], "idx_q": j.idx_q, "idx_v": j.idx_v}
        if j.shortname() == "JointModelMimic":
            m = j.extract()
            entry["mimic"] = {"scaling": m.scaling, "offset": m.offset}
        joints.append(entry)
    frames = [(f.name, i) for i, f in enumerate(model.frames) if f.type == pin.FrameType.BODY]
    header = {
        "urdf": os.path.relpath(args.model_urdf or args.urdf),
        "pinocchio_urdf": os.path.relpath(args.urdf),
        "floating_base": args.floating_base,
        "nq": model.nq,
        "nv": nv,
        "joints": joints,
        "neutral": vec(pin.neutral(model)),
        "frames": [name for name, _ in frames],
        "pinocchio": pin.__version__,
        "seed": args.seed,
    }
    rng = np.random.default_rng(args.seed)
    states = []
    for _ in range(args.states):
        q = pin.integrate(model, pin.neutral(model), rng.uniform(-1.0, 1.0, nv))
        v, a, tau = (rng.uniform(-1.0, 1.0, nv) for _ in range(3))
        d = model.createData()
        s = {"q": vec(q), "v": vec(v), "a": vec(a), "tau": vec(tau)}
        s["rnea"] = vec(pin.rnea(model, model.createData(), q, v, a))
        s["nle"] = vec(pin.nonLinearEffects(model, model.createData(), q, v))
        s["gravity"] = vec(pin.computeGeneralizedGravity(model, model.createData(), q))
        m = sym_upper(pin.crba(model, model.createData(), q))
        s["crba"] = mat(m, nv, nv)
        s["com"] = vec(pin.centerOfMass(model, model.createData(), q))
        s["jcom"] = mat(pin.jacobianCenterOfMass(model, model.createData(), q), 3, nv)
        d = model.createData()
        s["ag"] = mat(np.array(pin.ccrba(model, d, q, v), copy=True), 6, nv)
        s["hg"] = vec(d.hg.vector)
        d = model.createData()
        s["dhg"] = vec(np.array(pin.computeCentroidalMomentumTimeVariation(model, d, q, v, a).vector))
        d = model.createData()
        pin.computeJointJacobians(model, d, q)
        pin.updateFramePlacements(model, d)
        s["frames"] = {
            name: {
                "placement": mat(d.oMf[fid].homogeneous, 4, 4),
                "jacobian_local": mat(pin.getFrameJacobian(model, d, fid, pin.LOCAL), 6, nv),
                "jacobian_world": mat(pin.getFrameJacobian(model, d, fid, pin.WORLD), 6, nv),
                "jacobian_local_world_aligned": mat(
                    pin.getFrameJacobian(model, d, fid, pin.LOCAL_WORLD_ALIGNED), 6, nv
                ),
            }
            for name, fid in frames
        }
        # Refused by Pinocchio on the mimic model: from the full model.
        q_full = expand_q @ q + offset
        v_full = g @ v
        m_full = sym_upper(pin.crba(full, full.createData(), q_full))
        nle_full = pin.nonLinearEffects(full, full.createData(), q_full, v_full)
        minv = np.linalg.inv(g.T @ m_full @ g)
        s["minv"] = mat(minv, nv, nv)
        s["aba"] = vec(minv @ (tau - g.T @ nle_full))
        s["kinetic_energy"] = float(0.5 * v_full @ m_full @ v_full)
        s["potential_energy"] = float(pin.computePotentialEnergy(full, full.createData(), q_full))
        states.append(s)
    with open(args.out, "w") as f:
        json.dump({"model": header, "states": states}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
