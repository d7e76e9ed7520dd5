//! PNG plots for the examples (plotters, bitmap backend): a heatmap of a
//! matrix with block boundaries, and line plots. Files go to `target/plots/`.

#![allow(dead_code)]

use std::path::PathBuf;

use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

/// Registers the bundled DejaVu Sans as plotters' `sans-serif` (once).
pub fn fonts() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let bytes: &'static [u8] = include_bytes!("../assets/DejaVuSans.ttf");
        if register_font("sans-serif", FontStyle::Normal, bytes).is_err() {
            panic!("the bundled font does not load");
        }
    });
}

/// `target/plots/<name>` (the directory is created), under the workspace's
/// target directory.
pub fn out_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/plots");
    std::fs::create_dir_all(&dir).expect("target/plots is writable");
    dir.join(name)
}

/// One named line of a plot: `(x, y)` points.
pub struct Series<'a> {
    /// Legend text.
    pub label: &'a str,
    /// The points.
    pub points: Vec<(f64, f64)>,
}

/// A line plot of `series` with axis labels, and horizontal reference lines
/// `(y, label)`; written to `path` (PNG, 900 x 540).
pub fn lines(
    path: &PathBuf,
    title: &str,
    (x_label, y_label): (&str, &str),
    series: &[Series],
    references: &[(f64, &str)],
) -> Result<(), Box<dyn std::error::Error>> {
    fonts();
    let root = BitMapBackend::new(path, (900, 540)).into_drawing_area();
    root.fill(&WHITE)?;
    let all = series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in all {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    for &(y, _) in references {
        (y0, y1) = (y0.min(y), y1.max(y));
    }
    let pad = 0.05 * (y1 - y0).max(1e-12);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1, (y0 - pad)..(y1 + pad))?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .label_style(("sans-serif", 14))
        .draw()?;
    for (k, s) in series.iter().enumerate() {
        let color = Palette99::pick(k).to_rgba();
        chart
            .draw_series(LineSeries::new(s.points.clone(), color.stroke_width(2)))?
            .label(s.label)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2)));
    }
    for &(y, label) in references {
        chart
            .draw_series(LineSeries::new([(x0, y), (x1, y)], BLACK.stroke_width(1)))?
            .label(label)
            .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()?;
    root.present()?;
    Ok(())
}

/// A heatmap of `values` (`rows x cols`, row-major), one cell per entry,
/// colour from its value on `[lo, hi]`, with black lines after the rows and
/// columns listed in `boundaries`; written to `path` (PNG).
pub fn heatmap(
    path: &PathBuf,
    title: &str,
    values: &[f64],
    (rows, cols): (usize, usize),
    (lo, hi): (f64, f64),
    boundaries: &[usize],
) -> Result<(), Box<dyn std::error::Error>> {
    fonts();
    let root = BitMapBackend::new(path, (700, 700)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(30)
        .build_cartesian_2d(0..cols, (0..rows).into_segmented())?;
    chart
        .configure_mesh()
        .disable_mesh()
        .label_style(("sans-serif", 12))
        .draw()?;
    let plotting = chart.plotting_area();
    for r in 0..rows {
        for c in 0..cols {
            let t = ((values[r * cols + c] - lo) / (hi - lo)).clamp(0.0, 1.0);
            let color = ViridisRGB::get_color(t);
            let y = rows - 1 - r;
            plotting.draw(&Rectangle::new(
                [
                    (c, SegmentValue::Exact(y)),
                    (c + 1, SegmentValue::Exact(y + 1)),
                ],
                color.filled(),
            ))?;
        }
    }
    for &b in boundaries {
        let y = rows - b;
        plotting.draw(&PathElement::new(
            [(b, SegmentValue::Exact(0)), (b, SegmentValue::Exact(rows))],
            BLACK.stroke_width(2),
        ))?;
        plotting.draw(&PathElement::new(
            [(0, SegmentValue::Exact(y)), (cols, SegmentValue::Exact(y))],
            BLACK.stroke_width(2),
        ))?;
    }
    root.present()?;
    Ok(())
}
