//! The multi-tile metric (MTM): exact tables and optimal search where a slide of several
//! tiles along a row or column is one move (see [`Metric`]).
//!
//! [`MtmTable`] holds the MTM distance of every state of one goal's parity class, in the same
//! layout and file format as the STM tables (folded index, one byte a state, header with the
//! histogram), built by its own breadth-first search ([`generate`]). Larger boards are searched
//! by IDA* ([`search::ida_star`]) with the walking-distance estimate counted in MTM moves
//! ([`walking::WalkingDistance`]), maxed on 4x4 with MTM pattern databases
//! ([`pattern::PatternDb`], [`heuristic::MtmHeuristic`]), or, towards goals with the blank
//! on the last cell, with Rokicki's colouring database ([`colouring::ColouringDb`], saved in
//! the data directory by [`colouring_file`]; searched on packed boards by [`packed`]). The STM
//! pattern databases are not admissible under MTM as they are; [`stm_bound::StmBound`] turns
//! any admissible STM estimate into a proven (and on 4x4 much weaker) MTM bound.
//!
//! ```
//! use npuzzle::mtm::MtmTable;
//! use npuzzle::{BuildOptions, State};
//! let goal = State::goal("3x3".parse()?);
//! let table = MtmTable::build(&goal, BuildOptions::default())?;
//! // The 8-puzzle's hardest MTM positions are 24 moves away.
//! assert_eq!(table.counts().len() - 1, 24);
//! let start: State = "123456078".parse()?;
//! assert_eq!(table.distance_to(&start, &goal)?, Some(1)); // one slide of two tiles
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod colouring;
pub mod colouring_file;
pub mod generate;
pub mod heuristic;
pub mod packed;
pub mod pattern;
pub mod search;
pub mod stm_bound;
pub mod walking;

use crate::generate::BuildOptions;
use crate::metric::Metric;
use crate::rank::TooLargeError;
use crate::solution::Solution;
use crate::state::State;
use crate::store::file::StoredBytes;
use crate::store::Mismatch;
use crate::table::{Table, TableError};

/// The MTM table of `goal` as plain bytes in the store's format (header, histogram, block
/// checks), for saving to its own file in a data directory.
///
/// # Errors
/// [`TooLargeError`] for boards too large to rank.
pub fn build_table(goal: &State, options: BuildOptions) -> Result<Table<Vec<u8>>, TooLargeError> {
    // Generated into the file's buffer, as the STM tables are: no copy of the body, and no
    // second pass over it to check the checksums just computed.
    Table::build_with(goal, Metric::Mtm, |space, body| {
        generate::distances_into(space, goal, options, body)
    })
}

/// The exact MTM distances of one goal's parity class: a [`Table`] whose entries count MTM
/// moves, as its header says ([`Table::metric`]); its neighbour checks
/// ([`Table::distance_checked`], [`Table::verify_deep`]) take the MTM moves.
#[derive(Debug)]
pub struct MtmTable {
    table: Table<StoredBytes>,
}

impl MtmTable {
    /// Builds the MTM table of `goal` in memory.
    ///
    /// # Errors
    /// [`TooLargeError`] for boards too large to rank.
    pub fn build(goal: &State, options: BuildOptions) -> Result<MtmTable, TooLargeError> {
        Ok(MtmTable {
            table: build_table(goal, options)?.map_bytes(StoredBytes::from),
        })
    }

    /// The MTM table held in `table`, a table whose entries count MTM moves: one
    /// [`build_table`] made, or one opened from its file ([`crate::store::file::mtm_file_name`]).
    ///
    /// # Errors
    /// [`Mismatch::Metric`] where the table's header says its distances count STM moves (an
    /// STM table, whatever file it came from).
    pub fn from_table(table: Table<StoredBytes>) -> Result<MtmTable, Mismatch> {
        table.expect_metric(Metric::Mtm)?;
        Ok(MtmTable { table })
    }

    /// The table: its header (goal, histogram) and entries, in MTM moves.
    pub fn table(&self) -> &Table<StoredBytes> {
        &self.table
    }

    /// The number of states at each MTM distance, from the header.
    pub fn counts(&self) -> &[u64] {
        &self.table.header().counts
    }

    /// Whether this table answers for `goal` (any goal with the same board and blank cell).
    pub fn serves(&self, goal: &State) -> bool {
        self.table.serves(goal)
    }

    /// The MTM distance from `start` to `goal` (any goal the table serves). `Ok(None)`:
    /// unsolvable pair.
    ///
    /// # Errors
    /// As [`Table::distance_to`].
    pub fn distance_to(&self, start: &State, goal: &State) -> Result<Option<u8>, TableError> {
        self.table.distance_to(start, goal)
    }

    /// [`MtmTable::distance_to`], answered only from an entry its MTM neighbours agree with:
    /// an entry `d` needs a neighbour (one slide away) at `d - 1` unless it is the goal's, and
    /// none below that ([`Table::distance_to_checked`], the rule the STM answers follow, with
    /// the moves of the table's metric). So an entry edited behind valid checksums is refused,
    /// never answered.
    ///
    /// ```
    /// use npuzzle::mtm::MtmTable;
    /// use npuzzle::{BuildOptions, State};
    /// let goal = State::goal("3x3".parse()?);
    /// let table = MtmTable::build(&goal, BuildOptions::default())?;
    /// let start: State = "123456078".parse()?;
    /// assert_eq!(table.distance_to_checked(&start, &goal)?, Some(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Table::distance_to_checked`]: [`TableError::Inconsistent`] for an entry its
    /// neighbours contradict.
    pub fn distance_to_checked(
        &self,
        start: &State,
        goal: &State,
    ) -> Result<Option<u8>, TableError> {
        self.table.distance_to_checked(start, goal)
    }

    /// An MTM-optimal solution from `start` to `goal`, written as single-cell moves (a slide
    /// of `k` cells is `k` equal letters). `Ok(None)`: unsolvable pair.
    ///
    /// # Errors
    /// As [`MtmTable::distance_to_checked`]; [`TableError::Inconsistent`] where a state on
    /// the walk has no MTM neighbour one closer, or the walk ends elsewhere than at the goal
    /// (an entry edited behind its checksums).
    pub fn solve_to(&self, start: &State, goal: &State) -> Result<Option<Solution>, TableError> {
        let own = *self.table.goal();
        // The start's entry is checked against its neighbours, as a distance is; each later
        // step needs a neighbour one closer, and the walk must end at the goal.
        if self.table.distance_to_checked(start, goal)?.is_none() {
            return Ok(None);
        }
        let state = if *goal == own {
            *start
        } else {
            start.relabel_for(goal)
        };
        // The walk by slides, each state's candidates by rank arithmetic (`Table::solve_moves`
        // on a table of this metric); each step needs an entry one closer, and the walk must
        // end at the goal.
        let moves = self
            .table
            .solve_moves(&state)?
            .ok_or(TableError::Inconsistent { goal: own, state })?;
        Ok(Some(
            Solution::from_moves(*start, moves).expect("moves from the table are legal"),
        ))
    }
}
