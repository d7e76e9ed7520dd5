//! Rigid transforms (Pinocchio's `SE3`).

use super::{Force, Matrix3, Motion, Scalar, Vector3};
use core::ops::Mul;

/// A placement `a_from_b` (Pinocchio's `aMb`): `x_a = rotation · x_b + translation`.
/// The translation is the origin of b in a, in metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform<S> {
    /// Rotation from b coordinates to a coordinates.
    pub rotation: Matrix3<S>,
    /// Origin of b expressed in a (m).
    pub translation: Vector3<S>,
}

impl<S: Scalar> Transform<S> {
    /// The identity placement.
    pub fn identity() -> Self {
        Self {
            rotation: Matrix3::identity(),
            translation: Vector3::zeros(),
        }
    }

    /// A placement of model constants.
    pub fn constant(t: &Transform<f64>) -> Self {
        Self {
            rotation: Matrix3::constant(t.rotation.0),
            translation: Vector3::constant(t.translation.0),
        }
    }

    /// The inverse placement `b_from_a`.
    pub fn inverse(&self) -> Self {
        let rotation = self.rotation.transpose();
        Self {
            translation: -(rotation * self.translation),
            rotation,
        }
    }

    /// Maps a motion in b to a (Pinocchio's `aMb.act(m)`).
    pub fn act_motion(&self, m: &Motion<S>) -> Motion<S> {
        let angular = self.rotation * m.angular;
        Motion {
            linear: self.rotation * m.linear + self.translation.cross(&angular),
            angular,
        }
    }

    /// Maps a motion in a to b (Pinocchio's `aMb.actInv(m)`).
    pub fn act_inv_motion(&self, m: &Motion<S>) -> Motion<S> {
        Motion {
            linear: self
                .rotation
                .transpose_mul(&(m.linear - self.translation.cross(&m.angular))),
            angular: self.rotation.transpose_mul(&m.angular),
        }
    }

    /// Maps a force in b to a (Pinocchio's `aMb.act(f)`).
    pub fn act_force(&self, f: &Force<S>) -> Force<S> {
        let linear = self.rotation * f.linear;
        Force {
            angular: self.rotation * f.angular + self.translation.cross(&linear),
            linear,
        }
    }

    /// Maps a force in a to b (Pinocchio's `aMb.actInv(f)`).
    pub fn act_inv_force(&self, f: &Force<S>) -> Force<S> {
        Force {
            linear: self.rotation.transpose_mul(&f.linear),
            angular: self
                .rotation
                .transpose_mul(&(f.angular - self.translation.cross(&f.linear))),
        }
    }

    /// The 4x4 homogeneous matrix `[[R, p], [0, 1]]`.
    pub fn to_homogeneous(&self) -> [[S; 4]; 4] {
        let (r, p) = (&self.rotation.0, &self.translation.0);
        let (o, l) = (S::zero(), S::one());
        [
            [r[0][0], r[0][1], r[0][2], p[0]],
            [r[1][0], r[1][1], r[1][2], p[1]],
            [r[2][0], r[2][1], r[2][2], p[2]],
            [o, o, o, l],
        ]
    }
}

impl Transform<f64> {
    /// The URDF `<origin xyz rpy>` placement: `R = Rz(yaw) Ry(pitch) Rx(roll)`.
    pub fn from_xyz_rpy(xyz: [f64; 3], rpy: [f64; 3]) -> Self {
        let (sr, cr) = rpy[0].sin_cos();
        let (sp, cp) = rpy[1].sin_cos();
        let (sy, cy) = rpy[2].sin_cos();
        let rotation = Matrix3([
            [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr],
        ]);
        Self {
            rotation,
            translation: Vector3(xyz),
        }
    }
}

impl<S: Scalar> Mul for Transform<S> {
    type Output = Self;
    /// `a_from_b * b_from_c = a_from_c`.
    fn mul(self, rhs: Self) -> Self {
        Self {
            rotation: self.rotation * rhs.rotation,
            translation: self.rotation * rhs.translation + self.translation,
        }
    }
}
