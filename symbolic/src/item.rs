//! What every form of a function shares: its signature, the items it
//! becomes (the scalar function and, with lanes, its kernel and wrappers),
//! their doc lines and names. Every form (straight-line, limbs side by side,
//! columns) and every output (C, Python) reads these; none of them reads the
//! assembly above ([`crate::generate`]).

use proc_macro2::TokenStream;
use quote::quote;

use crate::emit::Arith;
use crate::functions::{Dim, Output};
use crate::graph::OpCounts;
use crate::lanes::lane_wrappers;
use crate::options::Options;
use crate::simplify::Stops;

/// What emission needs to know of a function besides its graphs: a
/// function of the table ([`Function::spec`]) or the Jacobian of one.
#[derive(Clone, Debug)]
pub(crate) struct Signature {
    pub(crate) name: String,
    pub(crate) args: Vec<(String, Dim)>,
    pub(crate) per_frame: bool,
    pub(crate) output: Output,
    pub(crate) doc: Vec<String>,
    /// The operations one state runs (one frame's, for a per-frame function),
    /// which sizes the tasks of the threaded batch: set by emission, 0 before.
    pub(crate) ops: usize,
}

/// A function's emitted items: the scalar function (with its parts) and,
/// with lanes, the `L`-lane function, its array-of-structures wrapper and its
/// batch function for the `lanes` module.
pub(crate) struct FunctionItems {
    pub(crate) scalar: TokenStream,
    pub(crate) lanes: Option<TokenStream>,
    /// Why egg stopped in the windows of the function's simplification
    /// (none without [`Options::simplify`]).
    pub(crate) stops: Stops,
    /// The function's signature, which the C interface wraps.
    pub(crate) signature: Signature,
}

/// A function's items from its emission in each arithmetic (`emit`): the
/// scalar function, and with lanes the lanes kernel and its wrappers.
pub(crate) fn function_items(
    spec: &Signature,
    fargs: &[(&str, Dim)],
    options: &Options,
    stops: Stops,
    ops: usize,
    emit: impl Fn(Arith) -> TokenStream,
) -> FunctionItems {
    FunctionItems {
        stops,
        signature: Signature {
            ops,
            ..spec.clone()
        },
        scalar: emit(Arith::Scalar),
        lanes: options.lanes.map(|_| {
            let kernel = emit(Arith::Lanes);
            let wrappers = lane_wrappers(
                &spec.name,
                fargs,
                &spec.output,
                spec.per_frame,
                options.scalar,
                options.threads,
                ops,
            );
            quote!(#kernel #wrappers)
        }),
    }
}

/// A function's doc lines in `arith`: the table's lines and its cost (with
/// the count before simplification when simplified) for the scalar
/// function, one line pointing at it for the lanes kernel.
pub(crate) fn function_doc(
    spec: &Signature,
    arith: Arith,
    counts: &OpCounts,
    traced: &OpCounts,
    options: &Options,
) -> Vec<String> {
    match arith {
        Arith::Scalar => {
            let lines = spec.doc.iter().map(|l| match l.is_empty() {
                true => String::new(),
                false => format!(" {l}"),
            });
            let mut doc: Vec<String> = lines.collect();
            doc.push(String::new());
            doc.push(format!(" Cost: {counts}."));
            if options.simplify {
                doc.push(format!(" Before simplification: {} ops.", traced.total()));
            }
            doc
        }
        Arith::Lanes => vec![format!(
            " [`super::{}`] on `L` states at once: every argument and result value is a `V`, one \
             state per lane (structure of arrays); the same operations, lane by lane.",
            spec.name
        )],
    }
}

/// The doc of a function's `NAME_into`, in `arith`.
pub(crate) fn into_doc(name: &str, arith: Arith, per_frame: bool) -> String {
    let same = if per_frame { " for the same frame" } else { "" };
    match arith {
        Arith::Scalar => format!(
            " [`{name}`] into `out`, which must hold zeros where the result is a constant zero \
             (a result zeroed once, or one this function wrote before{same}): every other entry is \
             written. A controller that keeps its result from call to call, as Pinocchio keeps \
             its `Data`, skips the fill of the zeros (a mass matrix's blocks between two limbs, \
             say), which [`{name}`] does on every call."
        ),
        Arith::Lanes => format!(
            " [`{name}`] into `out`, which holds zeros where the result is a constant zero: \
             every other entry is written. The batch functions call it on one result zeroed \
             once."
        ),
    }
}

/// `aba_derivatives` → `AbaDerivatives`.
pub(crate) fn upper_camel(snake: &str) -> String {
    snake
        .split('_')
        .flat_map(|piece| {
            let mut chars = piece.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase())
                .into_iter()
                .chain(chars)
        })
        .collect()
}
