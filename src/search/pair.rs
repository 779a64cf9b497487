//! The bounded-suboptimal search on two threads ([`search_bounded_pair`]): a *prover* raises
//! the proven lower bound of the optimum with plain IDA* passes, a *finder* looks for a path
//! within the factor of it. One thread alternating the two
//! ([`in_place::search_bounded`](super::in_place)) makes each wait for the other; here they
//! run side by side, and the finder, once it holds a path that the next bound will accept,
//! helps the prover finish that bound's pass (the pass is cut into subtrees by
//! [`split`](super::split), taken from a shared cursor by whichever thread is free).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::account::SearchAccount;
use super::in_place::{
    fast_shortened, fast_weight, probe_weight, to_solution_parity, Engine, FOUND, NOTHING_CUT,
    STOPPED,
};
use super::prune::MovePruner;
use super::split::{replay_pruned, search_subtree, split_pruned, Below};
use super::{unsolvable, Budget, Limit, Limits, Outcome, Progress, SearchResult, Watch};
use crate::board::Move;
use crate::heuristic::Heuristic;
use crate::solution::Solution;
use crate::state::State;

/// A proof pass is shared between the threads (split into subtrees) once the pass before it
/// expanded this many nodes: below it the split's own work and the hand-over cost more than
/// the second thread saves.
const SHARE_FROM: u64 = 100_000;
/// Subtrees a shared proof pass is cut into: enough that the two threads finish close
/// together, few enough that the split (a few thousand nodes) stays small.
const SHARED_SUBTREES: usize = 256;

/// What the two threads share: the proven bound, the shortest path found, the proof pass
/// open for help, and the whole search's account for the limits.
struct Pair {
    /// Expansions told by both threads, the limits applied to them, and the stop of both
    /// (the answer is in: a path within the factor of `lower`; or a limit was reached).
    account: SearchAccount,
    /// The weight `num / den` asked for.
    num: u32,
    den: u32,
    /// The proven lower bound of the optimum: only the prover raises it.
    lower: AtomicU32,
    /// The shortest path found so far, by either thread.
    best: Mutex<Option<Vec<Move>>>,
    /// Whether the finder has made its fast, shortened path (which it does once both
    /// threads have expanded `incumbent_after` nodes, or when it has nothing else to do).
    incumbent: AtomicBool,
    incumbent_after: u64,
    /// The prover's current pass, while it is open for the finder's help.
    pass: Mutex<Option<Arc<SharedPass>>>,
}

/// A proof pass cut into subtrees, each searched by whichever thread takes it.
struct SharedPass {
    bound: u32,
    /// The moves from the start to each subtree's root, in the sequential order.
    prefixes: Vec<Vec<Move>>,
    /// The next subtree to take.
    cursor: AtomicUsize,
    /// Subtrees finished (searched to their end).
    finished: AtomicUsize,
    /// The smallest `g + h` beyond the bound met in any subtree (or by the split).
    next: AtomicU32,
    /// A path within the bound, found in some subtree (optimal: every smaller bound failed).
    found: Mutex<Option<Vec<Move>>>,
}

impl SharedPass {
    /// Searches subtrees taken from the cursor until none is left or the search stops;
    /// returns the nodes expanded and generated. `budget` gives each subtree's budget;
    /// `prune` is the automaton the pass was split with.
    fn work<H: Heuristic>(
        &self,
        start: &State,
        h: &H,
        pair: &Pair,
        budget: &dyn Fn() -> Budget,
        prune: &MovePruner,
    ) -> (u64, u64) {
        let (mut expanded, mut generated) = (0, 0);
        while !pair.stopped() {
            let index = self.cursor.fetch_add(1, Ordering::Relaxed);
            let Some(prefix) = self.prefixes.get(index) else {
                break;
            };
            let Some(root) = replay_pruned(start, h, prefix, prune) else {
                // The split gave it, so it replays; count it finished all the same.
                self.finished.fetch_add(1, Ordering::Release);
                continue;
            };
            let searched = search_subtree(start, h, &root, self.bound, budget(), prune);
            pair.account.tell(searched.untold);
            expanded += searched.expanded;
            generated += searched.generated;
            match searched.end {
                Below::Found(solution) => {
                    let mut found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
                    if found.as_ref().is_none_or(|f| solution.len() < f.len()) {
                        *found = Some(solution.moves().to_vec());
                    }
                }
                Below::Beyond(Some(next)) => {
                    self.next.fetch_min(next, Ordering::Relaxed);
                }
                Below::Beyond(None) | Below::NotASubtree => {}
                // Stopped: the subtree is not finished, and the search is over.
                Below::GaveUp(_) => break,
            }
            self.finished.fetch_add(1, Ordering::Release);
        }
        (expanded, generated)
    }

    fn done(&self) -> bool {
        self.finished.load(Ordering::Acquire) >= self.prefixes.len()
    }
}

impl Pair {
    /// Whether a path of `length` moves is within the factor of the bound `lower`.
    fn accepts(&self, length: usize, lower: u32) -> bool {
        u64::try_from(length).unwrap_or(u64::MAX) * u64::from(self.den)
            <= u64::from(self.num) * u64::from(lower)
    }

    /// Keeps `moves` if shorter than the best so far; stops both threads once the best is
    /// within the factor of the proven bound. Returns whether `moves` was kept.
    fn offer(&self, moves: &[Move]) -> bool {
        let mut best = self.best.lock().unwrap_or_else(PoisonError::into_inner);
        let kept = best.as_ref().is_none_or(|b| moves.len() < b.len());
        if kept {
            *best = Some(moves.to_vec());
        }
        let lower = self.lower.load(Ordering::Acquire);
        if best.as_ref().is_some_and(|b| self.accepts(b.len(), lower)) {
            self.account.stop();
        }
        kept
    }

    /// Records the proven bound `lower` (the prover's, after a pass found nothing); stops
    /// both threads once the best path is within the factor of it.
    fn prove(&self, lower: u32) {
        let best = self.best.lock().unwrap_or_else(PoisonError::into_inner);
        self.lower.fetch_max(lower, Ordering::AcqRel);
        if best.as_ref().is_some_and(|b| self.accepts(b.len(), lower)) {
            self.account.stop();
        }
    }

    /// Whether the best path so far will be accepted once `bound` is proven.
    fn holds_path_for(&self, bound: u32) -> bool {
        let best = self.best.lock().unwrap_or_else(PoisonError::into_inner);
        best.as_ref().is_some_and(|b| self.accepts(b.len(), bound))
    }

    fn stopped(&self) -> bool {
        self.account.stopped()
    }

    /// The pass open for help, if any.
    fn open_pass(&self) -> Option<Arc<SharedPass>> {
        self.pass
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// Stops both threads when dropped: the prover holds one, so that the finder never waits for
/// a bound that will not come.
struct StopOnExit<'a>(&'a Pair);

impl Drop for StopOnExit<'_> {
    fn drop(&mut self) {
        self.0.account.stop();
    }
}

/// The budget's watch of one thread. For the finder it also ends a probe (as
/// [`Limit::Nodes`], never reported: the finder reads whether the account stopped and
/// whether it holds a limit to tell)
/// once the proven bound has moved past the one the probe aims at, or when the fast path is
/// due, so that the next probe starts with the new slack.
struct PairWatch {
    pair: Arc<Pair>,
    /// For the finder: the bound its current probe aims at (`u32::MAX`: no probe).
    probing: Option<Arc<AtomicU32>>,
}

impl Watch for PairWatch {
    fn tick(&self, expanded: u64) -> Option<Limit> {
        let pair = &*self.pair;
        let total = pair.account.tell(expanded);
        if pair.stopped() {
            return Some(Limit::Nodes);
        }
        if let Some(at) = &self.probing {
            let at = at.load(Ordering::Relaxed);
            if at != u32::MAX
                && (pair.lower.load(Ordering::Relaxed) > at
                    || (!pair.incumbent.load(Ordering::Relaxed) && total >= pair.incumbent_after))
            {
                return Some(Limit::Nodes);
            }
        }
        pair.account.check(total, |expanded, elapsed| Progress {
            expanded,
            bound: Some(pair.lower.load(Ordering::Relaxed)),
            elapsed,
            subtrees: None,
        })
    }
}

/// [`search_bounded`](super::in_place) on two threads. The *prover* runs the plain IDA*
/// passes that raise the proven bound; a pass after one of [`SHARE_FROM`] expansions or
/// more is cut into subtrees that either thread may take. The *finder* runs the probes
/// (each aimed at the factor times the latest bound and ended when the prover raises it),
/// the shortened fast path (after `incumbent_after` expansions of both, or when it has
/// nothing else to do); when its probe at the current bound finds nothing, it probes at the
/// next one (two moves up), and once it holds a path the next bound will accept, it helps
/// the prover's pass. Each path found is kept if shorter than the last; both threads stop
/// when the best path is within the factor of the proven bound (or the prover finds the
/// optimum). The guarantee's argument is the one-thread search's: the prover's passes are
/// its proof passes (a shared pass proves what the whole pass would: every subtree is
/// searched to its end, and the next bound is the least `g + h` cut in any of them or by
/// the split), and a path is returned only when `den * length <= num * lower`.
///
/// Returns the result (nodes of both threads) and the last proven bound.
pub(crate) fn search_bounded_pair<H: Heuristic + Sync>(
    start: &State,
    h: &H,
    limits: Limits,
    prune: &MovePruner,
    (num, den): (u32, u32),
    incumbent_after: u64,
) -> (SearchResult, u32) {
    let goal_state = *h.goal();
    let began = std::time::Instant::now();
    if !start.can_reach(&goal_state) {
        return (unsolvable(began), 0);
    }
    let (root, root_h) = h.start(start.cells());
    let to_parity = to_solution_parity(start, &goal_state);
    let pair = Arc::new(Pair {
        account: SearchAccount::new(limits, began),
        num,
        den,
        lower: AtomicU32::new(to_parity(root_h)),
        best: Mutex::new(None),
        incumbent: AtomicBool::new(false),
        incumbent_after,
        pass: Mutex::new(None),
    });
    let watched = |probing: Option<Arc<AtomicU32>>| {
        Budget::watched(Box::new(PairWatch {
            pair: Arc::clone(&pair),
            probing,
        }))
    };
    let subtree_budget = || watched(None);
    let prover_budget = watched(None);
    let probing = Arc::new(AtomicU32::new(u32::MAX));
    let finder_budget = watched(Some(Arc::clone(&probing)));
    let ((prover_expanded, prover_generated), (finder_expanded, finder_generated)) =
        std::thread::scope(|scope| {
            let prover = scope.spawn(|| {
                // However the prover ends (a panic included), the finder stops too.
                let _stop = StopOnExit(&pair);
                // Its own copy of the start's node (a node need not be shareable).
                let (root, root_h) = h.start(start.cells());
                let mut engine = Engine::new(start, h, prune, prover_budget);
                let mut lower = pair.lower.load(Ordering::Acquire);
                let (mut shared_expanded, mut shared_generated) = (0, 0);
                let mut last_pass = 0;
                while !pair.stopped() {
                    let before = engine.expanded + shared_expanded;
                    let end = if last_pass >= SHARE_FROM {
                        let frontier = split_pruned(start, h, lower, SHARED_SUBTREES, prune);
                        shared_expanded += frontier.expanded;
                        shared_generated += frontier.generated;
                        let pass = Arc::new(SharedPass {
                            bound: lower,
                            prefixes: frontier.subtrees.into_iter().map(|s| s.moves).collect(),
                            cursor: AtomicUsize::new(0),
                            finished: AtomicUsize::new(0),
                            next: AtomicU32::new(frontier.cut.unwrap_or(NOTHING_CUT)),
                            found: Mutex::new(None),
                        });
                        *pair.pass.lock().unwrap_or_else(PoisonError::into_inner) =
                            Some(Arc::clone(&pass));
                        let (e, g) = pass.work(start, h, &pair, &subtree_budget, prune);
                        shared_expanded += e;
                        shared_generated += g;
                        // The finder may still be in a subtree it took.
                        while !pass.done() && !pair.stopped() {
                            std::thread::yield_now();
                        }
                        *pair.pass.lock().unwrap_or_else(PoisonError::into_inner) = None;
                        let found = pass
                            .found
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .take();
                        match found {
                            _ if pair.stopped() => STOPPED,
                            Some(moves) => {
                                engine.path = moves;
                                FOUND
                            }
                            None => pass.next.load(Ordering::Relaxed),
                        }
                    } else {
                        engine.reset(start).dfs::<false>(0, &root, root_h, lower, 0)
                    };
                    last_pass = engine.expanded + shared_expanded - before;
                    match end {
                        // Every pass below found nothing: this path is optimal.
                        FOUND => {
                            let moves = engine.path.clone();
                            pair.prove(u32::try_from(moves.len()).unwrap_or(u32::MAX));
                            pair.offer(&moves);
                        }
                        next if next < NOTHING_CUT => {
                            lower = to_parity((lower + 1).max(next));
                            pair.prove(lower);
                        }
                        // Stopped, or (a solvable pair cannot) nothing cut.
                        _ => break,
                    }
                }
                (
                    engine.expanded + shared_expanded,
                    engine.generated + shared_generated,
                )
            });
            let mut engine = Engine::new(start, h, prune, finder_budget);
            let (mut helped_expanded, mut helped_generated) = (0, 0);
            // The highest bound whose probe ended without a path, or at which a path is held.
            let mut tried = u32::MAX;
            while !pair.stopped() {
                let lower = pair.lower.load(Ordering::Acquire);
                let total = pair.account.total();
                let idle = tried != u32::MAX && tried >= lower;
                if !pair.incumbent.load(Ordering::Relaxed)
                    && (total >= pair.incumbent_after || idle)
                {
                    pair.incumbent.store(true, Ordering::Relaxed);
                    probing.store(u32::MAX, Ordering::Relaxed);
                    let weight = fast_weight((num, den));
                    if let Some(moves) = fast_shortened(&mut engine, start, &root, root_h, weight) {
                        pair.offer(&moves);
                    }
                    engine.stopped = None;
                    continue;
                }
                let target = if idle { tried + 2 } else { lower };
                if target > lower + 2 || (idle && pair.holds_path_for(target)) {
                    // A path for the next bound is in hand (or its probe found none): help
                    // the prover reach that bound, or wait for it.
                    match pair.open_pass() {
                        Some(pass) if pass.bound == lower => {
                            let (e, g) = pass.work(start, h, &pair, &subtree_budget, prune);
                            helped_expanded += e;
                            helped_generated += g;
                        }
                        _ => std::thread::sleep(std::time::Duration::from_micros(50)),
                    }
                    continue;
                }
                let (pn, pd) = probe_weight((num, den), target, root_h);
                (engine.num, engine.den) = (pn, pd);
                let cost = u64::from(pd) * u64::from(num) * u64::from(target) / u64::from(den);
                probing.store(target, Ordering::Relaxed);
                let probe = engine.reset(start).dfs::<true>(
                    0,
                    &root,
                    root_h,
                    u32::try_from(cost).unwrap_or(u32::MAX),
                    0,
                );
                (engine.num, engine.den) = (1, 1);
                match probe {
                    // Kept, and accepted now or once the prover reaches `target`.
                    FOUND => {
                        pair.offer(&engine.path);
                        tried = target;
                    }
                    // The bound moved (or both threads stop): probe again at the new one.
                    STOPPED => engine.stopped = None,
                    _ => tried = target,
                }
            }
            let prover = prover
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (
                prover,
                (
                    engine.expanded + helped_expanded,
                    engine.generated + helped_generated,
                ),
            )
        });
    let expanded = prover_expanded + finder_expanded;
    let generated = prover_generated + finder_generated;
    let lower = pair.lower.load(Ordering::Acquire);
    let best = pair
        .best
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    let outcome = match (best, pair.account.limit()) {
        // An answer that came as a limit was reached is still an answer.
        (Some(moves), _) if pair.accepts(moves.len(), lower) => Outcome::Solved(
            Solution::from_moves(*start, moves).expect("moves found in place are legal"),
        ),
        (_, Some(limit)) => Outcome::GaveUp(limit),
        // The prover ended without an answer or a limit (it cannot): say so as a stop.
        (_, None) => Outcome::GaveUp(Limit::Stopped),
    };
    (
        SearchResult {
            outcome,
            expanded,
            generated,
            elapsed: began.elapsed(),
        },
        lower,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::guarantee::Factor;
    use crate::heuristic::LinearConflict;
    use crate::search::in_place::tests::{check_bounded, sampled_3x4};

    /// On two threads, with the shortened path from the first pass on or never (on a 3x4
    /// board the prover often proves the optimum while the finder shortens), passes shared
    /// where large enough: every path within the factor (`in_place`'s `check_bounded`), and
    /// w = 1 optimal.
    #[test]
    fn the_two_thread_bounded_search_stays_within_the_factor_on_sampled_3x4_states() {
        let (goal, states) = sampled_3x4();
        let h = LinearConflict::new(&goal);
        let prune = MovePruner::for_board(goal.board());
        let mut suboptimal = 0;
        for &(start, exact) in &states {
            for (factor, incumbent_after) in [
                ("1", 0),
                ("1.1", u64::MAX),
                ("1.2", 0),
                ("1.2", u64::MAX),
                ("1.5", u64::MAX),
                ("2", 0),
            ] {
                let factor: Factor = factor.parse().unwrap();
                let found = search_bounded_pair(
                    &start,
                    &h,
                    Limits::NONE,
                    &prune,
                    factor.ratio(),
                    incumbent_after,
                );
                let longer = check_bounded((start, exact), goal, factor, found);
                assert!(
                    !(longer && factor == Factor::ONE),
                    "{start}: w = 1 is optimal"
                );
                suboptimal += usize::from(longer);
            }
        }
        assert!(
            suboptimal > 0,
            "every answer was optimal: the factor did nothing"
        );
    }

    /// Korf's first 15-puzzle (57 moves, `data/korf100.txt`), its goal, linear conflict and
    /// the 4x4 automaton.
    fn korf_first() -> (State, LinearConflict, Arc<MovePruner>) {
        let goal = State::canonical_goal(Board::new(4, 4).unwrap(), 0);
        let start: State = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3".parse().unwrap();
        (
            start,
            LinearConflict::new(&goal),
            MovePruner::for_board(goal.board()),
        )
    }

    /// A shared proof pass proves what a whole pass would: on Korf's first 15-puzzle (57
    /// moves, `data/korf100.txt`) at w = 1 (no path is accepted before the optimum is
    /// proven) with linear conflict, the passes from about a hundred thousand expansions on
    /// are shared, and the answer is the optimum.
    #[test]
    fn shared_proof_passes_reach_the_optimum() {
        let (start, h, prune) = korf_first();
        let (result, lower) =
            search_bounded_pair(&start, &h, Limits::NONE, &prune, (1, 1), u64::MAX);
        assert_eq!(result.solution().map(Solution::len), Some(57), "{result:?}");
        assert_eq!(lower, 57);
        assert!(result.expanded > 10 * SHARE_FROM, "{}", result.expanded);
    }

    /// The limits of the whole search: a node limit far below what Korf's first 15-puzzle
    /// needs at w = 1.05 with linear conflict gives up with that limit, after about that many
    /// expansions over both threads (each stops within a few thousand of it, or one
    /// shortening window), with a proven bound between the start's estimate and the published
    /// optimum (57).
    #[test]
    fn the_two_thread_bounded_search_gives_up_at_the_node_limit() {
        let (start, h, prune) = korf_first();
        let factor: Factor = "1.05".parse().unwrap();
        let limits = Limits::NONE.nodes(50_000);
        let (result, lower) =
            search_bounded_pair(&start, &h, limits, &prune, factor.ratio(), u64::MAX);
        assert_eq!(result.outcome, Outcome::GaveUp(Limit::Nodes), "{result:?}");
        // Each thread reports every 4,096 expansions; the shortener between its windows,
        // one window at most 200,000 (as on one thread).
        assert!(
            (50_000..50_000 + 200_000 + 2 * 4096).contains(&result.expanded),
            "{}",
            result.expanded
        );
        let (_, root_h) = h.start(start.cells());
        assert!(
            lower >= root_h && lower <= 57,
            "{lower} (estimate {root_h})"
        );
    }
}
