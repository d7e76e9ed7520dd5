//! 3-vectors, 3x3 and 6x6 matrices over a [`Scalar`].

use super::Scalar;
use core::ops::{Add, AddAssign, Mul, Neg, Sub};

/// A 3-vector.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vector3<S>(pub [S; 3]);

/// A 3x3 matrix, rows first: `self.0[row][col]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Matrix3<S>(pub [[S; 3]; 3]);

/// A 6x6 matrix, rows first (`self.0[row][col]`), on `[linear; angular]`
/// vectors: a Jacobian of the SE(3) exponential or logarithm, an
/// articulated-body inertia (Featherstone 2008 §7.2), any linear map from
/// motions to forces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Matrix6<S>(pub [[S; 6]; 6]);

impl<S: Scalar> Vector3<S> {
    /// The zero vector.
    pub fn zeros() -> Self {
        Self([S::zero(); 3])
    }

    /// A vector of model constants.
    pub fn constant(v: [f64; 3]) -> Self {
        Self(v.map(S::constant))
    }

    /// The cross product `self × rhs`.
    pub fn cross(&self, rhs: &Self) -> Self {
        let [a, b, c] = self.0;
        let [x, y, z] = rhs.0;
        Self([b * z - c * y, c * x - a * z, a * y - b * x])
    }

    /// The dot product.
    pub fn dot(&self, rhs: &Self) -> S {
        self.0[0] * rhs.0[0] + self.0[1] * rhs.0[1] + self.0[2] * rhs.0[2]
    }

    /// Every element multiplied by `s`.
    pub fn scale(&self, s: S) -> Self {
        Self(self.0.map(|x| x * s))
    }

    /// The skew-symmetric matrix `[self]×` with `[a]× b = a × b`.
    pub fn skew(&self) -> Matrix3<S> {
        let [x, y, z] = self.0;
        let o = S::zero();
        Matrix3([[o, -z, y], [z, o, -x], [-y, x, o]])
    }
}

impl<S: Scalar> Matrix3<S> {
    /// The zero matrix.
    pub fn zeros() -> Self {
        Self([[S::zero(); 3]; 3])
    }

    /// The identity.
    pub fn identity() -> Self {
        let (o, l) = (S::zero(), S::one());
        Self([[l, o, o], [o, l, o], [o, o, l]])
    }

    /// A matrix of model constants.
    pub fn constant(m: [[f64; 3]; 3]) -> Self {
        Self(m.map(|row| row.map(S::constant)))
    }

    /// The transpose.
    pub fn transpose(&self) -> Self {
        let m = &self.0;
        Self(core::array::from_fn(|i| core::array::from_fn(|j| m[j][i])))
    }

    /// `selfᵀ v`.
    pub fn transpose_mul(&self, v: &Vector3<S>) -> Vector3<S> {
        let m = &self.0;
        Vector3(core::array::from_fn(|j| {
            m[0][j] * v.0[0] + m[1][j] * v.0[1] + m[2][j] * v.0[2]
        }))
    }

    /// Column `j`.
    pub fn column(&self, j: usize) -> Vector3<S> {
        Vector3([self.0[0][j], self.0[1][j], self.0[2][j]])
    }

    /// Every element multiplied by `s`.
    pub fn scale(&self, s: S) -> Self {
        Self(self.0.map(|row| row.map(|x| x * s)))
    }

    /// `R self Rᵀ` for a symmetric `self`, computing the lower triangle once.
    pub fn rotate_symmetric(&self, r: &Self) -> Self {
        let rs = *r * *self;
        let mut out = Self::zeros();
        for i in 0..3 {
            for j in 0..=i {
                let x = rs.0[i][0] * r.0[j][0] + rs.0[i][1] * r.0[j][1] + rs.0[i][2] * r.0[j][2];
                out.0[i][j] = x;
                out.0[j][i] = x;
            }
        }
        out
    }
}

impl<S: Scalar> Add for Vector3<S> {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        Self(core::array::from_fn(|i| self.0[i] + rhs.0[i]))
    }
}

impl<S: Scalar> AddAssign for Vector3<S> {
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl<S: Scalar> Sub for Vector3<S> {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        Self(core::array::from_fn(|i| self.0[i] - rhs.0[i]))
    }
}

impl<S: Scalar> Neg for Vector3<S> {
    type Output = Self;
    fn neg(self) -> Self {
        Self(self.0.map(|x| -x))
    }
}

impl<S: Scalar> Add for Matrix3<S> {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        Self(core::array::from_fn(|i| {
            core::array::from_fn(|j| self.0[i][j] + rhs.0[i][j])
        }))
    }
}

impl<S: Scalar> Sub for Matrix3<S> {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        Self(core::array::from_fn(|i| {
            core::array::from_fn(|j| self.0[i][j] - rhs.0[i][j])
        }))
    }
}

impl<S: Scalar> Mul<Vector3<S>> for Matrix3<S> {
    type Output = Vector3<S>;
    fn mul(self, v: Vector3<S>) -> Vector3<S> {
        let m = &self.0;
        Vector3(core::array::from_fn(|i| {
            m[i][0] * v.0[0] + m[i][1] * v.0[1] + m[i][2] * v.0[2]
        }))
    }
}

impl<S: Scalar> Mul for Matrix3<S> {
    type Output = Self;
    fn mul(self, rhs: Self) -> Self {
        let (a, b) = (&self.0, &rhs.0);
        Self(core::array::from_fn(|i| {
            core::array::from_fn(|j| a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j])
        }))
    }
}

impl<S: Scalar> Matrix6<S> {
    /// The zero matrix.
    pub fn zeros() -> Self {
        Self([[S::zero(); 6]; 6])
    }

    /// `[[tl, tr], [bl, br]]`.
    pub fn from_blocks(tl: &Matrix3<S>, tr: &Matrix3<S>, bl: &Matrix3<S>, br: &Matrix3<S>) -> Self {
        Self(core::array::from_fn(|i| {
            core::array::from_fn(|j| {
                let block = match (i < 3, j < 3) {
                    (true, true) => tl,
                    (true, false) => tr,
                    (false, true) => bl,
                    (false, false) => br,
                };
                block.0[i % 3][j % 3]
            })
        }))
    }

    /// The 3x3 block at rows `r..r + 3` and columns `c..c + 3`.
    pub fn block(&self, r: usize, c: usize) -> Matrix3<S> {
        Matrix3(core::array::from_fn(|i| {
            core::array::from_fn(|j| self.0[r + i][c + j])
        }))
    }
}

impl<S: Scalar> Add for Matrix6<S> {
    type Output = Self;
    fn add(self, r: Self) -> Self {
        Self(core::array::from_fn(|i| {
            core::array::from_fn(|j| self.0[i][j] + r.0[i][j])
        }))
    }
}

impl<S: Scalar> AddAssign for Matrix6<S> {
    fn add_assign(&mut self, r: Self) {
        *self = *self + r;
    }
}

impl<S: Scalar> Sub for Matrix6<S> {
    type Output = Self;
    fn sub(self, r: Self) -> Self {
        Self(core::array::from_fn(|i| {
            core::array::from_fn(|j| self.0[i][j] - r.0[i][j])
        }))
    }
}
