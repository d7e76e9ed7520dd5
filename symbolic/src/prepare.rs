//! From the input to what emission reads: the model built from the model
//! file and the options ([`build_model`]), and each traced graph checked
//! ([`check`]) and simplified when asked ([`simplified`]).

use rbdgen_runtime::Model;

use crate::emit::ScalarType;
use crate::error::GenerateError;
use crate::graph::Node;
use crate::options::{apply_to_model, Options};
use crate::simplify::{simplify, Limits, Stops};
use crate::trace::Traced;

/// The model of `urdf` with the options' armature, contacts and run-time
/// parameters set: the model every function of the module is traced on.
///
/// # Errors
/// [`GenerateError::Model`] for a URDF that does not make a model;
/// [`GenerateError::Option`] for an option the model refuses
/// ([`apply_to_model`]: an unknown joint or link name, a negative armature,
/// a contact or a parameter on a link welded to the universe, an unknown
/// frame); with [`Options::strict`], the first of [`Model::physical_warnings`].
pub fn build_model(urdf: &str, options: &Options) -> Result<Model, GenerateError> {
    let mut model = if options.mimic {
        Model::from_description_str_mimic(urdf, options.floating_base)?
    } else {
        Model::from_description_str(urdf, options.floating_base)?
    };
    apply_to_model(options, &mut model)?;
    if options.strict {
        if let Some(warning) = model.physical_warnings().into_iter().next() {
            return Err(warning.into());
        }
    }
    Ok(model)
}

/// A non-finite constant in a trace is an error; when the model has a moving
/// joint with a massless subtree (a singular mass matrix, the usual cause in
/// `aba`), the error names that joint, and when no moving body has mass (the
/// centre of mass), it says so. So is a constant that the scalar type cannot
/// represent.
pub(crate) fn check(
    model: &Model,
    traced: &Traced,
    name: &str,
    scalar: ScalarType,
) -> Result<(), GenerateError> {
    let error = |reason: String| GenerateError::NonFinite {
        function: name.to_string(),
        reason,
    };
    if let Some(reason) = traced.graph.non_finite() {
        let moving_mass: f64 = model.joints[1..].iter().map(|j| j.inertia.mass).sum();
        return Err(error(match model.check_massless_subtrees() {
            Err(e) => e.to_string(),
            Ok(()) if moving_mass == 0.0 => format!(
                "{reason}: the moving bodies have no mass (the centre of mass is 0/0); \
                 leave this function out"
            ),
            Ok(()) => reason.to_string(),
        }));
    }
    let live = traced.graph.reachable(&traced.outputs);
    for (node, live) in traced.graph.nodes().iter().zip(live) {
        if let (Node::Const(bits), true) = (node, live) {
            let x = f64::from_bits(*bits);
            if !scalar.represents(x) {
                return Err(error(format!(
                    "the constant {x:e} does not fit in {}",
                    scalar.name()
                )));
            }
        }
    }
    Ok(())
}

/// `traced` (already checked) simplified with egg when the options ask for
/// it, and checked again; egg's stops added to `stops`.
pub(crate) fn simplified(
    model: &Model,
    traced: Traced,
    name: &str,
    options: &Options,
    stops: &mut Stops,
) -> Result<Traced, GenerateError> {
    if !options.simplify {
        return Ok(traced);
    }
    let s = simplify(&traced.graph, &traced.outputs, &Limits::default());
    *stops += s.stops;
    let traced = Traced {
        graph: s.graph,
        outputs: s.outputs,
    };
    check(model, &traced, name, options.scalar)?;
    Ok(traced)
}

/// `ops` operations written out for the function `name` are within
/// [`Options::max_ops`].
///
/// # Errors
/// [`GenerateError::TooLarge`] above it (not loopable: the chooser says
/// whether a column form would fit, [`crate::form`]).
pub(crate) fn within_limit(name: &str, ops: usize, options: &Options) -> Result<(), GenerateError> {
    match ops > options.max_ops {
        true => Err(GenerateError::TooLarge {
            function: name.to_string(),
            ops,
            limit: options.max_ops,
            loopable: false,
        }),
        false => Ok(()),
    }
}
