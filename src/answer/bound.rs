//! A lower bound on the distance, known without a table, a search or a pattern database: the
//! floor under [`crate::Oracle::lower_bound`], which maxes it with the databases the oracle
//! holds. A shell shows the oracle's bound when a search gave up (the terminal game, the web
//! page), labelled as a bound.

use crate::heuristic::{Heuristic, LinearConflict};
use crate::state::State;

/// The best lower bound on the moves from `start` to `goal` that needs neither a search nor
/// a pattern database: the linear conflict estimate (at least Manhattan distance). Where
/// databases may be held, ask [`crate::Oracle::lower_bound`], which is never lower. `None`
/// when `start` cannot reach `goal` or the boards differ.
///
/// ```
/// use npuzzle::answer::lower_bound;
/// use npuzzle::State;
/// let start: State = "867254301".parse()?;
/// let bound = lower_bound(&start, &State::goal(start.board())).expect("solvable");
/// assert!(bound <= 31);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn lower_bound(start: &State, goal: &State) -> Option<u32> {
    (start.board() == goal.board() && start.can_reach(goal))
        .then(|| LinearConflict::new(goal).estimate(start))
}
