//! A lower bound on the distance, known without a table or a search: what a shell shows when
//! a search gave up (the terminal game, the web page), labelled as a bound.

use crate::heuristic::{Heuristic, LinearConflict};
use crate::state::State;

/// The best lower bound on the moves from `start` to `goal` that costs no search: the linear
/// conflict estimate, the strongest admissible heuristic npuzzle offers (at least Manhattan
/// distance). `None` when `start` cannot reach `goal` or the boards differ.
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
