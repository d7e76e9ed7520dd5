//! Spatial inertias of rigid bodies and articulated bodies.

use super::{Force, Matrix3, Matrix6, Motion, Scalar, Transform, Vector3};
use core::ops::{Add, AddAssign, Sub};

/// The spatial inertia of a rigid body (Pinocchio's `Inertia`), in the
/// first-moment form of Featherstone 2008 §2.13: mass `m` (kg), first moment
/// `h = m c` (kg·m, c the centre of mass) and rotational inertia `I_o` about the
/// frame origin (kg·m²), all in the frame it is expressed in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inertia<S> {
    /// Mass (kg).
    pub mass: S,
    /// First moment of mass `m c` (kg·m).
    pub first_moment: Vector3<S>,
    /// Rotational inertia about the frame origin (kg·m²), symmetric.
    pub rotational: Matrix3<S>,
}

impl<S: Scalar> Inertia<S> {
    /// The inertia of nothing.
    pub fn zero() -> Self {
        Self {
            mass: S::zero(),
            first_moment: Vector3::zeros(),
            rotational: Matrix3::zeros(),
        }
    }

    /// An inertia of model constants.
    pub fn constant(i: &Inertia<f64>) -> Self {
        Self {
            mass: S::constant(i.mass),
            first_moment: Vector3::constant(i.first_moment.0),
            rotational: Matrix3::constant(i.rotational.0),
        }
    }

    /// From mass `m`, centre of mass `c` and rotational inertia `I_c` about the
    /// centre of mass (parallel-axis theorem: `I_o = I_c - m [c]×[c]×`).
    pub fn from_com(mass: S, com: Vector3<S>, inertia_at_com: Matrix3<S>) -> Self {
        let skew = com.skew();
        Self {
            mass,
            first_moment: com.scale(mass),
            rotational: inertia_at_com - (skew * skew).scale(mass),
        }
    }

    /// The momentum `I v` of a body moving with `v` (Featherstone 2008, eq. 2.63).
    pub fn mul_motion(&self, v: &Motion<S>) -> Force<S> {
        let h = &self.first_moment;
        Force {
            linear: v.linear.scale(self.mass) - h.cross(&v.angular),
            angular: self.rotational * v.angular + h.cross(&v.linear),
        }
    }

    /// The same inertia expressed in frame a, given `a_from_b` and the inertia in b
    /// (Pinocchio's `aMb.act(I)`).
    pub fn transformed(&self, a_from_b: &Transform<S>) -> Self {
        let (r, p) = (&a_from_b.rotation, &a_from_b.translation);
        let g = *r * self.first_moment;
        let rotated = self.rotational.rotate_symmetric(r);
        // I_a = R I_o Rᵀ - [g]×[p]× - [p]×[g]× - m [p]×[p]×, with g = R h; by
        // [a]×[b]× = b aᵀ - (a·b) E, that is R I_o Rᵀ - (k pᵀ + p kᵀ) + 2 (p·k) E
        // with k = g + m p / 2.
        let k = g + p.scale(self.mass * S::constant(0.5));
        let pk: [S; 3] = core::array::from_fn(|i| p.0[i] * k.0[i]);
        let two = S::constant(2.0);
        let mut rotational = rotated;
        for i in 0..3 {
            let (j, l) = ((i + 1) % 3, (i + 2) % 3);
            rotational.0[i][i] = rotated.0[i][i] + two * (pk[j] + pk[l]);
            for j in i + 1..3 {
                let x = rotated.0[i][j] - (k.0[i] * p.0[j] + p.0[i] * k.0[j]);
                rotational.0[i][j] = x;
                rotational.0[j][i] = x;
            }
        }
        Self {
            mass: self.mass,
            first_moment: g + p.scale(self.mass),
            rotational,
        }
    }

    /// The inertia of the standard inertial-parameter vector
    /// `π = [m, h_x, h_y, h_z, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz]`: mass (kg),
    /// first moment `h = m c` (kg·m) and rotational inertia about the frame
    /// origin (kg·m²), in the frame it is expressed in (Pinocchio's
    /// `Inertia::FromDynamicParameters`). `π` has length 10.
    pub fn from_parameters(pi: &[S]) -> Self {
        let [m, hx, hy, hz, xx, xy, yy, xz, yz, zz]: [S; 10] = core::array::from_fn(|k| pi[k]);
        Self {
            mass: m,
            first_moment: Vector3([hx, hy, hz]),
            rotational: Matrix3([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]]),
        }
    }

    /// The inertial-parameter vector `π` of [`Inertia::from_parameters`]
    /// (Pinocchio's `Inertia::toDynamicParameters`).
    pub fn to_parameters(&self) -> [S; 10] {
        let (h, r) = (&self.first_moment.0, &self.rotational.0);
        [
            self.mass, h[0], h[1], h[2], r[0][0], r[0][1], r[1][1], r[0][2], r[1][2], r[2][2],
        ]
    }

    /// The kinetic energy `½ vᵀ I v` (J).
    pub fn kinetic_energy(&self, v: &Motion<S>) -> S {
        v.dot(&self.mul_motion(v)) * S::constant(0.5)
    }
}

fn symmetrise<S: Scalar>(m: &mut Matrix3<S>) {
    for i in 0..3 {
        for j in 0..i {
            m.0[j][i] = m.0[i][j];
        }
    }
}

impl<S: Scalar> Add for Inertia<S> {
    type Output = Self;
    fn add(self, r: Self) -> Self {
        Self {
            mass: self.mass + r.mass,
            first_moment: self.first_moment + r.first_moment,
            rotational: self.rotational + r.rotational,
        }
    }
}

impl<S: Scalar> Sub for Inertia<S> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Self {
            mass: self.mass - o.mass,
            first_moment: self.first_moment - o.first_moment,
            rotational: self.rotational - o.rotational,
        }
    }
}

impl<S: Scalar> AddAssign for Inertia<S> {
    fn add_assign(&mut self, r: Self) {
        *self = *self + r;
    }
}

/// Articulated-body inertias (Featherstone 2008 §7.2): symmetric, rows and
/// columns `[linear; angular]`, `f = A v + B ω`, `n = Bᵀ v + C ω`.
impl<S: Scalar> Matrix6<S> {
    /// The 6x6 matrix of a rigid-body inertia.
    pub fn from_inertia(i: &Inertia<S>) -> Self {
        let a = Matrix3::identity().scale(i.mass);
        let b = (-i.first_moment).skew();
        Self::from_blocks(&a, &b, &b.transpose(), &i.rotational)
    }

    /// The same inertia expressed in frame a, given `a_from_b`
    /// (`X*ᵀ IA X⁻¹`, Pinocchio's `aMb.act` on a 6x6 inertia); the matrix
    /// must be symmetric.
    pub fn transformed_inertia(&self, a_from_b: &Transform<S>) -> Self {
        let r = &a_from_b.rotation;
        let rt = r.transpose();
        let a = self.block(0, 0).rotate_symmetric(r);
        let b = *r * self.block(0, 3) * rt;
        let c = self.block(3, 3).rotate_symmetric(r);
        let ps = a_from_b.translation.skew();
        let a_ps = a * ps;
        let b_new = b - a_ps;
        // C + [p]× B - Bᵀ [p]× - [p]× A [p]×, with the last two sharing A [p]×.
        let pb = ps * b;
        let mut c_new = c + pb + pb.transpose() - ps * a_ps;
        symmetrise(&mut c_new);
        Self::from_blocks(&a, &b_new, &b_new.transpose(), &c_new)
    }
}
