//! Independent references the tests compare npuzzle against: a breadth-first search over
//! `State`s in a hash map (no ranking, no tables), random walks, and the boards small enough
//! to check exhaustively.
#![allow(dead_code)] // each test binary uses some of these

use std::collections::{HashMap, VecDeque};

use npuzzle::rng::SplitMix64;
use npuzzle::{Move, State};

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

/// Breadth-first search over `State`s in a hash map: the distance of every reachable state.
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
