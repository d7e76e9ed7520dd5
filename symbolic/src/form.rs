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

#[cfg(test)]
mod tests {
    use rbdgen_runtime::Data;

    use super::*;
    use crate::functions::Function;
    use crate::prepare::build_model;
    use crate::trace::try_trace;

    const PENDULUM: &str = include_str!("../../tests/golden/double_pendulum.urdf");
    const GO2: &str = include_str!("../../models/go2.urdf");

    /// The signature of `function` as the assembly makes it.
    fn signature(model: &Model, function: Function) -> Signature {
        let spec = function.spec();
        Signature {
            name: spec.name.to_string(),
            args: (function.args(model).into_iter())
                .map(|(n, d)| (n.to_string(), d))
                .collect(),
            per_frame: spec.per_frame,
            output: spec.output,
            doc: Vec::new(),
            ops: 0,
        }
    }

    /// What `choose_form` gives `function` of `urdf` with `options`: `None`
    /// for a column form, else whether the limbs are side by side and
    /// whether the code is in parts.
    fn form_of(urdf: &str, function: Function, options: &Options) -> Option<(bool, bool)> {
        let model = build_model(urdf, options).unwrap();
        let spec = signature(&model, function);
        let lens: Vec<usize> = spec.args.iter().map(|(_, d)| d.len(&model)).collect();
        let columns = function.columns(&model);
        let form = choose_form(&model, &spec, &columns, options, |frame| {
            try_trace(&lens, |x| {
                let mut data = Data::<Expr>::new(&model);
                function.evaluate(&model, &mut data, x, frame)
            })
        })
        .unwrap();
        match form {
            Form::Columns(_) => None,
            Form::Straight(s) => Some((s.packings.is_some(), s.in_parts)),
        }
    }

    #[test]
    fn a_small_function_is_straight_line_in_one_block() {
        // Two links are no limbs of one shape, and a few dozen statements one
        // block.
        let form = form_of(PENDULUM, Function::Rnea, &Options::default());
        assert_eq!(form, Some((false, false)));
    }

    #[test]
    fn the_column_form_is_taken_above_the_unroll_limit_only() {
        let looped = Options {
            unroll_limit: 0,
            ..Options::default()
        };
        assert_eq!(form_of(PENDULUM, Function::Minverse, &looped), None);
        let form = form_of(PENDULUM, Function::Minverse, &Options::default());
        assert!(form.is_some());
    }

    #[test]
    fn a_quadruped_has_its_legs_side_by_side_unless_asked_not_to() {
        let floating = Options {
            floating_base: true,
            ..Options::default()
        };
        let form = form_of(GO2, Function::Rnea, &floating);
        assert_eq!(form, Some((true, false)), "Go2's four legs are one shape");
        let one_limb = Options {
            one_limb_at_a_time: true,
            ..floating
        };
        assert_eq!(
            form_of(GO2, Function::Rnea, &one_limb).map(|f| f.0),
            Some(false)
        );
    }

    #[test]
    fn a_function_is_in_parts_when_every_frame_is() {
        use crate::emit::schedule;
        use crate::trace::trace;
        // A chain of 40 additions, cut into parts of at most 10 statements.
        let traced = trace(&[1], |x| {
            let mut y = x[0][0];
            for _ in 0..40 {
                y = y + x[0][0];
            }
            vec![y]
        });
        let long = schedule(&traced.graph, &traced.outputs, 10, 10);
        let short = schedule(&traced.graph, &traced.outputs, 1000, 1000);
        assert!(in_parts(&[long.clone(), long.clone()]));
        assert!(!in_parts(&[long, short]));
    }
}
