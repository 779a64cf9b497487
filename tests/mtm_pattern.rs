//! MTM pattern databases and the MTM search's estimate (`npuzzle::mtm::pattern`,
//! `npuzzle::mtm::heuristic`) against the exact MTM tables: a database of every tile is the
//! table itself on every 3x3 state for every blank cell; smaller ones (and their maximum with
//! the walking distance and the mirror reads) never overestimate on every 3x3 state, every
//! 2x4 state and a 3x4 sample, nor on every 4x4 state within 7 MTM moves of two goals; and
//! IDA* with them returns the exact MTM distance on 3x3, 3x4 and 4x4 samples.

mod references;

use std::collections::{HashMap, VecDeque};

use npuzzle::generate::BuildOptions;
use npuzzle::metric::{for_each_mtm_move, Metric};
use npuzzle::mtm::heuristic::MtmHeuristic;
use npuzzle::mtm::pattern::PatternDb;
use npuzzle::mtm::search::ida_star;
use npuzzle::mtm::walking::WalkingDistance;
use npuzzle::mtm::MtmTable;
use npuzzle::search::Outcome;
use npuzzle::{Board, Limits, RankSpace, State};

/// The goal's cells other than its blank's, in `groups` runs of consecutive cells that
/// overlap by one (so every tile is in some pattern and the patterns share tiles).
fn overlapping_patterns(goal: &State, size: usize) -> Vec<Vec<usize>> {
    let cells: Vec<usize> = (0..goal.board().cells())
        .filter(|&c| c != goal.blank())
        .collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at + 1 < cells.len() {
        let end = (at + size).min(cells.len());
        out.push(cells[at..end].to_vec());
        at = end - 1;
    }
    out
}

/// MTM IDA* with `h` from `start` reaches `goal` in the MTM table's exact distance.
fn assert_searched_exactly(start: &State, goal: &State, h: &MtmHeuristic, table: &MtmTable) {
    let exact = table.distance_to(start, goal).unwrap().unwrap();
    let result = ida_star(start, h, &Limits::NONE);
    let Outcome::Solved(solution) = result.outcome else {
        panic!("{start}: {:?}", result.outcome);
    };
    assert_eq!(solution.end(), *goal);
    assert_eq!(
        Metric::Mtm.length(solution.moves()),
        usize::from(exact),
        "{start}"
    );
}

fn heuristic(goal: &State, patterns: &[Vec<usize>]) -> MtmHeuristic {
    let slices: Vec<&[usize]> = patterns.iter().map(Vec::as_slice).collect();
    MtmHeuristic::with_patterns(goal, &slices).unwrap()
}

#[test]
fn a_database_of_every_tile_is_the_mtm_table_on_every_3x3_state_for_every_blank_cell() {
    let board = Board::THREE_BY_THREE;
    let space = RankSpace::new(board).unwrap();
    for blank in 0..board.cells() {
        let goal = State::canonical_goal(board, blank);
        let table = MtmTable::build(&goal, BuildOptions::default()).unwrap();
        let all: Vec<usize> = (0..9).filter(|&c| c != blank).collect();
        let db = PatternDb::build(&goal, &all).unwrap();
        assert_eq!(db.len(), 362_880);
        for index in 0..space.states() {
            let start = space.unrank(index, goal.parity_class());
            let d = table.distance_to(&start, &goal).unwrap().unwrap();
            assert_eq!(db.estimate(&start), u32::from(d), "blank {blank}: {start}");
        }
    }
}

/// Checks `h` and each of its databases against `table` on `states`; returns the sums of
/// the estimate, of the walking distance and of the distances.
fn check_admissible(
    h: &MtmHeuristic,
    table: &MtmTable,
    states: impl Iterator<Item = State>,
) -> (u64, u64, u64) {
    let goal = *h.goal();
    let walking = WalkingDistance::new(&goal);
    let (mut sum_h, mut sum_w, mut sum_d) = (0, 0, 0);
    for start in states {
        let d = u32::from(table.distance_to(&start, &goal).unwrap().unwrap());
        let e = h.estimate(&start);
        assert!(e <= d, "{start}: estimate {e} above {d}");
        for db in h.databases() {
            assert!(db.estimate(&start) <= d, "{start}: {:?}", db.tiles());
        }
        let w = walking.estimate(&start);
        assert!(e >= w, "{start}: the maximum is below the walking distance");
        sum_h += u64::from(e);
        sum_w += u64::from(w);
        sum_d += u64::from(d);
    }
    (sum_h, sum_w, sum_d)
}

#[test]
fn mtm_pattern_databases_never_overestimate_on_every_3x3_and_2x4_state() {
    for (board, size) in [("3x3", 4), ("2x4", 4), ("4x2", 3)] {
        let board: Board = board.parse().unwrap();
        let space = RankSpace::new(board).unwrap();
        for blank in 0..board.cells() {
            let goal = State::canonical_goal(board, blank);
            let table = MtmTable::build(&goal, BuildOptions::default()).unwrap();
            let h = heuristic(&goal, &overlapping_patterns(&goal, size));
            // The mirror reads apply exactly where the goal's blank is on the diagonal.
            let w = board.width();
            assert_eq!(h.mirrored(), w == board.height() && blank % w == blank / w);
            let states = (0..space.states()).map(|i| space.unrank(i, goal.parity_class()));
            let (sum_h, sum_w, sum_d) = check_admissible(&h, &table, states);
            // Stronger than the walking distance alone somewhere.
            assert!(sum_h > sum_w, "{board} blank {blank}: {sum_h} vs {sum_w}");
            assert!(sum_h <= sum_d);
        }
    }
}

#[test]
fn mtm_pattern_databases_never_overestimate_on_a_3x4_sample_and_search_finds_the_exact_distance() {
    let board: Board = "3x4".parse().unwrap();
    let goal = State::goal(board);
    let table = MtmTable::build(&goal, BuildOptions::default()).unwrap();
    let h = heuristic(&goal, &overlapping_patterns(&goal, 5));
    let states = references::random_states(&goal, 3000, 280);
    let (sum_h, sum_w, _) = check_admissible(&h, &table, states.iter().copied());
    assert!(sum_h > sum_w);
    for start in states.iter().take(25) {
        assert_searched_exactly(start, &goal, &h, &table);
    }
}

#[test]
fn mtm_search_with_pattern_databases_finds_the_exact_distance_on_3x3_samples() {
    for blank in [8, 4, 1] {
        let goal = State::canonical_goal(Board::THREE_BY_THREE, blank);
        let table = MtmTable::build(&goal, BuildOptions::default()).unwrap();
        let h = heuristic(&goal, &overlapping_patterns(&goal, 4));
        for start in references::random_states(&goal, 150, 2800 + blank as u64) {
            assert_searched_exactly(&start, &goal, &h, &table);
        }
    }
}

/// Every 4x4 state within `depth` MTM moves of `goal`, with its MTM distance.
fn near_goal(goal: &State, depth: u8) -> HashMap<State, u8> {
    let mut seen = HashMap::from([(*goal, 0u8)]);
    let mut queue = VecDeque::from([*goal]);
    while let Some(state) = queue.pop_front() {
        let d = seen[&state];
        if d == depth {
            continue;
        }
        for_each_mtm_move(&state, |_, _, next| {
            seen.entry(*next).or_insert_with(|| {
                queue.push_back(*next);
                d + 1
            });
        });
    }
    seen
}

#[test]
fn the_4x4_estimate_never_overestimates_near_two_goals_and_search_is_exact_there() {
    let board: Board = "4x4".parse().unwrap();
    for goal in [State::goal(board), State::canonical_goal(board, 0)] {
        let h = MtmHeuristic::new(&goal);
        assert_eq!(h.databases().len(), 3);
        assert!(h.mirrored());
        let near = near_goal(&goal, 7);
        // OEIS A389728: 1 + 6 + 18 + 54 + 162 + 486 + 1457 + 4334 states within 7.
        assert_eq!(near.len(), 6518);
        let mut exact_somewhere = false;
        for (state, &d) in &near {
            let e = h.estimate(state);
            assert!(e <= u32::from(d), "{state}: estimate {e} above {d}");
            exact_somewhere |= d == 7 && e == 7;
        }
        assert!(exact_somewhere);
        for (state, &d) in near.iter().filter(|(_, &d)| d == 7).take(20) {
            let result = ida_star(state, &h, &Limits::NONE);
            let Outcome::Solved(solution) = result.outcome else {
                panic!("{state}: {:?}", result.outcome);
            };
            assert_eq!(solution.end(), goal);
            assert_eq!(Metric::Mtm.length(solution.moves()), usize::from(d));
        }
    }
}
