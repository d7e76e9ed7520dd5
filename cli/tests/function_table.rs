//! Every function of the generator's table (`Function::ALL`) is generated,
//! verified by `rbdgen verify` and benched: each check reads the list that
//! the tool itself uses. (That `rbdgen eval` evaluates each function or names
//! it as outside the eval format is the unit test of cli/src/eval/parts.rs.)

#[macro_use]
#[path = "../../benches/common/functions.rs"]
mod functions;

use std::path::{Path, PathBuf};
use std::process::Command;

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

macro_rules! bench_list {
    (, [$($f:ident),* $(,)?]) => {
        [$(stringify!($f)),*]
    };
}

/// `CORE`: the names of `core_functions!`, expanded as an item, as
/// benches/dynamics.rs expands it (to modules).
macro_rules! core_names {
    (, [$($f:ident),* $(,)?]) => {
        const CORE: &[&str] = &[$(stringify!($f)),*];
    };
}
core_functions!(core_names!());

/// The benches (benches/dynamics.rs, benches/stance.rs) bench the functions
/// of `core_functions!` and `mpc_functions!`, the table's list in two blocks:
/// together `every_function!`, the table.
#[test]
fn every_function_is_benched() {
    let every: Vec<&str> = every_function!(bench_list!()).to_vec();
    assert_eq!(every, names(Function::ALL));
    let core: Vec<&str> = CORE.to_vec();
    let mpc: Vec<&str> = mpc_functions!(bench_list!()).to_vec();
    assert_eq!([core, mpc].concat(), every);
}
