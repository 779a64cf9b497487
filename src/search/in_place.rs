//! The depth-first engine shared by IDA* and iterative deepening: one state changed in place,
//! the heuristic updated incrementally, and the path kept on a preallocated stack, so that no
//! node allocates.
//!
//! Each iteration explores every path whose `g + h` stays within a bound; the next bound is the
//! smallest `g + h` that exceeded it. With a zero heuristic this is exactly iterative deepening
//! (the bound grows by one each time). Moves are pruned by the board's automaton
//! ([`MovePruner`]): never the move straight back, nor one that completes a string with a
//! shorter or earlier equivalent.

use super::prune::{MovePruner, DEAD};
use super::{unsolvable, Budget, Limit, Limits, Outcome, SearchResult};
use crate::board::{Move, MAX_CELLS};
use crate::heuristic::{Bounded, Heuristic};
use crate::solution::Solution;
use crate::state::{State, BLANK};

/// Returned up the recursion when the goal was reached.
const FOUND: u32 = u32::MAX;
/// Returned up the recursion when a limit was reached.
const STOPPED: u32 = u32::MAX - 1;
/// The moves of the blank from each cell: (move index in [`Move::ALL`], target cell).
struct Neighbours {
    steps: [[(u8, u8); 4]; MAX_CELLS],
    count: [u8; MAX_CELLS],
}

struct Engine<'h, H> {
    h: &'h H,
    prune: &'h MovePruner,
    goal: [u8; MAX_CELLS],
    cells: [u8; MAX_CELLS],
    n: usize,
    blank: usize,
    neighbours: Neighbours,
    path: Vec<Move>,
    expanded: u64,
    generated: u64,
    budget: Budget,
    stopped: Option<Limit>,
    /// The weight `num / den` of weighted IDA*: a node's cost is `den * g + num * h`, the
    /// bounds are in those units. `(1, 1)` is plain IDA*.
    num: u32,
    den: u32,
}

/// Where one bounded pass below a node ended ([`pass`]).
pub(crate) enum PassEnd {
    /// The goal, by these moves from the node.
    Found(Vec<Move>),
    /// No goal within the bound; the smallest `g + h` beyond it, `None` if nothing was cut.
    Next(Option<u32>),
    /// The budget stopped it.
    Stopped(Limit),
}

/// One depth-first pass, within `bound`, below `root` (reached in `g` moves that leave
/// `prune`'s automaton in state `moves`, with the heuristic's `node` and estimate `root_h`):
/// the subtree search of parallel IDA* ([`super::split`]). Returns the end, the nodes expanded and generated, and the
/// expansions not yet told to the budget's watch.
#[allow(clippy::too_many_arguments)] // One node of the search, given whole.
pub(crate) fn pass<H: Heuristic>(
    root: &State,
    h: &H,
    node: &H::Node,
    root_h: u32,
    g: u32,
    prune: &MovePruner,
    moves: u32,
    bound: u32,
    budget: Budget,
) -> (PassEnd, u64, u64, u64) {
    let mut engine = Engine::new(root, h, prune, budget);
    let end = match engine.dfs(g, node, root_h, bound, moves) {
        FOUND => PassEnd::Found(engine.path.clone()),
        STOPPED => PassEnd::Stopped(engine.stopped.expect("set when stopping")),
        next => PassEnd::Next((next < NOTHING_CUT).then_some(next)),
    };
    let untold = engine.budget.untold(engine.expanded);
    (end, engine.expanded, engine.generated, untold)
}

/// What [`Engine::dfs`] returns when nothing beyond the bound was seen.
const NOTHING_CUT: u32 = u32::MAX - 2;

/// Runs iterative deepening on `g + h` from `start` to `h`'s goal, pruning moves with the
/// board's automaton.
pub(crate) fn search<H: Heuristic>(start: &State, h: &H, limits: Limits) -> SearchResult {
    let prune = MovePruner::for_board(start.board());
    search_pruned(start, h, limits, &prune)
}

/// [`search`] with the automaton `prune` (of `start`'s board).
pub(crate) fn search_pruned<H: Heuristic>(
    start: &State,
    h: &H,
    limits: Limits,
    prune: &MovePruner,
) -> SearchResult {
    search_weighted(start, h, limits, prune, None)
}

/// [`search_pruned`] on `den * g + num * h` for `weight = Some((num, den))` (weighted
/// IDA*, `num >= den`). With `h` admissible its path is at most `num / den` times the
/// optimum: an iteration that finds nothing has a bound below `num / den` times the optimum
/// (every node of an optimal path has `den * g + num * h <= num * (g + h) <= num * optimum`,
/// so the whole path would lie within it and be found), and the next bound is the cost of a
/// node cut on that path, so at most `num * optimum`; a goal found within a bound `b` has
/// `den * g <= b`.
pub(crate) fn search_weighted<H: Heuristic>(
    start: &State,
    h: &H,
    limits: Limits,
    prune: &MovePruner,
    weight: Option<(u32, u32)>,
) -> SearchResult {
    let goal_state = *h.goal();
    let budget = Budget::new(limits);
    if !start.can_reach(&goal_state) {
        return unsolvable(std::time::Instant::now());
    }
    let mut engine = Engine::new(start, h, prune, budget);
    let (root, root_h) = h.start(start.cells());
    let mut bound = root_h;
    if let Some((num, den)) = weight {
        engine.num = num;
        engine.den = den;
        bound = num * root_h;
    }
    loop {
        engine.budget.note_bound(bound);
        match engine.dfs(0, &root, root_h, bound, 0) {
            FOUND => {
                let solution = Solution::from_moves(*start, engine.path.clone())
                    .expect("moves found in place are legal");
                return engine.finish(Outcome::Solved(solution));
            }
            STOPPED => {
                let limit = engine.stopped.expect("set when stopping");
                return engine.finish(Outcome::GaveUp(limit));
            }
            next => bound = next,
        }
    }
}

impl<'h, H: Heuristic> Engine<'h, H> {
    /// An engine at `start`, with an empty path and no nodes counted.
    fn new(start: &State, h: &'h H, prune: &'h MovePruner, budget: Budget) -> Engine<'h, H> {
        let goal_state = *h.goal();
        let board = start.board();
        let mut neighbours = Neighbours {
            steps: [[(0, 0); 4]; MAX_CELLS],
            count: [0; MAX_CELLS],
        };
        for cell in 0..board.cells() {
            for (i, mv) in Move::ALL.into_iter().enumerate() {
                if let Some(to) = board.step(cell, mv) {
                    let k = neighbours.count[cell] as usize;
                    neighbours.steps[cell][k] = (
                        u8::try_from(i).expect("four moves"),
                        u8::try_from(to).expect("a board has at most 25 cells"),
                    );
                    neighbours.count[cell] += 1;
                }
            }
        }
        let mut goal = [0u8; MAX_CELLS];
        goal[..board.cells()].copy_from_slice(goal_state.cells());
        let mut cells = [0u8; MAX_CELLS];
        cells[..board.cells()].copy_from_slice(start.cells());
        Engine {
            h,
            prune,
            goal,
            cells,
            n: board.cells(),
            blank: start.blank(),
            neighbours,
            // Longer than any optimal path on boards up to 5x5 (the 24-puzzle needs at most 208).
            path: Vec::with_capacity(256),
            expanded: 0,
            generated: 0,
            budget,
            stopped: None,
            num: 1,
            den: 1,
        }
    }

    fn finish(&self, outcome: Outcome) -> SearchResult {
        self.budget.finish(outcome, self.expanded, self.generated)
    }

    /// Explores below the current state (reached in `g` moves, heuristic node `node`, estimate
    /// `h`, automaton state `moves`); returns [`FOUND`], [`STOPPED`], or the smallest `g + h`
    /// beyond `bound` seen. The nodes of the path live in the recursion's frames, one per
    /// depth: no allocation.
    fn dfs(&mut self, g: u32, node: &H::Node, h: u32, bound: u32, moves: u32) -> u32 {
        let f = self.den * g + self.num * h;
        if f > bound {
            return f;
        }
        // Every heuristic offered is 0 only at the goal, so the comparison runs rarely; the
        // blind one of iterative deepening compares at every node, which is what it costs.
        if h == 0 && self.cells[..self.n] == self.goal[..self.n] {
            return FOUND;
        }
        if let Some(limit) = self.budget.exhausted(self.expanded) {
            self.stopped = Some(limit);
            return STOPPED;
        }
        self.expanded += 1;
        let mut next_bound = NOTHING_CUT;
        let blank = self.blank;
        let count = self.neighbours.count[blank] as usize;
        // Every child's estimate first, then the searches below them: the children's table
        // reads (pattern databases: two random reads each, in tables of up to 260 MB) do not
        // depend on each other, so the processor overlaps their cache misses instead of
        // waiting for each in turn. A child over the bound is then skipped without a call.
        // A child is cut when its estimate exceeds this; the heuristic may stop computing
        // as soon as it knows that (`step_within`), and then gives a lower bound, which is
        // all the next bound needs.
        let (num, den) = (self.num, self.den);
        let limit = bound.saturating_sub(den * (g + 1)) / num;
        let mut children = [None; 4];
        for (k, slot) in children.iter_mut().enumerate().take(count) {
            let (mv, target) = self.neighbours.steps[blank][k];
            let after = self.prune.step(moves, mv);
            if after == DEAD {
                continue;
            }
            let target = target as usize;
            let tile = self.cells[target];
            self.cells[blank] = tile;
            self.cells[target] = BLANK;
            let child = self
                .h
                .step_within(node, &self.cells[..self.n], tile, target, blank, limit);
            self.cells[target] = tile;
            self.cells[blank] = BLANK;
            self.generated += 1;
            match child {
                // Pathmax: a child is at most one move closer than its parent, so the
                // parent's bound less one is one for the child too. A no-op for consistent
                // heuristics; pattern databases (minimum over the blank's positions) are only
                // admissible.
                Bounded::Known(child, child_h) if den * (g + 1) + num * child_h <= bound => {
                    *slot = Some((
                        mv,
                        target,
                        tile,
                        child,
                        child_h.max(h.saturating_sub(1)),
                        after,
                    ));
                }
                Bounded::Known(_, child_h) | Bounded::Beyond(child_h) => {
                    next_bound = next_bound.min(den * (g + 1) + num * child_h);
                }
            }
        }
        // By reference: moving the array out would copy every child's node again.
        for &(mv, target, tile, ref child, child_h, after) in children.iter().flatten() {
            self.cells[blank] = tile;
            self.cells[target] = BLANK;
            self.blank = target;
            self.path.push(Move::ALL[mv as usize]);
            let result = self.dfs(g + 1, child, child_h, bound, after);
            if result == FOUND || result == STOPPED {
                return result;
            }
            self.path.pop();
            self.cells[target] = tile;
            self.cells[blank] = BLANK;
            self.blank = blank;
            next_bound = next_bound.min(result);
        }
        next_bound
    }
}
