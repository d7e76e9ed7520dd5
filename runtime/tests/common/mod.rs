//! Reading Pinocchio reference files (../shared spec: the eval JSON format) and
//! comparing within its tolerance.
#![allow(dead_code)]

use std::path::PathBuf;

use rbdgen_runtime::Model;
use serde_json::Value;

/// The workspace root (this file is shared by the tests of several packages).
pub fn root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if manifest.join("models").is_dir() {
        manifest
    } else {
        manifest.join("..")
    }
}

/// A reference file with the model it was made from.
pub struct Reference {
    pub name: String,
    pub model: Model,
    pub json: Value,
}

impl Reference {
    /// Loads `tests/reference/<name>.json` and builds its model from the URDF
    /// (or MJCF) file it names.
    pub fn load(name: &str) -> Reference {
        let path = root().join("tests/reference").join(format!("{name}.json"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let json: Value = serde_json::from_str(&text).unwrap();
        let header = &json["model"];
        let floating = header["floating_base"].as_bool().unwrap();
        // make_reference.py names a URDF, make_mjcf_reference.py an MJCF file.
        let model = match header.get("mjcf").and_then(Value::as_str) {
            Some(mjcf) => Model::from_mjcf_file(root().join(mjcf), floating).unwrap(),
            None => {
                let urdf = root().join(header["urdf"].as_str().unwrap());
                Model::from_urdf_file(&urdf, floating).unwrap()
            }
        };
        assert_eq!(
            model.nq as u64,
            header["nq"].as_u64().unwrap(),
            "{name}: nq"
        );
        assert_eq!(
            model.nv as u64,
            header["nv"].as_u64().unwrap(),
            "{name}: nv"
        );
        let names: Vec<&str> = model.joints[1..].iter().map(|j| j.name.as_str()).collect();
        let want: Vec<&str> = header["joint_names"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(names, want, "{name}: joint order");
        let frames: Vec<&str> = model.body_frames().map(|(_, f)| f.name.as_str()).collect();
        let want: Vec<&str> = header["frames"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(frames, want, "{name}: body frame order");
        Reference {
            name: name.to_string(),
            model,
            json,
        }
    }

    pub fn states(&self) -> &[Value] {
        self.json["states"].as_array().unwrap()
    }
}

/// A JSON number array (or array of rows) flattened row-major.
pub fn flat(v: &Value) -> Vec<f64> {
    match v {
        Value::Number(n) => vec![n.as_f64().unwrap()],
        Value::Array(a) => a.iter().flat_map(flat).collect(),
        _ => panic!("not numeric: {v}"),
    }
}

/// Asserts `|ours - ref| <= tol * max(1, max|ref|)` elementwise (the spec's rule with tol = 1e-8).
pub fn assert_close(what: &str, ours: &[f64], reference: &[f64], tol: f64) {
    assert_eq!(ours.len(), reference.len(), "{what}: length");
    let scale = reference.iter().fold(1.0f64, |m, x| m.max(x.abs()));
    let worst = ours
        .iter()
        .zip(reference)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(
        worst <= tol * scale,
        "{what}: max error {worst:e} > {:e}\n ours {ours:?}\n  ref {reference:?}",
        tol * scale
    );
}

/// The spec's tolerance of a comparison with a reference.
pub const SPEC_TOLERANCE: f64 = 1e-8;

/// Asserts that `ours` is quantity `key` of the reference state `s` within
/// [`SPEC_TOLERANCE`] ([`assert_close`]); `tag(key)` names it in the message.
pub fn assert_quantity(tag: &dyn Fn(&str) -> String, s: &Value, key: &str, ours: &[f64]) {
    assert_close(&tag(key), ours, &flat(&s[key]), SPEC_TOLERANCE);
}

/// The model of a URDF under the workspace root (`models/...` or `tests/urdf/...`).
pub fn load_model(relative: &str, floating_base: bool) -> Model {
    let path = root().join(relative);
    Model::from_urdf_file(&path, floating_base)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A uniform number in `[lo, hi)`.
pub fn uniform(rng: &mut impl rand::Rng, lo: f64, hi: f64) -> f64 {
    rng.gen_range(lo..hi)
}

/// A random configuration `[nq]` ([`Model::random_configuration`]): angles in
/// (-π, π), prismatic offsets in (-0.5, 0.5) m, `[cos θ, sin θ]` for unbounded
/// revolutes, and a free-flyer with its position in (-1, 1) m and a unit quaternion.
pub fn random_q(model: &Model, rng: &mut impl rand::Rng) -> Vec<f64> {
    model.random_configuration(|| rng.gen())
}

/// `n` numbers uniform in `(-scale, scale)`.
pub fn random_vec(n: usize, scale: f64, rng: &mut impl rand::Rng) -> Vec<f64> {
    (0..n).map(|_| uniform(rng, -scale, scale)).collect()
}

/// The Cholesky factor `L` (row-major, `A = L Lᵀ`) of a symmetric `n x n`
/// row-major matrix, or the index of the first non-positive pivot.
pub fn cholesky(a: &[f64], n: usize) -> Result<Vec<f64>, usize> {
    assert_eq!(a.len(), n * n);
    let mut l = vec![0.0; n * n];
    for j in 0..n {
        let d = a[j * n + j] - (0..j).map(|k| l[j * n + k] * l[j * n + k]).sum::<f64>();
        if d.is_nan() || d <= 0.0 {
            return Err(j);
        }
        let d = d.sqrt();
        l[j * n + j] = d;
        for i in j + 1..n {
            let x = a[i * n + j] - (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum::<f64>();
            l[i * n + j] = x / d;
        }
    }
    Ok(l)
}

/// `A x` for a row-major `n x n` matrix.
pub fn mat_vec(a: &[f64], x: &[f64]) -> Vec<f64> {
    let n = x.len();
    assert_eq!(a.len(), n * n);
    (0..n)
        .map(|i| (0..n).map(|j| a[i * n + j] * x[j]).sum())
        .collect()
}

/// The names of every reference file in `tests/reference/` (without `.json`), sorted.
pub fn reference_names() -> Vec<String> {
    let dir = root().join("tests/reference");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs `check` on every reference file, by name; at least the 11 committed
/// when this was written, so that a lost directory cannot pass silently.
pub fn check_every_reference(check: impl Fn(&str)) {
    let names = reference_names();
    assert!(names.len() >= 11, "reference files: {names:?}");
    for name in names {
        check(&name);
    }
}
