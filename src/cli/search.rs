//! `distance` and `solve` when the answer comes from a search: the choice between the table
//! and a search (`--algorithm`, `--no-table`, boards without tables), limits, and `--stats`.

use std::io::Write;
use std::time::{Duration, Instant};

use npuzzle::search::{self, Algorithm, Limits, Outcome};
use npuzzle::{Board, HeuristicKind, Solution, State};

use super::args::{AlgorithmArg, HeuristicArg, QueryArgs, SearchArgs, SolveArgs, SolveFormat};
use super::input::{start_and_goal, unsolvable_reason};
use super::limits::limits;
use super::output::{SearchStatsJson, SolveJson};
use super::{query, CommandResult, Context, Failure};

/// The node limit of searches whose memory grows with the nodes (A*, BFS, greedy) when none is
/// given: about 1.5 GB of nodes and visited-state entries.
pub const DEFAULT_MEMORY_BOUND_NODES: u64 = 10_000_000;

/// The per-line limit of `batch` and `verify` on boards without a table, when none is given.
pub const DEFAULT_LINE_LIMITS: Limits = Limits {
    max_expanded: None,
    max_time: Some(Duration::from_secs(10)),
};

/// The exact answer for a pair on a board without a table, found by IDA* with linear conflict
/// (optimal, and its memory is one path, so many lines can search at once): the distance and
/// an optimal solution, or `Ok(None)` for an unsolvable pair (decided by parity, nothing
/// searched).
///
/// # Errors
/// One line naming the board and the limit reached, for a search that gave up.
pub fn exact_by_search(
    start: &State,
    goal: &State,
    limits: Limits,
) -> Result<Option<(u8, Solution)>, String> {
    let result = search::run(
        Algorithm::IdaStar,
        HeuristicKind::LinearConflict,
        start,
        goal,
        limits,
    );
    match result.outcome {
        Outcome::Solved(solution) => {
            let distance = u8::try_from(solution.len())
                .map_err(|_| format!("a solution of {} moves is too long", solution.len()))?;
            Ok(Some((distance, solution)))
        }
        Outcome::Unsolvable => Ok(None),
        Outcome::GaveUp(limit) => Err(format!(
            "no exact table for the {} board, and the search gave up at its {} after {} expanded nodes (raise --limit)",
            goal.board(),
            limit,
            result.expanded
        )),
    }
}

/// How a question will be answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// From the exact table.
    Table,
    /// By a search.
    Search(Algorithm, HeuristicKind),
}

impl From<HeuristicArg> for HeuristicKind {
    fn from(arg: HeuristicArg) -> HeuristicKind {
        match arg {
            HeuristicArg::Misplaced => HeuristicKind::Misplaced,
            HeuristicArg::Manhattan => HeuristicKind::Manhattan,
            HeuristicArg::LinearConflict => HeuristicKind::LinearConflict,
        }
    }
}

/// The search algorithm an `--algorithm` value names; `None` for `table`.
pub fn algorithm(arg: AlgorithmArg) -> Option<Algorithm> {
    match arg {
        AlgorithmArg::Table => None,
        AlgorithmArg::Astar => Some(Algorithm::AStar),
        AlgorithmArg::Idastar => Some(Algorithm::IdaStar),
        AlgorithmArg::Bfs => Some(Algorithm::Bfs),
        AlgorithmArg::Iddfs => Some(Algorithm::Iddfs),
        AlgorithmArg::Greedy => Some(Algorithm::Greedy),
    }
}

/// Chooses table or search from the options and the board.
pub fn plan(args: &SearchArgs, board: Board) -> Result<Plan, Failure> {
    let table_exists = Context::has_tables(board);
    match args.algorithm.map(algorithm) {
        Some(None) if args.no_table => Err(Failure::usage(
            "--algorithm table and --no-table contradict each other",
        )),
        Some(None) if !table_exists => Err(Failure::usage(format!(
            "no exact table for the {board} board (tables cover boards of at most {} cells): \
             leave out --algorithm table to answer by search",
            super::context::MAX_TABLE_CELLS
        ))),
        Some(None) | None if args.heuristic.is_some() && table_exists && !args.no_table => {
            Err(Failure::usage(
                "--heuristic applies to astar, idastar and greedy, not to the exact table: \
                 add --algorithm (or --no-table)",
            ))
        }
        Some(None) => Ok(Plan::Table),
        Some(Some(algorithm)) => Ok(Plan::Search(
            algorithm,
            args.heuristic
                .map_or(HeuristicKind::Manhattan, HeuristicKind::from),
        )),
        None if table_exists && !args.no_table => Ok(Plan::Table),
        None => {
            // A* is fastest where its memory stays small; IDA* needs none beyond the path.
            let fallback = if board.cells() <= 9 {
                Algorithm::AStar
            } else {
                Algorithm::IdaStar
            };
            Ok(Plan::Search(
                fallback,
                args.heuristic
                    .map_or(HeuristicKind::LinearConflict, HeuristicKind::from),
            ))
        }
    }
}

/// A path found by a search, with its cost.
pub struct Found {
    /// The path.
    pub solution: Solution,
    /// Nodes expanded and generated.
    pub expanded: u64,
    /// See [`Found::expanded`].
    pub generated: u64,
    /// Time taken.
    pub elapsed: Duration,
}

/// Runs `algorithm`; a search that gives up is a negative answer (exit 1) naming the limit.
pub fn run_search(
    algorithm: Algorithm,
    heuristic: HeuristicKind,
    start: &State,
    goal: &State,
    given: &SearchArgs,
) -> Result<Found, Failure> {
    let defaults = Limits {
        max_expanded: algorithm
            .keeps_visited_states()
            .then_some(DEFAULT_MEMORY_BOUND_NODES),
        max_time: None,
    };
    let result = search::run(
        algorithm,
        heuristic,
        start,
        goal,
        limits(&given.limit, defaults),
    );
    match result.outcome {
        Outcome::Solved(solution) => Ok(Found {
            solution,
            expanded: result.expanded,
            generated: result.generated,
            elapsed: result.elapsed,
        }),
        Outcome::Unsolvable => Err(Failure::negative(unsolvable_reason(start, goal))),
        Outcome::GaveUp(limit) => Err(Failure::negative(format!(
            "{algorithm} gave up at the {limit} after expanding {} nodes in {:.2} s without \
             reaching the goal; raise it with --limit",
            result.expanded,
            result.elapsed.as_secs_f64()
        ))),
    }
}

/// Answers from the table serving `goal`, timed, with the states along the path as the nodes
/// expanded and their neighbours as the nodes generated.
pub fn table_answer(start: &State, goal: &State, context: &mut Context) -> Result<Found, Failure> {
    let table = context
        .table_for(goal)
        .ok_or_else(|| Failure::usage(format!("no exact table for the {} board", goal.board())))?;
    let began = Instant::now();
    let solution = super::query::table_solution(table, start, goal)?;
    let elapsed = began.elapsed();
    let visited = &solution.path()[..solution.len()];
    Ok(Found {
        expanded: visited.len() as u64,
        generated: visited.iter().map(|s| s.successors().count() as u64).sum(),
        elapsed,
        solution,
    })
}

/// The exact distance from the table where one exists and may be used, for "optimal?".
fn table_distance(
    start: &State,
    goal: &State,
    no_table: bool,
    context: &mut Context,
) -> Option<u8> {
    if no_table {
        return None;
    }
    context
        .table_for(goal)?
        .distance_to(start, goal)
        .ok()
        .flatten()
}

/// `npuzzle distance`: from the table, or by an optimal search where there is none.
pub fn distance(args: &QueryArgs, context: &mut Context) -> CommandResult {
    let (start, goal) = start_and_goal(&args.start, &args.goal)?;
    let Plan::Search(algorithm, heuristic) = plan(&args.search, start.board())? else {
        return query::distance(args, context);
    };
    if !algorithm.is_optimal() {
        return Err(Failure::usage(format!(
            "{algorithm} does not find shortest paths, so it cannot give the distance: use astar, idastar, bfs or iddfs"
        )));
    }
    if !start.can_reach(&goal) {
        return Err(Failure::negative(unsolvable_reason(&start, &goal)));
    }
    let found = run_search(algorithm, heuristic, &start, &goal, &args.search)?;
    writeln!(std::io::stdout().lock(), "{}", found.solution.len())?;
    Ok(())
}

/// `npuzzle solve`: the table or a search, with `--stats`.
pub fn solve(args: &SolveArgs, context: &mut Context) -> CommandResult {
    let (start, goal) = start_and_goal(&args.start, &args.goal)?;
    let plan = plan(&args.search, start.board())?;
    if plan == Plan::Table && !args.stats && args.format != SolveFormat::Json {
        return query::solve(args, context);
    }
    if !start.can_reach(&goal) {
        return Err(Failure::negative(unsolvable_reason(&start, &goal)));
    }
    let (found, algorithm, heuristic, proven) = match plan {
        Plan::Table => (table_answer(&start, &goal, context)?, "table", None, true),
        Plan::Search(algorithm, heuristic) => (
            run_search(algorithm, heuristic, &start, &goal, &args.search)?,
            algorithm.name(),
            algorithm.uses_heuristic().then_some(heuristic),
            algorithm.is_optimal(),
        ),
    };
    let exact = table_distance(&start, &goal, args.search.no_table, context);
    let optimal = exact.map_or(proven, |d| d as usize == found.solution.len());
    let stats = SearchStatsJson {
        heuristic: heuristic.map(|h| h.name().to_string()),
        expanded: found.expanded,
        generated: found.generated,
        time_ms: found.elapsed.as_secs_f64() * 1e3,
        table_distance: exact,
    };
    let label = match heuristic {
        Some(h) => format!("{algorithm} with {h}"),
        None => algorithm.to_string(),
    };
    if args.format == SolveFormat::Json {
        let mut json = SolveJson::new(
            &found.solution,
            &goal,
            algorithm,
            optimal,
            exact.map(usize::from),
        );
        json.stats = Some(stats);
        let mut out = std::io::stdout().lock();
        serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
        writeln!(out)?;
        return Ok(());
    }
    query::print_solution(
        &found.solution,
        &goal,
        args.format,
        &label,
        optimal,
        exact.map(usize::from),
    )?;
    if args.stats {
        let verdict = match exact {
            Some(d) if optimal => format!("yes (the table says {d})"),
            Some(d) => format!("no (the table says {d})"),
            None if proven => format!("yes (guaranteed by {algorithm})"),
            None => "not known (no table, and greedy search does not guarantee it)".to_string(),
        };
        let text = format!(
            "stats: algorithm {label}; expanded {}; generated {}; time {:.3} ms; length {}; optimal {verdict}",
            stats.expanded,
            stats.generated,
            stats.time_ms,
            found.solution.len()
        );
        // With --format moves stdout holds only the moves, so the stats go to stderr.
        if args.format == SolveFormat::Moves {
            eprintln!("npuzzle: {text}");
        } else {
            writeln!(std::io::stdout().lock(), "{text}")?;
        }
    }
    Ok(())
}
