//! What every command shares: the data directory and the answer layer over it.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use npuzzle::answer::{AnswerError, DataDir, Oracle, SourceEvent};
use npuzzle::table::file::{self, Notice};
use npuzzle::{Board, TableError};

use super::{Cli, Failure};

/// The data directory and the [`Oracle`] that opens (or builds) tables in it.
pub struct Context {
    data_dir: PathBuf,
    oracle: Oracle,
}

impl Context {
    /// The context for the parsed command line: `--data-dir`, else `NPUZZLE_DATA_DIR`, else
    /// the documented default. An empty value counts as unset, as an empty `XDG_CACHE_HOME`
    /// does (a shell's `NPUZZLE_DATA_DIR=` must not break every command).
    pub fn new(cli: &Cli) -> Context {
        let given = |dir: &PathBuf| !dir.as_os_str().is_empty();
        let data_dir = cli
            .data_dir
            .clone()
            .filter(given)
            .or_else(|| {
                std::env::var_os("NPUZZLE_DATA_DIR")
                    .map(PathBuf::from)
                    .filter(given)
            })
            .unwrap_or_else(file::default_data_dir);
        let progress = BuildProgress::default();
        let oracle = Oracle::new(
            DataDir::new(data_dir.clone()).on_event(move |event| progress.report(event)),
        );
        Context { data_dir, oracle }
    }

    /// The data directory.
    pub fn data_dir(&self) -> &PathBuf {
        &self.data_dir
    }

    /// The answer layer: tables from the data directory, search elsewhere.
    pub fn oracle(&self) -> &Oracle {
        &self.oracle
    }

    /// The usage error of a command that needs an exact table for `board`, which has none.
    pub fn no_table(board: Board) -> Failure {
        Failure::from(AnswerError::NoTable { board })
    }
}

impl From<AnswerError> for Failure {
    fn from(error: AnswerError) -> Failure {
        let hint = match &error {
            AnswerError::Table(TableError::Damaged { .. } | TableError::Inconsistent { .. }) => {
                "; run `npuzzle check --deep` and rebuild it with `npuzzle build`"
            }
            _ => "",
        };
        Failure::usage(format!("{error}{hint}"))
    }
}

/// Tells the user, on stderr, that a table is being built and what came of it: a spinner on a
/// terminal while a large table builds, then one note with the path, size and time.
#[derive(Default)]
struct BuildProgress {
    /// When the current build began, and its spinner if one is shown.
    current: Mutex<Option<(Instant, Option<ProgressBar>)>>,
}

/// Tables of at least this many states get a spinner on a terminal (about a second to build).
const SPINNER_STATES: u64 = 10_000_000;

impl BuildProgress {
    fn report(&self, event: SourceEvent<'_>) {
        let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        match event {
            SourceEvent::Building { goal, states } => {
                let spinner =
                    (states >= SPINNER_STATES && std::io::stderr().is_terminal()).then(|| {
                        let bar = ProgressBar::new_spinner().with_style(
                            ProgressStyle::with_template("npuzzle: {spinner} {msg} {elapsed}")
                                .expect("a valid template"),
                        );
                        bar.set_message(format!(
                            "building the {} table for goal {goal} ({states} states, {} MB)",
                            goal.board(),
                            states.div_ceil(1_000_000)
                        ));
                        bar.enable_steady_tick(std::time::Duration::from_millis(200));
                        bar
                    });
                *current = Some((Instant::now(), spinner));
            }
            SourceEvent::Notice(notice) => {
                let taken = current.take();
                let elapsed = taken.as_ref().map(|(began, _)| began.elapsed());
                if let Some((_, Some(bar))) = taken {
                    bar.finish_and_clear();
                }
                let time =
                    elapsed.map_or(String::new(), |e| format!(" in {:.2} s", e.as_secs_f64()));
                match notice {
                    Notice::Built { path } => {
                        let size = std::fs::metadata(path).map_or(0, |m| m.len());
                        eprintln!(
                            "npuzzle: note: built table {} ({size} bytes){time} (first use)",
                            path.display()
                        );
                    }
                    _ => eprintln!("npuzzle: warning: {notice}"),
                }
            }
            _ => {}
        }
    }
}
