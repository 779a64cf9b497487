//! `npuzzle stats`: how the states of a goal's table spread over distances, from the header's
//! depth counts, with the states at the maximum depth found by scanning the body.

use std::io::Write;

use npuzzle::answer::AnswerError;
use npuzzle::store::file::TableBytes;
use npuzzle::{Metric, State, Table};
use serde::Serialize;

use super::args::{StatsArgs, StatsFormat};
use super::input::goal_or_default;
use super::stats_plot::{self, PlotData};
use super::{CommandResult, Context, Failure};

/// States at the maximum depth are listed in full up to this many.
pub const MAX_LISTED: usize = 20;
/// Width of the longest bar of the terminal histogram, in characters.
const BAR_WIDTH: usize = 50;

/// The figures `stats` prints, in the user's own tile labels.
pub struct Stats {
    /// How the distances count moves.
    pub metric: Metric,
    /// The goal asked for.
    pub goal: State,
    /// The canonical goal whose table holds the counts (same distribution).
    pub table_goal: State,
    /// States at each depth.
    pub counts: Vec<u64>,
    /// All states reaching the goal.
    pub total: u64,
    /// The average distance.
    pub mean: f64,
    /// The states at the maximum depth, at most [`MAX_LISTED`] of them, sorted.
    pub farthest: Vec<State>,
}

impl Stats {
    /// The largest distance.
    pub fn max_depth(&self) -> usize {
        self.counts.len() - 1
    }

    /// How many states lie at the largest distance.
    pub fn farthest_count(&self) -> u64 {
        *self.counts.last().expect("a table has depth 0")
    }
}

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
    let stats = compute(&goal, npuzzle::Metric::from(args.metric), context)?;
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

/// Reads the counts from the goal's table in `metric` and finds the farthest states.
pub fn compute(goal: &State, metric: Metric, context: &mut Context) -> Result<Stats, Failure> {
    let oracle = context.oracle();
    match metric {
        Metric::Stm => {
            let table = oracle
                .table(goal)?
                .ok_or_else(|| Context::no_table(goal.board()))?;
            from_table(table, goal, metric)
        }
        Metric::Mtm => {
            let table = oracle
                .mtm_table(goal)?
                .ok_or_else(|| Context::no_table(goal.board()))?;
            from_table(table.table(), goal, metric)
        }
    }
}

/// The counts of `table` (in `metric`) and its farthest states in `goal`'s labels.
fn from_table(table: &Table<TableBytes>, goal: &State, metric: Metric) -> Result<Stats, Failure> {
    let header = table.header();
    let counts = header.counts.clone();
    let total: u64 = counts.iter().sum();
    let weighted: u64 = counts.iter().enumerate().map(|(d, &c)| d as u64 * c).sum();
    let class = table.goal().parity_class();
    let mut farthest: Vec<State> = table
        .entries()
        .map_err(AnswerError::from)?
        .iter()
        .enumerate()
        .filter(|&(_, &d)| d == header.max_depth)
        .take(MAX_LISTED)
        .map(|(index, _)| {
            let index = u32::try_from(index).expect("a table's ranks are u32");
            unlabel(&table.space().unrank(index, class), goal)
        })
        .collect();
    farthest.sort_by_key(|s| s.to_string());
    Ok(Stats {
        metric,
        goal: *goal,
        table_goal: *table.goal(),
        counts,
        total,
        mean: weighted as f64 / total as f64,
        farthest,
    })
}

/// The inverse of [`State::relabel_for`]: a state of the canonical table back in `goal`'s labels.
pub fn unlabel(canonical_state: &State, goal: &State) -> State {
    let canonical = State::canonical_goal(goal.board(), goal.blank());
    let mut back = [0u8; 32];
    for (&from, &to) in canonical.cells().iter().zip(goal.cells()) {
        back[from as usize] = to;
    }
    let tiles: Vec<u8> = canonical_state
        .cells()
        .iter()
        .map(|&t| back[t as usize])
        .collect();
    // A renaming of a permutation is a permutation of the same board.
    State::from_tiles(goal.board(), &tiles).expect("relabelling keeps a valid state")
}

fn write_text(stats: &Stats, out: &mut impl Write) -> std::io::Result<()> {
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
    pub fn new(stats: &Stats) -> StatsJson {
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
    fn unlabel_undoes_relabel_for() {
        let goal: State = "087654321".parse().unwrap();
        let start: State = "123456780".parse().unwrap();
        assert_eq!(unlabel(&start.relabel_for(&goal), &goal), start);
    }

    #[test]
    fn bars_are_proportional_and_never_hide_a_count() {
        assert_eq!(bar(0, 100).chars().count(), 0);
        assert_eq!(bar(1, 1_000_000).chars().count(), 1);
        assert_eq!(bar(100, 100).chars().count(), BAR_WIDTH);
        assert_eq!(bar(50, 100).chars().count(), BAR_WIDTH / 2);
    }
}
