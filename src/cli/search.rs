//! `distance` and `solve`: the options turned into the answer layer's [`How`], the answer
//! printed, and `--stats`. Which way a question is answered is the answer layer's decision.

use std::io::Write;
use std::time::{Duration, Instant};

use npuzzle::answer::{AnswerError, Choice, NoAnswer};
use npuzzle::search::{Algorithm, Limit, Limits};
use npuzzle::{Answer, Board, Guarantee, HeuristicKind, How, Method, Metric};

use super::args::{
    AlgorithmArg, DistanceFormat, HeuristicArg, QueryArgs, SearchArgs, SolveArgs, SolveFormat,
};
use super::input::start_and_goal;
use super::limits::limits;
use super::output::{DistanceJson, SearchStatsJson, SolveJson, UnsolvableJson};
use super::search_progress;
use super::solution_output::{print_solution, Claim};
use super::{CommandResult, Context, Failure};

/// The per-line limit of `batch` and `verify` on boards without a table, when none is given.
pub const DEFAULT_LINE_LIMITS: Limits = Limits::NONE.time(Duration::from_secs(10));

impl From<HeuristicArg> for HeuristicKind {
    fn from(arg: HeuristicArg) -> HeuristicKind {
        match arg {
            HeuristicArg::Misplaced => HeuristicKind::Misplaced,
            HeuristicArg::Manhattan => HeuristicKind::Manhattan,
            HeuristicArg::LinearConflict => HeuristicKind::LinearConflict,
            HeuristicArg::PatternDatabase => HeuristicKind::PatternDatabase,
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

/// The cores of this machine (as rayon sees them: `RAYON_NUM_THREADS` where set, capped).
/// Not `rayon::current_num_threads()`: asking rayon builds its global pool, two thread
/// starts for a question that may never run in parallel.
fn all_cores() -> usize {
    super::threads::default_threads()
}

/// Reads `--algorithm`, `--heuristic`, `--no-table` and `--limit` into a [`How`], refusing
/// combinations that contradict each other.
pub fn how(args: &SearchArgs, board: Board, context: &Context) -> Result<How, Failure> {
    let metric = Metric::from(args.metric);
    if metric == Metric::Mtm
        && (args.heuristic.is_some()
            || args
                .algorithm
                .is_some_and(|a| algorithm(a).is_some_and(|a| a != Algorithm::IdaStar)))
    {
        return Err(Failure::usage(
            "--metric mtm answers from the MTM table or by IDA* with the MTM walking distance: \
             leave out --heuristic and any --algorithm but table and idastar",
        ));
    }
    Ok(how_in_stm(args, board, context)?.in_metric(metric))
}

fn how_in_stm(args: &SearchArgs, board: Board, context: &Context) -> Result<How, Failure> {
    let table_exists = context.oracle().uses_table(board);
    let heuristic = args.heuristic.map(HeuristicKind::from);
    let threads = args.threads.unwrap_or_else(all_cores);
    let limits = search_progress::watched(limits(&args.limit, Limits::default()))
        .threads(threads)
        .deterministic(args.deterministic);
    match args.algorithm.map(algorithm) {
        Some(None) if args.no_table => Err(Failure::usage(
            "--algorithm table and --no-table contradict each other",
        )),
        Some(None) if !table_exists => Err(Failure::usage(format!(
            "{}: leave out --algorithm table to answer by search",
            AnswerError::NoTable { board }
        ))),
        Some(None) | None if heuristic.is_some() && table_exists && !args.no_table => {
            Err(Failure::usage(
                "--heuristic applies to astar, idastar and greedy, not to the exact table: \
                 add --algorithm (or --no-table)",
            ))
        }
        Some(None) => Ok(How::table()),
        // An algorithm named without a heuristic runs with the library's default heuristic
        // (Manhattan distance, the textbook one).
        Some(Some(algorithm)) => Ok(How::search(
            algorithm,
            Some(heuristic.unwrap_or_default()),
            limits,
        )),
        None if args.no_table => Ok(How::without_table(heuristic, limits)),
        None => Ok(How::auto(heuristic, limits)),
    }
}

/// The value of `answer` and what it cost, or the failure that says why there is none: exit 1
/// for an unsolvable pair or a search that gave up.
pub fn value<T>(answer: Answer<T>) -> Result<(T, Answer<()>), Failure> {
    let (value, cost) = answer.split();
    match value {
        Ok(value) => Ok((value, cost)),
        Err(NoAnswer::GaveUp(limit)) => Err(Failure::negative(format!(
            "{} gave up at the {limit} after expanding {} nodes in {:.2} s without reaching the \
             goal; raise it with --limit",
            match cost.method {
                Method::Search { algorithm, .. } => algorithm.name(),
                _ => "the search",
            },
            cost.expanded,
            cost.elapsed.as_secs_f64()
        ))),
        Err(why) => Err(Failure::negative(why.to_string())),
    }
}

/// Boards from this many cells up may take hours to search: a search without `--limit` there
/// gets a note saying how to bound it.
const NOTE_UNBOUNDED_CELLS: usize = 25;

/// The note for a 5x5 search without `--limit`: it may run for hours.
fn note_unbounded(args: &SearchArgs, board: Board) {
    if board.cells() >= NOTE_UNBOUNDED_CELLS && args.limit.is_empty() {
        stderr_line!(
            "npuzzle: note: a {board} search may take hours or more; bound it with --limit \
             (for example --limit 10min or --limit 500M)"
        );
    }
}

/// `npuzzle distance`: from the table, or by an optimal search where there is none.
pub fn distance(args: &QueryArgs, context: &mut Context) -> CommandResult {
    let (start, goal) = start_and_goal(&args.start, &args.goal)?;
    let how = how(&args.search, start.board(), context)?;
    note_unbounded(&args.search, start.board());
    let answer = context.oracle().distance(&start, &goal, how);
    search_progress::clear();
    let answer = answer?;
    if args.format == DistanceFormat::Json && matches!(answer.value, Err(NoAnswer::Unsolvable(_))) {
        // JSON readers get JSON for the negative answer too (and exit code 1).
        let json = DistanceJson {
            start: start.to_string(),
            goal: goal.to_string(),
            distance: None,
            solvable: false,
            algorithm: answer.method.to_string(),
        };
        let mut out = std::io::stdout().lock();
        serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
        writeln!(out)?;
        return Err(Failure::quiet_negative());
    }
    let (distance, cost) = value(answer)?;
    let mut out = std::io::stdout().lock();
    match args.format {
        DistanceFormat::Text => writeln!(out, "{distance}")?,
        DistanceFormat::Json => {
            let json = DistanceJson {
                start: start.to_string(),
                goal: goal.to_string(),
                distance: Some(distance),
                solvable: true,
                algorithm: cost.method.to_string(),
            };
            serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
    }
    Ok(())
}

/// `npuzzle solve`: the table or a search, with `--stats`.
pub fn solve(args: &SolveArgs, context: &mut Context) -> CommandResult {
    if let Some((start, goal)) = super::large::large_pair(&args.start, &args.goal)? {
        return super::large::solve(args, &start, &goal);
    }
    let (start, goal) = start_and_goal(&args.start, &args.goal)?;
    let mut how = how(&args.search, start.board(), context)?;
    if let Some(guarantee) = args.within {
        if args.search.algorithm.is_some() || args.search.heuristic.is_some() {
            return Err(Failure::usage(
                "--within chooses the solver itself: leave out --algorithm and --heuristic",
            ));
        }
        how = how.with_guarantee(guarantee);
    }
    if let Some(file) = &args.checkpoint {
        // One search per process: the path lives as long as it (and keeps `Limits` `Copy`).
        // Ctrl-C or SIGTERM then stops it with the checkpoint written, work inside subtrees
        // included, instead of ending the process.
        how.limits = search_progress::interruptible(
            how.limits
                .checkpoint(Box::leak(file.clone().into_boxed_path())),
        );
    }
    let oracle = context.oracle();
    // An optimal search may run for hours; a bounded one answers in a fraction of a second
    // on typical 5x5s, but only with the pattern databases of the goal's blank cell (without
    // them it searches with linear conflict, which may take hours too); the constructive
    // solver answers at once.
    match how.guarantee {
        Guarantee::Optimal => note_unbounded(&args.search, start.board()),
        Guarantee::Within(_)
            if start.board().cells() >= NOTE_UNBOUNDED_CELLS
                && args.search.limit.is_empty()
                && oracle.pattern_databases(&goal)?.is_none() =>
        {
            stderr_line!(
                "npuzzle: note: no {board} pattern databases for this goal's blank cell in the \
                 data directory, so --within searches with linear conflict and may take hours; \
                 build them with `npuzzle build --pdb {board}:6-6-6-6` (with the same --goal) \
                 or bound the search with --limit",
                board = start.board()
            );
        }
        _ => {}
    }
    let began = Instant::now();
    let answer = oracle.solve(&start, &goal, how);
    search_progress::clear();
    let answer = answer?;
    let took = began.elapsed();
    if let (Some(file), Err(NoAnswer::GaveUp(Limit::Stopped))) = (&args.checkpoint, &answer.value) {
        return Err(Failure::negative(format!(
            "stopped on request after expanding {} nodes in {:.2} s; {} keeps the work done: \
             run the same command again to go on",
            answer.expanded,
            took.as_secs_f64(),
            file.display()
        )));
    }
    if let (SolveFormat::Json, Err(NoAnswer::Unsolvable(why))) = (&args.format, &answer.value) {
        // JSON readers get JSON for the negative answer too (and exit code 1).
        let json = UnsolvableJson {
            start: start.to_string(),
            goal: goal.to_string(),
            solvable: false,
            distance: None,
            reason: why.to_string(),
        };
        let mut out = std::io::stdout().lock();
        serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
        writeln!(out)?;
        return Err(Failure::quiet_negative());
    }
    let (solution, cost) = value(answer)?;
    let method = cost.method;
    // The exact distance, to say whether a search's path is optimal: from the table where one
    // may be used (never with --no-table, which promises not to build one).
    let exact = match (method, how.choice) {
        (Method::Table { .. }, _) => Some(
            u8::try_from(how.metric.length(solution.moves()))
                .expect("a table's distances are bytes"),
        ),
        (_, Choice::NoTable(_)) => None,
        _ if oracle.uses_table(goal.board()) => oracle
            .distance(&start, &goal, How::table().in_metric(how.metric))?
            .value
            .ok(),
        _ => None,
    };
    let length = how.metric.length(solution.moves());
    let optimal = exact.map_or(method.is_optimal(), |d| d as usize == length);
    let guarantee = if optimal {
        Guarantee::Optimal
    } else {
        method.guarantee()
    };
    let (label, heuristic) = match method {
        Method::Search {
            algorithm,
            heuristic,
            databases,
        } => (
            algorithm.name(),
            heuristic.map(|h| match databases {
                Some(databases) => format!("{h} {databases}"),
                None => h.name().to_string(),
            }),
        ),
        Method::Bounded {
            heuristic,
            databases,
            ..
        } => (
            "weighted idastar",
            Some(match databases {
                Some(databases) => format!("{heuristic} {databases}"),
                None => heuristic.name().to_string(),
            }),
        ),
        Method::Constructive => ("constructive", None),
        _ => ("table", None),
    };
    let stats = SearchStatsJson {
        heuristic,
        expanded: cost.expanded,
        generated: cost.generated,
        time_ms: if method.is_table() {
            took
        } else {
            cost.elapsed
        }
        .as_secs_f64()
            * 1e3,
        table_distance: exact,
    };
    let exact = exact.map(usize::from);
    if args.format == SolveFormat::Json {
        let mut json = SolveJson::new(&solution, &goal, label, optimal, exact, guarantee);
        json.length = length;
        if optimal {
            json.distance = Some(length);
        }
        json.stats = Some(stats);
        let mut out = std::io::stdout().lock();
        serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
        writeln!(out)?;
        return Ok(());
    }
    print_solution(
        &solution,
        &goal,
        args.format,
        Claim {
            algorithm: &method.to_string(),
            optimal,
            exact,
            metric: how.metric,
            guarantee,
        },
    )?;
    if args.stats {
        print_stats(length, method, &stats, optimal, args.format)?;
    }
    Ok(())
}

/// The `--stats` line: on stdout, or on stderr with `--format moves` (stdout holds the moves).
fn print_stats(
    length: usize,
    method: Method,
    stats: &SearchStatsJson,
    optimal: bool,
    format: SolveFormat,
) -> CommandResult {
    let verdict = match stats.table_distance {
        Some(d) if optimal => format!("yes (the table says {d})"),
        Some(d) => format!("no (the table says {d})"),
        None if method.is_optimal() => format!("yes (guaranteed by {method})"),
        None if matches!(method, Method::Bounded { .. }) => {
            format!("not known ({}, guaranteed by {method})", method.guarantee())
        }
        None if method == Method::Constructive => {
            "not known (no table, and the constructive solver does not guarantee it)".to_string()
        }
        None => "not known (no table, and greedy search does not guarantee it)".to_string(),
    };
    let text = format!(
        "stats: algorithm {method}; expanded {}; generated {}; time {:.3} ms; length {}; optimal {verdict}",
        stats.expanded,
        stats.generated,
        stats.time_ms,
        length
    );
    if format == SolveFormat::Moves {
        stderr_line!("npuzzle: {text}");
    } else {
        writeln!(std::io::stdout().lock(), "{text}")?;
    }
    Ok(())
}
