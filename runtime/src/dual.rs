//! Forward-mode dual numbers with `N` tangent lanes: running an ordinary
//! algorithm on them gives its directional derivatives (the tests check the
//! analytical derivatives of `algorithms::derivatives` this way).

use core::ops::{Add, Div, Mul, Neg, Sub};

use crate::Scalar;

/// `re + Σ eps[k] ε_k` with `ε_j ε_k = 0`: evaluating a function on it gives the
/// value and `N` directional derivatives at once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dual<const N: usize> {
    /// The value.
    pub re: f64,
    /// The directional derivatives.
    pub eps: [f64; N],
}

impl<const N: usize> Dual<N> {
    /// A value with no tangent.
    pub fn new(re: f64) -> Self {
        Self { re, eps: [0.0; N] }
    }

    /// A value whose tangent is lane `k` (the variable being differentiated).
    pub fn variable(re: f64, lane: usize) -> Self {
        let mut eps = [0.0; N];
        eps[lane] = 1.0;
        Self { re, eps }
    }

    fn chain(self, value: f64, slope: f64) -> Self {
        Self {
            re: value,
            eps: self.eps.map(|e| e * slope),
        }
    }
}

impl<const N: usize> Scalar for Dual<N> {
    fn constant(value: f64) -> Self {
        Self::new(value)
    }

    fn sin_cos(self) -> (Self, Self) {
        let (s, c) = self.re.sin_cos();
        (self.chain(s, c), self.chain(c, -s))
    }

    fn sqrt(self) -> Self {
        let r = self.re.sqrt();
        self.chain(r, 0.5 / r)
    }

    fn atan2(self, x: Self) -> Self {
        let den = x.re * x.re + self.re * self.re;
        Self {
            re: self.re.atan2(x.re),
            eps: core::array::from_fn(|k| (x.re * self.eps[k] - self.re * x.eps[k]) / den),
        }
    }

    fn select(condition: Self, if_positive: Self, otherwise: Self) -> Self {
        if condition.re > 0.0 {
            if_positive
        } else {
            otherwise
        }
    }
}

impl<const N: usize> Add for Dual<N> {
    type Output = Self;
    fn add(self, r: Self) -> Self {
        Self {
            re: self.re + r.re,
            eps: core::array::from_fn(|k| self.eps[k] + r.eps[k]),
        }
    }
}

impl<const N: usize> Sub for Dual<N> {
    type Output = Self;
    fn sub(self, r: Self) -> Self {
        Self {
            re: self.re - r.re,
            eps: core::array::from_fn(|k| self.eps[k] - r.eps[k]),
        }
    }
}

#[allow(clippy::suspicious_arithmetic_impl)] // The product rule.
impl<const N: usize> Mul for Dual<N> {
    type Output = Self;
    fn mul(self, r: Self) -> Self {
        Self {
            re: self.re * r.re,
            eps: core::array::from_fn(|k| self.eps[k] * r.re + self.re * r.eps[k]),
        }
    }
}

#[allow(clippy::suspicious_arithmetic_impl)] // The quotient rule.
impl<const N: usize> Div for Dual<N> {
    type Output = Self;
    fn div(self, r: Self) -> Self {
        let q = self.re / r.re;
        Self {
            re: q,
            eps: core::array::from_fn(|k| (self.eps[k] - q * r.eps[k]) / r.re),
        }
    }
}

impl<const N: usize> Neg for Dual<N> {
    type Output = Self;
    fn neg(self) -> Self {
        Self {
            re: -self.re,
            eps: self.eps.map(|e| -e),
        }
    }
}
