//! Checks on the examples' pictures: each plot function writes a real PNG
//! with something drawn on it (the CI run of the tests produces every
//! example's pictures under the test target's temporary directory).

use std::path::{Path, PathBuf};

/// `CARGO_TARGET_TMPDIR/plots/<test>`: where a test's plots go, apart from
/// the `target/plots/` of `cargo run --example`.
pub fn dir(test: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("plots")
        .join(test)
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
