//! The small edges of the command line: a closed standard output ends the
//! process quietly, names in comma lists are trimmed and a near miss gets a
//! "did you mean" (whatever its case), `eval` takes the model as a positional
//! argument (with `--urdf` kept) and writes with `-o` as `generate` does, and
//! the help calls it `MODEL`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rbdgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rbdgen"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `rbdgen ARGS` with a standard output whose reader is already closed, so
/// that the first write fails with a broken pipe (as `rbdgen ... | head -3`
/// once `head` has exited).
// `std::io::pipe` is newer than the workspace's rust-version; the tests are
// built with the pinned toolchain (rust-toolchain.toml).
#[allow(clippy::incompatible_msrv)]
fn into_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_rbdgen"))
        .args(args)
        .current_dir(root())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

#[test]
fn a_closed_standard_output_ends_the_process_quietly() {
    let commands: [&[&str]; 3] = [
        &["info", "models/go2_z1.urdf", "--floating-base"],
        &[
            "generate",
            "models/double_pendulum_continuous.urdf",
            "--functions",
            "rnea",
            "--quiet",
        ],
        &[
            "eval",
            "models/z1.urdf",
            "--states",
            "tests/reference/z1_fixed.json",
        ],
    ];
    for args in commands {
        let out = into_closed_pipe(args);
        let what = format!("rbdgen {}", args.join(" "));
        assert!(
            !stderr(&out).contains("panicked"),
            "{what}: {}",
            stderr(&out)
        );
        assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr(&out));
        assert!(!stderr(&out).contains("Broken pipe"), "{what}");
    }
}

#[test]
fn names_in_a_comma_list_are_trimmed() {
    let out = rbdgen(&[
        "generate",
        "models/double_pendulum_continuous.urdf",
        "--functions",
        "rnea, crba ,aba",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let source = String::from_utf8(out.stdout).unwrap();
    for f in ["rnea", "crba", "aba"] {
        assert!(source.contains(&format!("pub fn {f}(")), "no `{f}`");
    }
    assert!(!source.contains("pub fn minverse("));
}

/// Runs `args`, which must exit 2 suggesting `near` for the unknown function
/// `given`; returns the message.
fn suggests(args: &[&str], given: &str, near: &str) -> String {
    let out = rbdgen(args);
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert!(
        message.contains(&format!(
            "unknown function `{given}`; did you mean `{near}`?"
        )),
        "{message}"
    );
    message
}
#[test]
fn a_near_miss_gets_a_did_you_mean() {
    // Upper case (Pinocchio's RNEA, CRBA, ABA) gets the lower-case name, and
    // is not accepted as it.
    for (given, near) in [
        ("crab", "crba"),
        ("rnea_derivative", "rnea_derivatives"),
        ("RNEA", "rnea"),
        ("CRBA", "crba"),
        ("ABA", "aba"),
        ("Rnea_Derivatives", "rnea_derivatives"),
        // Pinocchio's names get ours.
        ("inverse_dynamics", "rnea"),
        ("computeMinverse", "minverse"),
        ("constraintDynamics", "contact_dynamics"),
    ] {
        let message = suggests(
            &[
                "generate",
                "models/double_pendulum_continuous.urdf",
                "--functions",
                &format!("rnea, {given}"),
            ],
            given,
            near,
        );
        assert_eq!(message.lines().count(), 1, "{message}");
    }
    // `eval --backend generated` words its unknown names the same way.
    for (given, near) in [("crab", "crba"), ("inverse_dynamics", "rnea")] {
        suggests(
            &[
                "eval",
                "models/z1.urdf",
                "--states",
                "tests/reference/z1_fixed.json",
                "--backend",
                "generated",
                "--functions",
                given,
            ],
            given,
            near,
        );
    }
    // Nothing near: the known names.
    let out = rbdgen(&[
        "generate",
        "models/double_pendulum_continuous.urdf",
        "--functions",
        "quux",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown function `quux`; known: rnea, "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn eval_takes_the_model_positionally_or_with_urdf() {
    let states = "tests/reference/z1_fixed.json";
    let positional = rbdgen(&["eval", "models/z1.urdf", "--states", states]);
    assert!(positional.status.success(), "{}", stderr(&positional));
    let flag = rbdgen(&["eval", "--urdf", "models/z1.urdf", "--states", states]);
    assert!(flag.status.success(), "{}", stderr(&flag));
    assert_eq!(positional.stdout, flag.stdout);
    assert!(!positional.stdout.is_empty());

    let neither = rbdgen(&["eval", "--states", states]);
    assert_eq!(neither.status.code(), Some(2));
    assert!(stderr(&neither).contains("<MODEL>"), "{}", stderr(&neither));
    let both = rbdgen(&[
        "eval",
        "models/z1.urdf",
        "--urdf",
        "models/z1.urdf",
        "--states",
        states,
    ]);
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn the_help_calls_the_model_argument_model() {
    for command in ["generate", "info", "verify", "eval"] {
        let out = rbdgen(&[command, "--help"]);
        assert!(out.status.success());
        let help = String::from_utf8(out.stdout).unwrap();
        // `[MODEL]` for eval, whose `--urdf` may stand in for it.
        let usage = help.lines().find(|l| l.starts_with("Usage:")).unwrap();
        assert!(
            usage.contains("<MODEL>") || usage.contains("[MODEL]"),
            "{command}: {usage}"
        );
        assert!(!help.contains("URDF>"), "{command}: {help}");
        assert!(help.contains("MJCF"), "{command}: {help}");
        assert!(!help.contains("for a URDF\n"), "{command}: {help}");
    }
    // `generate` takes MJCF as well, and its summary says so.
    let top = String::from_utf8(rbdgen(&["--help"]).stdout).unwrap();
    // `info` counts operations only when asked to (`--ops`).
    assert!(
        top.contains("with `--ops`, the operation count and code size"),
        "{top}"
    );
    let generate = String::from_utf8(rbdgen(&["generate", "--help"]).stdout).unwrap();
    for help in [&top, &generate] {
        assert!(
            help.contains("would generate for a URDF or MJCF model"),
            "{help}"
        );
    }
}

/// `--floating-base` above a root that the file's `floating` joint already
/// frees: a warning naming both joints and the flag, an error (exit status
/// 2) with `--strict`; the same for an MJCF file with a `<freejoint>`.
#[test]
fn a_second_free_flyer_is_a_warning_or_with_strict_an_error() {
    let go2 = std::fs::read_to_string(root().join("models/go2.urdf")).unwrap();
    let below_world = go2.replacen(
        r#"<link name="base">"#,
        r#"<link name="world"/>
  <joint name="world_to_base" type="floating">
    <parent link="world"/>
    <child link="base"/>
  </joint>
  <link name="base">"#,
        1,
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_edges");
    std::fs::create_dir_all(&dir).unwrap();
    let urdf = dir.join("go2_below_world.urdf");
    std::fs::write(&urdf, below_world).unwrap();
    let urdf = urdf.to_str().unwrap();
    let mjcf = "models/mjcf/dm_control/humanoid.xml";
    for (file, joint) in [(urdf, "world_to_base"), (mjcf, "root")] {
        let warned = rbdgen(&["info", file, "--floating-base"]);
        assert!(warned.status.success(), "{}", stderr(&warned));
        let message = stderr(&warned);
        assert!(
            message.contains(&format!(
                "rbdgen: warning: {file}: joints `root_joint` and `{joint}` move the same bodies"
            )),
            "{message}"
        );
        assert!(message.contains("--floating-base"), "{message}");

        let strict = rbdgen(&["info", file, "--floating-base", "--strict"]);
        assert_eq!(strict.status.code(), Some(2), "{}", stderr(&strict));
        assert!(
            stderr(&strict).starts_with(&format!(
                "rbdgen: {file}: joints `root_joint` and `{joint}`"
            )),
            "{}",
            stderr(&strict)
        );

        // Generating `aba` fails on the singular model; the warning says why.
        let failed = rbdgen(&[
            "generate",
            file,
            "--floating-base",
            "--functions",
            "aba",
            "--quiet",
        ]);
        assert_eq!(failed.status.code(), Some(2), "{}", stderr(&failed));
        assert!(
            stderr(&failed).starts_with(&format!("rbdgen: warning: {file}: joints `root_joint`")),
            "{}",
            stderr(&failed)
        );

        let plain = rbdgen(&["info", file, "--strict"]);
        assert!(plain.status.success(), "{}", stderr(&plain));
        assert!(!stderr(&plain).contains("same directions"));
    }
}

/// The model's names in comma lists (frames, contacts, armature) are trimmed
/// too, and a misspelt one gets the nearest name.
#[test]
fn model_names_are_trimmed_and_a_near_miss_named() {
    let ok = rbdgen(&[
        "info",
        "models/z1.urdf",
        "--frames",
        "link06, link05",
        "--armature",
        "joint3=0.01, joint2 = 0.02",
        "--contacts",
        "link06:point, link05 : 6d",
    ]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    for (flag, list, message) in [
        (
            "--frames",
            "link06, lnk05",
            "unknown link frame `lnk05`; did you mean `link05`?",
        ),
        (
            "--armature",
            "joint3=0.01, jont2=0.02",
            "unknown joint `jont2`; did you mean `joint2`?",
        ),
        (
            "--contacts",
            "link06:point, link6:6d",
            "unknown link frame `link6`; did you mean `link06`?",
        ),
    ] {
        let out = rbdgen(&["info", "models/z1.urdf", flag, list]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        assert!(stderr(&out).contains(message), "{flag}: {}", stderr(&out));
    }
}

/// The suggestion ends its sentence and the list of names starts another:
/// no `?;`. A name in the wrong case is a near miss of the right one.
#[test]
fn an_unknown_model_name_reads_as_sentences() {
    for (list, message) in [
        (
            "link06, lnk05",
            "unknown link frame `lnk05`; did you mean `link05`? The model has: world, link00,",
        ),
        (
            "LINK05",
            "unknown link frame `LINK05`; did you mean `link05`? The model has: world, link00,",
        ),
        (
            "gripper",
            "unknown link frame `gripper`; the model has: world, link00,",
        ),
    ] {
        let out = rbdgen(&["info", "models/z1.urdf", "--frames", list]);
        assert_eq!(out.status.code(), Some(2), "{list}");
        let err = stderr(&out);
        assert!(err.contains(message), "{list}: {err}");
        assert!(!err.contains("?;"), "{list}: {err}");
    }
}

/// `eval` writes its file with `-o`/`--output` as `generate` does, and with
/// the `--out` of earlier versions; the same bytes as on standard output.
#[test]
fn eval_writes_its_file_with_o_output_or_out() {
    let states = "tests/reference/z1_fixed.json";
    let stdout = rbdgen(&["eval", "models/z1.urdf", "--states", states]);
    assert!(stdout.status.success(), "{}", stderr(&stdout));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_edges_eval_out");
    std::fs::create_dir_all(&dir).unwrap();
    for flag in ["-o", "--output", "--out"] {
        let file = dir.join(format!("z1{flag}.json"));
        let _ = std::fs::remove_file(&file);
        let out = rbdgen(&[
            "eval",
            "models/z1.urdf",
            "--states",
            states,
            flag,
            file.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{flag}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{flag}");
        let written = std::fs::read(&file).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&written).trim_end(),
            String::from_utf8_lossy(&stdout.stdout).trim_end(),
            "{flag}"
        );
    }
    let help = String::from_utf8(rbdgen(&["eval", "--help"]).stdout).unwrap();
    assert!(help.contains("-o, --output <FILE>"), "{help}");
}

/// `--crate DIR` replaces the files it generated before, never a user's;
/// `--python` needs `--crate` and a module name; `--crate` alone says what
/// to add.
#[test]
fn a_crate_directory_keeps_the_users_files() {
    let dir = std::env::temp_dir().join(format!("rbdgen-crate-edges-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let crate_dir = dir.to_string_lossy().into_owned();
    let generate = |extra: &[&str]| {
        let mut args = vec!["generate", "models/z1.urdf", "--quiet"];
        args.extend(extra);
        rbdgen(&args)
    };
    let c_crate = |functions: &str| {
        generate(&[
            "--c-api",
            "z1",
            "--crate",
            &crate_dir,
            "--functions",
            functions,
        ])
    };
    // Generated twice into the same directory: the second run replaces the first.
    for functions in ["rnea", "rnea,crba"] {
        let run = c_crate(functions);
        assert!(run.status.success(), "{}", stderr(&run));
    }
    // A file of the user's in its place is left alone, and named.
    let cargo = dir.join("Cargo.toml");
    std::fs::write(&cargo, "[package]\nname = \"mine\"\n").unwrap();
    let run = c_crate("rnea");
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("Cargo.toml: exists and was not generated by rbdgen"));
    assert_eq!(
        std::fs::read_to_string(&cargo).unwrap(),
        "[package]\nname = \"mine\"\n"
    );
    let cases: [(&[&str], &str); 3] = [
        (
            &["--python", "ok", "-o", "/dev/null"],
            "--python NAME writes a crate: add --crate DIR",
        ),
        (
            &["--python", "bad name", "--crate", &crate_dir],
            "--python: `bad name` is not a Python module name",
        ),
        (
            &["--crate", &crate_dir],
            "or a Python module (add --python NAME)",
        ),
    ];
    for (extra, message) in cases {
        let run = generate(extra);
        assert_eq!(run.status.code(), Some(2), "{extra:?}");
        assert!(
            stderr(&run).contains(message),
            "{extra:?}: {}",
            stderr(&run)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A negative number for a count is an error naming its option (not taken
/// for a flag of its own).
#[test]
fn a_negative_count_names_its_option() {
    let cases: [(&[&str], &str); 3] = [
        (
            &["generate", "models/z1.urdf", "--unroll-limit", "-5"],
            "'--unroll-limit <N>'",
        ),
        (
            &["info", "models/z1.urdf", "--max-ops", "-1"],
            "'--max-ops <N>'",
        ),
        (
            &["verify", "models/z1.urdf", "--tolerance", "-1"],
            "--tolerance -1: must be",
        ),
    ];
    for (args, message) in cases {
        let run = rbdgen(args);
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert!(stderr(&run).contains(message), "{args:?}: {}", stderr(&run));
    }
}

/// An unknown scalar type is an error naming `--scalar`, as the other
/// options' errors name theirs.
#[test]
fn an_unknown_scalar_names_its_option() {
    for command in ["generate", "verify"] {
        let run = rbdgen(&[command, "models/z1.urdf", "--scalar", "f16"]);
        assert_eq!(run.status.code(), Some(2), "{command}");
        let e = stderr(&run);
        assert!(
            e.contains("--scalar: unknown scalar `f16`; expected f64 or f32"),
            "{command}: {e}"
        );
    }
}

/// An empty name in `--frames` says so, as one in `--functions` does.
#[test]
fn an_empty_frame_name_is_named_as_such() {
    for option in ["--frames", "--functions"] {
        let run = rbdgen(&["generate", "models/z1.urdf", option, ""]);
        assert_eq!(run.status.code(), Some(2), "{option}");
        let e = stderr(&run);
        assert!(
            e.contains(option) && e.contains("an empty name"),
            "{option}: {e}"
        );
    }
}

/// A function above `--max-ops` that a lower `--unroll-limit` would bring
/// under it says so (Go2+Z1's `aba_derivatives`: about 45k operations
/// written out straight-line, fewer than 30k looped); one whose looped form
/// is too large too (Z1's `minverse` under 100), or that has none (`rnea`),
/// does not.
#[test]
fn too_large_suggests_the_unroll_limit_where_it_helps() {
    let dir = std::env::temp_dir().join(format!("rbdgen-too-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let output = dir.join("out.rs");
    let output = output.to_str().unwrap();
    for (model, function, max_ops, hint) in [
        ("models/go2_z1.urdf", "aba_derivatives", "30000", true),
        ("models/z1.urdf", "minverse", "100", false),
        ("models/z1.urdf", "rnea", "100", false),
    ] {
        let out = rbdgen(&[
            "generate",
            model,
            "--floating-base",
            "--functions",
            function,
            "--max-ops",
            max_ops,
            "--unroll-limit",
            "1000000",
            "-o",
            output,
        ]);
        let stderr = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("raise the limit with --max-ops"),
            "{stderr}"
        );
        assert_eq!(
            stderr
                .trim_end()
                .ends_with("or lower --unroll-limit to loop its columns"),
            hint,
            "{function}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `eval` warns on a state whose free-flyer quaternion is not a unit one
/// (scaled, or zero), naming the state and the joint, and still evaluates;
/// the unit quaternions of the reference file give no warning.
#[test]
fn eval_warns_on_a_non_unit_quaternion() {
    let reference = root().join("tests/reference/go2_floating.json");
    let text = std::fs::read_to_string(&reference).unwrap();
    let unit = rbdgen(&[
        "eval",
        "models/go2.urdf",
        "--floating-base",
        "--states",
        reference.to_str().unwrap(),
    ]);
    assert!(unit.status.success(), "{}", stderr(&unit));
    assert!(!stderr(&unit).contains("quaternion"), "{}", stderr(&unit));
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let states = doc["states"].as_array_mut().unwrap();
    states.truncate(2);
    for (state, scale) in states.iter_mut().zip([2.0, 0.0]) {
        for k in 3..7 {
            let x = state["q"][k].as_f64().unwrap();
            state["q"][k] = serde_json::json!(x * scale);
        }
    }
    let dir = std::env::temp_dir().join(format!("rbdgen-quaternion-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("states.json");
    std::fs::write(&file, serde_json::to_string(&doc).unwrap()).unwrap();
    let out = rbdgen(&[
        "eval",
        "models/go2.urdf",
        "--floating-base",
        "--states",
        file.to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("states[0].q[3..7]: the quaternion of joint `root_joint` has norm 2e0, not 1"),
        "{err}"
    );
    assert!(
        err.contains("states[1].q[3..7]: the quaternion of joint `root_joint` has norm 0e0"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The header states the base an MJCF's `<freejoint>` gives, which needs no
/// `--floating-base`.
#[test]
fn an_mjcf_free_joint_is_a_free_flyer_root_in_the_header() {
    let run = rbdgen(&[
        "generate",
        "models/mjcf/menagerie/unitree_go2/go2.xml",
        "--functions",
        "rnea",
        "--quiet",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        text.contains("go2.xml`, free-flyer root (the model's free joint); nq = 19, nv = 18."),
        "{}",
        &text[..text.len().min(600)]
    );
}
