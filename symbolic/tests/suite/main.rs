//! The symbolic crate's integration tests, one module per file, in one test
//! binary: each binary would compile the generic algorithms for the traced
//! and dual scalars again, at this crate's opt-level 3.

#[path = "../../../runtime/tests/common/mod.rs"]
mod common;

mod ad;
mod cost_reference;
mod dual_evaluation;
mod evaluate_errors;
mod f32_output;
mod graph;
mod lie_group_trace;
mod limbs;
mod schedule;
mod simplify;
mod trace_reference;
