//! Running the binary as a user that file modes and ownership bind: as it is for an ordinary
//! user, and through `setpriv` as `nobody` (65534) when the tests run as root.

#![allow(dead_code)] // each test binary uses some of these
use std::path::{Path, PathBuf};
use std::process::Command;

/// The user id `nobody` runs as.
pub const NOBODY: u32 = 65534;

/// Whether the tests run as root.
pub fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").unwrap().uid() == 0
}

/// A copy of the binary in `dir` (which must be open to every user), so that `nobody` can run
/// it wherever the checkout sits, and so that it does not count as run from the checkout.
pub fn binary_in(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let binary = dir.join("npuzzle");
    std::fs::copy(env!("CARGO_BIN_EXE_npuzzle"), &binary).unwrap();
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
    binary
}

/// A command for `binary` that file modes bind: as it is for an ordinary user; for root (whom
/// modes do not stop) through `setpriv` as `nobody`. Fails loudly when root has no `setpriv`:
/// a skipped check would look like a passing one.
pub fn unprivileged(binary: &Path) -> Command {
    if !is_root() {
        return Command::new(binary);
    }
    let setpriv = Command::new("setpriv").arg("--version").output();
    assert!(
        setpriv.is_ok_and(|o| o.status.success()),
        "running as root, this test needs `setpriv` (util-linux) to drop privileges; .ci/run installs it"
    );
    let mut command = Command::new("setpriv");
    command
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(binary);
    command
}

/// Hands `path` to `nobody` when the tests run as root, so that it is the unprivileged user's
/// own; a no-op otherwise (it is already the user's own).
pub fn give_to_unprivileged(path: &Path) {
    if is_root() {
        std::os::unix::fs::chown(path, Some(NOBODY), Some(NOBODY)).unwrap();
    }
}
