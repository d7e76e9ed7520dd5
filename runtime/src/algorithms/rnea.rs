//! Recursive Newton-Euler inverse dynamics.

use super::kinematics::joint_placement;
use super::{check_q, check_v};
use crate::spatial::{Motion, Vector3};
use crate::{Data, Model, Scalar};

/// Inverse dynamics `τ = M(q) a + C(q, v) v + g(q)` by the recursive
/// Newton-Euler algorithm (Featherstone 2008 §5.3, Table 5.1; Pinocchio's
/// `rnea(model, data, q, v, a)`), in joint-local frames, gravity entering as the
/// acceleration `-g` of the universe.
///
/// `q: [nq]`, `v: [nv]`, `a: [nv]`; returns `τ: [nv]` (N·m, N; for a free-flyer
/// the base wrench in the base frame), also left in `data.tau`.
/// `rnea(q, v, 0)` is Pinocchio's `nonLinearEffects`.
///
/// Inputs are used as given, as Pinocchio does: a non-unit free-flyer
/// quaternion enters the rotation formula unnormalised, and NaN in gives NaN
/// out (see the crate documentation, "Inputs are used as given").
///
/// # Panics
/// When a slice length does not match `nq` / `nv`.
pub fn rnea<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
    v: &[S],
    a: &[S],
) -> &'d [S] {
    check_q(model, q.len());
    check_v(model, "v", v.len());
    check_v(model, "a", a.len());
    let gravity = Motion {
        linear: -Vector3::constant(model.gravity.0),
        angular: Vector3::zeros(),
    };
    for i in 1..model.njoints() {
        forward_step(model, data, i, q, v, a, &gravity);
    }
    for i in (1..model.njoints()).rev() {
        backward_step(model, data, i);
    }
    &data.tau
}

fn forward_step<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    i: usize,
    q: &[S],
    v: &[S],
    a: &[S],
    gravity: &Motion<S>,
) {
    let joint = &model.joints[i];
    joint_placement(model, data, i, q);
    let range = joint.idx_v..joint.idx_v + joint.kind.nv();
    let vj = joint.kind.motion(&v[range.clone()]);
    let li_mi = &data.li_mi[i];
    let (v_parent, a_parent) = if joint.parent > 0 {
        (data.v[joint.parent], data.a[joint.parent])
    } else {
        (Motion::zero(), *gravity)
    };
    let vi = li_mi.act_inv_motion(&v_parent) + vj;
    let ai = li_mi.act_inv_motion(&a_parent) + joint.kind.motion(&a[range]) + vi.cross(&vj);
    let inertia = crate::Inertia::constant(&joint.inertia);
    data.f[i] = inertia.mul_motion(&ai) + vi.cross_force(&inertia.mul_motion(&vi));
    data.v[i] = vi;
    data.a[i] = ai;
}

fn backward_step<S: Scalar>(model: &Model, data: &mut Data<S>, i: usize) {
    let joint = &model.joints[i];
    let range = joint.idx_v..joint.idx_v + joint.kind.nv();
    joint.kind.project_force(&data.f[i], &mut data.tau[range]);
    if joint.parent > 0 {
        let f = data.li_mi[i].act_force(&data.f[i]);
        data.f[joint.parent] += f;
    }
}
