//! `stats --svg/--png`: the depth histogram as a plot with axes, labels and a title, drawn by
//! plotters. Text is rendered by ab_glyph from a font embedded in the binary, so plotting
//! needs no system font libraries.

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;

/// What a plot shows.
pub struct PlotData<'a> {
    /// The title's first line names the goal.
    pub title: String,
    /// States at each depth `0..=max`.
    pub counts: &'a [u64],
}

/// Pixels of every plot.
const SIZE: (u32, u32) = (1000, 600);

/// Draws `data` as an SVG file at `path`.
///
/// # Errors
/// The one-line reason the plot could not be drawn or written.
pub fn write_svg(path: &Path, data: &PlotData) -> Result<(), String> {
    register_font()?;
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    draw(&root, data).map_err(|e| format!("cannot draw {}: {e}", path.display()))
}

/// Draws `data` as a PNG file at `path`. The caller checks the name first with
/// [`check_png_name`], before anything is drawn.
///
/// # Errors
/// The one-line reason the plot could not be drawn or written.
pub fn write_png(path: &Path, data: &PlotData) -> Result<(), String> {
    register_font()?;
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    draw(&root, data).map_err(|e| format!("cannot draw {}: {e}", path.display()))
}

/// Refuses a `--png` name without the `.png` extension: the bitmap encoder picks the image
/// format from the extension, and its nested error would not say so plainly.
///
/// # Errors
/// The one-line reason.
pub fn check_png_name(path: &Path) -> Result<(), String> {
    let is_png = path
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("png"));
    if is_png {
        Ok(())
    } else {
        Err(format!(
            "cannot draw {}: --png needs a file name ending in .png",
            path.display()
        ))
    }
}

/// Creates (or truncates) the plot's file, so that a missing folder or a missing permission
/// is reported as the system says it, before anything is drawn (the drawing backends wrap
/// such errors in their own debug text).
///
/// # Errors
/// The one-line reason the file cannot be written.
pub fn check_writable(path: &Path) -> Result<(), String> {
    std::fs::File::create(path)
        .map(drop)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Makes the embedded font the plots' `sans-serif`, once per run.
fn register_font() -> Result<(), String> {
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| {
        result = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            epaint_default_fonts::UBUNTU_LIGHT,
        )
        .map_err(|_| "the embedded plot font could not be loaded".to_string());
    });
    result
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &PlotData,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let max_depth = data.counts.len().saturating_sub(1) as u32;
    let top = data.counts.iter().copied().max().unwrap_or(1).max(1);
    let mut chart = ChartBuilder::on(root)
        .caption(&data.title, ("sans-serif", 26))
        .margin(20)
        .x_label_area_size(56)
        .y_label_area_size(84)
        .build_cartesian_2d((0u32..max_depth).into_segmented(), 0u64..top + top / 10)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("depth: moves to the goal")
        .y_desc("states")
        .x_labels(max_depth as usize + 1)
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(d) | SegmentValue::Exact(d) => d.to_string(),
            SegmentValue::Last => String::new(),
        })
        .axis_desc_style(("sans-serif", 20))
        .label_style(("sans-serif", 15))
        .draw()?;
    chart.draw_series(
        Histogram::vertical(&chart)
            .style(RGBColor(52, 101, 164).filled())
            .margin(2)
            .data(
                data.counts
                    .iter()
                    .enumerate()
                    .map(|(depth, &count)| (depth as u32, count)),
            ),
    )?;
    root.present()?;
    Ok(())
}
