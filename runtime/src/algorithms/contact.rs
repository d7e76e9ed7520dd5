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
use super::derivatives::{solve_mass, Rows, Sign};
use super::jacobian::{compute_joint_jacobians, frame_jacobian, ReferenceFrame};
use super::kinematics::placement;
use super::minverse::factor_mass_matrix;
use super::{
    check_data, check_index, check_len, check_q, check_v, forward_kinematics, nonlinear_effects,
    rnea,
};
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
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_v(model, "tau", tau.len())?;
    check_contacts(model, contacts)?;
    let jc = contact_jacobian(model, data, q, contacts)?;
    let gamma = contact_drift(model, data, q, v, contacts)?;
    let h = nonlinear_effects(model, data, q, v)?.to_vec();
    let kkt = Kkt::factor(model, data, q, jc, damping)?;
    let rhs: Vec<S> = tau
        .iter()
        .zip(&h)
        .map(|(&t, &h)| t - h)
        .chain(gamma.iter().map(|&g| -g))
        .collect();
    Ok(kkt.solve(model, data, &rhs, 1, Rows::All))
}

/// The factors of the contact KKT matrix
/// `K = [[M, -J_cᵀ], [J_c, μ I]]` (the Jacobian of the residual
/// `(M v̇ + h - τ - J_cᵀ λ, J_c v̇ + γ + μ λ)` with respect to `(v̇, λ)`):
/// `M`'s tree-sparse factors in `data.ltdl`, `X = M⁻¹ J_cᵀ` and the
/// `L D Lᵀ` of `Λ = J_c X + μ I`.
pub(crate) struct Kkt<S> {
    jc: Vec<S>,
    x: Vec<S>,
    lambda_ldl: Vec<S>,
    nc: usize,
}

impl<S: Scalar> Kkt<S> {
    /// Factors `K` at `q` for the contact Jacobian `jc: [nc x nv]` and the
    /// damping `μ` (`M` by [`crba`], its factors left in `data.ltdl`).
    pub(crate) fn factor(
        model: &Model,
        data: &mut Data<S>,
        q: &[S],
        jc: Vec<S>,
        damping: S,
    ) -> Result<Self, InputError> {
        crba(model, data, q)?;
        Ok(Self::factor_mass(model, data, jc, damping))
    }

    /// [`Kkt::factor`] with `M` already in `data.mass_matrix`.
    pub(crate) fn factor_mass(model: &Model, data: &mut Data<S>, jc: Vec<S>, damping: S) -> Self {
        let nv = model.nv;
        let nc = jc.len() / nv;
        factor_mass_matrix(model, data);
        let jt: Vec<S> = (0..nv * nc).map(|k| jc[(k % nc) * nv + k / nc]).collect();
        let x = solve_mass(model, data, &jt, nc, Rows::All, Sign::Plus);
        let mut lambda_op = vec![S::zero(); nc * nc];
        for r in 0..nc {
            for c in 0..=r {
                let mut s = if r == c { damping } else { S::zero() };
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
        }
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
