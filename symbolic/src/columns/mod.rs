//! The column forms of big functions ([`Function::columns`]): the
//! function's work before its columns (the stage) written out as
//! straight-line code, and the code of one column written once per chain of
//! dofs and run in a loop over the chain's columns, instead of one copy per
//! column. `aba_derivatives` of a humanoid is about 100,000 operations
//! written out, half of them seventy copies of the same column solve with
//! other right-hand sides; its column form writes that solve once per
//! chain, so the function's machine code fits the caches that feed the
//! core. A second form also loops the columns of `∂τ` before their solves.
//! The loops' trip counts are constants: no branch on the data.
//!
//! A function takes a form when it runs more operations in it (its stage
//! and every column) than the form's [`Columns::limit`] times
//! [`Options::unroll_limit`], and every form before it is taken; smaller
//! ones stay straight-line.
//!
//! In the scalar function of a model of at least [`COLUMN_LANES`] dofs, a
//! kernel runs on that many columns at once, one per lane of a `wide`
//! vector (module `NAME_columns`): the factors it reads are the same in
//! every lane, and a window of columns is a row's contiguous entries, one
//! vector load. Blocks that share a chain's kernel (the solves of `∂τ/∂q`
//! and `∂τ/∂v`) share its code: a loop over the blocks, or, for a chain of
//! at most half a window, one call on both, half the lanes each. The lanes
//! of a window outside its chain compute values that are not stored. Each
//! chain's kernels and windows are a function of their own, in a module of
//! their own (`NAME_columns::chainG`), which rustc compiles as a codegen
//! unit of its own. A kernel of anything but arithmetic (none of the
//! current ones) runs one column at a time, as the lanes module's kernels
//! do.

mod emit;

use rbdgen_runtime::{Data, Model, Scalar};

use crate::api::output_shape;
use crate::emit::{Op, Schedule, Shape};
use crate::error::GenerateError;
use crate::functions::{Columns, Looped, Output};
use crate::graph::OpCounts;
use crate::item::Signature;
use crate::options::Options;
use crate::trace::{try_trace, Expr, Traced};

pub(crate) use emit::emit_columns;

/// A column form traced: its stage, and a kernel per chain of dofs and
/// looped block.
pub(crate) struct TracedColumns<'a> {
    form: &'a Columns<Expr>,
    stage: Traced,
    /// `(chain, looped block, kernel)`.
    kernels: Vec<(usize, &'a Looped<Expr>, Traced)>,
}

impl TracedColumns<'_> {
    /// The operations run: the stage once, each kernel once per column of
    /// its chain.
    fn run(&self, model: &Model) -> usize {
        let groups = model.topology().dof_chains();
        let kernels =
            (self.kernels.iter()).map(|(g, _, k)| groups[*g].len() * op_counts(k).total());
        op_counts(&self.stage).total() + kernels.sum::<usize>()
    }

    /// The operations written out: the stage and each kernel once.
    fn written(&self) -> usize {
        let kernels = self.kernels.iter().map(|(_, _, k)| op_counts(k).total());
        op_counts(&self.stage).total() + kernels.sum::<usize>()
    }
}

/// Whether the most looped of `forms` (the last) writes out no more than
/// `max_ops` operations as traced (its stage and each kernel once), so that a
/// lower [`Options::unroll_limit`] would bring `spec` under the limit.
pub(crate) fn looped_fits(
    model: &Model,
    spec: &Signature,
    forms: &[Columns<Expr>],
    max_ops: usize,
) -> bool {
    let Some(form) = forms.last() else {
        return false;
    };
    trace_columns(model, spec, form).is_ok_and(|traced| traced.written() <= max_ops)
}

/// The column form of `spec` to emit (`None`: straight-line): the last of
/// `forms`, in order, that runs more than `form.limit ×`
/// [`Options::unroll_limit`] operations (its stage and every column), each
/// taken only when the ones before it are.
pub(crate) fn choose_columns<'a>(
    model: &Model,
    spec: &Signature,
    forms: &'a [Columns<Expr>],
    options: &Options,
) -> Result<Option<TracedColumns<'a>>, GenerateError> {
    let mut chosen = None;
    for form in forms {
        let traced = trace_columns(model, spec, form)?;
        if traced.run(model) <= options.unroll_limit.saturating_mul(form.limit) {
            break;
        }
        chosen = Some(traced);
    }
    Ok(chosen)
}

/// Traces `form`'s stage, then its kernels: the columns of a chain of dofs
/// share a kernel per looped block, in which an input that is the same
/// constant in all of them is that constant (a zero row of a right-hand
/// side, a mask of another chain).
fn trace_columns<'a>(
    model: &Model,
    spec: &Signature,
    form: &'a Columns<Expr>,
) -> Result<TracedColumns<'a>, GenerateError> {
    let (nv, nf) = (model.nv, (form.factors)(model));
    let lens: Vec<usize> = spec.args.iter().map(|(_, d)| d.len(model)).collect();
    let failed = |source| GenerateError::Input {
        function: spec.name.clone(),
        source,
    };
    let stage = try_trace(&lens, |x| {
        let mut data = Data::<Expr>::new(model);
        (form.stage)(model, &mut data, x, None)
    })
    .map_err(failed)?;
    let offsets = offsets(&stage_shapes(model, spec, form));
    let groups = model.topology().dof_chains();
    let mut kernels = Vec::with_capacity(groups.len() * form.looped.len());
    for (g, range) in groups.iter().enumerate() {
        for l in &form.looped {
            let rows = (l.rows)(model);
            let known = known_inputs(&stage, offsets[l.block], rows, nv, range.clone());
            let kernel = try_trace(&[nf, rows], |x| {
                let w: Vec<Expr> = (known.iter().zip(&x[1]))
                    .map(|(k, &x)| k.map_or(x, Expr::constant))
                    .collect();
                (l.kernel)(model, g, &x[0], &w)
            })
            .map_err(failed)?;
            kernels.push((g, l, kernel));
        }
    }
    Ok(TracedColumns {
        form,
        stage,
        kernels,
    })
}

/// The shapes of the stage's output blocks: a looped block's columns'
/// inputs, `[rows x NV]`; the others as in the function's output.
fn stage_shapes(model: &Model, spec: &Signature, form: &Columns<Expr>) -> Vec<Shape> {
    let blocks: Vec<Output> = match spec.output {
        Output::Tuple(parts) => parts.to_vec(),
        one => vec![one],
    };
    (blocks.iter().enumerate())
        .map(|(k, b)| match form.looped.iter().find(|l| l.block == k) {
            Some(l) => Shape::Matrix((l.rows)(model), model.nv),
            None => output_shape(b, model),
        })
        .collect()
}

/// Where each of `shapes` starts in their flat concatenation.
fn offsets(shapes: &[Shape]) -> Vec<usize> {
    let starts = shapes.iter().scan(0, |at, s| {
        let start = *at;
        *at += s.len();
        Some(start)
    });
    starts.collect()
}

/// How many columns the scalar function's kernels run at once: `wide`'s
/// `f64x8` (two 256-bit registers where the target has AVX) or `f32x8`.
/// Unitree G1's `aba_derivatives` ran in 0.88 to 0.90 of the time of one
/// column at a time, Go2+Z1's in about 0.93; their machine code grew from
/// 470 to 511 KiB and from 221 to 238 KiB (AMD EPYC, 2 vCPUs, `-C
/// target-cpu=native`, 2026-12-06; alternating runs, CHANGELOG.md).
/// One column at a time, LLVM's loop vectoriser already ran the loop over
/// a chain's columns four at a time; written as four lanes (`f64x4`), G1's
/// ran 3 to 4 % slower than as eight, likely because two vectors per value
/// give the core two independent chains of the solve's dependent
/// multiply-adds.
pub(crate) const COLUMN_LANES: usize = 8;

/// Whether `schedule` is plain arithmetic (no trigonometry, square root or
/// select), which a kernel runs on [`COLUMN_LANES`] columns at once.
fn lane_arithmetic(schedule: &Schedule) -> bool {
    (schedule.statements.iter()).all(|s| {
        matches!(
            s.op,
            Op::Neg(..) | Op::Add(..) | Op::Sub(..) | Op::Mul(..) | Op::Div(..) | Op::MulAdd(..)
        )
    })
}

/// The windows of [`COLUMN_LANES`] columns of `nv` (at least that many) that
/// cover the columns `chain`: `(c, from, to)`, the window `c..c + 8` storing
/// its columns `from..to`, one after the other; a window that would pass
/// `nv` ends there instead, its first lanes those of columns before it.
fn windows(chain: std::ops::Range<usize>, nv: usize) -> Vec<(usize, usize, usize)> {
    (chain.clone().step_by(COLUMN_LANES))
        .map(|from| {
            let to = (from + COLUMN_LANES).min(chain.end);
            (from.min(nv - COLUMN_LANES), from, to)
        })
        .collect()
}

/// Per row of a looped block's inputs in `stage`'s outputs (`rows x nv`
/// from `at`), its value when it is the same constant in every column of
/// `columns`.
fn known_inputs(
    stage: &Traced,
    at: usize,
    rows: usize,
    nv: usize,
    columns: std::ops::Range<usize>,
) -> Vec<Option<f64>> {
    (0..rows)
        .map(|i| {
            let mut values = columns
                .clone()
                .map(|c| stage.graph.constant_value(stage.outputs[at + i * nv + c]));
            let first = values.next().flatten()?;
            values.all(|v| v == Some(first)).then_some(first)
        })
        .collect()
}

/// The operations of a traced graph.
fn op_counts(t: &Traced) -> OpCounts {
    t.graph.op_counts(&t.outputs)
}

/// `counts` written out `copies` times and run `times` times in all: the
/// runs beyond the copies are looped.
fn repeated(counts: OpCounts, copies: usize, times: usize) -> OpCounts {
    let mut all = OpCounts::default();
    for _ in 0..times {
        all += counts;
    }
    all.looped = counts.total() * times.saturating_sub(copies);
    all
}
