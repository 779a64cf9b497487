//! The generator and the deep consistency check against independent oracles over `State`s
//! (no ranking arithmetic shared with the code under test except `RankSpace::index` to find
//! an entry): every small board, every 3x3 blank cell, 1 vs 2 threads, and damaged tables
//! whose first bad entry must be the one a naive check finds.

use std::collections::{HashMap, VecDeque};

use npuzzle::bfs::{distances, distances_into, BuildOptions, Distances};
use npuzzle::table::format;
use npuzzle::{Board, RankSpace, State, Table};

/// Every board of at most 10 cells that the generator can rank, non-square ones both ways.
const SMALL_BOARDS: [(usize, usize); 8] = [
    (2, 2),
    (2, 3),
    (3, 2),
    (2, 4),
    (4, 2),
    (3, 3),
    (2, 5),
    (5, 2),
];

/// Breadth-first search over `State`s in a hash map: the distance of every reachable state.
fn plain_bfs(goal: State) -> HashMap<State, u8> {
    let mut seen = HashMap::from([(goal, 0u8)]);
    let mut queue = VecDeque::from([goal]);
    while let Some(state) = queue.pop_front() {
        let d = seen[&state];
        for (_, next) in state.successors() {
            seen.entry(next).or_insert_with(|| {
                queue.push_back(next);
                d + 1
            });
        }
    }
    seen
}

fn on_threads(space: &RankSpace, goal: &State, threads: usize) -> Distances {
    distances(
        space,
        goal,
        BuildOptions {
            threads: Some(threads),
        },
    )
}

/// The generator's bytes equal the oracle's distances, and its counts the bytes' histogram.
fn assert_matches_plain_bfs(space: &RankSpace, goal: State, built: &Distances) {
    let oracle = plain_bfs(goal);
    let board = goal.board();
    assert_eq!(oracle.len(), space.states() as usize, "{board} {goal}");
    let mut expected = vec![u8::MAX; space.states() as usize];
    for (state, &d) in &oracle {
        expected[space.index(state) as usize] = d;
    }
    assert!(built.entries == expected, "{board} goal {goal}: bytes differ");
    let mut counts = vec![0u64; *oracle.values().max().unwrap() as usize + 1];
    for &d in oracle.values() {
        counts[d as usize] += 1;
    }
    assert_eq!(built.counts, counts, "{board} goal {goal}");
}

#[test]
fn every_small_board_matches_a_plain_bfs_on_one_and_two_threads() {
    for (w, h) in SMALL_BOARDS {
        let board = Board::new(w, h).unwrap();
        let space = RankSpace::new(board).unwrap();
        // Every blank cell on the boards of at most 9 cells; the goal's on 10 cells.
        let blanks = if board.cells() <= 9 {
            (0..board.cells()).collect()
        } else {
            vec![board.cells() - 1]
        };
        for blank in blanks {
            let goal = State::canonical_goal(board, blank);
            let one = on_threads(&space, &goal, 1);
            let two = on_threads(&space, &goal, 2);
            assert!(one == two, "{board} goal {goal}: 1 and 2 threads differ");
            assert_matches_plain_bfs(&space, goal, &one);
        }
    }
}

#[test]
fn a_non_canonical_goal_matches_a_plain_bfs() {
    for text in ["123456708", "812043765", "0123/4567"] {
        let goal: State = text.parse().unwrap();
        let space = RankSpace::new(goal.board()).unwrap();
        assert_matches_plain_bfs(&space, goal, &on_threads(&space, &goal, 2));
    }
}

#[test]
fn distances_into_overwrites_every_byte_of_a_dirty_buffer() {
    let goal = State::goal(Board::THREE_BY_THREE);
    let space = RankSpace::new(goal.board()).unwrap();
    let expected = on_threads(&space, &goal, 1);
    for junk in [0u8, 7, 255] {
        let mut entries = vec![junk; space.states() as usize];
        let counts = distances_into(&space, &goal, BuildOptions::default(), &mut entries);
        assert_eq!(counts, expected.counts);
        assert!(entries == expected.entries, "junk {junk}");
    }
}

#[test]
fn table_build_equals_encoding_the_generator_output() {
    for (w, h) in [(2, 3), (3, 3)] {
        let goal = State::goal(Board::new(w, h).unwrap());
        let space = RankSpace::new(goal.board()).unwrap();
        let built = Table::build(&goal, BuildOptions::default()).unwrap();
        let encoded = format::encode(&goal, &on_threads(&space, &goal, 1));
        assert!(built.as_bytes() == encoded.as_slice(), "{w}x{h}");
        let reopened = Table::from_bytes(encoded).unwrap();
        assert_eq!(built.header(), reopened.header());
    }
}
