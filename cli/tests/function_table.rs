//! Every function of the generator's table (`Function::ALL`) is generated,
//! verified by `rbdgen verify`, evaluated by `rbdgen eval` (or named as
//! outside the eval format, with the reason) and benched: each check reads
//! the list that the tool itself uses, so a function left out of any of them
//! fails here.

#[macro_use]
#[path = "../../benches/common/functions.rs"]
mod functions;

use std::path::{Path, PathBuf};
use std::process::Command;

use rbdgen_cli::eval::{OUTSIDE_FORMAT, PARTS};
use rbdgen_symbolic::Function;

/// The workspace root, where the models are.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ is in the workspace")
        .to_path_buf()
}

fn names(functions: impl IntoIterator<Item = Function>) -> Vec<&'static str> {
    functions.into_iter().map(Function::name).collect()
}

/// Cargo's target directory of the generated crates of this file's tests,
/// verify_cli.rs's and eval_generated.rs's: their dependencies built once.
const SHARED_TARGET: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/generated-crates");

/// `rbdgen verify` on a model with a contact set generates every function
/// of the table, builds it and checks each against the runtime.
#[test]
fn every_function_is_generated_and_verified() {
    let work = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("rbdgen-function-table")
        .to_string_lossy()
        .into_owned();
    let out = Command::new(env!("CARGO_BIN_EXE_rbdgen"))
        .current_dir(root())
        .args([
            "verify",
            "tests/urdf/continuous_chain.urdf",
            "--contacts",
            "link3:point,link2:6d",
            "--states",
            "10",
            "--seconds",
            "0",
            "--quiet",
            "--work-dir",
            &work,
            "--target-dir",
            SHARED_TARGET,
        ])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<(&str, f64)> = report
        .lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let name = words.next()?;
            Function::from_name(name)?;
            Some((name, words.next()?.parse().ok()?))
        })
        .collect();
    let verified: Vec<&str> = rows.iter().map(|(n, _)| *n).collect();
    assert_eq!(verified, names(Function::ALL), "{report}");
    for (name, error) in rows {
        assert!(error <= 1e-10, "{name}: {error:e}");
    }
    let source =
        std::fs::read_to_string(Path::new(&work).join("continuous_chain_f64/src/robot.rs"))
            .unwrap();
    for name in names(Function::ALL) {
        assert!(source.contains(&format!("pub fn {name}(")), "{name}");
    }
}

/// `rbdgen eval` computes its quantities with the functions of `PARTS` (the
/// runtime through `Function::evaluate`, the generated code through the
/// compiled function); the others are named with the reason.
#[test]
fn every_function_is_evaluated_or_outside_the_format() {
    for f in Function::ALL {
        let evaluated = PARTS.iter().any(|p| p.function == f);
        let outside = OUTSIDE_FORMAT.iter().filter(|(g, _)| *g == f).count();
        assert!(
            evaluated != (outside == 1) && outside <= 1,
            "{}: in PARTS {evaluated}, outside the format {outside} times",
            f.name()
        );
    }
}

macro_rules! bench_list {
    (, [$($f:ident),* $(,)?]) => {
        [$(stringify!($f)),*]
    };
}

/// The benches (benches/dynamics.rs) bench the functions of
/// `every_function!`, on three robots: the list is the table's.
#[test]
fn every_function_is_benched() {
    let benched: Vec<&str> = every_function!(bench_list!()).to_vec();
    assert_eq!(benched, names(Function::ALL));
}
