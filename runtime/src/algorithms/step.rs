//! One step of semi-implicit Euler and its linearization in the tangent space.

use super::contact_derivatives::contact_derivatives;
use super::derivatives::aba_derivatives_at;
use super::lie_group::{d_integrate, integrate};
use super::{aba, check_len, check_q, check_state, check_v, ArgumentPosition};
use crate::error::InputError;
use crate::{Contact, ContactDynamicsDerivatives, Data, JointKind, Model, Scalar};

/// The actuated degrees of freedom: the indices into `v` of every dof except
/// those of a free-flyer, in order (a mimicking joint has no dof of its own). The actuation matrix `S` (`nv x nu`) has
/// a one at `(actuated_dofs(model)[k], k)` and zeros elsewhere, so `tau = S u`
/// and `nu = actuated_dofs(model).len()` (18 for Go2+Z1 on a floating base).
pub fn actuated_dofs(model: &Model) -> Vec<usize> {
    model.joints[1..]
        .iter()
        .filter(|j| !matches!(j.kind, JointKind::FreeFlyer) && j.mimic.is_none())
        .flat_map(|j| j.v_range())
        .collect()
}

/// `tau = S u`: the joint torques of the actuation `u: [nu]`, zero on the
/// free-flyer's dofs; returns `[nv]`.
fn actuate<S: Scalar>(model: &Model, u: &[S]) -> Vec<S> {
    let dofs = actuated_dofs(model);
    let mut tau = vec![S::zero(); model.nv];
    for (&dof, &uk) in dofs.iter().zip(u) {
        tau[dof] = uk;
    }
    tau
}

/// One step of semi-implicit (symplectic) Euler of the forward dynamics:
/// `a = aba(q, v, S u)`, `v⁺ = v + h a`, `q⁺ = integrate(q, h v⁺)`, with `S`
/// the actuation matrix of [`actuated_dofs`].
///
/// `q: [nq]`, `v: [nv]` (rad/s, m/s), `u: [nu]` (N·m, N), `h`: the step (s);
/// returns `(q⁺: [nq], v⁺: [nv])`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv` / `nu`, or
/// `data` was built for another model; checked before anything is written.
pub fn step<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    u: &[S],
    h: S,
) -> Result<(Vec<S>, Vec<S>), InputError> {
    check_state(model, data, q, v)?;
    check_len("u", u.len(), actuated_dofs(model).len())?;
    let tau = actuate(model, u);
    let a = aba(model, data, q, v, &tau)?;
    euler(model, q, v, a, h)
}

/// `v⁺ = v + h a`, `q⁺ = integrate(q, h v⁺)`: the update of [`step`].
fn euler<S: Scalar>(
    model: &Model,
    q: &[S],
    v: &[S],
    a: &[S],
    h: S,
) -> Result<(Vec<S>, Vec<S>), InputError> {
    let v_next: Vec<S> = v.iter().zip(a).map(|(&v, &a)| v + h * a).collect();
    let dq: Vec<S> = v_next.iter().map(|&x| h * x).collect();
    Ok((integrate(model, q, &dq)?, v_next))
}

/// The linearization `(A, B)` of one [`step`] from the Jacobians of ABA at
/// `(q, v, S u)`, by the chain rule: with `Dq = dIntegrate(q, h v⁺, ARG0)`,
/// `Dv = dIntegrate(q, h v⁺, ARG1)`,
///
/// ```text
/// A = [[Dq + h² Dv ∂a/∂q, h Dv (I + h ∂a/∂v)],    B = [[h² Dv ∂a/∂τ S],
///      [h ∂a/∂q,          I + h ∂a/∂v       ]]         [h ∂a/∂τ S     ]]
/// ```
///
/// in the error map `δx = (δq, δv)` of [`step_linearization`] (the derivative
/// of `difference(q⁺, ·)` at `q⁺` is the identity).
///
/// `q: [nq]`, `v_next: [nv]` (`v⁺`), `h` (s); `ddq_dq`, `ddq_dv`, `ddq_dtau`:
/// `[nv x nv]` row-major, as [`aba_derivatives`](super::aba_derivatives) returns them. Returns
/// `(A: [2nv x 2nv], B: [2nv x nu])` row-major.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv` / `nv x nv`;
/// checked before anything is written.
pub fn step_jacobians<S: Scalar>(
    model: &Model,
    q: &[S],
    v_next: &[S],
    h: S,
    ddq_dq: &[S],
    ddq_dv: &[S],
    ddq_dtau: &[S],
) -> Result<(Vec<S>, Vec<S>), InputError> {
    let nv = model.nv;
    check_q(model, q.len())?;
    check_v(model, "v_next", v_next.len())?;
    for (name, m) in [
        ("ddq_dq", ddq_dq),
        ("ddq_dv", ddq_dv),
        ("ddq_dtau", ddq_dtau),
    ] {
        check_len(name, m.len(), nv * nv)?;
    }
    let dofs = actuated_dofs(model);
    let nu = dofs.len();
    let hv: Vec<S> = v_next.iter().map(|&x| h * x).collect();
    let d_q = d_integrate(model, q, &hv, ArgumentPosition::Arg0)?;
    let d_v = d_integrate(model, q, &hv, ArgumentPosition::Arg1)?;
    // The rows of δv⁺ = A_vq δq + A_vv δv + B_v δu.
    let a_vq: Vec<S> = ddq_dq.iter().map(|&x| h * x).collect();
    let mut a_vv: Vec<S> = ddq_dv.iter().map(|&x| h * x).collect();
    for i in 0..nv {
        a_vv[i * nv + i] = a_vv[i * nv + i] + S::one();
    }
    let b_v: Vec<S> = (0..nv)
        .flat_map(|i| dofs.iter().map(move |&d| h * ddq_dtau[i * nv + d]))
        .collect();
    // δq⁺ = Dq δq + h Dv δv⁺.
    let h_dv = |m: &[S], cols: usize| -> Vec<S> {
        let mut out = vec![S::zero(); nv * cols];
        for i in 0..nv {
            for k in 0..nv {
                let dik = d_v[i * nv + k];
                for j in 0..cols {
                    out[i * cols + j] = out[i * cols + j] + dik * m[k * cols + j];
                }
            }
        }
        out.iter().map(|&x| h * x).collect()
    };
    let (a_qq, a_qv, b_q) = (h_dv(&a_vq, nv), h_dv(&a_vv, nv), h_dv(&b_v, nu));
    let n2 = 2 * nv;
    let mut a = vec![S::zero(); n2 * n2];
    for i in 0..nv {
        for j in 0..nv {
            a[i * n2 + j] = d_q[i * nv + j] + a_qq[i * nv + j];
            a[i * n2 + nv + j] = a_qv[i * nv + j];
            a[(nv + i) * n2 + j] = a_vq[i * nv + j];
            a[(nv + i) * n2 + nv + j] = a_vv[i * nv + j];
        }
    }
    let b = [b_q, b_v].concat();
    Ok((a, b))
}

/// One [`step`] and its linearization: `(q⁺, v⁺, A, B)` with `A: [2nv x 2nv]`
/// and `B: [2nv x nu]` row-major, the Jacobians of
/// `(difference(q⁺, q⁺(q ⊕ δq, v + δv, u + δu)), v⁺(..) - v⁺)` with respect to
/// `(δq, δv)` and `δu` at zero: `δx⁺ ≈ A δx + B δu`, `δx = (δq tangent, δv)`.
/// ABA's Jacobians come from [`aba_derivatives`](super::aba_derivatives) (analytical, Pinocchio's
/// `computeABADerivatives`), assembled by [`step_jacobians`].
///
/// `q: [nq]`, `v: [nv]`, `u: [nu]` (the actuated dofs of [`actuated_dofs`]),
/// `h`: the step (s).
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv` / `nu`, or
/// `data` was built for another model; checked before anything is written.
pub fn step_linearization<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    u: &[S],
    h: S,
) -> Result<(Vec<S>, Vec<S>, Vec<S>, Vec<S>), InputError> {
    check_state(model, data, q, v)?;
    check_len("u", u.len(), actuated_dofs(model).len())?;
    let tau = actuate(model, u);
    let a = aba(model, data, q, v, &tau)?.to_vec();
    let d = aba_derivatives_at(model, data, q, v, &a);
    let (q_next, v_next) = euler(model, q, v, &a, h)?;
    let (a, b) = step_jacobians(model, q, &v_next, h, &d.d_dq, &d.d_dv, &d.d_du)?;
    Ok((q_next, v_next, a, b))
}

/// One step of semi-implicit Euler with the feet down and its linearization:
/// [`step_linearization`] with `v̇` from [`contact_dynamics`](super::contact_dynamics) (the contact set
/// `contacts`, damping `μ`) instead of ABA, and `A`, `B` from
/// [`contact_dynamics_derivatives`](super::contact_dynamics_derivatives) by [`step_jacobians`]: `(q⁺, v⁺, A, B)`,
/// `δx⁺ ≈ A δx + B δu` in the tangent space, for an MPC whose stance does not
/// change over the step (the contact forces are those of the rigid, or damped,
/// constraint at the start of the step).
///
/// `q: [nq]`, `v: [nv]`, `u: [nu]` ([`actuated_dofs`]), `h`: the step (s),
/// `damping ≥ 0`; returns `q⁺: [nq]`, `v⁺: [nv]`, `A: [2nv x 2nv]`,
/// `B: [2nv x nu]` row-major.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv` / `nu`, a
/// contact's frame is not a frame index, or `data` was built for another
/// model; checked before anything is written.
#[allow(clippy::too_many_arguments)]
pub fn contact_step_linearization<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    u: &[S],
    h: S,
    contacts: &[Contact],
    damping: S,
) -> Result<(Vec<S>, Vec<S>, Vec<S>, Vec<S>), InputError> {
    let (q_next, v_next, a, b, _) =
        contact_step(model, data, q, v, u, h, contacts, None, damping, false)?;
    Ok((q_next, v_next, a, b))
}

/// [`contact_step_linearization`] with the run-time contact mask `active:
/// [nc]` of [`contact_dynamics_masked`](super::contact_dynamics_masked) (1
/// for a row of a contact in contact, 0 otherwise): equal to
/// [`contact_step_linearization`] on the active contacts alone, so one
/// function serves every knot of a horizon that crosses gait modes.
///
/// # Errors
/// As [`contact_step_linearization`], and [`InputError::Length`] when
/// `active` does not have length `nc`.
#[allow(clippy::too_many_arguments)]
pub fn contact_step_linearization_masked<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    u: &[S],
    h: S,
    contacts: &[Contact],
    active: &[S],
    damping: S,
) -> Result<(Vec<S>, Vec<S>, Vec<S>, Vec<S>), InputError> {
    let (q_next, v_next, a, b, _) = contact_step(
        model,
        data,
        q,
        v,
        u,
        h,
        contacts,
        Some(active),
        damping,
        false,
    )?;
    Ok((q_next, v_next, a, b))
}

/// [`contact_step_linearization_masked`] with the step's contact forces and
/// their linearization, from the same pass: `(q⁺, v⁺, A, B, λ, Λx, Λu)`,
/// `λ ≈ λ̄ + Λx δx + Λu δu` with `δx = (δq tangent, δv)` as for `A` (the
/// rows of `λ` those of [`contact_dynamics_masked`](super::contact_dynamics_masked):
/// a point's force in world axes, a 6-D contact's wrench in its frame, the
/// inactive rows zero). One call gives an MPC knot its dynamics and what
/// friction cones and unilateral constraints need, where
/// [`contact_step_linearization_masked`] and
/// [`contact_dynamics_derivatives_masked`](super::contact_dynamics_derivatives_masked)
/// would run the derivative pass twice (Crocoddyl's contact action model
/// `calcDiff` gives the same set).
///
/// Returns `q⁺: [nq]`, `v⁺: [nv]`, `A: [2nv x 2nv]`, `B: [2nv x nu]`,
/// `λ: [nc]`, `Λx: [nc x 2nv]` (`[∂λ/∂q | ∂λ/∂v]`), `Λu: [nc x nu]` (the
/// actuated columns of `∂λ/∂τ`), row-major.
///
/// # Errors
/// As [`contact_step_linearization_masked`].
#[allow(clippy::too_many_arguments)]
pub fn contact_step_linearization_forces_masked<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    u: &[S],
    h: S,
    contacts: &[Contact],
    active: &[S],
    damping: S,
) -> Result<StepWithForces<S>, InputError> {
    let (q_next, v_next, a, b, d) = contact_step(
        model,
        data,
        q,
        v,
        u,
        h,
        contacts,
        Some(active),
        damping,
        true,
    )?;
    let nv = model.nv;
    let dofs = actuated_dofs(model);
    let nc = d.lambda.len();
    let lambda_x = (0..nc)
        .flat_map(|r| {
            let (dq, dv) = (&d.dlambda_dq[r * nv..][..nv], &d.dlambda_dv[r * nv..][..nv]);
            dq.iter().chain(dv).copied().collect::<Vec<S>>()
        })
        .collect();
    let lambda_u = (0..nc)
        .flat_map(|r| dofs.iter().map(move |&k| (r, k)))
        .map(|(r, k)| d.dlambda_dtau[r * nv + k])
        .collect();
    Ok((q_next, v_next, a, b, d.lambda, lambda_x, lambda_u))
}

/// `(q⁺, v⁺, A, B, λ, Λx, Λu)` of [`contact_step_linearization_forces_masked`].
pub type StepWithForces<S> = (Vec<S>, Vec<S>, Vec<S>, Vec<S>, Vec<S>, Vec<S>, Vec<S>);

/// [`contact_step_linearization`], masked by `active` when given, with the
/// contact derivatives it was built from (those of `λ` with `forces`).
#[allow(clippy::too_many_arguments)]
fn contact_step<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    u: &[S],
    h: S,
    contacts: &[Contact],
    active: Option<&[S]>,
    damping: S,
    forces: bool,
) -> Result<
    (
        Vec<S>,
        Vec<S>,
        Vec<S>,
        Vec<S>,
        ContactDynamicsDerivatives<S>,
    ),
    InputError,
> {
    check_state(model, data, q, v)?;
    check_len("u", u.len(), actuated_dofs(model).len())?;
    let tau = actuate(model, u);
    let d = contact_derivatives(model, data, q, v, &tau, contacts, active, damping, forces)?;
    let (q_next, v_next) = euler(model, q, v, &d.ddq, h)?;
    let (a, b) = step_jacobians(model, q, &v_next, h, &d.ddq_dq, &d.ddq_dv, &d.ddq_dtau)?;
    Ok((q_next, v_next, a, b, d))
}
