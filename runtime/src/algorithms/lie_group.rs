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
use crate::spatial::exp_log::{from_blocks, jlog6_from_log, Choice, Matrix6};
use crate::spatial::{
    exp6, exp6_quaternion, jexp6, log6_quaternion, Matrix3, Motion, Quaternion, Vector3,
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
/// exp3(ω)` with the sign that keeps it in `quat(q)`'s hemisphere). Unit
/// complex numbers and quaternions come out renormalised to first order
/// (`x (3 - |x|²)/2`), as Pinocchio's.
///
/// `q: [nq]`, `v: [nv]` (rad, m; a free-flyer's `[v; ω]` in the base frame);
/// returns `[nq]`. `integrate(q, 0) = q` for a unit `q`.
///
/// # Panics
/// When `q` does not have length `nq` or `v` length `nv`.
pub fn integrate<S: Scalar>(model: &Model, q: &[S], v: &[S]) -> Vec<S> {
    check_q(model, q.len());
    check_v(model, "v", v.len());
    let mut out = q.to_vec();
    for joint in &model.joints[1..] {
        let (qs, vs) = (joint.idx_q..joint.idx_q + joint.kind.nq(), joint.idx_v..);
        let (qi, vi) = (&q[qs.clone()], &v[vs]);
        let out = &mut out[qs];
        match joint.kind {
            JointKind::Universe => {}
            JointKind::Revolute { .. } | JointKind::Prismatic { .. } => out[0] = qi[0] + vi[0],
            JointKind::RevoluteUnbounded { .. } => so2_integrate(qi, vi[0], out),
            JointKind::FreeFlyer => se3_integrate(qi, &Motion::from_slice(vi), out),
        }
    }
    out
}

/// The tangent vector that moves `q0` to `q1`, `q1 ⊖ q0` (Pinocchio's
/// `difference(model, q0, q1)`): `integrate(q0, difference(q0, q1)) = q1`.
///
/// Per joint: `q1 - q0` for revolute and prismatic joints; the angle from
/// `[cos, sin]` of q0 to that of q1 in `(-π, π]` (`atan2`; Pinocchio's `asin`
/// / `acos` branches give the same angle for unit inputs); for a free-flyer,
/// `log6(M(q0)⁻¹ M(q1))` (the twist, not the ℝ³ × SO(3) difference).
///
/// `q0, q1: [nq]` (unit quaternions and `[cos, sin]` pairs); returns `[nv]`.
///
/// # Panics
/// When `q0` or `q1` does not have length `nq`.
pub fn difference<S: Scalar>(model: &Model, q0: &[S], q1: &[S]) -> Vec<S> {
    check_q(model, q0.len());
    check_len("q1", q1.len(), model.nq);
    let mut out = vec![S::zero(); model.nv];
    for joint in &model.joints[1..] {
        let qs = joint.idx_q..joint.idx_q + joint.kind.nq();
        let (a, b) = (&q0[qs.clone()], &q1[qs]);
        let out = &mut out[joint.idx_v..joint.idx_v + joint.kind.nv()];
        match joint.kind {
            JointKind::Universe => {}
            JointKind::Revolute { .. } | JointKind::Prismatic { .. } => out[0] = b[0] - a[0],
            JointKind::RevoluteUnbounded { .. } => {
                let (c, s) = so2_relative(a, b);
                out[0] = s.atan2(c);
            }
            JointKind::FreeFlyer => out.copy_from_slice(&se3_difference(a, b).to_array()),
        }
    }
    out
}

/// The Jacobian of `integrate(q, v)` with respect to `q` (`Arg0`) or `v`
/// (`Arg1`), in the tangent space (Pinocchio's `dIntegrate(model, q, v, J,
/// ARG0 / ARG1)`).
///
/// Block diagonal; per joint: `1` for revolute, prismatic and continuous
/// joints; for a free-flyer, `Ad(exp6(v))⁻¹ = [[Rᵀ, -Rᵀ [p]×], [0, Rᵀ]]` with
/// respect to q and `Jexp6(v)` with respect to v.
///
/// `q: [nq]`, `v: [nv]`; returns `[nv x nv]` row-major.
///
/// # Panics
/// When `q` does not have length `nq` or `v` length `nv`.
pub fn d_integrate<S: Scalar>(model: &Model, q: &[S], v: &[S], arg: ArgumentPosition) -> Vec<S> {
    check_q(model, q.len());
    check_v(model, "v", v.len());
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
                        from_blocks(&rt, &top_right, &Matrix3::zeros(), &rt)
                    }
                    ArgumentPosition::Arg1 => jexp6(&m),
                };
                write_block(&mut out, model.nv, k, &block);
            }
        }
    }
    out
}

/// The Jacobian of `difference(q0, q1)` with respect to `q0` (`Arg0`) or `q1`
/// (`Arg1`), in the tangent space (Pinocchio's `dDifference(model, q0, q1, J,
/// ARG0 / ARG1)`).
///
/// Block diagonal; per joint: `-1` / `1` for revolute, prismatic and
/// continuous joints; for a free-flyer with `M = M(q0)⁻¹ M(q1) = (R, p)`,
/// `Jlog6(M)` with respect to q1 and
/// `Jlog6(M) [[-Rᵀ, [R(q1)ᵀ (p1 - p0)]× Rᵀ], [0, -Rᵀ]]` with respect to q0.
/// `log3` of the rotation is taken on the quaternion `quat(q0)* quat(q1)`
/// (Pinocchio takes it on the matrix of that quaternion: the same `(θ, ω)`,
/// `θ ∈ [0, π]`, with fewer operations).
///
/// `q0, q1: [nq]`; returns `[nv x nv]` row-major.
///
/// # Panics
/// When `q0` or `q1` does not have length `nq`.
pub fn d_difference<S: Scalar>(model: &Model, q0: &[S], q1: &[S], arg: ArgumentPosition) -> Vec<S> {
    check_q(model, q0.len());
    check_len("q1", q1.len(), model.nq);
    let sign = match arg {
        ArgumentPosition::Arg0 => -S::one(),
        ArgumentPosition::Arg1 => S::one(),
    };
    let mut out = vec![S::zero(); model.nv * model.nv];
    for joint in &model.joints[1..] {
        let k = joint.idx_v;
        let qs = joint.idx_q..joint.idx_q + joint.kind.nq();
        match joint.kind {
            JointKind::Universe => {}
            JointKind::Revolute { .. }
            | JointKind::Prismatic { .. }
            | JointKind::RevoluteUnbounded { .. } => out[k * model.nv + k] = sign,
            JointKind::FreeFlyer => {
                let block = se3_d_difference(&q0[qs.clone()], &q1[qs], arg);
                write_block(&mut out, model.nv, k, &block);
            }
        }
    }
    out
}

/// Writes the 6x6 `block` at rows and columns `k..k + 6` of a row-major `n x n` matrix.
fn write_block<S: Scalar>(out: &mut [S], n: usize, k: usize, block: &Matrix6<S>) {
    for (i, row) in block.iter().enumerate() {
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
        Quaternion::from_slice(&q[3..7]),
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
                    core::array::from_fn(|c| j1[3 * i + r][3 * j + c])
                }))
            };
            let (a, b) = (block(0, 0), block(0, 1));
            let diagonal = Matrix3::zeros() - a * rt;
            let top_right = (a * (rt * p).skew() - b) * rt;
            from_blocks(&diagonal, &top_right, &Matrix3::zeros(), &diagonal)
        }
    }
}
