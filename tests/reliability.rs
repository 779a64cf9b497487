//! Reliability of the table files under races and in awkward places.

mod common;
mod unprivileged;

use std::path::Path;
use std::process::{Command, Output};

use common::TestCommand;
use npuzzle::table::file;
use npuzzle::{Board, State};

fn npuzzle(data_dir: &Path, args: &[&str]) -> TestCommand {
    let mut command = TestCommand::new();
    command.args(args).data_dir(data_dir);
    command
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn table_path(dir: &Path) -> std::path::PathBuf {
    dir.join(npuzzle::store::file::file_name(&State::goal(
        Board::THREE_BY_THREE,
    )))
}

#[test]
fn concurrent_builds_into_one_directory_all_succeed_and_leave_a_valid_table() {
    let dir = tempfile::tempdir().unwrap();
    let children: Vec<_> = (0..8)
        .map(|i| {
            let args: &[&str] = if i % 2 == 0 {
                &["build"]
            } else {
                &["distance", "867254301"]
            };
            npuzzle(dir.path(), args).spawn()
        })
        .collect();
    for (i, child) in children.into_iter().enumerate() {
        let out: Output = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "process {i}: {}",
            text(&out.stderr)
        );
        if i % 2 == 1 {
            assert_eq!(text(&out.stdout), "31\n");
        }
    }
    file::open(&table_path(dir.path())).expect("the table left behind is valid");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !name.ends_with(".npt"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary files left behind: {leftovers:?}"
    );
}

#[test]
fn a_reader_during_rebuilds_never_sees_a_half_written_table() {
    let dir = tempfile::tempdir().unwrap();
    let status = npuzzle(dir.path(), &["build"]).output().status;
    assert!(status.success());
    let path = table_path(dir.path());
    let mut writer = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do \"{}\" build --data-dir \"$0\" >/dev/null || exit 1; done",
            env!("CARGO_BIN_EXE_npuzzle")
        ))
        .arg(dir.path())
        .spawn()
        .unwrap();
    let mut opens = 0;
    loop {
        let table = file::open(&path).expect("every open sees a complete, valid table");
        assert_eq!(
            table.distance(&"867254301".parse().unwrap()).unwrap(),
            Some(31)
        );
        opens += 1;
        if writer.try_wait().unwrap().is_some() && opens >= 50 {
            break;
        }
    }
    assert!(writer.wait().unwrap().success());
}

#[test]
fn concurrent_queries_on_a_damaged_table_all_answer_and_leave_it_repaired() {
    let dir = tempfile::tempdir().unwrap();
    assert!(npuzzle(dir.path(), &["build"]).output().status.success());
    let path = table_path(dir.path());
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    let children: Vec<_> = (0..6)
        .map(|_| npuzzle(dir.path(), &["distance", "867254301"]).spawn())
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(text(&out.stdout), "31\n", "{}", text(&out.stderr));
    }
    file::open(&path).expect("repaired");
}

#[test]
fn a_table_path_that_is_a_directory_or_a_symlink_loop_gets_a_message_and_an_answer() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(table_path(dir.path())).unwrap();
    let out = npuzzle(dir.path(), &["distance", "867254301"]).output();
    assert_eq!(text(&out.stdout), "31\n");
    assert!(
        text(&out.stderr).contains("is a directory"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0));

    #[cfg(unix)]
    {
        let looped = tempfile::tempdir().unwrap();
        let path = table_path(looped.path());
        std::os::unix::fs::symlink(&path, &path).unwrap();
        let out = npuzzle(looped.path(), &["distance", "867254301"]).output();
        assert_eq!(text(&out.stdout), "31\n");
        assert!(
            text(&out.stderr).contains("cannot read table"),
            "{}",
            text(&out.stderr)
        );
        assert_eq!(
            text(&out.stderr).lines().count(),
            1,
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn a_missing_nested_data_directory_is_created() {
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("a b").join("c");
    let out = npuzzle(&nested, &["distance", "123456708"]).output();
    assert_eq!(text(&out.stdout), "1\n", "{}", text(&out.stderr));
    file::open(&table_path(&nested)).unwrap();
}

#[test]
fn every_canonical_goal_table_walks_every_state_to_its_goal() {
    use npuzzle::{BuildOptions, RankSpace, Table};
    let board = Board::THREE_BY_THREE;
    let space = RankSpace::new(board).unwrap();
    for blank in 0..board.cells() {
        let goal = State::canonical_goal(board, blank);
        let table = Table::build(&goal, BuildOptions::default()).unwrap();
        for index in 0..space.states() {
            let start = space.unrank(index, goal.parity_class());
            let d = table.distance(&start).unwrap().unwrap();
            let moves = table.solve_moves(&start).unwrap().unwrap();
            assert_eq!(moves.len(), d as usize);
            let end = moves
                .iter()
                .fold(start, |s, &mv| s.apply(mv).expect("legal"));
            assert_eq!(end, goal, "goal {goal}, start {start}");
            assert_eq!(space.rank_unchecked(&start), index);
        }
    }
}

/// Each kind of damage, for each way of choosing the data directory: the CLI says it rebuilt
/// the table, answers correctly, and `npuzzle check` passes on the file it left behind.
#[test]
fn damaged_tables_are_rebuilt_wherever_the_data_directory_comes_from() {
    use npuzzle::store::format::FORMAT_VERSION;
    use npuzzle::{BuildOptions, Table};

    // The goal with the blank in the top-left corner: its table in the checkout's data/ is
    // used by no other test, so damaging it there is safe.
    let goal = State::canonical_goal(Board::THREE_BY_THREE, 0);
    let start = "123405678";
    let exact = Table::build(&goal, BuildOptions::default())
        .unwrap()
        .distance(&start.parse().unwrap())
        .unwrap()
        .unwrap()
        .to_string();
    let valid = Table::build(&goal, BuildOptions::default())
        .unwrap()
        .into_inner();
    let header_len = Table::from_bytes(&valid[..]).unwrap().header().len;
    let reseal = |bytes: &mut Vec<u8>| {
        let crc = crc32fast::hash(&bytes[..header_len - 4]);
        bytes[header_len - 4..header_len].copy_from_slice(&crc.to_le_bytes());
    };
    let damages: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", valid[..valid.len() / 3].to_vec()),
        ("flipped body byte", {
            let mut b = valid.clone();
            b[header_len + 1000] ^= 0x20;
            b
        }),
        ("flipped header byte", {
            let mut b = valid.clone();
            b[66] ^= 0x01;
            b
        }),
        ("future version", {
            let mut b = valid.clone();
            b[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
            reseal(&mut b);
            b
        }),
        (
            "another goal",
            Table::build(&State::goal(Board::THREE_BY_THREE), BuildOptions::default())
                .unwrap()
                .into_inner(),
        ),
        (
            "another board",
            Table::build(
                &State::goal(Board::new(3, 2).unwrap()),
                BuildOptions::default(),
            )
            .unwrap()
            .into_inner(),
        ),
    ];
    let temp = tempfile::tempdir().unwrap();
    let checkout_data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    for how in ["--data-dir", "NPUZZLE_DATA_DIR", "default"] {
        let dir = match how {
            "default" => checkout_data.clone(),
            _ => temp.path().join(how),
        };
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(npuzzle::store::file::file_name(&goal));
        for (damage, bytes) in &damages {
            std::fs::write(&path, bytes).unwrap();
            let mut command = TestCommand::new();
            command.args(["distance", start, "--goal", "012345678"]);
            match how {
                "--data-dir" => {
                    command.arg("--data-dir").arg(&dir);
                }
                "NPUZZLE_DATA_DIR" => {
                    command.env("NPUZZLE_DATA_DIR", &dir);
                }
                _ => {}
            }
            let out = command.output();
            assert_eq!(
                text(&out.stdout).trim(),
                exact,
                "{how}, {damage}: {}",
                text(&out.stderr)
            );
            assert!(
                text(&out.stderr).contains("rebuilt"),
                "{how}, {damage}: {}",
                text(&out.stderr)
            );
            let check = TestCommand::new().arg("check").arg(&path).output();
            assert_eq!(
                check.status.code(),
                Some(0),
                "{how}, {damage}: {}",
                text(&check.stderr)
            );
        }
    }
}

#[test]
fn a_read_only_data_directory_and_an_unreadable_table_get_a_message_and_an_answer() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    // Everything the unprivileged user runs or reads lives in one open directory, the binary
    // included (the checkout may sit where that user cannot reach).
    let temp = tempfile::tempdir().unwrap();
    let binary = unprivileged::binary_in(temp.path());
    let run = |args: &[&str], data_dir: &Path| {
        unprivileged::unprivileged(&binary)
            .args(args)
            .arg("--data-dir")
            .arg(data_dir)
            .env_remove("NPUZZLE_DATA_DIR")
            .output()
            .unwrap()
    };

    // The unprivileged user's own directories (a directory of another user is not trusted at
    // all: see tests/trust_model.rs): for root's run, handed to `nobody`.
    let give_away = unprivileged::give_to_unprivileged;
    let read_only = temp.path().join("read-only");
    std::fs::create_dir(&read_only).unwrap();
    give_away(&read_only);
    mode(&read_only, 0o555);
    // The answer still comes, from a table in memory, with one line saying why.
    let answers_from_memory = |data_dir: &Path| {
        let out = run(&["distance", "867254301"], data_dir);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert_eq!(text(&out.stdout), "31\n");
        assert!(
            stderr.contains("Permission denied") && stderr.contains("in memory"),
            "{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    };
    answers_from_memory(&read_only);

    let open = temp.path().join("open");
    std::fs::create_dir(&open).unwrap();
    mode(&open, 0o755);
    let built = npuzzle(&open, &["build"]).output();
    assert_eq!(built.status.code(), Some(0));
    let table = table_path(&open);
    mode(&table, 0o000);
    give_away(&open);
    let out = run(&["check", table.to_str().unwrap()], &open);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("npuzzle: cannot read table") && stderr.contains("Permission denied"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    answers_from_memory(&open);
}
