//! Derivatives of frame velocities and accelerations in the tangent space,
//! analytically (Carpentier & Mansard 2018; Pinocchio's
//! `computeForwardKinematicsDerivatives`): the forward pass of the RNEA
//! derivatives ([`super::derivatives`]) leaves, in the axes of each tree's
//! root, every dof's column `J_c`, `dV_c = v_λ × J_c`,
//! `dA_c = a_λ × J_c + v_λ × dV_c` and `u_c`. Along dof `c` of a body's
//! support, the body's twist `v_i` in its own axes changes by `dV_c` and its
//! acceleration by `dA_c + dV_c × v_i`, or by `u_c + J_c × v_i` along `v_c`
//! (all moved into the body's axes). Moved into a frame's own axes these are
//! the LOCAL derivatives ([`FrameColumns`]); the
//! other references add the turning of the frame's axes, `J_c × x` for a
//! motion `x` in LOCAL (or `ω_c × x` for the two parts rotated into world
//! axes, LOCAL_WORLD_ALIGNED).

use super::derivatives::{run, tree_root, External, Matrices};
use super::{check_data, check_index, check_q, check_v, ReferenceFrame};
use crate::error::InputError;
use crate::spatial::{Matrix3, Motion, Transform, Vector3};
use crate::{Data, Model, Scalar};

/// A frame's velocity and acceleration and their derivatives in its own
/// axes (LOCAL), from a pass of [`run`], one column per model dof (zero off
/// the frame's support).
pub(crate) struct FrameColumns<S> {
    /// `world_from_frame`.
    pub(crate) placement: Transform<S>,
    /// The frame's twist `v`.
    pub(crate) v: Motion<S>,
    /// Its spatial acceleration `a`, without gravity.
    pub(crate) a: Motion<S>,
    /// `∂v/∂v = ∂a/∂a`: the LOCAL frame Jacobian, `[nv]` columns.
    pub(crate) j: Vec<Motion<S>>,
    /// `∂v/∂q`, `[nv]` columns, tangent space.
    pub(crate) dv_dq: Vec<Motion<S>>,
    /// `∂a/∂q`, `[nv]` columns, tangent space.
    pub(crate) da_dq: Vec<Motion<S>>,
    /// `∂a/∂v`, `[nv]` columns.
    pub(crate) da_dv: Vec<Motion<S>>,
    /// The model dofs of the frame's support, increasing: the columns that
    /// may be nonzero.
    pub(crate) support: Vec<usize>,
}

/// The [`FrameColumns`] of `frame` from the last pass of [`run`] (with
/// [`Matrices::Kinematics`] or one that fills the derivatives); `gravity`
/// says whether that pass included it, which is then taken out of `a` and
/// `∂a/∂q` (the universe's acceleration `-g`, `g_r` in the root's axes, adds
/// `g_r` to every body's and `g_r × J_c` to every `dA_c`).
pub(crate) fn frame_columns<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    frame: usize,
    gravity: bool,
) -> FrameColumns<S> {
    let nv = model.nv;
    let f = &model.frames[frame];
    let i = f.parent_joint;
    let zero = vec![Motion::zero(); nv];
    let joint_from_frame = Transform::constant(&f.placement);
    if i == 0 {
        return FrameColumns {
            placement: joint_from_frame,
            v: Motion::zero(),
            a: Motion::zero(),
            j: zero.clone(),
            dv_dq: zero.clone(),
            da_dq: zero.clone(),
            da_dv: zero,
            support: Vec::new(),
        };
    }
    let w = &data.derivatives;
    let root = tree_root(model, i);
    let root_from_frame = if i == root {
        joint_from_frame
    } else {
        w.root_from_body[i] * joint_from_frame
    };
    let g_root = if gravity {
        data.li_mi[root].act_inv_motion(&super::universe_acceleration(model))
    } else {
        Motion::zero()
    };
    let local = |m: &Motion<S>| root_from_frame.act_inv_motion(m);
    let (mut j, mut dv_dq, mut da_dq, mut da_dv) = (zero.clone(), zero.clone(), zero.clone(), zero);
    let tree = model.topology();
    let own_to_v = tree.own_to_v();
    let vi = w.v[i];
    let mut joints = Vec::new();
    tree.support(i, &mut joints);
    let mut support = Vec::new();
    for &k in &joints {
        for c in tree.own_dofs(k) {
            let (col, gain) = own_to_v[c];
            support.push(col);
            let (jc, dv) = (w.j[c], w.dv_dq[c]);
            let columns = [
                local(&jc),
                local(&dv),
                local(&(w.da_dq[c] + dv.cross(&vi) - g_root.cross(&jc))),
                local(&(w.da_dv[c] + jc.cross(&vi))),
            ];
            for (out, x) in [&mut j, &mut dv_dq, &mut da_dq, &mut da_dv]
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
    FrameColumns {
        placement: data.li_mi[root] * root_from_frame,
        v: local(&w.v[i]),
        a: local(&(w.a[i] - g_root)),
        j,
        dv_dq,
        da_dq,
        da_dv,
        support: {
            support.sort_unstable();
            support.dedup();
            support
        },
    }
}

impl<S: Scalar> FrameColumns<S> {
    /// A LOCAL motion `x` of the frame in `reference`.
    pub(crate) fn express(&self, x: &Motion<S>, reference: ReferenceFrame) -> Motion<S> {
        let r = &self.placement.rotation;
        match reference {
            ReferenceFrame::Local => *x,
            ReferenceFrame::LocalWorldAligned => Motion {
                linear: *r * x.linear,
                angular: *r * x.angular,
            },
            ReferenceFrame::World => self.placement.act_motion(x),
        }
    }

    /// The derivative along column `c` of a LOCAL motion `x` expressed in
    /// `reference`, given `dx`, that of `x` itself: in LOCAL `dx`; the frame
    /// turns by `J_c`, so `R (dx + ω_c × x)` part by part in
    /// LOCAL_WORLD_ALIGNED and `X (dx + J_c × x)` in WORLD.
    pub(crate) fn moved(
        &self,
        c: usize,
        x: &Motion<S>,
        dx: &Motion<S>,
        reference: ReferenceFrame,
    ) -> Motion<S> {
        let jc = &self.j[c];
        match reference {
            ReferenceFrame::Local => *dx,
            ReferenceFrame::LocalWorldAligned => self.express(
                &Motion {
                    linear: dx.linear + jc.angular.cross(&x.linear),
                    angular: dx.angular + jc.angular.cross(&x.angular),
                },
                reference,
            ),
            ReferenceFrame::World => self.express(&(*dx + jc.cross(x)), reference),
        }
    }

    /// The classical acceleration of the frame's origin in its own axes,
    /// `a_lin + ω × v_lin`.
    pub(crate) fn classical(&self) -> Vector3<S> {
        self.a.linear + self.v.angular.cross(&self.v.linear)
    }

    /// The derivatives `(∂/∂q, ∂/∂v)` along column `c` of [`Self::classical`]
    /// rotated into world axes, `R (a_lin + ω × v_lin)`: the rows of a point
    /// contact's acceleration.
    pub(crate) fn classical_world_columns(&self, c: usize) -> (Vector3<S>, Vector3<S>) {
        let (v, r) = (&self.v, &self.placement.rotation);
        let (jc, dv, da, du) = (&self.j[c], &self.dv_dq[c], &self.da_dq[c], &self.da_dv[c]);
        let dq = da.linear
            + dv.angular.cross(&v.linear)
            + v.angular.cross(&dv.linear)
            + jc.angular.cross(&self.classical());
        let dv_ = du.linear + jc.angular.cross(&v.linear) + v.angular.cross(&jc.linear);
        (*r * dq, *r * dv_)
    }

    /// The world rotation of the frame, `R`.
    pub(crate) fn rotation(&self) -> &Matrix3<S> {
        &self.placement.rotation
    }
}

/// `[6 x nv]` row-major from `nv` columns.
pub(crate) fn rows_of<S: Scalar>(columns: impl Iterator<Item = Motion<S>>, nv: usize) -> Vec<S> {
    let mut out = vec![S::zero(); 6 * nv];
    for (c, m) in columns.enumerate() {
        for (r, x) in m.to_array().into_iter().enumerate() {
            out[r * nv + c] = x;
        }
    }
    out
}

/// The kinematic pass of [`run`] at `(q, v, a)`, without gravity.
fn kinematics<S: Scalar>(model: &Model, data: &mut Data<S>, q: &[S], v: &[S], a: &[S]) {
    run(model, data, q, v, a, External::None, Matrices::Kinematics);
}

/// The derivatives `(dv_dq, dv_dv)` of a frame's spatial velocity
/// ([`frame_velocity`](super::frame_velocity)) in `reference`, each
/// `[6 x nv]` row-major, `dv_dq` in the tangent space. Everything that
/// depends on `q` moves with it, the frame's axes included: in
/// LOCAL_WORLD_ALIGNED this is the exact derivative of the velocity of the
/// (moving) frame origin, where Pinocchio 4.1.0's
/// `getFrameVelocityDerivatives` leaves out that origin's motion (its `dv_dq`
/// is this minus `[ω × ∂p/∂q; 0]`). `dv_dv` is the frame Jacobian in
/// `reference`. Analytical, one forward pass (module documentation; source:
/// Pinocchio's `computeForwardKinematicsDerivatives` +
/// `getFrameVelocityDerivatives`).
///
/// `q: [nq]`, `v: [nv]`; rows `[linear; angular]`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, `frame` is
/// not a frame index, or `data` was built for another model; checked before
/// anything is written.
pub fn frame_velocity_derivatives<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    frame: usize,
    reference: ReferenceFrame,
) -> Result<(Vec<S>, Vec<S>), InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_index("frame", frame, model.frames.len())?;
    let zeros = core::mem::take(&mut data.derivatives.zeros);
    kinematics(model, data, q, v, &zeros);
    data.derivatives.zeros = zeros;
    let f = frame_columns(model, data, frame, false);
    let nv = model.nv;
    let dv_dq = (0..nv).map(|c| f.moved(c, &f.v, &f.dv_dq[c], reference));
    let dv_dv = (0..nv).map(|c| f.express(&f.j[c], reference));
    Ok((rows_of(dv_dq, nv), rows_of(dv_dv, nv)))
}

/// The derivatives `(da_dq, da_dv, da_da)` of a frame's spatial (not
/// classical) acceleration ([`frame_acceleration`](super::frame_acceleration))
/// in `reference`, each `[6 x nv]` row-major, `da_dq` in the tangent space;
/// the frame's axes move with `q` as in [`frame_velocity_derivatives`]
/// (Pinocchio 4.1.0's LOCAL_WORLD_ALIGNED `da_dq` misses `[α × ∂p/∂q; 0]`).
/// `da_da` is the frame Jacobian in `reference`. Analytical, one forward
/// pass (source: Pinocchio's `computeForwardKinematicsDerivatives` +
/// `getFrameAccelerationDerivatives`).
///
/// `q: [nq]`, `v: [nv]`, `a: [nv]`; rows `[linear; angular]`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, `frame` is
/// not a frame index, or `data` was built for another model; checked before
/// anything is written.
pub fn frame_acceleration_derivatives<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
    a: &[S],
    frame: usize,
    reference: ReferenceFrame,
) -> Result<(Vec<S>, Vec<S>, Vec<S>), InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    check_v(model, "a", a.len())?;
    check_index("frame", frame, model.frames.len())?;
    kinematics(model, data, q, v, a);
    let f = frame_columns(model, data, frame, false);
    let nv = model.nv;
    let da_dq = (0..nv).map(|c| f.moved(c, &f.a, &f.da_dq[c], reference));
    let da_dv = (0..nv).map(|c| f.express(&f.da_dv[c], reference));
    let da_da = (0..nv).map(|c| f.express(&f.j[c], reference));
    Ok((rows_of(da_dq, nv), rows_of(da_dv, nv), rows_of(da_da, nv)))
}
