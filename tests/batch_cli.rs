//! `npuzzle batch` end to end: the real binary, its stdout, stderr and exit code apart. Every
//! distance is checked against a table built in memory by the library, every path replayed.

mod common;

use std::path::Path;
use std::process::Output;
use std::sync::OnceLock;

use npuzzle::{Board, BuildOptions, Move, RankSpace, Solution, State, Table};

fn table_for(goal: &State) -> &'static Table<Vec<u8>> {
    static TABLES: OnceLock<Vec<Table<Vec<u8>>>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        let board = Board::THREE_BY_THREE;
        (0..9)
            .map(|blank| {
                Table::build(
                    &State::canonical_goal(board, blank),
                    BuildOptions::default(),
                )
                .unwrap()
            })
            .collect()
    });
    &tables[goal.blank()]
}

/// The library's answer: the distance, or `None` for an unsolvable pair.
fn expected_distance(start: &State, goal: &State) -> Option<u8> {
    table_for(goal).distance_to(start, goal).unwrap()
}

fn npuzzle(args: &[&str], data_dir: &Path, stdin: &[u8]) -> Output {
    common::run_with_stdin(args, data_dir, stdin)
}

/// A data directory with the nine 3x3 tables already built, so runs print no build notice.
fn data_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let out = npuzzle(&["build", "--all"], dir.path(), b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// `n` states from a seeded walk over the 3x3 rank space, both parity classes.
fn seeded_states(n: usize, seed: u64) -> Vec<State> {
    let space = RankSpace::new(Board::THREE_BY_THREE).unwrap();
    let mut x = seed;
    (0..n)
        .map(|_| {
            // xorshift64*: a fixed, seeded sequence.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            space.state_at((x % space.full_len() as u64) as u32)
        })
        .collect()
}

#[test]
fn mixed_lines_are_answered_in_order_and_failures_give_exit_code_1() {
    let dir = data_dir();
    let input = "\
# a comment, then a blank line

867254301
123456708,123456780
1 2 3 4 5 6 7 8 0 , 1 2 3 4 5 6 8 7 0
12345678
1,2,3,4,5,6,0,7,8
x23456780
1,2,3,4,5,6,0,7,8,1,2,3,4,5,6,7,0,8
123456780,123456708,123456780
123/456/780\r
";
    let out = npuzzle(&["batch", "-"], dir.path(), input.as_bytes());
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let mut reader = csv::Reader::from_reader(stdout.as_bytes());
    assert_eq!(
        reader.headers().unwrap(),
        vec!["start", "goal", "distance", "error"]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let goal = State::goal(Board::THREE_BY_THREE);
    let expect_ok = |row: &csv::StringRecord, start: &str, goal_text: &str| {
        let start: State = start.parse().unwrap();
        let goal: State = goal_text.parse().unwrap();
        assert_eq!(&row[0], start.to_string());
        assert_eq!(&row[1], goal.to_string());
        let distance = expected_distance(&start, &goal).expect("solvable");
        assert_eq!(&row[2], distance.to_string());
        assert_eq!(&row[3], "");
    };
    let expect_err = |row: &csv::StringRecord, line: usize, needle: &str| {
        // An unsolvable pair says so where the distance goes (verify reads it back).
        let distance = if needle == "cannot reach" {
            "unsolvable"
        } else {
            ""
        };
        assert_eq!(&row[2], distance, "{row:?}");
        assert!(row[3].starts_with(&format!("line {line}: ")), "{row:?}");
        assert!(row[3].contains(needle), "{row:?} lacks {needle}");
    };
    assert_eq!(rows.len(), 9, "{stdout}");
    expect_ok(&rows[0], "867254301", &goal.to_string());
    expect_ok(&rows[1], "123456708", "123456780");
    expect_err(&rows[2], 5, "cannot reach");
    expect_err(
        &rows[3],
        6,
        "cell count 8 with no blank: is the blank missing?",
    );
    expect_ok(&rows[4], "123456078", "123456780");
    expect_err(&rows[5], 8, "unexpected character `x` at column 1");
    expect_ok(&rows[6], "123456078", "123456708");
    expect_err(&rows[7], 10, "found 3 comma-separated fields");
    expect_ok(&rows[8], "123456780", "123456780");
    assert_eq!(
        &rows[3][0], "12345678",
        "a failed row keeps the start as written"
    );
    assert_eq!(
        stderr.trim_end(),
        "npuzzle: 4 of 9 questions failed, the first on line 5; see the `error` column"
    );
}

#[test]
fn every_answer_matches_the_library_and_order_is_kept_across_blocks_and_threads() {
    let dir = data_dir();
    // About 3 MB: several input blocks and many parallel pieces.
    let states = seeded_states(300_000, 0x5eed);
    let mut input = String::with_capacity(states.len() * 10);
    for s in &states {
        input.push_str(&s.to_string());
        input.push('\n');
    }
    let file = dir.path().join("in.txt");
    std::fs::write(&file, &input).unwrap();
    let one = npuzzle(
        &["batch", file.to_str().unwrap(), "--threads", "1"],
        dir.path(),
        b"",
    );
    let two = npuzzle(&["batch", "--threads", "2"], dir.path(), input.as_bytes());
    assert_eq!(
        one.status.code(),
        Some(1),
        "about half the states are unsolvable"
    );
    assert_eq!(one.stdout, two.stdout, "threads and stdin vs file agree");
    assert_eq!(one.stderr, two.stderr);
    let goal = State::goal(Board::THREE_BY_THREE);
    let mut reader = csv::Reader::from_reader(&one.stdout[..]);
    let mut unsolvable = 0;
    let mut count = 0;
    for (i, (row, start)) in reader.records().zip(&states).enumerate() {
        let row = row.unwrap();
        assert_eq!(&row[0], start.to_string(), "row {i}");
        match expected_distance(start, &goal) {
            Some(d) => assert_eq!((&row[2], &row[3]), (d.to_string().as_str(), ""), "row {i}"),
            None => {
                unsolvable += 1;
                assert!(row[3].starts_with(&format!("line {}: ", i + 1)), "row {i}");
            }
        }
        count += 1;
    }
    assert_eq!(count, states.len());
    let message = format!("npuzzle: {unsolvable} of {} questions failed", states.len());
    assert!(
        text(&one.stderr).starts_with(&message),
        "{}",
        text(&one.stderr)
    );
}

#[test]
fn csv_input_with_a_header_gives_jsonl_with_replayable_solutions() {
    let dir = data_dir();
    let input = "\
# instances
id,goal,start
1,,867254301
2,123456708,\"1,2,3,4,5,6,7,0,8\"
3,123804765,283164705

4,,bad
5,021345678,123456780
";
    let out = npuzzle(
        &["batch", "--solve", "-f", "jsonl"],
        dir.path(),
        input.as_bytes(),
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let rows: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 5);
    let cases = [
        ("867254301", "123456780"),
        ("123456708", "123456708"),
        ("283164705", "123804765"),
    ];
    for (row, (start, goal)) in rows.iter().zip(cases) {
        let (start, goal): (State, State) = (start.parse().unwrap(), goal.parse().unwrap());
        assert_eq!(row["start"], start.to_string());
        assert_eq!(row["goal"], goal.to_string());
        assert!(row["error"].is_null(), "{row}");
        let distance = expected_distance(&start, &goal).unwrap();
        assert_eq!(row["distance"], distance);
        let moves: Vec<Move> = row["moves"]
            .as_str()
            .unwrap()
            .chars()
            .map(|c| Move::from_letter(c).unwrap())
            .collect();
        let solution = Solution::from_moves(start, moves).expect("legal moves");
        assert_eq!(solution.len(), distance as usize);
        assert_eq!(*solution.path().last().unwrap(), goal);
    }
    assert_eq!(rows[3]["start"], "bad");
    assert!(rows[3]["moves"].is_null() && rows[3]["distance"].is_null());
    assert!(rows[3]["error"]
        .as_str()
        .unwrap()
        .starts_with("line 7: invalid start `bad`"));
    // 123456780 and 021345678 are in different parity classes.
    assert!(rows[4]["error"].as_str().unwrap().contains("cannot reach"));
    assert_eq!(rows[4]["unsolvable"], true);
    assert_eq!(
        rows[3]["unsolvable"], false,
        "every row carries every key: unsolvable is false where the pair was not found unsolvable"
    );
    assert!(
        stderr.contains("2 of 5 questions failed, the first on line 7"),
        "{stderr}"
    );
}

#[test]
fn jsonl_input_gives_csv_with_moves_and_output_file() {
    let dir = data_dir();
    let input = "\
{\"start\": \"123456708\"}
{\"start\": \"1 2 3 4 5 6 0 7 8\", \"goal\": \"123456708\", \"note\": \"extra fields are ignored\"}
{\"goal\": \"123456780\"}
not json
";
    let output = dir.path().join("answers.csv");
    let out = npuzzle(
        &["batch", "--solve", "--output", output.to_str().unwrap()],
        dir.path(),
        input.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "answers go to the file");
    let written = std::fs::read_to_string(&output).unwrap();
    let mut reader = csv::Reader::from_reader(written.as_bytes());
    assert_eq!(
        reader.headers().unwrap(),
        vec!["start", "goal", "distance", "moves", "error"]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(
        (
            &rows[0][0],
            &rows[0][1],
            &rows[0][2],
            &rows[0][3],
            &rows[0][4]
        ),
        ("123456708", "123456780", "1", "R", "")
    );
    assert_eq!((&rows[1][2], &rows[1][3]), ("1", "R"));
    assert!(rows[2][4].starts_with("line 3: ") && rows[2][4].contains("`start`"));
    assert!(rows[3][4].starts_with("line 4: ") && rows[3][4].contains("JSON"));
}

#[test]
fn goal_option_applies_to_lines_without_their_own_goal() {
    let dir = data_dir();
    let goal: State = "123804765".parse().unwrap();
    let starts = seeded_states(2000, 7);
    let mut input = String::new();
    for s in &starts {
        input.push_str(&format!("{s}\n"));
    }
    input.push_str("123456780,123456780\n");
    let out = npuzzle(
        &["batch", "--goal", "1 2 3 8 0 4 7 6 5"],
        dir.path(),
        input.as_bytes(),
    );
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), starts.len() + 1);
    for (row, start) in rows.iter().zip(&starts) {
        assert_eq!(&row[1], "123804765");
        match expected_distance(start, &goal) {
            Some(d) => assert_eq!(&row[2], d.to_string()),
            None => assert!(
                &row[2] == "unsolvable" && row[3].contains("cannot reach"),
                "{row:?}"
            ),
        }
    }
    let last = rows.last().unwrap();
    assert_eq!((&last[1], &last[2]), ("123456780", "0"));
}

#[test]
fn clean_input_exits_0_with_nothing_on_stderr() {
    let dir = data_dir();
    let out = npuzzle(
        &["batch", "-f", "jsonl"],
        dir.path(),
        b"123456780\n123456708\n",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stderr), "");
    assert_eq!(
        text(&out.stdout),
        "{\"start\":\"123456780\",\"goal\":\"123456780\",\"distance\":0,\"moves\":null,\"unsolvable\":false,\"error\":null}\n\
         {\"start\":\"123456708\",\"goal\":\"123456780\",\"distance\":1,\"moves\":null,\"unsolvable\":false,\"error\":null}\n"
    );
    let empty = npuzzle(&["batch"], dir.path(), b"");
    assert_eq!(empty.status.code(), Some(0));
    assert_eq!(text(&empty.stdout), "start,goal,distance,error\n");
}

#[test]
fn odd_bytes_and_huge_lines_fail_their_row_only() {
    let dir = data_dir();
    let mut input = b"123456708\n\xff\xfe23456780\n".to_vec();
    input.extend(std::iter::repeat_n(b'7', 3 << 20));
    input.extend_from_slice(b"\n123456780");
    let out = npuzzle(&["batch", "-f", "jsonl"], dir.path(), &input);
    assert_eq!(out.status.code(), Some(1));
    let rows: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["distance"], 1);
    assert!(rows[1]["error"]
        .as_str()
        .unwrap()
        .contains("line 2: not valid UTF-8"));
    // Over 1 MiB, the line is skipped unread (tests/hostile_cli.rs has more).
    let long = rows[2]["error"].as_str().unwrap();
    assert!(
        long.starts_with("line 3: line too long: more than 1 MiB"),
        "{}",
        &long[..100]
    );
    assert!(rows[2]["start"].as_str().unwrap().starts_with("7777"));
    assert!(
        long.len() < 400,
        "the message quotes a long line only in part"
    );
    assert_eq!(
        rows[3]["distance"], 0,
        "a last line without a newline is answered"
    );
}

#[test]
fn usage_problems_exit_with_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt");
    for (args, needle) in [
        (vec!["batch", missing.to_str().unwrap()], "cannot read"),
        (
            vec!["batch", dir.path().to_str().unwrap()],
            "is a directory",
        ),
        (vec!["batch", "--goal", "12345"], "invalid goal"),
        (vec!["batch", "--threads", "0"], "--threads"),
        (vec!["batch", "--limit", "5x"], "invalid limit"),
    ] {
        let out = npuzzle(&args, dir.path(), b"123456780\n");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("npuzzle: ") && stderr.contains(needle),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn goals_with_other_blank_cells_open_their_tables_on_first_use() {
    // A fresh data directory: pieces meeting a goal without an open table stop, the table is
    // built, and the pieces are answered again, in order.
    let dir = tempfile::tempdir().unwrap();
    let starts = seeded_states(5000, 99);
    let goals = seeded_states(5000, 4242);
    let mut input = String::new();
    let mut expected = Vec::new();
    for (start, goal) in starts.iter().zip(&goals) {
        input.push_str(&format!("{start},{goal}\n"));
        expected.push(expected_distance(start, goal));
    }
    let out = npuzzle(&["batch"], dir.path(), input.as_bytes());
    let stderr = text(&out.stderr);
    assert_eq!(stderr.matches("built table").count(), 9, "{stderr}");
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), starts.len());
    for (i, (row, expected)) in rows.iter().zip(&expected).enumerate() {
        assert_eq!(&row[0], starts[i].to_string());
        assert_eq!(&row[1], goals[i].to_string());
        match expected {
            Some(d) => assert_eq!(&row[2], d.to_string(), "row {i}"),
            None => assert!(
                &row[2] == "unsolvable" && row[3].contains("cannot reach"),
                "row {i}: {row:?}"
            ),
        }
    }
}

/// A `--goal` on a board without tables is no longer a usage error: its lines are searched,
/// and a start on another board fails its own row.
#[test]
fn a_goal_on_a_board_without_tables_is_answered_by_search() {
    let dir = tempfile::tempdir().unwrap();
    let goal = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0";
    let input = b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n123456780\n";
    let out = npuzzle(&["batch", "--goal", goal, "-f", "jsonl"], dir.path(), input);
    assert_eq!(out.status.code(), Some(1));
    let rows: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["distance"], 1);
    assert!(
        rows[1]["error"].as_str().unwrap().contains("board"),
        "{}",
        rows[1]
    );
}

#[test]
fn on_a_terminal_a_long_run_shows_progress_on_stderr() {
    // `common::on_a_terminal` runs it with a pseudo-terminal as its stdout and stderr. (Piped
    // runs stay quiet: see `clean_input_exits_0_with_nothing_on_stderr`.)
    let dir = data_dir();
    let input = dir.path().join("in.txt");
    let output = dir.path().join("out.csv");
    let lines = 3_000_000;
    std::fs::write(&input, b"867254301\n".repeat(lines)).unwrap();
    let (code, shown) = common::on_a_terminal(
        dir.path(),
        &[
            "batch",
            input.to_str().unwrap(),
            "--threads",
            "1",
            "-o",
            output.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(0), "{shown}");
    assert!(
        shown.contains("lines answered") && !shown.contains("MiB"),
        "a progress bar counting lines answered, not bytes read: {shown:?}"
    );
    let answers = std::fs::read_to_string(&output).unwrap();
    assert_eq!(answers.lines().count(), lines + 1, "every line answered");
}
