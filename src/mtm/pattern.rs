//! MTM pattern databases: exact MTM distances in an abstraction that keeps the blank's cell
//! and a few pattern tiles, the other tiles indistinguishable.
//!
//! Why the bound holds: a real MTM move (the blank slides `k` cells along its row or column,
//! the `k` tiles it passes each shift one cell back towards where it was) maps, in the
//! abstraction, to the same slide of the blank with the pattern tiles among those `k` shifted
//! the same way; the others are "any tile" before and after. So every real solution maps
//! to an abstract path of the same number of moves, and the abstract distance, found by a
//! breadth-first search from the goal's abstraction under the MTM move set, is a lower bound
//! on the real MTM distance. Keeping the blank's exact cell is what makes the slides
//! abstract moves (without it a slide's length is unknown). Several databases share tiles
//! and count the same moves, so only their maximum is admissible, never their sum
//! (`tests/mtm.rs` checks the bound against the exact tables on every 3x3 state and a 3x4
//! sample).
//!
//! An entry's index ranks the blank's cell then each pattern tile's cell as a partial
//! permutation of the board's cells: `n! / (n - k - 1)!` entries for `k` tiles on `n` cells,
//! one byte each (5,765,760 for five tiles on 4x4, 57,657,600 for six).
//!
//! ```
//! use npuzzle::mtm::pattern::PatternDb;
//! use npuzzle::State;
//! let goal = State::goal("3x3".parse()?);
//! // Tiles 1, 2 and 3 (the goal's top row) and the blank's cell.
//! let db = PatternDb::build(&goal, &[0, 1, 2])?;
//! assert_eq!(db.estimate(&goal), 0);
//! let start: State = "123456078".parse()?;
//! assert_eq!(db.estimate(&start), 1); // the top row is home; the blank is one slide away
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::board::{Board, MAX_CELLS};
use crate::state::{State, BLANK};

/// The most cells a board may have for a pattern database (cells fit a `u16` set).
pub const MAX_PATTERN_CELLS: usize = 16;

/// The most entries a database may have (six tiles on 4x4 is 57,657,600).
pub const MAX_ENTRIES: usize = 60_000_000;

/// Entries not (yet) reached by the breadth-first search.
const UNSEEN: u8 = u8::MAX;

/// Why a pattern database cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PatternError {
    /// The board has more than [`MAX_PATTERN_CELLS`] cells.
    #[error("MTM pattern databases are built for boards of at most {MAX_PATTERN_CELLS} cells, not the {0} board")]
    BoardTooLarge(Board),
    /// A pattern cell is off the board, repeated, or the goal's blank cell.
    #[error("pattern cell {0} is off the board, repeated, or the goal's blank")]
    BadCell(usize),
    /// The database would have more than [`MAX_ENTRIES`] entries.
    #[error("a pattern of {tiles} tiles on the {board} board has {entries} entries, more than {MAX_ENTRIES}")]
    TooLarge {
        /// The board.
        board: Board,
        /// The number of pattern tiles.
        tiles: usize,
        /// The entries it would need.
        entries: usize,
    },
}

/// The exact MTM distances of one abstraction (the blank's cell and some pattern tiles) of one
/// goal: an admissible MTM estimate.
#[derive(Debug)]
pub struct PatternDb {
    board: Board,
    /// The pattern tiles (goal tiles of the pattern cells).
    tiles: Vec<u8>,
    /// One entry per rank, the abstract MTM distance to the goal's abstraction.
    distances: Vec<u8>,
}

/// The number of ranks of `places` distinct cells out of `cells`.
fn entries(cells: usize, places: usize) -> usize {
    (cells - places + 1..=cells).product()
}

/// The rank of distinct `cells_of` (blank first) among `n` cells: mixed radix, each digit a
/// cell's position among the cells not yet used.
#[inline]
fn rank(n: usize, cells_of: &[u8]) -> usize {
    let mut used = 0u32;
    let mut rank = 0usize;
    for (i, &cell) in cells_of.iter().enumerate() {
        let below = (used & ((1u32 << cell) - 1)).count_ones() as usize;
        rank = rank * (n - i) + (usize::from(cell) - below);
        used |= 1 << cell;
    }
    rank
}

/// The cells of rank `rank` (the inverse of [`rank`]) into `out`.
#[allow(clippy::cast_possible_truncation)] // cells are below MAX_CELLS (at most 25); the inner loop stays unchecked
fn unrank(n: usize, mut rank: usize, out: &mut [u8]) {
    let places = out.len();
    let mut digits = [0usize; MAX_PATTERN_CELLS];
    for i in (0..places).rev() {
        let radix = n - i;
        digits[i] = rank % radix;
        rank /= radix;
    }
    let mut used = 0u32;
    for (i, slot) in out.iter_mut().enumerate() {
        let mut skip = digits[i];
        let mut cell = 0;
        loop {
            if used & (1 << cell) == 0 {
                if skip == 0 {
                    break;
                }
                skip -= 1;
            }
            cell += 1;
        }
        used |= 1 << cell;
        *slot = cell as u8;
    }
}

impl PatternDb {
    /// Builds the database of `goal` whose pattern is the tiles on the goal's `cells`, by a
    /// breadth-first search over the abstraction under the MTM move set.
    ///
    /// # Errors
    /// [`PatternError`] for a board over [`MAX_PATTERN_CELLS`] cells, a bad cell, or too many
    /// entries.
    pub fn build(goal: &State, cells: &[usize]) -> Result<PatternDb, PatternError> {
        let board = goal.board();
        let n = board.cells();
        if n > MAX_PATTERN_CELLS {
            return Err(PatternError::BoardTooLarge(board));
        }
        let mut seen = 0u32;
        for &cell in cells {
            if cell >= n || cell == goal.blank() || seen & (1 << cell) != 0 {
                return Err(PatternError::BadCell(cell));
            }
            seen |= 1 << cell;
        }
        let places = cells.len() + 1;
        if places > n || entries(n, places) > MAX_ENTRIES {
            return Err(PatternError::TooLarge {
                board,
                tiles: cells.len(),
                entries: if places > n {
                    usize::MAX
                } else {
                    entries(n, places)
                },
            });
        }
        let tiles: Vec<u8> = cells.iter().map(|&c| goal.cells()[c]).collect();
        let mut start = vec![u8::try_from(goal.blank()).expect("a cell index fits a byte")];
        start.extend(
            cells
                .iter()
                .map(|&c| u8::try_from(c).expect("a cell index fits a byte")),
        );
        let distances = breadth_first(board, &start);
        Ok(PatternDb {
            board,
            tiles,
            distances,
        })
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The pattern tiles.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.distances.len()
    }

    /// Whether the database has no entries (never, once built).
    pub fn is_empty(&self) -> bool {
        self.distances.is_empty()
    }

    /// The lower bound for `state` (on this database's board).
    #[allow(clippy::cast_possible_truncation)] // a cell index is below MAX_CELLS (at most 25)
    pub fn estimate(&self, state: &State) -> u32 {
        let mut cell_of = [0u8; MAX_CELLS];
        for (cell, &tile) in state.cells().iter().enumerate() {
            cell_of[usize::from(tile)] = cell as u8;
        }
        self.estimate_from_cells(&cell_of)
    }

    /// The lower bound for the state whose tile `t` (the blank is tile 0) is on `cell_of[t]`.
    #[inline]
    pub fn estimate_from_cells(&self, cell_of: &[u8; MAX_CELLS]) -> u32 {
        let mut cells = [0u8; MAX_PATTERN_CELLS];
        cells[0] = cell_of[usize::from(BLANK)];
        for (slot, &tile) in cells[1..].iter_mut().zip(&self.tiles) {
            *slot = cell_of[usize::from(tile)];
        }
        let d = self.distances[rank(self.board.cells(), &cells[..=self.tiles.len()])];
        // Entries of the other parity class may be unreached; 0 is always a bound.
        if d == UNSEEN {
            0
        } else {
            u32::from(d)
        }
    }
}

/// The abstract MTM distances from `start` (the blank's cell, then each pattern tile's),
/// layer by layer.
#[allow(clippy::cast_possible_truncation)] // cells and ranks are below MAX_CELLS (at most 25) and the entry count (u32); the inner loop stays unchecked
fn breadth_first(board: Board, start: &[u8]) -> Vec<u8> {
    let n = board.cells();
    let places = start.len();
    let mut distances = vec![UNSEEN; entries(n, places)];
    let first = rank(n, start);
    distances[first] = 0;
    let mut layer = vec![first as u32];
    let mut depth = 0u8;
    let mut cells = [0u8; MAX_PATTERN_CELLS];
    while !layer.is_empty() {
        let mut next_layer = Vec::new();
        for &r in &layer {
            let cells = &mut cells[..places];
            unrank(n, r as usize, cells);
            // Which pattern place is on each cell (0: none; the blank is place 0, not marked).
            let mut at = [0u8; MAX_PATTERN_CELLS];
            for (place, &cell) in cells.iter().enumerate().skip(1) {
                at[usize::from(cell)] = place as u8;
            }
            let blank = usize::from(cells[0]);
            for mv in crate::board::Move::ALL {
                let mut next = [0u8; MAX_PATTERN_CELLS];
                next[..places].copy_from_slice(cells);
                let mut from = blank;
                while let Some(to) = board.step(from, mv) {
                    // The tile on `to` (if a pattern tile) shifts onto `from`.
                    let place = usize::from(at[to]);
                    if place != 0 {
                        next[place] = from as u8;
                    }
                    next[0] = to as u8;
                    from = to;
                    let rank = rank(n, &next[..places]);
                    if distances[rank] == UNSEEN {
                        distances[rank] = depth + 1;
                        next_layer.push(rank as u32);
                    }
                }
            }
        }
        layer = next_layer;
        depth += 1;
    }
    distances
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse_on_every_placement_of_three_cells_of_nine() {
        let n = 9;
        let mut out = [0u8; 3];
        for r in 0..entries(n, 3) {
            unrank(n, r, &mut out);
            assert_eq!(rank(n, &out), r);
        }
    }

    #[test]
    fn bad_patterns_are_refused() {
        let goal = State::goal("3x3".parse().unwrap());
        assert!(matches!(
            PatternDb::build(&goal, &[8]),
            Err(PatternError::BadCell(8))
        ));
        assert!(matches!(
            PatternDb::build(&goal, &[1, 1]),
            Err(PatternError::BadCell(1))
        ));
        let big = State::goal("5x5".parse().unwrap());
        assert!(matches!(
            PatternDb::build(&big, &[0]),
            Err(PatternError::BoardTooLarge(_))
        ));
    }
}
