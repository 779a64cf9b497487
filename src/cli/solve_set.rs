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
    let only = only(&args.only, &set)?;
    if args.report {
        return report(args, &set, only.as_deref(), &goal, json);
    }
    let mut how = how(&args.search, goal.board(), context)?;
    how.limits = how.limits.order(args.order);
    if let Some(dir) = &args.checkpoint_dir {
        writable_dir(dir)?;
        // Ctrl-C or SIGTERM then stops the instance in progress with its checkpoint written
        // (work inside subtrees included), and the run with it.
        how.limits = search_progress::interruptible(how.limits);
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
    // A write that fails (a closed pipe) loses the line on screen, not the results file's:
    // the run goes on, and its exit code says the output was cut.
    let mut unwritten: Option<io::Error> = None;
    let observe = |instance: &Instance, outcome: &Result<Finished, SetError>| {
        let mut out = io::stdout().lock();
        let written = match (json, outcome) {
            (true, outcome) => write_json(
                &mut out,
                &InstanceJson::new(instance, outcome.as_ref().map(Some)),
            ),
            (false, Ok(finished)) => writeln!(out, "{}", finished.progress_line()),
            (false, Err(e)) => {
                stderr_line!("error: {e}");
                Ok(())
            }
        };
        if let Err(e) = written.and_then(|()| out.flush()) {
            unwritten.get_or_insert(e);
        }
    };
    // Said before the run removes it (hours may pass before the run ends): its text, in
    // case it was anything but a cut answer.
    if let Ok(instance_set::ResultsFile {
        cut: Some((line, text)),
        ..
    }) = instance_set::read_results(&args.results, &set, &goal)
    {
        stderr_line!(
            "npuzzle: note: {} line {line} was cut short (no end of line) and does not \
             check: removed, its instance not finished: {text}",
            args.results.display()
        );
    }
    let summary = instance_set::run(
        &set,
        only.as_deref(),
        &goal,
        &args.results,
        args.checkpoint_dir.as_deref(),
        solve,
        observe,
    )
    .map_err(|e| Failure::usage(e.to_string()))?;
    stderr_line!(
        "npuzzle: {} finished before, {} solved now, {} failed{}",
        summary.skipped,
        summary.solved.len(),
        summary.failed.len(),
        if summary.stopped {
            "; stopped on request, the checkpoints keep the work: run again to go on"
        } else {
            ""
        }
    );
    if let Some(error) = unwritten {
        return Err(stdout_failed(error));
    }
    if summary
        .failed
        .iter()
        .any(|e| matches!(e, SetError::Checkpoint { .. }))
    {
        // A checkpoint that could not be read or written is a bad file, not a negative
        // answer: exit 2, after the other instances had their turn.
        return Err(Failure {
            code: 2,
            message: None,
        });
    }
    if summary.failed.is_empty() {
        Ok(())
    } else {
        Err(Failure::quiet_negative())
    }
}

/// The failure of writing to stdout: a closed pipe quietly (141), else named.
fn stdout_failed(error: io::Error) -> Failure {
    if error.kind() == io::ErrorKind::BrokenPipe {
        error.into()
    } else {
        Failure::usage(format!("writing to standard output: {error}"))
    }
}

/// `--report`: the results file against the set (or the `only` part of it), as a table or
/// JSON records. A cut last line is shown, not removed (the report writes nothing).
fn report(
    args: &SolveSetArgs,
    set: &[Instance],
    only: Option<&[String]>,
    goal: &npuzzle::State,
    json: bool,
) -> CommandResult {
    if !args.results.exists() {
        stderr_line!(
            "npuzzle: note: {} does not exist yet: no instance is finished",
            args.results.display()
        );
    }
    let read = instance_set::read_results(&args.results, set, goal)
        .map_err(|e| Failure::usage(e.to_string()))?;
    if let Some((line, _)) = &read.cut {
        stderr_line!(
            "npuzzle: note: {} line {line} is cut short (no end of line) and does not check: \
             not counted",
            args.results.display()
        );
    }
    let shown: Vec<Instance> = set
        .iter()
        .filter(|i| only.is_none_or(|ids| ids.contains(&i.id)))
        .cloned()
        .collect();
    // With --checkpoint-dir, where each unfinished instance's search stands (read only: the
    // report writes nothing, and makes no directory).
    let given = args.checkpoint_dir.as_deref();
    if let Some(dir) = given.filter(|d| !d.is_dir()) {
        let why = if dir.exists() {
            "is not a directory"
        } else {
            "does not exist"
        };
        stderr_line!(
            "npuzzle: note: checkpoint directory {} {why}: no instance is in progress",
            dir.display()
        );
    }
    // Asked once, not once an instance.
    let dir = given.filter(|d| d.is_dir());
    let checkpoint = |instance: &Instance| {
        dir.and_then(|d| instance_set::in_progress(d, instance, goal).transpose())
    };
    let mut out = io::stdout().lock();
    let written = if json {
        instance_set::progress(&shown, &read.finished)
            .iter()
            .try_for_each(|row| {
                let mut record = InstanceJson::new(row.instance, Ok(row.finished));
                if row.finished.is_none() {
                    match checkpoint(row.instance) {
                        Some(Ok(now)) => record.in_progress = Some(now.into()),
                        Some(Err(refused)) => {
                            record.error = Some(format!("checkpoint refused: {refused}"));
                        }
                        None => {}
                    }
                }
                write_json(&mut out, &record)
            })
    } else {
        write!(
            out,
            "{}",
            instance_set::progress_table_with(&shown, &read.finished, checkpoint)
        )
    };
    written.and_then(|()| out.flush()).map_err(stdout_failed)
}

/// `--only`'s ids, each in the set; `None` for every instance.
fn only(ids: &[String], set: &[Instance]) -> Result<Option<Vec<String>>, Failure> {
    if ids.is_empty() {
        return Ok(None);
    }
    let ids: Vec<String> = ids.iter().map(|id| id.trim().to_string()).collect();
    if ids.iter().any(String::is_empty) {
        return Err(Failure::usage(
            "--only: an empty id (two commas, or one at an end)",
        ));
    }
    if let Some(id) = ids.iter().find(|id| !set.iter().any(|i| &i.id == *id)) {
        return Err(Failure::usage(
            SetError::UnknownId { id: id.clone() }.to_string(),
        ));
    }
    Ok(Some(ids))
}

/// The checkpoint directory, made if missing and tried with a file: a directory that cannot
/// hold checkpoints is said once, before any search, not once an instance.
fn writable_dir(dir: &std::path::Path) -> Result<(), Failure> {
    std::fs::create_dir_all(dir).map_err(|e| unreadable(dir, &e))?;
    let probe = dir.join(format!(".npuzzle-write-test-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|e| Failure::usage(format!("checkpoint directory {}: {e}", dir.display())))
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
        instance_set::read_text(&args.instances).map_err(|e| Failure::usage(e.to_string()))?;
    let mut set = instance_set::parse_instances(&text, board)
        .map_err(|e| Failure::usage(format!("{}: {e}", args.instances.display())))?;
    if set.is_empty() {
        return Err(Failure::usage(format!(
            "{}: no instances (every line blank or a comment)",
            args.instances.display()
        )));
    }
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
    /// Why the instance failed (a search that gave up, a length other than the published);
    /// with `--report`, why its checkpoint would be refused.
    error: Option<String>,
    /// With `--report --checkpoint-dir`, where an unfinished instance's search stands.
    in_progress: Option<InProgressJson>,
}

/// [`instance_set::InProgress`] in a record.
#[derive(serde::Serialize)]
struct InProgressJson {
    bound: u32,
    finished_subtrees: usize,
    partial_subtrees: usize,
    subtrees: usize,
    nodes: u64,
    seconds: f64,
    iteration_share_done: Option<f64>,
    iteration_nodes_left: Option<u64>,
    iteration_seconds_left: Option<f64>,
}

impl From<instance_set::InProgress> for InProgressJson {
    fn from(now: instance_set::InProgress) -> Self {
        InProgressJson {
            bound: now.bound,
            finished_subtrees: now.finished_subtrees,
            partial_subtrees: now.partial_subtrees,
            subtrees: now.subtrees,
            nodes: now.nodes,
            seconds: now.seconds,
            iteration_share_done: now.estimate.map(|e| e.share_done),
            iteration_nodes_left: now.estimate.and_then(|e| e.nodes_left),
            iteration_seconds_left: now.seconds_left,
        }
    }
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
            in_progress: None,
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
