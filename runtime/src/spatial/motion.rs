//! Spatial motion (twists, accelerations) and force (wrenches) vectors.

use super::{Matrix6, Scalar, Vector3};
use core::ops::{Add, AddAssign, Neg, Sub};

/// A spatial motion vector `[linear; angular]` (m/s and rad/s, or their rates).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion<S> {
    /// Linear part: velocity of the point at the frame origin.
    pub linear: Vector3<S>,
    /// Angular part.
    pub angular: Vector3<S>,
}

/// A spatial force vector `[linear; angular]` (N and N·m about the frame origin).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Force<S> {
    /// Linear part: the force.
    pub linear: Vector3<S>,
    /// Angular part: the moment about the frame origin.
    pub angular: Vector3<S>,
}

impl<S: Scalar> Motion<S> {
    /// The motion cross product `self × m` (Featherstone 2008, eq. 2.31).
    pub fn cross(&self, m: &Motion<S>) -> Motion<S> {
        Motion {
            linear: self.angular.cross(&m.linear) + self.linear.cross(&m.angular),
            angular: self.angular.cross(&m.angular),
        }
    }

    /// The force cross product `self ×* f` (Featherstone 2008, eq. 2.32).
    pub fn cross_force(&self, f: &Force<S>) -> Force<S> {
        Force {
            linear: self.angular.cross(&f.linear),
            angular: self.angular.cross(&f.angular) + self.linear.cross(&f.linear),
        }
    }

    /// The power `self · f` of a force on this motion.
    pub fn dot(&self, f: &Force<S>) -> S {
        self.linear.dot(&f.linear) + self.angular.dot(&f.angular)
    }
}

/// What a motion and a force share: the zero vector, the six components
/// `[linear; angular]` both ways, scaling, `+`, `-`, `+=` and negation.
macro_rules! spatial_vector {
    ($t:ident, $what:literal) => {
        impl<S: Scalar> $t<S> {
            #[doc = concat!("The zero ", $what, ".")]
            pub fn zero() -> Self {
                Self {
                    linear: Vector3::zeros(),
                    angular: Vector3::zeros(),
                }
            }

            /// The six components `[linear; angular]`.
            pub fn to_array(&self) -> [S; 6] {
                let (l, a) = (self.linear.0, self.angular.0);
                [l[0], l[1], l[2], a[0], a[1], a[2]]
            }

            /// From six components `[linear; angular]`.
            pub fn from_slice(x: &[S]) -> Self {
                Self {
                    linear: Vector3([x[0], x[1], x[2]]),
                    angular: Vector3([x[3], x[4], x[5]]),
                }
            }

            /// Every component multiplied by `s`.
            pub fn scale(&self, s: S) -> Self {
                Self {
                    linear: self.linear.scale(s),
                    angular: self.angular.scale(s),
                }
            }
        }
        impl<S: Scalar> Add for $t<S> {
            type Output = Self;
            fn add(self, r: Self) -> Self {
                Self {
                    linear: self.linear + r.linear,
                    angular: self.angular + r.angular,
                }
            }
        }
        impl<S: Scalar> AddAssign for $t<S> {
            fn add_assign(&mut self, r: Self) {
                *self = *self + r;
            }
        }
        impl<S: Scalar> Sub for $t<S> {
            type Output = Self;
            fn sub(self, r: Self) -> Self {
                Self {
                    linear: self.linear - r.linear,
                    angular: self.angular - r.angular,
                }
            }
        }
        impl<S: Scalar> Neg for $t<S> {
            type Output = Self;
            fn neg(self) -> Self {
                Self {
                    linear: -self.linear,
                    angular: -self.angular,
                }
            }
        }
    };
}
spatial_vector!(Motion, "motion");
spatial_vector!(Force, "force");

// A 6x6 matrix times a motion, here with the spatial vectors so that `linalg`
// does not import them.
impl<S: Scalar> Matrix6<S> {
    /// `self v`, a force for a motion `v` (an inertia times a velocity).
    pub fn mul_motion(&self, v: &Motion<S>) -> Force<S> {
        let x = v.to_array();
        let y: [S; 6] = core::array::from_fn(|i| {
            (1..6).fold(self.0[i][0] * x[0], |acc, j| acc + self.0[i][j] * x[j])
        });
        Force::from_slice(&y)
    }

    /// `selfᵀ m`, so that `m · (self x) = (selfᵀ m) · x`.
    pub fn transpose_mul_motion(&self, m: &Motion<S>) -> Force<S> {
        let x = m.to_array();
        let y: [S; 6] = core::array::from_fn(|j| {
            (1..6).fold(self.0[0][j] * x[0], |acc, i| acc + self.0[i][j] * x[i])
        });
        Force::from_slice(&y)
    }
}
