#!/usr/bin/env python3
r"""Pinocchio reference values for an MJCF model, in make_reference.py's format.

    .venv/bin/python scripts/make_mjcf_reference.py MJCF [--floating-base] \
        --states N --seed S --out FILE.json [--report]

The model is Pinocchio 4.1.0's buildModelFromMJCF(MJCF[, JointModelFreeFlyer()])
with four corrections where its parser departs from MuJoCo's meaning of the
file (runtime/src/model/mjcf/mod.rs lists them); each one applied is
recorded in the header's "corrections":

  - "inertias from MuJoCo": every joint's inertia is rebuilt from MuJoCo's
    compiled body inertias (mujoco.MjModel: body_mass, body_ipos, body_iquat,
    body_inertia), moved into the joint frame through Pinocchio's own BODY
    frame placements. Pinocchio reads a geom's `mass` from the element only
    (not from its default class), drops geoms with contype = conaffinity = 0
    and ignores settotalmass; MuJoCo's compiler is the authority on inertias.
  - "free-flyer placement": a free-flyer from a <freejoint> gets the identity
    placement (MuJoCo: a free joint's q is the body's world pose); Pinocchio
    4.1.0 puts it at p - R p of the body's initial pose (R, p).
  - "site placements": an OP_FRAME (site) at MuJoCo's compiled site pose in
    its body (site_pos, site_quat); Pinocchio reads a site's pos and
    orientation from the element only, not from its default class.
  - "gravity": model.gravity from MuJoCo's opt.gravity.

Refused (sys.exit) where no correction is implemented: a multi-joint body with
a `ref` (Pinocchio's composite joints get it wrong), a jointless first body
with a non-identity pose (Pinocchio ignores it).

Besides make_reference.py's keys, the header holds "mjcf" (the path as given),
"composite" (whether any Pinocchio joint is a JointModelComposite) and
"corrections"; each state holds "kinetic_energy_crba" = 0.5 v^T M v with
Pinocchio's M (armature included; its computeKineticEnergy leaves the armature
of some joint types out) and "sites": for every OP_FRAME (MJCF site) its
"placement" and "jacobian_local" / "jacobian_world" /
"jacobian_local_world_aligned".

--wbc and --contacts add make_reference.py's whole-body keys and contact set.

--report prints, instead of writing a file, where Pinocchio's analytical
derivatives (computeRNEADerivatives, computeABADerivatives, dccrba) and its
kinetic energy disagree with central differences and with 0.5 v^T M v, on the
states that would be written.
"""

import argparse
import json
import os
import sys

import mujoco
import numpy as np
import pinocchio as pin

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_reference as mr  # noqa: E402
from make_mujoco_reference import load_mujoco  # noqa: E402


def body_inertias(mj):
    """MuJoCo's compiled inertia of every body, in the body frame, by name."""
    out = {}
    for b in range(1, mj.nbody):
        name = mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_BODY, b)
        r = np.zeros(9)
        mujoco.mju_quat2Mat(r, mj.body_iquat[b])
        r = r.reshape(3, 3)
        out[name] = pin.Inertia(
            float(mj.body_mass[b]), mj.body_ipos[b].copy(), r @ np.diag(mj.body_inertia[b]) @ r.T
        )
    return out


def corrected_model(path, floating_base):
    """Pinocchio's model of the file with the corrections of the module doc."""
    if floating_base:
        built = pin.buildModelFromMJCF(path, pin.JointModelFreeFlyer(), "root_joint")
        model = built[0] if isinstance(built, tuple) else built
    else:
        model = pin.buildModelFromMJCF(path)
    mj = load_mujoco(path)
    corrections = []

    # Refusals: Pinocchio defects not corrected here.
    for b in range(1, mj.nbody):
        first, n = mj.body_jntadr[b], mj.body_jntnum[b]
        name = mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_BODY, b)
        refs = [mj.qpos0[mj.jnt_qposadr[j]] for j in range(first, first + n) if mj.jnt_type[j] in (2, 3)]
        if n > 1 and any(r != 0 for r in refs) and model.existFrame(name, pin.BODY):
            sys.exit(f"{path}: body {name} has several joints, one with a ref: not corrected")
    root = 1 if mj.nbody > 1 else None
    if root is not None and mj.body_jntnum[root] == 0 and not floating_base:
        pose = np.concatenate([mj.body_pos[root], mj.body_quat[root]])
        if np.abs(pose - [0, 0, 0, 1, 0, 0, 0]).max() > 0:
            sys.exit(f"{path}: a jointless first body with a pose: not corrected")

    inertias = body_inertias(mj)
    new = [pin.Inertia.Zero() for _ in range(model.njoints)]
    for f in model.frames:
        if f.type == pin.FrameType.BODY and f.parentJoint > 0:
            new[f.parentJoint] += f.placement.act(inertias[f.name])
    changed = max(
        np.abs(model.inertias[j].toDynamicParameters() - new[j].toDynamicParameters()).max()
        for j in range(1, model.njoints)
    )
    for j in range(1, model.njoints):
        model.inertias[j] = new[j]
    if changed > 1e-12:
        corrections.append("inertias from MuJoCo")

    for j in range(1, model.njoints):
        if model.joints[j].shortname() == "JointModelFreeFlyer" and model.names[j] != "root_joint":
            if not model.jointPlacements[j].isIdentity():
                model.jointPlacements[j] = pin.SE3.Identity()
                corrections.append("free-flyer placement")

    for fid, f in enumerate(model.frames):
        if f.type != pin.FrameType.OP_FRAME:
            continue
        s = mujoco.mj_name2id(mj, mujoco.mjtObj.mjOBJ_SITE, f.name)
        body = mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_BODY, mj.site_bodyid[s])
        r = np.zeros(9)
        mujoco.mju_quat2Mat(r, mj.site_quat[s])
        in_body = pin.SE3(r.reshape(3, 3), mj.site_pos[s].copy())
        placement = model.frames[model.getFrameId(body, pin.BODY)].placement * in_body
        if not placement.isApprox(f.placement, 1e-12):
            model.frames[fid].placement = placement
            corrections.append("site placements")

    gravity = np.asarray(mj.opt.gravity, dtype=float)
    if np.abs(gravity - model.gravity.linear).max() > 0:
        model.gravity.linear = gravity
        corrections.append("gravity")

    # A root_joint added by --floating-base has no dofs in MuJoCo's model.
    added = 6 if model.njoints > 1 and model.names[1] == "root_joint" else 0
    armature = np.concatenate([np.zeros(added), mj.dof_armature[: model.nv - added]])
    if np.abs(armature - model.armature).max() > 0:
        sys.exit(f"{path}: Pinocchio's armature differs from MuJoCo's")
    return model, corrections


def op_frames(model):
    return [(f.name, i) for i, f in enumerate(model.frames) if f.type == pin.FrameType.OP_FRAME]


def site_terms(model, sites, q):
    nv = model.nv
    d = model.createData()
    pin.computeJointJacobians(model, d, q)
    pin.updateFramePlacements(model, d)
    out = {}
    for name, fid in sites:
        out[name] = {
            "placement": mr.mat(d.oMf[fid].homogeneous, 4, 4),
            "jacobian_local": mr.mat(pin.getFrameJacobian(model, d, fid, pin.LOCAL), 6, nv),
            "jacobian_world": mr.mat(pin.getFrameJacobian(model, d, fid, pin.WORLD), 6, nv),
            "jacobian_local_world_aligned": mr.mat(
                pin.getFrameJacobian(model, d, fid, pin.LOCAL_WORLD_ALIGNED), 6, nv
            ),
        }
    return out


def kinetic_energy_crba(model, q, v):
    m = mr.sym_upper(pin.crba(model, model.createData(), q))
    return float(0.5 * v @ m @ v)


def central(f, model, q, n, h=1e-6):
    """d f(integrate(q, e)) / d e at e = 0 by central differences, columns per e_k."""
    cols = []
    for k in range(n):
        e = np.zeros(n)
        e[k] = h
        cols.append((f(pin.integrate(model, q, e)) - f(pin.integrate(model, q, -e))) / (2 * h))
    return np.array(cols).T


def report(model, path, states, rng):
    """Pinocchio's analytical derivatives and kinetic energy against central differences."""
    nv = model.nv

    def rel(a, b):
        return float(np.abs(a - b).max() / max(1.0, np.abs(b).max()))

    worst = {}
    for _ in range(states):
        q, v, a, tau, _, _ = mr.draw_state(model, rng)
        d = model.createData()
        dq, dv, _ = (np.array(x) for x in pin.computeRNEADerivatives(model, d, q, v, a))
        fd_q = central(lambda x: pin.rnea(model, model.createData(), x, v, a).copy(), model, q, nv)
        fd_v = np.array([
            (pin.rnea(model, model.createData(), q, v + h, a) - pin.rnea(model, model.createData(), q, v - h, a)) / 2e-6
            for h in np.eye(nv) * 1e-6
        ]).T
        d = model.createData()
        ddq, ddv, _ = (np.array(x) for x in pin.computeABADerivatives(model, d, q, v, tau))
        fd_aq = central(lambda x: pin.aba(model, model.createData(), x, v, tau).copy(), model, q, nv)
        d = model.createData()
        pin.dccrba(model, d, q, v)
        dag = np.array(d.dAg)
        # dAg = d/dt Ag along (q, v): central difference of ccrba along integrate(q, t v).
        h = 1e-6
        ag = lambda x: np.array(pin.ccrba(model, model.createData(), x, v))
        fd_dag = (ag(pin.integrate(model, q, h * v)) - ag(pin.integrate(model, q, -h * v))) / (2 * h)
        ke = pin.computeKineticEnergy(model, model.createData(), q, v)
        for key, value in [
            ("computeRNEADerivatives dtau_dq", rel(dq, fd_q)),
            ("computeRNEADerivatives dtau_dv", rel(dv, fd_v)),
            ("computeABADerivatives ddq_dq", rel(ddq, fd_aq)),
            ("dccrba dAg", rel(dag, fd_dag)),
            ("computeKineticEnergy - 0.5 v'Mv", abs(ke - kinetic_energy_crba(model, q, v))),
        ]:
            worst[key] = max(worst.get(key, 0.0), value)
    kinds = sorted({model.joints[j].shortname() for j in range(1, model.njoints)})
    print(f"{path}: nv {nv}, joints {', '.join(kinds)}")
    for key, value in worst.items():
        print(f"  {key}: {value:.2e}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("mjcf", help="MJCF path, recorded as given")
    p.add_argument("--floating-base", action="store_true", help="free-flyer root joint")
    p.add_argument("--states", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--out")
    p.add_argument("--report", action="store_true", help="print Pinocchio's defects instead")
    p.add_argument("--wbc", action="store_true", help="add make_reference.py's whole-body keys")
    p.add_argument(
        "--contacts",
        metavar="FRAME:point|6d,...",
        help="contact set (body frames), as make_reference.py's",
    )
    args = p.parse_args(argv)

    model, corrections = corrected_model(args.mjcf, args.floating_base)
    rng = np.random.default_rng(args.seed)
    if args.report:
        report(model, args.mjcf, args.states, rng)
        return
    if not args.out:
        sys.exit("--out is required without --report")
    frames = mr.body_frames(model)
    sites = op_frames(model)
    doc = {
        "model": {
            "mjcf": args.mjcf,
            "floating_base": bool(args.floating_base),
            "nq": int(model.nq),
            "nv": int(model.nv),
            "joint_names": list(model.names)[1:],
            "frames": [name for name, _ in frames],
            "sites": [name for name, _ in sites],
            "composite": any(
                model.joints[j].shortname() == "JointModelComposite" for j in range(1, model.njoints)
            ),
            "corrections": sorted(set(corrections)),
            "armature": mr.vec(model.armature),
        },
        "states": [],
    }
    if len({name for name, _ in frames}) != len(frames):
        sys.exit(f"{args.mjcf}: duplicate BODY frame names")
    frame_ids = dict(frames)
    contacts = []
    if args.contacts:
        for item in args.contacts.split(","):
            name, _, kind = item.rpartition(":")
            if kind not in ("point", "6d") or name not in frame_ids:
                sys.exit(f"--contacts: {item!r} is not BODY_FRAME:point or BODY_FRAME:6d")
            contacts.append((frame_ids[name], kind))
        doc["model"]["contacts"] = [
            {"frame": model.frames[fid].name, "type": kind} for fid, kind in contacts
        ]
    fext_rng = np.random.default_rng([args.seed, 1])
    for _ in range(args.states):
        inputs = mr.draw_state(model, rng)
        fext = mr.draw_fext(model, fext_rng)
        state = mr.compute_state(model, frames, *inputs, fext, wbc=args.wbc, contacts=contacts)
        q, v = inputs[0], inputs[1]
        state["kinetic_energy_crba"] = kinetic_energy_crba(model, q, v)
        state["sites"] = site_terms(model, sites, q)
        doc["states"].append(state)

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
