//! Small dense linear algebra for the joint-space blocks of ABA.

use crate::spatial::Matrix6;
use crate::Scalar;

/// The inverse of the symmetric positive-definite leading `n x n` block of `a`
/// (n ≤ 6), by an LDLᵀ factorisation without pivoting: no branch on values, one
/// reciprocal per pivot.
#[allow(clippy::needless_range_loop)] // Index arithmetic mirrors the factorisation.
pub(crate) fn invert_spd<S: Scalar>(a: &Matrix6<S>, n: usize) -> Matrix6<S> {
    let a = &a.0;
    let mut l = [[S::zero(); 6]; 6];
    let mut diag = [S::zero(); 6];
    let mut d_inv = [S::zero(); 6];
    for j in 0..n {
        let mut d = a[j][j];
        for k in 0..j {
            d = d - l[j][k] * l[j][k] * diag[k];
        }
        diag[j] = d;
        d_inv[j] = S::one() / d;
        for i in j + 1..n {
            let mut x = a[i][j];
            for k in 0..j {
                x = x - l[i][k] * l[j][k] * diag[k];
            }
            l[i][j] = x * d_inv[j];
        }
    }
    let mut inv = Matrix6::zeros();
    for c in 0..n {
        // Solve L y = e_c, then Lᵀ x = D⁻¹ y.
        let mut y = [S::zero(); 6];
        for i in 0..n {
            let mut x = if i == c { S::one() } else { S::zero() };
            for k in 0..i {
                x = x - l[i][k] * y[k];
            }
            y[i] = x;
        }
        for i in (0..n).rev() {
            let mut x = y[i] * d_inv[i];
            for k in i + 1..n {
                x = x - l[k][i] * inv.0[k][c];
            }
            inv.0[i][c] = x;
        }
    }
    inv
}
