//! The subcommands of `rbdgen`, one module each: arguments and `run`.

pub mod compare;
pub mod eval;
pub mod generate;
pub mod info;
