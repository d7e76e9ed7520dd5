//! Derivatives of the contact quantities in the tangent space, analytically
//! (Pinocchio's `computeConstraintDynamicsDerivatives` and
//! `computeImpulseDynamicsDerivatives`): `(v̇, λ)` is the root of a residual
//! `F(x, v̇, λ)` whose Jacobian in `(v̇, λ)` is the KKT matrix `K` that the
//! forward solve factors, so `∂(v̇, λ)/∂x = -K⁻¹ ∂F/∂x`. `∂F/∂x` at fixed
//! `(v̇, λ)` is one pass of the RNEA derivatives with the contact forces as
//! external forces ([`super::derivatives`]) plus the contact points'
//! acceleration derivatives from the same pass's kinematic columns
//! ([`super::frame_derivatives`]); `K⁻¹` goes through the tree-sparse factors
//! of `M` and `L D Lᵀ` of `Λ` (no dense inverse).

use super::contact::{
    check_active, check_contacts, contact_forward, contact_jacobian, contact_rows, masked, Kkt,
};
use super::crba::crba;
use super::derivatives::{run, External, Matrices, Rows};
use super::frame_derivatives::frame_columns;
use super::{check_data, check_len, check_q, check_v, ReferenceFrame};
use crate::error::InputError;
use crate::spatial::Vector3;
use crate::{Contact, ContactKind, Data, Model, Scalar};

/// The derivatives of [`contact_dynamics`](super::contact_dynamics): `(v̇, λ)` with respect to `q`
/// (tangent space), `v` and `τ`. Row-major; `nc =` [`contact_rows`].
#[derive(Clone, Debug, PartialEq)]
pub struct ContactDynamicsDerivatives<S = f64> {
    /// `v̇` of [`contact_dynamics`](super::contact_dynamics), `[nv]`: the point
    /// the derivatives are taken at.
    pub ddq: Vec<S>,
    /// `λ` there, `[nc]`.
    pub lambda: Vec<S>,
    /// `∂v̇/∂q`, `[nv x nv]`.
    pub ddq_dq: Vec<S>,
    /// `∂v̇/∂v`, `[nv x nv]`.
    pub ddq_dv: Vec<S>,
    /// `∂v̇/∂τ`, `[nv x nv]`: `M⁻¹ - X Λ⁻¹ Xᵀ`, `X = M⁻¹ J_cᵀ`.
    pub ddq_dtau: Vec<S>,
    /// `∂λ/∂q`, `[nc x nv]`.
    pub dlambda_dq: Vec<S>,
    /// `∂λ/∂v`, `[nc x nv]`.
    pub dlambda_dv: Vec<S>,
    /// `∂λ/∂τ`, `[nc x nv]`.
    pub dlambda_dtau: Vec<S>,
}

/// The derivatives of [`impulse_dynamics`]: `v⁺` and the impulse `Λ` with
/// respect to `q` (tangent space, at fixed pre-impact `v`) and to the
/// pre-impact `v`. Row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct ImpulseDynamicsDerivatives<S = f64> {
    /// `∂v⁺/∂q`, `[nv x nv]`.
    pub dvplus_dq: Vec<S>,
    /// `∂v⁺/∂v`, `[nv x nv]`: of `v⁺` itself, `I + M⁻¹ J_cᵀ ∂Λ/∂v` (Pinocchio's
    /// `data.ddq_dv` is this minus the identity).
    pub dvplus_dv: Vec<S>,
    /// `∂Λ/∂q`, `[nc x nv]`.
    pub dimpulse_dq: Vec<S>,
    /// `∂Λ/∂v`, `[nc x nv]`.
    pub dimpulse_dv: Vec<S>,
}

/// The residual `(τ-rows, contact rows)` derivatives and `J_c` left by
/// [`residual_derivatives`].
struct Residual<S> {
    /// `∂F/∂q`, `[(nv + nc) x nv]` row-major, tangent space.
    dq: Vec<S>,
    /// `∂F/∂v`, `[(nv + nc) x nv]` row-major.
    dv: Vec<S>,
    /// `J_c`, `[nc x nv]` row-major.
    jc: Vec<S>,
}

/// Which motion of the contact frames the contact rows of
/// [`residual_derivatives`] differentiate.
#[derive(Clone, Copy, PartialEq)]
enum ContactRows {
    /// Their acceleration at the pass's `a` (a point's classical one in
    /// world axes, a 6-D contact's spatial one in its axes).
    Acceleration,
    /// Their velocity at the pass's `v` (the impulse's `J_c v⁺`).
    Velocity,
}

/// One pass of the RNEA derivatives ([`run`]) at `(q, v, a)` with the contact
/// forces `λ` as external forces on their bodies, then the contact rows from
/// the same pass's kinematic columns ([`frame_columns`]):
///
/// - the `τ` rows: `∂(rnea(q, v, a) - J_cᵀ λ)/∂(q, v)` at fixed `λ`. The pass
///   holds each force fixed on its body; a point's `λ` is fixed in world axes
///   instead, which adds `J_lin,rᵀ (J_ang,c × λ_f)` (the frame's LOCAL
///   Jacobian columns, `λ_f = Rᵀ λ`) at `(r, c)`; a 6-D contact's wrench is
///   fixed in its frame, as the pass's.
/// - the contact rows: the derivative of their acceleration at `a`, or with
///   [`ContactRows::Velocity`] of their velocity at `v`.
///
/// Gravity in the `τ` rows as `matrices` says ([`Matrices::All`] with it,
/// [`Matrices::NoGravity`] without). `M` is left in `data.mass_matrix`.
#[allow(clippy::too_many_arguments)]
fn residual_derivatives<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    a: &[S],
    lambda: &[S],
    contacts: &[Contact],
    matrices: Matrices,
    contact_rows_of: ContactRows,
) -> Residual<S> {
    let (nv, nc) = (model.nv, contact_rows(contacts));
    run(
        model,
        data,
        q,
        v,
        a,
        External::Contacts(contacts, lambda),
        matrices,
    );
    let gravity = matrices == Matrices::All;
    let mut dq = vec![S::zero(); (nv + nc) * nv];
    let mut dv = vec![S::zero(); (nv + nc) * nv];
    dq[..nv * nv].copy_from_slice(&data.derivatives.dtau_dq);
    dv[..nv * nv].copy_from_slice(&data.derivatives.dtau_dv);
    let mut jc = vec![S::zero(); nc * nv];
    let mut row = 0;
    for contact in contacts {
        let f = frame_columns(model, data, contact.frame, gravity);
        match contact.kind {
            ContactKind::Point => {
                let l = &lambda[row..row + 3];
                let l = f.rotation().transpose_mul(&Vector3([l[0], l[1], l[2]]));
                for &c in &f.support {
                    let turned = f.j[c].angular.cross(&l);
                    for &r in &f.support {
                        dq[r * nv + c] = dq[r * nv + c] + f.j[r].linear.dot(&turned);
                    }
                    let (x_q, x_v) = match contact_rows_of {
                        ContactRows::Acceleration => f.classical_world_columns(c),
                        ContactRows::Velocity => {
                            let d =
                                f.moved(c, &f.v, &f.dv_dq[c], ReferenceFrame::LocalWorldAligned);
                            (d.linear, *f.rotation() * f.j[c].linear)
                        }
                    };
                    let j = *f.rotation() * f.j[c].linear;
                    for k in 0..3 {
                        dq[(nv + row + k) * nv + c] = x_q.0[k];
                        dv[(nv + row + k) * nv + c] = x_v.0[k];
                        jc[(row + k) * nv + c] = j.0[k];
                    }
                }
            }
            ContactKind::Frame6d => {
                for &c in &f.support {
                    let (x_q, x_v) = match contact_rows_of {
                        ContactRows::Acceleration => (f.da_dq[c], f.da_dv[c]),
                        ContactRows::Velocity => (f.dv_dq[c], f.j[c]),
                    };
                    let (x_q, x_v, j) = (x_q.to_array(), x_v.to_array(), f.j[c].to_array());
                    for k in 0..6 {
                        dq[(nv + row + k) * nv + c] = x_q[k];
                        dv[(nv + row + k) * nv + c] = x_v[k];
                        jc[(row + k) * nv + c] = j[k];
                    }
                }
            }
        }
        row += contact.kind.rows();
    }
    Residual { dq, dv, jc }
}

/// The derivatives of the stacked contact drift `γ(q, v)` ([`contact_drift`](super::contact_drift)):
/// `(dγ_dq, dγ_dv)`, each `[nc x nv]` row-major, `dγ_dq` in the tangent space
/// (a point contact's rows: the classical acceleration of its origin in world
/// axes at `v̇ = 0`; a 6-D contact's: its spatial acceleration in its own
/// axes). Analytical: one forward pass of the kinematic derivatives
/// ([`super::frame_velocity_derivatives`]'s), the point rows through
/// `∂(R (a_lin + ω × v_lin))`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, a contact's
/// frame is not a frame index, or `data` was built for another model; checked
/// before anything is written.
pub fn contact_drift_derivatives<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    contacts: &[Contact],
) -> Result<(Vec<S>, Vec<S>), InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_contacts(model, contacts)?;
    let (nv, nc) = (model.nv, contact_rows(contacts));
    let zeros = vec![S::zero(); nv];
    let lambda = vec![S::zero(); nc];
    let r = residual_derivatives(
        model,
        data,
        q,
        v,
        &zeros,
        &lambda,
        contacts,
        Matrices::Kinematics,
        ContactRows::Acceleration,
    );
    Ok((r.dq[nv * nv..].to_vec(), r.dv[nv * nv..].to_vec()))
}

/// The derivatives of [`contact_inverse_dynamics`](super::contact_inverse_dynamics) `τ(q, v, v̇, λ) = rnea(q,
/// v, v̇) - J_cᵀ λ` with respect to `q` (tangent space, `λ` fixed in its rows'
/// axes), `v`, `v̇` and `λ`: `(dtau_dq, dtau_dv, dtau_da, dtau_dlambda)`,
/// `[nv x nv]` three times then `[nv x nc]` (`-J_cᵀ`), row-major.
/// Analytical: one pass of the RNEA derivatives with `λ` as external forces
/// (Pinocchio's `computeRNEADerivatives(.., fext)`), a point's force held
/// fixed in world axes rather than on its body.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv` / `nc`, a
/// contact's frame is not a frame index, or `data` was built for another
/// model; checked before anything is written.
pub fn contact_inverse_dynamics_derivatives<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    ddq: &[S],
    lambda: &[S],
    contacts: &[Contact],
) -> Result<(Vec<S>, Vec<S>, Vec<S>, Vec<S>), InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_v(model, "ddq", ddq.len())?;
    check_contacts(model, contacts)?;
    let (nv, nc) = (model.nv, contact_rows(contacts));
    check_len("lambda", lambda.len(), nc)?;
    let r = residual_derivatives(
        model,
        data,
        q,
        v,
        ddq,
        lambda,
        contacts,
        Matrices::All,
        ContactRows::Acceleration,
    );
    let dl = (0..nv * nc)
        .map(|k| -r.jc[(k % nc) * nv + k / nc])
        .collect();
    Ok((
        r.dq[..nv * nv].to_vec(),
        r.dv[..nv * nv].to_vec(),
        data.mass_matrix.clone(),
        dl,
    ))
}

/// The derivatives of [`contact_dynamics`](super::contact_dynamics) with respect to `q`, `v` and `τ`
/// at fixed damping `μ` (Pinocchio: `constraintDynamics` then
/// `computeConstraintDynamicsDerivatives`, point contacts as `CONTACT_3D` in
/// LOCAL_WORLD_ALIGNED, 6-D ones as `CONTACT_6D` in LOCAL). By the implicit
/// function theorem on the residual `F = (M v̇ + h - τ - J_cᵀ λ, J_c v̇ + γ +
/// μ λ)`: `∂(v̇, λ)/∂x = -K⁻¹ ∂F/∂x`, `K = [[M, -J_cᵀ], [J_c, μ I]]`.
/// Analytically, as Pinocchio: `∂F/∂(q, v)` is one pass of the RNEA
/// derivatives at `(q, v, v̇)` with the contact forces as external forces
/// (the derivatives of [`contact_inverse_dynamics`](super::contact_inverse_dynamics)) and the contact points'
/// acceleration derivatives from that pass's kinematic columns, and `K⁻¹`
/// goes through the tree-sparse factors of `M` and `L D Lᵀ` of `Λ` (no dense
/// inverse). `λ` keeps its meaning at a perturbed `q` (world axes for a
/// point, the moving contact frame's axes for a 6-D contact).
///
/// With `damping > 0` these are the exact derivatives of the damped solution
/// (`J_c v̇ + γ = -μ λ`), not of the rigid one: for a full-rank contact set
/// they differ from the rigid derivatives by `O(μ)`; for a rank-deficient set
/// they are finite where the rigid ones do not exist.
///
/// `q: [nq]`, `v: [nv]`, `tau: [nv]`, `damping ≥ 0`; `data.mass_matrix` holds `M`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, a contact's
/// frame is not a frame index, or `data` was built for another model; checked
/// before anything is written.
pub fn contact_dynamics_derivatives<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    tau: &[S],
    contacts: &[Contact],
    damping: S,
) -> Result<ContactDynamicsDerivatives<S>, InputError> {
    contact_derivatives(model, data, q, v, tau, contacts, None, damping, true)
}

/// [`contact_dynamics_derivatives`] of [`contact_dynamics_masked`](super::contact_dynamics_masked):
/// with the run-time contact mask `active: [nc]` (1 for a row of a contact
/// in contact, 0 otherwise), equal to [`contact_dynamics_derivatives`] on
/// the active contacts alone, the inactive rows of `λ`'s derivatives zero.
///
/// # Errors
/// As [`contact_dynamics_derivatives`], and [`InputError::Length`] when
/// `active` does not have length `nc`.
#[allow(clippy::too_many_arguments)]
pub fn contact_dynamics_derivatives_masked<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    tau: &[S],
    contacts: &[Contact],
    active: &[S],
    damping: S,
) -> Result<ContactDynamicsDerivatives<S>, InputError> {
    contact_derivatives(
        model,
        data,
        q,
        v,
        tau,
        contacts,
        Some(active),
        damping,
        true,
    )
}

/// [`contact_dynamics_derivatives`], masked by `active` when given; without
/// `forces`, the derivatives of `λ` are left empty (the step's
/// linearization reads those of `v̇` only).
#[allow(clippy::too_many_arguments)]
pub(crate) fn contact_derivatives<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    tau: &[S],
    contacts: &[Contact],
    active: Option<&[S]>,
    damping: S,
    forces: bool,
) -> Result<ContactDynamicsDerivatives<S>, InputError> {
    let (ddq, lambda, kkt) = contact_forward(model, data, q, v, tau, contacts, active, damping)?;
    let nv = model.nv;
    let mut r = residual_derivatives(
        model,
        data,
        q,
        v,
        &ddq,
        &lambda,
        contacts,
        Matrices::All,
        ContactRows::Acceleration,
    );
    mask_contact_rows(nv, &mut r, active);
    let inverse = kkt.inverse(model, data);
    let (ddq_dq, dlambda_dq) = kkt.implicit(model, data, &inverse, &r.dq, forces);
    let (ddq_dv, dlambda_dv) = kkt.implicit(model, data, &inverse, &r.dv, forces);
    // ∂F/∂τ = [-I; 0]: -K⁻¹ [-I; 0] = [P; -Qᵀ].
    let nc = if forces { contact_rows(contacts) } else { 0 };
    let dlambda_dtau = (0..nc * nv)
        .map(|k| -inverse.q[(k % nv) * nc + k / nv])
        .collect();
    Ok(ContactDynamicsDerivatives {
        ddq,
        lambda,
        ddq_dq,
        ddq_dv,
        ddq_dtau: inverse.p,
        dlambda_dq,
        dlambda_dv,
        dlambda_dtau,
    })
}

/// The contact rows of `r`'s derivatives scaled by their weights in `active`.
fn mask_contact_rows<S: Scalar>(nv: usize, r: &mut Residual<S>, active: Option<&[S]>) {
    if let Some(a) = active {
        for d in [&mut r.dq, &mut r.dv] {
            let rows = masked(&d[nv * nv..], Some(a));
            d[nv * nv..].copy_from_slice(&rows);
        }
    }
}

/// A rigid impact at the contact set (Pinocchio's `impulseDynamics(model,
/// data, q, v, contact_models, contact_datas, r_coeff)`): the velocity `v⁺`
/// just after it and the impulse `Λ` the environment applies, solving
///
/// ```text
/// [ M    J_cᵀ ] [ v⁺ ]   [ M v        ]
/// [ J_c  -μ I ] [ -Λ ] = [ -e J_c v   ]
/// ```
///
/// so `M (v⁺ - v) = J_cᵀ Λ` and `J_c v⁺ = -e J_c v - μ Λ` (`e = restitution`, 0
/// for a plastic impact: the contacts stop; `μ = damping`, 0 for rigid
/// contacts). By the factors of [`contact_dynamics`](super::contact_dynamics): `Λ = -(1 + e) Λ_c⁻¹ J_c
/// v`, `v⁺ = v + M⁻¹ J_cᵀ Λ`, `Λ_c = J_c M⁻¹ J_cᵀ + μ I` (singular for a
/// rank-deficient set without damping, as in [`contact_dynamics`](super::contact_dynamics)).
///
/// `q: [nq]`, `v: [nv]` (before the impact), `restitution` in `[0, 1]`,
/// `damping ≥ 0`;
/// returns `(v⁺: [nv], Λ: [nc])` (N·s, and N·m·s for a 6-D contact's angular
/// rows, in the rows of [`contact_jacobian`](super::contact_jacobian)).
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, a contact's
/// frame is not a frame index, or `data` was built for another model; checked
/// before anything is written.
pub fn impulse_dynamics<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    contacts: &[Contact],
    restitution: S,
    damping: S,
) -> Result<(Vec<S>, Vec<S>), InputError> {
    let (v_plus, impulse, _) =
        impulse_forward(model, data, q, v, contacts, None, restitution, damping)?;
    Ok((v_plus, impulse))
}

/// [`impulse_dynamics`] with a run-time contact mask `active: [nc]` (1 for
/// a row of a contact that lands, 0 otherwise; see
/// [`contact_dynamics_masked`](super::contact_dynamics_masked)): equal to
/// [`impulse_dynamics`] on the active contacts alone, the inactive rows of
/// the impulse zero.
///
/// # Errors
/// As [`impulse_dynamics`], and [`InputError::Length`] when `active` does
/// not have length `nc`.
#[allow(clippy::too_many_arguments)]
pub fn impulse_dynamics_masked<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    contacts: &[Contact],
    active: &[S],
    restitution: S,
    damping: S,
) -> Result<(Vec<S>, Vec<S>), InputError> {
    let (v_plus, impulse, _) = impulse_forward(
        model,
        data,
        q,
        v,
        contacts,
        Some(active),
        restitution,
        damping,
    )?;
    Ok((v_plus, impulse))
}

/// [`impulse_dynamics`] (masked by `active` when given) and the factors of
/// its KKT matrix, those of `M` in `data.ltdl`.
#[allow(clippy::too_many_arguments)]
fn impulse_forward<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    contacts: &[Contact],
    active: Option<&[S]>,
    restitution: S,
    damping: S,
) -> Result<(Vec<S>, Vec<S>, Kkt<S>), InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_active(contacts, active)?;
    let jc = contact_jacobian(model, data, q, contacts)?;
    let nv = model.nv;
    crba(model, data, q)?;
    let kkt = Kkt::factor_mass(model, data, jc, contacts, damping, active);
    let jv: Vec<S> = (kkt.jacobian().chunks(nv))
        .map(|row| row.iter().zip(v).fold(S::zero(), |s, (&j, &v)| s + j * v))
        .collect();
    // K [v⁺ - v; Λ] = [0; -(1 + e) J v].
    let scale = -(S::one() + restitution);
    let rhs: Vec<S> = core::iter::repeat_n(S::zero(), nv)
        .chain(jv.iter().map(|&x| scale * x))
        .collect();
    let (jump, impulse) = kkt.solve(model, data, &rhs, 1, Rows::All);
    let v_plus = v.iter().zip(&jump).map(|(&v, &j)| v + j).collect();
    Ok((v_plus, impulse, kkt))
}

/// The derivatives of [`impulse_dynamics`] (Pinocchio's
/// `computeImpulseDynamicsDerivatives`, whose `data.ddq_dv` is the jump's:
/// `dvplus_dv` minus the identity). By the implicit function theorem on
/// `F = (M (v⁺ - v) - J_cᵀ Λ, J_c (v⁺ + e v) + μ Λ)`, as
/// [`contact_dynamics_derivatives`], at fixed damping `μ`.
///
/// # Errors
/// As [`impulse_dynamics`].
pub fn impulse_dynamics_derivatives<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    contacts: &[Contact],
    restitution: S,
    damping: S,
) -> Result<ImpulseDynamicsDerivatives<S>, InputError> {
    impulse_derivatives(model, data, q, v, contacts, None, restitution, damping)
}

/// [`impulse_dynamics_derivatives`] of [`impulse_dynamics_masked`]: equal
/// to [`impulse_dynamics_derivatives`] on the active contacts alone, the
/// inactive rows of the impulse's derivatives zero.
///
/// # Errors
/// As [`impulse_dynamics_masked`].
#[allow(clippy::too_many_arguments)]
pub fn impulse_dynamics_derivatives_masked<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    contacts: &[Contact],
    active: &[S],
    restitution: S,
    damping: S,
) -> Result<ImpulseDynamicsDerivatives<S>, InputError> {
    impulse_derivatives(
        model,
        data,
        q,
        v,
        contacts,
        Some(active),
        restitution,
        damping,
    )
}

/// [`impulse_dynamics_derivatives`], masked by `active` when given: the
/// `τ` rows `M(q) Δv - J_cᵀ Λ` from a pass of the RNEA derivatives at zero
/// velocity without gravity (`a = Δv`, the impulse as external forces), the
/// contact rows `J_c(q) (v⁺ + e v)` from a kinematic pass at that velocity,
/// then `-K⁻¹` of them; the `v` columns in closed form.
#[allow(clippy::too_many_arguments)]
fn impulse_derivatives<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    contacts: &[Contact],
    active: Option<&[S]>,
    restitution: S,
    damping: S,
) -> Result<ImpulseDynamicsDerivatives<S>, InputError> {
    let (v_plus, impulse, kkt) =
        impulse_forward(model, data, q, v, contacts, active, restitution, damping)?;
    let (nv, nc) = (model.nv, contact_rows(contacts));
    let jump: Vec<S> = v_plus.iter().zip(v).map(|(&p, &v)| p - v).collect();
    let zeros = vec![S::zero(); nv];
    let mass = residual_derivatives(
        model,
        data,
        q,
        &zeros,
        &jump,
        &impulse,
        contacts,
        Matrices::NoGravity,
        ContactRows::Velocity,
    );
    let w: Vec<S> = v_plus
        .iter()
        .zip(v)
        .map(|(&p, &v)| p + restitution * v)
        .collect();
    let mut velocity = residual_derivatives(
        model,
        data,
        q,
        &w,
        &zeros,
        &vec![S::zero(); nc],
        contacts,
        Matrices::Kinematics,
        ContactRows::Velocity,
    );
    mask_contact_rows(nv, &mut velocity, active);
    let mut dq = mass.dq;
    dq[nv * nv..].copy_from_slice(&velocity.dq[nv * nv..]);
    let inverse = kkt.inverse(model, data);
    let (dvplus_dq, dimpulse_dq) = kkt.implicit(model, data, &inverse, &dq, true);
    // ∂F/∂v = [-M; e J_c]: `-K⁻¹` of it is `(P M - e Q J_c, -Qᵀ M - e Λ⁻¹ J_c)`,
    // and `Xᵀ M = J_c` makes it `(I - (1 + e) Q J_c, -(1 + e) Λ⁻¹ J_c)`.
    let scale = S::one() + restitution;
    let jc = kkt.jacobian();
    let product = |a: &[S], rows: usize| -> Vec<S> {
        let mut out = vec![S::zero(); rows * nv];
        for i in 0..rows {
            for j in 0..nv {
                let s = (0..nc).fold(S::zero(), |s, k| s + a[i * nc + k] * jc[k * nv + j]);
                out[i * nv + j] = -(scale * s);
            }
        }
        out
    };
    let mut dvplus_dv = product(&inverse.q, nv);
    for i in 0..nv {
        dvplus_dv[i * nv + i] = dvplus_dv[i * nv + i] + S::one();
    }
    let dimpulse_dv = product(&inverse.lambda_inv, nc);
    Ok(ImpulseDynamicsDerivatives {
        dvplus_dq,
        dvplus_dv,
        dimpulse_dq,
        dimpulse_dv,
    })
}
