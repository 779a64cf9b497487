//! Where tables are kept when the caller names no directory: one rule for the command line and
//! the Python package (the command line puts `--data-dir` before it and a checkout's `data/`
//! between its two steps).

use std::path::PathBuf;

/// The environment variable that names the data directory, before any platform default.
pub const DATA_DIR_VAR: &str = "NPUZZLE_DATA_DIR";

/// The data directory named by `$NPUZZLE_DATA_DIR`, if it is set and not empty (a shell's
/// `NPUZZLE_DATA_DIR=` counts as unset rather than naming the current directory).
pub fn data_dir_from_env() -> Option<PathBuf> {
    std::env::var_os(DATA_DIR_VAR)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The platform's cache directory for npuzzle: `$XDG_CACHE_HOME/npuzzle` (an absolute one
/// only), else `~/.cache/npuzzle` on Linux and the BSDs; `~/Library/Caches/npuzzle` on macOS;
/// `{FOLDERID_LocalAppData}\npuzzle` on Windows. `None` where the platform has none (no home
/// directory). Never a shared, predictable place such as the temporary directory, which
/// another user could create first and fill with tables of their choosing (see
/// docs/trust-model.md).
pub fn platform_data_dir() -> Option<PathBuf> {
    dirs::cache_dir().map(|cache| cache.join("npuzzle"))
}

/// The data directory when the caller names none: `$NPUZZLE_DATA_DIR`, else
/// [`platform_data_dir`]; `None` without either (tables are then built in memory).
///
/// ```
/// let dir = npuzzle::answer::default_data_dir();
/// if std::env::var_os("NPUZZLE_DATA_DIR").is_none_or(|v| v.is_empty()) {
///     assert_eq!(dir, npuzzle::answer::platform_data_dir());
/// }
/// ```
pub fn default_data_dir() -> Option<PathBuf> {
    data_dir_from_env().or_else(platform_data_dir)
}
