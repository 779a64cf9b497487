//! `npuzzle compare`: every algorithm on one instance, one row each, each under its own limit
//! so that the slow ones report "gave up" instead of running for hours.

use std::io::Write;
use std::time::{Duration, Instant};

use serde::Serialize;

use npuzzle::search::{Algorithm, Limits};
use npuzzle::{Answer, HeuristicKind, How, Method, NoAnswer, Solution, State, Unsolvable};

use super::args::{CompareArgs, CompareFormat};
use super::input::start_and_goal;
use super::limits::limits;
use super::search::value;
use super::{CommandResult, Context, Failure};

/// Per-algorithm limits when none are given: on the hardest 3x3 instance every row ends within
/// about a second, and no row can take more than ten.
pub const DEFAULT_LIMITS: Limits = Limits::NONE.nodes(5_000_000).time(Duration::from_secs(10));

/// One row of the comparison (also its JSON form).
#[derive(Serialize)]
struct Row {
    /// `table`, `astar`, `idastar`, `bfs`, `iddfs` or `greedy`.
    algorithm: String,
    /// The heuristic, or null where none is used.
    heuristic: Option<String>,
    /// The path length, or null when it gave up.
    length: Option<usize>,
    /// Compared with the table where one is used; otherwise whether the algorithm guarantees
    /// optimality (null for greedy without a table, and when it gave up).
    optimal: Option<bool>,
    /// `node limit` or `time limit` when it gave up, else null.
    gave_up: Option<String>,
    /// Nodes expanded.
    expanded: u64,
    /// Nodes generated.
    generated: u64,
    /// Wall-clock milliseconds.
    time_ms: f64,
    /// The moves found, or null.
    moves: Option<String>,
}

/// The whole comparison in JSON.
#[derive(Serialize)]
struct CompareJson {
    start: String,
    goal: String,
    /// The exact distance from the table, or null without one.
    table_distance: Option<u8>,
    /// The limits each search ran under.
    max_expanded: Option<u64>,
    max_time_ms: Option<f64>,
    rows: Vec<Row>,
}

/// Runs the comparison and prints it.
pub fn run(args: &CompareArgs, context: &mut Context) -> CommandResult {
    let (start, goal) = start_and_goal(&args.start, &args.goal)?;
    if let Some(why) = Unsolvable::between(&start, &goal) {
        return Err(Failure::negative(why.to_string()));
    }
    let limits = limits(&args.limit, DEFAULT_LIMITS).threads(args.threads.unwrap_or(1));
    let oracle = context.oracle();
    let heuristics: Vec<HeuristicKind> = if args.all_heuristics {
        // Pattern databases too, where the goal has some (on 4x4, 6-6-3 is built on first
        // use, as for `solve`).
        let mut all = HeuristicKind::ALL.to_vec();
        if oracle.pattern_databases(&goal)?.is_some() {
            all.push(HeuristicKind::PatternDatabase);
        }
        all
    } else {
        vec![args.heuristic.map(HeuristicKind::from).unwrap_or_default()]
    };
    let mut rows = Vec::new();
    let mut exact = None;
    if !args.no_table && oracle.uses_table(start.board()) {
        let began = Instant::now();
        let answer = oracle.solve(&start, &goal, How::table())?;
        let elapsed = began.elapsed();
        let (solution, cost) = value(answer)?;
        exact = Some(u8::try_from(solution.len()).expect("a table's distances are bytes"));
        rows.push(Row {
            algorithm: "table".to_string(),
            heuristic: None,
            length: Some(solution.len()),
            optimal: Some(true),
            gave_up: None,
            expanded: cost.expanded,
            generated: cost.generated,
            time_ms: elapsed.as_secs_f64() * 1e3,
            moves: Some(solution.moves_string()),
        });
    }
    for algorithm in Algorithm::ALL {
        let kinds: &[HeuristicKind] = if algorithm.uses_heuristic() {
            &heuristics
        } else {
            // Not used; any value runs the same search.
            &[HeuristicKind::default()]
        };
        for &heuristic in kinds {
            let how = How::search(algorithm, Some(heuristic), limits);
            rows.push(row(
                oracle.solve(&start, &goal, how)?,
                algorithm,
                heuristic,
                exact,
            ));
        }
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match args.format {
        CompareFormat::Json => {
            let json = CompareJson {
                start: start.to_string(),
                goal: goal.to_string(),
                table_distance: exact,
                max_expanded: limits.max_expanded,
                max_time_ms: limits.max_time.map(|t| t.as_secs_f64() * 1e3),
                rows,
            };
            serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        CompareFormat::Text => print_text(&mut out, &start, &goal, exact, limits, &rows)?,
    }
    out.flush()?;
    Ok(())
}

fn row(
    answer: Answer<Solution>,
    algorithm: Algorithm,
    heuristic: HeuristicKind,
    exact: Option<u8>,
) -> Row {
    let solution = answer.value.as_ref().ok();
    Row {
        algorithm: algorithm.name().to_string(),
        // Pattern databases are named with their partition: `pdb 6-6-3 + reflection`.
        heuristic: match answer.method {
            Method::Search {
                databases: Some(databases),
                ..
            } => Some(format!("{} {databases}", heuristic.name())),
            _ => algorithm
                .uses_heuristic()
                .then(|| heuristic.name().to_string()),
        },
        length: solution.map(|s| s.len()),
        optimal: solution.and_then(|s| match exact {
            Some(d) => Some(s.len() == d as usize),
            None => algorithm.is_optimal().then_some(true),
        }),
        gave_up: match answer.value {
            Err(NoAnswer::GaveUp(limit)) => Some(limit.to_string()),
            _ => None,
        },
        expanded: answer.expanded,
        generated: answer.generated,
        time_ms: answer.elapsed.as_secs_f64() * 1e3,
        moves: solution.map(|s| s.moves_string()),
    }
}

fn print_text(
    out: &mut impl Write,
    start: &State,
    goal: &State,
    exact: Option<u8>,
    limits: Limits,
    rows: &[Row],
) -> std::io::Result<()> {
    match exact {
        Some(d) => writeln!(
            out,
            "{start} -> {goal}: {} (exact, from the table)",
            super::solution_output::moves(d.into())
        )?,
        None => writeln!(
            out,
            "{start} -> {goal}: no table; optimal = guaranteed by the algorithm"
        )?,
    }
    let limit = [
        limits.max_expanded.map(|n| format!("{n} nodes")),
        limits.max_time.map(|t| format!("{:.3} s", t.as_secs_f64())),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" or ");
    if !limit.is_empty() {
        writeln!(out, "each search gives up after {limit}")?;
    }
    // As wide as the longest name (`pdb 6-6-6-6 + reflection`), at least 15.
    let named = rows.iter().filter_map(|r| r.heuristic.as_deref());
    let width = named.map(str::len).max().unwrap_or(0).max(15);
    writeln!(
        out,
        "{:<9} {:<width$} {:>19} {:>8} {:>12} {:>12} {:>12}",
        "algorithm", "heuristic", "length", "optimal", "expanded", "generated", "time ms"
    )?;
    for row in rows {
        let length = match (&row.length, &row.gave_up) {
            (Some(len), _) => len.to_string(),
            (None, Some(limit)) => format!("gave up ({limit})"),
            (None, None) => "-".to_string(),
        };
        let optimal = match row.optimal {
            Some(true) => "yes",
            Some(false) => "no",
            None if row.length.is_some() => "unknown",
            None => "-",
        };
        writeln!(
            out,
            "{:<9} {:<width$} {:>19} {:>8} {:>12} {:>12} {:>12.3}",
            row.algorithm,
            row.heuristic.as_deref().unwrap_or("-"),
            length,
            optimal,
            row.expanded,
            row.generated,
            row.time_ms
        )?;
    }
    Ok(())
}
