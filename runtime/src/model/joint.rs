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
    /// Spherical (ball) joint, an MJCF `ball` (Pinocchio's
    /// `JointModelSpherical`): `q = [qx, qy, qz, qw]`, a unit quaternion;
    /// `v = ω`, the angular velocity in the joint (child) frame; `nq = 4`,
    /// `nv = 3`. The configuration space is SO(3).
    Spherical,
    /// Planar joint, a URDF `planar` (Pinocchio's `JointModelPlanar`): motion
    /// in the xy plane of the joint frame, `q = [x, y, cos θ, sin θ]` (m, m,
    /// unit complex number), `v = [v_x, v_y, ω_z]` in the joint (child) frame;
    /// `nq = 4`, `nv = 3`. The configuration space is SE(2).
    Planar,
}

impl JointKind {
    /// Entries of this joint in `q`.
    pub fn nq(&self) -> usize {
        match self {
            JointKind::Universe => 0,
            JointKind::Revolute { .. } | JointKind::Prismatic { .. } => 1,
            JointKind::RevoluteUnbounded { .. } => 2,
            JointKind::FreeFlyer => 7,
            JointKind::Spherical | JointKind::Planar => 4,
        }
    }

    /// Entries of this joint in `v`.
    pub fn nv(&self) -> usize {
        match self {
            JointKind::Universe => 0,
            JointKind::Revolute { .. } | JointKind::Prismatic { .. } => 1,
            JointKind::RevoluteUnbounded { .. } => 1,
            JointKind::FreeFlyer => 6,
            JointKind::Spherical | JointKind::Planar => 3,
        }
    }

    /// The neutral configuration of this joint (Pinocchio's `neutral`): zeros,
    /// `[1, 0]` for an unbounded revolute, the identity quaternion for a
    /// free-flyer and a spherical joint, `[0, 0, 1, 0]` for a planar joint.
    pub fn neutral(&self) -> &'static [f64] {
        match self {
            JointKind::Universe => &[],
            JointKind::Revolute { .. } | JointKind::Prismatic { .. } => &[0.0],
            JointKind::RevoluteUnbounded { .. } => &[1.0, 0.0],
            JointKind::FreeFlyer => &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
            JointKind::Spherical => &[0.0, 0.0, 0.0, 1.0],
            JointKind::Planar => &[0.0, 0.0, 1.0, 0.0],
        }
    }

    /// The joint transform `parent_side_from_child_side` at the joint's slice of `q`.
    /// The quaternion of a free-flyer or a spherical joint is used as given
    /// (Eigen's `toRotationMatrix`), as are a planar joint's `[cos θ, sin θ]`,
    /// as Pinocchio does; callers keep them unit.
    ///
    /// # Panics
    /// When `q` is shorter than [`JointKind::nq`]: a building block of the
    /// algorithms, which check the lengths of their inputs first.
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
                rotation: Quaternion::from_prefix(&q[3..7]).to_rotation(),
                translation: Vector3([q[0], q[1], q[2]]),
            },
            JointKind::Spherical => Transform {
                rotation: Quaternion::from_prefix(&q[..4]).to_rotation(),
                translation: Vector3::zeros(),
            },
            JointKind::Planar => Transform {
                rotation: axis_rotation(&[0.0, 0.0, 1.0], q[2], q[3]),
                translation: Vector3([q[0], q[1], S::zero()]),
            },
        }
    }

    /// Column `k` of the motion subspace `S` (constant in the joint frame for
    /// every kind here, so the bias `c = Ṡ v` is zero, as in Pinocchio).
    ///
    /// # Panics
    /// When `k` is not below [`JointKind::nv`] for a free-flyer, spherical or
    /// planar joint (the one column of a one-dof joint serves any `k`).
    pub fn subspace_column<S: Scalar>(&self, k: usize) -> Motion<S> {
        let mut m = [S::zero(); 6];
        match self {
            JointKind::Universe => {}
            JointKind::Revolute { axis } | JointKind::RevoluteUnbounded { axis } => {
                m[3..].copy_from_slice(&axis.map(S::constant));
            }
            JointKind::Prismatic { axis } => m[..3].copy_from_slice(&axis.map(S::constant)),
            JointKind::FreeFlyer => m[k] = S::one(),
            JointKind::Spherical => m[3 + k] = S::one(),
            // [v_x, v_y, ω_z]: linear x, linear y, angular z.
            JointKind::Planar => m[[0, 1, 5][k]] = S::one(),
        }
        Motion::from_slice(&m)
    }

    /// The joint velocity `S v` for the joint's slice of `v`.
    ///
    /// # Panics
    /// When `v` is shorter than [`JointKind::nv`].
    pub fn motion<S: Scalar>(&self, v: &[S]) -> Motion<S> {
        match self {
            JointKind::FreeFlyer => Motion::from_slice(v),
            JointKind::Spherical => Motion {
                linear: Vector3::zeros(),
                angular: Vector3([v[0], v[1], v[2]]),
            },
            _ => (0..self.nv()).fold(Motion::zero(), |acc, k| {
                acc + self.subspace_column(k).scale(v[k])
            }),
        }
    }

    /// `Sᵀ f`, written to the joint's slice `out` of a tangent vector.
    ///
    /// # Panics
    /// When `out` is shorter than [`JointKind::nv`] (entries beyond it are
    /// left as they are).
    pub fn project_force<S: Scalar>(&self, f: &Force<S>, out: &mut [S]) {
        match self {
            JointKind::FreeFlyer => out[..6].copy_from_slice(&f.to_array()),
            JointKind::Spherical => out[..3].copy_from_slice(&f.angular.0),
            _ => {
                for (k, o) in out[..self.nv()].iter_mut().enumerate() {
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
