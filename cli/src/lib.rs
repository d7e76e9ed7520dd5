//! The library side of the `rbdgen` command line (`cargo install rbdgen-cli`):
//!
//! - [`eval`] reads, computes, writes and compares the eval format, the files
//!   of Pinocchio reference values and of `rbdgen eval`;
//! - [`check`] holds the error measure the conformance checks use.
//!
//! The subcommands themselves (`generate`, `verify`, `info`, `eval`,
//! `compare`) live in the binary. A crate that only needs the dynamics depends
//! on the `rbdgen` facade, which has none of this crate's dependencies.

pub mod check;
pub mod eval;
