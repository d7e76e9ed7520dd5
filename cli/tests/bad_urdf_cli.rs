//! `rbdgen info` and `rbdgen generate` on every file of the corpus of broken
//! URDFs (`tests/bad_urdf/`, `expected.txt`): a bad file gives one line
//! `rbdgen: FILE: message` on standard error naming the element at fault, and
//! exit status 2; a good one exits 0. Nothing panics. A model that loads but
//! that no rigid body has gets a warning on standard error, or exit status 2
//! with `--strict`.

#[path = "../../runtime/tests/corpus/mod.rs"]
mod corpus;

use std::path::Path;
use std::process::{Command, Output};

fn rbdgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rbdgen"))
        .args(args)
        .output()
        .unwrap()
}

/// Asserts the failure of `rbdgen ARGS FILE` with `message` in its one error
/// line (after the model's warnings, if any).
fn assert_fails(command: &str, file: &Path, message: &str) {
    let path = file.to_str().unwrap();
    let out = rbdgen(&[command, path]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    let what = format!("rbdgen {command} {path}");
    assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
    assert!(out.stdout.is_empty(), "{what}: wrote to standard output");
    // The model's warnings may come first (`rbdgen: warning: ...`): why a
    // function failed, often.
    let error = stderr
        .lines()
        .skip_while(|l| l.starts_with("rbdgen: warning: "))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        error.starts_with(&format!("rbdgen: {path}: ")),
        "{what}: {stderr}"
    );
    assert!(
        stderr.contains(message),
        "{what}: `{stderr}` lacks `{message}`"
    );
    assert_eq!(error.lines().count(), 1, "{what}: {stderr}");
}

#[test]
fn every_bad_file_is_reported_with_status_2() {
    let expectations = corpus::expectations();
    assert!(expectations.len() >= 30);
    for x in expectations {
        let file = corpus::dir().join(&x.file);
        match x.outcome.as_str() {
            "error" => {
                assert_fails("info", &file, &x.message);
                assert_fails("generate", &file, &x.message);
            }
            "generate" => {
                let out = rbdgen(&["info", file.to_str().unwrap()]);
                assert!(out.status.success(), "{}", x.file);
                assert_fails("generate", &file, &format!("aba: {}", x.message));
            }
            "strict" | "ok" => {
                let out = rbdgen(&["info", file.to_str().unwrap()]);
                let stdout = String::from_utf8(out.stdout).unwrap();
                assert!(out.status.success(), "{}: {stdout}", x.file);
                if x.outcome == "ok" {
                    assert!(out.stderr.is_empty(), "{}: warned", x.file);
                }
                if x.outcome == "ok" {
                    let (nq, nv) = x.message.split_once(' ').unwrap();
                    assert!(
                        stdout.contains(&format!("nq = {nq}, nv = {nv}")),
                        "{}: {stdout}",
                        x.file
                    );
                }
            }
            other => panic!("{}: unknown outcome `{other}`", x.file),
        }
    }
}

#[test]
fn a_missing_file_is_reported_with_status_2() {
    let file = corpus::dir().join("no_such_file.urdf");
    assert_fails("info", &file, "No such file");
    assert_fails("generate", &file, "No such file");
}

#[test]
fn generate_on_a_massless_subtree_names_the_joint_and_writes_no_file() {
    let file = corpus::dir().join("massless_subtree.urdf");
    let output = std::env::temp_dir().join(format!("rbdgen-massless-{}.rs", std::process::id()));
    let out = rbdgen(&[
        "generate",
        file.to_str().unwrap(),
        "--functions",
        "aba",
        "-o",
        output.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("joint `wrist`"), "{stderr}");
    assert!(!output.exists());
    // Without aba the model is fine.
    let out = rbdgen(&[
        "generate",
        file.to_str().unwrap(),
        "--functions",
        "rnea,crba",
    ]);
    assert!(out.status.success());
}

/// Asserts that `rbdgen ARGS` succeeds with one warning, `rbdgen: warning:
/// FILE: ...message...`, on standard error.
fn assert_warns(args: &[&str], file: &Path, message: &str) {
    let path = file.to_str().unwrap();
    let mut all = args.to_vec();
    all.insert(1, path);
    let out = rbdgen(&all);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "rbdgen {all:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "rbdgen {all:?}: {stderr}");
    assert!(
        stderr.starts_with(&format!("rbdgen: warning: {path}: ")) && stderr.contains(message),
        "rbdgen {all:?}: `{stderr}` lacks `{message}`"
    );
}

/// The files that load but that no rigid body makes (an impossible inertia,
/// a massless moving subtree): `info`, `eval` and `generate` warn on stderr,
/// naming the link; with `--strict` they fail with that message, status 2.
#[test]
fn impossible_models_are_warnings_or_strict_errors() {
    let mut n = 0;
    for x in corpus::expectations() {
        if !["strict", "generate"].contains(&x.outcome.as_str()) {
            continue;
        }
        n += 1;
        let file = corpus::dir().join(&x.file);
        assert_warns(&["info"], &file, &x.message);
        assert_warns(&["generate", "--functions", "rnea"], &file, &x.message);
        for command in ["info", "generate"] {
            let path = file.to_str().unwrap();
            let out = rbdgen(&[command, path, "--strict"]);
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert_eq!(out.status.code(), Some(2), "{command} {path}: {stderr}");
            assert!(
                stderr.starts_with(&format!("rbdgen: {path}: ")) && stderr.contains(&x.message),
                "{command} {path}: {stderr}"
            );
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
        }
    }
    assert!(n >= 2, "{n}");
    // `eval` says it before evaluating anything (ABA divides by zero here).
    let file = corpus::dir().join("massless_subtree.urdf");
    let states = std::env::temp_dir().join(format!("rbdgen-massless-{}.json", std::process::id()));
    std::fs::write(
        &states,
        r#"{"model": {"urdf": "massless_subtree.urdf", "floating_base": false, "nq": 3, "nv": 3,
              "joint_names": ["ja", "jb", "wrist"], "frames": ["a", "b", "c", "hand", "tip"]},
            "states": [{"q": [0.1, 0.2, 0.3], "v": [0, 0, 0], "a": [0, 0, 0], "tau": [0, 0, 0],
                        "w": [0, 0, 0], "q2": [0, 0, 0]}]}"#,
    )
    .unwrap();
    let out = rbdgen(&[
        "eval",
        "--urdf",
        file.to_str().unwrap(),
        "--states",
        states.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with(&format!(
            "rbdgen: warning: {}: joint `wrist` moves only massless bodies",
            file.display()
        )),
        "{stderr}"
    );
    let _ = std::fs::remove_file(states);
}

/// The MJCF files of `tests/bad_mjcf/` with an element or attribute MuJoCo
/// does not define (outcome `strict` in its `expected.txt`): `info` and
/// `generate` warn on stderr, naming it, its parent and its line; with
/// `--strict` they fail with that message, status 2. A file with only
/// elements MuJoCo defines and rbdgen ignores gets no warning.
#[test]
fn unknown_mjcf_elements_are_warnings_or_strict_errors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/bad_mjcf");
    let expected = std::fs::read_to_string(dir.join("expected.txt")).unwrap();
    let mut n = 0;
    for line in expected.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.splitn(3, '|').map(str::trim).collect();
        let [file, "strict", message] = fields[..] else {
            continue;
        };
        n += 1;
        let file = dir.join(file);
        let path = file.to_str().unwrap();
        for args in [
            vec!["info", path],
            vec!["generate", path, "--functions", "rnea"],
        ] {
            let out = rbdgen(&args);
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert!(out.status.success(), "rbdgen {args:?}: {stderr}");
            // The first warning is the message; a file may have more.
            let warning = format!("rbdgen: warning: {path}: ");
            assert!(
                stderr.lines().all(|l| l.starts_with(&warning))
                    && stderr.lines().next().is_some_and(|l| l.contains(message)),
                "rbdgen {args:?}: `{stderr}` lacks `{message}`"
            );
        }
        for command in ["info", "generate"] {
            let out = rbdgen(&[command, path, "--strict"]);
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert_eq!(out.status.code(), Some(2), "{command} {path}: {stderr}");
            assert!(
                stderr.starts_with(&format!("rbdgen: {path}: ")) && stderr.contains(message),
                "{command} {path}: `{stderr}` lacks `{message}`"
            );
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
        }
    }
    assert!(n >= 4, "{n}");
    let quiet = dir.join("unknown_elements_ok.xml");
    let out = rbdgen(&["info", quiet.to_str().unwrap(), "--strict"]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success() && stderr.is_empty(), "{stderr}");
}

/// A function that fails on a massless joint says the joint's sentence
/// once: the error carries it, so the warning that would repeat it is not
/// printed (with `--strict` too, where the warning is the error).
#[test]
fn a_massless_joint_is_said_once() {
    let file = corpus::dir().join("massless_subtree.urdf");
    let path = file.to_str().unwrap();
    for strict in [false, true] {
        let mut args = vec!["generate", path, "--functions", "rnea,aba"];
        if strict {
            args.push("--strict");
        }
        let out = rbdgen(&args);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(
            stderr
                .matches("joint `wrist` moves only massless bodies")
                .count(),
            1,
            "{args:?}: {stderr}"
        );
    }
}
