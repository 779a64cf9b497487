//! The `npuzzle` binary for the exact-table commands: stdout, stderr and exit code apart.

mod common;
mod reseal;

use std::path::Path;
use std::process::{Command, Output};

use common::TestCommand;
use npuzzle::{Move, State};

fn npuzzle(data_dir: &Path, args: &[&str]) -> Output {
    TestCommand::new().args(args).data_dir(data_dir).output()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// The number of table files in `dir`.
fn table_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "npt")
        })
        .count()
}

fn replay(start: &str, moves: &str) -> State {
    let mut state: State = start.parse().unwrap();
    for letter in moves.chars() {
        state = state
            .apply(Move::from_letter(letter).unwrap())
            .expect("legal move");
    }
    state
}

#[test]
fn solve_on_a_fresh_data_directory_builds_the_table_and_answers() {
    let dir = tempfile::tempdir().unwrap();
    let out = npuzzle(dir.path(), &["solve", "867254301", "--format", "moves"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let moves = stdout(&out).trim_end().to_string();
    assert_eq!(moves.len(), 31);
    assert_eq!(replay("867254301", &moves).to_string(), "123456780");
    assert!(dir.path().join("3x3-123456780.npt").is_file());
    assert!(stderr(&out).contains("built table"), "{}", stderr(&out));

    // Second run: the table is there, nothing to say on stderr.
    let out = npuzzle(dir.path(), &["distance", "867254301"]);
    assert_eq!((stdout(&out).as_str(), stderr(&out).as_str()), ("31\n", ""));
}

#[test]
fn every_documented_spelling_gets_the_same_answer() {
    let dir = tempfile::tempdir().unwrap();
    for spelling in [
        "123456708",
        "1 2 3 4 5 6 7 0 8",
        "1,2,3,4,5,6,7,_,8",
        "123/456/7.8",
    ] {
        let out = npuzzle(dir.path(), &["distance", spelling]);
        assert_eq!(stdout(&out), "1\n", "{spelling}: {}", stderr(&out));
    }
}

#[test]
fn moves_format_prints_an_empty_line_for_the_goal() {
    let dir = tempfile::tempdir().unwrap();
    let out = npuzzle(dir.path(), &["solve", "123456780", "-f", "moves"]);
    assert_eq!(stdout(&out), "\n");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn json_solution_has_the_documented_fields() {
    let dir = tempfile::tempdir().unwrap();
    let out = npuzzle(dir.path(), &["solve", "123456078", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["start"], "123456078");
    assert_eq!(json["goal"], "123456780");
    assert_eq!(json["distance"], 2);
    assert_eq!(json["moves"], "RR");
    assert_eq!(
        json["path"],
        serde_json::json!(["123456078", "123456708", "123456780"])
    );
}

#[test]
fn text_solution_shows_every_board_and_the_step_count() {
    let dir = tempfile::tempdir().unwrap();
    let out = npuzzle(dir.path(), &["solve", "123456078"]);
    let text = stdout(&out);
    assert!(text.contains("2 moves"), "{text}");
    assert!(text.contains("7 8 _"), "{text}");
    assert!(text.contains("_ 7 8"), "{text}");
    assert_eq!(text.matches("move ").count(), 2, "{text}");
}

#[test]
fn another_goal_is_answered_in_its_own_labels() {
    let dir = tempfile::tempdir().unwrap();
    let out = npuzzle(
        dir.path(),
        &["solve", "283164705", "--goal", "123804765", "-f", "moves"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let moves = stdout(&out).trim_end().to_string();
    assert_eq!(replay("283164705", &moves).to_string(), "123804765");
    let out = npuzzle(
        dir.path(),
        &["distance", "283164705", "--goal", "123804765"],
    );
    assert_eq!(stdout(&out).trim(), moves.len().to_string());
}

#[test]
fn unsolvable_pairs_exit_1_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let out = npuzzle(dir.path(), &["distance", "213456780"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).starts_with("npuzzle: "), "{}", stderr(&out));
    assert!(stderr(&out).contains("parity"), "{}", stderr(&out));
    assert_eq!(stderr(&out).lines().count(), 1);
}

#[test]
fn malformed_states_exit_2_with_one_line_naming_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    for (input, needle) in [
        ("12345678", "cells"),
        ("123456700", "repeated"),
        ("1234567800", "cell count 10"),
        ("123456789", "out of range"),
        ("12345678x", "column 9"),
        ("", "empty"),
    ] {
        let out = npuzzle(dir.path(), &["solve", input]);
        assert_eq!(out.status.code(), Some(2), "{input}");
        let err = stderr(&out);
        assert!(err.contains(needle), "{input}: {err}");
        assert_eq!(err.lines().count(), 1, "{input}: {err}");
        assert_eq!(stdout(&out), "");
    }
    let out = npuzzle(dir.path(), &["solve"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "npuzzle: the following required arguments were not provided: <START> (see `npuzzle solve --help`)\n",
        "the message names what is missing"
    );
}

#[test]
fn no_command_is_one_line_naming_the_commands() {
    let out = TestCommand::new().output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("npuzzle: no command given: one of build, distance, solve"),
        "{err}"
    );
}

#[test]
fn the_data_directory_comes_from_the_option_before_or_after_the_command_or_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let before = dir.path().join("before");
    let out = TestCommand::new()
        .data_dir(&before)
        .args(["distance", "123456708"])
        .output();
    assert_eq!(stdout(&out), "1\n");
    assert!(before.join("3x3-123456780.npt").is_file());

    let from_env = dir.path().join("env dir with spaces");
    let out = TestCommand::new()
        .args(["distance", "123456708"])
        .env("NPUZZLE_DATA_DIR", &from_env)
        .output();
    assert_eq!(stdout(&out), "1\n", "{}", stderr(&out));
    assert!(from_env.join("3x3-123456780.npt").is_file());

    // An empty variable (a shell's `NPUZZLE_DATA_DIR=`) counts as unset: the default serves.
    let out = TestCommand::new()
        .args(["distance", "123456708"])
        .env("NPUZZLE_DATA_DIR", "")
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "1\n");
}

#[test]
fn an_unwritable_data_directory_still_answers_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, b"not a directory").unwrap();
    let out = npuzzle(&blocker.join("data"), &["distance", "867254301"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "31\n");
    assert!(stderr(&out).contains("in memory"), "{}", stderr(&out));
}

#[test]
fn build_prints_path_size_and_time_and_all_writes_nine_tables() {
    let dir = tempfile::tempdir().unwrap();
    let out = npuzzle(dir.path(), &["build"]);
    let line = stdout(&out);
    assert!(line.contains("3x3-123456780.npt"), "{line}");
    assert!(line.contains("bytes") && line.contains("ms"), "{line}");
    let out = npuzzle(dir.path(), &["build", "--all"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out).lines().count(), 9);
    assert_eq!(table_files(dir.path()), 9);
}

#[test]
fn a_damaged_table_in_the_data_directory_is_rebuilt_and_the_answer_is_right() {
    let dir = tempfile::tempdir().unwrap();
    npuzzle(dir.path(), &["build"]);
    let path = dir.path().join("3x3-123456780.npt");
    let mut bytes = std::fs::read(&path).unwrap();
    let len = bytes.len();
    bytes[len - 100] ^= 0xFF;
    std::fs::write(&path, &bytes).unwrap();
    let out = npuzzle(dir.path(), &["distance", "867254301"]);
    assert_eq!(stdout(&out), "31\n");
    assert!(stderr(&out).contains("rebuilt"), "{}", stderr(&out));
    npuzzle::table::file::open(&path).expect("the rebuilt file is valid");
}

#[test]
fn usage_errors_are_one_line_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["distance", "123456780", "extra"][..],
        &["frob"],
        &["solve", "123456780", "--format", "xml"],
        &[
            "solve",
            "867254301",
            "-a",
            "table",
            "--heuristic",
            "misplaced",
        ],
        &["solve", "867254301", "--heuristic", "manhattan"],
    ] {
        let out = npuzzle(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        let lines: Vec<&str> = err
            .lines()
            .filter(|l| !l.contains("note: built table"))
            .collect();
        assert_eq!(lines.len(), 1, "{args:?}: {err}");
        assert!(lines[0].starts_with("npuzzle: "), "{args:?}: {err}");
        assert_eq!(stdout(&out), "");
    }
    let out = npuzzle(dir.path(), &["solve", "1", "-f", "xml"]);
    assert!(
        stderr(&out).contains("possible values: text, moves, json"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_usage_tip_names_the_command_whose_help_to_read() {
    let dir = tempfile::tempdir().unwrap();
    for (args, tip) in [
        (
            &["solve", "1", "-f", "xml"][..],
            "(see `npuzzle solve --help`)",
        ),
        (&["sample", "-n", "many"], "(see `npuzzle sample --help`)"),
        (
            &["verify", "-", "--worst", "x"],
            "(see `npuzzle verify --help`)",
        ),
        (&["frob"], "(see `npuzzle --help`)"),
    ] {
        let out = npuzzle(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.trim_end().ends_with(tip), "{args:?}: {err}");
    }
}

#[test]
fn an_option_misspelled_before_start_is_named_with_the_similar_one() {
    let dir = tempfile::tempdir().unwrap();
    // Once, the misspelled option was taken as START and START as an extra argument.
    let out = npuzzle(dir.path(), &["solve", "--gaol", "123456780", "867254301"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("'--gaol'"), "{err}");
    assert!(err.contains("a similar argument exists: '--goal'"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    for command in ["solve", "distance", "compare"] {
        let out = npuzzle(dir.path(), &[command, "--bogus", "867254301"]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        let err = stderr(&out);
        assert!(err.contains("'--bogus'"), "{command}: {err}");
        assert!(!err.contains("'867254301'"), "{command}: {err}");
        assert_eq!(stdout(&out), "");
    }
}

#[test]
fn sample_never_repeats_a_start_and_says_when_fewer_exist_than_asked() {
    let dir = tempfile::tempdir().unwrap();
    // Two states lie at depth 31 from the 3x3 goal (the table's histogram says how many).
    let exist = npuzzle(dir.path(), &["stats"]);
    let deepest = stdout(&exist)
        .lines()
        .find_map(|l| {
            let mut words = l.split_whitespace();
            (words.next() == Some("31")).then(|| words.next().unwrap().replace(',', ""))
        })
        .unwrap_or_else(|| panic!("a row for depth 31 in {}", stdout(&exist)));
    let deepest: usize = deepest.parse().unwrap();
    let out = npuzzle(
        dir.path(),
        &["sample", "--depth", "31", "-n", "20", "--seed", "3"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let starts: Vec<String> = stdout(&out).lines().skip(1).map(String::from).collect();
    let distinct: std::collections::HashSet<&String> = starts.iter().collect();
    assert_eq!(starts.len(), deepest, "{starts:?}");
    assert_eq!(distinct.len(), deepest, "no start twice: {starts:?}");
    let err = stderr(&out);
    assert!(
        err.contains(&format!("only {deepest} states lie at depth 31"))
            && err.contains("instead of 20"),
        "{err}"
    );
    // Asked for fewer than exist: as many as asked, none twice, nothing said.
    let out = npuzzle(
        dir.path(),
        &["sample", "--depth", "29", "-n", "700", "--seed", "3"],
    );
    let printed = stdout(&out);
    let starts: Vec<&str> = printed.lines().skip(1).collect();
    let distinct: std::collections::HashSet<&&str> = starts.iter().collect();
    assert_eq!((starts.len(), distinct.len()), (700, 700));
    assert!(!stderr(&out).contains("only"), "{}", stderr(&out));
}

#[test]
fn build_reports_the_whole_build_not_only_the_generation() {
    let dir = tempfile::tempdir().unwrap();
    let began = std::time::Instant::now();
    let out = npuzzle(dir.path(), &["build", "--board", "3x2"]);
    let wall = began.elapsed().as_secs_f64() * 1e3;
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let line = stdout(&out);
    // `built in T ms (generated G ms, checked C ms, saved S ms)`: T is all three.
    let number = |after: &str| -> f64 {
        let at = line
            .find(after)
            .unwrap_or_else(|| panic!("{after:?} in {line}"))
            + after.len();
        line[at..].split(' ').next().unwrap().parse().unwrap()
    };
    let total = number("built in ");
    let parts = number("(generated ") + number("checked ") + number("saved ");
    assert!((total - parts).abs() <= 0.02, "{line}");
    assert!(total <= wall, "{line} in a command of {wall:.2} ms");
}

#[test]
fn a_table_over_10_mb_is_announced_before_it_is_built() {
    let dir = tempfile::tempdir().unwrap();
    // stderr is a pipe here, so no spinner: a note says what is built before it begins.
    let out = npuzzle(
        dir.path(),
        &["distance", "1 2 3 4 5 6 7 8 9 10 0 11", "--board", "4x3"],
    );
    assert_eq!(stdout(&out), "1\n", "{}", stderr(&out));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("npuzzle: note: building the 4x3 table")
            && lines[0].contains("240 MB"),
        "{err}"
    );
    assert!(lines[1].contains("note: built table"), "{err}");
    // A small table is built without the note.
    let out = npuzzle(dir.path(), &["distance", "123456708"]);
    assert!(!stderr(&out).contains("building"), "{}", stderr(&out));
}

#[test]
fn build_size_without_goal_builds_that_boards_default_goal() {
    let dir = tempfile::tempdir().unwrap();
    let out = npuzzle(dir.path(), &["build", "--size", "3x2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("3x2-123450.npt"), "{}", stdout(&out));
    let out = npuzzle(dir.path(), &["build", "--size", "4x4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("4x4"), "{}", stderr(&out));
}

/// Regression: a reader that stopped early (`| head -1`) used to stop the saving too.
#[test]
fn build_all_into_a_closed_pipe_still_saves_all_nine_tables() {
    let dir = tempfile::tempdir().unwrap();
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "\"{}\" build --all --data-dir \"$0\" | head -1 >/dev/null",
            env!("CARGO_BIN_EXE_npuzzle")
        ))
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(table_files(dir.path()), 9);
}

#[test]
fn a_table_damaged_behind_valid_checksums_is_named_not_mistaken_for_unsolvable() {
    use npuzzle::{Board, BuildOptions, RankSpace, Table};
    let dir = tempfile::tempdir().unwrap();
    let goal = State::goal(Board::THREE_BY_THREE);
    let mut bytes = Table::build(&goal, BuildOptions::default())
        .unwrap()
        .into_inner();
    let header_len = Table::from_bytes(&bytes[..]).unwrap().header().len;
    // Swap the entries of a state at distance 1 and one at distance 2: the histogram, and
    // after resealing the checksums, stay valid, but the path from the first is broken.
    let space = RankSpace::new(Board::THREE_BY_THREE).unwrap();
    let near: State = "123456708".parse().unwrap();
    let far: State = "123456078".parse().unwrap();
    let (a, b) = (
        header_len + space.rank_unchecked(&near) as usize,
        header_len + space.rank_unchecked(&far) as usize,
    );
    bytes.swap(a, b);
    reseal::reseal_body(&mut bytes);
    std::fs::write(dir.path().join("3x3-123456780.npt"), &bytes).unwrap();

    let out = npuzzle(dir.path(), &["solve", "123456708"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("inconsistent"), "{}", stderr(&out));
    let out = TestCommand::new()
        .args(["check", "--deep"])
        .arg(dir.path().join("3x3-123456780.npt"))
        .output();
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
}
