//! Recursive Newton-Euler inverse dynamics.

use super::kinematics::{body_velocity, joint_placement};
use super::{check_len, check_state, check_v};
use crate::error::InputError;
use crate::spatial::{Force, Motion};
use crate::{Data, Model, Scalar};

/// Inverse dynamics `τ = M(q) a + C(q, v) v + g(q)` by the recursive
/// Newton-Euler algorithm (Featherstone 2008 §5.3, Table 5.1; Pinocchio's
/// `rnea(model, data, q, v, a)`), in joint-local frames, gravity entering as the
/// acceleration `-g` of the universe.
///
/// `q: [nq]`, `v: [nv]`, `a: [nv]`; returns `τ: [nv]` (N·m, N; for a free-flyer
/// the base wrench in the base frame), also left in `data.tau`.
/// `rnea(q, v, 0)` is Pinocchio's `nonLinearEffects` ([`super::nonlinear_effects`]);
/// `rnea(q, v, a) = rnea_fext(q, v, a, 0)`.
///
/// Inputs are used as given, as Pinocchio does: a non-unit free-flyer
/// quaternion enters the rotation formula unnormalised, and NaN in gives NaN
/// out (see the crate documentation, "Inputs are used as given").
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or `data`
/// was built for another model.
pub fn rnea<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
    v: &[S],
    a: &[S],
) -> Result<&'d [S], InputError> {
    check_state(model, data, q, v)?;
    check_v(model, "a", a.len())?;
    Ok(run(model, data, q, v, a, None))
}

/// Inverse dynamics with external forces,
/// `τ = M(q) a + C(q, v) v + g(q) - Σ_i J_iᵀ f_ext,i`, by the recursive
/// Newton-Euler algorithm (Featherstone 2008 §5.3, eq. 5.9: `f_i = I_i a_i + v_i ×* I_i v_i - f_ext,i`;
/// Pinocchio's `rnea(model, data, q, v, a, fext)`).
///
/// `q: [nq]`, `v: [nv]`, `a: [nv]`; `fext: [njoints]`, indexed by joint id as
/// Pinocchio's: `fext[i]` is the wrench (N, N·m) applied to the body of joint i,
/// expressed in that joint's frame (moment about its origin); `fext[0]`, on the
/// universe, is ignored. Returns `τ: [nv]`, also left in `data.tau`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv` /
/// `njoints`, or `data` was built for another model.
pub fn rnea_fext<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
    v: &[S],
    a: &[S],
    fext: &[Force<S>],
) -> Result<&'d [S], InputError> {
    check_state(model, data, q, v)?;
    check_v(model, "a", a.len())?;
    check_len("fext", fext.len(), model.njoints())?;
    Ok(run(model, data, q, v, a, Some(fext)))
}

/// The one RNEA: forward pass, backward pass, `fext` subtracted when given.
/// The inputs are checked.
fn run<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
    v: &[S],
    a: &[S],
    fext: Option<&[Force<S>]>,
) -> &'d [S] {
    let gravity = super::universe_acceleration(model);
    for i in 1..model.njoints() {
        forward_step(model, data, i, q, v, a, &gravity);
        if let Some(fext) = fext {
            data.f[i] = data.f[i] - fext[i];
        }
    }
    // Zeros, then each joint adds its share (a mimicking joint into its primary's entry).
    data.tau.fill(S::zero());
    for i in (1..model.njoints()).rev() {
        backward_step(model, data, i);
    }
    add_armature(model, &mut data.tau, a);
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
    let (vi, vj) = body_velocity(model, data, i, v);
    let a_parent = if joint.parent > 0 {
        data.a[joint.parent]
    } else {
        *gravity
    };
    let ai = data.li_mi[i].act_inv_motion(&a_parent) + joint.motion_at(a) + vi.cross(&vj);
    let inertia = data.inertias[i];
    data.f[i] = inertia.mul_motion(&ai) + vi.cross_force(&inertia.mul_motion(&vi));
    data.v[i] = vi;
    data.a[i] = ai;
}

/// `tau += armature ⊙ a`: the rotor inertias' share of inverse dynamics
/// (Pinocchio's `rnea` with `model.armature`); the model's zeros fold away.
pub(crate) fn add_armature<S: Scalar>(model: &Model, tau: &mut [S], a: &[S]) {
    for ((t, &x), &arm) in tau.iter_mut().zip(a).zip(&model.armature) {
        if arm != 0.0 {
            *t = *t + S::constant(arm) * x;
        }
    }
}

fn backward_step<S: Scalar>(model: &Model, data: &mut Data<S>, i: usize) {
    let joint = &model.joints[i];
    joint.add_projected_force(&data.f[i], &mut data.tau);
    if joint.parent > 0 {
        let f = data.li_mi[i].act_force(&data.f[i]);
        data.f[joint.parent] += f;
    }
}
