//! rbdgen: a compiler from a robot's URDF to specialised, verified rigid-body
//! dynamics code.
//!
//! - [`robot_dynamics!`] generates a module of functions (`rnea`, `crba`, `aba`,
//!   `minverse`, `ccrba`, frame placements and Jacobians, derivatives,
//!   `integrate`, `difference`, ..., with `NQ`/`NV`/`NEUTRAL` constants) from a
//!   URDF at compile time.
//! - [`runtime`] holds the same algorithms, generic over the scalar, on a
//!   [`Model`] built at run time; it is what the generated code is checked against.
//! - [`symbolic`] traces those algorithms and emits Rust: [`symbolic::generate()`]
//!   is the one generator behind the macro and the `rbdgen` command line
//!   (`cargo install rbdgen-cli`), which is a package of its own so that this
//!   crate has no command-line dependency.
//! - [`build`] runs that generator from a build script (`$OUT_DIR/NAME.rs`),
//!   for crates that keep proc macros out of their build.
//! - `na` (feature `nalgebra`) converts the generated code's arrays to and
//!   from nalgebra's `SVector`, `SMatrix`, `Isometry3` and `UnitQuaternion`.
//!
//! Features: `macro` (default) for [`robot_dynamics!`], `nalgebra` for `na`,
//! `rayon` for the `threads` option of [`robot_dynamics!`] (the lanes'
//! `NAME_batch_par`, split across rayon's thread pool; needs `std`).
//!
//! Conventions are Pinocchio's; see [`rbdgen_runtime`]'s crate documentation.

pub mod build;
#[cfg(feature = "nalgebra")]
pub mod na;

#[cfg(feature = "macro")]
pub use rbdgen_macro::robot_dynamics;
pub use rbdgen_runtime as runtime;
pub use rbdgen_runtime::{Data, Model};
pub use rbdgen_symbolic as symbolic;

/// The README's Rust snippets, each compiled and run as a doctest by `cargo
/// test --doc --all-features` (the README's test command, `.ci/run`), so
/// that they compile as written.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The guide's Rust snippets (`docs/guide.md`), doctests as the README's.
#[cfg(doctest)]
#[doc = include_str!("../docs/guide.md")]
pub struct GuideDoctests;

/// The Rust snippets of `docs/automatic-differentiation.md`, doctests as the
/// README's.
#[cfg(doctest)]
#[doc = include_str!("../docs/automatic-differentiation.md")]
pub struct AutomaticDifferentiationDoctests;

#[doc(hidden)]
pub mod __private {
    pub use libm;
    #[cfg(feature = "rayon")]
    pub use rayon;
    pub use wide;
}

/// What `robot_dynamics!(..., threads)` expands to first: nothing with the
/// `rayon` feature, a compile error naming it without.
#[doc(hidden)]
#[cfg(feature = "rayon")]
#[macro_export]
macro_rules! __threads_need_rayon {
    () => {};
}

/// What `robot_dynamics!(..., threads)` expands to first: nothing with the
/// `rayon` feature, a compile error naming it without.
#[doc(hidden)]
#[cfg(not(feature = "rayon"))]
#[macro_export]
macro_rules! __threads_need_rayon {
    () => {
        compile_error!(
            "robot_dynamics!(..., threads): `NAME_batch_par` runs on rayon; enable rbdgen's \
             `rayon` feature (rbdgen = { version = \"0.1\", features = [\"rayon\"] })"
        );
    };
}
