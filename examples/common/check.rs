//! What the examples' tests share (`#[cfg(test)]`): where a test's plots go,
//! the check that a PNG has something drawn on it, and, for the structure
//! examples, model loading and comparison helpers.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use rbdgen::runtime::Model;

/// Tolerance of the structure examples' comparisons with the runtime.
pub const TOL: f64 = 1e-10;

/// `target/plots/tests/<test>`: where a test's plots go, apart from the
/// `target/plots/` of `cargo run --example` (the example's `plot` module,
/// which every example including this file has).
pub fn plot_dir(test: &str) -> PathBuf {
    super::plot::plots_dir().join("tests").join(test)
}

/// Asserts that `path` is a PNG of at least `min_size` pixels a side that
/// is not blank: at least `min_colors` distinct colours (axes, text, data).
pub fn assert_drawn(path: &Path, min_size: u32, min_colors: usize) {
    let img = image::open(path)
        .unwrap_or_else(|e| panic!("{} is not a readable PNG: {e}", path.display()))
        .to_rgb8();
    assert!(
        img.width() >= min_size && img.height() >= min_size,
        "{}: {}x{} pixels",
        path.display(),
        img.width(),
        img.height()
    );
    let colors: std::collections::BTreeSet<[u8; 3]> = img.pixels().map(|p| p.0).collect();
    assert!(
        colors.len() >= min_colors,
        "{}: only {} colours, nothing drawn",
        path.display(),
        colors.len()
    );
}

/// The runtime's model of `urdf` (a path under the workspace root), floating base.
pub fn load(urdf: &str) -> Model {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(urdf);
    Model::from_urdf_file(path, true).unwrap()
}

/// The largest `|a_i - b_i|`; `a` and `b` have the same length.
pub fn max_abs_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .fold(0.0f64, |w, (x, y)| w.max((x - y).abs()))
}

/// The sum of the model's link masses, kg.
pub fn model_mass(model: &Model) -> f64 {
    model.joints.iter().map(|j| j.inertia.mass).sum()
}
