//! The recursive algorithms, each written once over [`crate::Scalar`] as
//! forward and backward passes over the joint tree.

mod aba;
mod acceleration;
mod centroidal;
mod contact;
mod contact_derivatives;
mod crba;
mod derivatives;
mod effects;
mod energy;
mod frame_derivatives;
mod jacobian;
mod kinematics;
mod lie_group;
mod linalg;
mod minverse;
mod pose_error;
mod regressor;
mod rnea;
mod step;
mod tangent;
pub use tangent::dual_oracle;

pub use aba::{aba, aba_fext};
pub use acceleration::{
    compute_joint_jacobians_time_variation, frame_acceleration, frame_acceleration_drift,
    frame_jacobian_time_variation, frame_velocity, AccelerationDrift,
};
pub use centroidal::{
    ccrba, center_of_mass, centroidal_dynamics_derivatives, centroidal_momentum_rate, dccrba,
    jacobian_center_of_mass, CentroidalDerivatives,
};
pub use contact::{
    center_of_pressure, contact_drift, contact_dynamics, contact_dynamics_masked,
    contact_inverse_dynamics, contact_jacobian, contact_rows,
};
pub use contact_derivatives::{
    contact_drift_derivatives, contact_dynamics_derivatives, contact_dynamics_derivatives_masked,
    contact_inverse_dynamics_derivatives, impulse_dynamics, impulse_dynamics_derivatives,
    impulse_dynamics_derivatives_masked, impulse_dynamics_masked, ContactDynamicsDerivatives,
    ImpulseDynamicsDerivatives,
};
pub use crba::crba;
pub use derivatives::{
    aba_derivatives, aba_derivatives_fext, aba_derivatives_stage, aba_dfext, derivative_column_len,
    mass_factor_pattern, mass_factors, rnea_derivative_column, rnea_derivatives,
    rnea_derivatives_fext, rnea_derivatives_stage, solve_mass_column, DerivativeColumns,
    ForwardStage, Jacobians,
};
pub use effects::{generalized_gravity, nonlinear_effects};
pub use energy::{kinetic_energy, potential_energy};
pub use frame_derivatives::{frame_acceleration_derivatives, frame_velocity_derivatives};
pub use jacobian::{compute_joint_jacobians, frame_jacobian, joint_jacobian, ReferenceFrame};
pub use kinematics::{forward_kinematics, frame_placement, update_frame_placements};
pub use lie_group::{d_difference, d_integrate, difference, integrate, ArgumentPosition};
pub use minverse::minverse;
pub use pose_error::pose_error;
pub use regressor::{joint_torque_regressor, link_parameters, set_link_parameters};
pub use rnea::{rnea, rnea_fext};
pub use step::{
    actuated_dofs, contact_step_linearization, contact_step_linearization_forces_masked,
    contact_step_linearization_masked, step, step_jacobians, step_linearization, StepWithForces,
};

use crate::error::InputError;
use crate::spatial::{Motion, Vector3};
use crate::{Data, Model, Scalar};

/// Gravity as the spatial acceleration `-g` of the universe (Featherstone
/// 2008 §5.3), `[linear; angular]` in world axes, m/s²: the recursions start
/// from it instead of adding gravity to every body.
pub(crate) fn universe_acceleration<S: Scalar>(model: &Model) -> Motion<S> {
    Motion {
        linear: -Vector3::constant(model.gravity.0),
        angular: Vector3::zeros(),
    }
}

/// `Ok` when a slice `argument` has the length `expected`, else the
/// [`InputError::Length`] naming it and both lengths.
pub(crate) fn check_len(
    argument: &'static str,
    len: usize,
    expected: usize,
) -> Result<(), InputError> {
    if len == expected {
        Ok(())
    } else {
        Err(InputError::Length {
            argument,
            len,
            expected,
        })
    }
}

/// `q: [nq]`.
pub(crate) fn check_q(model: &Model, len: usize) -> Result<(), InputError> {
    check_len("q", len, model.nq)
}

/// `argument: [nv]`.
pub(crate) fn check_v(model: &Model, argument: &'static str, len: usize) -> Result<(), InputError> {
    check_len(argument, len, model.nv)
}

/// The state of the dynamics functions: `data` for `model`, `q: [nq]`,
/// `v: [nv]`.
pub(crate) fn check_state<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    q: &[S],
    v: &[S],
) -> Result<(), InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())
}

/// `Ok` when `index < count`, else the [`InputError::Index`] naming it.
pub(crate) fn check_index(
    argument: &'static str,
    index: usize,
    count: usize,
) -> Result<(), InputError> {
    if index < count {
        Ok(())
    } else {
        Err(InputError::Index {
            argument,
            index,
            count,
        })
    }
}

/// [`Data::check`] as an [`InputError`]: caught before an algorithm indexes
/// past a vector or returns another robot's dynamics. A few integer
/// comparisons.
pub(crate) fn check_data<S: Scalar>(model: &Model, data: &Data<S>) -> Result<(), InputError> {
    Ok(data.check(model)?)
}
