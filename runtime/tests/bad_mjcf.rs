//! The corpus of broken and unusual MJCF files under `tests/bad_mjcf/`: every
//! file gets the outcome `tests/bad_mjcf/expected.txt` gives it (an error
//! naming the element and its line, or a model of the given size), and
//! nothing panics, on the corpus, on every truncation and on byte flips of the
//! committed dm_control models. A chain of thousands of nested bodies loads
//! without deep recursion.

mod common;

use std::path::PathBuf;

use common::root;
use rbdgen_runtime::model::mjcf::read_description;
use rbdgen_runtime::{Model, ModelError};

fn dir() -> PathBuf {
    root().join("tests/bad_mjcf")
}

/// `(file, outcome, message part)` of every line of `expected.txt`.
fn expectations() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(dir().join("expected.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.splitn(3, '|').map(str::trim).collect();
            assert_eq!(f.len(), 3, "malformed line: {l}");
            (f[0].to_string(), f[1].to_string(), f[2].to_string())
        })
        .collect()
}

#[test]
fn every_file_has_an_expectation_and_every_expectation_a_file() {
    let mut files: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".xml"))
        .collect();
    files.sort();
    let listed: Vec<String> = expectations().into_iter().map(|x| x.0).collect();
    assert_eq!(files, listed, "expected.txt lists the files, sorted");
    assert!(files.len() >= 40, "only {} files", files.len());
}

/// The messages of the unknown elements and attributes among a model's warnings.
fn unknown_warnings(model: &Model) -> Vec<String> {
    model
        .physical_warnings()
        .into_iter()
        .filter(|w| matches!(w, ModelError::UnknownElement { .. }))
        .map(|w| w.to_string())
        .collect()
}

#[test]
fn every_file_gets_its_expected_outcome() {
    for (file, outcome, message) in expectations() {
        for floating in [false, true] {
            let path = dir().join(&file);
            let result = Model::from_mjcf_file(&path, floating);
            let strict = Model::from_mjcf_file_strict(&path, floating);
            let has = |e: &ModelError| {
                assert!(
                    e.to_string().contains(&message),
                    "{file}: message `{e}` lacks `{message}`"
                );
            };
            match (outcome.as_str(), result) {
                (
                    "error",
                    Err(e @ (ModelError::Mjcf { .. } | ModelError::WithUnknownElement { .. })),
                ) => {
                    has(&e);
                    has(&strict.unwrap_err());
                }
                ("strict", Ok(model)) => {
                    let warnings = unknown_warnings(&model);
                    assert!(
                        warnings.first().is_some_and(|w| w.contains(&message)),
                        "{file}: warnings {warnings:?} lack `{message}`"
                    );
                    match strict {
                        Err(e @ ModelError::UnknownElement { .. }) => has(&e),
                        other => panic!("{file} (strict): {other:?}"),
                    }
                }
                ("ok", Ok(model)) => {
                    assert_eq!(unknown_warnings(&model), Vec::<String>::new(), "{file}");
                    let strict = strict.unwrap_or_else(|e| panic!("{file} (strict): {e}"));
                    if !floating {
                        assert_eq!(format!("{} {}", model.nq, model.nv), message, "{file}");
                        assert_eq!(strict, model, "{file}");
                    }
                }
                (_, other) => panic!("{file} (floating {floating}): {other:?}, expected {outcome}"),
            }
        }
    }
}

/// Every MJCF model the project ships (dm_control's suite, Menagerie's Go2
/// and G1: the files scripts/conformance-mjcf reads) and the MJCF inputs of
/// the other tests use only elements and attributes MuJoCo defines: it loads without an unknown-element warning,
/// and the strict loader takes it.
#[test]
fn shipped_models_have_no_unknown_elements() {
    let mut files = Vec::new();
    for dir in [
        "models/mjcf/dm_control",
        "models/mjcf/menagerie/unitree_go2",
        "models/mjcf/menagerie/unitree_g1",
        "tests/mjcf",
        "tests/joints",
    ] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "xml") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 12, "{files:?}");
    for path in &files {
        let model = Model::from_mjcf_file(path, false).unwrap();
        assert_eq!(
            unknown_warnings(&model),
            Vec::<String>::new(),
            "{}",
            path.display()
        );
        Model::from_mjcf_file_strict(path, false)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// Code generation reads an MJCF file as its flattened text
/// (`read_description`): the errors found there name the same element at the
/// same line as those of the file itself.
#[test]
fn errors_of_the_flattened_text_give_the_file_lines() {
    let mut checked = 0;
    for (file, outcome, _) in expectations() {
        let path = dir().join(&file);
        let Ok(text) = read_description(&path) else {
            continue; // malformed XML or a missing include: refused while flattening
        };
        if outcome != "error" {
            continue;
        }
        let from_file = Model::from_mjcf_file(&path, false).unwrap_err().to_string();
        let from_text = Model::from_description_str(&text, false)
            .unwrap_err()
            .to_string();
        if !from_file.contains("file `") {
            assert_eq!(from_text, from_file, "{file}");
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} files checked");
    // Elements that share a line keep it.
    let one_line = r#"<mujoco><worldbody><body><joint type="screw"/><geom size="1"/></body></worldbody></mujoco>"#;
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("one_line.xml");
    std::fs::write(&path, one_line).unwrap();
    let text = read_description(&path).unwrap();
    let e = Model::from_description_str(&text, false)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("line 1: <joint>"), "{e}");
}

/// An `<include>` needs the file's directory: the text alone refuses it.
#[test]
fn an_include_without_a_file_is_refused() {
    let text = std::fs::read_to_string(root().join("models/mjcf/dm_control/acrobot.xml")).unwrap();
    let e = Model::from_mjcf_str(&text, false).unwrap_err();
    assert!(
        e.to_string().contains(
            "line 9: <include>: cannot read `./common/visual.xml` without the model's directory"
        ),
        "{e}"
    );
}

/// Every prefix of a real model, and the model with bytes replaced, loads or
/// fails with an error: never a panic.
#[test]
fn truncated_and_corrupted_models_never_panic() {
    for name in ["hopper", "humanoid"] {
        let path = root().join(format!("models/mjcf/dm_control/{name}.xml"));
        let text = std::fs::read_to_string(&path).unwrap();
        let bytes = text.as_bytes();
        for cut in (0..bytes.len()).step_by(7) {
            let Ok(prefix) = std::str::from_utf8(&bytes[..cut]) else {
                continue;
            };
            let _ = Model::from_mjcf_str(prefix, false);
        }
        let mut state = 0x2545F4914F6CDD1Du64;
        for _ in 0..2000 {
            let mut corrupted = bytes.to_vec();
            for _ in 0..3 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let at = (state % corrupted.len() as u64) as usize;
                corrupted[at] = b"<>/\"= -.e0159xyzabq"[(state >> 40) as usize % 19];
            }
            if let Ok(text) = String::from_utf8(corrupted) {
                // The includes are not found through the text alone; cut them.
                let text = text.replace("<include", "<notincluded");
                let _ = Model::from_mjcf_str(&text, true);
            }
        }
    }
}

/// 3,000 nested bodies load on a 1 MiB stack in debug builds (no recursion
/// per nesting level).
#[test]
fn a_deep_chain_loads() {
    let n = 3000;
    let mut text = String::from("<mujoco model=\"chain\"><worldbody>");
    for k in 0..n {
        text.push_str(&format!(
            "<body name=\"b{k}\" pos=\"0 0 -0.1\"><joint name=\"j{k}\" axis=\"0 1 0\"/>\
             <geom type=\"capsule\" fromto=\"0 0 0 0 0 -0.1\" size=\"0.01\"/>"
        ));
    }
    for _ in 0..n {
        text.push_str("</body>");
    }
    text.push_str("</worldbody></mujoco>");
    let model = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || Model::from_mjcf_str(&text, false).unwrap())
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(model.nv, n);
    assert_eq!(model.joints[n].parent, n - 1);
}
