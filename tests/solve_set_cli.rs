//! `npuzzle solve-set` through the binary: a file of 3x3 instances whose published lengths
//! are the exact table's is solved into a results file whose every line replays; a restart
//! skips them; `--only` shares the file and refuses an unknown id; `--report` prints the
//! library's table; a tampered line, a missing board and an unreadable file exit 2 with one
//! line; an unsolvable instance exits 1 and is not appended; a checkpoint directory resumes an
//! instance that gave up and counts the seconds of every run, and a killed one those up to
//! its last checkpoint (an answer of A* none of a stale checkpoint's), and `--report` shows where it stands; `-f json` gives the same as records; endless and empty files, empty
//! ids, a line that cannot be written (quoted in the error, its remains removed by the next
//! run) and output that fails are each handled without losing an answer.

mod common;

use std::path::{Path, PathBuf};

use common::TestCommand;
use npuzzle::instance_set::{self, Instance};
use npuzzle::rng::SplitMix64;
use npuzzle::{Board, How, Oracle, State};

/// Six 3x3 instances a random walk from the goal, each with its exact distance as the
/// published length and a made-up node count (the last column, for `--easiest-first`), and
/// `u`, unsolvable (two tiles swapped), claiming 5 moves.
fn instance_file(dir: &Path) -> (std::path::PathBuf, Vec<Instance>) {
    let board = Board::THREE_BY_THREE;
    let goal = State::goal(board);
    let oracle = Oracle::in_memory();
    let mut rng = SplitMix64::new(27);
    let mut text = String::from("# id tiles length nodes\n");
    for (n, id) in ["a", "b", "c", "d", "e", "f"].iter().enumerate() {
        let mut state = goal;
        for _ in 0..30 {
            let next: Vec<State> = state.successors().map(|(_, s)| s).collect();
            state = next[(rng.next_u64() % next.len() as u64) as usize];
        }
        let exact = oracle
            .distance(&state, &goal, How::default())
            .unwrap()
            .value
            .unwrap();
        let tiles: Vec<String> = state.cells().iter().map(|t| t.to_string()).collect();
        // Easiest first is f, e, d, c, b, a.
        text += &format!("{id} {} {exact} {}\n", tiles.join(" "), 1000 - n);
    }
    text += "u 2 1 3 4 5 6 7 8 0 5 1\n";
    let path = dir.join("set.txt");
    std::fs::write(&path, &text).unwrap();
    (path, instance_set::parse_instances(&text, board).unwrap())
}

/// In `dir`: a set of one instance `h`, the hardest 3x3 position (31 moves; by IDA* with
/// Manhattan distance, thousands of nodes), and the paths of a results file and a
/// checkpoint directory (neither made).
fn hardest_3x3(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let file = dir.join("hard.txt");
    std::fs::write(&file, "h 8 6 7 2 5 4 3 0 1 31\n").unwrap();
    (file, dir.join("results.txt"), dir.join("checkpoints"))
}

fn solve_set(data: &Path, args: &[&str]) -> common::Run {
    TestCommand::new()
        .arg("solve-set")
        .args(args)
        .data_dir(data)
        .run()
}

#[test]
fn a_set_is_solved_checked_appended_and_skipped_on_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (file, set) = instance_file(dir.path());
    let file = file.to_str().unwrap();
    let results = dir.path().join("results.txt");
    let results_arg = results.to_str().unwrap();
    let checkpoints = dir.path().join("checkpoints");
    let goal = State::goal(Board::THREE_BY_THREE);
    let common_args = [file, "--board", "3x3", "--results", results_arg];

    // By search (no table), with checkpoints, easiest first.
    let mut args = common_args.to_vec();
    args.extend([
        "--easiest-first",
        "--no-table",
        "--checkpoint-dir",
        checkpoints.to_str().unwrap(),
    ]);
    let first = solve_set(dir.path(), &args);
    assert_eq!(first.code(), Some(1), "{}", first.stderr());
    // Failures go to stderr, one line each; stdout has one line per instance solved.
    assert!(
        first
            .stderr()
            .contains("error: instance u: not solved (unsolvable)"),
        "{}",
        first.stderr()
    );
    assert_eq!(first.stdout().lines().count(), 6, "{}", first.stdout());
    let written = std::fs::read_to_string(&results).unwrap();
    let finished = instance_set::parse_results(&written, &set, &goal).unwrap();
    let order: Vec<&str> = finished.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(order, ["f", "e", "d", "c", "b", "a"]);
    for f in &finished {
        let instance = set.iter().find(|i| i.id == f.id).unwrap();
        assert_eq!(Some(f.length), instance.published);
        assert!(f.nodes > 0 || f.length == 0, "{f}");
    }
    // Nothing left to resume: no checkpoint, no seconds.
    let left: Vec<_> = std::fs::read_dir(&checkpoints).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");

    // A restart searches only `u`, and appends nothing.
    let again = solve_set(dir.path(), &common_args);
    assert_eq!(again.code(), Some(1));
    assert!(
        again
            .stderr()
            .contains("6 finished before, 0 solved now, 1 failed"),
        "{}",
        again.stderr()
    );
    assert_eq!(std::fs::read_to_string(&results).unwrap(), written);

    // A subset reads the same file; an unknown id is refused before anything is searched.
    let mut only = common_args.to_vec();
    only.extend(["--only", "a,b"]);
    let subset = solve_set(dir.path(), &only);
    assert_eq!(subset.code(), Some(0), "{}", subset.stderr());
    assert!(subset
        .stderr()
        .contains("2 finished before, 0 solved now, 0 failed"));
    let mut unknown = common_args.to_vec();
    unknown.extend(["--only", "a,zz"]);
    let refused = solve_set(dir.path(), &unknown);
    assert_eq!(refused.code(), Some(2));
    assert_eq!(refused.stderr().lines().count(), 1, "{}", refused.stderr());
    assert!(refused
        .stderr()
        .contains("instance zz is not in the instance file"));

    // The report is the library's table of the results file.
    let mut report = common_args.to_vec();
    report.push("--report");
    let table = solve_set(dir.path(), &report);
    assert_eq!(table.code(), Some(0));
    assert_eq!(
        table.stdout(),
        instance_set::progress_table(&set, &finished)
    );

    // A line whose moves were changed is refused, naming its line; nothing is searched.
    let first_line = written.lines().next().unwrap();
    let (head, moves) = first_line.rsplit_once('\t').unwrap();
    let reversed: String = moves.chars().rev().collect();
    assert_ne!(reversed, moves);
    std::fs::write(
        &results,
        written.replacen(first_line, &format!("{head}\t{reversed}"), 1),
    )
    .unwrap();
    let tampered = solve_set(dir.path(), &common_args);
    assert_eq!(tampered.code(), Some(2));
    assert_eq!(
        tampered.stderr().lines().count(),
        1,
        "{}",
        tampered.stderr()
    );
    assert!(tampered.stderr().contains("results file line 1"));
}

/// `-f json`: one record per instance searched, each solved one what its results line holds
/// (nodes, seconds to the line's precision, moves), the failed one with its error; the report
/// in JSON is the text table's rows as data, easiest first.
#[test]
fn json_records_are_the_results_lines_and_the_report_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (file, set) = instance_file(dir.path());
    let results = dir.path().join("results.txt");
    let goal = State::goal(Board::THREE_BY_THREE);
    let args = [
        file.to_str().unwrap(),
        "--board",
        "3x3",
        "--results",
        results.to_str().unwrap(),
        "-f",
        "json",
    ];
    let records = |run: &common::Run| -> Vec<serde_json::Value> {
        run.stdout()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let solving = solve_set(dir.path(), &[&args[..], &["--only", "c,u,a"]].concat());
    assert_eq!(solving.code(), Some(1), "{}", solving.stderr());
    let rows = records(&solving);
    let finished =
        instance_set::parse_results(&std::fs::read_to_string(&results).unwrap(), &set, &goal)
            .unwrap();
    assert_eq!(finished.len(), 2);
    // In the file's order, the ids asked for only.
    let ids: Vec<&str> = rows.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["a", "c", "u"]);
    for (row, line) in rows.iter().zip(&finished) {
        let instance = set.iter().find(|i| i.id == line.id).unwrap();
        assert_eq!(row["solved"], true);
        assert_eq!(row["length"], line.length);
        assert_eq!(row["published"], instance.published.unwrap());
        assert_eq!(row["published_nodes"], instance.published_nodes().unwrap());
        assert_eq!(row["nodes"], line.nodes);
        assert!(
            (row["seconds"].as_f64().unwrap() - line.seconds).abs() < 1e-3,
            "{row}"
        );
        assert_eq!(row["moves"], line.moves.as_str());
        assert!(row["error"].is_null());
    }
    assert_eq!(rows[2]["solved"], false);
    assert_eq!(rows[2]["published"], 5);
    assert!(rows[2]["moves"].is_null() && rows[2]["length"].is_null());
    assert_eq!(
        rows[2]["error"], "instance u: not solved (unsolvable)",
        "{}",
        rows[2]
    );
    // Failures are records in JSON, not stderr lines; the count stays on stderr.
    assert!(!solving.stderr().contains("error:"), "{}", solving.stderr());
    assert!(solving
        .stderr()
        .contains("0 finished before, 2 solved now, 1 failed"));

    let report = solve_set(dir.path(), &[&args[..], &["--report"]].concat());
    assert_eq!(report.code(), Some(0), "{}", report.stderr());
    let rows = records(&report);
    let expected: Vec<(&str, bool)> = instance_set::progress(&set, &finished)
        .iter()
        .map(|p| (p.instance.id.as_str(), p.finished.is_some()))
        .collect();
    let got: Vec<(&str, bool)> = rows
        .iter()
        .map(|r| (r["id"].as_str().unwrap(), r["solved"].as_bool().unwrap()))
        .collect();
    assert_eq!(got, expected);
    assert_eq!(got[0], ("u", false), "easiest first");
    assert_eq!(got.iter().filter(|(_, solved)| *solved).count(), 2);
    // The text table has the same rows in the same order (two header lines, a total).
    let table = solve_set(dir.path(), &[&args[..5], &["--report"]].concat()).stdout();
    let table_ids: Vec<&str> = table
        .lines()
        .skip(2)
        .take(set.len())
        .map(|l| l.split(" | ").next().unwrap().trim_start_matches("| "))
        .collect();
    let json_ids: Vec<&str> = got.iter().map(|(id, _)| *id).collect();
    assert_eq!(table_ids, json_ids);
}

#[test]
fn an_instance_that_gave_up_resumes_from_its_checkpoint_and_counts_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let (file, results, checkpoints) = hardest_3x3(dir.path());
    let args = [
        file.to_str().unwrap(),
        "--board",
        "3x3",
        "--results",
        results.to_str().unwrap(),
        "--checkpoint-dir",
        checkpoints.to_str().unwrap(),
        "--algorithm",
        "idastar",
        "--heuristic",
        "manhattan",
        "--threads",
        "1",
    ];
    let mut limited = args.to_vec();
    limited.extend(["--limit", "20000"]);
    let gave_up = solve_set(dir.path(), &limited);
    assert_eq!(gave_up.code(), Some(1));
    assert!(gave_up.stderr().contains("gave up"), "{}", gave_up.stderr());
    assert!(!std::fs::read_to_string(&results)
        .unwrap_or_default()
        .contains('h'));
    assert!(checkpoints.join("h.checkpoint").is_file());
    // The run's seconds were kept beside its checkpoint.
    let kept: f64 = std::fs::read_to_string(checkpoints.join("h.seconds"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!((0.0..60.0).contains(&kept), "{kept}");
    // The checkpoint is read: given to another instance, it is refused, and that instance
    // fails without a results line.
    let other = dir.path().join("other.txt");
    std::fs::write(&other, "g 1 2 3 4 5 6 7 0 8 1\n").unwrap();
    std::fs::copy(
        checkpoints.join("h.checkpoint"),
        checkpoints.join("g.checkpoint"),
    )
    .unwrap();
    let mut wrong = args.to_vec();
    wrong[0] = other.to_str().unwrap();
    // The report shows where h stands (its checkpoint's bound, subtrees, nodes and seconds)
    // and that g's would be refused, writing nothing; without the directory, a note.
    let report = |file: &str, dir_arg: &Path| {
        let mut asked = args[..5].to_vec();
        asked[0] = file;
        let dir_arg = dir_arg.to_str().unwrap();
        solve_set(
            dir.path(),
            &[&asked[..], &["--report", "--checkpoint-dir", dir_arg]].concat(),
        )
    };
    let saved = npuzzle::search::checkpoint::Checkpoint::load(&checkpoints.join("h.checkpoint"))
        .unwrap()
        .unwrap();
    let table = report(args[0], &checkpoints).stdout();
    let expected = format!(
        "| h | (31) | in progress: bound {}, {} of {} subtrees, {} nodes, {:.0} s |",
        saved.bound,
        saved.finished(),
        saved.subtrees,
        npuzzle::digits::grouped(&saved.generated.to_string()),
        kept
    );
    assert!(table.contains(&expected), "{expected}\n{table}");
    let table = report(wrong[0], &checkpoints).stdout();
    assert!(
        table.contains("| g | (1) | checkpoint refused: "),
        "{table}"
    );
    let missing = report(args[0], &dir.path().join("nowhere"));
    assert!(
        missing.stdout().contains("| h | (31) | not yet |"),
        "{}",
        missing.stdout()
    );
    assert!(
        missing.stderr().contains("does not exist"),
        "{}",
        missing.stderr()
    );
    assert!(!dir.path().join("nowhere").exists());
    let not_a_dir = report(args[0], &file);
    assert!(
        not_a_dir.stderr().contains("is not a directory"),
        "{}",
        not_a_dir.stderr()
    );
    let refused = solve_set(dir.path(), &wrong);
    // A bad file, not a negative answer: exit 2.
    assert_eq!(refused.code(), Some(2), "{}", refused.stderr());
    assert!(
        refused.stderr().contains("belongs to another search")
            && refused
                .stderr()
                .contains("instance g: not solved (checkpoint"),
        "{}",
        refused.stderr()
    );
    assert!(!std::fs::read_to_string(&results)
        .unwrap_or_default()
        .contains('g'));
    for file in ["g.checkpoint", "g.seconds"] {
        std::fs::remove_file(checkpoints.join(file)).unwrap();
    }
    // Pretend the runs before took 500 s: the results line counts them.
    std::fs::write(checkpoints.join("h.seconds"), "500.000\n").unwrap();
    let resumed = solve_set(dir.path(), &args);
    assert_eq!(resumed.code(), Some(0), "{}", resumed.stderr());
    let line = std::fs::read_to_string(&results).unwrap();
    let fields: Vec<&str> = line.trim_end().split('\t').collect();
    assert_eq!(fields[..2], ["h", "31"]);
    let seconds: f64 = fields[3].parse().unwrap();
    assert!((500.0..600.0).contains(&seconds), "{line}");
    let left: Vec<_> = std::fs::read_dir(&checkpoints).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");

    // Without its checkpoint, a seconds file does not count: the instance starts over.
    std::fs::remove_file(&results).unwrap();
    std::fs::write(checkpoints.join("h.seconds"), "500.000\n").unwrap();
    let fresh = solve_set(dir.path(), &args);
    assert_eq!(fresh.code(), Some(0));
    let line = std::fs::read_to_string(&results).unwrap();
    let seconds: f64 = line.split('\t').nth(3).unwrap().parse().unwrap();
    assert!(seconds < 100.0, "{line}");
}

#[test]
fn a_set_without_its_board_or_readable_files_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = instance_file(dir.path());
    let file = file.to_str().unwrap();
    let results = dir.path().join("r.txt");
    let results = results.to_str().unwrap();
    // A 5x5 one move from the goal, asked with pattern databases the data directory lacks.
    let five = dir.path().join("five.txt");
    let tiles: Vec<String> = (1..=23).map(|t| t.to_string()).collect();
    std::fs::write(&five, format!("f {} 0 24 1\n", tiles.join(" "))).unwrap();
    let fivebyfive = five.to_str().unwrap();
    for args in [
        vec![file, "--results", results],
        vec![
            "/nonexistent/set.txt",
            "--board",
            "3x3",
            "--results",
            results,
        ],
        vec![file, "--board", "4x4", "--results", results],
        vec![
            file,
            "--board",
            "3x3",
            "--results",
            results,
            "--metric",
            "mtm",
        ],
        vec![
            file,
            "--board",
            "3x3",
            "--results",
            results,
            "--algorithm",
            "greedy",
        ],
        vec![
            fivebyfive,
            "--board",
            "5x5",
            "--results",
            results,
            "--heuristic",
            "pdb",
            "-a",
            "idastar",
        ],
    ] {
        let out = solve_set(dir.path(), &args);
        assert_eq!(out.code(), Some(2), "{args:?}");
        assert_eq!(
            out.stderr().lines().count(),
            1,
            "{args:?}: {}",
            out.stderr()
        );
    }
}

/// `npuzzle solve-set FILE --board 3x3 --results RESULTS` in `data`, as a plain `Command`
/// (no input), for the tests that give it their own stdout or stderr.
fn plain_solve_set(data: &Path, file: &Path, results: &Path) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_npuzzle"));
    command
        .arg("solve-set")
        .arg(file)
        .args(["--board", "3x3", "--results"])
        .arg(results)
        .env("NPUZZLE_DATA_DIR", data)
        .stdin(std::process::Stdio::null());
    command
}

/// The npuzzle binary run by bash after `limits` (ulimit commands), with `args`: for a cap on
/// memory or file size that the test must not impose on itself.
fn under_limits(limits: &str, data: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("{limits}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_npuzzle"))
        .arg("solve-set")
        .args(args)
        .env("NPUZZLE_DATA_DIR", data)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

/// Files and options a hostile user gives: each refused in one line with exit 2 before any
/// search (a file that never ends is not read into memory), or, where harmless, accepted.
#[test]
fn endless_and_empty_files_and_empty_ids_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let (file, set) = instance_file(dir.path());
    let file = file.to_str().unwrap();
    let results = dir.path().join("results.txt");
    let results = results.to_str().unwrap();

    // /dev/zero as the instance file is refused at its cap (a pipe is a fine instance file:
    // `<(grep ...)`), as the results file before it is read (it must be a regular file, as
    // it is appended to); a 2 GB address-space limit makes a regression fail here instead of
    // exhausting the machine.
    for (args, why) in [
        (
            ["/dev/zero", "--board", "3x3", "--results", results],
            "/dev/zero: larger than 256 MiB",
        ),
        (
            [file, "--board", "3x3", "--results", "/dev/zero"],
            "/dev/zero: not a regular file (a results file is appended to)",
        ),
    ] {
        let out = under_limits("ulimit -v 2000000", dir.path(), &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        // One error line (after the note of the table built for the set, if it was).
        let errors: Vec<&str> = stderr
            .lines()
            .filter(|l| !l.starts_with("npuzzle: note:"))
            .collect();
        assert_eq!(errors, [format!("npuzzle: {why}")], "{stderr}");
    }

    // An instance file of comments only.
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "# nothing yet\n\n").unwrap();
    let run = solve_set(
        dir.path(),
        &[
            empty.to_str().unwrap(),
            "--board",
            "3x3",
            "--results",
            results,
        ],
    );
    assert_eq!(run.code(), Some(2));
    assert!(run.stderr().contains("no instances"), "{}", run.stderr());
    assert!(
        !Path::new(results).exists(),
        "nothing to write, nothing created"
    );

    // --only with an empty id; ids are trimmed.
    for only in ["a,,b", "a,", ","] {
        let run = solve_set(
            dir.path(),
            &[file, "--board", "3x3", "--results", results, "--only", only],
        );
        assert_eq!(run.code(), Some(2), "{only}");
        assert_eq!(run.stderr().lines().count(), 1);
        assert!(
            run.stderr().contains("--only: an empty id"),
            "{}",
            run.stderr()
        );
    }
    let trimmed = solve_set(
        dir.path(),
        &[
            file,
            "--board",
            "3x3",
            "--results",
            results,
            "--only",
            "a, b",
        ],
    );
    assert_eq!(trimmed.code(), Some(0), "{}", trimmed.stderr());
    assert_eq!(trimmed.stdout().lines().count(), 2);

    // The report of a results file not there yet says so; with --only it shows those rows.
    let missing = dir.path().join("missing.txt");
    let report = solve_set(
        dir.path(),
        &[
            file,
            "--board",
            "3x3",
            "--results",
            missing.to_str().unwrap(),
            "--report",
        ],
    );
    assert_eq!(report.code(), Some(0));
    assert!(
        report.stderr().contains("does not exist yet"),
        "{}",
        report.stderr()
    );
    assert!(report
        .stdout()
        .contains(&format!("| 0 of {} solved |", set.len())));
    let part = solve_set(
        dir.path(),
        &[
            file,
            "--board",
            "3x3",
            "--results",
            results,
            "--report",
            "--only",
            "b,c,a",
        ],
    );
    assert_eq!(part.code(), Some(0), "{}", part.stderr());
    assert!(
        part.stdout().contains("| 2 of 3 solved |"),
        "{}",
        part.stdout()
    );
}

/// A results line that cannot be written (here: the file-size limit, `ulimit -f`, which the
/// command meets as an error and not as the kernel's SIGXFSZ: the shell does not ignore the
/// signal for it) is the error's text, so an answer that took hours is not lost; the part of
/// it that reached the file is taken back, and the next run solves that instance again
/// instead of refusing the file.
#[test]
fn a_line_that_cannot_be_written_is_shown_and_its_part_taken_back() {
    let dir = tempfile::tempdir().unwrap();
    let (file, set) = instance_file(dir.path());
    let file = file.to_str().unwrap();
    let results = dir.path().join("results.txt");
    // A 2,000-byte comment: the first line appended crosses bash's 1 KiB-block limit of 2.
    std::fs::write(&results, format!("#{}\n", "x".repeat(1999))).unwrap();
    let args = [
        file,
        "--board",
        "3x3",
        "--results",
        results.to_str().unwrap(),
        "--only",
        "a,b",
    ];
    let out = under_limits("ulimit -f 2", dir.path(), &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let written = std::fs::read_to_string(&results).unwrap();
    // The error quotes the whole line, which checks.
    let quoted = stderr
        .split("the line not written: ")
        .nth(1)
        .unwrap_or_else(|| panic!("{stderr}"))
        .trim_end();
    let goal = State::goal(Board::THREE_BY_THREE);
    let lines = instance_set::parse_results(quoted, &set, &goal).unwrap();
    assert_eq!(lines.len(), 1, "{quoted}");
    // What reached the file was taken back: it ends with whole lines, so a run sharing the
    // file appends after them; the next run solves the instance again.
    assert!(written.ends_with('\n'), "{written:?}");
    assert!(instance_set::parse_results(&written, &set, &goal).is_ok());
    let again = solve_set(dir.path(), &args);
    assert_eq!(again.code(), Some(0), "{}", again.stderr());
    let text = std::fs::read_to_string(&results).unwrap();
    let finished = instance_set::parse_results(&text, &set, &goal).unwrap();
    let ids: Vec<&str> = finished.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["a", "b"]);
    let again_found = finished.iter().find(|f| f.id == lines[0].id).unwrap();
    assert_eq!(again_found.moves, lines[0].moves);
}

/// Output that cannot be written (a full device) ends the run non-zero, after every instance
/// is solved and appended: the results file is the data, the screen a copy.
#[test]
fn stdout_that_fails_ends_non_zero_but_the_results_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (file, set) = instance_file(dir.path());
    let results = dir.path().join("results.txt");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = plain_solve_set(dir.path(), &file, &results)
        .args(["-f", "json", "--only", "a,b,c"])
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("writing to standard output: "), "{stderr}");
    let text = std::fs::read_to_string(&results).unwrap();
    let goal = State::goal(Board::THREE_BY_THREE);
    assert_eq!(
        instance_set::parse_results(&text, &set, &goal)
            .unwrap()
            .len(),
        3
    );
}

/// A run killed between checkpoints keeps the seconds up to its last checkpoint (written with
/// it), so the next run's line counts the work once; before, the seconds were saved every ten
/// seconds and a kill lost them.
#[test]
fn a_killed_run_keeps_the_seconds_of_its_last_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    // Korf's #1 by IDA* with Manhattan distance on one thread: far longer than this test.
    let korf =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/korf100.txt"))
            .unwrap();
    let line = korf.lines().find(|l| l.starts_with("1 ")).unwrap();
    let file = dir.path().join("one.txt");
    std::fs::write(&file, format!("{line}\n")).unwrap();
    let checkpoints = dir.path().join("checkpoints");
    let goal: Vec<String> = (0..16).map(|t| t.to_string()).collect();
    let began = std::time::Instant::now();
    let mut child = TestCommand::new()
        .args([
            "solve-set",
            file.to_str().unwrap(),
            "--goal",
            &goal.join(","),
        ])
        .args(["--results", dir.path().join("r.txt").to_str().unwrap()])
        .args(["--checkpoint-dir", checkpoints.to_str().unwrap()])
        .args([
            "--algorithm",
            "idastar",
            "--heuristic",
            "manhattan",
            "--threads",
            "1",
        ])
        .args(["--limit", "120s"])
        .env("NPUZZLE_CHECKPOINT_SECONDS", "0.2")
        .data_dir(dir.path())
        .spawn();
    let seconds_file = checkpoints.join("1.seconds");
    let wait = |file: &Path, within: u64| {
        let from = std::time::Instant::now();
        while !file.exists() {
            assert!(
                from.elapsed() < std::time::Duration::from_secs(within),
                "{} not there within {within} s",
                file.display()
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    };
    // The first checkpoint (every 0.2 s here), then its seconds: within a second or two of
    // it, not ten seconds after the start.
    wait(&checkpoints.join("1.checkpoint"), 60);
    wait(&seconds_file, 6);
    child.kill().unwrap();
    child.wait().unwrap();
    let wall = began.elapsed().as_secs_f64();
    assert!(checkpoints.join("1.checkpoint").is_file());
    let kept: f64 = std::fs::read_to_string(&seconds_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(
        kept > 0.0 && kept <= wall,
        "{kept} s kept, {wall} s of wall time"
    );
}

/// Only what the runner was writing when it stopped is removed from the end of a results
/// file: an instance line, notes, or a whole answer that does not check (the wrong goal)
/// there are refused naming their line, and the file is left as it was; a complete last
/// line with a Windows line end but no `\n` counts.
#[test]
fn only_a_cut_answer_is_removed_from_the_end_of_a_results_file() {
    let dir = tempfile::tempdir().unwrap();
    let (file, set) = instance_file(dir.path());
    let file = file.to_str().unwrap();
    let results = dir.path().join("results.txt");
    let args = [
        file,
        "--board",
        "3x3",
        "--results",
        results.to_str().unwrap(),
        "--only",
        "a",
    ];
    let goal = State::goal(Board::THREE_BY_THREE);
    let a = set.iter().find(|i| i.id == "a").unwrap();
    let solved = Oracle::in_memory()
        .solve(&a.start, &goal, How::default())
        .unwrap();
    let moves = solved.value.unwrap().moves_string();
    // A whole answer whose length was mistyped (more than its moves): its moves reach the
    // goal, so it is no cut write.
    let mistyped = format!("a\t{}\t3\t0.000\t{moves}", moves.len() + 5);
    for tail in [
        mistyped.as_str(),
        "a 1 2 3 4 5 6 7 0 8 1",
        "important text",
        "f",
        // Not a comment (a comment's `#` comes first), with or without its end of line.
        " # an indented note",
        "a\t1\t3\t0.5\tR",
        "a\t1\t3\t0.5\tRDLU",
        "zz\t1\t3",
    ] {
        let text = format!("# notes\n{tail}");
        std::fs::write(&results, &text).unwrap();
        let run = solve_set(dir.path(), &args);
        let cut = tail == "f";
        let expected = if cut { 0 } else { 2 };
        assert_eq!(run.code(), Some(expected), "{tail:?}: {}", run.stderr());
        let now = std::fs::read_to_string(&results).unwrap();
        if expected == 2 {
            assert!(
                run.stderr().contains("line 2"),
                "{tail:?}: {}",
                run.stderr()
            );
            assert_eq!(now, text, "{tail:?}: the file is untouched");
        } else {
            // "f" is the start of id f, cut inside it: removed, and a then solved.
            assert!(now.starts_with("# notes\na\t"), "{now:?}");
            assert!(run.stderr().contains("was cut short"), "{}", run.stderr());
        }
    }
    // A Windows line end without its `\n` on a whole, checking line: counted, not searched.
    let line = format!("a\t{}\t7\t0.500\t{moves}\r", moves.len());
    std::fs::write(&results, &line).unwrap();
    let run = solve_set(dir.path(), &args);
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    assert!(
        run.stderr().contains("1 finished before, 0 solved now"),
        "{}",
        run.stderr()
    );
}

/// A standard error whose reader went away (`2>&1 | head`) loses the messages, not the run:
/// every instance is still solved and appended, and the exit code is the run's.
#[test]
fn a_closed_standard_error_does_not_stop_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let (file, set) = instance_file(dir.path());
    let results = dir.path().join("results.txt");
    let mut child = plain_solve_set(dir.path(), &file, &results)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    // `u` is unsolvable: its error line went nowhere, and the others are all there.
    assert_eq!(status.code(), Some(1), "{status:?}");
    let text = std::fs::read_to_string(&results).unwrap();
    let goal = State::goal(Board::THREE_BY_THREE);
    let finished = instance_set::parse_results(&text, &set, &goal).unwrap();
    assert_eq!(finished.len(), set.len() - 1);
}

/// FIFOs in place of an instance's checkpoint and seconds files (a hostile or mistaken
/// checkpoint directory): the run refuses the checkpoint at once (exit 2, the other
/// instances solved) and the report says so, neither waiting for a writer that never comes
/// (`timeout` turns a hang into a failure here).
#[test]
fn fifos_in_a_checkpoint_directory_are_refused_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = instance_file(dir.path());
    let results = dir.path().join("results.txt");
    let checkpoints = dir.path().join("checkpoints");
    std::fs::create_dir(&checkpoints).unwrap();
    for name in ["a.checkpoint", "a.seconds"] {
        let made = std::process::Command::new("mkfifo")
            .arg(checkpoints.join(name))
            .status()
            .unwrap();
        assert!(made.success());
    }
    let run = |extra: &[&str]| {
        std::process::Command::new("timeout")
            .arg("60")
            .arg(env!("CARGO_BIN_EXE_npuzzle"))
            .arg("solve-set")
            .arg(&file)
            // By IDA*, which keeps checkpoints: a table answers without one.
            .args(["--board", "3x3", "--no-table", "--algorithm", "idastar"])
            .args(["--only", "a,b", "--results"])
            .arg(&results)
            .arg("--checkpoint-dir")
            .arg(&checkpoints)
            .args(extra)
            .env("NPUZZLE_DATA_DIR", dir.path())
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let out = run(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("not a regular file"), "{stderr}");
    let written = std::fs::read_to_string(&results).unwrap();
    assert!(written.lines().any(|l| l.starts_with("b\t")), "{written}");
    let out = run(&["--report"]);
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{table}");
    assert!(
        table.contains("| a | ") && table.contains("not a regular file"),
        "{table}"
    );
}

#[test]
fn the_largest_first_order_solves_every_instance_at_its_length() {
    let dir = tempfile::tempdir().unwrap();
    let (file, set) = instance_file(dir.path());
    let results = dir.path().join("results.txt");
    let checkpoints = dir.path().join("checkpoints");
    let goal = State::goal(Board::THREE_BY_THREE);
    let base = [
        file.to_str().unwrap(),
        "--board",
        "3x3",
        "--results",
        results.to_str().unwrap(),
        "--no-table",
        "--threads",
        "2",
        "--checkpoint-dir",
        checkpoints.to_str().unwrap(),
        "--order",
    ];
    let bad = solve_set(dir.path(), &[&base[..], &["sideways"]].concat());
    assert_eq!(bad.code(), Some(2));
    assert!(
        bad.stderr().contains("unknown subtree order `sideways`"),
        "{}",
        bad.stderr()
    );
    assert!(!results.exists(), "nothing solved on a refused order");
    let run = solve_set(dir.path(), &[&base[..], &["largest-first"]].concat());
    assert_eq!(run.code(), Some(1), "u is unsolvable: {}", run.stderr());
    let written = std::fs::read_to_string(&results).unwrap();
    let finished = instance_set::parse_results(&written, &set, &goal).unwrap();
    assert_eq!(finished.len(), 6);
    for f in &finished {
        let instance = set.iter().find(|i| i.id == f.id).unwrap();
        assert_eq!(Some(f.length), instance.published, "{f}");
    }
}

/// The report estimates what is left of an iteration in the largest-first order: the share
/// of the previous iteration's nodes its finished subtrees took, the nodes left at the growth
/// they showed less the parts done, and the seconds at the instance's rate so far; the text
/// and the JSON say the same, and a checkpoint without the previous iteration's nodes (the
/// sequential order) gives no estimate.
#[test]
fn the_report_estimates_what_is_left_of_the_iteration() {
    use npuzzle::search::checkpoint::Checkpoint;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hard.txt");
    std::fs::write(
        &file,
        "h 8 6 7 2 5 4 3 0 1 31
",
    )
    .unwrap();
    let checkpoints = dir.path().join("checkpoints");
    std::fs::create_dir_all(&checkpoints).unwrap();
    let start: State = "867254301".parse().unwrap();
    let mut checkpoint = Checkpoint::new(start, State::goal(Board::THREE_BY_THREE), 7, 4, 29);
    checkpoint.subtrees = 4;
    checkpoint.previous = vec![600, 200, 150, 50];
    checkpoint.sizes = vec![0; 4];
    checkpoint.generated = 750; // earlier iterations
    checkpoint.mark(0, None, 1_000, 2_400); // four times its nodes of the previous iteration
    checkpoint.mark_partial(1, vec![vec![npuzzle::Move::Up]], None, 20, 50);
    std::fs::write(checkpoints.join("h.checkpoint"), checkpoint.to_text()).unwrap();
    // 3,200 nodes in 100 s: 32 a second; 4 x 400 - 50 = 1,550 left, 48 s at that rate.
    std::fs::write(checkpoints.join("h.seconds"), "100\n").unwrap();
    let report = |format: &str| {
        let run = solve_set(
            dir.path(),
            &[
                file.to_str().unwrap(),
                "--board",
                "3x3",
                "--results",
                dir.path().join("results.txt").to_str().unwrap(),
                "--report",
                "--checkpoint-dir",
                checkpoints.to_str().unwrap(),
                "-f",
                format,
            ],
        );
        assert_eq!(run.code(), Some(0), "{}", run.stderr());
        run.stdout()
    };
    let text = report("text");
    let expected = "in progress: bound 29, 1 of 4 subtrees (1 part way), 3,200 nodes, 100 s; \
                    about 60% of the iteration by the previous one's nodes, about 1,550 nodes \
                    and 48 s left |";
    assert!(text.contains(expected), "{expected}\n{text}");
    let json: serde_json::Value = serde_json::from_str(report("json").trim()).unwrap();
    let now = &json["in_progress"];
    assert_eq!(now["iteration_share_done"], 0.6, "{json}");
    assert_eq!(now["iteration_nodes_left"], 1_550, "{json}");
    let seconds_left = now["iteration_seconds_left"].as_f64().unwrap();
    assert!((seconds_left - 1_550.0 / 32.0).abs() < 1e-9, "{json}");
    // The sequential order records no previous nodes: no estimate.
    checkpoint.previous.clear();
    std::fs::write(checkpoints.join("h.checkpoint"), checkpoint.to_text()).unwrap();
    assert!(report("text").contains("3,200 nodes, 100 s |"));
    let json: serde_json::Value = serde_json::from_str(report("json").trim()).unwrap();
    assert!(
        json["in_progress"]["iteration_share_done"].is_null(),
        "{json}"
    );
    assert!(
        json["in_progress"]["iteration_nodes_left"].is_null(),
        "{json}"
    );
}

/// SIGTERM stops a run with a checkpoint directory cleanly: the instance in progress keeps
/// its checkpoint, with the work inside its subtrees in progress, and the run stops with it
/// (the next instance, seconds of work, is not started); exit 1 with a line saying so.
#[cfg(unix)]
#[test]
fn a_terminated_run_stops_with_its_instance_checkpointed() {
    let dir = tempfile::tempdir().unwrap();
    let korf =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/korf100.txt"))
            .unwrap();
    let line = |id: &str| {
        korf.lines()
            .find(|l| l.starts_with(&format!("{id} ")))
            .unwrap()
    };
    assert!(line("49").contains(common::KORF_49));
    let file = dir.path().join("two.txt");
    std::fs::write(&file, format!("{}\n{}\n", line("49"), line("1"))).unwrap();
    let checkpoints = dir.path().join("checkpoints");
    let results = dir.path().join("r.txt");
    let goal: Vec<String> = (0..16).map(|t| t.to_string()).collect();
    let goal = goal.join(",");
    // The set, its goal, results and checkpoints: the run's and the report's.
    let set_command = || {
        let mut command = TestCommand::new();
        command
            .args(["solve-set", file.to_str().unwrap(), "--goal", &goal])
            .args(["--results", results.to_str().unwrap()])
            .args(["--checkpoint-dir", checkpoints.to_str().unwrap()]);
        command
    };
    let spawn = || {
        set_command()
            .args(["--algorithm", "idastar", "--heuristic", "manhattan"])
            .args(["--threads", "2"])
            .data_dir(dir.path())
            .spawn()
    };
    let stopped = common::terminate_inside_subtrees(spawn, &checkpoints.join("49.checkpoint"), 57);
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("request to stop") && stderr.contains("stopped on request"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&results).unwrap(),
        "",
        "nothing solved"
    );
    assert!(!checkpoints.join("1.checkpoint").exists(), "#1 not started");
    let saved = npuzzle::search::checkpoint::Checkpoint::load(&checkpoints.join("49.checkpoint"))
        .unwrap()
        .expect("#49's checkpoint");
    assert!(!saved.partial.is_empty(), "{:?}", saved.partial.keys());
    assert!(checkpoints.join("49.seconds").is_file());
    // The report says so, as text and as data.
    let report = |format: &str| {
        set_command()
            .args(["--report", "-f", format])
            .expect_code(0)
            .stdout()
    };
    let part_way = format!("({} part way)", saved.partial.len());
    assert!(report("text").contains(&part_way), "{}", report("text"));
    let json = report("json");
    let row: serde_json::Value = json
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .find(|row| row["id"] == "49")
        .unwrap();
    assert_eq!(
        row["in_progress"]["partial_subtrees"],
        saved.partial.len(),
        "{json}"
    );
}

/// A checkpoint directory holding an IDA* checkpoint of an instance then solved by a search
/// that keeps none (A*): the earlier runs' seconds are not added to its line (they were
/// another search's), and once the line is written the stale files are gone.
#[test]
fn an_answer_without_a_checkpoint_does_not_count_a_stale_ones_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let (file, results, checkpoints) = hardest_3x3(dir.path());
    let args = |algorithm: &'static str| {
        vec![
            file.to_str().unwrap().to_string(),
            "--board".into(),
            "3x3".into(),
            "--results".into(),
            results.to_str().unwrap().into(),
            "--checkpoint-dir".into(),
            checkpoints.to_str().unwrap().into(),
            "--algorithm".into(),
            algorithm.into(),
            "--heuristic".into(),
            "manhattan".into(),
        ]
    };
    let mut limited = args("idastar");
    limited.extend(["--limit".into(), "20000".into()]);
    let limited: Vec<&str> = limited.iter().map(String::as_str).collect();
    assert_eq!(solve_set(dir.path(), &limited).code(), Some(1));
    assert!(checkpoints.join("h.checkpoint").is_file());
    std::fs::write(checkpoints.join("h.seconds"), "500.000\n").unwrap();
    let astar = args("astar");
    let astar: Vec<&str> = astar.iter().map(String::as_str).collect();
    let solved = solve_set(dir.path(), &astar);
    assert_eq!(solved.code(), Some(0), "{}", solved.stderr());
    let line = std::fs::read_to_string(&results).unwrap();
    let fields: Vec<&str> = line.trim_end().split('\t').collect();
    assert_eq!(fields[..2], ["h", "31"]);
    let seconds: f64 = fields[3].parse().unwrap();
    assert!(seconds < 100.0, "{line}");
    let left: Vec<_> = std::fs::read_dir(&checkpoints).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}
