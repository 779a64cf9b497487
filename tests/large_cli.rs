//! The command line on boards beyond 5x5 and with `--within`: `sample --scramble` draws,
//! `solve` answers (replayed here with the library), the guarantee is printed, and bad
//! questions get exit 2, unsolvable ones exit 1.

use std::process::Command;

use npuzzle::large::{LargeBoard, LargeState};
use npuzzle::verify::parse_moves;

fn npuzzle(args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(args)
        .env("NPUZZLE_DATA_DIR", dir.path())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn sampled_large_boards_are_solved_and_the_moves_replay() {
    for (board, kind) in [
        ("32x32", "uniform"),
        ("10x10", "uniform"),
        ("12x5", "walk"),
        ("6x6", "uniform"),
    ] {
        let (code, csv, _) = npuzzle(&[
            "sample",
            "--scramble",
            kind,
            "--moves",
            "500",
            "--board",
            board,
            "-n",
            "2",
            "--seed",
            "5",
        ]);
        assert_eq!(code, 0);
        let b: LargeBoard = board.parse().unwrap();
        for line in csv.lines().skip(1) {
            let (start, goal) = line.split_once(',').unwrap();
            let start = LargeState::parse(start, None).unwrap();
            let goal = LargeState::parse(goal, None).unwrap();
            assert_eq!((start.board(), goal.clone()), (b, LargeState::goal(b)));
            assert!(start.can_reach(&goal));
            let (code, moves, err) =
                npuzzle(&["solve", &start.to_string(), "--board", board, "-f", "moves"]);
            assert_eq!(code, 0, "{err}");
            let moves = parse_moves(moves.trim()).unwrap();
            assert_eq!(start.after(&moves).unwrap(), goal, "{board}");
        }
    }
}

#[test]
fn the_guarantee_is_printed_and_bad_questions_are_refused() {
    let (code, out, _) = npuzzle(&[
        "solve",
        "8 13 5 4 3 7 15 9 1 12 6 14 11 0 10 2",
        "--within",
        "none",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("guarantee none"), "{out}");
    let (code, out, _) = npuzzle(&[
        "solve",
        "867254301",
        "--within",
        "1.5",
        "--no-table",
        "-f",
        "json",
    ]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    // On 3x3 the exact table says whether the answer happens to be optimal anyway.
    assert!(["within 1.5", "optimal"].contains(&json["guarantee"].as_str().unwrap()));
    assert!(json["length"].as_u64().unwrap() <= 46);
    let six = "2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 0";
    let (code, _, err) = npuzzle(&["solve", six]);
    assert_eq!(code, 1, "an unsolvable 6x6 pair: {err}");
    // The library's reasons, written once (npuzzle::large), printed as they are.
    assert!(
        err.contains("different parity classes (tile inversions plus the blank's row)"),
        "{err}"
    );
    let (code, _, err) = npuzzle(&["solve", &six.replacen("2 1", "1 2", 1), "--within", "1.2"]);
    assert_eq!(code, 2, "no bounded search beyond 5x5: {err}");
    assert!(
        err.contains("--within: boards beyond 5x5 are solved by the constructive solver only")
            && err.contains("`within 1.2` was asked"),
        "{err}"
    );
    let (code, _, err) = npuzzle(&["solve", &six.replace("2 1", "1 1")]);
    assert_eq!(code, 2, "a repeated tile: {err}");
    assert!(
        err.starts_with("npuzzle: ") && err.lines().count() == 1,
        "{err}"
    );
    let (code, _, _) = npuzzle(&["solve", "867254301", "--within", "0.5"]);
    assert_eq!(code, 2);
    let (code, _, _) = npuzzle(&["sample", "--scramble", "uniform", "--board", "65x2"]);
    assert_eq!(code, 2);
}

#[test]
fn a_5x5_search_that_may_take_hours_gets_a_note() {
    // One move from the goal: every search below answers at once.
    let near = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24";
    let note = "may take hours or more; bound it with --limit";
    let (code, _, err) = npuzzle(&["solve", near]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(note), "{err}");
    // The data directory is empty: a bounded search has no pattern databases, and is told
    // so (with linear conflict it may run for hours); the constructive solver is not.
    let missing = "no 5x5 pattern databases for this goal's blank cell";
    for (within, told) in [("1.5", true), ("none", false)] {
        let (code, out, err) = npuzzle(&["solve", near, "--within", within]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("1 move"), "{out}");
        assert!(!err.contains(note), "--within {within}: {err}");
        assert_eq!(err.contains(missing), told, "--within {within}: {err}");
        if told {
            assert!(err.contains("npuzzle build --pdb 5x5:6-6-6-6"), "{err}");
        }
    }
    let (_, _, err) = npuzzle(&["solve", near, "--within", "1.5", "--limit", "10s"]);
    assert!(!err.contains(missing), "bounded by --limit: {err}");
}
