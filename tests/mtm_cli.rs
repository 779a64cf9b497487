//! `npuzzle build --metric mtm` through the binary: the MTM tables saved in the data
//! directory under their own names, with the metric in their headers, used by
//! `distance --metric mtm` without a rebuild; and a table whose header gives the other metric
//! refused under the MTM name and rebuilt, never answered.

mod common;

use std::collections::HashSet;
use std::path::Path;

use common::TestCommand;
use npuzzle::mtm::MtmTable;
use npuzzle::store::file::{file_name, mtm_file_name};
use npuzzle::table::file::open;
use npuzzle::{BuildOptions, Metric, State};

/// The file's identity and modification time: a rebuild renames a new file over it.
fn version(path: &Path) -> (u64, std::time::SystemTime) {
    use std::os::unix::fs::MetadataExt;
    let metadata = std::fs::metadata(path).expect("metadata");
    (metadata.ino(), metadata.modified().expect("mtime"))
}

/// `count` states of `goal`'s class, spread by a seeded walk (every one solvable).
fn states_of(goal: State, count: usize) -> Vec<State> {
    let mut rng = npuzzle::rng::SplitMix64::new(28);
    let mut seen = HashSet::new();
    let mut state = goal;
    let mut out = Vec::new();
    while out.len() < count {
        let next: Vec<State> = state.successors().map(|(_, s)| s).collect();
        state = next[(rng.next_u64() % next.len() as u64) as usize];
        if seen.insert(state) {
            out.push(state);
        }
    }
    out
}

/// `distance --metric mtm` of `start` to the board's default goal, from `dir`.
fn mtm_distance(dir: &Path, start: &State) -> (u8, String) {
    let run = TestCommand::new()
        .data_dir(dir)
        .args(["distance", "--metric", "mtm", &start.to_string()])
        .expect_code(0);
    let stdout = run.stdout();
    let value = stdout
        .split_whitespace()
        .next()
        .and_then(|word| word.parse().ok())
        .unwrap_or_else(|| panic!("a distance: {stdout}"));
    (value, run.stderr())
}

#[test]
fn build_help_offers_the_metric() {
    let help = TestCommand::new().args(["build", "--help"]).stdout();
    assert!(help.contains("--metric <METRIC>"), "{help}");
    assert!(help.contains("mtm-<table's name>.npt"), "{help}");
}

#[test]
fn build_metric_mtm_saves_the_table_that_distance_metric_mtm_then_reads() {
    let dir = tempfile::tempdir().expect("temp dir");
    let goal = State::goal("3x3".parse().expect("board"));
    let stdout = TestCommand::new()
        .data_dir(dir.path())
        .args(["build", "--metric", "mtm", "--board", "3x3"])
        .stdout();
    let path = dir.path().join(mtm_file_name(&goal));
    assert!(stdout.starts_with(&path.display().to_string()), "{stdout}");
    assert!(stdout.contains("\tmax depth 24\tmetric mtm"), "{stdout}");
    assert!(!dir.path().join(file_name(&goal)).exists(), "no STM table");
    let saved = open(&path).expect("a valid table");
    assert_eq!(saved.metric(), Metric::Mtm);
    let reference = MtmTable::build(&goal, BuildOptions::default()).expect("built");
    assert_eq!(
        saved.as_bytes(),
        reference.table().as_bytes(),
        "the same bytes"
    );

    // Answered from that file: the same distances as in memory, and the file not rebuilt.
    let before = version(&path);
    for start in states_of(goal, 12) {
        let (value, stderr) = mtm_distance(dir.path(), &start);
        let expected = reference.distance_to(&start, &goal).expect("read");
        assert_eq!(Some(value), expected, "{start}: {stderr}");
        assert!(!stderr.contains("built"), "{stderr}");
    }
    assert_eq!(
        version(&path),
        before,
        "the built file was used, not rebuilt"
    );
}

#[test]
fn build_all_metric_mtm_saves_one_mtm_table_per_blank_cell() {
    let dir = tempfile::tempdir().expect("temp dir");
    let board = "3x2".parse().expect("board");
    let stdout = TestCommand::new()
        .data_dir(dir.path())
        .args(["build", "--metric", "mtm", "--all", "--board", "3x2"])
        .stdout();
    assert_eq!(stdout.lines().count(), 6, "{stdout}");
    for blank in 0..6 {
        let goal = State::canonical_goal(board, blank);
        let table = open(&dir.path().join(mtm_file_name(&goal))).expect("saved");
        assert_eq!((table.metric(), table.goal()), (Metric::Mtm, &goal));
        assert!(!dir.path().join(file_name(&goal)).exists());
    }
}

#[test]
fn an_stm_table_under_the_mtm_name_is_refused_and_rebuilt_never_answered() {
    let dir = tempfile::tempdir().expect("temp dir");
    let goal = State::goal("3x3".parse().expect("board"));
    TestCommand::new()
        .data_dir(dir.path())
        .args(["build", "--board", "3x3"])
        .stdout();
    let stm = dir.path().join(file_name(&goal));
    let mtm = dir.path().join(mtm_file_name(&goal));
    std::fs::copy(&stm, &mtm).expect("copied");
    let reference = MtmTable::build(&goal, BuildOptions::default()).expect("built");
    // One slide of two tiles: an answer from the STM table (two moves) would differ.
    let start: State = "123456078".parse().expect("state");
    let stm_answer = open(&stm)
        .expect("valid")
        .distance_to(&start, &goal)
        .expect("read");
    let mtm_answer = reference.distance_to(&start, &goal).expect("read");
    assert_eq!((stm_answer, mtm_answer), (Some(2), Some(1)));
    let (value, stderr) = mtm_distance(dir.path(), &start);
    assert_eq!(Some(value), mtm_answer, "{stderr}");
    let refusal = stderr
        .lines()
        .find(|line| line.contains("the table counts stm moves, not the mtm moves asked for"))
        .unwrap_or_else(|| panic!("no refusal: {stderr}"));
    assert!(refusal.contains(&mtm.display().to_string()), "{refusal}");
    assert_eq!(open(&mtm).expect("rebuilt").metric(), Metric::Mtm);
    assert_eq!(open(&stm).expect("kept").metric(), Metric::Stm);
}
