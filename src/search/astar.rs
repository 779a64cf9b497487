//! A*: expand the open node with the smallest `g + h` (moves so far plus the heuristic).
//!
//! The open list is a binary heap with lazy deletion: a cheaper path to a state already open
//! pushes a new entry and marks the old node superseded, and superseded entries are skipped
//! when popped, so no entry is ever searched for. Every state seen is recorded once in a hash
//! map keyed by its packed cells ([`pack`]) that points to its best node; nodes live in the
//! search [`Tree`], linked to their parents to rebuild the path. Ties on `f` go to the deeper node,
//! which reaches the goal sooner. With a consistent heuristic (all of ours) no closed node is
//! ever reopened; an inconsistent one would reopen it correctly.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use super::tree::{NodeId, Tree};
use super::{pack, unsolvable, Budget, Limits, Outcome, SearchResult};
use crate::heuristic::Heuristic;
use crate::state::State;

/// What A* keeps per node besides its place in the tree.
struct Costs<N> {
    /// The heuristic's node for this state.
    hn: N,
    g: u32,
    h: u32,
    /// A cheaper node for the same state was pushed after this one.
    superseded: bool,
    /// Already expanded.
    closed: bool,
}

/// A heap entry: `f` in the high bits, then `g` inverted (deeper first), then the node index,
/// so that the smallest `u64` is the next node to expand.
#[inline]
fn entry(f: u32, g: u32, id: NodeId) -> Reverse<u64> {
    debug_assert!(f < 1 << 16 && g < 1 << 16);
    Reverse((u64::from(f) << 48) | (u64::from(0xFFFF - g) << 32) | u64::from(id.bits()))
}

/// Finds an optimal path from `start` to the heuristic's goal (optimal because the
/// heuristic is admissible).
///
/// Returns [`Outcome::Unsolvable`] without searching when the pair cannot be solved, and
/// [`Outcome::GaveUp`] when `limits` are reached first.
pub fn astar<H: Heuristic>(start: &State, h: &H, limits: Limits) -> SearchResult {
    let goal = *h.goal();
    let mut budget = Budget::new(limits);
    if !start.can_reach(&goal) {
        return unsolvable(std::time::Instant::now());
    }
    let root = h.start(start.cells());
    let mut tree = Tree::new(
        *start,
        Costs {
            g: 0,
            hn: root.0,
            h: root.1,
            superseded: false,
            closed: false,
        },
    );
    let mut best: FxHashMap<u128, NodeId> = FxHashMap::default();
    best.insert(pack(start), NodeId::ROOT);
    let mut open = BinaryHeap::new();
    open.push(entry(root.1, 0, NodeId::ROOT));
    let (mut expanded, mut generated) = (0u64, 0u64);

    while let Some(Reverse(top)) = open.pop() {
        let id = NodeId::from_bits((top & 0xFFFF_FFFF) as u32);
        let node = tree.node(id);
        if node.data.superseded || node.data.closed {
            continue;
        }
        if node.data.h == 0 && node.state == goal {
            let solution = tree.path(start, id);
            return budget.finish(Outcome::Solved(solution), expanded, generated);
        }
        budget.note_bound((top >> 48) as u32);
        if let Some(limit) = budget.exhausted(expanded) {
            return budget.finish(Outcome::GaveUp(limit), expanded, generated);
        }
        expanded += 1;
        tree.node_mut(id).data.closed = true;
        let (state, g, parent_node) = {
            let n = tree.node(id);
            (n.state, n.data.g, n.data.hn)
        };
        for (mv, next) in tree.children(id) {
            generated += 1;
            let child_g = g + 1;
            let key = pack(&next);
            let previous = best.get(&key).copied();
            if let Some(previous) = previous {
                if tree.node(previous).data.g <= child_g {
                    continue;
                }
                tree.node_mut(previous).data.superseded = true;
            }
            let (from, to) = (next.blank(), state.blank());
            let (child_node, child_h) =
                h.step(&parent_node, next.cells(), next.cells()[to], from, to);
            let child = tree.push(
                id,
                mv,
                next,
                Costs {
                    g: child_g,
                    hn: child_node,
                    h: child_h,
                    superseded: false,
                    closed: false,
                },
            );
            best.insert(key, child);
            open.push(entry(child_g + child_h, child_g, child));
        }
    }
    // Unreachable for a solvable pair: the goal is in the start's component.
    budget.finish(Outcome::Unsolvable, expanded, generated)
}
