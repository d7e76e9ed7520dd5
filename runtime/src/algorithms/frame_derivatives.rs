//! Derivatives of frame velocities and accelerations in the tangent space, by
//! forward-mode dual numbers through [`frame_velocity`] and
//! [`frame_acceleration`] (the runtime's `tangent` module).

use super::acceleration::{frame_acceleration, frame_velocity};
use super::tangent::{tangent_jacobian, Arg};
use super::{check_data, check_index, check_q, check_v, ReferenceFrame};
use crate::error::InputError;
use crate::{Data, Model, Scalar};

/// The derivatives `(dv_dq, dv_dv)` of a frame's spatial velocity
/// ([`frame_velocity`]) in `reference`, each `[6 x nv]` row-major, `dv_dq` in
/// the tangent space. Everything that depends on `q` moves with it, the
/// frame's axes included: in LOCAL_WORLD_ALIGNED this is the exact derivative
/// of the velocity of the (moving) frame origin, where Pinocchio 4.1.0's
/// `getFrameVelocityDerivatives` leaves out that origin's motion (its `dv_dq`
/// is this minus `[ω × ∂p/∂q; 0]`). `dv_dv` is the frame Jacobian in
/// `reference`. Source: Pinocchio's `computeForwardKinematicsDerivatives` +
/// `getFrameVelocityDerivatives`.
///
/// `q: [nq]`, `v: [nv]`; rows `[linear; angular]`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, `frame` is
/// not a frame index, or `data` was built for another model; checked before
/// anything is written.
pub fn frame_velocity_derivatives<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    frame: usize,
    reference: ReferenceFrame,
) -> Result<(Vec<S>, Vec<S>), InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_index("frame", frame, model.frames.len())?;
    let args = [Arg::Configuration(q), Arg::Vector(v)];
    let (_, mut d) = tangent_jacobian(model, data, &args, |data, x| {
        Ok(frame_velocity(model, data, &x[0], &x[1], frame, reference)?
            .to_array()
            .to_vec())
    })?;
    let dv_dv = d.pop().expect("two blocks");
    let dv_dq = d.pop().expect("two blocks");
    Ok((dv_dq, dv_dv))
}

/// The derivatives `(da_dq, da_dv, da_da)` of a frame's spatial (not
/// classical) acceleration ([`frame_acceleration`]) in `reference`, each
/// `[6 x nv]` row-major, `da_dq` in the tangent space; the frame's axes move
/// with `q` as in [`frame_velocity_derivatives`] (Pinocchio 4.1.0's
/// LOCAL_WORLD_ALIGNED `da_dq` misses `[α × ∂p/∂q; 0]`). `da_da` is the frame
/// Jacobian in `reference`. Source: Pinocchio's
/// `computeForwardKinematicsDerivatives` + `getFrameAccelerationDerivatives`.
///
/// `q: [nq]`, `v: [nv]`, `a: [nv]`; rows `[linear; angular]`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, `frame` is
/// not a frame index, or `data` was built for another model; checked before
/// anything is written.
pub fn frame_acceleration_derivatives<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    a: &[S],
    frame: usize,
    reference: ReferenceFrame,
) -> Result<(Vec<S>, Vec<S>, Vec<S>), InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_v(model, "a", a.len())?;
    check_index("frame", frame, model.frames.len())?;
    let args = [Arg::Configuration(q), Arg::Vector(v), Arg::Vector(a)];
    let (_, mut d) = tangent_jacobian(model, data, &args, |data, x| {
        Ok(
            frame_acceleration(model, data, &x[0], &x[1], &x[2], frame, reference)?
                .to_array()
                .to_vec(),
        )
    })?;
    let da_da = d.pop().expect("three blocks");
    let da_dv = d.pop().expect("three blocks");
    let da_dq = d.pop().expect("three blocks");
    Ok((da_dq, da_dv, da_da))
}
