//! The inverse of the joint-space inertia matrix through its tree-sparse
//! factorisation.

use super::crba::crba;
use crate::error::InputError;
use crate::{Data, Model, Scalar, Topology};

/// The inverse joint-space inertia matrix `M(q)⁻¹` (Pinocchio's
/// `computeMinverse`, symmetrised: the full matrix).
///
/// `M = Lᵀ D L` by the sparse `LTDL` factorisation of Featherstone 2008 §6.5
/// (Table 6.3), where `L` is unit lower triangular with nonzeros only where the
/// column's dof is an ancestor of the row's in the kinematic tree; `L⁻¹` has the
/// same pattern, and `M⁻¹ = L⁻¹ D⁻¹ L⁻ᵀ`, entry `(i, j)` summed over the common
/// ancestors `k` of dofs i and j: `Σ_k (L⁻¹)_ik D_k⁻¹ (L⁻¹)_jk`. No pivoting and
/// no branch on values (the pattern is the model's), one reciprocal per dof; the
/// cost is that of CRBA plus `O(nv d²)` for depth d, with no dense inversion.
///
/// On a model with mimic joints the factorisation is dense (a mimic couples
/// branches of the tree).
///
/// `q: [nq]`; returns `M⁻¹: [nv x nv]` row-major (1/kg, 1/(kg·m²), ...), also left
/// in `data.minv`; `data.mass_matrix` holds `M` and `data.ltdl` the factors.
/// `M(q) · minverse(q) = I` and `aba(q, v, τ) = minverse(q) (τ - rnea(q, v, 0))`.
///
/// # Errors
/// [`InputError`] when `q` does not have length `nq`, or `data` was built for
/// another model; checked before anything is written.
pub fn minverse<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
) -> Result<&'d [S], InputError> {
    crba(model, data, q)?;
    Ok(invert_mass_matrix(model, data))
}

/// `M⁻¹` of the `M` in `data.mass_matrix`, as [`minverse`] computes it after CRBA;
/// written to `data.minv` (and the factors to `data.ltdl`).
pub(crate) fn invert_mass_matrix<'d, S: Scalar>(model: &Model, data: &'d mut Data<S>) -> &'d [S] {
    factor_mass_matrix(model, data);
    inverse_from_factors(model, data)
}

/// `M⁻¹` from the factors in `data.ltdl` ([`factor_mass_matrix`]), written to
/// `data.minv`.
pub(crate) fn inverse_from_factors<'d, S: Scalar>(model: &Model, data: &'d mut Data<S>) -> &'d [S] {
    let nv = model.nv;
    let tree = model.topology();
    let parent = tree.dof_parents();
    let h = &data.ltdl;
    let y = |i: usize, k: usize| if i == k { S::one() } else { h[i * nv + k] };
    for i in 0..nv {
        for j in 0..=i {
            // The deepest common ancestor-or-self of i and j, then up to the root.
            let mut k = Some(j);
            while let Some(kk) = k.filter(|&kk| !tree.is_dof_ancestor(kk, i)) {
                k = parent[kk];
            }
            let mut x = S::zero();
            while let Some(kk) = k {
                let d_inv = S::one() / h[kk * nv + kk];
                x = x + y(i, kk) * d_inv * y(j, kk);
                k = parent[kk];
            }
            data.minv[i * nv + j] = x;
            data.minv[j * nv + i] = x;
        }
    }
    &data.minv
}

/// The tree-sparse factors of the `M` in `data.mass_matrix` into `data.ltdl`:
/// D on the diagonal, `Y = L⁻¹` strictly below it, so that `M⁻¹ = Y D⁻¹ Yᵀ`
/// as [`minverse`] and the solves of the derivatives and contacts use it. The
/// pattern is the model's ([`crate::Topology`]).
pub(crate) fn factor_mass_matrix<S: Scalar>(model: &Model, data: &mut Data<S>) {
    let tree = model.topology();
    let h = &mut data.ltdl;
    h.copy_from_slice(&data.mass_matrix);
    factorise(h, tree.dof_parents(), model.nv);
    invert_unit_lower(h, tree, model.nv);
}

/// In place, `H = Lᵀ D L` (Featherstone 2008, Table 6.3): D on the diagonal, L
/// strictly below, touching only the ancestor pattern of the lower triangle.
fn factorise<S: Scalar>(h: &mut [S], parent: &[Option<usize>], nv: usize) {
    for k in (0..nv).rev() {
        let d_inv = S::one() / h[k * nv + k];
        let mut i = parent[k];
        while let Some(ii) = i {
            let a = h[k * nv + ii] * d_inv;
            let mut j = Some(ii);
            while let Some(jj) = j {
                h[ii * nv + jj] = h[ii * nv + jj] - a * h[k * nv + jj];
                j = parent[jj];
            }
            h[k * nv + ii] = a;
            i = parent[ii];
        }
    }
}

/// In place, the strictly lower part `L` becomes that of `Y = L⁻¹` (unit lower
/// triangular, same ancestor pattern): column by column,
/// `Y_ij = -(L_ij + Σ_k L_ik Y_kj)` over the dofs k strictly between j and i on
/// the path from i up to j. Columns are taken left to right, so the `L_ik` with
/// `k > j` are still unchanged when read.
fn invert_unit_lower<S: Scalar>(h: &mut [S], tree: &Topology, nv: usize) {
    let parent = tree.dof_parents();
    for j in 0..nv {
        // The dofs below j: its subtree, one range.
        for i in j + 1..tree.dof_subtree(j).end {
            let mut x = h[i * nv + j];
            let mut k = parent[i];
            while let Some(kk) = k.filter(|&kk| kk > j) {
                x = x + h[i * nv + kk] * h[kk * nv + j];
                k = parent[kk];
            }
            h[i * nv + j] = -x;
        }
    }
}
