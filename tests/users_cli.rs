//! The command line without rough edges (issue 14), through the binary: clap's tips kept,
//! `help --help`, one JSON spelling, `verify` from stdin, completions and a man page, the
//! ambiguous `--limit 5m`, round trips from `batch` to `verify`, JSON for unsolvable pairs,
//! `verify --explain`, messages for cell counts, the 5x5 note, the plot font, and an installed
//! copy that never writes into the checkout.

mod common;

use std::path::Path;
use std::process::Output;

use common::TestCommand;
use npuzzle::{Board, State};

fn npuzzle(data_dir: &Path, args: &[&str]) -> Output {
    TestCommand::new().args(args).data_dir(data_dir).output()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn data_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn usage_errors_keep_clap_s_tip_about_a_similar_argument_or_command() {
    let dir = data_dir();
    let out = npuzzle(dir.path(), &["solve", "123456780", "--limt", "5"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("a similar argument exists: '--limit'"),
        "{err}"
    );
    let out = npuzzle(dir.path(), &["sovle", "123456780"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("'solve'"), "{err}");
}

#[test]
fn help_help_and_help_of_a_command_exit_0() {
    let dir = data_dir();
    let out = npuzzle(dir.path(), &["help", "--help"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Usage: npuzzle help"),
        "{}",
        stdout(&out)
    );
    let out = npuzzle(dir.path(), &["help", "solve"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).contains("Usage: npuzzle solve"),
        "{}",
        stdout(&out)
    );
    let out = npuzzle(dir.path(), &["help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("Commands:"));
    let out = npuzzle(dir.path(), &["help", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no command `nope`"));
}

#[test]
fn stats_spells_json_output_as_every_command_does_and_keeps_the_old_flag() {
    let dir = data_dir();
    let new = npuzzle(dir.path(), &["stats", "--board", "2x3", "-f", "json"]);
    assert_eq!(new.status.code(), Some(0), "{}", stderr(&new));
    let json: serde_json::Value = serde_json::from_slice(&new.stdout).unwrap();
    assert_eq!(json["total"], 360);
    let old = npuzzle(dir.path(), &["stats", "--board", "2x3", "--json"]);
    assert_eq!(old.stdout, new.stdout);
    let help = stdout(&npuzzle(dir.path(), &["stats", "--help"]));
    assert!(
        help.contains("--format") && !help.contains("--json"),
        "{help}"
    );
}

#[test]
fn verify_reads_standard_input_without_a_dash() {
    let dir = data_dir();
    let out = common::run_with_stdin(&["verify"], dir.path(), "start,moves\n123456708,R\n");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("verified 1 answer"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn completions_and_the_man_page_are_generated_from_the_arguments() {
    let dir = data_dir();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = npuzzle(dir.path(), &["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", stderr(&out));
        assert!(stdout(&out).contains("npuzzle"), "{shell}");
    }
    let bash = stdout(&npuzzle(dir.path(), &["completions", "bash"]));
    assert!(bash.contains("--allow-suboptimal") && bash.contains("--data-dir"));
    let man = npuzzle(dir.path(), &["man"]);
    assert_eq!(man.status.code(), Some(0));
    let man = stdout(&man);
    assert!(
        man.contains(".TH npuzzle 1") && man.contains("verify"),
        "{man}"
    );
    let out = npuzzle(dir.path(), &["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_lower_case_m_limit_is_refused_offering_minutes_and_millions() {
    let dir = data_dir();
    let out = npuzzle(dir.path(), &["solve", "123456708", "--limit", "5m"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("`5min`") && err.contains("`5M`"), "{err}");
    let out = npuzzle(
        dir.path(),
        &["solve", "123456708", "--limit", "5min", "--limit", "5M"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn what_batch_solve_writes_verify_reads_and_passes_unsolvable_rows_included() {
    let dir = data_dir();
    let questions =
        "123456708\n123456780,213456780\n867254301\n1 2 3 0 / 4 5 6 7,0 1 2 3 / 4 5 6 7\n";
    for format in ["csv", "jsonl"] {
        let batch =
            common::run_with_stdin(&["batch", "--solve", "-f", format], dir.path(), questions);
        assert_eq!(
            batch.status.code(),
            Some(1),
            "the unsolvable line fails: {}",
            stderr(&batch)
        );
        let rows = stdout(&batch);
        if format == "csv" {
            assert!(rows.contains("123456780,213456780,unsolvable,,"), "{rows}");
        } else {
            assert!(rows.contains("\"unsolvable\":true"), "{rows}");
        }
        let verify = common::run_with_stdin(&["verify", "-f", "jsonl"], dir.path(), &batch.stdout);
        assert_eq!(
            verify.status.code(),
            Some(0),
            "{format}: {}\n{rows}",
            stdout(&verify)
        );
        let verdicts: Vec<String> = common::json_lines(&verify)
            .iter()
            .map(|v| v["verdict"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            verdicts,
            ["optimal", "correct-unsolvable", "optimal", "optimal"],
            "{format}"
        );
    }
}

#[test]
fn solve_json_on_an_unsolvable_pair_prints_json_saying_so() {
    let dir = data_dir();
    let out = npuzzle(
        dir.path(),
        &["solve", "123456780", "--goal", "213456780", "-f", "json"],
    );
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["solvable"], false);
    assert_eq!(json["distance"], serde_json::Value::Null);
    assert!(json["reason"].as_str().unwrap().contains("parity"));
    assert_eq!(stderr(&out), "");
}

#[test]
fn verify_shows_an_optimal_solution_for_failing_lines_and_the_tile_direction_hint() {
    let dir = data_dir();
    let answers = "start,moves\n123456708,RLR\n123456078,LL\n123456708,R\n";
    let jsonl = common::run_with_stdin(&["verify", "-f", "jsonl"], dir.path(), answers);
    assert_eq!(jsonl.status.code(), Some(1));
    let lines = common::json_lines(&jsonl);
    assert_eq!(lines[0]["verdict"], "suboptimal");
    assert_eq!(lines[0]["optimal"], "R");
    assert_eq!(lines[1]["verdict"], "illegal-move");
    assert_eq!(lines[1]["optimal"], "RR");
    assert!(lines[1]["detail"]
        .as_str()
        .unwrap()
        .contains("npuzzle's letters name the direction the blank moves"));
    assert!(
        lines[2]["optimal"].is_null(),
        "passing lines need none (null: every key is in every row)"
    );
    let summary = common::run_with_stdin(&["verify", "--explain"], dir.path(), answers);
    let text = stdout(&summary);
    assert!(text.contains("one optimal solution: R\n"), "{text}");
    assert!(text.contains("one optimal solution: RR\n"), "{text}");
    let plain = stdout(&common::run_with_stdin(&["verify"], dir.path(), answers));
    assert!(!plain.contains("one optimal solution"), "{plain}");
}

#[test]
fn cell_counts_that_make_no_board_are_explained() {
    let dir = data_dir();
    let out = npuzzle(dir.path(), &["distance", "12345678"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is the blank missing?"),
        "{}",
        stderr(&out)
    );
    let tiles: Vec<String> = (0..36).map(|t| t.to_string()).collect();
    let out = npuzzle(dir.path(), &["distance", &tiles.join(" ")]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("a 6x6 board, and boards have at most 25 cells"),
        "{err}"
    );
    assert!(!err.contains("square"), "{err}");
    let out = npuzzle(dir.path(), &["distance", "12345670"]);
    assert!(stderr(&out).contains("--board WxH"), "{}", stderr(&out));
}

#[test]
fn a_5x5_search_without_a_limit_says_how_to_set_one() {
    let dir = data_dir();
    let start = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24";
    let out = npuzzle(dir.path(), &["distance", start]);
    assert_eq!(stdout(&out), "1\n");
    assert!(stderr(&out).contains("--limit"), "{}", stderr(&out));
    let out = npuzzle(dir.path(), &["distance", start, "--limit", "1min"]);
    assert_eq!(stderr(&out), "");
    let out = npuzzle(dir.path(), &["distance", "123456708"]);
    assert_eq!(
        stderr(&out)
            .lines()
            .filter(|l| l.contains("--limit"))
            .count(),
        0
    );
}

#[test]
fn a_plot_without_a_font_says_how_to_get_one() {
    let dir = data_dir();
    let svg = dir.path().join("plot.svg");
    let out = TestCommand::new()
        .args(["stats", "--board", "2x2", "--svg"])
        .arg(&svg)
        .data_dir(dir.path())
        .env("NPUZZLE_FONT", dir.path().join("no-such-font.ttf"))
        .output();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("NPUZZLE_FONT"), "{err}");
}

/// An installed copy (a binary outside the checkout's `target/`, as `cargo install` leaves
/// it) keeps its tables in the user's cache directory and never writes into the checkout,
/// even when run from inside it.
#[test]
fn an_installed_copy_never_writes_into_the_checkout() {
    let home = tempfile::tempdir().unwrap();
    let installed = home.path().join("bin");
    std::fs::create_dir(&installed).unwrap();
    let binary = installed.join("npuzzle");
    std::fs::copy(env!("CARGO_BIN_EXE_npuzzle"), &binary).unwrap();
    // A goal no other test asks for: its table file would be new wherever it appeared.
    let goal = "2 1 3 4 5 / 6 7 8 0 9";
    let table =
        npuzzle::store::file::file_name(&npuzzle::State::canonical_goal("5x2".parse().unwrap(), 8));
    let checkout_data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let existed = checkout_data.join(&table).exists();
    let out = TestCommand::of(&binary)
        .args(["distance", "2 1 3 4 5 / 6 7 0 8 9", "--goal", goal])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("XDG_CACHE_HOME")
        .env("HOME", home.path())
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "1\n");
    let cached = home.path().join(".cache").join("npuzzle").join(&table);
    assert!(
        cached.is_file(),
        "the table goes to ~/.cache/npuzzle: {}",
        stderr(&out)
    );
    if !existed {
        assert!(
            !checkout_data.join(&table).exists(),
            "the checkout's data/ was written"
        );
    }
}

#[test]
fn on_a_terminal_verify_counts_the_answers_judged() {
    let dir = data_dir();
    let input = dir.path().join("answers.csv");
    let mut text = String::from("start,moves\n");
    text.push_str(&"123456708,R\n".repeat(400_000));
    std::fs::write(&input, text).unwrap();
    let (code, shown) = common::on_a_terminal(dir.path(), &["verify", input.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{shown}");
    assert!(shown.contains("answers judged"), "{shown:?}");
    assert!(shown.contains("verified 400,000 answers"), "{shown:?}");
}

/// Korf's instance 3 with Manhattan distance: hundreds of millions of nodes, so a search with
/// a time limit of a few seconds is still running when the live line appears.
const LONG_SEARCH: [&str; 9] = [
    "solve",
    "14 7 8 2 / 13 11 10 4 / 9 12 5 0 / 3 6 1 15",
    "--goal",
    "0 1 2 3 / 4 5 6 7 / 8 9 10 11 / 12 13 14 15",
    "--algorithm",
    "idastar",
    "--heuristic",
    "manhattan",
    "--limit",
];

#[test]
fn on_a_terminal_a_long_search_shows_nodes_and_its_bound_then_clears_the_line() {
    let dir = data_dir();
    let mut args = LONG_SEARCH.to_vec();
    args.push("2500ms");
    let (code, shown) = common::on_a_terminal(dir.path(), &args);
    assert_eq!(code, Some(1), "gives up at the limit: {shown}");
    let live: Vec<&str> = shown
        .split('\r')
        .filter(|part| part.contains("searching: "))
        .collect();
    assert!(!live.is_empty(), "no live line: {shown:?}");
    for line in &live {
        assert!(
            line.contains(" nodes expanded, bound ") && line.trim_end().ends_with(" s"),
            "{line:?}"
        );
    }
    // The line is cleared before the message, which starts on a clean line.
    assert!(
        shown.contains("\r\x1b[2Knpuzzle: idastar gave up"),
        "{shown:?}"
    );
}

#[test]
fn off_a_terminal_a_long_search_shows_nothing_live() {
    let dir = data_dir();
    let mut args = LONG_SEARCH.to_vec();
    args.push("1500ms");
    let out = npuzzle(dir.path(), &args);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(!err.contains("searching"), "{err:?}");
    assert_eq!(err.lines().count(), 1, "{err:?}");
}

#[test]
fn missing_pattern_databases_are_explained_by_the_library_and_the_cli_names_the_command() {
    // The library's message names no command; the command line adds the one that builds them.
    let goal = State::goal(Board::new(5, 5).unwrap());
    let error = npuzzle::AnswerError::NoDatabases { goal };
    let text = error.to_string();
    assert!(!text.contains("npuzzle ") && !text.contains("--"), "{text}");
    let dir = data_dir();
    let out = npuzzle(
        dir.path(),
        &[
            "solve",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24",
            "--heuristic",
            "pdb",
            "--limit",
            "1s",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&text), "{err}");
    assert!(
        err.contains("build them with `npuzzle build --pdb 5x5:6-6-6-6`"),
        "{err}"
    );
}

/// Korf's instance 1 (57 moves): a 15-puzzle whose 6-6-3 databases are built on first use.
const FIFTEEN: [&str; 4] = [
    "distance",
    "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
    "--goal",
    "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
];

#[test]
fn pattern_databases_built_on_first_use_are_named_with_their_size_and_time() {
    let dir = data_dir();
    let out = npuzzle(dir.path(), &FIFTEEN);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "57\n");
    let err = stderr(&out);
    let notes: Vec<&str> = err.lines().collect();
    assert_eq!(notes.len(), 3, "one note per database of 6-6-3: {err:?}");
    for note in notes {
        assert!(
            note.starts_with("npuzzle: note: built pattern database ")
                && note.contains("-pdb-")
                && note.contains(" bytes) in ")
                && note.ends_with(" s (first use)"),
            "{note:?}"
        );
    }
    // Off a terminal, no progress bar is drawn.
    assert!(!err.contains("placements"), "{err:?}");
}

#[test]
fn on_a_terminal_a_pattern_database_built_on_first_use_shows_its_progress() {
    let dir = data_dir();
    let (code, shown) = common::on_a_terminal(dir.path(), &FIFTEEN);
    assert_eq!(code, Some(0), "{shown}");
    assert!(
        shown.contains("building the 4x4 pattern database [4, 5, 8, 9, 12, 13]")
            && shown.contains("/5765760 placements"),
        "{shown:?}"
    );
    assert!(shown.contains("note: built pattern database "), "{shown:?}");
    assert!(shown.contains("57\r\n"), "{shown:?}");
}
