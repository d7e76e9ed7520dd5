#!/usr/bin/env python3
r"""Pinocchio reference values of the RNEA derivatives with external forces.

    .venv/bin/python scripts/make_fext_derivative_reference.py \
        --from tests/reference/go2_z1_floating.json --states 3 \
        --out tests/reference/fext_derivatives/go2_z1_floating.json

Reads the model header and the first N states (q, v, a, fext) of an
eval-format reference file (made by make_reference.py) and writes, per state,
  "q", "v", "a": as in the source state,
  "fext": njoints x 6, [linear; angular] per joint id in the joint's frame
          (row 0, the universe, ignored by Pinocchio),
  "dtau_dq", "dtau_dv", "dtau_da": nv x nv each, from
          computeRNEADerivatives(model, data, q, v, a, fext) (the forces held
          fixed; dtau_dq in the tangent space, dtau_da = M with its lower
          triangle filled from the upper one).
The header "model" is copied from the source file, so the same loader reads it.
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


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--from", dest="source", required=True)
    p.add_argument("--states", type=int, default=3)
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    with open(args.source) as f:
        source = json.load(f)
    header = source["model"]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    urdf = os.path.join(root, header["urdf"])
    if header["floating_base"]:
        model = pin.buildModelFromUrdf(urdf, pin.JointModelFreeFlyer())
    else:
        model = pin.buildModelFromUrdf(urdf)
    nv = model.nv
    states = []
    for s in source["states"][: args.states]:
        q, v, a = (np.array(s[k], dtype=float) for k in ("q", "v", "a"))
        fext = np.array(s["fext"], dtype=float)
        forces = pin.StdVec_Force()
        for row in fext:
            forces.append(pin.Force(row))  # [linear; angular]
        d = model.createData()
        dq, dv, da = pin.computeRNEADerivatives(model, d, q, v, a, forces)
        da = np.array(da, dtype=float)
        da = np.triu(da) + np.triu(da, 1).T
        states.append({
            "q": vec(q), "v": vec(v), "a": vec(a),
            "fext": mat(fext, model.njoints, 6),
            "dtau_dq": mat(dq, nv, nv), "dtau_dv": mat(dv, nv, nv), "dtau_da": mat(da, nv, nv),
        })
    doc = {"pinocchio": pin.__version__, "model": header, "states": states}
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
