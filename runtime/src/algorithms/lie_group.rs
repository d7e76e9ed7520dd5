//! Lie-group operations on the configuration space: `integrate`, `difference`
//! and their Jacobians (Pinocchio's `integrate`, `difference`, `dIntegrate`,
//! `dDifference` of `pinocchio/algorithm/joint-configuration.hpp`).
//!
//! Each joint's configuration lives in a Lie group, as Pinocchio's joint models:
//!
//! | joint | group | `q` | tangent |
//! |---|---|---|---|
//! | revolute, prismatic | ℝ (vector space) | `[θ]` or `[x]` | `[θ̇]` |
//! | continuous (unbounded revolute) | SO(2) | `[cos θ, sin θ]` | `[θ̇]` |
//! | free-flyer | SE(3) (not ℝ³ × SO(3)) | `[x y z qx qy qz qw]` | `[v; ω]` in the base frame |
//! | spherical | SO(3) | `[qx qy qz qw]` | `ω` in the joint frame |
//! | planar | SE(2) (not ℝ² × SO(2)) | `[x y cos θ sin θ]` | `[v_x v_y ω]` in the joint frame |
//!
//! and the configuration space is their product: `q ⊕ v = integrate(q, v)`
//! moves every joint along its group's exponential, `q1 ⊖ q0 =
//! difference(q0, q1)` is the tangent vector with `q0 ⊕ (q1 ⊖ q0) = q1`. The
//! Jacobians are `nv x nv`, block diagonal, taken in the tangent space on both
//! sides (right trivialisation, as Pinocchio): for `q1 = integrate(q, v)`,
//! `D0 = d_integrate(q, v, Arg0)`, `D1 = d_integrate(q, v, Arg1)`,
//! `H0 = d_difference(q, q1, Arg0)`, `H1 = d_difference(q, q1, Arg1)`:
//! `H1 D1 = I` and `H0 + H1 D0 = 0`.

use super::{check_len, check_q, check_v};
use crate::error::InputError;
use crate::spatial::exp_log::precision2;
use crate::spatial::exp_log::{jlog6_from_log, Choice};
use crate::spatial::{
    exp3, exp6, exp6_quaternion, jexp3, jexp6, jlog3, log6_quaternion, Matrix3, Matrix6, Motion,
    Quaternion, Vector3,
};
use crate::{JointKind, Model, Scalar};

/// Which argument a Jacobian is taken with respect to (Pinocchio's
/// `ArgumentPosition`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArgumentPosition {
    /// The first argument: `q` of `integrate(q, v)`, `q0` of `difference(q0, q1)`.
    Arg0,
    /// The second argument: `v` of `integrate(q, v)`, `q1` of `difference(q0, q1)`.
    Arg1,
}

/// The configuration reached from `q` by moving along `v` for unit time,
/// `q ⊕ v` (Pinocchio's `integrate(model, q, v)`).
///
/// Per joint: `q + v` for revolute and prismatic joints; the rotation of
/// `[cos θ, sin θ]` by `v` for a continuous joint; `M(q) exp6(v)` for a
/// free-flyer (translation `p + R(q) p(exp6(v))`, quaternion `quat(q) ·
/// exp3(ω)` with the sign that keeps it in `quat(q)`'s hemisphere);
/// `quat(q) · exp3(ω)` for a spherical joint (no hemisphere choice, as
/// Pinocchio's SO(3)); `M(q) exp(v)` in SE(2) for a planar joint. Unit
/// complex numbers and quaternions of continuous, free-flyer and spherical
/// joints come out renormalised to first order (`x (3 - |x|²)/2`), as
/// Pinocchio's; a planar joint's `[cos θ, sin θ]` is `R(q)` times a unit
/// vector, not renormalised (Pinocchio's SE(2)).
///
/// `q: [nq]`, `v: [nv]` (rad, m; a free-flyer's `[v; ω]` in the base frame);
/// returns `[nq]`. `integrate(q, 0) = q` for a unit `q`.
///
/// # Errors
/// [`InputError`] when `q` does not have length `nq` or `v` length `nv`;
/// checked before anything is written.
pub fn integrate<S: Scalar>(model: &Model, q: &[S], v: &[S]) -> Result<Vec<S>, InputError> {
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    let mut out = q.to_vec();
    for joint in &model.joints[1..] {
        let (qs, vs) = (joint.q_range(), joint.idx_v..);
        let (qi, vi) = (&q[qs.clone()], &v[vs]);
        let out = &mut out[qs];
        match joint.kind {
            JointKind::Universe => {}
            JointKind::Revolute { .. } | JointKind::Prismatic { .. } => out[0] = qi[0] + vi[0],
            JointKind::RevoluteUnbounded { .. } => so2_integrate(qi, vi[0], out),
            JointKind::FreeFlyer => se3_integrate(qi, &Motion::from_slice(vi), out),
            JointKind::Spherical => so3_integrate(qi, &vector3(vi), out),
            JointKind::Planar => se2_integrate(qi, vi, out),
        }
    }
    Ok(out)
}

/// The tangent vector that moves `q0` to `q1`, `q1 ⊖ q0` (Pinocchio's
/// `difference(model, q0, q1)`): `integrate(q0, difference(q0, q1)) = q1`.
///
/// Per joint: `q1 - q0` for revolute and prismatic joints; the angle from
/// `[cos, sin]` of q0 to that of q1 in `(-π, π]` (`atan2`; Pinocchio's `asin`
/// / `acos` branches give the same angle for unit inputs); for a free-flyer,
/// `log6(M(q0)⁻¹ M(q1))` (the twist, not the ℝ³ × SO(3) difference); for a
/// spherical joint `log3(quat(q0)* quat(q1))`; for a planar joint the SE(2)
/// logarithm of `M(q0)⁻¹ M(q1)`.
///
/// `q0, q1: [nq]` (unit quaternions and `[cos, sin]` pairs); returns `[nv]`.
///
/// # Errors
/// [`InputError`] when `q0` or `q1` does not have length `nq`; checked before
/// anything is written.
pub fn difference<S: Scalar>(model: &Model, q0: &[S], q1: &[S]) -> Result<Vec<S>, InputError> {
    check_len("q0", q0.len(), model.nq)?;
    check_len("q1", q1.len(), model.nq)?;
    let mut out = vec![S::zero(); model.nv];
    for joint in &model.joints[1..] {
        let qs = joint.q_range();
        let (a, b) = (&q0[qs.clone()], &q1[qs]);
        let out = &mut out[joint.v_range()];
        match joint.kind {
            JointKind::Universe => {}
            JointKind::Revolute { .. } | JointKind::Prismatic { .. } => out[0] = b[0] - a[0],
            JointKind::RevoluteUnbounded { .. } => {
                let (c, s) = so2_relative(a, b);
                out[0] = s.atan2(c);
            }
            JointKind::FreeFlyer => out.copy_from_slice(&se3_difference(a, b).to_array()),
            JointKind::Spherical => {
                let (omega, _) = so3_relative(a, b).log3();
                out.copy_from_slice(&omega.0);
            }
            JointKind::Planar => out.copy_from_slice(&se2_difference(a, b)),
        }
    }
    Ok(out)
}

/// The Jacobian of `integrate(q, v)` with respect to `q` (`Arg0`) or `v`
/// (`Arg1`), in the tangent space (Pinocchio's `dIntegrate(model, q, v, J,
/// ARG0 / ARG1)`).
///
/// Block diagonal; per joint: `1` for revolute, prismatic and continuous
/// joints; for a free-flyer, `Ad(exp6(v))⁻¹ = [[Rᵀ, -Rᵀ [p]×], [0, Rᵀ]]` with
/// respect to q and `Jexp6(v)` with respect to v; for a spherical joint
/// `exp3(-ω)` and `Jexp3(ω)`; for a planar joint the SE(2) `Ad(exp(v))⁻¹`
/// and the `(v_x, v_y, ω_z)` rows and columns of `Jexp6`.
///
/// `q: [nq]`, `v: [nv]`; returns `[nv x nv]` row-major.
///
/// # Errors
/// [`InputError`] when `q` does not have length `nq` or `v` length `nv`;
/// checked before anything is written.
pub fn d_integrate<S: Scalar>(
    model: &Model,
    q: &[S],
    v: &[S],
    arg: ArgumentPosition,
) -> Result<Vec<S>, InputError> {
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    let mut out = vec![S::zero(); model.nv * model.nv];
    for joint in &model.joints[1..] {
        let k = joint.idx_v;
        match joint.kind {
            JointKind::Universe => {}
            JointKind::Revolute { .. }
            | JointKind::Prismatic { .. }
            | JointKind::RevoluteUnbounded { .. } => out[k * model.nv + k] = S::one(),
            JointKind::FreeFlyer => {
                let m = Motion::from_slice(&v[k..k + 6]);
                let block = match arg {
                    ArgumentPosition::Arg0 => {
                        let displacement = exp6(&m);
                        let rt = displacement.rotation.transpose();
                        let top_right = Matrix3::zeros() - rt * displacement.translation.skew();
                        Matrix6::from_blocks(&rt, &top_right, &Matrix3::zeros(), &rt)
                    }
                    ArgumentPosition::Arg1 => jexp6(&m),
                };
                write_block(&mut out, model.nv, k, &block);
            }
            JointKind::Spherical => {
                let omega = vector3(&v[k..k + 3]);
                let block = match arg {
                    ArgumentPosition::Arg0 => exp3(&-omega),
                    ArgumentPosition::Arg1 => jexp3(&omega),
                };
                write_block3(&mut out, model.nv, k, &block.0);
            }
            JointKind::Planar => {
                let block = se2_d_integrate(&v[k..k + 3], arg);
                write_block3(&mut out, model.nv, k, &block);
            }
        }
    }
    Ok(out)
}

/// The Jacobian of `difference(q0, q1)` with respect to `q0` (`Arg0`) or `q1`
/// (`Arg1`), in the tangent space (Pinocchio's `dDifference(model, q0, q1, J,
/// ARG0 / ARG1)`).
///
/// Block diagonal; per joint: `-1` / `1` for revolute, prismatic and
/// continuous joints; for a free-flyer with `M = M(q0)⁻¹ M(q1) = (R, p)`,
/// `Jlog6(M)` with respect to q1 and
/// `Jlog6(M) [[-Rᵀ, [R(q1)ᵀ (p1 - p0)]× Rᵀ], [0, -Rᵀ]]` with respect to q0;
/// for a spherical joint with `R = R(q0)ᵀ R(q1)`, `Jlog3(R)` and `-Jlog3(R) Rᵀ`;
/// for a planar joint the SE(2) `Jlog` and its product with Pinocchio's
/// `[[-Rᵀ, R(q1)ᵀ [y1 - y0, x0 - x1]ᵀ], [0, -1]]`.
/// `log3` of the rotation is taken on the quaternion `quat(q0)* quat(q1)`
/// (Pinocchio takes it on the matrix of that quaternion: the same `(θ, ω)`,
/// `θ ∈ [0, π]`, with fewer operations).
///
/// `q0, q1: [nq]`; returns `[nv x nv]` row-major.
///
/// # Errors
/// [`InputError`] when `q0` or `q1` does not have length `nq`; checked before
/// anything is written.
pub fn d_difference<S: Scalar>(
    model: &Model,
    q0: &[S],
    q1: &[S],
    arg: ArgumentPosition,
) -> Result<Vec<S>, InputError> {
    check_len("q0", q0.len(), model.nq)?;
    check_len("q1", q1.len(), model.nq)?;
    let sign = match arg {
        ArgumentPosition::Arg0 => -S::one(),
        ArgumentPosition::Arg1 => S::one(),
    };
    let mut out = vec![S::zero(); model.nv * model.nv];
    for joint in &model.joints[1..] {
        let k = joint.idx_v;
        let qs = joint.q_range();
        match joint.kind {
            JointKind::Universe => {}
            JointKind::Revolute { .. }
            | JointKind::Prismatic { .. }
            | JointKind::RevoluteUnbounded { .. } => out[k * model.nv + k] = sign,
            JointKind::FreeFlyer => {
                let block = se3_d_difference(&q0[qs.clone()], &q1[qs], arg);
                write_block(&mut out, model.nv, k, &block);
            }
            JointKind::Spherical => {
                let block = so3_d_difference(&q0[qs.clone()], &q1[qs], arg);
                write_block3(&mut out, model.nv, k, &block.0);
            }
            JointKind::Planar => {
                let block = se2_d_difference(&q0[qs.clone()], &q1[qs], arg);
                write_block3(&mut out, model.nv, k, &block);
            }
        }
    }
    Ok(out)
}

/// Writes the 6x6 `block` at rows and columns `k..k + 6` of a row-major `n x n` matrix.
fn write_block<S: Scalar>(out: &mut [S], n: usize, k: usize, block: &Matrix6<S>) {
    for (i, row) in block.0.iter().enumerate() {
        out[(k + i) * n + k..(k + i) * n + k + 6].copy_from_slice(row);
    }
}

/// SO(2) integrate (Pinocchio's `SpecialOrthogonalOperationTpl<2>::integrate`):
/// the unit complex number `q = [cos, sin]` rotated by the angle `omega`, then
/// renormalised to first order.
fn so2_integrate<S: Scalar>(q: &[S], omega: S, out: &mut [S]) {
    let (s, c) = omega.sin_cos();
    let (x, y) = (c * q[0] - s * q[1], s * q[0] + c * q[1]);
    let alpha = (S::constant(3.0) - (x * x + y * y)) * S::constant(0.5);
    out[0] = x * alpha;
    out[1] = y * alpha;
}

/// `(cos, sin)` of the angle from `a = [cos α, sin α]` to `b = [cos β, sin β]`.
fn so2_relative<S: Scalar>(a: &[S], b: &[S]) -> (S, S) {
    (a[0] * b[0] + a[1] * b[1], a[0] * b[1] - a[1] * b[0])
}

/// The position and unit quaternion of a free-flyer's `q = [x y z qx qy qz qw]`.
fn se3_parts<S: Scalar>(q: &[S]) -> (Vector3<S>, Quaternion<S>) {
    (
        Vector3([q[0], q[1], q[2]]),
        Quaternion::from_prefix(&q[3..7]),
    )
}

/// SE(3) integrate (Pinocchio's `SpecialEuclideanOperationTpl<3>::integrate`):
/// `M(q) exp6(v)` with the quaternion kept in `quat(q)`'s hemisphere and
/// renormalised to first order.
fn se3_integrate<S: Scalar>(q: &[S], v: &Motion<S>, out: &mut [S]) {
    let (p, quat) = se3_parts(q);
    let (dp, dquat) = exp6_quaternion(v);
    let position = quat.rotate(&dp) + p;
    let r = quat * dquat;
    let sign = Choice::lt(r.dot(&quat), S::zero()).pick(-S::one(), S::one());
    let alpha = (S::constant(3.0) - r.dot(&r)) * S::constant(0.5);
    out[..3].copy_from_slice(&position.0);
    out[3..].copy_from_slice(&r.scale(sign * alpha).to_array());
}

/// The displacement `M(q0)⁻¹ M(q1)` as (translation, quaternion).
fn se3_relative<S: Scalar>(q0: &[S], q1: &[S]) -> (Vector3<S>, Quaternion<S>) {
    let (p0, quat0) = se3_parts(q0);
    let (p1, quat1) = se3_parts(q1);
    let conj0 = quat0.conjugate();
    (conj0.rotate(&(p1 - p0)), conj0 * quat1)
}

/// SE(3) difference (Pinocchio's `SpecialEuclideanOperationTpl<3>::difference`):
/// `log6(M(q0)⁻¹ M(q1))` on the quaternion.
fn se3_difference<S: Scalar>(q0: &[S], q1: &[S]) -> Motion<S> {
    let (p, quat) = se3_relative(q0, q1);
    log6_quaternion(&quat, &p)
}

/// SE(3) dDifference (Pinocchio's `SpecialEuclideanOperationTpl<3>::dDifference`).
fn se3_d_difference<S: Scalar>(q0: &[S], q1: &[S], arg: ArgumentPosition) -> Matrix6<S> {
    let (p, quat) = se3_relative(q0, q1);
    let (omega, theta) = quat.log3();
    let j1 = jlog6_from_log(theta, &omega, &p);
    match arg {
        ArgumentPosition::Arg1 => j1,
        ArgumentPosition::Arg0 => {
            // Jlog6(M) [[-Rᵀ, [Rᵀ p]× Rᵀ], [0, -Rᵀ]] = -Jlog6(M) Ad(M)⁻¹; with
            // Jlog6 = [[A, B], [0, A]]: [[-A Rᵀ, (A [Rᵀ p]× - B) Rᵀ], [0, -A Rᵀ]].
            // Pinocchio forms Rᵀ p as R(q1)ᵀ (p1 - p0): the same vector.
            let rt = quat.to_rotation().transpose();
            let block = |i: usize, j: usize| {
                Matrix3(core::array::from_fn(|r| {
                    core::array::from_fn(|c| j1.0[3 * i + r][3 * j + c])
                }))
            };
            let (a, b) = (block(0, 0), block(0, 1));
            let diagonal = Matrix3::zeros() - a * rt;
            let top_right = (a * (rt * p).skew() - b) * rt;
            Matrix6::from_blocks(&diagonal, &top_right, &Matrix3::zeros(), &diagonal)
        }
    }
}

/// Writes the 3x3 `block` at rows and columns `k..k + 3` of a row-major `n x n` matrix.
fn write_block3<S: Scalar>(out: &mut [S], n: usize, k: usize, block: &[[S; 3]; 3]) {
    for (i, row) in block.iter().enumerate() {
        out[(k + i) * n + k..(k + i) * n + k + 3].copy_from_slice(row);
    }
}

fn vector3<S: Scalar>(v: &[S]) -> Vector3<S> {
    Vector3([v[0], v[1], v[2]])
}

/// SO(3) integrate (Pinocchio's `SpecialOrthogonalOperationTpl<3>::integrate`):
/// `quat(q) · exp3(ω)`, renormalised to first order; unlike SE(3), no
/// hemisphere choice.
fn so3_integrate<S: Scalar>(q: &[S], omega: &Vector3<S>, out: &mut [S]) {
    let r = Quaternion::from_prefix(q) * Quaternion::exp3(omega);
    let alpha = (S::constant(3.0) - r.dot(&r)) * S::constant(0.5);
    out.copy_from_slice(&r.scale(alpha).to_array());
}

/// The rotation `quat(q0)* quat(q1)` from q0 to q1.
fn so3_relative<S: Scalar>(q0: &[S], q1: &[S]) -> Quaternion<S> {
    Quaternion::from_prefix(q0).conjugate() * Quaternion::from_prefix(q1)
}

/// SO(3) dDifference (Pinocchio's `SpecialOrthogonalOperationTpl<3>::dDifference`):
/// `Jlog3(R)` for q1, `-Jlog3(R) Rᵀ` for q0, `R = R(q0)ᵀ R(q1)`; the log is
/// taken on the quaternion (the same `(θ, ω)` as Pinocchio's on the matrix).
fn so3_d_difference<S: Scalar>(q0: &[S], q1: &[S], arg: ArgumentPosition) -> Matrix3<S> {
    let relative = so3_relative(q0, q1);
    let (omega, theta) = relative.log3();
    let j1 = jlog3(theta, &omega);
    match arg {
        ArgumentPosition::Arg1 => j1,
        ArgumentPosition::Arg0 => Matrix3::zeros() - j1 * relative.to_rotation().transpose(),
    }
}

/// The SE(2) exponential of `v = [v_x, v_y, ω]` (Pinocchio's
/// `SpecialEuclideanOperationTpl<2>::exp`): `(cos ω, sin ω)` and the
/// translation `V(ω) [v_x, v_y]`, `V = [[sin ω/ω, -(1 - cos ω)/ω], [(1 - cos
/// ω)/ω, sin ω/ω]]`, a series below `|ω| = ε^(1/3)` (Pinocchio switches to
/// `V = I` below 1e-14; the two agree to rounding).
fn se2_exp<S: Scalar>(v: &[S]) -> ((S, S), [S; 2]) {
    let w = v[2];
    let (s, c) = w.sin_cos();
    let threshold = precision2();
    let series = Choice::lt(w * w, S::constant(threshold * threshold));
    let d = series.pick(S::one(), w);
    let w2 = w * w;
    let a = series.pick(S::one() - w2 * S::constant(1.0 / 6.0), s / d);
    let b = series.pick(
        w * (S::constant(0.5) - w2 * S::constant(1.0 / 24.0)),
        (S::one() - c) / d,
    );
    ((c, s), [a * v[0] - b * v[1], b * v[0] + a * v[1]])
}

/// SE(2) integrate (Pinocchio's `SpecialEuclideanOperationTpl<2>::integrate`):
/// `M(q) exp(v)`, `[cos, sin]` not renormalised.
fn se2_integrate<S: Scalar>(q: &[S], v: &[S], out: &mut [S]) {
    let ((c, s), t) = se2_exp(v);
    let (c0, s0) = (q[2], q[3]);
    out[0] = c0 * t[0] - s0 * t[1] + q[0];
    out[1] = s0 * t[0] + c0 * t[1] + q[1];
    out[2] = c0 * c - s0 * s;
    out[3] = s0 * c + c0 * s;
}

/// `M(q0)⁻¹ M(q1)` in SE(2): `(cos, sin)` of the relative angle and the
/// translation `R(q0)ᵀ (t1 - t0)`.
fn se2_relative<S: Scalar>(q0: &[S], q1: &[S]) -> ((S, S), [S; 2]) {
    let (c0, s0) = (q0[2], q0[3]);
    let (dx, dy) = (q1[0] - q0[0], q1[1] - q0[1]);
    (
        so2_relative(&q0[2..4], &q1[2..4]),
        [c0 * dx + s0 * dy, c0 * dy - s0 * dx],
    )
}

/// Below this `|θ|`, Pinocchio's SE(2) `log` and `Jlog` use their series.
const SE2_LOG_SERIES: f64 = 1e-4;

/// The coefficients of the SE(2) logarithm at the angle `θ`:
/// `α = θ sin θ / (2 (1 - cos θ))` and `α' = (sin θ - θ) / (2 (1 - cos θ))`,
/// from the half angle (`α = (θ/2) cot(θ/2)`, `2 (1 - cos θ) = 4 sin²(θ/2)`:
/// no cancellation in `1 - cos θ`, where Pinocchio loses up to 1e-8 just above
/// its threshold), Pinocchio's series below `|θ| = 1e-4`.
fn se2_log_coefficients<S: Scalar>(theta: S) -> (S, S) {
    let t2 = theta * theta;
    let (s, c) = (theta * S::constant(0.5)).sin_cos();
    let series = Choice::lt(t2, S::constant(SE2_LOG_SERIES * SE2_LOG_SERIES));
    let s_safe = series.pick(S::one(), s);
    let alpha = series.pick(
        S::one() - t2 * S::constant(1.0 / 12.0) - t2 * t2 * S::constant(1.0 / 720.0),
        theta * c * S::constant(0.5) / s_safe,
    );
    let alpha_dot = series.pick(
        -theta * S::constant(1.0 / 6.0) - t2 * theta * S::constant(1.0 / 180.0),
        (S::constant(2.0) * s * c - theta) / (S::constant(4.0) * s_safe * s_safe),
    );
    (alpha, alpha_dot)
}

/// SE(2) difference (Pinocchio's `SpecialEuclideanOperationTpl<2>::log` of
/// `M(q0)⁻¹ M(q1)`): `θ = atan2`, `[α p_x + θ/2 p_y, α p_y - θ/2 p_x, θ]`.
fn se2_difference<S: Scalar>(q0: &[S], q1: &[S]) -> [S; 3] {
    let ((c, s), p) = se2_relative(q0, q1);
    let theta = s.atan2(c);
    let (alpha, _) = se2_log_coefficients(theta);
    let half = theta * S::constant(0.5);
    [
        alpha * p[0] + half * p[1],
        alpha * p[1] - half * p[0],
        theta,
    ]
}

/// SE(2) `Jlog` (Pinocchio's `SpecialEuclideanOperationTpl<2>::Jlog`) of the
/// displacement with rotation `(c, s)` and translation `p`.
fn se2_jlog<S: Scalar>((c, s): (S, S), p: [S; 2]) -> [[S; 3]; 3] {
    let theta = s.atan2(c);
    let (alpha, alpha_dot) = se2_log_coefficients(theta);
    let half = theta * S::constant(0.5);
    // V R with V = [[α, θ/2], [-θ/2, α]], R = [[c, -s], [s, c]].
    [
        [
            alpha * c + half * s,
            half * c - alpha * s,
            alpha_dot * p[0] + p[1] * S::constant(0.5),
        ],
        [
            alpha * s - half * c,
            alpha * c + half * s,
            alpha_dot * p[1] - p[0] * S::constant(0.5),
        ],
        [S::zero(), S::zero(), S::one()],
    ]
}

/// SE(2) dDifference (Pinocchio's `SpecialEuclideanOperationTpl<2>::dDifference`).
fn se2_d_difference<S: Scalar>(q0: &[S], q1: &[S], arg: ArgumentPosition) -> [[S; 3]; 3] {
    let ((c, s), p) = se2_relative(q0, q1);
    let j1 = se2_jlog((c, s), p);
    match arg {
        ArgumentPosition::Arg1 => j1,
        ArgumentPosition::Arg0 => {
            // J1 [[-Rᵀ, R(q1)ᵀ [y1 - y0, x0 - x1]], [0, -1]].
            let (c1, s1) = (q1[2], q1[3]);
            let cross = [q1[1] - q0[1], q0[0] - q1[0]];
            let right = [c1 * cross[0] + s1 * cross[1], c1 * cross[1] - s1 * cross[0]];
            let j0 = [
                [-c, -s, right[0]],
                [s, -c, right[1]],
                [S::zero(), S::zero(), -S::one()],
            ];
            core::array::from_fn(|i| {
                core::array::from_fn(|j| {
                    j1[i][0] * j0[0][j] + j1[i][1] * j0[1][j] + j1[i][2] * j0[2][j]
                })
            })
        }
    }
}

/// SE(2) dIntegrate (Pinocchio's `SpecialEuclideanOperationTpl<2>::dIntegrate`):
/// the inverse action matrix of `exp(v)` for q, the `(v_x, v_y, ω_z)` rows and
/// columns of `Jexp6([v_x, v_y, 0, 0, 0, ω])` for v.
fn se2_d_integrate<S: Scalar>(v: &[S], arg: ArgumentPosition) -> [[S; 3]; 3] {
    match arg {
        ArgumentPosition::Arg0 => {
            let ((c, s), t) = se2_exp(v);
            // Rᵀ t, then [-(Rᵀ t)_y, (Rᵀ t)_x].
            let rt = [c * t[0] + s * t[1], c * t[1] - s * t[0]];
            [
                [c, s, -rt[1]],
                [-s, c, rt[0]],
                [S::zero(), S::zero(), S::one()],
            ]
        }
        ArgumentPosition::Arg1 => {
            let zero = S::zero();
            let j = jexp6(&Motion::from_slice(&[v[0], v[1], zero, zero, zero, v[2]]));
            let at = [0, 1, 5];
            core::array::from_fn(|r| core::array::from_fn(|c| j.0[at[r]][at[c]]))
        }
    }
}
