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

/// Pixels between the plot's edge and its contents, and the widths given to the axis labels.
const MARGIN: u32 = 20;
const Y_LABEL_AREA: u32 = 84;
/// Label text size, and the widest a digit of it is drawn (DejaVu Sans: 0.64 em; a little over
/// for other fonts): the step between depth labels comes from it.
const LABEL_SIZE: f64 = 15.0;
const DIGIT_WIDTH: f64 = 0.66 * LABEL_SIZE;
/// The least space between two depth labels, in pixels.
const LABEL_GAP: f64 = 4.0;

/// Every how many depths a label is written so that neighbouring labels never touch: 1 on
/// small boards, more where the segments are narrower than a label (54 depths on 4x3).
fn depth_label_step(depths: u32) -> u32 {
    let plot_width = f64::from(SIZE.0 - 2 * MARGIN - Y_LABEL_AREA);
    let segment = plot_width / f64::from(depths.max(1));
    let widest = (depths.saturating_sub(1)).to_string().len() as f64 * DIGIT_WIDTH;
    [1, 2, 5, 10, 20, 50]
        .into_iter()
        .find(|&step| segment * f64::from(step) >= widest + LABEL_GAP)
        .unwrap_or(100)
}

/// The counts' axis: in millions where the counts reach millions (8-digit labels are hard to
/// read), else as they are. Gives the axis's name and the label of a count.
fn count_axis(top: u64) -> (&'static str, fn(&u64) -> String) {
    if top >= 1_000_000 {
        ("states (millions)", |v| {
            let millions = *v as f64 / 1e6;
            let text = format!("{millions:.1}");
            text.strip_suffix(".0").unwrap_or(&text).to_string()
        })
    } else {
        ("states", |v| v.to_string())
    }
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &PlotData,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let max_depth = u32::try_from(data.counts.len().saturating_sub(1)).expect("depths are bytes");
    let top = data.counts.iter().copied().max().unwrap_or(1).max(1);
    let step = depth_label_step(max_depth + 1);
    let (count_name, count_label) = count_axis(top);
    let mut chart = ChartBuilder::on(root)
        .caption(&data.title, ("sans-serif", 26))
        .margin(MARGIN)
        .x_label_area_size(56)
        .y_label_area_size(Y_LABEL_AREA)
        .build_cartesian_2d((0u32..max_depth).into_segmented(), 0u64..top + top / 10)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(if step == 1 {
            "depth: moves to the goal".to_string()
        } else {
            format!("depth: moves to the goal (a label every {step} moves)")
        })
        .y_desc(count_name)
        .x_labels(max_depth as usize + 1)
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(d) | SegmentValue::Exact(d) if d % step == 0 => d.to_string(),
            _ => String::new(),
        })
        .y_label_formatter(&count_label)
        .axis_desc_style(("sans-serif", 20))
        .label_style(("sans-serif", LABEL_SIZE))
        .draw()?;
    chart.draw_series(
        Histogram::vertical(&chart)
            .style(RGBColor(52, 101, 164).filled())
            .margin(2)
            .data(
                data.counts
                    .iter()
                    .zip(0u32..)
                    .map(|(&count, depth)| (depth, count)),
            ),
    )?;
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 4x3 board's depth histogram (OEIS A090166, as tests/published_histograms.rs pins
    /// it): 54 depths and counts up to 21,841,159, the widest labels any board's plot has.
    const FOUR_BY_THREE: &[u64] = &[
        1, 2, 4, 9, 20, 37, 63, 122, 232, 431, 781, 1392, 2494, 4442, 7854, 13899, 24215, 41802,
        71167, 119888, 198363, 323206, 515778, 811000, 1248011, 1885279, 2782396, 4009722, 5621354,
        7647872, 10065800, 12760413, 15570786, 18171606, 20299876, 21587248, 21841159, 20906905,
        18899357, 16058335, 12772603, 9515217, 6583181, 4242753, 2503873, 1350268, 643245, 270303,
        92311, 27116, 5390, 1115, 86, 18,
    ];

    /// A text of the SVG: its anchor point, size, anchoring, and what it says.
    struct Text {
        x: f64,
        y: f64,
        size: f64,
        anchor: String,
        rotated: bool,
        text: String,
    }

    fn attribute(tag: &str, name: &str) -> Option<String> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(tag[at..].split('"').next()?.to_string())
    }

    fn texts(svg: &str) -> Vec<Text> {
        svg.split("<text")
            .skip(1)
            .map(|chunk| {
                let (tag, rest) = chunk.split_once('>').expect("a text tag");
                let number = |name| {
                    attribute(tag, name)
                        .expect(name)
                        .parse::<f64>()
                        .expect(name)
                };
                Text {
                    x: number("x"),
                    y: number("y"),
                    // The SVG backend writes plotters' size divided by 1.24.
                    size: number("font-size") * 1.24,
                    anchor: attribute(tag, "text-anchor").unwrap_or_default(),
                    rotated: attribute(tag, "transform").is_some(),
                    text: rest
                        .split("</text>")
                        .next()
                        .unwrap_or("")
                        .trim()
                        .to_string(),
                }
            })
            .collect()
    }

    /// The drawn width of a label: DejaVu Sans digits are 0.64 em; 0.66 leaves room for rounding.
    fn width(text: &Text) -> f64 {
        text.text.chars().count() as f64 * 0.66 * text.size
    }

    #[test]
    fn depths_are_labelled_one_by_one_where_there_is_room() {
        assert_eq!(depth_label_step(32), 1, "3x3: 32 depths");
        assert!(depth_label_step(54) > 1, "4x3: 54 depths");
        assert!(depth_label_step(81) > 1, "6x2: 81 depths");
    }

    #[test]
    fn the_labels_of_the_4x3_plot_do_not_overlap() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("4x3.svg");
        let data = PlotData {
            title: "Distances to goal 1,2,3,4,5,6,7,8,9,10,11,0 (4x3 board, 239500800 states)"
                .into(),
            counts: FOUR_BY_THREE,
        };
        write_svg(&path, &data).expect("the plot is drawn");
        if let Some(png) = std::env::var_os("NPUZZLE_PLOT_OUT") {
            // To look at it: NPUZZLE_PLOT_OUT=/tmp/4x3.png cargo test --bin npuzzle stats_plot
            write_png(Path::new(&png), &data).expect("the PNG is drawn");
        }
        let svg = std::fs::read_to_string(&path).expect("the SVG is written");
        let texts = texts(&svg);
        let labels = |pick: &dyn Fn(&Text) -> bool| -> Vec<&Text> {
            texts
                .iter()
                .filter(|t| !t.text.is_empty() && pick(t))
                .collect()
        };
        // The depth labels: centred under the bars, on one line, left to right.
        let bottom = texts
            .iter()
            .filter(|t| t.anchor == "middle" && !t.rotated && t.text == "0")
            .map(|t| t.y)
            .next()
            .expect("a depth label 0");
        let mut depths = labels(&|t| t.anchor == "middle" && !t.rotated && t.y == bottom);
        depths.sort_by(|a, b| a.x.total_cmp(&b.x));
        assert!(depths.len() >= 5, "depth labels: {}", depths.len());
        for pair in depths.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let room = b.x - a.x;
            let needed = (width(a) + width(b)) / 2.0;
            assert!(
                room >= needed,
                "depth labels {} and {} overlap: {room:.1} px apart, {needed:.1} px wide",
                a.text,
                b.text
            );
        }
        // The count labels: right-aligned against the axis, one above another, clear of the
        // axis's name on their left.
        let mut counts = labels(&|t| t.anchor == "end" && !t.rotated);
        counts.sort_by(|a, b| a.y.total_cmp(&b.y));
        assert!(counts.len() >= 3, "count labels: {}", counts.len());
        for pair in counts.windows(2) {
            assert!(
                pair[1].y - pair[0].y >= pair[0].size,
                "count labels {} and {} overlap",
                pair[0].text,
                pair[1].text
            );
        }
        let name = texts
            .iter()
            .find(|t| t.rotated)
            .expect("the counts' axis is named");
        for label in &counts {
            // The name is turned on its side: its width is one line of text centred on x.
            assert!(
                label.x - width(label) >= name.x + name.size / 2.0,
                "count label {} overlaps the axis name {}",
                label.text,
                name.text
            );
        }
    }
}
