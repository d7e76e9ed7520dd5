//! Go2+Z1 rigid-body dynamics for a microcontroller: a `#![no_std]` library
//! with no allocator whose only dependency is `libm`.
//!
//! `go2_z1.rs` is generated and committed; regenerate it from the rbdgen
//! repository root with
//!
//! ```text
//! rbdgen generate models/go2_z1.urdf --floating-base \
//!     --functions rnea,crba,aba,frame_placement,minverse,integrate,difference \
//!     -o examples/embedded/src/go2_z1.rs
//! ```
//!
//! and check it with `rbdgen verify models/go2_z1.urdf --floating-base`. The
//! rbdgen test `committed_code` fails when the file is stale and builds this
//! crate.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod go2_z1;

use go2_z1::{NQ, NV};

/// The joint torques that hold the robot still at `q` against gravity,
/// `tau = g(q) = rnea(q, 0, 0)` (Pinocchio's `computeGeneralizedGravity`).
///
/// `q: [NQ]` (free-flyer `[x y z qx qy qz qw]` then the joint angles, rad);
/// returns `tau: [NV]` (N, N·m; the first six entries are the base wrench in
/// the base frame).
pub fn gravity_torques(q: &[f64; NQ]) -> [f64; NV] {
    go2_z1::rnea(q, &[0.0; NV], &[0.0; NV])
}

/// The accelerations `a = M(q)⁻¹ (tau - h(q, v))` the torques `tau` produce
/// (articulated-body algorithm, Featherstone 2008 §7.3; Pinocchio's `aba`).
///
/// `q: [NQ]`, `v: [NV]` (m/s, rad/s), `tau: [NV]` (N, N·m); returns `a: [NV]`.
pub fn forward_dynamics(q: &[f64; NQ], v: &[f64; NV], tau: &[f64; NV]) -> [f64; NV] {
    go2_z1::aba(q, v, tau)
}
