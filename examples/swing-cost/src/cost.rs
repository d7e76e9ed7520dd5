//! The cost, written once over the scalar: the build script traces it on
//! rbdgen's symbolic scalar (and differentiates it), the example evaluates it
//! on `f64` with the runtime as the reference.

use rbdgen::runtime::{center_of_mass, frame_placement, Data, InputError, Model, Scalar};

/// The number of residuals, and of targets.
pub const NR: usize = 15;

/// The residual of the pose the optimisation looks for: the front-left foot's
/// height above `target[0]` (m); the centre of mass's horizontal position
/// minus `target[1..3]` (m, world frame); the gripper's position minus
/// `target[3..6]`; the other three feet's positions minus `target[6..15]`
/// (FR, RL, RR, `[x y z]` each). Weights: 1 each; `½ |r|²` is the cost.
///
/// `x = [q: [nq], target: [15]]`; returns `r: [15]`.
///
/// # Errors
/// [`InputError`] for arguments of the wrong length.
pub fn swing_residual<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    x: &[Vec<S>],
) -> Result<Vec<S>, InputError> {
    let (q, target) = (&x[0], &x[1]);
    let com = center_of_mass(model, data, q)?; // also the placements of every joint
    let position = |data: &Data<S>, link: &str| -> Result<[S; 3], InputError> {
        let frame = model.link_frame(link).expect("Go2+Z1 has the link");
        Ok(frame_placement(model, data, frame)?.translation.0)
    };
    let foot = position(data, "FL_foot")?;
    let gripper = position(data, "gripperMover")?;
    let mut r = vec![
        foot[2] - target[0],
        com.0[0] - target[1],
        com.0[1] - target[2],
    ];
    r.extend((0..3).map(|i| gripper[i] - target[3 + i]));
    for (k, link) in ["FR_foot", "RL_foot", "RR_foot"].iter().enumerate() {
        let p = position(data, link)?;
        r.extend((0..3).map(|i| p[i] - target[6 + 3 * k + i]));
    }
    Ok(r)
}

/// The cost `½ |r|²` of [`swing_residual`].
///
/// # Errors
/// As [`swing_residual`].
pub fn swing_cost<S: Scalar>(
    model: &Model,
    data: &mut Data<S>,
    x: &[Vec<S>],
) -> Result<Vec<S>, InputError> {
    let r = swing_residual(model, data, x)?;
    let sum = r.iter().fold(S::zero(), |s, &e| s + e * e);
    Ok(vec![S::constant(0.5) * sum])
}
