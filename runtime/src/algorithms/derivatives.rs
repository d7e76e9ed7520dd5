//! Tangent-space derivatives of inverse and forward dynamics, analytically
//! (Carpentier & Mansard 2018, "Analytical derivatives of rigid body dynamics
//! algorithms"): one forward and one backward pass, in the axes of each tree's
//! root body rather than the world's, so that the root's columns are constant.
//!
//! With `J_c` the column of dof c (joint j, parent λ) in those axes, `v_k`, `a_k`
//! the spatial velocity and acceleration of body k (gravity entering as the
//! acceleration `-g` of the universe), `I_k` its inertia, `h_k = I_k v_k`,
//! `B_k x = v_k ×* I_k x - I_k (v_k × x) + x ×* h_k`, and over the subtree of
//! joint i the sums `Y_i = Σ I_k`, `B_i = Σ B_k`, `F_i = Σ f_k` (the body
//! forces), moving the subtree of joint j rigidly along `J_c` gives
//!
//! ```text
//! ∂τ_r/∂δ_c = J_rᵀ (Y_i dA_c + B_i dV_c)                 r of joint i in the subtree of j
//!           = J_rᵀ (J_c ×* F_j + Y_j dA_c + B_j dV_c)     r of a joint strictly above j
//! ∂τ_r/∂v_c = J_rᵀ (Y_i u_c + B_i J_c)                    (Y_j, B_j for r above j)
//! dV_c = v_λ × J_c,   dA_c = a_λ × J_c + v_λ × dV_c,   u_c = (v_λ + v_j) × J_c.
//! ```
//!
//! `B_k` is kept in the closed form of [`Bias`] (12 numbers, not 36): its
//! columns for linear motions are zero.

use super::minverse::invert_mass_matrix;
use super::{check_data, check_len, check_q, check_v};
use crate::error::InputError;
use crate::spatial::{Force, Motion, Transform, Vector3};
use crate::workspace::{Bias, MassSolve};
use crate::{ContactKind, Data, Model, Scalar};

/// The three `nv x nv` Jacobians of a dynamics function `f(q, v, u)`, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Jacobians<S = f64> {
    /// `∂f/∂q` in the tangent space: the perturbation is `q ⊕ δ = integrate(q, δ)`.
    pub d_dq: Vec<S>,
    /// `∂f/∂v`.
    pub d_dv: Vec<S>,
    /// `∂f/∂u` (`u` = `a` for RNEA, `tau` for ABA).
    pub d_du: Vec<S>,
}

/// The derivatives of inverse dynamics `tau = rnea(q, v, a)`: `dtau_dq`,
/// `dtau_dv`, `dtau_da` (= M), each `nv x nv` row-major, with `dtau_dq` in the
/// tangent space (perturbation `integrate(q, δ)`). Matches Pinocchio's
/// `computeRNEADerivatives(model, data, q, v, a)`; computed analytically
/// (Carpentier & Mansard 2018; see the module documentation), not by finite
/// differences. `τ` itself is left in `data.tau` and `M` in
/// `data.mass_matrix`.
///
/// `q: [nq]`, `v: [nv]`, `a: [nv]`. Fields of the result: `d_dq`, `d_dv`, `d_du`
/// (= `dtau_da`).
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or `data` was
/// built for another model; checked before anything is written.
pub fn rnea_derivatives<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    a: &[S],
) -> Result<Jacobians<S>, InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_v(model, "a", a.len())?;
    run(model, data, q, v, a, External::None, Matrices::All);
    Ok(jacobians(data))
}

/// The derivatives of inverse dynamics with external forces held fixed,
/// `tau = rnea_fext(q, v, a, fext)`: `dtau_dq`, `dtau_dv`, `dtau_da` (= M), each
/// `nv x nv` row-major, `dtau_dq` in the tangent space (perturbation
/// `integrate(q, δ)`). Each `fext[i]` stays fixed in its joint's frame, so it
/// moves with the body and enters only through the body forces. Matches
/// Pinocchio's `computeRNEADerivatives(model, data, q, v, a, fext)`.
///
/// `q: [nq]`, `v: [nv]`, `a: [nv]`; `fext: [njoints]` indexed by joint id, the
/// wrench `[linear; angular]` (N, N·m) on the body of joint i in that joint's
/// frame, `fext[0]` (the universe) ignored. With `fext = 0` equal to
/// [`rnea_derivatives`]. Fields of the result: `d_dq`, `d_dv`, `d_du` (= `dtau_da`).
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv` / `njoints`,
/// or `data` was built for another model; checked before anything is written.
pub fn rnea_derivatives_fext<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    a: &[S],
    fext: &[Force<S>],
) -> Result<Jacobians<S>, InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_v(model, "a", a.len())?;
    check_len("fext", fext.len(), model.njoints())?;
    run(model, data, q, v, a, External::Joints(fext), Matrices::All);
    Ok(jacobians(data))
}

/// The derivatives of forward dynamics `a = aba(q, v, tau)`: `ddq_dq`,
/// `ddq_dv`, `ddq_dtau` (= M⁻¹), each `nv x nv` row-major, `ddq_dq` in the
/// tangent space. Matches Pinocchio's `computeABADerivatives(model, data, q, v,
/// tau)` (whose Python binding returns `(ddq_dq, ddq_dv, Minv)`), and is
/// computed as it does: `ddq_dq = -M⁻¹ dtau_dq`, `ddq_dv = -M⁻¹ dtau_dv` with the
/// RNEA derivatives at `a = ddq`, `M⁻¹` from the tree-sparse factorisation of
/// [`minverse`](fn@super::minverse), skipping the entries of `dtau_dq` and `dtau_dv` that the
/// tree makes zero. `ddq = M⁻¹ (tau - rnea(q, v, 0))` (the value of [`aba`](fn@super::aba),
/// left in `data.ddq`) comes from the same pass as the derivatives, not from a
/// run of ABA: traced, the two share their kinematics.
///
/// `q: [nq]`, `v: [nv]`, `tau: [nv]`. Fields of the result: `d_dq`, `d_dv`,
/// `d_du` (= `ddq_dtau`).
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or `data` was
/// built for another model; checked before anything is written.
pub fn aba_derivatives<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    tau: &[S],
) -> Result<Jacobians<S>, InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_v(model, "tau", tau.len())?;
    Ok(forward_derivatives(
        model,
        data,
        q,
        v,
        Acceleration::Solve(tau),
        None,
    ))
}

/// [`aba_derivatives`] at the acceleration `ddq = aba(q, v, tau)` already
/// computed (`tau` enters only through it), for [`super::step_linearization`],
/// whose step takes ABA's `ddq`. Slice lengths as checked by [`aba_derivatives`].
pub(crate) fn aba_derivatives_at<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    ddq: &[S],
) -> Jacobians<S> {
    forward_derivatives(model, data, q, v, Acceleration::Given(ddq), None)
}

/// Where [`forward_derivatives`] takes the acceleration from.
enum Acceleration<'a, S> {
    /// `ddq = M⁻¹ (τ - rnea(q, v, 0))` for this `τ`.
    Solve(&'a [S]),
    /// This `ddq`.
    Given(&'a [S]),
}

/// `ddq` (solved as `M⁻¹ (τ - rnea(q, v, 0))`, or given), then `-M⁻¹ ∂τ` at
/// `a = ddq`, with `M⁻¹` by the tree-sparse factors, skipping the rows of `∂τ`
/// that the tree makes zero ([`forward_stage`], then the solves).
fn forward_derivatives<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    acceleration: Acceleration<'_, S>,
    fext: Option<&[Force<S>]>,
) -> Jacobians<S> {
    let nv = model.nv;
    let minv = forward_stage(model, data, q, v, acceleration, fext);
    let (mut d_dq, mut d_dv) = (vec![S::zero(); nv * nv], vec![S::zero(); nv * nv]);
    let (ltdl, w) = (&data.ltdl, &mut data.derivatives);
    let (branch, minus) = (Rows::Branch, Sign::Minus);
    solve_mass_into(
        model,
        ltdl,
        &w.dtau_dq,
        nv,
        branch,
        minus,
        &mut w.solve,
        &mut d_dq,
    );
    solve_mass_into(
        model,
        ltdl,
        &w.dtau_dv,
        nv,
        branch,
        minus,
        &mut w.solve,
        &mut d_dv,
    );
    Jacobians {
        d_dq,
        d_dv,
        d_du: minv,
    }
}

/// [`forward_derivatives`] up to its solves: `M⁻¹` (returned), its factors
/// in `data.ltdl`, `ddq` in `data.ddq`, and `∂τ/∂q`, `∂τ/∂v` at `a = ddq` in
/// `data.derivatives`. `M` and `rnea(q, v, 0)` come from the pass of the
/// derivatives without its matrices (traced, its kinematics are the same nodes
/// as the second pass's), which costs less than ABA.
fn forward_stage<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    acceleration: Acceleration<'_, S>,
    fext: Option<&[Force<S>]>,
) -> Vec<S> {
    let zeros = core::mem::take(&mut data.derivatives.zeros);
    run(model, data, q, v, &zeros, fext.into(), Matrices::Mass);
    data.derivatives.zeros = zeros;
    let minv = invert_mass_matrix(model, data).to_vec();
    match acceleration {
        Acceleration::Solve(tau) => {
            let mut rhs = core::mem::take(&mut data.derivatives.rhs);
            for ((r, &t), &b) in rhs.iter_mut().zip(tau).zip(&data.tau) {
                *r = t - b;
            }
            let w = &mut data.derivatives;
            let (ltdl, ddq) = (&data.ltdl, &mut data.ddq);
            solve_mass_into(
                model,
                ltdl,
                &rhs,
                1,
                Rows::All,
                Sign::Plus,
                &mut w.solve,
                ddq,
            );
            w.rhs = rhs;
        }
        Acceleration::Given(ddq) => data.ddq.copy_from_slice(ddq),
    }
    let ddq = core::mem::take(&mut data.ddq);
    run(model, data, q, v, &ddq, fext.into(), Matrices::All);
    data.ddq = ddq;
    minv
}

/// [`aba_derivatives`] (with `fext`: [`aba_derivatives_fext`]) before its
/// solves, for code that runs the solve column by column: `ddq_dq` is
/// `solve_mass_column(model, &factors, column)` of each column of `dtau_dq`,
/// and `ddq_dv` the same of `dtau_dv`.
///
/// `q: [nq]`, `v: [nv]`, `tau: [nv]`, `fext` as in [`aba_derivatives_fext`].
///
/// # Errors
/// As [`aba_derivatives`] (and [`aba_derivatives_fext`] for `fext`).
pub fn aba_derivatives_stage<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    tau: &[S],
    fext: Option<&[Force<S>]>,
) -> Result<ForwardStage<S>, InputError> {
    check_stage(model, data, q, v, ("tau", tau), fext)?;
    let minv = forward_stage(model, data, q, v, Acceleration::Solve(tau), fext);
    Ok(ForwardStage {
        dtau_dq: data.derivatives.dtau_dq.clone(),
        dtau_dv: data.derivatives.dtau_dv.clone(),
        minv,
        factors: compact_factors(model, &data.ltdl),
        columns: (!model.has_mimic()).then(|| derivative_columns(model, data)),
    })
}

/// [`rnea_derivatives`] (with `fext`: [`rnea_derivatives_fext`]) before its
/// entries, for code that computes `∂τ/∂q` and `∂τ/∂v` column by column
/// ([`rnea_derivative_column`]): the columns' inputs and factors, and
/// `dtau_da = M` (`[nv x nv]` row-major, armature included).
///
/// `q: [nq]`, `v: [nv]`, `a: [nv]`, `fext` as in [`rnea_derivatives_fext`].
///
/// # Errors
/// As [`rnea_derivatives`] (and [`rnea_derivatives_fext`] for `fext`), and
/// [`InputError::Mimic`] on a model with mimic joints.
pub fn rnea_derivatives_stage<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    a: &[S],
    fext: Option<&[Force<S>]>,
) -> Result<(DerivativeColumns<S>, Vec<S>), InputError> {
    check_stage(model, data, q, v, ("a", a), fext)?;
    check_no_mimic(model, "rnea_derivatives_stage")?;
    run(model, data, q, v, a, fext.into(), Matrices::All);
    Ok((derivative_columns(model, data), data.mass_matrix.clone()))
}

/// The checks of a stage's inputs: `data`, then the lengths of `q`, `v`,
/// `u` (named) and `fext`.
fn check_stage<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    q: &[S],
    v: &[S],
    (name, u): (&'static str, &[S]),
    fext: Option<&[Force<S>]>,
) -> Result<(), InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_v(model, name, u.len())?;
    if let Some(f) = fext {
        check_len("fext", f.len(), model.njoints())?;
    }
    Ok(())
}

/// Values per dof of [`DerivativeColumns::factors`]: `J_r` (6), `Y_i J_r`
/// (6) and the angular part of `B_iᵀ J_r` (3).
const ROW_FACTORS: usize = 15;

/// Values of a column's input before its chain's masks: `x` (6), `y` (3), `g` (6).
const COLUMN_HEAD: usize = 15;

/// The length of one column's input of [`rnea_derivative_column`]: 15
/// values, then one mask per dof of the longest chain of
/// [`Topology::dof_chains`](crate::Topology::dof_chains).
pub fn derivative_column_len(model: &Model) -> usize {
    let chains = model.topology().dof_chains();
    COLUMN_HEAD + chains.iter().map(|c| c.len()).max().unwrap_or(0)
}

/// `∂τ/∂q` and `∂τ/∂v` of RNEA (Carpentier & Mansard 2018, see the module
/// documentation) as [`rnea_derivative_column`] computes them column by
/// column: every column reads the same factors and its own input, so that
/// generated code writes that computation once per chain of dofs and loops.
/// All vectors in the axes of each tree's root body, `[linear; angular]`.
#[derive(Clone, Debug, PartialEq)]
pub struct DerivativeColumns<S = f64> {
    /// Each column's input for `∂τ/∂q`, `[derivative_column_len(model) x nv]`
    /// row-major (column c is column c's input): `dA_c` (6), the angular
    /// part of `dV_c` (3), `g_c = J_c ×* F_j + Y_j dA_c + B_j dV_c` (6, zero
    /// at a root joint), then per dof k of the column's chain a mask, 1 where
    /// dof k's joint is a strict ancestor of the column's joint, else 0.
    pub dq: Vec<S>,
    /// The same for `∂τ/∂v`: `u_c`, the angular part of `J_c`,
    /// `h_c = Y_j u_c + B_j J_c`, the masks.
    pub dv: Vec<S>,
    /// What every column reads, `[nv x 15]` row-major: per dof r of joint i,
    /// `J_r`, `p_r = Y_i J_r` and the angular part of `t_r = B_iᵀ J_r` (the
    /// linear part is zero).
    pub factors: Vec<S>,
}

/// Whether row `r` of a column `c` of the derivatives is in the subtree of
/// `c`'s joint (its own joint included), above it, or off its branch.
#[derive(Clone, Copy, PartialEq)]
enum Relation {
    Below,
    Above,
    Off,
}

fn relation(model: &Model, r: usize, c: usize) -> Relation {
    let tree = model.topology();
    let start = tree.joint_start(c);
    if tree.dof_subtree(start).contains(&r) {
        Relation::Below
    } else if tree.is_dof_ancestor(r, start) {
        Relation::Above
    } else {
        Relation::Off
    }
}

fn check_no_mimic(model: &Model, function: &'static str) -> Result<(), InputError> {
    if model.has_mimic() {
        Err(InputError::Mimic { function })
    } else {
        Ok(())
    }
}

/// The columns' inputs and factors from the passes of [`run`] with
/// [`Matrices::All`] (own dofs = model dofs: no mimic joints).
fn derivative_columns<S: Scalar>(model: &Model, data: &Data<S>) -> DerivativeColumns<S> {
    let (nv, tree, w) = (model.nv, model.topology(), &data.derivatives);
    let mut factors = Vec::with_capacity(ROW_FACTORS * nv);
    for i in 1..model.njoints() {
        for r in tree.own_dofs(i) {
            let jr = w.j[r];
            let t = w.bias[i].transpose_mul_motion(&jr);
            factors.extend(jr.to_array());
            factors.extend(w.ycrb[i].mul_motion(&jr).to_array());
            factors.extend(t.angular.0);
        }
    }
    let len = derivative_column_len(model);
    let (mut dq, mut dv) = (vec![S::zero(); len * nv], vec![S::zero(); len * nv]);
    for chain in tree.dof_chains() {
        for c in chain.clone() {
            let masks = chain.clone().map(|r| match relation(model, r, c) {
                Relation::Above => S::one(),
                _ => S::zero(),
            });
            let head_q = [w.da_dq[c].to_array(), w.g[c].to_array()];
            let head_v = [w.da_dv[c].to_array(), w.h[c].to_array()];
            let q_in = head_q[0].into_iter().chain(w.dv_dq[c].angular.0);
            let v_in = head_v[0].into_iter().chain(w.j[c].angular.0);
            let q_in = q_in.chain(head_q[1]).chain(masks.clone());
            let v_in = v_in.chain(head_v[1]).chain(masks);
            for (k, (x, y)) in q_in.zip(v_in).enumerate() {
                dq[k * nv + c] = x;
                dv[k * nv + c] = y;
            }
        }
    }
    DerivativeColumns { dq, dv, factors }
}

/// Column `c` of `∂τ/∂q` (or `∂τ/∂v`) from the [`DerivativeColumns`]: for
/// each row r (joint i) of a dof on `c`'s branch,
/// `x_c · p_r + y_c · t_r` in the subtree of `c`'s joint and `J_r · g_c`
/// above it (module documentation). `chain` is the index of `c`'s chain in
/// [`Topology::dof_chains`](crate::Topology::dof_chains), and the same code
/// serves every column of it: a row that is above some of its columns and
/// below others (a row of the chain itself) takes both and the column's mask
/// picks one; the other rows have one form for the whole chain, or are zero.
///
/// `factors: [15 nv]` ([`DerivativeColumns::factors`]), `w:
/// [derivative_column_len(model)]` (a column of [`DerivativeColumns::dq`] or
/// [`DerivativeColumns::dv`]); returns the column, `[nv]`.
///
/// # Errors
/// [`InputError::Length`] when `factors` or `w` has the wrong length,
/// [`InputError::Index`] for a chain the model does not have,
/// [`InputError::Mimic`] on a model with mimic joints.
pub fn rnea_derivative_column<S: Scalar>(
    model: &Model,
    chain: usize,
    factors: &[S],
    w: &[S],
) -> Result<Vec<S>, InputError> {
    let nv = model.nv;
    check_len("factors", factors.len(), ROW_FACTORS * nv)?;
    check_len("w", w.len(), derivative_column_len(model))?;
    let chains = model.topology().dof_chains();
    let Some(chain) = chains.get(chain).cloned() else {
        return Err(InputError::Index {
            argument: "chain",
            index: chain,
            count: chains.len(),
        });
    };
    check_no_mimic(model, "rnea_derivative_column")?;
    let x = Motion::from_slice(&w[..6]);
    let y = Vector3([w[6], w[7], w[8]]);
    let g = Force::from_slice(&w[9..COLUMN_HEAD]);
    let column = (0..nv).map(|r| {
        let f = &factors[ROW_FACTORS * r..ROW_FACTORS * (r + 1)];
        let (jr, p) = (Motion::from_slice(&f[..6]), Force::from_slice(&f[6..12]));
        let t = Vector3([f[12], f[13], f[14]]);
        let below = || x.dot(&p) + y.dot(&t);
        let relations: Vec<Relation> = chain.clone().map(|c| relation(model, r, c)).collect();
        let all = |k: Relation| relations.iter().all(|&x| x == k);
        if all(Relation::Below) {
            below()
        } else if all(Relation::Above) {
            jr.dot(&g)
        } else if all(Relation::Off) {
            S::zero()
        } else {
            // A dof of the chain: above some of its columns, below the others.
            let (b, mask) = (below(), w[COLUMN_HEAD + r - chain.start]);
            b + mask * (jr.dot(&g) - b)
        }
    });
    Ok(column.collect())
}

/// The factors of `M(q)` as [`solve_mass_column`] reads them (`-D⁻¹`, then
/// `Y = L⁻¹` at [`mass_factor_pattern`]): CRBA and the tree-sparse
/// factorisation of [`minverse`](fn@super::minverse), without `M⁻¹` itself,
/// which is then the solve of `-I`, column by column.
///
/// `q: [nq]`; returns `nv + mass_factor_pattern(model).len()` values.
///
/// # Errors
/// [`InputError`] when `q` does not have length `nq`, or `data` was built for
/// another model; checked before anything is written.
pub fn mass_factors<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
) -> Result<Vec<S>, InputError> {
    super::crba(model, data, q)?;
    super::minverse::factor_mass_matrix(model, data);
    Ok(compact_factors(model, &data.ltdl))
}

/// `-D⁻¹` and `Y`'s pattern entries of the factors `ltdl` (`data.ltdl`).
fn compact_factors<S: Scalar>(model: &Model, ltdl: &[S]) -> Vec<S> {
    let nv = model.nv;
    let d_inv = (0..nv).map(|k| -(S::one() / ltdl[k * nv + k]));
    let below = mass_factor_pattern(model)
        .into_iter()
        .map(|(i, k)| ltdl[i * nv + k]);
    d_inv.chain(below).collect()
}

/// What [`aba_derivatives_stage`] returns. Units as Pinocchio's: `∂τ/∂q`
/// in N·m/rad (N/m for a prismatic dof, per tangent component for a
/// free-flyer), `∂τ/∂v` in N·m·s/rad, `M⁻¹` in 1/(kg·m²) or 1/kg.
#[derive(Clone, Debug, PartialEq)]
pub struct ForwardStage<S = f64> {
    /// `∂τ/∂q` at `a = aba(q, v, tau)`, `[nv x nv]` row-major, tangent space.
    pub dtau_dq: Vec<S>,
    /// `∂τ/∂v` there, `[nv x nv]` row-major.
    pub dtau_dv: Vec<S>,
    /// `M⁻¹` (`ddq_dtau`), `[nv x nv]` row-major.
    pub minv: Vec<S>,
    /// The factors [`solve_mass_column`] reads: `-D⁻¹` (`nv`), then the
    /// entries of `Y = L⁻¹` at [`mass_factor_pattern`] (`M⁻¹ = Y D⁻¹ Yᵀ`).
    pub factors: Vec<S>,
    /// `∂τ/∂q` and `∂τ/∂v` as [`rnea_derivative_column`] computes them
    /// column by column; `None` on a model with mimic joints.
    pub columns: Option<DerivativeColumns<S>>,
}

/// The entries `(i, k)` of `Y = L⁻¹` (the tree-sparse factor of `M`, see
/// [`minverse`](fn@super::minverse)) that may be nonzero below the diagonal:
/// `k` a strict ancestor dof of `i`, by `i`, then up the tree from `i`.
pub fn mass_factor_pattern(model: &Model) -> Vec<(usize, usize)> {
    let parent = model.topology().dof_parents();
    let mut pattern = Vec::new();
    for i in 0..model.nv {
        let mut k = parent[i];
        while let Some(kk) = k {
            pattern.push((i, kk));
            k = parent[kk];
        }
    }
    pattern
}

/// `-M⁻¹ b` for one column `b: [nv]` (Featherstone 2008 §6.5, the sparse
/// `LTDL` solve with `Y = L⁻¹` as [`minverse`](fn@super::minverse) keeps it), from the `factors` of
/// [`ForwardStage::factors`] (`nv + mass_factor_pattern(model).len()` of
/// them): the same column solve as [`aba_derivatives`]'s, reading every row.
///
/// # Errors
/// [`InputError`] when `factors` or `b` has the wrong length.
pub fn solve_mass_column<S: Scalar>(
    model: &Model,
    factors: &[S],
    b: &[S],
) -> Result<Vec<S>, InputError> {
    let nv = model.nv;
    let pattern = mass_factor_pattern(model);
    check_len("factors", factors.len(), nv + pattern.len())?;
    check_v(model, "b", b.len())?;
    let mut h = vec![S::zero(); nv * nv];
    for (&(i, k), &y) in pattern.iter().zip(&factors[nv..]) {
        h[i * nv + k] = y;
    }
    let mut scratch = MassSolve::new(nv);
    scratch.d_inv.copy_from_slice(&factors[..nv]);
    scratch.rows.extend(0..nv);
    let mut out = vec![S::zero(); nv];
    solve_column(model, &h, b, 1, 0, &mut scratch, &mut out);
    Ok(out)
}

/// The result of [`rnea_derivatives`] as [`run`] leaves it in `data`.
fn jacobians<S: Scalar>(data: &Data<S>) -> Jacobians<S> {
    Jacobians {
        d_dq: data.derivatives.dtau_dq.clone(),
        d_dv: data.derivatives.dtau_dv.clone(),
        d_du: data.mass_matrix.clone(),
    }
}

/// The derivatives of forward dynamics with external forces held fixed in
/// their joints' frames, `a = aba_fext(q, v, tau, fext)`: `ddq_dq`, `ddq_dv`,
/// `ddq_dtau` (= M⁻¹), each `nv x nv` row-major, `ddq_dq` in the tangent space.
/// Matches Pinocchio's `computeABADerivatives(model, data, q, v, tau, fext)`:
/// `-M⁻¹ ∂τ` with the derivatives of [`rnea_derivatives_fext`] at
/// `a = aba_fext(..)`.
///
/// `q: [nq]`, `v: [nv]`, `tau: [nv]`; `fext: [njoints]` as in
/// [`super::aba_fext`]. Fields of the result: `d_dq`, `d_dv`, `d_du` (= `ddq_dtau`).
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv` / `njoints`,
/// or `data` was built for another model; checked before anything is written.
pub fn aba_derivatives_fext<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    tau: &[S],
    fext: &[Force<S>],
) -> Result<Jacobians<S>, InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_v(model, "tau", tau.len())?;
    check_len("fext", fext.len(), model.njoints())?;
    Ok(forward_derivatives(
        model,
        data,
        q,
        v,
        Acceleration::Solve(tau),
        Some(fext),
    ))
}

/// The derivative of forward dynamics with respect to the external forces,
/// `∂a/∂fext_i = M(q)⁻¹ J_iᵀ` for each joint i, `J_i` its LOCAL joint Jacobian
/// (Pinocchio's `getJointJacobian(.., LOCAL)`): `a = aba_fext(q, v, tau, fext)`
/// is affine in `fext`, so this depends on `q` only, and a force model
/// `fext(q, v, u)` chains in as `∂a/∂x += (∂a/∂fext) (∂fext/∂x)`.
///
/// `q: [nq]`; returns `[nv x 6 njoints]` row-major: columns `6 i .. 6 i + 6`
/// are the wrench `[linear; angular]` on the body of joint i in its frame (N,
/// N·m), those of the universe (i = 0) zero. `data.mass_matrix` holds `M`.
///
/// # Errors
/// [`InputError`] when `q` does not have length `nq`, or `data` was built for
/// another model; checked before anything is written.
pub fn aba_dfext<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
) -> Result<Vec<S>, InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    let (nv, cols) = (model.nv, 6 * model.njoints());
    super::compute_joint_jacobians(model, data, q)?;
    let mut b = vec![S::zero(); nv * cols];
    for i in 1..model.njoints() {
        let j = super::joint_jacobian(model, data, i, super::ReferenceFrame::Local)?;
        for r in 0..6 {
            for k in 0..nv {
                b[k * cols + 6 * i + r] = j[r * nv + k];
            }
        }
    }
    super::crba(model, data, q)?;
    super::minverse::factor_mass_matrix(model, data);
    Ok(solve_mass(model, data, &b, cols, Rows::All, Sign::Plus))
}

/// The rows of a right-hand side that [`solve_mass`] reads.
#[derive(Clone, Copy)]
pub(crate) enum Rows {
    /// All of them.
    All,
    /// Those of column j that the tree allows to be nonzero in `∂τ/∂q` and
    /// `∂τ/∂v` (`cols = nv`): [`crate::Topology::branch_dofs`] of dof j.
    Branch,
}

/// The sign of [`solve_mass`]'s result.
#[derive(Clone, Copy)]
pub(crate) enum Sign {
    /// `M⁻¹ B`.
    Plus,
    /// `-M⁻¹ B`, negated through `D⁻¹` (nv negations, not nv x cols).
    Minus,
}

/// `M⁻¹ B` (or `-M⁻¹ B`, by `sign`) for `B: [nv x cols]` row-major, by the
/// tree-sparse factors left in `data.ltdl` by [`invert_mass_matrix`]
/// (`M⁻¹ = Y D⁻¹ Yᵀ`, `Y = L⁻¹`), column by column: `Yᵀ b` up the tree, `D⁻¹`,
/// then `Y` down it. `rows` says which rows of each column may be nonzero (all
/// of them when unsure: a traced zero folds away anyway). Returns
/// `[nv x cols]` row-major.
pub(crate) fn solve_mass<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    b: &[S],
    cols: usize,
    rows: Rows,
    sign: Sign,
) -> Vec<S> {
    let mut out = vec![S::zero(); model.nv * cols];
    let mut scratch = MassSolve::new(model.nv);
    solve_mass_into(
        model,
        &data.ltdl,
        b,
        cols,
        rows,
        sign,
        &mut scratch,
        &mut out,
    );
    out
}

/// [`solve_mass`] with the factors `ltdl` (`data.ltdl`), into `out: [nv x
/// cols]` (every entry written), with the scratch `scratch`: no allocation.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_mass_into<S: Scalar>(
    model: &Model,
    ltdl: &[S],
    b: &[S],
    cols: usize,
    rows: Rows,
    sign: Sign,
    scratch: &mut MassSolve<S>,
    out: &mut [S],
) {
    let nv = model.nv;
    let h = ltdl;
    for (k, dk) in scratch.d_inv.iter_mut().enumerate() {
        let d = S::one() / h[k * nv + k];
        *dk = match sign {
            Sign::Plus => d,
            Sign::Minus => -d,
        };
    }
    scratch.rows.clear();
    scratch.rows.extend(0..nv);
    for j in 0..cols {
        if let Rows::Branch = rows {
            model.topology().branch_dofs(j, &mut scratch.rows);
        }
        solve_column(model, h, b, cols, j, scratch, out);
    }
}

/// Column `j` of `out = Y D⁻¹ Yᵀ B` (`B`, `out`: `[nv x cols]` row-major) with
/// `Y` below the diagonal of `h` and `D⁻¹` (signed) in `scratch.d_inv`,
/// reading the rows `scratch.rows` of `B`: `Yᵀ b` up the tree, `D⁻¹`, then `Y`
/// down it. The one column solve of [`solve_mass_into`] and
/// [`solve_mass_column`].
fn solve_column<S: Scalar>(
    model: &Model,
    h: &[S],
    b: &[S],
    cols: usize,
    j: usize,
    scratch: &mut MassSolve<S>,
    out: &mut [S],
) {
    let nv = model.nv;
    let parent = model.topology().dof_parents();
    let MassSolve { d_inv, z, rows } = scratch;
    z.fill(S::zero());
    for &i in rows.iter() {
        let bi = b[i * cols + j];
        z[i] = z[i] + bi;
        let mut k = parent[i];
        while let Some(kk) = k {
            z[kk] = z[kk] + h[i * nv + kk] * bi;
            k = parent[kk];
        }
    }
    for (zk, &dk) in z.iter_mut().zip(d_inv.iter()) {
        *zk = *zk * dk;
    }
    for i in 0..nv {
        let mut x = z[i];
        let mut k = parent[i];
        while let Some(kk) = k {
            x = x + h[i * nv + kk] * z[kk];
            k = parent[kk];
        }
        out[i * cols + j] = x;
    }
}

/// Which matrices the passes fill.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Matrices {
    /// `∂τ/∂q`, `∂τ/∂v` and `M`.
    All,
    /// `M` only (with `τ`): the mass-matrix pass of the ABA derivatives.
    Mass,
    /// As [`Matrices::All`] without gravity: the derivatives of `M a + C v`
    /// (the impulse's `M Δv` at `v = 0`, the centroidal momentum rate).
    NoGravity,
    /// The forward pass alone, without gravity: placements, velocities,
    /// accelerations and the columns `J_c`, `dV_c`, `dA_c`, `u_c` (the
    /// kinematic derivatives of [`super::frame_derivatives`]).
    Kinematics,
}

impl Matrices {
    /// Whether the pass fills `∂τ/∂q` and `∂τ/∂v` (and the columns they read).
    fn derivatives(self) -> bool {
        self != Matrices::Mass
    }
}

/// The external forces of a pass, on the bodies.
#[derive(Clone, Copy)]
pub(crate) enum External<'a, S> {
    /// None.
    None,
    /// `fext: [njoints]`, the wrench on the body of joint i in its frame.
    Joints(&'a [Force<S>]),
    /// The forces `λ: [nc]` of a contact set in its rows' axes
    /// ([`super::contact_jacobian`]): a point's force in world axes at the
    /// frame's origin, a 6-D contact's wrench in the frame's axes.
    Contacts(&'a [crate::Contact], &'a [S]),
}

impl<'a, S> From<Option<&'a [Force<S>]>> for External<'a, S> {
    fn from(fext: Option<&'a [Force<S>]>) -> Self {
        fext.map_or(External::None, External::Joints)
    }
}

/// The driver: the forward pass, then the backward pass over the joints' own
/// dofs (the model without mimics, `v_own = G v`), then their reduction to
/// the model's dofs (`∂τ/∂x = Gᵀ ∂τ_own/∂x_own G`, the identity without
/// mimics). Leaves `τ` in `data.tau`, `M` in `data.mass_matrix` and, with
/// [`Matrices::All`], `∂τ/∂q`, `∂τ/∂v` in `data.derivatives`. No allocation.
pub(crate) fn run<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    a: &[S],
    fext: External<'_, S>,
    matrices: Matrices,
) {
    let mimic = model.has_mimic();
    let mut v_own = core::mem::take(&mut data.derivatives.v_own);
    let mut a_own = core::mem::take(&mut data.derivatives.a_own);
    let (v_in, a_in) = if mimic {
        model.expand_to_own(v, &mut v_own);
        model.expand_to_own(a, &mut a_own);
        (v_own.as_slice(), a_own.as_slice())
    } else {
        (v, a)
    };
    let gravity = match matrices {
        Matrices::All | Matrices::Mass => super::universe_acceleration(model),
        Matrices::NoGravity | Matrices::Kinematics => Motion::zero(),
    };
    for i in 1..model.njoints() {
        forward_step(model, data, i, q, v_in, a_in, &gravity, fext, matrices);
    }
    data.derivatives.v_own = v_own;
    data.derivatives.a_own = a_own;
    if matrices == Matrices::Kinematics {
        return;
    }
    let w = &mut data.derivatives;
    if matrices.derivatives() {
        w.dtau_dq_own.fill(S::zero());
        w.dtau_dv_own.fill(S::zero());
    }
    w.mass_own.fill(S::zero());
    for i in (1..model.njoints()).rev() {
        backward_step(model, data, i, matrices);
    }
    to_model_dofs(model, data, a, matrices);
}

/// The forward step of joint `i`: its placement, velocity and acceleration
/// in its root's axes, its dofs' columns `J_c`, `dV_c` (and, for
/// [`Matrices::All`], `dA_c`, `u_c`), its body's inertia `I_i`, force `f_i`
/// (less `fext[i]`) and bias `B_i` (for [`Matrices::All`]), from its parent's.
/// `v`, `a` over the own dofs.
#[allow(clippy::too_many_arguments)]
fn forward_step<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    i: usize,
    q: &[S],
    v: &[S],
    a: &[S],
    gravity: &Motion<S>,
    fext: External<'_, S>,
    matrices: Matrices,
) {
    let all = matrices.derivatives();
    let tree = model.topology();
    let joint = &model.joints[i];
    let li_mi = Transform::constant(&joint.placement) * joint.transform_at(q);
    data.li_mi[i] = li_mi;
    let w = &mut data.derivatives;
    let parent = joint.parent;
    // A root's axes are its own; the universe accelerates at -g in them.
    let (v_parent, a_parent) = if parent > 0 {
        w.root_from_body[i] = if model.joints[parent].parent > 0 {
            w.root_from_body[parent] * li_mi
        } else {
            li_mi
        };
        (w.v[parent], w.a[parent])
    } else {
        w.root_from_body[i] = Transform::identity();
        (Motion::zero(), li_mi.act_inv_motion(gravity))
    };
    let root_from_body = w.root_from_body[i];
    let dofs = tree.own_dofs(i);
    let (vs, as_) = (&v[dofs.clone()], &a[dofs.clone()]);
    let mut vj = Motion::zero();
    let mut aj = Motion::zero();
    for (k, c) in dofs.clone().enumerate() {
        let jc = if parent > 0 {
            root_from_body.act_motion(&joint.kind.subspace_column(k))
        } else {
            joint.kind.subspace_column(k)
        };
        vj += jc.scale(vs[k]);
        aj += jc.scale(as_[k]);
        w.j[c] = jc;
    }
    w.v[i] = v_parent + vj;
    // With `vj × vj = 0`: `v_i × vj = Σ_c dV_c q̇_c` and
    // `u_c = 2 dV_c + vj × J_c`, whose last term vanishes for one dof.
    let mut bias = Motion::zero();
    for (k, c) in dofs.clone().enumerate() {
        let jc = w.j[c];
        let dv = v_parent.cross(&jc);
        bias += dv.scale(vs[k]);
        w.dv_dq[c] = dv;
        if all {
            w.da_dq[c] = a_parent.cross(&jc) + v_parent.cross(&dv);
            w.da_dv[c] = if dofs.len() == 1 {
                dv + dv
            } else {
                dv + dv + vj.cross(&jc)
            };
        }
    }
    w.a[i] = a_parent + aj + bias;
    let body = data.inertias[i];
    let inertia = if parent > 0 {
        body.transformed(&root_from_body)
    } else {
        body
    };
    let (vi, ai) = (w.v[i], w.a[i]);
    let h = inertia.mul_motion(&vi);
    w.f[i] = inertia.mul_motion(&ai) + vi.cross_force(&h);
    match fext {
        External::None => {}
        External::Joints(fext) => {
            let fe = if parent > 0 {
                root_from_body.act_force(&fext[i])
            } else {
                fext[i]
            };
            w.f[i] = w.f[i] - fe;
        }
        External::Contacts(contacts, lambda) => {
            let root_from_world = data.li_mi[tree_root(model, i)].rotation.transpose();
            let mut row = 0;
            for c in contacts {
                let rows = c.kind.rows();
                let frame = &model.frames[c.frame];
                if frame.parent_joint == i {
                    let root_from_frame = if parent > 0 {
                        root_from_body * Transform::constant(&frame.placement)
                    } else {
                        Transform::constant(&frame.placement)
                    };
                    let l = &lambda[row..row + rows];
                    let fe = match c.kind {
                        ContactKind::Point => {
                            let f = root_from_world * Vector3([l[0], l[1], l[2]]);
                            Force {
                                linear: f,
                                angular: root_from_frame.translation.cross(&f),
                            }
                        }
                        ContactKind::Frame6d => root_from_frame.act_force(&Force::from_slice(l)),
                    };
                    w.f[i] = w.f[i] - fe;
                }
                row += rows;
            }
        }
    }
    if all {
        w.bias[i] = Bias::new(&inertia, &vi, &h);
    }
    w.momentum[i] = h;
    w.ycrb[i] = inertia;
}

/// The root of joint `i`'s tree: its ancestor whose parent is the universe.
pub(crate) fn tree_root(model: &Model, mut i: usize) -> usize {
    while model.joints[i].parent > 0 {
        i = model.joints[i].parent;
    }
    i
}

/// The backward step of joint `i`, its subtree's sums `Y_i`, `B_i`, `F_i`
/// complete: `τ` of its dofs, the rows of its dofs in the columns of its
/// support (and, for [`Matrices::All`], the rows of its ancestors' dofs in
/// its own columns), over the own dofs; then the sums added to its parent's.
fn backward_step<S: Scalar>(model: &Model, data: &mut Data<S>, i: usize, matrices: Matrices) {
    let all = matrices.derivatives();
    let tree = model.topology();
    let nv = tree.own_to_v().len();
    let w = &mut data.derivatives;
    let (yi, bi, fi) = (w.ycrb[i], w.bias[i], w.f[i]);
    tree.support(i, &mut w.support);
    for r in tree.own_dofs(i) {
        let jr = w.j[r];
        w.tau_own[r] = jr.dot(&fi);
        let p = yi.mul_motion(&jr);
        let t = all.then(|| bi.transpose_mul_motion(&jr));
        for &j in &w.support {
            for c in tree.own_dofs(j) {
                if let Some(t) = &t {
                    w.dtau_dq_own[r * nv + c] = w.da_dq[c].dot(&p) + w.dv_dq[c].dot(t);
                    w.dtau_dv_own[r * nv + c] = w.da_dv[c].dot(&p) + w.j[c].dot(t);
                }
                let m = w.j[c].dot(&p);
                w.mass_own[r * nv + c] = m;
                w.mass_own[c * nv + r] = m;
            }
        }
    }
    let ancestors = &w.support[..w.support.len() - 1];
    if all && !ancestors.is_empty() {
        for c in tree.own_dofs(i) {
            let g =
                w.j[c].cross_force(&fi) + yi.mul_motion(&w.da_dq[c]) + bi.mul_motion(&w.dv_dq[c]);
            let h = yi.mul_motion(&w.da_dv[c]) + bi.mul_motion(&w.j[c]);
            (w.g[c], w.h[c]) = (g, h);
            for &j in ancestors {
                for r in tree.own_dofs(j) {
                    w.dtau_dq_own[r * nv + c] = w.j[r].dot(&g);
                    w.dtau_dv_own[r * nv + c] = w.j[r].dot(&h);
                }
            }
        }
    }
    let parent = model.joints[i].parent;
    if parent > 0 {
        w.ycrb[parent] += yi;
        if all {
            w.bias[parent] += bi;
        }
        w.f[parent] += fi;
        let hi = w.momentum[i];
        w.momentum[parent] += hi;
    }
}

/// The results of the passes over the own dofs moved to the model's dofs
/// (reduced by `G` on a mimic model, see [`crate::model::mimic`]), then the
/// armature added: `M += diag(armature)`, `τ += armature ∘ a` (`a: [nv]`).
fn to_model_dofs<S: Scalar>(model: &Model, data: &mut Data<S>, a: &[S], matrices: Matrices) {
    let all = matrices.derivatives();
    let w = &mut data.derivatives;
    if model.has_mimic() {
        if all {
            model.reduce_from_own(&w.dtau_dq_own, &mut w.dtau_dq);
            model.reduce_from_own(&w.dtau_dv_own, &mut w.dtau_dv);
        }
        model.reduce_from_own(&w.mass_own, &mut data.mass_matrix);
        model.reduce_vector_from_own(&w.tau_own, &mut data.tau);
    } else {
        if all {
            w.dtau_dq.copy_from_slice(&w.dtau_dq_own);
            w.dtau_dv.copy_from_slice(&w.dtau_dv_own);
        }
        data.mass_matrix.copy_from_slice(&w.mass_own);
        data.tau.copy_from_slice(&w.tau_own);
    }
    super::crba::add_armature_diagonal(model, &mut data.mass_matrix);
    super::rnea::add_armature(model, &mut data.tau, a);
}
