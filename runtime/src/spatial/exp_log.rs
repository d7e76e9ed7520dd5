//! Exponential and logarithm maps of SO(3) and SE(3) and their Jacobians
//! (Pinocchio's `exp3`, `log3`, `Jexp3`, `Jlog3`, `exp6`, `log6`, `Jexp6`,
//! `Jlog6` of `pinocchio/spatial/explog.hpp`), generic over [`Scalar`].
//!
//! Twists are `[v; ω]` (linear first); rotation vectors `ω` have the angle
//! `θ = |ω|` (rad). Jacobians are Pinocchio's right (body-frame) Jacobians:
//! `log6(M exp6(δ)) ≈ log6(M) + Jlog6(M) δ` and
//! `exp6(m + δ) ≈ exp6(m) exp6(Jexp6(m) δ)`.
//!
//! # Branches
//! Every formula singular at θ = 0 switches to a Taylor series below
//! Pinocchio's thresholds (`ε^(1/3)` or `ε^(1/4)` with ε the f64 epsilon), and
//! `log3` switches to a quaternion extraction near θ = π. The switch is a
//! [`Scalar::select`], so a trace keeps both sides: each side is finite
//! everywhere (a denominator of the exact side is replaced by 1 wherever the
//! series is chosen), so no NaN or infinity appears on either side, and tracing
//! at constant inputs (zero rotation included) folds only finite constants.

use super::{Matrix3, Matrix6, Motion, Scalar, Transform, Vector3};

/// The f64 machine epsilon (Eigen's `NumTraits<double>::epsilon()`).
pub(crate) const EPS: f64 = f64::EPSILON;

/// Pinocchio's `TaylorSeriesExpansion<double>::precision<2>()`, `ε^(1/3)`.
pub(crate) fn precision2() -> f64 {
    EPS.powf(1.0 / 3.0)
}

/// Pinocchio's `TaylorSeriesExpansion<double>::precision<3>()`, `ε^(1/4)`.
pub(crate) fn precision3() -> f64 {
    EPS.powf(0.25)
}

/// A comparison of two scalars, decided by [`Scalar::select`] (`c > 0`) so that
/// a trace records it instead of taking one branch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Choice<S> {
    c: S,
    when_positive: bool,
}

impl<S: Scalar> Choice<S> {
    /// `a < b`.
    pub(crate) fn lt(a: S, b: S) -> Self {
        Self {
            c: b - a,
            when_positive: true,
        }
    }

    /// `a > b`.
    pub(crate) fn gt(a: S, b: S) -> Self {
        Self {
            c: a - b,
            when_positive: true,
        }
    }

    /// `a >= b`.
    pub(crate) fn ge(a: S, b: S) -> Self {
        Self {
            c: b - a,
            when_positive: false,
        }
    }

    /// `a <= b`.
    pub(crate) fn le(a: S, b: S) -> Self {
        Self {
            c: a - b,
            when_positive: false,
        }
    }

    /// `if self { yes } else { no }`.
    pub(crate) fn pick(&self, yes: S, no: S) -> S {
        if self.when_positive {
            S::select(self.c, yes, no)
        } else {
            S::select(self.c, no, yes)
        }
    }
}

/// `a bᵀ`.
fn outer<S: Scalar>(a: &Vector3<S>, b: &Vector3<S>) -> Matrix3<S> {
    Matrix3(core::array::from_fn(|i| {
        core::array::from_fn(|j| a.0[i] * b.0[j])
    }))
}

/// `s I`.
fn diagonal<S: Scalar>(s: S) -> Matrix3<S> {
    Matrix3::identity().scale(s)
}

/// The axial vector of the skew part of `r`: `½ (r₂₁ - r₁₂, r₀₂ - r₂₀, r₁₀ - r₀₁)`,
/// `sin θ` times the unit axis for a rotation (Pinocchio's `unSkew`).
fn unskew<S: Scalar>(r: &Matrix3<S>) -> Vector3<S> {
    let m = &r.0;
    Vector3([m[2][1] - m[1][2], m[0][2] - m[2][0], m[1][0] - m[0][1]]).scale(S::constant(0.5))
}

fn trace<S: Scalar>(r: &Matrix3<S>) -> S {
    r.0[0][0] + r.0[1][1] + r.0[2][2]
}

/// The coefficients of `exp3(ω) = cos θ I + (sin θ / θ) [ω]× + ((1 - cos θ)/θ²) ω ωᵀ`
/// and of the translation of `exp6`, with `θ = √(|ω|² + ε²)` (Pinocchio's
/// `exp3`, `exp6` and `quaternion::exp6`), series below `θ = ε^(1/4)`.
///
/// `sin θ = 2 s c` and `1 - cos θ = 2 s²` come from `(s, c) = sin_cos(θ/2)`,
/// which the quaternion of the rotation needs anyway: one `sin_cos` for both,
/// and `1 - cos θ` without cancellation.
pub(crate) struct So3Exp<S> {
    /// `|ω|²` (without ε²).
    pub(crate) w2: S,
    /// `θ = √(|ω|² + ε²)`.
    pub(crate) t: S,
    /// `sin(θ/2)`, `cos(θ/2)`.
    pub(crate) half: (S, S),
    /// `(1 - cos θ) / θ²`.
    pub(crate) alpha_wxw: S,
    /// `sin θ / θ`.
    pub(crate) alpha_w: S,
    /// `(1 - sin θ / θ) / θ²`.
    pub(crate) alpha_w2: S,
    /// `cos θ`.
    diag: S,
}

impl<S: Scalar> So3Exp<S> {
    pub(crate) fn new(omega: &Vector3<S>) -> Self {
        let w2 = omega.dot(omega);
        let t2 = w2 + S::constant(EPS * EPS);
        let t = t2.sqrt();
        let (s, c) = (t * S::constant(0.5)).sin_cos();
        let two_s = S::constant(2.0) * s;
        let (st, one_minus_ct) = (two_s * c, two_s * s);
        let inv_t2 = S::one() / t2;
        let exact = Choice::ge(t, S::constant(precision3()));
        let alpha_w = exact.pick(st / t, S::one() - t2 * S::constant(1.0 / 6.0));
        Self {
            w2,
            t,
            half: (s, c),
            alpha_wxw: exact.pick(
                one_minus_ct * inv_t2,
                S::constant(0.5) - t2 * S::constant(1.0 / 24.0),
            ),
            alpha_w,
            alpha_w2: exact.pick(
                (S::one() - alpha_w) * inv_t2,
                S::constant(1.0 / 6.0) - t2 * S::constant(1.0 / 120.0),
            ),
            diag: exact.pick(S::one() - one_minus_ct, S::one() - t2 * S::constant(0.5)),
        }
    }

    fn rotation(&self, omega: &Vector3<S>) -> Matrix3<S> {
        outer(omega, omega).scale(self.alpha_wxw)
            + omega.skew().scale(self.alpha_w)
            + diagonal(self.diag)
    }
}

/// The rotation `exp3(ω)` by the angle `|ω|` about `ω` (Rodrigues; Pinocchio's
/// `exp3`). `ω: [3]` rad; returns the 3x3 rotation matrix.
pub fn exp3<S: Scalar>(omega: &Vector3<S>) -> Matrix3<S> {
    So3Exp::new(omega).rotation(omega)
}

/// The rotation vector `ω = log3(R)`, `|ω| = θ ∈ [0, π]`, and `θ` (Pinocchio's
/// `log3(R, theta)`): `ω = θ / sin θ · unskew(R)` with
/// `θ = atan2(|unskew(R)|, (tr R - 1)/2)`, a series below `θ = ε^(1/3)`, and
/// near π (`cos θ < -1 + ε^(1/3)`) the axis from the largest diagonal
/// element, as Pinocchio.
///
/// Pinocchio re-orthonormalises `R` first and takes `θ = acos((tr R - 1)/2)`;
/// for a rotation matrix both give the same θ (atan2 without acos' loss of
/// precision near 0). `R` must be a rotation.
pub fn log3<S: Scalar>(r: &Matrix3<S>) -> (Vector3<S>, S) {
    let tr = trace(r);
    let cos_value = (tr - S::one()) * S::constant(0.5);
    let axial = unskew(r);
    let n2 = axial.dot(&axial);
    let sin_value = (n2 + S::constant(EPS * EPS)).sqrt();
    let theta_nominal = sin_value.atan2(cos_value);
    let exact = Choice::ge(theta_nominal, S::constant(precision2()));
    let t = exact.pick(
        theta_nominal / sin_value,
        S::one() + n2 * S::constant(1.0 / 6.0) + n2 * n2 * S::constant(3.0 / 40.0),
    );
    let (theta_singular, axis_singular) = log3_near_pi(r, tr);
    let nominal = Choice::ge(cos_value, S::constant(-1.0 + precision2()));
    let omega = Vector3(core::array::from_fn(|k| {
        nominal.pick(t * axial.0[k], theta_singular * axis_singular.0[k])
    }));
    (omega, nominal.pick(theta_nominal, theta_singular))
}

/// The angle and unit axis of a rotation near π, from the quaternion extracted
/// along the largest of `2 R_ii - tr R + 1 = 4 q_i²` (Pinocchio's
/// `compute_theta_axis`, all three computed and one selected).
fn log3_near_pi<S: Scalar>(r: &Matrix3<S>, tr: S) -> (S, Vector3<S>) {
    let m = &r.0;
    let val: [S; 3] = core::array::from_fn(|i| S::constant(2.0) * m[i][i] - tr + S::one());
    let candidates: [(S, Vector3<S>); 3] = core::array::from_fn(|i0| {
        let (i1, i2) = ((i0 + 1) % 3, (i0 + 2) % 3);
        // 4 q_i² ≥ 0 up to rounding: clamp so that no side of the selection is NaN.
        let clamped = S::select(val[i0], val[i0], S::zero());
        let sign = Choice::ge(m[i2][i1], m[i1][i2]).pick(S::one(), -S::one());
        let s = (clamped + S::constant(EPS + EPS * EPS)).sqrt() * sign;
        let inv_2s = S::one() / (S::constant(2.0) * s);
        let mut axis = [S::zero(); 3];
        axis[i0] = s * S::constant(0.5);
        axis[i1] = inv_2s * (m[i1][i0] + m[i0][i1]);
        axis[i2] = inv_2s * (m[i2][i0] + m[i0][i2]);
        let w = inv_2s * (m[i2][i1] - m[i1][i2]);
        let axis = Vector3(axis);
        let norm = axis.dot(&axis).sqrt();
        let angle = S::constant(2.0) * norm.atan2(w);
        (angle, axis.scale(S::one() / norm))
    });
    let pick = |a: &dyn Fn(usize) -> S| {
        Choice::ge(val[0], val[1]).pick(
            Choice::ge(val[0], val[2]).pick(a(0), a(2)),
            Choice::ge(val[1], val[2]).pick(a(1), a(2)),
        )
    };
    let theta = pick(&|i| candidates[i].0);
    let axis = Vector3(core::array::from_fn(|k| pick(&|i| candidates[i].1 .0[k])));
    (theta, axis)
}

/// The right Jacobian of `exp3` (Pinocchio's `Jexp3`):
/// `Jexp3(ω) = (sin θ/θ) I - ((1 - cos θ)/θ²) [ω]× + ((1 - sin θ/θ)/θ²) ω ωᵀ`,
/// `θ = |ω|`, series below `ε^(1/4)`. `ω: [3]` rad; returns 3x3.
///
/// The series of the `[ω]×` coefficient is `-(½ - θ²/24)`; Pinocchio 4.1 writes
/// `-(½ + θ²/24)` there (a difference below 1e-9, since θ < 1.3e-4).
pub fn jexp3<S: Scalar>(omega: &Vector3<S>) -> Matrix3<S> {
    let k = So3Exp::new(omega);
    diagonal(k.alpha_w) - omega.skew().scale(k.alpha_wxw) + outer(omega, omega).scale(k.alpha_w2)
}

/// `θ/2`'s cotangent and the coefficients `β(θ) = 1/θ² - cot(θ/2)/(2θ)` (the
/// `ω ωᵀ` coefficient of `Jlog3`, Pinocchio's `alpha`) and `β'(θ)/θ` (of the
/// translation coupling of `Jlog6` and `Jexp6`).
///
/// Both lose digits to cancellation as θ shrinks (`β'(θ)/θ` carries an absolute
/// error of about `1000 ε/θ⁴`): Pinocchio switches to a two-term series below
/// `θ = ε^(1/4)`, where that error is still 1e-5 in `Jlog6` and 4e-8 at
/// θ = 1e-3 (measured against 50-digit arithmetic). Here the series of
/// `1/θ² - cot(θ/2)/(2θ) = Σ (-1)^(n+1) B₂ₙ/(2n)! θ^(2n-2)` (B the Bernoulli
/// numbers) runs to θ⁶ and is used below θ = 0.1: truncation below 1e-16, and
/// the closed form above it is within 1e-11.
struct LogCoefficients<S> {
    /// `θ cot(θ/2) / 2 = θ sin θ / (2 (1 - cos θ))`, series below `ε^(1/4)`.
    theta_cot: S,
    beta: S,
    beta_dot_over_theta: S,
}

impl<S: Scalar> LogCoefficients<S> {
    fn new(theta: S) -> Self {
        let (s, c) = (theta * S::constant(0.5)).sin_cos();
        let t2 = theta * theta;
        let tiny = Choice::lt(theta, S::constant(precision3()));
        let series = Choice::lt(theta, S::constant(0.1));
        let cot = c / tiny.pick(S::one(), s);
        let theta_cot = tiny.pick(
            S::one() - t2 * S::constant(1.0 / 12.0),
            S::constant(0.5) * theta * cot,
        );
        let tinv = S::one() / series.pick(S::one(), theta);
        let t2inv = tinv * tinv;
        let s_safe = series.pick(S::one(), s);
        let horner = |coefficients: [f64; 4]| {
            coefficients
                .iter()
                .rev()
                .fold(S::zero(), |acc, &k| acc * t2 + S::constant(k))
        };
        Self {
            theta_cot,
            beta: series.pick(
                horner([1.0 / 12.0, 1.0 / 720.0, 1.0 / 30240.0, 1.0 / 1_209_600.0]),
                t2inv - S::constant(0.5) * cot * tinv,
            ),
            // -2/θ⁴ + (1 + sin θ / θ) / (2 θ² (1 - cos θ)) with sin θ = 2 s c, 1 - cos θ = 2 s².
            beta_dot_over_theta: series.pick(
                horner([
                    1.0 / 360.0,
                    1.0 / 7560.0,
                    1.0 / 201_600.0,
                    1.0 / 5_987_520.0,
                ]),
                S::constant(-2.0) * t2inv * t2inv
                    + (S::one() + S::constant(2.0) * s * c * tinv) * t2inv
                        / (S::constant(4.0) * s_safe * s_safe),
            ),
        }
    }
}

/// The right Jacobian of `log3` at the rotation of angle `theta` and rotation
/// vector `omega = log3(R)` (Pinocchio's `Jlog3(theta, log, J)`):
/// `Jlog3 = (θ sin θ / (2 (1 - cos θ))) I + ½ [ω]× + (1/θ² - sin θ / (2θ (1 - cos θ))) ω ωᵀ`,
/// from the half angle (`sin θ / (1 - cos θ) = cot(θ/2)`, no cancellation), with
/// series near 0 (see `LogCoefficients`). Returns 3x3; `Jlog3(R) Jexp3(log3(R)) = I`.
pub fn jlog3<S: Scalar>(theta: S, omega: &Vector3<S>) -> Matrix3<S> {
    jlog3_with(&LogCoefficients::new(theta), omega)
}

fn jlog3_with<S: Scalar>(k: &LogCoefficients<S>, omega: &Vector3<S>) -> Matrix3<S> {
    outer(omega, omega).scale(k.beta) + diagonal(k.theta_cot) + omega.skew().scale(S::constant(0.5))
}

/// The displacement `exp6(m)` of the twist `m = [v; ω]` applied for unit time
/// (Pinocchio's `exp6`): rotation `exp3(ω)`, translation
/// `(sin θ/θ) v + ((1 - sin θ/θ)/θ²)(ω·v) ω + ((1 - cos θ)/θ²) ω × v`,
/// `θ = |ω|`, series below `ε^(1/4)`. Returns the placement `a_from_b` of the
/// frame b reached from a.
pub fn exp6<S: Scalar>(m: &Motion<S>) -> Transform<S> {
    let (v, omega) = (&m.linear, &m.angular);
    let k = So3Exp::new(omega);
    Transform {
        rotation: k.rotation(omega),
        translation: v.scale(k.alpha_w)
            + omega.scale(k.alpha_w2 * omega.dot(v))
            + omega.cross(v).scale(k.alpha_wxw),
    }
}

/// The twist `log6(M) = [v; ω]` with `exp6(log6(M)) = M`, `|ω| ≤ π` (Pinocchio's
/// `log6(SE3)`): `ω = log3(R)`, `v = α p - ½ ω × p + β (ω·p) ω` with
/// `α = θ sin θ / (2 (1 - cos θ))`, `β = 1/θ² - sin θ / (2θ (1 - cos θ))`,
/// from the half angle, with series near 0 (Pinocchio switches at
/// `tr R ≥ 3 - ε^(1/3)`, the same values). `M: a_from_b`; returns `[v; ω]`.
pub fn log6<S: Scalar>(m: &Transform<S>) -> Motion<S> {
    let p = &m.translation;
    let (omega, theta) = log3(&m.rotation);
    let k = LogCoefficients::new(theta);
    Motion {
        linear: p.scale(k.theta_cot) - omega.cross(p).scale(S::constant(0.5))
            + omega.scale(k.beta * omega.dot(p)),
        angular: omega,
    }
}

/// The coupling block of `Jlog6` (right factor of its top-right block):
/// `½ [p]× + (β'/θ)(ω·p) ω ωᵀ - (θ β' + 2β) p ωᵀ + (ω·p) β I + β ω pᵀ`.
fn coupling<S: Scalar>(
    theta: S,
    k: &LogCoefficients<S>,
    omega: &Vector3<S>,
    p: &Vector3<S>,
) -> Matrix3<S> {
    let (beta, beta_dot_over_theta) = (k.beta, k.beta_dot_over_theta);
    let w_t_p = omega.dot(p);
    let v3 = omega.scale(beta_dot_over_theta * w_t_p)
        - p.scale(theta * theta * beta_dot_over_theta + S::constant(2.0) * beta);
    outer(&v3, omega)
        + outer(omega, p).scale(beta)
        + diagonal(w_t_p * beta)
        + p.scale(S::constant(0.5)).skew()
}

/// The right Jacobian of `exp6` (Pinocchio's `Jexp6`):
/// `[[J3, -J3 C], [0, J3]]` with `J3 = Jexp3(ω)` and `C` the coupling of
/// `Jlog6` at `p = J3ᵀ v`; the inverse of `Jlog6(exp6(m))`. `m = [v; ω]`;
/// returns 6x6.
pub fn jexp6<S: Scalar>(m: &Motion<S>) -> Matrix6<S> {
    let (v, omega) = (&m.linear, &m.angular);
    let j3 = jexp3(omega);
    let theta = So3Exp::new(omega).t;
    // The coupling is linear in p: -J3 C(p) = J3 C(-p).
    let minus_p = -j3.transpose_mul(v);
    let c = coupling(theta, &LogCoefficients::new(theta), omega, &minus_p);
    Matrix6::from_blocks(&j3, &(j3 * c), &Matrix3::zeros(), &j3)
}

/// `Jlog6` from `θ`, `ω = log3(R)` and the translation `p` (Pinocchio's
/// `Jlog6_impl`): `[[J3, C J3], [0, J3]]`, `J3 = Jlog3(θ, ω)`.
pub(crate) fn jlog6_from_log<S: Scalar>(
    theta: S,
    omega: &Vector3<S>,
    p: &Vector3<S>,
) -> Matrix6<S> {
    let k = LogCoefficients::new(theta);
    let j3 = jlog3_with(&k, omega);
    let c = coupling(theta, &k, omega, p);
    Matrix6::from_blocks(&j3, &(c * j3), &Matrix3::zeros(), &j3)
}

/// The right Jacobian of `log6` (Pinocchio's `Jlog6`):
/// `log6(M exp6(δ)) ≈ log6(M) + Jlog6(M) δ`. `M: a_from_b`; returns 6x6
/// `[[J3, C J3], [0, J3]]` with `J3 = Jlog3(R)` and the coupling `C` of the
/// translation.
pub fn jlog6<S: Scalar>(m: &Transform<S>) -> Matrix6<S> {
    let (omega, theta) = log3(&m.rotation);
    jlog6_from_log(theta, &omega, &m.translation)
}
