//! Every board with tables from the command line: the batch hang on 2x4 and 4x2 (a regression:
//! two copies of the "which boards have tables" rule disagreed, so batch built a table it then
//! could not find, forever), and the commands on boards other than 3x3, up to 12 cells.

mod common;
mod references;

use references::walk;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

use common::TestCommand;
use npuzzle::rng::SplitMix64;
use npuzzle::{Board, How, Oracle, State};

/// Runs `npuzzle ARGS --data-dir DIR` with `input` on stdin, failing the test (not hanging it)
/// if it has not finished within `limit`.
fn run_within(limit: Duration, args: &[&str], dir: &Path, input: &str) -> Output {
    TestCommand::new()
        .args(args)
        .data_dir(dir)
        .stdin(input)
        .within(limit)
        .output()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn regression_batch_on_two_by_four_and_four_by_two_answers_instead_of_hanging() {
    let dir = tempfile::tempdir().unwrap();
    for (line, expected) in [
        ("1 2 3 4 / 5 6 0 7\n", "1"),
        ("1 2 / 3 4 / 5 6 / 0 7\n", "1"),
    ] {
        let out = run_within(Duration::from_secs(60), &["batch", "-"], dir.path(), line);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let row = stdout.lines().nth(1).expect("a row after the header");
        let distance = row.split(',').nth(2).expect("a distance column");
        assert_eq!(distance, expected, "{stdout}");
    }
}

#[test]
fn batch_answers_every_board_of_at_most_ten_cells_in_one_input_as_the_library_does() {
    let dir = tempfile::tempdir().unwrap();
    let oracle = Oracle::in_memory();
    let mut rng = SplitMix64::new(77);
    let mut input = String::new();
    let mut expected = Vec::new();
    for _ in 0..3 {
        for (w, h) in references::SMALL_BOARDS {
            let board = Board::new(w, h).unwrap();
            let goal = walk(
                &State::canonical_goal(board, rng.below(board.cells() as u64) as usize),
                9,
                &mut rng,
            );
            let start = walk(&goal, 60, &mut rng);
            input.push_str(&format!("{start},{goal}\n"));
            let answer = oracle.distance(&start, &goal, How::default()).unwrap();
            expected.push(answer.value.unwrap().to_string());
        }
    }
    let out = run_within(
        Duration::from_secs(120),
        &["batch", "-", "--threads", "2"],
        dir.path(),
        &input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let distances: Vec<String> = stdout
        .lines()
        .skip(1)
        .map(|row| row.split(',').nth(2).unwrap().to_string())
        .collect();
    assert_eq!(distances, expected);
}

#[test]
fn a_twelve_cell_question_is_answered_from_a_four_by_three_table_built_on_first_use() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "distance",
        "0 1 2 3 / 4 5 6 7 / 8 9 10 11",
        "--goal",
        "1 2 3 4 / 5 6 7 8 / 9 10 11 0",
    ];
    let first = run_within(Duration::from_secs(300), &args, dir.path(), "");
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let stderr = text(&first.stderr);
    assert!(
        stderr.contains("built table") && stderr.contains("4x3-"),
        "{stderr}"
    );
    // Four cells wide, three high: a 4x3 board in npuzzle's WxH.
    let file = dir.path().join("4x3-1-2-3-4-5-6-7-8-9-10-11-0.npt");
    let size = std::fs::metadata(&file).expect("the table was saved").len();
    assert!(size > 239_500_800, "{size}");
    // An independent answer: IDA* with linear conflict, no table.
    let start = State::parse("0 1 2 3 / 4 5 6 7 / 8 9 10 11", None).unwrap();
    let goal = State::parse("1 2 3 4 / 5 6 7 8 / 9 10 11 0", None).unwrap();
    let searched = Oracle::search_only()
        .distance(&start, &goal, How::default())
        .unwrap();
    assert_eq!(
        text(&first.stdout).trim(),
        searched.value.unwrap().to_string()
    );
    // The second run opens the saved table and builds nothing.
    let second = run_within(Duration::from_secs(60), &args, dir.path(), "");
    assert_eq!(second.stdout, first.stdout);
    assert_eq!(text(&second.stderr), "");
    // solve walks the same table to the goal.
    let mut solve = args.to_vec();
    solve[0] = "solve";
    solve.extend(["--format", "moves"]);
    let out = run_within(Duration::from_secs(60), &solve, dir.path(), "");
    let moves = text(&out.stdout).trim().to_string();
    assert_eq!(moves.len().to_string(), text(&first.stdout).trim());
    let path = npuzzle::Solution::from_moves(start, npuzzle::verify::parse_moves(&moves).unwrap())
        .unwrap();
    assert_eq!(path.end(), goal);
}

#[test]
fn stats_sample_verify_check_and_compare_work_on_a_two_by_five_board() {
    let dir = tempfile::tempdir().unwrap();
    let limit = Duration::from_secs(60);
    let ok = |out: &Output| assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // stats: the published radius of 5x2 / 2x5 is 55 (OEIS A090036), 2 states there.
    let out = run_within(
        limit,
        &["stats", "--board", "2x5", "--json"],
        dir.path(),
        "",
    );
    ok(&out);
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["max_depth"], 55, "{stats}");
    // sample at the maximum depth, with answers; verify reads it back with right claims.
    let out = run_within(
        limit,
        &[
            "sample",
            "--board",
            "2x5",
            "--depth",
            "55",
            "-n",
            "4",
            "--seed",
            "1",
            "--with-answers",
        ],
        dir.path(),
        "",
    );
    ok(&out);
    let sampled = text(&out.stdout);
    let mut claims = String::from("start,goal,length\n");
    for row in sampled.lines().skip(1) {
        assert!(row.ends_with(",55"), "{row}");
        claims.push_str(row);
        claims.push('\n');
    }
    let out = run_within(limit, &["verify", "-", "-f", "jsonl"], dir.path(), &claims);
    ok(&out);
    for line in text(&out.stdout).lines() {
        let verdict: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(verdict["verdict"], "optimal", "{verdict}");
    }
    // check finds the table stats built; compare runs the table and every search.
    let out = run_within(
        limit,
        &["check", "--board", "2x5", "--deep"],
        dir.path(),
        "",
    );
    ok(&out);
    assert!(
        text(&out.stdout).contains("entries:       1814400"),
        "{}",
        text(&out.stdout)
    );
    let start = sampled
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .to_string();
    let out = run_within(
        limit,
        &["compare", &start, "--board", "2x5", "-f", "json"],
        dir.path(),
        "",
    );
    ok(&out);
    let compare: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(compare["table_distance"], 55, "{compare}");
}
