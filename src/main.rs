//! The `rbdgen` command line: generate dynamics code from a URDF, or describe a model.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use rbdgen::symbolic::{generate, Function, Options};
use rbdgen::Model;

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
    Generate {
        /// The URDF file.
        urdf: PathBuf,
        /// Give the root link a free-flyer joint.
        #[arg(long)]
        floating_base: bool,
        /// Comma-separated functions to emit (rnea, crba, aba, frame_placement); all by default.
        #[arg(long, value_delimiter = ',')]
        functions: Vec<String>,
        /// Output file; standard output when absent.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Prints nq, nv, the joint tree, the link frames, the total mass and operation counts.
    Info {
        /// The URDF file.
        urdf: PathBuf,
        /// Give the root link a free-flyer joint.
        #[arg(long)]
        floating_base: bool,
    },
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("rbdgen: {message}");
            ExitCode::from(2)
        }
    }
}

fn read(path: &PathBuf) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Generate {
            urdf,
            floating_base,
            functions,
            output,
        } => {
            let text = read(&urdf)?;
            let mut options = Options {
                floating_base,
                source_name: urdf.to_string_lossy().into_owned(),
                ..Options::default()
            };
            if !functions.is_empty() {
                options.functions = functions
                    .iter()
                    .map(|n| {
                        Function::from_name(n).ok_or_else(|| format!("unknown function `{n}`"))
                    })
                    .collect::<Result<BTreeSet<_>, _>>()?;
            }
            let source =
                generate(&text, &options).map_err(|e| format!("{}: {e}", urdf.display()))?;
            match output {
                Some(path) => {
                    std::fs::write(&path, source).map_err(|e| format!("{}: {e}", path.display()))
                }
                None => {
                    print!("{source}");
                    Ok(())
                }
            }
        }
        Command::Info {
            urdf,
            floating_base,
        } => {
            let text = read(&urdf)?;
            let model = Model::from_urdf_str(&text, floating_base)
                .map_err(|e| format!("{}: {e}", urdf.display()))?;
            print_info(&model);
            Ok(())
        }
    }
}

fn print_info(model: &Model) {
    println!("robot {}: nq = {}, nv = {}", model.name, model.nq, model.nv);
    let mass: f64 = model.joints.iter().map(|j| j.inertia.mass).sum();
    println!("total mass (moving bodies): {mass} kg");
    println!("joints:");
    for (i, j) in model.joints.iter().enumerate().skip(1) {
        println!(
            "  {i:>3} {:<24} {:?} parent {} (q[{}..{}], v[{}..{}])",
            j.name,
            j.kind,
            model.joints[j.parent].name,
            j.idx_q,
            j.idx_q + j.kind.nq(),
            j.idx_v,
            j.idx_v + j.kind.nv()
        );
    }
    println!("link frames:");
    for (_, f) in model.body_frames() {
        println!(
            "  {:<24} on joint {}",
            f.name, model.joints[f.parent_joint].name
        );
    }
}
