//! Time variation of the Jacobians and the acceleration drift of frames: the
//! `J̇ v` terms of task and contact accelerations, `ẍ = J v̇ + J̇ v`.
//!
//! # Which drift a contact constraint needs
//!
//! A frame's *spatial* acceleration (Pinocchio's `getFrameAcceleration`) is
//! the time derivative of its twist in a fixed frame: its linear part is not
//! the acceleration of any material point. The acceleration of the frame's
//! origin, what a point that must not slip has zero of, is the *classical*
//! acceleration (Pinocchio's `getFrameClassicalAcceleration`): the spatial
//! linear part plus `ω × v`. A point contact `J_lwa v̇ + γ = 0` therefore uses
//! the classical drift, `γ = J̇_lwa v` in LOCAL_WORLD_ALIGNED; a 6-D contact
//! (a foot sole that neither slides nor turns) keeps the whole frame still and
//! uses the spatial drift in LOCAL, `γ = J̇_local v`. Using the spatial linear
//! part for a point contact leaves out `ω × v`, and the foot slides whenever
//! its body turns.

use super::jacobian::{jacobian_columns, joint_column, update_joint_jacobian, ReferenceFrame};
use super::kinematics::{body_velocity, joint_placement, placement};
use super::{check_data, check_index, check_q, check_v};
use crate::error::InputError;
use crate::spatial::Motion;
use crate::{Data, Model, Scalar};

/// The world-frame joint Jacobian and its time variation along `v`: column k
/// of `J` is `world_from_joint · S_k` (as [`super::compute_joint_jacobians`]),
/// and column k of `J̇` is `v_i × J_k` for the world twist `v_i` of the body of
/// its joint i (Pinocchio's `computeJointJacobiansTimeVariation(model, data, q, v)`,
/// `data.dJ`).
///
/// On a model with mimic joints the columns are those of the independent
/// joints, as in [`super::compute_joint_jacobians`].
///
/// `q: [nq]`, `v: [nv]`; returns the `nv` columns of `J̇`, also left in
/// `data.dj`, with `J` in `data.j`, the world twists in `data.ov` and the body
/// twists in `data.v`. [`frame_jacobian_time_variation`] reads them.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or `data` was
/// built for another model; checked before anything is written.
pub fn compute_joint_jacobians_time_variation<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
    v: &[S],
) -> Result<&'d [Motion<S>], InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    for i in 1..model.njoints() {
        joint_placement(model, data, i, q);
        update_joint_jacobian(model, data, i);
        let (vi, _) = body_velocity(model, data, i, v);
        data.v[i] = vi;
        data.ov[i] = data.o_mi[i].act_motion(&vi);
        let joint = &model.joints[i];
        if joint.mimic.is_none() {
            for col in joint.v_range() {
                data.dj[col] = data.ov[i].cross(&data.j[col]);
            }
        }
    }
    Ok(&data.dj)
}

/// The time variation `J̇` of a frame's Jacobian in `reference`, so that the
/// frame's acceleration is `J v̇ + J̇ v` (Pinocchio's
/// `getFrameJacobianTimeVariation(model, data, frame, rf)`); run
/// [`compute_joint_jacobians_time_variation`] first.
///
/// With `p` the frame's origin and `ω`, `ṗ` its angular velocity and the
/// velocity of its origin (world axes), and the world columns `J_k`, `J̇_k`:
/// WORLD is `J̇_k`; LOCAL_WORLD_ALIGNED is `(J̇_k.lin - ṗ × J_k.ang - p × J̇_k.ang,
/// J̇_k.ang)`, the derivative of its `J_k.lin - p × J_k.ang`; LOCAL is
/// `F_from_world (J̇_k - v_F × J_k)` for the frame's world twist `v_F`.
///
/// Returns `J̇: [6 x nv]` row-major, rows `[linear; angular]`; zero outside the
/// chain from the frame's joint to the root.
///
/// # Errors
/// [`InputError`] when `frame` is not a frame index of the model, or `data` was
/// built for another model; checked before anything is written.
pub fn frame_jacobian_time_variation<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    frame: usize,
    reference: ReferenceFrame,
) -> Result<Vec<S>, InputError> {
    check_data(model, data)?;
    check_index("frame", frame, model.frames.len())?;
    let placement = placement(model, data, frame);
    let joint = model.frames[frame].parent_joint;
    let twist = if joint > 0 {
        data.ov[joint]
    } else {
        Motion::zero()
    };
    let p = placement.translation;
    let p_dot = twist.linear + twist.angular.cross(&p);
    Ok(jacobian_columns(model, joint, |i, k| {
        let j = &joint_column(model, data, i, k);
        let dj = &match model.joints[i].mimic {
            None => data.dj[model.joints[i].idx_v + k],
            Some(_) => data.ov[i].cross(j),
        };
        match reference {
            ReferenceFrame::World => *dj,
            ReferenceFrame::LocalWorldAligned => Motion {
                linear: dj.linear - p_dot.cross(&j.angular) - p.cross(&dj.angular),
                angular: dj.angular,
            },
            ReferenceFrame::Local => placement.act_inv_motion(&(*dj - twist.cross(j))),
        }
    }))
}

/// The acceleration of a frame at zero joint acceleration, `J̇ v`, in the three
/// forms a controller uses; see [`frame_acceleration_drift`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AccelerationDrift<S> {
    /// The spatial acceleration in the frame's own axes (Pinocchio's
    /// `getFrameAcceleration(.., LOCAL)`): `J̇_local v`, the drift of a 6-D contact.
    pub local: Motion<S>,
    /// The same spatial acceleration with its two parts rotated into world
    /// axes (Pinocchio's `getFrameAcceleration(.., LOCAL_WORLD_ALIGNED)`); this
    /// is not `J̇_lwa v`.
    pub local_world_aligned: Motion<S>,
    /// The classical acceleration in world axes (Pinocchio's
    /// `getFrameClassicalAcceleration(.., LOCAL_WORLD_ALIGNED)`): linear part
    /// `R (a_lin + ω × v_lin)`, the acceleration of the frame's origin, and the
    /// angular part of `local_world_aligned`. It equals `J̇_lwa v`: the drift
    /// of a point contact.
    pub classical_local_world_aligned: Motion<S>,
}

/// The acceleration drift of a frame: its acceleration at `v̇ = 0`, by a
/// forward pass of velocities and velocity-product accelerations without
/// gravity (Featherstone 2008 §5.3; Pinocchio's `forwardKinematics(model, data,
/// q, v, 0)` then `getFrameAcceleration` and `getFrameClassicalAcceleration`).
/// The module documentation says which one a contact constraint needs.
///
/// `q: [nq]`, `v: [nv]`; returns the drift in m/s² and rad/s², each
/// `[linear; angular]`. Body twists are left in `data.v`, the drift of each
/// body in `data.a`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or `frame` is
/// not a frame index of the model, or `data` was built for another model;
/// checked before anything is written.
pub fn frame_acceleration_drift<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    frame: usize,
) -> Result<AccelerationDrift<S>, InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_index("frame", frame, model.frames.len())?;
    drift_pass(model, data, q, v);
    Ok(frame_drift(model, data, frame))
}

/// Placements, body twists and velocity-product accelerations of every body
/// (`data.o_mi`, `data.v`, `data.a`), at zero joint acceleration and without
/// gravity.
pub(crate) fn drift_pass<S: Scalar>(model: &Model, data: &mut Data<S>, q: &[S], v: &[S]) {
    acceleration_pass(model, data, q, v, None);
}

/// Placements, body twists and spatial accelerations of every body
/// (`data.o_mi`, `data.v`, `data.a`) at the joint acceleration `a` (zero when
/// `None`), without gravity (Featherstone 2008 §5.3; Pinocchio's
/// `forwardKinematics(model, data, q, v, a)`).
pub(crate) fn acceleration_pass<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    a: Option<&[S]>,
) {
    for i in 1..model.njoints() {
        joint_placement(model, data, i, q);
        let (vi, vj) = body_velocity(model, data, i, v);
        let joint = &model.joints[i];
        let a_parent = if joint.parent > 0 {
            data.li_mi[i].act_inv_motion(&data.a[joint.parent])
        } else {
            Motion::zero()
        };
        let aj = match a {
            Some(a) => joint.motion_at(a),
            None => Motion::zero(),
        };
        data.a[i] = a_parent + aj + vi.cross(&vj);
        data.v[i] = vi;
    }
}

/// A body motion (`data.v[j]` or `data.a[j]` of the frame's joint j) as the
/// frame's, in `reference`: LOCAL (the frame's axes), LOCAL_WORLD_ALIGNED (the
/// LOCAL one's two parts rotated into world axes) or WORLD (at the world
/// origin); zero for a frame on the universe.
fn frame_motion<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    frame: usize,
    body: &Motion<S>,
    reference: ReferenceFrame,
) -> Motion<S> {
    let f = &model.frames[frame];
    if f.parent_joint == 0 {
        return Motion::zero();
    }
    let local = crate::Transform::constant(&f.placement).act_inv_motion(body);
    let placement = placement(model, data, frame);
    match reference {
        ReferenceFrame::Local => local,
        ReferenceFrame::LocalWorldAligned => Motion {
            linear: placement.rotation * local.linear,
            angular: placement.rotation * local.angular,
        },
        ReferenceFrame::World => placement.act_motion(&local),
    }
}

/// The spatial velocity of a frame (Pinocchio's `getFrameVelocity(model,
/// data, frame, reference)` after `forwardKinematics(model, data, q, v)`): in
/// LOCAL, the twist in the frame's own axes at its origin; in
/// LOCAL_WORLD_ALIGNED, the velocity of the frame's origin and the angular
/// velocity in world axes; in WORLD, the twist at the world origin.
///
/// `q: [nq]`, `v: [nv]`; returns `[linear; angular]` (m/s, rad/s). Body
/// twists are left in `data.v`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or `frame` is
/// not a frame index of the model, or `data` was built for another model;
/// checked before anything is written.
pub fn frame_velocity<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    frame: usize,
    reference: ReferenceFrame,
) -> Result<Motion<S>, InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_index("frame", frame, model.frames.len())?;
    for i in 1..model.njoints() {
        joint_placement(model, data, i, q);
        data.v[i] = body_velocity(model, data, i, v).0;
    }
    let body = data.v[model.frames[frame].parent_joint];
    Ok(frame_motion(model, data, frame, &body, reference))
}

/// The spatial (not classical) acceleration of a frame (Pinocchio's
/// `getFrameAcceleration(model, data, frame, reference)` after
/// `forwardKinematics(model, data, q, v, a)`), without gravity, in the
/// `reference` of [`frame_velocity`]. At `a = 0` it is the drift of
/// [`frame_acceleration_drift`] (`local` and `local_world_aligned`).
///
/// `q: [nq]`, `v: [nv]`, `a: [nv]`; returns `[linear; angular]` (m/s²,
/// rad/s²). Body twists and accelerations are left in `data.v`, `data.a`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or `frame` is
/// not a frame index of the model, or `data` was built for another model;
/// checked before anything is written.
pub fn frame_acceleration<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    a: &[S],
    frame: usize,
    reference: ReferenceFrame,
) -> Result<Motion<S>, InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_v(model, "a", a.len())?;
    check_index("frame", frame, model.frames.len())?;
    acceleration_pass(model, data, q, v, Some(a));
    let body = data.a[model.frames[frame].parent_joint];
    Ok(frame_motion(model, data, frame, &body, reference))
}

/// A frame's drift from the bodies' in `data` ([`drift_pass`]).
pub(crate) fn frame_drift<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    frame: usize,
) -> AccelerationDrift<S> {
    let f = &model.frames[frame];
    if f.parent_joint == 0 {
        let zero = Motion::zero();
        return AccelerationDrift {
            local: zero,
            local_world_aligned: zero,
            classical_local_world_aligned: zero,
        };
    }
    let joint_from_frame = crate::Transform::constant(&f.placement);
    let a = joint_from_frame.act_inv_motion(&data.a[f.parent_joint]);
    let v = joint_from_frame.act_inv_motion(&data.v[f.parent_joint]);
    let r = placement(model, data, frame).rotation;
    let classical = a.linear + v.angular.cross(&v.linear);
    AccelerationDrift {
        local: a,
        local_world_aligned: Motion {
            linear: r * a.linear,
            angular: r * a.angular,
        },
        classical_local_world_aligned: Motion {
            linear: r * classical,
            angular: r * a.angular,
        },
    }
}
