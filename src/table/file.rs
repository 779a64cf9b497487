//! Table files on disk: the data directory, atomic writes, and the memory map.
//!
//! This is the only module with `unsafe` code: mapping a file into memory.
//!
//! # Safety of the memory map
//! `memmap2::Mmap::map` is unsafe because the mapped bytes could change (or vanish, if the
//! file is truncated) while we hold a `&[u8]` to them. npuzzle guarantees that it never
//! changes a table file in place: every write goes to a temporary file in the same directory
//! that is then renamed over the old name, so a mapping always shows one complete,
//! unchanging file (the old inode lives on until the mapping is dropped). Another program
//! truncating or overwriting a table file in place while npuzzle has it mapped is outside this
//! guarantee; the bytes are validated (header and checksums) when the mapping is made.
#![allow(unsafe_code)]

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use super::format::FormatError;
use super::Table;
use crate::bfs::BuildOptions;
use crate::pattern::PatternDatabase;
use crate::state::State;

/// The bytes behind a table: a read-only memory map of a file, or a buffer built in memory.
/// Opaque, so that the memory map stays an implementation detail.
pub struct TableBytes(Bytes);

enum Bytes {
    /// A memory-mapped file.
    Mapped(Mmap),
    /// Built in memory (the data directory could not be used, or it was asked for).
    Owned(Vec<u8>),
}

impl TableBytes {
    /// Whether the bytes are a memory-mapped file (rather than built in memory).
    pub fn is_mapped(&self) -> bool {
        matches!(self.0, Bytes::Mapped(_))
    }
}

impl From<Vec<u8>> for TableBytes {
    fn from(bytes: Vec<u8>) -> TableBytes {
        TableBytes(Bytes::Owned(bytes))
    }
}

impl AsRef<[u8]> for TableBytes {
    fn as_ref(&self) -> &[u8] {
        match &self.0 {
            Bytes::Mapped(map) => map,
            Bytes::Owned(bytes) => bytes,
        }
    }
}

/// Why a table file could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableFileError {
    /// The file could not be opened, read or mapped.
    #[error("cannot read table {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The path is a directory.
    #[error("cannot read table {}: it is a directory", path.display())]
    IsDirectory {
        /// The path.
        path: PathBuf,
    },
    /// The file is not a valid table, or not the one asked for.
    #[error("table {} is not valid: {source}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: FormatError,
    },
    /// The file could not be written.
    #[error("cannot write table {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
}

impl TableFileError {
    /// Whether the file exists but holds something other than a valid table.
    pub fn is_invalid(&self) -> bool {
        matches!(self, TableFileError::Invalid { .. })
    }

    /// Whether the file does not exist.
    pub fn is_missing(&self) -> bool {
        matches!(self, TableFileError::Read { source, .. } if source.kind() == io::ErrorKind::NotFound)
    }
}

/// The file name of the table for `goal`, for example `3x3-123456780.npt`.
pub fn file_name(goal: &State) -> String {
    let cells: Vec<String> = goal.cells().iter().map(|t| t.to_string()).collect();
    let sep = if goal.board().has_single_digit_tiles() {
        ""
    } else {
        "-"
    };
    format!("{}-{}.npt", goal.board(), cells.join(sep))
}

/// The default data directory: the checkout's `data/` when this binary was built from a
/// checkout that still exists, else `$XDG_CACHE_HOME/npuzzle`, else `$HOME/.cache/npuzzle`,
/// else `npuzzle-data` in the system's temporary directory.
pub fn default_data_dir() -> PathBuf {
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR"));
    if checkout.join("Cargo.toml").is_file() && checkout.join("data").is_dir() {
        return checkout.join("data");
    }
    if let Some(cache) = std::env::var_os("XDG_CACHE_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(cache).join("npuzzle");
    }
    if let Some(home) = std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(home).join(".cache").join("npuzzle");
    }
    std::env::temp_dir().join("npuzzle-data")
}

/// Opens and maps the table at `path` and validates its header; a body of at most
/// [`EAGER_CHECK_BYTES`] is checked whole now, a larger one a block at a time as queries read
/// it (see [`Table::from_header`]), or whole by [`Table::verify_body`].
///
/// # Errors
/// [`TableFileError`]: unreadable, a directory, or not a valid table.
pub fn open(path: &Path) -> Result<Table<TableBytes>, TableFileError> {
    let bytes = map(path)?;
    let invalid = |source| TableFileError::Invalid {
        path: path.to_path_buf(),
        source,
    };
    // The header only: each block of the body is checked when a query first reads it, so a
    // 240 MB table opens in microseconds and a damaged block is still never read as valid.
    let table = Table::from_header(bytes).map_err(invalid)?;
    // A small body is checked whole now (16 MiB take about 2 ms): damage is then found at
    // open, where the caller can still rebuild the file, rather than by a later query.
    if table.header().entries <= EAGER_CHECK_BYTES {
        table.verify_body().map_err(invalid)?;
    }
    Ok(table)
}

/// Opens and maps the pattern database at `path` and validates it whole (header, every
/// block, histogram): a search reads it at every node, so it is checked once, here (a 7-8
/// file of 290 MB takes about a tenth of a second), and never per read.
///
/// # Errors
/// [`TableFileError`]: unreadable, a directory, or not a valid pattern database.
pub fn open_pattern_database(path: &Path) -> Result<PatternDatabase<TableBytes>, TableFileError> {
    PatternDatabase::from_bytes(map(path)?).map_err(|source| TableFileError::Invalid {
        path: path.to_path_buf(),
        source,
    })
}

/// The file name of the pattern database of `tiles` for `goal`: the table's name with the
/// pattern's tiles, for example `4x4-0-1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-pdb-1-2-3.npt`.
pub fn pattern_file_name(goal: &State, tiles: &[u8]) -> String {
    let mut sorted = tiles.to_vec();
    sorted.sort_unstable();
    let tiles: Vec<String> = sorted.iter().map(|t| t.to_string()).collect();
    let table = file_name(goal);
    let stem = table.strip_suffix(".npt").unwrap_or(&table);
    format!("{stem}-pdb-{}.npt", tiles.join("-"))
}

/// Opens `path` read-only and maps it (a regular file only: a directory is refused).
fn map(path: &Path) -> Result<TableBytes, TableFileError> {
    let read_error = |source| TableFileError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(read_error)?;
    let metadata = file.metadata().map_err(read_error)?;
    if metadata.is_dir() {
        return Err(TableFileError::IsDirectory {
            path: path.to_path_buf(),
        });
    }
    let bytes = if metadata.len() == 0 {
        // An empty file cannot be mapped on every platform; it is simply not a table.
        TableBytes::from(Vec::new())
    } else {
        // SAFETY: the file is opened read-only and npuzzle never modifies a table file in
        // place (see `write_atomic`), so the mapped bytes do not change while the `Mmap`
        // lives; a rename over this path leaves our mapping on the old, complete file. Other
        // programs changing the file in place are excluded by the module documentation. The
        // header is validated by `Table::from_header` before any query, and each block of the
        // body against its checksum before a query reads from it (a pattern database: every
        // block, before it is returned).
        let map = unsafe { Mmap::map(&file) }.map_err(read_error)?;
        TableBytes(Bytes::Mapped(map))
    };
    Ok(bytes)
}

/// Tables with at most this many entries (bytes) are checked whole when opened: every board
/// of at most 10 cells. Larger ones (the 12-cell boards, 240 MB) are checked a block at a time.
pub const EAGER_CHECK_BYTES: u64 = 16 << 20;

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, flushed to
/// disk, then renamed over `path`. Readers see the old file or the new one, never a mix.
/// Creates the directory if it is missing.
///
/// # Errors
/// [`TableFileError::Write`] with the cause.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), TableFileError> {
    let write_error = |source| TableFileError::Write {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(write_error)?;
    let mut temp = tempfile::Builder::new()
        .prefix(".npuzzle-")
        .suffix(".tmp")
        .tempfile_in(&dir)
        .map_err(write_error)?;
    temp.write_all(bytes).map_err(write_error)?;
    // Tables are shared data, not secrets: readable by all like any other cache file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let readable = std::fs::Permissions::from_mode(0o644);
        temp.as_file()
            .set_permissions(readable)
            .map_err(write_error)?;
    }
    temp.as_file().sync_all().map_err(write_error)?;
    temp.persist(path).map_err(|e| write_error(e.error))?;
    Ok(())
}

/// What [`load_or_build`] had to do besides reading a valid file, for the caller to report.
#[derive(Debug)]
#[non_exhaustive]
pub enum Notice {
    /// The table was missing and has been built and saved.
    Built {
        /// Where it was saved.
        path: PathBuf,
    },
    /// The file was damaged or for another goal; it has been rebuilt and replaced.
    Rebuilt {
        /// What was wrong with the old file.
        reason: TableFileError,
    },
    /// The file was damaged or for another goal, and could not be replaced (see the
    /// [`Notice::InMemory`] that follows).
    Damaged {
        /// What was wrong with the file.
        reason: TableFileError,
    },
    /// The table could not be read or saved; it was built in memory for this run only.
    InMemory {
        /// Why the data directory could not be used.
        reason: TableFileError,
    },
}

impl std::fmt::Display for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Notice::Built { path } => write!(f, "built table {}", path.display()),
            Notice::Rebuilt { reason } => write!(f, "{reason}; rebuilt it"),
            Notice::Damaged { reason } => write!(f, "{reason}"),
            Notice::InMemory { reason } => {
                write!(f, "{reason}; answering from a table built in memory")
            }
        }
    }
}

/// Opens the table for `goal` in `dir`, building it (and saving it there) when it is missing,
/// damaged or for another goal. Where `dir` cannot be read or written, the table is built in
/// memory and a [`Notice::InMemory`] says why. Never fails for a board that can be ranked.
///
/// # Errors
/// [`crate::TooLargeError`] when `goal`'s board is too large for a table.
pub fn load_or_build(
    dir: &Path,
    goal: &State,
    options: BuildOptions,
) -> Result<(Table<TableBytes>, Vec<Notice>), crate::TooLargeError> {
    load_or_build_with(dir, goal, || Table::build(goal, options))
}

/// [`load_or_build`] with the caller's way of building: `build` runs only when the file is
/// missing, damaged or for another goal (so a caller can say that a long build begins, or run
/// it on threads of its choosing).
///
/// # Errors
/// What `build` returns.
pub fn load_or_build_with(
    dir: &Path,
    goal: &State,
    build: impl FnOnce() -> Result<Table<Vec<u8>>, crate::TooLargeError>,
) -> Result<(Table<TableBytes>, Vec<Notice>), crate::TooLargeError> {
    let path = dir.join(file_name(goal));
    let mut notices = Vec::new();
    let problem = match open(&path) {
        Ok(table) => match table.expect_goal(goal) {
            Ok(()) => return Ok((table, notices)),
            Err(source) => TableFileError::Invalid {
                path: path.clone(),
                source,
            },
        },
        Err(error) => error,
    };
    let built = build()?;
    let replaceable = problem.is_missing() || problem.is_invalid();
    if !replaceable {
        notices.push(Notice::InMemory { reason: problem });
        return Ok((into_owned(built), notices));
    }
    match write_atomic(&path, built.as_bytes()) {
        Ok(()) => {
            notices.push(if problem.is_missing() {
                Notice::Built { path }
            } else {
                Notice::Rebuilt { reason: problem }
            });
            Ok((into_owned(built), notices))
        }
        Err(reason) => {
            if !problem.is_missing() {
                notices.push(Notice::Damaged { reason: problem });
            }
            notices.push(Notice::InMemory { reason });
            Ok((into_owned(built), notices))
        }
    }
}

/// [`load_or_build_with`] for a pattern database: opens the file of `tiles` for `goal` in
/// `dir`; where it is missing, damaged or for another pattern, runs `build` if given (and
/// saves the result atomically), else answers `None` (a damaged file is then reported in a
/// [`Notice::Damaged`]). Where the directory cannot be written, the built database is kept in
/// memory ([`Notice::InMemory`]).
///
/// # Errors
/// What `build` returns.
pub fn load_or_build_pattern<E>(
    dir: &Path,
    goal: &State,
    tiles: &[u8],
    build: Option<impl FnOnce() -> Result<PatternDatabase<Vec<u8>>, E>>,
) -> Result<(Option<PatternDatabase<TableBytes>>, Vec<Notice>), E> {
    let path = dir.join(pattern_file_name(goal, tiles));
    let mut notices = Vec::new();
    let problem = match open_pattern_database(&path) {
        Ok(db) => match db.expect(goal, tiles) {
            Ok(()) => return Ok((Some(db), notices)),
            Err(source) => TableFileError::Invalid {
                path: path.clone(),
                source,
            },
        },
        Err(error) => error,
    };
    let Some(build) = build else {
        if !problem.is_missing() {
            notices.push(Notice::Damaged { reason: problem });
        }
        return Ok((None, notices));
    };
    let built = build()?;
    let replaceable = problem.is_missing() || problem.is_invalid();
    if !replaceable {
        notices.push(Notice::InMemory { reason: problem });
        return Ok((Some(built.map_into()), notices));
    }
    match write_atomic(&path, built.as_bytes()) {
        Ok(()) => notices.push(if problem.is_missing() {
            Notice::Built { path }
        } else {
            Notice::Rebuilt { reason: problem }
        }),
        Err(reason) => {
            if !problem.is_missing() {
                notices.push(Notice::Damaged { reason: problem });
            }
            notices.push(Notice::InMemory { reason });
        }
    }
    Ok((Some(built.map_into()), notices))
}

fn into_owned(table: Table<Vec<u8>>) -> Table<TableBytes> {
    table.map_bytes(TableBytes::from)
}
