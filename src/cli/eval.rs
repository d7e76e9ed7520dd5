//! `rbdgen eval`: every quantity of the eval format at the states of a file.

use std::path::PathBuf;

use rbdgen::eval::{evaluate, StatesFile};
use rbdgen::Model;

/// Where the numbers come from.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Backend {
    /// The generic runtime algorithms on `f64`.
    Runtime,
}

/// Arguments of `rbdgen eval`.
#[derive(clap::Args)]
pub struct Args {
    /// The URDF file.
    #[arg(long)]
    urdf: PathBuf,
    /// Give the root link a free-flyer joint.
    #[arg(long)]
    floating_base: bool,
    /// A file in the eval format: its model header and the inputs
    /// `q v a tau w q2` of each state are read (a reference file works).
    #[arg(long)]
    states: PathBuf,
    /// Output file; standard output when absent.
    #[arg(long)]
    out: Option<PathBuf>,
    /// What computes the quantities.
    #[arg(long, value_enum, default_value = "runtime")]
    backend: Backend,
}

/// Runs the subcommand; the error is the message to print.
pub fn run(args: Args) -> Result<(), String> {
    let Args {
        urdf,
        floating_base,
        states,
        out,
        backend: Backend::Runtime,
    } = args;
    let model = Model::from_urdf_str(&crate::read(&urdf)?, floating_base)
        .map_err(|e| format!("{}: {e}", urdf.display()))?;
    let file = StatesFile::parse(&crate::read(&states)?)
        .map_err(|e| format!("{}: {e}", states.display()))?;
    let doc = evaluate(&model, &urdf.to_string_lossy(), floating_base, &file)
        .map_err(|e| format!("{}: {e}", states.display()))?;
    let text = format!("{doc}\n");
    match out {
        Some(path) => std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display())),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}
