//! `rbdgen verify` and `rbdgen info` end to end: the verifier builds generated
//! code in a crate of its own, agrees with the runtime, can fail, and says so
//! when cargo is missing; `info` prints the generation's operation counts.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rbdgen_symbolic::{generate_module, Function, Options};

/// The workspace root, where the models and references are.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ is in the workspace")
        .to_path_buf()
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

/// Cargo's target directory of the generated crates of this file's tests,
/// eval_generated.rs's and function_table.rs's: their dependencies built once.
const SHARED_TARGET: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/generated-crates");

/// `rbdgen verify URDF` on 20 random states, untimed, in the test's work
/// directory (and [`SHARED_TARGET`], but for the test built with other
/// `RUSTFLAGS`, which would rebuild the shared dependencies).
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
    if test != "fma" {
        args.extend(["--target-dir", SHARED_TARGET]);
    }
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
    // Every function but those that need a contact set.
    let model = rbdgen_runtime::Model::from_urdf_file(
        root().join("tests/urdf/continuous_chain.urdf"),
        false,
    )
    .unwrap();
    let all: Vec<&str> = Function::default_set(&model)
        .iter()
        .map(|f| f.name())
        .collect();
    assert!(all.len() < Function::ALL.len());
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

/// The whole-body options: an armature, a contact set of both kinds, a link
/// whose inertial parameters are the run-time argument `pi`, and a subset of
/// the link frames; the generated code agrees with the runtime on each
/// function that depends on them.
#[test]
fn verify_with_the_whole_body_options() {
    let functions = [
        "rnea",
        "aba",
        "crba",
        "minverse",
        "aba_derivatives",
        "frame_placement",
        "frame_jacobian_time_variation_local_world_aligned",
        "frame_acceleration_drift",
        "centroidal_momentum_rate",
        "joint_torque_regressor",
        "aba_fext",
        "contact_jacobian",
        "contact_drift",
        "contact_dynamics",
        "contact_inverse_dynamics",
        "center_of_pressure",
    ];
    let list = functions.join(",");
    let out = verify_urdf(
        "wbc",
        "models/z1.urdf",
        &[
            "--armature",
            "joint1=0.2,joint4=0.05",
            "--contacts",
            "gripperMover:6d,link04:point",
            "--parameters",
            "link06",
            "--frames",
            "link02,gripperMover",
            "--functions",
            &list,
        ],
    )
    .output()
    .unwrap();
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}\n{}", text(&out.stderr));
    let rows = errors(&report);
    let mut names: Vec<&str> = rows.iter().map(|(n, _)| n.as_str()).collect();
    names.sort_unstable();
    let mut expected = functions.to_vec();
    expected.sort_unstable();
    assert_eq!(names, expected, "{report}");
    for (name, error) in rows {
        assert!(error <= 1e-10, "{name}: {error:e}");
    }
    // The per-frame functions have an arm for each of the two frames only.
    let source = std::fs::read_to_string(
        Path::new(&work_dir("wbc")).join("z1_description_f64/src/robot.rs"),
    )
    .unwrap();
    assert!(source.contains("pub const NPARAMETERS: usize = 1;"));
    assert!(source.contains("pub const NC: usize = 9;"));
    assert!(source.contains("Frame::Link02 =>") && !source.contains("Frame::Link03 =>"));
}

/// A bad name or value in the whole-body options: exit 2, one line
/// `rbdgen: FILE: message` naming it, for each subcommand that takes them.
#[test]
fn bad_whole_body_options_exit_2_naming_the_item() {
    let cases: [(&[&str], &str); 8] = [
        (&["--armature", "joint9=0.1"], "unknown joint `joint9`"),
        (
            &["--armature", "joint1=-0.1"],
            "armature of joint `joint1`: -0.1 is not a finite value >= 0",
        ),
        (
            &["--armature", "joint1"],
            "--armature `joint1`: expected JOINT=VALUE",
        ),
        (
            &["--armature", "joint1=light"],
            "--armature `joint1=light`: `light` is not a number",
        ),
        (&["--contacts", "palm:point"], "unknown link frame `palm`"),
        (
            &["--contacts", "link04:wall"],
            "--contacts `link04:wall`: `wall` is not `point` or `6d`",
        ),
        (
            &["--parameters", "link00"],
            "parameters of link `link00`: the link is welded to the universe",
        ),
        (&["--frames", "link02,tip"], "unknown link frame `tip`"),
    ];
    let dir = work_dir("bad_options");
    let out_file = format!("{dir}/out.rs");
    for command in ["generate", "info", "verify"] {
        for (flags, message) in cases {
            let mut args = vec![command, "models/z1.urdf"];
            args.extend(flags);
            match command {
                "generate" => args.extend(["-o", &out_file, "--quiet"]),
                "info" => args.push("--no-ops"),
                _ => args.extend(["--quiet", "--work-dir", &dir]),
            }
            let out = rbdgen(&args).output().unwrap();
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(
                stderr.starts_with("rbdgen: models/z1.urdf: ") && stderr.contains(message),
                "{args:?}: {stderr}"
            );
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        }
    }
    // A contact function without a contact set.
    let out = rbdgen(&[
        "generate",
        "models/z1.urdf",
        "--functions",
        "contact_dynamics",
        "-o",
        &out_file,
        "--quiet",
    ])
    .output()
    .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("`contact_dynamics` needs a contact set"),
        "{stderr}"
    );
}

/// `generate` writes the whole-body options into the header's regenerate
/// command, and `--check` reproduces the file with them.
#[test]
fn generate_header_repeats_the_whole_body_options() {
    let dir = work_dir("regenerate");
    std::fs::create_dir_all(&dir).unwrap();
    let out_file = format!("{dir}/z1.rs");
    let flags = [
        "--functions",
        "rnea,contact_dynamics,frame_placement",
        "--armature",
        "joint1=0.2",
        "--contacts",
        "gripperMover:6d",
        "--parameters",
        "link06",
        "--frames",
        "gripperMover",
    ];
    let mut args = vec!["generate", "models/z1.urdf", "-o", &out_file, "--quiet"];
    args.extend(flags);
    let out = rbdgen(&args).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let source = std::fs::read_to_string(&out_file).unwrap();
    let regenerate = source
        .lines()
        .find(|l| l.contains("Regenerate with"))
        .unwrap_or_else(|| panic!("no regenerate line in\n{source}"));
    for expected in [
        "--armature joint1=0.2",
        "--contacts gripperMover:6d",
        "--parameters link06",
        "--frames gripperMover",
    ] {
        assert!(regenerate.contains(expected), "{expected}: {regenerate}");
    }
    args.push("--check");
    let out = rbdgen(&args).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Without the options the file is stale.
    let out = rbdgen(&[
        "generate",
        "models/z1.urdf",
        "-o",
        &out_file,
        "--quiet",
        "--check",
        "--functions",
        "rnea,contact_dynamics,frame_placement",
        "--contacts",
        "gripperMover:6d",
    ])
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
}

/// `info` lists the armature, the contact set and the run-time parameters.
#[test]
fn info_lists_the_whole_body_options() {
    let out = rbdgen(&[
        "info",
        "models/z1.urdf",
        "--no-ops",
        "--armature",
        "joint2=0.3",
        "--contacts",
        "gripperMover:6d,link04:point",
        "--parameters",
        "link06",
    ])
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    for expected in [
        "armature (per dof, on the diagonal of M):",
        "joint2",
        "contacts (nc = 9 rows):",
        "gripperMover             6d (6 rows)",
        "link04                   point (3 rows)",
        "links with run-time inertial parameters (`pi`):",
        "link06",
    ] {
        assert!(report.contains(expected), "{expected}: {report}");
    }
}

/// `verify --lanes 4`: every function's `lanes::NAME_batch` over a number of
/// states that is not a multiple of 4 (20 asked for, 21 run: five lane
/// groups and a scalar tail) agrees with the runtime and equals the scalar
/// generated code; above the tolerance the batch is named among the failures.
#[test]
fn verify_lanes_against_the_runtime_and_the_scalar_code() {
    let functions = ["--functions", "rnea,aba,frame_placement,integrate"];
    // `--threads` too: the harness crate then depends on rayon for `NAME_batch_par`.
    let mut args = vec!["--lanes", "4", "--threads"];
    args.extend(functions);
    let out = verify("lanes", &args);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}\n{}", text(&out.stderr));
    assert!(report.contains("21 random states"), "{report}");
    assert!(
        report.contains("over all 21 states (5 groups of 4, 1 through the scalar tail)"),
        "{report}"
    );
    let rows: Vec<Vec<&str>> = report
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.first().is_some_and(|n| Function::from_name(n).is_some()))
        .collect();
    assert_eq!(rows.len(), 4, "{report}");
    for row in &rows {
        // function, error, generated, runtime, speed-up, lanes error, lanes - scalar, ...
        assert_eq!(row.len(), 9, "{report}");
        let lanes_error: f64 = row[5].parse().unwrap();
        let vs_scalar: f64 = row[6].parse().unwrap();
        assert!(
            lanes_error <= 1e-10,
            "{}: {lanes_error:e}\n{report}",
            row[0]
        );
        assert!(
            vs_scalar <= 1e-13,
            "{}: lanes differ from the scalar code by {vs_scalar:e}\n{report}",
            row[0]
        );
    }

    let mut args = vec!["--lanes", "4", "--tolerance", "1e-20"];
    args.extend(functions);
    let out = verify("lanes", &args);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("_batch (") && text(&out.stderr).contains("lanes::"),
        "{}",
        text(&out.stderr)
    );

    // --threads without --lanes: exit 2 naming the option.
    let out = verify("lanes", &["--threads", "--functions", "rnea"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--threads") && text(&out.stderr).contains("--lanes"),
        "{}",
        text(&out.stderr)
    );
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
fn verify_refuses_checks_that_compare_nothing() {
    for (extra, message) in [
        (["--tolerance", "nan"], "--tolerance NaN"),
        (["--tolerance=-1", "--seed=0"], "--tolerance -1"),
        (["--tolerance", "inf"], "--tolerance inf"),
        (["--states", "0"], "--states 0"),
        (["--seconds", "nan"], "--seconds NaN"),
    ] {
        let mut args = vec!["verify", "tests/urdf/continuous_chain.urdf", "--quiet"];
        args.extend(extra);
        let out = rbdgen(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(message), "{extra:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
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

/// Every function of a free-flyer model (Z1 on a free-flyer, every function
/// Go2+Z1 has).
#[test]
fn info_prints_the_generation_op_counts() {
    let out = rbdgen(&["info", "models/z1.urdf", "--floating-base", "--ops"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let urdf = std::fs::read_to_string(root().join("models/z1.urdf")).unwrap();
    let options = Options {
        floating_base: true,
        ..Options::default()
    };
    let module = generate_module(&urdf, &options, |_| {}).unwrap();
    let model = rbdgen_runtime::Model::from_urdf_str(&urdf, true).unwrap();
    assert_eq!(module.op_counts.len(), Function::default_set(&model).len());
    for (function, counts) in &module.op_counts {
        assert!(counts.total() > 100);
        let found = report.lines().any(|l| {
            let mut words = l.split_whitespace();
            words.next() == Some(function.name())
                && words.collect::<Vec<_>>().join(" ")
                    == format!(
                        "{counts}, about {} KiB of machine code",
                        counts.estimated_code_bytes().div_ceil(1024)
                    )
        });
        assert!(
            found,
            "missing the counts of `{}` in\n{report}",
            function.name()
        );
    }
    // Beside rnea: the 93n reference with n = nv = 13 (Z1's seven joints,
    // the gripper's among them, and the free-flyer's six).
    let rnea = &module.op_counts[&Function::Rnea];
    let reference = report
        .lines()
        .find(|l| l.trim_start().starts_with("reference: about 93n"))
        .unwrap_or_else(|| panic!("no 93n reference in\n{report}"));
    assert!(
        reference.contains("n = nv = 13") && reference.contains("93n = 1209"),
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
