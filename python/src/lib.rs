//! `npuzzle._npuzzle`: the Python extension of npuzzle.
//!
//! A thin shell over the library's answer layer ([`npuzzle::Oracle`]): read what Python gave
//! (states as strings, sequences or nested rows; NumPy arrays), ask the oracle with the GIL
//! released, and turn the answer into Python values or exceptions. No rule of the puzzle lives
//! here; every message about a state, a board or a table is the library's.
//!
//! No Rust panic may reach Python (PyO3 would raise `PanicException`, which is not an
//! `Exception` and reads as a crash): every input is validated before it reaches a library
//! call that could panic on it, and durations, counts and shapes are checked here.

mod build;
mod convert;
mod distributed;
mod errors;
mod large;
mod watch;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rayon::prelude::*;

use npuzzle::answer::{has_table, AnswerError, Exact, How, DEFAULT_BOARD};
use npuzzle::sample::SampleOptions;
use npuzzle::verify::{parse_moves, Claim, Policy, Verdict as LibVerdict};
use npuzzle::{Board, Guarantee, Limits, Metric, NoAnswer, Oracle, State};

use convert::{read_board, read_goal, read_state};
use errors::{
    answer_error, no_answer_error, LimitReached, NpuzzleError, TableError, UnsolvableError,
};

/// Unsolvable rows in the result of `distances`: the library's value (no distance reaches it).
const UNSOLVABLE: u8 = npuzzle::table::rows::UNSOLVABLE;

/// At most this many instances per `sample` call: a list is built in memory, and an absurd
/// count must raise rather than abort the interpreter when the allocation fails.
const MAX_SAMPLE: u64 = 1 << 24;

// ---------------------------------------------------------------------------------------
// The oracles and the data directory.

/// The data directory when none is given: the library's rule (the CLI's without the
/// checkout, which a Python package is never run from): `$NPUZZLE_DATA_DIR`, else the
/// platform's cache directory (`$XDG_CACHE_HOME/npuzzle` or `~/.cache/npuzzle` on Linux,
/// `~/Library/Caches/npuzzle` on macOS, `%LOCALAPPDATA%\npuzzle` on Windows); `None` (tables
/// in memory) without either, or when the directory may not be used (see [`usable`]).
fn default_data_dir() -> Option<PathBuf> {
    npuzzle::answer::default_data_dir().and_then(usable)
}

/// `dir` if npuzzle may keep tables there (the library's trust check: the user's own
/// directory that no one else may write, or one that does not exist yet); else `None` with a
/// `RuntimeWarning` saying why, so that `data_dir()` and `Table.data_dir` name the directory
/// actually used, never one that was refused.
fn usable(dir: PathBuf) -> Option<PathBuf> {
    match npuzzle::store::file::check_data_dir(&dir) {
        Ok(()) => Some(dir),
        Err(why) => {
            errors::warn(&format!(
                "npuzzle: {why}; tables are built in memory instead"
            ));
            None
        }
    }
}

/// A path with a NUL byte names no file: `ValueError`, as `open()` says (the operating
/// system would refuse it, and the tables would silently be kept in memory).
fn refuse_nul(path: &std::path::Path) -> PyResult<()> {
    if path.as_os_str().as_encoded_bytes().contains(&0) {
        return Err(PyValueError::new_err("data_dir: embedded null byte"));
    }
    Ok(())
}

/// An oracle whose tables live in `dir` (in memory for `None`). The library's notices (a
/// damaged table rebuilt, a directory that cannot be used) become Python `RuntimeWarning`s,
/// where a CLI would print them on stderr.
fn oracle_for(dir: Option<PathBuf>) -> Oracle {
    match dir {
        Some(dir) => Oracle::new(npuzzle::answer::DataDir::new(dir).on_event(errors::warn_event)),
        None => Oracle::in_memory(),
    }
}

/// The module functions' oracle and its data directory, made on first use so that the
/// environment is read then (a program may set `NPUZZLE_DATA_DIR` after `import npuzzle`).
/// Tables stay open for the process, one per board and blank cell, as in one CLI run.
fn default_oracle_and_dir() -> &'static (Arc<Oracle>, Option<PathBuf>) {
    static ORACLE: OnceLock<(Arc<Oracle>, Option<PathBuf>)> = OnceLock::new();
    ORACLE.get_or_init(|| {
        let dir = default_data_dir();
        (Arc::new(oracle_for(dir.clone())), dir)
    })
}

fn default_oracle() -> &'static Arc<Oracle> {
    &default_oracle_and_dir().0
}

/// The search limits from `limit` (seconds) and `max_nodes`.
fn limits(limit: Option<f64>, max_nodes: Option<u64>) -> PyResult<Limits> {
    let max_time = limit
        .map(|seconds| {
            // `Duration::from_secs_f64` panics on negative, NaN and huge values.
            Duration::try_from_secs_f64(seconds).map_err(|_| {
                PyValueError::new_err(format!(
                    "limit must be a non-negative, finite number of seconds, not {seconds}"
                ))
            })
        })
        .transpose()?;
    let mut limits = Limits::NONE;
    if let Some(nodes) = max_nodes {
        limits = limits.nodes(nodes);
    }
    if let Some(time) = max_time {
        limits = limits.time(time);
    }
    Ok(limits)
}

/// The threads of one search: `threads`, or every core rayon sees (`RAYON_NUM_THREADS` where
/// set) for `None`.
fn search_threads(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) if n > 1024 => Err(PyValueError::new_err(format!(
            "{n} threads are more than the limit of 1024"
        ))),
        Some(n) => Ok(n),
        None => Ok(rayon::current_num_threads()),
    }
}

/// Reads `metric="stm"|"mtm"` (the library's names, as `--metric` reads them).
fn read_metric(metric: &str) -> PyResult<Metric> {
    metric
        .parse()
        .map_err(|e: npuzzle::metric::ParseMetricError| PyValueError::new_err(e.to_string()))
}

/// Reads `within=`: `None` (optimal), a factor (`1.2`, or the string `"1.2"`), or one of the
/// labels solutions carry (`"optimal"`, `"within 1.2"`, `"none"`), as `--within` reads them.
fn read_within(within: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Guarantee>> {
    let Some(within) = within.filter(|w| !w.is_none()) else {
        return Ok(None);
    };
    if within.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(
            "within must be a factor (1.2), \"optimal\" or \"none\", not a bool",
        ));
    }
    let text = if within.is_instance_of::<pyo3::types::PyString>() {
        within.extract::<String>()?
    } else if within.is_instance_of::<pyo3::types::PyInt>()
        || within.is_instance_of::<pyo3::types::PyFloat>()
    {
        within.str()?.to_string()
    } else {
        return Err(PyTypeError::new_err(format!(
            "within must be a factor (1.2), \"optimal\" or \"none\", not {}",
            convert::type_name(within)
        )));
    };
    text.parse::<Guarantee>()
        .map(Some)
        .map_err(|e| PyValueError::new_err(format!("within: {e}")))
}

/// The question of `distance`, `solve` and `verify`: the start (on `board` if given), the
/// goal on its board (its default goal for `None`), and the search limits.
fn read_question(
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    board: Option<&str>,
    limit: Option<f64>,
    max_nodes: Option<u64>,
) -> PyResult<(State, State, How)> {
    let start = read_state(start, read_board(board)?, "start")?;
    let goal = read_goal(goal, start.board())?;
    Ok((start, goal, How::within(limits(limit, max_nodes)?)))
}

/// The goal of `Table` and `sample`, which have no start to take the board from: `goal` on
/// `board`, else the default goal of `board` (3x3 when none is given).
fn read_goal_or_default(goal: Option<&Bound<'_, PyAny>>, board: Option<&str>) -> PyResult<State> {
    let board = read_board(board)?;
    match goal {
        Some(goal) => read_state(goal, board, "goal"),
        None => Ok(State::goal(board.unwrap_or(DEFAULT_BOARD))),
    }
}

// ---------------------------------------------------------------------------------------
// Result objects.
//
// Every result is a frozen value: it compares and hashes by its fields, pickles and copies
// (`__getnewargs_ex__` gives the keyword arguments of its constructor, so it crosses process
// boundaries, e.g. to Dask workers), and its `repr` is that constructor call, which
// `eval` reads back. The constructors exist for that round trip; they check only what would
// make the object lie about itself (a path whose length disagrees with its moves).

/// `Name(key=repr(value), ...)`, with Python's own `repr` of each value, so that `eval` gives
/// back an equal object.
fn repr_call(name: &str, fields: &Bound<'_, pyo3::types::PyDict>) -> PyResult<String> {
    let mut parts = Vec::with_capacity(fields.len());
    for (key, value) in fields.iter() {
        parts.push(format!("{}={}", key.str()?, value.repr()?));
    }
    Ok(format!("{name}({})", parts.join(", ")))
}

/// A hash of `value` that Python can use (a hash must not be -1, which PyO3 maps anyway).
fn hash_of(value: &impl std::hash::Hash) -> u64 {
    use std::hash::Hasher;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

/// An optimal solution: the blank's moves and the states along them.
#[pyclass(frozen, module = "npuzzle")]
#[derive(Clone, PartialEq)]
struct Solution {
    /// The blank's moves, one letter each (`U`, `D`, `L`, `R`), e.g. `"RRD"`.
    #[pyo3(get)]
    moves: String,
    /// Every state from the start to the goal (one more than the moves), as strings that
    /// every function here reads back.
    #[pyo3(get)]
    states: Vec<String>,
    /// How it was found: `"table"`, or the search (e.g. `"idastar with linear conflict"`);
    /// the key `algorithm` of `npuzzle solve -f json` and of the web page's API.
    #[pyo3(get)]
    algorithm: String,
    /// Nodes expanded (for a table's path: the states along it).
    #[pyo3(get)]
    expanded: u64,
    /// Successors generated (for a table's path: the neighbours read).
    #[pyo3(get)]
    generated: u64,
    /// Seconds spent searching (0.0 for a table answer, which is not timed).
    #[pyo3(get)]
    elapsed: f64,
    /// How the moves are counted: `"stm"` or `"mtm"` (a run of equal letters is one move).
    #[pyo3(get)]
    metric: String,
    /// What the length is guaranteed to be: `"optimal"`, `"within 1.2"` (at most that
    /// factor times the optimum) or `"none"` (the constructive solver's), as `npuzzle solve`
    /// prints it.
    #[pyo3(get)]
    guarantee: String,
    /// The start, as a string every function here reads back.
    #[pyo3(get)]
    start: String,
    /// The goal, as a string every function here reads back.
    #[pyo3(get)]
    goal: String,
    /// The number of moves counted in `metric`.
    #[pyo3(get)]
    length: usize,
}

#[pymethods]
impl Solution {
    #[new]
    #[pyo3(signature = (moves, states, algorithm, expanded=0, generated=0, elapsed=0.0, metric="stm", guarantee="optimal", start=None, goal=None))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments.
    fn new(
        moves: String,
        states: Vec<String>,
        algorithm: String,
        expanded: u64,
        generated: u64,
        elapsed: f64,
        metric: &str,
        guarantee: &str,
        start: Option<String>,
        goal: Option<String>,
    ) -> PyResult<Solution> {
        // No states: a large board's solution, whose states are not kept (see `states`).
        if !states.is_empty() && states.len() != moves.chars().count() + 1 {
            return Err(PyValueError::new_err(format!(
                "a solution of {} moves passes {} states, not {}",
                moves.chars().count(),
                moves.chars().count() + 1,
                states.len()
            )));
        }
        let (Some(start), Some(goal)) = (
            start.or_else(|| states.first().cloned()),
            goal.or_else(|| states.last().cloned()),
        ) else {
            return Err(PyValueError::new_err(
                "a solution without states needs its start and goal",
            ));
        };
        let metric = read_metric(metric)?;
        let parsed = parse_moves(&moves).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let guarantee: Guarantee = guarantee
            .parse()
            .map_err(|e| PyValueError::new_err(format!("guarantee: {e}")))?;
        Ok(Solution {
            moves,
            states,
            algorithm,
            expanded,
            generated,
            elapsed,
            metric: metric.to_string(),
            guarantee: guarantee.to_string(),
            start,
            goal,
            length: metric.length(&parsed),
        })
    }

    /// The exact distance (the length in `metric`) where the solution is optimal; `None`
    /// where it is only guaranteed within a factor, or not at all (see `guarantee`).
    #[getter]
    fn distance(&self) -> Option<usize> {
        (self.guarantee == "optimal").then_some(self.length)
    }

    fn __len__(&self) -> usize {
        self.moves.len()
    }

    fn __eq__(&self, other: PyRef<'_, Solution>) -> bool {
        *self == *other
    }

    fn __hash__(&self) -> u64 {
        hash_of(&(
            &self.moves,
            &self.states,
            &self.algorithm,
            self.expanded,
            self.generated,
            self.elapsed.to_bits(),
            &self.metric,
            &self.guarantee,
            &self.start,
            &self.goal,
        ))
    }

    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, pyo3::types::PyDict>)> {
        Ok((PyTuple::empty(py), self.fields(py)?))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        repr_call("Solution", &self.fields(py)?)
    }
}

impl Solution {
    fn from_answer(
        solution: npuzzle::Solution,
        rest: npuzzle::Answer<()>,
        metric: Metric,
    ) -> Solution {
        Solution::from_path(
            &solution,
            rest.method.to_string(),
            (rest.expanded, rest.generated, rest.elapsed.as_secs_f64()),
            metric,
            rest.method.guarantee(),
        )
    }

    /// The solution of `solution`'s path, found by `algorithm` at the cost `(expanded,
    /// generated, elapsed)`, its length counted in `metric`.
    fn from_path(
        solution: &npuzzle::Solution,
        algorithm: String,
        (expanded, generated, elapsed): (u64, u64, f64),
        metric: Metric,
        guarantee: Guarantee,
    ) -> Solution {
        let path = solution.path();
        Solution {
            moves: solution.moves_string(),
            states: path.iter().map(State::to_string).collect(),
            algorithm,
            expanded,
            generated,
            elapsed,
            metric: metric.to_string(),
            guarantee: guarantee.to_string(),
            start: path[0].to_string(),
            goal: path[path.len() - 1].to_string(),
            length: metric.length(solution.moves()),
        }
    }

    /// The constructor's keyword arguments.
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let d = pyo3::types::PyDict::new(py);
        d.set_item("moves", &self.moves)?;
        d.set_item("states", &self.states)?;
        d.set_item("algorithm", &self.algorithm)?;
        d.set_item("expanded", self.expanded)?;
        d.set_item("generated", self.generated)?;
        d.set_item("elapsed", self.elapsed)?;
        d.set_item("metric", &self.metric)?;
        d.set_item("guarantee", &self.guarantee)?;
        if self.states.is_empty() {
            d.set_item("start", &self.start)?;
            d.set_item("goal", &self.goal)?;
        }
        Ok(d)
    }
}

/// The verdict on one answer (see `verify`).
#[pyclass(frozen, module = "npuzzle")]
#[derive(Clone, PartialEq, Eq, Hash)]
struct Verdict {
    /// The verdict's stable name: `optimal`, `correct-unsolvable`, `suboptimal`,
    /// `wrong-length`, `wrong-end`, `illegal-move`, `false-unsolvable`, `false-solution`,
    /// `malformed`, `unverified`, `within-guarantee` or `broken-guarantee` (the names of
    /// `npuzzle verify`).
    #[pyo3(get)]
    name: String,
    /// Whether the answer passes: optimal, or rightly unsolvable.
    #[pyo3(get)]
    passed: bool,
    /// What is wrong with the answer, in one line; `None` when it passes.
    #[pyo3(get)]
    detail: Option<String>,
    /// The exact distance, where it was needed and known.
    #[pyo3(get)]
    exact: Option<u8>,
    /// Whether the pair has a solution; `None` when that was not needed (an illegal move on a
    /// board without a table, say) or the search for it gave up.
    #[pyo3(get)]
    solvable: Option<bool>,
    /// How many moves longer than optimal (`suboptimal` only), else `None`.
    #[pyo3(get)]
    by: Option<u32>,
    /// The 1-based move at fault (`illegal-move` only), else `None`.
    #[pyo3(get)]
    step: Option<usize>,
    /// How it was decided: `"table"`, a search, or `"parity and replay"`.
    #[pyo3(get)]
    algorithm: String,
    /// The verdict in one line, as `str(verdict)` and `npuzzle verify` write it.
    #[pyo3(get)]
    text: String,
}

#[pymethods]
impl Verdict {
    #[new]
    #[pyo3(signature = (*, name, passed, text, algorithm, detail=None, exact=None, solvable=None, by=None, step=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        name: String,
        passed: bool,
        text: String,
        algorithm: String,
        detail: Option<String>,
        exact: Option<u8>,
        solvable: Option<bool>,
        by: Option<u32>,
        step: Option<usize>,
    ) -> Verdict {
        Verdict {
            name,
            passed,
            detail,
            exact,
            solvable,
            by,
            step,
            algorithm,
            text,
        }
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __eq__(&self, other: PyRef<'_, Verdict>) -> bool {
        *self == *other
    }

    fn __hash__(&self) -> u64 {
        hash_of(self)
    }

    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, pyo3::types::PyDict>)> {
        Ok((PyTuple::empty(py), self.fields(py)?))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        repr_call("Verdict", &self.fields(py)?)
    }
}

impl Verdict {
    fn from_library(verdict: &LibVerdict, exact: Exact, algorithm: String) -> Verdict {
        let (exact, solvable) = match exact {
            Exact::Distance(d) => (Some(d), Some(true)),
            Exact::Unsolvable => (None, Some(false)),
            Exact::Unknown => (None, None),
        };
        Verdict {
            name: verdict.name().to_string(),
            passed: verdict.passes(Policy::OptimalOnly),
            detail: verdict.detail(),
            exact,
            solvable,
            by: match verdict {
                LibVerdict::Suboptimal { by } => Some(*by),
                LibVerdict::WithinGuarantee { by, .. } => *by,
                _ => None,
            },
            step: match verdict {
                LibVerdict::IllegalMove { step, .. } => Some(*step),
                _ => None,
            },
            algorithm,
            text: verdict.to_string(),
        }
    }

    /// The constructor's keyword arguments.
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let d = pyo3::types::PyDict::new(py);
        d.set_item("name", &self.name)?;
        d.set_item("passed", self.passed)?;
        d.set_item("text", &self.text)?;
        d.set_item("algorithm", &self.algorithm)?;
        d.set_item("detail", &self.detail)?;
        d.set_item("exact", self.exact)?;
        d.set_item("solvable", self.solvable)?;
        d.set_item("by", self.by)?;
        d.set_item("step", self.step)?;
        Ok(d)
    }
}

/// One drawn instance (see `sample`).
#[pyclass(frozen, module = "npuzzle")]
#[derive(Clone, PartialEq, Eq, Hash)]
struct Instance {
    /// The start, spelled as `npuzzle sample` writes it.
    #[pyo3(get)]
    start: String,
    /// The goal, spelled as `npuzzle sample` writes it.
    #[pyo3(get)]
    goal: String,
    /// Whether the start can reach the goal.
    #[pyo3(get)]
    solvable: bool,
    /// The exact distance: `None` for an unsolvable pair, and on boards without a table
    /// (whose instances are drawn uniformly, distances unknown).
    #[pyo3(get)]
    distance: Option<u8>,
}

#[pymethods]
impl Instance {
    #[new]
    #[pyo3(signature = (start, goal, solvable, distance=None))]
    fn new(start: String, goal: String, solvable: bool, distance: Option<u8>) -> Instance {
        Instance {
            start,
            goal,
            solvable,
            distance,
        }
    }

    fn __eq__(&self, other: PyRef<'_, Instance>) -> bool {
        *self == *other
    }

    fn __hash__(&self) -> u64 {
        hash_of(self)
    }

    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, pyo3::types::PyDict>)> {
        Ok((PyTuple::empty(py), self.fields(py)?))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        repr_call("Instance", &self.fields(py)?)
    }
}

impl Instance {
    /// The constructor's keyword arguments.
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let d = pyo3::types::PyDict::new(py);
        d.set_item("start", &self.start)?;
        d.set_item("goal", &self.goal)?;
        d.set_item("solvable", self.solvable)?;
        d.set_item("distance", self.distance)?;
        Ok(d)
    }
}

// ---------------------------------------------------------------------------------------
// Questions.

/// Runs `work` with `how` (a search's limits, to which it adds the observer where it watches)
/// and the GIL released. A question that may search (no table for the board, or a `progress`
/// callback given) runs watched ([`watch::watched`]): Ctrl-C stops it, `progress` gets its
/// reports and may stop it. A table's answer runs here, without a thread of its own.
fn answer_watched<T: Send>(
    py: Python<'_>,
    oracle: &Oracle,
    board: Board,
    how: How,
    progress: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce(How) -> T + Send,
) -> PyResult<T> {
    let observed = |observer: npuzzle::search::Observer| {
        let mut how = how;
        how.limits = how.limits.observe(observer);
        how
    };
    match progress {
        None if oracle.uses_table(board) => Ok(py.detach(|| work(how))),
        None => watch::watched(py, |_, _| Ok(true), |observer| work(observed(observer))),
        Some(progress) => watch::watched(py, watch::callback(progress), |observer| {
            work(observed(observer))
        }),
    }
}

/// The distance of `start` to `goal` on `oracle`, or the exception for no answer.
fn ask_distance(
    py: Python<'_>,
    oracle: &Oracle,
    start: State,
    goal: State,
    how: How,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<u8> {
    // A read of a table that is open already costs less than releasing and retaking the GIL.
    let answer = match oracle.distance_if_open(&start, &goal, how) {
        Some(answer) => answer,
        None => answer_watched(py, oracle, start.board(), how, progress, |how| {
            oracle.distance(&start, &goal, how)
        })?,
    }
    .map_err(answer_error)?;
    let (value, rest) = answer.split();
    value.map_err(|why| no_answer_error(why, &rest))
}

fn ask_solve(
    py: Python<'_>,
    oracle: &Oracle,
    start: State,
    goal: State,
    how: How,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Solution> {
    let answer = answer_watched(py, oracle, start.board(), how, progress, |how| {
        oracle.solve(&start, &goal, how)
    })?
    .map_err(answer_error)?;
    let (value, rest) = answer.split();
    match value {
        Ok(solution) => Ok(Solution::from_answer(solution, rest, how.metric)),
        Err(why) => Err(no_answer_error(why, &rest)),
    }
}

/// The exact number of moves from `start` to `goal` (default: tiles in order, blank last).
/// From the exact table on boards of at most 12 cells, else by IDA* with pattern databases
/// (linear conflict where there are none), with the GIL released. `metric="mtm"` counts a
/// slide of several tiles in a row or column as one move (MTM table, or IDA* with the MTM
/// walking distance). `progress` (a callable) gets a search's reports; see the stub.
/// Raises UnsolvableError, LimitReached, ValueError.
#[pyfunction]
#[pyo3(signature = (start, goal=None, *, board=None, limit=None, max_nodes=None, threads=None, deterministic=false, metric="stm", progress=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments.
fn distance(
    py: Python<'_>,
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    board: Option<&str>,
    limit: Option<f64>,
    max_nodes: Option<u64>,
    threads: Option<usize>,
    deterministic: bool,
    metric: &str,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<u8> {
    watch::check_callable(progress)?;
    let metric: npuzzle::Metric = metric
        .parse()
        .map_err(|e: npuzzle::metric::ParseMetricError| PyValueError::new_err(e.to_string()))?;
    let (start, goal, mut how) = read_question(start, goal, board, limit, max_nodes)?;
    how.limits = how
        .limits
        .threads(search_threads(threads)?)
        .deterministic(deterministic);
    ask_distance(
        py,
        default_oracle(),
        start,
        goal,
        how.in_metric(metric),
        progress,
    )
}

/// A solution from `start` to `goal`: a Solution with the moves and the states, optimal in
/// `metric` unless `within` says otherwise: a factor (`within=1.2`: at most 1.2 times the
/// optimum, by weighted IDA* on 4x4 and 5x5) or `"none"` (the constructive solver, any
/// size). Boards beyond 5x5 (up to 64x64) are solved by the constructive solver only.
/// `Solution.guarantee` says which. `progress` (a callable) gets a search's reports (the
/// bound, nodes, rate, share of the iteration) and may stop it; see the stub. Raises
/// UnsolvableError, LimitReached, ValueError.
#[pyfunction]
#[pyo3(signature = (start, goal=None, *, board=None, limit=None, max_nodes=None, threads=None, deterministic=false, metric="stm", within=None, progress=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments.
fn solve(
    py: Python<'_>,
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    board: Option<&str>,
    limit: Option<f64>,
    max_nodes: Option<u64>,
    threads: Option<usize>,
    deterministic: bool,
    metric: &str,
    within: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Solution> {
    watch::check_callable(progress)?;
    let metric = read_metric(metric)?;
    let within = read_within(within)?;
    if let Some((start, goal)) = large::large_question(start, goal, board)? {
        return solve_large(py, &start, &goal, metric, within);
    }
    let (start, goal, mut how) = read_question(start, goal, board, limit, max_nodes)?;
    how.limits = how
        .limits
        .threads(search_threads(threads)?)
        .deterministic(deterministic);
    let mut how = how.in_metric(metric);
    if let Some(guarantee) = within {
        how = how.with_guarantee(guarantee);
    }
    ask_solve(py, default_oracle(), start, goal, how, progress)
}

/// `solve` on a board beyond 5x5: the constructive solver, whose solutions carry no length
/// guarantee (and whose states are not kept: a 32x32 solution passes 80,000 of them).
fn solve_large(
    py: Python<'_>,
    start: &npuzzle::large::LargeState,
    goal: &npuzzle::large::LargeState,
    metric: Metric,
    within: Option<Guarantee>,
) -> PyResult<Solution> {
    if let Some(Err(refused)) = within.map(npuzzle::large::constructive_guarantee) {
        return Err(PyValueError::new_err(format!(
            "within={:?}: {refused} (leave out within, or give within=\"none\")",
            refused.asked.to_string()
        )));
    }
    let began = std::time::Instant::now();
    let moves = py
        .detach(|| npuzzle::large::solve_constructive(start, goal))
        .map_err(|unreachable| UnsolvableError::new_err(unreachable.to_string()))?;
    Ok(Solution {
        moves: npuzzle::moves_to_string(&moves),
        states: Vec::new(),
        algorithm: npuzzle::Method::Constructive.to_string(),
        expanded: 0,
        generated: 0,
        elapsed: began.elapsed().as_secs_f64(),
        metric: metric.to_string(),
        guarantee: Guarantee::None.to_string(),
        start: large::spell(start),
        goal: large::spell(goal),
        length: metric.length(&moves),
    })
}

/// Whether `start` can reach `goal`: decided by parity, on any board, at once.
#[pyfunction]
#[pyo3(signature = (start, goal=None, *, board=None))]
fn is_solvable(
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    board: Option<&str>,
) -> PyResult<bool> {
    if let Some((start, goal)) = large::large_question(start, goal, board)? {
        return Ok(start.can_reach(&goal));
    }
    let start = read_state(start, read_board(board)?, "start")?;
    let goal = read_goal(goal, start.board())?;
    Ok(start.can_reach(&goal))
}

/// The tiles of `state` row-major (0 the blank), read from any accepted spelling. Raises
/// ValueError for a malformed state.
#[pyfunction]
#[pyo3(signature = (state, *, board=None))]
fn tiles<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    board: Option<&str>,
) -> PyResult<Bound<'py, PyTuple>> {
    if let Some(state) = large::read_large(state, large::large_board(board), "state")? {
        return PyTuple::new(py, state.tiles());
    }
    let state = read_state(state, read_board(board)?, "state")?;
    PyTuple::new(py, state.cells())
}

/// What a solver answered: its moves, or that there is no solution.
fn read_claim(moves: &Bound<'_, PyAny>) -> PyResult<Result<Claim, LibVerdict>> {
    if moves.is_none() {
        return Ok(Ok(Claim::unsolvable()));
    }
    let text = convert::read_moves_text(moves)?;
    Ok(match parse_moves(&text) {
        Ok(parsed) => Ok(Claim::moves(parsed)),
        // An answer that cannot be read is the solver's fault: a verdict, not an exception.
        Err(e) => Err(LibVerdict::malformed(e.to_string())),
    })
}

/// One answer to judge: the pair and the claim (or the verdict of an unreadable claim).
struct Question {
    start: State,
    goal: State,
    claim: Result<Claim, LibVerdict>,
}

fn judge(oracle: &Oracle, question: &Question, how: How) -> Result<Verdict, AnswerError> {
    match &question.claim {
        Err(malformed) => Ok(Verdict::from_library(
            malformed,
            Exact::Unknown,
            "parity and replay".into(),
        )),
        Ok(claim) => {
            let answer = oracle.judge(&question.start, &question.goal, claim, how)?;
            let method = answer.method.to_string();
            // `judge` always has a value: a search that gives up is an `unverified` verdict.
            Ok(match answer.value {
                Ok(judged) => Verdict::from_library(&judged.verdict, judged.exact, method),
                Err(_) => Verdict::from_library(
                    &LibVerdict::Unverified {
                        why: "no verdict".into(),
                    },
                    Exact::Unknown,
                    method,
                ),
            })
        }
    }
}

/// Judges a solver's answer for `start` -> `goal` (None: the default goal): `moves` is a move
/// string in any form `npuzzle verify` reads ("RRD", "r,r,d", "right right down"), a sequence
/// of moves (["R", "R", "D"]), or None for "there is no solution". Lengths count in `metric`
/// (`"mtm"`: a run of equal letters is one move). `guarantee` is what the answer claims of
/// its length, as `solve` labels it: `"optimal"` (the default), a factor (`1.2`, `"within
/// 1.2"`: `within-guarantee` where the length is at most that factor times the exact
/// distance, else `broken-guarantee`) or `"none"` (legality only). Returns a Verdict.
#[pyfunction]
#[pyo3(signature = (start, goal, moves, *, board=None, limit=None, max_nodes=None, metric="stm", guarantee=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments.
fn verify(
    py: Python<'_>,
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    moves: &Bound<'_, PyAny>,
    board: Option<&str>,
    limit: Option<f64>,
    max_nodes: Option<u64>,
    metric: &str,
    guarantee: Option<&Bound<'_, PyAny>>,
) -> PyResult<Verdict> {
    let metric = read_metric(metric)?;
    let guarantee = read_within(guarantee)?.unwrap_or_default();
    let (start, goal, how) = read_question(start, goal, board, limit, max_nodes)?;
    let how = how.in_metric(metric).with_guarantee(guarantee);
    let question = Question {
        start,
        goal,
        claim: read_claim(moves)?,
    };
    let oracle = default_oracle();
    py.detach(|| judge(oracle, &question, how))
        .map_err(answer_error)
}

/// Judges many answers at once, in parallel with the GIL released: `answers` is an iterable
/// of (start, goal, moves) triples as `verify` takes them; returns the Verdicts in order.
/// `limit` and `max_nodes` apply to each answer's search; lengths count in `metric`.
#[pyfunction]
#[pyo3(signature = (answers, *, board=None, limit=None, max_nodes=None, metric="stm"))]
fn verify_all(
    py: Python<'_>,
    answers: &Bound<'_, PyAny>,
    board: Option<&str>,
    limit: Option<f64>,
    max_nodes: Option<u64>,
    metric: &str,
) -> PyResult<Vec<Verdict>> {
    let metric = read_metric(metric)?;
    let board = read_board(board)?;
    let how = How::within(limits(limit, max_nodes)?).in_metric(metric);
    let mut questions = Vec::new();
    for (index, item) in answers.try_iter()?.enumerate() {
        let item = item?;
        let at = |e: PyErr| convert::prefix_error(py, e, &format!("answer {index}: "));
        let fields: Vec<Bound<'_, PyAny>> = item
            .try_iter()
            .and_then(|it| it.collect::<PyResult<_>>())
            .map_err(|_| PyTypeError::new_err("each answer must be a (start, goal, moves) triple"))
            .map_err(at)?;
        let [start, goal, moves] = fields.as_slice() else {
            return Err(at(PyValueError::new_err(format!(
                "each answer must be a (start, goal, moves) triple, not {} items",
                fields.len()
            ))));
        };
        let start = read_state(start, board, "start").map_err(at)?;
        let goal = read_goal((!goal.is_none()).then_some(goal), start.board()).map_err(at)?;
        let claim = read_claim(moves).map_err(at)?;
        questions.push(Question { start, goal, claim });
    }
    let oracle = default_oracle();
    let verdicts: Vec<Result<Verdict, AnswerError>> = py.detach(|| {
        questions
            .par_iter()
            .map(|q| judge(oracle, q, how))
            .collect()
    });
    verdicts
        .into_iter()
        .enumerate()
        .map(|(index, v)| {
            v.map_err(|e| convert::prefix_error(py, answer_error(e), &format!("answer {index}: ")))
        })
        .collect()
}

/// Draws test instances, reproducibly: the same seed and options give the same instances as
/// `npuzzle sample --seed SEED` (with `--metric`, `--scramble`, `--moves`). Without a seed a
/// fresh one is drawn (not reproducible). Depths (and distances) count in `metric`.
/// `scramble="uniform"` or `"walk"` (of `moves` moves) draws by the scrambler instead, on any
/// board up to 64x64, distances unknown.
#[pyfunction]
#[pyo3(signature = (*, count=10, seed=None, depth=None, min_depth=None, max_depth=None, unsolvable=0, goal=None, board=None, metric="stm", scramble=None, moves=100))]
#[allow(clippy::too_many_arguments)]
fn sample(
    py: Python<'_>,
    count: u64,
    seed: Option<u64>,
    depth: Option<u8>,
    min_depth: Option<u8>,
    max_depth: Option<u8>,
    unsolvable: u64,
    goal: Option<&Bound<'_, PyAny>>,
    board: Option<&str>,
    metric: &str,
    scramble: Option<&str>,
    moves: usize,
) -> PyResult<Vec<Instance>> {
    if count > MAX_SAMPLE {
        return Err(PyValueError::new_err(format!(
            "count {count} is more than {MAX_SAMPLE} instances per call: draw in several calls with other seeds"
        )));
    }
    let metric = read_metric(metric)?;
    if let Some(kind) = scramble {
        if depth.is_some() || min_depth.is_some() || max_depth.is_some() || unsolvable > 0 {
            return Err(PyValueError::new_err(
                "scramble draws solvable states at no chosen depth: leave out depth, min_depth, max_depth and unsolvable",
            ));
        }
        let scrambler = match kind {
            "uniform" => npuzzle::large::Scrambler::Uniform,
            "walk" => npuzzle::large::Scrambler::Walk(moves),
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown scramble {other:?} (expected \"uniform\" or \"walk\")"
                )))
            }
        };
        return sample_scrambled(py, count, seed, goal, board, scrambler);
    }
    let goal = read_goal_or_default(goal, board)?;
    let depths = npuzzle::sample::depth_range(depth, min_depth, max_depth).map_err(|_| {
        PyValueError::new_err("depth cannot be given together with min_depth or max_depth")
    })?;
    let options = SampleOptions {
        count,
        depths,
        unsolvable,
    };
    let seed = seed.unwrap_or_else(npuzzle::sample::fresh_seed);
    let oracle = default_oracle();
    let drawn = py
        .detach(|| {
            oracle
                .sample_in(metric, &goal, &options, seed)
                .map(|draws| draws.collect::<Vec<_>>())
        })
        .map_err(answer_error)?;
    if (drawn.len() as u64) < count {
        // Starts never repeat: fewer states lie at these depths than were asked for.
        let exist = drawn.len() as u64 - unsolvable;
        let message = std::ffi::CString::new(format!(
            "npuzzle: only {exist} states lie at these depths: each is drawn once, {} instances instead of {count}",
            drawn.len()
        ))
        .expect("no NUL byte in the message");
        PyErr::warn(
            py,
            &py.get_type::<pyo3::exceptions::PyRuntimeWarning>(),
            &message,
            1,
        )?;
    }
    Ok(drawn
        .into_iter()
        .map(|i| Instance {
            start: i.start.to_string(),
            goal: i.goal.to_string(),
            solvable: i.solvable,
            distance: i.distance,
        })
        .collect())
}

/// `sample(scramble=...)`: `count` states drawn by `scrambler` from one seeded stream (the
/// library's [`npuzzle::large::scrambles`], as `npuzzle sample --scramble`), on any board.
fn sample_scrambled(
    py: Python<'_>,
    count: u64,
    seed: Option<u64>,
    goal: Option<&Bound<'_, PyAny>>,
    board: Option<&str>,
    scrambler: npuzzle::large::Scrambler,
) -> PyResult<Vec<Instance>> {
    let large_board = large::large_board(board);
    let given = goal.filter(|g| !g.is_none());
    let goal = match (given, large_board) {
        (Some(goal), _) => match large::read_large(goal, large_board, "goal")? {
            Some(goal) => goal,
            None => npuzzle::large::LargeState::from_small(&read_state(
                goal,
                read_board(board)?,
                "goal",
            )?),
        },
        (None, Some(board)) => npuzzle::large::LargeState::goal(board),
        (None, None) => npuzzle::large::LargeState::from_small(&read_goal_or_default(None, board)?),
    };
    let seed = seed.unwrap_or_else(npuzzle::sample::fresh_seed);
    let goal_text = large::spell(&goal);
    let starts: Vec<String> = py.detach(|| {
        npuzzle::large::scrambles(&goal, scrambler, seed)
            .take(usize::try_from(count).unwrap_or(usize::MAX))
            .map(|start| large::spell(&start))
            .collect()
    });
    Ok(starts
        .into_iter()
        .map(|start| Instance {
            start,
            goal: goal_text.clone(),
            solvable: true,
            distance: None,
        })
        .collect())
}

/// The native half of `npuzzle.distances`, which converts the input to a uint8 array first:
/// `states` must be a 2-D uint8 NumPy array, one state per row. `data_dir`: the data directory
/// to answer from (one oracle per directory and process), else the module's. On boards
/// without a table the rows' searches run watched ([`watch::watched`]): Ctrl-C stops them,
/// and so does `progress` (called every 0.1 s with the latest report of one of them) by
/// returning `False`, which is how a cancelled `npuzzle.distributed` labelling task stops.
#[pyfunction]
#[pyo3(signature = (states, goal=None, *, board=None, limit=None, max_nodes=None, threads=None, metric="stm", data_dir=None, progress=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments.
fn _distances<'py>(
    py: Python<'py>,
    states: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    board: Option<&str>,
    limit: Option<f64>,
    max_nodes: Option<u64>,
    threads: Option<usize>,
    metric: &str,
    data_dir: Option<PathBuf>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    watch::check_callable(progress)?;
    if let Some(dir) = &data_dir {
        refuse_nul(dir)?;
    }
    let metric = read_metric(metric)?;
    // A pool of `threads` for this call (a Dask worker gives each task one thread), else the
    // process's pool of every core.
    let pool = threads
        .map(|threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(search_threads(Some(threads))?)
                .build()
                .map_err(|e| PyValueError::new_err(format!("cannot start {threads} threads: {e}")))
        })
        .transpose()?;
    let on_pool = |work: &(dyn Fn() + Sync)| match &pool {
        Some(pool) => pool.install(work),
        None => work(),
    };
    let untyped = states.cast::<PyUntypedArray>().map_err(|_| {
        PyTypeError::new_err(format!(
            "distances expects a NumPy array of shape (n, cells), not {}",
            convert::type_name(states)
        ))
    })?;
    let Ok(array) = states.cast::<PyArray2<u8>>() else {
        return Err(PyTypeError::new_err(format!(
            "distances expects a 2-D uint8 array of shape (n, cells), not a {}-D array of {}",
            untyped.ndim(),
            untyped.dtype()
        )));
    };
    let [rows, cells] = [array.shape()[0], array.shape()[1]];
    let board = match read_board(board)? {
        Some(board) if board.cells() == cells => board,
        Some(board) => {
            return Err(PyValueError::new_err(format!(
                "the array has {cells} columns, but a {board} board has {} cells",
                board.cells()
            )))
        }
        None => Board::square_with_cells(cells).ok_or_else(|| {
            PyValueError::new_err(format!(
                "{cells} columns do not make a square board (4, 9, 16 or 25 cells): pass board=\"WxH\""
            ))
        })?,
    };
    let goal = read_goal(goal, board)?;
    // Checked on every board, though only searches use it.
    let how = How::within(limits(limit, max_nodes)?).in_metric(metric);
    // A copy taken while holding the GIL: once it is released, another Python thread may
    // write to the array, and the workers must read bytes nobody changes. One memcpy, small
    // next to the lookups.
    let readonly = array.try_readonly()?;
    // `as_slice` also accepts a Fortran-ordered array (column-major memory): only a C-ordered
    // one is copied whole; any other is read in row-major order, element by element.
    let input: Vec<u8> = match readonly.as_slice() {
        Ok(slice) if array.is_c_contiguous() => slice.to_vec(),
        _ => readonly.as_array().iter().copied().collect(),
    };
    drop(readonly);
    let opened;
    let oracle = match data_dir {
        Some(dir) => {
            opened = distributed::oracle(Some(dir));
            &opened
        }
        None => default_oracle(),
    };
    // Under MTM each row is one question (the MTM table's read, or a search).
    if metric == Metric::Stm && oracle.uses_table(board) {
        // The library's bulk path: the table opened and checked once, the rows answered in
        // parallel straight into the result.
        let result = py.detach(|| {
            let mut out = vec![0u8; rows];
            let mut result = Ok(());
            let cell = Mutex::new((&mut out, &mut result));
            on_pool(&|| {
                let mut guard = cell.lock().unwrap_or_else(|e| e.into_inner());
                let (out, result) = &mut *guard;
                **result = oracle.distances(&input, &goal, out);
            });
            result.map(|()| out)
        });
        return match result {
            Ok(out) => Ok(PyArray1::from_vec(py, out)),
            // A row's error names its row; a table that cannot be opened or fails its deep
            // check is reported at row 0, where the per-row answers would have met it.
            Err(error @ AnswerError::Rows(_)) => Err(answer_error(error)),
            Err(error) => Err(errors::Deferred::from_answer(error).into_err("row 0: ")),
        };
    }
    let label = |how: How| {
        let found = Mutex::new(None);
        on_pool(&|| {
            let answer = searched_distances(oracle, &input, rows, board, &goal, how);
            *found.lock().unwrap_or_else(|e| e.into_inner()) = Some(answer);
        });
        found
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .expect("the work ran")
    };
    let observed = |observer: npuzzle::search::Observer| {
        let mut how = how;
        how.limits = how.limits.observe(observer);
        label(how)
    };
    let result = match progress {
        None => watch::watched(py, |_, _| Ok(true), observed)?,
        Some(progress) => watch::watched(py, watch::callback(progress), observed)?,
    };
    match result {
        Ok(out) => Ok(PyArray1::from_vec(py, out)),
        Err(failure) => Err(failure.into_err()),
    }
}

/// Why `distances` failed on a board without a table: the first failing row and what went
/// wrong there.
struct RowFailure {
    row: usize,
    error: errors::Deferred,
}

impl RowFailure {
    fn into_err(self) -> PyErr {
        self.error.into_err(&format!("row {}: ", self.row))
    }
}

/// The distance of each row of `input` (`rows` states of `board`, row-major) to `goal` on a
/// board without a table: one search per row, within `how`'s limits, in parallel; unsolvable
/// rows are [`UNSOLVABLE`]. The first failing row (lowest index) is reported, whatever the
/// thread count.
fn searched_distances(
    oracle: &Oracle,
    input: &[u8],
    rows: usize,
    board: Board,
    goal: &State,
    how: How,
) -> Result<Vec<u8>, RowFailure> {
    let cells = board.cells();
    let mut out = vec![0u8; rows];
    let first_failure: Mutex<Option<RowFailure>> = Mutex::new(None);
    out.par_iter_mut()
        .zip(input.par_chunks_exact(cells))
        .enumerate()
        .for_each(|(row, (slot, tiles))| {
            let answer = State::from_row(board, tiles)
                .map_err(|e| errors::Deferred::Value(e.to_string()))
                .and_then(|start| {
                    oracle
                        .distance(&start, goal, how)
                        .map_err(errors::Deferred::from_answer)
                        .and_then(|answer| {
                            let (value, rest) = answer.split();
                            match value {
                                Ok(d) => Ok(d),
                                Err(NoAnswer::Unsolvable(_)) => Ok(UNSOLVABLE),
                                Err(why) => Err(errors::Deferred::no_answer(why, &rest)),
                            }
                        })
                });
            match answer {
                Ok(d) => *slot = d,
                Err(error) => {
                    let mut first = first_failure.lock().unwrap_or_else(|e| e.into_inner());
                    if first.as_ref().is_none_or(|f| row < f.row) {
                        *first = Some(RowFailure { row, error });
                    }
                }
            }
        });
    match first_failure
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
    {
        Some(failure) => Err(failure),
        None => Ok(out),
    }
}

// ---------------------------------------------------------------------------------------
// Table.

/// The exact table serving one goal in one metric, opened (or built and saved) in a data
/// directory. Two tables are equal when they serve the same goal in the same metric from the
/// same directory; a pickled table
/// opens its table again where it is unpickled (from its directory, or built in memory).
#[pyclass(frozen, module = "npuzzle")]
struct Table {
    oracle: Arc<Oracle>,
    goal: State,
    metric: Metric,
    data_dir: Option<PathBuf>,
}

#[pymethods]
impl Table {
    /// Opens the table serving `goal` (default: the board's goal, on `board`, default 3x3),
    /// building and saving it on first use. `data_dir` defaults to `data_dir()`; a directory
    /// that may not be used (another user's, or writable by others) is refused with a
    /// `RuntimeWarning` and the table is built in memory. `metric="mtm"`: the MTM table (a
    /// slide of several tiles is one move), its own file in the directory.
    #[new]
    #[pyo3(signature = (goal=None, *, board=None, data_dir=None, metric="stm"))]
    fn new(
        py: Python<'_>,
        goal: Option<&Bound<'_, PyAny>>,
        board: Option<&str>,
        data_dir: Option<PathBuf>,
        metric: &str,
    ) -> PyResult<Table> {
        let metric = read_metric(metric)?;
        if let Some(dir) = &data_dir {
            refuse_nul(dir)?;
        }
        let goal = read_goal_or_default(goal, board)?;
        if !has_table(goal.board()) {
            return Err(PyValueError::new_err(
                AnswerError::NoTable {
                    board: goal.board(),
                }
                .to_string(),
            ));
        }
        let (oracle, data_dir) = match data_dir {
            Some(dir) => {
                let dir = usable(dir);
                (Arc::new(oracle_for(dir.clone())), dir)
            }
            None => (
                Arc::clone(default_oracle()),
                default_oracle_and_dir().1.clone(),
            ),
        };
        let table = Table {
            oracle,
            goal,
            metric,
            data_dir,
        };
        py.detach(|| table.header().map(|_| ()))?;
        Ok(table)
    }

    /// The exact number of moves from `start` to this table's goal.
    fn distance(&self, py: Python<'_>, start: &Bound<'_, PyAny>) -> PyResult<u8> {
        let start = read_state(start, Some(self.goal.board()), "start")?;
        ask_distance(py, &self.oracle, start, self.goal, self.how(), None)
    }

    /// An optimal solution from `start` to this table's goal.
    fn solve(&self, py: Python<'_>, start: &Bound<'_, PyAny>) -> PyResult<Solution> {
        let start = read_state(start, Some(self.goal.board()), "start")?;
        ask_solve(py, &self.oracle, start, self.goal, self.how(), None)
    }

    /// How many states lie at each distance 0, 1, ..., max_depth from the goal.
    fn histogram(&self) -> PyResult<Vec<u64>> {
        Ok(self.header()?.counts.clone())
    }

    /// The goal, as a string every function here reads back.
    #[getter]
    fn goal(&self) -> String {
        self.goal.to_string()
    }

    /// The board, as `WxH`.
    #[getter]
    fn board(&self) -> String {
        self.goal.board().to_string()
    }

    /// The largest distance of any state from the goal.
    #[getter]
    fn max_depth(&self) -> PyResult<u8> {
        Ok(self.header()?.max_depth)
    }

    /// How many states can reach the goal (the table's entries: cells! / 2).
    #[getter]
    fn states(&self) -> PyResult<u64> {
        Ok(self.header()?.entries)
    }

    /// How the table counts moves: `"stm"` or `"mtm"`.
    #[getter]
    fn metric(&self) -> &'static str {
        self.metric.name()
    }

    /// The data directory the table was looked for in; `None`: built in memory.
    #[getter]
    fn data_dir(&self) -> Option<PathBuf> {
        self.data_dir.clone()
    }

    fn __eq__(&self, other: PyRef<'_, Table>) -> bool {
        self.goal == other.goal && self.metric == other.metric && self.data_dir == other.data_dir
    }

    fn __hash__(&self) -> u64 {
        hash_of(&(self.goal.to_string(), self.metric.name(), &self.data_dir))
    }

    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, pyo3::types::PyDict>)> {
        Ok((PyTuple::empty(py), self.fields(py)?))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        repr_call("Table", &self.fields(py)?)
    }
}

impl Table {
    /// The constructor's keyword arguments (the directory as a string, so that the `repr`
    /// needs no `pathlib` to be read back).
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let d = pyo3::types::PyDict::new(py);
        d.set_item("goal", self.goal.to_string())?;
        d.set_item("board", self.goal.board().to_string())?;
        d.set_item("metric", self.metric.name())?;
        d.set_item(
            "data_dir",
            self.data_dir
                .as_ref()
                .map(|p| p.to_string_lossy().into_owned()),
        )?;
        Ok(d)
    }

    /// Answers from this table only, in its metric.
    fn how(&self) -> How {
        How::table().in_metric(self.metric)
    }

    fn header(&self) -> PyResult<&npuzzle::Header> {
        // Opened in `new`; asked again so that the oracle stays the only owner of tables.
        let header = match self.metric {
            Metric::Stm => self
                .oracle
                .table(&self.goal)
                .map_err(answer_error)?
                .map(|table| table.header()),
            Metric::Mtm => self
                .oracle
                .mtm_table(&self.goal)
                .map_err(answer_error)?
                .map(|table| table.table().header()),
        };
        header.ok_or_else(|| TableError::new_err("the table is not open"))
    }
}

// ---------------------------------------------------------------------------------------
// The module.

/// Exact answers for sliding-tile puzzles (the native part of the `npuzzle` package).
#[pymodule]
fn _npuzzle(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("NpuzzleError", py.get_type::<NpuzzleError>())?;
    m.add("UnsolvableError", py.get_type::<UnsolvableError>())?;
    m.add("LimitReached", py.get_type::<LimitReached>())?;
    m.add("TableError", py.get_type::<TableError>())?;
    m.add("UNSOLVABLE", UNSOLVABLE)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Solution>()?;
    m.add_class::<Verdict>()?;
    m.add_class::<Instance>()?;
    m.add_class::<Table>()?;
    m.add_function(wrap_pyfunction!(distance, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(is_solvable, m)?)?;
    m.add_function(wrap_pyfunction!(tiles, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(verify_all, m)?)?;
    m.add_function(wrap_pyfunction!(sample, m)?)?;
    m.add_function(wrap_pyfunction!(_distances, m)?)?;
    m.add_function(wrap_pyfunction!(data_dir, m)?)?;
    m.add_function(wrap_pyfunction!(build::build, m)?)?;
    distributed::register(m)?;
    Ok(())
}

/// The data directory the module functions use, fixed at their first question:
/// `$NPUZZLE_DATA_DIR`, else the platform's cache directory; `None` when tables are built in
/// memory (no such directory, or one that was refused with a warning).
#[pyfunction]
fn data_dir() -> Option<PathBuf> {
    default_oracle_and_dir().1.clone()
}
