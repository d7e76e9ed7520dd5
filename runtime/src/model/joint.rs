//! Joint kinds and the verbs every kind answers.

use crate::spatial::{Force, Matrix3, Motion, Quaternion, Transform, Vector3};
use crate::Scalar;

/// The kinds of joint rbdgen models, as Pinocchio's joint models.
#[derive(Clone, Debug, PartialEq)]
pub enum JointKind {
    /// The universe (joint id 0): no motion.
    Universe,
    /// Revolute about a unit `axis` in the joint frame (Pinocchio's
    /// `JointModelRevolute{X,Y,Z}` or `RevoluteUnaligned`). `nq = nv = 1`, rad.
    Revolute {
        /// Unit axis in the joint frame.
        axis: [f64; 3],
    },
    /// Unbounded revolute, a URDF `continuous` joint (Pinocchio's
    /// `JointModelRevoluteUnbounded*`): `q = [cos θ, sin θ]`, `nq = 2`, `nv = 1`.
    RevoluteUnbounded {
        /// Unit axis in the joint frame.
        axis: [f64; 3],
    },
    /// Prismatic along a unit `axis` (Pinocchio's `JointModelPrismatic*`), m.
    Prismatic {
        /// Unit axis in the joint frame.
        axis: [f64; 3],
    },
    /// Free-flyer (Pinocchio's `JointModelFreeFlyer`): `q = [x, y, z, qx, qy, qz, qw]`,
    /// `v = [linear; angular]` in the joint (LOCAL) frame; `nq = 7`, `nv = 6`.
    FreeFlyer,
}

impl JointKind {
    /// Entries of this joint in `q`.
    pub fn nq(&self) -> usize {
        match self {
            JointKind::Universe => 0,
            JointKind::Revolute { .. } | JointKind::Prismatic { .. } => 1,
            JointKind::RevoluteUnbounded { .. } => 2,
            JointKind::FreeFlyer => 7,
        }
    }

    /// Entries of this joint in `v`.
    pub fn nv(&self) -> usize {
        match self {
            JointKind::Universe => 0,
            JointKind::Revolute { .. } | JointKind::Prismatic { .. } => 1,
            JointKind::RevoluteUnbounded { .. } => 1,
            JointKind::FreeFlyer => 6,
        }
    }

    /// The neutral configuration of this joint (Pinocchio's `neutral`): zeros,
    /// `[1, 0]` for an unbounded revolute, the identity quaternion for a free-flyer.
    pub fn neutral(&self) -> &'static [f64] {
        match self {
            JointKind::Universe => &[],
            JointKind::Revolute { .. } | JointKind::Prismatic { .. } => &[0.0],
            JointKind::RevoluteUnbounded { .. } => &[1.0, 0.0],
            JointKind::FreeFlyer => &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
        }
    }

    /// The joint transform `parent_side_from_child_side` at the joint's slice of `q`.
    /// The free-flyer's quaternion is used as given (Eigen's `toRotationMatrix`),
    /// as Pinocchio does; callers keep it unit.
    pub fn transform<S: Scalar>(&self, q: &[S]) -> Transform<S> {
        match self {
            JointKind::Universe => Transform::identity(),
            JointKind::Revolute { axis } => {
                let (s, c) = q[0].sin_cos();
                Transform {
                    rotation: axis_rotation(axis, c, s),
                    translation: Vector3::zeros(),
                }
            }
            JointKind::RevoluteUnbounded { axis } => Transform {
                rotation: axis_rotation(axis, q[0], q[1]),
                translation: Vector3::zeros(),
            },
            JointKind::Prismatic { axis } => Transform {
                rotation: Matrix3::identity(),
                translation: Vector3::constant(*axis).scale(q[0]),
            },
            JointKind::FreeFlyer => Transform {
                rotation: Quaternion::from_slice(&q[3..7]).to_rotation(),
                translation: Vector3([q[0], q[1], q[2]]),
            },
        }
    }

    /// Column `k` of the motion subspace `S` (constant in the joint frame for
    /// every kind here).
    pub fn subspace_column<S: Scalar>(&self, k: usize) -> Motion<S> {
        let mut m = [S::zero(); 6];
        match self {
            JointKind::Universe => {}
            JointKind::Revolute { axis } | JointKind::RevoluteUnbounded { axis } => {
                m[3..].copy_from_slice(&axis.map(S::constant));
            }
            JointKind::Prismatic { axis } => m[..3].copy_from_slice(&axis.map(S::constant)),
            JointKind::FreeFlyer => m[k] = S::one(),
        }
        Motion::from_slice(&m)
    }

    /// The joint velocity `S v` for the joint's slice of `v`.
    pub fn motion<S: Scalar>(&self, v: &[S]) -> Motion<S> {
        match self {
            JointKind::FreeFlyer => Motion::from_slice(v),
            _ => (0..self.nv()).fold(Motion::zero(), |acc, k| {
                acc + self.subspace_column(k).scale(v[k])
            }),
        }
    }

    /// `Sᵀ f`, written to the joint's slice `out` of a tangent vector.
    pub fn project_force<S: Scalar>(&self, f: &Force<S>, out: &mut [S]) {
        match self {
            JointKind::FreeFlyer => out.copy_from_slice(&f.to_array()),
            _ => {
                for (k, o) in out.iter_mut().enumerate().take(self.nv()) {
                    *o = self.subspace_column::<S>(k).dot(f);
                }
            }
        }
    }
}

/// Rodrigues' formula `R = c I + s [a]× + (1 - c) a aᵀ` for a unit axis. Terms
/// that the axis makes constant (a coordinate axis) are dropped, not traced.
fn axis_rotation<S: Scalar>(axis: &[f64; 3], c: S, s: S) -> Matrix3<S> {
    let t = S::one() - c;
    Matrix3(core::array::from_fn(|i| {
        core::array::from_fn(|j| {
            let outer = axis[i] * axis[j];
            if i == j {
                if outer == 1.0 {
                    S::one()
                } else {
                    c + t * S::constant(outer)
                }
            } else {
                // [a]× has -a_k at (i, j) when j follows i cyclically, +a_k otherwise.
                let k = 3 - i - j;
                let sign = if (i + 1) % 3 == j { -1.0 } else { 1.0 };
                t * S::constant(outer) + s * S::constant(sign * axis[k])
            }
        })
    }))
}
