//! The trust model of table files (ARCHITECTURE.md, "Trust model"): only a directory of the
//! user's own that no other user may write is read or written; only regular files are opened;
//! an entry edited behind valid checksums is refused where it is read; a build checks its own
//! output; no shared, predictable fallback directory. The hostile-user cases run the binary as
//! `nobody` when the tests run as root, so that ownership and modes bind.

mod common;
mod reseal;
mod unprivileged;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::TestCommand;
use npuzzle::store::file::{file_name, mtm_file_name};
use npuzzle::{Board, BuildOptions, RankSpace, State, Table};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn npuzzle(data_dir: &Path, args: &[&str]) -> TestCommand {
    let mut command = TestCommand::new();
    command.args(args).data_dir(data_dir);
    command
}

fn mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// The 3x3 table with the entries of `012345678` (22 moves) and of a state 16 moves away
/// swapped, every checksum recomputed: valid to every check that reads checksums and counts,
/// and wrong for both states.
fn planted_table() -> Vec<u8> {
    let goal = State::goal(Board::THREE_BY_THREE);
    let mut bytes = Table::build(&goal, BuildOptions::default())
        .unwrap()
        .into_inner();
    let header_len = Table::from_bytes(&bytes[..]).unwrap().header().len;
    let space = RankSpace::new(Board::THREE_BY_THREE).unwrap();
    let victim = header_len + space.rank_unchecked(&"012345678".parse().unwrap()) as usize;
    assert_eq!(bytes[victim], 22);
    let sixteen = (header_len..bytes.len()).find(|&i| bytes[i] == 16).unwrap();
    bytes.swap(victim, sixteen);
    reseal::reseal_body(&mut bytes);
    Table::from_bytes(&bytes[..]).expect("the planted table passes every checksum");
    bytes
}

/// A directory holding the planted table under the name the default goal's table has.
fn plant(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(file_name(&State::goal(Board::THREE_BY_THREE)));
    std::fs::write(&path, planted_table()).unwrap();
    path
}

#[test]
fn a_table_planted_in_a_directory_others_may_write_is_never_read() {
    let temp = tempfile::tempdir().unwrap();
    let binary = unprivileged::binary_in(temp.path());
    // A world-writable directory, as a shared temporary directory is, holding a planted table.
    let shared = temp.path().join("shared");
    let planted = plant(&shared);
    mode(&shared, 0o777);
    unprivileged::give_to_unprivileged(&shared);
    let run = |dir: &Path| {
        unprivileged::unprivileged(&binary)
            .args(["distance", "012345678", "--data-dir"])
            .arg(dir)
            .env_remove("NPUZZLE_DATA_DIR")
            .output()
            .unwrap()
    };
    let out = run(&shared);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        text(&out.stdout),
        "22\n",
        "the planted table must not be read"
    );
    assert!(
        stderr.contains("is not trusted")
            && stderr.contains("lets other users write")
            && stderr.contains("in memory"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(&planted).unwrap(),
        planted_table(),
        "nothing is written there"
    );
    // A directory another user owns (root's, for a run as nobody) is not read either.
    if unprivileged::is_root() {
        let owned = temp.path().join("roots");
        plant(&owned);
        mode(&owned, 0o755);
        let out = run(&owned);
        let stderr = text(&out.stderr);
        assert_eq!(text(&out.stdout), "22\n", "{stderr}");
        assert!(
            stderr.contains("is owned by user 0, and npuzzle runs as user 65534"),
            "{stderr}"
        );
    } else {
        eprintln!("note: not root, so no directory of another user can be made; its case runs in CI as root");
    }
    // `build` refuses such a directory outright.
    let out = unprivileged::unprivileged(&binary)
        .args(["build", "--data-dir"])
        .arg(&shared)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("is not trusted"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn in_the_users_own_directory_an_edited_entry_is_refused_where_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    plant(dir.path());
    for args in [["distance", "012345678"], ["solve", "012345678"]] {
        let out = npuzzle(dir.path(), &args).output();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(text(&out.stdout), "");
        assert!(
            stderr.contains("inconsistent") && stderr.contains("check --deep"),
            "{stderr}"
        );
    }
    // check --deep names it; a state the edit does not touch is still answered.
    let out = npuzzle(dir.path(), &["check", "--deep"]).output();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let out = npuzzle(dir.path(), &["distance", "867254301"]).output();
    assert_eq!(text(&out.stdout), "31\n", "{}", text(&out.stderr));
}

/// The 3x3 MTM table with the entries of `012345678` and of a state six MTM moves closer
/// swapped, every checksum recomputed (valid to every check that reads checksums and counts);
/// and the victim's true MTM distance.
fn planted_mtm_table() -> (Vec<u8>, u8) {
    let goal = State::goal(Board::THREE_BY_THREE);
    let mut bytes = npuzzle::mtm::build_table(&goal, BuildOptions::default())
        .unwrap()
        .into_inner();
    let header_len = Table::from_bytes(&bytes[..]).unwrap().header().len;
    let space = RankSpace::new(Board::THREE_BY_THREE).unwrap();
    let victim = header_len + space.rank_unchecked(&"012345678".parse().unwrap()) as usize;
    let true_distance = bytes[victim];
    assert!(true_distance > 6, "{true_distance}");
    let closer = (header_len..bytes.len())
        .find(|&i| bytes[i] == true_distance - 6)
        .unwrap();
    bytes.swap(victim, closer);
    reseal::reseal_body(&mut bytes);
    let table = Table::from_bytes(&bytes[..]).expect("the planted table passes every checksum");
    assert_eq!(table.metric(), npuzzle::Metric::Mtm);
    (bytes, true_distance)
}

#[test]
fn an_edited_mtm_entry_is_refused_where_it_is_read_never_answered() {
    let dir = tempfile::tempdir().unwrap();
    let (planted, true_distance) = planted_mtm_table();
    let goal = State::goal(Board::THREE_BY_THREE);
    std::fs::write(dir.path().join(mtm_file_name(&goal)), &planted).unwrap();
    // Through the library: the checked read refuses the entry, the plain read shows the edit.
    let table = npuzzle::mtm::MtmTable::from_table(
        npuzzle::table::file::open_trusted(&dir.path().join(mtm_file_name(&goal))).unwrap(),
    )
    .unwrap();
    let victim: State = "012345678".parse().unwrap();
    assert_eq!(
        table.distance_to(&victim, &goal).unwrap(),
        Some(true_distance - 6),
        "the plain read returns the edited entry"
    );
    assert!(matches!(
        table.distance_to_checked(&victim, &goal),
        Err(npuzzle::TableError::Inconsistent { .. })
    ));
    assert!(table.solve_to(&victim, &goal).is_err());
    // Through the binary: distance and solve under MTM give an error, exit 2, and print no
    // answer.
    for args in [
        ["distance", "--metric", "mtm", "012345678"],
        ["solve", "--metric", "mtm", "012345678"],
    ] {
        let out = npuzzle(dir.path(), &args).output();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(text(&out.stdout), "", "{args:?}");
        assert!(stderr.contains("inconsistent"), "{args:?}: {stderr}");
    }
    // A state the edit does not touch is still answered from the file: one slide away.
    let out = npuzzle(dir.path(), &["distance", "--metric", "mtm", "123456078"]).output();
    assert_eq!(text(&out.stdout), "1\n", "{}", text(&out.stderr));
}

#[test]
fn a_fifo_in_a_tables_place_never_blocks_and_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir
        .path()
        .join(file_name(&State::goal(Board::THREE_BY_THREE)));
    let fifo = dir.path().join("elsewhere.fifo");
    let status = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo (coreutils)");
    assert!(status.success());
    let limit = Duration::from_secs(30);
    // check of the FIFO itself, directly and through a symlink: refused at once.
    let link = dir.path().join("link.npt");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    for path in [&fifo, &link] {
        let mut check = npuzzle(dir.path(), &["check"]);
        check.arg(path);
        let out = check.stdin("").within(limit).output();
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("not a regular file"),
            "{}",
            text(&out.stderr)
        );
    }
    // In the table's place (as a symlink to the FIFO, then the FIFO itself): distance and
    // batch answer, and the table is rebuilt over it.
    for place in ["symlink", "fifo"] {
        let _ = std::fs::remove_file(&table);
        match place {
            "symlink" => std::os::unix::fs::symlink(&fifo, &table).unwrap(),
            _ => assert!(Command::new("mkfifo")
                .arg(&table)
                .status()
                .unwrap()
                .success()),
        }
        let out = npuzzle(dir.path(), &["distance", "867254301"])
            .stdin("")
            .within(limit)
            .output();
        assert_eq!(text(&out.stdout), "31\n", "{place}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("rebuilt"),
            "{place}: {}",
            text(&out.stderr)
        );
        assert!(
            std::fs::symlink_metadata(&table).unwrap().is_file(),
            "{place}"
        );
        let _ = std::fs::remove_file(&table);
        assert!(Command::new("mkfifo")
            .arg(&table)
            .status()
            .unwrap()
            .success());
        let out = npuzzle(dir.path(), &["batch", "-"])
            .stdin("867254301\n")
            .within(limit)
            .output();
        assert_eq!(out.status.code(), Some(0), "{place}: {}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains("867254301,123456780,31"),
            "{}",
            text(&out.stdout)
        );
    }
}

/// With no `XDG_CACHE_HOME`, tables go to the home directory's cache (the `dirs` crate's
/// platform rule), never to a shared, predictable place such as the temporary directory.
#[test]
fn the_fallback_is_the_home_cache_never_the_temporary_directory() {
    let temp = tempfile::tempdir().unwrap();
    let binary = unprivileged::binary_in(temp.path());
    let tmp = temp.path().join("tmp");
    let home = temp.path().join("home");
    std::fs::create_dir(&tmp).unwrap();
    std::fs::create_dir(&home).unwrap();
    let out = TestCommand::of(&binary)
        .args(["distance", "867254301"])
        .env_clear()
        .env("HOME", &home)
        .env("TMPDIR", &tmp)
        .output();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(text(&out.stdout), "31\n");
    assert_eq!(
        std::fs::read_dir(&tmp).unwrap().count(),
        0,
        "nothing written to the temporary directory"
    );
    let cache = home.join(".cache").join("npuzzle");
    let tables = std::fs::read_dir(&cache)
        .unwrap_or_else(|e| panic!("{}: {e}", cache.display()))
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".npt")
        })
        .count();
    assert_eq!(tables, 1, "the 3x3 table in {}", cache.display());
}

#[test]
fn a_directory_npuzzle_creates_is_private_and_old_temporaries_are_cleaned() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("new").join("data");
    let out = npuzzle(&dir, &["distance", "867254301"]).output();
    assert_eq!(text(&out.stdout), "31\n", "{}", text(&out.stderr));
    for created in [&dir, &temp.path().join("new")] {
        let mode = std::fs::metadata(created).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "{}", created.display());
    }
    // A killed build's temporary file, an hour old, goes; a fresh one (a build running now)
    // and files of other names stay.
    let old = dir.join(".npuzzle-killed.tmp");
    let fresh = dir.join(".npuzzle-running.tmp");
    let other = dir.join("notes.tmp");
    for path in [&old, &fresh, &other] {
        std::fs::write(path, b"partial").unwrap();
    }
    let two_hours_ago = std::time::SystemTime::now() - Duration::from_secs(7200);
    std::fs::File::options()
        .write(true)
        .open(&old)
        .unwrap()
        .set_modified(two_hours_ago)
        .unwrap();
    let out = npuzzle(&dir, &["build"]).output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!old.exists());
    assert!(fresh.exists() && other.exists());
}
