//! Tangent-space derivatives of the dynamics, by running the ordinary generic
//! algorithms on dual numbers (forward mode, [`DUAL_LANES`] directions per pass).

use super::lie_group::integrate;
use super::{aba, check_len, check_q, check_v, rnea, rnea_fext};
use crate::{Data, Dual, Force, Model};

/// Directions carried by one pass of the dual-number derivatives.
pub const DUAL_LANES: usize = 8;

/// The scalar of the workspace that [`rnea_derivatives`] and
/// [`aba_derivatives`] run on.
pub type DerivativeScalar = Dual<DUAL_LANES>;

/// The three `nv x nv` Jacobians of a dynamics function `f(q, v, u)`, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Jacobians {
    /// `∂f/∂q` in the tangent space: the perturbation is `q ⊕ δ = integrate(q, δ)`.
    pub d_dq: Vec<f64>,
    /// `∂f/∂v`.
    pub d_dv: Vec<f64>,
    /// `∂f/∂u` (`u` = `a` for RNEA, `tau` for ABA).
    pub d_du: Vec<f64>,
}

/// `f(q ⊕ δ, v, u)` differentiated at `δ = 0` with respect to `δ`, `v` and `u`,
/// `DUAL_LANES` columns per evaluation of `f` (`f(model, data, q, v, u)`, a
/// dynamics function of the runtime on dual numbers, with `nv` outputs).
fn tangent_jacobians<F>(
    model: &Model,
    data: &mut Data<DerivativeScalar>,
    q: &[f64],
    v: &[f64],
    u: &[f64],
    mut f: F,
) -> Jacobians
where
    F: FnMut(
        &Model,
        &mut Data<DerivativeScalar>,
        &[DerivativeScalar],
        &[DerivativeScalar],
        &[DerivativeScalar],
    ) -> Vec<DerivativeScalar>,
{
    let nv = model.nv;
    let lift = |x: &[f64]| x.iter().map(|&x| Dual::new(x)).collect::<Vec<_>>();
    let (q0, v0, u0) = (lift(q), lift(v), lift(u));
    let mut out = [vec![0.0; nv * nv], vec![0.0; nv * nv], vec![0.0; nv * nv]];
    for (block, jac) in out.iter_mut().enumerate() {
        for first in (0..nv).step_by(DUAL_LANES) {
            let mut seeds = vec![Dual::new(0.0); nv];
            for (lane, k) in (first..nv.min(first + DUAL_LANES)).enumerate() {
                seeds[k] = Dual::variable(0.0, lane);
            }
            let seeded = |x0: &[DerivativeScalar]| -> Vec<DerivativeScalar> {
                x0.iter().zip(&seeds).map(|(x, s)| *x + *s).collect()
            };
            let y = match block {
                0 => f(model, data, &integrate(model, &q0, &seeds), &v0, &u0),
                1 => f(model, data, &q0, &seeded(&v0), &u0),
                _ => f(model, data, &q0, &v0, &seeded(&u0)),
            };
            for (i, yi) in y.iter().enumerate() {
                for (lane, k) in (first..nv.min(first + DUAL_LANES)).enumerate() {
                    jac[i * nv + k] = yi.eps[lane];
                }
            }
        }
    }
    let [d_dq, d_dv, d_du] = out;
    Jacobians { d_dq, d_dv, d_du }
}

/// The derivatives of inverse dynamics `tau = rnea(q, v, a)`: `dtau_dq`,
/// `dtau_dv`, `dtau_da` (= M), each `nv x nv` row-major, with `dtau_dq` in the
/// tangent space (perturbation `integrate(q, δ)`). Matches Pinocchio's
/// `computeRNEADerivatives(model, data, q, v, a)`; computed by the RNEA of
/// [`rnea`] on dual numbers, not by finite differences.
///
/// `q: [nq]`, `v: [nv]`, `a: [nv]`; `data` is the dual-number workspace
/// (`Data::<DerivativeScalar>::new(model)`). Fields of the result: `d_dq`,
/// `d_dv`, `d_du` (= `dtau_da`).
///
/// # Panics
/// When a slice length does not match `nq` / `nv`.
pub fn rnea_derivatives(
    model: &Model,
    data: &mut Data<DerivativeScalar>,
    q: &[f64],
    v: &[f64],
    a: &[f64],
) -> Jacobians {
    check_q(model, q.len());
    check_v(model, "v", v.len());
    check_v(model, "a", a.len());
    tangent_jacobians(model, data, q, v, a, |m, d, q, v, a| {
        rnea(m, d, q, v, a).to_vec()
    })
}

/// The derivatives of inverse dynamics with external forces held fixed,
/// `tau = rnea_fext(q, v, a, fext)`: `dtau_dq`, `dtau_dv`, `dtau_da` (= M), each
/// `nv x nv` row-major, `dtau_dq` in the tangent space (perturbation
/// `integrate(q, δ)`). Each `fext[i]` stays fixed in its joint's frame, so
/// `dtau_dq = ∂(rnea)/∂q - Σ_i ∂(J_iᵀ fext_i)/∂q` with `J_i` the LOCAL
/// Jacobian of joint i. Matches Pinocchio's `computeRNEADerivatives(model,
/// data, q, v, a, fext)`; computed by [`rnea_fext`] on dual numbers.
///
/// `q: [nq]`, `v: [nv]`, `a: [nv]`; `fext: [njoints]` indexed by joint id, the
/// wrench `[linear; angular]` (N, N·m) on the body of joint i in that joint's
/// frame, `fext[0]` (the universe) ignored. With `fext = 0` equal to
/// [`rnea_derivatives`]. Fields of the result: `d_dq`, `d_dv`, `d_du` (= `dtau_da`).
///
/// # Panics
/// When a slice length does not match `nq` / `nv` / `njoints`.
pub fn rnea_derivatives_fext(
    model: &Model,
    data: &mut Data<DerivativeScalar>,
    q: &[f64],
    v: &[f64],
    a: &[f64],
    fext: &[Force<f64>],
) -> Jacobians {
    check_q(model, q.len());
    check_v(model, "v", v.len());
    check_v(model, "a", a.len());
    check_len("fext", fext.len(), model.njoints());
    let lift = |x: [f64; 6]| Force::from_slice(&x.map(Dual::new));
    let fext: Vec<Force<DerivativeScalar>> = fext.iter().map(|f| lift(f.to_array())).collect();
    tangent_jacobians(model, data, q, v, a, |m, d, q, v, a| {
        rnea_fext(m, d, q, v, a, &fext).to_vec()
    })
}

/// The derivatives of forward dynamics `a = aba(q, v, tau)`: `ddq_dq`,
/// `ddq_dv`, `ddq_dtau` (= M⁻¹), each `nv x nv` row-major, `ddq_dq` in the
/// tangent space. Matches Pinocchio's `computeABADerivatives(model, data, q, v,
/// tau)` (whose Python binding returns `(ddq_dq, ddq_dv, Minv)`); computed by
/// the ABA of [`aba`] on dual numbers. Equivalently `ddq_dq = -M⁻¹ dtau_dq` and
/// `ddq_dv = -M⁻¹ dtau_dv` at `a = aba(q, v, tau)`.
///
/// `q: [nq]`, `v: [nv]`, `tau: [nv]`. Fields of the result: `d_dq`, `d_dv`,
/// `d_du` (= `ddq_dtau`).
///
/// # Panics
/// When a slice length does not match `nq` / `nv`.
pub fn aba_derivatives(
    model: &Model,
    data: &mut Data<DerivativeScalar>,
    q: &[f64],
    v: &[f64],
    tau: &[f64],
) -> Jacobians {
    check_q(model, q.len());
    check_v(model, "v", v.len());
    check_v(model, "tau", tau.len());
    tangent_jacobians(model, data, q, v, tau, |m, d, q, v, tau| {
        aba(m, d, q, v, tau).to_vec()
    })
}
