//! `rbdgen generate`: the source `robot_dynamics!` would expand to, as a file.

use std::collections::BTreeSet;
use std::path::PathBuf;

use rbdgen::symbolic::{generate, Function, Options};

/// Arguments of `rbdgen generate`.
#[derive(clap::Args)]
pub struct Args {
    /// The URDF file.
    urdf: PathBuf,
    /// Give the root link a free-flyer joint.
    #[arg(long)]
    floating_base: bool,
    /// Comma-separated functions to emit (rnea, crba, aba, minverse, ..., the names
    /// `robot_dynamics!` takes, listed in the README); all by default.
    #[arg(long, value_delimiter = ',')]
    functions: Vec<String>,
    /// Output file; standard output when absent.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Runs the subcommand; the error is the message to print.
pub fn run(args: Args) -> Result<(), String> {
    let Args {
        urdf,
        floating_base,
        functions,
        output,
    } = args;
    let text = crate::read(&urdf)?;
    let mut options = Options {
        floating_base,
        source_name: urdf.to_string_lossy().into_owned(),
        ..Options::default()
    };
    if !functions.is_empty() {
        options.functions = functions
            .iter()
            .map(|n| Function::from_name(n).ok_or_else(|| format!("unknown function `{n}`")))
            .collect::<Result<BTreeSet<_>, _>>()?;
    }
    let source = generate(&text, &options).map_err(|e| format!("{}: {e}", urdf.display()))?;
    match output {
        Some(path) => std::fs::write(&path, source).map_err(|e| format!("{}: {e}", path.display())),
        None => {
            print!("{source}");
            Ok(())
        }
    }
}
