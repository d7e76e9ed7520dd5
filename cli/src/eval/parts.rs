//! The table of the format's quantities ([`PARTS`]) and of the functions
//! outside it ([`OUTSIDE_FORMAT`]).

use rbdgen_symbolic::Function;

/// One entry of a quantity of the format and the function of the table
/// ([`Function`]) that computes it: `quantity` (with `key` inside it, or
/// inside each link frame's object for a per-frame function, and `sub`
/// inside that) is member `element` of the function's output (the tuple
/// member for a tuple output, 0 otherwise).
#[derive(Clone, Copy, Debug)]
pub struct Part {
    /// The key of the quantity in a state (`rnea`, `frames`, `dintegrate`, ...).
    pub quantity: &'static str,
    /// The entry inside the quantity (`d0`, `jacobian_local`, ...); `None` for
    /// the whole quantity.
    pub key: Option<&'static str>,
    /// For a per-frame entry that is itself an object
    /// (`frames.NAME.velocity_derivatives_local.dv_dq`), the entry inside it
    /// (`dv_dq`); `None` otherwise.
    pub sub: Option<&'static str>,
    /// The function of the table.
    pub function: Function,
    /// Which member of a tuple output.
    pub element: usize,
}

const fn part(quantity: &'static str, function: Function) -> Part {
    Part {
        quantity,
        key: None,
        sub: None,
        function,
        element: 0,
    }
}

/// `frames.NAME.key.sub`: member `element` of a per-frame function.
const fn frame_entry(
    key: &'static str,
    sub: &'static str,
    function: Function,
    element: usize,
) -> Part {
    Part {
        quantity: "frames",
        key: Some(key),
        sub: Some(sub),
        function,
        element,
    }
}

const fn entry(
    quantity: &'static str,
    key: &'static str,
    function: Function,
    element: usize,
) -> Part {
    Part {
        quantity,
        key: Some(key),
        sub: None,
        function,
        element,
    }
}

/// Every quantity of the format and the function that computes it, in the
/// order of the format (the whole-body extension after the base format): the
/// one table of what `rbdgen eval` computes, with the runtime
/// ([`Function::evaluate`] on `f64`) or with the generated code. The
/// arguments of a function are the state's inputs of the same name
/// ([`arguments`](super::arguments)). `omi` ([`OMI`]) is computed beside them.
pub const PARTS: &[Part] = &[
    part("rnea", Function::Rnea),
    part("nle", Function::NonlinearEffects),
    part("gravity", Function::GeneralizedGravity),
    part("crba", Function::Crba),
    part("aba", Function::Aba),
    part("minv", Function::Minverse),
    part("com", Function::CenterOfMass),
    part("jcom", Function::JacobianCenterOfMass),
    part("ag", Function::Ccrba),
    Part {
        element: 1,
        ..part("hg", Function::Ccrba)
    },
    part("dag", Function::Dccrba),
    part("kinetic_energy", Function::KineticEnergy),
    part("potential_energy", Function::PotentialEnergy),
    entry("frames", "placement", Function::FramePlacement, 0),
    entry("frames", "jacobian_local", Function::FrameJacobianLocal, 0),
    entry("frames", "jacobian_world", Function::FrameJacobianWorld, 0),
    entry(
        "frames",
        "jacobian_local_world_aligned",
        Function::FrameJacobianLocalWorldAligned,
        0,
    ),
    entry(
        "frames",
        "jacobian_time_variation_local",
        Function::FrameJacobianTimeVariationLocal,
        0,
    ),
    entry(
        "frames",
        "jacobian_time_variation_world",
        Function::FrameJacobianTimeVariationWorld,
        0,
    ),
    entry(
        "frames",
        "jacobian_time_variation_local_world_aligned",
        Function::FrameJacobianTimeVariationLocalWorldAligned,
        0,
    ),
    entry(
        "frames",
        "acceleration_drift_local",
        Function::FrameAccelerationDrift,
        0,
    ),
    entry(
        "frames",
        "acceleration_drift_local_world_aligned",
        Function::FrameAccelerationDrift,
        1,
    ),
    entry(
        "frames",
        "classical_acceleration_drift_local_world_aligned",
        Function::FrameAccelerationDrift,
        2,
    ),
    entry("rnea_derivatives", "dtau_dq", Function::RneaDerivatives, 0),
    entry("rnea_derivatives", "dtau_dv", Function::RneaDerivatives, 1),
    entry("rnea_derivatives", "dtau_da", Function::RneaDerivatives, 2),
    entry("aba_derivatives", "ddq_dq", Function::AbaDerivatives, 0),
    entry("aba_derivatives", "ddq_dv", Function::AbaDerivatives, 1),
    entry("aba_derivatives", "ddq_dtau", Function::AbaDerivatives, 2),
    part("integrate", Function::Integrate),
    part("difference", Function::Difference),
    entry("dintegrate", "d0", Function::DIntegrateDq, 0),
    entry("dintegrate", "d1", Function::DIntegrateDv, 0),
    entry("ddifference", "d0", Function::DDifferenceDq0, 0),
    entry("ddifference", "d1", Function::DDifferenceDq1, 0),
    part("rnea_fext", Function::RneaFext),
    part("aba_fext", Function::AbaFext),
    entry(
        "aba_derivatives_fext",
        "ddq_dq",
        Function::AbaDerivativesFext,
        0,
    ),
    entry(
        "aba_derivatives_fext",
        "ddq_dv",
        Function::AbaDerivativesFext,
        1,
    ),
    entry(
        "aba_derivatives_fext",
        "ddq_dtau",
        Function::AbaDerivativesFext,
        2,
    ),
    part("dhg", Function::CentroidalMomentumRate),
    part("regressor", Function::JointTorqueRegressor),
    part("contact_jacobian", Function::ContactJacobian),
    part("contact_drift", Function::ContactDrift),
    entry("contact_dynamics", "ddq", Function::ContactDynamics, 0),
    entry("contact_dynamics", "lambda", Function::ContactDynamics, 1),
    // The MPC derivative quantities (extension), damping and restitution 0.
    frame_entry(
        "velocity_derivatives_local",
        "dv_dq",
        Function::FrameVelocityDerivativesLocal,
        0,
    ),
    frame_entry(
        "velocity_derivatives_local",
        "dv_dv",
        Function::FrameVelocityDerivativesLocal,
        1,
    ),
    frame_entry(
        "velocity_derivatives_local_world_aligned",
        "dv_dq",
        Function::FrameVelocityDerivativesLocalWorldAligned,
        0,
    ),
    frame_entry(
        "velocity_derivatives_local_world_aligned",
        "dv_dv",
        Function::FrameVelocityDerivativesLocalWorldAligned,
        1,
    ),
    frame_entry(
        "acceleration_derivatives_local",
        "da_dq",
        Function::FrameAccelerationDerivativesLocal,
        0,
    ),
    frame_entry(
        "acceleration_derivatives_local",
        "da_dv",
        Function::FrameAccelerationDerivativesLocal,
        1,
    ),
    frame_entry(
        "acceleration_derivatives_local",
        "da_da",
        Function::FrameAccelerationDerivativesLocal,
        2,
    ),
    frame_entry(
        "acceleration_derivatives_local_world_aligned",
        "da_dq",
        Function::FrameAccelerationDerivativesLocalWorldAligned,
        0,
    ),
    frame_entry(
        "acceleration_derivatives_local_world_aligned",
        "da_dv",
        Function::FrameAccelerationDerivativesLocalWorldAligned,
        1,
    ),
    frame_entry(
        "acceleration_derivatives_local_world_aligned",
        "da_da",
        Function::FrameAccelerationDerivativesLocalWorldAligned,
        2,
    ),
    entry(
        "centroidal_dynamics_derivatives",
        "dh_dq",
        Function::CentroidalDynamicsDerivatives,
        0,
    ),
    entry(
        "centroidal_dynamics_derivatives",
        "dhdot_dq",
        Function::CentroidalDynamicsDerivatives,
        1,
    ),
    entry(
        "centroidal_dynamics_derivatives",
        "dhdot_dv",
        Function::CentroidalDynamicsDerivatives,
        2,
    ),
    entry(
        "centroidal_dynamics_derivatives",
        "dhdot_da",
        Function::CentroidalDynamicsDerivatives,
        3,
    ),
    entry(
        "contact_dynamics_derivatives",
        "ddq_dq",
        Function::ContactDynamicsDerivatives,
        0,
    ),
    entry(
        "contact_dynamics_derivatives",
        "ddq_dv",
        Function::ContactDynamicsDerivatives,
        1,
    ),
    entry(
        "contact_dynamics_derivatives",
        "ddq_dtau",
        Function::ContactDynamicsDerivatives,
        2,
    ),
    entry(
        "contact_dynamics_derivatives",
        "dlambda_dq",
        Function::ContactDynamicsDerivatives,
        3,
    ),
    entry(
        "contact_dynamics_derivatives",
        "dlambda_dv",
        Function::ContactDynamicsDerivatives,
        4,
    ),
    entry(
        "contact_dynamics_derivatives",
        "dlambda_dtau",
        Function::ContactDynamicsDerivatives,
        5,
    ),
    entry("impulse_dynamics", "dv_plus", Function::ImpulseDynamics, 0),
    entry("impulse_dynamics", "impulse", Function::ImpulseDynamics, 1),
    entry(
        "impulse_dynamics_derivatives",
        "dvplus_dq",
        Function::ImpulseDynamicsDerivatives,
        0,
    ),
    entry(
        "impulse_dynamics_derivatives",
        "dvplus_dv",
        Function::ImpulseDynamicsDerivatives,
        1,
    ),
    entry(
        "impulse_dynamics_derivatives",
        "dimpulse_dq",
        Function::ImpulseDynamicsDerivatives,
        2,
    ),
    entry(
        "impulse_dynamics_derivatives",
        "dimpulse_dv",
        Function::ImpulseDynamicsDerivatives,
        3,
    ),
];

/// The functions of the table that compute no quantity of the format, and
/// why: their inputs are no inputs of a state, or the format (Pinocchio's
/// references) has no key for them. With [`PARTS`], every function of the
/// table is in exactly one of the two (`cli/tests/function_table.rs`).
pub const OUTSIDE_FORMAT: &[(Function, &str)] = &[
    (
        Function::RneaDerivativesFext,
        "the format has no key for it",
    ),
    (
        Function::StepLinearization,
        "its inputs `u` and `h` are no inputs of a state",
    ),
    (
        Function::PoseError,
        "its input `target` is no input of a state",
    ),
    (Function::AbaDfext, "the format has no key for it"),
    (
        Function::ContactInverseDynamics,
        "its input `lambda` is no input of a state",
    ),
    (
        Function::CenterOfPressure,
        "its inputs `lambda` and `height` are no inputs of a state",
    ),
    (
        Function::ContactDriftDerivatives,
        "the format has no key for it",
    ),
    (
        Function::ContactInverseDynamicsDerivatives,
        "its input `lambda` is no input of a state",
    ),
    (
        Function::ContactStepLinearization,
        "its inputs `u` and `h` are no inputs of a state",
    ),
    (
        Function::ContactDynamicsMasked,
        "its input `active` is no input of a state",
    ),
    (
        Function::ContactDynamicsDerivativesMasked,
        "its input `active` is no input of a state",
    ),
    (
        Function::ImpulseDynamicsMasked,
        "its input `active` is no input of a state",
    ),
    (
        Function::ImpulseDynamicsDerivativesMasked,
        "its input `active` is no input of a state",
    ),
    (
        Function::ContactStepLinearizationMasked,
        "its inputs `u`, `h` and `active` are no inputs of a state",
    ),
    (
        Function::ContactStepLinearizationForcesMasked,
        "its inputs `u`, `h` and `active` are no inputs of a state",
    ),
];

/// The key of the joint placements, a key of the reference files beside the
/// spec's, computed by the runtime (no function of the table returns them).
pub const OMI: &str = "omi";

/// The functions of [`PARTS`], each once, in table order.
pub fn functions() -> Vec<Function> {
    let mut out: Vec<Function> = Vec::new();
    for p in PARTS {
        if !out.contains(&p.function) {
            out.push(p.function);
        }
    }
    out
}

/// The quantities of a state in the order of the format: those of
/// [`PARTS`], each once, then [`OMI`].
pub fn quantities() -> Vec<&'static str> {
    let mut out: Vec<&str> = Vec::new();
    for p in PARTS {
        if !out.contains(&p.quantity) {
            out.push(p.quantity);
        }
    }
    out.push(OMI);
    out
}

/// The entries inside each link frame's object (`frames.NAME.<key>`), each
/// once, in the order of the format.
pub fn frame_quantities() -> Vec<&'static str> {
    let mut out: Vec<&str> = Vec::new();
    for key in PARTS
        .iter()
        .filter(|p| p.quantity == "frames")
        .filter_map(|p| p.key)
    {
        if !out.contains(&key) {
            out.push(key);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every function of the table is in exactly one of [`PARTS`] and
    /// [`OUTSIDE_FORMAT`]; the latter is in table order.
    #[test]
    fn every_function_is_evaluated_or_outside_the_format() {
        for f in Function::ALL {
            let evaluated = PARTS.iter().any(|p| p.function == f);
            let outside = OUTSIDE_FORMAT.iter().filter(|(g, _)| *g == f).count();
            assert!(
                evaluated != (outside == 1) && outside <= 1,
                "{}: in PARTS {evaluated}, outside the format {outside} times",
                f.name()
            );
        }
        assert!(
            OUTSIDE_FORMAT.windows(2).all(|w| w[0].0 < w[1].0),
            "OUTSIDE_FORMAT in table order"
        );
    }
}
