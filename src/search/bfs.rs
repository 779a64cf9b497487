//! Plain breadth-first search over states from the start: no heuristic, no table. The search
//! [`Tree`], in creation order, doubles as the FIFO queue; a hash set of packed states ([`pack`]) keeps each state
//! to one visit, and the goal is recognised when generated. Optimal, and memory grows with
//! every state within the solution's depth, so it suits small boards.

use rustc_hash::FxHashSet;

use super::tree::{NodeId, Tree};
use super::{pack, unsolvable, Budget, Limits, Outcome, SearchResult};
use crate::state::State;

/// Finds a shortest path from `start` to `goal` by breadth-first search.
///
/// Returns [`Outcome::Unsolvable`] without searching when the pair cannot be solved, and
/// [`Outcome::GaveUp`] when `limits` are reached first.
pub fn bfs(start: &State, goal: &State, limits: Limits) -> SearchResult {
    let mut budget = Budget::new(limits);
    if !start.can_reach(goal) {
        return unsolvable(std::time::Instant::now());
    }
    let mut tree = Tree::new(*start, ());
    if start == goal {
        return budget.finish(Outcome::Solved(tree.path(start, NodeId::ROOT)), 0, 0);
    }
    let mut seen: FxHashSet<u128> = FxHashSet::default();
    seen.insert(pack(start));
    let (mut expanded, mut generated) = (0u64, 0u64);
    // The tree in creation order is the FIFO queue: `head` is the next node to expand.
    let mut head = 0u32;
    while (head as usize) < tree.len() {
        if let Some(limit) = budget.exhausted(expanded) {
            return budget.finish(Outcome::GaveUp(limit), expanded, generated);
        }
        expanded += 1;
        let id = NodeId::from_bits(head);
        for (mv, next) in tree.children(id) {
            generated += 1;
            if !seen.insert(pack(&next)) {
                continue;
            }
            let child = tree.push(id, mv, next, ());
            if next == *goal {
                let solution = tree.path(start, child);
                return budget.finish(Outcome::Solved(solution), expanded, generated);
            }
        }
        head += 1;
    }
    budget.finish(Outcome::Unsolvable, expanded, generated)
}
