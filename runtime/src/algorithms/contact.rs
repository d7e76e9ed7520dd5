//! Rigid contacts: the stacked contact Jacobian and drift, forward dynamics
//! under contact constraints, the inverse-dynamics residual of a whole-body
//! controller, and the centre of pressure of contact forces.
//!
//! A contact set is a slice of [`Contact`]s. Rows are stacked in its order: a
//! point contact gives 3 rows (the linear velocity of the frame's origin in
//! world axes, LOCAL_WORLD_ALIGNED), a 6-D contact 6 rows (the frame's twist in
//! its own axes, LOCAL). The drift `γ = J̇ v` of each is the one its constraint
//! needs: classical for a point, spatial for a 6-D contact (see
//! [`super::acceleration`]). Forces `λ` are the forces the environment applies
//! on the robot, in the same rows' frames.

use super::acceleration::{acceleration_pass, frame_drift};
use super::crba::crba;
use super::derivatives::{run, solve_mass, External, Matrices, Rows, Sign};
use super::frame_derivatives::frame_columns;
use super::jacobian::{compute_joint_jacobians, frame_jacobian, ReferenceFrame};
use super::kinematics::placement;
use super::minverse::{factor_mass_matrix, inverse_from_factors};
use super::{check_data, check_index, check_len, check_q, check_v, forward_kinematics, rnea};
use crate::error::InputError;
use crate::spatial::Vector3;
use crate::{Contact, ContactKind, Data, Model, Scalar};

/// The number of constraint rows of `contacts`: 3 per point, 6 per 6-D contact.
pub fn contact_rows(contacts: &[Contact]) -> usize {
    contacts.iter().map(|c| c.kind.rows()).sum()
}

/// `Ok` when every contact's frame is a frame index of `model`.
pub(crate) fn check_contacts(model: &Model, contacts: &[Contact]) -> Result<(), InputError> {
    contacts
        .iter()
        .try_for_each(|c| check_index("contacts", c.frame, model.frames.len()))
}

/// The stacked contact Jacobian `J_c(q)`: for each contact in order, the 3
/// linear rows of its frame's LOCAL_WORLD_ALIGNED Jacobian (a point) or the 6
/// rows of its LOCAL Jacobian (a 6-D contact) (Pinocchio's `getFrameJacobian`
/// after `computeJointJacobians`, rows of `getConstraintsJacobian` for
/// `CONTACT_3D` / `CONTACT_6D`).
///
/// `q: [nq]`; returns `J_c: [nc x nv]` row-major, `nc =` [`contact_rows`].
///
/// # Errors
/// [`InputError`] when `q` does not have length `nq` or a contact's frame is
/// not a frame index, or `data` was built for another model; checked before
/// anything is written.
pub fn contact_jacobian<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    contacts: &[Contact],
) -> Result<Vec<S>, InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_contacts(model, contacts)?;
    compute_joint_jacobians(model, data, q)?;
    let nv = model.nv;
    let mut out = Vec::with_capacity(contact_rows(contacts) * nv);
    for c in contacts {
        let (reference, rows) = match c.kind {
            ContactKind::Point => (ReferenceFrame::LocalWorldAligned, 3),
            ContactKind::Frame6d => (ReferenceFrame::Local, 6),
        };
        out.extend_from_slice(&frame_jacobian(model, data, c.frame, reference)?[..rows * nv]);
    }
    Ok(out)
}

/// The stacked contact drift `γ = J̇_c v`: for each contact in order, the
/// linear part of its frame's classical acceleration in world axes at `v̇ = 0`
/// (a point) or its spatial acceleration in its own axes at `v̇ = 0` (a 6-D
/// contact) (Pinocchio's `getFrameClassicalAcceleration(.., LOCAL_WORLD_ALIGNED)`
/// / `getFrameAcceleration(.., LOCAL)` after `forwardKinematics(q, v, 0)`).
/// The contact constraints read `J_c v̇ + γ = 0`.
///
/// `q: [nq]`, `v: [nv]`; returns `γ: [nc]` (m/s², rad/s²).
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or a
/// contact's frame is not a frame index, or `data` was built for another model;
/// checked before anything is written.
pub fn contact_drift<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    contacts: &[Contact],
) -> Result<Vec<S>, InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_contacts(model, contacts)?;
    Ok(contact_acceleration(model, data, q, v, None, contacts))
}

/// `J_c a + γ`, the contact rows' acceleration at the joint acceleration `a`
/// (`γ` for `None`): the classical acceleration of a point contact's origin
/// in world axes, the spatial acceleration of a 6-D contact in its own axes.
/// Lengths unchecked.
pub(crate) fn contact_acceleration<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    a: Option<&[S]>,
    contacts: &[Contact],
) -> Vec<S> {
    acceleration_pass(model, data, q, v, a);
    let mut out = Vec::with_capacity(contact_rows(contacts));
    for c in contacts {
        let acc = frame_drift(model, data, c.frame);
        match c.kind {
            ContactKind::Point => {
                out.extend_from_slice(&acc.classical_local_world_aligned.linear.0)
            }
            ContactKind::Frame6d => out.extend_from_slice(&acc.local.to_array()),
        }
    }
    out
}

/// Forward dynamics under rigid contacts: `(v̇, λ)` solving
///
/// ```text
/// [ M    J_cᵀ ] [ v̇ ]   [ τ - h ]
/// [ J_c  -μ I ] [ -λ ] = [ -γ    ]
/// ```
///
/// with `M`, `h`, `J_c`, `γ` at `(q, v)` ([`contact_jacobian`],
/// [`contact_drift`]) and `μ = damping` (Pinocchio's
/// `forwardDynamics(model, data, q, v, tau, J, gamma, inv_damping)`; with `μ = 0`
/// its rigid-contact `constraintDynamics`). So `M v̇ + h = τ + J_cᵀ λ` and
/// `J_c v̇ + γ = -μ λ`: zero contact acceleration for `μ = 0`.
///
/// By the tree-sparse factors of `M` (Featherstone 2008 §6.5): `v̇_free =
/// M⁻¹ (τ - h)`, `X = M⁻¹ J_cᵀ`, the contact-space operator
/// `Λ = J_c X + μ I` factored as `L D Lᵀ` without pivoting (Cholesky without
/// square roots: no branch on values), `λ = -Λ⁻¹ (J_c v̇_free + γ)` and
/// `v̇ = v̇_free + X λ`. `Λ` is positive definite when `J_c` has full row
/// rank; for a rank-deficient set (more constrained rows than independent
/// motions: two 6-D contacts on one rigid body, four point contacts on one
/// link) it is singular, and `damping > 0` (1e-12 to 1e-6 relative to
/// `M`'s scale) gives the least-squares-like regularised solution instead of
/// non-finite numbers.
///
/// `q: [nq]`, `v: [nv]`, `tau: [nv]`, `damping` (≥ 0, in the units of `Λ`,
/// 1/kg for a point contact); returns `(v̇: [nv], λ: [nc])` (N for point rows,
/// N and N·m for 6-D rows in the contact frame). `data.mass_matrix` holds `M`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or a
/// contact's frame is not a frame index, or `data` was built for another model;
/// checked before anything is written.
pub fn contact_dynamics<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    tau: &[S],
    contacts: &[Contact],
    damping: S,
) -> Result<(Vec<S>, Vec<S>), InputError> {
    let (ddq, lambda, _) = contact_forward(model, data, q, v, tau, contacts, None, damping)?;
    Ok((ddq, lambda))
}

/// [`contact_dynamics`] with a run-time contact mask: `active: [nc]`, one
/// weight per contact row, 1 where the row's contact is in contact and 0
/// where it is not (the same for every row of a contact). An inactive row
/// gets `λ = 0` and leaves `v̇` as without it: the result equals
/// [`contact_dynamics`] on the active contacts alone (to rounding: the
/// masked rows add exact zeros), so one function serves every gait mode of
/// an MPC horizon. Branch-free: the rows of `J_c` and `γ` are scaled by
/// their weight and `Λ` gets `1 - active` on its diagonal. Values other
/// than 0 and 1 have no physical meaning.
///
/// # Errors
/// As [`contact_dynamics`], and [`InputError::Length`] when `active` does
/// not have length `nc`.
#[allow(clippy::too_many_arguments)]
pub fn contact_dynamics_masked<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    tau: &[S],
    contacts: &[Contact],
    active: &[S],
    damping: S,
) -> Result<(Vec<S>, Vec<S>), InputError> {
    let (ddq, lambda, _) =
        contact_forward(model, data, q, v, tau, contacts, Some(active), damping)?;
    Ok((ddq, lambda))
}

/// [`contact_dynamics`] (masked by `active` when given) and the factors of
/// its KKT matrix, the factors of `M` in `data.ltdl`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn contact_forward<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    tau: &[S],
    contacts: &[Contact],
    active: Option<&[S]>,
    damping: S,
) -> Result<(Vec<S>, Vec<S>, Kkt<S>), InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_v(model, "tau", tau.len())?;
    check_contacts(model, contacts)?;
    check_active(contacts, active)?;
    // `M`, `h = rnea(q, v, 0)`, `J_c` and `γ` from one pass: the one the
    // derivatives' pass then repeats at `v̇` (traced, the same nodes).
    let zeros = core::mem::take(&mut data.derivatives.zeros);
    run(model, data, q, v, &zeros, External::None, Matrices::Mass);
    data.derivatives.zeros = zeros;
    let h = data.tau.clone();
    let (jc, gamma) = contact_rows_of_pass(model, data, contacts);
    let kkt = Kkt::factor_mass(model, data, jc, contacts, damping, active);
    let rhs: Vec<S> = tau
        .iter()
        .zip(&h)
        .map(|(&t, &h)| t - h)
        .chain(masked(&gamma, active).iter().map(|&g| -g))
        .collect();
    let (ddq, lambda) = kkt.solve(model, data, &rhs, 1, Rows::All);
    Ok((ddq, lambda, kkt))
}

/// `(J_c, γ)` of `contacts` (`[nc x nv]` row-major, `[nc]`) from the last
/// pass of [`run`] (gravity in it, at `v̇ = 0`): each contact frame's
/// columns ([`frame_columns`]), the linear rows in world axes and the
/// classical acceleration for a point, all six in LOCAL for a 6-D contact.
fn contact_rows_of_pass<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    contacts: &[Contact],
) -> (Vec<S>, Vec<S>) {
    let nv = model.nv;
    let mut jc = vec![S::zero(); contact_rows(contacts) * nv];
    let mut gamma = Vec::with_capacity(contact_rows(contacts));
    let mut row = 0;
    for c in contacts {
        let f = frame_columns(model, data, c.frame, true);
        match c.kind {
            ContactKind::Point => {
                let r = f.rotation();
                for &k in &f.support {
                    let j = *r * f.j[k].linear;
                    for (i, x) in j.0.into_iter().enumerate() {
                        jc[(row + i) * nv + k] = x;
                    }
                }
                gamma.extend((*r * f.classical()).0);
            }
            ContactKind::Frame6d => {
                for &k in &f.support {
                    for (i, x) in f.j[k].to_array().into_iter().enumerate() {
                        jc[(row + i) * nv + k] = x;
                    }
                }
                gamma.extend(f.a.to_array());
            }
        }
        row += c.kind.rows();
    }
    (jc, gamma)
}

/// `Ok` when the mask `active`, if any, has one weight per row of `contacts`.
pub(crate) fn check_active<S>(
    contacts: &[Contact],
    active: Option<&[S]>,
) -> Result<(), InputError> {
    match active {
        Some(a) => check_len("active", a.len(), contact_rows(contacts)),
        None => Ok(()),
    }
}

/// The rows of `x: [nc x cols]` row-major scaled by their weights in
/// `active` (`x` itself without a mask).
pub(crate) fn masked<S: Scalar>(x: &[S], active: Option<&[S]>) -> Vec<S> {
    match active {
        None => x.to_vec(),
        Some(a) => {
            let cols = x.len() / a.len().max(1);
            (x.iter().enumerate())
                .map(|(k, &x)| a[k / cols] * x)
                .collect()
        }
    }
}

/// The factors of the contact KKT matrix
/// `K = [[M, -J_cᵀ], [J_c, μ I]]` (the Jacobian of the residual
/// `(M v̇ + h - τ - J_cᵀ λ, J_c v̇ + γ + μ λ)` with respect to `(v̇, λ)`):
/// `M`'s tree-sparse factors in `data.ltdl`, `X = M⁻¹ J_cᵀ` and the
/// `L D Lᵀ` of `Λ = J_c X + μ I`. With a mask `a`, `J_c` is `diag(a) J_c`
/// and `Λ` gains `diag(1 - a)`.
pub(crate) struct Kkt<S> {
    jc: Vec<S>,
    x: Vec<S>,
    lambda_ldl: Vec<S>,
    nc: usize,
    /// Per dof, the contact rows whose `J_c` entry the tree allows to be
    /// nonzero (the dof is on the contact frame's support).
    rows_of_dof: Vec<Vec<usize>>,
}

/// Per dof `[nv]`, the rows of `contacts` (in [`contact_jacobian`]'s order)
/// whose frame the dof moves: the entries of a column of `J_c`, and of the
/// contact rows of its derivatives, that the tree allows to be nonzero.
fn rows_of_dof(model: &Model, contacts: &[Contact]) -> Vec<Vec<usize>> {
    let tree = model.topology();
    let mut out = vec![Vec::new(); model.nv];
    let mut joints = Vec::new();
    let mut row = 0;
    for c in contacts {
        tree.support(model.frames[c.frame].parent_joint, &mut joints);
        let mut dofs: Vec<usize> = (joints.iter())
            .flat_map(|&j| tree.own_dofs(j))
            .map(|own| tree.own_to_v()[own].0)
            .collect();
        dofs.sort_unstable();
        dofs.dedup();
        for k in dofs {
            out[k].extend(row..row + c.kind.rows());
        }
        row += c.kind.rows();
    }
    out
}

impl<S: Scalar> Kkt<S> {
    /// Factors `K` at `q` for the contact set `contacts` and the damping `μ`
    /// (`M` by [`crba`], its factors left in `data.ltdl`).
    pub(crate) fn factor(
        model: &Model,
        data: &mut Data<S>,
        q: &[S],
        contacts: &[Contact],
        damping: S,
    ) -> Result<Self, InputError> {
        let jc = contact_jacobian(model, data, q, contacts)?;
        crba(model, data, q)?;
        Ok(Self::factor_mass(model, data, jc, contacts, damping, None))
    }

    /// [`Kkt::factor`] with `M` already in `data.mass_matrix`, masked by
    /// `active` when given ([`contact_dynamics_masked`]).
    pub(crate) fn factor_mass(
        model: &Model,
        data: &mut Data<S>,
        jc: Vec<S>,
        contacts: &[Contact],
        damping: S,
        active: Option<&[S]>,
    ) -> Self {
        let nv = model.nv;
        let nc = jc.len() / nv;
        let jc = masked(&jc, active);
        factor_mass_matrix(model, data);
        let jt: Vec<S> = (0..nv * nc).map(|k| jc[(k % nc) * nv + k / nc]).collect();
        let x = solve_mass(model, data, &jt, nc, Rows::All, Sign::Plus);
        let mut lambda_op = vec![S::zero(); nc * nc];
        for r in 0..nc {
            for c in 0..=r {
                let mut s = match (r == c, active) {
                    (false, _) => S::zero(),
                    (true, None) => damping,
                    (true, Some(a)) => damping + (S::one() - a[r]),
                };
                for k in 0..nv {
                    s = s + jc[r * nv + k] * x[k * nc + c];
                }
                lambda_op[r * nc + c] = s;
                lambda_op[c * nc + r] = s;
            }
        }
        factor_ldlt(&mut lambda_op, nc);
        Self {
            jc,
            x,
            lambda_ldl: lambda_op,
            nc,
            rows_of_dof: rows_of_dof(model, contacts),
        }
    }

    /// `J_c` as factored (masked rows scaled), `[nc x nv]` row-major.
    pub(crate) fn jacobian(&self) -> &[S] {
        &self.jc
    }

    /// `K⁻¹` as its blocks ([`KktInverse`]); `data.ltdl` must hold the
    /// factors of [`Kkt::factor`].
    pub(crate) fn inverse(&self, model: &Model, data: &mut Data<S>) -> KktInverse<S> {
        let (nv, nc) = (model.nv, self.nc);
        let minv = inverse_from_factors(model, data);
        // Λ⁻¹ by its factors, column by column.
        let mut lambda_inv = vec![S::zero(); nc * nc];
        let mut column = vec![S::zero(); nc];
        for j in 0..nc {
            column.fill(S::zero());
            column[j] = S::one();
            solve_factored(&self.lambda_ldl, &mut column, nc);
            for (i, &x) in column.iter().enumerate() {
                lambda_inv[i * nc + j] = x;
            }
        }
        // Q = X Λ⁻¹, then P = M⁻¹ - X Qᵀ (symmetric).
        let mut q = vec![S::zero(); nv * nc];
        for i in 0..nv {
            for j in 0..nc {
                q[i * nc + j] = (0..nc).fold(S::zero(), |s, k| {
                    s + self.x[i * nc + k] * lambda_inv[k * nc + j]
                });
            }
        }
        let mut p = vec![S::zero(); nv * nv];
        for i in 0..nv {
            for j in 0..=i {
                let x = (0..nc).fold(minv[i * nv + j], |s, k| {
                    s - self.x[i * nc + k] * q[j * nc + k]
                });
                p[i * nv + j] = x;
                p[j * nv + i] = x;
            }
        }
        KktInverse { p, q, lambda_inv }
    }

    /// `K⁻¹ [r_1; r_2]` for `cols` right-hand sides (`r: [(nv + nc) x cols]`
    /// row-major, `r_1` its first `nv` rows): `y = M⁻¹ r_1 + X z`,
    /// `z = Λ⁻¹ (r_2 - J_c M⁻¹ r_1)`. Returns `(y: [nv x cols], z: [nc x cols])`.
    /// `data.ltdl` must hold the factors of [`Kkt::factor`]; `rows` says which
    /// rows of `r_1`'s columns may be nonzero (as [`solve_mass`]).
    pub(crate) fn solve(
        &self,
        model: &Model,
        data: &Data<S>,
        r: &[S],
        cols: usize,
        rows: Rows,
    ) -> (Vec<S>, Vec<S>) {
        let (nv, nc) = (model.nv, self.nc);
        let mut y = solve_mass(model, data, &r[..nv * cols], cols, rows, Sign::Plus);
        let mut z = vec![S::zero(); nc * cols];
        let mut column = vec![S::zero(); nc];
        for j in 0..cols {
            for (row, b) in column.iter_mut().enumerate() {
                *b = (0..nv).fold(r[(nv + row) * cols + j], |s, k| {
                    s - self.jc[row * nv + k] * y[k * cols + j]
                });
            }
            solve_factored(&self.lambda_ldl, &mut column, nc);
            for (row, &b) in column.iter().enumerate() {
                z[row * cols + j] = b;
            }
        }
        for k in 0..nv {
            for j in 0..cols {
                y[k * cols + j] = (0..nc).fold(y[k * cols + j], |s, c| {
                    s + self.x[k * nc + c] * z[c * cols + j]
                });
            }
        }
        (y, z)
    }
}

/// `K⁻¹ = [[P, Q], [-Qᵀ, Λ⁻¹]]` of a [`Kkt`]: `P = M⁻¹ - X Λ⁻¹ Xᵀ`
/// (`[nv x nv]`, symmetric: `∂v̇/∂τ`), `Q = X Λ⁻¹` (`[nv x nc]`) and `Λ⁻¹`
/// (`[nc x nc]`), all row-major: the many columns of the derivatives are
/// products with them ([`Kkt::implicit`]), over the entries the tree allows
/// to be nonzero, cheaper than solves through the factors column by column.
pub(crate) struct KktInverse<S> {
    pub(crate) p: Vec<S>,
    pub(crate) q: Vec<S>,
    pub(crate) lambda_inv: Vec<S>,
}

impl<S: Scalar> Kkt<S> {
    /// `(y, z) = -K⁻¹ d` for the `nv` columns `d: [(nv + nc) x nv]`
    /// (row-major) of a residual's derivatives, with the blocks `inverse`
    /// of this `K`. With `forces`, `z = Qᵀ d₁ - Λ⁻¹ d₂` (`[nc x nv]`) first,
    /// then `y = -M⁻¹ (d₁ - J_cᵀ z)` (`[nv x nv]`) by the tree-sparse
    /// factors in `data.ltdl`; without, `y = -(P d₁ + Q d₂)` alone (`z`
    /// empty). Each takes fewer operations than the other way in its case
    /// (docs/mpc-derivatives-performance.md). The sums run over the entries
    /// the tree allows to be nonzero: in column c, the rows of `d₁` on the
    /// branch of dof c (as `∂τ/∂q`'s) and the contact rows whose frame dof c
    /// moves (a traced zero folds away anyway; in numbers this skips them).
    pub(crate) fn implicit(
        &self,
        model: &Model,
        data: &Data<S>,
        inverse: &KktInverse<S>,
        d: &[S],
        forces: bool,
    ) -> (Vec<S>, Vec<S>) {
        let (nv, nc) = (model.nv, self.nc);
        let (d1, d2) = d.split_at(nv * nv);
        let mut y = vec![S::zero(); nv * nv];
        let mut z = vec![S::zero(); if forces { nc * nv } else { 0 }];
        let mut branch = Vec::with_capacity(nv);
        // Column j's entries that may be nonzero, gathered.
        let (mut c1, mut c2) = (Vec::with_capacity(nv), Vec::with_capacity(nc));
        for j in 0..nv {
            model.topology().branch_dofs(j, &mut branch);
            let rows = &self.rows_of_dof[j];
            c1.clear();
            c1.extend(branch.iter().map(|&k| d1[k * nv + j]));
            c2.clear();
            c2.extend(rows.iter().map(|&k| d2[k * nv + j]));
            if forces {
                for i in 0..nc {
                    let l = &inverse.lambda_inv[i * nc..];
                    let s = (branch.iter().zip(&c1))
                        .fold(S::zero(), |s, (&k, &x)| s + inverse.q[k * nc + i] * x);
                    let s = (rows.iter().zip(&c2)).fold(s, |s, (&k, &x)| s - l[k] * x);
                    z[i * nv + j] = s;
                }
            } else {
                for i in 0..nv {
                    let (p, q) = (&inverse.p[i * nv..], &inverse.q[i * nc..]);
                    let s = (branch.iter().zip(&c1)).fold(S::zero(), |s, (&k, &x)| s + p[k] * x);
                    let s = (rows.iter().zip(&c2)).fold(s, |s, (&k, &x)| s + q[k] * x);
                    y[i * nv + j] = -s;
                }
            }
        }
        if forces {
            let mut rhs = d1.to_vec();
            for (k, rows) in self.rows_of_dof.iter().enumerate() {
                for j in 0..nv {
                    rhs[k * nv + j] = (rows.iter()).fold(rhs[k * nv + j], |s, &r| {
                        s - self.jc[r * nv + k] * z[r * nv + j]
                    });
                }
            }
            y = solve_mass(model, data, &rhs, nv, Rows::All, Sign::Minus);
        }
        (y, z)
    }
}

/// Factors a symmetric positive definite `A: [n x n]` (row-major, both
/// triangles) in place as `L D Lᵀ` without pivoting: `L` strictly below the
/// diagonal, `D` on it.
fn factor_ldlt<S: Scalar>(a: &mut [S], n: usize) {
    for j in 0..n {
        for k in 0..j {
            let l = a[j * n + k];
            a[j * n + j] = a[j * n + j] - l * l * a[k * n + k];
        }
        let d_inv = S::one() / a[j * n + j];
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s = s - a[i * n + k] * a[j * n + k] * a[k * n + k];
            }
            a[i * n + j] = s * d_inv;
        }
    }
}

/// Solves `A x = b` in place by the factors of [`factor_ldlt`]; `b` becomes x.
fn solve_factored<S: Scalar>(a: &[S], b: &mut [S], n: usize) {
    for i in 0..n {
        for k in 0..i {
            b[i] = b[i] - a[i * n + k] * b[k];
        }
    }
    for (i, x) in b.iter_mut().enumerate() {
        *x = *x / a[i * n + i];
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            b[i] = b[i] - a[k * n + i] * b[k];
        }
    }
}

/// The residual of the whole-body equation of motion,
/// `rnea(q, v, v̇) - J_cᵀ λ = M v̇ + h - J_cᵀ λ`: the joint torques `S τ` that
/// `(v̇, λ)` demand. For a floating base its first 6 entries (the free-flyer's
/// rows) must vanish, since no actuator acts there: the underactuation check
/// of a whole-body controller's `(v̇, λ)`. For [`contact_dynamics`]'s output
/// it returns `τ`.
///
/// `q: [nq]`, `v: [nv]`, `ddq: [nv]`, `lambda: [nc]` in the rows of
/// [`contact_jacobian`]; returns `[nv]` (N·m, N).
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv` / `nc`, a
/// contact's frame is not a frame index, or `data` was built for another
/// model; checked before anything is written.
pub fn contact_inverse_dynamics<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    ddq: &[S],
    lambda: &[S],
    contacts: &[Contact],
) -> Result<Vec<S>, InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_v(model, "ddq", ddq.len())?;
    check_contacts(model, contacts)?;
    let nv = model.nv;
    let nc = contact_rows(contacts);
    check_len("lambda", lambda.len(), nc)?;
    let jc = contact_jacobian(model, data, q, contacts)?;
    let mut tau = rnea(model, data, q, v, ddq)?.to_vec();
    for (k, t) in tau.iter_mut().enumerate() {
        *t = (0..nc).fold(*t, |s, r| s - jc[r * nv + k] * lambda[r]);
    }
    Ok(tau)
}

/// The centre of pressure (the zero-moment point) of the contact forces on
/// the horizontal plane `z = height` of the world: the point of that plane
/// about which the horizontal moments of the forces vanish,
/// `x = (z f_x - n_y) / f_z`, `y = (z f_y + n_x) / f_z`, with `(f, n)` the
/// total force and moment about the world origin (Vukobratović's ZMP when the
/// forces are those of a walking robot's feet on flat ground).
///
/// `q: [nq]`; `lambda: [nc]` forces on the robot in the rows of
/// [`contact_jacobian`] (world axes for a point, the frame's axes for a 6-D
/// contact, moment about its origin); `height` (m). Returns `[x, y]` (m) in
/// the world. Non-finite when the total vertical force is zero.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nc`, a contact's
/// frame is not a frame index, or `data` was built for another model; checked
/// before anything is written.
pub fn center_of_pressure<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    contacts: &[Contact],
    lambda: &[S],
    height: S,
) -> Result<[S; 2], InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_contacts(model, contacts)?;
    check_len("lambda", lambda.len(), contact_rows(contacts))?;
    forward_kinematics(model, data, q)?;
    let mut f = Vector3::zeros();
    let mut n = Vector3::zeros();
    let mut row = 0;
    for c in contacts {
        let placement = placement(model, data, c.frame);
        let l = &lambda[row..row + c.kind.rows()];
        let (force, moment) = match c.kind {
            ContactKind::Point => (Vector3([l[0], l[1], l[2]]), Vector3::zeros()),
            ContactKind::Frame6d => (
                placement.rotation * Vector3([l[0], l[1], l[2]]),
                placement.rotation * Vector3([l[3], l[4], l[5]]),
            ),
        };
        f += force;
        n += placement.translation.cross(&force) + moment;
        row += c.kind.rows();
    }
    let [fx, fy, fz] = f.0;
    Ok([(height * fx - n.0[1]) / fz, (height * fy + n.0[0]) / fz])
}
