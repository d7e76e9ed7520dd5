//! Kinetic and potential energy.

use super::centroidal::mass_and_first_moment;
use super::kinematics::{body_velocity, forward_kinematics, joint_placement};
use super::{check_data, check_q, check_v};
use crate::error::InputError;
use crate::spatial::Vector3;
use crate::{Data, Model, Scalar};

/// The kinetic energy `T = ½ Σ_i v_iᵀ I_i v_i + ½ Σ_k armature_k v_k² = ½ vᵀ M(q) v`
/// of the moving bodies and the rotors (Featherstone 2008 §2.15; Pinocchio's
/// `computeKineticEnergy(model, data, q, v)`, which includes the armature too).
///
/// `q: [nq]`, `v: [nv]`; returns T (J). Body velocities are left in `data.v`.
///
/// # Errors
/// [`InputError`] when a slice length does not match `nq` / `nv`, or `data` was
/// built for another model; checked before anything is written.
pub fn kinetic_energy<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
    v: &[S],
) -> Result<S, InputError> {
    check_data(model, data)?;
    check_q(model, q.len())?;
    check_v(model, "v", v.len())?;
    let mut energy = S::zero();
    for i in 1..model.njoints() {
        joint_placement(model, data, i, q);
        let (vi, _) = body_velocity(model, data, i, v);
        data.v[i] = vi;
        energy = energy + data.inertias[i].kinetic_energy(&vi);
    }
    for (&x, &arm) in v.iter().zip(&model.armature) {
        if arm != 0.0 {
            energy = energy + S::constant(0.5 * arm) * x * x;
        }
    }
    Ok(energy)
}

/// The potential energy of gravity `V = -Σ_i m_i gᵀ c_i = -m gᵀ c` of the moving
/// bodies, zero at the world origin (Pinocchio's
/// `computePotentialEnergy(model, data, q)`), with `g = (0, 0, -9.81)` m/s².
///
/// `q: [nq]`; returns V (J). Links welded to the universe in a fixed-base model
/// count nowhere.
///
/// # Errors
/// [`InputError`] when `q` does not have length `nq`, or `data` was built for
/// another model; checked before anything is written.
pub fn potential_energy<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    q: &[S],
) -> Result<S, InputError> {
    forward_kinematics(model, data, q)?;
    let (_, first_moment) = mass_and_first_moment(model, data);
    Ok(-Vector3::constant(model.gravity.0).dot(&first_moment))
}
