//! Many starts to one goal at once: rows of tile bytes in, one distance byte per row out (the
//! path behind NumPy's `distances`).
//!
//! Asked one at a time, each question pays for what is the same for all of them: finding the
//! table, the goal's relabelling, text to parse. Here those are settled once per call, and a
//! row costs the bit-mask check of [`State::from_row`], a relabelling, a rank and the read
//! [`Table::distance_checked`] would make (one entry once the table was checked deeply, else
//! the entry and its neighbours'). Rows are answered in parallel, in chunks, straight into the
//! caller's slice.

use std::sync::atomic::Ordering;

use rayon::prelude::*;

use super::{Table, TableError};
use crate::board::{Board, MAX_CELLS};
use crate::row::{permutation_into, InvalidRow};
use crate::state::{Relabelling, State};

/// The distance written for a row that cannot reach the goal: no table holds a distance near
/// it (the deepest, 3x4's, is 53).
pub const UNSOLVABLE: u8 = u8::MAX;

/// Rows per parallel task: large enough that scheduling costs nothing next to the lookups,
/// small enough that two cores share a million rows evenly and the first bad row stops work.
const CHUNK_ROWS: usize = 8192;

/// Why a call of [`Table::distances_to_checked`] could not answer every row.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RowsError {
    /// The rows' bytes are not one row of the board's cells per output slot.
    #[error("{bytes} bytes are not {rows} rows of {} tiles (one row per distance on a {board} board)", board.cells())]
    Shape {
        /// The board of the goal.
        board: Board,
        /// The length of the rows' bytes.
        bytes: usize,
        /// The number of distances asked for (the output's length).
        rows: usize,
    },
    /// A row that is not a state of the board: the first one, in row order.
    #[error("row {row}: {error}")]
    Invalid {
        /// Its 0-based index.
        row: usize,
        /// What is wrong with it.
        error: InvalidRow,
    },
    /// The table could not answer: it does not serve the goal (row 0), or an entry read for
    /// `row` is damaged or contradicted by its neighbours'.
    #[error("row {row}: {error}")]
    Table {
        /// The 0-based index of the first row that could not be answered.
        row: usize,
        /// Why.
        error: TableError,
    },
}

impl RowsError {
    /// The row the error is about.
    pub fn row(&self) -> usize {
        match self {
            RowsError::Shape { .. } => 0,
            RowsError::Invalid { row, .. } | RowsError::Table { row, .. } => *row,
        }
    }
}

impl<D: AsRef<[u8]> + Sync> Table<D> {
    /// The distance of every row of `rows` to `goal`, written into `out`: row `i` is the
    /// tiles `rows[i * cells..(i + 1) * cells]` row-major (`0` the blank) of a start on the
    /// goal's board, and `out[i]` its distance, or [`UNSOLVABLE`] where it cannot reach the
    /// goal. Each answer is [`Table::distance_to_checked`]'s: from an entry its neighbours
    /// agree with, one read per row once [`Table::verify_deep`] has passed, five before.
    /// Runs on rayon's current pool.
    ///
    /// ```
    /// use npuzzle::table::rows::UNSOLVABLE;
    /// use npuzzle::{Board, BuildOptions, State, Table};
    /// let goal = State::goal(Board::THREE_BY_THREE);
    /// let table = Table::build(&goal, BuildOptions::default())?;
    /// let rows = [1, 2, 3, 4, 5, 6, 7, 0, 8, /* */ 2, 1, 3, 4, 5, 6, 7, 8, 0];
    /// let mut out = [0; 2];
    /// table.distances_to_checked(&rows, &goal, &mut out)?;
    /// assert_eq!(out, [1, UNSOLVABLE]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`RowsError::Shape`] when `rows` does not hold `out.len()` rows of the board's cells;
    /// [`RowsError::Table`] at row 0 when the table does not [serve](Table::serves) `goal`;
    /// else the first row, in row order, that is not a state ([`RowsError::Invalid`]) or whose
    /// entry cannot be trusted ([`RowsError::Table`]). `out` is then partly written. Never
    /// panics.
    pub fn distances_to_checked(
        &self,
        rows: &[u8],
        goal: &State,
        out: &mut [u8],
    ) -> Result<(), RowsError> {
        let board = goal.board();
        let cells = board.cells();
        if Some(rows.len()) != out.len().checked_mul(cells) {
            return Err(RowsError::Shape {
                board,
                bytes: rows.len(),
                rows: out.len(),
            });
        }
        if !self.serves(goal) {
            let error = self.not_served(goal);
            return Err(RowsError::Table { row: 0, error });
        }
        let relabelling = (*goal != self.header.goal).then(|| Relabelling::onto_canonical(goal));
        let failure = out
            .par_chunks_mut(CHUNK_ROWS)
            .zip(rows.par_chunks(CHUNK_ROWS * cells))
            .enumerate()
            .find_map_first(|(chunk, (out, rows))| {
                let first = chunk * CHUNK_ROWS;
                self.fill(board, relabelling.as_ref(), first, rows, out)
                    .err()
            });
        match failure {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// One chunk of [`Table::distances_to_checked`], in order; stops at its first bad row
    /// (numbered from `first`).
    ///
    /// A row is ranked from its bytes, without making a `State` of it: states are moved
    /// around whole, and a million of those moves cost more than the rank.
    fn fill(
        &self,
        board: Board,
        relabelling: Option<&Relabelling>,
        first: usize,
        rows: &[u8],
        out: &mut [u8],
    ) -> Result<(), RowsError> {
        let n = board.cells();
        // A table whose every entry agrees with its neighbours' needs no neighbours read.
        let consistent = self.checks.all_consistent.load(Ordering::Relaxed);
        let mut cells = [0u8; MAX_CELLS];
        for (i, (slot, tiles)) in out.iter_mut().zip(rows.chunks_exact(n)).enumerate() {
            let row = first + i;
            let answer = match permutation_into(tiles, n, &mut cells) {
                Some(blank) => {
                    if let Some(relabelling) = relabelling {
                        relabelling.rename_cells(&mut cells[..n]);
                    }
                    let (full, parity) = self.space.full_index_of_cells(&cells[..n], blank);
                    match self.in_goal_class(full, parity, blank) {
                        None => Ok(UNSOLVABLE),
                        Some(full) if consistent => self.entry(full >> 1),
                        Some(_) => self.checked(&State::from_valid_cells(board, cells)),
                    }
                }
                // Not a permutation: the parser words why (or, should it accept the row after
                // all, answers it as any state).
                None => {
                    let start = State::from_row(board, tiles)
                        .map_err(|error| RowsError::Invalid { row, error })?;
                    self.checked(&match relabelling {
                        Some(relabelling) => relabelling.apply(&start),
                        None => start,
                    })
                }
            };
            *slot = answer.map_err(|error| RowsError::Table { row, error })?;
        }
        Ok(())
    }

    /// The distance of `state`, in the table's labels, from an entry its neighbours agree
    /// with; [`UNSOLVABLE`] when it cannot reach the goal.
    fn checked(&self, state: &State) -> Result<u8, TableError> {
        Ok(self.distance_checked(state)?.unwrap_or(UNSOLVABLE))
    }
}
