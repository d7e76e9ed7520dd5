//! `rbdgen verify` and `rbdgen info` end to end: the verifier builds generated
//! code in a crate of its own, agrees with the runtime, can fail, and says so
//! when cargo is missing; `info` prints the generation's operation counts.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rbdgen::symbolic::{generate_module, Function, Options};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rbdgen(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rbdgen"));
    c.args(args).current_dir(root());
    c
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

/// A work directory per test: tests run in parallel.
fn work_dir(test: &str) -> String {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("rbdgen-verify")
        .join(test)
        .to_string_lossy()
        .into_owned()
}

/// `(function, max error)` from the rows of a verify report.
fn errors(report: &str) -> Vec<(String, f64)> {
    report
        .lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let name = words.next()?;
            Function::from_name(name)?;
            let error = words.next()?.parse().ok()?;
            Some((name.to_string(), error))
        })
        .collect()
}

fn verify(test: &str, extra: &[&str]) -> Output {
    verify_urdf(test, "tests/urdf/continuous_chain.urdf", extra)
        .output()
        .unwrap()
}

/// `rbdgen verify URDF` on 20 random states, untimed, in the test's work directory.
fn verify_urdf(test: &str, urdf: &str, extra: &[&str]) -> Command {
    let work = work_dir(test);
    let mut args = vec![
        "verify",
        urdf,
        "--states",
        "20",
        "--seconds",
        "0",
        "--quiet",
        "--work-dir",
        &work,
    ];
    args.extend(extra);
    rbdgen(&args)
}

#[test]
fn verify_agrees_with_the_runtime() {
    let out = verify("agrees", &[]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}\n{}", text(&out.stderr));
    let rows = errors(&report);
    let names: Vec<&str> = rows.iter().map(|(n, _)| n.as_str()).collect();
    let all: Vec<&str> = Function::ALL.iter().map(|f| f.name()).collect();
    assert_eq!(names, all, "{report}");
    for (name, error) in rows {
        assert!(error <= 1e-10, "{name}: {error:e}");
    }

    let out = verify("agrees", &["--scalar", "f32", "--functions", "rnea,aba"]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}\n{}", text(&out.stderr));
    let rows = errors(&report);
    assert_eq!(rows.len(), 2, "{report}");
    for (name, error) in rows {
        assert!(error > 1e-12 && error <= 1e-5, "f32 {name}: {error:e}");
    }
}

#[test]
fn verify_fails_above_the_tolerance() {
    let out = verify(
        "fails",
        &[
            "--scalar",
            "f32",
            "--functions",
            "rnea",
            "--tolerance",
            "1e-12",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("error above"),
        "{}",
        text(&out.stderr)
    );
    assert!(text(&out.stdout).contains("FAILED"));
}

#[test]
fn verify_says_when_cargo_is_missing() {
    let work = work_dir("nocargo");
    let out = rbdgen(&[
        "verify",
        "tests/urdf/continuous_chain.urdf",
        "--quiet",
        "--work-dir",
        &work,
    ])
    .env("CARGO", "/nonexistent/cargo")
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cargo was not found"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn info_prints_the_generation_op_counts() {
    let out = rbdgen(&["info", "models/go2_z1.urdf", "--floating-base"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let urdf = std::fs::read_to_string(root().join("models/go2_z1.urdf")).unwrap();
    let options = Options {
        floating_base: true,
        ..Options::default()
    };
    let module = generate_module(&urdf, &options, |_| {}).unwrap();
    assert_eq!(module.op_counts.len(), Function::ALL.len());
    for (function, counts) in &module.op_counts {
        assert!(counts.total() > 100);
        let found = report.lines().any(|l| {
            let mut words = l.split_whitespace();
            words.next() == Some(function.name())
                && words.collect::<Vec<_>>().join(" ") == counts.to_string()
        });
        assert!(
            found,
            "missing the counts of `{}` in\n{report}",
            function.name()
        );
    }
    // Beside rnea: the 93n reference with n = nv = 24.
    let rnea = &module.op_counts[&Function::Rnea];
    let reference = report
        .lines()
        .find(|l| l.trim_start().starts_with("reference: about 93n"))
        .unwrap_or_else(|| panic!("no 93n reference in\n{report}"));
    assert!(
        reference.contains("n = nv = 24") && reference.contains("93n = 2232"),
        "{reference}"
    );
    assert!(
        reference.contains(&format!("ours {} mul", rnea.mul)),
        "{reference}"
    );
}

/// Built for a target with FMA instructions, the generated code's fused
/// multiply-adds (`mul_add`) run as such and still agree with the runtime.
#[test]
#[cfg(target_arch = "x86_64")]
fn verify_with_fused_multiply_adds() {
    if !std::arch::is_x86_feature_detected!("fma") {
        eprintln!("this CPU has no FMA instructions: the fused path cannot run here");
        return;
    }
    let out = verify_urdf(
        "fma",
        "models/z1.urdf",
        &[
            "--std",
            "--functions",
            "rnea,crba,aba,minverse,rnea_derivatives,aba_derivatives",
        ],
    )
    .env("RUSTFLAGS", "-C target-feature=+fma")
    .output()
    .unwrap();
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}\n{}", text(&out.stderr));
    let rows = errors(&report);
    assert_eq!(rows.len(), 6, "{report}");
    for (name, error) in rows {
        assert!(error <= 1e-10, "{name}: {error:e}");
    }
    let source = std::fs::read_to_string(
        Path::new(&work_dir("fma")).join("z1_description_f64/src/robot.rs"),
    )
    .unwrap();
    assert!(
        source.contains("mul_add("),
        "no fused multiply-add in the generated code"
    );
}
