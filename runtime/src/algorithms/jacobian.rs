//! Joint and frame Jacobians (Pinocchio's `computeJointJacobians`,
//! `getJointJacobian`, `getFrameJacobian`).

use super::kinematics::{joint_placement, placement};
use super::{check_data, check_index, check_q};
use crate::error::InputError;
use crate::spatial::{Motion, Transform};
use crate::{Data, Model, Scalar};

/// The frame a Jacobian's twist is expressed in (Pinocchio's `ReferenceFrame`).
/// For a point-carrying frame F with `world_from_frame = (R, p)`:
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReferenceFrame {
    /// F's own axes, at F's origin: `J_local = F_from_world · J_world` (Pinocchio's `LOCAL`).
    Local,
    /// World axes, at the world origin: the spatial twist (Pinocchio's `WORLD`).
    World,
    /// World axes, at F's origin: linear rows `v_F = v_O + ω × p`, angular rows
    /// unchanged (Pinocchio's `LOCAL_WORLD_ALIGNED`).
    LocalWorldAligned,
}

impl ReferenceFrame {
    /// Every reference frame.
    pub const ALL: [ReferenceFrame; 3] = [
        ReferenceFrame::Local,
        ReferenceFrame::World,
        ReferenceFrame::LocalWorldAligned,
    ];
}

/// One forward step: the world-frame columns `world_from_joint · S_k` of joint
/// i, after its placement is known. A mimicking joint has no column of its
/// own in `data.j` (see [`joint_column`]).
pub(crate) fn update_joint_jacobian<S: Scalar>(model: &Model, data: &mut Data<S>, i: usize) {
    let joint = &model.joints[i];
    if joint.mimic.is_some() {
        return;
    }
    for k in 0..joint.kind.nv() {
        data.j[joint.idx_v + k] = data.o_mi[i].act_motion(&joint.kind.subspace_column(k));
    }
}

/// The world-frame column `world_from_joint · S_k` of dof k of joint i (its
/// share of column `idx_v + k` of a Jacobian), after its placement is known:
/// `data.j`'s column, or for a mimicking joint its own column scaled by the gain.
pub(crate) fn joint_column<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    i: usize,
    k: usize,
) -> Motion<S> {
    let joint = &model.joints[i];
    match joint.mimic {
        None => data.j[joint.idx_v + k],
        Some(_) => data.o_mi[i].act_motion(&joint.subspace(k)),
    }
}

/// The joint Jacobian of the whole tree in the world frame at `q`: column k is
/// the spatial twist (world axes, at the world origin) that a unit velocity of
/// dof k gives its body, `J_k = world_from_joint · S_k` (Featherstone 2008 §8.1;
/// Pinocchio's `computeJointJacobians(model, data, q)`).
///
/// `q: [nq]`; returns the `nv` columns, also left in `data.j`, with the joint
/// placements in `data.o_mi`. [`joint_jacobian`] and [`frame_jacobian`] read them.
/// On a model with mimic joints ([`crate::model::mimic`]) the columns are
/// those of the independent joints (Pinocchio's `data.J` has a column per
/// joint there instead); the joint and frame Jacobians add the mimicking
/// joints' shares.
///
/// # Errors
/// [`InputError`] when `q` does not have length `nq`, or `data` was built for
/// another model; checked before anything is written.
pub fn compute_joint_jacobians<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
) -> Result<&'d [Motion<S>], InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    for i in 1..model.njoints() {
        joint_placement(model, data, i, q);
        update_joint_jacobian(model, data, i);
    }
    Ok(&data.j)
}

/// The Jacobian of joint `joint`'s frame, `v = J v̇` with `v` the frame's twist
/// in `reference` (Pinocchio's `getJointJacobian(model, data, joint, rf)`); run
/// [`compute_joint_jacobians`] first.
///
/// Returns `J: [6 x nv]` row-major, rows `[linear; angular]` (m/s and rad/s per
/// unit of v); columns outside the joint's chain to the root are zero.
///
/// # Errors
/// [`InputError`] when `joint` is not a joint id of the model, or `data` was
/// built for another model; checked before anything is written.
pub fn joint_jacobian<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    joint: usize,
    reference: ReferenceFrame,
) -> Result<Vec<S>, InputError> {
    check_data(model, data)?;
    check_index("joint", joint, model.njoints())?;
    Ok(jacobian_at(
        model,
        data,
        joint,
        &data.o_mi[joint],
        reference,
    ))
}

/// The Jacobian of frame `frame`, `v = J v̇` with `v` the frame's twist in
/// `reference` (Pinocchio's `getFrameJacobian(model, data, frame, rf)`); run
/// [`compute_joint_jacobians`] first.
///
/// Returns `J: [6 x nv]` row-major, rows `[linear; angular]`; columns outside
/// the chain from the frame's joint to the root are zero, and so is the whole
/// matrix of a frame welded to the universe.
///
/// # Errors
/// [`InputError`] when `frame` is not a frame index of the model, or `data` was
/// built for another model; checked before anything is written.
pub fn frame_jacobian<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    frame: usize,
    reference: ReferenceFrame,
) -> Result<Vec<S>, InputError> {
    check_data(model, data)?;
    check_index("frame", frame, model.frames.len())?;
    let placement = placement(model, data, frame);
    Ok(jacobian_at(
        model,
        data,
        model.frames[frame].parent_joint,
        &placement,
        reference,
    ))
}

/// The columns of the chain of `joint` from `data.j`, expressed in `reference`
/// for a frame at `world_from_frame`.
fn jacobian_at<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    joint: usize,
    world_from_frame: &Transform<S>,
    reference: ReferenceFrame,
) -> Vec<S> {
    jacobian_columns(model, joint, |i, k| {
        let world = &joint_column(model, data, i, k);
        match reference {
            ReferenceFrame::World => *world,
            ReferenceFrame::LocalWorldAligned => Motion {
                linear: world.linear - world_from_frame.translation.cross(&world.angular),
                angular: world.angular,
            },
            ReferenceFrame::Local => world_from_frame.act_inv_motion(world),
        }
    })
}

/// A `[6 x nv]` row-major matrix that sums `column(i, k)` into column
/// `idx_v + k` for the dofs k of `joint` and of its ancestors i, zero elsewhere
/// (a mimicking joint adds into its primary's column).
pub(crate) fn jacobian_columns<S: Scalar>(
    model: &Model,
    joint: usize,
    column: impl Fn(usize, usize) -> Motion<S>,
) -> Vec<S> {
    let nv = model.nv;
    let mut out = vec![S::zero(); 6 * nv];
    let mut i = joint;
    while i > 0 {
        let j = &model.joints[i];
        for k in 0..j.kind.nv() {
            let col = j.idx_v + k;
            for (r, x) in column(i, k).to_array().into_iter().enumerate() {
                out[r * nv + col] = out[r * nv + col] + x;
            }
        }
        i = j.parent;
    }
    out
}
