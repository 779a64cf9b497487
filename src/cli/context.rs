//! What every command shares: the data directory and the answer layer over it.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use npuzzle::answer::store::Notice;
use npuzzle::answer::{
    AnswerError, BuildInMemory, DataDir, Oracle, SourceError, SourceEvent, TableSource,
};
use npuzzle::store::StoredBytes;
use npuzzle::{Board, State, Table, TableError};

use super::{Cli, Failure};

/// The data directory and the [`Oracle`] that opens (or builds) tables in it.
pub struct Context {
    /// The data directory, or why there is none.
    data_dir: Result<PathBuf, String>,
    /// Shared, so that `serve` can hand it to its blocking tasks.
    oracle: Arc<Oracle>,
}

impl Context {
    /// The context for the parsed command line: `--data-dir`, else `NPUZZLE_DATA_DIR`, else
    /// the documented default. An empty value counts as unset, as an empty `XDG_CACHE_HOME`
    /// does (a shell's `NPUZZLE_DATA_DIR=` must not break every command).
    pub fn new(cli: &Cli) -> Context {
        let data_dir = cli
            .data_dir
            .clone()
            .filter(|dir| !dir.as_os_str().is_empty())
            .or_else(npuzzle::answer::data_dir_from_env)
            .map_or_else(default_data_dir, Ok);
        let progress = BuildProgress::default();
        let oracle = match &data_dir {
            Ok(dir) => {
                Oracle::new(DataDir::new(dir.clone()).on_event(move |event| progress.report(event)))
            }
            Err(why) => Oracle::new(InMemoryWithNote {
                why: why.clone(),
                noted: AtomicBool::new(false),
            }),
        };
        Context {
            data_dir,
            oracle: Arc::new(oracle),
        }
    }

    /// The data directory, for the commands that name files in it (`build`, `check`).
    pub fn data_dir(&self) -> Result<&PathBuf, Failure> {
        self.data_dir.as_ref().map_err(|why| {
            Failure::usage(format!(
                "no data directory: {why}; name one with --data-dir or NPUZZLE_DATA_DIR"
            ))
        })
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

/// The data directory when none is given: the checkout's `data/` for a binary run from the
/// checkout's own `target/` (`cargo run`, `cargo test`), else the platform's cache directory
/// (the library's [`platform_data_dir`](npuzzle::answer::platform_data_dir): XDG on Linux,
/// `~/Library/Caches` on macOS, the local AppData folder on Windows). With neither, tables are
/// built in memory for the run. An installed binary (`cargo install`) never writes into its
/// source or the registry's: its executable is not under the checkout.
fn default_data_dir() -> Result<PathBuf, String> {
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run_from_checkout = std::env::current_exe()
        .and_then(|exe| exe.canonicalize())
        .ok()
        .zip(checkout.join("target").canonicalize().ok())
        .is_some_and(|(exe, target)| exe.starts_with(target));
    if run_from_checkout && checkout.join("Cargo.toml").is_file() && checkout.join("data").is_dir()
    {
        return Ok(checkout.join("data"));
    }
    npuzzle::answer::platform_data_dir()
        .ok_or_else(|| "this platform has no cache directory (no home directory)".to_string())
}

/// Builds tables in memory when there is no data directory, saying so once.
struct InMemoryWithNote {
    why: String,
    noted: AtomicBool,
}

impl TableSource for InMemoryWithNote {
    fn table(&self, goal: &State) -> Result<Table<StoredBytes>, SourceError> {
        if !self.noted.swap(true, Ordering::Relaxed) {
            stderr_line!(
                "npuzzle: note: no data directory ({}): tables are built in memory for this run only",
                self.why
            );
        }
        BuildInMemory::default().table(goal)
    }
}

impl From<AnswerError> for Failure {
    fn from(error: AnswerError) -> Failure {
        let hint = match &error {
            AnswerError::Table(TableError::Damaged { .. } | TableError::Inconsistent { .. }) => {
                "; run `npuzzle check --deep` and rebuild it with `npuzzle build`"
            }
            AnswerError::NoDatabases { goal } => match goal.board().cells() {
                16 => "; build them with `npuzzle build --pdb 4x4:7-8`",
                25 => "; build them with `npuzzle build --pdb 5x5:6-6-6-6`",
                _ => "",
            },
            _ => "",
        };
        Failure::usage(format!("{error}{hint}"))
    }
}

/// Tells the user, on stderr, that a table or pattern database is being built and what came of
/// it: a spinner (a table) or a progress bar (a database) on a terminal while a large one
/// builds, then one note with the path, size and time.
#[derive(Default)]
struct BuildProgress {
    /// The build under way: when it began, its bar if one is shown, and what it builds.
    current: Mutex<Option<Build>>,
}

/// A build under way.
struct Build {
    began: Instant,
    bar: Option<ProgressBar>,
    what: &'static str,
}

/// Tables of at least this many states (bytes) get a spinner on a terminal, and a note before
/// the build elsewhere.
const SPINNER_STATES: u64 = npuzzle::answer::ANNOUNCED_BUILD_BYTES;

/// The bar of a pattern database build, `{msg}` naming the pattern and its layer; shared by the
/// builds on first use and `npuzzle build --pdb`.
pub(crate) fn pattern_bar() -> ProgressBar {
    ProgressBar::new(0).with_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} placements, {elapsed}")
            .expect("a valid template")
            .progress_chars("=> "),
    )
}

impl BuildProgress {
    fn report(&self, event: SourceEvent<'_>) {
        let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        let terminal = || std::io::stderr().is_terminal();
        match event {
            SourceEvent::Building { goal, states } => {
                let on_terminal = states >= SPINNER_STATES && terminal();
                if let (false, Some(announcement)) = (on_terminal, event.announcement()) {
                    // No spinner to watch (stderr is a file or a pipe): say it before it begins.
                    stderr_line!("npuzzle: note: {announcement}");
                }
                let bar = on_terminal.then(|| {
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
                *current = Some(Build {
                    began: Instant::now(),
                    bar,
                    what: "table",
                });
            }
            SourceEvent::BuildingPattern {
                goal,
                tiles,
                entries,
            } => {
                let bar = terminal().then(|| {
                    let bar = pattern_bar();
                    bar.set_length(entries);
                    bar.set_message(format!(
                        "npuzzle: building the {} pattern database {tiles:?}",
                        goal.board()
                    ));
                    bar
                });
                *current = Some(Build {
                    began: Instant::now(),
                    bar,
                    what: "pattern database",
                });
            }
            SourceEvent::BuildingColouring { .. } => {
                if let Some(announcement) = event.announcement() {
                    stderr_line!("npuzzle: note: {announcement}");
                }
                *current = Some(Build {
                    began: Instant::now(),
                    bar: None,
                    what: "MTM colouring database",
                });
            }
            SourceEvent::PatternProgress(p) => {
                if let Some(bar) = current.as_ref().and_then(|b| b.bar.as_ref()) {
                    bar.set_length(p.entries);
                    bar.set_position(p.reached);
                }
            }
            SourceEvent::Notice(notice) => {
                let taken = current.take();
                let (time, what) = match taken {
                    Some(build) => {
                        if let Some(bar) = build.bar {
                            bar.finish_and_clear();
                        }
                        let secs = build.began.elapsed().as_secs_f64();
                        (format!(" in {secs:.2} s"), build.what)
                    }
                    None => (String::new(), "table"),
                };
                match notice {
                    Notice::Built { path } => {
                        let size = std::fs::metadata(path).map_or(0, |m| m.len());
                        stderr_line!(
                            "npuzzle: note: built {what} {} ({size} bytes){time} (first use)",
                            path.display()
                        );
                    }
                    _ => stderr_line!("npuzzle: warning: {notice}"),
                }
            }
            _ => {}
        }
    }
}
