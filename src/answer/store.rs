//! Loading stored files for the answer layer: open the file of a goal (or pattern) in a data
//! directory, and build and save it where it is missing, damaged or for another goal, or keep
//! it in memory where the directory cannot be used. The store ([`crate::store`]) only reads
//! and writes bytes; building is decided here, next to [`DataDir`](super::DataDir).

use std::path::{Path, PathBuf};

use crate::generate::BuildOptions;
use crate::metric::Metric;
use crate::mtm::colouring::{Colouring, ColouringDb};
use crate::mtm::colouring_file::{self, colouring_file_name};
use crate::pattern::{self, PatternDatabase};
use crate::state::State;
use crate::store::file::{
    check_data_dir, file_name, mtm_file_name, open_mapped, pattern_file_name, write_atomic,
    StoredBytes, StoredFileError,
};
use crate::store::format;
use crate::table::{self, Table};

/// A file opened by [`open_any`]: an exact table or a pattern database, by its header's kind.
#[derive(Debug)]
#[non_exhaustive]
pub enum TableFile {
    /// An exact distance table (kind 1), its header validated (see [`crate::table::file::open`]).
    Exact(Box<Table<StoredBytes>>),
    /// A pattern database (kind 2), header and whole body validated (histogram included).
    Pattern(PatternDatabase<StoredBytes>),
}

/// Opens a file the user names, whichever kind it is: an exact table as [`crate::table::file::open`] does, a
/// pattern database checked whole (header, every block, the histogram). Its owner does not
/// matter (it is only reported on); it must be a regular file.
///
/// # Errors
/// [`StoredFileError`]: unreadable, not a regular file, or valid as neither kind.
pub fn open_any(path: &Path) -> Result<TableFile, StoredFileError> {
    let (bytes, _) = open_mapped(path, false)?;
    let pattern = format::decode_header(bytes.as_ref())
        .is_ok_and(|h| h.kind == format::KIND_PATTERN_DATABASE);
    if pattern {
        PatternDatabase::from_bytes(bytes)
            .map(TableFile::Pattern)
            .map_err(|error| StoredFileError::Invalid {
                path: path.to_path_buf(),
                error,
            })
    } else {
        table::file::validate_table(path, bytes).map(|table| TableFile::Exact(Box::new(table)))
    }
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
        reason: StoredFileError,
    },
    /// The file was damaged or for another goal, and could not be replaced (see the
    /// [`Notice::InMemory`] that follows).
    Damaged {
        /// What was wrong with the file.
        reason: StoredFileError,
    },
    /// The table could not be read or saved; it was built in memory for this run only.
    InMemory {
        /// Why the data directory could not be used.
        reason: StoredFileError,
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
) -> Result<(Table<StoredBytes>, Vec<Notice>), crate::TooLargeError> {
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
) -> Result<(Table<StoredBytes>, Vec<Notice>), crate::TooLargeError> {
    load_or_build_in_metric(dir, goal, Metric::Stm, build)
}

/// [`load_or_build_with`] for the table of `goal` whose distances count `metric` moves: the
/// file [`file_name`] (STM) or [`mtm_file_name`] (MTM, another table of the same goal in the
/// same format). A valid file whose header gives the other metric (an STM table copied to
/// the MTM table's name, or the reverse) is refused as a [`Mismatch::Metric`](crate::store::Mismatch::Metric)
/// and rebuilt over like a file for another goal: its name is not trusted for the metric.
///
/// # Errors
/// What `build` returns.
pub fn load_or_build_in_metric(
    dir: &Path,
    goal: &State,
    metric: Metric,
    build: impl FnOnce() -> Result<Table<Vec<u8>>, crate::TooLargeError>,
) -> Result<(Table<StoredBytes>, Vec<Notice>), crate::TooLargeError> {
    let name = match metric {
        Metric::Stm => file_name(goal),
        Metric::Mtm => mtm_file_name(goal),
    };
    let path = dir.join(name);
    let mut notices = Vec::new();
    if let Err(reason) = check_data_dir(dir) {
        // Not ours, or open to others: nothing in it is read, nothing is written to it.
        notices.push(Notice::InMemory { reason });
        return Ok((into_owned(build()?), notices));
    }
    let problem = match table::file::open_trusted(&path) {
        Ok(table) => match table
            .expect(goal)
            .and_then(|()| table.expect_metric(metric))
        {
            Ok(()) => return Ok((table, notices)),
            Err(error) => StoredFileError::Mismatch {
                path: path.clone(),
                error,
            },
        },
        Err(error) => error,
    };
    let built = build()?;
    if !problem.is_replaceable() {
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
) -> Result<(Option<PatternDatabase<StoredBytes>>, Vec<Notice>), E> {
    let path = dir.join(pattern_file_name(goal, tiles));
    let mut notices = Vec::new();
    if let Err(reason) = check_data_dir(dir) {
        // Not ours, or open to others: nothing in it is read, nothing is written to it.
        notices.push(Notice::InMemory { reason });
        return match build {
            Some(build) => Ok((Some(build()?.map_into()), notices)),
            None => Ok((None, notices)),
        };
    }
    let problem = match pattern::file::open_in_data_dir(dir, &path, goal, tiles) {
        Ok(db) => return Ok((Some(db), notices)),
        Err(error) => error,
    };
    let Some(build) = build else {
        if !problem.is_missing() {
            notices.push(Notice::Damaged { reason: problem });
        }
        return Ok((None, notices));
    };
    let built = build()?;
    if !problem.is_replaceable() {
        notices.push(Notice::InMemory { reason: problem });
        return Ok((Some(built.map_into()), notices));
    }
    match pattern::file::save_pattern_database(&path, &built) {
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

/// [`load_or_build_pattern`] for an MTM colouring database: opens the file of `colouring` for
/// `goal` in `dir` ([`colouring_file::open_in_data_dir`]); where it is missing, damaged or for
/// another goal or colouring, runs `build` and saves the result (deep-checked, atomically).
/// Where the directory cannot be used, the built database is kept in memory
/// ([`Notice::InMemory`]).
///
/// # Errors
/// What `build` returns; [`StoredFileError::Inconsistent`] where a database built here fails
/// its deep check (a generator fault: never used).
pub fn load_or_build_colouring<E: From<StoredFileError>>(
    dir: &Path,
    goal: &State,
    colouring: &Colouring,
    build: impl FnOnce() -> Result<ColouringDb<Vec<u8>>, E>,
) -> Result<(ColouringDb<StoredBytes>, Vec<Notice>), E> {
    let path = dir.join(colouring_file_name(goal, colouring));
    let mut notices = Vec::new();
    let checked = |db: ColouringDb<Vec<u8>>| -> Result<ColouringDb<StoredBytes>, E> {
        db.verify_deep()
            .map_err(|error| StoredFileError::Inconsistent {
                path: path.clone(),
                error: Box::new(error),
            })?;
        Ok(db.map_into())
    };
    if let Err(reason) = check_data_dir(dir) {
        notices.push(Notice::InMemory { reason });
        return Ok((checked(build()?)?, notices));
    }
    let problem = match colouring_file::open_in_data_dir(dir, &path, goal, colouring) {
        Ok(db) => return Ok((db, notices)),
        Err(error) => error,
    };
    let built = build()?;
    if !problem.is_replaceable() {
        notices.push(Notice::InMemory { reason: problem });
        return Ok((checked(built)?, notices));
    }
    match colouring_file::save(&path, &built) {
        Ok(()) => notices.push(if problem.is_missing() {
            Notice::Built { path }
        } else {
            Notice::Rebuilt { reason: problem }
        }),
        Err(reason @ StoredFileError::Inconsistent { .. }) => return Err(reason.into()),
        Err(reason) => {
            if !problem.is_missing() {
                notices.push(Notice::Damaged { reason: problem });
            }
            notices.push(Notice::InMemory { reason });
            return Ok((checked(built)?, notices));
        }
    }
    Ok((built.map_into(), notices))
}

fn into_owned(table: Table<Vec<u8>>) -> Table<StoredBytes> {
    table.map_bytes(StoredBytes::from)
}
