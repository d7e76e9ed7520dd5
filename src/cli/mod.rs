//! The subcommands of `rbdgen`, one module each: arguments and `run`.

pub mod generate;
pub mod info;
