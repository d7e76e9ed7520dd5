//! The form a function is written in, chosen in one place ([`choose_form`])
//! from its signature, its trace and the options:
//!
//! - **columns** ([`crate::columns`]): above [`Options::unroll_limit`], the
//!   work before the columns written out and the code of one column looped
//!   over each chain of dofs (`minverse` and the dynamics derivatives);
//! - **limbs side by side** ([`crate::straight`], [`limbs_side_by_side`]):
//!   the limbs of one shape in the lanes of `wide`'s `f64x4`, one block;
//! - **straight-line** ([`crate::straight`]): one value at a time, in parts
//!   ([`in_parts`]) when the schedule is longer than one block.
//!
//! The rules are here; the writers below ([`crate::straight`],
//! [`crate::columns`]) take them as arguments. A new form is a variant of
//! [`Form`], its rule in [`choose_form`], its arm in [`Form::emit`], and its
//! writer in a module of its own.

use rbdgen_runtime::Model;

use crate::columns::{choose_columns, emit_columns, looped_fits, TracedColumns};
use crate::emit::Schedule;
use crate::error::GenerateError;
use crate::functions::{Columns, Dim};
use crate::graph::OpCounts;
use crate::item::{FunctionItems, Signature};
use crate::limbs::{self, Packing};
use crate::options::Options;
use crate::straight::Straight;
use crate::trace::{Expr, Traced};

/// A function traced in the form it is written in.
pub(crate) enum Form<'a> {
    /// The column form: its stage and kernels traced.
    Columns(TracedColumns<'a>),
    /// Straight-line, each frame's graph traced (with its limbs side by
    /// side when [`Straight::packings`] is some, in parts when
    /// [`Straight::in_parts`]).
    Straight(Straight),
}

/// The form of `spec`: the last of its column forms `columns` that runs
/// more than its share of [`Options::unroll_limit`] ([`choose_columns`]);
/// otherwise its frames traced by `trace_at` (once per selected frame of a
/// per-frame function), straight-line, with the limbs side by side where
/// [`limbs_side_by_side`] pays, in parts ([`in_parts`]) when long.
///
/// # Errors
/// As [`Straight::trace`]; [`GenerateError::TooLarge`] says whether the
/// most looped column form would fit.
pub(crate) fn choose_form<'a>(
    model: &Model,
    spec: &Signature,
    columns: &'a [Columns<Expr>],
    options: &Options,
    trace_at: impl FnMut(Option<usize>) -> Result<Traced, rbdgen_runtime::InputError>,
) -> Result<Form<'a>, GenerateError> {
    if let Some(traced) = choose_columns(model, spec, columns, options)? {
        return Ok(Form::Columns(traced));
    }
    let pack = |traced: &Traced| packing(model, traced, spec, options);
    match Straight::trace(model, spec, options, &pack, trace_at) {
        Ok(mut straight) => {
            straight.in_parts = in_parts(&straight.schedules);
            Ok(Form::Straight(straight))
        }
        Err(GenerateError::TooLarge {
            function,
            ops,
            limit,
            ..
        }) => Err(GenerateError::TooLarge {
            loopable: looped_fits(model, spec, columns, limit),
            function,
            ops,
            limit,
        }),
        Err(e) => Err(e),
    }
}

impl Form<'_> {
    /// The function written in its form: its items, and the operation
    /// counts as traced and as emitted.
    ///
    /// # Errors
    /// As [`emit_columns`].
    pub(crate) fn emit(
        self,
        model: &Model,
        spec: &Signature,
        options: &Options,
    ) -> Result<(FunctionItems, OpCounts, OpCounts), GenerateError> {
        match self {
            Form::Columns(traced) => {
                let pack = |traced: &Traced| packing(model, traced, spec, options);
                emit_columns(model, spec, traced, options, &pack)
            }
            Form::Straight(straight) => Ok(straight.emit(model, spec, options)),
        }
    }
}

/// Whether a straight-line function is written in parts: when every
/// schedule (one per frame) has more than one part. (The scalar function
/// with its limbs side by side is one block whatever this says.)
fn in_parts(schedules: &[Schedule]) -> bool {
    schedules.iter().all(|s| s.parts.len() > 1)
}

/// The limbs of a graph of `spec` side by side, unless
/// [`Options::one_limb_at_a_time`], where [`limbs_side_by_side`] pays.
fn packing(model: &Model, traced: &Traced, spec: &Signature, options: &Options) -> Option<Packing> {
    if options.one_limb_at_a_time {
        return None;
    }
    let dims: Vec<Dim> = spec.args.iter().map(|(_, d)| *d).collect();
    limbs_side_by_side(model, traced, &dims)
}

/// The limbs of `model` side by side in `traced` ([`crate::limbs::pack`]),
/// when that writes at least a tenth fewer statements, and at least
/// [`MIN_SAVED`] fewer, in one block of at most [`PACKED_LEN`].
fn limbs_side_by_side(model: &Model, traced: &Traced, args: &[Dim]) -> Option<Packing> {
    let packing = limbs::pack(model, &traced.graph, &traced.outputs, args, PACKED_LEN)?;
    let (ops, items) = packing.counts();
    let saved = ops - items;
    (items <= PACKED_LEN && 10 * saved >= ops && saved >= MIN_SAVED).then_some(packing)
}

/// The most statements of a function with its limbs side by side, which is
/// one block (no parts). G1's `rnea_derivatives` (15,934 statements for
/// 29,508 operations) built in 15.5 s against 13.3 s straight-line in parts,
/// and ran 1.38x as fast; its `minverse` (12,494) in 8.3 s against 5.5 s
/// (two copies in one crate, `-C target-cpu=native`, 2 vCPU AMD EPYC).
/// The stage of G1's `aba_derivatives` (21,784 statements for 39,314
/// operations) took its median time from 17.2 to 14.2 µs and its machine
/// code from 509 to 386 KiB; a crate with both forms built in 22 s.
const PACKED_LEN: usize = 25_000;

/// The fewest statements that the limbs side by side must save: a function
/// of a few dozen operations (a 3-link tree's `rnea`) keeps its plain form.
const MIN_SAVED: usize = 64;
