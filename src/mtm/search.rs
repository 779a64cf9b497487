//! Optimal MTM search: IDA* over MTM moves with an admissible MTM [`Estimate`]: the
//! walking distance ([`WalkingDistance`]) or its maximum with pattern databases
//! ([`MtmHeuristic`](super::heuristic::MtmHeuristic)).
//!
//! Two moves along the same axis in a row are never both in an optimal path (the same
//! direction is one longer slide; opposite directions are one shorter slide or none), so
//! after a horizontal move only vertical ones are tried, and the other way round.

use std::time::Instant;

use crate::board::Move;
use crate::search::{Limit, Limits, Outcome, Progress, SearchResult};
use crate::solution::Solution;
use crate::state::State;

use super::packed::PackedColouring;
use super::walking::WalkingDistance;

/// An admissible MTM estimate towards one goal: never above the MTM distance.
pub trait Estimate: Sync {
    /// The goal estimated towards.
    fn goal(&self) -> &State;
    /// A lower bound on the MTM distance from `state` to [`Estimate::goal`].
    fn estimate(&self, state: &State) -> u32;

    /// The same estimate as a colouring database read on packed boards, where it is exactly
    /// that (no other part maxed in): [`ida_star`] then searches on packed boards updated
    /// slide by slide ([`super::packed`]), the same nodes in the same order. `None` (the
    /// default): the search asks [`Estimate::estimate`] of each state.
    fn packed(&self) -> Option<&PackedColouring> {
        None
    }
}

/// A boxed estimate (estimates chosen at run time, as in [`Larger`](super::stm_bound::Larger)).
impl<E: Estimate + ?Sized> Estimate for Box<E> {
    fn goal(&self) -> &State {
        (**self).goal()
    }

    fn estimate(&self, state: &State) -> u32 {
        (**self).estimate(state)
    }
}

impl Estimate for WalkingDistance {
    fn goal(&self) -> &State {
        WalkingDistance::goal(self)
    }

    fn estimate(&self, state: &State) -> u32 {
        WalkingDistance::estimate(self, state)
    }
}

/// Expansions between two looks at the clock.
const CLOCK_EVERY: u64 = 4096;

/// An optimal MTM solution from `start` to the estimate's goal, within `limits` (nodes, time,
/// and the observer, told every few thousand expansions, which may stop it; one thread). The solution's moves are single-cell moves; its MTM length is
/// [`Metric::Mtm`](crate::metric::Metric::Mtm)`.length` of them. Where the estimate is a
/// colouring database alone ([`Estimate::packed`]) the same search runs on packed boards
/// ([`super::packed`]): the same nodes, at about half the time a node.
pub fn ida_star<E: Estimate + ?Sized>(start: &State, h: &E, limits: &Limits) -> SearchResult {
    if let Some(packed) = h.packed() {
        if start.board() == h.goal().board() {
            return super::packed::ida_star(start, h.goal(), packed, limits);
        }
    }
    let began = Instant::now();
    let goal = *h.goal();
    let mut search = Ida {
        h,
        goal,
        limits,
        began,
        expanded: 0,
        generated: 0,
        path: Vec::new(),
        stopped: None,
        bound: 0,
    };
    let outcome = if start.board() != goal.board() || !start.can_reach(&goal) {
        Outcome::Unsolvable
    } else {
        let root_h = h.estimate(start);
        let found = iterate(root_h, |bound| {
            search.bound = bound;
            search.dfs(start, 0, bound, None)
        });
        if found {
            Outcome::Solved(spelled_out(start, &search.path))
        } else {
            Outcome::GaveUp(search.stopped.unwrap_or(Limit::Nodes))
        }
    };
    SearchResult {
        outcome,
        expanded: search.expanded,
        generated: search.generated,
        elapsed: began.elapsed(),
    }
}

/// How one depth-first pass within a bound ended.
pub(super) enum Step {
    Found,
    Stopped,
    /// Not found within the bound; the least estimate beyond it.
    Next(u32),
}

/// The IDA* iterations both MTM searches run (this module's and [`super::packed`]'s): a pass
/// per bound from `first`, each next bound the least estimate the pass saw beyond its own,
/// until a pass finds the goal (`true`) or stops at a limit (`false`).
pub(super) fn iterate(first: u32, mut pass: impl FnMut(u32) -> Step) -> bool {
    let mut bound = first;
    loop {
        match pass(bound) {
            Step::Found => return true,
            Step::Stopped => return false,
            Step::Next(next) => bound = next,
        }
    }
}

/// A found path of slides, (direction, cells slid), spelled out one cell at a time from
/// `start`.
pub(super) fn spelled_out(start: &State, slides: &[(Move, usize)]) -> Solution {
    let moves = slides
        .iter()
        .flat_map(|&(mv, cells)| std::iter::repeat_n(mv, cells))
        .collect();
    Solution::from_moves(*start, moves).expect("searched moves are legal")
}

struct Ida<'a, E: ?Sized> {
    h: &'a E,
    goal: State,
    limits: &'a Limits,
    began: Instant,
    expanded: u64,
    generated: u64,
    path: Vec<(Move, usize)>,
    stopped: Option<Limit>,
    /// The iteration's bound, for the observer.
    bound: u32,
}

fn horizontal(mv: Move) -> bool {
    matches!(mv, Move::Left | Move::Right)
}

/// The limit that stops a search begun at `began` with `expanded` nodes expanded in the
/// iteration of `bound`, if one does: the node limit at every call, the observer and the
/// clock every [`CLOCK_EVERY`] expansions.
pub(super) fn out_of_limits(
    limits: &Limits,
    began: Instant,
    expanded: u64,
    bound: u32,
) -> Option<Limit> {
    if limits.max_expanded.is_some_and(|max| expanded >= max) {
        return Some(Limit::Nodes);
    }
    if !expanded.is_multiple_of(CLOCK_EVERY) {
        return None;
    }
    let elapsed = began.elapsed();
    if let Some(observe) = limits.observer {
        let progress = Progress {
            expanded,
            bound: Some(bound),
            elapsed,
            subtrees: None,
        };
        if observe(&progress).is_break() {
            return Some(Limit::Stopped);
        }
    }
    if limits.max_time.is_some_and(|max| elapsed >= max) {
        return Some(Limit::Time);
    }
    None
}

impl<E: Estimate + ?Sized> Ida<'_, E> {
    fn out_of_limits(&mut self) -> bool {
        self.stopped = out_of_limits(self.limits, self.began, self.expanded, self.bound);
        self.stopped.is_some()
    }

    fn dfs(&mut self, state: &State, g: u32, bound: u32, last: Option<Move>) -> Step {
        let f = g + self.h.estimate(state);
        if f > bound {
            return Step::Next(f);
        }
        if *state == self.goal {
            return Step::Found;
        }
        if self.out_of_limits() {
            return Step::Stopped;
        }
        self.expanded += 1;
        let mut least = u32::MAX;
        for mv in Move::ALL {
            if last.is_some_and(|l| horizontal(l) == horizontal(mv)) {
                continue;
            }
            let mut next = *state;
            let mut cells = 0;
            while let Some(after) = next.apply(mv) {
                next = after;
                cells += 1;
                self.generated += 1;
                self.path.push((mv, cells));
                match self.dfs(&next, g + 1, bound, Some(mv)) {
                    Step::Found => return Step::Found,
                    Step::Stopped => return Step::Stopped,
                    Step::Next(f) => least = least.min(f),
                }
                self.path.pop();
            }
        }
        Step::Next(least)
    }
}
