#!/usr/bin/env python3
r"""MuJoCo's own values for an MJCF model, in rbdgen's conventions.

    .venv/bin/python scripts/make_mujoco_reference.py MJCF --states N --seed S \
        --out FILE.json

A second opinion beside Pinocchio (make_mjcf_reference.py): MuJoCo 4.0
compiles the file itself, so every MJCF feature (defaults, childclass, refs
of multi-joint bodies, euler sequences, geom inertias) is checked against the
simulator that defines them. Each state holds, in rbdgen's (Pinocchio's)
layout:

  "q":   configuration; MuJoCo's free joint [x y z qw qx qy qz] and ball
         [qw qx qy qz] become [x y z qx qy qz qw] and [qx qy qz qw];
  "v":   velocity; a free joint's linear velocity is in the body frame here,
         in the world frame in MuJoCo (qvel = T v with T = R on those three
         entries, the identity elsewhere);
  "crba": M = T^T M_mj T (mj_fullM, armature included);
  "nle": T^T (b_mj + M_mj Tdot v), b_mj = qfrc_bias (Coriolis, centrifugal
         and gravity; springs and damping are passive forces, not in it),
         Tdot v = R (omega x v_lin) on the free joint's linear entries;
  "bodies": {name: 4 x 4 world placement} (xpos, xmat);
  "sites":  {name: 4 x 4 world placement} (site_xpos, site_xmat).

The header holds "mjcf", "nq", "nv", "mass" (body_mass by name) and
"armature" (dof_armature). A model whose mesh files are not there (the
committed Menagerie models keep the XML only) is compiled without its mesh
geoms (load_mujoco).

States: q from default_rng(S) (hinge and slide U[-1, 1] about their ref, ball
and free joints a uniform random unit quaternion, free positions U[-1, 1]),
v in U[-1, 1]^nv.
"""

import argparse
import json
import os

import mujoco
import numpy as np

FREE, BALL = 0, 1


def load_mujoco(path):
    """MuJoCo's model of the file. When mesh files are missing (committed
    models keep the XML only), every mesh asset and every geom that uses one
    is dropped first: with explicit <inertial> elements they change no
    dynamics (a body that takes its inertia from a mesh would be refused by
    rbdgen anyway)."""
    import xml.etree.ElementTree as ET
    import tempfile

    root = ET.parse(path).getroot()
    directory = os.path.dirname(os.path.abspath(path))
    compiler = root.find("compiler")
    meshdir = compiler.get("meshdir", "") if compiler is not None else ""
    meshes = [m for a in root.iter("asset") for m in a.findall("mesh")]
    if all(os.path.exists(os.path.join(directory, meshdir, m.get("file", ""))) for m in meshes):
        return mujoco.MjModel.from_xml_path(path)
    for asset in root.iter("asset"):
        for m in asset.findall("mesh"):
            asset.remove(m)
    for parent in list(root.iter()):
        for g in parent.findall("geom"):
            if g.get("mesh") is not None:
                parent.remove(g)
    with tempfile.NamedTemporaryFile("w", suffix=".xml", dir=directory, delete=False) as f:
        f.write(ET.tostring(root, encoding="unicode"))
    try:
        return mujoco.MjModel.from_xml_path(f.name)
    finally:
        os.remove(f.name)


def homogeneous(pos, mat):
    h = np.eye(4)
    h[:3, :3] = np.asarray(mat).reshape(3, 3)
    h[:3, 3] = pos
    return h.tolist()


def unit_quaternion(rng):
    x = rng.normal(size=4)
    return x / np.linalg.norm(x)


def state(m, rng):
    d = mujoco.MjData(m)
    qpos = m.qpos0.copy()
    q = []
    for j in range(m.njnt):
        a, t = m.jnt_qposadr[j], m.jnt_type[j]
        if t == FREE:
            p, w = rng.uniform(-1, 1, 3), unit_quaternion(rng)
            qpos[a:a + 7] = np.concatenate([p, w])
            q += list(p) + list(w[[1, 2, 3, 0]])
        elif t == BALL:
            w = unit_quaternion(rng)
            qpos[a:a + 4] = w
            q += list(w[[1, 2, 3, 0]])
        else:
            qpos[a] = m.qpos0[a] + rng.uniform(-1, 1)
            q.append(qpos[a])
    v = rng.uniform(-1, 1, m.nv)
    d.qpos[:] = qpos
    mujoco.mj_kinematics(m, d)
    # T maps rbdgen's velocity to MuJoCo's; Tdot v its time derivative applied to v.
    t = np.eye(m.nv)
    tdot_v = np.zeros(m.nv)
    for j in range(m.njnt):
        if m.jnt_type[j] == FREE:
            b, k = m.jnt_bodyid[j], m.jnt_dofadr[j]
            r = d.xmat[b].reshape(3, 3)
            t[k:k + 3, k:k + 3] = r
            tdot_v[k:k + 3] = r @ np.cross(v[k + 3:k + 6], v[k:k + 3])
    d.qvel[:] = t @ v
    mujoco.mj_forward(m, d)
    full = np.zeros((m.nv, m.nv))
    mujoco.mj_fullM(m, d, full)
    out = {
        "q": [float(x) for x in q],
        "v": [float(x) for x in v],
        "crba": (t.T @ full @ t).tolist(),
        "nle": list(t.T @ (d.qfrc_bias + full @ tdot_v)),
        "bodies": {
            mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, b): homogeneous(d.xpos[b], d.xmat[b])
            for b in range(1, m.nbody)
        },
        "sites": {
            mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_SITE, s): homogeneous(d.site_xpos[s], d.site_xmat[s])
            for s in range(m.nsite)
            if mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_SITE, s)
        },
    }
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("mjcf", help="MJCF path, recorded as given")
    p.add_argument("--states", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    m = load_mujoco(args.mjcf)
    rng = np.random.default_rng(args.seed)
    doc = {
        "model": {
            "mjcf": args.mjcf,
            "nq": int(m.nq),
            "nv": int(m.nv),
            "mass": {
                mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, b): float(m.body_mass[b])
                for b in range(1, m.nbody)
            },
            "armature": [float(x) for x in m.dof_armature],
        },
        "states": [state(m, rng) for _ in range(args.states)],
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
