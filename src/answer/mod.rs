//! The answer layer: one place decides how a question is answered.
//!
//! A question is a start and a goal on any board. [`Oracle`] answers it from an exact table
//! where the board has one ([`has_table`]: at most [`MAX_TABLE_CELLS`] cells), and by an
//! optimal search otherwise, within the [`Limits`] asked for. That search is IDA* with the
//! strongest additive pattern databases the source has for the goal's board and blank cell
//! (4x4: 7-8 if built, else 6-6-3, built on first use; 5x5: 6-6-6-6 if built), each with its
//! reflection, and with linear conflict where there are none. Tables come from a
//! [`TableSource`] the caller gives (built in memory, or a data directory) and stay open for
//! the oracle's life, one per board and blank cell; any goal is served by relabelling its
//! tiles onto the table of the canonical goal with the same blank cell.
//!
//! Every answer is an [`Answer`]: the value (or why there is none: [`NoAnswer`]), how it was
//! found ([`Method`]), and what it cost in nodes and time. The command line, and any other
//! shell, only parses, calls this layer and formats.
//!
//! ```
//! use npuzzle::answer::{How, Oracle};
//! use npuzzle::State;
//! let oracle = Oracle::in_memory();
//! // 3x3: from the exact table (built in memory on first use).
//! let start: State = "867254301".parse()?;
//! let goal = State::goal(start.board());
//! assert_eq!(oracle.distance(&start, &goal, How::default())?.value, Ok(31));
//! // Any goal, any board with a table: 2x3 here, with the goal's blank in the first cell.
//! let goal = State::parse("0 1 2 / 3 4 5", None)?;
//! let start = State::parse("1 0 2 / 3 4 5", None)?;
//! let path = oracle.solve(&start, &goal, How::default())?.value.expect("solvable");
//! assert_eq!(path.moves_string(), "L");
//! // 4x4 has no table: an optimal search answers.
//! let start: State = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15".parse()?;
//! let answer = oracle.distance(&start, &State::goal(start.board()), How::default())?;
//! assert_eq!(answer.value, Ok(1));
//! assert!(!answer.method.is_table());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bound;
mod data_dir;
mod mtm;
mod slots;
mod source;
mod stats;
pub mod store;

use std::fmt;
use std::sync::Mutex;
use std::time::Duration;

pub use bound::lower_bound;
pub use data_dir::{data_dir_from_env, default_data_dir, platform_data_dir, DATA_DIR_VAR};
pub use source::{
    BuildInMemory, DataDir, SourceError, SourceEvent, TableSource, ANNOUNCED_BUILD_BYTES,
};
pub use stats::DepthStats;

use crate::board::Board;
use crate::guarantee::{Factor, Guarantee};
use crate::heuristic::{Heuristic, HeuristicKind, Lookups, PatternHeuristic};
use crate::metric::Metric;
use crate::mtm::colouring::ColouringDb;
use crate::mtm::heuristic::MtmHeuristic;
use crate::mtm::MtmTable;
use crate::pattern::Partition;
use crate::rank::MAX_RANKED_CELLS;
use crate::sample::{self as sampling, Instance, SampleError, SampleOptions};
use crate::search::{self, Algorithm, Limit, Limits, Outcome};
use crate::solution::Solution;
use crate::state::State;
use crate::store::StoredBytes;
use crate::table::rows::RowsError;
use crate::table::{Table, TableError};
use crate::unsolvable::Unsolvable;
use crate::verify::{self, Claim, Verdict};
use std::collections::HashMap;
use std::sync::Arc;

/// Instances drawn by [`Oracle::sample`], lazily.
pub type Draws<'a> = Box<dyn Iterator<Item = Instance> + 'a>;

/// Boards of at most this many cells have exact tables: every index fits 32 bits, and the
/// largest table (3x4, 4x3, 2x6, 6x2) is 239,500,800 bytes.
pub const MAX_TABLE_CELLS: usize = MAX_RANKED_CELLS;

/// [`Oracle::distances`] checks the goal's table deeply before this many rows or more
/// ([`Oracle::check_table`]: 2 ms on 3x3, seconds on 12 cells), after which each row reads one
/// entry instead of five; fewer rows check each entry they read against its neighbours'.
pub const DEEP_CHECK_ROWS: usize = 100_000;

/// The board of a question that names none: the 8-puzzle's.
pub const DEFAULT_BOARD: Board = Board::THREE_BY_THREE;

/// Boards of at most this many cells are searched with A* when asked not to use a table: its
/// memory (every state seen) stays small there. Larger boards use IDA*, whose memory is one path.
pub const ASTAR_FALLBACK_MAX_CELLS: usize = 9;

/// The node limit of searches whose memory grows with the nodes (A*, BFS, greedy) when none is
/// given: about 1.5 GB of nodes and visited-state entries.
pub const DEFAULT_MEMORY_BOUND_NODES: u64 = 10_000_000;

/// Whether `board` has exact tables.
pub fn has_table(board: Board) -> bool {
    board.cells() <= MAX_TABLE_CELLS
}

/// How to answer a question.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct How {
    /// Which way, with the heuristic of a search that uses one: [`Choice::AUTO`] unless asked
    /// otherwise.
    pub choice: Choice,
    /// Limits of a search (a table answer needs none). An unset node limit becomes
    /// [`DEFAULT_MEMORY_BOUND_NODES`] for searches whose memory grows with the nodes.
    pub limits: Limits,
    /// How moves are counted: [`Metric::Stm`] unless asked otherwise. Under [`Metric::Mtm`]
    /// a board with tables is answered from its MTM table, built in memory on first use, and
    /// every other question by IDA* with the MTM walking distance (whatever search or
    /// heuristic is named: the STM estimates are not admissible under MTM).
    pub metric: Metric,
    /// What a solution must be ([`Oracle::solve`]): optimal (the default), within a factor
    /// of the optimum (weighted IDA* where no table answers), or anything (the constructive
    /// solver of [`crate::large`]). Distances are always exact.
    pub guarantee: Guarantee,
}

/// Which way to answer, and with which heuristic where the way is a search that uses one
/// (a table, BFS and IDDFS carry none).
///
/// A heuristic of `None` is the default one: pattern databases where IDA* finds some for the
/// goal (those it holds or can open), else linear conflict. A heuristic that is named is used
/// as named; [`HeuristicKind::PatternDatabase`] named where the goal has no databases is
/// [`AnswerError::NoDatabases`].
///
/// ```
/// use npuzzle::answer::Choice;
/// use npuzzle::heuristic::HeuristicKind;
/// use npuzzle::search::Algorithm;
/// let astar = Choice::search(Algorithm::AStar, Some(HeuristicKind::Manhattan));
/// assert_eq!(astar, Choice::AStar(Some(HeuristicKind::Manhattan)));
/// assert_eq!(astar.heuristic(), Some(HeuristicKind::Manhattan));
/// // BFS uses no heuristic, so it carries none.
/// assert_eq!(Choice::search(Algorithm::Bfs, Some(HeuristicKind::Manhattan)), Choice::Bfs);
/// assert_eq!(Choice::AUTO.algorithm(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Choice {
    /// The exact table where the board has one, else the fallback search with this
    /// heuristic: IDA* (A* on boards of at most [`ASTAR_FALLBACK_MAX_CELLS`] cells, where its
    /// memory stays small).
    Auto(Option<HeuristicKind>),
    /// The exact table only; boards without one are an error.
    Table,
    /// The fallback search of [`Choice::Auto`] with this heuristic, never a table.
    NoTable(Option<HeuristicKind>),
    /// A* ([`Algorithm::AStar`]) with this heuristic.
    AStar(Option<HeuristicKind>),
    /// IDA* ([`Algorithm::IdaStar`]) with this heuristic.
    IdaStar(Option<HeuristicKind>),
    /// Greedy best-first search ([`Algorithm::Greedy`]) with this heuristic: not optimal.
    Greedy(Option<HeuristicKind>),
    /// Breadth-first search ([`Algorithm::Bfs`]).
    Bfs,
    /// Iterative-deepening depth-first search ([`Algorithm::Iddfs`]).
    Iddfs,
}

impl Default for Choice {
    fn default() -> Choice {
        Choice::AUTO
    }
}

impl Choice {
    /// The default way: the exact table where the board has one, else the fallback search
    /// with the default heuristic.
    pub const AUTO: Choice = Choice::Auto(None);

    /// The search `algorithm`, with `heuristic` if it uses one (else the heuristic is
    /// dropped: it would mean nothing).
    pub fn search(algorithm: Algorithm, heuristic: Option<HeuristicKind>) -> Choice {
        match algorithm {
            Algorithm::AStar => Choice::AStar(heuristic),
            Algorithm::IdaStar => Choice::IdaStar(heuristic),
            Algorithm::Greedy => Choice::Greedy(heuristic),
            Algorithm::Bfs => Choice::Bfs,
            Algorithm::Iddfs => Choice::Iddfs,
        }
    }

    /// The search this choice names, if it names one (`None` for a table and for the
    /// fallback search, which depends on the board).
    pub fn algorithm(self) -> Option<Algorithm> {
        match self {
            Choice::AStar(_) => Some(Algorithm::AStar),
            Choice::IdaStar(_) => Some(Algorithm::IdaStar),
            Choice::Greedy(_) => Some(Algorithm::Greedy),
            Choice::Bfs => Some(Algorithm::Bfs),
            Choice::Iddfs => Some(Algorithm::Iddfs),
            Choice::Auto(_) | Choice::Table | Choice::NoTable(_) => None,
        }
    }

    /// The heuristic asked for, where this way can search with one (`None`: the default, or
    /// a way that uses none).
    pub fn heuristic(self) -> Option<HeuristicKind> {
        match self {
            Choice::Auto(heuristic)
            | Choice::NoTable(heuristic)
            | Choice::AStar(heuristic)
            | Choice::IdaStar(heuristic)
            | Choice::Greedy(heuristic) => heuristic,
            Choice::Table | Choice::Bfs | Choice::Iddfs => None,
        }
    }

    /// Whether this way may answer from a table.
    fn may_use_table(self) -> bool {
        matches!(self, Choice::Auto(_) | Choice::Table)
    }
}

impl How {
    /// The default way, searching within `limits` where there is no table.
    pub fn within(limits: Limits) -> How {
        How {
            limits,
            ..How::default()
        }
    }

    /// By `algorithm` with `heuristic` (where it uses one: see [`Choice::search`]), within
    /// `limits`.
    pub fn search(algorithm: Algorithm, heuristic: Option<HeuristicKind>, limits: Limits) -> How {
        How::choosing(Choice::search(algorithm, heuristic), limits)
    }

    /// By the fallback search with `heuristic`, never a table, within `limits`.
    pub fn without_table(heuristic: Option<HeuristicKind>, limits: Limits) -> How {
        How::choosing(Choice::NoTable(heuristic), limits)
    }

    /// The default way with `heuristic` for the fallback search, within `limits`.
    pub fn auto(heuristic: Option<HeuristicKind>, limits: Limits) -> How {
        How::choosing(Choice::Auto(heuristic), limits)
    }

    /// By `choice`, within `limits`, otherwise the default way.
    pub fn choosing(choice: Choice, limits: Limits) -> How {
        How {
            choice,
            limits,
            metric: Metric::Stm,
            guarantee: Guarantee::Optimal,
        }
    }

    /// This way, with solutions held to `guarantee` instead of optimal ones (see
    /// [`How::guarantee`]).
    ///
    /// ```
    /// use npuzzle::{Guarantee, How, Oracle, State};
    /// let start: State = "8 13 5 4 3 7 15 9 1 12 6 14 11 0 10 2".parse()?; // 4x4
    /// let goal = State::goal(start.board());
    /// let how = How::default().with_guarantee(Guarantee::None);
    /// let answer = Oracle::search_only().solve(&start, &goal, how)?;
    /// assert_eq!(answer.method.guarantee(), Guarantee::None);
    /// assert_eq!(answer.value?.end(), goal);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_guarantee(mut self, guarantee: Guarantee) -> How {
        self.guarantee = guarantee;
        self
    }

    /// The same way, counting moves in `metric`.
    ///
    /// ```
    /// use npuzzle::{How, Metric, Oracle, State};
    /// let oracle = Oracle::in_memory();
    /// let start: State = "123456078".parse()?;
    /// let goal = State::goal(start.board());
    /// assert_eq!(oracle.distance(&start, &goal, How::default())?.value, Ok(2));
    /// let mtm = How::default().in_metric(Metric::Mtm);
    /// assert_eq!(oracle.distance(&start, &goal, mtm)?.value, Ok(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn in_metric(self, metric: Metric) -> How {
        How { metric, ..self }
    }

    /// From the exact table only.
    pub fn table() -> How {
        How {
            choice: Choice::Table,
            ..How::default()
        }
    }
}

/// How an answer was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Method {
    /// Read from the exact table of this (canonical) goal.
    Table {
        /// The table's goal.
        goal: State,
    },
    /// Found by a search.
    Search {
        /// The algorithm.
        algorithm: Algorithm,
        /// Its heuristic, where it uses one.
        heuristic: Option<HeuristicKind>,
        /// The pattern databases, where the heuristic is [`HeuristicKind::PatternDatabase`].
        databases: Option<Databases>,
    },
    /// Decided without a table or a search: an unsolvable pair (by parity), or a claim judged
    /// from itself alone (an illegal move, a wrong end).
    Reasoning,
    /// Bounded-suboptimal search ([`search::bounded_idastar`]: passes of weighted IDA*,
    /// `g + factor * h` with `h` admissible, against a proven lower bound): at most `factor`
    /// times the optimum.
    Bounded {
        /// The factor.
        factor: Factor,
        /// The heuristic.
        heuristic: HeuristicKind,
        /// The pattern databases, where the heuristic is [`HeuristicKind::PatternDatabase`].
        databases: Option<Databases>,
    },
    /// The constructive solver ([`crate::large::solve_constructive`]): no length guarantee.
    Constructive,
}

impl Method {
    /// Whether the answer came from an exact table.
    pub fn is_table(&self) -> bool {
        matches!(self, Method::Table { .. })
    }

    /// Whether a path found this way is always optimal (every way but greedy search, the
    /// bounded search and the constructive solver).
    pub fn is_optimal(&self) -> bool {
        self.guarantee() == Guarantee::Optimal
    }

    /// What a path found this way is guaranteed to be.
    pub fn guarantee(&self) -> Guarantee {
        match self {
            Method::Search {
                algorithm: Algorithm::Greedy,
                ..
            }
            | Method::Constructive => Guarantee::None,
            Method::Bounded { factor, .. } => Guarantee::Within(*factor),
            _ => Guarantee::Optimal,
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Method::Table { .. } => f.write_str("table"),
            Method::Search {
                algorithm,
                databases: Some(databases),
                ..
            } => write!(f, "{algorithm} with pattern databases {databases}"),
            Method::Search {
                algorithm,
                heuristic: Some(heuristic),
                ..
            } => write!(f, "{algorithm} with {heuristic}"),
            Method::Search { algorithm, .. } => write!(f, "{algorithm}"),
            Method::Reasoning => f.write_str("parity and replay"),
            Method::Bounded {
                factor,
                databases: Some(databases),
                ..
            } => write!(
                f,
                "weighted idastar (w = {factor}) with pattern databases {databases}"
            ),
            Method::Bounded {
                factor, heuristic, ..
            } => write!(f, "weighted idastar (w = {factor}) with {heuristic}"),
            Method::Constructive => f.write_str("constructive"),
        }
    }
}

/// Which pattern databases answered: a named partition, and which of its lookups were maxed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Databases {
    /// The partition.
    pub partition: Partition,
    /// Whether the lookup of the position reflected about the diagonal was used too.
    pub reflected: bool,
    /// Every lookup used (regular, reflected, dual, dual-reflected).
    pub lookups: Lookups,
}

impl fmt::Display for Databases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.partition)?;
        match self.lookups {
            Lookups::REGULAR => Ok(()),
            Lookups::REFLECTED => f.write_str(" + reflection"),
            other => write!(f, ", lookups {other}"),
        }
    }
}

/// Why a valid question has no answer value. An [`Error`](std::error::Error), so that `?`
/// carries it into `Box<dyn Error>` with the rest:
///
/// ```
/// use npuzzle::{How, Oracle, State};
///
/// fn distance(start: &str) -> Result<u8, Box<dyn std::error::Error>> {
///     let start: State = start.parse()?;
///     let goal = State::goal(start.board());
///     Ok(Oracle::in_memory().distance(&start, &goal, How::default())?.value?)
/// }
/// assert_eq!(distance("123456708").unwrap(), 1);
/// let unsolvable = distance("213456780").unwrap_err();
/// assert_eq!(
///     unsolvable.to_string(),
///     "213456780 cannot reach 123456780: the parity of tile inversions is odd for the start \
///      but even for the goal, and no move changes it"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NoAnswer {
    /// The start cannot reach the goal: their parity classes differ ([`Unsolvable`] says how).
    #[error("{0}")]
    Unsolvable(Unsolvable),
    /// The search reached a limit first.
    #[error("the search reached its {0} before an answer")]
    GaveUp(Limit),
}

impl NoAnswer {
    /// [`NoAnswer::Unsolvable`] for a pair the answer layer found unsolvable (by parity, a
    /// table's lookup or a search, each of which decides by parity).
    pub(crate) fn unsolvable(start: &State, goal: &State) -> NoAnswer {
        NoAnswer::Unsolvable(Unsolvable::of(start, goal))
    }
}

/// An answer: the value or why there is none, how it was found, and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Answer<T> {
    /// The value, or why there is none.
    pub value: Result<T, NoAnswer>,
    /// How it was found.
    pub method: Method,
    /// Nodes whose successors were produced (for a table's path: the states along it).
    pub expanded: u64,
    /// Successors produced (for a table's path: the neighbours read).
    pub generated: u64,
    /// Time spent searching (zero for a table answer: it is not measured, to keep it cheap).
    pub elapsed: Duration,
}

impl<T> Answer<T> {
    fn of(value: Result<T, NoAnswer>, method: Method) -> Answer<T> {
        Answer {
            value,
            method,
            expanded: 0,
            generated: 0,
            elapsed: Duration::ZERO,
        }
    }

    /// The value, and the rest of the answer (how and at what cost) without it.
    pub fn split(self) -> (Result<T, NoAnswer>, Answer<()>) {
        let rest = Answer {
            value: Ok(()),
            method: self.method,
            expanded: self.expanded,
            generated: self.generated,
            elapsed: self.elapsed,
        };
        (self.value, rest)
    }

    /// The same answer with its value changed by `f`.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Answer<U> {
        Answer {
            value: self.value.map(f),
            method: self.method,
            expanded: self.expanded,
            generated: self.generated,
            elapsed: self.elapsed,
        }
    }
}

/// Why a question could not be answered at all (as opposed to [`NoAnswer`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AnswerError {
    /// The start and the goal are on different boards.
    #[error("the start {start} is on a {} board but the goal {goal} is on a {} board", start.board(), goal.board())]
    OtherBoards {
        /// The start.
        start: State,
        /// The goal.
        goal: State,
    },
    /// An exact table was asked for on a board that has none.
    #[error("no exact table for the {board} board: tables cover boards of at most {MAX_TABLE_CELLS} cells")]
    NoTable {
        /// The board.
        board: Board,
    },
    /// A distance was asked of a search that does not find shortest paths.
    #[error("{algorithm} does not find shortest paths, so it cannot give the distance: use astar, idastar, bfs or iddfs")]
    NotOptimal {
        /// The algorithm.
        algorithm: Algorithm,
    },
    /// The table could not be opened or built.
    #[error("cannot open the table for goal {goal}: {reason}")]
    Source {
        /// The canonical goal.
        goal: State,
        /// Why.
        reason: SourceError,
    },
    /// The table could not answer: damaged, or inconsistent along a path.
    #[error(transparent)]
    Table(#[from] TableError),
    /// Rows of many starts could not all be answered ([`Oracle::distances`]).
    #[error(transparent)]
    Rows(#[from] RowsError),
    /// Instances cannot be drawn as asked.
    #[error(transparent)]
    Sample(#[from] SampleError),
    /// The checkpoint of a long search was damaged, foreign or unwritable.
    #[error(transparent)]
    Checkpoint(#[from] crate::search::checkpoint::CheckpointError),
    /// Pattern databases were asked for where there are none.
    #[error("no pattern databases for goal {goal}: they exist for 4x4 and 5x5 goals with the blank in a corner; 4x4 6-6-3 is built on first use, 4x4 7-8 and 5x5 6-6-6-6 only when built ahead into the source's directory")]
    NoDatabases {
        /// The goal.
        goal: State,
    },
    /// A pattern database could not be opened or built.
    #[error("cannot open the pattern databases for goal {goal}: {reason}")]
    DatabaseSource {
        /// The canonical goal.
        goal: State,
        /// Why.
        reason: SourceError,
    },
}

/// The lookups the answer layer's pattern heuristic maxes (those the goal allows): regular
/// and reflected. The dual ones, ranked from scratch per node, saved 8% of the generated
/// nodes on Korf's 100 (7-8) and 1-5% on the easiest 24-puzzles (6-6-6-6), at 1.5-3 times
/// the time per node (BENCHMARKS.md, "Dual lookups, dual search and move pruning"); ask for
/// them with [`PatternHeuristic::with_lookups`].
pub const PATTERN_LOOKUPS: Lookups = Lookups::REFLECTED;

/// The pattern heuristic of one canonical goal and which databases it holds.
type Patterns = Option<Arc<(PatternHeuristic, Databases)>>;

/// Answers any start and goal on any board: from exact tables where they exist, by search
/// elsewhere. Safe to share between threads (`&Oracle` answers; tables open on first use).
pub struct Oracle {
    source: Option<Box<dyn TableSource>>,
    slots: slots::Slots,
    /// Held while a table is opened or built, so each is opened once.
    loading: Mutex<()>,
    /// The pattern heuristic of each board and blank cell asked about (`None`: none there).
    patterns: Mutex<HashMap<(Board, usize), Patterns>>,
    /// The MTM table of each board and blank cell asked about, built in memory.
    mtm_tables: slots::Slots<MtmTable>,
    /// The MTM estimate of each goal searched for.
    mtm_estimates: Mutex<HashMap<State, Arc<MtmHeuristic>>>,
    /// The 4x4 MTM colouring database, once asked for (`None`: it could not be had).
    mtm_colouring: std::sync::OnceLock<Option<Arc<ColouringDb<StoredBytes>>>>,
}

impl fmt::Debug for Oracle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Oracle")
            .field("uses_tables", &self.source.is_some())
            .finish_non_exhaustive()
    }
}

impl Oracle {
    /// An oracle whose tables come from `source`.
    pub fn new(source: impl TableSource + 'static) -> Oracle {
        Oracle {
            source: Some(Box::new(source)),
            slots: slots::Slots::new(),
            loading: Mutex::new(()),
            patterns: Mutex::new(HashMap::new()),
            mtm_tables: slots::Slots::new(),
            mtm_estimates: Mutex::new(HashMap::new()),
            mtm_colouring: std::sync::OnceLock::new(),
        }
    }

    /// An oracle that builds every table it needs in memory (nothing touches the disk).
    pub fn in_memory() -> Oracle {
        Oracle::new(BuildInMemory::default())
    }

    /// An oracle that never uses (or builds) a table: every question is searched.
    pub fn search_only() -> Oracle {
        Oracle {
            source: None,
            slots: slots::Slots::new(),
            loading: Mutex::new(()),
            patterns: Mutex::new(HashMap::new()),
            mtm_tables: slots::Slots::new(),
            mtm_estimates: Mutex::new(HashMap::new()),
            mtm_colouring: std::sync::OnceLock::new(),
        }
    }

    /// Whether questions on `board` are answered from a table.
    pub fn uses_table(&self, board: Board) -> bool {
        self.source.is_some() && has_table(board)
    }

    /// The table serving `goal` (the canonical table with its blank cell), opened or built on
    /// first use; `Ok(None)` where no table is used for its board.
    ///
    /// # Errors
    /// [`AnswerError::Source`] when the source cannot give it.
    pub fn table(&self, goal: &State) -> Result<Option<&Table<StoredBytes>>, AnswerError> {
        let Some(source) = &self.source else {
            return Ok(None);
        };
        self.slots
            .get_or_load(goal.board(), goal.blank(), &self.loading, || {
                let canonical = State::canonical_goal(goal.board(), goal.blank());
                source
                    .table(&canonical)
                    // A source's table must count STM moves, whatever file it came from.
                    .and_then(
                        |table| match table.expect_metric(crate::metric::Metric::Stm) {
                            Ok(()) => Ok(table),
                            Err(mismatch) => Err(mismatch.into()),
                        },
                    )
                    .map_err(|reason| AnswerError::Source {
                        goal: canonical,
                        reason,
                    })
            })
    }

    /// Checks the table serving `goal` deeply, once ([`Table::verify_deep`]: 2 ms on 3x3,
    /// seconds on 12 cells), so that later distances read one entry each instead of checking
    /// it against its neighbours: worth it before many questions on one goal. Boards without
    /// a table have nothing to check.
    ///
    /// # Errors
    /// [`AnswerError::Source`], or [`AnswerError::Table`] naming the damage found.
    pub fn check_table(&self, goal: &State) -> Result<(), AnswerError> {
        match self.table(goal)? {
            Some(table) => {
                let checked = table.verify_deep();
                Ok(self.read(table, checked)?)
            }
            None => Ok(()),
        }
    }

    /// The pattern databases serving `goal` (those of the canonical goal with its blank cell),
    /// the strongest the source has: on 4x4, 7-8 if present, else 6-6-3, which the source
    /// may build now; on 5x5, 6-6-6-6 if present. Opened once per board and blank cell.
    /// `Ok(None)` where there are none (another board, the blank not in a corner, no source).
    ///
    /// # Errors
    /// [`AnswerError::DatabaseSource`] when the source fails to open or build one.
    pub fn pattern_databases(
        &self,
        goal: &State,
    ) -> Result<Option<Arc<(PatternHeuristic, Databases)>>, AnswerError> {
        self.find_pattern_databases(goal, true)
    }

    /// The pattern databases serving `goal` that this oracle holds or its source has now:
    /// what [`pattern_databases`](Self::pattern_databases) gives, without building any. For a
    /// question that must not start a build of seconds or minutes (a menu saying which boards
    /// have databases, before anyone asked one). `Ok(None)` where none is there yet, which is
    /// not remembered: a later [`pattern_databases`](Self::pattern_databases) may still build
    /// [`Partition::built_on_first_use`].
    ///
    /// ```
    /// use npuzzle::{Oracle, State};
    /// let oracle = Oracle::in_memory(); // builds 6-6-3 when asked, but not here
    /// let goal = State::goal("4x4".parse()?);
    /// assert!(oracle.open_pattern_databases(&goal)?.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`AnswerError::DatabaseSource`] when the source fails to open one.
    pub fn open_pattern_databases(
        &self,
        goal: &State,
    ) -> Result<Option<Arc<(PatternHeuristic, Databases)>>, AnswerError> {
        self.find_pattern_databases(goal, false)
    }

    /// [`pattern_databases`](Self::pattern_databases), building only where `build` is set.
    fn find_pattern_databases(
        &self,
        goal: &State,
        build: bool,
    ) -> Result<Option<Arc<(PatternHeuristic, Databases)>>, AnswerError> {
        let Some(source) = &self.source else {
            return Ok(None);
        };
        let key = (goal.board(), goal.blank());
        let lock = |m: &'_ Mutex<HashMap<(Board, usize), Patterns>>| {
            // As for `loading`: a panic elsewhere leaves the map whole.
            m.lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&key)
                .cloned()
        };
        if let Some(known) = lock(&self.patterns) {
            return Ok(known);
        }
        let _guard = self.loading.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(known) = lock(&self.patterns) {
            return Ok(known);
        }
        let canonical = State::canonical_goal(goal.board(), goal.blank());
        let failed = |reason| AnswerError::DatabaseSource {
            goal: canonical,
            reason,
        };
        let mut found = None;
        for partition in Partition::strongest_first(goal.board()) {
            let Some(groups) = partition.groups(&canonical) else {
                continue;
            };
            let build = build && Partition::built_on_first_use(goal.board()) == Some(partition);
            let mut databases = Vec::new();
            for tiles in &groups {
                match source
                    .pattern_database(&canonical, tiles, build)
                    .map_err(failed)?
                {
                    Some(db) => databases.push(Arc::new(db)),
                    None => break,
                }
            }
            if databases.len() == groups.len() {
                let h = PatternHeuristic::with_lookups(&canonical, databases, PATTERN_LOOKUPS)
                    .map_err(|e| failed(Box::new(e)))?;
                let which = Databases {
                    partition,
                    reflected: h.is_reflected(),
                    lookups: h.lookups(),
                };
                found = Some(Arc::new((h, which)));
                break;
            }
        }
        // "None yet" without a build is no answer for a later question that may build.
        if build || found.is_some() {
            self.patterns
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(key, found.clone());
        }
        Ok(found)
    }

    /// The databases of one named `partition` for `goal` (a canonical goal), opened from the
    /// source and never built, whatever [`pattern_databases`](Self::pattern_databases) would
    /// pick: for a second partition to max with the first ([`crate::heuristic::MaxPartitions`],
    /// `5x5:6-6-6-6b`). Not kept by the oracle. `Ok(None)` where the partition has no groups
    /// for the goal, a database is missing, or there is no source.
    ///
    /// # Errors
    /// [`AnswerError::DatabaseSource`] when the source fails to open one.
    pub fn partition_databases(
        &self,
        goal: &State,
        partition: Partition,
    ) -> Result<Option<Vec<Arc<crate::pattern::PatternDatabase<StoredBytes>>>>, AnswerError> {
        let (Some(source), Some(groups)) = (&self.source, partition.groups(goal)) else {
            return Ok(None);
        };
        let mut databases = Vec::with_capacity(groups.len());
        for tiles in &groups {
            let opened = source
                .pattern_database(goal, tiles, false)
                .map_err(|reason| AnswerError::DatabaseSource {
                    goal: *goal,
                    reason,
                })?;
            match opened {
                Some(db) => databases.push(Arc::new(db)),
                None => return Ok(None),
            }
        }
        Ok(Some(databases))
    }

    /// The best lower bound on the moves from `start` to `goal` known without a search: the
    /// linear conflict estimate ([`lower_bound`]), maxed with the pattern databases this
    /// oracle already holds for the goal's board and blank cell (never opened or built here,
    /// so it costs microseconds). What a shell shows, labelled "at least", when a search
    /// gave up. `None` when `start` cannot reach `goal` or the boards differ.
    ///
    /// ```
    /// use npuzzle::{How, Oracle, State};
    /// let oracle = Oracle::in_memory();
    /// let start: State = "867254301".parse()?;
    /// let goal = State::goal(start.board());
    /// let bound = oracle.lower_bound(&start, &goal).expect("solvable");
    /// let exact = oracle.distance(&start, &goal, How::default())?.value.expect("solvable");
    /// assert!(bound <= u32::from(exact));
    /// assert_eq!(oracle.lower_bound(&start, &"123456870".parse()?), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lower_bound(&self, start: &State, goal: &State) -> Option<u32> {
        let plain = lower_bound(start, goal)?;
        let held = self
            .patterns
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&(goal.board(), goal.blank()))
            .cloned()
            .flatten();
        Some(match held {
            // The databases are for the canonical goal: relabel the start onto it.
            Some(found) => plain.max(found.0.estimate(&start.relabel_for(goal))),
            None => plain,
        })
    }

    /// The table serving `goal` if it is already open: never opens or builds one.
    #[inline]
    pub fn open_table(&self, goal: &State) -> Option<&Table<StoredBytes>> {
        self.slots.slot(goal.board(), goal.blank())?.get()
    }

    fn same_board(start: &State, goal: &State) -> Result<(), AnswerError> {
        if start.board() == goal.board() {
            Ok(())
        } else {
            Err(AnswerError::OtherBoards {
                start: *start,
                goal: *goal,
            })
        }
    }

    /// The table to answer from, if `how` and the board call for one.
    fn table_for(
        &self,
        goal: &State,
        how: How,
    ) -> Result<Option<&Table<StoredBytes>>, AnswerError> {
        match how.choice {
            Choice::Table => self.table(goal)?.map(Some).ok_or(AnswerError::NoTable {
                board: goal.board(),
            }),
            Choice::Auto(_) => self.table(goal),
            _ => Ok(None),
        }
    }

    /// The exact number of moves from `start` to `goal`.
    ///
    /// # Errors
    /// [`AnswerError`] for a question that cannot be asked this way (other boards, no table
    /// where one was required, a search that is not optimal) or a damaged table.
    pub fn distance(
        &self,
        start: &State,
        goal: &State,
        how: How,
    ) -> Result<Answer<u8>, AnswerError> {
        if how.metric == Metric::Mtm {
            return self.mtm_distance(start, goal, how);
        }
        match self.route(start, goal, how)? {
            Route::Answered(answer) => Ok(answer),
            Route::Table(table) => self.table_distance(table, start, goal),
            Route::Search => match how.choice.algorithm() {
                Some(algorithm) if !algorithm.is_optimal() => {
                    Err(AnswerError::NotOptimal { algorithm })
                }
                _ => Ok(self.search(start, goal, how)?.map(|s| {
                    u8::try_from(s.len()).expect(
                        "an optimal search that finishes on at most 25 cells ends below 256 moves",
                    )
                })),
            },
        }
    }

    /// [`Oracle::distance`] where it is one read of an exact table that is already open, else
    /// `None` (the table is not open yet, the board has none, `how` asks for a search or
    /// the multi-tile metric): never opens, builds or searches, so it costs what the read
    /// costs. For callers that would otherwise pay to release a lock around a question that
    /// might take long (the Python module releases the GIL only when this gives `None`).
    ///
    /// ```
    /// use npuzzle::answer::{How, Oracle};
    /// use npuzzle::State;
    /// let oracle = Oracle::in_memory();
    /// let (start, goal): (State, State) = ("123456708".parse()?, "123456780".parse()?);
    /// assert!(oracle.distance_if_open(&start, &goal, How::default()).is_none());
    /// assert_eq!(oracle.distance(&start, &goal, How::default())?.value, Ok(1)); // opens it
    /// let answer = oracle.distance_if_open(&start, &goal, How::default()).unwrap()?;
    /// assert_eq!(answer.value, Ok(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn distance_if_open(
        &self,
        start: &State,
        goal: &State,
        how: How,
    ) -> Option<Result<Answer<u8>, AnswerError>> {
        let by_table = matches!(how.choice, Choice::Table | Choice::Auto(_));
        if how.metric != Metric::Stm || !by_table || start.board() != goal.board() {
            return None;
        }
        let table = self.open_table(goal)?;
        Some(self.table_distance(table, start, goal))
    }

    /// The distance read from `table`, checked against the neighbours' entries: four more
    /// reads, and an entry edited behind valid checksums is refused rather than answered.
    fn table_distance(
        &self,
        table: &Table<StoredBytes>,
        start: &State,
        goal: &State,
    ) -> Result<Answer<u8>, AnswerError> {
        let value = self.read(table, table.distance_to_checked(start, goal))?;
        Ok(Answer::of(
            value.ok_or_else(|| NoAnswer::unsolvable(start, goal)),
            table_method(table),
        ))
    }

    /// The distances of many starts to one `goal`, given as rows of tile bytes, written into
    /// `out` ([`Table::distances_to_checked`]: unsolvable rows get
    /// [`UNSOLVABLE`](crate::table::rows::UNSOLVABLE)). The goal's table is opened once, and
    /// checked deeply first for [`DEEP_CHECK_ROWS`] rows or more; the rows are answered in
    /// parallel on rayon's current pool. Nothing is opened for no rows.
    ///
    /// ```
    /// use npuzzle::{Oracle, State};
    /// let oracle = Oracle::in_memory();
    /// let goal: State = "876543210".parse()?;
    /// let mut out = [0; 2];
    /// oracle.distances(&[8, 7, 6, 5, 4, 3, 2, 1, 0, 8, 7, 6, 5, 4, 3, 2, 0, 1], &goal, &mut out)?;
    /// assert_eq!(out, [0, 1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`AnswerError::NoTable`] for a board this oracle answers by search (ask
    /// [`Oracle::distance`] row by row there, within limits); [`AnswerError::Source`] or
    /// [`AnswerError::Table`] when the table cannot be opened or fails its deep check;
    /// [`AnswerError::Rows`] for rows of the wrong shape, and for the first row that is not a
    /// state or whose entry cannot be trusted. Never panics.
    pub fn distances(&self, rows: &[u8], goal: &State, out: &mut [u8]) -> Result<(), AnswerError> {
        if !self.uses_table(goal.board()) {
            return Err(AnswerError::NoTable {
                board: goal.board(),
            });
        }
        if rows.is_empty() && out.is_empty() {
            return Ok(());
        }
        let Some(table) = self.table(goal)? else {
            // `uses_table` said there is one.
            return Err(AnswerError::NoTable {
                board: goal.board(),
            });
        };
        if out.len() >= DEEP_CHECK_ROWS {
            let checked = table.verify_deep();
            self.read(table, checked)?;
        }
        let reply = table.distances_to_checked(rows, goal, out);
        if let Err(RowsError::Table { error, .. }) = &reply {
            self.note_damage(table, error);
        }
        Ok(reply?)
    }

    /// An optimal solution from `start` to `goal` (or, with greedy search, a solution).
    ///
    /// # Errors
    /// As [`Oracle::distance`].
    pub fn solve(
        &self,
        start: &State,
        goal: &State,
        how: How,
    ) -> Result<Answer<Solution>, AnswerError> {
        if how.guarantee == Guarantee::None {
            Oracle::same_board(start, goal)?;
            return Ok(constructive(start, goal));
        }
        if how.metric == Metric::Mtm {
            return self.mtm_solve(start, goal, how);
        }
        let table = match self.route(start, goal, how)? {
            Route::Answered(answer) => return Ok(answer),
            Route::Table(table) => table,
            Route::Search => match how.guarantee {
                Guarantee::Within(factor) if factor != Factor::ONE => {
                    return self.bounded(start, goal, factor, how.limits)
                }
                _ => return self.search(start, goal, how),
            },
        };
        let value = self
            .read(table, table.solve_to(start, goal))?
            .ok_or_else(|| NoAnswer::unsolvable(start, goal));
        let mut answer = Answer::of(value, table_method(table));
        // A table's path costs the states along it and the neighbours read from them.
        if let Ok(solution) = &answer.value {
            let along = &solution.path()[..solution.len()];
            answer.expanded = along.len() as u64;
            answer.generated = along.iter().map(|s| s.successors().count() as u64).sum();
        }
        Ok(answer)
    }

    /// Where a question goes: answered already (an unsolvable pair, by parity, before a table
    /// is opened for it), to a table, or to a search.
    fn route<T>(&self, start: &State, goal: &State, how: How) -> Result<Route<'_, T>, AnswerError> {
        Oracle::same_board(start, goal)?;
        if let Some(unsolvable) = self.unsolvable_before_opening(start, goal) {
            return Ok(Route::Answered(unsolvable));
        }
        Ok(match self.table_for(goal, how)? {
            Some(table) => Route::Table(table),
            None => Route::Search,
        })
    }

    /// An unsolvable pair's answer, decided by parity, when the goal's table is not open yet:
    /// a question with no answer must not cost a table's opening (or building). Once it is
    /// open, the table's own lookup checks the parity as it ranks, at no extra cost.
    fn unsolvable_before_opening<T>(&self, start: &State, goal: &State) -> Option<Answer<T>> {
        (self.open_table(goal).is_none() && !start.can_reach(goal))
            .then(|| Answer::of(Err(NoAnswer::unsolvable(start, goal)), Method::Reasoning))
    }

    /// A table's reply, telling the source about damage so that it is not opened again.
    fn read<T>(
        &self,
        table: &Table<StoredBytes>,
        reply: Result<T, TableError>,
    ) -> Result<T, AnswerError> {
        if let Err(error) = &reply {
            self.note_damage(table, error);
        }
        Ok(reply?)
    }

    /// Tells the source that `table` is damaged, if `error` says so, so that it is not
    /// opened again.
    fn note_damage(&self, table: &Table<StoredBytes>, error: &TableError) {
        if let (TableError::Damaged { .. }, Some(source)) = (error, &self.source) {
            source.damaged(table.goal());
        }
    }

    /// Runs the search `how` names (the fallback for [`Choice::Auto`]): with pattern
    /// databases where they were asked for, or where the fallback IDA* finds some; else with
    /// the heuristic asked for (linear conflict by default).
    fn search(
        &self,
        start: &State,
        goal: &State,
        how: How,
    ) -> Result<Answer<Solution>, AnswerError> {
        let algorithm = how
            .choice
            .algorithm()
            .unwrap_or_else(|| fallback_algorithm(start.board()));
        let asked_heuristic = how.choice.heuristic();
        let mut limits = how.limits;
        if algorithm.keeps_visited_states() && limits.max_expanded.is_none() {
            limits.max_expanded = Some(DEFAULT_MEMORY_BOUND_NODES);
        }
        let asked = asked_heuristic == Some(HeuristicKind::PatternDatabase);
        let automatic = asked_heuristic.is_none() && algorithm == Algorithm::IdaStar;
        let patterns =
            if algorithm.uses_heuristic() && (asked || automatic) && start.can_reach(goal) {
                self.pattern_databases(goal)?
            } else {
                None
            };
        if asked && patterns.is_none() && start.can_reach(goal) {
            return Err(AnswerError::NoDatabases { goal: *goal });
        }
        let (result, heuristic, databases) = match &patterns {
            Some(found) => {
                let (h, which) = &**found;
                // The databases are for the canonical goal: relabel the start (moves commute
                // with relabelling), then replay the moves from the caller's start.
                // Without dual lookups the search runs on the heuristic's smaller node.
                let relabelled = start.relabel_for(goal);
                let mut result = match h.regular_reflected() {
                    Some(lean) => search::run_with(algorithm, &lean, &relabelled, limits),
                    None => search::run_with(algorithm, h, &relabelled, limits),
                };
                if let Outcome::Solved(solution) = &result.outcome {
                    let moves = solution.moves().to_vec();
                    result.outcome = Outcome::Solved(
                        Solution::from_moves(*start, moves).expect("the same moves are legal"),
                    );
                }
                (result, HeuristicKind::PatternDatabase, Some(*which))
            }
            None => {
                let heuristic = match asked_heuristic {
                    None | Some(HeuristicKind::PatternDatabase) => HeuristicKind::LinearConflict,
                    Some(h) => h,
                };
                (
                    search::run(algorithm, heuristic, start, goal, limits),
                    heuristic,
                    None,
                )
            }
        };
        let value = match result.outcome {
            Outcome::Refused(error) => return Err(AnswerError::Checkpoint(error)),
            Outcome::Solved(solution) => Ok(solution),
            Outcome::Unsolvable => Err(NoAnswer::unsolvable(start, goal)),
            Outcome::GaveUp(limit) => Err(NoAnswer::GaveUp(limit)),
        };
        // Every search decides an unsolvable pair by parity, before searching.
        let method = match value {
            Err(NoAnswer::Unsolvable(_)) => Method::Reasoning,
            _ => Method::Search {
                algorithm,
                heuristic: algorithm.uses_heuristic().then_some(heuristic),
                databases: databases.filter(|_| algorithm.uses_heuristic()),
            },
        };
        Ok(Answer {
            value,
            method,
            expanded: result.expanded,
            generated: result.generated,
            elapsed: result.elapsed,
        })
    }

    /// The bounded-suboptimal search ([`search::bounded_idastar`]) with `factor`: on the
    /// pattern databases where the goal has some, else on linear conflict (both admissible,
    /// so the factor is guaranteed).
    fn bounded(
        &self,
        start: &State,
        goal: &State,
        factor: Factor,
        limits: Limits,
    ) -> Result<Answer<Solution>, AnswerError> {
        let patterns = self.pattern_databases(goal)?;
        let (mut result, heuristic, databases) = match &patterns {
            Some(found) => {
                let (h, which) = &**found;
                let relabelled = start.relabel_for(goal);
                let found = match h.regular_reflected() {
                    Some(lean) => search::bounded_idastar(&relabelled, &lean, factor, limits),
                    None => search::bounded_idastar(&relabelled, h, factor, limits),
                };
                (found.result, HeuristicKind::PatternDatabase, Some(*which))
            }
            None => {
                let h = crate::heuristic::LinearConflict::new(goal);
                let result = search::bounded_idastar(start, &h, factor, limits).result;
                (result, HeuristicKind::LinearConflict, None)
            }
        };
        let value = match std::mem::replace(&mut result.outcome, Outcome::Unsolvable) {
            // The moves of a relabelled start solve the caller's start too.
            Outcome::Solved(solution) => {
                Ok(Solution::from_moves(*start, solution.moves().to_vec())
                    .expect("the same moves are legal"))
            }
            Outcome::GaveUp(limit) => Err(NoAnswer::GaveUp(limit)),
            Outcome::Refused(error) => return Err(AnswerError::Checkpoint(error)),
            Outcome::Unsolvable => Err(NoAnswer::unsolvable(start, goal)),
        };
        Ok(Answer {
            value,
            method: Method::Bounded {
                factor,
                heuristic,
                databases,
            },
            expanded: result.expanded,
            generated: result.generated,
            elapsed: result.elapsed,
        })
    }

    /// Judges another solver's `claim` for `start` and `goal` (see [`verify::judge`]). Where
    /// the exact distance is needed and no table has it, the fallback search finds it within
    /// `how`'s limits; a search that gives up makes the verdict [`Verdict::Unverified`].
    ///
    /// `how.guarantee` is the guarantee the claim states ([`verify::judge_held_to`]):
    /// `optimal` (the default) holds it to the exact distance, `within FACTOR` to that factor
    /// of it, and `none` to legality alone, with no table or search at all.
    ///
    /// ```
    /// use npuzzle::verify::{parse_moves, Claim};
    /// use npuzzle::{Guarantee, How, Oracle, State};
    /// let oracle = Oracle::in_memory();
    /// let start: State = "123456708".parse()?;
    /// let goal = State::goal(start.board());
    /// let claim = Claim::moves(parse_moves("RLR")?); // 3 moves, the exact distance is 1
    /// let held_to = |g: &str| -> Result<String, Box<dyn std::error::Error>> {
    ///     let how = How::default().with_guarantee(g.parse()?);
    ///     Ok(oracle.judge(&start, &goal, &claim, how)?.value?.verdict.name().to_string())
    /// };
    /// assert_eq!(held_to("optimal")?, "suboptimal");
    /// assert_eq!(held_to("within 3")?, "within-guarantee");
    /// assert_eq!(held_to("within 2")?, "broken-guarantee");
    /// assert_eq!(held_to("none")?, "within-guarantee");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`AnswerError::OtherBoards`], or a table that cannot be opened or is damaged.
    pub fn judge(
        &self,
        start: &State,
        goal: &State,
        claim: &Claim,
        how: How,
    ) -> Result<Answer<Judged>, AnswerError> {
        if let Some(answer) = Oracle::judge_legality(start, goal, claim, how)? {
            return Ok(answer);
        }
        if how.metric == Metric::Mtm {
            return self.mtm_judge(start, goal, claim, how);
        }
        let judged = |exact: Option<u8>| Judged {
            verdict: verify::judge_held_to(how.guarantee, Metric::Stm, start, goal, exact, claim),
            exact: exact.map_or(Exact::Unsolvable, Exact::Distance),
        };
        if !start.can_reach(goal) {
            return Ok(Answer::of(Ok(judged(None)), Method::Reasoning));
        }
        if let Some(table) = self.table_for(goal, how)? {
            let exact = self.read(table, table.distance_to_checked(start, goal))?;
            let method = Method::Table {
                goal: *table.goal(),
            };
            return Ok(Answer::of(Ok(judged(exact)), method));
        }
        if let Some(verdict) = verify::judge_without_distance(start, goal, claim) {
            let judged = Judged {
                verdict,
                exact: Exact::Unknown,
            };
            return Ok(Answer::of(Ok(judged), Method::Reasoning));
        }
        let found = self.search(
            start,
            goal,
            How {
                choice: Choice::NoTable(how.choice.heuristic()),
                ..how
            },
        )?;
        let (found, cost) = found.split();
        let value = match found {
            Ok(solution) => match u8::try_from(solution.len()) {
                Ok(exact) => judged(Some(exact)),
                Err(_) => Judged {
                    verdict: Verdict::Unverified {
                        why: format!("the exact distance {} does not fit a byte", solution.len()),
                    },
                    exact: Exact::Unknown,
                },
            },
            Err(NoAnswer::Unsolvable(_)) => judged(None),
            Err(NoAnswer::GaveUp(limit)) => {
                Judged::search_gave_up(Metric::Stm, goal.board(), limit, cost.expanded)
            }
        };
        Ok(cost.map(|()| value))
    }
}

impl Judged {
    /// No verdict: the board has no exact table (for `metric`) and the search for the exact
    /// distance gave up at `limit` after `expanded` nodes. Written once for STM and MTM.
    pub(crate) fn search_gave_up(
        metric: Metric,
        board: Board,
        limit: Limit,
        expanded: u64,
    ) -> Judged {
        let which = match metric {
            Metric::Stm => "",
            Metric::Mtm => "MTM ",
        };
        Judged {
            verdict: Verdict::Unverified {
                why: format!(
                    "no exact {which}table for the {board} board, and the {which}search for the exact distance gave up at its {limit} after {expanded} expanded nodes"
                ),
            },
            exact: Exact::Unknown,
        }
    }
}

impl Oracle {
    /// [`Oracle::judge`] of a claim that states the guarantee `none`, where legality alone
    /// decides it ([`verify::judge_legality`]): no table is opened and nothing is searched.
    fn judge_legality(
        start: &State,
        goal: &State,
        claim: &Claim,
        how: How,
    ) -> Result<Option<Answer<Judged>>, AnswerError> {
        Oracle::same_board(start, goal)?;
        if how.guarantee != Guarantee::None {
            return Ok(None);
        }
        Ok(verify::judge_legality(start, goal, claim).map(|verdict| {
            let judged = Judged {
                verdict,
                exact: Exact::Unknown,
            };
            Answer::of(Ok(judged), Method::Reasoning)
        }))
    }
}

/// Where [`Oracle::route`] sends a question.
enum Route<'a, T> {
    /// Answered without a table or a search.
    Answered(Answer<T>),
    /// From this table.
    Table(&'a Table<StoredBytes>),
    /// By a search.
    Search,
}

/// How an answer read from `table` was found.
/// The constructive solver's answer for a pair of one board (see [`crate::large`]).
fn constructive(start: &State, goal: &State) -> Answer<Solution> {
    let began = std::time::Instant::now();
    let (large_start, large_goal) = (
        crate::large::LargeState::from_small(start),
        crate::large::LargeState::from_small(goal),
    );
    let (value, method) = match crate::large::solve_constructive(&large_start, &large_goal) {
        Ok(moves) => (
            Ok(Solution::from_moves(*start, moves).expect("the solver's moves are legal")),
            Method::Constructive,
        ),
        Err(_) => (Err(NoAnswer::unsolvable(start, goal)), Method::Reasoning),
    };
    let mut answer = Answer::of(value, method);
    answer.elapsed = began.elapsed();
    answer
}

fn table_method(table: &Table<StoredBytes>) -> Method {
    Method::Table {
        goal: *table.goal(),
    }
}

/// A verdict on a claim, with the exact distance it was judged against.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Judged {
    /// The verdict.
    pub verdict: Verdict,
    /// The exact distance, where it was needed and found.
    pub exact: Exact,
}

/// The exact distance of a judged pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exact {
    /// This many moves.
    Distance(u8),
    /// No solution.
    Unsolvable,
    /// Not known: the verdict did not need it, or the search gave up.
    Unknown,
}

impl Oracle {
    /// Draws `options.count` instances for `goal`, reproducibly from `seed`: at the chosen
    /// depths, uniformly, from the table where the board has one ([`sampling::sample`]); on
    /// other boards uniformly among all solvable states ([`sampling::sample_uniform`]).
    ///
    /// # Errors
    /// [`AnswerError::Sample`] for options that cannot be met, or a table that cannot be
    /// opened or is damaged.
    pub fn sample(
        &self,
        goal: &State,
        options: &SampleOptions,
        seed: u64,
    ) -> Result<Draws<'_>, AnswerError> {
        match self.table(goal)? {
            Some(table) => Ok(Box::new(sampling::sample(table, goal, options, seed)?)),
            None => Ok(Box::new(sampling::sample_uniform(goal, options, seed)?)),
        }
    }
}

/// The search that answers where no table does: A* where its memory stays small, else IDA*
/// (memory: one path).
pub fn fallback_algorithm(board: Board) -> Algorithm {
    if board.cells() <= ASTAR_FALLBACK_MAX_CELLS {
        Algorithm::AStar
    } else {
        Algorithm::IdaStar
    }
}
