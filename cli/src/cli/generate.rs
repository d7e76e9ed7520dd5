//! `rbdgen generate`: the source `robot_dynamics!` would expand to, as a file
//! to commit, or a check that a committed file is current.

use std::path::{Path, PathBuf};

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
    #[arg(long)]
    check: bool,
    /// With --c-api: also write the C header that declares the `extern "C"`
    /// functions (checked too with --check).
    #[arg(long, value_name = "FILE")]
    header: Option<PathBuf>,
    /// Write a whole crate into DIR instead of one module: with --c-api NAME,
    /// a C library (`staticlib` and `cdylib`, `include/NAME.h`); with --python
    /// NAME, a PyO3 module that `pip install DIR` builds with maturin.
    #[arg(long = "crate", value_name = "DIR", conflicts_with = "output")]
    crate_dir: Option<PathBuf>,
    /// With --crate: the crate is the Python module NAME (numpy arrays in and
    /// out, `_batch` forms over `(n, ...)` arrays on the lanes and threads,
    /// with --lanes 2 unless given).
    #[arg(long, value_name = "NAME", requires = "crate_dir")]
    python: Option<String>,
    /// With --crate: the crate is a shared library `libNAME.so` of CasADi
    /// external functions, one per function (`casadi.external("rnea",
    /// PATH)`), with `jac_rnea`, `jac_aba`, `jac_contact_inverse_dynamics`
    /// and `jac_contact_drift` from the analytical derivatives
    /// (docs/casadi.md).
    #[arg(
        long,
        value_name = "NAME",
        requires = "crate_dir",
        conflicts_with = "python"
    )]
    casadi_external: Option<String>,
}

/// Runs the subcommand.
///
/// # Errors
/// A [`Failure`] with code 1 when `--check` finds the file stale, 2 for bad
/// input or I/O.
pub fn run(args: Args) -> Result<(), Failure> {
    if args.check && args.output.is_none() && args.crate_dir.is_none() {
        return Err("--check compares with a file: give -o FILE or --crate DIR"
            .to_string()
            .into());
    }
    if args.header.is_some() && args.code.c_api.is_none() {
        return Err("--header writes the C interface's header: add --c-api NAME"
            .to_string()
            .into());
    }
    if args.python.is_some() && args.crate_dir.is_none() {
        return Err("--python NAME writes a crate: add --crate DIR"
            .to_string()
            .into());
    }
    if args.casadi_external.is_some() && args.crate_dir.is_none() {
        return Err("--casadi-external NAME writes a crate: add --crate DIR"
            .to_string()
            .into());
    }
    if let Some(name) = &args.python {
        let identifier = |c: char| c == '_' || c.is_ascii_alphanumeric();
        if name.is_empty()
            || name.starts_with(|c: char| c.is_ascii_digit())
            || !name.chars().all(identifier)
        {
            return Err(format!(
                "--python: `{name}` is not a Python module name (letters, digits and `_`, not starting with a digit)"
            )
            .into());
        }
    }
    if let Some(name) = args.code.casadi.clone() {
        if args.crate_dir.is_some() || args.header.is_some() {
            return Err(
                "--casadi NAME writes one Python file (-o FILE.py): leave out --crate and --header"
                    .to_string()
                    .into(),
            );
        }
        return run_casadi(&args, &name);
    }
    if let Some(dir) = &args.crate_dir {
        return run_crate(&args, dir);
    }
    let (_, options, module) = args.code.generate(args.quiet)?;
    if let (Some(path), Some(header)) = (&args.header, module.c_header()) {
        let regenerate = regenerate_command(
            &args,
            &options,
            &format!("-o FILE --header {}", path.display()),
        );
        write_or_check(path, header, args.check, args.quiet, &regenerate)?;
    }
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

/// `--casadi NAME`: the Python module of CasADi expressions
/// ([`rbdgen_symbolic::casadi_module`]) to `-o FILE` or standard output, or checked.
fn run_casadi(args: &Args, name: &str) -> Result<(), Failure> {
    let (text, options) = args.code.load()?;
    let tail = match &args.output {
        Some(path) => format!("-o {}", path.display()),
        None => String::new(),
    };
    let command = regenerate_command(args, &options, &tail);
    let module = rbdgen_symbolic::casadi_module(&text, &options, name, &command)
        .map_err(|e| super::generate_error(&args.code.urdf, &e))?;
    super::print_warnings(&args.code.urdf, &module.warnings);
    let Some(path) = &args.output else {
        use std::io::Write;
        return match std::io::stdout().write_all(module.source.as_bytes()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(format!("standard output: {e}").into())
            }
            _ => Ok(()),
        };
    };
    write_or_check(path, &module.source, args.check, args.quiet, &command)?;
    if !args.quiet && !args.check {
        let ops: usize = module.op_counts.iter().map(|(_, c)| c.total()).sum();
        eprintln!(
            "wrote {} ({} functions as CasADi expressions, {ops} operations, {} bytes)",
            path.display(),
            module.op_counts.len(),
            module.source.len()
        );
    }
    Ok(())
}

/// The `rbdgen generate` command line for `options`, then `tail`.
fn regenerate_command(args: &Args, options: &rbdgen_symbolic::Options, tail: &str) -> String {
    [
        format!("rbdgen generate {}", args.code.urdf.display()),
        command_line_options(options),
        tail.to_string(),
    ]
    .iter()
    .filter(|s| !s.is_empty())
    .cloned()
    .collect::<Vec<_>>()
    .join(" ")
}

/// Writes `text` to `path` (creating its directory), or with `check`
/// compares them and fails when they differ.
fn write_or_check(
    path: &Path,
    text: &str,
    check: bool,
    quiet: bool,
    regenerate: &str,
) -> Result<(), Failure> {
    if check {
        return match std::fs::read(path) {
            Ok(existing) if existing == text.as_bytes() => {
                if !quiet {
                    eprintln!("{} is up to date", path.display());
                }
                Ok(())
            }
            Ok(existing) => Err(Failure::check(format!(
                "{} is stale ({}); regenerate with `{regenerate}`",
                path.display(),
                first_difference(&String::from_utf8_lossy(&existing), text)
            ))),
            Err(e) => Err(Failure::check(format!(
                "{}: {e}; generate it with `{regenerate}`",
                path.display()
            ))),
        };
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    if std::fs::read(path).ok().as_deref() != Some(text.as_bytes()) {
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// `--crate DIR`: the C library crate (`--c-api NAME`), the Python
/// module's crate (`--python NAME`) or the CasADi external functions'
/// (`--casadi-external NAME`), every file written or checked.
fn run_crate(args: &Args, dir: &Path) -> Result<(), Failure> {
    let (text, options) = args.code.load()?;
    // The crate's files name the directory as given, an absolute one by its
    // last component only (no machine's path in generated text).
    let shown = match dir.file_name() {
        Some(name) if dir.is_absolute() => Path::new(name),
        _ => dir,
    };
    let (files, warnings, regenerate) = if let Some(name) = &args.casadi_external {
        let command = regenerate_command(
            args,
            &options,
            &format!("--casadi-external {name} --crate {}", shown.display()),
        );
        let (files, module) = rbdgen_symbolic::external_crate(&text, &options, name, &command)
            .map_err(|e| super::generate_error(&args.code.urdf, &e))?;
        (files, module.warnings, command)
    } else if let Some(name) = &args.python {
        let command = regenerate_command(
            args,
            &options,
            &format!("--python {name} --crate {}", shown.display()),
        );
        let (files, module) = rbdgen_symbolic::python_crate(&text, &options, name, &command)
            .map_err(|e| super::generate_error(&args.code.urdf, &e))?;
        (files, module.warnings, command)
    } else {
        let Some(name) = options.c_api.clone() else {
            return Err(
                "--crate writes a C library (add --c-api NAME) or a Python module (add --python NAME)"
                    .to_string()
                    .into(),
            );
        };
        let command = regenerate_command(args, &options, &format!("--crate {}", shown.display()));
        let module = rbdgen_symbolic::generate_module(&text, &options, |_| {})
            .map_err(|e| super::generate_error(&args.code.urdf, &e))?;
        let source = module.source().map_err(|e| e.to_string())?;
        let header = module.c_header().unwrap_or_default().to_string();
        let files = rbdgen_symbolic::c_crate(&options, &name, &source, &header, &command);
        (files, module.warnings, command)
    };
    super::print_warnings(&args.code.urdf, &warnings);
    if !args.check {
        for (path, _) in &files {
            refuse_foreign(&dir.join(path))?;
        }
    }
    for (path, text) in &files {
        write_or_check(&dir.join(path), text, args.check, args.quiet, &regenerate)?;
    }
    if !args.quiet && !args.check {
        eprintln!("wrote {} ({} files)", dir.display(), files.len());
    }
    Ok(())
}

/// An error when `path` holds a file that rbdgen did not write (its first
/// lines do not say "generated by rbdgen"): `--crate` replaces its own
/// files, never a user's.
fn refuse_foreign(path: &Path) -> Result<(), String> {
    let Ok(existing) = std::fs::read(path) else {
        return Ok(());
    };
    let head: String = String::from_utf8_lossy(&existing).lines().take(5).collect();
    if head.contains("generated by rbdgen") {
        Ok(())
    } else {
        Err(format!(
            "{}: exists and was not generated by rbdgen; not overwritten (move it, or \
             give --crate a new or generated directory)",
            path.display()
        ))
    }
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

#[cfg(test)]
mod tests {
    use clap::{Args as _, Command, FromArgMatches as _};

    /// `--casadi` writes one file and `--casadi-external` a crate: each
    /// refuses the other's output before reading the model.
    #[test]
    fn the_casadi_outputs_refuse_the_wrong_destination() {
        let parse = |args: &[&str]| {
            let command = super::Args::augment_args(Command::new("generate"));
            let matches = command
                .try_get_matches_from(["generate", "no_such_model.urdf"].iter().chain(args))
                .unwrap();
            super::Args::from_arg_matches(&matches).unwrap()
        };
        for (args, message) in [
            (
                &["--casadi-external", "z1", "-o", "z1.py"][..],
                "--casadi-external NAME writes a crate: add --crate DIR",
            ),
            (
                &["--casadi", "z1", "--crate", "dir"][..],
                "--casadi NAME writes one Python file (-o FILE.py): leave out --crate and --header",
            ),
        ] {
            let error = super::run(parse(args)).expect_err("refused");
            assert_eq!((error.message.as_str(), error.code), (message, 2));
        }
    }

    /// `--python`'s help gives the lanes the Python module takes by default.
    #[test]
    fn the_python_help_names_the_default_lanes() {
        let command = super::Args::augment_args(Command::new("generate"));
        let help = command
            .get_arguments()
            .find(|a| a.get_id() == "python")
            .and_then(|a| a.get_help())
            .expect("--python has a help")
            .to_string();
        let lanes = rbdgen_symbolic::DEFAULT_LANES;
        assert!(
            help.contains(&format!("--lanes {lanes} unless given")),
            "{help}"
        );
    }
}
