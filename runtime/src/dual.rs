//! Forward-mode dual numbers with `N` tangent lanes over any scalar: running
//! an ordinary algorithm on them gives its directional derivatives. On `f64`
//! they give numbers (the runtime's `*_derivatives` of contact, impulse,
//! centroidal and frame quantities, the `tangent` module of `algorithms`); on a
//! symbolic scalar, a derivative's trace.

use core::ops::{Add, Div, Mul, Neg, Sub};

use crate::Scalar;

/// `re + Σ eps[k] ε_k` with `ε_j ε_k = 0`: evaluating a function on it gives the
/// value and `N` directional derivatives at once. `S` is the scalar of the
/// value and the tangents (`f64` unless nested or traced).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dual<const N: usize, S = f64> {
    /// The value.
    pub re: S,
    /// The directional derivatives.
    pub eps: [S; N],
}

impl<const N: usize, S: Scalar> Dual<N, S> {
    /// A value with no tangent.
    pub fn new(re: S) -> Self {
        Self {
            re,
            eps: [S::zero(); N],
        }
    }

    /// A value whose tangent is lane `k` (the variable being differentiated).
    pub fn variable(re: S, lane: usize) -> Self {
        let mut eps = [S::zero(); N];
        eps[lane] = S::one();
        Self { re, eps }
    }

    fn chain(self, value: S, slope: S) -> Self {
        Self {
            re: value,
            eps: self.eps.map(|e| e * slope),
        }
    }
}

impl<const N: usize, S: Scalar> Scalar for Dual<N, S> {
    fn constant(value: f64) -> Self {
        Self::new(S::constant(value))
    }

    fn sin_cos(self) -> (Self, Self) {
        let (s, c) = self.re.sin_cos();
        (self.chain(s, c), self.chain(c, -s))
    }

    fn sqrt(self) -> Self {
        let r = self.re.sqrt();
        self.chain(r, S::constant(0.5) / r)
    }

    fn atan2(self, x: Self) -> Self {
        let den = x.re * x.re + self.re * self.re;
        Self {
            re: self.re.atan2(x.re),
            eps: core::array::from_fn(|k| (x.re * self.eps[k] - self.re * x.eps[k]) / den),
        }
    }

    fn select(condition: Self, if_positive: Self, otherwise: Self) -> Self {
        let c = condition.re;
        Self {
            re: S::select(c, if_positive.re, otherwise.re),
            eps: core::array::from_fn(|k| S::select(c, if_positive.eps[k], otherwise.eps[k])),
        }
    }
}

impl<const N: usize, S: Scalar> Add for Dual<N, S> {
    type Output = Self;
    fn add(self, r: Self) -> Self {
        Self {
            re: self.re + r.re,
            eps: core::array::from_fn(|k| self.eps[k] + r.eps[k]),
        }
    }
}

impl<const N: usize, S: Scalar> Sub for Dual<N, S> {
    type Output = Self;
    fn sub(self, r: Self) -> Self {
        Self {
            re: self.re - r.re,
            eps: core::array::from_fn(|k| self.eps[k] - r.eps[k]),
        }
    }
}

#[allow(clippy::suspicious_arithmetic_impl)] // The product rule.
impl<const N: usize, S: Scalar> Mul for Dual<N, S> {
    type Output = Self;
    fn mul(self, r: Self) -> Self {
        Self {
            re: self.re * r.re,
            eps: core::array::from_fn(|k| self.eps[k] * r.re + self.re * r.eps[k]),
        }
    }
}

#[allow(clippy::suspicious_arithmetic_impl)] // The quotient rule.
impl<const N: usize, S: Scalar> Div for Dual<N, S> {
    type Output = Self;
    fn div(self, r: Self) -> Self {
        let q = self.re / r.re;
        Self {
            re: q,
            eps: core::array::from_fn(|k| (self.eps[k] - q * r.eps[k]) / r.re),
        }
    }
}

impl<const N: usize, S: Scalar> Neg for Dual<N, S> {
    type Output = Self;
    fn neg(self) -> Self {
        Self {
            re: -self.re,
            eps: self.eps.map(|e| -e),
        }
    }
}
