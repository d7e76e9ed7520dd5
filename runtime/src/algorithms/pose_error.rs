//! The error between a frame's placement and a target placement, and its
//! Jacobian in the tangent space: the residual of inverse kinematics.

use super::jacobian::{compute_joint_jacobians, frame_jacobian, ReferenceFrame};
use super::kinematics::placement;
use super::{check_data, check_index, check_q};
use crate::error::InputError;
use crate::spatial::exp_log::jlog6_from_log;
use crate::spatial::{log3, log6};
use crate::{Data, Model, Scalar, Transform};

/// The pose error of frame `frame` with respect to `target`,
/// `e = log6(oMf⁻¹ · target)`, and its Jacobian `J_e = de/dδq` for the
/// perturbation `q ⊕ δq = integrate(q, δq)`:
///
/// ```text
/// E = oMf(q)⁻¹ · oMtarget,   e = log6(E),   J_e = -Jlog6(E⁻¹) · J_local(q)
/// ```
///
/// with `J_local` the frame's Jacobian in its own axes (Pinocchio's
/// `getFrameJacobian(.., LOCAL)`): `oMf(q ⊕ δq) ≈ oMf exp6(J_local δq)`, so
/// `E(δq) ≈ exp6(-J_local δq) E` and `log6(exp6(ξ) E) ≈ log6(E) + Jlog6(E⁻¹) ξ`
/// (the left Jacobian of the log, `Jlog6(E) Ad(E⁻¹)`). `e = 0` exactly when the
/// frame is at the target; the twist `e` (in the frame's axes) moves the frame
/// onto the target in unit time. As in Pinocchio's inverse-kinematics example
/// (`log6(oMf⁻¹ · oMdes)`, `-Jlog6(..) J`).
///
/// `q: [nq]`; `frame`: a frame index of the model; `target`: the world-from-target
/// placement. Returns `(e: [6], J_e: [6 x nv] row-major)`, rows `[linear;
/// angular]` (m, rad; per unit of v). Runs [`compute_joint_jacobians`] on
/// `data`.
///
/// # Errors
/// [`InputError`] when `q` does not have length `nq` or `frame` is not a frame
/// index, or `data` was built for another model; checked before anything is
/// written.
pub fn pose_error<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    frame: usize,
    target: &Transform<S>,
) -> Result<([S; 6], Vec<S>), InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_index("frame", frame, model.frames.len())?;
    compute_joint_jacobians(model, data, q)?;
    let world_from_frame = placement(model, data, frame);
    let frame_from_target = world_from_frame.inverse() * *target;
    let e = log6(&frame_from_target).to_array();
    // E⁻¹ = (Rᵀ, -Rᵀ p) has the angle θ of E and the axis -ω: one log3.
    let (omega, theta) = log3(&frame_from_target.rotation);
    let jlog = jlog6_from_log(theta, &-omega, &frame_from_target.inverse().translation);
    let j_local = frame_jacobian(model, data, frame, ReferenceFrame::Local)?;
    let nv = model.nv;
    let mut j_e = vec![S::zero(); 6 * nv];
    for (r, row) in jlog.0.iter().enumerate() {
        for (k, &jrk) in row.iter().enumerate() {
            for c in 0..nv {
                j_e[r * nv + c] = j_e[r * nv + c] - jrk * j_local[k * nv + c];
            }
        }
    }
    Ok((e, j_e))
}
