//! The corpus of broken and unusual URDFs, `tests/bad_urdf/`, and its
//! expectations `tests/bad_urdf/expected.txt` (shared by the runtime's and the
//! CLI's tests).
#![allow(dead_code)]

use std::path::PathBuf;

/// One line of `expected.txt`: `FILE | OUTCOME | VARIANT | MESSAGE PART`.
pub struct Expectation {
    /// The file name, in `tests/bad_urdf/`.
    pub file: String,
    /// `error`, `strict`, `generate` or `ok`.
    pub outcome: String,
    /// The `ModelError` variant (`-` for `ok`).
    pub variant: String,
    /// A part of the message, or `nq nv` for `ok`.
    pub message: String,
}

/// `tests/bad_urdf/` of the workspace (this file serves several packages).
pub fn dir() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let root = if manifest.join("models").is_dir() {
        manifest
    } else {
        manifest.join("..")
    };
    root.join("tests/bad_urdf")
}

/// The lines of `expected.txt`.
pub fn expectations() -> Vec<Expectation> {
    let text = std::fs::read_to_string(dir().join("expected.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.splitn(4, '|').map(str::trim).collect();
            assert_eq!(f.len(), 4, "malformed line: {l}");
            Expectation {
                file: f[0].into(),
                outcome: f[1].into(),
                variant: f[2].into(),
                message: f[3].into(),
            }
        })
        .collect()
}
