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

use super::walking::WalkingDistance;

/// An admissible MTM estimate towards one goal: never above the MTM distance.
pub trait Estimate: Sync {
    /// The goal estimated towards.
    fn goal(&self) -> &State;
    /// A lower bound on the MTM distance from `state` to [`Estimate::goal`].
    fn estimate(&self, state: &State) -> u32;
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
/// [`Metric::Mtm`](crate::metric::Metric::Mtm)`.length` of them.
pub fn ida_star<E: Estimate + ?Sized>(start: &State, h: &E, limits: &Limits) -> SearchResult {
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
        let mut bound = h.estimate(start);
        loop {
            search.bound = bound;
            match search.dfs(start, 0, bound, None) {
                Step::Found => {
                    let moves = search
                        .path
                        .iter()
                        .flat_map(|&(mv, cells)| std::iter::repeat_n(mv, cells))
                        .collect();
                    break Outcome::Solved(
                        Solution::from_moves(*start, moves).expect("searched moves are legal"),
                    );
                }
                Step::Stopped => break Outcome::GaveUp(search.stopped.unwrap_or(Limit::Nodes)),
                Step::Next(next) => bound = next,
            }
        }
    };
    SearchResult {
        outcome,
        expanded: search.expanded,
        generated: search.generated,
        elapsed: began.elapsed(),
    }
}

enum Step {
    Found,
    Stopped,
    /// Not found within the bound; the least estimate beyond it.
    Next(u32),
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

impl<E: Estimate + ?Sized> Ida<'_, E> {
    fn out_of_limits(&mut self) -> bool {
        if self
            .limits
            .max_expanded
            .is_some_and(|max| self.expanded >= max)
        {
            self.stopped = Some(Limit::Nodes);
            return true;
        }
        if !self.expanded.is_multiple_of(CLOCK_EVERY) {
            return false;
        }
        let elapsed = self.began.elapsed();
        if let Some(observe) = self.limits.observer {
            let progress = Progress {
                expanded: self.expanded,
                bound: Some(self.bound),
                elapsed,
                subtrees: None,
            };
            if observe(&progress).is_break() {
                self.stopped = Some(Limit::Stopped);
                return true;
            }
        }
        if self.limits.max_time.is_some_and(|max| elapsed >= max) {
            self.stopped = Some(Limit::Time);
            return true;
        }
        false
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
