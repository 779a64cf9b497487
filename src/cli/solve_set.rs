//! `npuzzle solve-set`: a file of instances solved into a results file that survives
//! restarts, or (`--report`) the set's progress as a table. The reading, checking, solving
//! and appending are the library's ([`npuzzle::instance_set`]); this parses and formats.

use std::io::{self, Write};

use npuzzle::instance_set::{self, Finished, Instance, SetError};
use npuzzle::Board;

use super::args::{SolveSetArgs, SolveSetFormat};
use super::input::{board_option, goal_of};
use super::search::how;
use super::search_progress;
use super::{CommandResult, Context, Failure};

/// Runs `solve-set`.
pub fn run(args: &SolveSetArgs, context: &mut Context) -> CommandResult {
    let goal = goal_of(args.goal.goal.as_deref(), board(args)?)?;
    let set = instances(args, goal.board())?;
    let json = args.format == SolveSetFormat::Json;
    if args.report {
        let done = match std::fs::read_to_string(&args.results) {
            Ok(text) => instance_set::parse_results(&text, &set, &goal)
                .map_err(|e| Failure::usage(e.to_string()))?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(unreadable(&args.results, &e)),
        };
        let mut out = io::stdout().lock();
        if json {
            for row in instance_set::progress(&set, &done) {
                write_json(&mut out, &InstanceJson::new(row.instance, Ok(row.finished)))?;
            }
        } else {
            write!(out, "{}", instance_set::progress_table(&set, &done))?;
        }
        return Ok(());
    }
    let how = how(&args.search, goal.board(), context)?;
    if let Some(dir) = &args.checkpoint_dir {
        std::fs::create_dir_all(dir).map_err(|e| unreadable(dir, &e))?;
    }
    let oracle = context.oracle();
    let mut solver =
        instance_set::oracle_solver(oracle, &goal, how, args.checkpoint_dir.as_deref())
            .map_err(|e| Failure::usage(e.to_string()))?;
    // The live line of a long search (a terminal only) is cleared before its results line.
    let solve = |instance: &Instance| {
        let result = solver(instance);
        search_progress::clear();
        result
    };
    // Each instance's line as it ends: text (failures on stderr) or a JSON record on stdout.
    // A write that fails (a closed pipe) loses the line on screen, not the results file's.
    let observe = |instance: &Instance, outcome: &Result<Finished, SetError>| {
        let mut out = io::stdout().lock();
        match (json, outcome) {
            (true, outcome) => {
                let record = InstanceJson::new(instance, outcome.as_ref().map(Some));
                let _ = write_json(&mut out, &record);
            }
            (false, Ok(finished)) => {
                let _ = writeln!(out, "{}", finished.progress_line());
            }
            (false, Err(e)) => eprintln!("error: {e}"),
        }
    };
    let only = (!args.only.is_empty()).then_some(args.only.as_slice());
    let summary = instance_set::run(&set, only, &goal, &args.results, solve, observe)
        .map_err(|e| Failure::usage(e.to_string()))?;
    eprintln!(
        "npuzzle: {} finished before, {} solved now, {} failed",
        summary.skipped,
        summary.solved.len(),
        summary.failed.len()
    );
    if summary.failed.is_empty() {
        Ok(())
    } else {
        Err(Failure::quiet_negative())
    }
}

/// The board: `--board`, else the goal's (an instance line has more numbers than tiles, so
/// the file cannot say it).
fn board(args: &SolveSetArgs) -> Result<Option<Board>, Failure> {
    let board = board_option(&args.goal)?;
    if board.is_none() && args.goal.goal.is_none() {
        return Err(Failure::usage(
            "solve-set needs --board WxH or --goal: an instance line's numbers after the tiles \
             leave its board unsaid",
        ));
    }
    Ok(board)
}

/// The instance file, every line parsed, in the order asked for.
fn instances(args: &SolveSetArgs, board: Board) -> Result<Vec<Instance>, Failure> {
    let text =
        std::fs::read_to_string(&args.instances).map_err(|e| unreadable(&args.instances, &e))?;
    let mut set = instance_set::parse_instances(&text, board)
        .map_err(|e| Failure::usage(format!("{}: {e}", args.instances.display())))?;
    if args.easiest_first {
        instance_set::sort_easiest_first(&mut set);
    }
    Ok(set)
}

/// One instance of `solve-set -f json` (schema: docs/json/solve-set.schema.json): what the
/// instance file publishes, and what was found (searched now, or with `--report` read from the
/// results file); every key present, `null` where there is no value.
#[derive(serde::Serialize)]
struct InstanceJson<'a> {
    /// The instance's id.
    id: &'a str,
    /// The published optimal length, if the instance file gives one.
    published: Option<u32>,
    /// The line's last number (Korf's files: the published nodes generated).
    published_nodes: Option<u64>,
    /// Whether it is solved (checked against the goal and the published length).
    solved: bool,
    /// The solution's length.
    length: Option<u32>,
    /// Nodes generated.
    nodes: Option<u64>,
    /// Seconds of search, over every run of a resumed instance.
    seconds: Option<f64>,
    /// Nodes generated a second.
    nodes_per_second: Option<f64>,
    /// The solution as `U D L R` letters.
    moves: Option<&'a str>,
    /// Why the instance failed (a search that gave up, a length other than the published).
    error: Option<String>,
}

impl<'a> InstanceJson<'a> {
    /// The record of `instance`, finished or not (`Ok`), or failed now (`Err`).
    fn new(instance: &'a Instance, found: Result<Option<&'a Finished>, &SetError>) -> Self {
        let finished = found.as_ref().ok().copied().flatten();
        InstanceJson {
            id: &instance.id,
            published: instance.published,
            published_nodes: instance.published_nodes(),
            solved: finished.is_some(),
            length: finished.map(|f| f.length),
            nodes: finished.map(|f| f.nodes),
            seconds: finished.map(|f| f.seconds),
            nodes_per_second: finished.map(Finished::rate),
            moves: finished.map(|f| f.moves.as_str()),
            error: found.err().map(ToString::to_string),
        }
    }
}

fn write_json(out: &mut impl Write, record: &InstanceJson<'_>) -> io::Result<()> {
    serde_json::to_writer(&mut *out, record).map_err(io::Error::from)?;
    writeln!(out)
}

fn unreadable(path: &std::path::Path, error: &io::Error) -> Failure {
    Failure::usage(format!("{}: {error}", path.display()))
}
