//! Parallel IDA* on rayon: each iteration's tree is cut by [`split`] into subtrees in the
//! sequential order, and the threads of a pool of their own take them one by one from the
//! front of that order, each searching its subtree with the sequential engine at the same
//! bound. Subtrees vary by orders of magnitude in size; with thousands of them a thread that
//! finishes early takes the next, so the work balances (a shared cursor rather than rayon's
//! halving of ranges: the finished subtrees then grow from the front of the order, which is
//! what the deterministic mode waits for and what a checkpoint records).
//!
//! All threads search the same bound, so the first solution found is optimal; every thread
//! is then stopped (within a few thousand expansions, when its budget next reports). In the
//! deterministic mode only the subtrees after the first one with a solution are stopped, and
//! the solution kept is that of the earliest: the sequential search's path.

use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::account::SearchAccount;
use super::checkpoint::{fingerprint, min_next, split_crc, Checkpoint, CheckpointError};
use super::prune::{MovePruner, MAX_LENGTH};
use super::split::{replay_pruned, search_subtree, split_pruned, Below};
use super::{
    unsolvable, Budget, Limit, Limits, Outcome, Progress, SearchResult, SubtreeOrder, Watch,
};
use crate::board::Move;
use crate::heuristic::Heuristic;
use crate::solution::Solution;
use crate::state::State;

/// Subtrees per iteration: enough that the largest few do not leave the other threads idle
/// at the end of an iteration on a machine of tens of cores, and that a checkpoint records
/// progress finely, while the split itself (a few thousand nodes) stays negligible.
pub const SUBTREES: usize = 4096;

/// An iteration is split for the threads when the last one, times [`GROWTH`], reaches this
/// many nodes (tens of milliseconds of work); smaller ones run whole on the calling thread.
const PARALLEL_FROM: u64 = 1_000_000;

/// How much larger the next iteration is assumed to be: IDA*'s iterations on the 15- and
/// 24-puzzles grow by about this factor per bound step.
const GROWTH: u64 = 8;

/// A checkpoint is written at most this often (and at the start of each iteration), unless
/// the environment variable `NPUZZLE_CHECKPOINT_SECONDS` says otherwise (tests use a tenth of
/// a second, so that an interrupted search has finished subtrees to resume from).
const CHECKPOINT_EVERY: Duration = Duration::from_secs(2);

/// [`CHECKPOINT_EVERY`], or `NPUZZLE_CHECKPOINT_SECONDS` where set to a valid number.
fn checkpoint_every() -> Duration {
    std::env::var("NPUZZLE_CHECKPOINT_SECONDS")
        .ok()
        .and_then(|text| Duration::try_from_secs_f64(text.trim().parse().ok()?).ok())
        .unwrap_or(CHECKPOINT_EVERY)
}

/// What the threads of one search share.
struct Shared {
    /// Expansions told so far, all iterations, the limits applied to them, and the stop of
    /// every thread (a solution in the free mode, or a limit).
    account: SearchAccount,
    /// The smallest subtree index with a solution in this iteration (`usize::MAX`: none).
    first: AtomicUsize,
    bound: AtomicU64,
    finished: AtomicUsize,
    subtrees: AtomicUsize,
}

impl Shared {
    /// Applies the limits to the whole search at `total` expansions, and tells the observer
    /// (which may stop it).
    fn check(&self, total: u64) -> Option<Limit> {
        self.account
            .check(total, |expanded, elapsed| self.progress(expanded, elapsed))
    }

    fn progress(&self, expanded: u64, elapsed: Duration) -> Progress {
        Progress {
            expanded,
            bound: Some(
                u32::try_from(self.bound.load(Ordering::Relaxed)).expect("stored from a u32 bound"),
            ),
            elapsed,
            subtrees: Some((
                self.finished.load(Ordering::Relaxed),
                self.subtrees.load(Ordering::Relaxed),
            )),
        }
    }
}

/// The watch of the search of one subtree.
struct Ticket {
    shared: Arc<Shared>,
    index: usize,
}

impl Watch for Ticket {
    fn tick(&self, expanded: u64) -> Option<Limit> {
        let shared = &*self.shared;
        let total = shared.account.tell(expanded);
        // Stopped because the work is no longer needed: the limit reported is never read.
        if shared.account.stopped()
            || (shared.account.limits().deterministic
                && self.index > shared.first.load(Ordering::Relaxed))
        {
            return Some(Limit::Nodes);
        }
        shared.check(total)
    }
}

/// One iteration's account, under a lock: what a checkpoint records.
struct IterationAccount {
    checkpoint: Checkpoint,
    written: Instant,
}

/// IDA* from `start` to `h`'s goal on `limits.threads` threads (at least one), each
/// iteration split by [`split`](super::split::split) (see [`Limits::threads`], [`Limits::deterministic`] and
/// [`Limits::checkpoint`]). [`run_with`](super::run_with) calls it for IDA* with more than one
/// thread or a checkpoint; called directly, it runs the parallel driver even on one thread.
///
/// Nodes are the sum over the threads: the split's, and every subtree's, finished or stopped.
/// The limits apply to the whole search, checked every few thousand expansions per thread.
///
/// ```
/// use npuzzle::heuristic::LinearConflict;
/// use npuzzle::search::{idastar, parallel_idastar, Limits};
/// use npuzzle::State;
/// let h = LinearConflict::new(&"123456780".parse()?);
/// let start: State = "867254301".parse()?;
/// let parallel = parallel_idastar(&start, &h, Limits::default().threads(2));
/// assert_eq!(parallel.solution().map(|s| s.len()), Some(31));
/// // On one thread it visits the subtrees in the sequential search's order: the same path.
/// let one = parallel_idastar(&start, &h, Limits::default().threads(1));
/// let alone = idastar(&start, &h, Limits::default());
/// assert_eq!(one.solution(), alone.solution());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parallel_idastar<H: Heuristic + Sync>(start: &State, h: &H, limits: Limits) -> SearchResult {
    parallel_idastar_with(start, h, limits, Splitting::Adaptive)
}

/// When [`parallel_idastar_with`] splits an iteration for the threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Splitting {
    /// Once an iteration is expected to reach about a million nodes; smaller ones run whole on
    /// the calling thread (the default, and what [`parallel_idastar`] does).
    Adaptive,
    /// Every iteration, however small, as a checkpointed search does (tests use it to run
    /// the split and the threads on small boards).
    EveryIteration,
}

/// [`parallel_idastar`] with the choice of when to split.
pub fn parallel_idastar_with<H: Heuristic + Sync>(
    start: &State,
    h: &H,
    limits: Limits,
    splitting: Splitting,
) -> SearchResult {
    let began = Instant::now();
    if !start.can_reach(h.goal()) {
        return unsolvable(began);
    }
    let threads = limits.threads.max(1);
    // Started with the first iteration large enough to split.
    let mut pool: Option<rayon::ThreadPool> = None;
    let mut last_iteration = 0u64;
    let shared = Arc::new(Shared {
        account: SearchAccount::new(limits, began),
        first: AtomicUsize::new(usize::MAX),
        bound: AtomicU64::new(0),
        finished: AtomicUsize::new(0),
        subtrees: AtomicUsize::new(0),
    });
    let finish = |outcome, checkpoint: &Checkpoint, extra: (u64, u64)| SearchResult {
        outcome,
        expanded: checkpoint.expanded + extra.0,
        generated: checkpoint.generated + extra.1,
        elapsed: began.elapsed(),
    };
    let print = limits.checkpoint.map(|_| fingerprint(start, h));
    let every = checkpoint_every();
    let (_, root_h) = h.start(start.cells());
    // The resumed iteration, or the first.
    let mut resumed = match resume(start, h, limits.checkpoint, print) {
        Ok(found) => found,
        Err(error) => {
            let none = Checkpoint::new(*start, *h.goal(), 0, SUBTREES, 0);
            return finish(Outcome::Refused(error), &none, (0, 0));
        }
    };
    let mut bound = resumed.as_ref().map_or(root_h, |c| c.bound);
    // The automaton of the checkpoint's split (a checkpoint written before the automaton
    // compared 12 moves names the subtrees of the one of 10), for the whole search.
    let automaton = resumed.as_ref().map_or(MAX_LENGTH, |c| c.automaton);
    let prune = MovePruner::for_board_up_to(start.board(), automaton);
    let mut before = resumed
        .as_ref()
        .map_or((0, 0), |c| (c.expanded, c.generated));
    let largest_first = limits.order == SubtreeOrder::LargestFirst && !limits.deterministic;
    // The previous iteration's subtrees and the nodes each took (for the largest-first order).
    let mut last_split: Option<(Vec<Vec<Move>>, Vec<u64>)> = None;
    loop {
        // Small iterations run whole on this thread: splitting one of a few thousand nodes
        // into thousands of subtrees would cost more than it saves. A checkpointed search
        // always splits the same way, so that its file names subtrees of one split.
        let parallel = limits.checkpoint.is_some()
            || splitting == Splitting::EveryIteration
            || last_iteration.saturating_mul(GROWTH) >= PARALLEL_FROM;
        let at_least = if parallel { SUBTREES } else { 1 };
        let frontier = split_pruned(start, h, bound, at_least, &prune);
        let prefixes: Vec<Vec<Move>> = frontier.subtrees.into_iter().map(|s| s.moves).collect();
        let n = prefixes.len();
        let crc = split_crc(&prefixes);
        // A checkpoint's subtrees are this split's: as many, and the same ones where it
        // names them (a checkpoint of version 4 or earlier names them by the count alone).
        let of_this_split =
            |c: &Checkpoint| c.subtrees == n && c.prefixes.is_none_or(|written| written == crc);
        // An iteration begun here: its split's nodes and smallest value beyond the bound
        // counted, and in the largest-first order the previous iteration's sizes carried over.
        let begin = |mut c: Checkpoint| {
            c.subtrees = n;
            c.prefixes = Some(crc);
            c.expanded += frontier.expanded;
            c.generated += frontier.generated;
            c.note_next(frontier.cut);
            if largest_first {
                c.sizes = vec![0; n];
                if let Some((earlier, sizes)) = &last_split {
                    c.previous = carried_sizes(earlier, sizes, &prefixes);
                }
            }
            c
        };
        let checkpoint = match resumed.take() {
            // Written before its iteration's split, as `Checkpoint::new` makes it (no subtree,
            // nothing beyond the bound seen; the parser has made sure that nothing is marked
            // done): the iteration begins here, as a fresh one does. The driver never writes
            // one: after a split its checkpoint holds the split's cut, also where the split
            // gave no subtree (the whole iteration done by the split, then a stop).
            Some(c) if c.subtrees == 0 && c.next.is_none() => begin(c),
            // The split's nodes and cut are in it already; named by the CRC from now on.
            Some(c) if of_this_split(&c) && partials_lie_below(start, h, &c, &prefixes, &prune) => {
                Checkpoint {
                    prefixes: Some(crc),
                    ..c
                }
            }
            Some(c) => {
                let reason = if of_this_split(&c) {
                    "a partial subtree's trees left do not lie below it"
                } else {
                    "its subtrees do not match the split of its bound"
                };
                let error = CheckpointError::Damaged {
                    path: limits
                        .checkpoint
                        .map(|p| p.display().to_string())
                        .unwrap_or_default(),
                    reason: reason.to_string(),
                };
                let none = Checkpoint::new(*start, *h.goal(), 0, SUBTREES, 0);
                return finish(Outcome::Refused(error), &none, (0, 0));
            }
            None => {
                let mut c = Checkpoint::new(*start, *h.goal(), print.unwrap_or(0), SUBTREES, bound);
                c.automaton = automaton;
                (c.expanded, c.generated) = before;
                begin(c)
            }
        };
        // The deterministic mode waits for every subtree before the first solution in the
        // sequential order, so it takes them in that order.
        let keys: &[u64] = if limits.deterministic {
            &[]
        } else {
            &checkpoint.previous
        };
        let order = visiting_order(keys, n);
        shared.bound.store(bound.into(), Ordering::Relaxed);
        shared.subtrees.store(n, Ordering::Relaxed);
        shared
            .finished
            .store(checkpoint.finished(), Ordering::Relaxed);
        shared.first.store(usize::MAX, Ordering::Relaxed);
        shared.account.set_total(checkpoint.expanded);
        shared.check(checkpoint.expanded);
        if let Some(path) = limits.checkpoint {
            if let Err(error) = checkpoint.save(path) {
                return finish(Outcome::Refused(error), &checkpoint, (0, 0));
            }
        }
        let skip = checkpoint.clone();
        let account = Mutex::new(IterationAccount {
            checkpoint,
            written: Instant::now(),
        });
        // Nodes of subtrees that did not finish (stopped, or the one with the solution).
        let partial = (AtomicU64::new(0), AtomicU64::new(0));
        // Each solution with its subtree and the nodes and next value of this search of it.
        let found: Mutex<Vec<Found>> = Mutex::new(Vec::new());
        let failed: OnceLock<CheckpointError> = OnceLock::new();
        let cursor = AtomicUsize::new(0);
        let work = || loop {
            let at = cursor.fetch_add(1, Ordering::Relaxed);
            let Some(&index) = order.get(at) else {
                break;
            };
            if shared.account.stopped()
                || (limits.deterministic && index > shared.first.load(Ordering::Relaxed))
            {
                break;
            }
            if skip.is_done(index) {
                continue;
            }
            // The subtree whole, or what a stop left of it (checked to lie below it when the
            // checkpoint was read).
            let pieces: &[Vec<Move>] = skip
                .partial
                .get(&index)
                .map_or(std::slice::from_ref(&prefixes[index]), |part| &part.left);
            // This search's part of the subtree: its smallest value beyond the bound, nodes;
            // what a stop left of it, if one came; whether it ended otherwise (a solution).
            let mut next: Option<u32> = None;
            let (mut expanded, mut generated) = (0u64, 0u64);
            let mut left: Option<Vec<Vec<Move>>> = None;
            let mut ended = false;
            for (at, piece) in pieces.iter().enumerate() {
                // Stopped between two pieces: the rest is left as it is.
                if at > 0 && shared.account.stopped() {
                    left = Some(pieces[at..].to_vec());
                    break;
                }
                let root = replay_pruned(start, h, piece, &prune)
                    .expect("the split's and the checkpoint's prefixes replay");
                let budget = Budget::watched(Box::new(Ticket {
                    shared: Arc::clone(&shared),
                    index,
                }));
                let searched = search_subtree(start, h, &root, bound, budget, &prune);
                expanded += searched.expanded;
                generated += searched.generated;
                // Subtrees smaller than a budget's reporting interval never report: the limits
                // are applied here too, between subtrees.
                let total = shared.account.tell(searched.untold);
                if !shared.account.stopped() && !matches!(searched.end, Below::Found(_)) {
                    shared.check(total);
                }
                match searched.end {
                    Below::Beyond(beyond) => next = min_next(next, beyond),
                    Below::GaveUp(_) => {
                        // What is left: the rest of this piece, then the pieces after it.
                        let rest = searched
                            .unfinished
                            .expect("a stopped search says what is left");
                        next = min_next(next, rest.next);
                        let mut trees = rest.left;
                        trees.extend_from_slice(&pieces[at + 1..]);
                        left = Some(trees);
                        break;
                    }
                    end => {
                        partial.0.fetch_add(expanded, Ordering::Relaxed);
                        partial.1.fetch_add(generated, Ordering::Relaxed);
                        if let Below::Found(solution) = end {
                            found.lock().unwrap_or_else(|e| e.into_inner()).push(Found {
                                index,
                                solution,
                                next,
                                nodes: (expanded, generated),
                            });
                            shared.first.fetch_min(index, Ordering::Relaxed);
                            if !limits.deterministic {
                                shared.account.stop();
                            }
                        }
                        ended = true;
                        break;
                    }
                }
            }
            if ended {
                continue;
            }
            let mut account = account.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(left) = left {
                account
                    .checkpoint
                    .mark_partial(index, left, next, expanded, generated);
                continue;
            }
            account.checkpoint.mark(index, next, expanded, generated);
            shared.finished.fetch_add(1, Ordering::Relaxed);
            if let Some(path) = limits.checkpoint {
                if account.written.elapsed() >= every {
                    account.written = Instant::now();
                    if let Err(error) = account.checkpoint.save(path) {
                        let _ = failed.set(error);
                        shared.account.stop();
                    }
                }
            }
        };
        if parallel {
            let pool = pool.get_or_insert_with(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("a rayon pool of a few threads can always be built")
            });
            pool.broadcast(|_| work());
        } else {
            work();
        }
        let account = account.into_inner().unwrap_or_else(|e| e.into_inner());
        let checkpoint = account.checkpoint;
        let extra = (partial.0.into_inner(), partial.1.into_inner());
        if let Some(error) = failed.into_inner() {
            return finish(Outcome::Refused(error), &checkpoint, extra);
        }
        let found = found.into_inner().unwrap_or_else(|e| e.into_inner());
        // The earliest solution; in the deterministic mode it counts only when every subtree
        // before it finished (a limit may have stopped one that holds an earlier path).
        let mut earliest = found.into_iter().min_by_key(|found| found.index);
        if let Some(found) = earliest.take_if(|found| {
            !limits.deterministic || (0..found.index).all(|i| checkpoint.is_done(i))
        }) {
            // Nothing left to resume, unless the caller removes it once the path is stored
            // ([`Limits::keep_solved_checkpoint`]).
            if let (Some(path), false) = (limits.checkpoint, limits.keep_solved_checkpoint) {
                let _ = std::fs::remove_file(path);
            }
            return finish(Outcome::Solved(found.solution), &checkpoint, extra);
        }
        if let Some(limit) = shared.account.limit() {
            // Stopped before the subtrees ahead of a solution finished (the deterministic
            // mode): the solution's subtree is kept as stopped part way, with the solution's
            // own path as the one tree left, so that the resumed search finds it at once
            // (a tree rooted at the goal, at the bound) instead of searching the subtree again.
            let (mut checkpoint, mut extra) = (checkpoint, extra);
            if let Some(found) = earliest {
                let (expanded, generated) = found.nodes;
                checkpoint.mark_partial(
                    found.index,
                    vec![found.solution.moves().to_vec()],
                    found.next,
                    expanded,
                    generated,
                );
                extra = (extra.0 - expanded, extra.1 - generated);
            }
            if let Some(path) = limits.checkpoint {
                if let Err(error) = checkpoint.save(path) {
                    return finish(Outcome::Refused(error), &checkpoint, extra);
                }
            }
            return finish(Outcome::GaveUp(limit), &checkpoint, extra);
        }
        match checkpoint.next {
            Some(next) => bound = next,
            // Nothing beyond any bound: no path at all (parity rules this out before).
            None => return finish(Outcome::Unsolvable, &checkpoint, extra),
        }
        last_iteration = checkpoint.expanded + extra.0 - before.0;
        if checkpoint.sizes.len() == n {
            last_split = Some((prefixes, checkpoint.sizes));
        }
        before = (
            checkpoint.expanded + extra.0,
            checkpoint.generated + extra.1,
        );
    }
}

/// A solution found in an iteration's subtree: which subtree, and what this search of it
/// counted before the solution (kept in the checkpoint when a limit stops the deterministic
/// mode before the subtrees ahead of it finish).
struct Found {
    /// The subtree's index in the split.
    index: usize,
    /// The path from the start.
    solution: Solution,
    /// The smallest value beyond the bound seen in the subtree before the solution.
    next: Option<u32>,
    /// Nodes expanded and generated in the subtree by this search.
    nodes: (u64, u64),
}

/// Whether every partial subtree of `checkpoint` (read from a file) lies below its own
/// subtree of the split `prefixes` and replays: a tree left that did not would search
/// something else than the subtree, or fail to replay in a thread.
fn partials_lie_below<H: Heuristic>(
    start: &State,
    h: &H,
    checkpoint: &Checkpoint,
    prefixes: &[Vec<Move>],
    prune: &MovePruner,
) -> bool {
    checkpoint.partial.iter().all(|(&index, part)| {
        prefixes.get(index).is_some_and(|prefix| {
            part.left.iter().all(|moves| {
                moves.starts_with(prefix) && replay_pruned(start, h, moves, prune).is_some()
            })
        })
    })
}

/// The order in which the subtrees are taken: by `keys` largest first (ties, and every
/// subtree where there are no keys, in the sequential order).
fn visiting_order(keys: &[u64], n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    if keys.len() == n {
        order.sort_by_key(|&i| std::cmp::Reverse(keys[i]));
    }
    order
}

/// The nodes each of the subtrees `now` took in the previous iteration, whose subtrees were
/// `earlier` with `sizes`: a subtree of the new split is the root of one or more of the old
/// (a larger bound splits no deeper, since its levels are no smaller), whose sizes it sums;
/// 0 where none was within the old bound.
fn carried_sizes(earlier: &[Vec<Move>], sizes: &[u64], now: &[Vec<Move>]) -> Vec<u64> {
    let index: std::collections::HashMap<&[Move], usize> = now
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_slice(), i))
        .collect();
    let mut carried = vec![0u64; now.len()];
    for (prefix, &size) in earlier.iter().zip(sizes) {
        if let Some(&i) = (0..=prefix.len())
            .rev()
            .find_map(|k| index.get(&prefix[..k]))
        {
            carried[i] += size;
        }
    }
    carried
}

/// The checkpoint in `path` to resume from, after checking it is this search's; `None` when
/// there is no file (or no checkpoint asked for).
fn resume<H: Heuristic>(
    start: &State,
    h: &H,
    path: Option<&'static Path>,
    print: Option<u32>,
) -> Result<Option<Checkpoint>, CheckpointError> {
    let (Some(path), Some(print)) = (path, print) else {
        return Ok(None);
    };
    let Some(checkpoint) = Checkpoint::load(path)? else {
        return Ok(None);
    };
    checkpoint.check(start, h.goal(), print, SUBTREES, path)?;
    Ok(Some(checkpoint))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::testing::Wrapped;
    use crate::heuristic::Manhattan;
    use crate::search::prune::LENGTH_BEFORE_12;
    use crate::search::{idastar, Limit};
    use Move::{Down as D, Left as L, Right as R, Up as U};

    /// A checkpoint split with the automaton of 10 moves (every checkpoint written before the
    /// automaton compared 12) resumes with that automaton, iteration after iteration: its
    /// subtrees are that automaton's, which the longer one's split would not match.
    #[test]
    fn a_checkpoint_of_the_shorter_automaton_resumes_with_it() {
        let start: State = "867254301".parse().unwrap();
        let goal: State = "123456780".parse().unwrap();
        let h = Manhattan::new(&goal);
        let optimal = idastar(&start, &h, Limits::default())
            .solution()
            .unwrap()
            .len();
        let dir = tempfile::tempdir().unwrap();
        let file =
            |name: &str| -> &'static Path { Box::leak(dir.path().join(name).into_boxed_path()) };
        let (_, root_h) = h.start(start.cells());
        let shorter = MovePruner::for_board_up_to(start.board(), LENGTH_BEFORE_12);
        // Written at its first iteration's start, as a run of the older automaton began it.
        let begun = |path: &Path| {
            let mut c = Checkpoint::new(start, goal, fingerprint(&start, &h), SUBTREES, root_h);
            c.automaton = LENGTH_BEFORE_12;
            let frontier = split_pruned(&start, &h, root_h, SUBTREES, &shorter);
            c.subtrees = frontier.subtrees.len();
            (c.expanded, c.generated) = (frontier.expanded, frontier.generated);
            c.note_next(frontier.cut);
            c.save(path).unwrap();
        };
        let limits = Limits::default().threads(1);
        let whole_path = file("whole");
        begun(whole_path);
        let whole = parallel_idastar(&start, &h, limits.checkpoint(whole_path));
        assert_eq!(
            whole.solution().map(|s| s.len()),
            Some(optimal),
            "{:?}",
            whole.outcome
        );
        // Stopped in a later iteration: the checkpoint it writes keeps the automaton, and
        // names that automaton's subtrees.
        let path = file("stopped");
        begun(path);
        let stopped = parallel_idastar(
            &start,
            &h,
            limits.checkpoint(path).nodes(whole.expanded * 9 / 10),
        );
        assert_eq!(stopped.gave_up(), Some(Limit::Nodes));
        let saved = Checkpoint::load(path).unwrap().expect("a checkpoint");
        assert!(saved.bound > root_h, "stopped in a later iteration");
        assert_eq!(saved.automaton, LENGTH_BEFORE_12);
        let split_shorter = split_pruned(&start, &h, saved.bound, SUBTREES, &shorter);
        assert_eq!(saved.subtrees, split_shorter.subtrees.len());
        // Resumed, it finishes with the shorter automaton: the whole run's path and nodes.
        let resumed = parallel_idastar(&start, &h, limits.checkpoint(path));
        assert_eq!(resumed.solution(), whole.solution());
        assert_eq!(resumed.generated, whole.generated);
        // A search begun now has the longer automaton: fewer nodes on this start (equal
        // counts would say the checkpoint's automaton was not used).
        let now = parallel_idastar(&start, &h, limits.checkpoint(file("now")));
        assert_eq!(now.solution().map(|s| s.len()), Some(optimal));
        assert!(
            now.generated < whole.generated,
            "{} {}",
            now.generated,
            whole.generated
        );
    }

    /// A checkpoint written before its iteration's split (`subtrees 0`, as
    /// [`Checkpoint::new`] makes it) begins that iteration on resuming, counting the split's
    /// nodes and its smallest value beyond the bound as a search begun afresh does.
    #[test]
    fn a_checkpoint_before_its_split_begins_the_iteration() {
        let start: State = "867254301".parse().unwrap();
        let goal: State = "123456780".parse().unwrap();
        let h = Manhattan::new(&goal);
        let dir = tempfile::tempdir().unwrap();
        let file =
            |name: &str| -> &'static Path { Box::leak(dir.path().join(name).into_boxed_path()) };
        let limits = Limits::default().threads(1);
        let fresh = parallel_idastar(&start, &h, limits.checkpoint(file("fresh")));
        let (_, root_h) = h.start(start.cells());
        let path = file("before-split");
        Checkpoint::new(start, goal, fingerprint(&start, &h), SUBTREES, root_h)
            .save(path)
            .unwrap();
        let resumed = parallel_idastar(&start, &h, limits.checkpoint(path));
        assert_eq!(resumed.solution(), fresh.solution());
        assert_eq!(
            (resumed.expanded, resumed.generated),
            (fresh.expanded, fresh.generated)
        );
    }

    /// The deterministic mode stopped by a limit after a subtree found the solution but
    /// before a subtree ahead of it finished: the checkpoint keeps the solution's subtree as
    /// stopped part way with the solution as its one tree left, so that the resumed search
    /// finds it at once rather than searching that subtree again; the answer and the nodes
    /// are those of the search that was not stopped.
    #[test]
    fn a_stop_ahead_of_the_solution_keeps_the_solutions_subtree() {
        // Korf's instance 8 (50 moves): under Manhattan distance a last iteration of millions
        // of nodes, in which the subtree with the first solution finds it within a few
        // hundred and a subtree ahead of it takes tens of thousands.
        let start: State = "12 11 15 3 8 0 4 2 6 13 9 5 14 1 10 7".parse().unwrap();
        let goal: State = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15".parse().unwrap();
        let h = Manhattan::new(&goal);
        let sequential = idastar(&start, &h, Limits::default());
        let path = sequential.solution().expect("solved").moves().to_vec();
        let bound = u32::try_from(path.len()).unwrap();
        let prune = MovePruner::for_board(start.board());
        let frontier = split_pruned(&start, &h, bound, SUBTREES, &prune);
        let prefixes: Vec<Vec<Move>> = frontier.subtrees.iter().map(|s| s.moves.clone()).collect();
        let with_solution = prefixes
            .iter()
            .position(|p| path.starts_with(p))
            .expect("a subtree holds the path");
        // The largest subtree ahead of the solution's, and how long the solution's takes.
        let size = |k: usize| {
            let searched = search_subtree(
                &start,
                &h,
                &frontier.subtrees[k],
                bound,
                Budget::new(Limits::NONE),
                &prune,
            );
            searched.expanded
        };
        let (ahead_size, ahead) = (0..with_solution)
            .map(|k| (size(k), k))
            .max()
            .expect("a subtree ahead");
        let to_solution = size(with_solution);
        // The limit below stops the subtree ahead half way, several reporting intervals
        // (4,096 expansions) after the solution's subtree found it.
        assert!(
            ahead_size / 2 > 4 * to_solution.max(4096),
            "{ahead_size} {to_solution}"
        );
        // The last iteration begun, every subtree finished but those two.
        let crafted = || {
            let mut c = Checkpoint::new(start, goal, fingerprint(&start, &h), SUBTREES, bound);
            c.subtrees = prefixes.len();
            c.prefixes = Some(split_crc(&prefixes));
            (c.expanded, c.generated) = (frontier.expanded, frontier.generated);
            c.note_next(frontier.cut);
            for k in (0..prefixes.len()).filter(|&k| k != ahead && k != with_solution) {
                c.mark(k, None, 0, 0);
            }
            c
        };
        let dir = tempfile::tempdir().unwrap();
        let file =
            |name: &str| -> &'static Path { Box::leak(dir.path().join(name).into_boxed_path()) };
        let limits = Limits::default().threads(2).deterministic(true);
        let whole_path = file("whole");
        crafted().save(whole_path).unwrap();
        let whole = parallel_idastar(&start, &h, limits.checkpoint(whole_path));
        assert_eq!(whole.solution(), sequential.solution());
        // One thread takes the subtree ahead, the other the solution's, which it finishes
        // long before the node limit (half the subtree ahead) stops the first. Every estimate
        // is slowed, so that half takes tens of milliseconds, long past starting the second
        // thread; another try rules out a second thread that still did not run meanwhile.
        let slow = Wrapped {
            inner: Manhattan::new(&goal),
            spin: 2000,
        };
        let stopped_path = file("stopped");
        let kept = (0..5).find_map(|_| {
            let base = crafted();
            base.save(stopped_path).unwrap();
            let limit = base.expanded + ahead_size / 2;
            let stopped =
                parallel_idastar(&start, &slow, limits.checkpoint(stopped_path).nodes(limit));
            assert_eq!(
                stopped.gave_up(),
                Some(Limit::Nodes),
                "{:?}",
                stopped.outcome
            );
            let saved = Checkpoint::load(stopped_path)
                .unwrap()
                .expect("a checkpoint");
            assert!(
                saved.partial.contains_key(&ahead),
                "{:?}",
                saved.partial.keys()
            );
            // Stopped inside it (the thread not run meanwhile): left is the rest of it.
            saved
                .partial
                .get(&with_solution)
                .filter(|part| part.left == [path.clone()])
                .cloned()
        });
        let kept =
            kept.expect("in five tries no checkpoint kept the solution as its subtree's tree left");
        assert!(kept.expanded > 0);
        // Resumed: the same path, the same nodes as the search not stopped.
        let resumed = parallel_idastar(&start, &h, limits.checkpoint(stopped_path));
        assert_eq!(resumed.solution(), sequential.solution());
        assert_eq!(
            (resumed.expanded, resumed.generated),
            (whole.expanded, whole.generated)
        );
    }

    #[test]
    fn sizes_carry_to_the_subtree_that_roots_them() {
        // The old split two moves deep, the new one move deep (a larger bound, larger levels).
        let earlier = vec![vec![U, L], vec![U, R], vec![L, U], vec![L, D]];
        let now = vec![vec![U], vec![L], vec![D]];
        assert_eq!(carried_sizes(&earlier, &[5, 7, 1, 2], &now), vec![12, 3, 0]);
        // The same depth: one to one; a subtree that was beyond the old bound gets 0.
        let same = vec![vec![U, L], vec![U, R], vec![L, D], vec![R, D]];
        assert_eq!(
            carried_sizes(&earlier, &[5, 7, 1, 2], &same),
            vec![5, 7, 2, 0]
        );
    }

    #[test]
    fn the_order_is_largest_first_and_sequential_among_equals() {
        assert_eq!(visiting_order(&[3, 9, 0, 9, 4], 5), vec![1, 3, 4, 0, 2]);
        // No keys (the first iteration, a resumed checkpoint of version 1): sequential.
        assert_eq!(visiting_order(&[], 4), vec![0, 1, 2, 3]);
    }
}
