//! The frontier split of parallel IDA*: the one place where an iteration's tree is cut into
//! subtrees, used both by the threads of [`Limits::threads`](super::Limits::threads) and by the
//! distributed tasks of the Python package (`npuzzle.distributed`).
//!
//! An iteration at bound `b` explores every path whose `g + h` stays within `b`. [`split`]
//! expands that tree level by level, exactly as the sequential search would (the same moves in
//! the same order, pruned by the same move automaton ([`MovePruner`]), the same pathmax), until a level
//! holds enough subtrees for balance. The subtrees come out in the order the sequential search
//! visits them, so the first solution in that order is the one the sequential search finds,
//! whatever the number of threads. [`search_below`] searches one subtree, given by the moves
//! that lead to it from the start: that is a task, (start, goal, prefix, bound), and it needs
//! nothing else.
//!
//! ```
//! use npuzzle::heuristic::{Heuristic, Manhattan};
//! use npuzzle::search::split::{search_below, split, Below};
//! use npuzzle::search::Limits;
//! use npuzzle::State;
//! let start: State = "867254301".parse()?;
//! let h = Manhattan::new(&"123456780".parse()?);
//! // The last iteration of IDA* on this pair (it needs 31 moves).
//! let frontier = split(&start, &h, 31, 64);
//! assert!(frontier.subtrees.len() >= 64);
//! let found = frontier
//!     .subtrees
//!     .iter()
//!     .filter_map(|s| match search_below(&start, &h, &s.moves, 31, Limits::default()).end {
//!         Below::Found(solution) => Some(solution.len()),
//!         _ => None,
//!     })
//!     .next();
//! assert_eq!(found, Some(31));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::checkpoint::min_next;
use super::in_place::{self, PassEnd, Unfinished};
use super::prune::{MovePruner, DEAD};
use super::{Budget, Limit, Limits};
use crate::board::Move;
use crate::heuristic::{Bounded, Heuristic};
use crate::solution::Solution;
use crate::state::State;

/// One subtree of an iteration: the node the moves lead to from the start.
#[derive(Clone, Debug)]
pub struct Subtree<N> {
    /// The moves from the start to the subtree's root.
    pub moves: Vec<Move>,
    /// The root's state.
    pub state: State,
    /// The heuristic's node at the root.
    pub node: N,
    /// The root's estimate, with pathmax along the moves (as the sequential search has it).
    pub h: u32,
    /// The state of the board's move-pruning automaton after the moves.
    pub automaton: u32,
}

/// An iteration's tree, cut at a frontier by [`split`].
#[derive(Clone, Debug)]
pub struct Frontier<N> {
    /// The subtrees within the bound, in the order the sequential search visits them.
    pub subtrees: Vec<Subtree<N>>,
    /// The smallest `g + h` beyond the bound met while splitting (a candidate for the next
    /// bound, with those the subtrees' searches return); `None` if none was.
    pub cut: Option<u32>,
    /// Nodes expanded while splitting (each is expanded once, here, not again below).
    pub expanded: u64,
    /// Nodes generated while splitting.
    pub generated: u64,
}

/// Cuts the tree of the IDA* iteration at `bound` from `start` into at least `at_least`
/// subtrees where it has that many (fewer where the whole tree is smaller), in the order the
/// sequential search visits them.
///
/// Deterministic: the same arguments give the same subtrees, which is what lets a checkpoint
/// name finished subtrees by their index, and lets a distributed task be named by its moves.
/// A start beyond the bound, or one that cannot reach the goal, gives no subtree.
pub fn split<H: Heuristic>(start: &State, h: &H, bound: u32, at_least: usize) -> Frontier<H::Node> {
    split_pruned(
        start,
        h,
        bound,
        at_least,
        &MovePruner::for_board(start.board()),
    )
}

/// [`split`] with the move-pruning automaton `prune` of `start`'s board: a resumed checkpoint
/// names the subtrees of the automaton it was split with ([`Checkpoint::automaton`]).
///
/// [`Checkpoint::automaton`]: super::checkpoint::Checkpoint::automaton
pub fn split_pruned<H: Heuristic>(
    start: &State,
    h: &H,
    bound: u32,
    at_least: usize,
    prune: &MovePruner,
) -> Frontier<H::Node> {
    let (node, root_h) = h.start(start.cells());
    let mut frontier = Frontier {
        subtrees: Vec::new(),
        cut: None,
        expanded: 0,
        generated: 0,
    };
    if root_h > bound {
        frontier.cut = Some(root_h);
        return frontier;
    }
    if !start.can_reach(h.goal()) {
        return frontier;
    }
    let mut level = vec![Subtree {
        moves: Vec::new(),
        state: *start,
        node,
        h: root_h,
        automaton: 0,
    }];
    // A tree within the bound is no deeper than the bound; the cap only guards against a
    // level made of goals alone (they are kept, never expanded).
    for _ in 0..=bound {
        if level.len() >= at_least.max(1) {
            break;
        }
        let mut next = Vec::with_capacity(level.len() * 3);
        let mut grew = false;
        for parent in level {
            if parent.h == 0 && parent.state == *h.goal() {
                // The sequential search stops here, before expanding: the subtree is the goal.
                next.push(parent);
                continue;
            }
            grew = true;
            frontier.expanded += 1;
            expand(&parent, h, prune, bound, &mut frontier, &mut next);
        }
        level = next;
        if !grew || level.is_empty() {
            break;
        }
    }
    frontier.subtrees = level;
    frontier
}

/// Appends `parent`'s children within `bound` to `next`, in the sequential search's order,
/// and notes the smallest `g + h` of those cut.
fn expand<H: Heuristic>(
    parent: &Subtree<H::Node>,
    h: &H,
    prune: &MovePruner,
    bound: u32,
    frontier: &mut Frontier<H::Node>,
    next: &mut Vec<Subtree<H::Node>>,
) {
    let g = u32::try_from(parent.moves.len()).expect("a path below any u32 bound");
    let limit = bound.saturating_sub(g + 1);
    let blank = parent.state.blank();
    for mv in Move::ALL {
        // `Move::ALL`'s order is the declaration order, the automaton's move index.
        let automaton = prune.step(parent.automaton, mv as u8);
        if automaton == DEAD {
            continue;
        }
        let Some(child) = parent.state.apply(mv) else {
            continue;
        };
        let target = child.blank();
        let tile = parent.state.cells()[target];
        frontier.generated += 1;
        match h.step_within(&parent.node, child.cells(), tile, target, blank, limit) {
            Bounded::Known(node, child_h) if g + 1 + child_h <= bound => {
                let mut moves = Vec::with_capacity(parent.moves.len() + 1);
                moves.extend_from_slice(&parent.moves);
                moves.push(mv);
                next.push(Subtree {
                    moves,
                    state: child,
                    node,
                    // Pathmax, as the sequential search (see `in_place`).
                    h: child_h.max(parent.h.saturating_sub(1)),
                    automaton,
                });
            }
            Bounded::Known(_, child_h) | Bounded::Beyond(child_h) => {
                let f = g + 1 + child_h;
                frontier.cut = min_next(frontier.cut, Some(f));
            }
        }
    }
}

/// Where the search of one subtree ended ([`search_below`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Below {
    /// A path from the start to the goal within the bound: the prefix, then the moves found
    /// below it. Optimal when the bound is the iteration's (no shorter path exists).
    Found(Solution),
    /// No goal within the bound below the prefix; the smallest `g + h` beyond the bound seen
    /// (`None` if nothing was cut: the subtree is exhausted for every bound).
    Beyond(Option<u32>),
    /// The prefix is not a path from the start (an illegal move), or not one the split gives
    /// (the move-pruning automaton refuses it), or the goal is on another board.
    NotASubtree,
    /// A limit was reached.
    GaveUp(Limit),
}

/// What [`search_below`] found and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BelowResult {
    /// How it ended.
    pub end: Below,
    /// Nodes expanded below the prefix (the prefix's own nodes are the split's).
    pub expanded: u64,
    /// Nodes generated below the prefix.
    pub generated: u64,
}

/// Searches the subtree that `prefix` leads to from `start`, within `bound` on `g + h`: one
/// distributed task. The prefix is replayed with the heuristic's own updates and pathmax, so
/// the estimates below it are the sequential search's.
///
/// A prefix node already beyond the bound ends the search with that value.
pub fn search_below<H: Heuristic>(
    start: &State,
    h: &H,
    prefix: &[Move],
    bound: u32,
    limits: Limits,
) -> BelowResult {
    let prune = MovePruner::for_board(start.board());
    search_below_pruned(start, h, prefix, bound, limits, &prune)
}

/// [`search_below`] with the move-pruning automaton `prune` of `start`'s board: the subtree
/// of a split made with it ([`split_pruned`]).
pub fn search_below_pruned<H: Heuristic>(
    start: &State,
    h: &H,
    prefix: &[Move],
    bound: u32,
    limits: Limits,
    prune: &MovePruner,
) -> BelowResult {
    let nothing = |end| BelowResult {
        end,
        expanded: 0,
        generated: 0,
    };
    if start.board() != h.goal().board() {
        return nothing(Below::NotASubtree);
    }
    let Some(root) = replay_pruned(start, h, prefix, prune) else {
        return nothing(Below::NotASubtree);
    };
    let f = u32::try_from(prefix.len()).expect("a path below any u32 bound") + root.h;
    if f > bound {
        return nothing(Below::Beyond(Some(f)));
    }
    let searched = search_subtree(start, h, &root, bound, Budget::new(limits), prune);
    BelowResult {
        end: searched.end,
        expanded: searched.expanded,
        generated: searched.generated,
    }
}

/// The subtree root that `prefix` leads to, with the estimates as the split computes them;
/// `None` for an illegal prefix or one the board's move-pruning automaton refuses (a move
/// straight back, or a string with a shorter or earlier equivalent).
pub fn replay<H: Heuristic>(start: &State, h: &H, prefix: &[Move]) -> Option<Subtree<H::Node>> {
    replay_pruned(start, h, prefix, &MovePruner::for_board(start.board()))
}

/// [`replay`] with the move-pruning automaton `prune` of `start`'s board.
pub(crate) fn replay_pruned<H: Heuristic>(
    start: &State,
    h: &H,
    prefix: &[Move],
    prune: &MovePruner,
) -> Option<Subtree<H::Node>> {
    let (mut node, mut estimate) = h.start(start.cells());
    let mut state = *start;
    let mut automaton = 0;
    for &mv in prefix {
        automaton = prune.step(automaton, mv as u8);
        if automaton == DEAD {
            return None;
        }
        let child = state.apply(mv)?;
        let target = child.blank();
        let tile = state.cells()[target];
        let (next, child_h) = h.step(&node, child.cells(), tile, target, state.blank());
        estimate = child_h.max(estimate.saturating_sub(1));
        node = next;
        state = child;
    }
    Some(Subtree {
        moves: prefix.to_vec(),
        state,
        node,
        h: estimate,
        automaton,
    })
}

/// How [`search_subtree`] ended and what it cost.
pub(crate) struct SubtreeEnd {
    /// How it ended.
    pub(crate) end: Below,
    /// Nodes expanded below the root.
    pub(crate) expanded: u64,
    /// Nodes generated below the root.
    pub(crate) generated: u64,
    /// Expansions not yet told to the budget's watch.
    pub(crate) untold: u64,
    /// Where it was stopped ([`Below::GaveUp`]): the trees left, by their moves from the
    /// start (the root's moves first), and the smallest value beyond the bound seen so far.
    pub(crate) unfinished: Option<Unfinished>,
}

/// Searches below `root` within `bound` with `budget` and the automaton `prune` that made
/// `root`: shared by the threads and the tasks.
pub(crate) fn search_subtree<H: Heuristic>(
    start: &State,
    h: &H,
    root: &Subtree<H::Node>,
    bound: u32,
    budget: Budget,
    prune: &MovePruner,
) -> SubtreeEnd {
    let (end, expanded, generated, untold) = in_place::pass(
        &root.state,
        h,
        &root.node,
        root.h,
        u32::try_from(root.moves.len()).expect("a path below any u32 bound"),
        prune,
        root.automaton,
        bound,
        budget,
    );
    let (end, unfinished) = below(start, root, end);
    SubtreeEnd {
        end,
        expanded,
        generated,
        untold,
        unfinished,
    }
}

/// The pass's end as a [`Below`], the prefix joined to the moves found, and where it was
/// stopped, the prefix joined to each tree left.
fn below<N>(start: &State, root: &Subtree<N>, end: PassEnd) -> (Below, Option<Unfinished>) {
    let joined = |moves: Vec<Move>| {
        let mut path = root.moves.clone();
        path.extend(moves);
        path
    };
    match end {
        PassEnd::Found(moves) => {
            let path = joined(moves);
            let solution = Solution::from_moves(*start, path).expect("moves searched are legal");
            (Below::Found(solution), None)
        }
        PassEnd::Next(next) => (Below::Beyond(next), None),
        PassEnd::Stopped(limit, unfinished) => {
            let left = unfinished.left.into_iter().map(joined).collect();
            let unfinished = Unfinished {
                left,
                next: unfinished.next,
            };
            (Below::GaveUp(limit), Some(unfinished))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::{LinearConflict, Manhattan};
    use crate::search::{idastar, Limits};

    /// The split's subtrees, searched in order, find the sequential search's path, and the
    /// nodes add up to its count in the last iteration.
    #[test]
    fn subtrees_in_order_give_the_sequential_path() {
        let goal: State = "123456780".parse().unwrap();
        let h = LinearConflict::new(&goal);
        for text in ["867254301", "647850321", "123456708", "123456780"] {
            let start: State = text.parse().unwrap();
            let alone = idastar(&start, &h, Limits::default());
            let solution = alone.solution().unwrap().clone();
            let bound = u32::try_from(solution.len()).unwrap();
            for at_least in [1, 2, 7, 100] {
                let frontier = split(&start, &h, bound, at_least);
                let first = frontier.subtrees.iter().find_map(|s| {
                    match search_below(&start, &h, &s.moves, bound, Limits::default()).end {
                        Below::Found(found) => Some(found),
                        _ => None,
                    }
                });
                assert_eq!(first.as_ref(), Some(&solution), "{text} at {at_least}");
            }
        }
    }

    /// Below the last bound, no subtree finds a path, and the smallest value beyond the bound
    /// over the split and the subtrees is the next bound the sequential search uses (its
    /// iterations' bounds never skip the optimal length).
    #[test]
    fn below_the_answer_every_subtree_comes_back_empty() {
        let goal: State = "123456780".parse().unwrap();
        let h = Manhattan::new(&goal);
        let start: State = "867254301".parse().unwrap();
        let frontier = split(&start, &h, 29, 50);
        let mut next = frontier.cut;
        for s in &frontier.subtrees {
            let result = search_below(&start, &h, &s.moves, 29, Limits::default());
            match result.end {
                Below::Beyond(beyond) => next = min_next(next, beyond),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(next, Some(31));
    }

    #[test]
    fn a_prefix_that_is_not_a_path_is_refused() {
        let goal: State = "123456780".parse().unwrap();
        let h = Manhattan::new(&goal);
        let start: State = "123456780".parse().unwrap();
        let result = search_below(&start, &h, &[Move::Down], 40, Limits::default());
        assert_eq!(result.end, Below::NotASubtree);
        let result = search_below(&start, &h, &[Move::Up, Move::Down], 40, Limits::default());
        assert_eq!(result.end, Below::NotASubtree);
    }
}
