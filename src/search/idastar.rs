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

/// What [`bounded_idastar`] found, with the lower bound of the optimum it proved.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct BoundedResult {
    /// The search's outcome and counts.
    pub result: SearchResult,
    /// A proven lower bound of the optimum (0 for an unsolvable pair): where a path was
    /// found, its length is at most the factor times this bound, which is how the factor is
    /// guaranteed.
    pub lower_bound: u32,
}

/// Bounded-suboptimal search: a path at most `factor` times the optimum (with `h`
/// admissible), found by probes of weighted IDA* (weighted a little over the factor) within
/// `factor` times a proven lower bound of the optimum, the bound raised by plain IDA*
/// passes between them; after a million expansions, also by a fast path shortened
/// ([`shorten`](super::shorten)) and accepted once the bound reaches its length over the
/// factor (the argument is beside the engine, `in_place::search_bounded`). With
/// [`Limits::threads`] of 2 or more (and not [`Limits::deterministic`]) it runs on two
/// threads, one raising the bound and one looking for paths (`pair::search_bounded_pair`):
/// the same guarantee, but which path comes back then depends on the threads' timing. The
/// answer of [`crate::How::with_guarantee`]`(`[`Guarantee::Within`]`)`: where
/// [`weighted_idastar`] raises its bound a fraction of a move at a time and so runs many
/// passes of nearly the same size, this runs one per two moves of the bound.
///
/// ```
/// use npuzzle::heuristic::LinearConflict;
/// use npuzzle::search::bounded_idastar;
/// use npuzzle::{Factor, Limits, State};
///
/// let start: State = "8 6 7 2 5 4 3 0 1".parse()?;
/// let goal = State::goal(start.board());
/// let factor: Factor = "1.2".parse()?;
/// let found = bounded_idastar(&start, &LinearConflict::new(&goal), factor, Limits::NONE);
/// let length = found.result.solution().unwrap().len();
/// // 31 moves is optimal: the proven bound is at most that, the length at most 1.2 x it.
/// assert!(found.lower_bound <= 31 && factor.allows(length, found.lower_bound as usize));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// [`Guarantee::Within`]: crate::Guarantee::Within
pub fn bounded_idastar<H: Heuristic + Sync>(
    start: &State,
    h: &H,
    factor: Factor,
    limits: Limits,
) -> BoundedResult {
    let prune = MovePruner::for_board(start.board());
    let search = if limits.threads > 1 && !limits.deterministic {
        super::pair::search_bounded_pair
    } else {
        in_place::search_bounded
    };
    let (result, lower_bound) = search(
        start,
        h,
        limits,
        &prune,
        factor.ratio(),
        in_place::INCUMBENT_AFTER,
    );
    BoundedResult {
        result,
        lower_bound,
    }
}

/// Weighted IDA*: iterative deepening on `g + w * h` with `w = factor`, so that the path is
/// at most `factor` times the optimum whenever `h` is admissible (the argument is beside the
/// engine, `in_place::search_weighted`). Larger factors cut far more of the tree. The
/// answer layer's bounded search is [`bounded_idastar`], which gets there in fewer passes;
/// this one stays as its baseline.
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
