//! Unit quaternions `(x, y, z, w)` for the free-flyer's orientation, with the
//! exponential and logarithm maps Pinocchio computes on them
//! (`pinocchio/spatial/explog-quaternion.hpp`, Eigen's `Quaternion`).

use super::exp_log::{precision2, precision3, Choice, So3Exp, EPS};
use super::{Matrix3, Motion, Scalar, Vector3};
use crate::error::InputError;
use core::ops::Mul;

/// A quaternion `w + x i + y j + z k`, stored as `q` is: `[x, y, z, w]`. A unit
/// quaternion is a rotation; `q` and `-q` are the same rotation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quaternion<S> {
    /// The `i` coefficient.
    pub x: S,
    /// The `j` coefficient.
    pub y: S,
    /// The `k` coefficient.
    pub z: S,
    /// The real part.
    pub w: S,
}

impl<S: Scalar> Quaternion<S> {
    /// The identity rotation `[0, 0, 0, 1]`.
    pub fn identity() -> Self {
        Self {
            x: S::zero(),
            y: S::zero(),
            z: S::zero(),
            w: S::one(),
        }
    }

    /// From four coefficients `[x, y, z, w]` (the layout of a free-flyer's `q[3..7]`).
    pub fn from_array([x, y, z, w]: [S; 4]) -> Self {
        Self { x, y, z, w }
    }

    /// From a slice of exactly four coefficients `[x, y, z, w]`.
    ///
    /// # Errors
    /// [`InputError::Length`] (argument `q`) when `q` does not have length 4.
    pub fn from_slice(q: &[S]) -> Result<Self, InputError> {
        let q: [S; 4] = q.try_into().map_err(|_| InputError::Length {
            argument: "q",
            len: q.len(),
            expected: 4,
        })?;
        Ok(Self::from_array(q))
    }

    /// The first four coefficients of `q` as `[x, y, z, w]`; the caller
    /// guarantees that there are four (a joint's slice of `q`).
    pub(crate) fn from_prefix(q: &[S]) -> Self {
        Self::from_array([q[0], q[1], q[2], q[3]])
    }

    /// The coefficients `[x, y, z, w]`.
    pub fn to_array(&self) -> [S; 4] {
        [self.x, self.y, self.z, self.w]
    }

    /// The vector part `(x, y, z)`.
    pub fn vector(&self) -> Vector3<S> {
        Vector3([self.x, self.y, self.z])
    }

    /// From a real part and a vector part.
    pub fn from_parts(w: S, v: Vector3<S>) -> Self {
        let [x, y, z] = v.0;
        Self { x, y, z, w }
    }

    /// The conjugate `w - x i - y j - z k`: the inverse rotation of a unit quaternion.
    pub fn conjugate(&self) -> Self {
        Self::from_parts(self.w, -self.vector())
    }

    /// The dot product of the coefficients.
    pub fn dot(&self, other: &Self) -> S {
        self.x * other.x + self.y * other.y + self.z * other.z + self.w * other.w
    }

    /// Every coefficient multiplied by `s`.
    pub fn scale(&self, s: S) -> Self {
        Self::from_parts(self.w * s, self.vector().scale(s))
    }

    /// The rotated vector `q v q*`, as Eigen's `q * v`:
    /// `v + 2 w (u × v) + 2 u × (u × v)` with `u` the vector part.
    pub fn rotate(&self, v: &Vector3<S>) -> Vector3<S> {
        let u = self.vector();
        let uv = u.cross(v);
        let uv = uv + uv;
        *v + uv.scale(self.w) + u.cross(&uv)
    }

    /// The rotation matrix, as Eigen's `toRotationMatrix` (the quaternion is used
    /// as given, not normalised).
    pub fn to_rotation(&self) -> Matrix3<S> {
        let (x, y, z, w) = (self.x, self.y, self.z, self.w);
        let two = S::constant(2.0);
        let (tx, ty, tz) = (two * x, two * y, two * z);
        let (twx, twy, twz) = (tx * w, ty * w, tz * w);
        let (txx, txy, txz) = (tx * x, ty * x, tz * x);
        let (tyy, tyz, tzz) = (ty * y, tz * y, tz * z);
        let one = S::one();
        Matrix3([
            [one - (tyy + tzz), txy - twz, txz + twy],
            [txy + twz, one - (txx + tzz), tyz - twx],
            [txz - twy, tyz + twx, one - (txx + tyy)],
        ])
    }

    /// The rotation by the angle `|ω|` (rad) about `ω / |ω|`:
    /// `(cos(θ/2), sin(θ/2) ω/θ)` (Pinocchio's `quaternion::exp3`, with its
    /// Taylor series below `|ω|² = ε^(1/4)`).
    pub fn exp3(omega: &Vector3<S>) -> Self {
        let k = So3Exp::new(omega);
        Self::exp3_from_half_angle(omega, k.w2, k.t, k.half.0, k.half.1)
    }

    /// [`Quaternion::exp3`] given `t2 = |ω|²`, `t = √(t2 + ε²)` and
    /// `(sin, cos)(t / 2)`.
    fn exp3_from_half_angle(omega: &Vector3<S>, t2: S, t: S, s: S, c: S) -> Self {
        let exact = Choice::gt(t2, S::constant(precision3()));
        let h2 = t2 * S::constant(0.25);
        let h4 = h2 * h2;
        let vec_series = S::constant(0.5)
            * (S::one() - h2 * S::constant(1.0 / 6.0) + h4 * S::constant(1.0 / 120.0));
        let w_series = S::one() - h2 * S::constant(0.5) + h4 * S::constant(1.0 / 24.0);
        let sin_over_t = exact.pick(s / t, vec_series);
        Self::from_parts(exact.pick(c, w_series), omega.scale(sin_over_t))
    }

    /// The rotation vector `ω` with `|ω| = θ ∈ [0, π]` and `exp3(ω) = ±self`, and `θ`
    /// (Pinocchio's `quaternion::log3(q, theta)`, with its series below
    /// `|vec|² = ε^(1/3)`). `self` is a unit quaternion.
    pub fn log3(&self) -> (Vector3<S>, S) {
        let v = self.vector();
        let n2 = v.dot(&v);
        let norm = (n2 + S::constant(EPS * EPS)).sqrt();
        // The representative with w ≥ 0.
        let sign = Choice::lt(self.w, S::zero()).pick(-S::one(), S::one());
        let w = sign * self.w;
        let series = Choice::lt(n2, S::constant(precision2()));
        // w ≥ 0.999 on the series side; the guard keeps the other side finite at w = 0.
        let w_safe = series.pick(w, S::one());
        let y_x = norm / w_safe;
        let y_x_sq = n2 / (w_safe * w_safe);
        let half = norm.atan2(w);
        let theta = series.pick(
            S::constant(2.0) * (S::one() - y_x_sq * S::constant(1.0 / 3.0)) * y_x,
            S::constant(2.0) * half,
        );
        let th2_2 = theta * theta * S::constant(0.25);
        let (sin_half, _) = half.sin_cos();
        let inv_sinc = series.pick(
            S::constant(2.0)
                * (S::one()
                    + th2_2 * S::constant(1.0 / 6.0)
                    + S::constant(7.0 / 360.0) * th2_2 * th2_2),
            theta / series.pick(S::one(), sin_half),
        );
        (v.scale(inv_sinc * sign), theta)
    }
}

impl<S: Scalar> Mul for Quaternion<S> {
    type Output = Self;
    /// The Hamilton product: the rotation `self` after `rhs`.
    fn mul(self, rhs: Self) -> Self {
        let (a, b) = (self.vector(), rhs.vector());
        Self::from_parts(
            self.w * rhs.w - a.dot(&b),
            b.scale(self.w) + a.scale(rhs.w) + a.cross(&b),
        )
    }
}

/// The displacement `exp6(m)` of a twist `m = [v; ω]` as a translation and a
/// unit quaternion (Pinocchio's `quaternion::exp6`):
/// `p = v + α (ω × v) + β ω × (ω × v)` with `α = (1 - cos θ)/θ²`,
/// `β = (θ - sin θ)/θ³`, `θ = |ω|`, and the rotation `exp3(ω)`; series below
/// `θ = ε^(1/4)`. One `sin_cos` of `θ/2` serves both parts (Pinocchio takes
/// two).
pub fn exp6_quaternion<S: Scalar>(m: &Motion<S>) -> (Vector3<S>, Quaternion<S>) {
    let (v, omega) = (&m.linear, &m.angular);
    let k = So3Exp::new(omega);
    let wxv = omega.cross(v);
    let translation = *v + wxv.scale(k.alpha_wxw) + omega.cross(&wxv).scale(k.alpha_w2);
    let (s, c) = k.half;
    (
        translation,
        Quaternion::exp3_from_half_angle(omega, k.w2, k.t, s, c),
    )
}

/// The twist `log6(M)` of the displacement with rotation `q` (a unit quaternion)
/// and translation `p` (Pinocchio's `log6(quat, vec)`):
/// `v = p - ½ ω × p + β ω × (ω × p)` with `ω = log3(q)`, `θ = |ω|` and
/// `β = 1/θ² - cot(θ/2) / (2θ)` (Blanco 2010, eq. 9.26), a series below
/// `θ = ε^(1/4)`. Returns `[v; ω]`, `|ω| ≤ π`.
pub fn log6_quaternion<S: Scalar>(q: &Quaternion<S>, p: &Vector3<S>) -> Motion<S> {
    let (omega, theta) = q.log3();
    let t2 = omega.dot(&omega);
    let sign = Choice::lt(q.w, S::zero()).pick(-S::one(), S::one());
    let ct_2 = sign * q.w;
    let v = q.vector();
    let st_2 = (v.dot(&v) + S::constant(EPS * EPS)).sqrt();
    let cot_th_2 = ct_2 / st_2;
    let series = Choice::le(theta, S::constant(precision3()));
    let th_2_squared = t2 * S::constant(0.25);
    let beta = series.pick(
        (S::constant(1.0 / 3.0) - th_2_squared * S::constant(1.0 / 45.0)) * S::constant(0.25),
        S::one() / series.pick(S::one(), t2)
            - cot_th_2 * S::constant(0.5) / series.pick(S::one(), theta),
    );
    let wxp = omega.cross(p);
    Motion {
        linear: *p - wxp.scale(S::constant(0.5)) + omega.cross(&wxp).scale(beta),
        angular: omega,
    }
}
