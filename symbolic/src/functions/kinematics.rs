//! The table's entries of a link frame's kinematics: its placement, Jacobians and their time
//! variations, its acceleration at zero joint acceleration, the pose error to a target.
//!
//! One function per entry, in table order, given its name by the list (`rt` is the runtime).

use rbdgen_runtime as rt;
use rbdgen_runtime::{
    Data, InputError, Matrix3, Model, ReferenceFrame, Scalar, Transform, Vector3,
};

use super::{Dim, Output, Spec};

pub(super) fn frame_placement<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq)],
        per_frame: true,
        output: Output::Matrix(Dim::Fixed(4), Dim::Fixed(4)),
        doc: &[
            "The placement `world_from_frame` of a link frame as a 4x4 homogeneous matrix",
            "`[[R, p], [0, 1]]` (Pinocchio's `oMf` after `updateFramePlacements`); `q: [NQ]`, m.",
        ],
        evaluate: |m, d, x, frame| {
            rt::forward_kinematics(m, d, &x[0])?;
            let frame = frame.expect("per-frame function");
            Ok(rt::frame_placement(m, d, frame)?.to_homogeneous().concat())
        },
    }
}

pub(super) fn frame_jacobian_local<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq)],
        per_frame: true,
        output: Output::Matrix(Dim::Fixed(6), Dim::Nv),
        doc: &[
            "The Jacobian of a link frame in its own axes at its origin (Pinocchio's",
            "`getFrameJacobian(.., LOCAL)` after `computeJointJacobians`): the runtime's",
            "`frame_jacobian(.., ReferenceFrame::Local)`.",
            "",
            "`q: [NQ]`; returns `J: [6 x NV]`, rows `[linear; angular]` (m/s, rad/s per unit of v).",
        ],
        evaluate: |m, d, x, frame| evaluate_frame_jacobian(m, d, x, frame, ReferenceFrame::Local),
    }
}

pub(super) fn frame_jacobian_world<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq)],
        per_frame: true,
        output: Output::Matrix(Dim::Fixed(6), Dim::Nv),
        doc: &[
            "The Jacobian of a link frame as a spatial twist in world axes at the world origin",
            "(Pinocchio's `getFrameJacobian(.., WORLD)` after `computeJointJacobians`): the",
            "runtime's `frame_jacobian(.., ReferenceFrame::World)`.",
            "",
            "`q: [NQ]`; returns `J: [6 x NV]`, rows `[linear; angular]` (m/s, rad/s per unit of v).",
        ],
        evaluate: |m, d, x, frame| evaluate_frame_jacobian(m, d, x, frame, ReferenceFrame::World),
    }
}

pub(super) fn frame_jacobian_local_world_aligned<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq)],
        per_frame: true,
        output: Output::Matrix(Dim::Fixed(6), Dim::Nv),
        doc: &[
            "The Jacobian of a link frame in world axes at the frame's origin (Pinocchio's",
            "`getFrameJacobian(.., LOCAL_WORLD_ALIGNED)` after `computeJointJacobians`): the",
            "runtime's `frame_jacobian(.., ReferenceFrame::LocalWorldAligned)`.",
            "",
            "`q: [NQ]`; returns `J: [6 x NV]`, rows `[linear; angular]` (m/s, rad/s per unit of v).",
        ],
        evaluate: |m, d, x, frame| {
            evaluate_frame_jacobian(m, d, x, frame, ReferenceFrame::LocalWorldAligned)
        },
    }
}

pub(super) fn pose_error<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("target", Dim::Placement)],
        per_frame: true,
        output: Output::Tuple(&[
            Output::Vector(Dim::Fixed(6)),
            Output::Matrix(Dim::Fixed(6), Dim::Nv),
        ]),
        doc: &[
            "The pose error of a link frame with respect to a target placement and its Jacobian",
            "(the runtime's `pose_error`): `E = oMf(q)⁻¹ · target`, `e = log6(E)`,",
            "`J_e = de/dδq = -Jlog6(E⁻¹) · J_local(q)` for `q ⊕ δq`, with `J_local` the frame's",
            "Jacobian in its own axes (Pinocchio's `log6`, `Jlog6`, `getFrameJacobian(.., LOCAL)`).",
            "",
            "`q: [NQ]`, `target`: world-from-target as a 4 x 4 homogeneous matrix; returns",
            "`(e: [6], J_e: [6 x NV])`, rows `[linear; angular]` (m, rad; per unit of v).",
        ],
        evaluate: |m, d, x, frame| {
            let t = &x[1];
            let target = Transform {
                rotation: Matrix3([
                    [t[0], t[1], t[2]],
                    [t[4], t[5], t[6]],
                    [t[8], t[9], t[10]],
                ]),
                translation: Vector3([t[3], t[7], t[11]]),
            };
            let frame = frame.expect("per-frame function");
            let (e, j) = rt::pose_error(m, d, &x[0], frame, &target)?;
            Ok([e.to_vec(), j].concat())
        },
    }
}

pub(super) fn frame_jacobian_time_variation_local<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv)],
        per_frame: true,
        output: Output::Matrix(Dim::Fixed(6), Dim::Nv),
        doc: &[
            "The time variation `J̇` of a link frame's LOCAL Jacobian along `v` (Pinocchio's",
            "`computeJointJacobiansTimeVariation` + `getFrameJacobianTimeVariation(.., LOCAL)`):",
            "the frame's spatial acceleration in its own axes is `J v̇ + J̇ v`.",
            "",
            "`q: [NQ]`, `v: [NV]`; returns `J̇: [6 x NV]`, rows `[linear; angular]`.",
        ],
        evaluate: |m, d, x, frame| {
            evaluate_jacobian_time_variation(m, d, x, frame, ReferenceFrame::Local)
        },
    }
}

pub(super) fn frame_jacobian_time_variation_world<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv)],
        per_frame: true,
        output: Output::Matrix(Dim::Fixed(6), Dim::Nv),
        doc: &[
            "The time variation `J̇` of a link frame's WORLD Jacobian along `v` (Pinocchio's",
            "`computeJointJacobiansTimeVariation` + `getFrameJacobianTimeVariation(.., WORLD)`).",
            "",
            "`q: [NQ]`, `v: [NV]`; returns `J̇: [6 x NV]`, rows `[linear; angular]`.",
        ],
        evaluate: |m, d, x, frame| {
            evaluate_jacobian_time_variation(m, d, x, frame, ReferenceFrame::World)
        },
    }
}

pub(super) fn frame_jacobian_time_variation_local_world_aligned<S: Scalar>(
    name: &'static str,
) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv)],
        per_frame: true,
        output: Output::Matrix(Dim::Fixed(6), Dim::Nv),
        doc: &[
            "The time variation `J̇` of a link frame's LOCAL_WORLD_ALIGNED Jacobian along `v`",
            "(Pinocchio's `getFrameJacobianTimeVariation(.., LOCAL_WORLD_ALIGNED)`): its linear",
            "rows give the acceleration of the frame's origin, `p̈ = J v̇ + J̇ v` (the classical",
            "acceleration a point contact needs).",
            "",
            "`q: [NQ]`, `v: [NV]`; returns `J̇: [6 x NV]`, rows `[linear; angular]`.",
        ],
        evaluate: |m, d, x, frame| {
            evaluate_jacobian_time_variation(m, d, x, frame, ReferenceFrame::LocalWorldAligned)
        },
    }
}

pub(super) fn frame_acceleration_drift<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv)],
        per_frame: true,
        output: Output::Tuple(&[
            Output::Vector(Dim::Fixed(6)),
            Output::Vector(Dim::Fixed(6)),
            Output::Vector(Dim::Fixed(6)),
        ]),
        doc: &[
            "The acceleration of a link frame at `v̇ = 0` (`J̇ v`), as `(local, local_world_aligned,",
            "classical)`: the spatial acceleration in the frame's axes (Pinocchio's",
            "`getFrameAcceleration(.., LOCAL)`, `= J̇_local v`: a 6-D contact's drift), the same",
            "rotated into world axes (`getFrameAcceleration(.., LOCAL_WORLD_ALIGNED)`, not",
            "`J̇_lwa v`), and the classical acceleration in world axes",
            "(`getFrameClassicalAcceleration(.., LOCAL_WORLD_ALIGNED)`: linear part `+ ω × v`,",
            "`= J̇_lwa v`: the drift a point contact needs), after `forwardKinematics(q, v, 0)`.",
            "",
            "`q: [NQ]`, `v: [NV]`; returns three `[6]`, `[linear; angular]` (m/s², rad/s²).",
        ],
        evaluate: |m, d, x, frame| {
            let frame = frame.expect("per-frame function");
            let a = rt::frame_acceleration_drift(m, d, &x[0], &x[1], frame)?;
            Ok([
                a.local,
                a.local_world_aligned,
                a.classical_local_world_aligned,
            ]
            .iter()
            .flat_map(|m| m.to_array())
            .collect())
        },
    }
}

/// The frame Jacobians: joint Jacobians, then one frame's in `reference`.
fn evaluate_frame_jacobian<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    x: &[Vec<S>],
    frame: Option<usize>,
    reference: ReferenceFrame,
) -> Result<Vec<S>, InputError> {
    rt::compute_joint_jacobians(model, data, &x[0])?;
    rt::frame_jacobian(model, data, frame.expect("per-frame function"), reference)
}

/// The Jacobian time variations: `J` and `J̇`, then one frame's in `reference`.
fn evaluate_jacobian_time_variation<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    x: &[Vec<S>],
    frame: Option<usize>,
    reference: ReferenceFrame,
) -> Result<Vec<S>, InputError> {
    rt::compute_joint_jacobians_time_variation(model, data, &x[0], &x[1])?;
    rt::frame_jacobian_time_variation(model, data, frame.expect("per-frame function"), reference)
}
