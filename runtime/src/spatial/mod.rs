//! Spatial algebra (Featherstone 2008, ch. 2), generic over [`Scalar`].
//!
//! Spatial vectors are `[linear; angular]`; a [`Transform`] `a_from_b` maps
//! coordinates in frame b to frame a. Inertias use the first-moment form
//! `(m, h = m c, I_o)` so that sums and frame changes need no division.

pub(crate) mod exp_log;
mod inertia;
mod linalg;
mod motion;
mod quaternion;
mod transform;

pub use exp_log::{exp3, exp6, jexp3, jexp6, jlog3, jlog6, log3, log6};
pub use inertia::Inertia;
pub use linalg::{Matrix3, Matrix6, Vector3};
pub use motion::{Force, Motion};
pub use quaternion::{exp6_quaternion, log6_quaternion, Quaternion};
pub use transform::Transform;

use crate::Scalar;
