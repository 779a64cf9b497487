//! [`LargeState`]: a position on a [`LargeBoard`], tiles as `u16` on the heap.

use std::fmt;
use std::str::FromStr;

use super::board::{LargeBoard, LargeBoardError};
use crate::board::Move;
use crate::state::{lex, Parity, ParseStateError, BLANK_GLYPH};
use crate::State;

/// The longest text read as a large state, in bytes: a 64x64 state with five characters per
/// cell fits, and a hostile line costs no more than this.
pub const MAX_LARGE_TEXT: usize = 64 * 1024;

/// A position on a [`LargeBoard`]: `tiles[cell]` is the tile in `cell`, 0 the blank.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct LargeState {
    board: LargeBoard,
    blank: usize,
    tiles: Vec<u16>,
}

/// Why a text or a list of tiles is not a large state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseLargeError {
    /// The text itself: a stray character, an empty cell, a cell that is not a number.
    #[error(transparent)]
    Text(#[from] ParseStateError),
    /// Longer than [`MAX_LARGE_TEXT`].
    #[error("the state is {found} bytes long; at most {MAX_LARGE_TEXT} are read")]
    TooLong {
        /// Its length.
        found: usize,
    },
    /// The rows written with `/` are of different lengths.
    #[error("row {row} has {found} cells but the first row has {expected}")]
    RaggedRows {
        /// The 1-based row.
        row: usize,
        /// Its cells.
        found: usize,
        /// The first row's cells.
        expected: usize,
    },
    /// The board written or asked for is out of range.
    #[error(transparent)]
    Board(#[from] LargeBoardError),
    /// The count of cells is not the board's (or, with no board given, not a square).
    #[error("{found} cells do not make {expected}: write the rows with `/` or give --board WxH")]
    WrongCellCount {
        /// Cells found.
        found: usize,
        /// What was expected.
        expected: String,
    },
    /// A tile of the board appears twice, or a tile beyond the board.
    #[error("tile {tile} (cell {cell}) is {why}")]
    BadTile {
        /// The tile.
        tile: usize,
        /// Its 1-based position in the text.
        cell: usize,
        /// `repeated` or `beyond the board's tiles`.
        why: &'static str,
    },
}

impl LargeState {
    /// Reads a state in any of [`State::parse`]'s spellings (multi-digit tiles need
    /// separators: `1 2 3 / 4 5 6 / 7 8 0`); the board is `board` if given, else the rows
    /// written with `/`, else the square board with that many cells.
    ///
    /// # Errors
    /// A [`ParseLargeError`] naming the problem. Never panics.
    pub fn parse(text: &str, board: Option<LargeBoard>) -> Result<LargeState, ParseLargeError> {
        if text.len() > MAX_LARGE_TEXT {
            return Err(ParseLargeError::TooLong { found: text.len() });
        }
        let lexed = lex(text, u16::MAX as usize)?;
        let found = lexed.tokens.len();
        let from_rows = match lexed.rows.first() {
            None => None,
            Some(&expected) => {
                if let Some((i, &len)) = lexed
                    .rows
                    .iter()
                    .enumerate()
                    .find(|(_, &len)| len != expected)
                {
                    return Err(ParseLargeError::RaggedRows {
                        row: i + 1,
                        found: len,
                        expected,
                    });
                }
                Some(LargeBoard::new(expected, lexed.rows.len())?)
            }
        };
        let board = match (board, from_rows) {
            (Some(board), Some(rows)) if board != rows => {
                return Err(ParseLargeError::WrongCellCount {
                    found,
                    expected: format!("the {board} board (the rows make {rows})"),
                })
            }
            (Some(board), _) if board.cells() != found => {
                return Err(ParseLargeError::WrongCellCount {
                    found,
                    expected: format!("the {board} board ({} cells)", board.cells()),
                })
            }
            (Some(board), _) => board,
            (None, Some(rows)) => rows,
            (None, None) => {
                let side = (1..=found).find(|s| s * s >= found).unwrap_or(0);
                if side * side != found {
                    return Err(ParseLargeError::WrongCellCount {
                        found,
                        expected: "a square board".to_string(),
                    });
                }
                LargeBoard::new(side, side)?
            }
        };
        let values: Vec<usize> = lexed.tokens.iter().map(|t| t.value).collect();
        LargeState::from_values(board, &values)
    }

    /// A state from tiles listed row-major (0 the blank).
    ///
    /// # Errors
    /// A wrong count, a repeated tile or one beyond the board.
    pub fn from_tiles(board: LargeBoard, tiles: &[u16]) -> Result<LargeState, ParseLargeError> {
        if tiles.len() != board.cells() {
            return Err(ParseLargeError::WrongCellCount {
                found: tiles.len(),
                expected: format!("the {board} board ({} cells)", board.cells()),
            });
        }
        let values: Vec<usize> = tiles.iter().map(|&t| t as usize).collect();
        LargeState::from_values(board, &values)
    }

    fn from_values(board: LargeBoard, values: &[usize]) -> Result<LargeState, ParseLargeError> {
        let n = board.cells();
        let mut seen = vec![false; n];
        let mut blank = 0;
        for (cell, &tile) in values.iter().enumerate() {
            let why = if tile >= n {
                "beyond the board's tiles"
            } else if std::mem::replace(&mut seen[tile], true) {
                "repeated"
            } else {
                if tile == 0 {
                    blank = cell;
                }
                continue;
            };
            return Err(ParseLargeError::BadTile {
                tile,
                cell: cell + 1,
                why,
            });
        }
        Ok(LargeState {
            board,
            blank,
            tiles: values
                .iter()
                .map(|&t| u16::try_from(t).expect("below n <= 64 * 64, checked above"))
                .collect(),
        })
    }

    /// The default goal: tiles `1..n` row-major, the blank in the last cell.
    pub fn goal(board: LargeBoard) -> LargeState {
        let n = board.cells();
        let mut tiles: Vec<u16> = (1..u16::try_from(n).expect("at most 64 * 64 cells")).collect();
        tiles.push(0);
        LargeState {
            board,
            blank: n - 1,
            tiles,
        }
    }

    /// The same position as a large state (any small state is one).
    pub fn from_small(state: &State) -> LargeState {
        LargeState {
            board: state.board().into(),
            blank: state.blank(),
            tiles: state.cells().iter().map(|&t| u16::from(t)).collect(),
        }
    }

    /// The same position as a small [`State`], where the board has at most 25 cells.
    pub fn to_small(&self) -> Option<State> {
        let board = self.board.to_small()?;
        let tiles: Vec<u8> = self
            .tiles
            .iter()
            .map(|&t| u8::try_from(t).expect("a board of at most 25 cells has tiles below 25"))
            .collect();
        State::from_tiles(board, &tiles).ok()
    }

    /// The board.
    pub fn board(&self) -> LargeBoard {
        self.board
    }

    /// The tiles row-major, 0 the blank.
    pub fn tiles(&self) -> &[u16] {
        &self.tiles
    }

    /// The blank's cell.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// Moves the blank by `mv` in place; `false` (and nothing changes) at the edge.
    pub fn step(&mut self, mv: Move) -> bool {
        match self.board.step(self.blank, mv) {
            Some(to) => {
                self.tiles.swap(self.blank, to);
                self.blank = to;
                true
            }
            None => false,
        }
    }

    /// The state after `moves`.
    ///
    /// # Errors
    /// The index of the first move that leaves the board.
    pub fn after(&self, moves: &[Move]) -> Result<LargeState, usize> {
        let mut state = self.clone();
        for (i, &mv) in moves.iter().enumerate() {
            if !state.step(mv) {
                return Err(i);
            }
        }
        Ok(state)
    }

    /// The invariant moves keep, as [`State::parity_class`] defines it: the parity of the
    /// tiles' permutation (blank left out), plus on boards of even width the parity of the
    /// blank's row. Counted by cycles, so it costs one pass on any size.
    pub fn parity_class(&self) -> Parity {
        // The tiles in reading order, the blank left out, as a permutation of 0..n-1.
        let order: Vec<usize> = self
            .tiles
            .iter()
            .filter(|&&t| t != 0)
            .map(|&t| t as usize - 1)
            .collect();
        let mut seen = vec![false; order.len()];
        let mut cycles = 0;
        for start in 0..order.len() {
            if !seen[start] {
                cycles += 1;
                let mut i = start;
                while !seen[i] {
                    seen[i] = true;
                    i = order[i];
                }
            }
        }
        let odd = (order.len() - cycles) % 2 == 1;
        let w = self.board.width();
        Parity::from_odd(odd ^ (w.is_multiple_of(2) && !(self.blank / w).is_multiple_of(2)))
    }

    /// Whether `goal` can be reached: same board, same parity class.
    pub fn can_reach(&self, goal: &LargeState) -> bool {
        self.board == goal.board && self.parity_class() == goal.parity_class()
    }

    /// The state drawn as rows of right-aligned tiles, [`BLANK_GLYPH`] for the blank.
    pub fn grid(&self) -> String {
        let digits = (self.board.cells() - 1).to_string().len();
        let rows: Vec<String> = self
            .tiles
            .chunks(self.board.width())
            .map(|row| {
                let cells: Vec<String> = row
                    .iter()
                    .map(|&t| match t {
                        0 => format!("{BLANK_GLYPH:>digits$}"),
                        t => format!("{t:>digits$}"),
                    })
                    .collect();
                cells.join(" ")
            })
            .collect();
        rows.join("\n")
    }
}

/// Tiles separated by spaces and rows by `/` (`1 2 3/4 5 6/7 8 0`): parses back, board and all.
impl fmt::Display for LargeState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (r, row) in self.tiles.chunks(self.board.width()).enumerate() {
            if r > 0 {
                f.write_str("/")?;
            }
            for (c, tile) in row.iter().enumerate() {
                if c > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{tile}")?;
            }
        }
        Ok(())
    }
}

impl FromStr for LargeState {
    type Err = ParseLargeError;

    fn from_str(text: &str) -> Result<LargeState, ParseLargeError> {
        LargeState::parse(text, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_spelling_reads_the_same_state() {
        let want = LargeState::goal(LargeBoard::new(3, 3).unwrap());
        for text in [
            "123456780",
            "1 2 3 4 5 6 7 8 0",
            "1,2,3,4,5,6,7,8,0",
            "123/456/780",
        ] {
            assert_eq!(LargeState::parse(text, None).unwrap(), want, "{text}");
        }
        let big = LargeState::goal(LargeBoard::new(12, 7).unwrap());
        assert_eq!(big.to_string().parse::<LargeState>().unwrap(), big);
        assert_eq!(LargeState::parse("1 2 3 _", None).unwrap().blank(), 3);
    }

    #[test]
    fn bad_states_are_named() {
        let board = LargeBoard::new(6, 6).unwrap();
        let text: Vec<String> = (0..36).map(|t| t.to_string()).collect();
        let mut repeated = text.clone();
        repeated[5] = "7".into();
        assert!(matches!(
            LargeState::parse(&repeated.join(" "), Some(board)),
            Err(ParseLargeError::BadTile { tile: 7, .. })
        ));
        assert!(matches!(
            LargeState::parse(&text[..35].join(" "), None),
            Err(ParseLargeError::WrongCellCount { found: 35, .. })
        ));
        assert!(matches!(
            LargeState::parse("1 2/3", None),
            Err(ParseLargeError::RaggedRows { row: 2, .. })
        ));
        assert!(LargeState::parse("1 2 x 0", None).is_err());
        assert!(LargeState::parse(&"1 ".repeat(40_000), None).is_err());
    }

    #[test]
    fn parity_agrees_with_the_small_states_on_every_3x3_and_2x4_state_reached() {
        for board in [
            crate::Board::new(3, 3).unwrap(),
            crate::Board::new(4, 2).unwrap(),
        ] {
            let goal = State::goal(board);
            let mut state = goal;
            // A fixed walk over both classes: swap two tiles now and then.
            let mut rng = crate::rng::SplitMix64::new(3);
            for _ in 0..2000 {
                let mut tiles = state.cells().to_vec();
                let (i, j) = (rng.index_below(tiles.len()), rng.index_below(tiles.len()));
                tiles.swap(i, j);
                state = State::from_tiles(board, &tiles).unwrap();
                let large = LargeState::from_small(&state);
                assert_eq!(large.parity_class(), state.parity_class());
                assert_eq!(large.to_small(), Some(state));
            }
        }
    }
}
