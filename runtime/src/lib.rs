//! Robot model from URDF or MJCF, spatial algebra, and the rigid-body algorithms of rbdgen,
//! written once over a [`Scalar`] so that the same code evaluates numbers, dual
//! numbers and symbolic traces.
//!
//! # Conventions (Pinocchio's, exactly)
//!
//! - Units: rad, m, kg, s, N, N·m. Gravity is (0, 0, -9.81) m/s² in the world frame.
//! - Joint id 0 is the universe; `parent(i) < i`. Joint order, and so the layout
//!   of `q` and `v`, is depth-first over the URDF tree with the child joints of a
//!   link taken in alphabetical order of their names, as Pinocchio's
//!   `buildModelFromUrdf`; over an MJCF file's bodies in document order, as
//!   `buildModelFromMJCF` ([`model::mjcf`]).
//! - A free-flyer root has `q = [x, y, z, qx, qy, qz, qw]` and
//!   `v = [linear; angular]` expressed in the base (LOCAL) frame. A URDF
//!   `continuous` joint is an unbounded revolute with `q = [cos θ, sin θ]`. A
//!   spherical joint (MJCF `ball`) has `q = [qx, qy, qz, qw]` and `v = ω` in
//!   its own frame; a planar joint (URDF `planar`) `q = [x, y, cos θ, sin θ]`
//!   and `v = [v_x, v_y, ω_z]` in its own frame.
//! - Spatial vectors are `[linear; angular]`. A placement `a_from_b` (Pinocchio's
//!   `aMb`) maps coordinates in frame b to frame a: `x_a = R x_b + p`.
//! - Matrices given as flat slices are row-major.
//!
//! # Inputs are used as given
//!
//! As in Pinocchio, no algorithm normalises or checks its inputs:
//!
//! - A free-flyer quaternion that is not unit enters the rotation formula
//!   `R = I + 2w[v]× + 2[v]×²` (Eigen's `toRotationMatrix`, which Pinocchio's
//!   `JointModelFreeFlyer` uses) unnormalised: for `λ·u` with `u` unit, `R` is
//!   not a rotation (`R = I + λ²(R(u) − I)`), and every result follows from
//!   that matrix: RNEA, CRBA, ABA and placements are Pinocchio's to 1e-8
//!   (`tests/nonunit_q.rs`). A continuous joint's `[cos θ, sin θ]` off the
//!   unit circle likewise scales the terms of Rodrigues' formula; RNEA, ABA
//!   and placements are then still Pinocchio's, CRBA is not (inertias are
//!   moved in first-moment form here, in centre-of-mass form there, and the
//!   two agree for rotations only). Normalise `q` first where it may drift.
//! - A NaN in `q`, `v`, `a` or `tau` gives NaN in every output that depends on
//!   it, and never a panic: the algorithms have no data-dependent branch. An
//!   output that does not depend on it (the diagonal entry of `M` of a leaf
//!   joint, which no `q` changes) stays finite.
//! - Forward dynamics ([`aba`]) on a model with a moving joint that carries no
//!   mass ([`Model::check_massless_subtrees`]) divides by zero and returns
//!   non-finite accelerations.
//! - A slice of the wrong length, an index the model does not have, or a
//!   [`Data`] built for another model ([`Data::check`]) is an [`InputError`]
//!   naming the argument (and both lengths), returned before anything is
//!   written; no algorithm panics on its inputs.

pub mod algorithms;
pub mod batch;
pub mod data;
pub mod dual;
pub mod error;
pub mod model;
pub mod scalar;
pub mod spatial;
mod workspace;

pub use algorithms::{
    aba, aba_derivatives, aba_derivatives_fext, aba_dfext, aba_fext, actuated_dofs, ccrba,
    center_of_mass, center_of_pressure, centroidal_momentum_rate, compute_joint_jacobians,
    compute_joint_jacobians_time_variation, contact_drift, contact_dynamics,
    contact_inverse_dynamics, contact_jacobian, contact_rows, crba, d_difference, d_integrate,
    dccrba, difference, forward_kinematics, frame_acceleration_drift, frame_jacobian,
    frame_jacobian_time_variation, frame_placement, generalized_gravity, integrate,
    jacobian_center_of_mass, joint_jacobian, joint_torque_regressor, kinetic_energy,
    link_parameters, minverse, nonlinear_effects, pose_error, potential_energy, rnea,
    rnea_derivatives, rnea_derivatives_fext, rnea_fext, set_link_parameters, step, step_jacobians,
    step_linearization, update_frame_placements, AccelerationDrift, ArgumentPosition, Jacobians,
    ReferenceFrame,
};
pub use algorithms::{
    aba_derivatives_stage, centroidal_dynamics_derivatives, contact_drift_derivatives,
    contact_dynamics_derivatives, contact_dynamics_derivatives_masked, contact_dynamics_masked,
    contact_inverse_dynamics_derivatives, contact_step_linearization,
    contact_step_linearization_forces_masked, contact_step_linearization_masked,
    derivative_column_len, dual_oracle, frame_acceleration, frame_acceleration_derivatives,
    frame_velocity, frame_velocity_derivatives, impulse_dynamics, impulse_dynamics_derivatives,
    impulse_dynamics_derivatives_masked, impulse_dynamics_masked, mass_factor_pattern,
    mass_factors, rnea_derivative_column, rnea_derivatives_stage, solve_mass_column,
    CentroidalDerivatives, ContactDynamicsDerivatives, DerivativeColumns, ForwardStage,
    ImpulseDynamicsDerivatives, StepWithForces,
};
pub use data::Data;
pub use dual::Dual;
pub use error::{DataMismatch, InputError, ModelError};
pub use model::{Contact, ContactKind, Frame, FrameKind, Joint, JointKind, Model, Topology};
pub use scalar::Scalar;
pub use spatial::{Force, Inertia, Matrix3, Matrix6, Motion, Quaternion, Transform, Vector3};
