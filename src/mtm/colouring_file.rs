//! MTM colouring databases in a data directory: the file name, opening one under the store's
//! trust rule (checked whole and deep-checked once per version of the file, which the
//! directory's [`VERIFIED_LIST`](crate::store::file::VERIFIED_LIST) remembers; by its header
//! alone after that, memory-mapped), and saving one built here (deep-checked first, written
//! atomically). The same rules as the pattern databases' ([`crate::pattern::file`]).

use std::path::Path;

use super::colouring::{Colouring, ColouringDb};
use crate::state::State;
use crate::store::file::{
    file_name, open_deep_checked, save_deep_checked, DeepChecked, StoredBytes, StoredFileError,
};
use crate::store::FormatError;

/// The file name of the colouring database of `colouring` towards `goal`: the MTM table's
/// name with the classes of the goal's cells, for example
/// `mtm-4x4-1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-0-colouring-1122332233443440.npt`.
///
/// ```
/// use npuzzle::mtm::colouring::Colouring;
/// use npuzzle::mtm::colouring_file::colouring_file_name;
/// let goal = npuzzle::State::goal("4x4".parse()?);
/// let name = colouring_file_name(&goal, &Colouring::four_by_four());
/// assert!(name.starts_with("mtm-4x4-") && name.ends_with("-colouring-1122332233443440.npt"));
/// # Ok::<(), npuzzle::BoardError>(())
/// ```
pub fn colouring_file_name(goal: &State, colouring: &Colouring) -> String {
    let table = file_name(goal);
    let stem = table.strip_suffix(".npt").unwrap_or(&table);
    let classes: String = colouring
        .classes()
        .iter()
        .map(|&c| char::from(b'0' + c))
        .collect();
    format!("mtm-{stem}-colouring-{classes}.npt")
}

/// Opens the colouring database at `path` in the data directory `dir` (under the trust rule)
/// for `goal` and `colouring`: the first open of a version of the file checks it whole (header,
/// blocks, histogram) and deep ([`ColouringDb::verify_deep`]), and records the version; a
/// later open of that version reads its header alone and maps the rest.
///
/// # Errors
/// [`StoredFileError`]: unreadable, not a regular file, not trusted, not a valid colouring
/// database, for another goal or colouring, or failing the deep check.
pub fn open_in_data_dir(
    dir: &Path,
    path: &Path,
    goal: &State,
    colouring: &Colouring,
) -> Result<ColouringDb<StoredBytes>, StoredFileError> {
    open_deep_checked(dir, path, |db: &ColouringDb<StoredBytes>| {
        db.expect(goal, colouring)
    })
}

/// Saves a colouring database at `path`: deep-checked first (a build checks its own output),
/// written atomically, and recorded as verified so that its first use does not check it again.
///
/// # Errors
/// [`StoredFileError::Inconsistent`] (a generator fault), or [`StoredFileError::Write`].
pub fn save(path: &Path, db: &ColouringDb<Vec<u8>>) -> Result<(), StoredFileError> {
    save_deep_checked(path, db.verify_deep(), db.as_bytes())
}

impl DeepChecked for ColouringDb<StoredBytes> {
    fn open_header_only(bytes: StoredBytes) -> Result<Self, FormatError> {
        ColouringDb::from_verified_header(bytes)
    }

    fn open_whole(bytes: StoredBytes) -> Result<Self, FormatError> {
        ColouringDb::from_bytes(bytes)
    }

    fn check_deep(&self) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        Ok(self.verify_deep()?)
    }
}
