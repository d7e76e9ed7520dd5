#!/usr/bin/env python3
r"""Compute Pinocchio reference values for a URDF in the eval JSON format.

    .venv/bin/python scripts/make_reference.py URDF [--floating-base] \
        --states N --seed S --out FILE.json [--omit-nonfinite] \
        [--wbc] [--armature-seed A] [--contacts FRAME:point,FRAME:6d,...] \
        [--frames NAME,...] [--mpc [--mpc-check K]]

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

MPC derivative quantities (eval-format.md, "MPC derivative quantities
(extension)"), with --mpc: per state "centroidal_dynamics_derivatives"
(computeCentroidalDynamicsDerivatives), per frame
"velocity_derivatives_local|_local_world_aligned" {dv_dq, dv_dv} and
"acceleration_derivatives_local|_local_world_aligned" {da_dq, da_dv, da_da}
(computeForwardKinematicsDerivatives, getFrameVelocityDerivatives,
getFrameAccelerationDerivatives), and with --contacts
"contact_dynamics_derivatives" (constraintDynamics with RigidConstraintModels,
computeConstraintDynamicsDerivatives), "impulse_dynamics" {dv_plus, impulse}
and "impulse_dynamics_derivatives" (impulseDynamics and
computeImpulseDynamicsDerivatives, restitution 0). The LOCAL_WORLD_ALIGNED
dv_dq and da_dq are not Pinocchio's (which misses the motion of the frame
origin, Pinocchio issue #2702) but the spec's derivative, computed exactly from
Pinocchio's LOCAL one (add_mpc_frames). --mpc-check K (default 1) checks every
MPC key of the first K states against central differences in the tangent space
and the spec's identities, and exits on a disagreement above 1e-6 relative;
the worst differences go to standard error.

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


def compute_state(model, frames, q, v, a, tau, w, q2, fext, wbc=False, contacts=(), mpc=False, mpc_check=None):
    """The keys of one state. With `mpc`, the MPC derivative keys too; with
    `mpc_check` (a dict) also, they are checked and the dict gets the worst
    relative error of each check."""
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
    if mpc:
        worst = add_mpc(model, frames, s, q, v, a, tau, contacts, check=mpc_check is not None)
        if mpc_check is not None:
            for k, e in worst.items():
                mpc_check[k] = max(mpc_check.get(k, 0.0), e)
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


# ---------------------------------------------------------------------------
# MPC derivative quantities (--mpc; eval-format.md, "MPC derivative quantities
# (extension)"). Every key comes from Pinocchio 4.1.0 as the spec says, except
# the LOCAL_WORLD_ALIGNED dv_dq and da_dq of a frame (see frame_lwa_dq). With
# --mpc-check K (default 1), the first K states of the file check every key
# against central differences in the tangent space (step MPC_FD_STEP) and
# against the identities of the spec, and the script stops on a disagreement
# above MPC_FD_TOL * max(1, max|value|): the file itself is the proof.

MPC_FD_STEP = 1e-6
MPC_FD_TOL = 1e-6


def _copy(x):
    return np.array(x, dtype=float, copy=True)


def fd_tangent(model, q, f):
    """Central differences of f at q in the tangent space: rows = entries of
    f, columns = nv, column i from f(integrate(q, ±h e_i))."""
    h = MPC_FD_STEP
    cols = []
    for i in range(model.nv):
        d = np.zeros(model.nv)
        d[i] = h
        plus = np.asarray(f(pin.integrate(model, q, d)), dtype=float).reshape(-1)
        minus = np.asarray(f(pin.integrate(model, q, -d)), dtype=float).reshape(-1)
        cols.append((plus - minus) / (2 * h))
    return np.array(cols).T


def fd_vector(x, f):
    """Central differences of f at x in each entry of x."""
    h = MPC_FD_STEP
    cols = []
    for i in range(len(x)):
        d = np.zeros(len(x))
        d[i] = h
        plus = np.asarray(f(x + d), dtype=float).reshape(-1)
        minus = np.asarray(f(x - d), dtype=float).reshape(-1)
        cols.append((plus - minus) / (2 * h))
    return np.array(cols).T


def check_close(what, value, expected, tol=MPC_FD_TOL):
    """Stops when |value - expected| > tol * max(1, max|value|); returns the
    relative error."""
    value = np.asarray(value, dtype=float)
    expected = np.asarray(expected, dtype=float).reshape(value.shape)
    scale = max(1.0, float(np.max(np.abs(value))) if value.size else 1.0)
    err = float(np.max(np.abs(value - expected))) / scale if value.size else 0.0
    if not err <= tol:
        sys.exit(f"--mpc check: {what} is off by {err:.2e} (relative), more than {tol:.0e}")
    return err


def constraint_models(model, contacts):
    """One RigidConstraintModel per contact, on the frame's parent joint at the
    frame's placement, against the universe: CONTACT_3D in LOCAL_WORLD_ALIGNED
    for a point, CONTACT_6D in LOCAL for a 6d contact."""
    models = []
    for fid, kind in contacts:
        f = model.frames[fid]
        if kind == "point":
            cm = pin.RigidConstraintModel(
                pin.ContactType.CONTACT_3D, model, f.parentJoint, f.placement, pin.LOCAL_WORLD_ALIGNED
            )
        else:
            cm = pin.RigidConstraintModel(pin.ContactType.CONTACT_6D, model, f.parentJoint, f.placement, pin.LOCAL)
        models.append(cm)
    return models


def _std_models(models):
    out = pin.StdVec_RigidConstraintModel()
    for m in models:
        out.append(m)
    return out


def _std_datas(models):
    out = pin.StdVec_RigidConstraintData()
    for m in models:
        out.append(m.createData())
    return out


def kkt_contact_dynamics(model, q, v, tau, contacts):
    """(ddq, lambda) of the KKT [M J'; J 0] [ddq; -lambda] = [tau - nle; -gamma]
    (forwardDynamics with J and gamma of contact_terms)."""
    jac, gamma = contact_terms(model, q, v, contacts)
    d = model.createData()
    ddq = _copy(pin.forwardDynamics(model, d, q, v, tau, jac, gamma))
    return ddq, _copy(d.lambda_c)


def kkt_impulse(model, q, v, contacts):
    """(v_plus, impulse) of [M J'; J 0] [v_plus; -impulse] = [M v; 0], dense."""
    jac, _ = contact_terms(model, q, v, contacts)
    m = sym_upper(pin.crba(model, model.createData(), q))
    nv, nc = model.nv, jac.shape[0]
    kkt = np.block([[m, jac.T], [jac, np.zeros((nc, nc))]])
    x = np.linalg.solve(kkt, np.concatenate([m @ v, np.zeros(nc)]))
    return x[:nv], -x[nv:]


def frame_motion(model, q, v, a, fid, ref):
    """The frame's spatial velocity (a is None) or spatial acceleration in ref."""
    d = model.createData()
    if a is None:
        pin.forwardKinematics(model, d, q, v)
        return _copy(pin.getFrameVelocity(model, d, fid, ref).vector)
    pin.forwardKinematics(model, d, q, v, a)
    return _copy(pin.getFrameAcceleration(model, d, fid, ref).vector)


def frame_lwa_dq(dx_local_dq, x_local, rotation, jac_local):
    """The LOCAL_WORLD_ALIGNED dx/dq defined by the spec, exactly, from the
    LOCAL one: x_lwa = diag(R, R) x_local, dR/dq_i = R [w_i]x with w_i column i
    of the angular rows of jacobian_local, so column i is
    diag(R, R) (dx_local/dq_i + [w_i x x_local.linear; w_i x x_local.angular])."""
    w = jac_local[3:].T  # nv x 3, row i = w_i
    lin = dx_local_dq[:3] + np.cross(w, x_local[:3]).T
    ang = dx_local_dq[3:] + np.cross(w, x_local[3:]).T
    return np.vstack([rotation @ lin, rotation @ ang])


def add_mpc_frames(model, frames, s, q, v, a, check):
    """Per frame: velocity_derivatives_local|_local_world_aligned {dv_dq,
    dv_dv} and acceleration_derivatives_local|_local_world_aligned {da_dq,
    da_dv, da_da}, from computeForwardKinematicsDerivatives(q, v, a) and
    getFrameVelocityDerivatives / getFrameAccelerationDerivatives.

    Pinocchio 4.1.0's LOCAL_WORLD_ALIGNED dv_dq and da_dq are NOT the spec's
    derivative: they are the derivative of the WORLD velocity (acceleration)
    shifted to the frame origin, which misses the motion of that origin
    (Pinocchio issue #2702): Pinocchio = spec - [omega x dp/dq; 0] (resp.
    [alpha x dp/dq; 0]), omega and alpha the frame's angular velocity and
    acceleration in world axes, dp/dq the linear rows of
    jacobian_local_world_aligned. The file carries the spec's value, computed
    exactly from Pinocchio's LOCAL derivative (frame_lwa_dq); with `check`,
    both that value and Pinocchio's relation to it are asserted (the former
    against central differences too)."""
    nv = model.nv
    d = model.createData()
    pin.computeForwardKinematicsDerivatives(model, d, q, v, a)
    pin.updateFramePlacements(model, d)
    dj = model.createData()
    pin.computeJointJacobians(model, dj, q)
    pin.updateFramePlacements(model, dj)
    worst = {}
    for name, fid in frames:
        rot = _copy(d.oMf[fid].rotation)
        jl = _copy(pin.getFrameJacobian(model, dj, fid, pin.LOCAL)).reshape(6, nv)
        jlwa = _copy(pin.getFrameJacobian(model, dj, fid, pin.LOCAL_WORLD_ALIGNED)).reshape(6, nv)
        # computeForwardKinematicsDerivatives ran forwardKinematics(q, v, a).
        vel_l = _copy(pin.getFrameVelocity(model, d, fid, pin.LOCAL).vector)
        acc_l = _copy(pin.getFrameAcceleration(model, d, fid, pin.LOCAL).vector)
        values = {}
        for suffix, ref in (("local", pin.LOCAL), ("local_world_aligned", pin.LOCAL_WORLD_ALIGNED)):
            dv_dq, dv_dv = (_copy(x).reshape(6, nv) for x in pin.getFrameVelocityDerivatives(model, d, fid, ref))
            _, da_dq, da_dv, da_da = (
                _copy(x).reshape(6, nv) for x in pin.getFrameAccelerationDerivatives(model, d, fid, ref)
            )
            values[suffix] = {"dv_dq": dv_dq, "dv_dv": dv_dv, "da_dq": da_dq, "da_dv": da_dv, "da_da": da_da}
        loc, lwa = values["local"], values["local_world_aligned"]
        pin_dv_dq, pin_da_dq = lwa["dv_dq"], lwa["da_dq"]
        lwa["dv_dq"] = frame_lwa_dq(loc["dv_dq"], vel_l, rot, jl)
        lwa["da_dq"] = frame_lwa_dq(loc["da_dq"], acc_l, rot, jl)
        f = s["frames"][name]
        for suffix in ("local", "local_world_aligned"):
            x = values[suffix]
            f["velocity_derivatives_" + suffix] = {"dv_dq": mat(x["dv_dq"], 6, nv), "dv_dv": mat(x["dv_dv"], 6, nv)}
            f["acceleration_derivatives_" + suffix] = {
                "da_dq": mat(x["da_dq"], 6, nv),
                "da_dv": mat(x["da_dv"], 6, nv),
                "da_da": mat(x["da_da"], 6, nv),
            }
        if not check:
            continue
        omega = rot @ vel_l[3:]
        alpha = rot @ acc_l[3:]
        dp = jlwa[:3]
        shift_v = np.vstack([np.cross(omega, dp.T).T, np.zeros((3, nv))])
        shift_a = np.vstack([np.cross(alpha, dp.T).T, np.zeros((3, nv))])
        tag = f"frame {name}"
        check_close(f"{tag}: LOCAL velocity", vel_l, frame_motion(model, q, v, None, fid, pin.LOCAL), 1e-14)
        check_close(f"{tag}: LOCAL acceleration", acc_l, frame_motion(model, q, v, a, fid, pin.LOCAL), 1e-14)
        check_close(f"{tag}: Pinocchio's LWA dv_dq + [omega x dp/dq; 0]", lwa["dv_dq"], pin_dv_dq + shift_v, 1e-12)
        check_close(f"{tag}: Pinocchio's LWA da_dq + [alpha x dp/dq; 0]", lwa["da_dq"], pin_da_dq + shift_a, 1e-12)
        worst["LWA dv_dq, Pinocchio's own"] = max(
            worst.get("LWA dv_dq, Pinocchio's own", 0.0),
            float(np.max(np.abs(shift_v))) / max(1.0, float(np.max(np.abs(lwa["dv_dq"])))),
        )
        worst["LWA da_dq, Pinocchio's own"] = max(
            worst.get("LWA da_dq, Pinocchio's own", 0.0),
            float(np.max(np.abs(shift_a))) / max(1.0, float(np.max(np.abs(lwa["da_dq"])))),
        )
        for suffix, ref, jac in (("local", pin.LOCAL, jl), ("local_world_aligned", pin.LOCAL_WORLD_ALIGNED, jlwa)):
            x = values[suffix]
            t = f"{tag} {suffix}"
            errs = {
                "dv_dq": check_close(
                    f"{t} dv_dq", x["dv_dq"], fd_tangent(model, q, lambda qq: frame_motion(model, qq, v, None, fid, ref))
                ),
                "dv_dv": check_close(
                    f"{t} dv_dv", x["dv_dv"], fd_vector(v, lambda vv: frame_motion(model, q, vv, None, fid, ref))
                ),
                "da_dq": check_close(
                    f"{t} da_dq", x["da_dq"], fd_tangent(model, q, lambda qq: frame_motion(model, qq, v, a, fid, ref))
                ),
                "da_dv": check_close(
                    f"{t} da_dv", x["da_dv"], fd_vector(v, lambda vv: frame_motion(model, q, vv, a, fid, ref))
                ),
                "da_da": check_close(
                    f"{t} da_da", x["da_da"], fd_vector(a, lambda aa: frame_motion(model, q, v, aa, fid, ref))
                ),
            }
            check_close(f"{t} dv_dv = jacobian", x["dv_dv"], jac, 1e-12)
            check_close(f"{t} da_da = jacobian", x["da_da"], jac, 1e-12)
            for k, e in errs.items():
                key = f"frame {suffix} {k}"
                worst[key] = max(worst.get(key, 0.0), e)
    return worst


def add_mpc(model, frames, s, q, v, a, tau, contacts, check=False):
    """The MPC derivative keys of a state (--mpc): centroidal_dynamics_derivatives,
    the per-frame velocity and acceleration derivatives, and with contacts
    contact_dynamics_derivatives, impulse_dynamics and
    impulse_dynamics_derivatives. With `check`, each is checked (central
    differences, identities); returns {key: worst relative error} then."""
    nv = model.nv
    worst = {}

    # Centroidal momentum: dh_dq (hg at fixed v), dhdot_dq|dv|da (dhg).
    d = model.createData()
    dh_dq, dhdot_dq, dhdot_dv, dhdot_da = (
        _copy(x).reshape(6, nv) for x in pin.computeCentroidalDynamicsDerivatives(model, d, q, v, a)
    )
    s["centroidal_dynamics_derivatives"] = {
        "dh_dq": mat(dh_dq, 6, nv),
        "dhdot_dq": mat(dhdot_dq, 6, nv),
        "dhdot_dv": mat(dhdot_dv, 6, nv),
        "dhdot_da": mat(dhdot_da, 6, nv),
    }
    if check:

        def hg(qq):
            dd = model.createData()
            pin.ccrba(model, dd, qq, v)
            return _copy(dd.hg.vector)

        def dhg(qq, vv, aa):
            return _copy(pin.computeCentroidalMomentumTimeVariation(model, model.createData(), qq, vv, aa).vector)

        worst["centroidal dh_dq"] = check_close("dh_dq", dh_dq, fd_tangent(model, q, hg))
        worst["centroidal dhdot_dq"] = check_close("dhdot_dq", dhdot_dq, fd_tangent(model, q, lambda x: dhg(x, v, a)))
        worst["centroidal dhdot_dv"] = check_close("dhdot_dv", dhdot_dv, fd_vector(v, lambda x: dhg(q, x, a)))
        worst["centroidal dhdot_da"] = check_close("dhdot_da", dhdot_da, fd_vector(a, lambda x: dhg(q, v, x)))
        check_close("dhdot_da = ag", dhdot_da, np.array(s["ag"]), 1e-12)

    worst.update(add_mpc_frames(model, frames, s, q, v, a, check))

    if not contacts:
        return worst
    models = constraint_models(model, contacts)

    # Contact dynamics: constraintDynamics (default ProximalSettings: the exact
    # KKT in one iteration) and computeConstraintDynamicsDerivatives.
    cms, cds = _std_models(models), _std_datas(models)
    d = model.createData()
    pin.initConstraintDynamics(model, d, cms, cds)
    ddq = _copy(pin.constraintDynamics(model, d, q, v, tau, cms, cds))
    lam = _copy(d.lambda_c)
    blocks = [_copy(x) for x in pin.computeConstraintDynamicsDerivatives(model, d, cms, cds)]
    nc = lam.shape[0]
    names = ("ddq_dq", "ddq_dv", "ddq_dtau", "dlambda_dq", "dlambda_dv", "dlambda_dtau")
    rows = (nv, nv, nv, nc, nc, nc)
    blocks = [b.reshape(r, nv) for b, r in zip(blocks, rows)]
    s["contact_dynamics_derivatives"] = {n: mat(b, r, nv) for n, b, r in zip(names, blocks, rows)}
    if check:
        kkt_ddq, kkt_lam = kkt_contact_dynamics(model, q, v, tau, contacts)
        check_close("constraintDynamics ddq = forwardDynamics", ddq, kkt_ddq, 1e-9)
        check_close("constraintDynamics lambda_c = forwardDynamics", lam, kkt_lam, 1e-9)
        fq = fd_tangent(model, q, lambda x: np.concatenate(kkt_contact_dynamics(model, x, v, tau, contacts)))
        fv = fd_vector(v, lambda x: np.concatenate(kkt_contact_dynamics(model, q, x, tau, contacts)))
        ft = fd_vector(tau, lambda x: np.concatenate(kkt_contact_dynamics(model, q, v, x, contacts)))
        for n, b, f, sl in (
            ("ddq_dq", blocks[0], fq, slice(0, nv)),
            ("ddq_dv", blocks[1], fv, slice(0, nv)),
            ("ddq_dtau", blocks[2], ft, slice(0, nv)),
            ("dlambda_dq", blocks[3], fq, slice(nv, None)),
            ("dlambda_dv", blocks[4], fv, slice(nv, None)),
            ("dlambda_dtau", blocks[5], ft, slice(nv, None)),
        ):
            worst["contact_dynamics " + n] = check_close(f"contact_dynamics_derivatives.{n}", b, f[sl])

    # Impulse dynamics with restitution 0: v_plus returned, the impulse in
    # data.impulse_c; the derivatives in data.ddq_dq (dv_plus/dq),
    # data.ddq_dv (d(v_plus - v)/dv, so dvplus_dv = it + I), data.dlambda_dq,
    # data.dlambda_dv.
    cms, cds = _std_models(models), _std_datas(models)
    d = model.createData()
    pin.initConstraintDynamics(model, d, cms, cds)
    v_plus = _copy(pin.impulseDynamics(model, d, q, v, cms, cds, 0.0))
    impulse = _copy(d.impulse_c)
    s["impulse_dynamics"] = {"dv_plus": vec(v_plus), "impulse": vec(impulse)}
    pin.computeImpulseDynamicsDerivatives(model, d, cms, cds, 0.0)
    dvplus_dq = _copy(d.ddq_dq).reshape(nv, nv)
    dvplus_dv = _copy(d.ddq_dv).reshape(nv, nv) + np.eye(nv)
    dimpulse_dq = _copy(d.dlambda_dq).reshape(nc, nv)
    dimpulse_dv = _copy(d.dlambda_dv).reshape(nc, nv)
    s["impulse_dynamics_derivatives"] = {
        "dvplus_dq": mat(dvplus_dq, nv, nv),
        "dvplus_dv": mat(dvplus_dv, nv, nv),
        "dimpulse_dq": mat(dimpulse_dq, nc, nv),
        "dimpulse_dv": mat(dimpulse_dv, nc, nv),
    }
    if check:
        kkt_v, kkt_i = kkt_impulse(model, q, v, contacts)
        check_close("impulseDynamics v_plus = KKT", v_plus, kkt_v, 1e-9)
        check_close("impulseDynamics impulse_c = KKT", impulse, kkt_i, 1e-9)
        fq = fd_tangent(model, q, lambda x: np.concatenate(kkt_impulse(model, x, v, contacts)))
        fv = fd_vector(v, lambda x: np.concatenate(kkt_impulse(model, q, x, contacts)))
        worst["impulse dvplus_dq"] = check_close("dvplus_dq", dvplus_dq, fq[:nv])
        worst["impulse dvplus_dv"] = check_close("dvplus_dv", dvplus_dv, fv[:nv])
        worst["impulse dimpulse_dq"] = check_close("dimpulse_dq", dimpulse_dq, fq[nv:])
        worst["impulse dimpulse_dv"] = check_close("dimpulse_dv", dimpulse_dv, fv[nv:])
    return worst


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
        "--mpc",
        action="store_true",
        help="add the MPC derivative quantities (contact ones with --contacts)",
    )
    p.add_argument(
        "--mpc-check",
        type=int,
        default=1,
        metavar="K",
        help="check the MPC keys of the first K states against central differences (default 1)",
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
    mpc_worst = {}
    for k in range(args.states):
        inputs = draw_state(model, rng)
        fext = draw_fext(model, fext_rng)
        state = compute_state(
            model,
            frames,
            *inputs,
            fext,
            wbc=args.wbc,
            contacts=contacts,
            mpc=args.mpc,
            mpc_check=mpc_worst if args.mpc and k < args.mpc_check else None,
        )
        if args.refine_ill_conditioned is not None:
            q, v, _, tau = inputs[:4]
            state = refine_ill_conditioned(model, state, q, v, tau, args.refine_ill_conditioned, fext)
        doc["states"].append(omit_nonfinite(state) if args.omit_nonfinite else state)

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")
    if mpc_worst:
        print(
            f"{args.out}: MPC keys checked on {min(args.mpc_check, args.states)} state(s), worst relative"
            " difference to central differences (LWA 'Pinocchio's own': its dv_dq / da_dq minus the file's):",
            file=sys.stderr,
        )
        for k, e in sorted(mpc_worst.items()):
            print(f"  {k}: {e:.1e}", file=sys.stderr)


if __name__ == "__main__":
    main()
