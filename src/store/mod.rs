//! The store: the byte layer under every stored file, exact tables and pattern databases
//! alike. The file format and its header ([`format`](mod@format)), the checksums and the record of which
//! blocks passed them, the histogram the header's counts are checked against, opening files
//! under the trust rule, the memory map and atomic writes ([`file`](mod@file)).
//!
//! The store knows bytes and files, not what the entries mean: [`Table`](crate::Table) and
//! [`PatternDatabase`](crate::pattern::PatternDatabase) are two typed views over it, and
//! neither imports the other. It builds nothing: the loaders that build a missing file live
//! in the answer layer, next to [`DataDir`](crate::answer::DataDir)
//! ([`answer::store`](crate::answer::store)).

pub(crate) mod checks;
pub mod file;
pub mod format;
pub mod histogram;
mod mismatch;
pub(crate) mod os;

pub use file::{StoredBytes, StoredFileError};
pub use format::{FormatError, Header};
pub use mismatch::Mismatch;
pub use os::ignore_file_size_signal;
