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
use super::mismatch::Mismatch;
use super::Table;
use crate::generate::BuildOptions;
use crate::pattern::{PatternDamage, PatternDatabase};
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

impl std::fmt::Debug for TableBytes {
    /// Which kind of bytes and how many, never the bytes themselves.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (kind, len) = match &self.0 {
            Bytes::Mapped(map) => ("mapped", map.len()),
            Bytes::Owned(bytes) => ("owned", bytes.len()),
        };
        f.debug_struct("TableBytes")
            .field("kind", &kind)
            .field("len", &len)
            .finish()
    }
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
///
/// Each message includes its cause's text (the `error` fields), so `source()` does not return
/// the cause again: a printer that walks the chain shows each cause once.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableFileError {
    /// The file could not be opened, read or mapped.
    #[error("cannot read table {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: io::Error,
    },
    /// The path is a directory.
    #[error("cannot read table {}: it is a directory", path.display())]
    IsDirectory {
        /// The path.
        path: PathBuf,
    },
    /// The file is not a valid table.
    #[error("table {} is not valid: {error}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: FormatError,
    },
    /// The file is a valid table, but for another goal or pattern than its name says.
    #[error("table {} is not the one asked for: {error}", path.display())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What it is for instead.
        error: Mismatch,
    },
    /// The path is not a regular file (a FIFO, a device, a socket): never opened, since
    /// reading one could block forever.
    #[error("cannot read table {}: it is not a regular file", path.display())]
    NotRegular {
        /// The path.
        path: PathBuf,
    },
    /// The data directory or table file is owned by another user, or others may write to it:
    /// anyone who can write it could plant a table that gives wrong answers.
    #[error("{} is not trusted: {why}", path.display())]
    Untrusted {
        /// The directory or file.
        path: PathBuf,
        /// Who owns it, or who else may write it.
        why: String,
    },
    /// The pattern database's checksums hold, but its entries fail the deep check: edited,
    /// or written by something other than npuzzle's generator.
    #[error("pattern database {} is not valid: {error}", path.display())]
    Inconsistent {
        /// The file.
        path: PathBuf,
        /// The first entry found wrong.
        error: PatternDamage,
    },
    /// The file could not be written.
    #[error("cannot write table {}: {error}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: io::Error,
    },
}

impl TableFileError {
    /// Whether the file exists but holds something other than a valid table for its name.
    pub fn is_invalid(&self) -> bool {
        matches!(
            self,
            TableFileError::Invalid { .. }
                | TableFileError::Mismatch { .. }
                | TableFileError::Inconsistent { .. }
        )
    }

    /// Whether a file with this problem, in a directory of the user's own, is rebuilt over (a
    /// rename): missing, damaged, not a regular file, or not the user's own. An unreadable
    /// one is left alone.
    pub fn is_replaceable(&self) -> bool {
        self.is_missing()
            || self.is_invalid()
            || matches!(
                self,
                TableFileError::NotRegular { .. } | TableFileError::Untrusted { .. }
            )
    }

    /// Whether the file does not exist.
    pub fn is_missing(&self) -> bool {
        matches!(self, TableFileError::Read { error, .. } if error.kind() == io::ErrorKind::NotFound)
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

/// Opens and maps the table at `path` and validates its header; a body of at most
/// [`EAGER_CHECK_BYTES`] is checked whole now, a larger one a block at a time as queries read
/// it (see [`Table::from_header`]), or whole by [`Table::verify_body`].
///
/// Only a regular file is opened (a FIFO would block forever); its owner does not matter,
/// which suits a file the user names (`npuzzle check FILE`). Tables found in a data directory
/// are opened with [`open_trusted`].
///
/// # Errors
/// [`TableFileError`]: unreadable, not a regular file, or not a valid table.
pub fn open(path: &Path) -> Result<Table<TableBytes>, TableFileError> {
    let (file, _) = open_regular(path)?;
    validate_table(path, map_file(path, &file)?)
}

/// [`open`] for a table found in a data directory: also refused unless it is owned by the user
/// npuzzle runs as and no other user may write it (the rule ssh applies to its keys), since
/// whoever can write it decides every answer read from it.
///
/// # Errors
/// As [`open`], and [`TableFileError::Untrusted`].
pub fn open_trusted(path: &Path) -> Result<Table<TableBytes>, TableFileError> {
    let (file, metadata) = open_regular(path)?;
    check_trusted(path, &metadata)?;
    validate_table(path, map_file(path, &file)?)
}

/// Validates mapped bytes as a table: the header, and a small body whole.
fn validate_table(path: &Path, bytes: TableBytes) -> Result<Table<TableBytes>, TableFileError> {
    let invalid = |source| TableFileError::Invalid {
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

/// Opens and maps the pattern database at `path`, found in a data directory (so under the
/// same trust rule as [`open_trusted`]), and validates it whole (header, every block,
/// histogram): a search reads it at every node, so it is checked once, here (a 7-8 file of
/// 290 MB takes about a tenth of a second), and never per read.
///
/// # Errors
/// [`TableFileError`]: unreadable, not a regular file, not trusted, or not a valid pattern
/// database.
pub fn open_pattern_database(path: &Path) -> Result<PatternDatabase<TableBytes>, TableFileError> {
    open_pattern_with_metadata(path).map(|(db, _)| db)
}

/// [`open_pattern_database`], with the opened file's metadata (for [`VERIFIED_LIST`]).
fn open_pattern_with_metadata(
    path: &Path,
) -> Result<(PatternDatabase<TableBytes>, std::fs::Metadata), TableFileError> {
    let (file, metadata) = open_regular(path)?;
    check_trusted(path, &metadata)?;
    let db = PatternDatabase::from_bytes(map_file(path, &file)?).map_err(|source| {
        TableFileError::Invalid {
            path: path.to_path_buf(),
            error: source,
        }
    })?;
    Ok((db, metadata))
}

/// A file opened by [`open_any`]: an exact table or a pattern database, by its header's kind.
#[derive(Debug)]
#[non_exhaustive]
pub enum TableFile {
    /// An exact distance table (kind 1), its header validated (see [`open`]).
    Exact(Box<Table<TableBytes>>),
    /// A pattern database (kind 2), header and whole body validated (histogram included).
    Pattern(PatternDatabase<TableBytes>),
}

/// Opens a file the user names, whichever kind it is: an exact table as [`open`] does, a
/// pattern database checked whole (header, every block, the histogram). Its owner does not
/// matter (it is only reported on); it must be a regular file.
///
/// # Errors
/// [`TableFileError`]: unreadable, not a regular file, or valid as neither kind.
pub fn open_any(path: &Path) -> Result<TableFile, TableFileError> {
    let (file, _) = open_regular(path)?;
    let bytes = map_file(path, &file)?;
    let pattern = super::format::decode_header(bytes.as_ref())
        .is_ok_and(|h| h.kind == super::format::KIND_PATTERN_DATABASE);
    if pattern {
        PatternDatabase::from_bytes(bytes)
            .map(TableFile::Pattern)
            .map_err(|error| TableFileError::Invalid {
                path: path.to_path_buf(),
                error,
            })
    } else {
        validate_table(path, bytes).map(|table| TableFile::Exact(Box::new(table)))
    }
}

/// The file in a data directory listing the pattern database files that passed the deep
/// check, each by name, device, inode, size and change time: a file whose entry matches is
/// not checked again; a file edited since (its change time moves, even when its size and
/// modification time are put back), renamed over or copied in is.
pub const VERIFIED_LIST: &str = ".npuzzle-verified";

/// What identifies one version of a file: device, inode, size and change time.
fn file_version(metadata: &std::fs::Metadata) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        format!(
            "{} {} {} {}.{:09}",
            metadata.dev(),
            metadata.ino(),
            metadata.size(),
            metadata.ctime(),
            metadata.ctime_nsec()
        )
    }
    #[cfg(not(unix))]
    {
        // Without a change time nothing identifies a version: never counted as verified.
        let _ = metadata;
        String::from("unknown")
    }
}

/// The lines of `dir`'s [`VERIFIED_LIST`]: `name<TAB>version`. Read under the trust rule
/// (a list another user could write would let them skip the check); empty when missing or
/// not trusted.
fn verified_list(dir: &Path) -> Vec<(String, String)> {
    let path = dir.join(VERIFIED_LIST);
    let Ok((file, metadata)) = open_regular(&path) else {
        return Vec::new();
    };
    if check_trusted(&path, &metadata).is_err() || metadata.len() > 1 << 20 {
        return Vec::new();
    }
    let mut text = String::new();
    if io::Read::read_to_string(&mut &file, &mut text).is_err() {
        return Vec::new();
    }
    text.lines()
        .filter_map(|line| line.split_once('\t'))
        .map(|(name, version)| (name.to_string(), version.to_string()))
        .collect()
}

/// Whether the file `name` in `dir`, as `metadata` describes it, passed the deep check here.
fn is_verified(dir: &Path, name: &str, metadata: &std::fs::Metadata) -> bool {
    let version = file_version(metadata);
    cfg!(unix)
        && verified_list(dir)
            .iter()
            .any(|(n, v)| n == name && *v == version)
}

/// Records that the file `name` in `dir` passed the deep check, as it is now. Best effort: a
/// directory that cannot be written means the check runs again next time.
fn record_verified(dir: &Path, name: &str, metadata: &std::fs::Metadata) {
    if !cfg!(unix) || name.contains(['\t', '\n']) {
        return;
    }
    let mut lines: Vec<(String, String)> = verified_list(dir)
        .into_iter()
        .filter(|(n, _)| n != name && dir.join(n).is_file())
        .collect();
    lines.push((name.to_string(), file_version(metadata)));
    let text: String = lines.iter().map(|(n, v)| format!("{n}\t{v}\n")).collect();
    let _ = write_atomic(&dir.join(VERIFIED_LIST), text.as_bytes());
}

/// Runs the deep check on `db`, opened from `path` in `dir` with `metadata`, unless this
/// directory's [`VERIFIED_LIST`] says this version of the file passed it already; records a
/// pass.
fn deep_check_once(
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
            error,
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
            error,
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

/// Opens `path` for reading if it is a regular file, without ever blocking.
fn open_regular(path: &Path) -> Result<(File, std::fs::Metadata), TableFileError> {
    let read_error = |error| TableFileError::Read {
        path: path.to_path_buf(),
        error,
    };
    let not_regular = |metadata: &std::fs::Metadata| {
        if metadata.is_dir() {
            Err(TableFileError::IsDirectory {
                path: path.to_path_buf(),
            })
        } else if !metadata.is_file() {
            Err(TableFileError::NotRegular {
                path: path.to_path_buf(),
            })
        } else {
            Ok(())
        }
    };
    // Looked at before opening (following symlinks): opening a FIFO waits for a writer.
    not_regular(&std::fs::metadata(path).map_err(read_error)?)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // Non-blocking, in case the path became a FIFO since it was looked at; the flag does not
    // change how a regular file reads.
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(read_error)?;
    // What was opened is what counts: checked again on the open file itself.
    let metadata = file.metadata().map_err(read_error)?;
    not_regular(&metadata)?;
    Ok((file, metadata))
}

/// Maps an opened regular file read-only.
fn map_file(path: &Path, file: &File) -> Result<TableBytes, TableFileError> {
    let read_error = |error| TableFileError::Read {
        path: path.to_path_buf(),
        error,
    };
    let metadata = file.metadata().map_err(read_error)?;
    let bytes = if metadata.len() == 0 {
        // An empty file cannot be mapped on every platform; it is simply not a table.
        TableBytes::from(Vec::new())
    } else {
        // SAFETY: the file is a regular file opened read-only, and npuzzle never modifies a
        // table file in place (see `write_atomic`), so the mapped bytes do not change while the
        // `Mmap` lives; a rename over this path leaves our mapping on the old, complete file.
        // Other programs changing the file in place are excluded by the module documentation,
        // and files another user could write are not opened from a data directory
        // (`open_trusted`, `open_pattern_database`). The header is validated before any query,
        // and each block of the body against its checksum before a query reads from it (a
        // pattern database: every block, before it is returned).
        let map = unsafe { Mmap::map(file) }.map_err(read_error)?;
        TableBytes(Bytes::Mapped(map))
    };
    Ok(bytes)
}

/// The user npuzzle runs as.
#[cfg(unix)]
fn effective_uid() -> u32 {
    // SAFETY: geteuid takes no arguments, touches no memory of ours and cannot fail.
    unsafe { libc::geteuid() }
}

/// Refuses a file or directory that another user owns or may write.
fn check_trusted(path: &Path, metadata: &std::fs::Metadata) -> Result<(), TableFileError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let untrusted = |why: String| {
            Err(TableFileError::Untrusted {
                path: path.to_path_buf(),
                why,
            })
        };
        let me = effective_uid();
        if metadata.uid() != me {
            return untrusted(format!(
                "it is owned by user {}, and npuzzle runs as user {me}",
                metadata.uid()
            ));
        }
        if metadata.mode() & 0o022 != 0 {
            return untrusted(format!(
                "its mode {:o} lets other users write to it",
                metadata.mode() & 0o7777
            ));
        }
    }
    let _ = (path, metadata);
    Ok(())
}

/// Checks that `dir` can be trusted as a data directory: a directory owned by the user npuzzle
/// runs as, that no other user may write. A directory that does not exist yet is fine: npuzzle
/// creates it private (mode 0700).
///
/// # Errors
/// [`TableFileError::Untrusted`], or [`TableFileError::Read`] when it cannot be looked at.
pub fn check_data_dir(dir: &Path) -> Result<(), TableFileError> {
    check_links_on_the_way(dir)?;
    match std::fs::metadata(dir) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(TableFileError::Read {
            path: dir.to_path_buf(),
            error,
        }),
        Ok(metadata) if !metadata.is_dir() => Err(TableFileError::Untrusted {
            path: dir.to_path_buf(),
            why: "it is not a directory".to_string(),
        }),
        Ok(metadata) => check_trusted(dir, &metadata),
    }
}

/// Refuses a path that passes through a symbolic link another user planted in a shared
/// directory: a link in a sticky, world-writable directory (`/tmp`) owned neither by the user
/// npuzzle runs as nor by the directory's owner. Whoever owns such a link decides where it
/// points, so a data directory reached through it could be any directory of the user's own
/// (for root: any directory at all), and npuzzle would write tables there. This is the rule of
/// Linux's `fs.protected_symlinks`, applied whether or not the kernel applies it.
///
/// Every prefix of `dir` (made absolute) is looked at without following its last component.
fn check_links_on_the_way(dir: &Path) -> Result<(), TableFileError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let absolute = if dir.is_absolute() {
            dir.to_path_buf()
        } else {
            match std::env::current_dir() {
                Ok(cwd) => cwd.join(dir),
                Err(_) => return Ok(()),
            }
        };
        let me = effective_uid();
        let mut prefix = PathBuf::new();
        for component in absolute.components() {
            prefix.push(component);
            let Ok(link) = std::fs::symlink_metadata(&prefix) else {
                // Missing from here on: nothing further to follow.
                return Ok(());
            };
            if !link.file_type().is_symlink() || link.uid() == me {
                continue;
            }
            let Some(parent) = prefix.parent() else {
                continue;
            };
            let Ok(shared) = std::fs::metadata(parent) else {
                continue;
            };
            let sticky_and_open = shared.mode() & 0o1002 == 0o1002;
            if sticky_and_open && link.uid() != shared.uid() {
                return Err(TableFileError::Untrusted {
                    path: dir.to_path_buf(),
                    why: format!(
                        "it is reached through the symbolic link {}, owned by user {} in the shared directory {} (sticky and writable by everyone), and npuzzle runs as user {me}: that user decides where the link points",
                        prefix.display(),
                        link.uid(),
                        parent.display()
                    ),
                });
            }
        }
    }
    let _ = dir;
    Ok(())
}

/// Creates `dir` and its missing parents, private to the user (mode 0700 on Unix).
pub(crate) fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Temporary files of npuzzle's own (`.npuzzle-*.tmp`) older than this are left by a build
/// that was killed: a build writes its file within seconds of creating it.
const STALE_TEMP_AGE: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes the temporary files a killed build left in `dir`: only npuzzle's own names, only
/// regular files of this user, only those untouched for [`STALE_TEMP_AGE`] (a build running
/// now writes its file within seconds).
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)) {
            continue;
        }
        let Ok(metadata) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        let old = metadata
            .modified()
            .ok()
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|age| age > STALE_TEMP_AGE);
        if metadata.is_file() && old && check_trusted(&entry.path(), &metadata).is_ok() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

const TEMP_PREFIX: &str = ".npuzzle-";
const TEMP_SUFFIX: &str = ".tmp";

/// Tables with at most this many entries (bytes) are checked whole when opened: every board
/// of at most 10 cells. Larger ones (the 12-cell boards, 240 MB) are checked a block at a time.
pub const EAGER_CHECK_BYTES: u64 = 16 << 20;

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, flushed to
/// disk, then renamed over `path`. Readers see the old file or the new one, never a mix.
/// Creates the directory (private, mode 0700) if it is missing, and removes the temporary
/// files that killed builds left there.
///
/// # Errors
/// [`TableFileError::Write`] with the cause.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), TableFileError> {
    let write_error = |error| TableFileError::Write {
        path: path.to_path_buf(),
        error,
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    create_private_dir(&dir).map_err(write_error)?;
    remove_stale_temporaries(&dir);
    let mut temp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
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
    if let Err(reason) = check_data_dir(dir) {
        // Not ours, or open to others: nothing in it is read, nothing is written to it.
        notices.push(Notice::InMemory { reason });
        return Ok((into_owned(build()?), notices));
    }
    let problem = match open_trusted(&path) {
        Ok(table) => match table.expect_goal(goal) {
            Ok(()) => return Ok((table, notices)),
            Err(error) => TableFileError::Mismatch {
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
) -> Result<(Option<PatternDatabase<TableBytes>>, Vec<Notice>), E> {
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
    let problem = match open_pattern_with_metadata(&path) {
        Ok((db, metadata)) => match db.expect(goal, tiles) {
            // First use of this version of the file here: every entry against its neighbours.
            Ok(()) => match deep_check_once(dir, &path, &metadata, &db) {
                Ok(()) => return Ok((Some(db), notices)),
                Err(error) => error,
            },
            Err(error) => TableFileError::Mismatch {
                path: path.clone(),
                error,
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
    if !problem.is_replaceable() {
        notices.push(Notice::InMemory { reason: problem });
        return Ok((Some(built.map_into()), notices));
    }
    match save_pattern_database(&path, &built) {
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
