#!/usr/bin/env python3
r"""Pinocchio's results for configurations off the manifold: a free-flyer
quaternion that is not unit, a continuous joint's (cos, sin) off the unit
circle. Pinocchio uses them as given (no normalisation); rbdgen must match.

    .venv/bin/python scripts/make_nonunit_reference.py --out tests/reference/nonunit/nonunit_q.json

Writes, per case, the URDF, floating_base, q, v, a, tau and Pinocchio's rnea,
crba (symmetrised), aba and the joint placements oMi (4 x 4, joints 1..).
States come from numpy's default_rng(7); the quaternion is scaled by 1.3
and 0.6, the continuous joints' (cos, sin) by 0.8 and 1.25.
"""

import argparse
import json

import numpy as np
import pinocchio as pin


def case(urdf, floating, scale_quat, scale_cs, rng):
    model = (pin.buildModelFromUrdf(urdf, pin.JointModelFreeFlyer()) if floating
             else pin.buildModelFromUrdf(urdf))
    q = pin.integrate(model, pin.neutral(model), rng.uniform(-1.0, 1.0, model.nv))
    for j in model.joints[1:]:
        s = j.shortname()
        if s == "JointModelFreeFlyer":
            q[j.idx_q + 3:j.idx_q + 7] *= scale_quat
        elif s.startswith("JointModelRUB"):
            q[j.idx_q:j.idx_q + 2] *= scale_cs
    v, a, tau = (rng.uniform(-1.0, 1.0, model.nv) for _ in range(3))
    data = model.createData()
    rnea = np.array(pin.rnea(model, data, q, v, a))
    data = model.createData()
    m = np.array(pin.crba(model, data, q))
    m = np.triu(m) + np.triu(m, 1).T
    data = model.createData()
    aba = np.array(pin.aba(model, data, q, v, tau))
    data = model.createData()
    pin.forwardKinematics(model, data, q)
    omi = [data.oMi[i].homogeneous.tolist() for i in range(1, model.njoints)]
    return {"urdf": urdf, "floating_base": floating, "q": q.tolist(), "v": v.tolist(),
            "a": a.tolist(), "tau": tau.tolist(), "rnea": rnea.tolist(), "crba": m.tolist(),
            "aba": aba.tolist(), "omi": omi}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    args = p.parse_args()
    rng = np.random.default_rng(7)
    cases = [
        case("models/go2.urdf", True, 1.3, 1.0, rng),
        case("models/go2.urdf", True, 0.6, 1.0, rng),
        case("models/double_pendulum_continuous.urdf", True, 1.3, 0.8, rng),
        case("models/double_pendulum_continuous.urdf", False, 1.0, 1.25, rng),
    ]
    with open(args.out, "w") as f:
        json.dump({"pinocchio": pin.__version__, "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
