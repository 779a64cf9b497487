//! `npuzzle batch`'s fast path for plain distance lines (`cli::batch_fast`) against the
//! general path (`NPUZZLE_BATCH_GENERAL=1`, which also sends every row through the csv and
//! JSON encoders): the same bytes on stdout and stderr and the same exit code, over an input
//! that mixes every accepted spelling with unsolvable, malformed, blank, comment, CRLF, non-UTF-8,
//! long and over-long lines, across several blocks; and every answered distance checked
//! against the library's table.

mod common;

use std::fmt::Write as _;
use std::path::Path;
use std::process::Output;

use common::TestCommand;
use npuzzle::{Board, BuildOptions, State, Table};

/// The seeded input: about `lines` lines, the last one without a newline.
fn mixed_input(lines: usize, seed: u64) -> Vec<u8> {
    let mut rng = npuzzle::rng::SplitMix64::new(seed);
    let mut out = Vec::new();
    for i in 0..lines {
        let mut tiles: Vec<u8> = (0..9).collect();
        for k in (1..9).rev() {
            tiles.swap(k, rng.index_below(k + 1));
        }
        let digits: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
        let compact = digits.concat();
        let line = match rng.below(24) {
            0..=5 => compact.clone(),
            6 => digits.join(" "),
            7 => digits.join(","),
            8 => digits.join(", "),
            9 => format!("{}/{}/{}", &compact[..3], &compact[3..6], &compact[6..]),
            10 => compact.replace('0', "_"),
            11 => compact.replace('0', "."),
            12 => format!("  {compact}\r"),
            13 => format!("{compact},123456780"),
            14 => format!("{},{}", digits.join(","), "1,2,3,4,5,6,7,8,0"),
            15 => compact[..8].to_string(),
            16 => format!("{compact}x"),
            17 => compact.replace('1', "9"),
            18 => String::new(),
            19 => "# a comment".to_string(),
            20 => "1230".to_string(), // a 2x2 start: another board than the goal's
            21 => format!("{}{}", "7".repeat(rng.index_below(3000)), compact),
            22 => "123/405".to_string(), // a 3x2 start
            _ => format!("{compact}\u{e9}"),
        };
        out.extend_from_slice(line.as_bytes());
        if i % 5000 == 17 {
            out.extend_from_slice(b"\xff\xfe12345678\n"); // not UTF-8
            out.extend_from_slice(b"123456780,1,2\n"); // three fields
        }
        if i == lines / 2 {
            // Over the 1 MiB a line may hold: skipped unread, its row the error.
            out.extend_from_slice(&vec![b'5'; (1 << 20) + 10]);
            out.push(b'\n');
        }
        if i + 1 < lines {
            out.push(b'\n');
        }
    }
    out
}

fn run(args: &[&str], data_dir: &Path, input: &[u8], general: bool) -> Output {
    let mut command = TestCommand::new();
    command.args(args).data_dir(data_dir).stdin(input);
    if general {
        command.env("NPUZZLE_BATCH_GENERAL", "1");
    } else {
        command.env_remove("NPUZZLE_BATCH_GENERAL");
    }
    command.output()
}

/// A data directory with every table the inputs need, so that no run builds one (and prints
/// the notice that the other run would not).
fn data_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["build", "--all"][..],
        &["build", "--all", "--board", "2x2"],
        &["build", "--board", "3x2"],
    ] {
        let built = run(args, dir.path(), b"", true);
        assert_eq!(built.status.code(), Some(0), "{args:?}: {built:?}");
    }
    dir
}

/// Runs `args` both ways and asserts the same stdout, stderr and exit code.
fn assert_same(args: &[&str], dir: &Path, input: &[u8]) -> Output {
    let fast = run(args, dir, input, false);
    let general = run(args, dir, input, true);
    assert_eq!(fast.status.code(), general.status.code(), "{args:?}");
    assert_eq!(
        String::from_utf8_lossy(&fast.stderr),
        String::from_utf8_lossy(&general.stderr),
        "{args:?}"
    );
    if fast.stdout != general.stdout {
        let (f, g) = (
            String::from_utf8_lossy(&fast.stdout),
            String::from_utf8_lossy(&general.stdout),
        );
        let (line, (a, b)) = f
            .lines()
            .zip(g.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .unwrap_or((0, ("(lengths differ)", "")));
        panic!(
            "{args:?}: output line {} differs:\nfast:    {a}\ngeneral: {b}",
            line + 1
        );
    }
    fast
}

/// Every CSV row with a distance (its start and goal as written by batch) against the
/// library's table of that goal; returns how many rows were checked.
fn check_distances(csv: &[u8]) -> usize {
    let mut tables: Vec<Option<Table<Vec<u8>>>> = (0..9).map(|_| None).collect();
    let mut checked = 0;
    for row in String::from_utf8_lossy(csv).lines().skip(1) {
        let fields: Vec<&str> = row.split(',').collect();
        let [start, goal, distance, ""] = fields[..] else {
            continue; // an error row (its message may hold commas)
        };
        let (Ok(distance), Ok(start), Ok(goal)) = (
            distance.parse::<u8>(),
            start.parse::<State>(),
            goal.parse::<State>(),
        ) else {
            continue;
        };
        if goal.board() != Board::THREE_BY_THREE {
            continue;
        }
        let table = tables[goal.blank()].get_or_insert_with(|| {
            let canonical = State::canonical_goal(goal.board(), goal.blank());
            Table::build(&canonical, BuildOptions::default()).unwrap()
        });
        assert_eq!(
            table.distance_to(&start, &goal).unwrap(),
            Some(distance),
            "{row}"
        );
        checked += 1;
    }
    checked
}

#[test]
fn the_fast_path_writes_the_general_paths_bytes_and_exit_code() {
    let dir = data_dir();
    // Over 100,000 lines and several 1 MiB blocks: the table's deep check happens mid-run.
    let input = mixed_input(130_000, 26);
    let csv = assert_same(&["batch"], dir.path(), &input);
    assert_eq!(csv.status.code(), Some(1), "malformed lines fail the run");
    let rows = String::from_utf8_lossy(&csv.stdout);
    for part in [
        "unsolvable",
        "line too long",
        "not valid UTF-8",
        "comma-separated",
    ] {
        assert!(rows.contains(part), "the input exercises {part:?}");
    }
    assert!(
        check_distances(&csv.stdout) > 20_000,
        "half the lines are answered, half of those solvable"
    );
    let small = mixed_input(3_000, 7);
    // MTM tables are saved on first use: build them before the runs compared.
    run(&["batch", "--metric", "mtm"], dir.path(), &small, true);
    for args in [
        &["batch", "-f", "jsonl"][..],
        &["batch", "--threads", "1"],
        &["batch", "--threads", "2", "--board", "3x3"],
        &["batch", "--goal", "123804765"],
        &["batch", "--goal", "_12345678", "-f", "json"],
        &["batch", "--board", "2x2"],
        &["batch", "--board", "3x2", "-f", "jsonl"],
        &["batch", "--solve"],
        &["batch", "--metric", "mtm", "--threads", "1"],
    ] {
        assert_same(args, dir.path(), &small);
    }
    // The relabelled goal's distances are the library's too.
    let relabelled = assert_same(&["batch", "--goal", "123804765"], dir.path(), &input);
    assert!(check_distances(&relabelled.stdout) > 20_000);
}

#[test]
fn clean_inputs_exit_zero_both_ways_and_a_last_line_needs_no_newline() {
    let dir = data_dir();
    let mut input = String::new();
    for (i, state) in [
        "123456780",
        "1 2 3 4 5 6 7 0 8",
        "1,2,3,4,5,6,0,7,8",
        "123/456/_78",
    ]
    .iter()
    .cycle()
    .take(400)
    .enumerate()
    {
        let _ = write!(input, "{state}{}", if i % 3 == 0 { "\r\n" } else { "\n" });
    }
    input.push_str("867254301");
    let out = assert_same(&["batch"], dir.path(), input.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 402);
    assert!(text.ends_with("867254301,123456780,31,\n"), "{text}");
}

/// The rows leave through a writer thread while later blocks are answered (`batch_writer`):
/// over a dozen 1 MiB blocks, row `i` is still line `i`'s, an answer where the line is a
/// state (its distance the library's) and its own error, naming its own line number, where
/// it is not; nothing is lost or repeated at the blocks' edges.
#[test]
fn rows_keep_input_order_and_each_error_its_line_across_many_blocks() {
    let dir = data_dir();
    let goal = State::goal(Board::THREE_BY_THREE);
    let table = Table::build(&goal, BuildOptions::default()).unwrap();
    let space = table.space().clone();
    let mut rng = npuzzle::rng::SplitMix64::new(0x0002_60d3);
    let mut input = String::new();
    let mut expected: Vec<Result<(State, u8), usize>> = Vec::new();
    for line in 1..=1_300_000usize {
        if rng.below(1000) == 0 {
            // Malformed: its row is an error naming this line.
            let _ = writeln!(input, "12345678{}", line % 7 + 9);
            expected.push(Err(line));
        } else {
            let start = space.unrank(rng.below(space.states() as u64) as u32, goal.parity_class());
            let _ = writeln!(input, "{start}");
            expected.push(Ok((start, table.distance(&start).unwrap().unwrap())));
        }
    }
    for threads in ["1", "2"] {
        let out = run(
            &["batch", "--threads", threads],
            dir.path(),
            input.as_bytes(),
            false,
        );
        assert_eq!(out.status.code(), Some(1), "malformed lines fail the run");
        let text = String::from_utf8(out.stdout).unwrap();
        let rows: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(
            rows.len(),
            expected.len(),
            "{threads} threads: one row a line"
        );
        for (i, (row, want)) in rows.iter().zip(&expected).enumerate() {
            match want {
                Ok((start, distance)) => {
                    assert_eq!(*row, format!("{start},{goal},{distance},"), "row {}", i + 1);
                }
                Err(line) => assert!(
                    row.contains(&format!("line {line}: ")),
                    "row {} should be line {line}'s error: {row}",
                    i + 1
                ),
            }
        }
    }
}

/// A write that fails (a full disk) ends the run with one line and exit 2, whichever thread
/// meets it, and the run stops there.
#[cfg(target_os = "linux")]
#[test]
fn a_full_output_disk_is_one_error_line_and_exit_2() {
    let dir = data_dir();
    let input = "867254301\n".repeat(400_000);
    let mut command = TestCommand::new();
    command
        .args(["batch", "-o", "/dev/full"])
        .data_dir(dir.path())
        .stdin(input.as_bytes());
    let out = command.output();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("No space left"), "{stderr}");
}
