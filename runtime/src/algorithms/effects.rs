//! The bias terms of the equation of motion, as special cases of RNEA.

use super::rnea::rnea;
use crate::error::InputError;
use crate::{Data, Model, Scalar};

/// The nonlinear effects `h(q, v) = C(q, v) v + g(q)`: Coriolis, centrifugal and
/// gravity torques, by RNEA at zero acceleration (Featherstone 2008 §5.3;
/// Pinocchio's `nonLinearEffects(model, data, q, v)`).
///
/// `q: [nq]`, `v: [nv]`; returns `h: [nv]` (N·m, N), also left in `data.tau`.
/// `nonlinear_effects(q, v) == rnea(q, v, 0)`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or `data` was
/// built for another model; checked before anything is written.
pub fn nonlinear_effects<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
    v: &[S],
) -> Result<&'d [S], InputError> {
    let zero = vec![S::zero(); model.nv];
    rnea(model, data, q, v, &zero)
}

/// The generalized gravity `g(q)`: the joint torques that hold the robot still
/// against gravity, by RNEA at zero velocity and acceleration (Featherstone 2008
/// §5.3; Pinocchio's `computeGeneralizedGravity(model, data, q)`).
///
/// `q: [nq]`; returns `g: [nv]` (N·m, N), also left in `data.tau`.
/// `generalized_gravity(q) == rnea(q, 0, 0)`.
///
/// # Errors
/// [`InputError`] when `q` does not have length `nq`, or `data` was built for
/// another model; checked before anything is written.
pub fn generalized_gravity<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
) -> Result<&'d [S], InputError> {
    let zero = vec![S::zero(); model.nv];
    rnea(model, data, q, &zero, &zero)
}
