//! Inertial parameters: links whose inertias are inputs (a payload), and the
//! joint torque regressor `τ = Y(q, v, a) π`.

use super::kinematics::{body_velocity, joint_placement};
use super::{check_data, check_len, check_q, check_v};
use crate::error::InputError;
use crate::spatial::{Force, Transform};
use crate::{Data, Inertia, Model, Scalar};

/// Replaces the inertial parameters of the links of `model.parameters` in
/// `data.inertias`, for every algorithm that runs on `data` afterwards: the body
/// of each link's parent joint keeps the rest of its merged inertia and takes
/// the link's share from `pi` instead of the URDF (a grasped payload: pass the
/// link's own parameters plus the payload's, both about the link's origin).
///
/// `pi: [10 · model.parameters.len()]`, for each link in order the vector
/// `[m, h_x, h_y, h_z, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz]` of
/// [`Inertia::from_parameters`] in the link's frame (kg, kg·m, kg·m²), the
/// rotational inertia about the link frame's origin (Pinocchio's
/// `Inertia::FromDynamicParameters`). With each link's own parameters
/// ([`link_parameters`]) the dynamics are unchanged.
///
/// # Errors
/// [`InputError`] when `pi` does not have length `10 · model.parameters.len()`,
/// or `data` was built for another model; checked before anything is written.
pub fn set_link_parameters<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    pi: &[S],
) -> Result<(), InputError> {
    check_data(model, data)?;
    check_len("pi", pi.len(), 10 * model.parameters.len())?;
    let mut fixed: Vec<Option<Inertia<f64>>> = vec![None; model.njoints()];
    for &frame in &model.parameters {
        let f = &model.frames[frame];
        let base = fixed[f.parent_joint].get_or_insert(model.joints[f.parent_joint].inertia);
        *base = *base - f.inertia.transformed(&f.placement);
    }
    for (j, base) in fixed.iter().enumerate() {
        if let Some(base) = base {
            data.inertias[j] = Inertia::constant(base);
        }
    }
    for (k, &frame) in model.parameters.iter().enumerate() {
        let f = &model.frames[frame];
        let link = Inertia::from_parameters(&pi[10 * k..10 * k + 10]);
        let share = link.transformed(&Transform::constant(&f.placement));
        data.inertias[f.parent_joint] += share;
    }
    Ok(())
}

/// The URDF's inertial parameters of the links of `model.parameters`, in the
/// layout of [`set_link_parameters`]: `[10 · model.parameters.len()]`.
pub fn link_parameters(model: &Model) -> Vec<f64> {
    model
        .parameters
        .iter()
        .flat_map(|&frame| model.frames[frame].inertia.to_parameters())
        .collect()
}

/// The joint torque regressor `Y(q, v, a)`, linear in the inertial parameters:
/// `rnea(q, v, a) = Y π + armature ⊙ a` for `π` the parameters of every joint's
/// body in its joint frame, stacked by joint id (Atkeson, An and Hollerbach
/// 1986; Pinocchio's `computeJointTorqueRegressor(model, data, q, v, a)`).
///
/// Column `10 (i - 1) + k` is the torque that parameter k of body i
/// (`[m, h_x, h_y, h_z, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz]`, the order of
/// [`Inertia::to_parameters`]) produces per unit: the body force
/// `I(e_k) a_i + v_i ×* I(e_k) v_i` of the RNEA forward pass (gravity as the
/// acceleration `-g` of the universe), projected on the motion subspace of
/// body i and of each of its ancestors.
///
/// `q: [nq]`, `v: [nv]`, `a: [nv]`; returns `Y: [nv x 10 (njoints - 1)]`
/// row-major. Body twists and accelerations are left in `data.v` and `data.a`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or `data` was
/// built for another model; checked before anything is written.
pub fn joint_torque_regressor<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    a: &[S],
) -> Result<Vec<S>, InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_v(model, "a", a.len())?;
    let n = model.njoints();
    let cols = 10 * (n - 1);
    let mut y = vec![S::zero(); model.nv * cols];
    let gravity = super::universe_acceleration(model);
    for i in 1..n {
        let joint = &model.joints[i];
        joint_placement(model, data, i, q);
        let (vi, vj) = body_velocity(model, data, i, v);
        let a_parent = if joint.parent > 0 {
            data.a[joint.parent]
        } else {
            gravity
        };
        let ai = data.li_mi[i].act_inv_motion(&a_parent) + joint.motion_at(a) + vi.cross(&vj);
        data.v[i] = vi;
        data.a[i] = ai;
        for k in 0..10 {
            let mut e = [S::zero(); 10];
            e[k] = S::one();
            let unit = Inertia::from_parameters(&e);
            let mut f: Force<S> = unit.mul_motion(&ai) + vi.cross_force(&unit.mul_motion(&vi));
            let col = 10 * (i - 1) + k;
            let mut j = i;
            while j > 0 {
                let ancestor = &model.joints[j];
                // A mimicking ancestor adds its share into its primary's row.
                for l in 0..ancestor.kind.nv() {
                    let r = ancestor.idx_v + l;
                    y[r * cols + col] = y[r * cols + col] + ancestor.subspace::<S>(l).dot(&f);
                }
                f = data.li_mi[j].act_force(&f);
                j = ancestor.parent;
            }
        }
    }
    Ok(y)
}
