//! The types of the derivatives' workspace (`Data::derivatives`) that the
//! algorithms compute with: the scratch of the solves with the mass matrix
//! and the bias-force derivative `B` of a body or a subtree. They sit below
//! both the workspace and the algorithms, so neither imports the other.

use crate::spatial::{Force, Inertia, Matrix3, Motion, Vector3};
use crate::Scalar;

/// The scratch vectors of the tree-sparse solves with `M` (the algorithms'
/// `solve_mass_into`), `[nv]` each.
#[derive(Clone, Debug)]
pub(crate) struct MassSolve<S> {
    /// `±D⁻¹`.
    pub(crate) d_inv: Vec<S>,
    /// One column of `D⁻¹ Yᵀ b`.
    pub(crate) z: Vec<S>,
    /// The rows of the column read.
    pub(crate) rows: Vec<usize>,
}

impl<S: Scalar> MassSolve<S> {
    /// The scratch for `nv` dofs.
    pub(crate) fn new(nv: usize) -> Self {
        Self {
            d_inv: vec![S::zero(); nv],
            z: vec![S::zero(); nv],
            rows: Vec::with_capacity(nv),
        }
    }
}

/// `B x = v ×* (I x) - I (v × x) + x ×* h` of a body (or the sum over a
/// subtree) with inertia `I` (mass m, first moment `c̄ = m c`, rotational
/// inertia `Ī` about the origin), velocity `v = (v_l, ω)` and momentum
/// `h = I v = (h_l, h_a)`, all in one frame. With `[a]×[b]× - [b]×[a]× = [a × b]×`
/// and `h_l = m v_l - c̄ × ω`, its columns for linear motions vanish:
///
/// ```text
/// B = [ 0   -2 [h_l]× ]      B₂₂ = [ω]× Ī - Ī [ω]× - [v_l]×[c̄]× - [c̄]×[v_l]× - [h_a]×
///     [ 0    B₂₂      ]
/// ```
///
/// (`[ω]× Ī - Ī [ω]×` and `[v_l]×[c̄]× + [c̄]×[v_l]×` are symmetric), so it is
/// kept as `-2 h_l` and `B₂₂`: 12 numbers to form and to sum instead of 36.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bias<S> {
    /// `-2 h_l`: the upper right block is its cross-product matrix.
    linear: Vector3<S>,
    /// `B₂₂`.
    angular: Matrix3<S>,
}

impl<S: Scalar> Bias<S> {
    /// `B = 0`, the start of a sum over a subtree.
    pub(crate) fn zero() -> Self {
        Self {
            linear: Vector3::zeros(),
            angular: Matrix3::zeros(),
        }
    }

    /// `B` of a body with inertia `inertia`, velocity `v` and momentum `h = I v`.
    pub(crate) fn new(inertia: &Inertia<S>, v: &Motion<S>, h: &Force<S>) -> Self {
        let two = S::constant(2.0);
        let a = v.angular.skew() * inertia.rotational; // [ω]× Ī, and Ī [ω]× = -aᵀ
        let p = v.linear.skew() * inertia.first_moment.skew(); // [v_l]×[c̄]×
        let mut angular = Matrix3::zeros();
        for i in 0..3 {
            for j in i..3 {
                let x = a.0[i][j] + a.0[j][i] - p.0[i][j] - p.0[j][i];
                angular.0[i][j] = x;
                angular.0[j][i] = x;
            }
        }
        Self {
            linear: -h.linear.scale(two),
            angular: angular - h.angular.skew(),
        }
    }

    /// `B x = (-2 h_l × x_a, B₂₂ x_a)`.
    pub(crate) fn mul_motion(&self, x: &Motion<S>) -> Force<S> {
        Force {
            linear: self.linear.cross(&x.angular),
            angular: self.angular * x.angular,
        }
    }

    /// `Bᵀ x = (0, x_l × (-2 h_l) + B₂₂ᵀ x_a)`.
    pub(crate) fn transpose_mul_motion(&self, x: &Motion<S>) -> Force<S> {
        Force {
            linear: Vector3::zeros(),
            angular: x.linear.cross(&self.linear) + self.angular.transpose_mul(&x.angular),
        }
    }
}

impl<S: Scalar> core::ops::AddAssign for Bias<S> {
    fn add_assign(&mut self, rhs: Self) {
        self.linear = self.linear + rhs.linear;
        self.angular = self.angular + rhs.angular;
    }
}
