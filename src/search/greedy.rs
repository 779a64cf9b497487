//! Greedy best-first search: always expand the open state with the smallest heuristic value,
//! ignoring the moves already made, as the textbook "branch and bound" on misplaced tiles does.
//!
//! It usually reaches the goal after far fewer expansions than A*, but its path is not optimal
//! in general and is labelled so. Each state is visited once (a hash set of packed states), the
//! goal is recognised when generated, and ties go to the state generated first. Nodes live in
//! the search [`Tree`].

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashSet;

use super::tree::{NodeId, Tree};
use super::{pack, unsolvable, Budget, Limits, Outcome, SearchResult};
use crate::heuristic::Heuristic;
use crate::state::State;

/// Finds some path from `start` to the heuristic's goal, not necessarily a shortest one.
///
/// Returns [`Outcome::Unsolvable`] without searching when the pair cannot be solved, and
/// [`Outcome::GaveUp`] when `limits` are reached first.
pub fn greedy<H: Heuristic>(start: &State, h: &H, limits: Limits) -> SearchResult {
    let goal = *h.goal();
    let mut budget = Budget::new(limits);
    if !start.can_reach(&goal) {
        return unsolvable(std::time::Instant::now());
    }
    let root = h.start(start.cells());
    // Each node keeps the heuristic's node for its state.
    let mut tree = Tree::new(*start, root.0);
    if *start == goal {
        return budget.finish(Outcome::Solved(tree.path(start, NodeId::ROOT)), 0, 0);
    }
    let mut seen: FxHashSet<u128> = FxHashSet::default();
    seen.insert(pack(start));
    // Entries: heuristic value in the high bits, node index (generation order) below.
    let mut open = BinaryHeap::new();
    open.push(Reverse(u64::from(root.1) << 32));
    let (mut expanded, mut generated) = (0u64, 0u64);
    while let Some(Reverse(top)) = open.pop() {
        let id = NodeId::from_bits((top & 0xFFFF_FFFF) as u32);
        if let Some(limit) = budget.exhausted(expanded) {
            return budget.finish(Outcome::GaveUp(limit), expanded, generated);
        }
        expanded += 1;
        let (state, parent_node) = {
            let n = tree.node(id);
            (n.state, n.data)
        };
        for (mv, next) in tree.children(id) {
            generated += 1;
            if !seen.insert(pack(&next)) {
                continue;
            }
            let (from, to) = (next.blank(), state.blank());
            let (child_node, child_h) =
                h.step(&parent_node, next.cells(), next.cells()[to], from, to);
            let child = tree.push(id, mv, next, child_node);
            if next == goal {
                let solution = tree.path(start, child);
                return budget.finish(Outcome::Solved(solution), expanded, generated);
            }
            open.push(Reverse(
                (u64::from(child_h) << 32) | u64::from(child.bits()),
            ));
        }
    }
    budget.finish(Outcome::Unsolvable, expanded, generated)
}
