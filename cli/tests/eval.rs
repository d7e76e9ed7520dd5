//! The eval format: `rbdgen_cli::eval` and the `eval` / `compare` subcommands on the
//! committed Pinocchio references, comparisons that must fail, and bad input.

#[path = "../../runtime/tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rbdgen_cli::eval::{
    compare, evaluate, frame_quantities, quantities, EvalError, State, StatesFile, Status,
};
use rbdgen_runtime::Model;
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

fn status(c: &rbdgen_cli::eval::Comparison, name: &str) -> Status {
    c.quantities
        .iter()
        .find(|q| q.name == name)
        .unwrap_or_else(|| panic!("no quantity {name}"))
        .status
}

/// The quantities of the tables that reference `doc` carries (its first
/// state, its first frame), by the names of [`compare`]'s reports' prefixes.
fn table_quantities_in(doc: &Value) -> Vec<String> {
    let state = &doc["states"][0];
    let frame = state["frames"]
        .as_object()
        .and_then(|f| f.values().next())
        .cloned()
        .unwrap_or(Value::Null);
    quantities()
        .into_iter()
        .filter(|&q| q != "frames" && state.get(q).is_some())
        .map(str::to_string)
        .chain(
            frame_quantities()
                .into_iter()
                .filter(|&q| frame.get(q).is_some())
                .map(|q| format!("frames.{q}")),
        )
        .collect()
}

/// Every report of `c` passes, none is missing, and every quantity of the
/// tables that the reference carries was compared.
fn assert_all_compared_and_passed(name: &str, doc: &Value, c: &rbdgen_cli::eval::Comparison) {
    assert_eq!(c.count(Status::Failed), 0, "{name}: {:#?}", c.quantities);
    assert_eq!(c.count(Status::Missing), 0, "{name}: {:#?}", c.quantities);
    for quantity in table_quantities_in(doc) {
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
}

#[test]
fn every_reference_matches_pinocchio() {
    for name in REFERENCES {
        let (doc, ours) = ours(name);
        let c = compare(&doc, &ours).unwrap();
        assert_all_compared_and_passed(name, &doc, &c);
        // The base format's quantities are all there (and `rnea_fext`).
        let carried = table_quantities_in(&doc);
        assert!(carried.len() >= 24, "{name}: {carried:?}");
        assert_eq!(status(&c, "rnea_fext"), Status::Passed, "{name}");
        // Well inside the tolerance (floating_joint_floating's aba, with a mass
        // matrix of condition number ~4e4, is the worst at ~2e-12).
        assert!(c.worst() < 1e-10, "{name}: worst {}", c.worst());
    }
}

/// Every Pinocchio reference of the whole-body extension, each with a random
/// armature and (but the double pendulum) a contact set in its header.
const WBC_REFERENCES: [&str; 5] = [
    "wbc/go2_floating",
    "wbc/go2_z1_floating",
    "wbc/go2_z1_floating_gripper",
    "wbc/z1_fixed",
    "wbc/double_pendulum_continuous_fixed",
];

#[test]
fn every_whole_body_reference_matches_pinocchio() {
    for name in WBC_REFERENCES {
        let (doc, ours) = ours(name);
        // The header's armature and contacts were applied, and are written back.
        assert!(doc["model"]["armature"].is_array(), "{name}");
        assert_eq!(
            ours["model"]["armature"], doc["model"]["armature"],
            "{name}"
        );
        assert_eq!(
            ours["model"]["contacts"], doc["model"]["contacts"],
            "{name}"
        );
        let c = compare(&doc, &ours).unwrap();
        assert_all_compared_and_passed(name, &doc, &c);
        // Every entry of both tables is in these references (the contact and
        // impulse ones where there is a contact set).
        let has_contacts = doc["model"].get("contacts").is_some();
        let carried = table_quantities_in(&doc);
        for q in quantities().into_iter().filter(|&q| q != "frames") {
            let needs_contacts = q.starts_with("contact_") || q.starts_with("impulse_");
            let expected = has_contacts || !needs_contacts;
            assert_eq!(carried.iter().any(|c| c == q), expected, "{name}: {q}");
        }
        assert_eq!(
            carried.iter().filter(|c| c.starts_with("frames.")).count(),
            frame_quantities().len(),
            "{name}"
        );
        assert!(c.worst() < 1e-10, "{name}: worst {}", c.worst());
    }
}

#[test]
fn the_armature_and_contacts_are_part_of_the_comparison() {
    let (doc, ours) = ours("wbc/go2_floating");
    let other = edit(ours.clone(), &["model", "armature", "4"], |x| {
        *x = json!(x.as_f64().unwrap() + 0.1)
    });
    let e = compare(&doc, &other).unwrap_err();
    assert!(
        matches!(e, EvalError::Incomparable(_)) && e.to_string().contains("armature of dof 4"),
        "{e}"
    );
    let fewer = edit(ours.clone(), &["model", "contacts"], |c| {
        c.as_array_mut().unwrap().pop();
    });
    let e = compare(&doc, &fewer).unwrap_err();
    assert!(e.to_string().contains("contact 3"), "{e}");
    // Without its armature, a file's dynamics are other values.
    let (plain_doc, model, urdf, floating) = load("wbc/go2_floating");
    let plain = edit(plain_doc.clone(), &["model"], |m| {
        m.as_object_mut().unwrap().remove("armature");
    });
    let without = evaluate(
        &model,
        &urdf,
        floating,
        &StatesFile::parse(&plain.to_string()).unwrap(),
    )
    .unwrap();
    assert!(without["model"].get("armature").is_none());
    let c = compare(&plain, &without).unwrap();
    assert_eq!(status(&c, "crba"), Status::Failed);
    assert_eq!(status(&c, "frames.placement"), Status::Passed);
}

#[test]
fn bad_armature_or_contacts_in_the_header_are_errors() {
    let (doc, model, urdf, floating) = load("wbc/go2_floating");
    let run = |doc: &Value| {
        StatesFile::parse(&doc.to_string())
            .and_then(|file| evaluate(&model, &urdf, floating, &file))
            .unwrap_err()
            .to_string()
    };
    let negative = edit(doc.clone(), &["model", "armature", "7"], |x| {
        *x = json!(-0.5)
    });
    let e = run(&negative);
    assert!(
        e.contains("`model.armature[7]`") && e.contains("-0.5") && e.contains("FL_thigh_joint"),
        "{e}"
    );
    let short = edit(doc.clone(), &["model", "armature"], |a| {
        a.as_array_mut().unwrap().pop();
    });
    let e = run(&short);
    assert!(
        e.contains("`model.armature`") && e.contains("nv = 18"),
        "{e}"
    );
    let unknown = edit(doc.clone(), &["model", "contacts", "2", "frame"], |f| {
        *f = json!("RL_paw")
    });
    let e = run(&unknown);
    assert!(
        e.contains("`model.contacts[2].frame`") && e.contains("unknown link frame `RL_paw`"),
        "{e}"
    );
    let kind = edit(doc.clone(), &["model", "contacts", "0", "type"], |t| {
        *t = json!("plane")
    });
    let e = run(&kind);
    assert!(
        e.contains("`model.contacts[0].type`") && e.contains("`plane`"),
        "{e}"
    );
    let twice = edit(doc.clone(), &["model", "contacts", "1", "frame"], |f| {
        *f = json!("FL_foot")
    });
    let e = run(&twice);
    assert!(e.contains("`FL_foot`") && e.contains("named twice"), "{e}");
    let fext = edit(doc.clone(), &["states", "1", "fext"], |f| {
        f.as_array_mut().unwrap().pop();
    });
    let e = run(&fext);
    assert!(e.contains("states[1].fext"), "{e}");
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
        for input in rbdgen_cli::eval::INPUTS.into_iter().chain(["fext"]) {
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
    // No states, or states of inputs only: nothing is compared, which is no pass.
    let no_states = edit(doc.clone(), &["states"], |s| *s = json!([]));
    let e = compare(&no_states, &no_states).unwrap_err();
    assert!(e.to_string().contains("no quantity to compare"), "{e}");
    let one_state = edit(doc.clone(), &["states"], |s| {
        s.as_array_mut().unwrap().truncate(1)
    });
    let inputs_only = edit(one_state, &["states", "0"], |state| {
        let inputs = ["q", "v", "a", "tau", "w", "q2", "fext"];
        state
            .as_object_mut()
            .unwrap()
            .retain(|k, _| inputs.contains(&k.as_str()));
    });
    let e = compare(&inputs_only, &inputs_only).unwrap_err();
    assert!(e.to_string().contains("no quantity to compare"), "{e}");
}

#[test]
fn evaluate_refuses_bad_states() {
    let (doc, model, urdf, _) = load("z1_fixed");
    let states = |doc: &Value| StatesFile::parse(&doc.to_string());
    assert!(matches!(
        StatesFile::parse("{not json"),
        Err(EvalError::Json(_))
    ));
    // Every missing input of a state in one error.
    let no_tau = edit(doc.clone(), &["states", "2"], |s| {
        s.as_object_mut().unwrap().remove("tau");
    });
    let e = states(&no_tau).unwrap_err();
    assert_eq!(
        e.to_string(),
        "`states[2]`: missing `tau` (a state needs the inputs `q`, `v`, `a`, `tau`, `w`, `q2`; \
         docs/eval-format.md)"
    );
    let no_v_w_q2 = edit(doc.clone(), &["states", "1"], |s| {
        for key in ["q2", "v", "w"] {
            s.as_object_mut().unwrap().remove(key);
        }
    });
    let e = states(&no_v_w_q2).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("`states[1]`: missing `v`, `w`, `q2` ("),
        "{e}"
    );
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
    let none = edit(doc.clone(), &["states"], |s| *s = json!([]));
    assert_eq!(
        states(&none).unwrap_err().to_string(),
        "`states`: empty: there is nothing to evaluate"
    );

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
    let header = rbdgen_cli::eval::Header::of(&model, "rock.urdf", false);
    let empty = State {
        q: vec![],
        v: vec![],
        a: vec![],
        tau: vec![],
        w: vec![],
        q2: vec![],
        fext: None,
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
    // The centre of mass of no mass is 0/0: NaN, as Pinocchio's, and NaN never
    // matches; so is the centroidal momentum rate, a moment about it.
    assert_eq!(failed, ["com", "dhg"]);
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
        table.contains("rnea ") && table.contains("0 not computed"),
        "{table}"
    );
    // Quantities not computed fail only with --strict.
    let mut partial = ours.clone();
    for s in partial["states"].as_array_mut().unwrap() {
        s.as_object_mut().unwrap().remove("rnea_fext");
    }
    let partial_path = scratch("go2_partial.json");
    std::fs::write(&partial_path, partial.to_string()).unwrap();
    let cmp = rbdgen(&[
        "compare",
        reference.to_str().unwrap(),
        partial_path.to_str().unwrap(),
    ]);
    let table = String::from_utf8_lossy(&cmp.stdout);
    assert_eq!(cmp.status.code(), Some(0), "{table}");
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("rnea_fext ") && l.contains("not computed")),
        "{table}"
    );
    let strict = rbdgen(&[
        "compare",
        "--strict",
        reference.to_str().unwrap(),
        partial_path.to_str().unwrap(),
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

/// `rbdgen eval` then `rbdgen compare --strict --summary` on a reference:
/// the summary's fields.
fn cli_eval_compare(reference: &str, out: &Path, extra: &[&str]) -> Vec<String> {
    let path = reference_path(reference);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut args = vec![
        "eval",
        "--urdf",
        doc["model"]["urdf"].as_str().unwrap(),
        "--states",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    if doc["model"]["floating_base"].as_bool().unwrap() {
        args.push("--floating-base");
    }
    args.extend(extra);
    let run = rbdgen(&args);
    assert!(
        run.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let summary = rbdgen(&[
        "compare",
        "--strict",
        "--summary",
        path.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    let line = String::from_utf8_lossy(&summary.stdout).into_owned();
    assert_eq!(summary.status.code(), Some(0), "{reference}: {line}");
    line.trim_end().split('\t').map(String::from).collect()
}

#[test]
fn cli_eval_of_every_whole_body_reference_is_clean() {
    for name in WBC_REFERENCES {
        let out = scratch(&format!("{}.json", name.replace('/', "_")));
        let fields = cli_eval_compare(name, &out, &[]);
        // passed, failed, not computed, worst, failed names, not-computed names.
        assert_eq!(&fields[1..3], ["0", "0"], "{name}: {fields:?}");
        assert_eq!((&*fields[4], &*fields[5]), ("-", "-"), "{name}: {fields:?}");
        let passed: usize = fields[0].parse().unwrap();
        let with_contacts = name != "wbc/double_pendulum_continuous_fixed";
        assert_eq!(passed, if with_contacts { 73 } else { 57 }, "{name}");
    }
}

#[test]
fn cli_eval_takes_the_model_options() {
    // The header's contact set given on the command line too: the same.
    let out = scratch("z1_wbc_flags.json");
    let fields = cli_eval_compare("wbc/z1_fixed", &out, &["--contacts", "gripperMover:6d"]);
    assert_eq!(fields[1], "0", "{fields:?}");
    // A contact set for a file without one: the contact quantities appear,
    // and the header says which contacts they are for.
    let out = scratch("z1_contacts.json");
    let fields = cli_eval_compare("z1_fixed", &out, &["--contacts", "link04:point"]);
    assert_eq!(fields[1], "0", "{fields:?}");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        doc["model"]["contacts"],
        json!([{"frame": "link04", "type": "point"}])
    );
    assert_eq!(
        common::flat(&doc["states"][0]["contact_jacobian"]).len(),
        3 * 7
    );
    assert_eq!(
        doc["states"][0]["contact_dynamics"]["lambda"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    // --frames keeps those link frames only.
    let run = rbdgen(&[
        "eval",
        "--urdf",
        "models/z1.urdf",
        "--states",
        "tests/reference/z1_fixed.json",
        "--frames",
        "link02,gripperMover",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let doc: Value = serde_json::from_slice(&run.stdout).unwrap();
    let frames: Vec<&String> = doc["states"][0]["frames"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(frames, ["gripperMover", "link02"]);
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
    // Whole-body inputs in the header: an unknown contact frame, a negative
    // armature.
    let wbc: Value =
        serde_json::from_str(&std::fs::read_to_string(reference_path("wbc/z1_fixed")).unwrap())
            .unwrap();
    let unknown_contact = scratch("z1_unknown_contact.json");
    let doc = edit(wbc.clone(), &["model", "contacts", "0", "frame"], |f| {
        *f = json!("hand")
    });
    std::fs::write(&unknown_contact, doc.to_string()).unwrap();
    let negative_armature = scratch("z1_negative_armature.json");
    let doc = edit(wbc.clone(), &["model", "armature", "2"], |a| {
        *a = json!(-0.25)
    });
    std::fs::write(&negative_armature, doc.to_string()).unwrap();
    fn z1(states: &Path) -> Vec<&str> {
        vec![
            "eval",
            "--urdf",
            "models/z1.urdf",
            "--states",
            states.to_str().unwrap(),
        ]
    }
    let z1_flags = |flags: &[&'static str]| -> Vec<&str> {
        let mut args = vec![
            "eval",
            "--urdf",
            "models/z1.urdf",
            "--states",
            "tests/reference/wbc/z1_fixed.json",
        ];
        args.extend(flags);
        args
    };
    // A state without `v` and `w`: both named in one error.
    let missing_inputs = scratch("z1_missing_inputs.json");
    let doc = edit(wbc.clone(), &["states", "0"], |s| {
        s.as_object_mut().unwrap().remove("v");
        s.as_object_mut().unwrap().remove("w");
    });
    std::fs::write(&missing_inputs, doc.to_string()).unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            z1(&missing_inputs),
            "z1_missing_inputs.json: `states[0]`: missing `v`, `w` (a state needs the inputs",
        ),
        (
            z1(&unknown_contact),
            "z1_unknown_contact.json: `model.contacts[0].frame`: unknown link frame `hand`",
        ),
        (
            z1(&negative_armature),
            "z1_negative_armature.json: `model.armature[2]`: -0.25 (joint `joint3`)",
        ),
        (
            z1_flags(&["--contacts", "hand:point"]),
            "models/z1.urdf: --contacts: unknown link frame `hand`",
        ),
        (
            z1_flags(&["--contacts", "link04:plane"]),
            "models/z1.urdf: --contacts `link04:plane`: `plane` is not `point` or `6d`",
        ),
        (
            z1_flags(&["--armature", "joint3=-1"]),
            "models/z1.urdf: --armature: armature of joint `joint3`: -1",
        ),
        (
            z1_flags(&["--armature", "elbow=0.1"]),
            "models/z1.urdf: --armature: unknown joint `elbow`",
        ),
        (
            z1_flags(&["--armature", "joint3=heavy"]),
            "`heavy` is not a number",
        ),
        (
            z1_flags(&["--frames", "link04,hand"]),
            "models/z1.urdf: --frames: unknown link frame `hand`",
        ),
        (
            z1_flags(&["--contacts", "link04:point"]),
            "the contacts given on the command line differ from the file's `model.contacts`",
        ),
        (wrong_base.to_vec(), "floating base in the file"),
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

#[test]
fn cli_eval_warns_of_values_that_are_not_finite() {
    // Z1's first state with a huge velocity: the velocity products overflow.
    let (doc, _, _, _) = load("z1_fixed");
    let state = &doc["states"][0];
    let mut inputs = serde_json::Map::new();
    for key in ["q", "v", "a", "tau", "w", "q2"] {
        if let Some(x) = state.get(key) {
            inputs.insert(key.into(), x.clone());
        }
    }
    inputs["v"][0] = json!(1e300);
    let states = json!({ "model": doc["model"], "states": [inputs] });
    let dir = scratch("nonfinite");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("states.json");
    std::fs::write(&path, states.to_string()).unwrap();
    let out = dir.join("out.json");
    let run = rbdgen(&[
        "eval",
        "--urdf",
        "models/z1.urdf",
        "--states",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(
        stderr.contains("state 0: not finite, written as null: "),
        "{stderr}"
    );
    assert!(stderr.contains("kinetic_energy"), "{stderr}");
    let ours: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(ours["states"][0]["kinetic_energy"], Value::Null);
}
