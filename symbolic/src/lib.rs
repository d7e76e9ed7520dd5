//! Tracing, simplification and emission: rbdgen's generic algorithms run on a
//! symbolic scalar, build a hash-consed expression graph with the robot's
//! constants folded in, and come out as plain Rust.
//!
//! Data flows one way: [`rbdgen_runtime::Model`] → [`trace()`] (a [`Graph`] per
//! function) → [`emit::schedule`] (statements) → [`emit::print`] (Rust
//! tokens) → [`generate()`] (formatted source).

// The graph and its stages: public for their tests and for tools that work
// on the traced graph.
pub mod diff;
pub mod emit;
pub mod graph;
pub mod jacobian;
pub mod limbs;
pub mod simplify;
pub mod trace;

// The generator's floors (docs/architecture.md), private: what the front
// ends use is re-exported below.
mod api;
mod casadi;
mod columns;
mod cost_reference;
mod error;
mod eval;
mod ffi;
mod form;
mod functions;
mod generate;
mod header;
mod interface;
mod item;
mod lanes;
mod ops;
mod options;
mod prepare;
mod python;
mod straight;
mod user;

pub use casadi::{
    analytical_derivatives, casadi_module, external_crate, output_names, python_body, CasadiModule,
};
pub use cost_reference::{rnea_mul_reference, RNEA_MULS_PER_JOINT};
pub use emit::ScalarType;
pub use error::GenerateError;
pub use ffi::{c_crate, STATUS_CODES};
pub use functions::{Columns, Dim, EvaluateFn, Function, Kernel, Looped, Output, Spec};
pub use generate::{generate, generate_module, module_frames, module_functions, Module, Progress};
pub use graph::{Graph, Node, NodeId, OpCounts, BYTES_PER_OP};
pub use header::sha256_hex;
pub use ops::{Operator, Spelling, Wide, MAX_ARITY};
pub use options::{
    apply_to_model, command_line_options, is_c_identifier, is_set_name, lane_widths,
    parse_functions, unknown_function, OptionError, OptionKey, OptionSpec, Options,
    DEFAULT_MAX_OPS, DEFAULT_UNROLL_LIMIT, OPTIONS,
};
pub use prepare::build_model;
pub use python::{python_crate, python_options, DEFAULT_LANES};
pub use rbdgen_runtime::error::nearest;
pub use rbdgen_runtime::model::mjcf::{description_files, read_description};
pub use rbdgen_runtime::{ContactKind, Model, ModelError};
pub use trace::{trace, Expr, Traced};
pub use user::{UserFn, UserFunction, UserItem};
