//! The one list of the table's functions
//! ([`for_each_function!`](crate::for_each_function)), from which
//! the [`Function`](crate::Function) enum, `Function::ALL`, the names and the
//! predicates are generated (`define_functions!` in mod.rs), as are the lists
//! of the benches (benches/common/functions.rs).

/// Calls `$m! { ARGS core: [ROW, ...] mpc: [ROW, ...] }` with every function
/// of the table, in table order (the emission order): the core functions,
/// then the MPC block (from `frame_velocity_derivatives_local` on: the
/// derivatives, impulses and steps in contact of an MPC, whose code takes
/// minutes to build for a floating-base robot). Invoked as
/// `for_each_function!(m!(ARGS))`.
///
/// A row is the variant's doc and
/// `Variant { name: snake_name, family: module, contacts: bool, inertias: bool, ad_form: Option<Function> }`:
/// - `name`: the generated function's name ([`Function::name`](crate::Function::name));
/// - `family`: the module of `symbolic/src/functions/` whose function `name`
///   gives its [`Spec`](crate::Spec);
/// - `contacts`: whether it needs a contact set
///   ([`Function::needs_contacts`](crate::Function::needs_contacts));
/// - `inertias`: whether it reads the bodies' inertias
///   ([`Function::reads_inertias`](crate::Function::reads_inertias));
/// - `ad_form`: the function whose Jacobian by automatic differentiation it
///   is ([`Function::ad_form`](crate::Function::ad_form)).
#[macro_export]
macro_rules! for_each_function {
    ($m:ident ! ($($args:tt)*)) => { $m! { $($args)*
    core: [
        /// `rnea(q, v, a) -> tau`.
        Rnea {
            name: rnea, family: dynamics,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `crba(q) -> M` (full).
        Crba {
            name: crba, family: dynamics,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `aba(q, v, tau) -> a`.
        Aba {
            name: aba, family: dynamics,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `frame_placement(q, frame) -> oMf` (4x4).
        FramePlacement {
            name: frame_placement, family: kinematics,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `nonlinear_effects(q, v) -> h`.
        NonlinearEffects {
            name: nonlinear_effects, family: dynamics,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `generalized_gravity(q) -> g`.
        GeneralizedGravity {
            name: generalized_gravity, family: dynamics,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `minverse(q) -> M⁻¹` (full).
        Minverse {
            name: minverse, family: dynamics,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `center_of_mass(q) -> c`.
        CenterOfMass {
            name: center_of_mass, family: centroidal,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `jacobian_center_of_mass(q) -> Jcom` (3 x nv).
        JacobianCenterOfMass {
            name: jacobian_center_of_mass, family: centroidal,
            contacts: false, inertias: true, ad_form: Some(Function::CenterOfMass),
        },
        /// `ccrba(q, v) -> (Ag, hg)`.
        Ccrba {
            name: ccrba, family: centroidal,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `dccrba(q, v) -> dAg`.
        Dccrba {
            name: dccrba, family: centroidal,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `kinetic_energy(q, v) -> T`.
        KineticEnergy {
            name: kinetic_energy, family: dynamics,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `potential_energy(q) -> V`.
        PotentialEnergy {
            name: potential_energy, family: dynamics,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `frame_jacobian_local(q, frame) -> J` (6 x nv, LOCAL).
        FrameJacobianLocal {
            name: frame_jacobian_local, family: kinematics,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `frame_jacobian_world(q, frame) -> J` (6 x nv, WORLD).
        FrameJacobianWorld {
            name: frame_jacobian_world, family: kinematics,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `frame_jacobian_local_world_aligned(q, frame) -> J` (6 x nv, LOCAL_WORLD_ALIGNED).
        FrameJacobianLocalWorldAligned {
            name: frame_jacobian_local_world_aligned, family: kinematics,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `rnea_fext(q, v, a, fext) -> tau`.
        RneaFext {
            name: rnea_fext, family: dynamics,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `rnea_derivatives(q, v, a) -> (dtau_dq, dtau_dv, dtau_da)`.
        RneaDerivatives {
            name: rnea_derivatives, family: derivatives,
            contacts: false, inertias: true, ad_form: Some(Function::Rnea),
        },
        /// `aba_derivatives(q, v, tau) -> (ddq_dq, ddq_dv, ddq_dtau)`.
        AbaDerivatives {
            name: aba_derivatives, family: derivatives,
            contacts: false, inertias: true, ad_form: Some(Function::Aba),
        },
        /// `rnea_derivatives_fext(q, v, a, fext) -> (dtau_dq, dtau_dv, dtau_da)`.
        RneaDerivativesFext {
            name: rnea_derivatives_fext, family: derivatives,
            contacts: false, inertias: true, ad_form: Some(Function::RneaFext),
        },
        /// `step_linearization(q, v, u, h) -> (q⁺, v⁺, A, B)`.
        StepLinearization {
            name: step_linearization, family: derivatives,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `pose_error(q, target, frame) -> (e, J_e)`.
        PoseError {
            name: pose_error, family: kinematics,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `integrate(q, v) -> q ⊕ v`.
        Integrate {
            name: integrate, family: lie_group,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `difference(q0, q1) -> q1 ⊖ q0`.
        Difference {
            name: difference, family: lie_group,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `d_integrate_dq(q, v)`: Pinocchio's `dIntegrate(.., ARG0)`.
        DIntegrateDq {
            name: d_integrate_dq, family: lie_group,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `d_integrate_dv(q, v)`: Pinocchio's `dIntegrate(.., ARG1)`.
        DIntegrateDv {
            name: d_integrate_dv, family: lie_group,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `d_difference_dq0(q0, q1)`: Pinocchio's `dDifference(.., ARG0)`.
        DDifferenceDq0 {
            name: d_difference_dq0, family: lie_group,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `d_difference_dq1(q0, q1)`: Pinocchio's `dDifference(.., ARG1)`.
        DDifferenceDq1 {
            name: d_difference_dq1, family: lie_group,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `aba_fext(q, v, tau, fext) -> a`.
        AbaFext {
            name: aba_fext, family: dynamics,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `aba_derivatives_fext(q, v, tau, fext) -> (ddq_dq, ddq_dv, ddq_dtau)`.
        AbaDerivativesFext {
            name: aba_derivatives_fext, family: derivatives,
            contacts: false, inertias: true, ad_form: Some(Function::AbaFext),
        },
        /// `aba_dfext(q) -> ∂a/∂fext` (NV x 6 NJOINTS).
        AbaDfext {
            name: aba_dfext, family: dynamics,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `frame_jacobian_time_variation_local(q, v, frame) -> J̇` (6 x nv, LOCAL).
        FrameJacobianTimeVariationLocal {
            name: frame_jacobian_time_variation_local, family: kinematics,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `frame_jacobian_time_variation_world(q, v, frame) -> J̇` (6 x nv, WORLD).
        FrameJacobianTimeVariationWorld {
            name: frame_jacobian_time_variation_world, family: kinematics,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `frame_jacobian_time_variation_local_world_aligned(q, v, frame) -> J̇`.
        FrameJacobianTimeVariationLocalWorldAligned {
            name: frame_jacobian_time_variation_local_world_aligned, family: kinematics,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `frame_acceleration_drift(q, v, frame) -> (local, local_world_aligned, classical)`.
        FrameAccelerationDrift {
            name: frame_acceleration_drift, family: kinematics,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `centroidal_momentum_rate(q, v, a) -> dhg`.
        CentroidalMomentumRate {
            name: centroidal_momentum_rate, family: centroidal,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `joint_torque_regressor(q, v, a) -> Y`.
        JointTorqueRegressor {
            name: joint_torque_regressor, family: dynamics,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `contact_jacobian(q) -> J_c` (NC x NV).
        ContactJacobian {
            name: contact_jacobian, family: contact,
            contacts: true, inertias: false, ad_form: None,
        },
        /// `contact_drift(q, v) -> γ` (NC).
        ContactDrift {
            name: contact_drift, family: contact,
            contacts: true, inertias: false, ad_form: None,
        },
        /// `contact_dynamics(q, v, tau, damping) -> (a, λ)`.
        ContactDynamics {
            name: contact_dynamics, family: contact,
            contacts: true, inertias: true, ad_form: None,
        },
        /// `contact_inverse_dynamics(q, v, a, lambda) -> tau`.
        ContactInverseDynamics {
            name: contact_inverse_dynamics, family: contact,
            contacts: true, inertias: true, ad_form: None,
        },
        /// `center_of_pressure(q, lambda, height) -> [x, y]`.
        CenterOfPressure {
            name: center_of_pressure, family: contact,
            contacts: true, inertias: false, ad_form: None,
        },
    ]
    mpc: [
        /// `frame_velocity_derivatives_local(q, v, frame) -> (dv_dq, dv_dv)`.
        FrameVelocityDerivativesLocal {
            name: frame_velocity_derivatives_local, family: derivatives,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `frame_velocity_derivatives_local_world_aligned(q, v, frame) -> (dv_dq, dv_dv)`.
        FrameVelocityDerivativesLocalWorldAligned {
            name: frame_velocity_derivatives_local_world_aligned, family: derivatives,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `frame_acceleration_derivatives_local(q, v, a, frame) -> (da_dq, da_dv, da_da)`.
        FrameAccelerationDerivativesLocal {
            name: frame_acceleration_derivatives_local, family: derivatives,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `frame_acceleration_derivatives_local_world_aligned(q, v, a, frame) -> (da_dq, da_dv, da_da)`.
        FrameAccelerationDerivativesLocalWorldAligned {
            name: frame_acceleration_derivatives_local_world_aligned, family: derivatives,
            contacts: false, inertias: false, ad_form: None,
        },
        /// `centroidal_dynamics_derivatives(q, v, a) -> (dh_dq, dhdot_dq, dhdot_dv, dhdot_da)`.
        CentroidalDynamicsDerivatives {
            name: centroidal_dynamics_derivatives, family: centroidal,
            contacts: false, inertias: true, ad_form: None,
        },
        /// `contact_drift_derivatives(q, v) -> (dγ_dq, dγ_dv)`.
        ContactDriftDerivatives {
            name: contact_drift_derivatives, family: contact,
            contacts: true, inertias: false, ad_form: None,
        },
        /// `contact_dynamics_derivatives(q, v, tau, damping) -> (ddq_dq, .., dlambda_dtau)`.
        ContactDynamicsDerivatives {
            name: contact_dynamics_derivatives, family: contact,
            contacts: true, inertias: true, ad_form: None,
        },
        /// `contact_inverse_dynamics_derivatives(q, v, a, lambda) -> (dtau_dq, .., dtau_dlambda)`.
        ContactInverseDynamicsDerivatives {
            name: contact_inverse_dynamics_derivatives, family: contact,
            contacts: true, inertias: true, ad_form: None,
        },
        /// `impulse_dynamics(q, v, restitution, damping) -> (v⁺, impulse)`.
        ImpulseDynamics {
            name: impulse_dynamics, family: contact,
            contacts: true, inertias: true, ad_form: None,
        },
        /// `impulse_dynamics_derivatives(q, v, restitution, damping) -> (dvplus_dq, .., dimpulse_dv)`.
        ImpulseDynamicsDerivatives {
            name: impulse_dynamics_derivatives, family: contact,
            contacts: true, inertias: true, ad_form: None,
        },
        /// `contact_step_linearization(q, v, u, h, damping) -> (q⁺, v⁺, A, B)`.
        ContactStepLinearization {
            name: contact_step_linearization, family: contact,
            contacts: true, inertias: true, ad_form: None,
        },
        /// `contact_dynamics_masked(q, v, tau, active, damping) -> (a, λ)`.
        ContactDynamicsMasked {
            name: contact_dynamics_masked, family: contact,
            contacts: true, inertias: true, ad_form: None,
        },
        /// `contact_dynamics_derivatives_masked(q, v, tau, active, damping) -> (ddq_dq, ..)`.
        ContactDynamicsDerivativesMasked {
            name: contact_dynamics_derivatives_masked, family: contact,
            contacts: true, inertias: true, ad_form: None,
        },
        /// `impulse_dynamics_masked(q, v, active, restitution, damping) -> (v⁺, impulse)`.
        ImpulseDynamicsMasked {
            name: impulse_dynamics_masked, family: contact,
            contacts: true, inertias: true, ad_form: None,
        },
        /// `impulse_dynamics_derivatives_masked(q, v, active, restitution, damping) -> (dvplus_dq, ..)`.
        ImpulseDynamicsDerivativesMasked {
            name: impulse_dynamics_derivatives_masked, family: contact,
            contacts: true, inertias: true, ad_form: None,
        },
        /// `contact_step_linearization_masked(q, v, u, h, active, damping) -> (q⁺, v⁺, A, B)`.
        ContactStepLinearizationMasked {
            name: contact_step_linearization_masked, family: contact,
            contacts: true, inertias: true, ad_form: None,
        },
        /// `contact_step_linearization_forces_masked(q, v, u, h, active, damping) -> (q⁺, v⁺, A,
        /// B, λ, Λx, Λu)`.
        ContactStepLinearizationForcesMasked {
            name: contact_step_linearization_forces_masked, family: contact,
            contacts: true, inertias: true, ad_form: None,
        },
    ]
    } };
}
