//! States from rows of tile bytes: one byte per cell, row-major, `0` the blank, as a NumPy
//! array of shape `(n, cells)` holds them.
//!
//! A row is checked with a bit mask in one pass (the bulk path answers millions of rows, where
//! writing each out as text for [`State::parse`] would cost more than the lookup). A row the
//! mask refuses is written out as text and given to the parser, which decides and words the
//! error: the parser stays the only judge of what a state is, and the mask only a shortcut
//! past it for rows that are plainly permutations.
#![warn(clippy::cast_possible_truncation)]

use crate::board::{Board, MAX_CELLS};
use crate::state::{ParseStateError, State};

/// A row of tiles that is not a state: the row written out as text and the parser's reason.
///
/// The text is what [`State::parse`] read, so the error's columns point into it: tiles run
/// together on boards whose tiles are single digits (`123456788`), separated by spaces on
/// larger boards and wherever a tile has two digits or more.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid state `{text}`: {error}")]
pub struct InvalidRow {
    /// The row as the parser read it.
    pub text: String,
    /// Why it is not a state.
    pub error: ParseStateError,
}

impl State {
    /// The state whose tiles, row-major, are `tiles` (`0` the blank) on `board`: the way from
    /// an array's row of bytes to a state, without text.
    ///
    /// ```
    /// use npuzzle::{Board, State};
    /// let board = Board::THREE_BY_THREE;
    /// assert_eq!(State::from_row(board, &[1, 2, 3, 4, 5, 6, 7, 8, 0])?, State::goal(board));
    /// let error = State::from_row(board, &[1, 2, 3, 4, 5, 6, 7, 8, 8]).unwrap_err();
    /// assert_eq!(error.to_string(), "invalid state `123456788`: tile 8 is repeated at column 9");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`InvalidRow`] when the row is not a permutation of `0..board.cells()`: a tile out of
    /// range, a repeated tile, too few or too many tiles. Never panics.
    #[inline]
    pub fn from_row(board: Board, tiles: &[u8]) -> Result<State, InvalidRow> {
        let mut cells = [0u8; MAX_CELLS];
        match permutation_into(tiles, board.cells(), &mut cells) {
            Some(_) => Ok(State::from_valid_cells(board, cells)),
            None => parse_row(board, tiles),
        }
    }
}

/// The bit-mask check: copies `tiles` into `cells` and returns the blank's cell if they are a
/// permutation of `0..n` (`n` at most [`MAX_CELLS`]); `None` for any other row, whose error is
/// then [`State::from_row`]'s to find.
#[inline]
pub(crate) fn permutation_into(
    tiles: &[u8],
    n: usize,
    cells: &mut [u8; MAX_CELLS],
) -> Option<usize> {
    if tiles.len() != n || n > MAX_CELLS {
        return None;
    }
    let mut seen: u32 = 0;
    let mut in_range = true;
    let mut blank = 0;
    for (cell, (slot, &tile)) in cells.iter_mut().zip(tiles).enumerate() {
        in_range &= usize::from(tile) < n;
        // A board has at most 25 cells, so a tile in range is below 32; the mask keeps the
        // shift defined for the others, which `in_range` refuses anyway.
        seen |= 1 << (tile & 31);
        if tile == 0 {
            blank = cell;
        }
        *slot = tile;
    }
    (in_range && seen == (1u32 << n) - 1).then_some(blank)
}

/// The slow way, for rows the mask refused: the row written out and parsed, so that the error
/// is the parser's. Should the parser accept the text, its state is the answer.
#[cold]
fn parse_row(board: Board, tiles: &[u8]) -> Result<State, InvalidRow> {
    let text = row_text(board, tiles);
    State::parse(&text, Some(board)).map_err(|error| InvalidRow { text, error })
}

/// The row as text: digits run together on a board of single-digit tiles (a tile of two
/// digits or more is set apart by a space, and the parser names the problem), tiles
/// separated by spaces on larger boards.
fn row_text(board: Board, tiles: &[u8]) -> String {
    let compact = board.has_single_digit_tiles();
    let mut text = String::with_capacity(tiles.len() * 3);
    for (i, &tile) in tiles.iter().enumerate() {
        if !(compact && tile < 10) && i > 0 {
            text.push(' ');
        }
        text.push_str(&tile.to_string());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_with_a_two_digit_tile_on_a_single_digit_board_names_the_problem() {
        let error = State::from_row(Board::THREE_BY_THREE, &[1, 2, 3, 4, 5, 6, 7, 8, 12])
            .expect_err("12 is no 3x3 tile");
        assert_eq!(error.text, "12345678 12");
    }

    #[test]
    fn rows_of_the_wrong_length_are_refused_with_the_parsers_count() {
        for tiles in [&[][..], &[1, 2, 0][..], &[1, 2, 3, 4, 5, 6, 7, 8, 0, 9][..]] {
            let error = State::from_row(Board::THREE_BY_THREE, tiles).expect_err("wrong length");
            assert!(error.to_string().contains("invalid state"), "{error}");
        }
    }

    #[test]
    fn larger_boards_write_rows_with_spaces() {
        let board = Board::new(4, 3).expect("4x3 is a board");
        let mut tiles: Vec<u8> = (1..12).collect();
        tiles.push(0);
        assert_eq!(State::from_row(board, &tiles), Ok(State::goal(board)));
        tiles[0] = 11;
        let error = State::from_row(board, &tiles).expect_err("11 twice");
        assert_eq!(error.text, "11 2 3 4 5 6 7 8 9 10 11 0");
    }
}
