//! Composite rigid-body algorithm for the joint-space inertia matrix.

use super::kinematics::joint_placement;
use super::{check_data, check_q};
use crate::error::InputError;
use crate::{Data, Model, Scalar};

/// The joint-space inertia matrix `M(q)` by the composite rigid-body algorithm
/// (Featherstone 2008 §6.2, Table 6.2; Pinocchio's `crba`, which fills only the
/// upper triangle: this returns the full symmetric matrix).
///
/// `q: [nq]`; returns `M: [nv x nv]` row-major (kg, kg·m, kg·m²), also left in
/// `data.mass_matrix`. Column k of M is `rnea(q, 0, e_k) - rnea(q, 0, 0)`.
///
/// Inputs are used as given, as Pinocchio does: a non-unit free-flyer
/// quaternion enters the rotation formula unnormalised, and NaN in gives NaN
/// out (see the crate documentation, "Inputs are used as given").
///
/// # Errors
/// [`InputError`] when `q` does not have length `nq`, or `data` was built for
/// another model; checked before anything is written.
pub fn crba<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
) -> Result<&'d [S], InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    for i in 1..model.njoints() {
        joint_placement(model, data, i, q);
        data.ycrb[i] = data.inertias[i];
    }
    // Zeros, then each pair of joints adds its share: a mimicking joint adds into
    // its primary's rows and columns (`M = Gᵀ M_full G`).
    data.mass_matrix.fill(S::zero());
    for i in (1..model.njoints()).rev() {
        backward_step(model, data, i);
    }
    add_armature_diagonal(model, &mut data.mass_matrix);
    Ok(&data.mass_matrix)
}

/// `M += diag(armature)` (Pinocchio's `crba` with `model.armature`).
pub(crate) fn add_armature_diagonal<S: Scalar>(model: &Model, m: &mut [S]) {
    let nv = model.nv;
    for (k, &arm) in model.armature.iter().enumerate() {
        if arm != 0.0 {
            m[k * nv + k] = m[k * nv + k] + S::constant(arm);
        }
    }
}

fn backward_step<S: Scalar>(model: &Model, data: &mut Data<S>, i: usize) {
    let nv = model.nv;
    let joint = &model.joints[i];
    for k in 0..joint.kind.nv() {
        let col = joint.idx_v + k;
        // The force that accelerating dof k demands of the composite body i, carried up the chain.
        let mut f = data.ycrb[i].mul_motion(&joint.subspace(k));
        let mut j = i;
        loop {
            let ancestor = &model.joints[j];
            for l in 0..ancestor.kind.nv() {
                let row = ancestor.idx_v + l;
                let m = ancestor.subspace::<S>(l).dot(&f);
                let entry = &mut data.mass_matrix[row * nv + col];
                *entry = *entry + m;
                // The block of joint i itself is visited whole; an ancestor's
                // entry also stands for its transpose.
                if j != i {
                    let entry = &mut data.mass_matrix[col * nv + row];
                    *entry = *entry + m;
                }
            }
            if ancestor.parent == 0 {
                break;
            }
            f = data.li_mi[j].act_force(&f);
            j = ancestor.parent;
        }
    }
    if joint.parent > 0 {
        let y = data.ycrb[i].transformed(&data.li_mi[i]);
        data.ycrb[joint.parent] += y;
    }
}
