//! `rbdgen info` and `rbdgen generate` on every file of the corpus of broken
//! URDFs (`tests/bad_urdf/`, `expected.txt`): a bad file gives one line
//! `rbdgen: FILE: message` on standard error naming the element at fault, and
//! exit status 2; a good one exits 0. Nothing panics.

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

/// Asserts the failure of `rbdgen ARGS FILE` with `message` in its one line.
fn assert_fails(command: &str, file: &Path, message: &str) {
    let path = file.to_str().unwrap();
    let out = rbdgen(&[command, path]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    let what = format!("rbdgen {command} {path}");
    assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
    assert!(out.stdout.is_empty(), "{what}: wrote to standard output");
    assert!(
        stderr.starts_with(&format!("rbdgen: {path}: ")),
        "{what}: {stderr}"
    );
    assert!(
        stderr.contains(message),
        "{what}: `{stderr}` lacks `{message}`"
    );
    assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
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
