//! Search: A*, IDA*, breadth-first, iterative deepening and greedy best-first, for boards from
//! 2x2 to 5x5 and any goal.
//!
//! These answer where no exact table exists (boards over nine cells, or when asked not to use
//! one) and let a user compare the textbook algorithms with the exact answer. Every search
//! checks solvability first (so an unsolvable pair never searches forever), counts the nodes it
//! expands and generates, and stops at the [`Limits`] it is given, reporting that it gave up.
//!
//! Counting, the same for every algorithm: a node is *expanded* when its successors are
//! produced, and each successor produced is *generated* (the move straight back to the parent
//! is never produced). The start is neither.

// One function per algorithm, each in a private module of its own name: the import path is
// `search::idastar` (the function), never `search::idastar::idastar`.
mod account;
mod astar;
mod bfs;
mod dual;
mod greedy;
mod idastar;
mod iddfs;
mod in_place;
// Parallel IDA*: the frontier split (one place, used by the threads and by distributed tasks),
// the driver on rayon, and the checkpoint file of a long search.
pub mod checkpoint;
mod pair;
mod parallel;
pub mod prune;
// Path shortening: windows of a path replaced by optimal sub-paths.
mod shorten;
pub mod split;
mod tree;

pub use astar::astar;
pub use bfs::bfs;
pub use dual::{dual_idastar, DualResult};
pub use greedy::greedy;
pub use idastar::{bounded_idastar, idastar, idastar_with_pruner, weighted_idastar, BoundedResult};
pub use iddfs::iddfs;
pub use parallel::{parallel_idastar, parallel_idastar_with, Splitting, SUBTREES};
pub use shorten::shorten;

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::time::{Duration, Instant};

use crate::heuristic::{
    Heuristic, HeuristicKind, LinearConflict, Manhattan, Misplaced, PatternHeuristic,
};
use crate::pattern::Partition;
use crate::solution::Solution;
use crate::state::State;

/// When a search gives up, and whom it tells how it is going. `Limits::default()` never gives
/// up and tells no one.
///
/// ```
/// use std::time::Duration;
/// use npuzzle::Limits;
/// let limits = Limits::default().nodes(2_000_000).time(Duration::from_secs(10));
/// assert_eq!(limits.max_expanded, Some(2_000_000));
/// ```
#[derive(Clone, Copy, Default)]
#[non_exhaustive]
pub struct Limits {
    /// Give up after expanding this many nodes.
    pub max_expanded: Option<u64>,
    /// Give up after this much time (checked every few thousand expansions).
    pub max_time: Option<Duration>,
    /// Called with the search's [`Progress`] every few thousand expansions; its
    /// [`ControlFlow::Break`] stops the search (see [`Limits::observe`]).
    pub observer: Option<Observer>,
    /// At most this many threads for IDA* ([`Limits::threads`]); 0 and 1 mean one, the
    /// sequential search. The other algorithms use one thread.
    pub threads: usize,
    /// With several threads, return the path the sequential search would find (the first
    /// solution in its order) instead of the first one any thread finds.
    pub deterministic: bool,
    /// Where a parallel IDA* keeps its checkpoint ([`Limits::checkpoint`]).
    pub checkpoint: Option<&'static std::path::Path>,
    /// Leave the checkpoint in its file when the search finds a path
    /// ([`Limits::keep_solved_checkpoint`]).
    pub keep_solved_checkpoint: bool,
    /// The order in which a parallel IDA* takes each iteration's subtrees
    /// ([`Limits::order`]).
    pub order: SubtreeOrder,
}

/// The order in which a parallel IDA* ([`Limits::threads`], [`Limits::checkpoint`]) takes an
/// iteration's subtrees. Every iteration but the last searches all of them, so the order
/// only matters in the last, which stops at its first solution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum SubtreeOrder {
    /// The sequential search's order (on one thread, the sequential search's path).
    #[default]
    Sequential,
    /// Largest first, by the nodes their part of the tree took in the previous iteration
    /// (subtrees with no such count last, in the sequential order). On Korf and Felner's
    /// 24-puzzles the solutions of the last iteration lie mostly in the subtrees that were
    /// largest before (BENCHMARKS.md, "The last iteration's subtrees, largest first").
    /// The deterministic mode keeps the sequential order.
    LargestFirst,
}

impl SubtreeOrder {
    /// The name a command line gives it: `sequential` or `largest-first`.
    pub fn name(self) -> &'static str {
        match self {
            SubtreeOrder::Sequential => "sequential",
            SubtreeOrder::LargestFirst => "largest-first",
        }
    }
}

/// A name that is not a [`SubtreeOrder`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown subtree order `{0}`: expected sequential or largest-first")]
pub struct UnknownSubtreeOrder(pub String);

impl FromStr for SubtreeOrder {
    type Err = UnknownSubtreeOrder;

    fn from_str(text: &str) -> Result<SubtreeOrder, UnknownSubtreeOrder> {
        [SubtreeOrder::Sequential, SubtreeOrder::LargestFirst]
            .into_iter()
            .find(|o| o.name() == text.trim())
            .ok_or_else(|| UnknownSubtreeOrder(text.to_string()))
    }
}

/// Equal limits give up at the same point and tell the same observer (compared by address and
/// vtable, which is all a trait object offers: the same function may compare unequal to itself
/// across codegen units, never equal to another).
impl PartialEq for Limits {
    fn eq(&self, other: &Limits) -> bool {
        self.max_expanded == other.max_expanded
            && self.max_time == other.max_time
            && self.threads == other.threads
            && self.deterministic == other.deterministic
            && self.checkpoint == other.checkpoint
            && self.keep_solved_checkpoint == other.keep_solved_checkpoint
            && self.order == other.order
            && match (self.observer, other.observer) {
                (None, None) => true,
                // Both halves of the wide pointer: every function item is a zero-sized value
                // at the same dangling address, told apart only by its vtable.
                (Some(a), Some(b)) => std::ptr::eq(a, b),
                _ => false,
            }
    }
}

/// The limits, with the observer shown only as present or not (a function has nothing
/// else to show).
impl fmt::Debug for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Limits")
            .field("max_expanded", &self.max_expanded)
            .field("max_time", &self.max_time)
            .field("observer", &self.observer.map(|_| "Some(..)"))
            .field("threads", &self.threads)
            .field("deterministic", &self.deterministic)
            .field("checkpoint", &self.checkpoint)
            .field("keep_solved_checkpoint", &self.keep_solved_checkpoint)
            .field("order", &self.order)
            .finish()
    }
}

impl Eq for Limits {}

/// A function that watches a running search: it gets a [`Progress`] every few thousand
/// expansions, on a searching thread, so it must be quick (a terminal display throttles
/// itself; see [`Limits::observe`]). [`ControlFlow::Break`] stops the search, which then gives
/// up with [`Limit::Stopped`]: the one way to stop a search from outside (a user's Ctrl-C, a
/// cancelled task), as [`ProgressHook`](crate::pattern::generate::ProgressHook) is for a
/// database build. A `'static` reference (a function item, or state the caller keeps for
/// the process), so that [`Limits`] stays `Copy`.
pub type Observer = &'static (dyn Fn(&Progress) -> ControlFlow<()> + Sync);

/// How far a running search has come, as given to an [`Observer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Progress {
    /// Nodes expanded so far.
    pub expanded: u64,
    /// The bound on `g + h` being searched: IDA*'s iteration bound, A*'s smallest `f` in the
    /// open list, iterative deepening's depth; `None` for searches without one.
    pub bound: Option<u32>,
    /// Wall-clock time since the search began.
    pub elapsed: Duration,
    /// Of a parallel IDA*: the subtrees of the current iteration finished, and how many
    /// there are (the share of the iteration done); `None` for other searches.
    pub subtrees: Option<(usize, usize)>,
}

impl Limits {
    /// No limit: the search runs until it finds a path (or proves there is none).
    pub const NONE: Limits = Limits {
        max_expanded: None,
        max_time: None,
        observer: None,
        threads: 0,
        deterministic: false,
        checkpoint: None,
        keep_solved_checkpoint: false,
        order: SubtreeOrder::Sequential,
    };

    /// These limits with at most `max_expanded` expanded nodes.
    pub const fn nodes(mut self, max_expanded: u64) -> Limits {
        self.max_expanded = Some(max_expanded);
        self
    }

    /// These limits with at most `max_time` of wall-clock time.
    pub const fn time(mut self, max_time: Duration) -> Limits {
        self.max_time = Some(max_time);
        self
    }

    /// These limits with `observer` told how the search is going, for example to show nodes
    /// and the bound of a long search on a terminal, and able to stop it
    /// ([`ControlFlow::Break`]: the search gives up with [`Limit::Stopped`]).
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use std::sync::atomic::{AtomicU64, Ordering};
    /// use npuzzle::search::{self, Algorithm, Limit, Limits, Progress};
    /// use npuzzle::{HeuristicKind, State};
    ///
    /// static SEEN: AtomicU64 = AtomicU64::new(0);
    /// // Stops the search once it has expanded 50,000 nodes.
    /// fn watch(progress: &Progress) -> ControlFlow<()> {
    ///     SEEN.fetch_max(progress.expanded, Ordering::Relaxed);
    ///     if progress.expanded >= 50_000 {
    ///         ControlFlow::Break(())
    ///     } else {
    ///         ControlFlow::Continue(())
    ///     }
    /// }
    /// // Korf's instance 3: hundreds of millions of nodes with Manhattan distance.
    /// let start: State = "14 7 8 2 / 13 11 10 4 / 9 12 5 0 / 3 6 1 15".parse()?;
    /// let goal: State = "0 1 2 3 / 4 5 6 7 / 8 9 10 11 / 12 13 14 15".parse()?;
    /// let limits = Limits::default().observe(&watch);
    /// let result = search::run(Algorithm::IdaStar, HeuristicKind::Manhattan, &start, &goal, limits);
    /// assert_eq!(result.gave_up(), Some(Limit::Stopped));
    /// assert!(SEEN.load(Ordering::Relaxed) >= 50_000);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn observe(mut self, observer: Observer) -> Limits {
        self.observer = Some(observer);
        self
    }

    /// These limits with IDA* on up to `threads` threads: each iteration's tree is split at a
    /// frontier ([`split`]) and the subtrees searched in parallel, all at the same bound, so
    /// the path found is still optimal. 0 and 1 mean the sequential search.
    ///
    /// ```
    /// use npuzzle::search::{self, Algorithm, Limits};
    /// use npuzzle::{HeuristicKind, State};
    /// let start: State = "867254301".parse()?;
    /// let goal: State = "123456780".parse()?;
    /// let limits = Limits::default().threads(2).deterministic(true);
    /// let result = search::run(Algorithm::IdaStar, HeuristicKind::Manhattan, &start, &goal, limits);
    /// let alone = search::run(Algorithm::IdaStar, HeuristicKind::Manhattan, &start, &goal, Limits::default());
    /// assert_eq!(result.solution().map(|s| s.len()), Some(31));
    /// // Deterministic: the path the sequential search finds.
    /// assert_eq!(result.solution(), alone.solution());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn threads(mut self, threads: usize) -> Limits {
        self.threads = threads;
        self
    }

    /// These limits with the deterministic choice among the solutions at the final bound (see
    /// [`Limits::deterministic`](Limits#structfield.deterministic)).
    pub const fn deterministic(mut self, deterministic: bool) -> Limits {
        self.deterministic = deterministic;
        self
    }

    /// These limits with a parallel IDA* taking each iteration's subtrees in `order` (see
    /// [`SubtreeOrder`]).
    pub const fn order(mut self, order: SubtreeOrder) -> Limits {
        self.order = order;
        self
    }

    /// These limits with IDA* keeping a checkpoint in `file`, written atomically at each
    /// iteration's start, as its subtrees finish (at most every few seconds) and when a limit
    /// or a stop request ends the search (then with the work inside the subtrees in progress),
    /// and resuming from it when it exists (see [`checkpoint`]). A kill between two writes
    /// loses the work since the last one: in a long last iteration taken largest first, up to
    /// a whole subtree's hours, so stop a long search with its stop flag, not a kill. The
    /// search runs on the parallel driver even with one thread. A path that lives as long as
    /// the search (a command line's argument, leaked once) keeps `Limits` `Copy`.
    pub const fn checkpoint(mut self, file: &'static std::path::Path) -> Limits {
        self.checkpoint = Some(file);
        self
    }

    /// These limits with the checkpoint left in its file when the search finds a path (by
    /// default it is removed then: there is nothing left to resume). For a caller that stores
    /// the answer somewhere that outlives the process: it removes the checkpoint once the
    /// answer is safe, so a kill in between loses no more than the time to find the path
    /// again from the checkpoint ([`instance_set::run`](crate::instance_set::run) does this).
    pub const fn keep_solved_checkpoint(mut self, keep: bool) -> Limits {
        self.keep_solved_checkpoint = keep;
        self
    }
}

/// Which limit made a search give up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Limit {
    /// [`Limits::max_expanded`].
    Nodes,
    /// [`Limits::max_time`].
    Time,
    /// The [`Limits::observer`] asked to stop ([`ControlFlow::Break`]).
    Stopped,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::Nodes => "node limit",
            Limit::Time => "time limit",
            Limit::Stopped => "request to stop",
        })
    }
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// A path from the start to the goal.
    Solved(Solution),
    /// The start cannot reach the goal (other parity class or other board); nothing was searched.
    Unsolvable,
    /// A limit was reached before a path was found.
    GaveUp(Limit),
    /// The checkpoint file given could not be trusted or written ([`Limits::checkpoint`]);
    /// nothing was searched from it.
    Refused(checkpoint::CheckpointError),
}

/// What a search returns: how it ended and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchResult {
    /// How it ended.
    pub outcome: Outcome,
    /// Nodes whose successors were produced.
    pub expanded: u64,
    /// Successors produced.
    pub generated: u64,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

impl SearchResult {
    /// The path found, if any.
    pub fn solution(&self) -> Option<&Solution> {
        match &self.outcome {
            Outcome::Solved(solution) => Some(solution),
            _ => None,
        }
    }

    /// The limit reached, if the search gave up.
    pub fn gave_up(&self) -> Option<Limit> {
        match self.outcome {
            Outcome::GaveUp(limit) => Some(limit),
            _ => None,
        }
    }
}

/// The search algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// A*: best-first on moves so far plus the heuristic; optimal ([`astar`]).
    AStar,
    /// IDA*: depth-first with an increasing bound on that sum; optimal, little memory
    /// ([`idastar`]).
    IdaStar,
    /// Breadth-first over states; optimal, no heuristic ([`bfs`]).
    Bfs,
    /// Iterative-deepening depth-first; optimal, no heuristic, little memory ([`iddfs`]).
    Iddfs,
    /// Best-first on the heuristic alone, as the textbook branch and bound: fast, not optimal
    /// ([`greedy`]).
    Greedy,
}

impl Algorithm {
    /// Every algorithm.
    pub const ALL: [Algorithm; 5] = [
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::Bfs,
        Algorithm::Iddfs,
        Algorithm::Greedy,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
            Algorithm::Bfs => "bfs",
            Algorithm::Iddfs => "iddfs",
            Algorithm::Greedy => "greedy",
        }
    }

    /// Whether a path it finds is always optimal (with the admissible heuristics offered here).
    pub fn is_optimal(self) -> bool {
        self != Algorithm::Greedy
    }

    /// Whether it uses a heuristic.
    pub fn uses_heuristic(self) -> bool {
        matches!(
            self,
            Algorithm::AStar | Algorithm::IdaStar | Algorithm::Greedy
        )
    }

    /// Whether its memory grows with the nodes it visits (A*, breadth-first, greedy), so that
    /// an unbounded run on a large board could exhaust memory.
    pub fn keeps_visited_states(self) -> bool {
        !matches!(self, Algorithm::IdaStar | Algorithm::Iddfs)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of [`Algorithm::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown algorithm `{0}`: expected astar, idastar, bfs, iddfs or greedy")]
pub struct UnknownAlgorithm(pub String);

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;

    fn from_str(text: &str) -> Result<Algorithm, UnknownAlgorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == text.trim())
            .ok_or_else(|| UnknownAlgorithm(text.to_string()))
    }
}

/// Runs `algorithm` from `start` to `goal`, with heuristic `heuristic` where it uses one.
///
/// Never panics on valid states; a pair on different boards or of different parity classes is
/// [`Outcome::Unsolvable`].
///
/// ```
/// use npuzzle::search::{self, Algorithm, Limits};
/// use npuzzle::{HeuristicKind, State};
/// let start: State = "867254301".parse()?;
/// let goal: State = "123456780".parse()?;
/// let result = search::run(
///     Algorithm::IdaStar,
///     HeuristicKind::LinearConflict,
///     &start,
///     &goal,
///     Limits::default(),
/// );
/// assert_eq!(result.solution().map(|s| s.len()), Some(31));
/// assert!(result.expanded > 0 && result.gave_up().is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(
    algorithm: Algorithm,
    heuristic: HeuristicKind,
    start: &State,
    goal: &State,
    limits: Limits,
) -> SearchResult {
    if start.board() != goal.board() {
        return unsolvable(Instant::now());
    }
    // One match here so that each search is compiled for its concrete heuristic.
    match heuristic {
        HeuristicKind::Misplaced => run_with(algorithm, &Misplaced::new(goal), start, limits),
        HeuristicKind::Manhattan => run_with(algorithm, &Manhattan::new(goal), start, limits),
        HeuristicKind::LinearConflict => {
            run_with(algorithm, &LinearConflict::new(goal), start, limits)
        }
        HeuristicKind::PatternDatabase => {
            match PatternHeuristic::build(goal, Partition::SixSixThree, true) {
                Ok(h) => match h.regular_reflected() {
                    Some(lean) => run_with(algorithm, &lean, start, limits),
                    None => run_with(algorithm, &h, start, limits),
                },
                Err(_) => run_with(algorithm, &LinearConflict::new(goal), start, limits),
            }
        }
    }
}

/// Runs `algorithm` from `start` to the goal of a heuristic already built (pattern databases,
/// or one heuristic reused for many starts). Searches without a heuristic use only its goal.
///
/// Never panics on valid states; a start on another board or of the other parity class is
/// [`Outcome::Unsolvable`].
///
/// ```
/// use npuzzle::heuristic::LinearConflict;
/// use npuzzle::search::{self, Algorithm, Limits};
/// use npuzzle::State;
/// let h = LinearConflict::new(&"123456780".parse()?);
/// let result = search::run_with(Algorithm::IdaStar, &h, &"867254301".parse()?, Limits::default());
/// assert_eq!(result.solution().map(|s| s.len()), Some(31));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_with<H: Heuristic + Sync>(
    algorithm: Algorithm,
    h: &H,
    start: &State,
    limits: Limits,
) -> SearchResult {
    if start.board() != h.goal().board() {
        return unsolvable(Instant::now());
    }
    match algorithm {
        Algorithm::AStar => astar::astar(start, h, limits),
        Algorithm::IdaStar if limits.threads > 1 || limits.checkpoint.is_some() => {
            parallel::parallel_idastar(start, h, limits)
        }
        Algorithm::IdaStar => idastar::idastar(start, h, limits),
        Algorithm::Greedy => greedy::greedy(start, h, limits),
        Algorithm::Bfs => bfs::bfs(start, h.goal(), limits),
        Algorithm::Iddfs => iddfs::iddfs(start, h.goal(), limits),
    }
}

/// Packs a state's cells, five bits each, into a `u128`: the key of the visited-state sets
/// (25 cells x 5 bits = 125 bits, so every board up to 5x5 fits). Two states of one board have
/// the same key exactly when they are equal.
#[inline]
pub(crate) fn pack(state: &State) -> u128 {
    state
        .cells()
        .iter()
        .fold(0u128, |key, &tile| (key << 5) | u128::from(tile))
}

/// Counts expansions against [`Limits`]; reads the clock only every few thousand expansions,
/// and tells the observer, if any, at the same moments.
pub(crate) struct Budget {
    began: Instant,
    limits: Limits,
    next_clock_check: u64,
    /// The bound the search last reported ([`Budget::note_bound`]), for the observer.
    bound: Option<u32>,
    /// A parallel search's shared account, told instead of the limits (see [`Watch`]).
    watch: Option<Box<dyn Watch + Send + Sync>>,
    /// Expansions already told to `watch`.
    told: u64,
}

/// What a search on one of several threads reports to, every few thousand expansions: the
/// parallel driver adds up the nodes, applies the limits to the whole search, tells the
/// observer, and stops a thread whose work is no longer needed.
pub(crate) trait Watch {
    /// `expanded` more expansions on this thread; `Some` stops this thread's search.
    fn tick(&self, expanded: u64) -> Option<Limit>;
}

/// Expansions between two readings of the clock.
const CLOCK_INTERVAL: u64 = 4096;

impl Budget {
    pub(crate) fn new(limits: Limits) -> Budget {
        Budget {
            began: Instant::now(),
            limits,
            next_clock_check: CLOCK_INTERVAL,
            bound: None,
            watch: None,
            told: 0,
        }
    }

    /// A budget that reports to `watch` instead of applying limits of its own.
    pub(crate) fn watched(watch: Box<dyn Watch + Send + Sync>) -> Budget {
        Budget {
            watch: Some(watch),
            ..Budget::new(Limits::NONE)
        }
    }

    /// Expansions not yet told to the watch (told when the search on this thread ends).
    pub(crate) fn untold(&self, expanded: u64) -> u64 {
        expanded - self.told
    }

    /// Records the bound on `g + h` now searched (one store; read only by the observer).
    #[inline]
    pub(crate) fn note_bound(&mut self, bound: u32) {
        self.bound = Some(bound);
    }

    /// The limit reached after `expanded` expansions, if any.
    #[inline]
    pub(crate) fn exhausted(&mut self, expanded: u64) -> Option<Limit> {
        if self.limits.max_expanded.is_some_and(|max| expanded >= max) {
            return Some(Limit::Nodes);
        }
        if expanded >= self.next_clock_check {
            self.next_clock_check = expanded + CLOCK_INTERVAL;
            return self.check_clock(expanded);
        }
        None
    }

    /// The time limit, and the observer: out of the hot path.
    #[cold]
    fn check_clock(&mut self, expanded: u64) -> Option<Limit> {
        if let Some(watch) = &self.watch {
            let delta = expanded - self.told;
            self.told = expanded;
            return watch.tick(delta);
        }
        if self.limits.max_time.is_none() && self.limits.observer.is_none() {
            return None;
        }
        let elapsed = self.began.elapsed();
        if let Some(observe) = self.limits.observer {
            let asked = observe(&Progress {
                expanded,
                bound: self.bound,
                elapsed,
                subtrees: None,
            });
            if asked.is_break() {
                return Some(Limit::Stopped);
            }
        }
        self.limits
            .max_time
            .is_some_and(|max| elapsed >= max)
            .then_some(Limit::Time)
    }

    pub(crate) fn finish(&self, outcome: Outcome, expanded: u64, generated: u64) -> SearchResult {
        SearchResult {
            outcome,
            expanded,
            generated,
            elapsed: self.began.elapsed(),
        }
    }
}

pub(crate) fn unsolvable(began: Instant) -> SearchResult {
    SearchResult {
        outcome: Outcome::Unsolvable,
        expanded: 0,
        generated: 0,
        elapsed: began.elapsed(),
    }
}
