//! rbdgen: a compiler from a robot's URDF to specialised, verified rigid-body
//! dynamics code.
//!
//! - [`robot_dynamics!`] generates a module of functions (`rnea`, `crba`, `aba`,
//!   `minverse`, `ccrba`, frame placements and Jacobians, derivatives,
//!   `integrate`, `difference`, ..., with `NQ`/`NV`/`NEUTRAL` constants) from a
//!   URDF at compile time.
//! - [`runtime`] holds the same algorithms, generic over the scalar, on a
//!   [`Model`] built at run time; it is what the generated code is checked against.
//! - [`symbolic`] traces those algorithms and emits Rust; the `rbdgen` binary
//!   drives it from the command line.
//! - [`eval`] reads, computes, writes and compares the eval format, the files
//!   of Pinocchio reference values and of `rbdgen eval`.
//!
//! - [`check`] holds the error measure the conformance checks use.
//!
//! Conventions are Pinocchio's; see [`rbdgen_runtime`]'s crate documentation.

pub mod check;
pub mod eval;

pub use rbdgen_macro::robot_dynamics;
pub use rbdgen_runtime as runtime;
pub use rbdgen_runtime::{Data, Model};
pub use rbdgen_symbolic as symbolic;

#[doc(hidden)]
pub mod __private {
    pub use libm;
}
