//! The arguments, as clap derive types. Doc comments here are the `--help` text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Exact answers for sliding-tile puzzles: optimal distances and paths from a memory-mapped
/// table of every 8-puzzle state, search for larger boards, and checks of other solvers.
///
/// States are written row-major with 0, _ or . as the blank: 123456780, "1 2 3 4 5 6 7 8 0",
/// 1,2,3,4,5,6,7,8,0 or 123/456/780. Moves name the direction the blank moves: U D L R.
/// Exit codes: 0 ok, 1 a negative answer (unsolvable, wrong solutions, failed lines),
/// 2 malformed input or usage.
#[derive(Parser, Debug)]
#[command(name = "npuzzle", version, about, long_about)]
pub struct Cli {
    /// Directory holding the tables [default: the checkout's data/, else ~/.cache/npuzzle]
    #[arg(long, global = true, env = "NPUZZLE_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Build the exact table for a goal (or all nine 3x3 tables) and save it in the data directory
    Build(BuildArgs),
    /// Print the exact number of moves from START to the goal
    Distance(QueryArgs),
    /// Print an optimal solution from START to the goal
    Solve(SolveArgs),
    /// Answer many questions: one START or START,GOAL per line (or CSV / JSON lines) in, one row out
    Batch(BatchArgs),
    /// Show how the states spread over distances to a goal, with a histogram or a plot
    Stats(StatsArgs),
    /// Validate a table file and print what it holds
    Check(CheckArgs),
}

/// The goal and board options every query shares.
#[derive(Args, Debug, Clone, Default)]
pub struct GoalArgs {
    /// The goal state [default: 1..n row-major, blank last, e.g. 123456780]
    #[arg(long, short, value_name = "GOAL")]
    pub goal: Option<String>,

    /// The board as WxH when the cell count does not say it (e.g. 3x2)
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,
}

/// Arguments of `build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Build the table serving this goal (the canonical table with the same blank cell)
    #[arg(long, short, value_name = "GOAL", conflicts_with = "all")]
    pub goal: Option<String>,

    /// Build all nine 3x3 tables, one per blank cell: together they serve every goal
    #[arg(long)]
    pub all: bool,

    /// Worker threads for the generator [default: all cores]
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// Arguments of `distance`.
#[derive(Args, Debug)]
pub struct QueryArgs {
    /// The start state
    #[arg(value_name = "START", allow_hyphen_values = true)]
    pub start: String,

    #[command(flatten)]
    pub goal: GoalArgs,
}

/// Output forms of `solve`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SolveFormat {
    /// Each board along the path, with the step count
    #[default]
    Text,
    /// Only the move letters, e.g. LURD (an empty line when START is the goal)
    Moves,
    /// One JSON object: start, goal, distance, moves, path, algorithm, optimal
    Json,
}

/// Arguments of `solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The start state
    #[arg(value_name = "START", allow_hyphen_values = true)]
    pub start: String,

    #[command(flatten)]
    pub goal: GoalArgs,

    /// Output form
    #[arg(long, short, value_enum, default_value_t = SolveFormat::Text)]
    pub format: SolveFormat,
}

/// Output forms of `batch`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BatchFormat {
    /// A header line, then `start,goal,distance[,moves],error` per question
    #[default]
    Csv,
    /// One JSON object per line: start, goal, distance, [moves,] error
    Jsonl,
}

/// Arguments of `batch`.
#[derive(Args, Debug)]
pub struct BatchArgs {
    /// Input file, or `-` for standard input [default: standard input]
    ///
    /// One question per line: `START` or `START,GOAL`; blank lines and lines starting with `#`
    /// are skipped. A CSV file whose header names a `start` column (and optionally `goal`), or
    /// JSON lines with `start` (and optionally `goal`) fields, are recognised from the first line.
    #[arg(value_name = "FILE", allow_hyphen_values = true)]
    pub input: Option<PathBuf>,

    #[command(flatten)]
    pub goal: GoalArgs,

    /// Also write an optimal solution (the blank's moves) for every line
    #[arg(long)]
    pub solve: bool,

    /// Output form
    #[arg(long, short, value_enum, default_value_t = BatchFormat::Csv)]
    pub format: BatchFormat,

    /// Write the answers to FILE instead of standard output
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Worker threads [default: all cores]
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// Arguments of `stats`.
#[derive(Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    pub goal: GoalArgs,

    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,

    /// Also draw the depth histogram as an SVG plot in FILE
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,

    /// Also draw the depth histogram as a PNG plot in FILE
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
}

/// Arguments of `check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The table file [default: the data directory's table for the goal]
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// Also check every entry against its neighbours and recount the depths (slower)
    #[arg(long)]
    pub deep: bool,

    /// The goal the table must serve [default: 123456780]
    #[arg(long, short, value_name = "GOAL")]
    pub goal: Option<String>,
}
