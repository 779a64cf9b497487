//! Pattern databases from files: opening one from a data directory (under the store's trust
//! rule; checked whole, deep check included, once per version of the file, which the
//! directory's [`VERIFIED_LIST`](crate::store::file::VERIFIED_LIST) remembers, and by its
//! header alone after that), opening one the user names, and saving one built here. The
//! bytes, the map and atomic writes are the store's ([`crate::store::file`]).

use std::path::Path;

use super::PatternDatabase;
use crate::state::State;
use crate::store::file::{
    is_verified, open_mapped, record_verified, write_verified, StoredBytes, StoredFileError,
};

/// Opens and maps the pattern database at `path` under the trust rule of a data directory (as
/// [`table::file::open_trusted`](crate::table::file::open_trusted)), and validates it whole
/// (header, every block, histogram; a 7-8 file of 290 MB takes about a tenth of a second).
/// No deep check and no record: the answer layer opens a data directory's files with
/// `open_in_data_dir` (crate-private), which does both.
///
/// # Errors
/// [`StoredFileError`]: unreadable, not a regular file, not trusted, or not a valid pattern
/// database.
pub fn open_pattern_database(path: &Path) -> Result<PatternDatabase<StoredBytes>, StoredFileError> {
    let (bytes, _) = open_mapped(path, true)?;
    PatternDatabase::from_bytes(bytes).map_err(|error| StoredFileError::Invalid {
        path: path.to_path_buf(),
        error,
    })
}

/// Opens the pattern database at `path` in the data directory `dir` (under the trust rule),
/// for `goal` and `tiles`.
///
/// **Verified once, remembered by version.** The first open of a version of the file checks it
/// whole: header, every block's checksum, the histogram, then the deep check (every entry
/// against its neighbours, seconds to tens of seconds), and records the version (name,
/// device, inode, size, change time) in `dir`'s [`VERIFIED_LIST`](crate::store::file::VERIFIED_LIST).
/// A later open of a version the record lists validates the header alone and reads no more
/// of the body than the search touches: a 7-8 file of 290 MB opens in microseconds instead of
/// a tenth of a second of reading. Any write to the file moves its change time (even when its
/// size and modification time are put back), a rename over it or a copy brings another inode,
/// so a file changed since it was verified is checked whole again, and a flipped byte is found
/// before anything is read from it. The record is itself read under the trust rule.
///
/// # Errors
/// [`StoredFileError`]: unreadable, not a regular file, not trusted, not a valid pattern
/// database ([`StoredFileError::Invalid`]), for another goal or pattern
/// ([`StoredFileError::Mismatch`], found before the deep check), or failing the deep check
/// ([`StoredFileError::Inconsistent`]).
pub(crate) fn open_in_data_dir(
    dir: &Path,
    path: &Path,
    goal: &State,
    tiles: &[u8],
) -> Result<PatternDatabase<StoredBytes>, StoredFileError> {
    let (bytes, metadata) = open_mapped(path, true)?;
    let invalid = |error| StoredFileError::Invalid {
        path: path.to_path_buf(),
        error,
    };
    let mismatch = |error| StoredFileError::Mismatch {
        path: path.to_path_buf(),
        error,
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let name = name.unwrap_or_default();
    if is_verified(dir, &name, &metadata) {
        // This very version of the file passed every check below here before.
        let db = PatternDatabase::from_verified_header(bytes).map_err(invalid)?;
        db.expect(goal, tiles).map_err(mismatch)?;
        return Ok(db);
    }
    let db = PatternDatabase::from_bytes(bytes).map_err(invalid)?;
    db.expect(goal, tiles).map_err(mismatch)?;
    db.verify_deep()
        .map_err(|error| StoredFileError::Inconsistent {
            path: path.to_path_buf(),
            error: Box::new(error),
        })?;
    record_verified(dir, &name, &metadata);
    Ok(db)
}

/// Saves a pattern database built here at `path` in a data directory: deep-checked first (a
/// build checks its own output, as `build` does for tables), written atomically, and recorded
/// as verified so that its first use does not check it again.
///
/// # Errors
/// [`StoredFileError::Inconsistent`] (a generator fault), or [`StoredFileError::Write`].
pub fn save_pattern_database<D: AsRef<[u8]> + Sync>(
    path: &Path,
    db: &PatternDatabase<D>,
) -> Result<(), StoredFileError> {
    db.verify_deep()
        .map_err(|error| StoredFileError::Inconsistent {
            path: path.to_path_buf(),
            error: Box::new(error),
        })?;
    write_verified(path, db.as_bytes())
}
