//! Pattern databases from files: opening one from a data directory (under the store's trust
//! rule, validated whole), the deep check run once per version of a file (remembered in the
//! directory's [`VERIFIED_LIST`](crate::store::file::VERIFIED_LIST)), and saving one built
//! here. The bytes, the map and atomic writes are the store's ([`crate::store::file`]).

use std::path::Path;

use super::PatternDatabase;
use crate::store::file::{
    is_verified, open_mapped, record_verified, write_atomic, TableBytes, TableFileError,
};

/// Opens and maps the pattern database at `path`, found in a data directory (so under the
/// same trust rule as [`table::file::open_trusted`](crate::table::file::open_trusted)), and validates it whole (header, every block,
/// histogram): a search reads it at every node, so it is checked once, here (a 7-8 file of
/// 290 MB takes about a tenth of a second), and never per read.
///
/// # Errors
/// [`TableFileError`]: unreadable, not a regular file, not trusted, or not a valid pattern
/// database.
pub fn open_pattern_database(path: &Path) -> Result<PatternDatabase<TableBytes>, TableFileError> {
    open_pattern_with_metadata(path).map(|(db, _)| db)
}

/// [`open_pattern_database`], with the opened file's metadata (for [`VERIFIED_LIST`](crate::store::file::VERIFIED_LIST)).
pub(crate) fn open_pattern_with_metadata(
    path: &Path,
) -> Result<(PatternDatabase<TableBytes>, std::fs::Metadata), TableFileError> {
    let (bytes, metadata) = open_mapped(path, true)?;
    let db = PatternDatabase::from_bytes(bytes).map_err(|source| TableFileError::Invalid {
        path: path.to_path_buf(),
        error: source,
    })?;
    Ok((db, metadata))
}

/// Runs the deep check on `db`, opened from `path` in `dir` with `metadata`, unless this
/// directory's [`VERIFIED_LIST`](crate::store::file::VERIFIED_LIST) says this version of the file passed it already; records a
/// pass.
pub(crate) fn deep_check_once(
    dir: &Path,
    path: &Path,
    metadata: &std::fs::Metadata,
    db: &PatternDatabase<TableBytes>,
) -> Result<(), TableFileError> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let name = name.unwrap_or_default();
    if is_verified(dir, &name, metadata) {
        return Ok(());
    }
    db.verify_deep()
        .map_err(|error| TableFileError::Inconsistent {
            path: path.to_path_buf(),
            error: Box::new(error),
        })?;
    record_verified(dir, &name, metadata);
    Ok(())
}

/// Saves a pattern database built here at `path` in a data directory: deep-checked first (a
/// build checks its own output, as `build` does for tables), written atomically, and recorded
/// as verified so that its first use does not check it again.
///
/// # Errors
/// [`TableFileError::Inconsistent`] (a generator fault), or [`TableFileError::Write`].
pub fn save_pattern_database<D: AsRef<[u8]> + Sync>(
    path: &Path,
    db: &PatternDatabase<D>,
) -> Result<(), TableFileError> {
    db.verify_deep()
        .map_err(|error| TableFileError::Inconsistent {
            path: path.to_path_buf(),
            error: Box::new(error),
        })?;
    write_atomic(path, db.as_bytes())?;
    if let (Some(dir), Some(name), Ok(metadata)) = (
        path.parent(),
        path.file_name(),
        std::fs::symlink_metadata(path),
    ) {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        record_verified(dir, &name.to_string_lossy(), &metadata);
    }
    Ok(())
}
