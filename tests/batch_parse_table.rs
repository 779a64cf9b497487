//! Every documented spelling of a state is read, and every malformed one is refused with one
//! line naming the problem and its column: by the library, by `distance`, `stats`, `check`
//! (exit code 2, never a panic), and by `batch`, which answers the other lines.

mod common;

use std::process::Output;

use npuzzle::search::{bfs, Limits};
use npuzzle::{Board, ParseStateError, State};

/// What a malformed spelling must be refused for.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Problem {
    Empty,
    Stray(char, usize),
    BadCell(usize),
    MissingCell(usize),
    WrongCount(usize),
    NotSquare(usize),
    MissingBlank(usize),
    Ragged(usize),
    BoardMismatch,
    UnsupportedRows,
    OutOfRange(usize, usize),
    Repeated(usize, usize),
}

/// The board asked for, as `--size` would give it.
type Size = Option<(usize, usize)>;

/// Malformed spellings, with the board asked for (`--size`) and the problem expected.
const MALFORMED: &[(&str, Size, Problem)] = &[
    ("", None, Problem::Empty),
    ("   ", None, Problem::Empty),
    ("\t \t", None, Problem::Empty),
    ("/", None, Problem::Empty),
    ("12345678", None, Problem::MissingBlank(8)),
    ("1234567800", None, Problem::NotSquare(10)),
    ("0", None, Problem::NotSquare(1)),
    ("_", None, Problem::NotSquare(1)),
    ("1,2,3,4,5,6,7,8", None, Problem::MissingBlank(8)),
    ("1,2,3,4,5,6,7,0", None, Problem::NotSquare(8)),
    ("1,2,3,4,5,6,7,8,0,1", None, Problem::NotSquare(10)),
    ("12345678x", None, Problem::Stray('x', 9)),
    ("a23456780", None, Problem::Stray('a', 1)),
    ("123-456-780", None, Problem::Stray('-', 4)),
    ("123456780!", None, Problem::Stray('!', 10)),
    ("+123456780", None, Problem::Stray('+', 1)),
    ("0x12345678", None, Problem::Stray('x', 2)),
    ("123456780;", None, Problem::Stray(';', 10)),
    ("12345678９", None, Problem::Stray('９', 9)),
    ("１23456780", None, Problem::Stray('１', 1)),
    ("1 2 3 4 5 6 7 8 -0", None, Problem::Stray('-', 17)),
    ("1 2 3 4 5 6 7 8 0 extra", None, Problem::Stray('e', 19)),
    ("[1,2,3,4,5,6,7,8,0]", None, Problem::Stray('[', 1)),
    ("1 2 3 4 5 6 7 8 100", None, Problem::BadCell(17)),
    ("1 2 3 4 5 6 7 8 _0", None, Problem::BadCell(17)),
    ("1 2 3 4 5 6 7 8 __", None, Problem::BadCell(17)),
    ("1.5 2 3 4 5 6 7 8 0", None, Problem::BadCell(1)),
    ("123 456 780", None, Problem::BadCell(1)),
    (
        "99999999999999999999 1 2 3 4 5 6 7 8",
        None,
        Problem::BadCell(1),
    ),
    ("1,,2,3,4,5,6,7,8,0", None, Problem::MissingCell(3)),
    (",1,2,3,4,5,6,7,8,0", None, Problem::MissingCell(1)),
    ("1,2,3,4,5,6,7,8,0,", None, Problem::MissingCell(18)),
    ("1 2 3 / / 4 5 6 7 8 0", None, Problem::MissingCell(9)),
    ("123/456/78", None, Problem::Ragged(3)),
    ("12/3456/780", None, Problem::Ragged(2)),
    ("123/456/780/", None, Problem::Ragged(4)),
    ("1/2/3/4/5/6/7/8/0", None, Problem::UnsupportedRows),
    (
        "123456/123456/123456/123456/123456/123450",
        None,
        Problem::UnsupportedRows,
    ),
    ("923456780", None, Problem::OutOfRange(9, 1)),
    ("1 2 3 4 5 6 7 8 99", None, Problem::OutOfRange(99, 17)),
    (
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16",
        None,
        Problem::OutOfRange(16, 37),
    ),
    ("113456780", None, Problem::Repeated(1, 2)),
    ("123456788", None, Problem::Repeated(8, 9)),
    ("1234567_0", None, Problem::Repeated(0, 9)),
    ("1234567._", None, Problem::Repeated(0, 9)),
    ("1 2 3 4 5 6 7 8 1", None, Problem::Repeated(1, 17)),
    ("1,2,3,4,5,6,7,8,08", None, Problem::Repeated(8, 17)),
    ("1 2 3 4 5 6 7 8 0", Some((4, 4)), Problem::WrongCount(9)),
    ("123456780", Some((3, 2)), Problem::WrongCount(9)),
    ("12/34/50", Some((3, 2)), Problem::BoardMismatch),
    ("123400", Some((3, 2)), Problem::Repeated(0, 6)),
];

/// Valid spellings, the board asked for, and the state's canonical text.
const VALID: &[(&str, Size, &str)] = &[
    ("123456780", None, "123456780"),
    ("1 2 3 4 5 6 7 8 0", None, "123456780"),
    ("1,2,3,4,5,6,7,8,0", None, "123456780"),
    ("123/456/780", None, "123456780"),
    ("12345678_", None, "123456780"),
    ("12345678.", None, "123456780"),
    (" 123456780 ", None, "123456780"),
    ("123456780\r\n", None, "123456780"),
    ("\t1 2 3 4 5 6 7 8 0\t", None, "123456780"),
    ("1, 2, 3, 4, 5, 6, 7, 8, 0", None, "123456780"),
    ("1 2 3 / 4 5 6 / 7 8 _", None, "123456780"),
    ("123/456/78_", None, "123456780"),
    ("_12345678", None, "012345678"),
    (".87654321", None, "087654321"),
    ("867254301", None, "867254301"),
    ("8 1 3 4 0 2 7 6 5", None, "813402765"),
    ("1230", None, "1230"),
    ("12/3_", None, "1230"),
    ("123/450", None, "123/450"),
    ("12/34/50", None, "12/34/50"),
    ("123450", Some((3, 2)), "123/450"),
    ("123456780", Some((3, 3)), "123456780"),
    (
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
        None,
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
    ),
    (
        "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,_",
        None,
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
    ),
    (
        "1 2 3 4/5 6 7 8/9 10 11 0",
        None,
        "1 2 3 4/5 6 7 8/9 10 11 0",
    ),
    ("12345/6789_", None, "12345/67890"),
    (
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 _",
        None,
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0",
    ),
];

fn board(size: Option<(usize, usize)>) -> Option<Board> {
    size.map(|(w, h)| Board::new(w, h).expect("test boards are supported"))
}

fn problem_of(error: &ParseStateError) -> Problem {
    match *error {
        ParseStateError::Empty => Problem::Empty,
        ParseStateError::StrayCharacter { found, column } => Problem::Stray(found, column),
        ParseStateError::BadCell { column, .. } => Problem::BadCell(column),
        ParseStateError::MissingCell { column } => Problem::MissingCell(column),
        ParseStateError::WrongCellCount { found, .. } => Problem::WrongCount(found),
        ParseStateError::NotSquare { found } => Problem::NotSquare(found),
        ParseStateError::MissingBlank { found, .. } => Problem::MissingBlank(found),
        ParseStateError::RaggedRows { row, .. } => Problem::Ragged(row),
        ParseStateError::BoardMismatch { .. } => Problem::BoardMismatch,
        ParseStateError::UnsupportedRows { .. } => Problem::UnsupportedRows,
        ParseStateError::TileOutOfRange { tile, column, .. } => Problem::OutOfRange(tile, column),
        ParseStateError::RepeatedTile { tile, column } => Problem::Repeated(tile, column),
        ref other => panic!("a new kind of parse error: {other:?}"),
    }
}

#[test]
fn the_tables_are_large_enough() {
    assert!(
        MALFORMED.len() >= 40,
        "{} malformed spellings",
        MALFORMED.len()
    );
    assert!(VALID.len() >= 20, "{} valid spellings", VALID.len());
}

#[test]
fn every_malformed_spelling_is_refused_for_its_own_problem() {
    for &(text, size, expected) in MALFORMED {
        let error = State::parse(text, board(size)).expect_err(text);
        assert_eq!(problem_of(&error), expected, "{text:?}: {error}");
        let message = error.to_string();
        assert!(!message.contains('\n'), "{text:?}: {message}");
        if let Problem::Stray(_, column)
        | Problem::BadCell(column)
        | Problem::MissingCell(column)
        | Problem::OutOfRange(_, column)
        | Problem::Repeated(_, column) = expected
        {
            assert!(
                message.contains(&format!("column {column}")),
                "{text:?}: {message}"
            );
        }
    }
}

#[test]
fn every_valid_spelling_reads_its_state_and_displays_canonically() {
    for &(text, size, canonical) in VALID {
        let state = State::parse(text, board(size)).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(state.to_string(), canonical, "{text:?}");
        assert_eq!(State::parse(canonical, None), Ok(state), "{canonical:?}");
        let mut tiles = state.cells().to_vec();
        tiles.sort_unstable();
        assert_eq!(tiles, (0..state.board().cells() as u8).collect::<Vec<_>>());
    }
}

fn npuzzle(args: &[&str], data_dir: &std::path::Path, stdin: Option<&[u8]>) -> Output {
    common::run_with_stdin(args, data_dir, stdin.unwrap_or_default())
}

fn size_args(size: Option<(usize, usize)>) -> Vec<String> {
    size.map(|(w, h)| vec!["--size".to_string(), format!("{w}x{h}")])
        .unwrap_or_default()
}

#[test]
fn the_cli_refuses_every_malformed_start_with_one_line_and_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    for &(text, size, _) in MALFORMED {
        let expected = State::parse(text, board(size)).unwrap_err().to_string();
        let mut args = vec!["distance".to_string(), text.to_string()];
        args.extend(size_args(size));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = npuzzle(&args, dir.path(), None);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{text:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{text:?}");
        assert_eq!(stderr.lines().count(), 1, "{text:?}: {stderr}");
        assert!(
            stderr.starts_with("npuzzle: invalid start"),
            "{text:?}: {stderr}"
        );
        assert!(stderr.contains(&expected), "{text:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{text:?}: {stderr}");
    }
}

#[test]
fn stats_and_check_refuse_a_malformed_goal_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    for &(text, size, _) in MALFORMED
        .iter()
        .filter(|(_, size, _)| size.is_none())
        .step_by(5)
    {
        let expected = State::parse(text, board(size)).unwrap_err().to_string();
        for command in ["stats", "check"] {
            let out = npuzzle(&[command, "--goal", text], dir.path(), None);
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert_eq!(out.status.code(), Some(2), "{command} {text:?}: {stderr}");
            assert!(out.stdout.is_empty(), "{command} {text:?}");
            assert_eq!(stderr.lines().count(), 1, "{command} {text:?}: {stderr}");
            assert!(stderr.contains(&expected), "{command} {text:?}: {stderr}");
        }
    }
}

#[test]
fn batch_answers_a_row_for_every_spelling_and_fails_only_the_malformed() {
    // JSON lines carry every spelling exactly, commas and all.
    let mut input = Vec::new();
    let mut expected = Vec::new();
    for &(text, size, _) in MALFORMED.iter().filter(|(_, size, _)| size.is_none()) {
        let message = State::parse(text, board(size)).unwrap_err().to_string();
        serde_json::to_writer(&mut input, &serde_json::json!({ "start": text })).unwrap();
        input.push(b'\n');
        expected.push(Err(message));
    }
    for &(text, size, canonical) in VALID.iter().filter(|(_, size, _)| size.is_none()) {
        serde_json::to_writer(&mut input, &serde_json::json!({ "start": text })).unwrap();
        input.push(b'\n');
        let state = State::parse(text, board(size)).unwrap();
        let goal = State::goal(state.board());
        // An independent answer: plain BFS from the library, which neither the table path nor
        // batch's search fallback (IDA*) uses.
        let found = bfs(&state, &goal, Limits::default());
        let distance = found
            .solution()
            .expect("every valid spelling here is solvable")
            .len();
        expected.push(Ok((canonical, goal.to_string(), distance)));
    }
    let dir = tempfile::tempdir().unwrap();
    let out = npuzzle(
        &["batch", "-", "--format", "jsonl"],
        dir.path(),
        Some(&input),
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), expected.len());
    for (i, (row, expected)) in rows.iter().zip(&expected).enumerate() {
        match expected {
            Err(message) => {
                let error = row["error"]
                    .as_str()
                    .unwrap_or_else(|| panic!("row {i}: {row}"));
                assert!(error.starts_with(&format!("line {}: ", i + 1)), "{error}");
                assert!(error.contains(message), "row {i}: {error} lacks {message}");
                assert!(row["distance"].is_null());
            }
            Ok((canonical, goal, distance)) => {
                // Boards of at most 9 cells are answered from tables, larger ones by search.
                assert!(row["error"].is_null(), "row {i}: {row}");
                assert_eq!(row["start"], *canonical);
                assert_eq!(row["goal"], *goal);
                assert_eq!(row["distance"].as_u64(), Some(*distance as u64), "row {i}");
            }
        }
    }
    let failed = expected.iter().filter(|e| e.is_err()).count();
    assert!(
        stderr.contains(&format!("{failed} of {} questions failed", rows.len())),
        "{stderr}"
    );
}
