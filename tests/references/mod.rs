//! Independent references the tests compare npuzzle against: a breadth-first search over
//! `State`s in a hash map (no ranking, no tables), random walks, the boards small enough to
//! check exhaustively, and the published instance sets with their optimal lengths (Korf's 100
//! 15-puzzles, Korf and Felner's 50 24-puzzles).
#![allow(dead_code)] // each test binary uses some of these

use std::collections::{HashMap, VecDeque};

use npuzzle::instance_set::{self, Instance};
use npuzzle::rng::SplitMix64;
use npuzzle::{Board, Move, State};

/// Every board of at most 10 cells, non-square ones both ways: small enough to check every
/// state, and every one has tables.
pub const SMALL_BOARDS: [(usize, usize); 8] = [
    (2, 2),
    (2, 3),
    (3, 2),
    (2, 4),
    (4, 2),
    (3, 3),
    (2, 5),
    (5, 2),
];

/// Breadth-first search over `State`s in a hash map: the distance of every state that can
/// reach `goal` (moves are reversible, so these are the states reachable from it). The one
/// BFS reference of the tests: no ranks, no tables, no parity rule.
pub fn plain_bfs(goal: State) -> HashMap<State, u8> {
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

/// A state `steps` random moves from `from`.
pub fn walk(from: &State, steps: usize, rng: &mut SplitMix64) -> State {
    let mut state = *from;
    for _ in 0..steps {
        let next: Vec<State> = state.successors().map(|(_, s)| s).collect();
        state = next[rng.below(next.len() as u64) as usize];
    }
    state
}

/// `count` states, each 200 random moves from `goal` (so solvable for it), from one seeded
/// stream.
pub fn random_states(goal: &State, count: usize, seed: u64) -> Vec<State> {
    let mut rng = SplitMix64::new(seed);
    (0..count).map(|_| walk(goal, 200, &mut rng)).collect()
}

/// Checks the moves a table walk took from `start`: each is the first move in `U D L R` order
/// to a state one closer by `distance` (the table's), and they end at `goal`.
pub fn assert_first_closer_moves(
    start: State,
    goal: State,
    moves: &[Move],
    distance: impl Fn(&State) -> u8,
) {
    let mut state = start;
    for &mv in moves {
        let first_closer = Move::ALL.into_iter().find(|&m| {
            state
                .apply(m)
                .is_some_and(|n| distance(&n) + 1 == distance(&state))
        });
        assert_eq!(Some(mv), first_closer, "{start}, at {state}");
        state = state.apply(mv).unwrap();
    }
    assert_eq!(state, goal, "{start}");
}

/// One instance of a published set, with what the file gives about it.
#[derive(Clone, Debug)]
pub struct Published {
    /// Its number in the paper.
    pub id: u32,
    pub start: State,
    /// The papers' goal: the blank top-left, then the tiles in order.
    pub goal: State,
    /// The published optimal length.
    pub optimal: u32,
    /// The Manhattan distance of the start, as the file gives it.
    pub manhattan: u32,
    /// The nodes of the paper's run (for picking the quickest instances).
    pub nodes: u64,
}

/// The lines of `data/NAME` (id, tiles, optimal length, then more columns) as the library's
/// instance-set reader reads them: the one parser of these files.
pub fn instance_file(name: &str, board: Board) -> Vec<Instance> {
    let path = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    instance_set::parse_instances(&text, board).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A published set: `data/NAME` on `board`, whose columns after the optimal length are the
/// start's Manhattan distance and the paper's node count.
fn published(name: &str, board: Board) -> Vec<Published> {
    let goal = State::canonical_goal(board, 0);
    instance_file(name, board)
        .into_iter()
        .map(|i| Published {
            id: i.id.parse().expect("a numbered instance"),
            start: i.start,
            goal,
            optimal: i.published.expect("a published length"),
            manhattan: u32::try_from(i.extra[0]).expect("a Manhattan distance"),
            nodes: i.extra[1],
        })
        .collect()
}

/// Korf's 100 random 15-puzzles (1985, data/korf100.txt), in file order.
pub fn korf100() -> Vec<Published> {
    published("korf100.txt", Board::new(4, 4).unwrap())
}

/// Korf and Felner's 50 random 24-puzzles (2002, data/korf50_24.txt), in file order.
pub fn korf50_24() -> Vec<Published> {
    published("korf50_24.txt", Board::new(5, 5).unwrap())
}

/// The `count` instances of `set` with the fewest nodes in the paper's run: the quickest to
/// solve, so tests stay fast.
pub fn easiest(mut set: Vec<Published>, count: usize) -> Vec<Published> {
    set.sort_by_key(|i| i.nodes);
    set.truncate(count);
    set
}
