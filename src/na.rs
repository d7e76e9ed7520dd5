//! nalgebra in and out (feature `nalgebra`): conversions between the arrays
//! of the generated code and nalgebra's types, to call generated functions on
//! `SVector`s and get `SMatrix`, `Isometry3` and `UnitQuaternion` back.
//!
//! The generated code stays on fixed-size arrays (`no_std`, no dependency):
//! vectors `[T; N]`, matrices `[[T; C]; R]` as arrays of rows (row-major),
//! placements as 4 x 4 homogeneous matrices, a free-flyer configuration as
//! `[x y z qx qy qz qw]`. nalgebra stores `SMatrix<T, R, C>` column-major, so
//! what can be shared depends on the layout:
//!
//! | function | from → to | cost |
//! |---|---|---|
//! | [`vector`], [`array()`] | `[T; N]` ↔ `SVector<T, N>` | a move: same layout, no reordering |
//! | [`vector_view`], [`array_ref`] | `&[T; N]` ↔ `SVectorView` / `&SVector` | none: a borrow of the same memory |
//! | [`transposed`] | `[[T; C]; R]` → `SMatrix<T, C, R>`, the transpose | a move: same layout |
//! | [`transposed_view`] | `&[[T; C]; R]` → `SMatrixView<T, C, R>`, the transpose | none: a borrow of the same memory |
//! | [`matrix`], [`rows`] | `[[T; C]; R]` ↔ `SMatrix<T, R, C>` | a copy (row-major ↔ column-major) |
//! | [`isometry`], [`homogeneous`] | `[[T; 4]; 4]` ↔ `Isometry3<T>` | a copy, and a quaternion from the rotation block |
//! | [`base_placement`], [`set_base_placement`] | `q[0..7]` ↔ `Isometry3<T>` | a copy |
//!
//! For a symmetric matrix (`crba`, `minverse`) the row-major array is also its
//! column-major storage: [`transposed`] gives the matrix itself without a copy.
//! For any matrix, `transposed_view(&rows).tr_mul(&x)` is `M x` without a copy.
//! There is deliberately no row-major (strided) view of `M` itself: nalgebra
//! 0.33's matrix-vector products on views with a row stride above 1 write out
//! of bounds (dimforge/nalgebra#1616, open).
//!
//! ```
//! # rbdgen::robot_dynamics!(mod z1, "models/z1.urdf", functions = [rnea, crba, frame_placement]);
//! use rbdgen::na::{self, array_ref, nalgebra::SVector};
//!
//! let q = SVector::<f64, { z1::NQ }>::from_element(0.3);
//! let v = SVector::<f64, { z1::NV }>::zeros();
//! let tau = na::vector(z1::rnea(array_ref(&q), array_ref(&v), array_ref(&v))); // SVector
//! let m = na::matrix(&z1::crba(array_ref(&q)));                                // SMatrix
//! let a = m.cholesky().unwrap().solve(&tau); // M⁻¹ g(q)
//! let placement = na::isometry(&z1::frame_placement(array_ref(&q), z1::Frame::ALL[3]));
//! # let _ = (a, placement);
//! ```

use nalgebra::{
    ArrayStorage, Isometry3, Matrix3, Quaternion, RealField, Rotation3, SMatrix, SMatrixView,
    SVector, SVectorView, Scalar, Translation3, UnitQuaternion,
};

pub use nalgebra;

/// `SVector` from an array, by move (the same layout).
pub fn vector<T: Scalar, const N: usize>(a: [T; N]) -> SVector<T, N> {
    SVector::from_array_storage(ArrayStorage([a]))
}

/// A view of an array as an `SVector`, without a copy.
pub fn vector_view<T: Scalar, const N: usize>(a: &[T; N]) -> SVectorView<'_, T, N> {
    SVectorView::from_slice(a)
}

/// The array of an `SVector`, by move (the same layout).
pub fn array<T: Scalar, const N: usize>(v: SVector<T, N>) -> [T; N] {
    let ArrayStorage([a]) = v.data;
    a
}

/// The array an `SVector` holds, borrowed without a copy: the argument of a
/// generated function (`z1::rnea(array_ref(&q), ...)`).
pub fn array_ref<T: Scalar, const N: usize>(v: &SVector<T, N>) -> &[T; N] {
    &v.data.0[0]
}

/// The `R x C` matrix of a row-major array `[[T; C]; R]`: a copy, since
/// nalgebra is column-major.
pub fn matrix<T: Scalar, const R: usize, const C: usize>(rows: &[[T; C]; R]) -> SMatrix<T, R, C> {
    SMatrix::from_fn(|i, j| rows[i][j].clone())
}

/// The transpose `C x R` of the row-major array `[[T; C]; R]`, by move: the
/// array is the column-major storage of its transpose. For a symmetric
/// matrix (`crba`, `minverse`) that is the matrix itself; for a Jacobian
/// `[[T; NV]; 6]` it is `Jᵀ`, `NV x 6`.
pub fn transposed<T: Scalar, const R: usize, const C: usize>(
    rows: [[T; C]; R],
) -> SMatrix<T, C, R> {
    SMatrix::from_array_storage(ArrayStorage(rows))
}

/// A view of the transpose `C x R` of the row-major array `[[T; C]; R]`,
/// without a copy: the matrix itself for a symmetric one (`crba`,
/// `minverse`), `Jᵀ` for a Jacobian; `view.tr_mul(&x)` is `M x`.
pub fn transposed_view<T: Scalar, const R: usize, const C: usize>(
    rows: &[[T; C]; R],
) -> SMatrixView<'_, T, C, R> {
    SMatrixView::from_slice(rows.as_flattened())
}

/// The rows of a matrix, `[[T; C]; R]`, the layout of the generated code's
/// matrix arguments (`pose_error`'s target): a copy.
pub fn rows<T: Scalar, const R: usize, const C: usize>(m: &SMatrix<T, R, C>) -> [[T; C]; R] {
    std::array::from_fn(|i| std::array::from_fn(|j| m[(i, j)].clone()))
}

/// The placement of a 4 x 4 homogeneous matrix `[[R, p], [0, 1]]`
/// (`frame_placement`'s `oMf`): a copy. The rotation block is taken as a
/// rotation matrix (it is one to rounding; its quaternion is computed with
/// [`UnitQuaternion::from_rotation_matrix`]).
pub fn isometry<T: RealField + Copy>(m: &[[T; 4]; 4]) -> Isometry3<T> {
    let rotation = Matrix3::from_fn(|i, j| m[i][j]);
    Isometry3::from_parts(
        Translation3::new(m[0][3], m[1][3], m[2][3]),
        UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(rotation)),
    )
}

/// The 4 x 4 homogeneous matrix `[[R, p], [0, 1]]` of a placement, as the
/// generated code takes it (`pose_error`'s target): a copy.
pub fn homogeneous<T: RealField + Copy>(placement: &Isometry3<T>) -> [[T; 4]; 4] {
    rows(&placement.to_homogeneous())
}

/// The base placement `world_from_base` of a free-flyer configuration `q`
/// (`[x y z qx qy qz qw, joints...]`, nalgebra's quaternion order too): a
/// copy. The quaternion is normalised (the generated code uses it as given).
///
/// # Panics
/// When `q` has fewer than 7 entries.
pub fn base_placement<T: RealField + Copy>(q: &[T]) -> Isometry3<T> {
    Isometry3::from_parts(
        Translation3::new(q[0], q[1], q[2]),
        UnitQuaternion::from_quaternion(Quaternion::new(q[6], q[3], q[4], q[5])),
    )
}

/// Writes a placement into the free-flyer entries `q[0..7]` of a
/// configuration (`[x y z qx qy qz qw]`), leaving the joints as they are.
///
/// # Panics
/// When `q` has fewer than 7 entries.
pub fn set_base_placement<T: RealField + Copy>(q: &mut [T], placement: &Isometry3<T>) {
    let p = &placement.translation.vector;
    let r = placement.rotation.quaternion();
    q[..7].copy_from_slice(&[p.x, p.y, p.z, r.i, r.j, r.k, r.w]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Matrix2x3, Vector3};

    #[test]
    fn vectors_round_trip_without_reordering() {
        let a = [1.0, 2.0, 3.0];
        assert_eq!(vector(a), Vector3::new(1.0, 2.0, 3.0));
        assert_eq!(vector_view(&a), Vector3::new(1.0, 2.0, 3.0));
        assert_eq!(array(vector(a)), a);
        let v = vector(a);
        assert!(
            std::ptr::eq(array_ref(&v), &v.data.0[0]),
            "a borrow, not a copy"
        );
    }

    #[test]
    fn matrices_read_rows_as_rows() {
        let rows_ = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
        let m = Matrix2x3::new(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
        assert_eq!(matrix(&rows_), m);
        assert_eq!(transposed(rows_), m.transpose());
        assert_eq!(transposed_view(&rows_), m.transpose());
        assert_eq!(rows(&m), rows_);
        let view = transposed_view(&rows_);
        assert!(
            std::ptr::eq(view.as_ptr(), rows_.as_ptr().cast()),
            "a view, not a copy"
        );
        let x = Vector3::new(1.0, 0.0, -1.0);
        assert_eq!(view.tr_mul(&x), m * x);
    }

    #[test]
    fn placements_round_trip() {
        let placement = Isometry3::new(Vector3::new(0.1, -0.2, 0.3), Vector3::new(0.4, 0.5, -0.6));
        let h = homogeneous(&placement);
        assert_eq!(h[3], [0.0, 0.0, 0.0, 1.0]);
        assert!((isometry(&h).to_homogeneous() - placement.to_homogeneous()).norm() < 1e-15);
        let mut q = [0.0; 9];
        q[7] = 0.7;
        set_base_placement(&mut q, &placement);
        assert_eq!(q[7], 0.7);
        assert!((base_placement(&q).to_homogeneous() - placement.to_homogeneous()).norm() < 1e-15);
        // [x y z qx qy qz qw], qw last.
        let half_turn_z = base_placement(&[0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
        let x = half_turn_z * nalgebra::Point3::new(1.0, 0.0, 0.0);
        assert!((x - nalgebra::Point3::new(-1.0, 0.0, 0.0)).norm() < 1e-15);
    }
}
