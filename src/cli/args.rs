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
