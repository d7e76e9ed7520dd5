//! `rbdgen compare`: our values of the eval format against a reference.

use std::path::PathBuf;

use rbdgen_cli::eval::{compare, Comparison, Status, TOLERANCE};

/// Arguments of `rbdgen compare`.
#[derive(clap::Args)]
pub struct Args {
    /// The reference file (Pinocchio's values).
    reference: PathBuf,
    /// Our file, made by `rbdgen eval` from the reference's states.
    ours: PathBuf,
    /// Count the quantities that ours does not compute as failures.
    #[arg(long)]
    strict: bool,
    /// Print one tab-separated line instead of the table: passed, failed, not
    /// computed, worst relative error, failed names, not-computed names, names
    /// the reference leaves out as not finite (names comma-separated, `-` for none).
    #[arg(long)]
    summary: bool,
}

/// Runs the subcommand: `Ok(true)` when every quantity passes (and, with
/// `--strict`, none is missing); the error is the message to print.
pub fn run(args: Args) -> Result<bool, String> {
    let load = |path: &PathBuf| -> Result<serde_json::Value, String> {
        serde_json::from_str(&crate::read(path)?)
            .map_err(|e| format!("{}: not JSON: {e}", path.display()))
    };
    let comparison = compare(&load(&args.reference)?, &load(&args.ours)?).map_err(|e| {
        format!(
            "{} against {}: {e}",
            args.ours.display(),
            args.reference.display()
        )
    })?;
    if args.summary {
        print_summary(&comparison);
    } else {
        print_table(&comparison);
    }
    let missing = comparison.count(Status::Missing);
    Ok(comparison.count(Status::Failed) == 0 && !(args.strict && missing > 0))
}

/// Comma-separated names, `-` for none.
fn list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.collect();
    if names.is_empty() {
        "-".into()
    } else {
        names.join(",")
    }
}

fn names(c: &Comparison, status: Status) -> String {
    list(c.with_status(status).map(|q| q.name.as_str()))
}

fn print_summary(c: &Comparison) {
    outln!(
        "{}\t{}\t{}\t{:.1e}\t{}\t{}\t{}",
        c.count(Status::Passed),
        c.count(Status::Failed),
        c.count(Status::Missing),
        c.worst(),
        names(c, Status::Failed),
        names(c, Status::Missing),
        list(c.nonfinite.iter().map(String::as_str))
    );
}

fn print_table(c: &Comparison) {
    // As wide as the longest name (`frames.classical_acceleration_drift_...`).
    let w = c
        .quantities
        .iter()
        .map(|q| q.name.len())
        .max()
        .unwrap_or(0)
        .max(36);
    outln!(
        "{:<w$} {:<12} {:>10}  where",
        "quantity",
        "status",
        "rel. error"
    );
    for q in &c.quantities {
        let status = match q.status {
            Status::Passed => "pass",
            Status::Failed => "FAIL",
            Status::Missing => "not computed",
        };
        let error = match q.status {
            Status::Missing => String::new(),
            _ => format!("{:.1e}", q.worst),
        };
        let problem = q
            .problem
            .as_deref()
            .map(|p| format!(": {p}"))
            .unwrap_or_default();
        outln!(
            "{:<w$} {:<12} {:>10}  {}{problem}",
            q.name,
            status,
            error,
            q.at
        );
    }
    if !c.nonfinite.is_empty() {
        outln!(
            "not compared where the reference is not finite: {}",
            c.nonfinite.join(", ")
        );
    }
    outln!(
        "{} passed, {} failed, {} not computed; worst relative error {:.1e} (tolerance {TOLERANCE:e})",
        c.count(Status::Passed),
        c.count(Status::Failed),
        c.count(Status::Missing),
        c.worst()
    );
}
