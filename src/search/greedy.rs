//! Greedy best-first search: always expand the open state with the smallest heuristic value,
//! ignoring the moves already made, as the textbook "branch and bound" on misplaced tiles does.
//!
//! It usually reaches the goal after far fewer expansions than A*, but its path is not optimal
//! in general and is labelled so. Each state is visited once (a hash set of packed states), the
//! goal is recognised when generated, and ties go to the state generated first.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashSet;

use super::{pack, rebuild_path, unsolvable, Budget, Limits, Outcome, SearchResult};
use crate::board::Move;
use crate::heuristic::Heuristic;
use crate::state::State;

const ROOT: u32 = u32::MAX;

struct Node<N> {
    state: State,
    /// The heuristic's node for this state.
    hn: N,
    parent: u32,
    mv: Move,
    h: u32,
}

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
    let link = |nodes: &[Node<H::Node>], i: u32| {
        let n = &nodes[i as usize];
        (n.parent != ROOT).then_some((n.parent, n.mv))
    };
    let root = h.start(start.cells());
    let mut nodes = vec![Node {
        state: *start,
        parent: ROOT,
        mv: Move::Up,
        hn: root.0,
        h: root.1,
    }];
    if *start == goal {
        return budget.finish(
            Outcome::Solved(rebuild_path(start, 0, |i| link(&nodes, i))),
            0,
            0,
        );
    }
    let mut seen: FxHashSet<u128> = FxHashSet::default();
    seen.insert(pack(start));
    // Entries: heuristic value in the high bits, node index (generation order) below.
    let mut open = BinaryHeap::new();
    open.push(Reverse((nodes[0].h as u64) << 32));
    let (mut expanded, mut generated) = (0u64, 0u64);
    while let Some(Reverse(top)) = open.pop() {
        let index = (top & 0xFFFF_FFFF) as u32;
        if let Some(limit) = budget.exhausted(expanded) {
            return budget.finish(Outcome::GaveUp(limit), expanded, generated);
        }
        expanded += 1;
        let (state, parent_node, parent, back) = {
            let n = &nodes[index as usize];
            (n.state, n.hn, n.parent, n.mv.inverse())
        };
        for mv in Move::ALL {
            if parent != ROOT && mv == back {
                continue;
            }
            let Some(next) = state.apply(mv) else {
                continue;
            };
            generated += 1;
            if !seen.insert(pack(&next)) {
                continue;
            }
            let (from, to) = (next.blank(), state.blank());
            let (child_node, child_h) =
                h.step(&parent_node, next.cells(), next.cells()[to], from, to);
            let child = nodes.len() as u32;
            nodes.push(Node {
                state: next,
                parent: index,
                mv,
                hn: child_node,
                h: child_h,
            });
            if next == goal {
                let solution = rebuild_path(start, child, |i| link(&nodes, i));
                return budget.finish(Outcome::Solved(solution), expanded, generated);
            }
            open.push(Reverse(((child_h as u64) << 32) | child as u64));
        }
    }
    budget.finish(Outcome::Unsolvable, expanded, generated)
}
