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
use super::shorten::{moves_of, Shortener};
use super::{unsolvable, Budget, Limit, Limits, Outcome, SearchResult};
use crate::board::{Move, MAX_CELLS};
use crate::heuristic::{Bounded, Heuristic};
use crate::solution::Solution;
use crate::state::{State, BLANK};

/// Returned up the recursion when the goal was reached.
pub(super) const FOUND: u32 = u32::MAX;
/// Returned up the recursion when a limit was reached.
pub(super) const STOPPED: u32 = u32::MAX - 1;
/// The moves of the blank from each cell: (move index in [`Move::ALL`], target cell).
struct Neighbours {
    steps: [[(u8, u8); 4]; MAX_CELLS],
    count: [u8; MAX_CELLS],
}

pub(super) struct Engine<'h, H> {
    h: &'h H,
    prune: &'h MovePruner,
    goal: [u8; MAX_CELLS],
    cells: [u8; MAX_CELLS],
    n: usize,
    blank: usize,
    neighbours: Neighbours,
    pub(super) path: Vec<Move>,
    pub(super) expanded: u64,
    pub(super) generated: u64,
    budget: Budget,
    pub(super) stopped: Option<Limit>,
    /// The weight `num / den` of weighted IDA*: a node's cost is `den * g + num * h`, the
    /// bounds are in those units. `(1, 1)` is plain IDA*.
    pub(super) num: u32,
    pub(super) den: u32,
    /// A probe ([`Engine::dfs`] with `PROBE`) ends (returns [`STOPPED`] with `stopped` unset)
    /// once `expanded` reaches this: the bounded search's allowance for it.
    pass_end: u64,
    /// Whether the heuristic asks for the prefetch pass ([`Heuristic::prefetches`]).
    prefetch: bool,
    /// What each frame had left when a stop ([`STOPPED`]) went up through it, deepest first:
    /// written only on the way up from a stop, so that a stopped pass can say which trees
    /// remain ([`Unfinished`]).
    unwound: Vec<Unwound>,
}

/// One frame of [`Engine::dfs`] that a stop went up through.
struct Unwound {
    /// The frame's depth, `g`.
    g: u32,
    /// Its children within the bound not yet searched, in the order it would have searched
    /// them (indices in [`Move::ALL`]).
    rest: Vec<u8>,
    /// The smallest `g + h` beyond the bound seen by the part of it done.
    next: u32,
}

/// What is left of a pass that a limit stopped ([`PassEnd::Stopped`]): searching the trees
/// below `left`, in order, at the same bound, finishes it exactly as the pass would have,
/// with the same nodes (the node it stopped at had not been expanded; the trees after it had
/// been generated, not searched). A checkpoint keeps it, so that a stopped search resumes
/// inside a subtree rather than at its start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unfinished {
    /// The moves from the pass's root to the root of each tree left, in the pass's order.
    pub(crate) left: Vec<Vec<Move>>,
    /// The smallest `g + h` beyond the bound seen by the part done.
    pub(crate) next: Option<u32>,
}

/// Where one bounded pass below a node ended ([`pass`]).
pub(crate) enum PassEnd {
    /// The goal, by these moves from the node.
    Found(Vec<Move>),
    /// No goal within the bound; the smallest `g + h` beyond it, `None` if nothing was cut.
    Next(Option<u32>),
    /// The budget stopped it; what is left of it.
    Stopped(Limit, Unfinished),
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
    let end = match engine.dfs::<false>(g, node, root_h, bound, moves) {
        FOUND => PassEnd::Found(engine.path.clone()),
        STOPPED => PassEnd::Stopped(
            engine.stopped.expect("set when stopping"),
            engine.unfinished(g),
        ),
        next => PassEnd::Next((next < NOTHING_CUT).then_some(next)),
    };
    let untold = engine.budget.untold(engine.expanded);
    (end, engine.expanded, engine.generated, untold)
}

/// What [`Engine::dfs`] returns when nothing beyond the bound was seen.
pub(super) const NOTHING_CUT: u32 = u32::MAX - 2;

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
        match engine.dfs::<false>(0, &root, root_h, bound, 0) {
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

/// The moves of a shortest path from `start` to `h`'s goal, if one has at most `max_len`
/// moves: IDA* passes, none with a bound over `max_len`, and at most `cap` expansions in all.
/// Also returns the expansions spent. `None` when there is no path that short, or when `cap`
/// ran out first: the path shortener's question ([`super::shorten`]), where a window of a path
/// is replaced only by one proven shorter and a window too costly to settle is left as it is.
pub(crate) fn shortest_within<H: Heuristic>(
    start: &State,
    h: &H,
    prune: &MovePruner,
    max_len: u32,
    cap: u64,
) -> (Option<Vec<Move>>, u64) {
    let mut engine = Engine::new(start, h, prune, Budget::new(Limits::NONE.nodes(cap)));
    let (root, root_h) = h.start(start.cells());
    let mut bound = root_h;
    while bound <= max_len {
        match engine.dfs::<false>(0, &root, root_h, bound, 0) {
            FOUND => return (Some(engine.path.clone()), engine.expanded),
            next if next < NOTHING_CUT => bound = next,
            _ => break,
        }
    }
    (None, engine.expanded)
}

/// A probe's smallest allowance of expansions (a millisecond or two with pattern databases).
const PROBE_FLOOR: u64 = 10_000;
/// A probe's allowance, in expansions of every pass before it. Measured on Korf and
/// Felner's fifty at w = 1.2 with a second of CPU each (BENCHMARKS.md, "Fast solutions"):
/// 1 finished 17, 4 finished 25, 16 finished 21.
const PROBE_SHARE: u64 = 4;
/// Once the search has expanded this many nodes without a path, it finds one fast (a pass
/// weighted [`fast_weight`]) and shortens it ([`Shortener`]): that path is kept, and
/// accepted as soon as the proven bound reaches its length over the factor.
pub(crate) const INCUMBENT_AFTER: u64 = 1_000_000;
/// The weights `(num, den)` the fast pass that gives the path to shorten may take, lightest
/// first ([`fast_weight`]).
const FAST_WEIGHTS: [(u32, u32); 3] = [(5, 4), (4, 3), (3, 2)];

/// The weight of the fast pass for the factor `num / den`: the lightest of [`FAST_WEIGHTS`]
/// at least an eighth above the factor, 3/2 where none is (5/4 for 1.1, 4/3 for 1.2, 3/2 for
/// 1.5). A lighter pass takes longer but gives a shorter path, which the proven bound
/// accepts sooner: the fast path is what most answers wait for, and its length decides how
/// many proof passes they wait for too. Measured on 50 uniform random 5x5s with two threads
/// (BENCHMARKS.md, "The fast path's weight"): at w = 1.2, 4/3 took 0.49 of the time of 3/2
/// (geometric mean per state, two runs), 7/5 0.53, 11/8 0.65, 13/10 1.36 and 5/4 2.4; at
/// w = 1.1, 5/4 0.55 of 3/2; at w = 1.5, 4/3 3.0 and 2 1.5 times 3/2, 5/3 no better.
pub(super) fn fast_weight((num, den): (u32, u32)) -> (u32, u32) {
    // fn / fd >= num / den + 1 / 8, in integers: 8 * fn * den >= (8 * num + den) * fd.
    FAST_WEIGHTS
        .into_iter()
        .find(|&(fn_, fd)| {
            8 * u64::from(fn_) * u64::from(den)
                >= (8 * u64::from(num) + u64::from(den)) * u64::from(fd)
        })
        .unwrap_or(FAST_WEIGHTS[FAST_WEIGHTS.len() - 1])
}
/// The window sizes of the shortening sweeps, in order, and the most one window's search may
/// expand: sweeps of these took the fast paths from 1.16 to 1.13 times the optimum (mean of
/// the fifty, 50-200 ms each).
const WINDOWS: [usize; 5] = [16, 24, 32, 40, 48];
const WINDOW_CAP: u64 = 200_000;

/// The probes' weight `(pn, pd)` for the factor `num / den` at the proven bound `lower`,
/// from a start estimated `root_h`: `(5 w - 1) / 4`, a quarter of the slack heavier than the
/// factor (1.25 for 1.2), but never so heavy that the start lies beyond the probe's bound
/// (`w * lower / root_h` at most, so the factor itself while `lower` is the start's
/// estimate). Measured on Korf and Felner's fifty with a CPU-time limit per instance
/// (BENCHMARKS.md, "Fast solutions", branch b28): at w = 1.2 with a second each, probes
/// weighted 1.2, 1.25, 1.3, 1.35 finished 27, 32, 28 and 4 of the fifty (medians 870, 655,
/// 788 ms and over the limit); weights below the factor (a cut nearer the admissible
/// `g + h`) fewer (1.1: 4, 1.0: 1, with half a second). At w = 1.5, `(5 w - 1) / 4` alone
/// (1.625) cut the start until `lower` had grown by 8% and doubled the median time; hence the
/// cap.
pub(super) fn probe_weight((num, den): (u32, u32), lower: u32, root_h: u32) -> (u32, u32) {
    let (pn, pd) = (5 * num - den, 4 * den);
    // pn / pd > num * lower / (den * root_h), in integers.
    if u64::from(pn) * u64::from(den) * u64::from(root_h)
        > u64::from(num) * u64::from(lower) * u64::from(pd)
    {
        let (a, b) = (num * lower, den * root_h);
        let mut gcd = (a, b);
        while gcd.1 != 0 {
            gcd = (gcd.1, gcd.0 % gcd.1);
        }
        (a / gcd.0, b / gcd.0)
    } else {
        (pn, pd)
    }
}

/// Rounds a bound up to the parity of every solution's length from `start` to `goal`: each
/// move takes the blank to a cell of the other colour of a chessboard, so every solution's
/// length has the parity of the blank's distance to its goal cell.
pub(super) fn to_solution_parity(start: &State, goal: &State) -> impl Fn(u32) -> u32 + Copy {
    let width = start.board().width();
    let colour = move |cell: usize| (cell / width + cell % width) % 2;
    let parity = u32::from(colour(start.blank()) != colour(goal.blank()));
    move |bound: u32| bound + (bound + parity) % 2
}

/// Bounded-suboptimal search for the weight `num / den` (`num >= den`): a proven lower
/// bound `lower` of the optimum, raised by plain IDA* passes (proofs), and between them a
/// *probe*, a pass on `pd * g + pn * h` weighted a little more than the factor
/// ([`probe_weight`], `pn / pd`), within the cost `pd * (num / den) * lower`, that visits
/// the children smallest estimate first and stops at its first goal; and, once the search
/// has run `incumbent_after` expansions ([`INCUMBENT_AFTER`] for [`super::bounded_idastar`]),
/// a fast path shortened ([`Shortener`]), accepted
/// when its length is within the factor of `lower`. Returns the result and the last
/// `lower`: where a path was found, `optimum >= lower` and `length <= (num / den) * lower`,
/// so the path is within the factor.
///
/// Why each step holds, with `h` admissible:
/// - The first `lower` is the start's estimate, raised to the parity of every solution's
///   length (each move takes the blank to a cell of the other colour of a chessboard, so every
///   solution's length has the parity of the blank's distance to its goal cell).
/// - A goal found by a probe has `h = 0`, so `pd * length <= pd * (num / den) * lower`; one
///   found by a proof pass is optimal (IDA*); the shortened path is accepted only when
///   `den * length <= num * lower`.
/// - A proof pass at `lower` that finds nothing proves `optimum > lower`, and
///   `optimum >= next`, the smallest `g + h` it cut (IDA*'s argument: the first node cut on
///   an optimal path has `g + h` at most the optimum, and the passes only skip moves whose
///   effect a path they do try has too, [`MovePruner`]); the parity then makes it
///   `optimum >= lower + 2`.
/// - A probe weighted over the factor proves nothing (an optimal path may lie outside its
///   bound), so a proof pass follows it. With `w = 1` the probe is a plain pass and proves
///   what one does: every node of an optimal path has `g + h <= optimum`, so with
///   `optimum <= lower` the whole path would lie within its bound and be found.
///
/// A probe costs at most [`PROBE_SHARE`] times the expansions of every pass before it (or
/// [`PROBE_FLOOR`]), so the search's time is shared between looking for a path and proving
/// the bound that will accept it: each proof pass costs several times the last, and each
/// probe, with two more moves of slack, finds a path sooner. Weighted IDA*
/// ([`search_weighted`]) instead raises its bound to the smallest weighted cost cut, a
/// fraction of a move at a time, so it runs many full weighted passes of nearly the same
/// size; a weighted pass that finds nothing is far larger than the plain one that proves
/// the same bound.
pub(crate) fn search_bounded<H: Heuristic>(
    start: &State,
    h: &H,
    limits: Limits,
    prune: &MovePruner,
    (num, den): (u32, u32),
    incumbent_after: u64,
) -> (SearchResult, u32) {
    let goal_state = *h.goal();
    let budget = Budget::new(limits);
    if !start.can_reach(&goal_state) {
        return (unsolvable(std::time::Instant::now()), 0);
    }
    let mut engine = Engine::new(start, h, prune, budget);
    let (root, root_h) = h.start(start.cells());
    let to_parity = to_solution_parity(start, &goal_state);
    let mut lower = to_parity(root_h);
    // The shortened fast path, once there is one.
    let mut incumbent: Option<Vec<Move>> = None;
    let accepts = |length: usize, lower: u32| {
        u64::try_from(length).unwrap_or(u64::MAX) * u64::from(den)
            <= u64::from(num) * u64::from(lower)
    };
    loop {
        if let Some(moves) = incumbent.as_ref().filter(|m| accepts(m.len(), lower)) {
            engine.path.clone_from(moves);
            break;
        }
        engine.budget.note_bound(lower);
        let (pn, pd) = probe_weight((num, den), lower, root_h);
        (engine.num, engine.den) = (pn, pd);
        engine.pass_end = engine.expanded + (PROBE_SHARE * engine.expanded).max(PROBE_FLOOR);
        let cost = u64::from(pd) * u64::from(num) * u64::from(lower) / u64::from(den);
        let probe =
            engine.dfs::<true>(0, &root, root_h, u32::try_from(cost).unwrap_or(u32::MAX), 0);
        (engine.num, engine.den) = (1, 1);
        let proven = match probe {
            FOUND => break,
            STOPPED if engine.stopped.is_some() => break,
            // A probe weighted no more than the factor (only for w = 1) that ends within its
            // allowance proves what a proof pass would.
            next if next < NOTHING_CUT
                && u64::from(pn) * u64::from(den) <= u64::from(num) * u64::from(pd) =>
            {
                next.div_ceil(pn)
            }
            // Prove the next bound with a plain pass (IDA*'s).
            _ => match engine.reset(start).dfs::<false>(0, &root, root_h, lower, 0) {
                FOUND | STOPPED => break,
                next if next < NOTHING_CUT => next,
                _ => 0,
            },
        };
        lower = to_parity((lower + 1).max(proven));
        if incumbent.is_none() && engine.expanded >= incumbent_after {
            match fast_shortened(&mut engine, start, &root, root_h, fast_weight((num, den))) {
                Some(moves) => incumbent = Some(moves),
                None if engine.stopped.is_some() => break,
                None => {}
            }
        }
    }
    let outcome = match engine.stopped {
        Some(limit) => Outcome::GaveUp(limit),
        None => Outcome::Solved(
            Solution::from_moves(*start, engine.path.clone())
                .expect("moves found in place are legal"),
        ),
    };
    (engine.finish(outcome), lower)
}

/// A path found fast (one pass weighted `weight`, its bound raised as weighted
/// IDA*'s is) and then shortened by sweeps of [`WINDOWS`]; every expansion of both counted
/// on `engine` and its budget, so the search's limits stop them as they stop the rest (the
/// shortening between two windows: one window may run on by at most [`WINDOW_CAP`]).
/// `None` when a limit was reached (`engine.stopped` set) or, unexpectedly, no path found.
pub(super) fn fast_shortened<H: Heuristic>(
    engine: &mut Engine<'_, H>,
    start: &State,
    root: &H::Node,
    root_h: u32,
    weight: (u32, u32),
) -> Option<Vec<Move>> {
    engine.reset(start);
    (engine.num, engine.den) = weight;
    let mut bound = weight.0 * root_h;
    let found = loop {
        match engine.dfs::<false>(0, root, root_h, bound, 0) {
            FOUND => break true,
            next if next < NOTHING_CUT => bound = next,
            _ => break false,
        }
    };
    (engine.num, engine.den) = (1, 1);
    if !found {
        return None;
    }
    let mut states = Vec::with_capacity(engine.path.len() + 1);
    let mut at = *start;
    states.push(at);
    for &mv in &engine.path {
        at = at.apply(mv).expect("moves found in place are legal");
        states.push(at);
    }
    engine.reset(start);
    let mut shortener = Shortener::new(engine.h);
    let mut stopped = false;
    for window in WINDOWS {
        shortener.sweep(&mut states, window, WINDOW_CAP, &mut |spent| {
            engine.expanded += spent;
            match engine.budget.exhausted(engine.expanded) {
                Some(limit) => {
                    engine.stopped = Some(limit);
                    stopped = true;
                    false
                }
                None => true,
            }
        });
        if stopped {
            return None;
        }
    }
    Some(moves_of(&states))
}

impl<'h, H: Heuristic> Engine<'h, H> {
    /// An engine at `start`, with an empty path and no nodes counted.
    pub(super) fn new(
        start: &State,
        h: &'h H,
        prune: &'h MovePruner,
        budget: Budget,
    ) -> Engine<'h, H> {
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
            pass_end: u64::MAX,
            prefetch: h.prefetches(),
            unwound: Vec::new(),
        }
    }

    /// What is left after a stop of a pass begun at depth `root_g` ([`Unfinished`]): the node
    /// the stop came at (the whole path: it was not expanded), then each frame's children
    /// left, deepest first, which is the order the pass takes them.
    fn unfinished(&self, root_g: u32) -> Unfinished {
        let mut left = vec![self.path.clone()];
        let mut next = NOTHING_CUT;
        for frame in &self.unwound {
            let depth = (frame.g - root_g) as usize;
            for &mv in &frame.rest {
                let mut moves = self.path[..depth].to_vec();
                moves.push(Move::ALL[mv as usize]);
                left.push(moves);
            }
            next = next.min(frame.next);
        }
        Unfinished {
            left,
            next: (next < NOTHING_CUT).then_some(next),
        }
    }

    /// Records what a frame at depth `g` had left when a stop went up through it: the
    /// children after `stopped` in `order` that were within the bound (`within`: each one's
    /// move, by child). Out of line, so that the search's loop carries nothing for it.
    #[cold]
    #[inline(never)]
    fn note_unwound(
        &mut self,
        g: u32,
        order: &[usize],
        stopped: usize,
        within: [Option<u8>; 4],
        next: u32,
    ) {
        let after = order
            .iter()
            .position(|&k| k == stopped)
            .map_or(order.len(), |at| at + 1);
        let rest = order[after..].iter().filter_map(|&k| within[k]).collect();
        self.unwound.push(Unwound { g, rest, next });
    }

    /// Back at `start` with an empty path, after a pass that stopped part way (a stop
    /// unwinds nothing on its way up).
    pub(super) fn reset(&mut self, start: &State) -> &mut Engine<'h, H> {
        self.cells[..self.n].copy_from_slice(start.cells());
        self.blank = start.blank();
        self.path.clear();
        self.unwound.clear();
        self
    }

    fn finish(&self, outcome: Outcome) -> SearchResult {
        self.budget.finish(outcome, self.expanded, self.generated)
    }

    /// Explores below the current state (reached in `g` moves, heuristic node `node`, estimate
    /// `h`, automaton state `moves`); returns [`FOUND`], [`STOPPED`], or the smallest `g + h`
    /// beyond `bound` seen. The nodes of the path live in the recursion's frames, one per
    /// depth: no allocation.
    ///
    /// `PROBE` (the bounded search's probes, [`search_bounded`]) visits the children smallest
    /// estimate first, since the probe stops at its first goal and the order decides how soon
    /// it comes, and stops at the allowance `pass_end`; a constant, so that the other passes
    /// (every optimal search) compile without either.
    pub(super) fn dfs<const PROBE: bool>(
        &mut self,
        g: u32,
        node: &H::Node,
        h: u32,
        bound: u32,
        moves: u32,
    ) -> u32 {
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
        if PROBE && self.expanded >= self.pass_end {
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
        // First a hint for each child that the automaton allows: a heuristic that reads
        // large tables starts fetching every child's entries now, so that the reads of the
        // loop below find them on their way (BENCHMARKS.md, "Node rate at the memory's
        // limit"); the others do nothing.
        for &(mv, target) in &self.neighbours.steps[blank][..count] {
            if self.prefetch && self.prune.step(moves, mv) != DEAD {
                let target = target as usize;
                let tile = self.cells[target];
                self.h
                    .prefetch(node, &self.cells[..self.n], tile, target, blank, limit);
            }
        }
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
        let mut order = [0usize, 1, 2, 3];
        if PROBE {
            // Four at most: an insertion sort on the estimates, the cut ones last.
            let key = |k: usize| children[k].as_ref().map_or(u32::MAX, |c| c.4);
            for i in 1..count {
                let mut j = i;
                while j > 0 && key(order[j - 1]) > key(order[j]) {
                    order.swap(j - 1, j);
                    j -= 1;
                }
            }
        }
        // By reference: moving the array out would copy every child's node again.
        for &k in &order[..count] {
            let Some((mv, target, tile, ref child, child_h, after)) = children[k] else {
                continue;
            };
            self.cells[blank] = tile;
            self.cells[target] = BLANK;
            self.blank = target;
            self.path.push(Move::ALL[mv as usize]);
            let result = self.dfs::<PROBE>(g + 1, child, child_h, bound, after);
            if result == FOUND || result == STOPPED {
                // A probe's stop is its allowance, never resumed: nothing to record.
                if !PROBE && result == STOPPED {
                    let within = children.each_ref().map(|c| c.as_ref().map(|c| c.0));
                    self.note_unwound(g, &order[..count], k, within, next_bound);
                }
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::board::Board;
    use crate::guarantee::Factor;
    use crate::heuristic::LinearConflict;

    use std::ops::ControlFlow;
    use std::sync::Arc;

    use crate::heuristic::{Heuristic, PatternHeuristic};
    use crate::pattern::PatternDatabase;
    use crate::rng::SplitMix64;
    use crate::search::{idastar, Limits};
    use crate::state::State;

    /// 80 sampled 3x4 states with their exact distances, drawn by long random walks from the
    /// goal (sampling through `crate::sample` would put `search` above `sample` in the
    /// import graph for a test's sake), for the bounded searches' tests here and in
    /// `pair.rs`.
    pub(in crate::search) fn sampled_3x4() -> (State, Vec<(State, usize)>) {
        let goal = State::goal(Board::new(3, 4).unwrap());
        let table =
            crate::table::Table::build(&goal, crate::generate::BuildOptions::default()).unwrap();
        let mut rng = SplitMix64::new(30);
        let states = (0..80)
            .map(|_| {
                let mut start = goal;
                for _ in 0..200 {
                    let mv = crate::Move::ALL[(rng.next_u64() % 4) as usize];
                    start = start.apply(mv).unwrap_or(start);
                }
                (start, table.distance(&start).unwrap().unwrap() as usize)
            })
            .collect();
        (goal, states)
    }

    /// Holds one bounded search's answer for `start` (exact distance `exact`) to the factor:
    /// the path replays to `goal`, within the factor of the exact distance and of the proven
    /// bound `lower`, which is never above the exact distance. Returns whether the path is
    /// longer than the optimum.
    pub(in crate::search) fn check_bounded(
        (start, exact): (State, usize),
        goal: State,
        factor: Factor,
        (result, lower): (SearchResult, u32),
    ) -> bool {
        let solution = result.solution().expect("solved");
        assert_eq!(solution.end(), goal);
        let length = solution.len();
        assert!(
            lower as usize <= exact
                && factor.allows(length, lower as usize)
                && factor.allows(length, exact),
            "{start} with w {factor}: {length} moves, lower {lower}, exact {exact}"
        );
        length > exact
    }

    /// The bounded search with the fast path shortened from the first pass on (the 24-puzzle
    /// reaches it after a million expansions, a sampled 3x4 state seldom does): every path
    /// within the factor ([`check_bounded`]).
    #[test]
    fn bounded_search_with_the_shortened_path_stays_within_the_factor_on_sampled_3x4_states() {
        let (goal, states) = sampled_3x4();
        let h = LinearConflict::new(&goal);
        let prune = MovePruner::for_board(goal.board());
        let mut suboptimal = 0;
        for &(start, exact) in &states {
            for factor in ["1.1", "1.2", "1.5", "2"] {
                let factor: Factor = factor.parse().unwrap();
                let found = search_bounded(&start, &h, Limits::NONE, &prune, factor.ratio(), 0);
                suboptimal += usize::from(check_bounded((start, exact), goal, factor, found));
            }
        }
        assert!(
            suboptimal > 0,
            "every answer was optimal: the factor did nothing"
        );
    }

    /// The fast pass's weight: the lightest of 5/4, 4/3, 3/2 at least an eighth above the
    /// factor, 3/2 above that (the measured choices at 1.1, 1.2 and 1.5).
    #[test]
    fn the_fast_pass_is_an_eighth_heavier_than_the_factor() {
        for (factor, weight) in [
            ("1", (5, 4)),
            ("1.1", (5, 4)),
            ("1.125", (5, 4)),
            ("1.13", (4, 3)),
            ("1.2", (4, 3)),
            ("1.21", (3, 2)),
            ("1.5", (3, 2)),
            ("3", (3, 2)),
        ] {
            let factor: Factor = factor.parse().unwrap();
            assert_eq!(fast_weight(factor.ratio()), weight, "{factor}");
        }
    }

    /// The prefetch pass (on for databases of 128 MB and more, which no test builds) is
    /// forced on for small ones: IDA* finds paths of the same length over the same nodes
    /// as without it, on 3x3 and with the 4x4 6-6-3 databases, plain node and lean node.
    #[test]
    fn the_prefetch_pass_changes_no_search() {
        let none = &|_| ControlFlow::Continue(());
        for (side, patterns, walk) in [
            (3usize, vec![vec![1u8, 3, 4], vec![2, 5, 6, 7, 8]], 40),
            (
                4,
                vec![
                    vec![1, 2, 3],
                    vec![4, 5, 8, 9, 12, 13],
                    vec![6, 7, 10, 11, 14, 15],
                ],
                36,
            ),
        ] {
            let board = crate::Board::new(side, side).unwrap();
            let goal = State::canonical_goal(board, 0);
            let dbs: Vec<_> = patterns
                .iter()
                .map(|p| Arc::new(PatternDatabase::build(&goal, p, none).unwrap().map_into()))
                .collect();
            let plain = PatternHeuristic::new(&goal, dbs.clone(), true).unwrap();
            let fetching = PatternHeuristic::new(&goal, dbs, true)
                .unwrap()
                .with_prefetch(true);
            assert!(!plain.prefetches());
            assert!(fetching.prefetches());
            let mut rng = SplitMix64::new(side as u64);
            for _ in 0..12 {
                let mut start = goal;
                for _ in 0..walk {
                    let mv = crate::Move::ALL[(rng.next_u64() % 4) as usize];
                    start = start.apply(mv).unwrap_or(start);
                }
                let a = idastar(&start, &plain, Limits::default());
                let b = idastar(&start, &fetching, Limits::default());
                assert_eq!(
                    (a.expanded, a.generated),
                    (b.expanded, b.generated),
                    "{start}"
                );
                assert_eq!(a.solution().map(|s| s.len()), b.solution().map(|s| s.len()));
                let (lean_a, lean_b) = (
                    plain.regular_reflected().unwrap(),
                    fetching.regular_reflected().unwrap(),
                );
                assert!(lean_b.prefetches());
                let c = idastar(&start, &lean_a, Limits::default());
                let d = idastar(&start, &lean_b, Limits::default());
                assert_eq!(
                    (c.expanded, c.generated),
                    (d.expanded, d.generated),
                    "{start}"
                );
                assert_eq!(
                    (c.expanded, c.generated),
                    (a.expanded, a.generated),
                    "{start}"
                );
            }
        }
    }
}
