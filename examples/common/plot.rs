//! PNG plots for the examples (plotters, bitmap backend): a heatmap of a
//! matrix with block boundaries, and line plots. Files go to `target/plots/`.

#![allow(dead_code, clippy::needless_late_init)]

use std::path::{Path, PathBuf};

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

/// `target/plots/` under the workspace, where `cargo run --example` writes
/// its pictures (the README embeds copies from `docs/img/`).
pub fn plots_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/plots")
}

/// `dir/<name>`, creating `dir`.
pub fn out_path(dir: &Path, name: &str) -> PathBuf {
    std::fs::create_dir_all(dir).expect("the plot directory is writable");
    dir.join(name)
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

// Helpers of the structure examples (`mass_matrix_structure`, `zmp_shift`,
// `centroidal_split`): heatmap panels on value axes with a colour bar, and
// grouped bars.

use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;

/// One axis of a [`Field`]: the values its two ends stand for, and its label.
#[derive(Clone, Copy)]
pub struct Axis<'a> {
    /// Values at the left / bottom and at the right / top end.
    pub range: (f64, f64),
    /// Axis label.
    pub label: &'a str,
}

/// One panel of [`fields`]: `rows x cols` cells (row-major), each an equal
/// share of the axes' ranges; NaN cells are drawn grey.
pub struct Field<'a> {
    /// Panel title.
    pub title: &'a str,
    /// The cell values, row-major.
    pub values: &'a [f64],
    /// `(rows, cols)`.
    pub shape: (usize, usize),
    /// Horizontal axis (columns).
    pub x: Axis<'a>,
    /// Vertical axis (rows).
    pub y: Axis<'a>,
    /// Row 0 at the top, as a printed matrix (its axis ticks count down from
    /// the top); row 0 at the bottom otherwise.
    pub top_down: bool,
    /// Black lines before these row and column indices (matrix blocks).
    pub boundaries: &'a [usize],
    /// Points to mark, `(x, y, label)` in axis values (red dots, white labels).
    pub marks: &'a [(f64, f64, &'a str)],
    /// Text centred at `(x, y)` in axis values (block names).
    pub texts: &'a [(f64, f64, &'a str)],
}

/// `panels` side by side on one colour scale `[lo, hi]` (viridis, values
/// outside clamped), with a colour bar labelled `colour_label`; `panel_px` is
/// the size of one panel. Written to `path` (PNG).
pub fn fields(
    path: &PathBuf,
    title: &str,
    panels: &[Field],
    (lo, hi): (f64, f64),
    colour_label: &str,
    panel_px: (u32, u32),
) -> Result<(), Box<dyn std::error::Error>> {
    fonts();
    let bar_px = 120;
    let size = (panel_px.0 * panels.len() as u32 + bar_px, panel_px.1 + 40);
    let root = BitMapBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE)?;
    let titled = root.titled(title, ("sans-serif", 24))?;
    let (left, bar) = titled.split_horizontally(size.0 - bar_px);
    for (area, p) in left.split_evenly((1, panels.len())).iter().zip(panels) {
        draw_field(area, p, (lo, hi))?;
    }
    colour_bar(&bar, (lo, hi), colour_label)?;
    root.present()?;
    Ok(())
}

fn draw_field<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    p: &Field,
    (lo, hi): (f64, f64),
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let (rows, cols) = p.shape;
    let ((x0, x1), (y0, y1)) = (p.x.range, p.y.range);
    // A matrix reads from the top: its vertical axis runs downwards.
    let y_axis = if p.top_down { y1..y0 } else { y0..y1 };
    let mut chart = ChartBuilder::on(area)
        .caption(p.title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y_axis)?;
    let tick = |v: &f64| {
        if (v - v.round()).abs() < 1e-9 {
            format!("{}", v.round())
        } else {
            format!("{v:.2}")
        }
    };
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(p.x.label)
        .y_desc(p.y.label)
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .label_style(("sans-serif", 13))
        .axis_desc_style(("sans-serif", 14))
        .draw()?;
    let (dx, dy) = ((x1 - x0) / cols as f64, (y1 - y0) / rows as f64);
    let grey = RGBColor(200, 200, 200);
    chart.draw_series((0..rows).flat_map(|r| {
        (0..cols).map(move |c| {
            let v = p.values[r * cols + c];
            let color = if v.is_nan() {
                grey.to_rgba()
            } else {
                ViridisRGB::get_color(((v - lo) / (hi - lo)).clamp(0.0, 1.0)).to_rgba()
            };
            let x = x0 + c as f64 * dx;
            let y = y0 + r as f64 * dy;
            Rectangle::new([(x, y), (x + dx, y + dy)], color.filled())
        })
    }))?;
    for &b in p.boundaries {
        let x = x0 + b as f64 * dx;
        let y = y0 + b as f64 * dy;
        chart.draw_series([
            PathElement::new([(x, y0), (x, y1)], WHITE.stroke_width(2)),
            PathElement::new([(x0, y), (x1, y)], WHITE.stroke_width(2)),
        ])?;
    }
    for &(x, y, label) in p.marks {
        // Labels of points on the right half go to their left.
        let right = x > 0.5 * (x0 + x1);
        let anchor = Pos::new(if right { HPos::Right } else { HPos::Left }, VPos::Center);
        let dx_label = if right { -0.025 } else { 0.025 } * (x1 - x0);
        // ... and towards the middle, vertically, off the plot's edge.
        let (ylo, yhi) = (y0.min(y1), y0.max(y1));
        let y_label = y.clamp(ylo + 0.04 * (yhi - ylo), yhi - 0.04 * (yhi - ylo));
        chart.draw_series([Circle::new((x, y), 5, RED.filled())])?;
        chart.draw_series([Text::new(
            label.to_string(),
            (x + dx_label, y_label),
            ("sans-serif", 15).into_font().color(&WHITE).pos(anchor),
        )])?;
    }
    for &(x, y, label) in p.texts {
        let anchor = Pos::new(HPos::Center, VPos::Center);
        chart.draw_series([Text::new(
            label.to_string(),
            (x, y),
            ("sans-serif", 16).into_font().color(&BLACK).pos(anchor),
        )])?;
    }
    Ok(())
}

fn colour_bar<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    (lo, hi): (f64, f64),
    label: &str,
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    // The bar on the left of the area, its ticks and label drawn to its right.
    let (w, h) = area.dim_in_pixel();
    let (top, bottom, left, bar_w) = (50i32, h as i32 - 60, 10i32, 22i32);
    let steps = 200;
    for k in 0..steps {
        let color = ViridisRGB::get_color((k as f64 + 0.5) / steps as f64);
        let y = |k: i32| bottom - (bottom - top) * k / steps;
        area.draw(&Rectangle::new(
            [(left, y(k + 1)), (left + bar_w, y(k))],
            color.filled(),
        ))?;
    }
    area.draw(&Rectangle::new(
        [(left, top), (left + bar_w, bottom)],
        BLACK,
    ))?;
    let step = nice_step((hi - lo) / 5.0);
    let mut t = (lo / step).ceil() * step;
    let text = ("sans-serif", 13).into_font().color(&BLACK);
    while t <= hi + 1e-9 * step {
        let y = bottom - ((t - lo) / (hi - lo) * (bottom - top) as f64).round() as i32;
        area.draw(&PathElement::new(
            [(left + bar_w, y), (left + bar_w + 5, y)],
            BLACK,
        ))?;
        let digits = (-step.log10().floor()).max(0.0) as usize;
        area.draw(&Text::new(
            format!("{t:.digits$}"),
            (left + bar_w + 8, y),
            text.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        t += step;
    }
    let desc = ("sans-serif", 14)
        .into_font()
        .transform(FontTransform::Rotate90)
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    area.draw(&Text::new(
        label.to_string(),
        (w as i32 - 22, (top + bottom) / 2),
        desc,
    ))?;
    Ok(())
}

/// 1, 2 or 5 times a power of ten, at least `x`.
fn nice_step(x: f64) -> f64 {
    let p = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|&s| s >= x * 0.999)
        .unwrap_or(10.0 * p)
}

/// One panel of [`bars`]: a group of bars per category, one bar per series.
pub struct Bars<'a> {
    /// Panel title.
    pub title: &'a str,
    /// Category names (groups), left to right.
    pub categories: &'a [&'a str],
    /// `(legend, one value per category)`.
    pub series: &'a [(&'a str, Vec<f64>)],
    /// Vertical axis label.
    pub y_label: &'a str,
    /// Logarithmic vertical axis (values must be positive).
    pub log: bool,
    /// Where the legend goes.
    pub legend: SeriesLabelPosition,
}

/// Grouped bar charts side by side, each panel `panel_px`; written to `path` (PNG).
pub fn bars(
    path: &PathBuf,
    title: &str,
    panels: &[Bars],
    panel_px: (u32, u32),
) -> Result<(), Box<dyn std::error::Error>> {
    fonts();
    let size = (panel_px.0 * panels.len() as u32, panel_px.1 + 40);
    let root = BitMapBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE)?;
    let titled = root.titled(title, ("sans-serif", 24))?;
    for (area, p) in titled.split_evenly((1, panels.len())).iter().zip(panels) {
        let values = p.series.iter().flat_map(|s| s.1.iter().copied());
        let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
        let n = p.categories.len();
        let width = 0.8 / p.series.len() as f64;
        let rect = |k: usize, i: usize, base: f64, v: f64| {
            let x = i as f64 + 0.1 + k as f64 * width;
            Rectangle::new(
                [(x, base), (x + width, v)],
                PALETTE[k % PALETTE.len()].filled(),
            )
        };
        let label_y;
        if p.log {
            // A decade of room under the smallest bar when it sits near one.
            let mut l = 10f64.powf(lo.log10().floor());
            if lo < 2.0 * l {
                l /= 10.0;
            }
            let h = 10f64.powf(hi.log10().ceil());
            let mut chart = ChartBuilder::on(area)
                .caption(p.title, ("sans-serif", 18))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(70)
                .build_cartesian_2d(0.0..n as f64, (l..h).log_scale())?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(0)
                .y_desc(p.y_label)
                .y_label_formatter(&|y| format!("{y:.0e}"))
                .label_style(("sans-serif", 13))
                .axis_desc_style(("sans-serif", 14))
                .draw()?;
            for (k, s) in p.series.iter().enumerate() {
                let color = PALETTE[k % PALETTE.len()];
                chart
                    .draw_series(s.1.iter().enumerate().map(|(i, &v)| rect(k, i, l, v)))?
                    .label(s.0)
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 6), (x + 16, y + 6)], color.filled())
                    });
            }
            chart
                .configure_series_labels()
                .position(p.legend.clone())
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .label_font(("sans-serif", 14))
                .draw()?;
            label_y = (0..n)
                .map(|i| chart.backend_coord(&(i as f64 + 0.5, l)))
                .collect::<Vec<_>>();
        } else {
            // Room for the legend on its side.
            let room = 0.3 * (hi.max(0.0) - lo.min(0.0)).max(1e-12);
            let (l, h) = match p.legend {
                SeriesLabelPosition::LowerLeft
                | SeriesLabelPosition::LowerMiddle
                | SeriesLabelPosition::LowerRight => (lo.min(0.0) - room, hi.max(0.0)),
                _ => (lo.min(0.0), hi.max(0.0) + room),
            };
            let pad = 0.05 * (h - l);
            let mut chart = ChartBuilder::on(area)
                .caption(p.title, ("sans-serif", 18))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(70)
                .build_cartesian_2d(
                    0.0..n as f64,
                    (l - if l < 0.0 { pad } else { 0.0 })..(h + pad),
                )?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(0)
                .y_desc(p.y_label)
                .label_style(("sans-serif", 13))
                .axis_desc_style(("sans-serif", 14))
                .draw()?;
            for (k, s) in p.series.iter().enumerate() {
                let color = PALETTE[k % PALETTE.len()];
                chart
                    .draw_series(s.1.iter().enumerate().map(|(i, &v)| rect(k, i, 0.0, v)))?
                    .label(s.0)
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 6), (x + 16, y + 6)], color.filled())
                    });
            }
            chart.draw_series([PathElement::new([(0.0, 0.0), (n as f64, 0.0)], BLACK)])?;
            chart
                .configure_series_labels()
                .position(p.legend.clone())
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .label_font(("sans-serif", 14))
                .draw()?;
            label_y = (0..n)
                .map(|i| {
                    chart.backend_coord(&(i as f64 + 0.5, l - if l < 0.0 { pad } else { 0.0 }))
                })
                .collect::<Vec<_>>();
        }
        for (name, (x, y)) in p.categories.iter().zip(label_y) {
            let style = ("sans-serif", 14)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Top));
            root.draw(&Text::new(name.to_string(), (x, y + 8), style))?;
        }
    }
    root.present()?;
    Ok(())
}

/// One line of [`styled_lines`]: a legend, the points, a colour (index into
/// [`PALETTE`]) and solid or dashed.
pub struct Styled<'a> {
    /// Legend text.
    pub label: &'a str,
    /// The points.
    pub points: Vec<(f64, f64)>,
    /// Colour index into [`PALETTE`] (wrapping).
    pub color: usize,
    /// Dashed instead of solid.
    pub dashed: bool,
}

/// Distinct colours on white (Tableau 10's first six).
pub const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// A line plot of `series` (colours and dashes chosen by the caller), with
/// horizontal reference lines `(y, label)` (black, dotted); written to
/// `path` (PNG, 900 x 540).
/// Where a legend goes so that it covers no data: the first corner of the
/// plotting area (upper left, upper right, lower right, lower left) whose
/// legend box holds no point of `lines` (sampled along each segment), with
/// the y range to draw; when every corner is taken, the upper right with
/// the y range raised so that the box sits above the data.
///
/// `x` and `y`: the data ranges the chart is built on; `plot_px`: the
/// plotting area's size in pixels; `labels` and `font` (px): the legend's
/// entries, for its size as plotters lays it out (a 30 px key, 10 px
/// margins, 5 px from the corner).
pub fn legend_corner(
    lines: &[&[(f64, f64)]],
    x: (f64, f64),
    y: (f64, f64),
    plot_px: (f64, f64),
    labels: &[&str],
    font: f64,
) -> (SeriesLabelPosition, (f64, f64)) {
    fonts();
    let text = ("sans-serif", font).into_font();
    let widest = labels
        .iter()
        .map(|l| {
            text.box_size(l)
                .map_or(0.7 * font * l.len() as f64, |b| f64::from(b.0))
        })
        .fold(0.0, f64::max);
    // The box, its 5 px offset and 8 px of clearance.
    let w = widest + 30.0 + 20.0 + 5.0 + 8.0;
    let h = 1.3 * font * labels.len() as f64 + 20.0 + 5.0 + 8.0;
    let (fw, fh) = ((w / plot_px.0).min(1.0), (h / plot_px.1).min(1.0));
    let (dx, dy) = (x.1 - x.0, y.1 - y.0);
    let samples: Vec<(f64, f64)> = lines
        .iter()
        .flat_map(|l| {
            l.windows(2).flat_map(|p| {
                (0..=16).map(move |k| {
                    let t = f64::from(k) / 16.0;
                    (
                        p[0].0 + t * (p[1].0 - p[0].0),
                        p[0].1 + t * (p[1].1 - p[0].1),
                    )
                })
            })
        })
        .map(|(px, py)| ((px - x.0) / dx, (py - y.0) / dy))
        .collect();
    let corners = [
        (SeriesLabelPosition::UpperLeft, false, true),
        (SeriesLabelPosition::UpperRight, true, true),
        (SeriesLabelPosition::LowerRight, true, false),
        (SeriesLabelPosition::LowerLeft, false, false),
    ];
    for (position, right, upper) in corners {
        let inside = |&(u, v): &(f64, f64)| {
            let in_x = if right { u >= 1.0 - fw } else { u <= fw };
            let in_y = if upper { v >= 1.0 - fh } else { v <= fh };
            in_x && in_y
        };
        if !samples.iter().any(inside) {
            return (position, y);
        }
    }
    // Headroom: the data in the lower 1 - fh of the raised range.
    let top = y.0 + dy / (1.0 - fh.min(0.6));
    (SeriesLabelPosition::UpperRight, (y.0, top))
}

pub fn styled_lines(
    path: &PathBuf,
    title: &str,
    (x_label, y_label): (&str, &str),
    series: &[Styled],
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
    // The legend in a corner the lines leave free (the plotting area is the
    // picture less the margins, the label areas and the caption).
    let reference_lines: Vec<[(f64, f64); 2]> = references
        .iter()
        .map(|&(y, _)| [(x0, y), (x1, y)])
        .collect();
    let lines: Vec<&[(f64, f64)]> = series
        .iter()
        .map(|s| s.points.as_slice())
        .chain(reference_lines.iter().map(|l| l.as_slice()))
        .collect();
    let labels: Vec<&str> = series
        .iter()
        .map(|s| s.label)
        .chain(references.iter().map(|r| r.1))
        .collect();
    let (corner, (lo, hi)) = legend_corner(
        &lines,
        (x0, x1),
        (y0 - pad, y1 + pad),
        (900.0 - 24.0 - 70.0, 540.0 - 24.0 - 45.0 - 32.0),
        &labels,
        14.0,
    );
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1, lo..hi)?;
    // No light mesh lines: the PNG stays small.
    chart
        .configure_mesh()
        .max_light_lines(0)
        .x_desc(x_label)
        .y_desc(y_label)
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 15))
        .draw()?;
    for s in series {
        let style = PALETTE[s.color % PALETTE.len()].stroke_width(2);
        if s.dashed {
            chart
                .draw_series(DashedLineSeries::new(s.points.clone(), 8, 5, style))?
                .label(s.label)
                .legend(move |(x, y)| {
                    EmptyElement::at((x, y))
                        + PathElement::new([(0, 0), (8, 0)], style)
                        + PathElement::new([(13, 0), (21, 0)], style)
                });
        } else {
            chart
                .draw_series(LineSeries::new(s.points.clone(), style))?
                .label(s.label)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 21, y)], style));
        }
    }
    for &(y, label) in references {
        let style = BLACK.stroke_width(2);
        chart
            .draw_series(DashedLineSeries::new([(x0, y), (x1, y)], 2, 4, style))?
            .label(label)
            .legend(move |(x, y)| {
                EmptyElement::at((x, y))
                    + PathElement::new([(0, 0), (3, 0)], style)
                    + PathElement::new([(9, 0), (12, 0)], style)
                    + PathElement::new([(18, 0), (21, 0)], style)
            });
    }
    chart
        .configure_series_labels()
        .position(corner)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()?;
    root.present()?;
    Ok(())
}
