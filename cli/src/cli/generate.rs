//! `rbdgen generate`: the source `robot_dynamics!` would expand to, as a file
//! to commit, or a check that a committed file is current.

use std::path::PathBuf;

use rbdgen_symbolic::command_line_options;

use super::{CodeArgs, Failure};

/// Arguments of `rbdgen generate`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    code: CodeArgs,
    /// Output file; standard output when absent.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// No progress bar and no summary on stderr.
    #[arg(long)]
    quiet: bool,
    /// Write nothing: compare with the existing output file and fail (exit
    /// code 1) when it differs from what would be generated.
    #[arg(long, requires = "output")]
    check: bool,
}

/// Runs the subcommand.
///
/// # Errors
/// A [`Failure`] with code 1 when `--check` finds the file stale, 2 for bad
/// input or I/O.
pub fn run(args: Args) -> Result<(), Failure> {
    let (_, options, module) = args.code.generate(args.quiet)?;
    let source = module.source().map_err(|e| e.to_string())?;
    let Some(path) = args.output else {
        use std::io::Write;
        return match std::io::stdout().write_all(source.as_bytes()) {
            // A reader that stops early (`| head`) is not an error.
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(format!("standard output: {e}").into())
            }
            _ => Ok(()),
        };
    };
    let regenerate = [
        format!("rbdgen generate {}", args.code.urdf.display()),
        command_line_options(&options),
        format!("-o {}", path.display()),
    ]
    .iter()
    .filter(|s| !s.is_empty())
    .cloned()
    .collect::<Vec<_>>()
    .join(" ");
    if args.check {
        return match std::fs::read(&path) {
            Ok(existing) if existing == source.as_bytes() => {
                if !args.quiet {
                    eprintln!("{} is up to date", path.display());
                }
                Ok(())
            }
            Ok(existing) => Err(Failure::check(format!(
                "{} is stale ({}); regenerate with `{regenerate}`",
                path.display(),
                first_difference(&String::from_utf8_lossy(&existing), &source)
            ))),
            Err(e) => Err(Failure::check(format!(
                "{}: {e}; generate it with `{regenerate}`",
                path.display()
            ))),
        };
    }
    std::fs::write(&path, &source).map_err(|e| format!("{}: {e}", path.display()))?;
    if !args.quiet {
        let ops: usize = module.op_counts.values().map(|c| c.total()).sum();
        let n = module.op_counts.len();
        let functions = if n == 1 { "function" } else { "functions" };
        eprintln!(
            "wrote {} ({n} {functions}, {ops} operations, {} bytes)",
            path.display(),
            source.len()
        );
    }
    Ok(())
}

/// Where two texts first differ, as "line N differs" or a length difference.
fn first_difference(existing: &str, fresh: &str) -> String {
    let mut old = existing.lines();
    let mut new = fresh.lines();
    for n in 1.. {
        match (old.next(), new.next()) {
            (Some(a), Some(b)) if a == b => {}
            (Some(a), Some(b)) => {
                let (a, b) = (a.trim(), b.trim());
                // From a little before the first differing character.
                let at = a
                    .char_indices()
                    .zip(b.chars())
                    .find(|((_, x), y)| x != y)
                    .map_or(a.len().min(b.len()), |((i, _), _)| i);
                let from = if a[..at].chars().count() < 60 {
                    0
                } else {
                    a[..at].char_indices().rev().nth(20).map_or(0, |(i, _)| i)
                };
                let show = |l: &str| {
                    let tail = clip(&l[from.min(l.len())..]);
                    if from > 0 {
                        format!("...{tail}")
                    } else {
                        tail
                    }
                };
                return format!("line {n} is `{}`, expected `{}`", show(a), show(b));
            }
            (Some(_), None) => return format!("it has lines past the expected {}", n - 1),
            (None, Some(_)) => return format!("it ends at line {}", n - 1),
            (None, None) => break,
        }
    }
    "it differs in line endings".into()
}

fn clip(line: &str) -> String {
    let line = line.trim();
    match line.char_indices().nth(80) {
        Some((i, _)) => format!("{}...", &line[..i]),
        None => line.to_string(),
    }
}
