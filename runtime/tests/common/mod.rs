//! Reading Pinocchio reference files (../shared spec: the eval JSON format) and
//! comparing within its tolerance.
#![allow(dead_code)]

use std::path::PathBuf;

use rbdgen_runtime::Model;
use serde_json::Value;

/// The workspace root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A reference file with the model it was made from.
pub struct Reference {
    pub name: String,
    pub model: Model,
    pub json: Value,
}

impl Reference {
    /// Loads `tests/reference/<name>.json` and builds its model from the URDF it names.
    pub fn load(name: &str) -> Reference {
        let path = root().join("tests/reference").join(format!("{name}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let json: Value = serde_json::from_str(&text).unwrap();
        let header = &json["model"];
        let urdf = root().join(header["urdf"].as_str().unwrap());
        let floating = header["floating_base"].as_bool().unwrap();
        let model = Model::from_urdf_file(&urdf, floating).unwrap();
        assert_eq!(model.nq as u64, header["nq"].as_u64().unwrap(), "{name}: nq");
        assert_eq!(model.nv as u64, header["nv"].as_u64().unwrap(), "{name}: nv");
        let names: Vec<&str> = model.joints[1..].iter().map(|j| j.name.as_str()).collect();
        let want: Vec<&str> = header["joint_names"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        assert_eq!(names, want, "{name}: joint order");
        let frames: Vec<&str> = model.body_frames().map(|(_, f)| f.name.as_str()).collect();
        let want: Vec<&str> = header["frames"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        assert_eq!(frames, want, "{name}: body frame order");
        Reference { name: name.to_string(), model, json }
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
    let worst = ours.iter().zip(reference).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    assert!(worst <= tol * scale, "{what}: max error {worst:e} > {:e}\n ours {ours:?}\n  ref {reference:?}", tol * scale);
}
