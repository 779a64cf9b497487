//! Plain breadth-first search over states from the start: no heuristic, no table. The node
//! vector doubles as the FIFO queue; a hash set of packed states ([`pack`]) keeps each state
//! to one visit, and the goal is recognised when generated. Optimal, and memory grows with
//! every state within the solution's depth, so it suits small boards.

use rustc_hash::FxHashSet;

use super::{pack, rebuild_path, unsolvable, Budget, Limits, Outcome, SearchResult};
use crate::board::Move;
use crate::state::State;

const ROOT: u32 = u32::MAX;

struct Node {
    state: State,
    parent: u32,
    mv: Move,
}

/// Finds a shortest path from `start` to `goal` by breadth-first search.
///
/// Returns [`Outcome::Unsolvable`] without searching when the pair cannot be solved, and
/// [`Outcome::GaveUp`] when `limits` are reached first.
pub fn bfs(start: &State, goal: &State, limits: Limits) -> SearchResult {
    let mut budget = Budget::new(limits);
    if !start.can_reach(goal) {
        return unsolvable(std::time::Instant::now());
    }
    let link = |nodes: &[Node], i: u32| {
        let n = &nodes[i as usize];
        (n.parent != ROOT).then_some((n.parent, n.mv))
    };
    let mut nodes = vec![Node {
        state: *start,
        parent: ROOT,
        mv: Move::Up,
    }];
    if start == goal {
        return budget.finish(
            Outcome::Solved(rebuild_path(start, 0, |i| link(&nodes, i))),
            0,
            0,
        );
    }
    let mut seen: FxHashSet<u128> = FxHashSet::default();
    seen.insert(pack(start));
    let (mut expanded, mut generated) = (0u64, 0u64);
    let mut head = 0usize;
    while head < nodes.len() {
        if let Some(limit) = budget.exhausted(expanded) {
            return budget.finish(Outcome::GaveUp(limit), expanded, generated);
        }
        expanded += 1;
        let (state, parent, back) = {
            let n = &nodes[head];
            (n.state, n.parent, n.mv.inverse())
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
            nodes.push(Node {
                state: next,
                parent: head as u32,
                mv,
            });
            if next == *goal {
                let last = nodes.len() as u32 - 1;
                let solution = rebuild_path(start, last, |i| link(&nodes, i));
                return budget.finish(Outcome::Solved(solution), expanded, generated);
            }
        }
        head += 1;
    }
    budget.finish(Outcome::Unsolvable, expanded, generated)
}
