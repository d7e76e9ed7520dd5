//! Articulated-body forward dynamics.

use super::kinematics::{body_velocity, joint_placement};
use super::linalg::{forward_solve, ldl, solve};
use super::{check_len, check_state, check_v};
use crate::error::InputError;
use crate::spatial::{Force, Matrix6, Motion};
use crate::{Data, Model, Scalar};

/// Forward dynamics `a = M(q)⁻¹ (τ - C(q, v) v - g(q))` by the articulated-body
/// algorithm (Featherstone 2008 §7.3, Table 7.1; Pinocchio's `aba(model, data,
/// q, v, tau)`), in joint-local frames with gravity as the acceleration `-g` of
/// the universe.
///
/// `q: [nq]`, `v: [nv]`, `tau: [nv]`; returns `a: [nv]`, also left in
/// `data.ddq`. `rnea(q, v, aba(q, v, tau)) = tau`.
///
/// Inputs are used as given, as Pinocchio does: a non-unit free-flyer
/// quaternion enters the rotation formula unnormalised, and NaN in gives NaN
/// out (see the crate documentation, "Inputs are used as given").
/// On a model with mimic joints ([`crate::model::mimic`]), `M(q)⁻¹ (τ - h)`
/// through [`super::minverse`]'s dense factors (Pinocchio 4.1.0 refuses `aba`
/// there). On a model with a moving joint whose subtree has no mass
/// ([`Model::check_massless_subtrees`]) the accelerations are non-finite.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or `data`
/// was built for another model.
pub fn aba<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
    v: &[S],
    tau: &[S],
) -> Result<&'d [S], InputError> {
    check_state(model, data, q, v)?;
    check_v(model, "tau", tau.len())?;
    run(model, data, q, v, tau, None)
}

/// Forward dynamics with external forces,
/// `a = M(q)⁻¹ (τ - C(q, v) v - g(q) + Σ_i J_iᵀ f_ext,i)`, by the articulated-body
/// algorithm with each body's bias force reduced by its external wrench
/// (Featherstone 2008 §7.3, eq. 7.38; Pinocchio's `aba(model, data, q, v, tau, fext)`).
///
/// `q: [nq]`, `v: [nv]`, `tau: [nv]`; `fext: [njoints]` indexed by joint id as
/// Pinocchio's: the wrench `[linear; angular]` (N, N·m) on the body of joint i
/// in that joint's frame, `fext[0]` (the universe) ignored. Returns `a: [nv]`,
/// also left in `data.ddq`. `rnea_fext(q, v, aba_fext(q, v, tau, fext), fext) = tau`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv` /
/// `njoints`, or `data` was built for another model.
pub fn aba_fext<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
    v: &[S],
    tau: &[S],
    fext: &[Force<S>],
) -> Result<&'d [S], InputError> {
    check_state(model, data, q, v)?;
    check_v(model, "tau", tau.len())?;
    check_len("fext", fext.len(), model.njoints())?;
    run(model, data, q, v, tau, Some(fext))
}

/// The one ABA: three passes, `fext` taken from the bias forces when given.
fn run<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
    v: &[S],
    tau: &[S],
    fext: Option<&[Force<S>]>,
) -> Result<&'d [S], InputError> {
    if model.has_mimic() {
        return through_minverse(model, data, q, v, tau, fext);
    }
    for i in 1..model.njoints() {
        forward_step_1(model, data, i, q, v);
        if let Some(fext) = fext {
            data.pa[i] = data.pa[i] - fext[i];
        }
    }
    for i in (1..model.njoints()).rev() {
        backward_step(model, data, i, tau);
    }
    let gravity = super::universe_acceleration(model);
    for i in 1..model.njoints() {
        forward_step_2(model, data, i, &gravity);
    }
    Ok(&data.ddq)
}

/// `a = M⁻¹ (τ - rnea_fext(q, v, 0, fext))` with the dense factors of `M`: on a
/// model with mimic joints, where no articulated-body recursion holds (a mimic
/// couples branches of the tree).
fn through_minverse<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
    v: &[S],
    tau: &[S],
    fext: Option<&[Force<S>]>,
) -> Result<&'d [S], InputError> {
    let zero = vec![S::zero(); model.nv];
    let h = match fext {
        Some(fext) => super::rnea_fext(model, data, q, v, &zero, fext),
        None => super::rnea(model, data, q, v, &zero),
    }?
    .to_vec();
    let minv = super::minverse(model, data, q)?;
    let nv = model.nv;
    let ddq: Vec<S> = (0..nv)
        .map(|r| (0..nv).fold(S::zero(), |acc, c| acc + minv[r * nv + c] * (tau[c] - h[c])))
        .collect();
    data.ddq.copy_from_slice(&ddq);
    Ok(&data.ddq)
}

/// Placements, velocities, bias accelerations and rigid-body inertias.
fn forward_step_1<S: Scalar>(model: &Model, data: &mut Data<S>, i: usize, q: &[S], v: &[S]) {
    joint_placement(model, data, i, q);
    let (vi, vj) = body_velocity(model, data, i, v);
    let inertia = data.inertias[i];
    data.v[i] = vi;
    data.c[i] = vi.cross(&vj);
    data.ia[i] = Matrix6::from_inertia(&inertia);
    data.pa[i] = vi.cross_force(&inertia.mul_motion(&vi));
}

/// Articulated inertias and bias forces, handed to the parent.
fn backward_step<S: Scalar>(model: &Model, data: &mut Data<S>, i: usize, tau: &[S]) {
    let joint = &model.joints[i];
    let nv = joint.kind.nv();
    let ia = data.ia[i];
    let mut u = [Force::zero(); 6];
    let mut d = Matrix6::zeros();
    let mut u_bias = [S::zero(); 6];
    for k in 0..nv {
        let s_k = joint.kind.subspace_column::<S>(k);
        u[k] = ia.mul_motion(&s_k);
        u_bias[k] = tau[joint.idx_v + k] - s_k.dot(&data.pa[i]);
    }
    for (r, row) in d.0.iter_mut().enumerate().take(nv) {
        for (c, x) in row.iter_mut().enumerate().take(r + 1) {
            *x = joint.kind.subspace_column::<S>(r).dot(&u[c]);
        }
        // D = Sᵀ IA S + armature (Pinocchio's `calc_aba` with `model.armature`).
        let arm = model.armature[joint.idx_v + r];
        if arm != 0.0 {
            row[r] = row[r] + S::constant(arm);
        }
    }
    let d_ldl = ldl(&d, nv);
    if joint.parent > 0 {
        // With D = L diag(d) Lᵀ and W = U L⁻ᵀ: Ia = IA - Σ_r W_r W_rᵀ / d_r,
        // one triangle of a symmetric matrix, and pa = pA + Ia c + Σ_r W_r y_r / d_r
        // for y = L⁻¹ u.
        let y = forward_solve(&d_ldl, nv, &u_bias);
        let mut w = [Force::zero(); 6];
        let mut ia_a = ia;
        let mut gain = Force::zero();
        for r in 0..nv {
            w[r] = (0..r).fold(u[r], |acc, k| acc - w[k].scale(d_ldl.0[r][k]));
            let wd = w[r].scale(d_ldl.0[r][r]);
            let (x, z) = (wd.to_array(), w[r].to_array());
            for (p, xp) in x.iter().enumerate() {
                for (s, zs) in z.iter().enumerate().take(p + 1) {
                    ia_a.0[p][s] = ia_a.0[p][s] - *xp * *zs;
                    ia_a.0[s][p] = ia_a.0[p][s];
                }
            }
            gain += wd.scale(y[r]);
        }
        // Ia S = 0 and Sᵀ pa = τ exactly: where column r of S is a coordinate
        // axis e_k (and D has no armature there), row and column k of Ia are
        // structural zeros and pa_k is τ_r, so no work is spent on them.
        let mut exact = [None; 6];
        for r in 0..nv {
            if let Some(k) = unit_axis(&joint.kind.subspace_column::<f64>(r)) {
                if model.armature[joint.idx_v + r] == 0.0 {
                    for x in 0..6 {
                        ia_a.0[k][x] = S::zero();
                        ia_a.0[x][k] = S::zero();
                    }
                    exact[k] = Some(tau[joint.idx_v + r]);
                }
            }
        }
        let mut pa = (data.pa[i] + ia_a.mul_motion(&data.c[i]) + gain).to_array();
        for (x, e) in pa.iter_mut().zip(exact) {
            *x = e.unwrap_or(*x);
        }
        let pa = Force::from_slice(&pa);
        let parent = joint.parent;
        let li_mi = data.li_mi[i];
        data.ia[parent] += ia_a.transformed_inertia(&li_mi);
        data.pa[parent] += li_mi.act_force(&pa);
    }
    data.u[i] = u;
    data.d_ldl[i] = d_ldl;
    data.u_bias[i] = u_bias;
}

/// The index k when `s` is the coordinate axis `e_k` of `[linear; angular]`.
fn unit_axis(s: &Motion<f64>) -> Option<usize> {
    let x = s.to_array();
    let k = x.iter().position(|&c| c == 1.0)?;
    x.iter()
        .enumerate()
        .all(|(j, &c)| j == k || c == 0.0)
        .then_some(k)
}

/// Whether joint i's motion subspace is the identity (a free flyer's) with no
/// armature, so that `D = IA`.
fn is_identity_subspace(model: &Model, i: usize) -> bool {
    let joint = &model.joints[i];
    joint.kind.nv() == 6
        && (0..6).all(|r| {
            unit_axis(&joint.kind.subspace_column::<f64>(r)) == Some(r)
                && model.armature[joint.idx_v + r] == 0.0
        })
}

/// Accelerations, root to leaves.
fn forward_step_2<S: Scalar>(model: &Model, data: &mut Data<S>, i: usize, gravity: &Motion<S>) {
    let joint = &model.joints[i];
    let nv = joint.kind.nv();
    let a_parent = if joint.parent > 0 {
        data.a[joint.parent]
    } else {
        *gravity
    };
    let mut ai = data.li_mi[i].act_inv_motion(&a_parent) + data.c[i];
    if is_identity_subspace(model, i) {
        // S = I and D = IA: qdd = D⁻¹ (u - D a) = D⁻¹ u - a, and the body's
        // acceleration a + qdd is D⁻¹ u (a free flyer's 36-term product saved).
        let a_body = solve(&data.d_ldl[i], 6, &data.u_bias[i]);
        let a_in = ai.to_array();
        for r in 0..6 {
            data.ddq[joint.idx_v + r] = a_body[r] - a_in[r];
        }
        data.a[i] = Motion::from_slice(&a_body);
        return;
    }
    let mut rhs = [S::zero(); 6];
    for (k, r) in rhs.iter_mut().enumerate().take(nv) {
        *r = data.u_bias[i][k] - ai.dot(&data.u[i][k]);
    }
    let qdd = solve(&data.d_ldl[i], nv, &rhs);
    for (r, &qdd) in qdd.iter().enumerate().take(nv) {
        data.ddq[joint.idx_v + r] = qdd;
        ai += joint.kind.subspace_column::<S>(r).scale(qdd);
    }
    data.a[i] = ai;
}
