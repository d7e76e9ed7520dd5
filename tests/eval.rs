//! The eval format: `rbdgen::eval` and the `eval` / `compare` subcommands on the
//! committed Pinocchio references, comparisons that must fail, and bad input.

#[path = "../runtime/tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rbdgen::eval::{
    compare, evaluate, EvalError, State, StatesFile, Status, FRAME_QUANTITIES, QUANTITIES,
};
use rbdgen::Model;
use serde_json::{json, Value};

/// Every committed reference file.
const REFERENCES: [&str; 16] = [
    "go2_floating",
    "z1_fixed",
    "go2_z1_floating",
    "double_pendulum_continuous_fixed",
    "panda_fixed",
    "continuous_chain_fixed",
    "defaults_fixed",
    "fixed_weld_fixed",
    "fixed_weld_massless_fixed",
    "massless_link_fixed",
    "rotated_inertia_fixed",
    "materials_fixed",
    "world_root_fixed",
    "world_root_floating",
    "floating_joint_fixed",
    "floating_joint_floating",
];

fn reference_path(name: &str) -> PathBuf {
    common::root()
        .join("tests/reference")
        .join(format!("{name}.json"))
}

/// The reference document, and the model of the URDF its header names.
fn load(name: &str) -> (Value, Model, String, bool) {
    let text = std::fs::read_to_string(reference_path(name)).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let urdf = doc["model"]["urdf"].as_str().unwrap().to_string();
    let floating = doc["model"]["floating_base"].as_bool().unwrap();
    let model = Model::from_urdf_file(common::root().join(&urdf), floating).unwrap();
    (doc, model, urdf, floating)
}

/// Our document for the states of reference `name`.
fn ours(name: &str) -> (Value, Value) {
    let (doc, model, urdf, floating) = load(name);
    let states = StatesFile::parse(&doc.to_string()).unwrap();
    let ours = evaluate(&model, &urdf, floating, &states).unwrap();
    (doc, ours)
}

fn status(c: &rbdgen::eval::Comparison, name: &str) -> Status {
    c.quantities
        .iter()
        .find(|q| q.name == name)
        .unwrap_or_else(|| panic!("no quantity {name}"))
        .status
}

#[test]
fn every_reference_matches_pinocchio() {
    for name in REFERENCES {
        let (doc, ours) = ours(name);
        let c = compare(&doc, &ours).unwrap();
        assert_eq!(c.count(Status::Failed), 0, "{name}: {:#?}", c.quantities);
        // Every entry of the tables is compared, and passes.
        let computed = QUANTITIES
            .iter()
            .filter(|q| q.name != "frames")
            .map(|q| q.name.to_string())
            .chain(
                FRAME_QUANTITIES
                    .iter()
                    .map(|q| format!("frames.{}", q.name)),
            );
        for quantity in computed {
            let reports: Vec<_> = c
                .quantities
                .iter()
                .filter(|r| r.name == quantity || r.name.starts_with(&format!("{quantity}.")))
                .collect();
            assert!(!reports.is_empty(), "{name}: {quantity} not compared");
            for r in reports {
                assert_eq!(r.status, Status::Passed, "{name}: {}", r.name);
            }
        }
        // Well inside the tolerance (floating_joint_floating's aba, with a mass
        // matrix of condition number ~4e4, is the worst at ~2e-12).
        assert!(c.worst() < 1e-10, "{name}: worst {}", c.worst());
        // A key of the reference beyond the spec's inputs (`rnea_fext` needs
        // `fext`) is reported as not computed, not as a failure.
        assert_eq!(status(&c, "rnea_fext"), Status::Missing, "{name}");
        assert_eq!(
            c.count(Status::Passed) + c.count(Status::Missing),
            c.quantities.len()
        );
    }
}

#[test]
fn output_has_the_header_and_inputs_of_the_format() {
    let (doc, ours) = ours("go2_floating");
    for key in ["nq", "nv", "joint_names", "frames", "floating_base"] {
        assert_eq!(ours["model"][key], doc["model"][key], "{key}");
    }
    let (ref_states, states) = (
        doc["states"].as_array().unwrap(),
        ours["states"].as_array().unwrap(),
    );
    assert_eq!(states.len(), ref_states.len());
    for (ours, reference) in states.iter().zip(ref_states) {
        for input in rbdgen::eval::INPUTS {
            assert_eq!(ours[input], reference[input], "{input}");
        }
        let frames = ours["frames"].as_object().unwrap();
        assert_eq!(
            frames.len(),
            doc["model"]["frames"].as_array().unwrap().len()
        );
        assert_eq!(
            common::flat(&ours["crba"]).len(),
            18 * 18,
            "crba is nv x nv"
        );
        assert_eq!(ours["crba"].as_array().unwrap().len(), 18);
    }
}

/// `ours` with the value at `path` replaced.
fn edit(mut doc: Value, path: &[&str], f: impl FnOnce(&mut Value)) -> Value {
    let mut v = &mut doc;
    for key in path {
        v = match key.parse::<usize>() {
            Ok(i) => &mut v[i],
            Err(_) => &mut v[*key],
        };
    }
    f(v);
    doc
}

#[test]
fn compare_fails_out_of_tolerance_and_passes_within() {
    let (doc, ours) = ours("z1_fixed");
    let scale = common::flat(&doc["states"][1]["rnea"])
        .iter()
        .fold(1.0f64, |m, x| m.max(x.abs()));
    let nudge = |by: f64| {
        edit(ours.clone(), &["states", "1", "rnea", "3"], |x| {
            *x = json!(x.as_f64().unwrap() + by)
        })
    };
    let c = compare(&doc, &nudge(2e-8 * scale)).unwrap();
    assert_eq!(status(&c, "rnea"), Status::Failed);
    let report = c.quantities.iter().find(|q| q.name == "rnea").unwrap();
    assert_eq!(report.at, "state 1");
    assert!(
        report.worst > 1e-8 && report.worst < 3e-8,
        "{}",
        report.worst
    );
    assert_eq!(status(&c, "crba"), Status::Passed);

    let c = compare(&doc, &nudge(0.5e-8 * scale)).unwrap();
    assert_eq!(status(&c, "rnea"), Status::Passed);

    // One frame of one state off is enough.
    let frame = doc["model"]["frames"][2].as_str().unwrap().to_string();
    let moved = edit(
        ours.clone(),
        &["states", "2", "frames", &frame, "placement", "0", "3"],
        |x| *x = json!(x.as_f64().unwrap() + 1e-6),
    );
    let c = compare(&doc, &moved).unwrap();
    assert_eq!(status(&c, "frames.placement"), Status::Failed);
    let report = c
        .quantities
        .iter()
        .find(|q| q.name == "frames.placement")
        .unwrap();
    assert_eq!(report.at, format!("state 2, frame {frame}"));
}

#[test]
fn compare_fails_on_nan_shape_and_partial_presence() {
    let (doc, ours) = ours("panda_fixed");
    // NaN is written as null by serde_json.
    let nan = edit(ours.clone(), &["states", "0", "aba", "0"], |x| {
        *x = Value::Null
    });
    assert_eq!(status(&compare(&doc, &nan).unwrap(), "aba"), Status::Failed);
    let short = edit(ours.clone(), &["states", "0", "crba", "2"], |row| {
        row.as_array_mut().unwrap().pop();
    });
    let c = compare(&doc, &short).unwrap();
    assert_eq!(status(&c, "crba"), Status::Failed);
    assert!(c.quantities.iter().any(|q| q.problem.is_some()));
    let scalar = edit(ours.clone(), &["states", "0", "nle"], |x| *x = json!(0.0));
    assert_eq!(
        status(&compare(&doc, &scalar).unwrap(), "nle"),
        Status::Failed
    );
    // Absent from one state only is a failure; from every state, not computed.
    let partial = edit(ours.clone(), &["states", "1"], |s| {
        s.as_object_mut().unwrap().remove("gravity");
    });
    assert_eq!(
        status(&compare(&doc, &partial).unwrap(), "gravity"),
        Status::Failed
    );
    let mut none = ours.clone();
    for s in none["states"].as_array_mut().unwrap() {
        s.as_object_mut().unwrap().remove("gravity");
    }
    assert_eq!(
        status(&compare(&doc, &none).unwrap(), "gravity"),
        Status::Missing
    );
}

#[test]
fn compare_skips_what_the_reference_marks_nonfinite() {
    let (doc, ours) = ours("panda_fixed");
    let mut reference = doc.clone();
    for s in reference["states"].as_array_mut().unwrap() {
        let s = s.as_object_mut().unwrap();
        s.remove("aba");
        s.insert(
            "nonfinite".into(),
            json!(["aba", "frames.panda_link3.jacobian_local"]),
        );
    }
    // Ours is NaN there: not compared.
    let ours = edit(ours, &["states", "0", "aba", "0"], |x| *x = Value::Null);
    let c = compare(&reference, &ours).unwrap();
    assert_eq!(c.count(Status::Failed), 0);
    assert!(c.quantities.iter().all(|q| q.name != "aba"));
    assert_eq!(c.nonfinite, ["aba", "frames.jacobian_local"]);
}

#[test]
fn compare_refuses_other_states_or_models() {
    let (doc, ours) = ours("z1_fixed");
    let fewer = edit(ours.clone(), &["states"], |s| {
        s.as_array_mut().unwrap().pop();
    });
    assert!(matches!(
        compare(&doc, &fewer),
        Err(EvalError::Incomparable(_))
    ));
    let other_q = edit(ours.clone(), &["states", "0", "q", "0"], |x| {
        *x = json!(x.as_f64().unwrap() + 1.0)
    });
    let e = compare(&doc, &other_q).unwrap_err();
    assert!(e.to_string().contains("state 0"), "{e}");
    let (go2, _) = self::ours("go2_floating");
    assert!(matches!(
        compare(&go2, &ours),
        Err(EvalError::Incomparable(_))
    ));
}

#[test]
fn evaluate_refuses_bad_states() {
    let (doc, model, urdf, _) = load("z1_fixed");
    let states = |doc: &Value| StatesFile::parse(&doc.to_string());
    assert!(matches!(
        StatesFile::parse("{not json"),
        Err(EvalError::Json(_))
    ));
    let no_tau = edit(doc.clone(), &["states", "2"], |s| {
        s.as_object_mut().unwrap().remove("tau");
    });
    let e = states(&no_tau).unwrap_err();
    assert_eq!(e.to_string(), "`states[2].tau`: missing");
    let text = edit(doc.clone(), &["states", "0", "v", "1"], |x| {
        *x = json!("one")
    });
    assert!(states(&text)
        .unwrap_err()
        .to_string()
        .contains("states[0].v"));
    let no_nv = edit(doc.clone(), &["model"], |m| {
        m.as_object_mut().unwrap().remove("nv");
    });
    assert!(states(&no_nv).unwrap_err().to_string().contains("model.nv"));

    let short = edit(doc.clone(), &["states", "1", "q"], |q| {
        q.as_array_mut().unwrap().pop();
    });
    let e = evaluate(&model, &urdf, false, &states(&short).unwrap()).unwrap_err();
    assert!(
        matches!(
            e,
            EvalError::Length {
                state: 1,
                input: "q",
                got: 6,
                want: 7
            }
        ),
        "{e:?}"
    );
    let long_w = edit(doc.clone(), &["states", "0", "w"], |w| {
        w.as_array_mut().unwrap().push(json!(0.0))
    });
    assert!(evaluate(&model, &urdf, false, &states(&long_w).unwrap()).is_err());

    let file = states(&doc).unwrap();
    let e = evaluate(&model, &urdf, true, &file).unwrap_err();
    assert!(matches!(e, EvalError::ModelMismatch(_)), "{e:?}");
    let renamed = edit(doc.clone(), &["model", "joint_names", "2"], |n| {
        *n = json!("elbow")
    });
    let e = evaluate(&model, &urdf, false, &states(&renamed).unwrap()).unwrap_err();
    assert!(e.to_string().contains("`elbow`"), "{e}");
}

#[test]
fn evaluate_a_model_without_degrees_of_freedom() {
    let urdf = r#"<robot name="rock"><link name="rock"><inertial><mass value="1"/>
        <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link></robot>"#;
    let model = Model::from_urdf_str(urdf, false).unwrap();
    let header = rbdgen::eval::Header::of(&model, "rock.urdf", false);
    let empty = State {
        q: vec![],
        v: vec![],
        a: vec![],
        tau: vec![],
        w: vec![],
        q2: vec![],
    };
    let file = StatesFile {
        header,
        states: vec![empty],
    };
    let doc = evaluate(&model, "rock.urdf", false, &file).unwrap();
    let s = &doc["states"][0];
    assert_eq!(s["crba"], json!([]));
    assert_eq!(s["rnea"], json!([]));
    assert_eq!(
        s["frames"]["rock"]["placement"][3],
        json!([0.0, 0.0, 0.0, 1.0])
    );
    let c = compare(&doc, &doc).unwrap();
    let failed: Vec<&str> = c
        .quantities
        .iter()
        .filter(|r| r.status == Status::Failed)
        .map(|r| r.name.as_str())
        .collect();
    // The centre of mass of no mass is 0/0: NaN, as Pinocchio's, and NaN never matches.
    assert_eq!(failed, ["com"]);
}

fn rbdgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rbdgen"))
        .args(args)
        .current_dir(common::root())
        .output()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("eval");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn cli_eval_then_compare() {
    let out = scratch("go2_ours.json");
    let run = rbdgen(&[
        "eval",
        "--urdf",
        "models/go2.urdf",
        "--floating-base",
        "--states",
        "tests/reference/go2_floating.json",
        "--out",
        out.to_str().unwrap(),
        "--backend",
        "runtime",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let ours: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(ours["model"]["nq"], json!(19));

    let reference = reference_path("go2_floating");
    let cmp = rbdgen(&[
        "compare",
        reference.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    let table = String::from_utf8_lossy(&cmp.stdout);
    assert_eq!(cmp.status.code(), Some(0), "{table}");
    assert!(
        table.contains("rnea ") && table.contains("not computed"),
        "{table}"
    );
    // Quantities not computed fail only with --strict.
    let strict = rbdgen(&[
        "compare",
        "--strict",
        reference.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert_eq!(strict.status.code(), Some(1));
    let summary = rbdgen(&[
        "compare",
        "--summary",
        reference.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    let line = String::from_utf8_lossy(&summary.stdout);
    let fields: Vec<&str> = line.trim_end().split('\t').collect();
    assert_eq!(fields.len(), 7, "{line}");
    assert_eq!((fields[1], fields[4], fields[6]), ("0", "-", "-"), "{line}");

    // Stdout when there is no --out.
    let run = rbdgen(&[
        "eval",
        "--urdf",
        "tests/urdf/defaults.urdf",
        "--states",
        "tests/reference/defaults_fixed.json",
    ]);
    assert!(run.status.success());
    let doc: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(doc["states"].as_array().unwrap().len(), 5);
}

#[test]
fn cli_compare_exits_1_on_a_mismatch() {
    let (doc, ours) = ours("z1_fixed");
    let bad = edit(ours, &["states", "0", "aba", "0"], |x| {
        *x = json!(x.as_f64().unwrap() + 1.0)
    });
    let (r, o) = (scratch("z1_ref.json"), scratch("z1_bad.json"));
    std::fs::write(&r, doc.to_string()).unwrap();
    std::fs::write(&o, bad.to_string()).unwrap();
    let cmp = rbdgen(&["compare", r.to_str().unwrap(), o.to_str().unwrap()]);
    assert_eq!(cmp.status.code(), Some(1));
    let table = String::from_utf8_lossy(&cmp.stdout);
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("aba ") && l.contains("FAIL")),
        "{table}"
    );
}

#[test]
fn cli_errors_exit_2_with_a_message() {
    let garbage = scratch("garbage.json");
    std::fs::write(&garbage, "{\"model\": 3").unwrap();
    let wrong_base = [
        "eval",
        "--urdf",
        "models/go2.urdf",
        "--states",
        "tests/reference/go2_floating.json",
    ];
    let cases: [(Vec<&str>, &str); 5] = [
        (wrong_base.to_vec(), "floating base in the file"),
        (
            vec![
                "eval",
                "--urdf",
                "models/z1.urdf",
                "--states",
                "tests/reference/panda_fixed.json",
            ],
            "does not match",
        ),
        (
            vec![
                "eval",
                "--urdf",
                "no/such.urdf",
                "--states",
                "tests/reference/z1_fixed.json",
            ],
            "no/such.urdf",
        ),
        (
            vec![
                "eval",
                "--urdf",
                "models/z1.urdf",
                "--states",
                garbage.to_str().unwrap(),
            ],
            "not JSON",
        ),
        (
            vec![
                "compare",
                "tests/reference/z1_fixed.json",
                "tests/reference/panda_fixed.json",
            ],
            "cannot be compared",
        ),
    ];
    for (args, message) in cases {
        let run = rbdgen(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("rbdgen: "), "{stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
