//! The `rbdgen` command line: generate dynamics code from a URDF, check it
//! against the runtime, describe a model, evaluate and compare the quantities
//! of the eval format.
//! Each subcommand lives in its own module under `cli/`; all of them call the
//! same library functions as the macro (`rbdgen_symbolic`, `rbdgen_runtime`),
//! and the eval format of this package's library (`rbdgen_cli`).

/// `println!` that ends the process quietly (exit status 0) when standard
/// output is closed (`rbdgen info ... | head -3`), as Unix tools do, instead
/// of panicking; another write error is exit status 2 with a message.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` with [`outln!`]'s handling of a closed standard output.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::write_stdout(format_args!($($arg)*))
    };
}

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "rbdgen",
    version,
    about = "Compiles a robot's URDF or MJCF model into specialised rigid-body dynamics code"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Writes the Rust module that `robot_dynamics!` would generate for a URDF or
    /// MJCF model.
    Generate(cli::generate::Args),
    /// Prints nq, nv, the joint tree, the link frames and the total mass; with
    /// `--ops`, the operation count and code size of each generated function.
    Info(cli::info::Args),
    /// Builds the generated code in a crate of its own and compares it with the
    /// runtime on random states: error and time per call of each function.
    Verify(cli::verify::Args),
    /// Computes every quantity of the eval format at the states of a file.
    Eval(cli::eval::Args),
    /// Compares a file of the eval format with a reference (exit 1 on a mismatch).
    Compare(cli::compare::Args),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Generate(args) => cli::generate::run(args),
        Command::Info(args) => cli::info::run(args).map_err(cli::Failure::from),
        Command::Verify(args) => cli::verify::run(args),
        Command::Eval(args) => cli::eval::run(args).map_err(cli::Failure::from),
        Command::Compare(args) => match cli::compare::run(args) {
            Ok(true) => Ok(()),
            Ok(false) => Err(cli::Failure::check(
                "the values differ beyond the tolerance".into(),
            )),
            Err(message) => Err(cli::Failure::from(message)),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(cli::Failure { message, code }) => {
            eprintln!("rbdgen: {message}");
            ExitCode::from(code)
        }
    }
}

/// Writes `text` to standard output; see [`outln!`].
pub(crate) fn write_stdout(text: std::fmt::Arguments) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_fmt(text) {
        exit_on_write_error(&e);
    }
}

/// Ends the process after a failed write to standard output: quietly with
/// status 0 when the reader has gone (a broken pipe), with a message and
/// status 2 otherwise.
pub(crate) fn exit_on_write_error(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("rbdgen: standard output: {e}");
    std::process::exit(2);
}

/// The text of a file, or a message naming it.
pub(crate) fn read(path: &PathBuf) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The text of a robot description: a URDF as is, an MJCF file (`.xml`,
/// `<mujoco>` root) with its includes expanded; or a message naming it.
pub(crate) fn read_description(path: &PathBuf) -> Result<String, String> {
    read(path)?;
    rbdgen_symbolic::read_description(path).map_err(|e| format!("{}: {e}", path.display()))
}
