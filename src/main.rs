//! The `rbdgen` command line: generate dynamics code from a URDF, check it
//! against the runtime, or describe a model.
//! Each subcommand lives in its own module under `cli/`; all of them call the
//! same library functions as the macro.

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "rbdgen",
    version,
    about = "Compiles a robot's URDF into specialised rigid-body dynamics code"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Writes the Rust module that `robot_dynamics!` would generate for a URDF.
    Generate(cli::generate::Args),
    /// Prints nq, nv, the joint tree, the link frames, the total mass and the
    /// operation count of each generated function.
    Info(cli::info::Args),
    /// Builds the generated code in a crate of its own and compares it with the
    /// runtime on random states: error and time per call of each function.
    Verify(cli::verify::Args),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Generate(args) => cli::generate::run(args),
        Command::Info(args) => cli::info::run(args).map_err(cli::Failure::from),
        Command::Verify(args) => cli::verify::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(cli::Failure { message, code }) => {
            eprintln!("rbdgen: {message}");
            ExitCode::from(code)
        }
    }
}

/// The text of a file, or a message naming it.
pub(crate) fn read(path: &PathBuf) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}
