//! Reference values of the generated functions, computed in-process: the
//! generic runtime for the functions it has an entry point for, otherwise the
//! traced graph of the runtime's algorithm, interpreted.

use rbdgen::runtime::{
    aba, aba_derivatives, crba, forward_kinematics, frame_placement, generalized_gravity, minverse,
    nonlinear_effects, rnea, rnea_derivatives,
};
use rbdgen::symbolic::{trace, Expr, Function};
use rbdgen::{Data, Model};

/// What computed a reference value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The runtime's `f64` entry point (the one timed against the generated code).
    Runtime,
    /// The trace of the runtime's algorithm, interpreted node by node
    /// ([`rbdgen::symbolic::Graph::eval`]): for functions that have no runtime
    /// entry point here.
    TracedGraph,
}

/// The runtime's value of `function` at `args` (each `[len]` as in the
/// function's signature) for the model frame `frame` of a per-frame function,
/// written to `out` (flattened row-major); `false` when the runtime has no
/// entry point wired here for `function`.
pub fn runtime_call(
    function: Function,
    model: &Model,
    data: &mut Data<f64>,
    args: &[&[f64]],
    frame: Option<usize>,
    out: &mut Vec<f64>,
) -> bool {
    out.clear();
    #[allow(unreachable_patterns)]
    match (function, frame) {
        (Function::Rnea, _) => out.extend_from_slice(rnea(model, data, args[0], args[1], args[2])),
        (Function::Crba, _) => out.extend_from_slice(crba(model, data, args[0])),
        (Function::Aba, _) => out.extend_from_slice(aba(model, data, args[0], args[1], args[2])),
        (Function::Minverse, _) => out.extend_from_slice(minverse(model, data, args[0])),
        (Function::NonlinearEffects, _) => {
            out.extend_from_slice(nonlinear_effects(model, data, args[0], args[1]))
        }
        (Function::GeneralizedGravity, _) => {
            out.extend_from_slice(generalized_gravity(model, data, args[0]))
        }
        (Function::RneaDerivatives, _) => {
            let j = rnea_derivatives(model, data, args[0], args[1], args[2]);
            out.extend([j.d_dq, j.d_dv, j.d_du].concat());
        }
        (Function::AbaDerivatives, _) => {
            let j = aba_derivatives(model, data, args[0], args[1], args[2]);
            out.extend([j.d_dq, j.d_dv, j.d_du].concat());
        }
        (Function::FramePlacement, Some(frame)) => {
            forward_kinematics(model, data, args[0]);
            let placement = frame_placement(model, data, frame).to_homogeneous();
            out.extend(placement.iter().flatten());
        }
        _ => return false,
    }
    true
}

/// The reference value of `function` at `args` for `frame`, and what computed it.
pub fn evaluate(
    function: Function,
    model: &Model,
    data: &mut Data<f64>,
    args: &[&[f64]],
    frame: Option<usize>,
) -> (Vec<f64>, Source) {
    let mut out = Vec::new();
    if runtime_call(function, model, data, args, frame, &mut out) {
        return (out, Source::Runtime);
    }
    let spec = function.spec();
    let lens: Vec<usize> = args.iter().map(|a| a.len()).collect();
    let traced = trace(&lens, |x| {
        let mut data = Data::<Expr>::new(model);
        (spec.trace)(model, &mut data, x, frame)
    });
    let inputs: Vec<f64> = args.concat();
    (
        traced.graph.eval(&inputs, &traced.outputs),
        Source::TracedGraph,
    )
}
