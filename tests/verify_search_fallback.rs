//! `npuzzle verify` on boards without an exact table: the exact distance comes from IDA* with
//! linear conflict, checked here against published optimal lengths (Korf's 15-puzzle
//! instances), and every verdict still follows. A line whose search reaches `--limit` is
//! `unverified`, saying so, and the other lines are judged.

mod common;
mod references;

use npuzzle::heuristic::LinearConflict;
use npuzzle::search::idastar;
use npuzzle::{Limits, Move, State};

/// An optimal move string for `start` to `goal`, found by the library (not by the binary).
fn optimal_moves(start: &State, goal: &State) -> String {
    let found = idastar(start, &LinearConflict::new(goal), Limits::default());
    found.solution().expect("solvable").moves_string()
}

/// Runs `verify - --format jsonl ARGS` on `input`; returns the exit code, the rows, and their
/// verdicts.
fn verify_jsonl(input: &str, args: &[&str]) -> (Option<i32>, Vec<serde_json::Value>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec!["verify", "-", "--format", "jsonl"];
    all.extend(args);
    let out = common::run_with_stdin(&all, dir.path(), input);
    let rows = common::json_lines(&out);
    let verdicts = rows
        .iter()
        .map(|r| r["verdict"].as_str().unwrap().to_string())
        .collect();
    (out.status.code(), rows, verdicts)
}

#[test]
fn fifteen_puzzle_claims_get_every_verdict_against_published_optimal_lengths() {
    let korf = references::easiest(references::korf100(), 2);
    let (a, b) = (&korf[0], &korf[1]);
    let moves = optimal_moves(&a.start, &a.goal);
    assert_eq!(
        moves.len(),
        a.optimal as usize,
        "the library agrees with Korf"
    );
    // Korf's goal has the blank top-left: `R` then `L` there is legal and returns.
    let detour = format!("{moves}RL");
    // Two tiles swapped: the other parity class, so no solution exists.
    let start = a.start.to_string();
    let mut tiles: Vec<&str> = start.split(' ').collect();
    let (i, j) = if tiles[0] != "0" && tiles[1] != "0" {
        (0, 1)
    } else {
        (2, 3)
    };
    tiles.swap(i, j);
    let swapped = tiles.join(" ");
    let input = [
        format!(
            r#"{{"start":"{}","goal":"{}","moves":"{moves}"}}"#,
            a.start, a.goal
        ),
        format!(
            r#"{{"start":"{}","goal":"{}","moves":"{detour}"}}"#,
            a.start, a.goal
        ),
        format!(
            r#"{{"start":"{}","goal":"{}","length":{}}}"#,
            b.start, b.goal, b.optimal
        ),
        format!(
            r#"{{"start":"{}","goal":"{}","length":{}}}"#,
            b.start,
            b.goal,
            b.optimal + 2
        ),
        format!(
            r#"{{"start":"{swapped}","goal":"{}","unsolvable":true}}"#,
            a.goal
        ),
        format!(
            r#"{{"start":"{swapped}","goal":"{}","moves":"{moves}"}}"#,
            a.goal
        ),
        format!(
            r#"{{"start":"{}","goal":"{}","unsolvable":true}}"#,
            a.start, a.goal
        ),
    ]
    .join("\n");
    let (code, rows, verdicts) = verify_jsonl(&input, &[]);
    assert_eq!(code, Some(1), "some lines are wrong on purpose");
    assert_eq!(
        verdicts,
        [
            "optimal",
            "suboptimal",
            "optimal",
            "wrong-length",
            "correct-unsolvable",
            "false-solution",
            "false-unsolvable",
        ],
        "{rows:#?}"
    );
    assert_eq!(rows[0]["exact"].as_u64(), Some(u64::from(a.optimal)));
    assert_eq!(rows[1]["by"].as_u64(), Some(2));
    assert_eq!(rows[2]["exact"].as_u64(), Some(u64::from(b.optimal)));
    assert_eq!(rows[4]["exact"], "unsolvable");
}

#[test]
fn a_line_whose_search_reaches_the_limit_is_unverified_and_the_others_are_judged() {
    let korf = references::easiest(references::korf100(), 1);
    let instance = &korf[0];
    let input = format!(
        "start,goal,length\n{},{},{}\n867254301,123456780,31\n",
        instance.start, instance.goal, instance.optimal
    );
    let (code, rows, _) = verify_jsonl(&input, &["--limit", "1000"]);
    assert_eq!(code, Some(1));
    assert_eq!(rows.len(), 2);
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(rows[0]["verdict"], "unverified");
    assert!(rows[0]["exact"].is_null());
    let detail = rows[0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("no exact table for the 4x4 board") && detail.contains("node limit"),
        "{detail}"
    );
    assert_eq!(
        rows[1]["verdict"], "optimal",
        "the table still answers 3x3 lines"
    );

    // The summary counts it apart from malformed lines, and it does not pass.
    let summary = common::run_with_stdin(&["verify", "-", "--limit", "1000"], dir.path(), &input);
    assert_eq!(summary.status.code(), Some(1));
    let text = String::from_utf8(summary.stdout).unwrap();
    assert!(
        text.contains("  unverified                   1\n"),
        "{text}"
    );
    assert!(!text.contains("malformed"), "{text}");

    let bad = common::run_with_stdin(&["verify", "-", "--limit", "soon"], dir.path(), &input);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn without_the_distance_illegal_moves_and_wrong_ends_are_still_judged() {
    // A node limit of one: no search can finish, so every verdict here comes from the
    // claim alone.
    let korf = references::easiest(references::korf100(), 1);
    let instance = &korf[0];
    let start = instance.start;
    let illegal = Move::ALL
        .into_iter()
        .find(|&mv| start.apply(mv).is_none())
        .expect("this instance has its blank on an edge, so some move leaves the board");
    let legal = Move::ALL
        .into_iter()
        .find(|&mv| start.apply(mv).is_some())
        .unwrap();
    let optimal = optimal_moves(&instance.start, &instance.goal);
    let line = |moves: String| format!("{},{},{moves}\n", instance.start, instance.goal);
    let input = format!(
        "start,goal,moves\n{}{}{}",
        line(illegal.letter().to_string()),
        line(legal.letter().to_string()),
        line(optimal),
    );
    let (code, rows, verdicts) = verify_jsonl(&input, &["--limit", "1"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        verdicts,
        ["illegal-move", "wrong-end", "unverified"],
        "only the legal solution needs the distance: {rows:#?}"
    );
    assert_eq!(rows[0]["step"], 1);
}
