//! Small dense linear algebra for the joint-space blocks of ABA: the `LDLᵀ`
//! factors of `D = Sᵀ IA S` (n ≤ 6) and the solves with them, so that no
//! inverse is ever formed.

use crate::spatial::Matrix6;
use crate::Scalar;

/// The `LDLᵀ` factors of the symmetric positive-definite leading `n x n`
/// block of `a` (n ≤ 6), without pivoting: no branch on values, one
/// reciprocal per pivot. Packed in one matrix: `L` (unit lower triangular)
/// strictly below the diagonal, the reciprocal pivots `1/d_j` on it.
pub(crate) fn ldl<S: Scalar>(a: &Matrix6<S>, n: usize) -> Matrix6<S> {
    let a = &a.0;
    let mut f = Matrix6::zeros();
    // e_ij = L_ij d_j, kept so that every update costs one product.
    let mut e = [[S::zero(); 6]; 6];
    for j in 0..n {
        let d = (0..j).fold(a[j][j], |d, k| d - f.0[j][k] * e[j][k]);
        f.0[j][j] = S::one() / d;
        for i in j + 1..n {
            e[i][j] = (0..j).fold(a[i][j], |x, k| x - f.0[i][k] * e[j][k]);
            f.0[i][j] = e[i][j] * f.0[j][j];
        }
    }
    f
}

/// `y = L⁻¹ b` for the factors of [`ldl`] (forward substitution).
pub(crate) fn forward_solve<S: Scalar>(f: &Matrix6<S>, n: usize, b: &[S; 6]) -> [S; 6] {
    let mut y = [S::zero(); 6];
    for i in 0..n {
        y[i] = (0..i).fold(b[i], |x, k| x - f.0[i][k] * y[k]);
    }
    y
}

/// `x = (L D Lᵀ)⁻¹ b` for the factors of [`ldl`].
pub(crate) fn solve<S: Scalar>(f: &Matrix6<S>, n: usize, b: &[S; 6]) -> [S; 6] {
    let y = forward_solve(f, n, b);
    let mut x = [S::zero(); 6];
    for i in (0..n).rev() {
        x[i] = (i + 1..n).fold(y[i] * f.0[i][i], |acc, k| acc - f.0[k][i] * x[k]);
    }
    x
}
