//! The table of functions a generated module can contain: for each, its
//! arguments, output shape, documentation and its evaluation by the runtime's
//! generic algorithm, written once over the scalar ([`Function::evaluate`]):
//! on [`Expr`](crate::Expr) it is the trace that emission compiles, on `f64` the reference
//! value that `rbdgen verify`, `rbdgen eval` and the benches compare with, on
//! a dual number its derivatives. Adding a function is adding a [`Function`]
//! variant and its [`Spec`] here; emission and the front ends need no change.
//!
//! A Jacobian with respect to one of two arguments (Pinocchio's `ARG0` /
//! `ARG1`) is a function of its own, named after that argument:
//! `d_integrate_dq` / `d_integrate_dv` are `dIntegrate(.., ARG0 / ARG1)`,
//! `d_difference_dq0` / `d_difference_dq1` are `dDifference(.., ARG0 / ARG1)`
//! (the runtime's `d_integrate` / `d_difference` take an `ArgumentPosition`).
//! Each is emitted only when asked for, and compiling one does not pay for the
//! other.

use rbdgen_runtime::{
    aba, aba_derivatives, aba_derivatives_fext, aba_derivatives_stage, aba_dfext, aba_fext,
    actuated_dofs, ccrba, center_of_mass, center_of_pressure, centroidal_dynamics_derivatives,
    centroidal_momentum_rate, compute_joint_jacobians, compute_joint_jacobians_time_variation,
    contact_drift, contact_drift_derivatives, contact_dynamics, contact_dynamics_derivatives,
    contact_dynamics_derivatives_masked, contact_dynamics_masked, contact_inverse_dynamics,
    contact_inverse_dynamics_derivatives, contact_jacobian, contact_rows,
    contact_step_linearization, contact_step_linearization_forces_masked,
    contact_step_linearization_masked, crba, d_difference, d_integrate, dccrba,
    derivative_column_len, difference, forward_kinematics, frame_acceleration_derivatives,
    frame_acceleration_drift, frame_jacobian, frame_jacobian_time_variation, frame_placement,
    frame_velocity_derivatives, generalized_gravity, impulse_dynamics,
    impulse_dynamics_derivatives, impulse_dynamics_derivatives_masked, impulse_dynamics_masked,
    integrate, jacobian_center_of_mass, joint_torque_regressor, kinetic_energy,
    mass_factor_pattern, mass_factors, minverse, nonlinear_effects, pose_error, potential_energy,
    rnea, rnea_derivative_column, rnea_derivatives, rnea_derivatives_fext, rnea_derivatives_stage,
    rnea_fext, set_link_parameters, solve_mass_column, step_linearization, ArgumentPosition, Data,
    Force, InputError, Matrix3, Model, ReferenceFrame, Scalar, Transform, Vector3,
};

/// A function the generated module can contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Function {
    /// `rnea(q, v, a) -> tau`.
    Rnea,
    /// `crba(q) -> M` (full).
    Crba,
    /// `aba(q, v, tau) -> a`.
    Aba,
    /// `frame_placement(q, frame) -> oMf` (4x4).
    FramePlacement,
    /// `nonlinear_effects(q, v) -> h`.
    NonlinearEffects,
    /// `generalized_gravity(q) -> g`.
    GeneralizedGravity,
    /// `minverse(q) -> M⁻¹` (full).
    Minverse,
    /// `center_of_mass(q) -> c`.
    CenterOfMass,
    /// `jacobian_center_of_mass(q) -> Jcom` (3 x nv).
    JacobianCenterOfMass,
    /// `ccrba(q, v) -> (Ag, hg)`.
    Ccrba,
    /// `dccrba(q, v) -> dAg`.
    Dccrba,
    /// `kinetic_energy(q, v) -> T`.
    KineticEnergy,
    /// `potential_energy(q) -> V`.
    PotentialEnergy,
    /// `frame_jacobian_local(q, frame) -> J` (6 x nv, LOCAL).
    FrameJacobianLocal,
    /// `frame_jacobian_world(q, frame) -> J` (6 x nv, WORLD).
    FrameJacobianWorld,
    /// `frame_jacobian_local_world_aligned(q, frame) -> J` (6 x nv, LOCAL_WORLD_ALIGNED).
    FrameJacobianLocalWorldAligned,
    /// `rnea_fext(q, v, a, fext) -> tau`.
    RneaFext,
    /// `rnea_derivatives(q, v, a) -> (dtau_dq, dtau_dv, dtau_da)`.
    RneaDerivatives,
    /// `aba_derivatives(q, v, tau) -> (ddq_dq, ddq_dv, ddq_dtau)`.
    AbaDerivatives,
    /// `rnea_derivatives_fext(q, v, a, fext) -> (dtau_dq, dtau_dv, dtau_da)`.
    RneaDerivativesFext,
    /// `step_linearization(q, v, u, h) -> (q⁺, v⁺, A, B)`.
    StepLinearization,
    /// `pose_error(q, target, frame) -> (e, J_e)`.
    PoseError,
    /// `integrate(q, v) -> q ⊕ v`.
    Integrate,
    /// `difference(q0, q1) -> q1 ⊖ q0`.
    Difference,
    /// `d_integrate_dq(q, v)`: Pinocchio's `dIntegrate(.., ARG0)`.
    DIntegrateDq,
    /// `d_integrate_dv(q, v)`: Pinocchio's `dIntegrate(.., ARG1)`.
    DIntegrateDv,
    /// `d_difference_dq0(q0, q1)`: Pinocchio's `dDifference(.., ARG0)`.
    DDifferenceDq0,
    /// `d_difference_dq1(q0, q1)`: Pinocchio's `dDifference(.., ARG1)`.
    DDifferenceDq1,
    /// `aba_fext(q, v, tau, fext) -> a`.
    AbaFext,
    /// `aba_derivatives_fext(q, v, tau, fext) -> (ddq_dq, ddq_dv, ddq_dtau)`.
    AbaDerivativesFext,
    /// `aba_dfext(q) -> ∂a/∂fext` (NV x 6 NJOINTS).
    AbaDfext,
    /// `frame_jacobian_time_variation_local(q, v, frame) -> J̇` (6 x nv, LOCAL).
    FrameJacobianTimeVariationLocal,
    /// `frame_jacobian_time_variation_world(q, v, frame) -> J̇` (6 x nv, WORLD).
    FrameJacobianTimeVariationWorld,
    /// `frame_jacobian_time_variation_local_world_aligned(q, v, frame) -> J̇`.
    FrameJacobianTimeVariationLocalWorldAligned,
    /// `frame_acceleration_drift(q, v, frame) -> (local, local_world_aligned, classical)`.
    FrameAccelerationDrift,
    /// `centroidal_momentum_rate(q, v, a) -> dhg`.
    CentroidalMomentumRate,
    /// `joint_torque_regressor(q, v, a) -> Y`.
    JointTorqueRegressor,
    /// `contact_jacobian(q) -> J_c` (NC x NV).
    ContactJacobian,
    /// `contact_drift(q, v) -> γ` (NC).
    ContactDrift,
    /// `contact_dynamics(q, v, tau, damping) -> (a, λ)`.
    ContactDynamics,
    /// `contact_inverse_dynamics(q, v, a, lambda) -> tau`.
    ContactInverseDynamics,
    /// `center_of_pressure(q, lambda, height) -> [x, y]`.
    CenterOfPressure,
    /// `frame_velocity_derivatives_local(q, v, frame) -> (dv_dq, dv_dv)`.
    FrameVelocityDerivativesLocal,
    /// `frame_velocity_derivatives_local_world_aligned(q, v, frame) -> (dv_dq, dv_dv)`.
    FrameVelocityDerivativesLocalWorldAligned,
    /// `frame_acceleration_derivatives_local(q, v, a, frame) -> (da_dq, da_dv, da_da)`.
    FrameAccelerationDerivativesLocal,
    /// `frame_acceleration_derivatives_local_world_aligned(q, v, a, frame) -> (da_dq, da_dv, da_da)`.
    FrameAccelerationDerivativesLocalWorldAligned,
    /// `centroidal_dynamics_derivatives(q, v, a) -> (dh_dq, dhdot_dq, dhdot_dv, dhdot_da)`.
    CentroidalDynamicsDerivatives,
    /// `contact_drift_derivatives(q, v) -> (dγ_dq, dγ_dv)`.
    ContactDriftDerivatives,
    /// `contact_dynamics_derivatives(q, v, tau, damping) -> (ddq_dq, .., dlambda_dtau)`.
    ContactDynamicsDerivatives,
    /// `contact_inverse_dynamics_derivatives(q, v, a, lambda) -> (dtau_dq, .., dtau_dlambda)`.
    ContactInverseDynamicsDerivatives,
    /// `impulse_dynamics(q, v, restitution, damping) -> (v⁺, impulse)`.
    ImpulseDynamics,
    /// `impulse_dynamics_derivatives(q, v, restitution, damping) -> (dvplus_dq, .., dimpulse_dv)`.
    ImpulseDynamicsDerivatives,
    /// `contact_step_linearization(q, v, u, h, damping) -> (q⁺, v⁺, A, B)`.
    ContactStepLinearization,
    /// `contact_dynamics_masked(q, v, tau, active, damping) -> (a, λ)`.
    ContactDynamicsMasked,
    /// `contact_dynamics_derivatives_masked(q, v, tau, active, damping) -> (ddq_dq, ..)`.
    ContactDynamicsDerivativesMasked,
    /// `impulse_dynamics_masked(q, v, active, restitution, damping) -> (v⁺, impulse)`.
    ImpulseDynamicsMasked,
    /// `impulse_dynamics_derivatives_masked(q, v, active, restitution, damping) -> (dvplus_dq, ..)`.
    ImpulseDynamicsDerivativesMasked,
    /// `contact_step_linearization_masked(q, v, u, h, active, damping) -> (q⁺, v⁺, A, B)`.
    ContactStepLinearizationMasked,
    /// `contact_step_linearization_forces_masked(q, v, u, h, active, damping) -> (q⁺, v⁺, A,
    /// B, λ, Λx, Λu)`.
    ContactStepLinearizationForcesMasked,
}

impl Function {
    /// Every function, in emission order.
    pub const ALL: [Function; 59] = [
        Function::Rnea,
        Function::Crba,
        Function::Aba,
        Function::FramePlacement,
        Function::NonlinearEffects,
        Function::GeneralizedGravity,
        Function::Minverse,
        Function::CenterOfMass,
        Function::JacobianCenterOfMass,
        Function::Ccrba,
        Function::Dccrba,
        Function::KineticEnergy,
        Function::PotentialEnergy,
        Function::FrameJacobianLocal,
        Function::FrameJacobianWorld,
        Function::FrameJacobianLocalWorldAligned,
        Function::RneaFext,
        Function::RneaDerivatives,
        Function::AbaDerivatives,
        Function::RneaDerivativesFext,
        Function::StepLinearization,
        Function::PoseError,
        Function::Integrate,
        Function::Difference,
        Function::DIntegrateDq,
        Function::DIntegrateDv,
        Function::DDifferenceDq0,
        Function::DDifferenceDq1,
        Function::AbaFext,
        Function::AbaDerivativesFext,
        Function::AbaDfext,
        Function::FrameJacobianTimeVariationLocal,
        Function::FrameJacobianTimeVariationWorld,
        Function::FrameJacobianTimeVariationLocalWorldAligned,
        Function::FrameAccelerationDrift,
        Function::CentroidalMomentumRate,
        Function::JointTorqueRegressor,
        Function::ContactJacobian,
        Function::ContactDrift,
        Function::ContactDynamics,
        Function::ContactInverseDynamics,
        Function::CenterOfPressure,
        Function::FrameVelocityDerivativesLocal,
        Function::FrameVelocityDerivativesLocalWorldAligned,
        Function::FrameAccelerationDerivativesLocal,
        Function::FrameAccelerationDerivativesLocalWorldAligned,
        Function::CentroidalDynamicsDerivatives,
        Function::ContactDriftDerivatives,
        Function::ContactDynamicsDerivatives,
        Function::ContactInverseDynamicsDerivatives,
        Function::ImpulseDynamics,
        Function::ImpulseDynamicsDerivatives,
        Function::ContactStepLinearization,
        Function::ContactDynamicsMasked,
        Function::ContactDynamicsDerivativesMasked,
        Function::ImpulseDynamicsMasked,
        Function::ImpulseDynamicsDerivativesMasked,
        Function::ContactStepLinearizationMasked,
        Function::ContactStepLinearizationForcesMasked,
    ];

    /// The generated function's name, as the runtime's.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// This function's entry of the table: name, arguments, output, doc
    /// (and its evaluation on `f64`, which [`Function::evaluate`] runs).
    pub fn spec(self) -> Spec<f64> {
        self.entry()
    }

    /// The function called `name`.
    pub fn from_name(name: &str) -> Option<Function> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The function a user coming from Pinocchio or the textbooks most
    /// likely means by `name` when it is none of ours: `inverse_dynamics` →
    /// `rnea`, `computeMinverse` → `minverse`. Case and underscores are
    /// ignored; `None` for a name without a counterpart here.
    pub fn alias(name: &str) -> Option<Function> {
        const ALIASES: &[(&str, Function)] = &[
            ("inversedynamics", Function::Rnea),
            ("forwarddynamics", Function::Aba),
            ("massmatrix", Function::Crba),
            ("computeminverse", Function::Minverse),
            ("inversemassmatrix", Function::Minverse),
            ("nle", Function::NonlinearEffects),
            ("computegeneralizedgravity", Function::GeneralizedGravity),
            ("gravity", Function::GeneralizedGravity),
            ("com", Function::CenterOfMass),
            ("jacobiancenterofmass", Function::JacobianCenterOfMass),
            ("centroidalmomentummatrix", Function::Ccrba),
            ("forwardkinematics", Function::FramePlacement),
            ("framesforwardkinematics", Function::FramePlacement),
            ("constraintdynamics", Function::ContactDynamics),
            (
                "computeconstraintdynamicsderivatives",
                Function::ContactDynamicsDerivatives,
            ),
            ("computerneaderivatives", Function::RneaDerivatives),
            ("computeabaderivatives", Function::AbaDerivatives),
            (
                "computecentroidaldynamicsderivatives",
                Function::CentroidalDynamicsDerivatives,
            ),
        ];
        let folded: String = name
            .chars()
            .filter(|c| *c != '_')
            .flat_map(char::to_lowercase)
            .collect();
        ALIASES
            .iter()
            .find(|(alias, _)| *alias == folded)
            .map(|&(_, f)| f)
    }

    /// Whether the function is defined by a contact set (`Model::contacts`):
    /// it cannot be generated without one.
    pub fn needs_contacts(self) -> bool {
        matches!(
            self,
            Function::ContactJacobian
                | Function::ContactDrift
                | Function::ContactDynamics
                | Function::ContactInverseDynamics
                | Function::CenterOfPressure
                | Function::ContactDriftDerivatives
                | Function::ContactDynamicsDerivatives
                | Function::ContactInverseDynamicsDerivatives
                | Function::ImpulseDynamics
                | Function::ImpulseDynamicsDerivatives
                | Function::ContactStepLinearization
                | Function::ContactDynamicsMasked
                | Function::ContactDynamicsDerivativesMasked
                | Function::ImpulseDynamicsMasked
                | Function::ImpulseDynamicsDerivativesMasked
                | Function::ContactStepLinearizationMasked
                | Function::ContactStepLinearizationForcesMasked
        )
    }

    /// The function whose Jacobian this analytical derivative is, where the
    /// Jacobian by automatic differentiation (`NAME_jacobian`) gives the
    /// same numbers: `rnea` for `rnea_derivatives`, `aba` for
    /// `aba_derivatives`, `center_of_mass` for `jacobian_center_of_mass` (the
    /// `fext` forms' Jacobians have a block for `fext` besides).
    pub fn ad_form(self) -> Option<Function> {
        match self {
            Function::RneaDerivatives => Some(Function::Rnea),
            Function::AbaDerivatives => Some(Function::Aba),
            Function::JacobianCenterOfMass => Some(Function::CenterOfMass),
            Function::RneaDerivativesFext => Some(Function::RneaFext),
            Function::AbaDerivativesFext => Some(Function::AbaFext),
            _ => None,
        }
    }

    /// The functions generated when none are named: all of them, but those
    /// that need a contact set when `model` has none.
    pub fn default_set(model: &Model) -> Vec<Function> {
        Self::ALL
            .into_iter()
            .filter(|f| !f.needs_contacts() || !model.contacts.is_empty())
            .collect()
    }

    /// Whether the function reads the bodies' inertias, so that it takes the
    /// run-time inertial parameters of `Model::parameters` when there are any.
    pub fn reads_inertias(self) -> bool {
        !matches!(
            self,
            Function::FramePlacement
                | Function::FrameJacobianLocal
                | Function::FrameJacobianWorld
                | Function::FrameJacobianLocalWorldAligned
                | Function::PoseError
                | Function::Integrate
                | Function::Difference
                | Function::DIntegrateDq
                | Function::DIntegrateDv
                | Function::DDifferenceDq0
                | Function::DDifferenceDq1
                | Function::FrameJacobianTimeVariationLocal
                | Function::FrameJacobianTimeVariationWorld
                | Function::FrameJacobianTimeVariationLocalWorldAligned
                | Function::FrameAccelerationDrift
                | Function::JointTorqueRegressor
                | Function::ContactJacobian
                | Function::ContactDrift
                | Function::CenterOfPressure
                | Function::FrameVelocityDerivativesLocal
                | Function::FrameVelocityDerivativesLocalWorldAligned
                | Function::FrameAccelerationDerivativesLocal
                | Function::FrameAccelerationDerivativesLocalWorldAligned
                | Function::ContactDriftDerivatives
        )
    }

    /// The arguments of the function for `model`: the table's, then `pi`
    /// (the inertial parameters of `model.parameters`, [`Dim::Parameters`])
    /// when the model has run-time parameters and the function reads inertias.
    pub fn args(self, model: &Model) -> Vec<(&'static str, Dim)> {
        let mut args = self.spec().args.to_vec();
        if !model.parameters.is_empty() && self.reads_inertias() {
            args.push(("pi", Dim::Parameters));
        }
        args
    }

    /// Runs the function's generic algorithm on `x` (one `Vec` per argument of
    /// [`Function::args`]) for a frame index of per-frame functions: sets the
    /// run-time parameters from `pi` when it is there, then calls the table's
    /// evaluation. Returns the outputs flattened row-major.
    ///
    /// The one implementation of the function for every scalar: on [`Expr`](crate::Expr)
    /// it traces the graph that emission compiles, on `f64` it computes the
    /// reference value, on a dual number (`rbdgen_runtime::Dual`) its
    /// directional derivatives.
    ///
    /// # Errors
    /// [`InputError::Length`] when `x` does not hold one argument per
    /// [`Function::args`] (argument `x`) or an argument has the wrong length
    /// for `model` (named as in [`Function::args`]), [`InputError::Index`]
    /// when `frame` is not a frame index, [`InputError::Data`] when `data`
    /// was built for another model; checked before anything is written.
    ///
    /// # Panics
    /// When `frame` is `None` for a per-frame function ([`Spec::per_frame`]):
    /// a call that does not know which function it makes.
    pub fn evaluate<S: Scalar>(
        self,
        model: &Model,
        data: &mut Data<S>,
        x: &[Vec<S>],
        frame: Option<usize>,
    ) -> Result<Vec<S>, InputError> {
        let args = self.args(model);
        if x.len() != args.len() {
            return Err(InputError::Length {
                argument: "x",
                len: x.len(),
                expected: args.len(),
            });
        }
        for ((argument, dim), x) in args.into_iter().zip(x) {
            let expected = dim.len(model);
            if x.len() != expected {
                return Err(InputError::Length {
                    argument,
                    len: x.len(),
                    expected,
                });
            }
        }
        data.check(model)?;
        let entry = self.entry::<S>();
        let n = entry.args.len();
        if x.len() > n {
            set_link_parameters(model, data, &x[n])?;
        }
        (entry.evaluate)(model, data, &x[..n], frame)
    }
}

/// A length in a generated signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    /// `NQ`.
    Nq,
    /// `NV`.
    Nv,
    /// A fixed number.
    Fixed(usize),
    /// One wrench `[linear; angular]` per joint id, the universe included: an
    /// argument `&[[f64; 6]; NJOINTS]` (Pinocchio's `fext`), traced flat,
    /// `6 * NJOINTS` long.
    Wrenches,
    /// `NU`: the actuated dofs (every dof but a free-flyer's; the runtime's
    /// `actuated_dofs`).
    Nu,
    /// `2 * NV`: the state `(δq, δv)` of a linearization.
    TwoNv,
    /// A placement as a 4 x 4 homogeneous matrix: an argument `&[[f64; 4]; 4]`,
    /// traced flat, 16 long.
    Placement,
    /// A scalar argument `f64` (a step size), traced as one input.
    Scalar,
    /// `NC`: the rows of the contact set (`Model::contacts`): 3 per point, 6
    /// per 6-D contact.
    Contacts,
    /// The inertial parameters of the links of `Model::parameters`: an
    /// argument `&[[f64; 10]; NPARAMETERS]`, traced flat.
    Parameters,
    /// `10 * (NJOINTS - 1)`: the inertial parameters of every joint's body
    /// (the columns of the torque regressor).
    Regressor,
}

impl Dim {
    /// The number for `model` (of scalars, for [`Dim::Wrenches`]).
    pub fn len(self, model: &Model) -> usize {
        match self {
            Dim::Nq => model.nq,
            Dim::Nv => model.nv,
            Dim::Fixed(n) => n,
            Dim::Wrenches => 6 * model.njoints(),
            Dim::Nu => actuated_dofs(model).len(),
            Dim::TwoNv => 2 * model.nv,
            Dim::Placement => 16,
            Dim::Scalar => 1,
            Dim::Contacts => contact_rows(&model.contacts),
            Dim::Parameters => 10 * model.parameters.len(),
            Dim::Regressor => 10 * (model.njoints() - 1),
        }
    }

    /// The length of the rows of an argument that is an array of rows
    /// (`[[f64; 6]; NJOINTS]` for [`Dim::Wrenches`], `[[f64; 4]; 4]` for
    /// [`Dim::Placement`]), `Some(0)` for a scalar argument ([`Dim::Scalar`]),
    /// `None` for a flat one.
    pub fn row_len(self) -> Option<usize> {
        match self {
            Dim::Wrenches => Some(6),
            Dim::Placement => Some(4),
            Dim::Parameters => Some(10),
            Dim::Scalar => Some(0),
            Dim::Nq
            | Dim::Nv
            | Dim::Fixed(_)
            | Dim::Nu
            | Dim::TwoNv
            | Dim::Contacts
            | Dim::Regressor => None,
        }
    }
}

/// The output of a generated function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// `f64`.
    Scalar,
    /// `[f64; n]`.
    Vector(Dim),
    /// `[[f64; cols]; rows]`, filled row-major.
    Matrix(Dim, Dim),
    /// A tuple of the given outputs (none of them a tuple), traced as their
    /// flat outputs one after the other.
    Tuple(&'static [Output]),
}

impl Output {
    /// The number of scalars of the output for `model`.
    pub fn len(self, model: &Model) -> usize {
        match self {
            Output::Scalar => 1,
            Output::Vector(n) => n.len(model),
            Output::Matrix(r, c) => r.len(model) * c.len(model),
            Output::Tuple(parts) => parts.iter().map(|p| p.len(model)).sum(),
        }
    }
}

/// A function's evaluation on the scalar `S`: the runtime's generic algorithm
/// on arguments of `S` (one `Vec` per argument, in order), for the frame
/// index given to per-frame functions; returns the outputs flattened
/// row-major.
pub type EvaluateFn<S> =
    fn(&Model, &mut Data<S>, &[Vec<S>], Option<usize>) -> Result<Vec<S>, InputError>;

/// One entry of the table: everything emission needs to know about a
/// function, and its evaluation on the scalar `S`.
pub struct Spec<S> {
    /// The Rust name, as the runtime's.
    pub name: &'static str,
    /// Array arguments, `&[f64; dim]` each.
    pub args: &'static [(&'static str, Dim)],
    /// Whether the function takes a `frame: Frame` after the arrays and is
    /// emitted as one specialised arm per link frame.
    pub per_frame: bool,
    /// The result.
    pub output: Output,
    /// Doc lines: summary, equation, source, shapes and units.
    pub doc: &'static [&'static str],
    /// The evaluation on `S`, which [`Function::evaluate`] runs (on
    /// `Expr`: the trace).
    pub evaluate: EvaluateFn<S>,
}

/// The output of the contact dynamics derivatives: three `[NV x NV]`, three `[NC x NV]`.
const CONTACT_DERIVATIVES: Output = Output::Tuple(&[
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Contacts, Dim::Nv),
    Output::Matrix(Dim::Contacts, Dim::Nv),
    Output::Matrix(Dim::Contacts, Dim::Nv),
]);

/// The output of the impulse derivatives: two `[NV x NV]`, two `[NC x NV]`.
const IMPULSE_DERIVATIVES: Output = Output::Tuple(&[
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Contacts, Dim::Nv),
    Output::Matrix(Dim::Contacts, Dim::Nv),
]);

/// The output of a step's linearization: `(q⁺: [NQ], v⁺: [NV], A: [2NV x 2NV], B: [2NV x NU])`.
const STEP: Output = Output::Tuple(&[
    Output::Vector(Dim::Nq),
    Output::Vector(Dim::Nv),
    Output::Matrix(Dim::TwoNv, Dim::TwoNv),
    Output::Matrix(Dim::TwoNv, Dim::Nu),
]);

/// `(q⁺, v⁺, A, B, λ, Λx, Λu)`: [`STEP`] and the contact forces' linearization.
const STEP_FORCES: Output = Output::Tuple(&[
    Output::Vector(Dim::Nq),
    Output::Vector(Dim::Nv),
    Output::Matrix(Dim::TwoNv, Dim::TwoNv),
    Output::Matrix(Dim::TwoNv, Dim::Nu),
    Output::Vector(Dim::Contacts),
    Output::Matrix(Dim::Contacts, Dim::TwoNv),
    Output::Matrix(Dim::Contacts, Dim::Nu),
]);

/// One column of a looped block: `(model, chain, factors, w) -> [NV]`, the
/// same code for every column of the chain of dofs `chain` (an index into
/// [`Topology::dof_chains`](rbdgen_runtime::Topology::dof_chains)), `w` the
/// column's input.
pub type Kernel<S> = fn(&Model, usize, &[S], &[S]) -> Result<Vec<S>, InputError>;

/// A block of the output (a square `[NV x NV]` matrix) computed column by
/// column.
pub struct Looped<S> {
    /// Its index in the output tuple (0 for a lone matrix).
    pub block: usize,
    /// The length of one column's input: the stage gives the block's inputs
    /// as a `[rows x NV]` matrix whose column c is column c's.
    pub rows: fn(&Model) -> usize,
    /// One column from its input.
    pub kernel: Kernel<S>,
}

/// A function's column form: blocks of its output computed column by
/// column by the same code with other inputs, so that big functions can
/// write that code once per chain of dofs and loop
/// ([`crate::Options::unroll_limit`]). `stage` gives the function's outputs
/// with each looped block holding its columns' inputs, then
/// `factors(model)` values that every column reads.
pub struct Columns<S> {
    /// The outputs before the looped blocks, then the factors.
    pub stage: EvaluateFn<S>,
    /// The blocks computed column by column.
    pub looped: Vec<Looped<S>>,
    /// What the loops compute, for the function's doc.
    pub looped_names: &'static str,
    /// How many factors `stage` returns after the outputs.
    pub factors: fn(&Model) -> usize,
    /// The form is taken when it runs more than `limit ×`
    /// [`crate::Options::unroll_limit`] operations: 1 for the solves; for
    /// `∂τ`'s columns, which run about 1.5 times the operations of `∂τ`
    /// written out, 3 in `rnea_derivatives` (Unitree G1's, 43,000
    /// operations looped, ran 26 % slower than straight-line) and 4 in
    /// `aba_derivatives` (G1's, 126,000 looped, ran 5 to 11 % slower than
    /// with its solves alone looped on an AMD EPYC, within 10 % either way
    /// on an Intel Xeon).
    pub limit: usize,
}

/// `-I`, `[nv x nv]` row-major: the right-hand side whose solve is `M⁻¹`.
fn minus_identity<S: Scalar>(nv: usize) -> Vec<S> {
    let mut m = vec![S::zero(); nv * nv];
    for i in 0..nv {
        m[i * nv + i] = -S::one();
    }
    m
}

/// How many factors of `M` [`solve_mass_column`] reads.
fn mass_factor_count(model: &Model) -> usize {
    model.nv + mass_factor_pattern(model).len()
}

/// `-M⁻¹ w` from the factors of `M` first in `f`.
fn solve_kernel<S: Scalar>(m: &Model, _: usize, f: &[S], w: &[S]) -> Result<Vec<S>, InputError> {
    solve_mass_column(m, &f[..mass_factor_count(m)], w)
}

/// Column of `∂τ` ([`rnea_derivative_column`]) from the factors after those
/// of `M` in `f`, then `-M⁻¹` of it.
fn derivative_solve_kernel<S: Scalar>(
    m: &Model,
    chain: usize,
    f: &[S],
    w: &[S],
) -> Result<Vec<S>, InputError> {
    let n = mass_factor_count(m);
    let column = rnea_derivative_column(m, chain, &f[n..], w)?;
    solve_mass_column(m, &f[..n], &column)
}

/// The RNEA derivatives' column form: `∂τ/∂q`, `∂τ/∂v` column by column.
fn rnea_columns<S: Scalar>(stage: EvaluateFn<S>) -> Columns<S> {
    Columns {
        stage,
        looped: [0, 1]
            .map(|block| Looped {
                block,
                rows: derivative_column_len,
                kernel: |m, g, f, w| rnea_derivative_column(m, g, f, w),
            })
            .into(),
        looped_names: "`dtau_dq` and `dtau_dv`",
        factors: |m| 15 * m.nv,
        limit: 3,
    }
}

/// The ABA derivatives' column forms: the solves by `-M⁻¹` of the stage's
/// `∂τ` and of `-I`; then, on a model without mimic joints, also each column
/// of `∂τ/∂q` and `∂τ/∂v` before its solve.
fn aba_columns<S: Scalar>(model: &Model, fext: bool) -> Vec<Columns<S>> {
    let stage: EvaluateFn<S> = match fext {
        false => |m, d, x, _| {
            let s = aba_derivatives_stage(m, d, &x[0], &x[1], &x[2], None)?;
            Ok([s.dtau_dq, s.dtau_dv, minus_identity(m.nv), s.factors].concat())
        },
        true => |m, d, x, _| {
            let f = wrenches(m, &x[3])?;
            let s = aba_derivatives_stage(m, d, &x[0], &x[1], &x[2], Some(&f))?;
            Ok([s.dtau_dq, s.dtau_dv, minus_identity(m.nv), s.factors].concat())
        },
    };
    let solves = Columns {
        stage,
        looped: [0, 1, 2]
            .map(|block| Looped {
                block,
                rows: |m| m.nv,
                kernel: solve_kernel,
            })
            .into(),
        looped_names:
            "`ddq_dq`, `ddq_dv` and `ddq_dtau` (the solves of `∂τ` and of `-I` by `-M⁻¹`)",
        factors: mass_factor_count,
        limit: 1,
    };
    if model.has_mimic() {
        return vec![solves];
    }
    let stage: EvaluateFn<S> = match fext {
        false => |m, d, x, _| aba_stage(m, d, x, None),
        true => |m, d, x, _| {
            let f = wrenches(m, &x[3])?;
            aba_stage(m, d, x, Some(&f))
        },
    };
    let derivative = |block| Looped {
        block,
        rows: derivative_column_len,
        kernel: derivative_solve_kernel,
    };
    let minv = Looped {
        block: 2,
        rows: |m| m.nv,
        kernel: solve_kernel,
    };
    let columns = Columns {
        stage,
        looped: vec![derivative(0), derivative(1), minv],
        looped_names: "`ddq_dq` and `ddq_dv` (each column of `∂τ` and its solve by `-M⁻¹`) \
                       and `ddq_dtau` (`M⁻¹`, the solve of `-I`)",
        factors: |m| mass_factor_count(m) + 15 * m.nv,
        limit: 4,
    };
    vec![solves, columns]
}

/// The ABA derivatives' stage on a model without mimic joints: the inputs
/// of the columns of `∂τ/∂q`, `∂τ/∂v`, then `-I`, the factors of `M` and
/// those of the columns.
fn aba_stage<S: Scalar>(
    m: &Model,
    d: &mut Data<S>,
    x: &[Vec<S>],
    fext: Option<&[Force<S>]>,
) -> Result<Vec<S>, InputError> {
    let s = aba_derivatives_stage(m, d, &x[0], &x[1], &x[2], fext)?;
    let c = s.columns.ok_or(InputError::Mimic {
        function: "aba_derivatives",
    })?;
    Ok([c.dq, c.dv, minus_identity(m.nv), s.factors, c.factors].concat())
}

impl Function {
    /// The column forms of the function on `model`, in the order they are
    /// taken as its size grows ([`Columns::limit`]; empty when it has
    /// none). Each is the runtime's algorithm split where its columns start:
    /// - `minverse`: the solve of `-I` through the factors of `M`
    ///   ([`mass_factors`], [`solve_mass_column`]; Featherstone's `M⁻¹` by
    ///   unit vectors);
    /// - `aba_derivatives`, `aba_derivatives_fext`: first the solves of `∂τ`
    ///   and `-I` by `-M⁻¹` through the tree-sparse factors
    ///   ([`aba_derivatives_stage`]); then, on a model without mimic joints,
    ///   each column of `∂τ/∂q` and `∂τ/∂v` looped before its solve
    ///   ([`rnea_derivative_column`]);
    /// - `rnea_derivatives`, `rnea_derivatives_fext` (without mimic joints):
    ///   `∂τ/∂q` and `∂τ/∂v` column by column ([`rnea_derivatives_stage`]).
    pub fn columns<S: Scalar>(self, model: &Model) -> Vec<Columns<S>> {
        match self {
            Function::Minverse => vec![Columns {
                stage: |m, d, x, _| {
                    let factors = mass_factors(m, d, &x[0])?;
                    Ok([minus_identity(m.nv), factors].concat())
                },
                looped: vec![Looped {
                    block: 0,
                    rows: |m| m.nv,
                    kernel: solve_kernel,
                }],
                looped_names: "`M⁻¹` (the solve of `-I`)",
                factors: mass_factor_count,
                limit: 1,
            }],
            Function::AbaDerivatives => aba_columns(model, false),
            Function::AbaDerivativesFext => aba_columns(model, true),
            _ if model.has_mimic() => vec![],
            Function::RneaDerivatives => vec![rnea_columns(|m, d, x, _| {
                let (c, mass) = rnea_derivatives_stage(m, d, &x[0], &x[1], &x[2], None)?;
                Ok([c.dq, c.dv, mass, c.factors].concat())
            })],
            Function::RneaDerivativesFext => vec![rnea_columns(|m, d, x, _| {
                let f = wrenches(m, &x[3])?;
                let (c, mass) = rnea_derivatives_stage(m, d, &x[0], &x[1], &x[2], Some(&f))?;
                Ok([c.dq, c.dv, mass, c.factors].concat())
            })],
            _ => vec![],
        }
    }
}

impl Function {
    /// This function's entry of the table, its evaluation on `S`: one generic
    /// implementation per function, so tracing (`S = Expr`), reference values
    /// (`f64`) and dual-number checks run the same code.
    fn entry<S: Scalar>(self) -> Spec<S> {
        match self {
            Function::Rnea => Spec {
                name: "rnea",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
                per_frame: false,
                output: Output::Vector(Dim::Nv),
                doc: &[
                    "Inverse dynamics `tau = M(q) a + C(q, v) v + g(q)` by the recursive Newton-Euler",
                    "algorithm (Featherstone 2008 §5.3; Pinocchio's `rnea`).",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `a: [NV]`; returns `tau: [NV]` (N·m, N; a free-flyer's",
                    "entries are the base wrench in the base frame). `rnea(q, v, 0)` is `nonLinearEffects`.",
                ],
                evaluate: |m, d, x, _| Ok(rnea(m, d, &x[0], &x[1], &x[2])?.to_vec()),
            },
            Function::Crba => Spec {
                name: "crba",
                args: &[("q", Dim::Nq)],
                per_frame: false,
                output: Output::Matrix(Dim::Nv, Dim::Nv),
                doc: &[
                    "The joint-space inertia matrix `M(q)` by the composite rigid-body algorithm",
                    "(Featherstone 2008 §6.2; Pinocchio's `crba`, which fills only the upper",
                    "triangle: this is the full symmetric matrix).",
                    "",
                    "`q: [NQ]`; returns `M: [NV x NV]` (kg, kg·m, kg·m²).",
                ],
                evaluate: |m, d, x, _| Ok(crba(m, d, &x[0])?.to_vec()),
            },
            Function::Aba => Spec {
                name: "aba",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("tau", Dim::Nv)],
                per_frame: false,
                output: Output::Vector(Dim::Nv),
                doc: &[
                    "Forward dynamics `a = M(q)⁻¹ (tau - C(q, v) v - g(q))` by the articulated-body",
                    "algorithm (Featherstone 2008 §7.3; Pinocchio's `aba`).",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `tau: [NV]`; returns `a: [NV]`. `rnea(q, v, aba(q, v, tau)) = tau`.",
                ],
                evaluate: |m, d, x, _| Ok(aba(m, d, &x[0], &x[1], &x[2])?.to_vec()),
            },
            Function::FramePlacement => Spec {
                name: "frame_placement",
                args: &[("q", Dim::Nq)],
                per_frame: true,
                output: Output::Matrix(Dim::Fixed(4), Dim::Fixed(4)),
                doc: &[
                    "The placement `world_from_frame` of a link frame as a 4x4 homogeneous matrix",
                    "`[[R, p], [0, 1]]` (Pinocchio's `oMf` after `updateFramePlacements`); `q: [NQ]`, m.",
                ],
                evaluate: |m, d, x, frame| {
                    forward_kinematics(m, d, &x[0])?;
                    let frame = frame.expect("per-frame function");
                    Ok(frame_placement(m, d, frame)?.to_homogeneous().concat())
                },
            },
            Function::NonlinearEffects => Spec {
                name: "nonlinear_effects",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: false,
                output: Output::Vector(Dim::Nv),
                doc: &[
                    "The nonlinear effects `h(q, v) = C(q, v) v + g(q)` by RNEA at zero acceleration",
                    "(Featherstone 2008 §5.3; Pinocchio's `nonLinearEffects`).",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns `h: [NV]` (N·m, N). `nonlinear_effects(q, v) == rnea(q, v, 0)`.",
                ],
                evaluate: |m, d, x, _| Ok(nonlinear_effects(m, d, &x[0], &x[1])?.to_vec()),
            },
            Function::GeneralizedGravity => Spec {
                name: "generalized_gravity",
                args: &[("q", Dim::Nq)],
                per_frame: false,
                output: Output::Vector(Dim::Nv),
                doc: &[
                    "The generalized gravity `g(q)` by RNEA at zero velocity and acceleration",
                    "(Featherstone 2008 §5.3; Pinocchio's `computeGeneralizedGravity`).",
                    "",
                    "`q: [NQ]`; returns `g: [NV]` (N·m, N). `generalized_gravity(q) == rnea(q, 0, 0)`.",
                ],
                evaluate: |m, d, x, _| Ok(generalized_gravity(m, d, &x[0])?.to_vec()),
            },
            Function::Minverse => Spec {
                name: "minverse",
                args: &[("q", Dim::Nq)],
                per_frame: false,
                output: Output::Matrix(Dim::Nv, Dim::Nv),
                doc: &[
                    "The inverse joint-space inertia matrix `M(q)⁻¹` (Pinocchio's `computeMinverse`,",
                    "full and symmetric), from CRBA and the tree-sparse factorisation `M = Lᵀ D L`",
                    "(Featherstone 2008 §6.5): `M⁻¹ = L⁻¹ D⁻¹ L⁻ᵀ`, no dense inversion.",
                    "",
                    "`q: [NQ]`; returns `M⁻¹: [NV x NV]`. `aba(q, v, tau) = minverse(q) (tau - nonlinear_effects(q, v))`.",
                ],
                evaluate: |m, d, x, _| Ok(minverse(m, d, &x[0])?.to_vec()),
            },
            Function::CenterOfMass => Spec {
                name: "center_of_mass",
                args: &[("q", Dim::Nq)],
                per_frame: false,
                output: Output::Vector(Dim::Fixed(3)),
                doc: &[
                    "The centre of mass `c = Σ m_i c_i / Σ m_i` of the moving bodies in the world frame",
                    "(Pinocchio's `centerOfMass`); links welded to the world count nowhere.",
                    "",
                    "`q: [NQ]`; returns `c: [3]` (m).",
                ],
                evaluate: |m, d, x, _| Ok(center_of_mass(m, d, &x[0])?.0.to_vec()),
            },
            Function::JacobianCenterOfMass => Spec {
                name: "jacobian_center_of_mass",
                args: &[("q", Dim::Nq)],
                per_frame: false,
                output: Output::Matrix(Dim::Fixed(3), Dim::Nv),
                doc: &[
                    "The Jacobian of the centre of mass, `ċ = Jcom(q) v`, world frame (Pinocchio's",
                    "`jacobianCenterOfMass`).",
                    "",
                    "`q: [NQ]`; returns `Jcom: [3 x NV]` (m per unit of v).",
                ],
                evaluate: |m, d, x, _| Ok(jacobian_center_of_mass(m, d, &x[0])?.to_vec()),
            },
            Function::Ccrba => Spec {
                name: "ccrba",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: false,
                output: Output::Tuple(&[
                    Output::Matrix(Dim::Fixed(6), Dim::Nv),
                    Output::Vector(Dim::Fixed(6)),
                ]),
                doc: &[
                    "The centroidal momentum matrix `Ag(q)` and momentum `hg = Ag v` (Orin, Goswami and",
                    "Lee 2013; Pinocchio's `ccrba`): momentum about the centre of mass with world axes,",
                    "rows `[linear; angular]`.",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns `(Ag: [6 x NV], hg: [6])` (kg·m/s, kg·m²/s).",
                ],
                evaluate: |m, d, x, _| {
                    let (ag, hg) = ccrba(m, d, &x[0], &x[1])?;
                    Ok([ag, &hg.to_array()[..]].concat())
                },
            },
            Function::Dccrba => Spec {
                name: "dccrba",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: false,
                output: Output::Matrix(Dim::Fixed(6), Dim::Nv),
                doc: &[
                    "The time derivative `dAg/dt` of the centroidal momentum matrix along `v`",
                    "(Pinocchio's `dccrba`), so that `d(hg)/dt = Ag a + dAg v`.",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns `dAg: [6 x NV]`, rows `[linear; angular]`.",
                ],
                evaluate: |m, d, x, _| Ok(dccrba(m, d, &x[0], &x[1])?.to_vec()),
            },
            Function::KineticEnergy => Spec {
                name: "kinetic_energy",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: false,
                output: Output::Scalar,
                doc: &[
                    "The kinetic energy `T = ½ Σ v_iᵀ I_i v_i = ½ vᵀ M(q) v` (Featherstone 2008 §2.15;",
                    "Pinocchio's `computeKineticEnergy`).",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns T (J).",
                ],
                evaluate: |m, d, x, _| Ok(vec![kinetic_energy(m, d, &x[0], &x[1])?]),
            },
            Function::PotentialEnergy => Spec {
                name: "potential_energy",
                args: &[("q", Dim::Nq)],
                per_frame: false,
                output: Output::Scalar,
                doc: &[
                    "The potential energy of gravity `V = -Σ m_i gᵀ c_i` of the moving bodies, zero at",
                    "the world origin (Pinocchio's `computePotentialEnergy`).",
                    "",
                    "`q: [NQ]`; returns V (J).",
                ],
                evaluate: |m, d, x, _| Ok(vec![potential_energy(m, d, &x[0])?]),
            },
            Function::FrameJacobianLocal => Spec {
                name: "frame_jacobian_local",
                args: &[("q", Dim::Nq)],
                per_frame: true,
                output: Output::Matrix(Dim::Fixed(6), Dim::Nv),
                doc: &[
                    "The Jacobian of a link frame in its own axes at its origin (Pinocchio's",
                    "`getFrameJacobian(.., LOCAL)` after `computeJointJacobians`): the runtime's",
                    "`frame_jacobian(.., ReferenceFrame::Local)`.",
                    "",
                    "`q: [NQ]`; returns `J: [6 x NV]`, rows `[linear; angular]` (m/s, rad/s per unit of v).",
                ],
                evaluate: |m, d, x, frame| evaluate_frame_jacobian(m, d, x, frame, ReferenceFrame::Local),
            },
            Function::FrameJacobianWorld => Spec {
                name: "frame_jacobian_world",
                args: &[("q", Dim::Nq)],
                per_frame: true,
                output: Output::Matrix(Dim::Fixed(6), Dim::Nv),
                doc: &[
                    "The Jacobian of a link frame as a spatial twist in world axes at the world origin",
                    "(Pinocchio's `getFrameJacobian(.., WORLD)` after `computeJointJacobians`): the",
                    "runtime's `frame_jacobian(.., ReferenceFrame::World)`.",
                    "",
                    "`q: [NQ]`; returns `J: [6 x NV]`, rows `[linear; angular]` (m/s, rad/s per unit of v).",
                ],
                evaluate: |m, d, x, frame| evaluate_frame_jacobian(m, d, x, frame, ReferenceFrame::World),
            },
            Function::FrameJacobianLocalWorldAligned => Spec {
                name: "frame_jacobian_local_world_aligned",
                args: &[("q", Dim::Nq)],
                per_frame: true,
                output: Output::Matrix(Dim::Fixed(6), Dim::Nv),
                doc: &[
                    "The Jacobian of a link frame in world axes at the frame's origin (Pinocchio's",
                    "`getFrameJacobian(.., LOCAL_WORLD_ALIGNED)` after `computeJointJacobians`): the",
                    "runtime's `frame_jacobian(.., ReferenceFrame::LocalWorldAligned)`.",
                    "",
                    "`q: [NQ]`; returns `J: [6 x NV]`, rows `[linear; angular]` (m/s, rad/s per unit of v).",
                ],
                evaluate: |m, d, x, frame| {
                    evaluate_frame_jacobian(m, d, x, frame, ReferenceFrame::LocalWorldAligned)
                },
            },
            Function::RneaFext => Spec {
                name: "rnea_fext",
                args: &[
                    ("q", Dim::Nq),
                    ("v", Dim::Nv),
                    ("a", Dim::Nv),
                    ("fext", Dim::Wrenches),
                ],
                per_frame: false,
                output: Output::Vector(Dim::Nv),
                doc: &[
                    "Inverse dynamics with external forces, `tau = M(q) a + C(q, v) v + g(q) - Σ J_iᵀ fext_i`,",
                    "by RNEA (Featherstone 2008 §5.3; Pinocchio's `rnea(model, data, q, v, a, fext)`).",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `a: [NV]`; `fext[i]`: the wrench `[linear; angular]` (N, N·m) on",
                    "the body of joint id i in that joint's frame, `fext[0]` (the universe) ignored, as",
                    "Pinocchio's. Returns `tau: [NV]`.",
                ],
                evaluate: |m, d, x, _| {
                    Ok(rnea_fext(m, d, &x[0], &x[1], &x[2], &wrenches(m, &x[3])?)?.to_vec())
                },
            },
            Function::RneaDerivatives => Spec {
                name: "rnea_derivatives",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
                per_frame: false,
                output: THREE_SQUARE,
                doc: &[
                    "The derivatives of inverse dynamics `tau = rnea(q, v, a)`: `(dtau_dq, dtau_dv,",
                    "dtau_da)`, each `[NV x NV]`, `dtau_dq` in the tangent space (perturbation",
                    "`integrate(q, δ)`) and `dtau_da = M(q)`. Matches Pinocchio's",
                    "`computeRNEADerivatives`; the runtime's analytical `rnea_derivatives`, traced.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `a: [NV]`.",
                ],
                evaluate: |m, d, x, _| {
                    let j = rnea_derivatives(m, d, &x[0], &x[1], &x[2])?;
                    Ok([j.d_dq, j.d_dv, j.d_du].concat())
                },
            },
            Function::AbaDerivatives => Spec {
                name: "aba_derivatives",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("tau", Dim::Nv)],
                per_frame: false,
                output: THREE_SQUARE,
                doc: &[
                    "The derivatives of forward dynamics `a = aba(q, v, tau)`: `(ddq_dq, ddq_dv,",
                    "ddq_dtau)`, each `[NV x NV]`, `ddq_dq` in the tangent space (perturbation",
                    "`integrate(q, δ)`) and `ddq_dtau = M(q)⁻¹`. Matches Pinocchio's",
                    "`computeABADerivatives`; the runtime's `aba_derivatives` (`-M⁻¹ ∂τ`), traced.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `tau: [NV]`.",
                ],
                evaluate: |m, d, x, _| {
                    let j = aba_derivatives(m, d, &x[0], &x[1], &x[2])?;
                    Ok([j.d_dq, j.d_dv, j.d_du].concat())
                },
            },
            Function::RneaDerivativesFext => Spec {
                name: "rnea_derivatives_fext",
                args: &[
                    ("q", Dim::Nq),
                    ("v", Dim::Nv),
                    ("a", Dim::Nv),
                    ("fext", Dim::Wrenches),
                ],
                per_frame: false,
                output: THREE_SQUARE,
                doc: &[
                    "The derivatives of inverse dynamics with external forces held fixed,",
                    "`tau = rnea_fext(q, v, a, fext)`: `(dtau_dq, dtau_dv, dtau_da)`, each `[NV x NV]`,",
                    "`dtau_dq` in the tangent space (perturbation `integrate(q, δ)`, each `fext[i]`",
                    "fixed in its joint's frame) and `dtau_da = M(q)`. Matches Pinocchio's",
                    "`computeRNEADerivatives(model, data, q, v, a, fext)`; the runtime's analytical",
                    "`rnea_derivatives_fext`, traced.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `a: [NV]`; `fext[i]`: the wrench `[linear; angular]` (N, N·m)",
                    "on the body of joint id i in that joint's frame, `fext[0]` (the universe) ignored.",
                ],
                evaluate: |m, d, x, _| {
                    let j = rnea_derivatives_fext(m, d, &x[0], &x[1], &x[2], &wrenches(m, &x[3])?)?;
                    Ok([j.d_dq, j.d_dv, j.d_du].concat())
                },
            },
            Function::StepLinearization => Spec {
                name: "step_linearization",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("u", Dim::Nu), ("h", Dim::Scalar)],
                per_frame: false,
                output: Output::Tuple(&[
                    Output::Vector(Dim::Nq),
                    Output::Vector(Dim::Nv),
                    Output::Matrix(Dim::TwoNv, Dim::TwoNv),
                    Output::Matrix(Dim::TwoNv, Dim::Nu),
                ]),
                doc: &[
                    "One step of semi-implicit Euler and its linearization (the runtime's",
                    "`step_linearization`): `a = aba(q, v, S u)`, `v⁺ = v + h a`, `q⁺ = integrate(q, h v⁺)`,",
                    "with `S` the actuation of `ACTUATED_DOFS`; `A`, `B` such that `δx⁺ ≈ A δx + B δu` for",
                    "`δx = (δq, δv)`, `δq` in the tangent space (`q ⊕ δq`) and `δq⁺ = difference(q⁺, ·)`.",
                    "By the chain rule on the ABA derivatives (`computeABADerivatives`) and",
                    "`dIntegrate`: `A = [[Dq + h² Dv ∂a/∂q, h Dv (I + h ∂a/∂v)], [h ∂a/∂q, I + h ∂a/∂v]]`,",
                    "`B = [[h² Dv M⁻¹ S], [h M⁻¹ S]]`, `Dq, Dv = dIntegrate(q, h v⁺, ARG0 / ARG1)`.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `u: [NU]` (N·m, N), `h` (s); returns `(q⁺: [NQ], v⁺: [NV],",
                    "A: [2NV x 2NV], B: [2NV x NU])`.",
                ],
                evaluate: |m, d, x, _| {
                    let (q_next, v_next, a, b) =
                        step_linearization(m, d, &x[0], &x[1], &x[2], x[3][0])?;
                    Ok([q_next, v_next, a, b].concat())
                },
            },
            Function::PoseError => Spec {
                name: "pose_error",
                args: &[("q", Dim::Nq), ("target", Dim::Placement)],
                per_frame: true,
                output: Output::Tuple(&[
                    Output::Vector(Dim::Fixed(6)),
                    Output::Matrix(Dim::Fixed(6), Dim::Nv),
                ]),
                doc: &[
                    "The pose error of a link frame with respect to a target placement and its Jacobian",
                    "(the runtime's `pose_error`): `E = oMf(q)⁻¹ · target`, `e = log6(E)`,",
                    "`J_e = de/dδq = -Jlog6(E⁻¹) · J_local(q)` for `q ⊕ δq`, with `J_local` the frame's",
                    "Jacobian in its own axes (Pinocchio's `log6`, `Jlog6`, `getFrameJacobian(.., LOCAL)`).",
                    "",
                    "`q: [NQ]`, `target`: world-from-target as a 4 x 4 homogeneous matrix; returns",
                    "`(e: [6], J_e: [6 x NV])`, rows `[linear; angular]` (m, rad; per unit of v).",
                ],
                evaluate: |m, d, x, frame| {
                    let t = &x[1];
                    let target = Transform {
                        rotation: Matrix3([
                            [t[0], t[1], t[2]],
                            [t[4], t[5], t[6]],
                            [t[8], t[9], t[10]],
                        ]),
                        translation: Vector3([t[3], t[7], t[11]]),
                    };
                    let frame = frame.expect("per-frame function");
                    let (e, j) = pose_error(m, d, &x[0], frame, &target)?;
                    Ok([e.to_vec(), j].concat())
                },
            },
            Function::Integrate => Spec {
                name: "integrate",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: false,
                output: Output::Vector(Dim::Nq),
                doc: &[
                    "The configuration `q ⊕ v` reached from `q` along `v` in unit time (Pinocchio's",
                    "`integrate`): `q + v` for revolute and prismatic joints, the rotation of",
                    "`[cos, sin]` for continuous joints, `M(q) exp6(v)` for a free-flyer (SE(3), its",
                    "quaternion renormalised to first order as Pinocchio's).",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns `[NQ]`. `integrate(q, difference(q, q1)) = q1`.",
                ],
                evaluate: |m, _, x, _| integrate(m, &x[0], &x[1]),
            },
            Function::Difference => Spec {
                name: "difference",
                args: &[("q0", Dim::Nq), ("q1", Dim::Nq)],
                per_frame: false,
                output: Output::Vector(Dim::Nv),
                doc: &[
                    "The tangent vector `q1 ⊖ q0` that moves `q0` to `q1` (Pinocchio's `difference`):",
                    "`q1 - q0`, the angle in (-π, π] for continuous joints, `log6(M(q0)⁻¹ M(q1))` for",
                    "a free-flyer.",
                    "",
                    "`q0, q1: [NQ]`; returns `[NV]`.",
                ],
                evaluate: |m, _, x, _| difference(m, &x[0], &x[1]),
            },
            Function::DIntegrateDq => Spec {
                name: "d_integrate_dq",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: false,
                output: Output::Matrix(Dim::Nv, Dim::Nv),
                doc: &[
                    "The Jacobian of `integrate(q, v)` with respect to `q` in the tangent space",
                    "(Pinocchio's `dIntegrate(model, q, v, ARG0)`; the runtime's",
                    "`d_integrate(model, q, v, ArgumentPosition::Arg0)`): block diagonal, `1` per",
                    "1-dof joint, `Ad(exp6(v))⁻¹` for a free-flyer.",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns `[NV x NV]`.",
                ],
                evaluate: |m, _, x, _| d_integrate(m, &x[0], &x[1], ArgumentPosition::Arg0),
            },
            Function::DIntegrateDv => Spec {
                name: "d_integrate_dv",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: false,
                output: Output::Matrix(Dim::Nv, Dim::Nv),
                doc: &[
                    "The Jacobian of `integrate(q, v)` with respect to `v` in the tangent space",
                    "(Pinocchio's `dIntegrate(model, q, v, ARG1)`; the runtime's",
                    "`d_integrate(model, q, v, ArgumentPosition::Arg1)`): block diagonal, `1` per",
                    "1-dof joint, `Jexp6(v)` for a free-flyer.",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns `[NV x NV]`.",
                ],
                evaluate: |m, _, x, _| d_integrate(m, &x[0], &x[1], ArgumentPosition::Arg1),
            },
            Function::DDifferenceDq0 => Spec {
                name: "d_difference_dq0",
                args: &[("q0", Dim::Nq), ("q1", Dim::Nq)],
                per_frame: false,
                output: Output::Matrix(Dim::Nv, Dim::Nv),
                doc: &[
                    "The Jacobian of `difference(q0, q1)` with respect to `q0` in the tangent space",
                    "(Pinocchio's `dDifference(model, q0, q1, ARG0)`; the runtime's",
                    "`d_difference(model, q0, q1, ArgumentPosition::Arg0)`): block diagonal, `-1` per",
                    "1-dof joint, `-Jlog6(M) Ad(M)⁻¹` for a free-flyer, `M = M(q0)⁻¹ M(q1)`.",
                    "",
                    "`q0, q1: [NQ]`; returns `[NV x NV]`.",
                ],
                evaluate: |m, _, x, _| d_difference(m, &x[0], &x[1], ArgumentPosition::Arg0),
            },
            Function::DDifferenceDq1 => Spec {
                name: "d_difference_dq1",
                args: &[("q0", Dim::Nq), ("q1", Dim::Nq)],
                per_frame: false,
                output: Output::Matrix(Dim::Nv, Dim::Nv),
                doc: &[
                    "The Jacobian of `difference(q0, q1)` with respect to `q1` in the tangent space",
                    "(Pinocchio's `dDifference(model, q0, q1, ARG1)`; the runtime's",
                    "`d_difference(model, q0, q1, ArgumentPosition::Arg1)`): block diagonal, `1` per",
                    "1-dof joint, `Jlog6(M(q0)⁻¹ M(q1))` for a free-flyer.",
                    "",
                    "`q0, q1: [NQ]`; returns `[NV x NV]`.",
                ],
                evaluate: |m, _, x, _| d_difference(m, &x[0], &x[1], ArgumentPosition::Arg1),
            },
            Function::AbaFext => Spec {
                name: "aba_fext",
                args: &[
                    ("q", Dim::Nq),
                    ("v", Dim::Nv),
                    ("tau", Dim::Nv),
                    ("fext", Dim::Wrenches),
                ],
                per_frame: false,
                output: Output::Vector(Dim::Nv),
                doc: &[
                    "Forward dynamics with external forces, `a = M(q)⁻¹ (tau - h(q, v) + Σ J_iᵀ fext_i)`,",
                    "by the articulated-body algorithm (Featherstone 2008 §7.3; Pinocchio's",
                    "`aba(model, data, q, v, tau, fext)`).",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `tau: [NV]`; `fext[i]`: the wrench `[linear; angular]` (N, N·m) on",
                    "the body of joint id i in that joint's frame, `fext[0]` (the universe) ignored. Returns",
                    "`a: [NV]`. `rnea_fext(q, v, aba_fext(q, v, tau, fext), fext) = tau`.",
                ],
                evaluate: |m, d, x, _| Ok(aba_fext(m, d, &x[0], &x[1], &x[2], &wrenches(m, &x[3])?)?.to_vec()),
            },
            Function::AbaDerivativesFext => Spec {
                name: "aba_derivatives_fext",
                args: &[
                    ("q", Dim::Nq),
                    ("v", Dim::Nv),
                    ("tau", Dim::Nv),
                    ("fext", Dim::Wrenches),
                ],
                per_frame: false,
                output: THREE_SQUARE,
                doc: &[
                    "The derivatives of forward dynamics with external forces held fixed in their joints'",
                    "frames, `a = aba_fext(q, v, tau, fext)`: `(ddq_dq, ddq_dv, ddq_dtau)`, each `[NV x NV]`,",
                    "`ddq_dq` in the tangent space, `ddq_dtau = M(q)⁻¹`. Matches Pinocchio's",
                    "`computeABADerivatives(model, data, q, v, tau, fext)`; the runtime's",
                    "`aba_derivatives_fext`, traced.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `tau: [NV]`, `fext: [[6]; NJOINTS]` as in `aba_fext`.",
                ],
                evaluate: |m, d, x, _| {
                    let j = aba_derivatives_fext(m, d, &x[0], &x[1], &x[2], &wrenches(m, &x[3])?)?;
                    Ok([j.d_dq, j.d_dv, j.d_du].concat())
                },
            },
            Function::AbaDfext => Spec {
                name: "aba_dfext",
                args: &[("q", Dim::Nq)],
                per_frame: false,
                output: Output::Matrix(Dim::Nv, Dim::Wrenches),
                doc: &[
                    "The derivative of forward dynamics with respect to the external forces,",
                    "`∂a/∂fext_i = M(q)⁻¹ J_iᵀ` with `J_i` joint i's LOCAL Jacobian (the runtime's",
                    "`aba_dfext`): `aba_fext` is affine in `fext`, so a force model `fext(q, v, u)` chains in",
                    "as `∂a/∂x += aba_dfext(q) ∂fext/∂x`.",
                    "",
                    "`q: [NQ]`; returns `[NV x 6 NJOINTS]`: columns `6 i .. 6 i + 6` for the wrench",
                    "`[linear; angular]` on joint i's body in its frame, zero for the universe (i = 0).",
                ],
                evaluate: |m, d, x, _| aba_dfext(m, d, &x[0]),
            },
            Function::FrameJacobianTimeVariationLocal => Spec {
                name: "frame_jacobian_time_variation_local",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: true,
                output: Output::Matrix(Dim::Fixed(6), Dim::Nv),
                doc: &[
                    "The time variation `J̇` of a link frame's LOCAL Jacobian along `v` (Pinocchio's",
                    "`computeJointJacobiansTimeVariation` + `getFrameJacobianTimeVariation(.., LOCAL)`):",
                    "the frame's spatial acceleration in its own axes is `J v̇ + J̇ v`.",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns `J̇: [6 x NV]`, rows `[linear; angular]`.",
                ],
                evaluate: |m, d, x, frame| evaluate_jacobian_time_variation(m, d, x, frame, ReferenceFrame::Local),
            },
            Function::FrameJacobianTimeVariationWorld => Spec {
                name: "frame_jacobian_time_variation_world",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: true,
                output: Output::Matrix(Dim::Fixed(6), Dim::Nv),
                doc: &[
                    "The time variation `J̇` of a link frame's WORLD Jacobian along `v` (Pinocchio's",
                    "`computeJointJacobiansTimeVariation` + `getFrameJacobianTimeVariation(.., WORLD)`).",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns `J̇: [6 x NV]`, rows `[linear; angular]`.",
                ],
                evaluate: |m, d, x, frame| evaluate_jacobian_time_variation(m, d, x, frame, ReferenceFrame::World),
            },
            Function::FrameJacobianTimeVariationLocalWorldAligned => Spec {
                name: "frame_jacobian_time_variation_local_world_aligned",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: true,
                output: Output::Matrix(Dim::Fixed(6), Dim::Nv),
                doc: &[
                    "The time variation `J̇` of a link frame's LOCAL_WORLD_ALIGNED Jacobian along `v`",
                    "(Pinocchio's `getFrameJacobianTimeVariation(.., LOCAL_WORLD_ALIGNED)`): its linear",
                    "rows give the acceleration of the frame's origin, `p̈ = J v̇ + J̇ v` (the classical",
                    "acceleration a point contact needs).",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns `J̇: [6 x NV]`, rows `[linear; angular]`.",
                ],
                evaluate: |m, d, x, frame| {
                    evaluate_jacobian_time_variation(m, d, x, frame, ReferenceFrame::LocalWorldAligned)
                },
            },
            Function::FrameAccelerationDrift => Spec {
                name: "frame_acceleration_drift",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: true,
                output: Output::Tuple(&[
                    Output::Vector(Dim::Fixed(6)),
                    Output::Vector(Dim::Fixed(6)),
                    Output::Vector(Dim::Fixed(6)),
                ]),
                doc: &[
                    "The acceleration of a link frame at `v̇ = 0` (`J̇ v`), as `(local, local_world_aligned,",
                    "classical)`: the spatial acceleration in the frame's axes (Pinocchio's",
                    "`getFrameAcceleration(.., LOCAL)`, `= J̇_local v`: a 6-D contact's drift), the same",
                    "rotated into world axes (`getFrameAcceleration(.., LOCAL_WORLD_ALIGNED)`, not",
                    "`J̇_lwa v`), and the classical acceleration in world axes",
                    "(`getFrameClassicalAcceleration(.., LOCAL_WORLD_ALIGNED)`: linear part `+ ω × v`,",
                    "`= J̇_lwa v`: the drift a point contact needs), after `forwardKinematics(q, v, 0)`.",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns three `[6]`, `[linear; angular]` (m/s², rad/s²).",
                ],
                evaluate: |m, d, x, frame| {
                    let frame = frame.expect("per-frame function");
                    let a = frame_acceleration_drift(m, d, &x[0], &x[1], frame)?;
                    Ok([a.local, a.local_world_aligned, a.classical_local_world_aligned]
                        .iter()
                        .flat_map(|m| m.to_array())
                        .collect())
                },
            },
            Function::CentroidalMomentumRate => Spec {
                name: "centroidal_momentum_rate",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
                per_frame: false,
                output: Output::Vector(Dim::Fixed(6)),
                doc: &[
                    "The rate of change of the centroidal momentum `ḣg = Ag a + dAg v` (Pinocchio's",
                    "`computeCentroidalMomentumTimeVariation`, `dhg`), by one RNEA forward pass without",
                    "gravity: the net external wrench about the centre of mass minus gravity's.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `a: [NV]`; returns `ḣg: [6]`, `[linear; angular]` (N, N·m).",
                ],
                evaluate: |m, d, x, _| Ok(centroidal_momentum_rate(m, d, &x[0], &x[1], &x[2])?.to_array().to_vec()),
            },
            Function::JointTorqueRegressor => Spec {
                name: "joint_torque_regressor",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
                per_frame: false,
                output: Output::Matrix(Dim::Nv, Dim::Regressor),
                doc: &[
                    "The joint torque regressor `Y(q, v, a)`: `rnea(q, v, a) = Y π + armature ⊙ a` for `π` the",
                    "inertial parameters of every joint's body in its frame, 10 per joint id 1.. in order,",
                    "`[m, m c_x, m c_y, m c_z, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz]`, `I` about the joint",
                    "frame's origin (Pinocchio's `computeJointTorqueRegressor`, `toDynamicParameters`).",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `a: [NV]`; returns `Y: [NV x 10 (NJOINTS - 1)]`.",
                ],
                evaluate: |m, d, x, _| joint_torque_regressor(m, d, &x[0], &x[1], &x[2]),
            },
            Function::ContactJacobian => Spec {
                name: "contact_jacobian",
                args: &[("q", Dim::Nq)],
                per_frame: false,
                output: Output::Matrix(Dim::Contacts, Dim::Nv),
                doc: &[
                    "The stacked Jacobian `J_c(q)` of the contact set `CONTACTS`, in its order: 3 rows per",
                    "point contact (the linear rows of the frame's LOCAL_WORLD_ALIGNED Jacobian), 6 per",
                    "6-D contact (its LOCAL Jacobian) (Pinocchio's `getFrameJacobian`, the rows of",
                    "`getConstraintsJacobian` for `CONTACT_3D` / `CONTACT_6D`).",
                    "",
                    "`q: [NQ]`; returns `J_c: [NC x NV]`.",
                ],
                evaluate: |m, d, x, _| contact_jacobian(m, d, &x[0], &m.contacts),
            },
            Function::ContactDrift => Spec {
                name: "contact_drift",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: false,
                output: Output::Vector(Dim::Contacts),
                doc: &[
                    "The stacked contact drift `γ = J̇_c v` of `CONTACTS`: the classical acceleration of a",
                    "point contact's origin in world axes, the spatial acceleration of a 6-D contact in its",
                    "own axes, at `v̇ = 0` (Pinocchio's `getFrameClassicalAcceleration(.., LOCAL_WORLD_ALIGNED)`",
                    "/ `getFrameAcceleration(.., LOCAL)`). The constraints read `J_c v̇ + γ = 0`.",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns `γ: [NC]` (m/s², rad/s²).",
                ],
                evaluate: |m, d, x, _| contact_drift(m, d, &x[0], &x[1], &m.contacts),
            },
            Function::ContactDynamics => Spec {
                name: "contact_dynamics",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("tau", Dim::Nv), ("damping", Dim::Scalar)],
                per_frame: false,
                output: Output::Tuple(&[Output::Vector(Dim::Nv), Output::Vector(Dim::Contacts)]),
                doc: &[
                    "Forward dynamics under the rigid contacts `CONTACTS`: `(a, λ)` solving",
                    "`[M J_cᵀ; J_c -μ I] [a; -λ] = [tau - h; -γ]` (Pinocchio's",
                    "`forwardDynamics(model, data, q, v, tau, J_c, γ, μ)`), so that `M a + h = tau + J_cᵀ λ`",
                    "and `J_c a + γ = -μ λ`. By the tree-sparse factors of `M` and an `L D Lᵀ` of the",
                    "contact-space operator `J_c M⁻¹ J_cᵀ + μ I` (no pivoting, no branch): pass",
                    "`damping = μ = 0` for rigid contacts, a small `μ > 0` for a rank-deficient set.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `tau: [NV]`, `damping` ≥ 0; returns `(a: [NV], λ: [NC])`, λ the",
                    "force on the robot in the contact rows' frames (N; N·m for 6-D rows).",
                ],
                evaluate: |m, d, x, _| {
                    let (a, l) = contact_dynamics(m, d, &x[0], &x[1], &x[2], &m.contacts, x[3][0])?;
                    Ok([a, l].concat())
                },
            },
            Function::ContactInverseDynamics => Spec {
                name: "contact_inverse_dynamics",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv), ("lambda", Dim::Contacts)],
                per_frame: false,
                output: Output::Vector(Dim::Nv),
                doc: &[
                    "The residual of the whole-body equation of motion, `rnea(q, v, a) - J_cᵀ λ`: the",
                    "torques that `(a, λ)` demand on `CONTACTS`. With a floating base its first 6 entries",
                    "must vanish (nothing actuates the free-flyer): the underactuation check of a",
                    "whole-body controller. For `contact_dynamics`'s `(a, λ)` it returns `tau`.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `a: [NV]`, `lambda: [NC]`; returns `[NV]` (N·m, N).",
                ],
                evaluate: |m, d, x, _| contact_inverse_dynamics(m, d, &x[0], &x[1], &x[2], &x[3], &m.contacts),
            },
            Function::CenterOfPressure => Spec {
                name: "center_of_pressure",
                args: &[("q", Dim::Nq), ("lambda", Dim::Contacts), ("height", Dim::Scalar)],
                per_frame: false,
                output: Output::Vector(Dim::Fixed(2)),
                doc: &[
                    "The centre of pressure (zero-moment point) of the contact forces `lambda` of",
                    "`CONTACTS` on the horizontal plane `z = height`: `x = (z f_x - n_y) / f_z`,",
                    "`y = (z f_y + n_x) / f_z` for the total force f and moment n about the world origin",
                    "(the runtime's `center_of_pressure`).",
                    "",
                    "`q: [NQ]`, `lambda: [NC]` (as `contact_dynamics` returns it), `height` (m); returns",
                    "`[x, y]` (m), world frame.",
                ],
                evaluate: |m, d, x, _| Ok(center_of_pressure(m, d, &x[0], &m.contacts, &x[1], x[2][0])?.to_vec()),
            },
            Function::FrameVelocityDerivativesLocal => Spec {
                name: "frame_velocity_derivatives_local",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: true,
                output: TWO_SIX,
                doc: &[
                    "The derivatives `(dv_dq, dv_dv)` of a link frame's spatial velocity in its own axes",
                    "(`getFrameVelocity(.., LOCAL)`; Pinocchio's `computeForwardKinematicsDerivatives` +",
                    "`getFrameVelocityDerivatives(.., LOCAL)`), `dv_dq` in the tangent space, analytically from",
                    "one forward pass of the kinematic derivatives. `dv_dv` is `frame_jacobian_local`.",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns two `[6 x NV]`, rows `[linear; angular]`.",
                ],
                evaluate: |m, d, x, frame| {
                    let f = frame.expect("per-frame function");
                    let (dq, dv) = frame_velocity_derivatives(m, d, &x[0], &x[1], f, ReferenceFrame::Local)?;
                    Ok([dq, dv].concat())
                },
            },
            Function::FrameVelocityDerivativesLocalWorldAligned => Spec {
                name: "frame_velocity_derivatives_local_world_aligned",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: true,
                output: TWO_SIX,
                doc: &[
                    "The derivatives `(dv_dq, dv_dv)` of a link frame's velocity in LOCAL_WORLD_ALIGNED (the",
                    "velocity of its origin and its angular velocity, world axes), `dv_dq` in the tangent",
                    "space with the origin moving with `q`: the exact derivative, where Pinocchio 4.1.0's",
                    "`getFrameVelocityDerivatives(.., LOCAL_WORLD_ALIGNED)` leaves out `[ω × ∂p/∂q; 0]`.",
                    "`dv_dv` is `frame_jacobian_local_world_aligned`.",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns two `[6 x NV]`, rows `[linear; angular]`.",
                ],
                evaluate: |m, d, x, frame| {
                    let f = frame.expect("per-frame function");
                    let (dq, dv) = frame_velocity_derivatives(m, d, &x[0], &x[1], f, ReferenceFrame::LocalWorldAligned)?;
                    Ok([dq, dv].concat())
                },
            },
            Function::FrameAccelerationDerivativesLocal => Spec {
                name: "frame_acceleration_derivatives_local",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
                per_frame: true,
                output: THREE_SIX,
                doc: &[
                    "The derivatives `(da_dq, da_dv, da_da)` of a link frame's spatial (not classical)",
                    "acceleration in its own axes (`getFrameAcceleration(.., LOCAL)` after",
                    "`forwardKinematics(q, v, a)`; Pinocchio's `getFrameAccelerationDerivatives(.., LOCAL)`),",
                    "`da_dq` in the tangent space. `da_da` is `frame_jacobian_local`.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `a: [NV]`; returns three `[6 x NV]`, rows `[linear; angular]`.",
                ],
                evaluate: |m, d, x, frame| {
                    let f = frame.expect("per-frame function");
                    let (dq, dv, da) = frame_acceleration_derivatives(m, d, &x[0], &x[1], &x[2], f, ReferenceFrame::Local)?;
                    Ok([dq, dv, da].concat())
                },
            },
            Function::FrameAccelerationDerivativesLocalWorldAligned => Spec {
                name: "frame_acceleration_derivatives_local_world_aligned",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
                per_frame: true,
                output: THREE_SIX,
                doc: &[
                    "The derivatives `(da_dq, da_dv, da_da)` of a link frame's spatial acceleration rotated",
                    "into world axes (`getFrameAcceleration(.., LOCAL_WORLD_ALIGNED)`), `da_dq` in the tangent",
                    "space with the frame's axes moving with `q`: the exact derivative, where Pinocchio",
                    "4.1.0's `getFrameAccelerationDerivatives` leaves out `[α × ∂p/∂q; 0]`. `da_da` is",
                    "`frame_jacobian_local_world_aligned`.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `a: [NV]`; returns three `[6 x NV]`, rows `[linear; angular]`.",
                ],
                evaluate: |m, d, x, frame| {
                    let f = frame.expect("per-frame function");
                    let (dq, dv, da) = frame_acceleration_derivatives(m, d, &x[0], &x[1], &x[2], f, ReferenceFrame::LocalWorldAligned)?;
                    Ok([dq, dv, da].concat())
                },
            },
            Function::CentroidalDynamicsDerivatives => Spec {
                name: "centroidal_dynamics_derivatives",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
                per_frame: false,
                output: Output::Tuple(&[
                    Output::Matrix(Dim::Fixed(6), Dim::Nv),
                    Output::Matrix(Dim::Fixed(6), Dim::Nv),
                    Output::Matrix(Dim::Fixed(6), Dim::Nv),
                    Output::Matrix(Dim::Fixed(6), Dim::Nv),
                ]),
                doc: &[
                    "The derivatives of the centroidal momentum `hg(q, v)` (`ccrba`) and of its rate",
                    "`ḣg(q, v, a)` (`centroidal_momentum_rate`): `(dh_dq, dhdot_dq, dhdot_dv, dhdot_da)`",
                    "(Pinocchio's `computeCentroidalDynamicsDerivatives`), `q` in the tangent space, from one",
                    "pass of the RNEA derivatives without gravity (the subtrees' forces and momenta moved to",
                    "the centre of mass). `dhdot_da` is `Ag`.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `a: [NV]`; returns four `[6 x NV]`, rows `[linear; angular]`.",
                ],
                evaluate: |m, d, x, _| {
                    let c = centroidal_dynamics_derivatives(m, d, &x[0], &x[1], &x[2])?;
                    Ok([c.dh_dq, c.dhdot_dq, c.dhdot_dv, c.dhdot_da].concat())
                },
            },
            Function::ContactDriftDerivatives => Spec {
                name: "contact_drift_derivatives",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: false,
                output: Output::Tuple(&[
                    Output::Matrix(Dim::Contacts, Dim::Nv),
                    Output::Matrix(Dim::Contacts, Dim::Nv),
                ]),
                doc: &[
                    "The derivatives `(dγ_dq, dγ_dv)` of the contact drift `γ(q, v)` of `CONTACTS`",
                    "(`contact_drift`: classical for a point, spatial in LOCAL for a 6-D contact), `q` in",
                    "the tangent space, analytically from one forward pass of the kinematic derivatives.",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns two `[NC x NV]`.",
                ],
                evaluate: |m, d, x, _| {
                    let (dq, dv) = contact_drift_derivatives(m, d, &x[0], &x[1], &m.contacts)?;
                    Ok([dq, dv].concat())
                },
            },
            Function::ContactDynamicsDerivatives => Spec {
                name: "contact_dynamics_derivatives",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("tau", Dim::Nv), ("damping", Dim::Scalar)],
                per_frame: false,
                output: Output::Tuple(&[
                    Output::Matrix(Dim::Nv, Dim::Nv),
                    Output::Matrix(Dim::Nv, Dim::Nv),
                    Output::Matrix(Dim::Nv, Dim::Nv),
                    Output::Matrix(Dim::Contacts, Dim::Nv),
                    Output::Matrix(Dim::Contacts, Dim::Nv),
                    Output::Matrix(Dim::Contacts, Dim::Nv),
                ]),
                doc: &[
                    "The derivatives of `contact_dynamics` on `CONTACTS` at fixed `damping`: `(ddq_dq, ddq_dv,",
                    "ddq_dtau, dlambda_dq, dlambda_dv, dlambda_dtau)` (Pinocchio's `constraintDynamics` +",
                    "`computeConstraintDynamicsDerivatives`), `q` in the tangent space. By the implicit",
                    "function theorem: `∂(a, λ)/∂x = -K⁻¹ ∂F/∂x` for the residual `F = (M a + h - tau - J_cᵀ λ,",
                    "J_c a + γ + μ λ)`, `∂F/∂x` at fixed `(a, λ)` from one pass of the RNEA derivatives with",
                    "the contact forces as external forces and the contact points' acceleration derivatives",
                    "from the same pass, `K⁻¹` from the factors `contact_dynamics` builds, as its blocks",
                    "`[[P, Q], [-Qᵀ, Λ⁻¹]]`. With `damping > 0` they are the exact derivatives of",
                    "the damped solution, `O(μ)` from the rigid ones.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `tau: [NV]`, `damping` ≥ 0; returns three `[NV x NV]`, three `[NC x NV]`.",
                ],
                evaluate: |m, d, x, _| {
                    let c = contact_dynamics_derivatives(m, d, &x[0], &x[1], &x[2], &m.contacts, x[3][0])?;
                    Ok([c.ddq_dq, c.ddq_dv, c.ddq_dtau, c.dlambda_dq, c.dlambda_dv, c.dlambda_dtau].concat())
                },
            },
            Function::ContactInverseDynamicsDerivatives => Spec {
                name: "contact_inverse_dynamics_derivatives",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv), ("lambda", Dim::Contacts)],
                per_frame: false,
                output: Output::Tuple(&[
                    Output::Matrix(Dim::Nv, Dim::Nv),
                    Output::Matrix(Dim::Nv, Dim::Nv),
                    Output::Matrix(Dim::Nv, Dim::Nv),
                    Output::Matrix(Dim::Nv, Dim::Contacts),
                ]),
                doc: &[
                    "The derivatives of `contact_inverse_dynamics` `rnea(q, v, a) - J_cᵀ λ` on `CONTACTS`:",
                    "`(dtau_dq, dtau_dv, dtau_da, dtau_dlambda)`, `q` in the tangent space with `λ` fixed in",
                    "its rows' axes, by one pass of the RNEA derivatives with `λ` as external forces (a",
                    "point's held in world axes). `dtau_da = M`,",
                    "`dtau_dlambda = -J_cᵀ`.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `a: [NV]`, `lambda: [NC]`; returns three `[NV x NV]`, `[NV x NC]`.",
                ],
                evaluate: |m, d, x, _| {
                    let (dq, dv, da, dl) = contact_inverse_dynamics_derivatives(m, d, &x[0], &x[1], &x[2], &x[3], &m.contacts)?;
                    Ok([dq, dv, da, dl].concat())
                },
            },
            Function::ImpulseDynamics => Spec {
                name: "impulse_dynamics",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("restitution", Dim::Scalar), ("damping", Dim::Scalar)],
                per_frame: false,
                output: Output::Tuple(&[Output::Vector(Dim::Nv), Output::Vector(Dim::Contacts)]),
                doc: &[
                    "A rigid impact at `CONTACTS` (Pinocchio's `impulseDynamics`): `(v⁺, Λ)` with",
                    "`M (v⁺ - v) = J_cᵀ Λ` and `J_c v⁺ = -e J_c v`, `e = restitution` (0: the contacts stop),",
                    "by the factors of `contact_dynamics`; `damping = μ` as there (`J_c v⁺ = -e J_c v - μ Λ`:",
                    "0 for rigid contacts, a small `μ > 0` for a rank-deficient set).",
                    "",
                    "`q: [NQ]`, `v: [NV]` (before the impact), `restitution` in [0, 1], `damping` ≥ 0; returns `(v⁺: [NV],",
                    "Λ: [NC])`, the impulse on the robot (N·s; N·m·s for 6-D angular rows).",
                ],
                evaluate: |m, d, x, _| {
                    let (v, l) = impulse_dynamics(m, d, &x[0], &x[1], &m.contacts, x[2][0], x[3][0])?;
                    Ok([v, l].concat())
                },
            },
            Function::ImpulseDynamicsDerivatives => Spec {
                name: "impulse_dynamics_derivatives",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("restitution", Dim::Scalar), ("damping", Dim::Scalar)],
                per_frame: false,
                output: Output::Tuple(&[
                    Output::Matrix(Dim::Nv, Dim::Nv),
                    Output::Matrix(Dim::Nv, Dim::Nv),
                    Output::Matrix(Dim::Contacts, Dim::Nv),
                    Output::Matrix(Dim::Contacts, Dim::Nv),
                ]),
                doc: &[
                    "The derivatives of `impulse_dynamics`: `(dvplus_dq, dvplus_dv, dimpulse_dq, dimpulse_dv)`",
                    "(Pinocchio's `computeImpulseDynamicsDerivatives`, whose `ddq_dv` is `dvplus_dv - I`),",
                    "`q` in the tangent space at fixed pre-impact `v`, by the implicit function theorem as",
                    "`contact_dynamics_derivatives`.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `restitution`, `damping`; returns two `[NV x NV]`, two `[NC x NV]`.",
                ],
                evaluate: |m, d, x, _| {
                    let i = impulse_dynamics_derivatives(m, d, &x[0], &x[1], &m.contacts, x[2][0], x[3][0])?;
                    Ok([i.dvplus_dq, i.dvplus_dv, i.dimpulse_dq, i.dimpulse_dv].concat())
                },
            },
            Function::ContactStepLinearization => Spec {
                name: "contact_step_linearization",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("u", Dim::Nu), ("h", Dim::Scalar), ("damping", Dim::Scalar)],
                per_frame: false,
                output: Output::Tuple(&[
                    Output::Vector(Dim::Nq),
                    Output::Vector(Dim::Nv),
                    Output::Matrix(Dim::TwoNv, Dim::TwoNv),
                    Output::Matrix(Dim::TwoNv, Dim::Nu),
                ]),
                doc: &[
                    "One step of semi-implicit Euler with the feet down and its linearization (the runtime's",
                    "`contact_step_linearization`): `step_linearization` with `a` from `contact_dynamics` on",
                    "`CONTACTS` (damping `μ`) instead of ABA, `A`, `B` from `contact_dynamics_derivatives`:",
                    "`δx⁺ ≈ A δx + B δu`, `δx = (δq, δv)` in the tangent space.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `u: [NU]` (N·m, N), `h` (s), `damping` ≥ 0; returns `(q⁺: [NQ],",
                    "v⁺: [NV], A: [2NV x 2NV], B: [2NV x NU])`.",
                ],
                evaluate: |m, d, x, _| {
                    let (q_next, v_next, a, b) = contact_step_linearization(m, d, &x[0], &x[1], &x[2], x[3][0], &m.contacts, x[4][0])?;
                    Ok([q_next, v_next, a, b].concat())
                },
            },
            Function::ContactDynamicsMasked => Spec {
                name: "contact_dynamics_masked",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("tau", Dim::Nv), ("active", Dim::Contacts), ("damping", Dim::Scalar)],
                per_frame: false,
                output: Output::Tuple(&[Output::Vector(Dim::Nv), Output::Vector(Dim::Contacts)]),
                doc: &[
                    "`contact_dynamics` on the contacts of `CONTACTS` that `active` marks (the runtime's",
                    "`contact_dynamics_masked`).",
                    "With the run-time contact mask `active: [NC]`, one weight per contact row: 1 for the",
                    "rows of a contact in contact, 0 for the others (all rows of a contact alike). The",
                    "result equals the unmasked function's on the active contacts alone (the inactive",
                    "rows of λ and of its derivatives zero), branch-free: one function for every gait mode.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `tau: [NV]`, `active: [NC]`, `damping` ≥ 0; returns `(a: [NV], λ: [NC])`.",
                ],
                evaluate: |m, d, x, _| {
                    let (a, l) = contact_dynamics_masked(m, d, &x[0], &x[1], &x[2], &m.contacts, &x[3], x[4][0])?;
                    Ok([a, l].concat())
                },
            },
            Function::ContactDynamicsDerivativesMasked => Spec {
                name: "contact_dynamics_derivatives_masked",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("tau", Dim::Nv), ("active", Dim::Contacts), ("damping", Dim::Scalar)],
                per_frame: false,
                output: CONTACT_DERIVATIVES,
                doc: &[
                    "`contact_dynamics_derivatives` on the contacts of `CONTACTS` that `active` marks (the",
                    "runtime's `contact_dynamics_derivatives_masked`).",
                    "With the run-time contact mask `active: [NC]`, one weight per contact row: 1 for the",
                    "rows of a contact in contact, 0 for the others (all rows of a contact alike). The",
                    "result equals the unmasked function's on the active contacts alone (the inactive",
                    "rows of λ and of its derivatives zero), branch-free: one function for every gait mode.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `tau: [NV]`, `active: [NC]`, `damping` ≥ 0; returns three",
                    "`[NV x NV]`, three `[NC x NV]`.",
                ],
                evaluate: |m, d, x, _| {
                    let c = contact_dynamics_derivatives_masked(m, d, &x[0], &x[1], &x[2], &m.contacts, &x[3], x[4][0])?;
                    Ok([c.ddq_dq, c.ddq_dv, c.ddq_dtau, c.dlambda_dq, c.dlambda_dv, c.dlambda_dtau].concat())
                },
            },
            Function::ImpulseDynamicsMasked => Spec {
                name: "impulse_dynamics_masked",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("active", Dim::Contacts), ("restitution", Dim::Scalar), ("damping", Dim::Scalar)],
                per_frame: false,
                output: Output::Tuple(&[Output::Vector(Dim::Nv), Output::Vector(Dim::Contacts)]),
                doc: &[
                    "`impulse_dynamics` at the contacts of `CONTACTS` that `active` marks, those that land",
                    "(the runtime's `impulse_dynamics_masked`).",
                    "With the run-time contact mask `active: [NC]`, one weight per contact row: 1 for the",
                    "rows of a contact in contact, 0 for the others (all rows of a contact alike). The",
                    "result equals the unmasked function's on the active contacts alone (the inactive",
                    "rows of λ and of its derivatives zero), branch-free: one function for every gait mode.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `active: [NC]`, `restitution`, `damping`; returns `(v⁺: [NV], Λ: [NC])`.",
                ],
                evaluate: |m, d, x, _| {
                    let (v, l) = impulse_dynamics_masked(m, d, &x[0], &x[1], &m.contacts, &x[2], x[3][0], x[4][0])?;
                    Ok([v, l].concat())
                },
            },
            Function::ImpulseDynamicsDerivativesMasked => Spec {
                name: "impulse_dynamics_derivatives_masked",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("active", Dim::Contacts), ("restitution", Dim::Scalar), ("damping", Dim::Scalar)],
                per_frame: false,
                output: IMPULSE_DERIVATIVES,
                doc: &[
                    "`impulse_dynamics_derivatives` at the contacts of `CONTACTS` that `active` marks (the",
                    "runtime's `impulse_dynamics_derivatives_masked`).",
                    "With the run-time contact mask `active: [NC]`, one weight per contact row: 1 for the",
                    "rows of a contact in contact, 0 for the others (all rows of a contact alike). The",
                    "result equals the unmasked function's on the active contacts alone (the inactive",
                    "rows of λ and of its derivatives zero), branch-free: one function for every gait mode.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `active: [NC]`, `restitution`, `damping`; returns two `[NV x NV]`,",
                    "two `[NC x NV]`.",
                ],
                evaluate: |m, d, x, _| {
                    let i = impulse_dynamics_derivatives_masked(m, d, &x[0], &x[1], &m.contacts, &x[2], x[3][0], x[4][0])?;
                    Ok([i.dvplus_dq, i.dvplus_dv, i.dimpulse_dq, i.dimpulse_dv].concat())
                },
            },
            Function::ContactStepLinearizationMasked => Spec {
                name: "contact_step_linearization_masked",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("u", Dim::Nu), ("h", Dim::Scalar), ("active", Dim::Contacts), ("damping", Dim::Scalar)],
                per_frame: false,
                output: STEP,
                doc: &[
                    "`contact_step_linearization` on the contacts of `CONTACTS` that `active` marks (the",
                    "runtime's `contact_step_linearization_masked`): each knot of an MPC horizon that crosses",
                    "stance, trot diagonals and flight calls this one function with its own mask.",
                    "With the run-time contact mask `active: [NC]`, one weight per contact row: 1 for the",
                    "rows of a contact in contact, 0 for the others (all rows of a contact alike). The",
                    "result equals the unmasked function's on the active contacts alone (the inactive",
                    "rows of λ and of its derivatives zero), branch-free: one function for every gait mode.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `u: [NU]` (N·m, N), `h` (s), `active: [NC]`, `damping` ≥ 0; returns",
                    "`(q⁺: [NQ], v⁺: [NV], A: [2NV x 2NV], B: [2NV x NU])`.",
                ],
                evaluate: |m, d, x, _| {
                    let (q_next, v_next, a, b) = contact_step_linearization_masked(m, d, &x[0], &x[1], &x[2], x[3][0], &m.contacts, &x[4], x[5][0])?;
                    Ok([q_next, v_next, a, b].concat())
                },
            },
            Function::ContactStepLinearizationForcesMasked => Spec {
                name: "contact_step_linearization_forces_masked",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("u", Dim::Nu), ("h", Dim::Scalar), ("active", Dim::Contacts), ("damping", Dim::Scalar)],
                per_frame: false,
                output: STEP_FORCES,
                doc: &[
                    "`contact_step_linearization_masked` with the step's contact forces and their",
                    "linearization from the same pass (the runtime's `contact_step_linearization_forces_masked`):",
                    "`λ ≈ λ̄ + Λx δx + Λu δu`, `δx = (δq, δv)` in the tangent space as for `A`, the rows of `λ`",
                    "those of `contact_dynamics_masked` (a point's force in world axes, a 6-D contact's wrench",
                    "in its frame, inactive rows zero). One call per knot for an MPC's dynamics and its",
                    "friction cones, instead of the step and `contact_dynamics_derivatives_masked`.",
                    "With the run-time contact mask `active: [NC]`, one weight per contact row: 1 for the",
                    "rows of a contact in contact, 0 for the others (all rows of a contact alike).",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `u: [NU]` (N·m, N), `h` (s), `active: [NC]`, `damping` ≥ 0; returns",
                    "`(q⁺: [NQ], v⁺: [NV], A: [2NV x 2NV], B: [2NV x NU], λ: [NC], Λx: [NC x 2NV], Λu: [NC x NU])`.",
                ],
                evaluate: |m, d, x, _| {
                    let (q_next, v_next, a, b, l, lx, lu) = contact_step_linearization_forces_masked(m, d, &x[0], &x[1], &x[2], x[3][0], &m.contacts, &x[4], x[5][0])?;
                    Ok([q_next, v_next, a, b, l, lx, lu].concat())
                },
            },
        }
    }
}

/// The frame Jacobians: joint Jacobians, then one frame's in `reference`.
fn evaluate_frame_jacobian<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    x: &[Vec<S>],
    frame: Option<usize>,
    reference: ReferenceFrame,
) -> Result<Vec<S>, InputError> {
    compute_joint_jacobians(model, data, &x[0])?;
    frame_jacobian(model, data, frame.expect("per-frame function"), reference)
}

/// The Jacobian time variations: `J` and `J̇`, then one frame's in `reference`.
fn evaluate_jacobian_time_variation<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    x: &[Vec<S>],
    frame: Option<usize>,
    reference: ReferenceFrame,
) -> Result<Vec<S>, InputError> {
    compute_joint_jacobians_time_variation(model, data, &x[0], &x[1])?;
    frame_jacobian_time_variation(model, data, frame.expect("per-frame function"), reference)
}

/// A flat `[6 * NJOINTS]` argument as one wrench per joint id.
fn wrenches<S: Scalar>(model: &Model, x: &[S]) -> Result<Vec<Force<S>>, InputError> {
    let expected = Dim::Wrenches.len(model);
    if x.len() != expected {
        return Err(InputError::Length {
            argument: "fext",
            len: x.len(),
            expected,
        });
    }
    Ok(x.chunks(6).map(Force::from_slice).collect())
}

/// Two `[6 x NV]` matrices.
const TWO_SIX: Output = Output::Tuple(&[
    Output::Matrix(Dim::Fixed(6), Dim::Nv),
    Output::Matrix(Dim::Fixed(6), Dim::Nv),
]);

/// Three `[6 x NV]` matrices.
const THREE_SIX: Output = Output::Tuple(&[
    Output::Matrix(Dim::Fixed(6), Dim::Nv),
    Output::Matrix(Dim::Fixed(6), Dim::Nv),
    Output::Matrix(Dim::Fixed(6), Dim::Nv),
]);

/// Three `[NV x NV]` matrices.
const THREE_SQUARE: Output = Output::Tuple(&[
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Nv, Dim::Nv),
]);
