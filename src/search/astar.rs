//! A*: expand the open node with the smallest `g + h` (moves so far plus the heuristic).
//!
//! The open list is a binary heap with lazy deletion: a cheaper path to a state already open
//! pushes a new entry and marks the old node superseded, and superseded entries are skipped
//! when popped, so no entry is ever searched for. Every state seen is recorded once in a hash
//! map keyed by its packed cells ([`pack`]) that points to its best node; nodes live in one
//! vector, linked to their parents to rebuild the path. Ties on `f` go to the deeper node,
//! which reaches the goal sooner. With a consistent heuristic (all of ours) no closed node is
//! ever reopened; an inconsistent one would reopen it correctly.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use super::{pack, rebuild_path, unsolvable, Budget, Limits, Outcome, SearchResult};
use crate::board::Move;
use crate::heuristic::Heuristic;
use crate::state::State;

/// The parent index of the start node.
const ROOT: u32 = u32::MAX;

struct Node<N> {
    state: State,
    /// The heuristic's node for this state.
    hn: N,
    parent: u32,
    /// The move from the parent (meaningless at the root).
    mv: Move,
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
fn entry(f: u32, g: u32, index: u32) -> Reverse<u64> {
    debug_assert!(f < 1 << 16 && g < 1 << 16);
    Reverse(((f as u64) << 48) | (((0xFFFF - g) as u64) << 32) | index as u64)
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
    let mut nodes = vec![Node {
        state: *start,
        parent: ROOT,
        mv: Move::Up,
        g: 0,
        hn: root.0,
        h: root.1,
        superseded: false,
        closed: false,
    }];
    let mut best: FxHashMap<u128, u32> = FxHashMap::default();
    best.insert(pack(start), 0);
    let mut open = BinaryHeap::new();
    open.push(entry(nodes[0].h, 0, 0));
    let (mut expanded, mut generated) = (0u64, 0u64);

    while let Some(Reverse(top)) = open.pop() {
        let index = (top & 0xFFFF_FFFF) as u32;
        let node = &nodes[index as usize];
        if node.superseded || node.closed {
            continue;
        }
        if node.h == 0 && node.state == goal {
            let solution = rebuild_path(start, index, |i| {
                let n = &nodes[i as usize];
                (n.parent != ROOT).then_some((n.parent, n.mv))
            });
            return budget.finish(Outcome::Solved(solution), expanded, generated);
        }
        budget.note_bound((top >> 48) as u32);
        if let Some(limit) = budget.exhausted(expanded) {
            return budget.finish(Outcome::GaveUp(limit), expanded, generated);
        }
        expanded += 1;
        nodes[index as usize].closed = true;
        let (state, g, parent_node, parent, back) = {
            let n = &nodes[index as usize];
            (n.state, n.g, n.hn, n.parent, n.mv.inverse())
        };
        for mv in Move::ALL {
            if parent != ROOT && mv == back {
                continue;
            }
            let Some(next) = state.apply(mv) else {
                continue;
            };
            generated += 1;
            let child_g = g + 1;
            let key = pack(&next);
            let previous = best.get(&key).copied();
            if let Some(previous) = previous {
                if nodes[previous as usize].g <= child_g {
                    continue;
                }
                nodes[previous as usize].superseded = true;
            }
            let (from, to) = (next.blank(), state.blank());
            let (child_node, child_h) =
                h.step(&parent_node, next.cells(), next.cells()[to], from, to);
            let child = nodes.len() as u32;
            nodes.push(Node {
                state: next,
                parent: index,
                mv,
                g: child_g,
                hn: child_node,
                h: child_h,
                superseded: false,
                closed: false,
            });
            best.insert(key, child);
            open.push(entry(child_g + child_h, child_g, child));
        }
    }
    // Unreachable for a solvable pair: the goal is in the start's component.
    budget.finish(Outcome::Unsolvable, expanded, generated)
}
