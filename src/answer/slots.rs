//! Where the answer layer keeps an opened table: one slot per board with tables and blank cell.
//!
//! Every goal is served by the canonical table with its blank cell, so the tables a process can
//! ever open are few (109 for all boards of at most 12 cells). A slot is found by arithmetic and
//! read with one atomic load, which is what a batch of millions of questions needs: no hashing
//! and no lock on the way to a table that is already open.

use std::sync::{Mutex, OnceLock, PoisonError};

use crate::board::{Board, MIN_SIDE};
use crate::store::StoredBytes;
use crate::table::Table;

use super::MAX_TABLE_CELLS;

/// The longest side of a board with tables (2 x 6).
const MAX_TABLED_SIDE: usize = MAX_TABLE_CELLS / MIN_SIDE as usize;
/// Sides run from `MIN_SIDE` to `MAX_TABLED_SIDE`.
const SIDES: usize = MAX_TABLED_SIDE - MIN_SIDE as usize + 1;
/// No slot: a board without tables.
const NONE: u16 = u16::MAX;

/// The slots of every board with tables, each opened table set once (STM tables by default;
/// the MTM tables have slots of their own).
pub(super) struct Slots<T = Table<StoredBytes>> {
    /// `first[w - 2][h - 2]`: the slot of the board's blank cell 0, or [`NONE`].
    first: [[u16; SIDES]; SIDES],
    tables: Vec<OnceLock<T>>,
}

impl<T> Slots<T> {
    pub(super) fn new() -> Slots<T> {
        let mut first = [[NONE; SIDES]; SIDES];
        let mut count = 0usize;
        for (w, row) in first.iter_mut().enumerate() {
            for (h, slot) in row.iter_mut().enumerate() {
                match Board::new(w + MIN_SIDE as usize, h + MIN_SIDE as usize) {
                    Ok(board) if super::has_table(board) => {
                        *slot = u16::try_from(count)
                            .expect("the tabled boards have a few hundred cells in all");
                        count += board.cells();
                    }
                    _ => {}
                }
            }
        }
        Slots {
            first,
            tables: (0..count).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The slot of the table with `blank` on `board`; `None` for boards without tables.
    #[inline]
    pub(super) fn slot(&self, board: Board, blank: usize) -> Option<&OnceLock<T>> {
        let (w, h) = (board.width(), board.height());
        let min = MIN_SIDE as usize;
        if w > MAX_TABLED_SIDE || h > MAX_TABLED_SIDE {
            return None;
        }
        match self.first[w - min][h - min] {
            NONE => None,
            first => self.tables.get(first as usize + blank),
        }
    }

    /// The value in the slot of `blank` on `board`, loaded by `load` where the slot is still
    /// empty; `None` for boards without slots. Loads run one at a time, under `loading` (the
    /// lock the oracle holds for every lazy load), and fill each slot once: a caller that
    /// waited for the lock finds the slot another filled meanwhile. A slot already filled is
    /// read without the lock. A failed load leaves the slot empty, to be tried again.
    pub(super) fn get_or_load<E>(
        &self,
        board: Board,
        blank: usize,
        loading: &Mutex<()>,
        load: impl FnOnce() -> Result<T, E>,
    ) -> Result<Option<&T>, E> {
        let Some(slot) = self.slot(board, blank) else {
            return Ok(None);
        };
        if let Some(value) = slot.get() {
            return Ok(Some(value));
        }
        // A poisoned lock only means another thread panicked while loading; the slot is
        // still either empty or holds a complete value.
        let _guard = loading.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(value) = slot.get() {
            return Ok(Some(value));
        }
        let value = load()?;
        Ok(Some(slot.get_or_init(|| value)))
    }

    /// How many slots there are.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.tables.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::has_table;

    #[test]
    fn every_blank_cell_of_every_tabled_board_has_its_own_slot() {
        let slots: Slots = Slots::new();
        let mut seen = std::collections::HashSet::new();
        let mut boards = 0;
        for w in 2..=12 {
            for h in 2..=12 {
                let Ok(board) = Board::new(w, h) else {
                    continue;
                };
                if !has_table(board) {
                    assert!(slots.slot(board, 0).is_none(), "{board}");
                    continue;
                }
                boards += 1;
                for blank in 0..board.cells() {
                    let slot = slots.slot(board, blank).expect("a tabled board has slots");
                    assert!(
                        seen.insert(slot as *const _ as usize),
                        "{board} blank {blank}"
                    );
                }
            }
        }
        // 2x2, 2x3, 3x2, 2x4, 4x2, 3x3, 2x5, 5x2, 2x6, 6x2, 3x4, 4x3.
        assert_eq!(boards, 12);
        assert_eq!(seen.len(), slots.len());
    }
}
