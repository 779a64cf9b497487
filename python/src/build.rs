//! `npuzzle.build`: exact tables and pattern databases written into a data directory, with
//! progress reported to a Python callback.
//!
//! The build runs on a thread of its own with the GIL released; the calling thread waits for
//! its progress reports and calls the callback with the GIL held, so the callback runs on the
//! thread that called `build` (as Python code expects: no callback from a foreign thread) and
//! other Python threads run meanwhile. An exception from the callback, or a signal (Ctrl-C),
//! asks the build to stop at its next report (a pattern database after its current layer, a
//! table after its current table) and is raised once it has stopped; nothing half-built is
//! saved, since every file is written atomically after its deep check.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use npuzzle::answer::{has_table, DEFAULT_BOARD};
use npuzzle::pattern::{Partition, PatternDatabase};
use npuzzle::store::file;
use npuzzle::table::file::save_table;
use npuzzle::{Board, BuildOptions, Metric, State, Table};

use crate::convert::{read_board, read_goal};
use crate::errors::TableError;

/// How often the waiting thread looks for a signal (Ctrl-C) while no report comes.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// One progress report: `done` of `total` units (states or placements), and what is built.
struct Report {
    done: u64,
    total: u64,
    label: String,
}

/// What to build: the tables of some goals in one metric, or the databases of one partition.
enum Plan {
    Tables(Vec<State>, Metric),
    Databases {
        partition: Partition,
        goal: State,
        groups: Vec<Vec<u8>>,
    },
}

/// Builds exact tables (`what="table"`, boards of at most 12 cells) or the pattern databases
/// of a named partition (`"5-5-5"`, `"6-6-3"`, `"7-8"`, `"6-6-6-6"`) into `data_dir` (default:
/// the package's data directory) and returns the paths written. See the stub for the rules.
#[pyfunction]
#[pyo3(signature = (what="table", *, board=None, goal=None, all_blanks=false, metric="stm", data_dir=None, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments.
pub fn build(
    py: Python<'_>,
    what: &str,
    board: Option<&str>,
    goal: Option<&Bound<'_, PyAny>>,
    all_blanks: bool,
    metric: &str,
    data_dir: Option<PathBuf>,
    threads: Option<usize>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Vec<PathBuf>> {
    let metric = crate::read_metric(metric)?;
    if let Some(callback) = &progress {
        if !callback.is_callable() {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "progress must be callable or None, not {}",
                crate::convert::type_name(callback)
            )));
        }
    }
    let threads = match threads {
        None => None,
        Some(n) => Some(crate::search_threads(Some(n))?),
    };
    let dir = match data_dir {
        Some(dir) => {
            crate::refuse_nul(&dir)?;
            dir
        }
        None => crate::default_oracle_and_dir().1.clone().ok_or_else(|| {
            PyValueError::new_err(
                "no data directory to build into: pass data_dir=..., or set NPUZZLE_DATA_DIR",
            )
        })?,
    };
    file::check_data_dir(&dir).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let plan = plan(what, read_board(board)?, goal, all_blanks, metric)?;

    let cancel = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<Report>();
    // Only this thread receives; the mutex makes the receiver shareable with the closure
    // that runs with the GIL released.
    let receiver = std::sync::Mutex::new(receiver);
    let mut raised: Option<PyErr> = None;
    let outcome = std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let sender = sender;
            let work = || run(&plan, &dir, &sender, &cancel);
            match threads {
                Some(n) => rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| format!("cannot start {n} threads: {e}"))
                    .and_then(|pool| pool.install(work)),
                None => work(),
            }
        });
        loop {
            let next = py.detach(|| match receiver.lock() {
                Ok(receiver) => receiver.recv_timeout(SIGNAL_POLL),
                Err(_) => Err(mpsc::RecvTimeoutError::Disconnected),
            });
            match next {
                Ok(report) => {
                    if let (Some(callback), None) = (&progress, &raised) {
                        let called = callback.call1((report.done, report.total, report.label));
                        if let Err(error) = called {
                            raised = Some(error);
                            cancel.store(true, Ordering::Relaxed);
                        }
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if raised.is_none() {
                        if let Err(error) = py.check_signals() {
                            raised = Some(error);
                            cancel.store(true, Ordering::Relaxed);
                        }
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        worker.join()
    });
    if let Some(error) = raised {
        return Err(error);
    }
    match outcome {
        Ok(Ok(paths)) => Ok(paths),
        Ok(Err(message)) => Err(TableError::new_err(message)),
        Err(_) => Err(TableError::new_err(
            "the build failed (its thread panicked)",
        )),
    }
}

/// Reads what to build: the goal (its board from `board`, else the partition's or the
/// default), checked against what the board offers.
fn plan(
    what: &str,
    board: Option<Board>,
    goal: Option<&Bound<'_, PyAny>>,
    all_blanks: bool,
    metric: Metric,
) -> PyResult<Plan> {
    if what == "table" {
        let board = board.unwrap_or(DEFAULT_BOARD);
        let goal = read_goal(goal, board)?;
        let board = goal.board();
        if !has_table(board) {
            return Err(PyValueError::new_err(format!(
                "a {board} board has no exact table (at most 12 cells): build a partition's databases instead"
            )));
        }
        let goals = if all_blanks {
            (0..board.cells())
                .map(|blank| State::canonical_goal(board, blank))
                .collect()
        } else {
            vec![State::canonical_goal(board, goal.blank())]
        };
        return Ok(Plan::Tables(goals, metric));
    }
    let partition: Partition = what
        .parse()
        .map_err(|e: npuzzle::pattern::UnknownPartition| {
            PyValueError::new_err(format!("{e} (or \"table\")"))
        })?;
    if all_blanks {
        return Err(PyValueError::new_err(
            "all_blanks is for tables: a partition's databases are built for one goal",
        ));
    }
    if metric == Metric::Mtm {
        // As `npuzzle build --pdb` refuses `--metric mtm`: the MTM search builds its own
        // databases in memory on first use.
        return Err(PyValueError::new_err(format!(
            "metric=\"mtm\" is for tables: the {partition} databases count STM moves (MTM searches build their own in memory)"
        )));
    }
    let goal = read_goal(goal, board.unwrap_or(partition.board()))?;
    let canonical = State::canonical_goal(goal.board(), goal.blank());
    let groups = partition.groups(&canonical).ok_or_else(|| {
        PyValueError::new_err(format!(
            "the {partition} databases need a {} goal with the blank in a corner, not {goal}",
            partition.board()
        ))
    })?;
    Ok(Plan::Databases {
        partition,
        goal: canonical,
        groups,
    })
}

/// The build itself, on the worker thread: the paths written, or why it stopped.
fn run(
    plan: &Plan,
    dir: &Path,
    sender: &mpsc::Sender<Report>,
    cancel: &AtomicBool,
) -> Result<Vec<PathBuf>, String> {
    let cancelled = || "the build was cancelled".to_string();
    let mut paths = Vec::new();
    match plan {
        Plan::Tables(goals, metric) => {
            let states = |goal: &State| {
                npuzzle::RankSpace::new(goal.board()).map_or(0, |s| u64::from(s.states()))
            };
            let total: u64 = goals.iter().map(states).sum();
            let mut done = 0;
            for goal in goals {
                if cancel.load(Ordering::Relaxed) {
                    return Err(cancelled());
                }
                let table = match metric {
                    Metric::Stm => Table::build(goal, BuildOptions::default()),
                    Metric::Mtm => npuzzle::mtm::build_table(goal, BuildOptions::default()),
                }
                .map_err(|e| e.to_string())?;
                // Deep-checked (while it is written) and renamed into place only then, under
                // the metric's file name (`mtm-<name>.npt` for MTM), as `npuzzle build` saves it.
                let path = save_table(dir, &table).map_err(|e| e.to_string())?;
                done += states(goal);
                let label = match metric {
                    Metric::Stm => format!("{} table for goal {goal}", goal.board()),
                    Metric::Mtm => format!("{} MTM table for goal {goal}", goal.board()),
                };
                // A send fails only once the waiting thread has gone, which it never does first.
                let _ = sender.send(Report { done, total, label });
                paths.push(path);
            }
        }
        Plan::Databases {
            partition,
            goal,
            groups,
        } => {
            let cells = goal.board().cells() as u64;
            let placements = |k: usize| ((cells - k as u64 + 1)..=cells).product::<u64>();
            let total: u64 = groups.iter().map(|g| placements(g.len())).sum();
            let mut before = 0;
            for tiles in groups {
                let db = PatternDatabase::build(goal, tiles, &|p| {
                    let label = format!("{partition} pattern {tiles:?}: layer {}", p.depth);
                    let _ = sender.send(Report {
                        done: before + p.reached,
                        total,
                        label,
                    });
                    if cancel.load(Ordering::Relaxed) {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })
                .map_err(|e| e.to_string())?;
                let path = dir.join(file::pattern_file_name(goal, tiles));
                // Deep-checked before the rename, and recorded as verified in the directory.
                npuzzle::pattern::file::save_pattern_database(&path, &db).map_err(|e| e.to_string())?;
                before += placements(tiles.len());
                paths.push(path);
            }
        }
    }
    Ok(paths)
}
