//! The arguments, as clap derive types. Doc comments here are the `--help` text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Exact answers for sliding-tile puzzles: optimal distances and paths from a memory-mapped
/// table of every 8-puzzle state, search for larger boards, and checks of other solvers.
///
/// States are written row-major with 0, _ or . as the blank: 123456780, "1 2 3 4 5 6 7 8 0",
/// 1,2,3,4,5,6,7,8,0 or 123/456/780. Moves name the direction the blank moves: U D L R.
/// Exit codes: 0 ok, 1 a negative answer (unsolvable, wrong solutions, failed lines),
/// 2 malformed input or usage, 141 the reader of the output went away before it was complete
/// (`| head`; silently, as `cat` ends there).
#[derive(Parser, Debug)]
#[command(
    name = "npuzzle",
    version,
    about,
    long_about,
    disable_help_subcommand = true
)]
pub struct Cli {
    /// Directory holding the tables, else $NPUZZLE_DATA_DIR [default: the checkout's data/,
    /// else the platform's cache: $XDG_CACHE_HOME/npuzzle or ~/.cache/npuzzle on Linux,
    /// ~/Library/Caches/npuzzle on macOS, %LOCALAPPDATA%\npuzzle on Windows]
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Build the exact table for a goal (or all of a board's tables) and save it in the data directory
    Build(BuildArgs),
    /// Print the exact number of moves from START to the goal
    Distance(QueryArgs),
    /// Print an optimal solution from START to the goal
    Solve(SolveArgs),
    /// Run every algorithm on one instance and print one row each: length, optimal?, nodes, time
    Compare(CompareArgs),
    /// Solve a file of instances optimally into a results file that survives restarts
    ///
    /// Each instance solved is checked (its moves replayed to the goal, its length against the
    /// published one where the file gives it) and appended at once as one tab-separated line:
    /// id, length, nodes generated, seconds, moves. A restart replays the results file and
    /// skips its instances; with --checkpoint-dir the instance in progress resumes where it
    /// was. For Korf and Felner's 24-puzzles (data/korf50_24.txt, blank first):
    /// `npuzzle build --pdb 5x5:6-6-6-6 --goal "0 1 ... 24"`, then `npuzzle solve-set
    /// data/korf50_24.txt --goal "0 1 ... 24" --results R --easiest-first --checkpoint-dir C`.
    /// Solved lines go to stdout, failures to stderr (one line each). Exit codes: 0 every
    /// instance asked for is solved, 1 some failed (reported, not appended), 2 unreadable
    /// files, a results line that does not check, or a search that cannot serve the set
    /// (greedy, --metric mtm, pattern databases named but missing).
    SolveSet(SolveSetArgs),
    /// Answer many questions: one START or START,GOAL per line (or CSV / JSON lines) in, one row out
    Batch(BatchArgs),
    /// Show how the states spread over distances to a goal, with a histogram or a plot
    Stats(StatsArgs),
    /// Validate a table file and print what it holds
    Check(CheckArgs),
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
    /// Serve a local web page (play with the exact distance shown) and a JSON API on 127.0.0.1
    ///
    /// Routes: GET /api/distance?start=S&goal=G, GET /api/solve?start=S&goal=G, POST
    /// /api/verify with {"start", "goal", "moves"}, GET /api/sample?depth=D&count=N&seed=X,
    /// GET /api/boards (the page's boards and what each gives: table, databases or search);
    /// `goal` is optional and `board=WxH` names the board, as on the command line, and
    /// `limit=` bounds a search (default 5s, at most 30s). Malformed input is 400, an
    /// unsolvable pair 422, a limit reached (or every search slot busy) 503, each with
    /// {"error": "..."}. The page is at /. Stops on Ctrl-C.
    Serve(ServeArgs),
    /// Play in the terminal with the exact distance shown after every move
    ///
    /// Keys: arrows or h/j/k/l move the blank (U D L R: the up arrow moves the blank up),
    /// `?` or `H` a hint (an optimal next move), `u` undo, `s` shuffle to an exact depth
    /// (`+`/`-` change it), `r` back to the start, `q` or Esc quit. On boards without a table
    /// the distance comes from a search within --limit; if it gives up, a lower bound is
    /// shown, labelled so. `--metric mtm` counts a slide of tiles as one move (the hint is a
    /// slide). Boards beyond 5x5 (`--board 10x10`, up to 64x64) show no distance, and their
    /// hint is the constructive solver's next move, labelled not optimal.
    Play(PlayArgs),
    /// Print a shell completion script for SHELL on standard output
    ///
    /// For example `npuzzle completions bash > ~/.local/share/bash-completion/completions/npuzzle`,
    /// or `npuzzle completions zsh > ~/.zfunc/_npuzzle`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff), or write every page (one per command) into a directory
    ///
    /// `npuzzle man > npuzzle.1; man ./npuzzle.1` shows the main page;
    /// `npuzzle man --dir ~/.local/share/man/man1` installs it with one page per command
    /// (`man npuzzle-solve`), and prints the paths written.
    Man(ManArgs),
    /// Print this help, or the help of COMMAND (the same as `npuzzle COMMAND --help`)
    Help(HelpArgs),
}

/// Arguments of `man`.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write every page (npuzzle.1, npuzzle-COMMAND.1) into DIR instead of printing the main page
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Arguments of `help`.
#[derive(Args, Debug)]
pub struct HelpArgs {
    /// The command whose help to print
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

/// Arguments of `completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// The goal and board options every query shares.
#[derive(Args, Debug, Clone, Default)]
pub struct GoalArgs {
    /// The goal state [default: 1..n row-major, blank last, e.g. 123456780]
    #[arg(long, short, value_name = "GOAL")]
    pub goal: Option<String>,

    /// The board as WxH when the cell count does not say it (e.g. 3x2, 4x3)
    #[arg(long, visible_alias = "board", value_name = "WxH")]
    pub size: Option<String>,
}

/// Arguments of `build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Build the table serving this goal (the canonical table with the same blank cell)
    #[arg(long, short, value_name = "GOAL", conflicts_with = "all")]
    pub goal: Option<String>,

    /// Build every table of the board (3x3 unless --board says otherwise), one per blank
    /// cell: together they serve every goal
    #[arg(long)]
    pub all: bool,

    /// The board as WxH: every board of at most 12 cells has tables (2x2 up to 3x4, 4x3, 2x6,
    /// 6x2); without --goal, the table of its default goal (blank last) is built
    #[arg(long, visible_alias = "board", value_name = "WxH")]
    pub size: Option<String>,

    /// Worker threads for the generator [default: all cores; at most 4 per core, at least 64,
    /// at most 1024]
    #[arg(long, value_name = "N", value_parser = super::threads::parse_threads)]
    pub threads: Option<usize>,

    /// Build the pattern databases of a partition instead of a table: 4x4:5-5-5, 4x4:6-6-3,
    /// 4x4:7-8 (minutes, about 2 GB of memory), 5x5:6-6-6-6 (minutes) or 5x5:7-7-7-3
    /// (for experiments, not used by solve: three 7-tile files of 1.2 GB, each about 15
    /// minutes on 2 cores with 7.3 GB of memory); for the goal of --goal (its blank in a corner) or the board's default
    /// goal. A build that needs more memory than the machine has available is refused
    /// before it starts
    #[arg(long, value_name = "PARTITION", conflicts_with = "all")]
    pub pdb: Option<String>,

    /// How the table's distances count moves: stm, or mtm (a slide of several tiles is one
    /// move), saved as mtm-<table's name>.npt and used by `--metric mtm` queries; MTM tables
    /// for every board of at most 12 cells (4x4's MTM pattern databases are built in memory
    /// on first use, not by --pdb)
    #[arg(long, value_enum, value_name = "METRIC", default_value_t = MetricArg::Stm, conflicts_with = "pdb")]
    pub metric: MetricArg,
}

/// Arguments of `distance`.
#[derive(Args, Debug)]
pub struct QueryArgs {
    /// The start state
    #[arg(value_name = "START")]
    pub start: String,

    #[command(flatten)]
    pub goal: GoalArgs,

    #[command(flatten)]
    pub search: SearchArgs,

    /// Output form
    #[arg(long, short, value_enum, default_value_t = DistanceFormat::Text)]
    pub format: DistanceFormat,
}

/// Output forms of `distance`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DistanceFormat {
    /// The number of moves alone
    #[default]
    Text,
    /// One JSON object: start, goal, distance (null when unsolvable), solvable, algorithm
    Json,
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
    #[arg(value_name = "START")]
    pub start: String,

    #[command(flatten)]
    pub goal: GoalArgs,

    /// Output form
    #[arg(long, short, value_enum, default_value_t = SolveFormat::Text)]
    pub format: SolveFormat,

    #[command(flatten)]
    pub search: SearchArgs,

    /// Also report nodes expanded and generated, the time, the length and whether it is optimal
    /// (compared with the exact table where one exists); JSON output always includes them
    #[arg(long)]
    pub stats: bool,

    /// Keep an IDA* search's progress in FILE (written atomically every few seconds: the
    /// bound and the finished subtrees of the current iteration); a solve started again with
    /// the same FILE resumes there. Ctrl-C or SIGTERM stops it cleanly, FILE then keeping
    /// the work inside the subtrees in progress too (exit 1). A damaged FILE, or one of
    /// another search, is refused (exit 2). Removed once the search is solved
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,

    /// A solution at most FACTOR times the optimum instead of an optimal one (e.g. 1.2:
    /// weighted IDA* on 4x4 and 5x5, guaranteed), or `none` for the constructive solver (rows
    /// and columns in turn: milliseconds on any board, no length guarantee). Boards beyond 5x5
    /// (up to 64x64) are always solved constructively. The output says which guarantee the
    /// solution carries: optimal, within FACTOR, or none
    #[arg(long, value_name = "FACTOR|none", value_parser = parse_within)]
    pub within: Option<npuzzle::Guarantee>,
}

/// Arguments of `solve-set`.
#[derive(Args, Debug)]
pub struct SolveSetArgs {
    /// The instance file: one instance a line, an id, the start's tiles row-major (0 the
    /// blank), then optionally the published optimal length and further numbers; `#` lines
    /// are comments
    #[arg(value_name = "INSTANCES")]
    pub instances: PathBuf,

    /// The results file (created if missing): one line per finished instance, appended as it
    /// is solved and checked
    #[arg(long, value_name = "FILE")]
    pub results: PathBuf,

    #[command(flatten)]
    pub goal: GoalArgs,

    /// Solve only these ids (comma-separated); the results file may hold any instance's
    /// lines, so runs over different subsets share one file
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub only: Vec<String>,

    /// Solve in the order of each line's last number (in Korf's files the published node
    /// count: easiest first) instead of the file's order
    #[arg(long)]
    pub easiest_first: bool,

    /// Keep each instance's checkpoint in DIR (ID.checkpoint, and the seconds of its runs in
    /// ID.seconds): a run stopped and started again resumes the instance in progress, and its
    /// results line counts the seconds of every run. Ctrl-C or SIGTERM stops the run cleanly,
    /// the checkpoint keeping the work inside the subtrees in progress too (exit 1)
    #[arg(long, value_name = "DIR")]
    pub checkpoint_dir: Option<PathBuf>,

    /// The order in which IDA* on several threads (or with --checkpoint-dir) takes each
    /// iteration's subtrees: sequential, or largest-first by the previous iteration's nodes
    /// (the last iteration tends to meet a solution sooner; any path returned is optimal)
    #[arg(long, value_name = "ORDER", default_value = "sequential")]
    pub order: npuzzle::search::SubtreeOrder,

    /// Print the set's progress instead of solving: one Markdown row per instance, easiest
    /// first, the results file's length, nodes, seconds and node rate against the published
    /// figures; with --checkpoint-dir, where each unfinished instance's search stands (its
    /// iteration's bound, subtrees finished, nodes and seconds so far; in the largest-first
    /// order, an estimate of the iteration's share done and the nodes and time it has left)
    #[arg(long)]
    pub report: bool,

    /// Output form
    #[arg(long, short, value_enum, default_value_t = SolveSetFormat::Text)]
    pub format: SolveSetFormat,

    #[command(flatten)]
    pub search: SearchArgs,
}

/// Output forms of `solve-set`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SolveSetFormat {
    /// A line per instance as it is solved (failures on stderr); with --report, a Markdown table
    #[default]
    Text,
    /// One JSON object per instance searched (with --report: per instance of the set): id,
    /// published, published_nodes, solved, length, nodes, seconds, nodes_per_second, moves, error
    Json,
}

/// How to answer: from the table or by which search.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlgorithmArg {
    /// The exact table (boards of at most 12 cells): one read per move
    Table,
    /// A* search, optimal
    Astar,
    /// IDA* search, optimal, little memory (the fallback for boards over 12 cells)
    Idastar,
    /// Breadth-first search over states, optimal, no heuristic
    Bfs,
    /// Iterative-deepening depth-first search, optimal, no heuristic
    Iddfs,
    /// Best-first on the heuristic alone (textbook branch and bound): fast, NOT optimal
    Greedy,
}

/// The heuristic of the informed searches.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeuristicArg {
    /// Tiles not in their goal cell
    Misplaced,
    /// Sum of the tiles' Manhattan distances
    Manhattan,
    /// Manhattan plus two moves per tile that must leave its row or column
    LinearConflict,
    /// Additive pattern databases (4x4, 5x5, blank in a corner): the strongest in the data
    /// directory (4x4 6-6-3 is built on first use)
    #[value(name = "pdb")]
    PatternDatabase,
}

/// How moves are counted (`--metric`).
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MetricArg {
    /// Single-tile metric: every cell the blank moves is one move
    #[default]
    Stm,
    /// Multi-tile metric: a slide of the blank along its row or column, over any number of
    /// cells, is one move (paths are still written one letter a cell: RR is one MTM move)
    Mtm,
}

impl From<MetricArg> for npuzzle::Metric {
    fn from(arg: MetricArg) -> npuzzle::Metric {
        match arg {
            MetricArg::Stm => npuzzle::Metric::Stm,
            MetricArg::Mtm => npuzzle::Metric::Mtm,
        }
    }
}

/// Search options shared by `distance` and `solve`.
#[derive(Args, Debug, Clone, Default)]
pub struct SearchArgs {
    /// How moves are counted: stm (one cell a move) or mtm (a slide of several tiles in a
    /// row or column is one move; boards of at most 12 cells from an MTM table built in
    /// memory, larger ones by IDA* with the MTM walking distance)
    #[arg(long, value_enum, value_name = "METRIC", default_value_t = MetricArg::Stm)]
    pub metric: MetricArg,

    /// How to answer [default: table; without one (boards over 12 cells, or --no-table) astar
    /// with linear-conflict on 3x3 and smaller, idastar with linear-conflict beyond]
    #[arg(long, short, value_enum, value_name = "ALG")]
    pub algorithm: Option<AlgorithmArg>,

    /// Heuristic of astar, idastar and greedy [default: manhattan when --algorithm is given,
    /// linear-conflict for the automatic fallback]
    #[arg(long, value_enum, value_name = "H")]
    pub heuristic: Option<HeuristicArg>,

    /// Never use (or build) an exact table: answer by search
    #[arg(long)]
    pub no_table: bool,

    /// Give up after this many expanded nodes (e.g. 500000, 2M) or this much time (e.g. 10s,
    /// 250ms, 2min); repeat for both. It bounds searches only: a table answer is one read and
    /// never needs it [default: no limit, except 10M nodes for astar, bfs and greedy, whose
    /// memory grows with the nodes]. A search past a second on a terminal shows nodes and its
    /// bound on stderr
    #[arg(long, value_name = "LIMIT", value_parser = super::limits::parse_limit)]
    pub limit: Vec<super::limits::LimitArg>,

    /// Threads of an IDA* search: each iteration's tree is split into subtrees searched in
    /// parallel at the same bound, so the path is still optimal; with --within, 2 or more
    /// run the bounded search on two threads (one proving the bound, one finding paths)
    /// [default: all cores]
    #[arg(long, value_name = "N", value_parser = super::threads::parse_threads)]
    pub threads: Option<usize>,

    /// With several threads, return the path the one-thread search finds (the same input
    /// gives the same path), at some cost in the last iteration (with --within: on one thread)
    #[arg(long)]
    pub deterministic: bool,
}

/// Output forms of `compare`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CompareFormat {
    /// An aligned table, one row per algorithm
    #[default]
    Text,
    /// One JSON object: start, goal, exact distance, and a row object per algorithm
    Json,
}

/// Arguments of `compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The start state
    #[arg(value_name = "START")]
    pub start: String,

    #[command(flatten)]
    pub goal: GoalArgs,

    /// Heuristic of astar, idastar and greedy [default: manhattan]
    #[arg(long, value_enum, value_name = "H", conflicts_with = "all_heuristics")]
    pub heuristic: Option<HeuristicArg>,

    /// Run astar, idastar and greedy once with each heuristic
    #[arg(long)]
    pub all_heuristics: bool,

    /// Per-algorithm limit: expanded nodes (e.g. 500000, 2M) or time (e.g. 10s, 250ms); repeat
    /// for both. An algorithm that reaches it reports "gave up" [default: 5M nodes and 10s]
    #[arg(long, value_name = "LIMIT", value_parser = super::limits::parse_limit)]
    pub limit: Vec<super::limits::LimitArg>,

    /// Leave out the exact table (and do not build one): rows say whether an algorithm
    /// guarantees optimality instead of checking it
    #[arg(long)]
    pub no_table: bool,

    /// Threads of the idastar rows [default: 1, so that node counts are the textbook
    /// algorithm's; more split each iteration into subtrees searched in parallel]
    #[arg(long, value_name = "N", value_parser = super::threads::parse_threads)]
    pub threads: Option<usize>,

    /// Output form
    #[arg(long, short, value_enum, default_value_t = CompareFormat::Text)]
    pub format: CompareFormat,
}

/// Output forms of `batch`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BatchFormat {
    /// A header line, then `start,goal,distance[,moves],error` per question
    #[default]
    Csv,
    /// One JSON object per line: start, goal, distance, moves, unsolvable, error (`-f json`
    /// is the same)
    #[value(alias = "json")]
    Jsonl,
}

/// Arguments of `batch`.
#[derive(Args, Debug)]
pub struct BatchArgs {
    /// How moves are counted: stm (one cell a move) or mtm (a slide of several tiles in a
    /// row or column is one move)
    #[arg(long, value_enum, value_name = "METRIC", default_value_t = MetricArg::Stm)]
    pub metric: MetricArg,

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

    /// Worker threads [default: all cores; at most 4 per core, at least 64, at most 1024]
    #[arg(long, value_name = "N", value_parser = super::threads::parse_threads)]
    pub threads: Option<usize>,

    /// Per-line limit for boards without an exact table (answered by IDA* with linear
    /// conflict): expanded nodes (e.g. 5M) or time (e.g. 10s); repeat for both (a kind not
    /// given keeps its default). A line that reaches it gets a row with the error [default:
    /// 10s per line]
    #[arg(long, value_name = "LIMIT", value_parser = super::limits::parse_limit)]
    pub limit: Vec<super::limits::LimitArg>,
}

/// Output forms of `stats`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StatsFormat {
    /// The counts per depth with a histogram, the mean and the farthest states
    #[default]
    Text,
    /// One JSON object on one line: the goal, its board, the counts per depth, the mean and
    /// the farthest states (indented with --pretty)
    Json,
}

/// Arguments of `stats`.
#[derive(Args, Debug)]
pub struct StatsArgs {
    /// How moves are counted: stm (one cell a move) or mtm (a slide of several tiles in a
    /// row or column is one move)
    #[arg(long, value_enum, value_name = "METRIC", default_value_t = MetricArg::Stm)]
    pub metric: MetricArg,

    #[command(flatten)]
    pub goal: GoalArgs,

    /// Output form
    #[arg(long, short, value_enum, default_value_t = StatsFormat::Text)]
    pub format: StatsFormat,

    /// The same as `-f json` (the older spelling, kept working)
    #[arg(long, hide = true)]
    pub json: bool,

    /// With -f json: indent the object over many lines, for a person to read
    #[arg(long)]
    pub pretty: bool,

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

    /// Also check that the table serves this goal; without FILE, it chooses the table to check
    /// [default without FILE: 1..n row-major, blank last, e.g. 123456780]
    #[arg(long, short, value_name = "GOAL")]
    pub goal: Option<String>,

    /// The goal's board as WxH when the cell count does not say it (e.g. 3x2, 4x3)
    #[arg(long, visible_alias = "board", value_name = "WxH")]
    pub size: Option<String>,

    /// Output form
    #[arg(long, short, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
}

/// Output forms of `check`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CheckFormat {
    /// What the file holds, one fact a line
    #[default]
    Text,
    /// One JSON object: file, valid, board, goal, entries, max_depth, counts, deep, error
    Json,
}

/// Output forms of `verify`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VerifyFormat {
    /// Counts per verdict, the worst lines first, and the time taken
    #[default]
    Summary,
    /// One JSON object per answer: line, verdict, exact, claimed, detail, step, by, optimal
    /// (`-f json` is the same)
    #[value(alias = "json")]
    Jsonl,
}

/// Arguments of `verify` (the command's help is on [`Command::Verify`]).
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// How moves are counted: stm (one cell a move) or mtm (a slide of several tiles in a
    /// row or column is one move)
    #[arg(long, value_enum, value_name = "METRIC", default_value_t = MetricArg::Stm)]
    pub metric: MetricArg,

    /// The answers: CSV with a header naming `start` and claim columns, or JSON lines; `-` or
    /// nothing reads standard input
    #[arg(value_name = "FILE", allow_hyphen_values = true)]
    pub file: Option<String>,

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

    /// With each of the worst lines, show one optimal solution (found by search within
    /// --limit on boards without a table). JSON lines always carry `optimal` for failing
    /// answers where a table gives it
    #[arg(long)]
    pub explain: bool,

    /// Per-line limit for boards without an exact table, whose exact distance is found by IDA*
    /// with linear conflict: expanded nodes (e.g. 5M) or time (e.g. 10s); repeat for both (a
    /// kind not given keeps its default). A line that reaches it is `unverified`, saying so
    /// [default: 10s per line]
    #[arg(long, value_name = "LIMIT", value_parser = super::limits::parse_limit)]
    pub limit: Vec<super::limits::LimitArg>,
}

/// Output forms of `sample`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SampleFormat {
    /// A header `start,goal` (plus `distance` with --with-answers), then one row per instance
    #[default]
    Csv,
    /// One JSON object per instance: start, goal, distance (null without --with-answers;
    /// `-f json` is the same)
    #[value(alias = "json")]
    Jsonl,
}

/// Arguments of `sample` (the command's help is on [`Command::Sample`]).
#[derive(Args, Debug)]
pub struct SampleArgs {
    /// How moves are counted: stm (one cell a move) or mtm (a slide of several tiles in a
    /// row or column is one move)
    #[arg(long, value_enum, value_name = "METRIC", default_value_t = MetricArg::Stm)]
    pub metric: MetricArg,

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

    /// Draw by a scrambler instead of by depth, on any board up to 64x64 (--board WxH):
    /// `uniform`, a uniformly random solvable state; `walk`, a random walk of --moves moves
    /// from the goal (never straight back). Seeded like every draw
    #[arg(long, value_enum, value_name = "KIND", conflicts_with_all = ["depth", "min_depth", "max_depth", "unsolvable", "with_answers"])]
    pub scramble: Option<ScrambleArg>,

    /// The length of a `--scramble walk`
    #[arg(long, value_name = "N", default_value_t = 100, requires = "scramble")]
    pub moves: usize,

    /// Output form
    #[arg(long, short, value_enum, default_value_t = SampleFormat::Csv)]
    pub format: SampleFormat,
}

/// The scramblers of `sample --scramble`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScrambleArg {
    /// A uniformly random state of the goal's class
    Uniform,
    /// A random walk of --moves moves from the goal
    Walk,
}

/// Arguments of `serve` (the command's help is on [`Command::Serve`]).
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port on 127.0.0.1; 0 picks a free one. The URL is printed on stdout either way
    #[arg(long, value_name = "N", default_value_t = 8080)]
    pub port: u16,

    /// Build the tables and pattern databases a question needs when they are missing from
    /// the data directory (one at a time, within --max-memory); without it the server answers
    /// from what is there, and a question that needs a missing table gets 503
    #[arg(long)]
    pub build: bool,

    /// The most memory the tables the server holds, and a build's working memory, may take
    /// (e.g. 512M, 2G) [default: a quarter of the machine's memory]
    #[arg(long, value_name = "SIZE", value_parser = super::serve::parse_memory)]
    pub max_memory: Option<u64>,
}

/// Arguments of `play` (the command's help is on [`Command::Play`]).
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The start state [default: a shuffle at depth --depth]
    #[arg(value_name = "START")]
    pub start: Option<String>,

    #[command(flatten)]
    pub goal: GoalArgs,

    /// The depth of a shuffle (`s`): exact on boards with a table, a walk of that many
    /// random moves elsewhere up to 5x5; beyond 5x5 a shuffle is a uniformly random state
    #[arg(long, value_name = "D", default_value_t = 12)]
    pub depth: u8,

    /// The seed of the shuffles [default: drawn from the clock]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Per-move search limit on boards without a table (e.g. 500ms, 2s, 1M)
    #[arg(long, value_name = "LIMIT", value_parser = super::limits::parse_limit)]
    pub limit: Vec<super::limits::LimitArg>,

    /// How moves are counted for the distance and the hint: stm (one cell a move) or mtm (a
    /// slide of several tiles is one move; the hint is then a whole slide). Beyond 5x5 no
    /// distance is shown and the hint is the constructive solver's (not optimal)
    #[arg(long, value_enum, value_name = "METRIC", default_value_t = MetricArg::Stm)]
    pub metric: MetricArg,
}

/// Reads `--within`: a factor (`1.2`), `none` or `optimal`.
pub fn parse_within(text: &str) -> Result<npuzzle::Guarantee, String> {
    text.parse::<npuzzle::Guarantee>()
        .map_err(|e| format!("{e}, or `none` for the constructive solver"))
}
