//! The native half of `npuzzle.distributed`: the library's frontier split
//! ([`npuzzle::search::split`]) and the search of one subtree, as functions of plain values
//! (strings, ints, tuples), so that a task sent to a Dask worker and its result pickle
//! without any class of ours.
//!
//! A task is (start, goal, heuristic, prefix of moves, bound); it returns the moves of a
//! solution or the smallest `g + h` above the bound, with its node counts. The heuristic is
//! opened once per process and data directory (pattern databases stay open, as in one CLI
//! run); `"auto"` means the strongest pattern databases the directory has (4x4 6-6-3 is built
//! on first use), else linear conflict.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use npuzzle::answer::Databases;
use npuzzle::heuristic::{LinearConflict, Manhattan, PatternHeuristic};
use npuzzle::search::split::{search_below, split, Below};
use npuzzle::search::Limit;
use npuzzle::verify::parse_moves;
use npuzzle::{Heuristic, Oracle, State};

use crate::convert::{read_board, read_goal, read_state};
use crate::errors::answer_error;

/// The heuristic of a task, opened for its goal.
enum TaskHeuristic {
    /// Pattern databases of the canonical goal (the start is relabelled for them).
    Databases(Arc<(PatternHeuristic, Databases)>),
    /// Boxed: its tables make it far larger than the other variants.
    LinearConflict(Box<LinearConflict>),
    Manhattan(Manhattan),
}

impl TaskHeuristic {
    /// The method's name, as `Solution.algorithm` shows it.
    fn name(&self) -> String {
        match self {
            TaskHeuristic::Databases(found) => format!("pattern databases {}", found.1),
            TaskHeuristic::LinearConflict(_) => "linear conflict".to_string(),
            TaskHeuristic::Manhattan(_) => "manhattan".to_string(),
        }
    }
}

/// Runs `$body` with `$h` the heuristic and `$start` the start as that heuristic sees it.
macro_rules! with_heuristic {
    ($heuristic:expr, $start:expr, $goal:expr, |$h:ident, $s:ident| $body:expr) => {
        match $heuristic {
            TaskHeuristic::Databases(found) => {
                let $h = &found.0;
                let $s = $start.relabel_for($goal);
                $body
            }
            TaskHeuristic::LinearConflict(boxed) => {
                let $h = &**boxed;
                let $s = *$start;
                $body
            }
            TaskHeuristic::Manhattan($h) => {
                let $s = *$start;
                $body
            }
        }
    };
}

/// The oracle of a data directory, one per directory and process (`None`: the module's).
pub(crate) fn oracle(data_dir: Option<PathBuf>) -> Arc<Oracle> {
    static ORACLES: OnceLock<Mutex<HashMap<PathBuf, Arc<Oracle>>>> = OnceLock::new();
    let Some(dir) = data_dir else {
        return Arc::clone(crate::default_oracle());
    };
    let mut map = ORACLES
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    Arc::clone(
        map.entry(dir.clone())
            .or_insert_with(|| Arc::new(crate::oracle_for(Some(dir)))),
    )
}

/// Opens heuristic `name` for `goal`.
fn open(name: &str, goal: &State, data_dir: Option<PathBuf>) -> PyResult<TaskHeuristic> {
    let databases = || {
        oracle(data_dir.clone())
            .pattern_databases(goal)
            .map_err(answer_error)
    };
    match name {
        "auto" => Ok(match databases()? {
            Some(found) => TaskHeuristic::Databases(found),
            None => TaskHeuristic::LinearConflict(Box::new(LinearConflict::new(goal))),
        }),
        "pdb" => match databases()? {
            Some(found) => Ok(TaskHeuristic::Databases(found)),
            None => Err(answer_error(npuzzle::AnswerError::NoDatabases {
                goal: *goal,
            })),
        },
        "linear-conflict" => Ok(TaskHeuristic::LinearConflict(Box::new(
            LinearConflict::new(goal),
        ))),
        "manhattan" => Ok(TaskHeuristic::Manhattan(Manhattan::new(goal))),
        other => Err(PyValueError::new_err(format!(
            "unknown heuristic `{other}`: expected auto, pdb, linear-conflict or manhattan"
        ))),
    }
}

/// Start and goal on one board, solvable.
fn question(
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    board: Option<&str>,
) -> PyResult<(State, State)> {
    let start = read_state(start, read_board(board)?, "start")?;
    let goal = read_goal(goal, start.board())?;
    if let Some(why) = npuzzle::Unsolvable::between(&start, &goal) {
        return Err(crate::errors::UnsolvableError::new_err(why.to_string()));
    }
    Ok((start, goal))
}

/// One iteration's split, on a worker: `(bound, prefixes, cut, expanded, generated, method)`.
/// `bound=None` splits the first iteration (the start's estimate). The prefixes are move
/// strings in the sequential search's order; `cut` is the smallest `g + h` above the bound met
/// while splitting (or `None`).
#[pyfunction]
#[pyo3(signature = (start, goal, heuristic, bound, at_least, *, board=None, data_dir=None))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)] // Python's keyword arguments.
fn _task_split(
    py: Python<'_>,
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    heuristic: &str,
    bound: Option<u32>,
    at_least: usize,
    board: Option<&str>,
    data_dir: Option<PathBuf>,
) -> PyResult<(u32, Vec<String>, Option<u32>, u64, u64, String)> {
    let (start, goal) = question(start, goal, board)?;
    let opened = py.detach(|| open(heuristic, &goal, data_dir))?;
    let method = opened.name();
    Ok(py.detach(|| {
        with_heuristic!(&opened, &start, &goal, |h, s| {
            let bound = bound.unwrap_or_else(|| h.estimate(&s));
            let frontier = split(&s, h, bound, at_least.max(1));
            let prefixes = frontier
                .subtrees
                .iter()
                .map(|t| npuzzle::moves_to_string(&t.moves))
                .collect();
            (
                bound,
                prefixes,
                frontier.cut,
                frontier.expanded,
                frontier.generated,
                method,
            )
        })
    }))
}

/// One subtree's search, on a worker: `(moves, next, expanded, generated, gave_up)`. `moves`
/// is the whole solution from the start (prefix included) when one was found within `bound`,
/// else `None`; `next` the smallest `g + h` above the bound below the prefix (`None` when
/// nothing was cut); `gave_up` says a limit stopped it (then neither is known): `max_nodes`,
/// `limit` (seconds), or `progress`, called every 0.1 s with the search's report (a dict), whose
/// `False` stops it (how a cancelled call's running tasks stop: `npuzzle.distributed` polls
/// its stop event there).
#[pyfunction]
#[pyo3(signature = (start, goal, heuristic, prefix, bound, *, board=None, data_dir=None, max_nodes=None, limit=None, progress=None))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)] // Python's keyword arguments.
fn _task_search(
    py: Python<'_>,
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    heuristic: &str,
    prefix: &str,
    bound: u32,
    board: Option<&str>,
    data_dir: Option<PathBuf>,
    max_nodes: Option<u64>,
    limit: Option<f64>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Option<String>, Option<u32>, u64, u64, bool)> {
    crate::watch::check_callable(progress)?;
    let (start, goal) = question(start, goal, board)?;
    let moves = parse_moves(prefix).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let limits = crate::limits(limit, max_nodes)?;
    let opened = py.detach(|| open(heuristic, &goal, data_dir))?;
    let search = |limits: npuzzle::Limits| {
        with_heuristic!(&opened, &start, &goal, |h, s| search_below(
            &s, h, &moves, bound, limits
        ))
    };
    let result = match progress {
        None => py.detach(|| search(limits)),
        Some(progress) => {
            crate::watch::watched(py, crate::watch::callback(progress), |observer| {
                search(limits.observe(observer))
            })?
        }
    };
    let (expanded, generated) = (result.expanded, result.generated);
    match result.end {
        Below::Found(solution) => Ok((
            Some(solution.moves_string()),
            None,
            expanded,
            generated,
            false,
        )),
        Below::Beyond(next) => Ok((None, next, expanded, generated, false)),
        Below::GaveUp(Limit::Nodes | Limit::Time | Limit::Stopped) => {
            Ok((None, None, expanded, generated, true))
        }
        _ => Err(PyValueError::new_err(format!(
            "`{prefix}` is not a subtree of the search from {start}: an illegal move, or one \
             straight back"
        ))),
    }
}

/// The `Solution` of a distributed search: `moves` checked from `start` to `goal`, its
/// length counted in `metric`.
#[pyfunction]
#[pyo3(signature = (start, goal, moves, method, expanded, generated, elapsed, *, board=None, metric="stm"))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments.
fn _solution(
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    moves: &str,
    method: String,
    expanded: u64,
    generated: u64,
    elapsed: f64,
    board: Option<&str>,
    metric: &str,
) -> PyResult<crate::Solution> {
    let metric = crate::read_metric(metric)?;
    let (start, goal) = question(start, goal, board)?;
    let moves = parse_moves(moves).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let solution = npuzzle::Solution::from_moves(start, moves)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    if solution.end() != goal {
        return Err(PyValueError::new_err(format!(
            "the moves lead from {start} to {}, not to {goal}",
            solution.end()
        )));
    }
    Ok(crate::Solution::from_path(
        &solution,
        method,
        (expanded, generated, elapsed),
        metric,
        npuzzle::Guarantee::Optimal,
    ))
}

/// A whole question on one worker, in `metric`: the table where the board has one, else the
/// library's search for that metric, within `limit` seconds and `max_nodes`, and stopped by
/// `progress`'s `False` (as for `_task_search`). What `distributed.solve(metric="mtm")` runs:
/// the frontier split of the other tasks is STM's.
#[pyfunction]
#[pyo3(signature = (start, goal, metric, *, board=None, data_dir=None, limit=None, max_nodes=None, progress=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments.
fn _task_solve(
    py: Python<'_>,
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    metric: &str,
    board: Option<&str>,
    data_dir: Option<PathBuf>,
    limit: Option<f64>,
    max_nodes: Option<u64>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<crate::Solution> {
    crate::watch::check_callable(progress)?;
    let metric = crate::read_metric(metric)?;
    let (start, goal) = question(start, goal, board)?;
    let how = npuzzle::How::within(crate::limits(limit, max_nodes)?).in_metric(metric);
    crate::ask_solve(py, &oracle(data_dir), start, goal, how, progress)
}

/// Adds the task functions to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_task_split, m)?)?;
    m.add_function(wrap_pyfunction!(_task_search, m)?)?;
    m.add_function(wrap_pyfunction!(_task_solve, m)?)?;
    m.add_function(wrap_pyfunction!(_solution, m)?)?;
    Ok(())
}
