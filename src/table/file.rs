//! Exact tables from files: opening one (the header validated, a small body checked whole, a
//! large one a block at a time as queries read it). The bytes, the trust rule and the map are
//! the store's ([`crate::store::file`]); building a missing table is the answer layer's
//! ([`crate::answer::store`]).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{Table, TableError};
use crate::metric::Metric;
use crate::store::file::{
    file_name, mtm_file_name, open_mapped, Staged, StoredBytes, StoredFileError,
};

/// Opens and maps the table at `path` and validates its header; a body of at most
/// [`EAGER_CHECK_BYTES`] is checked whole now, a larger one a block at a time as queries read
/// it (see [`Table::from_header`]), or whole by [`Table::verify_body`].
///
/// Only a regular file is opened (a FIFO would block forever); its owner does not matter,
/// which suits a file the user names (`npuzzle check FILE`). Tables found in a data directory
/// are opened with [`open_trusted`].
///
/// # Errors
/// [`StoredFileError`]: unreadable, not a regular file, or not a valid table.
pub fn open(path: &Path) -> Result<Table<StoredBytes>, StoredFileError> {
    validate_table(path, open_mapped(path, false)?.0)
}

/// [`open`] for a table found in a data directory: also refused unless it is owned by the user
/// npuzzle runs as and no other user may write it (the rule ssh applies to its keys), since
/// whoever can write it decides every answer read from it.
///
/// # Errors
/// As [`open`], and [`StoredFileError::Untrusted`].
pub fn open_trusted(path: &Path) -> Result<Table<StoredBytes>, StoredFileError> {
    validate_table(path, open_mapped(path, true)?.0)
}

/// Validates mapped bytes as a table: the header, and a small body whole.
pub(crate) fn validate_table(
    path: &Path,
    bytes: StoredBytes,
) -> Result<Table<StoredBytes>, StoredFileError> {
    let invalid = |source| StoredFileError::Invalid {
        path: path.to_path_buf(),
        error: source,
    };
    // The header only: each block of the body is checked when a query first reads it, so a
    // 240 MB table opens in microseconds and a damaged block is still never read as valid.
    let mut table = Table::from_header(bytes).map_err(invalid)?;
    // A small body is checked whole now (16 MiB take about 2 ms): damage is then found at
    // open, where the caller can still rebuild the file, rather than by a later query.
    if table.header().entries <= EAGER_CHECK_BYTES {
        table.verify_body().map_err(invalid)?;
        table.body_checked = true;
    }
    Ok(table)
}

/// Tables with at most this many entries (bytes) are checked whole when opened: every board
/// of at most 10 cells. Larger ones (the 12-cell boards, 240 MB) are checked a block at a time.
pub const EAGER_CHECK_BYTES: u64 = 16 << 20;

/// Why a table could not be saved: [`save_table`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SaveError {
    /// The table failed its deep check ([`Table::verify_deep`]): a generator fault, never
    /// written.
    #[error(transparent)]
    Check(#[from] TableError),
    /// The file could not be written.
    #[error(transparent)]
    File(#[from] StoredFileError),
}

/// Saves a table built here into the data directory `dir`, under the file name of its goal
/// and [metric](Table::metric) ([`file_name`] for STM, [`mtm_file_name`] for MTM: the name
/// always agrees with the header), and returns the path: deep-checked (a build checks its
/// own output, every entry against its neighbours in its metric, not only the checksums it
/// has just computed itself) and written atomically, so a reader never sees half a file.
/// The command line's `build` and the Python package's `build` both save through here. The
/// data directory's trust check ([`check_data_dir`](crate::store::file::check_data_dir)) is
/// the caller's, before it builds.
///
/// The check and the write run side by side (the check on rayon's pool, the write and its
/// flush to disk on a thread of their own): the bytes are written to a temporary file that
/// takes the table's name only after the check has passed; a table that fails is never
/// named, and its temporary file is removed. See [`save_table_timed`] for the times.
///
/// ```
/// use npuzzle::table::file::{open, save_table};
/// use npuzzle::{Board, BuildOptions, Metric, State, Table};
/// let dir = tempfile::tempdir()?;
/// let goal = State::goal(Board::new(2, 3)?);
/// let path = save_table(dir.path(), &Table::build(&goal, BuildOptions::default())?)?;
/// assert_eq!(open(&path)?.goal(), &goal);
/// let mtm = npuzzle::mtm::build_table(&goal, BuildOptions::default())?;
/// let path = save_table(dir.path(), &mtm)?;
/// assert!(path.ends_with(npuzzle::store::file::mtm_file_name(&goal)));
/// assert_eq!(open(&path)?.metric(), Metric::Mtm);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SaveError::Check`] for a table that fails the deep check, [`SaveError::File`] when the
/// file cannot be written.
pub fn save_table<D: AsRef<[u8]>>(dir: &Path, table: &Table<D>) -> Result<PathBuf, SaveError> {
    Ok(save_table_timed(dir, table)?.path)
}

/// A table saved by [`save_table_timed`]: where, and how long its two steps took.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SavedTable {
    /// The file.
    pub path: PathBuf,
    /// The deep check ([`Table::verify_deep`]), from the start of the save; the write ran
    /// beside it.
    pub checked: Duration,
    /// From the end of the check until the file was in place: what of the write and its
    /// flush to disk the check did not hide, and the rename.
    pub saved: Duration,
}

/// [`save_table`], also saying how long the deep check took and how much longer the file
/// took to be written (`npuzzle build` prints both).
///
/// ```
/// use npuzzle::table::file::save_table_timed;
/// use npuzzle::{Board, BuildOptions, State, Table};
/// let dir = tempfile::tempdir()?;
/// let table = Table::build(&State::goal(Board::new(3, 2)?), BuildOptions::default())?;
/// let saved = save_table_timed(dir.path(), &table)?;
/// assert!(saved.path.is_file());
/// assert_eq!(std::fs::read(&saved.path)?, table.as_bytes());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`save_table`].
pub fn save_table_timed<D: AsRef<[u8]>>(
    dir: &Path,
    table: &Table<D>,
) -> Result<SavedTable, SaveError> {
    let name = match table.metric() {
        Metric::Stm => file_name(table.goal()),
        Metric::Mtm => mtm_file_name(table.goal()),
    };
    let path = dir.join(name);
    let began = Instant::now();
    let bytes = table.as_bytes();
    let (checked, check_time, staged) = std::thread::scope(|scope| {
        // The write waits on the disk most of the time, the check on memory and the cores:
        // side by side, the save costs about the longer of the two.
        let writer = scope.spawn(|| Staged::write(&path, bytes));
        let checked = table.verify_deep();
        let check_time = began.elapsed();
        let staged = writer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (checked, check_time, staged)
    });
    // A table that fails is never named: dropping the staged file removes it.
    checked?;
    staged?.commit()?;
    Ok(SavedTable {
        path,
        checked: check_time,
        saved: began.elapsed().saturating_sub(check_time),
    })
}
