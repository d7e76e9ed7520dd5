//! Centre of mass, its Jacobian, and the centroidal momentum matrix with its
//! time derivative.

use super::derivatives::{run, tree_root, External, Matrices};
use super::frame_derivatives::rows_of;
use super::jacobian::{joint_column, update_joint_jacobian};
use super::kinematics::{body_velocity, forward_kinematics, joint_placement};
use super::{check_data, check_q, check_v};
use crate::error::InputError;
use crate::spatial::{Force, Motion, Vector3};
use crate::{Data, Inertia, Model, Scalar};

/// The centre of mass of the moving bodies in the world frame,
/// `c = Σ_i m_i c_i / Σ_i m_i` (Pinocchio's `centerOfMass(model, data, q)`).
/// Links welded to the universe in a fixed-base model count nowhere.
///
/// `q: [nq]`; returns `c` (m), also left in `data.com`. A robot without mass
/// gives NaN.
///
/// # Errors
/// [`InputError`] when `q` does not have length `nq`, or `data` was built for
/// another model; checked before anything is written.
pub fn center_of_mass<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
) -> Result<Vector3<S>, InputError> {
    forward_kinematics(model, data, q)?;
    let (mass, first_moment) = mass_and_first_moment(model, data);
    data.com = first_moment.scale(S::one() / mass);
    Ok(data.com)
}

/// The total mass of the moving bodies and their first moment `Σ_i m_i c_i` in
/// the world frame (kg, kg·m), from the placements in `data.o_mi`.
pub(crate) fn mass_and_first_moment<S: Scalar>(model: &Model, data: &Data<S>) -> (S, Vector3<S>) {
    let mut mass = S::zero();
    let mut first_moment = Vector3::zeros();
    for i in 1..model.njoints() {
        let inertia = &data.inertias[i];
        let m = inertia.mass;
        let world_from_joint = &data.o_mi[i];
        first_moment += world_from_joint.rotation * inertia.first_moment
            + world_from_joint.translation.scale(m);
        mass = mass + m;
    }
    (mass, first_moment)
}

/// The Jacobian of the centre of mass, `ċ = Jcom(q) v` (Pinocchio's
/// `jacobianCenterOfMass(model, data, q)`): column k is
/// `(m_k v_k + ω_k × h_k) / m`, for the twist `(v_k, ω_k)` of dof k at the world
/// origin and the mass `m_k` and first moment `h_k` of the subtree it moves.
/// It is the linear rows of [`ccrba`]'s `Ag` divided by the total mass.
///
/// `q: [nq]`; returns `Jcom: [3 x nv]` row-major (m per unit of v), also left in
/// `data.jcom`, with the centre of mass in `data.com`.
///
/// # Errors
/// [`InputError`] when `q` does not have length `nq`, or `data` was built for
/// another model; checked before anything is written.
pub fn jacobian_center_of_mass<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
) -> Result<&'d [S], InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    composite_inertias(model, data, q, None);
    let nv = model.nv;
    let mass_inv = S::one() / data.oycrb[0].mass;
    data.com = data.oycrb[0].first_moment.scale(mass_inv);
    data.jcom.fill(S::zero());
    for i in 1..model.njoints() {
        let joint = &model.joints[i];
        for k in 0..joint.kind.nv() {
            let col = joint.idx_v + k;
            let momentum = data.oycrb[i].mul_motion(&joint_column(model, data, i, k));
            for (r, x) in momentum.linear.0.into_iter().enumerate() {
                data.jcom[r * nv + col] = data.jcom[r * nv + col] + x * mass_inv;
            }
        }
    }
    Ok(&data.jcom)
}

/// The centroidal momentum matrix `Ag(q)` and the centroidal momentum
/// `hg = Ag v` (Orin, Goswami and Lee 2013; Pinocchio's `ccrba(model, data, q, v)`):
/// the momentum of the moving bodies about the centre of mass c, with world
/// axes, rows `[linear; angular]`. Column k is `X_c* (oYcrb_k S_k)`, the momentum
/// of the composite body moved by dof k for a unit velocity, its moment taken
/// about c: `(f, n_O - c × f)`.
///
/// `q: [nq]`, `v: [nv]`; returns `(Ag: [6 x nv] row-major, hg)` (kg·m/s and
/// kg·m²/s per unit of v), also left in `data.ag` and `data.hg`, with c in
/// `data.com`. `hg.linear = m ċ` and `Ag`'s linear rows are `m Jcom`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or `data` was
/// built for another model; checked before anything is written.
pub fn ccrba<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
    v: &[S],
) -> Result<(&'d [S], Force<S>), InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    composite_inertias(model, data, q, None);
    centroidal_map(model, data, v);
    Ok((&data.ag, data.hg))
}

/// The time derivative `dAg/dt` of the centroidal momentum matrix along `v`
/// (Pinocchio's `dccrba(model, data, q, v)`), so that `ḣg = Ag a + dAg v`.
///
/// With world-frame composite inertias `Y_k`, their rates
/// `Ẏ = Σ_i (v_i ×* Y_i - Y_i v_i ×)` over the bodies i of the subtree, and the
/// world columns `S_k` with `Ṡ_k = v_k × S_k`: `d(Y S)/dt = Ẏ_k S_k + Y_k Ṡ_k`,
/// then moved to the centre of mass: `(ḟ, ṅ_O - ċ × f - c × ḟ)`.
///
/// `q: [nq]`, `v: [nv]`; returns `dAg: [6 x nv]` row-major, also left in
/// `data.dag`, with `Ag`, `hg` and c as [`ccrba`] leaves them.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or `data` was
/// built for another model; checked before anything is written.
pub fn dccrba<'d, S: Scalar>(
    model: &Model,
    data: &'d mut Data<S>,
    q: &[S],
    v: &[S],
) -> Result<&'d [S], InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    composite_inertias(model, data, q, Some(v));
    centroidal_map(model, data, v);
    let nv = model.nv;
    let com = data.com;
    let com_velocity = data.hg.linear.scale(S::one() / data.oycrb[0].mass);
    data.dag.fill(S::zero());
    for i in 1..model.njoints() {
        let joint = &model.joints[i];
        for k in 0..joint.kind.nv() {
            let col = joint.idx_v + k;
            let s = &joint_column(model, data, i, k);
            let f = data.oycrb[i].mul_motion(s);
            let df = data.doycrb[i].mul_motion(s) + data.oycrb[i].mul_motion(&data.ov[i].cross(s));
            let angular = df.angular - com_velocity.cross(&f.linear) - com.cross(&df.linear);
            let dag = Force {
                linear: df.linear,
                angular,
            };
            for (r, x) in dag.to_array().into_iter().enumerate() {
                data.dag[r * nv + col] = data.dag[r * nv + col] + x;
            }
        }
    }
    Ok(&data.dag)
}

/// The rate of change of the centroidal momentum, `ḣg = Ag a + dAg v`
/// (Pinocchio's `computeCentroidalMomentumTimeVariation(model, data, q, v, a)`,
/// `data.dhg`): by one RNEA forward pass without gravity, the rate of the
/// momentum of each body `f_i = I_i a_i + v_i ×* I_i v_i`, summed in the world
/// frame and its moment moved to the centre of mass c,
/// `(f, n_O - c × f)` (`ċ × h_lin` vanishes, `h_lin = m ċ`).
///
/// `q: [nq]`, `v: [nv]`, `a: [nv]`; returns `ḣg` `[linear; angular]` (N, N·m:
/// the net external wrench about c minus gravity's), with c in `data.com`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or `data` was
/// built for another model; checked before anything is written.
pub fn centroidal_momentum_rate<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    a: &[S],
) -> Result<Force<S>, InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_v(model, "a", a.len())?;
    let mut total = Force::zero();
    for i in 1..model.njoints() {
        let joint = &model.joints[i];
        joint_placement(model, data, i, q);
        let (vi, vj) = body_velocity(model, data, i, v);
        let a_parent = if joint.parent > 0 {
            data.li_mi[i].act_inv_motion(&data.a[joint.parent])
        } else {
            Motion::zero()
        };
        let ai = a_parent + joint.motion_at(a) + vi.cross(&vj);
        data.v[i] = vi;
        data.a[i] = ai;
        let inertia = &data.inertias[i];
        let f = inertia.mul_motion(&ai) + vi.cross_force(&inertia.mul_motion(&vi));
        total += data.o_mi[i].act_force(&f);
    }
    let (mass, first_moment) = mass_and_first_moment(model, data);
    data.com = first_moment.scale(S::one() / mass);
    Ok(Force {
        linear: total.linear,
        angular: total.angular - data.com.cross(&total.linear),
    })
}

/// `data.ag`, `data.hg` and `data.com` from the composite inertias.
fn centroidal_map<S: Scalar>(model: &Model, data: &mut Data<S>, v: &[S]) {
    let nv = model.nv;
    let total = data.oycrb[0];
    let com = total.first_moment.scale(S::one() / total.mass);
    data.ag.fill(S::zero());
    for i in 1..model.njoints() {
        let joint = &model.joints[i];
        for k in 0..joint.kind.nv() {
            let col = joint.idx_v + k;
            let f = data.oycrb[i].mul_motion(&joint_column(model, data, i, k));
            let column = Force {
                linear: f.linear,
                angular: f.angular - com.cross(&f.linear),
            };
            for (r, x) in column.to_array().into_iter().enumerate() {
                data.ag[r * nv + col] = data.ag[r * nv + col] + x;
            }
        }
    }
    let hg: Vec<S> = (0..6)
        .map(|r| (0..nv).fold(S::zero(), |acc, c| acc + data.ag[r * nv + c] * v[c]))
        .collect();
    data.com = com;
    data.hg = Force::from_slice(&hg);
}

/// Forward: placements, world Jacobian columns and world inertias of the bodies
/// (with `v`: their world velocities and inertia rates); backward: subtree sums
/// into `data.oycrb` (and `data.doycrb`), entry 0 holding the whole robot.
fn composite_inertias<S: Scalar>(model: &Model, data: &mut Data<S>, q: &[S], v: Option<&[S]>) {
    data.oycrb[0] = Inertia::zero();
    data.doycrb[0] = Inertia::zero();
    for i in 1..model.njoints() {
        joint_placement(model, data, i, q);
        update_joint_jacobian(model, data, i);
        let world = data.inertias[i].transformed(&data.o_mi[i]);
        data.oycrb[i] = world;
        if let Some(v) = v {
            let (vi, _) = body_velocity(model, data, i, v);
            data.v[i] = vi;
            data.ov[i] = data.o_mi[i].act_motion(&vi);
            data.doycrb[i] = inertia_rate(&world, &data.ov[i]);
        }
    }
    for i in (1..model.njoints()).rev() {
        let parent = model.joints[i].parent;
        let y = data.oycrb[i];
        data.oycrb[parent] += y;
        if v.is_some() {
            let dy = data.doycrb[i];
            data.doycrb[parent] += dy;
        }
    }
}

/// The time derivative `Ẏ = v ×* Y - Y v ×` of the spatial inertia `Y` of a body
/// moving with twist `v = (u, ω)`, both in one fixed frame (Featherstone 2008
/// §2.13; Pinocchio's `Inertia::variation`). Y is linear in `(m, h, I_O)`, so Ẏ
/// is an inertia of mass rate 0, first-moment rate `ḣ = m u + ω × h` and
/// rotational rate `İ_O = [ω]× I_O - I_O [ω]× + 2 (h·u) 1 - u hᵀ - h uᵀ`.
fn inertia_rate<S: Scalar>(y: &Inertia<S>, v: &Motion<S>) -> Inertia<S> {
    let (u, w, h) = (&v.linear, &v.angular, &y.first_moment);
    let a = w.skew() * y.rotational;
    let hu = h.dot(u);
    let mut rotational = a;
    for r in 0..3 {
        for c in 0..=r {
            let mut x = a.0[r][c] + a.0[c][r] - (u.0[r] * h.0[c] + h.0[r] * u.0[c]);
            if r == c {
                x = x + hu + hu;
            }
            rotational.0[r][c] = x;
            rotational.0[c][r] = x;
        }
    }
    Inertia {
        mass: S::zero(),
        first_moment: u.scale(y.mass) + w.cross(h),
        rotational,
    }
}

/// `hg` of [`ccrba`] by one forward pass, without `Ag`: the bodies' momenta
/// `I_i v_i` summed in the world frame, their moment moved to the centre of
/// mass (left in `data.com`). Lengths unchecked.
pub(crate) fn centroidal_momentum<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
) -> Force<S> {
    let mut total = Force::zero();
    for i in 1..model.njoints() {
        joint_placement(model, data, i, q);
        let (vi, _) = body_velocity(model, data, i, v);
        data.v[i] = vi;
        total += data.o_mi[i].act_force(&data.inertias[i].mul_motion(&vi));
    }
    let (mass, first_moment) = mass_and_first_moment(model, data);
    data.com = first_moment.scale(S::one() / mass);
    Force {
        linear: total.linear,
        angular: total.angular - data.com.cross(&total.linear),
    }
}

/// The derivatives of the centroidal momentum and its rate (Pinocchio's
/// `computeCentroidalDynamicsDerivatives(model, data, q, v, a)`), each
/// `[6 x nv]` row-major, `[linear; angular]` rows, `q` columns in the tangent
/// space.
#[derive(Clone, Debug, PartialEq)]
pub struct CentroidalDerivatives<S = f64> {
    /// `∂hg/∂q` at fixed `v` (`hg` of [`ccrba`], about the moving CoM).
    pub dh_dq: Vec<S>,
    /// `∂ḣg/∂q` (`ḣg` of [`centroidal_momentum_rate`]).
    pub dhdot_dq: Vec<S>,
    /// `∂ḣg/∂v`.
    pub dhdot_dv: Vec<S>,
    /// `∂ḣg/∂a`: `Ag`.
    pub dhdot_da: Vec<S>,
}

/// The derivatives of `hg(q, v)` ([`ccrba`]) and `ḣg(q, v, a)`
/// ([`centroidal_momentum_rate`]); see [`CentroidalDerivatives`]. Pinocchio's
/// `computeCentroidalDynamicsDerivatives` returns the same four matrices.
///
/// Analytical, from one pass of the RNEA derivatives without gravity
/// (the runtime's `derivatives` module): `ḣ` about the world origin is the sum of the
/// bodies' forces `F` (without gravity), `h` the sum of their momenta `H`,
/// each tree's moved from its root's axes to the world. Along dof `c` of
/// joint `j` the subtree of `j` moves rigidly, so `F` changes by
/// `J_c ×* F_j + Y_j dA_c + B_j dV_c` (the column `g_c` of the RNEA
/// derivatives), `H` by `J_c ×* H_j + Y_j dV_c`, and the centre of mass by
/// `(m_j v_c + ω_c × m_j c_j) / m`; moving `F` and `H` to the centre of mass,
/// `(f, n - c × f)`, gives the `q` columns. The `v` columns are
/// `Y_j u_c + B_j J_c` moved the same way, the `a` columns `Y_j J_c` (`Ag`).
///
/// `q: [nq]`, `v: [nv]`, `a: [nv]`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or `data` was
/// built for another model; checked before anything is written.
pub fn centroidal_dynamics_derivatives<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    a: &[S],
) -> Result<CentroidalDerivatives<S>, InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_v(model, "a", a.len())?;
    run(model, data, q, v, a, External::None, Matrices::NoGravity);
    let (nv, tree, w) = (model.nv, model.topology(), &data.derivatives);
    let roots: Vec<usize> = (1..model.njoints())
        .filter(|&i| model.joints[i].parent == 0)
        .collect();
    // Totals in the world, about its origin.
    let (mut force, mut momentum) = (Force::zero(), Force::zero());
    let (mut mass, mut first_moment) = (S::zero(), Vector3::zeros());
    for &r in &roots {
        let world_from_root = &data.li_mi[r];
        force += world_from_root.act_force(&w.f[r]);
        momentum += world_from_root.act_force(&w.momentum[r]);
        let (m, c) = world_first_moment(world_from_root, &w.ycrb[r]);
        mass = mass + m;
        first_moment += c;
    }
    let com = first_moment.scale(S::one() / mass);
    data.com = com;
    // `(f, n)` about the world origin, moved to the centre of mass.
    let at_com = |x: &Force<S>| Force {
        linear: x.linear,
        angular: x.angular - com.cross(&x.linear),
    };
    // Its derivative when the centre of mass moves by `dc` too.
    let moved = |x: &Force<S>, dx: &Force<S>, dc: &Vector3<S>| Force {
        linear: dx.linear,
        angular: dx.angular - dc.cross(&x.linear) - com.cross(&dx.linear),
    };
    let zero = vec![Force::zero(); nv];
    let (mut dh_dq, mut dhdot_dq) = (zero.clone(), zero.clone());
    let (mut dhdot_dv, mut dhdot_da) = (zero.clone(), zero);
    let own_to_v = tree.own_to_v();
    for i in 1..model.njoints() {
        let world_from_root = &data.li_mi[tree_root(model, i)];
        let (y, b, f, h) = (&w.ycrb[i], &w.bias[i], &w.f[i], &w.momentum[i]);
        let (m_j, c_j) = world_first_moment(world_from_root, y);
        for c in tree.own_dofs(i) {
            let (jc, dv, da, du) = (&w.j[c], &w.dv_dq[c], &w.da_dq[c], &w.da_dv[c]);
            let world = |x: Force<S>| world_from_root.act_force(&x);
            let jw = world_from_root.act_motion(jc);
            let dcom = (jw.linear.scale(m_j) + jw.angular.cross(&c_j)).scale(S::one() / mass);
            let d_force = world(jc.cross_force(f) + y.mul_motion(da) + b.mul_motion(dv));
            let d_momentum = world(jc.cross_force(h) + y.mul_motion(dv));
            let columns = [
                moved(&momentum, &d_momentum, &dcom),
                moved(&force, &d_force, &dcom),
                at_com(&world(y.mul_motion(du) + b.mul_motion(jc))),
                at_com(&world(y.mul_motion(jc))),
            ];
            let (col, gain) = own_to_v[c];
            for (out, x) in [&mut dh_dq, &mut dhdot_dq, &mut dhdot_dv, &mut dhdot_da]
                .into_iter()
                .zip(columns)
            {
                out[col] += if gain == 1.0 {
                    x
                } else {
                    x.scale(S::constant(gain))
                };
            }
        }
    }
    let rows = |x: Vec<Force<S>>| rows_of(x.iter().map(|f| Motion::from_slice(&f.to_array())), nv);
    Ok(CentroidalDerivatives {
        dh_dq: rows(dh_dq),
        dhdot_dq: rows(dhdot_dq),
        dhdot_dv: rows(dhdot_dv),
        dhdot_da: rows(dhdot_da),
    })
}

/// The mass and first moment `m c` (world axes, about the world origin) of
/// an inertia given in a root's axes.
fn world_first_moment<S: Scalar>(
    world_from_root: &crate::Transform<S>,
    y: &Inertia<S>,
) -> (S, Vector3<S>) {
    let c = world_from_root.rotation * y.first_moment + world_from_root.translation.scale(y.mass);
    (y.mass, c)
}
