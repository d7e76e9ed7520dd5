//! Jacobians in the tangent space by forward-mode dual numbers ([`Dual`]):
//! a function written once over the scalar is evaluated on duals whose
//! tangents are the columns being differentiated, eight at a time. A
//! configuration argument `q` is evaluated at `integrate(q, δ)` with the
//! tangent on `δ` (`δ = 0`), so its columns are Pinocchio's tangent-space
//! derivatives (`nv` of them). On `f64` this gives the derivative functions'
//! numbers; on a symbolic scalar, their traces.

use super::lie_group::integrate;
use crate::error::InputError;
use crate::spatial::{Inertia, Matrix3, Vector3};
use crate::{Data, Dual, Model, Scalar};

/// The tangent columns carried per evaluation.
pub(crate) const LANES: usize = 8;

/// The dual scalar of [`tangent_jacobian`]'s evaluations.
pub(crate) type Tangent<S> = Dual<LANES, S>;

/// An argument of a function to differentiate.
#[derive(Clone, Copy)]
pub(crate) enum Arg<'a, S> {
    /// A configuration `[nq]`, differentiated in the tangent space (`nv` columns).
    Configuration(&'a [S]),
    /// A vector, differentiated entry by entry.
    Vector(&'a [S]),
}

impl<S: Scalar> Arg<'_, S> {
    /// The columns of its block.
    fn width(&self, model: &Model) -> usize {
        match self {
            Arg::Configuration(_) => model.nv,
            Arg::Vector(x) => x.len(),
        }
    }
}

/// `f`'s value and its Jacobian blocks at `args`: `(value, blocks)` with one
/// block per differentiated argument, in order, each `[rows x width]`
/// row-major (`rows` = the value's length, `width` = `nv` for a
/// configuration, the argument's length otherwise).
///
/// `f` gets a [`Data`] of duals that carries `data`'s inertias (run-time
/// parameters included), and the arguments lifted to duals.
///
/// # Errors
/// What `f` or `integrate` returns.
pub(crate) fn tangent_jacobian<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    args: &[Arg<'_, S>],
    f: impl Fn(&mut Data<Tangent<S>>, &[Vec<Tangent<S>>]) -> Result<Vec<Tangent<S>>, InputError>,
) -> Result<(Vec<S>, Vec<Vec<S>>), InputError> {
    let widths: Vec<usize> = args.iter().map(|a| a.width(model)).collect();
    let total: usize = widths.iter().sum();
    let mut dual_data = Data::<Tangent<S>>::new(model);
    for (d, i) in dual_data.inertias.iter_mut().zip(&data.inertias) {
        *d = lift_inertia(i);
    }
    let mut value = Vec::new();
    let mut columns: Vec<Vec<S>> = Vec::with_capacity(total);
    let mut first = 0;
    // At least one evaluation, for the value of a function with no block.
    loop {
        let chunk = first..(first + LANES).min(total);
        let mut lifted = Vec::with_capacity(args.len());
        let mut start = 0;
        for arg in args {
            let seeded = |len: usize, re: &dyn Fn(usize) -> S| -> Vec<Tangent<S>> {
                (0..len)
                    .map(|j| {
                        let col = start + j;
                        let mut x = Dual::new(re(j));
                        if chunk.contains(&col) {
                            x.eps[col - chunk.start] = S::one();
                        }
                        x
                    })
                    .collect()
            };
            lifted.push(match arg {
                Arg::Configuration(q) => {
                    let delta = seeded(model.nv, &|_| S::zero());
                    let q: Vec<Tangent<S>> = q.iter().map(|&x| Dual::new(x)).collect();
                    integrate(model, &q, &delta)?
                }
                Arg::Vector(x) => seeded(x.len(), &|j| x[j]),
            });
            start += arg.width(model);
        }
        let out = f(&mut dual_data, &lifted)?;
        if first == 0 {
            value = out.iter().map(|x| x.re).collect();
        }
        for lane in 0..chunk.len() {
            columns.push(out.iter().map(|x| x.eps[lane]).collect());
        }
        first += LANES;
        if first >= total {
            break;
        }
    }
    let rows = value.len();
    let mut blocks = Vec::new();
    let mut start = 0;
    for width in widths {
        let mut block = Vec::with_capacity(rows * width);
        for r in 0..rows {
            block.extend((start..start + width).map(|c| columns[c][r]));
        }
        blocks.push(block);
        start += width;
    }
    Ok((value, blocks))
}

/// An inertia on `S` as one on duals with no tangent.
fn lift_inertia<S: Scalar>(i: &Inertia<S>) -> Inertia<Tangent<S>> {
    Inertia {
        mass: Dual::new(i.mass),
        first_moment: Vector3(i.first_moment.0.map(Dual::new)),
        rotational: Matrix3(i.rotational.0.map(|row| row.map(Dual::new))),
    }
}

/// The rows `rows` of a `[.. x cols]` row-major block.
pub(crate) fn row_range<S: Copy>(
    block: &[S],
    cols: usize,
    rows: core::ops::Range<usize>,
) -> Vec<S> {
    block[rows.start * cols..rows.end * cols].to_vec()
}
