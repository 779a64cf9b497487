//! Where the answer layer gets a table it has not opened yet: the caller's choice.
//!
//! The library has no policy on directories: [`BuildInMemory`] builds every table in memory
//! (nothing touches the file system), and [`DataDir`] opens tables in a directory the caller
//! names, building and saving those that are missing or damaged. A caller with other needs
//! implements [`TableSource`].

use std::path::{Path, PathBuf};

use std::ops::ControlFlow;

use super::store::{self, Notice};
use crate::generate::BuildOptions;
use crate::metric::Metric;
use crate::mtm::colouring::{Colouring, ColouringDb};
use crate::mtm::colouring_file::colouring_file_name;
use crate::pattern::{BuildError, PatternDatabase, Progress};
use crate::state::State;
use crate::store::file::{
    check_data_dir, create_private_dir, file_name, mtm_file_name, pattern_file_name,
};
use crate::store::StoredBytes;
use crate::table::Table;

/// Why a source could not give a table.
pub type SourceError = Box<dyn std::error::Error + Send + Sync>;

/// Gives the answer layer the table of a canonical goal (see [`State::canonical_goal`]).
///
/// The answer layer asks at most once per goal and process (it keeps what it gets), holding a
/// lock while it asks, so a source need not guard against being asked twice at once.
pub trait TableSource: Send + Sync {
    /// The table whose goal is `goal`, a canonical goal on a board with tables.
    ///
    /// # Errors
    /// Whatever kept the source from opening or building it.
    fn table(&self, goal: &State) -> Result<Table<StoredBytes>, SourceError>;

    /// Told when a table it gave turned out damaged (a block failed its checksum when first
    /// read), so that the next process does not open it again. Does nothing by default.
    fn damaged(&self, goal: &State) {
        let _ = goal;
    }

    /// The pattern database of `tiles` for `goal` (a canonical goal): `Ok(None)` where the
    /// source has none, or has none yet and `build` is false. With `build`, a source that can
    /// build one does. The default has none, so a source written before pattern databases
    /// existed keeps working (its boards beyond 12 cells are searched with linear conflict).
    ///
    /// # Errors
    /// Whatever kept the source from opening or building it.
    fn pattern_database(
        &self,
        goal: &State,
        tiles: &[u8],
        build: bool,
    ) -> Result<Option<PatternDatabase<StoredBytes>>, SourceError> {
        let _ = (goal, tiles, build);
        Ok(None)
    }

    /// The MTM table of `goal` (a canonical goal on a board with tables), whose entries count
    /// MTM moves: `Ok(None)` where the source keeps none, and the answer layer builds it in
    /// memory (the default, so a source written before MTM keeps working).
    ///
    /// # Errors
    /// Whatever kept the source from opening or building it.
    fn mtm_table(&self, goal: &State) -> Result<Option<Table<StoredBytes>>, SourceError> {
        let _ = goal;
        Ok(None)
    }

    /// Told when an MTM table it gave turned out damaged (see [`TableSource::damaged`]).
    fn damaged_mtm(&self, goal: &State) {
        let _ = goal;
    }

    /// The MTM colouring database of `colouring` towards `goal` (the canonical goal of its
    /// blank cell), for the MTM search of 4x4: `Ok(None)` where the source keeps none, and the
    /// answer layer builds it in memory (the default).
    ///
    /// # Errors
    /// Whatever kept the source from opening or building it.
    fn mtm_colouring_database(
        &self,
        goal: &State,
        colouring: &Colouring,
    ) -> Result<Option<ColouringDb<StoredBytes>>, SourceError> {
        let _ = (goal, colouring);
        Ok(None)
    }
}

/// Builds every table in memory when first asked for it; nothing is read or written.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildInMemory {
    /// Generator threads: `None` uses every core.
    pub threads: Option<usize>,
}

impl TableSource for BuildInMemory {
    fn table(&self, goal: &State) -> Result<Table<StoredBytes>, SourceError> {
        let table = build_isolated(goal, self.threads)?;
        Ok(table.map_bytes(StoredBytes::from))
    }

    /// Builds the MTM table in memory, as the answer layer would for a source that keeps none;
    /// given here so that a source wrapping this one (the server's) can budget it.
    fn mtm_table(&self, goal: &State) -> Result<Option<Table<StoredBytes>>, SourceError> {
        let table = build_isolated_with(goal, self.threads, crate::mtm::build_table)?;
        Ok(Some(table.map_bytes(StoredBytes::from)))
    }

    /// Builds the database when `build` is set (the databases built on first use, 4x4 6-6-3:
    /// about two seconds); otherwise has none.
    fn pattern_database(
        &self,
        goal: &State,
        tiles: &[u8],
        build: bool,
    ) -> Result<Option<PatternDatabase<StoredBytes>>, SourceError> {
        if !build {
            return Ok(None);
        }
        let db = build_pattern_isolated(goal, tiles, self.threads, &|_| {})?;
        // Only a database that passed the deep check answers "optimal" (a generator fault
        // would otherwise go unnoticed).
        db.verify_deep()?;
        Ok(Some(db.map_into()))
    }
}

/// What a [`DataDir`] tells its caller while it works.
#[derive(Debug)]
#[non_exhaustive]
pub enum SourceEvent<'a> {
    /// A table is about to be built: `states` entries, one byte each, for `goal`.
    Building {
        /// The canonical goal.
        goal: &'a State,
        /// Entries of the table, one byte each.
        states: u64,
    },
    /// A table was built, rebuilt, or could only be kept in memory (see [`Notice`]).
    Notice(&'a Notice),
    /// A pattern database is about to be built: `entries` placements of `tiles` for `goal`.
    BuildingPattern {
        /// The canonical goal.
        goal: &'a State,
        /// The pattern's tiles.
        tiles: &'a [u8],
        /// Its entries.
        entries: u64,
    },
    /// A layer of a pattern database build is done.
    PatternProgress(Progress),
    /// An MTM colouring database is about to be built: `entries` one-byte entries.
    BuildingColouring {
        /// The canonical goal.
        goal: &'a State,
        /// Its entries, one byte each.
        entries: u64,
    },
}

/// Builds of at least this many bytes are announced before they begin (a note or a spinner from
/// the command line, a `RuntimeWarning` in Python): on 12-cell boards a table is 240 MB and
/// seconds of work, kept in the data directory afterwards, which nobody should find out later.
pub const ANNOUNCED_BUILD_BYTES: u64 = 10_000_000;

impl SourceEvent<'_> {
    /// For a table build of at least [`ANNOUNCED_BUILD_BYTES`] about to begin: one line saying
    /// what is built, how large it is, and that it stays on disk. `None` for smaller builds and
    /// other events. (Pattern databases built on first use are 6-6-3, under 3 MB each; the
    /// larger ones are built only by `npuzzle build --pdb`.)
    ///
    /// ```
    /// use npuzzle::answer::SourceEvent;
    /// use npuzzle::{Board, State};
    /// let goal = State::goal(Board::new(4, 3)?);
    /// let event = SourceEvent::Building { goal: &goal, states: 239_500_800 };
    /// assert!(event.announcement().unwrap().contains("240 MB"));
    /// let small = State::goal(Board::THREE_BY_THREE);
    /// assert_eq!(SourceEvent::Building { goal: &small, states: 181_440 }.announcement(), None);
    /// # Ok::<(), npuzzle::BoardError>(())
    /// ```
    pub fn announcement(&self) -> Option<String> {
        match self {
            SourceEvent::BuildingColouring { goal, entries } => Some(format!(
                "building the {} MTM colouring database for goal {goal}: {} MB ({entries} entries), tens of seconds of work; it is saved in the data directory and reused (delete it to reclaim the space)",
                goal.board(),
                entries.div_ceil(1_000_000)
            )),
            SourceEvent::Building { goal, states } if *states >= ANNOUNCED_BUILD_BYTES => {
                Some(format!(
                    "building the {} table for goal {goal}: {} MB ({states} states), seconds of work; it is saved in the data directory and reused (delete it to reclaim the space)",
                    goal.board(),
                    states.div_ceil(1_000_000)
                ))
            }
            _ => None,
        }
    }
}

/// Opens tables in one directory; builds and saves (atomically) those that are missing,
/// damaged or for another goal; keeps a table in memory where the directory cannot be used.
pub struct DataDir {
    dir: PathBuf,
    threads: Option<usize>,
    report: Box<dyn Fn(SourceEvent<'_>) + Send + Sync>,
}

impl std::fmt::Debug for DataDir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DataDir")
            .field("dir", &self.dir)
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

impl DataDir {
    /// Tables in `dir`, built on every core when missing, with no reports.
    pub fn new(dir: impl Into<PathBuf>) -> DataDir {
        DataDir {
            dir: dir.into(),
            threads: None,
            report: Box::new(|_| {}),
        }
    }

    /// Builds on `threads` threads.
    pub fn threads(mut self, threads: Option<usize>) -> DataDir {
        self.threads = threads;
        self
    }

    /// Calls `report` when a build begins and with every [`Notice`].
    pub fn on_event(mut self, report: impl Fn(SourceEvent<'_>) + Send + Sync + 'static) -> DataDir {
        self.report = Box::new(report);
        self
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl TableSource for DataDir {
    fn table(&self, goal: &State) -> Result<Table<StoredBytes>, SourceError> {
        let _lock = build_lock(&self.dir, &file_name(goal));
        let (table, notices) = store::load_or_build_with(&self.dir, goal, || {
            let states = u64::from(crate::RankSpace::new(goal.board())?.states());
            (self.report)(SourceEvent::Building { goal, states });
            build_isolated(goal, self.threads)
        })?;
        for notice in &notices {
            (self.report)(SourceEvent::Notice(notice));
        }
        Ok(table)
    }

    /// Removes the damaged file (a rename over it is atomic for readers, and a missing file
    /// is rebuilt on next use); a file that cannot be removed stays, and is refused again.
    fn damaged(&self, goal: &State) {
        let _ = std::fs::remove_file(self.dir.join(file_name(goal)));
    }

    /// Opens the MTM table's own file ([`mtm_file_name`]), or builds and saves it, as for
    /// [`DataDir::table`]: the same format, checks, atomic write and notices.
    fn mtm_table(&self, goal: &State) -> Result<Option<Table<StoredBytes>>, SourceError> {
        let _lock = build_lock(&self.dir, &mtm_file_name(goal));
        let (table, notices) =
            store::load_or_build_in_metric(&self.dir, goal, Metric::Mtm, || {
                let states = crate::RankSpace::new(goal.board())?.states() as u64;
                (self.report)(SourceEvent::Building { goal, states });
                build_isolated_with(goal, self.threads, crate::mtm::build_table)
            })?;
        for notice in &notices {
            (self.report)(SourceEvent::Notice(notice));
        }
        Ok(Some(table))
    }

    fn damaged_mtm(&self, goal: &State) {
        let _ = std::fs::remove_file(self.dir.join(mtm_file_name(goal)));
    }

    /// Opens the colouring database's file ([`colouring_file_name`]), or builds, checks and
    /// saves it, as for the pattern databases.
    fn mtm_colouring_database(
        &self,
        goal: &State,
        colouring: &Colouring,
    ) -> Result<Option<ColouringDb<StoredBytes>>, SourceError> {
        let _lock = build_lock(&self.dir, &colouring_file_name(goal, colouring));
        let (db, notices) = store::load_or_build_colouring(&self.dir, goal, colouring, || {
            (self.report)(SourceEvent::BuildingColouring {
                goal,
                entries: colouring.entries(),
            });
            build_colouring_isolated(goal, colouring, self.threads).map_err(SourceError::from)
        })?;
        for notice in &notices {
            (self.report)(SourceEvent::Notice(notice));
        }
        Ok(Some(db))
    }

    /// Opens the database's file in the directory; builds and saves it when it is missing or
    /// damaged and `build` is set. A damaged file that is not rebuilt is reported and not used.
    fn pattern_database(
        &self,
        goal: &State,
        tiles: &[u8],
        build: bool,
    ) -> Result<Option<PatternDatabase<StoredBytes>>, SourceError> {
        let builder = build.then_some(|| {
            let entries = crate::pattern::PatternSpace::new(goal.board(), tiles)?.entries();
            (self.report)(SourceEvent::BuildingPattern {
                goal,
                tiles,
                entries,
            });
            build_pattern_isolated(goal, tiles, self.threads, &|p| {
                (self.report)(SourceEvent::PatternProgress(p))
            })
        });
        let _lock = build
            .then(|| build_lock(&self.dir, &pattern_file_name(goal, tiles)))
            .flatten();
        let (db, notices) = store::load_or_build_pattern(&self.dir, goal, tiles, builder)?;
        for notice in &notices {
            (self.report)(SourceEvent::Notice(notice));
        }
        Ok(db)
    }
}

/// Where several processes share a data directory (Dask workers, a cluster's shared path),
/// the first to miss file `name` builds it and the others wait for it and then open it,
/// instead of all building the same file at once: an exclusive lock on `DIR/.NAME.lock`,
/// taken only when the file is missing (an existing file is opened without it) and held
/// until the caller's load-or-build returns (the guard). The lock is the operating system's
/// (`flock` on Unix), released when the process ends, so a killed builder never leaves
/// the others waiting.
///
/// `None` where the file exists, and where no lock can be taken (a directory that is not
/// trusted or not writable, a file system without locks): the load-or-build then goes on
/// unlocked and reports what it always reports there (a build in memory, a refusal).
fn build_lock(dir: &Path, name: &str) -> Option<BuildLock> {
    if dir.join(name).exists() {
        return None;
    }
    // The directory's own checks first: created private, as a build would create it.
    check_data_dir(dir).ok()?;
    create_private_dir(dir).ok()?;
    let path = dir.join(format!(".{name}.lock"));
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .ok()?;
    file.lock().ok()?;
    Some(BuildLock { file, path })
}

/// A held build lock ([`build_lock`]). Dropped once the file is built (or was found): the
/// lock file is removed first, so none is left in the directory, then the lock released.
/// A process that was waiting on the removed file gets the lock next and finds the file
/// built; one that comes later finds the file and takes no lock.
struct BuildLock {
    file: std::fs::File,
    path: PathBuf,
}

impl Drop for BuildLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// Builds a pattern database on a thread and a pool of its own (see [`build_isolated`]),
/// calling `report` after each layer.
pub(crate) fn build_pattern_isolated(
    goal: &State,
    tiles: &[u8],
    threads: Option<usize>,
    report: &(dyn Fn(Progress) + Sync),
) -> Result<PatternDatabase<Vec<u8>>, BuildError> {
    on_own_pool(threads, || {
        PatternDatabase::build(goal, tiles, &|p| {
            report(p);
            ControlFlow::Continue(())
        })
    })
}

/// Builds an MTM colouring database on a thread and a pool of its own (see
/// [`build_isolated`]).
///
/// # Errors
/// As [`ColouringDb::build`].
pub(crate) fn build_colouring_isolated(
    goal: &State,
    colouring: &Colouring,
    threads: Option<usize>,
) -> Result<ColouringDb<Vec<u8>>, crate::mtm::colouring::ColouringError> {
    on_own_pool(threads, || ColouringDb::build(goal, colouring.clone()))
}

/// Builds the table for `goal` on a thread and a thread pool of its own.
///
/// Why: the answer layer may be asked for a table from inside a rayon task (a batch answers
/// its pieces in parallel) while it holds its loading lock. Building there would let that
/// thread, waiting for the generator's tasks, steal another piece of the batch, which would
/// then wait for the same lock on the same thread: a deadlock. A plain thread that blocks in
/// `join`, and a pool that only the generator uses, rule that out.
fn build_isolated(
    goal: &State,
    threads: Option<usize>,
) -> Result<Table<Vec<u8>>, crate::TooLargeError> {
    build_isolated_with(goal, threads, Table::build)
}

/// A table generator: the STM table's ([`Table::build`]) or the MTM table's
/// ([`crate::mtm::build_table`]).
type Generator = fn(&State, BuildOptions) -> Result<Table<Vec<u8>>, crate::TooLargeError>;

/// [`build_isolated`] with the generator `build`.
fn build_isolated_with(
    goal: &State,
    threads: Option<usize>,
    build: Generator,
) -> Result<Table<Vec<u8>>, crate::TooLargeError> {
    on_own_pool(threads, || build(goal, BuildOptions::default()))
}

/// Runs `work` on a thread of its own, in a rayon pool of its own of `threads` threads (the
/// machine's count when `None`): the isolation every build here needs ([`build_isolated`]
/// says why).
fn on_own_pool<T: Send>(threads: Option<usize>, work: impl FnOnce() -> T + Send) -> T {
    let threads = threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads.max(1))
                    .build()
                    .expect("a rayon pool of a few threads can always be built")
                    .install(work)
            })
            .join()
            .expect("the generator does not panic")
    })
}
