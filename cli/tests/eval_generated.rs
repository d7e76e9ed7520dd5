//! `rbdgen eval --backend generated` end to end: the generated code, built in
//! a crate of its own, computes the quantities of a reference file's states;
//! `rbdgen compare` finds them equal to Pinocchio's and to the runtime
//! backend's, the whole-body ones too (armature and contact set from the
//! file's header); `--functions` restricts the generated set (the rest from
//! the runtime); bad function lists and a per-dof armature are errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rbdgen_symbolic::Function;

/// The workspace root, where the models and references are.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ is in the workspace")
        .to_path_buf()
}

fn rbdgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rbdgen"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

/// A scratch directory per test: tests run in parallel.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("rbdgen-eval")
        .join(test);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Cargo's target directory of the generated crates of this file's tests,
/// verify_cli.rs's and function_table.rs's: their dependencies built once.
const SHARED_TARGET: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/generated-crates");

const URDF: &str = "tests/urdf/continuous_chain.urdf";
const REFERENCE: &str = "tests/reference/continuous_chain_fixed.json";

/// `rbdgen eval` of the reference's states with `extra` arguments, into
/// `dir/NAME.json`; returns the output path and stderr.
fn eval(dir: &Path, name: &str, extra: &[&str]) -> (String, String) {
    let out = dir
        .join(format!("{name}.json"))
        .to_string_lossy()
        .into_owned();
    let mut args = vec!["eval", "--urdf", URDF, "--states", REFERENCE, "--out", &out];
    args.extend(extra);
    let run = rbdgen(&args);
    let stderr = text(&run.stderr);
    assert!(run.status.success(), "{args:?}: {stderr}");
    (out, stderr)
}

/// [`eval`] with the generated backend, its crate in `dir/work`, and `extra`
/// arguments; returns the output path, stderr and the generated source.
fn eval_generated(dir: &Path, extra: &[&str]) -> (String, String, String) {
    let work = dir.join("work").to_string_lossy().into_owned();
    let mut args = vec![
        "--backend",
        "generated",
        "--work-dir",
        &work,
        "--target-dir",
        SHARED_TARGET,
    ];
    args.extend(extra);
    let (out, stderr) = eval(dir, "generated", &args);
    let code = dir.join("work/continuous_chain_fixed/src/robot.rs");
    (out, stderr, std::fs::read_to_string(code).unwrap())
}

/// `rbdgen compare --summary`: (passed, failed, worst error); panics when it
/// exits non-zero.
fn compare(reference: &str, ours: &str) -> (usize, usize, f64) {
    let run = rbdgen(&["compare", "--summary", reference, ours]);
    let summary = text(&run.stdout);
    assert!(
        run.status.success(),
        "compare {reference} {ours}: {summary}{}",
        text(&run.stderr)
    );
    let fields: Vec<&str> = summary.trim_end().split('\t').collect();
    (
        fields[0].parse().unwrap(),
        fields[1].parse().unwrap(),
        fields[3].parse().unwrap(),
    )
}

#[test]
fn generated_backend_matches_pinocchio_and_the_runtime() {
    let dir = scratch("all");
    let (generated, stderr, code) = eval_generated(&dir, &[]);
    // Every quantity with a generated function came from the generated code.
    assert!(
        stderr.contains("computed by the runtime (no generated function in the set): omi\n"),
        "{stderr}"
    );
    for name in [
        "rnea_derivatives",
        "aba_derivatives",
        "ccrba",
        "frame_jacobian_world",
        "d_difference_dq1",
    ] {
        assert!(
            code.contains(&format!("pub fn {name}(")),
            "{name} not generated"
        );
    }

    let (passed, failed, worst) = compare(REFERENCE, &generated);
    assert_eq!((passed, failed), (31, 0));
    assert!(worst <= 1e-12, "worst error against Pinocchio {worst:e}");

    // Against the runtime: the whole-body and MPC quantities that the
    // reference does not carry too (26 more: aba_fext, aba_derivatives_fext's
    // three, six per frame, dhg, regressor; the ten entries of the frame
    // velocity and acceleration derivatives, the four centroidal derivatives;
    // no contact set, so no contact or impulse quantities).
    let (runtime, _) = eval(&dir, "runtime", &[]);
    let (passed, failed, worst) = compare(&runtime, &generated);
    assert_eq!((passed, failed), (57, 0));
    assert!(worst <= 1e-12, "worst error against the runtime {worst:e}");
}

#[test]
fn functions_restricts_the_generated_set() {
    let dir = scratch("some");
    let functions = "crba,frame_jacobian_local,d_integrate_dv";
    let (generated, stderr, code) = eval_generated(&dir, &["--functions", functions]);
    // Partly covered quantities (frames, dintegrate) take the rest from the runtime.
    let runtime_line = stderr
        .lines()
        .find(|l| l.starts_with("computed by the runtime"))
        .unwrap_or_else(|| panic!("{stderr}"));
    for name in ["rnea", "aba", "frames", "dintegrate", "omi"] {
        assert!(
            runtime_line.contains(&format!(" {name}")),
            "{name}: {runtime_line}"
        );
    }
    assert!(!runtime_line.contains(" crba"), "{runtime_line}");
    assert!(code.contains("pub fn crba(") && !code.contains("pub fn rnea("));
    let (passed, failed, _) = compare(REFERENCE, &generated);
    assert_eq!((passed, failed), (31, 0));
}

/// `--unroll-limit` and `--max-ops` reach the generator: `minverse` in its
/// column form, against the reference.
#[test]
fn size_options_reach_the_generator() {
    let dir = scratch("sizes");
    let sizes = ["--unroll-limit", "0", "--max-ops", "100000"];
    let (generated, _, code) =
        eval_generated(&dir, &[&["--functions", "minverse"], &sizes[..]].concat());
    assert!(code.contains("fn minverse_stage("), "no column form");
    let (_, failed, _) = compare(REFERENCE, &generated);
    assert_eq!(failed, 0);
}

/// A whole-body reference: armature (one per joint: the Z1's joints have one
/// dof each) and a 6-D contact in the header; every quantity from the
/// generated code but `omi`, and none missing.
#[test]
fn generated_backend_on_a_whole_body_reference() {
    let dir = scratch("wbc");
    let work = dir.join("work").to_string_lossy().into_owned();
    let reference = "tests/reference/wbc/z1_fixed.json";
    let out = dir.join("z1.json").to_string_lossy().into_owned();
    let run = rbdgen(&[
        "eval",
        "--urdf",
        "models/z1.urdf",
        "--states",
        reference,
        "--out",
        &out,
        "--backend",
        "generated",
        "--work-dir",
        &work,
        "--target-dir",
        SHARED_TARGET,
    ]);
    let stderr = text(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(
        stderr.contains("computed by the runtime (no generated function in the set): omi\n"),
        "{stderr}"
    );
    let code = std::fs::read_to_string(dir.join("work/z1_fixed/src/robot.rs")).unwrap();
    for item in [
        "pub const ARMATURE",
        "pub const CONTACTS",
        "pub fn contact_dynamics(",
        "pub fn frame_acceleration_drift(",
        "pub fn joint_torque_regressor(",
        "pub fn aba_derivatives_fext(",
        "pub fn frame_acceleration_derivatives_local_world_aligned(",
        "pub fn centroidal_dynamics_derivatives(",
        "pub fn contact_dynamics_derivatives(",
        "pub fn impulse_dynamics_derivatives(",
    ] {
        assert!(code.contains(item), "{item} not generated");
    }
    let summary = rbdgen(&["compare", "--strict", "--summary", reference, &out]);
    let line = text(&summary.stdout);
    assert!(summary.status.success(), "{line}{}", text(&summary.stderr));
    let fields: Vec<&str> = line.trim_end().split('\t').collect();
    // 47 whole-body quantities and 26 MPC ones (ten per-frame, four
    // centroidal, six contact dynamics, two impulse, four impulse derivatives).
    assert_eq!(&fields[..3], ["73", "0", "0"], "{line}");
    let worst: f64 = fields[3].parse().unwrap();
    assert!(worst <= 1e-12, "worst error against Pinocchio {worst:e}");
}

/// A free-flyer's armature differs between its six dofs in the reference
/// files: the generated backend takes it dof by dof (`root_joint[k]`) and the
/// contact functions match Pinocchio.
#[test]
fn a_per_dof_armature_and_contacts_match_pinocchio() {
    let dir = scratch("per_dof");
    let out = dir.join("out.json").to_string_lossy().into_owned();
    let work = dir.join("work").to_string_lossy().into_owned();
    let reference = "tests/reference/wbc/go2_floating.json";
    let run = rbdgen(&[
        "eval",
        "--urdf",
        "models/go2.urdf",
        "--floating-base",
        "--states",
        reference,
        "--backend",
        "generated",
        "--functions",
        "crba,aba,contact_jacobian,contact_drift,contact_dynamics",
        "--work-dir",
        &work,
        "--target-dir",
        SHARED_TARGET,
        "--out",
        &out,
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let (passed, failed, worst) = compare(reference, &out);
    assert_eq!(failed, 0);
    assert!(
        passed >= 40 && worst <= 1e-8,
        "{passed} passed, worst {worst:e}"
    );
}

#[test]
fn bad_function_lists_are_errors() {
    let dir = scratch("bad");
    let out = dir.join("out.json").to_string_lossy().into_owned();
    let work = dir.join("work").to_string_lossy().into_owned();
    let base = ["eval", "--urdf", URDF, "--states", REFERENCE, "--out", &out];
    let cases: [(&[&str], &str); 7] = [
        (
            &[
                "--backend",
                "generated",
                "--work-dir",
                &work,
                "--target-dir",
                SHARED_TARGET,
                "--functions",
                "rnea,nope",
            ],
            "unknown function `nope`",
        ),
        (
            &[
                "--backend",
                "generated",
                "--work-dir",
                &work,
                "--target-dir",
                SHARED_TARGET,
                "--functions",
                Function::PoseError.name(),
            ],
            "computes no quantity of the eval format",
        ),
        (
            &[
                "--backend",
                "generated",
                "--work-dir",
                &work,
                "--target-dir",
                SHARED_TARGET,
                "--functions",
                "rnea,contact_dynamics",
            ],
            "`contact_dynamics` needs a contact set",
        ),
        (
            &[
                "--backend",
                "generated",
                "--work-dir",
                &work,
                "--target-dir",
                SHARED_TARGET,
                "--contacts",
                "link3:sphere",
            ],
            "`sphere` is not `point` or `6d`",
        ),
        (&["--functions", "rnea"], "need --backend generated"),
        (&["--unroll-limit", "0"], "need --backend generated"),
        (&["--target-dir", "x"], "need --backend generated"),
    ];
    for (extra, message) in cases {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let run = rbdgen(&args);
        let stderr = text(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}
