//! IDA* (Korf, 1985): depth-first search bounded by `g + h`, the bound raised to the smallest
//! value that exceeded it until the goal is reached. Optimal with an admissible heuristic, and
//! its memory is the current path only, so it is the fallback for boards too large for A*.
//! With linear conflict it solves typical random 15-puzzle instances in seconds; with the
//! additive pattern databases ([`crate::heuristic::PatternHeuristic`]) it solves all of Korf's
//! 100 and the easier 24-puzzles.
//!
//! The state is changed in place and the heuristic updated per move (see
//! [`Heuristic::update`]); no node allocates.

use super::prune::MovePruner;
use super::{in_place, Limits, SearchResult};
use crate::guarantee::Factor;
use crate::heuristic::Heuristic;
use crate::state::State;

/// Finds an optimal path from `start` to the heuristic's goal.
///
/// Returns [`Outcome::Unsolvable`](super::Outcome::Unsolvable) without searching when the pair
/// cannot be solved, and [`Outcome::GaveUp`](super::Outcome::GaveUp) when `limits` are reached.
pub fn idastar<H: Heuristic>(start: &State, h: &H, limits: Limits) -> SearchResult {
    in_place::search(start, h, limits)
}

/// [`idastar`] with another move-pruning automaton than the board's (built by
/// [`MovePruner::generate`]; with strings of at most 2 moves it refuses only the moves straight
/// back, as IDA* did before the automaton), to measure what the automaton saves. Any board's
/// automaton is sound on any board: a refused string's replacement stays inside its box.
pub fn idastar_with_pruner<H: Heuristic>(
    start: &State,
    h: &H,
    limits: Limits,
    prune: &MovePruner,
) -> SearchResult {
    in_place::search_pruned(start, h, limits, prune)
}

/// Weighted IDA*: iterative deepening on `g + w * h` with `w = factor`, so that the path is
/// at most `factor` times the optimum whenever `h` is admissible (the argument is beside the
/// engine, `in_place::search_weighted`). Larger factors cut far more of the tree: the
/// bounded-suboptimal answer of [`crate::How::with_guarantee`]`(`[`Guarantee::Within`]`)`.
///
/// ```
/// use npuzzle::heuristic::LinearConflict;
/// use npuzzle::search::weighted_idastar;
/// use npuzzle::{Factor, Limits, State};
///
/// let start: State = "8 6 7 2 5 4 3 0 1".parse()?;
/// let goal = State::goal(start.board());
/// let factor: Factor = "1.5".parse()?;
/// let result = weighted_idastar(&start, &LinearConflict::new(&goal), factor, Limits::NONE);
/// assert!(result.solution().unwrap().len() <= 46); // 31 is optimal: at most 1.5 x 31
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// [`Guarantee::Within`]: crate::Guarantee::Within
pub fn weighted_idastar<H: Heuristic>(
    start: &State,
    h: &H,
    factor: Factor,
    limits: Limits,
) -> SearchResult {
    let prune = MovePruner::for_board(start.board());
    let (num, den) = factor.ratio();
    in_place::search_weighted(start, h, limits, &prune, Some((num, den)))
}
