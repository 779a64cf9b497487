//! Iterative-deepening depth-first search: depth-limited searches to depth 0, 1, 2, ... until
//! the goal is found. No heuristic; optimal; memory is the current path only. The textbook
//! uninformed baseline: on the 8-puzzle it explores millions of nodes where IDA* needs
//! thousands.
//!
//! It is the IDA* engine with a heuristic that is always zero, which turns the `g + h` bound
//! into a depth bound that grows by one per iteration.

use super::{in_place, Limits, SearchResult};
use crate::heuristic::Heuristic;
use crate::state::State;

/// The zero heuristic: no information, so the bound on `g + h` is a bound on depth.
struct Blind {
    goal: State,
}

impl Heuristic for Blind {
    type Node = ();

    fn fingerprint_name(&self) -> &'static str {
        "npuzzle::search::iddfs::Blind"
    }

    fn goal(&self) -> &State {
        &self.goal
    }

    #[inline]
    fn start(&self, _cells: &[u8]) -> ((), u32) {
        ((), 0)
    }

    #[inline]
    fn step(&self, _: &(), _cells: &[u8], _tile: u8, _from: usize, _to: usize) -> ((), u32) {
        ((), 0)
    }
}

/// Finds a shortest path from `start` to `goal` by iterative deepening.
///
/// Returns [`Outcome::Unsolvable`](super::Outcome::Unsolvable) without searching when the pair
/// cannot be solved, and [`Outcome::GaveUp`](super::Outcome::GaveUp) when `limits` are reached.
pub fn iddfs(start: &State, goal: &State, limits: Limits) -> SearchResult {
    in_place::search(start, &Blind { goal: *goal }, limits)
}
