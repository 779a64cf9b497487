//! Limits the environment cannot lift, and data directories another user could redirect:
//! `RAYON_NUM_THREADS` does not get past the thread cap, a file-size limit is an error and not
//! a kill, and a data directory reached through a symbolic link another user planted in a
//! sticky, world-writable directory is refused.

mod common;
mod unprivileged;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};

use std::io::Write;

use common::TestCommand;

/// `echo 123456780 | RAYON_NUM_THREADS=100000 npuzzle batch -` under an address-space limit
/// that 100,000 thread stacks (2 MiB each) cannot fit in but the cap's threads (at most
/// 1,024) can: before the cap applied to every pool, rayon's global pool failed to start its
/// threads (or took minutes starting them).
#[test]
fn rayon_num_threads_does_not_lift_the_thread_cap() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new("sh")
        .arg("-c")
        // 8 GiB of address space: 100,000 stacks would need 200 GiB.
        .arg("ulimit -v 8388608 && exec \"$0\" batch - --data-dir \"$1\"")
        .arg(env!("CARGO_BIN_EXE_npuzzle"))
        .arg(dir.path())
        .env("RAYON_NUM_THREADS", "100000")
        .env("MALLOC_ARENA_MAX", "2")
        .env_remove("NPUZZLE_DATA_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"123456780\n867254301\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("123456780,0") || stdout.contains("0\n"),
        "{stdout}"
    );
    assert!(stdout.contains("31"), "{stdout}");
    assert!(
        stderr.contains("RAYON_NUM_THREADS=100000 is more than the limit"),
        "{stderr}"
    );
}

/// `ulimit -f 20 && npuzzle build --board 3x3`: the table (177 KiB) does not fit under a
/// 20 KiB file-size limit. The kernel's SIGXFSZ would end the process at the write (no
/// message, nothing cleaned up, status by signal); ignored, the write fails, and the build
/// says so in one line, exit 2, leaving no temporary file or table behind in the directory.
#[test]
fn a_file_size_limit_is_an_error_not_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 20 && exec \"$0\" build --board 3x3 --data-dir \"$1\"")
        .arg(env!("CARGO_BIN_EXE_npuzzle"))
        .arg(&data)
        .env_remove("NPUZZLE_DATA_DIR")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr} {:?}", out.status);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("File too large"), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(&data)
        .map(|entries| entries.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
}

/// A directory like `/tmp`: world-writable and sticky, open to everyone.
fn shared_directory(root: &Path) -> std::path::PathBuf {
    let shared = root.join("tmp");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
    shared
}

/// Root runs `npuzzle --data-dir /tmp/x build`, where `/tmp/x` is a link `nobody` planted
/// pointing at a directory of root's: refused (exit 2, naming the link), nothing written
/// there; a question through it is answered from memory with a note. A link of root's own
/// there is followed as before. As an ordinary user no link of another user can be made, so
/// only the half with the user's own link runs, and the test says so.
#[test]
fn a_data_directory_through_another_users_link_in_a_shared_directory_is_refused() {
    let root = tempfile::tempdir().unwrap();
    std::fs::set_permissions(root.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let shared = shared_directory(root.path());
    let target = root.path().join("private");
    std::fs::create_dir(&target).unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o700)).unwrap();
    let npuzzle = |dir: &Path, args: &[&str]| TestCommand::new().args(args).data_dir(dir).output();

    // The user's own link in the shared directory: followed.
    let own = shared.join("mine");
    std::os::unix::fs::symlink(&target, &own).unwrap();
    let out = npuzzle(&own, &["build", "--board", "2x3"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_dir(&target).unwrap().count(), 1);
    for entry in std::fs::read_dir(&target).unwrap() {
        std::fs::remove_file(entry.unwrap().path()).unwrap();
    }

    if !unprivileged::is_root() {
        eprintln!(
            "not root: a link owned by another user cannot be made, so the refusal is checked only when the tests run as root (as .ci/run does)"
        );
        return;
    }
    // Planted by `nobody`.
    let planted = shared.join("planted");
    std::os::unix::fs::symlink(&target, &planted).unwrap();
    std::os::unix::fs::lchown(
        &planted,
        Some(unprivileged::NOBODY),
        Some(unprivileged::NOBODY),
    )
    .unwrap();
    let out = npuzzle(&planted, &["build", "--board", "2x3"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("symbolic link") && stderr.contains("planted"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0);
    // A question is still answered (from a table built in memory), with the reason.
    let out = npuzzle(&planted, &["distance", "123456780"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "0");
    assert!(String::from_utf8_lossy(&out.stderr).contains("symbolic link"));
    assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0);
    // Deeper: a directory below the planted link is refused too.
    let below = planted.join("sub");
    let out = npuzzle(&below, &["build", "--board", "2x3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!target.join("sub").exists());
}
