//! Exact tables from files: opening one (the header validated, a small body checked whole, a
//! large one a block at a time as queries read it). The bytes, the trust rule and the map are
//! the store's ([`crate::store::file`]); building a missing table is the answer layer's
//! ([`crate::answer::store`]).

use std::path::Path;

use super::Table;
use crate::store::file::{open_mapped, StoredBytes, StoredFileError};

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
