//! Tracing, simplification and emission: rbdgen's generic algorithms run on a
//! symbolic scalar, build a hash-consed expression graph with the robot's
//! constants folded in, and come out as plain Rust.
//!
//! Data flows one way: [`rbdgen_runtime::Model`] → [`trace()`] (a [`Graph`] per
//! function) → [`emit::schedule`] (statements) → [`emit::print`] (Rust
//! tokens) → [`generate()`] (formatted source).

mod api;
pub mod casadi;
mod columns;
pub mod cost_reference;
pub mod diff;
pub mod emit;
mod error;
pub mod eval;
pub mod ffi;
mod form;
pub mod functions;
pub mod generate;
pub mod graph;
pub mod header;
mod interface;
mod item;
pub mod jacobian;
mod lanes;
pub mod limbs;
pub mod ops;
pub mod options;
mod prepare;
pub mod python;
pub mod simplify;
mod straight;
pub mod trace;
pub mod user;

pub use cost_reference::{rnea_mul_reference, RNEA_MULS_PER_JOINT};
pub use emit::ScalarType;
pub use error::GenerateError;
pub use functions::{Dim, Function, Output, Spec};
pub use generate::{generate, generate_module, module_frames, module_functions, Module, Progress};
pub use graph::{Graph, Node, NodeId, OpCounts, BYTES_PER_OP};
pub use header::sha256_hex;
pub use options::{
    command_line_options, lane_widths, parse_functions, OptionError, OptionKey, OptionSpec,
    Options, DEFAULT_MAX_OPS, DEFAULT_UNROLL_LIMIT, OPTIONS,
};
pub use prepare::build_model;
pub use rbdgen_runtime::error::nearest;
pub use rbdgen_runtime::model::mjcf::{description_files, read_description};
pub use rbdgen_runtime::{ContactKind, Model, ModelError};
pub use trace::{trace, Expr, Traced};
pub use user::{UserFn, UserFunction, UserItem};
