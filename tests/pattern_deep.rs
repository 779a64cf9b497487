//! The deep check of pattern databases (`PatternDatabase::verify_deep`): every database the
//! generator writes passes it, and an edit whose checksums (and histogram) were put right —
//! which the header and block checks accept, and which makes IDA* return a longer path called
//! optimal — fails it; through the binary, such a file in a data directory is rebuilt (or not
//! used) instead of answering, `check --deep` reports it, and `check FILE` describes a valid
//! database.

mod common;
mod reseal;

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::Arc;

use common::TestCommand;
use npuzzle::heuristic::PatternHeuristic;
use npuzzle::pattern::{Partition, PatternDamage, PatternDatabase};
use npuzzle::search::{self, Algorithm};
use npuzzle::store::StoredBytes;
use npuzzle::{Board, Limits, Move, State};

fn build(goal: &State, tiles: &[u8]) -> PatternDatabase<Vec<u8>> {
    PatternDatabase::build(goal, tiles, &|_| ControlFlow::Continue(())).unwrap()
}

/// The code of entry `rank` in a database file's bytes.
fn code_at(bytes: &[u8], header_len: usize, rank: u32) -> u8 {
    (bytes[header_len + (rank >> 1) as usize] >> ((rank & 1) * 4)) & 15
}

fn set_code(bytes: &mut [u8], header_len: usize, rank: u32, code: u8) {
    let at = header_len + (rank >> 1) as usize;
    let shift = (rank & 1) * 4;
    bytes[at] = (bytes[at] & !(15 << shift)) | (code << shift);
}

/// The edit of a deliberate editor: entry `rank` swaps codes with an entry holding the
/// largest code, so the histogram is unchanged, then every checksum is recomputed.
fn raise_entry(db: &PatternDatabase<Vec<u8>>, rank: u32) -> Vec<u8> {
    let header_len = db.header().len;
    let mut bytes = db.as_bytes().to_vec();
    let max = db.header().max_depth;
    let old = code_at(&bytes, header_len, rank);
    assert!(old < max, "the entry can be raised");
    let donor = (0..db.header().entries as u32)
        .find(|&r| code_at(&bytes, header_len, r) == max)
        .unwrap();
    set_code(&mut bytes, header_len, rank, max);
    set_code(&mut bytes, header_len, donor, old);
    reseal::reseal_body(&mut bytes);
    bytes
}

/// The cell of each of the database's tiles in `state`.
fn placement(db: &PatternDatabase<impl AsRef<[u8]>>, state: &State) -> Vec<u8> {
    db.space()
        .tiles()
        .iter()
        .map(|&t| state.cells().iter().position(|&c| c == t).unwrap() as u8)
        .collect()
}

/// `goal` after `moves` (letters of the blank's moves).
fn walk(goal: &State, moves: &str) -> State {
    moves.chars().fold(*goal, |s, m| {
        s.apply(Move::from_letter(m).unwrap())
            .expect("a legal move")
    })
}

fn four_by_four() -> State {
    State::goal(Board::new(4, 4).unwrap())
}

/// A position 12 moves from the 15-puzzle's goal (12 is also its distance: checked below).
const NEAR: &str = "ULULURRDLDRU";

#[test]
fn every_database_the_generator_writes_passes_the_deep_check() {
    let three = State::goal(Board::THREE_BY_THREE);
    // A corner blank and a middle one; one pattern leaving two free cells (some placements
    // unreachable, code 0), one leaving many.
    for goal in [three, State::canonical_goal(Board::THREE_BY_THREE, 4)] {
        for tiles in [
            &[1u8, 2, 3, 4][..],
            &[5, 6, 7, 8],
            &[1, 2, 3, 4, 5, 6, 7],
            &[2],
        ] {
            let db = build(&goal, tiles);
            assert_eq!(db.verify_deep(), Ok(()), "{goal} {tiles:?}");
        }
    }
    let two_by_five = State::goal(Board::new(2, 5).unwrap());
    assert_eq!(build(&two_by_five, &[1, 2, 3, 4, 5]).verify_deep(), Ok(()));
    let goal = four_by_four();
    for tiles in Partition::SixSixThree.groups(&goal).unwrap() {
        assert_eq!(build(&goal, &tiles).verify_deep(), Ok(()), "{tiles:?}");
    }
}

#[test]
fn an_edit_with_its_checksums_recomputed_misleads_the_search_and_fails_the_deep_check() {
    let goal = four_by_four();
    let groups = Partition::SixSixThree.groups(&goal).unwrap();
    let dbs: Vec<PatternDatabase<Vec<u8>>> = groups.iter().map(|t| build(&goal, t)).collect();
    let start = walk(&goal, NEAR);
    let heuristic = |dbs: Vec<Arc<PatternDatabase<StoredBytes>>>| {
        PatternHeuristic::new(&goal, dbs, true).unwrap()
    };
    let shared = |db: &PatternDatabase<Vec<u8>>| {
        Arc::new(PatternDatabase::from_bytes(StoredBytes::from(db.as_bytes().to_vec())).unwrap())
    };
    let honest = heuristic(dbs.iter().map(shared).collect());
    let optimal = search::run_with(Algorithm::IdaStar, &honest, &start, Limits::default())
        .solution()
        .unwrap()
        .len();
    assert_eq!(optimal, NEAR.len(), "the walk is a shortest path");

    // Raise the start's entry in the first (6-tile) database.
    let first = &dbs[0];
    let rank = first.space().rank(&placement(first, &start));
    let edited = raise_entry(first, rank);
    // Every check that existed before the deep one accepts it.
    let accepted = PatternDatabase::from_bytes(StoredBytes::from(edited.clone()))
        .expect("checksums and histogram hold");
    let mut misled: Vec<_> = dbs.iter().map(shared).collect();
    misled[0] = Arc::new(accepted);
    let misled = heuristic(misled);
    let wrong = search::run_with(Algorithm::IdaStar, &misled, &start, Limits::default())
        .solution()
        .unwrap()
        .len();
    assert!(
        wrong > optimal,
        "the edit should mislead IDA* into a longer path ({wrong} vs {optimal})"
    );
    // The deep check refuses it.
    let edited = PatternDatabase::from_bytes(edited).unwrap();
    assert!(
        matches!(
            edited.verify_deep(),
            Err(PatternDamage::TooHigh { .. } | PatternDamage::Unreached { .. })
        ),
        "{:?}",
        edited.verify_deep()
    );
}

#[test]
fn raised_or_lowered_entries_of_a_small_database_fail_the_deep_check() {
    // Every entry of a 3x3 database raised by one code (its histogram put right by lowering
    // the largest), one at a time: count how many the check catches. An entry whose lower
    // neighbours all have walled-in free cells can escape (see `src/pattern/consistency.rs`);
    // on this pattern none does.
    let goal = State::goal(Board::THREE_BY_THREE);
    let db = build(&goal, &[1, 2, 3, 4]);
    let header_len = db.header().len;
    let max = db.header().max_depth;
    let (mut edits, mut caught) = (0, 0);
    for rank in 0..db.header().entries as u32 {
        if code_at(db.as_bytes(), header_len, rank) >= max {
            continue;
        }
        let edited = PatternDatabase::from_bytes(raise_entry(&db, rank)).unwrap();
        edits += 1;
        if edited.verify_deep().is_err() {
            caught += 1;
        }
    }
    assert!(edits > 1000);
    assert_eq!(
        caught, edits,
        "every raised entry is caught on this pattern"
    );
}

fn npuzzle(args: &[&str]) -> Output {
    TestCommand::new().args(args).output()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The pattern database files in `dir`, sorted.
fn databases(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("-pdb-"))
        .collect();
    files.sort();
    files
}

#[test]
fn the_binary_builds_checks_and_refuses_an_edited_database() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let built = npuzzle(&["build", "--pdb", "4x4:6-6-3", "--data-dir", data]);
    assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
    let files = databases(dir.path());
    assert_eq!(files.len(), 3);
    // `build` checked what it wrote and recorded it as verified.
    let list =
        std::fs::read_to_string(dir.path().join(npuzzle::store::file::VERIFIED_LIST)).unwrap();
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(list.contains(name), "{list}");
    }

    // `check FILE` describes a valid database, with and without --deep.
    let first = files
        .iter()
        .find(|p| {
            PatternDatabase::from_bytes(std::fs::read(p).unwrap())
                .unwrap()
                .space()
                .tiles()
                .len()
                == 6
        })
        .unwrap()
        .clone();
    for deep in [false, true] {
        let mut args = vec!["check", first.to_str().unwrap()];
        if deep {
            args.push("--deep");
        }
        let out = npuzzle(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let said = text(&out.stdout);
        for field in [
            "board:",
            "4x4",
            "goal:",
            "pattern:",
            "entries:",
            "5765760",
            "bits:",
            "4 per entry",
            "code counts:",
            "ok:",
        ] {
            assert!(said.contains(field), "{field} in {said}");
        }
        assert_eq!(said.contains("deep check"), deep, "{said}");
    }

    // A database damaged by accident (a byte flipped, checksums left alone) is reported as
    // such, not as a table of the wrong kind.
    let flipped = dir.path().join("flipped.npt");
    let mut bytes = std::fs::read(&first).unwrap();
    let at = bytes.len() - 100;
    bytes[at] ^= 0xff;
    std::fs::write(&flipped, bytes).unwrap();
    let out = npuzzle(&["check", flipped.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stderr);
    assert!(
        said.contains("damaged") && said.contains("checksum"),
        "{said}"
    );
    assert!(!said.contains("not an exact distance table"), "{said}");
    std::fs::remove_file(&flipped).unwrap();

    // The attack: raise the entry of a position near the goal, checksums recomputed.
    let goal = four_by_four();
    let start = walk(&goal, NEAR);
    let db = PatternDatabase::from_bytes(std::fs::read(&first).unwrap()).unwrap();
    let rank = db.space().rank(&placement(&db, &start));
    std::fs::write(&first, raise_entry(&db, rank)).unwrap();
    let deep = npuzzle(&["check", first.to_str().unwrap(), "--deep"]);
    assert_eq!(deep.status.code(), Some(1), "{}", text(&deep.stdout));
    assert!(
        text(&deep.stderr).contains("damaged"),
        "{}",
        text(&deep.stderr)
    );
    // Without --deep, the checks the edit was made to pass do pass.
    let shallow = npuzzle(&["check", first.to_str().unwrap()]);
    assert_eq!(shallow.status.code(), Some(0), "{}", text(&shallow.stderr));

    // A question answered from the data directory: the edited file was verified before (as
    // built), but it changed since, so it is checked again, found damaged and rebuilt; the
    // answer is the optimal one.
    let start_text = start.to_string();
    let solved = npuzzle(&[
        "solve",
        &start_text,
        "--board",
        "4x4",
        "--data-dir",
        data,
        "-f",
        "json",
    ]);
    assert_eq!(solved.status.code(), Some(0), "{}", text(&solved.stderr));
    let answer: serde_json::Value = serde_json::from_str(text(&solved.stdout).trim()).unwrap();
    assert_eq!(answer["length"], NEAR.len(), "{answer}");
    assert_eq!(answer["optimal"], true, "{answer}");
    let note = text(&solved.stderr);
    assert!(
        note.contains("not valid") && note.contains("rebuilt"),
        "{note}"
    );
    let again = npuzzle(&["check", first.to_str().unwrap(), "--deep"]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
}

/// A memory limit that is not a size is refused, not ignored (a misspelt limit would let a
/// build take more than its user allowed): one line naming the variable and the text, exit
/// status 2, nothing built.
#[test]
fn a_memory_limit_that_is_not_a_size_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    for limit in ["lots", "0", "2 GB of it"] {
        let refused = TestCommand::new()
            .env("NPUZZLE_MEMORY_LIMIT", limit)
            .args(["build", "--pdb", "4x4:6-6-3", "--data-dir", data])
            .output();
        let err = text(&refused.stderr);
        assert_eq!(refused.status.code(), Some(2), "{limit}: {err}");
        assert!(err.contains("NPUZZLE_MEMORY_LIMIT"), "{limit}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{limit}: {err}");
        assert!(databases(dir.path()).is_empty(), "{limit}");
    }
}

/// A build larger than the machine's memory is refused before it starts (issue 22): one line
/// naming what it needs and what there is, exit status 2, nothing written. The machine's
/// memory is capped for the test by `NPUZZLE_MEMORY_LIMIT`; a 7-tile 5x5 pattern needs 7.3 GB (6.8 GiB, the unit of the message and of the limit's
/// suffixes).
#[test]
fn a_build_that_does_not_fit_in_memory_says_so_before_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let refused = TestCommand::new()
        .env("NPUZZLE_MEMORY_LIMIT", "1G")
        .args(["build", "--pdb", "5x5:7-7-7-3", "--data-dir", data])
        .output();
    let err = text(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{err}");
    assert!(err.contains("needs 6.8 GiB"), "{err}");
    assert!(err.contains("1.0 GiB is available"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(databases(dir.path()).is_empty());
}
