//! Stored files on disk: opening (regular files only, never blocking), the trust rule, the
//! memory map, atomic writes, file names, and the record of files that passed the deep check.
//!
//! No `unsafe` here: the map and the user id come from `store::os`, whose documentation
//! gives the safety argument this module's rules (atomic writes, the trust rule) uphold.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use super::format::FormatError;
use super::mismatch::Mismatch;
#[cfg(unix)]
use super::os::effective_uid;
use super::os::map_read_only;
use crate::state::State;

/// The bytes behind a stored file (a table or a pattern database): a read-only memory map of
/// the file, or a buffer built in memory. Opaque, so that the memory map stays an
/// implementation detail.
pub struct StoredBytes(Bytes);

enum Bytes {
    /// A memory-mapped file.
    Mapped(Mmap),
    /// Built in memory (the data directory could not be used, or it was asked for).
    Owned(Vec<u8>),
    /// Copied into anonymous memory on huge pages ([`StoredBytes::resident_copy`]).
    Resident(Mmap),
}

impl std::fmt::Debug for StoredBytes {
    /// Which kind of bytes and how many, never the bytes themselves.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (kind, len) = match &self.0 {
            Bytes::Mapped(map) => ("mapped", map.len()),
            Bytes::Owned(bytes) => ("owned", bytes.len()),
            Bytes::Resident(copy) => ("resident", copy.len()),
        };
        f.debug_struct("StoredBytes")
            .field("kind", &kind)
            .field("len", &len)
            .finish()
    }
}

impl StoredBytes {
    /// Whether the bytes are a memory-mapped file (rather than built in memory).
    pub fn is_mapped(&self) -> bool {
        matches!(self.0, Bytes::Mapped(_))
    }

    /// A copy of `bytes` in the process's own memory, asked (on Linux) to be backed by huge
    /// pages (`madvise(MADV_HUGEPAGE)`, best effort: a kernel that refuses still gives the
    /// copy). For a search that reads a large pattern database at random millions of times:
    /// with 4 KB pages nearly every read of a 260 MB table also misses the TLB, with 2 MB
    /// pages the whole table needs about 130 entries. The copy costs the time to read the
    /// bytes once and their size in memory, so it is for long runs (a set of instances), not
    /// for one question (BENCHMARKS.md, issue 22).
    ///
    /// ```
    /// use npuzzle::store::StoredBytes;
    /// let copy = StoredBytes::resident_copy(&[1, 2, 3])?;
    /// assert_eq!(copy.as_ref(), &[1, 2, 3]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    ///
    /// # Errors
    /// The operating system's, when the memory cannot be mapped.
    pub fn resident_copy(bytes: &[u8]) -> io::Result<StoredBytes> {
        if bytes.is_empty() {
            return Ok(StoredBytes(Bytes::Owned(Vec::new())));
        }
        let mut copy = memmap2::MmapMut::map_anon(bytes.len())?;
        #[cfg(target_os = "linux")]
        {
            // Best effort: without huge pages the copy is still a correct copy.
            let _ = copy.advise(memmap2::Advice::HugePage);
        }
        copy.copy_from_slice(bytes);
        Ok(StoredBytes(Bytes::Resident(copy.make_read_only()?)))
    }
}

impl From<Vec<u8>> for StoredBytes {
    fn from(bytes: Vec<u8>) -> StoredBytes {
        StoredBytes(Bytes::Owned(bytes))
    }
}

impl AsRef<[u8]> for StoredBytes {
    fn as_ref(&self) -> &[u8] {
        match &self.0 {
            Bytes::Mapped(map) | Bytes::Resident(map) => map,
            Bytes::Owned(bytes) => bytes,
        }
    }
}

/// Why a stored file (a table or a pattern database) could not be used.
///
/// Each message includes its cause's text (the `error` fields), so `source()` does not return
/// the cause again: a printer that walks the chain shows each cause once.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoredFileError {
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
        /// The first entry found wrong (a [`PatternDamage`](crate::pattern::PatternDamage)).
        error: Box<dyn std::error::Error + Send + Sync>,
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

impl StoredFileError {
    /// Whether the file exists but holds something other than a valid table for its name.
    pub fn is_invalid(&self) -> bool {
        matches!(
            self,
            StoredFileError::Invalid { .. }
                | StoredFileError::Mismatch { .. }
                | StoredFileError::Inconsistent { .. }
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
                StoredFileError::NotRegular { .. } | StoredFileError::Untrusted { .. }
            )
    }

    /// Whether the file does not exist.
    pub fn is_missing(&self) -> bool {
        matches!(self, StoredFileError::Read { error, .. } if error.kind() == io::ErrorKind::NotFound)
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

/// The file name of the MTM table ([`crate::mtm::MtmTable`]) for `goal`: the STM table's name
/// with `mtm-` before it (`mtm-3x3-123456780.npt`), in the same format.
///
/// ```
/// use npuzzle::store::file::{file_name, mtm_file_name};
/// let goal: npuzzle::State = "123456780".parse()?;
/// assert_eq!(mtm_file_name(&goal), format!("mtm-{}", file_name(&goal)));
/// # Ok::<(), npuzzle::ParseStateError>(())
/// ```
pub fn mtm_file_name(goal: &State) -> String {
    format!("mtm-{}", file_name(goal))
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
pub(crate) fn open_regular(path: &Path) -> Result<(File, std::fs::Metadata), StoredFileError> {
    let read_error = |error| StoredFileError::Read {
        path: path.to_path_buf(),
        error,
    };
    let not_regular = |metadata: &std::fs::Metadata| {
        if metadata.is_dir() {
            Err(StoredFileError::IsDirectory {
                path: path.to_path_buf(),
            })
        } else if !metadata.is_file() {
            Err(StoredFileError::NotRegular {
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
pub(crate) fn map_file(path: &Path, file: &File) -> Result<StoredBytes, StoredFileError> {
    let read_error = |error| StoredFileError::Read {
        path: path.to_path_buf(),
        error,
    };
    let metadata = file.metadata().map_err(read_error)?;
    let bytes = if metadata.len() == 0 {
        // An empty file cannot be mapped on every platform; it is simply not a table.
        StoredBytes::from(Vec::new())
    } else {
        let map = map_read_only(file).map_err(read_error)?;
        StoredBytes(Bytes::Mapped(map))
    };
    Ok(bytes)
}

/// Refuses a file or directory that another user owns or may write.
pub(crate) fn check_trusted(
    path: &Path,
    metadata: &std::fs::Metadata,
) -> Result<(), StoredFileError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let untrusted = |why: String| {
            Err(StoredFileError::Untrusted {
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
/// [`StoredFileError::Untrusted`], or [`StoredFileError::Read`] when it cannot be looked at.
pub fn check_data_dir(dir: &Path) -> Result<(), StoredFileError> {
    check_links_on_the_way(dir)?;
    match std::fs::metadata(dir) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(StoredFileError::Read {
            path: dir.to_path_buf(),
            error,
        }),
        Ok(metadata) if !metadata.is_dir() => Err(StoredFileError::Untrusted {
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
fn check_links_on_the_way(dir: &Path) -> Result<(), StoredFileError> {
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
                return Err(StoredFileError::Untrusted {
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

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, flushed to
/// disk, then renamed over `path`. Readers see the old file or the new one, never a mix.
/// Creates the directory (private, mode 0700) if it is missing, and removes the temporary
/// files that killed builds left there.
///
/// # Errors
/// [`StoredFileError::Write`] with the cause.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoredFileError> {
    Staged::write(path, bytes)?.commit()
}

/// Writes `bytes` at `path` ([`write_atomic`]) and records the new file as verified
/// ([`record_verified`]): for a file whose contents the caller has just deep-checked, so that
/// its first use does not check it again.
///
/// # Errors
/// [`StoredFileError::Write`] with the cause.
fn write_verified(path: &Path, bytes: &[u8]) -> Result<(), StoredFileError> {
    write_atomic(path, bytes)?;
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

/// The first half of [`write_atomic`]: `bytes` written to a temporary file beside `path` and
/// flushed to disk, not yet under `path`'s name. [`Staged::commit`] renames it into place;
/// dropping it instead removes the file, so a caller can write while it checks what it
/// writes, and name the file only once the check has passed (`table::file::save_table`).
pub(crate) struct Staged {
    temp: tempfile::NamedTempFile,
    path: PathBuf,
}

impl Staged {
    /// Writes `bytes` to a temporary file in `path`'s directory (created private if missing;
    /// stale temporary files of killed builds removed) and flushes it to disk.
    ///
    /// # Errors
    /// [`StoredFileError::Write`] with the cause.
    pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<Staged, StoredFileError> {
        let write_error = |error| StoredFileError::Write {
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
        Ok(Staged {
            temp,
            path: path.to_path_buf(),
        })
    }

    /// Renames the written file over its path.
    ///
    /// # Errors
    /// [`StoredFileError::Write`] with the cause.
    pub(crate) fn commit(self) -> Result<(), StoredFileError> {
        let path = self.path;
        self.temp
            .persist(&path)
            .map_err(|e| StoredFileError::Write {
                path,
                error: e.error,
            })?;
        Ok(())
    }
}

/// Opens `path` (a regular file, never blocking) and maps it read-only; with `trusted`, also
/// refuses it unless it passes the trust rule (the user's own, writable by no one else), as
/// files found in a data directory must. Returns the file's metadata with the bytes (for the
/// record of verified files, [`VERIFIED_LIST`]).
///
/// # Errors
/// [`StoredFileError`]: unreadable, not a regular file, or (with `trusted`) not trusted.
pub(crate) fn open_mapped(
    path: &Path,
    trusted: bool,
) -> Result<(StoredBytes, std::fs::Metadata), StoredFileError> {
    let (file, metadata) = open_regular(path)?;
    if trusted {
        check_trusted(path, &metadata)?;
    }
    Ok((map_file(path, &file)?, metadata))
}

/// Derived data kept in a data directory whose whole check is costly (pattern and colouring
/// databases: seconds to tens of seconds for the deep check). [`open_deep_checked`] checks a
/// version of such a file whole and deep once, and by its header alone after that.
pub(crate) trait DeepChecked: Sized {
    /// The data in `bytes`, its header alone checked: for a version of the file that passed
    /// every check before.
    fn open_header_only(bytes: StoredBytes) -> Result<Self, FormatError>;
    /// The data in `bytes`, checked whole: header, every block's checksum, histogram.
    fn open_whole(bytes: StoredBytes) -> Result<Self, FormatError>;
    /// The deep check: every entry against what its neighbours allow (finds a generator fault,
    /// or damage that kept the checksums).
    fn check_deep(&self) -> Result<(), Box<dyn std::error::Error + Send + Sync>>;
}

/// Opens the file at `path` in the data directory `dir` under the trust rule.
///
/// **Verified once, remembered by version.** The first open of a version of the file checks
/// it whole ([`DeepChecked::open_whole`]), then `expect` (the goal and pattern asked for,
/// before the costly part), then deep ([`DeepChecked::check_deep`]), and records the version
/// (name, device, inode, size, change time) in `dir`'s [`VERIFIED_LIST`]. A later open of a
/// version the record lists checks the header alone and reads no more of the body than the
/// search touches. Any write to the file moves its change time, a rename over it or a copy
/// brings another inode, so a file changed since it was verified is checked whole again. The
/// record is itself read under the trust rule.
///
/// # Errors
/// [`StoredFileError`]: unreadable, not a regular file, not trusted, not valid
/// ([`StoredFileError::Invalid`]), not the one asked for ([`StoredFileError::Mismatch`],
/// found before the deep check), or failing the deep check
/// ([`StoredFileError::Inconsistent`]).
pub(crate) fn open_deep_checked<T: DeepChecked>(
    dir: &Path,
    path: &Path,
    expect: impl Fn(&T) -> Result<(), Mismatch>,
) -> Result<T, StoredFileError> {
    let (bytes, metadata) = open_mapped(path, true)?;
    let invalid = |error| StoredFileError::Invalid {
        path: path.to_path_buf(),
        error,
    };
    let mismatch = |error| StoredFileError::Mismatch {
        path: path.to_path_buf(),
        error,
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if is_verified(dir, &name, &metadata) {
        // This very version of the file passed every check below here before.
        let data = T::open_header_only(bytes).map_err(invalid)?;
        expect(&data).map_err(mismatch)?;
        return Ok(data);
    }
    let data = T::open_whole(bytes).map_err(invalid)?;
    expect(&data).map_err(mismatch)?;
    data.check_deep()
        .map_err(|error| StoredFileError::Inconsistent {
            path: path.to_path_buf(),
            error,
        })?;
    record_verified(dir, &name, &metadata);
    Ok(data)
}

/// Saves derived data built here at `path`: `deep_check` is its own deep check, run by the
/// caller on the data in memory (a build checks its own output), and must have passed; then
/// `bytes` are written atomically and recorded as verified, so the first use does not check
/// them again.
///
/// # Errors
/// [`StoredFileError::Inconsistent`] (a generator fault), or [`StoredFileError::Write`].
pub(crate) fn save_deep_checked<E: std::error::Error + Send + Sync + 'static>(
    path: &Path,
    deep_check: Result<(), E>,
    bytes: &[u8],
) -> Result<(), StoredFileError> {
    deep_check.map_err(|error| StoredFileError::Inconsistent {
        path: path.to_path_buf(),
        error: Box::new(error),
    })?;
    write_verified(path, bytes)
}
