//! The exact distance table: a validated view over bytes, answering `distance` and `solve`.

mod consistency;
mod descent;
pub mod file;
pub mod rows;

use crate::board::Move;
use crate::generate::{self, BuildOptions};
use crate::metric::Metric;
use crate::rank::{RankSpace, TooLargeError};
use crate::solution::Solution;
use crate::state::{Parity, State};
use crate::store::checks::BlockChecks;
use crate::store::format;

pub use crate::store::{FormatError, Header, Mismatch};

use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

/// Why a table could not answer a question.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// The table does not measure distances to this goal, nor to a relabelling of it.
    #[error("the table for goal {table_goal} ({}) does not serve the goal {goal} ({})", table_goal.board(), goal.board())]
    GoalNotServed {
        /// The table's own goal.
        table_goal: State,
        /// The goal asked for.
        goal: State,
    },
    /// A block of the body failed its checksum when it was first read.
    #[error("the table for goal {goal} is damaged: {damage}")]
    Damaged {
        /// The table's goal.
        goal: State,
        /// What is wrong with the body.
        damage: FormatError,
    },
    /// An entry its neighbours contradict (no neighbour one move closer, or one closer than
    /// that): a body that passed its checksums but is not what a breadth-first search writes
    /// (an edited file).
    #[error("the table for goal {goal} is inconsistent: the entry of {state} disagrees with its neighbours'")]
    Inconsistent {
        /// The table's goal.
        goal: State,
        /// The state with no closer neighbour.
        state: State,
    },
}

/// An exact distance table over any bytes: a `Vec<u8>` built in memory or a memory-mapped file.
///
/// Holding a `Table` means the header was validated. The body is checked in blocks: all at
/// once by [`Table::from_bytes`] (and after a build), or each block the first time a query
/// reads from it, for a table opened by [`Table::from_header`]; a damaged block is never
/// read as valid ([`TableError::Damaged`]). Distances are to [`Table::goal`].
///
/// ```
/// use npuzzle::{Board, BuildOptions, State, Table};
/// let goal = State::goal(Board::THREE_BY_THREE);
/// let table = Table::build(&goal, BuildOptions::default())?;
/// let start: State = "867254301".parse()?;
/// assert_eq!(table.distance(&start)?, Some(31));
/// let solution = table.solve(&start)?.expect("solvable");
/// assert_eq!(solution.len(), 31);
/// assert_eq!(solution.path().last(), Some(&goal));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Table<D> {
    data: D,
    header: Header,
    space: RankSpace,
    goal_class: Parity,
    checks: BlockChecks,
    /// The whole body was checked before this value was handed out (built in memory, or
    /// checked at open). A plain field, unlike the atomics of `checks`, so a caller's loop of
    /// reads can test it once.
    body_checked: bool,
}

impl<D> std::fmt::Debug for Table<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("goal", &self.header.goal)
            .field("board", &self.header.board())
            .field("entries", &self.header.entries)
            .field("max_depth", &self.header.max_depth)
            .finish_non_exhaustive()
    }
}

impl Table<Vec<u8>> {
    /// Runs the generator for `goal` and encodes the result as a table file in memory.
    ///
    /// The generator writes straight into the file buffer, after room for the longest header;
    /// once the depth counts are known the body is moved down to the real header length. So
    /// the peak memory is the file plus the generator's bit sets, not two copies of the body.
    ///
    /// # Errors
    /// [`TooLargeError`] for boards too large to rank.
    pub fn build(goal: &State, options: BuildOptions) -> Result<Table<Vec<u8>>, TooLargeError> {
        Table::build_with(goal, Metric::Stm, |space, body| {
            generate::distances_into(space, goal, options, body)
        })
    }

    /// [`Table::build`] with the generator of `metric`'s distances: `generate` writes every
    /// byte of the body it is given and returns the count at each depth. The MTM tables are
    /// built this way too ([`crate::mtm::build_table`]).
    pub(crate) fn build_with(
        goal: &State,
        metric: Metric,
        generate: impl FnOnce(&RankSpace, &mut [u8]) -> Vec<u64>,
    ) -> Result<Table<Vec<u8>>, TooLargeError> {
        let space = RankSpace::new(goal.board())?;
        let states = space.states() as usize;
        // Generated straight into the file's buffer, behind room for the longest header, then
        // moved down to the real header's length: the body is never copied whole.
        let room = format::max_header_len(states as u64);
        let mut data = vec![0u8; room + states];
        let counts = generate(&space, &mut data[room..]);
        let encoded = format::encode_header(goal, metric, &data[room..], &counts);
        let len = encoded.len();
        data.copy_within(room.., len);
        data.truncate(len + states);
        data[..len].copy_from_slice(&encoded);
        let header = format::decode_header(&data).expect("an encoded header decodes");
        Ok(Table::with_checks(data, header, space, true))
    }
}

impl<D: AsRef<[u8]>> Table<D> {
    /// Validates `data` as a complete table file, header and whole body, and wraps it.
    ///
    /// # Errors
    /// The [`FormatError`] of the first problem found. Never panics, whatever the bytes.
    pub fn from_bytes(data: D) -> Result<Table<D>, FormatError> {
        let mut table = Table::from_header(data)?;
        table.verify_body()?;
        table.body_checked = true;
        Ok(table)
    }

    /// Validates the header of `data` (a few kilobytes, whatever the table's size) and wraps
    /// it; each block of the body is checked the first time a query reads from it.
    ///
    /// # Errors
    /// The [`FormatError`] of the first problem found in the header or the file's length.
    pub fn from_header(data: D) -> Result<Table<D>, FormatError> {
        let header = format::decode_header(data.as_ref())?;
        if header.kind != format::KIND_DISTANCE_TABLE {
            return Err(FormatError::OtherKind {
                found: "a pattern database",
                expected: "an exact distance table",
            });
        }
        let space = RankSpace::new(header.board()).map_err(|_| FormatError::UnsupportedBoard {
            width: u8::try_from(header.board().width()).expect("a side is at most 12"),
            height: u8::try_from(header.board().height()).expect("a side is at most 12"),
        })?;
        Ok(Table::with_checks(data, header, space, false))
    }

    fn with_checks(data: D, header: Header, space: RankSpace, checked: bool) -> Table<D> {
        let goal_class = header.goal.parity_class();
        let checks = BlockChecks::new(header.block_checksums.len(), checked);
        Table {
            data,
            header,
            space,
            goal_class,
            checks,
            body_checked: checked,
        }
    }

    /// Checks the whole body now: every block, the whole-body checksum and the histogram
    /// against the header's counts (see [`format::verify_body`]).
    ///
    /// # Errors
    /// The first [`FormatError`] found.
    pub fn verify_body(&self) -> Result<(), FormatError> {
        format::verify_body(&self.header, self.raw_body())?;
        for block in 0..self.checks.len() {
            self.checks.set_good(block);
        }
        Ok(())
    }

    /// Checks that this table measures distances to `goal` itself, as a file named for `goal`
    /// must (as [`PatternDatabase::expect`](crate::pattern::PatternDatabase::expect) does for
    /// a database); [`Table::serves`] says whether it can answer for `goal`, relabelled.
    ///
    /// # Errors
    /// [`Mismatch::Goal`] naming both goals.
    pub fn expect(&self, goal: &State) -> Result<(), Mismatch> {
        if self.header.goal == *goal {
            Ok(())
        } else {
            Err(Mismatch::Goal {
                found: self.header.goal,
                expected: *goal,
            })
        }
    }

    /// Checks that the table's distances count `metric` moves, as its header says: a table's
    /// file name says which metric it is for, but only the header is checksummed with it, so
    /// an STM table renamed to an MTM table's name (or the reverse) is refused here, never
    /// answered in the wrong metric.
    ///
    /// ```
    /// use npuzzle::{store::Mismatch, BuildOptions, Metric, State, Table};
    /// let table = Table::build(&"123456780".parse::<State>()?, BuildOptions::default())?;
    /// assert_eq!(table.metric(), Metric::Stm);
    /// let error = table.expect_metric(Metric::Mtm).unwrap_err();
    /// assert!(matches!(error, Mismatch::Metric { .. }));
    /// assert_eq!(error.to_string(), "the table counts stm moves, not the mtm moves asked for");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`Mismatch::Metric`] naming both metrics.
    pub fn expect_metric(&self, metric: Metric) -> Result<(), Mismatch> {
        if self.header.metric == metric {
            Ok(())
        } else {
            Err(Mismatch::Metric {
                found: self.header.metric,
                expected: metric,
            })
        }
    }

    /// How the table's distances count moves, from its header.
    pub fn metric(&self) -> Metric {
        self.header.metric
    }

    /// The validated header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The goal every distance is measured to.
    pub fn goal(&self) -> &State {
        &self.header.goal
    }

    /// The rank space the body is indexed by.
    pub fn space(&self) -> &RankSpace {
        &self.space
    }

    /// The whole file: header and body.
    pub fn as_bytes(&self) -> &[u8] {
        self.data.as_ref()
    }

    /// The body as stored, checked or not.
    #[inline]
    fn raw_body(&self) -> &[u8] {
        &self.data.as_ref()[self.header.len..]
    }

    /// The body, every block checked: the distance of each state, by folded rank.
    ///
    /// # Errors
    /// [`TableError::Damaged`] if a block fails its checksum or the histogram differs.
    pub fn entries(&self) -> Result<&[u8], TableError> {
        if !self.checks.all_good() {
            self.verify_body().map_err(|damage| self.damaged(damage))?;
        }
        Ok(self.raw_body())
    }

    fn damaged(&self, damage: FormatError) -> TableError {
        TableError::Damaged {
            goal: self.header.goal,
            damage,
        }
    }

    /// The entry at folded index `index`, checking its block on first use.
    ///
    /// The hot path is a test of a plain field (a body checked whole before the table was
    /// handed out: every table of at most 10 cells), else one relaxed load of the block's bit,
    /// and one bounds-checked byte read; the check itself is out of line.
    #[inline(always)]
    fn entry(&self, index: u32) -> Result<u8, TableError> {
        if !self.body_checked {
            let block = (index >> self.header.block_shift) as usize;
            if !self.checks.is_good(block) {
                self.check_block(block)?;
            }
        }
        Ok(self.raw_body()[index as usize])
    }

    #[cold]
    #[inline(never)]
    fn check_block(&self, block: usize) -> Result<(), TableError> {
        format::verify_block(&self.header, self.raw_body(), block)
            .map_err(|damage| self.damaged(damage))?;
        self.checks.set_good(block);
        Ok(())
    }

    /// The full index of `state` if it can reach the goal, else `None`.
    #[inline]
    fn full_index(&self, state: &State) -> Option<u32> {
        if state.board() != self.header.board() {
            return None;
        }
        let (full, tile_parity) = self.space.full_index_and_parity(state);
        self.in_goal_class(full, tile_parity, state.blank())
    }

    /// `full`, the full index of a state of this board whose tiles have inversion parity
    /// `tile_parity` and whose blank is in cell `blank`, if that state can reach the goal.
    #[inline]
    fn in_goal_class(&self, full: u32, tile_parity: bool, blank: usize) -> Option<u32> {
        let width = self.space.board().width();
        let row_term = width.is_multiple_of(2) && !(blank / width).is_multiple_of(2);
        (Parity::from_odd(tile_parity ^ row_term) == self.goal_class).then_some(full)
    }

    /// The exact number of moves from `state` to the goal: one rank and one read.
    ///
    /// `Ok(None)` when `state` cannot reach the goal (other parity class or other board).
    ///
    /// # Errors
    /// [`TableError::Damaged`] when the entry's block fails its checksum.
    #[inline]
    pub fn distance(&self, state: &State) -> Result<Option<u8>, TableError> {
        match self.full_index(state) {
            Some(full) => self.entry(full >> 1).map(Some),
            None => Ok(None),
        }
    }

    /// [`Table::distance`], answered only if the entry agrees with its neighbours' (those of
    /// the table's [metric](Table::metric)): one of them is one move closer and none is closer than that (the goal alone is at 0). A body edited
    /// behind valid checksums (two entries swapped) is then refused where it is read, at the
    /// cost of reading up to four more entries.
    ///
    /// # Errors
    /// [`TableError::Damaged`] as [`Table::distance`]; [`TableError::Inconsistent`] for an
    /// entry its neighbours contradict.
    pub fn distance_checked(&self, state: &State) -> Result<Option<u8>, TableError> {
        let Some(full) = self.full_index(state) else {
            return Ok(None);
        };
        let d = self.entry(full >> 1)?;
        if self.checks.all_consistent.load(Ordering::Relaxed) {
            // The whole table was checked deeply: every entry agrees with its neighbours.
            return Ok(Some(d));
        }
        let mut closer = false;
        let mut too_close = false;
        let mut damage = None;
        // "One closer" wraps in `u8`, as the deep check's rule does: a neighbour at 255 (a
        // body edited behind valid checksums) counts as -1 and refuses the entry, never
        // overflows.
        let mut compare = |entry: Result<u8, TableError>| match entry {
            Ok(e) => {
                let one_more = e.wrapping_add(1);
                closer |= one_more == d;
                too_close |= one_more < d;
            }
            Err(error) => damage = Some(error),
        };
        match self.header.metric {
            Metric::Stm => self
                .space
                .for_each_neighbour(full, |_, next| compare(self.entry(next >> 1))),
            // The states of every slide, each one more single-cell move in the slide's
            // direction (rank arithmetic, as the generator's; same class as `state`). The
            // blank's cell and the tile rank are split once; each further cell of a slide
            // starts from the last one's tile rank (a horizontal step keeps it), so a state of
            // a slide costs at most one rotation, never a division of the full index.
            Metric::Mtm => {
                let _ = self.for_each_slide(full, |_, _, next| {
                    compare(self.entry(next >> 1));
                    ControlFlow::<()>::Continue(())
                });
            }
        }
        if let Some(error) = damage {
            return Err(error);
        }
        let at_goal = *state == self.header.goal;
        if too_close || (d == 0) != at_goal || (d > 0 && !closer) {
            return Err(TableError::Inconsistent {
                goal: self.header.goal,
                state: *state,
            });
        }
        Ok(Some(d))
    }

    /// Checks the whole table deeply: the body ([`Table::verify_body`]) and every entry
    /// against its neighbours ([`Table::first_inconsistent_entry`]). A build runs it on its
    /// own output before saving it; afterwards [`Table::distance_checked`] reads one entry,
    /// not five (worth it before millions of questions: 2 ms for 3x3, seconds for 12 cells).
    /// Once it has passed, later calls return at once.
    ///
    /// # Errors
    /// [`TableError::Damaged`] or [`TableError::Inconsistent`] naming the first bad state.
    pub fn verify_deep(&self) -> Result<(), TableError> {
        if self.checks.all_consistent.load(Ordering::Relaxed) {
            // Checked before, and the bytes never change under a table (see `file`): a bulk
            // caller may ask before every call at no cost.
            return Ok(());
        }
        self.entries()?;
        match self.first_inconsistent_entry() {
            None => {
                self.checks.all_consistent.store(true, Ordering::Relaxed);
                Ok(())
            }
            Some(index) => Err(TableError::Inconsistent {
                goal: self.header.goal,
                state: self.space.unrank(index, self.goal_class),
            }),
        }
    }

    /// An optimal solution from `state` to the goal, found by stepping each time to a
    /// neighbour one move closer (the first in `U D L R` order).
    ///
    /// `Ok(None)` when `state` cannot reach the goal.
    ///
    /// # Errors
    /// [`TableError::Damaged`] for a damaged block, [`TableError::Inconsistent`] for a body
    /// with no closer neighbour somewhere along the way.
    pub fn solve(&self, state: &State) -> Result<Option<Solution>, TableError> {
        Ok(self.solve_moves(state)?.map(|moves| {
            Solution::from_moves(*state, moves).expect("moves from the table are legal")
        }))
    }

    /// The moves of [`Table::solve`] without the states along the way.
    ///
    /// # Errors
    /// As [`Table::solve`].
    pub fn solve_moves(&self, state: &State) -> Result<Option<Vec<Move>>, TableError> {
        let Some(mut full) = self.full_index(state) else {
            return Ok(None);
        };
        let mut depth = self.entry(full >> 1)?;
        if self.header.metric == Metric::Mtm {
            return self.slides_to_goal(full, depth).map(Some);
        }
        if self.body_checked || self.checks.all_good() {
            return descent::moves_to_goal(&self.space, self.raw_body(), full, depth)
                .map(Some)
                .map_err(|stuck| TableError::Inconsistent {
                    goal: self.header.goal,
                    state: self.space.state_at(stuck),
                });
        }
        // Some blocks are not checked yet: each read checks its block on first use.
        let mut moves = Vec::with_capacity(depth as usize);
        let mut damage = None;
        while depth > 0 {
            let closer = self
                .space
                .find_neighbour(full, |n| match self.entry(n >> 1) {
                    Ok(e) => e == depth - 1,
                    Err(error) => {
                        damage = Some(error);
                        false
                    }
                });
            let Some((mv, next)) = closer else {
                return Err(damage.unwrap_or_else(|| TableError::Inconsistent {
                    goal: self.header.goal,
                    state: self.space.state_at(full),
                }));
            };
            moves.push(mv);
            full = next;
            depth -= 1;
        }
        Ok(Some(moves))
    }

    /// Visits the states one MTM move (a slide of one or more cells) from full index `full`,
    /// in `U D L R` order and each direction's slides shortest first, as `visit(direction,
    /// cells slid, full index)`, until `visit` breaks. Each state comes from the last one's
    /// tile rank (a horizontal step keeps it, a vertical one is one rotation), so a state
    /// costs at most one rotation, never a division of the full index; all are in `full`'s
    /// class, as the generator's.
    fn for_each_slide<B>(
        &self,
        full: u32,
        mut visit: impl FnMut(Move, usize, u32) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let (blank, perm) = self.space.split(full);
        for first in self.space.slots(blank) {
            let (mut next, mut tiles) = self.space.through(first, perm);
            let mut cell = first.to;
            let mut cells = 1;
            loop {
                visit(first.mv, cells, next)?;
                // On to the row's or column's end.
                let Some(on) = self.space.slots(cell).iter().find(|s| s.mv == first.mv) else {
                    break;
                };
                (next, tiles) = self.space.through(on, tiles);
                cell = on.to;
                cells += 1;
            }
        }
        ControlFlow::Continue(())
    }

    /// The moves of an MTM table's walk from full index `full` at entry `depth` to the goal:
    /// at each state the first slide (in `U D L R` order, shortest first) to an entry one
    /// closer, written as single-cell moves (a slide of `k` cells is `k` equal letters). The
    /// slides' states come from [`Table::for_each_slide`], as [`Table::distance_checked`]'s,
    /// not by ranking each candidate from scratch.
    ///
    /// # Errors
    /// [`TableError::Damaged`] for a damaged block on the way; [`TableError::Inconsistent`]
    /// where no slide leads one closer, or the walk ends elsewhere than at the goal (an entry
    /// edited behind its checksums).
    fn slides_to_goal(&self, mut full: u32, mut depth: u8) -> Result<Vec<Move>, TableError> {
        let mut moves = Vec::with_capacity(2 * usize::from(depth));
        let inconsistent = |full: u32| TableError::Inconsistent {
            goal: self.header.goal,
            state: self.space.state_at(full),
        };
        while depth > 0 {
            let step = self.for_each_slide(full, |mv, cells, next| match self.entry(next >> 1) {
                Ok(e) if e == depth - 1 => ControlFlow::Break(Ok((mv, cells, next))),
                Ok(_) => ControlFlow::Continue(()),
                Err(error) => ControlFlow::Break(Err(error)),
            });
            let ControlFlow::Break(found) = step else {
                return Err(inconsistent(full));
            };
            let (mv, cells, next) = found?;
            moves.extend(std::iter::repeat_n(mv, cells));
            full = next;
            depth -= 1;
        }
        if self.space.state_at(full) != self.header.goal {
            return Err(inconsistent(full));
        }
        Ok(moves)
    }

    /// Whether this table can answer questions about `goal`: it is the table's own goal, or
    /// the table's goal is the canonical goal with the same blank cell (see
    /// [`State::relabel_for`]).
    pub fn serves(&self, goal: &State) -> bool {
        *goal == self.header.goal
            || (goal.board() == self.header.board()
                && self.header.goal == State::canonical_goal(goal.board(), goal.blank()))
    }

    /// The exact distance from `start` to any `goal` this table [serves](Table::serves),
    /// relabelling tiles when `goal` is not the table's own goal. `Ok(None)`: unsolvable pair.
    ///
    /// # Errors
    /// [`TableError::GoalNotServed`] when the table does not serve `goal`;
    /// [`TableError::Damaged`] as [`Table::distance`].
    #[inline]
    pub fn distance_to(&self, start: &State, goal: &State) -> Result<Option<u8>, TableError> {
        if *goal == self.header.goal {
            return self.distance(start);
        }
        match self.in_table_labels(start, goal)? {
            Some(state) => self.distance(&state),
            None => Ok(None),
        }
    }

    /// [`Table::distance_to`] through [`Table::distance_checked`]: answered only from an entry
    /// its neighbours agree with.
    ///
    /// # Errors
    /// As [`Table::distance_to`] and [`Table::distance_checked`].
    pub fn distance_to_checked(
        &self,
        start: &State,
        goal: &State,
    ) -> Result<Option<u8>, TableError> {
        match self.in_table_labels(start, goal)? {
            Some(state) => self.distance_checked(&state),
            None => Ok(None),
        }
    }

    /// `start` with its tiles renamed into the table's labels, for a `goal` the table serves;
    /// `None` for a start on another board.
    fn in_table_labels(&self, start: &State, goal: &State) -> Result<Option<State>, TableError> {
        if !self.serves(goal) {
            return Err(self.not_served(goal));
        }
        if start.board() != goal.board() {
            return Ok(None);
        }
        Ok(Some(if *goal == self.header.goal {
            *start
        } else {
            start.relabel_for(goal)
        }))
    }

    /// An optimal solution from `start` to any `goal` this table serves, in the caller's own
    /// tile labels. `Ok(None)`: unsolvable pair.
    ///
    /// # Errors
    /// As [`Table::distance_to`] and [`Table::solve`].
    pub fn solve_to(&self, start: &State, goal: &State) -> Result<Option<Solution>, TableError> {
        let Some(relabelled) = self.in_table_labels(start, goal)? else {
            return Ok(None);
        };
        Ok(self.solve_moves(&relabelled)?.map(|moves| {
            Solution::from_moves(*start, moves).expect("moves from the table are legal")
        }))
    }

    /// The error for a `goal` this table does not [serve](Table::serves).
    fn not_served(&self, goal: &State) -> TableError {
        TableError::GoalNotServed {
            table_goal: self.header.goal,
            goal: *goal,
        }
    }

    /// Checks every entry against its neighbours (those of the table's
    /// [metric](Table::metric): a slide of several cells is one move under MTM): the goal is
    /// the only 0, every other state has
    /// a neighbour one closer and none more than one closer. Returns the first bad folded index.
    ///
    /// Runs on rayon's current pool and never unranks a state: neighbours come from the same
    /// index arithmetic as the generator's (seconds for a 12-cell table).
    pub fn first_inconsistent_entry(&self) -> Option<u32> {
        consistency::first_inconsistent_entry(
            &self.space,
            &self.header.goal,
            self.header.metric,
            self.raw_body(),
        )
    }

    /// Recounts the states at each depth from the body.
    pub fn recount_depths(&self) -> Vec<u64> {
        generate::count_depths(self.raw_body())
    }
}

impl<D> Table<D> {
    /// Gives back the bytes.
    pub fn into_inner(self) -> D {
        self.data
    }

    /// The same validated table over the same bytes in another container.
    pub(crate) fn map_bytes<E>(self, wrap: impl FnOnce(D) -> E) -> Table<E> {
        Table {
            data: wrap(self.data),
            header: self.header,
            space: self.space,
            goal_class: self.goal_class,
            checks: self.checks,
            body_checked: self.body_checked,
        }
    }
}
