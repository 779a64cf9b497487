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
    /// Check another solver's answers (CSV with a header, or JSON lines) against the exact distances
    ///
    /// Each line claims an answer for `start` (and `goal`, by default --goal or 1..n with the
    /// blank last): `moves` (U D L R, any case, separators allowed; `-` for none), or `path`
    /// (states separated by `;` or `|`), or only `length`, or `unsolvable` (true/false). An
    /// empty CSV field or an absent JSON field is no claim.
    ///
    /// Verdicts: optimal, suboptimal, illegal-move, wrong-end, wrong-length, false-unsolvable,
    /// false-solution, malformed, correct-unsolvable. Exit codes: 0 every answer is optimal or
    /// rightly unsolvable (with --allow-suboptimal: legal and at the goal), 1 some are not,
    /// 2 the file cannot be read.
    Verify(VerifyArgs),
    /// Generate test instances for other solvers, reproducibly from a seed
    ///
    /// Starts are drawn uniformly among the states whose exact distance to the goal lies in the
    /// chosen depths (every solvable state by default); unsolvable instances are drawn starts
    /// with two tiles swapped. Output: CSV `start,goal` (plus `distance` with --with-answers:
    /// the exact distance, or the word `unsolvable`), or the same fields as JSON lines. The same
    /// seed and options print the same instances on every machine.
    Sample(SampleArgs),
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

/// Output forms of `verify`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VerifyFormat {
    /// Counts per verdict, the worst lines first, and the time taken
    #[default]
    Summary,
    /// One JSON object per answer: line, verdict, exact, claimed, detail (and step or by)
    Jsonl,
}

/// Arguments of `verify` (the command's help is on [`Command::Verify`]).
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The answers: CSV with a header naming `start` and claim columns, or JSON lines; - reads stdin
    #[arg(value_name = "FILE", allow_hyphen_values = true)]
    pub file: String,

    #[command(flatten)]
    pub goal: GoalArgs,

    /// Let suboptimal answers pass: legal and reaching the goal is enough
    #[arg(long)]
    pub allow_suboptimal: bool,

    /// Output form
    #[arg(long, short, value_enum, default_value_t = VerifyFormat::Summary)]
    pub format: VerifyFormat,

    /// How many of the worst lines the summary lists
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub worst: usize,
}

/// Output forms of `sample`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SampleFormat {
    /// A header `start,goal` (plus `distance` with --with-answers), then one row per instance
    #[default]
    Csv,
    /// One JSON object per instance: start, goal (and distance)
    Jsonl,
}

/// Arguments of `sample` (the command's help is on [`Command::Sample`]).
#[derive(Args, Debug)]
pub struct SampleArgs {
    /// How many instances
    #[arg(long, short = 'n', value_name = "N", default_value_t = 10)]
    pub count: u64,

    /// The seed; without it one is chosen and printed on stderr
    #[arg(long, short, value_name = "S")]
    pub seed: Option<u64>,

    #[command(flatten)]
    pub goal: GoalArgs,

    /// Draw only states at exactly this distance from the goal
    #[arg(long, value_name = "D", conflicts_with_all = ["min_depth", "max_depth"])]
    pub depth: Option<u8>,

    /// Draw only states at least this far from the goal
    #[arg(long, value_name = "A")]
    pub min_depth: Option<u8>,

    /// Draw only states at most this far from the goal
    #[arg(long, value_name = "B")]
    pub max_depth: Option<u8>,

    /// How many of the instances have no solution (placed at random)
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub unsolvable: u64,

    /// Add the exact distance (or `unsolvable`) to each instance
    #[arg(long)]
    pub with_answers: bool,

    /// Output form
    #[arg(long, short, value_enum, default_value_t = SampleFormat::Csv)]
    pub format: SampleFormat,
}
