//! MTM colouring databases (`npuzzle::mtm::colouring`, the idea of the 4x4 MTM search's
//! database): on 3x3, every entry equals the abstract distance found by a plain breadth-first
//! search written here over coloured boards, it never overestimates the exact MTM table on any
//! state (alone, and read on the mirrored state as the search does), IDA* with it returns the
//! exact MTM distance on a sample, and the data directory's file round-trips and is refused
//! once an entry is edited behind valid checksums.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use npuzzle::generate::BuildOptions;
use npuzzle::metric::Metric;
use npuzzle::mtm::colouring::{Colouring, ColouringDb};
use npuzzle::mtm::colouring_file::{colouring_file_name, open_in_data_dir, save};
use npuzzle::mtm::heuristic::MtmHeuristic;
use npuzzle::mtm::search::{ida_star, Estimate};
use npuzzle::mtm::MtmTable;
use npuzzle::search::Outcome;
use npuzzle::store::file::StoredFileError;
use npuzzle::store::format;
use npuzzle::{Board, Limits, RankSpace, State};

/// Two colourings of the 3x3 goal (blank last): by pairs of neighbours, and by rows mixed.
const COLOURINGS: [[u8; 9]; 2] = [[1, 1, 2, 3, 3, 2, 4, 4, 0], [1, 2, 1, 3, 4, 2, 3, 4, 0]];

/// Each cell's class in `state` towards `goal` under `classes` (class 0 for the blank).
fn coloured(state: &State, goal: &State, classes: &[u8]) -> Vec<u8> {
    let mut class_of = [0u8; 16];
    for (cell, &tile) in goal.cells().iter().enumerate() {
        class_of[usize::from(tile)] = classes[cell];
    }
    state
        .cells()
        .iter()
        .map(|&t| class_of[usize::from(t)])
        .collect()
}

/// The abstract MTM distance of every coloured board reachable from `start` (a plain BFS:
/// the blank, class 0, slides any number of cells along its row or column).
fn abstract_distances(start: Vec<u8>, width: usize) -> HashMap<Vec<u8>, u32> {
    let height = start.len() / width;
    let mut seen = HashMap::from([(start.clone(), 0u32)]);
    let mut queue = VecDeque::from([start]);
    while let Some(board) = queue.pop_front() {
        let d = seen[&board];
        let blank = board.iter().position(|&c| c == 0).unwrap();
        let (row, col) = (blank / width, blank % width);
        for (dr, dc) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
            let mut next = board.clone();
            let (mut r, mut c) = (row as i32, col as i32);
            loop {
                let (nr, nc) = (r + dr, c + dc);
                if nr < 0 || nc < 0 || nr >= height as i32 || nc >= width as i32 {
                    break;
                }
                next.swap(
                    (r as usize) * width + c as usize,
                    (nr as usize) * width + nc as usize,
                );
                (r, c) = (nr, nc);
                if !seen.contains_key(&next) {
                    seen.insert(next.clone(), d + 1);
                    queue.push_back(next.clone());
                }
            }
        }
    }
    seen
}

fn every_state(goal: &State) -> impl Iterator<Item = State> + '_ {
    let space = RankSpace::new(goal.board()).unwrap();
    (0..space.states()).map(move |i| space.unrank(i, goal.parity_class()))
}

#[test]
fn every_3x3_entry_is_the_abstract_distance_and_never_above_the_mtm_distance() {
    let board = Board::THREE_BY_THREE;
    let goal = State::goal(board);
    let table = MtmTable::build(&goal, BuildOptions::default()).unwrap();
    for classes in COLOURINGS {
        let colouring = Colouring::new(board, &classes).unwrap();
        let db = ColouringDb::build(&goal, colouring.clone()).unwrap();
        db.verify_deep().unwrap();
        let reference = abstract_distances(coloured(&goal, &goal, &classes), 3);
        // Every coloured board is reached (two tiles alike join both parities).
        assert_eq!(reference.len() as u64, colouring.entries());
        assert_eq!(db.counts().iter().sum::<u64>(), colouring.entries());
        let h = MtmHeuristic::with_colouring(&goal, Arc::new(db.map_into()), false).unwrap();
        assert!(h.mirrored(), "the 3x3 goal's blank is on the diagonal");
        let plain = MtmHeuristic::with_colouring(
            &goal,
            Arc::new(ColouringDb::build(&goal, colouring).unwrap().map_into()),
            false,
        )
        .unwrap()
        .unmirrored();
        let (mut sum, mut sum_plain) = (0u64, 0u64);
        for start in every_state(&goal) {
            let exact = u32::from(table.distance_to(&start, &goal).unwrap().unwrap());
            let own = plain.estimate(&start);
            assert_eq!(
                own,
                reference[&coloured(&start, &goal, &classes)],
                "{start}"
            );
            let both = h.estimate(&start);
            assert!(
                both >= own && both <= exact,
                "{start}: {both} vs exact {exact}"
            );
            sum += u64::from(both);
            sum_plain += u64::from(own);
        }
        // The mirrored read adds something somewhere (else it would not be worth its cost).
        assert!(sum > sum_plain, "{classes:?}: {sum} vs {sum_plain}");
    }
}

#[test]
fn ida_star_with_the_colouring_database_finds_exact_mtm_distances() {
    let board = Board::THREE_BY_THREE;
    // The default goal, and another with its blank on the colouring's cell (its tiles take
    // the classes of their cells).
    for goal in [State::goal(board), "876543210".parse::<State>().unwrap()] {
        let table = MtmTable::build(&goal, BuildOptions::default()).unwrap();
        let canonical = State::goal(board);
        let colouring = Colouring::new(board, &COLOURINGS[0]).unwrap();
        let db = Arc::new(
            ColouringDb::build(&canonical, colouring)
                .unwrap()
                .map_into(),
        );
        let h = MtmHeuristic::with_colouring(&goal, db, true).unwrap();
        for start in every_state(&goal).step_by(997) {
            let exact = table.distance_to(&start, &goal).unwrap().unwrap();
            let result = ida_star(&start, &h, &Limits::NONE);
            let Outcome::Solved(solution) = result.outcome else {
                panic!("{start}: {:?}", result.outcome);
            };
            assert_eq!(solution.end(), goal);
            assert_eq!(
                Metric::Mtm.length(solution.moves()),
                usize::from(exact),
                "{start}"
            );
        }
    }
}

/// The estimate of `MtmHeuristic` read state by state: `ida_star` over it takes the generic
/// path, never the packed one (`Estimate::packed` is `None`).
struct StateByState<'h>(&'h MtmHeuristic);

impl Estimate for StateByState<'_> {
    fn goal(&self) -> &State {
        self.0.goal()
    }

    fn estimate(&self, state: &State) -> u32 {
        self.0.estimate(state)
    }
}

/// The packed search (the colouring database alone, boards as words updated by slides,
/// entries prefetched) is the same search as the generic one over the same estimate: the
/// same path, the same nodes expanded and generated, on 3x3 (against the exact MTM table
/// too) and on 4x3, with and without the mirrored read.
#[test]
fn the_packed_search_is_the_generic_search_node_for_node() {
    let three = Board::THREE_BY_THREE;
    let four_three = Board::new(4, 3).unwrap();
    let cases = [
        (State::goal(three), COLOURINGS[0].to_vec()),
        (
            "876543210".parse::<State>().unwrap(),
            COLOURINGS[0].to_vec(),
        ),
        (State::goal(three), COLOURINGS[1].to_vec()),
        (
            State::goal(four_three),
            vec![1, 1, 2, 2, 3, 3, 2, 2, 3, 4, 4, 0],
        ),
    ];
    for (goal, classes) in cases {
        let board = goal.board();
        let canonical = State::goal(board);
        let colouring = Colouring::new(board, &classes).unwrap();
        let db = Arc::new(
            ColouringDb::build(&canonical, colouring)
                .unwrap()
                .map_into(),
        );
        let table =
            (board == three).then(|| MtmTable::build(&goal, BuildOptions::default()).unwrap());
        let h = MtmHeuristic::with_colouring(&goal, Arc::clone(&db), false).unwrap();
        let flat = MtmHeuristic::with_colouring(&goal, db, false)
            .unwrap()
            .unmirrored();
        let starts: Vec<State> = match &table {
            Some(_) => every_state(&goal).step_by(211).collect(),
            None => {
                let mut rng = npuzzle::rng::SplitMix64::new(7);
                (0..40)
                    .map(|_| {
                        let mut s = goal;
                        for _ in 0..60 {
                            let mv = npuzzle::Move::ALL[(rng.next_u64() % 4) as usize];
                            s = s.apply(mv).unwrap_or(s);
                        }
                        s
                    })
                    .collect()
            }
        };
        assert!(starts.len() >= 40);
        for h in [&h, &flat] {
            for start in &starts {
                let packed = ida_star(start, h, &Limits::NONE);
                let generic = ida_star(start, &StateByState(h), &Limits::NONE);
                let (Outcome::Solved(a), Outcome::Solved(b)) = (&packed.outcome, &generic.outcome)
                else {
                    panic!("{start}: {:?} {:?}", packed.outcome, generic.outcome);
                };
                assert_eq!(a.moves(), b.moves(), "{start}");
                assert_eq!(a.end(), goal);
                assert_eq!(
                    (packed.expanded, packed.generated),
                    (generic.expanded, generic.generated),
                    "{start}"
                );
                if let Some(table) = &table {
                    let exact = table.distance_to(start, &goal).unwrap().unwrap();
                    assert_eq!(Metric::Mtm.length(a.moves()), usize::from(exact), "{start}");
                }
            }
        }
    }
}

#[test]
fn a_goal_with_its_blank_elsewhere_is_refused() {
    let board = Board::THREE_BY_THREE;
    let colouring = Colouring::new(board, &COLOURINGS[0]).unwrap();
    let db = Arc::new(
        ColouringDb::build(&State::goal(board), colouring)
            .unwrap()
            .map_into(),
    );
    let other = State::canonical_goal(board, 0);
    assert!(MtmHeuristic::with_colouring(&other, db, true).is_err());
}

#[test]
fn the_file_round_trips_and_an_entry_edited_behind_valid_checksums_is_refused() {
    let board = Board::THREE_BY_THREE;
    let goal = State::goal(board);
    let colouring = Colouring::new(board, &COLOURINGS[1]).unwrap();
    let db = ColouringDb::build(&goal, colouring.clone()).unwrap();
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(colouring_file_name(&goal, &colouring));
    save(&path, &db).unwrap();
    let opened = open_in_data_dir(dir.path(), &path, &goal, &colouring).unwrap();
    assert_eq!(opened.body(), db.body());
    assert_eq!(opened.counts(), db.counts());
    let header = format::decode_header(opened.as_bytes()).unwrap();
    assert_eq!(header.kind, format::KIND_COLOURING_DATABASE);
    assert_eq!(header.metric, Metric::Mtm);
    // Another colouring asked for: refused as a mismatch.
    let other = Colouring::new(board, &COLOURINGS[0]).unwrap();
    assert!(matches!(
        open_in_data_dir(dir.path(), &path, &goal, &other),
        Err(StoredFileError::Mismatch { .. })
    ));

    // One entry lowered, the header (checksums, histogram) written again to match: every
    // check but the deep one passes, and the deep one refuses it.
    let mut body = db.body().to_vec();
    let at = body.iter().position(|&d| d > 3).unwrap();
    body[at] -= 2;
    let mut bytes = format::encode_colouring_header(&goal, colouring.mask(), &body);
    bytes.extend_from_slice(&body);
    let tampered = ColouringDb::from_bytes(bytes.clone()).expect("the sums are valid");
    let damage = tampered.verify_deep().unwrap_err();
    assert!(damage.index as usize <= at, "{damage}");
    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(
        open_in_data_dir(dir.path(), &path, &goal, &colouring),
        Err(StoredFileError::Inconsistent { .. })
    ));
    // A flipped byte without new sums: refused before the deep check.
    let mut flipped = db.as_bytes().to_vec();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, &flipped).unwrap();
    assert!(matches!(
        open_in_data_dir(dir.path(), &path, &goal, &colouring),
        Err(StoredFileError::Invalid { .. })
    ));
}
