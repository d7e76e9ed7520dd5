//! Derivatives of the contact quantities in the tangent space: of the drift,
//! of the contact inverse dynamics (dual numbers through the functions,
//! the runtime's `tangent` module), and of the contact and impulse dynamics by the
//! implicit function theorem: `(v̇, λ)` is the root of a residual `F(x, v̇, λ)`
//! whose Jacobian in `(v̇, λ)` is the KKT matrix `K` that the forward solve
//! factors, so `∂(v̇, λ)/∂x = -K⁻¹ ∂F/∂x`, with `∂F/∂x` by dual numbers at
//! fixed `(v̇, λ)` and `K⁻¹` applied through the same tree-sparse factors of
//! `M` and `L D Lᵀ` of `Λ` (no dense inverse).

use super::contact::{
    contact_acceleration, contact_drift, contact_dynamics, contact_inverse_dynamics,
    contact_jacobian, contact_rows, Kkt,
};
use super::crba::crba;
use super::derivatives::Rows;
use super::tangent::{tangent_jacobian, Arg};
use super::{check_data, check_len, check_q, check_v};
use crate::error::InputError;
use crate::{Contact, Data, Dual, Model, Scalar};

/// The derivatives of [`contact_dynamics`]: `(v̇, λ)` with respect to `q`
/// (tangent space), `v` and `τ`. Row-major; `nc =` [`contact_rows`].
#[derive(Clone, Debug, PartialEq)]
pub struct ContactDynamicsDerivatives<S = f64> {
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

/// A slice of `S` as duals with no tangent.
fn lift<S: Scalar, const N: usize>(x: &[S]) -> Vec<Dual<N, S>> {
    x.iter().map(|&x| Dual::new(x)).collect()
}

/// `-K⁻¹ d` for the stacked residual derivatives `d: [(nv + nc) x cols]`:
/// the derivative blocks `(of v̇ or v⁺: [nv x cols], of λ or Λ: [nc x cols])`.
fn implicit<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    kkt: &Kkt<S>,
    d: &[S],
    cols: usize,
) -> (Vec<S>, Vec<S>) {
    let minus: Vec<S> = d.iter().map(|&x| -x).collect();
    kkt.solve(model, data, &minus, cols, Rows::All)
}

/// The derivatives of the stacked contact drift `γ(q, v)` ([`contact_drift`]):
/// `(dγ_dq, dγ_dv)`, each `[nc x nv]` row-major, `dγ_dq` in the tangent space
/// (a point contact's rows: the classical acceleration of its origin in world
/// axes at `v̇ = 0`; a 6-D contact's: its spatial acceleration in its own axes).
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
    contact_drift(model, data, q, v, contacts)?;
    let args = [Arg::Configuration(q), Arg::Vector(v)];
    let (_, mut d) = tangent_jacobian(model, data, &args, |data, x| {
        contact_drift(model, data, &x[0], &x[1], contacts)
    })?;
    let dv = d.pop().expect("two blocks");
    Ok((d.pop().expect("two blocks"), dv))
}

/// The derivatives of [`contact_inverse_dynamics`] `τ(q, v, v̇, λ) = rnea(q,
/// v, v̇) - J_cᵀ λ` with respect to `q` (tangent space, `λ` fixed in its rows'
/// axes), `v`, `v̇` and `λ`: `(dtau_dq, dtau_dv, dtau_da, dtau_dlambda)`,
/// `[nv x nv]` three times then `[nv x nc]` (`-J_cᵀ`), row-major.
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
    contact_inverse_dynamics(model, data, q, v, ddq, lambda, contacts)?;
    let args = [
        Arg::Configuration(q),
        Arg::Vector(v),
        Arg::Vector(ddq),
        Arg::Vector(lambda),
    ];
    let (_, d) = tangent_jacobian(model, data, &args, |data, x| {
        contact_inverse_dynamics(model, data, &x[0], &x[1], &x[2], &x[3], contacts)
    })?;
    let [dq, dv, da, dl]: [Vec<S>; 4] = d.try_into().expect("four blocks");
    Ok((dq, dv, da, dl))
}

/// The derivatives of [`contact_dynamics`] with respect to `q`, `v` and `τ`
/// at fixed damping `μ` (Pinocchio: `constraintDynamics` then
/// `computeConstraintDynamicsDerivatives`, point contacts as `CONTACT_3D` in
/// LOCAL_WORLD_ALIGNED, 6-D ones as `CONTACT_6D` in LOCAL). By the implicit
/// function theorem on the residual `F = (M v̇ + h - τ - J_cᵀ λ, J_c v̇ + γ +
/// μ λ)`: `∂(v̇, λ)/∂x = -K⁻¹ ∂F/∂x`, `K = [[M, -J_cᵀ], [J_c, μ I]]`, with
/// `∂F/∂(q, v)` the derivatives of [`contact_inverse_dynamics`] and of the
/// contact acceleration `J_c v̇ + γ` at fixed `(v̇, λ)`, and `K⁻¹` through the
/// factors the forward solve uses. `λ` keeps its meaning at a perturbed `q`
/// (world axes for a point, the moving contact frame's axes for a 6-D
/// contact).
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
    let (ddq, lambda) = contact_dynamics(model, data, q, v, tau, contacts, damping)?;
    let nv = model.nv;
    let args = [Arg::Configuration(q), Arg::Vector(v)];
    let (_, d) = tangent_jacobian(model, data, &args, |data, x| {
        let (a, l) = (lift(&ddq), lift(&lambda));
        let mut f = contact_inverse_dynamics(model, data, &x[0], &x[1], &a, &l, contacts)?;
        f.extend(contact_acceleration(
            model,
            data,
            &x[0],
            &x[1],
            Some(&a),
            contacts,
        ));
        Ok(f)
    })?;
    let jc = contact_jacobian(model, data, q, contacts)?;
    let kkt = Kkt::factor(model, data, q, jc, damping)?;
    let (ddq_dq, dlambda_dq) = implicit(model, data, &kkt, &d[0], nv);
    let (ddq_dv, dlambda_dv) = implicit(model, data, &kkt, &d[1], nv);
    // ∂F/∂τ = [-I; 0].
    let nc = contact_rows(contacts);
    let mut identity = vec![S::zero(); (nv + nc) * nv];
    for k in 0..nv {
        identity[k * nv + k] = S::one();
    }
    let (ddq_dtau, dlambda_dtau) = kkt.solve(model, data, &identity, nv, Rows::Branch);
    Ok(ContactDynamicsDerivatives {
        ddq_dq,
        ddq_dv,
        ddq_dtau,
        dlambda_dq,
        dlambda_dv,
        dlambda_dtau,
    })
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
/// contacts). By the factors of [`contact_dynamics`]: `Λ = -(1 + e) Λ_c⁻¹ J_c
/// v`, `v⁺ = v + M⁻¹ J_cᵀ Λ`, `Λ_c = J_c M⁻¹ J_cᵀ + μ I` (singular for a
/// rank-deficient set without damping, as in [`contact_dynamics`]).
///
/// `q: [nq]`, `v: [nv]` (before the impact), `restitution` in `[0, 1]`,
/// `damping ≥ 0`;
/// returns `(v⁺: [nv], Λ: [nc])` (N·s, and N·m·s for a 6-D contact's angular
/// rows, in the rows of [`contact_jacobian`]).
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
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    let jc = contact_jacobian(model, data, q, contacts)?;
    let nv = model.nv;
    let jv: Vec<S> = jc
        .chunks(nv)
        .map(|row| row.iter().zip(v).fold(S::zero(), |s, (&j, &v)| s + j * v))
        .collect();
    let kkt = Kkt::factor(model, data, q, jc, damping)?;
    // K [v⁺ - v; Λ] = [0; -(1 + e) J v].
    let scale = -(S::one() + restitution);
    let rhs: Vec<S> = core::iter::repeat_n(S::zero(), nv)
        .chain(jv.iter().map(|&x| scale * x))
        .collect();
    let (jump, impulse) = kkt.solve(model, data, &rhs, 1, Rows::All);
    let v_plus = v.iter().zip(&jump).map(|(&v, &j)| v + j).collect();
    Ok((v_plus, impulse))
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
    let (v_plus, impulse) = impulse_dynamics(model, data, q, v, contacts, restitution, damping)?;
    let (nv, nc) = (model.nv, contact_rows(contacts));
    check_len("impulse", impulse.len(), nc)?;
    let args = [Arg::Configuration(q), Arg::Vector(v)];
    let (_, d) = tangent_jacobian(model, data, &args, |data, x| {
        let (q, v) = (&x[0], &x[1]);
        let (v_plus, impulse) = (lift(&v_plus), lift(&impulse));
        let (e, mu) = (Dual::new(restitution), Dual::new(damping));
        let jc = contact_jacobian(model, data, q, contacts)?;
        let m = crba(model, data, q)?;
        let mut f: Vec<_> = (0..nv)
            .map(|i| {
                let mv = (0..nv).fold(Dual::new(S::zero()), |s, k| {
                    s + m[i * nv + k] * (v_plus[k] - v[k])
                });
                (0..nc).fold(mv, |s, r| s - jc[r * nv + i] * impulse[r])
            })
            .collect();
        f.extend((0..nc).map(|r| {
            (0..nv).fold(mu * impulse[r], |s, k| {
                s + jc[r * nv + k] * (v_plus[k] + e * v[k])
            })
        }));
        Ok(f)
    })?;
    let jc = contact_jacobian(model, data, q, contacts)?;
    let kkt = Kkt::factor(model, data, q, jc, damping)?;
    let (dvplus_dq, dimpulse_dq) = implicit(model, data, &kkt, &d[0], nv);
    let (dvplus_dv, dimpulse_dv) = implicit(model, data, &kkt, &d[1], nv);
    Ok(ImpulseDynamicsDerivatives {
        dvplus_dq,
        dvplus_dv,
        dimpulse_dq,
        dimpulse_dv,
    })
}
