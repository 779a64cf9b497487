//! Pattern databases from files: opening one from a data directory (under the store's trust
//! rule; checked whole, deep check included, once per version of the file, which the
//! directory's [`VERIFIED_LIST`](crate::store::file::VERIFIED_LIST) remembers, and by its
//! header alone after that), opening one the user names, and saving one built here. The
//! bytes, the map and atomic writes are the store's ([`crate::store::file`]).

use std::path::Path;

use super::PatternDatabase;
use crate::state::State;
use crate::store::file::{
    open_deep_checked, open_mapped, save_deep_checked, DeepChecked, StoredBytes, StoredFileError,
};
use crate::store::FormatError;

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
/// **Verified once, remembered by version** (the store's rule,
/// [`open_deep_checked`](crate::store::file::open_deep_checked)): the first open of a version
/// of the file checks it whole (header, every block's checksum, the histogram), then the deep
/// check (every entry against its neighbours, seconds to tens of seconds), and records the
/// version; a later open validates the header alone and reads no more of the body than the
/// search touches: a 7-8 file of 290 MB opens in microseconds instead of a tenth of a second
/// of reading. A file changed since it was verified is checked whole again, so a flipped byte
/// is found before anything is read from it.
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
    open_deep_checked(dir, path, |db: &PatternDatabase<StoredBytes>| {
        db.expect(goal, tiles)
    })
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
    save_deep_checked(path, db.verify_deep(), db.as_bytes())
}

impl DeepChecked for PatternDatabase<StoredBytes> {
    fn open_header_only(bytes: StoredBytes) -> Result<Self, FormatError> {
        PatternDatabase::from_verified_header(bytes)
    }

    fn open_whole(bytes: StoredBytes) -> Result<Self, FormatError> {
        PatternDatabase::from_bytes(bytes)
    }

    fn check_deep(&self) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        Ok(self.verify_deep()?)
    }
}
