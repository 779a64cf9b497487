//! `stats --svg/--png`: the depth histogram as a plot with axes, labels and a title, drawn by
//! plotters. Text is rendered by ab_glyph (pure Rust, no fontconfig or freetype) from a TrueType
//! font read at run time: `$NPUZZLE_FONT`, else the first of [`SYSTEM_FONTS`] that exists. No
//! font is embedded: a font crate would pin a new compiler and add a font licence to the
//! binary's, for a feature most runs never use.

use std::path::Path;
use std::sync::OnceLock;

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

/// Where common systems keep a sans-serif TrueType font (Debian/Ubuntu, Fedora, Arch, Alpine,
/// macOS), tried in order when `$NPUZZLE_FONT` is not set.
pub const SYSTEM_FONTS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
    "/Library/Fonts/Arial.ttf",
];

/// Reads the plot font: `$NPUZZLE_FONT`, else the first of [`SYSTEM_FONTS`] that exists.
fn find_font() -> Result<Vec<u8>, String> {
    if let Some(path) = std::env::var_os("NPUZZLE_FONT") {
        return std::fs::read(&path).map_err(|e| {
            format!(
                "cannot read the plot font {} (NPUZZLE_FONT): {e}",
                Path::new(&path).display()
            )
        });
    }
    SYSTEM_FONTS
        .iter()
        .find_map(|path| std::fs::read(path).ok())
        .ok_or_else(|| {
            "no font for the plot's labels: install DejaVu Sans (e.g. the fonts-dejavu-core \
             package) or set NPUZZLE_FONT to a .ttf file"
                .to_string()
        })
}

/// Makes the plot font the plots' `sans-serif`, once per run (plotters keeps fonts for the
/// life of the process, so the bytes are leaked once).
fn register_font() -> Result<(), String> {
    static RESULT: OnceLock<Result<(), String>> = OnceLock::new();
    RESULT
        .get_or_init(|| {
            let bytes: &'static [u8] = Vec::leak(find_font()?);
            plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
                .map_err(|_| "the plot font could not be loaded (not a TrueType font?)".to_string())
        })
        .clone()
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
