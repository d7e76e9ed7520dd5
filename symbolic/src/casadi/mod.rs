//! The CasADi export (`rbdgen generate URDF --casadi NAME -o NAME.py`): a
//! Python module whose functions build each generated function's traced
//! graph as CasADi expressions, so that `casadi.jacobian`, `hessian`,
//! CasADi's own C code generation, `casadi.Opti` and acados' models work on
//! rbdgen's dynamics.
//!
//! Each function is traced straight-line (no column form: CasADi has no use
//! for the loops that keep rustc's build short), checked and simplified as
//! for the Rust output ([`Options::simplify`](crate::options::Options::simplify)), so its constants are folded
//! the same way; then every live node of the graph becomes one Python
//! statement on CasADi's `SX` scalars (`t7 = t3 * t5`, `t8 = _sin(x[4])`),
//! in node-id order, which is topological. Nothing loops over the joints at
//! call time: the statements are the function. Operators and their CasADi
//! spelling ([`Node`](crate::graph::Node)): `+ - * /` and unary `-`, `casadi.sin`, `cos`,
//! `sqrt`, `atan2`, and `casadi.if_else(c > 0, a, b)` for
//! [`Node::Select`](crate::graph::Node::Select). An output that is the constant zero is a structural zero
//! of the CasADi result (its sparsity says so).
//!
//! The module's public functions take `SX` (the graph is built on them),
//! `MX` (a call of the ready `casadi.Function`, one node of the MX graph) or
//! numbers (the `casadi.Function` evaluated, `DM` results). Shapes: a vector
//! is a column `(n, 1)`, a matrix of the Rust API (`[[f64; cols]; rows]`,
//! row-major) is a CasADi matrix `(rows, cols)`, a scalar `(1, 1)`, `fext`
//! `(NJOINTS, 6)`, a placement `(4, 4)`. Outputs are named as in the README's
//! function table ([`output_names`]).
//!
//! Files: `module.rs` the Python module ([`casadi_module`], [`python_body`]),
//! `external.rs` the crate of CasADi external functions ([`external_crate`]),
//! this file what both use (the outputs' names and shapes).

mod external;
mod module;

use rbdgen_runtime::Model;

use crate::functions::{Dim, Function, Output};

pub use external::{analytical_derivatives, external_crate};
pub use module::{casadi_module, python_body, CasadiModule};

/// The names of `function`'s outputs, in the order of its result (a tuple's
/// parts in order), as the README's function table names them; a function
/// whose table entry names no output gets a name of its own (`oMf` for
/// `frame_placement`, `q_next` for `integrate`).
pub fn output_names(function: Function) -> &'static [&'static str] {
    use Function as F;
    match function {
        F::Rnea | F::RneaFext | F::ContactInverseDynamics => &["tau"],
        F::Crba => &["M"],
        F::Aba | F::AbaFext => &["a"],
        F::FramePlacement => &["oMf"],
        F::NonlinearEffects => &["h"],
        F::GeneralizedGravity => &["g"],
        F::Minverse => &["Minv"],
        F::CenterOfMass => &["com"],
        F::JacobianCenterOfMass => &["Jcom"],
        F::Ccrba => &["Ag", "hg"],
        F::Dccrba => &["dAg"],
        F::KineticEnergy => &["kinetic_energy"],
        F::PotentialEnergy => &["potential_energy"],
        F::FrameJacobianLocal | F::FrameJacobianWorld | F::FrameJacobianLocalWorldAligned => &["J"],
        F::RneaDerivatives | F::RneaDerivativesFext => &["dtau_dq", "dtau_dv", "dtau_da"],
        F::AbaDerivatives | F::AbaDerivativesFext => &["ddq_dq", "ddq_dv", "ddq_dtau"],
        F::StepLinearization | F::ContactStepLinearization | F::ContactStepLinearizationMasked => {
            &["q_next", "v_next", "A", "B"]
        }
        F::ContactStepLinearizationForcesMasked => &[
            "q_next",
            "v_next",
            "A",
            "B",
            "lambda",
            "dlambda_dx",
            "dlambda_du",
        ],
        F::PoseError => &["e", "J_e"],
        F::Integrate => &["q_next"],
        F::Difference => &["dq"],
        F::DIntegrateDq => &["d_integrate_dq"],
        F::DIntegrateDv => &["d_integrate_dv"],
        F::DDifferenceDq0 => &["d_difference_dq0"],
        F::DDifferenceDq1 => &["d_difference_dq1"],
        F::AbaDfext => &["da_dfext"],
        F::FrameJacobianTimeVariationLocal
        | F::FrameJacobianTimeVariationWorld
        | F::FrameJacobianTimeVariationLocalWorldAligned => &["dJ"],
        F::FrameAccelerationDrift => &["local", "local_world_aligned", "classical"],
        F::CentroidalMomentumRate => &["dhg"],
        F::JointTorqueRegressor => &["Y"],
        F::ContactJacobian => &["Jc"],
        F::ContactDrift => &["gamma"],
        F::ContactDynamics | F::ContactDynamicsMasked => &["a", "lambda"],
        F::CenterOfPressure => &["cop"],
        F::FrameVelocityDerivativesLocal | F::FrameVelocityDerivativesLocalWorldAligned => {
            &["dv_dq", "dv_dv"]
        }
        F::FrameAccelerationDerivativesLocal | F::FrameAccelerationDerivativesLocalWorldAligned => {
            &["da_dq", "da_dv", "da_da"]
        }
        F::CentroidalDynamicsDerivatives => &["dh_dq", "dhdot_dq", "dhdot_dv", "dhdot_da"],
        F::ContactDriftDerivatives => &["dgamma_dq", "dgamma_dv"],
        F::ContactDynamicsDerivatives | F::ContactDynamicsDerivativesMasked => &[
            "ddq_dq",
            "ddq_dv",
            "ddq_dtau",
            "dlambda_dq",
            "dlambda_dv",
            "dlambda_dtau",
        ],
        F::ContactInverseDynamicsDerivatives => &["dtau_dq", "dtau_dv", "dtau_da", "dtau_dlambda"],
        F::ImpulseDynamics | F::ImpulseDynamicsMasked => &["v_plus", "impulse"],
        F::ImpulseDynamicsDerivatives | F::ImpulseDynamicsDerivativesMasked => {
            &["dvplus_dq", "dvplus_dv", "dimpulse_dq", "dimpulse_dv"]
        }
    }
}

/// The CasADi shape `(rows, cols)` of an argument of dimension `dim`: a
/// column for a flat argument, the Rust array of rows' shape otherwise.
fn arg_shape(dim: Dim, model: &Model) -> (usize, usize) {
    match dim.row_len() {
        Some(0) => (1, 1),
        Some(cols) => (dim.len(model) / cols, cols),
        None => (dim.len(model), 1),
    }
}

/// The CasADi shapes of an output's parts (one for a non-tuple output).
fn output_shapes(output: Output, model: &Model) -> Vec<(usize, usize)> {
    match output {
        Output::Scalar => vec![(1, 1)],
        Output::Vector(n) => vec![(n.len(model), 1)],
        Output::Matrix(r, c) => vec![(r.len(model), c.len(model))],
        Output::Tuple(parts) => parts
            .iter()
            .flat_map(|p| output_shapes(*p, model))
            .collect(),
    }
}

/// The model's name as the command line gives it (its first argument after
/// `generate`).
fn model_source(command: &str) -> String {
    command
        .split_whitespace()
        .skip_while(|w| *w != "generate")
        .nth(1)
        .unwrap_or("the model")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every function of the table has one output name per part of its result.
    #[test]
    fn every_function_names_each_output() {
        for f in Function::ALL {
            let parts = match f.spec().output {
                Output::Tuple(parts) => parts.len(),
                _ => 1,
            };
            assert_eq!(output_names(f).len(), parts, "{}", f.name());
        }
    }
}
