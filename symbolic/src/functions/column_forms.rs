//! The column forms of the table's functions ([`Function::columns`]):
//! blocks of an output computed column by column by the same code, which
//! big functions write once per chain of dofs and loop
//! (`symbolic/src/columns.rs` emits them).

use rbdgen_runtime::{
    aba_derivatives_stage, derivative_column_len, mass_factor_pattern, mass_factors,
    rnea_derivative_column, rnea_derivatives_stage, solve_mass_column, Data, Force, InputError,
    Model, Scalar,
};

use super::{wrenches, EvaluateFn, Function};

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
