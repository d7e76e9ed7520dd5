//! The scalar every algorithm is written over.

use core::fmt::Debug;
use core::ops::{Add, Div, Mul, Neg, Sub};

/// A real number as the algorithms see it: `f64` for evaluation, a symbolic
/// expression for tracing, a dual number for derivatives.
///
/// There are no comparisons: an algorithm that branched on a value would bake
/// one branch into a trace. Constants enter through [`Scalar::constant`], so a
/// symbolic scalar can fold them.
pub trait Scalar:
    Copy
    + Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// The scalar for a constant of the model (a mass, a length, 0, 1).
    fn constant(value: f64) -> Self;

    /// `(sin x, cos x)` in one call, so that a trace shares the angle.
    fn sin_cos(self) -> (Self, Self);

    /// The square root.
    fn sqrt(self) -> Self;

    /// The four-quadrant arc tangent of `self / x` (`self` is y), in rad.
    fn atan2(self, x: Self) -> Self;

    /// `if condition > 0 { if_positive } else { otherwise }`: the one
    /// data-dependent choice, for the rare expression that needs a series near
    /// a singular point (log of a rotation at zero angle). Both sides are
    /// evaluated; a trace records the choice, not one branch.
    fn select(condition: Self, if_positive: Self, otherwise: Self) -> Self;

    /// Zero.
    #[inline]
    fn zero() -> Self {
        Self::constant(0.0)
    }

    /// One.
    #[inline]
    fn one() -> Self {
        Self::constant(1.0)
    }
}

impl Scalar for f64 {
    #[inline]
    fn constant(value: f64) -> Self {
        value
    }

    #[inline]
    fn sin_cos(self) -> (Self, Self) {
        f64::sin_cos(self)
    }

    #[inline]
    fn sqrt(self) -> Self {
        f64::sqrt(self)
    }

    #[inline]
    fn atan2(self, x: Self) -> Self {
        f64::atan2(self, x)
    }

    #[inline]
    fn select(condition: Self, if_positive: Self, otherwise: Self) -> Self {
        if condition > 0.0 {
            if_positive
        } else {
            otherwise
        }
    }
}
