//! Forward kinematics: joint and frame placements.

use super::{check_data, check_index, check_q};
use crate::error::InputError;
use crate::spatial::{Motion, Transform};
use crate::{Data, Model, Scalar};

/// One forward step: the joint's placement in its parent at `q` and in the world.
pub(crate) fn joint_placement<S: Scalar>(model: &Model, data: &mut Data<S>, i: usize, q: &[S]) {
    let joint = &model.joints[i];
    let li_mi = Transform::constant(&joint.placement) * joint.transform_at(q);
    data.o_mi[i] = if joint.parent > 0 {
        data.o_mi[joint.parent] * li_mi
    } else {
        li_mi
    };
    data.li_mi[i] = li_mi;
}

/// Forward kinematics: `world_from_joint` of every joint at `q` (Pinocchio's
/// `forwardKinematics(model, data, q)`), written to `data.o_mi` and `data.li_mi`.
///
/// `q: [nq]` (rad, m; free-flyer `[x y z qx qy qz qw]`).
///
/// Inputs are used as given, as Pinocchio does: a non-unit free-flyer
/// quaternion enters the rotation formula unnormalised, and NaN in gives NaN
/// out (see the crate documentation, "Inputs are used as given").
///
/// # Errors
/// [`InputError`] when `q` does not have length `nq`, or `data` was built for
/// another model; checked before anything is written.
pub fn forward_kinematics<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
) -> Result<(), InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    for i in 1..model.njoints() {
        joint_placement(model, data, i, q);
    }
    Ok(())
}

/// `world_from_frame` of one frame from `data.o_mi` (Pinocchio's
/// `updateFramePlacement`); run [`forward_kinematics`] first.
///
/// # Errors
/// [`InputError`] when `frame` is not a frame index of the model, or `data`
/// was built for another model.
pub fn frame_placement<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    frame: usize,
) -> Result<Transform<S>, InputError> {
    check_data(model, data)?;
    check_index("frame", frame, model.frames.len())?;
    Ok(placement(model, data, frame))
}

/// [`frame_placement`] of a frame index of `model`, `data` built for it.
pub(crate) fn placement<S: Scalar>(model: &Model, data: &Data<S>, frame: usize) -> Transform<S> {
    let f = &model.frames[frame];
    let joint_from_frame = Transform::constant(&f.placement);
    if f.parent_joint == 0 {
        joint_from_frame
    } else {
        data.o_mi[f.parent_joint] * joint_from_frame
    }
}

/// `world_from_frame` of every frame into `data.o_mf` (Pinocchio's
/// `updateFramePlacements`); run [`forward_kinematics`] first.
///
/// # Errors
/// [`InputError::Data`] when `data` was built for another model; nothing is
/// written then.
pub fn update_frame_placements<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
) -> Result<(), InputError> {
    check_data(model, data)?;
    for k in 0..model.frames.len() {
        data.o_mf[k] = placement(model, data, k);
    }
    Ok(())
}

/// One forward step of the velocity pass, after [`joint_placement`]: the body's
/// spatial velocity `v_i = i_from_parent · v_parent + vJ` in joint frame i and the
/// joint velocity `vJ = S_i v[idx_v..]` (Featherstone 2008 §5.3, Table 5.1).
pub(crate) fn body_velocity<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    i: usize,
    v: &[S],
) -> (Motion<S>, Motion<S>) {
    let joint = &model.joints[i];
    let vj = joint.motion_at(v);
    let vi = if joint.parent > 0 {
        data.li_mi[i].act_inv_motion(&data.v[joint.parent]) + vj
    } else {
        vj
    };
    (vi, vj)
}
