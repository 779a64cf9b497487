//! `npuzzle stats`: how the states of a goal's table spread over distances, with the states
//! at the maximum depth ([`Oracle::depth_stats`](npuzzle::Oracle::depth_stats) computes them;
//! this file prints them as text, JSON and plots).

use std::io::Write;

use npuzzle::answer::DepthStats;
use npuzzle::Metric;
use serde::Serialize;

use super::args::{StatsArgs, StatsFormat};
use super::input::goal_or_default;
use super::stats_plot::{self, PlotData};
use super::{CommandResult, Context, Failure};

/// States at the maximum depth are listed in full up to this many.
pub const MAX_LISTED: usize = 20;
/// Width of the longest bar of the terminal histogram, in characters.
const BAR_WIDTH: usize = 50;

/// Prints the statistics, and draws the plots asked for.
pub fn run(args: &StatsArgs, context: &mut Context) -> CommandResult {
    let goal = goal_or_default(&args.goal)?;
    // Refused before anything is drawn, so that no plot is left half done.
    if let Some(path) = &args.png {
        stats_plot::check_png_name(path).map_err(Failure::usage)?;
    }
    for path in args.svg.iter().chain(&args.png) {
        stats_plot::check_writable(path).map_err(Failure::usage)?;
    }
    let stats =
        context
            .oracle()
            .depth_stats(&goal, npuzzle::Metric::from(args.metric), MAX_LISTED)?;
    let plot = PlotData {
        title: format!(
            "{}istances to goal {} ({} board, {} states)",
            match stats.metric {
                npuzzle::Metric::Stm => "D",
                npuzzle::Metric::Mtm => "MTM d",
            },
            stats.goal,
            stats.goal.board(),
            stats.total
        ),
        counts: &stats.counts,
    };
    if let Some(path) = &args.svg {
        stats_plot::write_svg(path, &plot).map_err(Failure::usage)?;
    }
    if let Some(path) = &args.png {
        stats_plot::write_png(path, &plot).map_err(Failure::usage)?;
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json || args.format == StatsFormat::Json {
        let json = StatsJson::new(&stats);
        if args.pretty {
            serde_json::to_writer_pretty(&mut out, &json).map_err(std::io::Error::from)?;
        } else {
            serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
        }
        writeln!(out)?;
    } else {
        write_text(&stats, &mut out)?;
    }
    out.flush()?;
    Ok(())
}

fn write_text(stats: &DepthStats, out: &mut impl Write) -> std::io::Result<()> {
    let goal = &stats.goal;
    write!(out, "goal {goal} ({} board)", goal.board())?;
    if stats.metric == Metric::Mtm {
        write!(out, ", multi-tile metric (MTM)")?;
    }
    if stats.table_goal != *goal && stats.metric == Metric::Stm {
        write!(
            out,
            ", counted on table {} (the same distribution, relabelled)",
            npuzzle::store::file::file_name(&stats.table_goal)
        )?;
    }
    writeln!(out)?;
    writeln!(out, "{}", indent(&goal.grid()))?;
    writeln!(out, "states:     {}", stats.total)?;
    writeln!(out, "mean depth: {:.4}", stats.mean)?;
    writeln!(
        out,
        "max depth:  {} ({} state{})",
        stats.max_depth(),
        stats.farthest_count(),
        if stats.farthest_count() == 1 { "" } else { "s" }
    )?;
    let shown =
        if stats.farthest_count() > u64::try_from(stats.farthest.len()).expect("a short list") {
            format!(" (the first {} by rank)", stats.farthest.len())
        } else {
            String::new()
        };
    writeln!(out, "states at depth {}{shown}:", stats.max_depth())?;
    for state in &stats.farthest {
        writeln!(out, "  {state}")?;
    }
    writeln!(out)?;
    writeln!(out, "depth  states     share")?;
    let top = stats.counts.iter().copied().max().unwrap_or(1).max(1);
    for (depth, &count) in stats.counts.iter().enumerate() {
        writeln!(
            out,
            "{depth:>5}  {count:>9}  {:>5.2}%  {}",
            100.0 * count as f64 / stats.total as f64,
            bar(count, top)
        )?;
    }
    Ok(())
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}\n"))
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// A bar of eighth blocks, `BAR_WIDTH` characters for `top`; any non-zero count shows.
fn bar(count: u64, top: u64) -> String {
    const EIGHTHS: [char; 8] = ['▏', '▎', '▍', '▌', '▋', '▊', '▉', '█'];
    let eighths = ((u128::from(count) * (BAR_WIDTH as u128 * 8)) / u128::from(top)) as usize;
    let eighths = if count > 0 { eighths.max(1) } else { 0 };
    let mut out = "█".repeat(eighths / 8);
    if eighths % 8 > 0 {
        out.push(EIGHTHS[eighths % 8 - 1]);
    }
    out
}

/// `stats --json`. Field names are stable.
#[derive(Serialize)]
pub struct StatsJson {
    /// The goal asked for.
    pub goal: String,
    /// Its board, `WxH`.
    pub board: String,
    /// The canonical goal whose table was counted (equal to `goal` for canonical goals).
    pub table_goal: String,
    /// States that reach the goal.
    pub total: u64,
    /// The largest distance.
    pub max_depth: usize,
    /// The average distance.
    pub mean_depth: f64,
    /// `counts[d]`: states at distance `d`.
    pub counts: Vec<u64>,
    /// States at the largest distance.
    pub max_depth_count: u64,
    /// Those states in the goal's labels: all of them when `max_depth_count` <= 20, else the
    /// first 20 by rank.
    pub max_depth_states: Vec<String>,
}

impl StatsJson {
    /// The JSON form of `stats`.
    pub fn new(stats: &DepthStats) -> StatsJson {
        StatsJson {
            goal: stats.goal.to_string(),
            board: stats.goal.board().to_string(),
            table_goal: stats.table_goal.to_string(),
            total: stats.total,
            max_depth: stats.max_depth(),
            mean_depth: stats.mean,
            counts: stats.counts.clone(),
            max_depth_count: stats.farthest_count(),
            max_depth_states: stats.farthest.iter().map(|s| s.to_string()).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_are_proportional_and_never_hide_a_count() {
        assert_eq!(bar(0, 100).chars().count(), 0);
        assert_eq!(bar(1, 1_000_000).chars().count(), 1);
        assert_eq!(bar(100, 100).chars().count(), BAR_WIDTH);
        assert_eq!(bar(50, 100).chars().count(), BAR_WIDTH / 2);
    }
}
