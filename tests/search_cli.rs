//! The real `npuzzle` binary: `solve --algorithm`, `--stats`, `--no-table`, `distance` by search,
//! `compare`, and the exit codes (1 unsolvable or gave up, 2 usage). Expected answers come from
//! the library (a table built in memory, or a search), never typed in.

mod common;
mod search_support;

use std::process::Output;

use common::TestCommand;
use npuzzle::heuristic::LinearConflict;
use npuzzle::search::idastar;
use npuzzle::{Board, Limits, Move, State};
use search_support::{table, Rng};

fn npuzzle(args: &[&str]) -> (Output, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let output = TestCommand::new().data_dir(dir.path()).args(args).output();
    (output, dir)
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Replays `moves` from `start` and returns the end.
fn replay(start: &State, moves: &str) -> State {
    moves.chars().fold(*start, |state, letter| {
        state
            .apply(Move::from_letter(letter).expect("a move letter"))
            .expect("a legal move")
    })
}

#[test]
fn solve_with_every_algorithm_reports_a_path_and_its_cost_in_json() {
    // A seeded random state of middling depth, so that IDDFS and BFS finish quickly.
    let mut rng = Rng::new(0x501e);
    let start = std::iter::repeat_with(|| rng.table_state(table()))
        .find(|s| (14..=20).contains(&table().distance(s).unwrap().unwrap()))
        .unwrap();
    let text = start.to_string();
    let goal = *table().goal();
    let exact = table().distance(&start).unwrap().unwrap() as u64;
    for algorithm in ["table", "astar", "idastar", "bfs", "iddfs", "greedy"] {
        let (output, _dir) = npuzzle(&["solve", &text, "--algorithm", algorithm, "-f", "json"]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{algorithm}: {}",
            stderr(&output)
        );
        let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        assert_eq!(json["algorithm"], algorithm);
        let moves = json["moves"].as_str().unwrap();
        assert_eq!(replay(&start, moves), goal, "{algorithm}");
        assert_eq!(json["length"].as_u64(), Some(moves.len() as u64));
        assert_eq!(
            json["distance"].as_u64(),
            Some(exact),
            "{algorithm}: distance is the exact distance, whatever path was found"
        );
        assert_eq!(json["table_distance"].as_u64(), Some(exact), "{algorithm}");
        assert_eq!(json["optimal"].as_bool(), Some(moves.len() as u64 == exact));
        if algorithm != "greedy" {
            assert_eq!(moves.len() as u64, exact, "{algorithm} is optimal");
        }
        assert!(json["expanded"].as_u64().unwrap() > 0, "{algorithm}");
        assert!(json["generated"].as_u64().unwrap() >= json["expanded"].as_u64().unwrap());
        let time_ms = json["time_ms"].as_f64().unwrap();
        assert!(
            time_ms.is_finite() && time_ms >= 0.0,
            "{algorithm}: {time_ms}"
        );
        let uses_heuristic = ["astar", "idastar", "greedy"].contains(&algorithm);
        assert_eq!(json["heuristic"].is_string(), uses_heuristic, "{algorithm}");
    }
}

#[test]
fn stats_go_to_stdout_in_text_and_to_stderr_with_moves_only() {
    let (output, _dir) = npuzzle(&[
        "solve",
        "867254301",
        "-a",
        "astar",
        "--heuristic",
        "misplaced",
        "--stats",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let stats = text
        .lines()
        .find(|l| l.starts_with("stats:"))
        .expect("a stats line");
    assert!(
        stats.contains("astar with misplaced") && stats.contains("expanded"),
        "{stats}"
    );
    assert!(
        stats.contains("length 31") && stats.contains("optimal yes"),
        "{stats}"
    );

    let (output, _dir) = npuzzle(&[
        "solve",
        "867254301",
        "-a",
        "greedy",
        "--stats",
        "-f",
        "moves",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let moves = stdout(&output);
    assert_eq!(moves.lines().count(), 1);
    assert_eq!(
        replay(&"867254301".parse().unwrap(), moves.trim()),
        *table().goal()
    );
    let message = stderr(&output);
    let stats = message
        .lines()
        .find(|l| l.starts_with("npuzzle: stats:"))
        .expect("stats on stderr");
    assert!(
        stats.starts_with("npuzzle: stats: algorithm greedy with manhattan"),
        "{stats}"
    );
    assert!(stats.contains("optimal no (the table says 31)"), "{stats}");
}

#[test]
fn no_table_answers_by_search_and_writes_no_table() {
    let mut rng = Rng::new(0xc11);
    for _ in 0..5 {
        let start = rng.table_state(table());
        let text = start.to_string();
        let (output, dir) = npuzzle(&["distance", &text, "--no-table"]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert_eq!(
            stdout(&output).trim(),
            table().distance(&start).unwrap().unwrap().to_string()
        );
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "nothing built"
        );
    }
}

#[test]
fn boards_without_tables_fall_back_to_search() {
    let board = Board::new(4, 4).unwrap();
    let goal = State::goal(board);
    let mut rng = Rng::new(0x4444);
    for walk in [12, 30, 40] {
        let mut start = goal;
        for _ in 0..walk {
            let mv = Move::ALL[rng.below(4) as usize];
            start = start.apply(mv).unwrap_or(start);
        }
        let expected = idastar(&start, &LinearConflict::new(&goal), Limits::default());
        let expected = expected.solution().unwrap().len();
        let text = start.to_string();
        let (output, _dir) = npuzzle(&["distance", &text]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert_eq!(stdout(&output).trim(), expected.to_string());
        let (output, _dir) = npuzzle(&["solve", &text, "-f", "json", "-a", "astar"]);
        let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        assert_eq!(json["distance"].as_u64(), Some(expected as u64));
        assert_eq!(replay(&start, json["moves"].as_str().unwrap()), goal);
        assert!(json["table_distance"].is_null());
        assert_eq!(json["optimal"], true);
    }
    // A 4x3 board given with --size.
    let (output, _dir) = npuzzle(&[
        "solve",
        "1 2 3 4 5 6 7 8 9 10 0 11",
        "--size",
        "4x3",
        "-f",
        "moves",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "R\n");
}

#[test]
fn compare_on_the_hardest_3x3_instance_names_every_algorithm_and_exits_0() {
    let (output, _dir) = npuzzle(&["compare", "867254301"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with("867254301 -> 123456780: 31 moves"),
        "{text}"
    );
    for algorithm in ["table", "astar", "idastar", "bfs", "iddfs", "greedy"] {
        assert!(
            text.lines()
                .any(|l| l.split_whitespace().next() == Some(algorithm)),
            "no {algorithm} row in\n{text}"
        );
    }
}

#[test]
fn compare_reports_gave_up_rows_under_a_small_limit() {
    let (output, _dir) = npuzzle(&[
        "compare",
        "867254301",
        "--limit",
        "2000",
        "--all-heuristics",
        "-f",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["table_distance"], 31);
    assert_eq!(json["max_expanded"], 2000);
    let rows = json["rows"].as_array().unwrap();
    // table + 3 heuristics x (astar, idastar, greedy) + bfs + iddfs.
    assert_eq!(rows.len(), 12);
    for row in rows {
        match row["gave_up"].as_str() {
            Some(limit) => {
                assert_eq!(limit, "node limit");
                assert!(row["length"].is_null() && row["optimal"].is_null());
                assert_eq!(row["expanded"], 2000);
            }
            None => {
                let length = row["length"].as_u64().unwrap();
                assert_eq!(row["optimal"].as_bool(), Some(length == 31), "{row}");
            }
        }
    }
    let gave_up = |name: &str| {
        rows.iter()
            .any(|r| r["algorithm"] == name && r["gave_up"].is_string())
    };
    assert!(gave_up("bfs") && gave_up("iddfs"));
    let (text, _dir) = npuzzle(&["compare", "867254301", "--limit", "2000"]);
    assert!(stdout(&text)
        .lines()
        .any(|l| l.starts_with("iddfs") && l.contains("gave up (node limit)")));
}

#[test]
fn compare_with_all_heuristics_on_4x4_adds_the_pattern_databases_by_name() {
    // Korf's goal; the databases (6-6-3) are built on first use, as for `solve`.
    let (output, _dir) = npuzzle(&[
        "compare",
        "4 1 2 3 5 6 10 7 8 9 14 11 12 13 0 15",
        "--goal",
        "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
        "--all-heuristics",
        "-f",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let rows = json["rows"].as_array().unwrap();
    // No table: 4 heuristics x (astar, idastar, greedy) + bfs + iddfs.
    assert_eq!(rows.len(), 14, "{json}");
    let length = |algorithm: &str, heuristic: Option<&str>| {
        let row = rows
            .iter()
            .find(|r| r["algorithm"] == algorithm && r["heuristic"].as_str() == heuristic)
            .unwrap_or_else(|| panic!("no {algorithm} {heuristic:?} row in {json}"));
        row["length"].as_u64().expect("solved")
    };
    let pdb = Some("pdb 4x4 6-6-3 + reflection");
    for algorithm in ["astar", "idastar"] {
        assert_eq!(
            length(algorithm, pdb),
            length("bfs", None),
            "{algorithm} with databases is optimal"
        );
    }
    assert!(length("greedy", pdb) >= length("bfs", None));
}

#[test]
fn unsolvable_pairs_exit_1_with_the_reason() {
    for args in [
        vec!["solve", "213456780", "-a", "astar"],
        vec!["solve", "213456780", "--no-table"],
        vec!["distance", "213456780", "--no-table"],
        vec!["compare", "213456780"],
        vec!["solve", "2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0"],
    ] {
        let (output, _dir) = npuzzle(&args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(stdout(&output).is_empty(), "{args:?}");
        let message = stderr(&output);
        assert!(
            message.starts_with("npuzzle: ") && message.contains("cannot reach"),
            "{message}"
        );
        assert_eq!(message.lines().count(), 1);
    }
}

#[test]
fn a_search_that_gives_up_exits_1_and_bad_options_exit_2() {
    let (output, _dir) = npuzzle(&["solve", "867254301", "-a", "iddfs", "--limit", "1000"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("iddfs gave up at the node limit"),
        "{}",
        stderr(&output)
    );
    for args in [
        vec!["solve", "867254301", "-a", "dijkstra"],
        vec!["solve", "867254301", "--heuristic", "euclid"],
        vec!["solve", "867254301", "--limit", "ten"],
        vec!["solve", "867254301", "-a", "table", "--no-table"],
        vec![
            "solve",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
            "-a",
            "table",
        ],
        vec!["distance", "867254301", "-a", "greedy"],
        vec!["compare", "86725430"],
    ] {
        let (output, _dir) = npuzzle(&args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(stdout(&output).is_empty());
    }
}

#[test]
fn a_greedy_path_without_a_table_has_a_length_but_no_known_distance() {
    let start = "5 1 3 4 2 6 7 8 9 10 11 12 13 14 15 0";
    let (output, _dir) = npuzzle(&["solve", start, "-a", "greedy", "-f", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let moves = json["moves"].as_str().unwrap();
    let goal: State = json["goal"].as_str().unwrap().parse().unwrap();
    assert_eq!(replay(&start.parse().unwrap(), moves), goal);
    assert_eq!(json["length"].as_u64(), Some(moves.len() as u64));
    assert!(json["table_distance"].is_null());
    assert_eq!(json["optimal"], false, "greedy proves nothing");
    assert!(
        json["distance"].is_null(),
        "the exact distance is unknown: {json}"
    );

    let (text, _dir) = npuzzle(&["solve", "867254301", "-a", "greedy"]);
    let first = stdout(&text).lines().next().unwrap().to_string();
    assert!(
        first.contains("not optimal: the exact distance is 31"),
        "{first}"
    );
}
