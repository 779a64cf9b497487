//! Board geometry and the four moves of the blank.

use std::fmt;
use std::str::FromStr;

/// The largest number of cells of any board (5x5); a [`State`](crate::State) stores this many.
///
/// Boards are bounded by their cell count, not by a side: 2x6, 6x2 and 2x12 are boards too.
pub const MAX_CELLS: usize = 25;
/// The longest side a board may have: 12, as in 2x12 (a side of 13 would need 26 cells).
pub const MAX_SIDE: u8 = 12;
const _: () = assert!(MAX_SIDE as usize == MAX_CELLS / 2);
/// The shortest side a board may have (a 1-wide board has no moves that change anything).
pub const MIN_SIDE: u8 = 2;

/// A rectangular board of `width` x `height` cells, numbered row-major from the top-left.
///
/// Each side is at least [`MIN_SIDE`] and the board has at most [`MAX_CELLS`] cells. A
/// `Board` is two bytes and `Copy`.
///
/// ```
/// use npuzzle::Board;
/// let board: Board = "4x3".parse()?;
/// assert_eq!((board.width(), board.height(), board.cells()), (4, 3, 12));
/// assert_eq!(board.to_string(), "4x3");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Board {
    width: u8,
    height: u8,
}

/// Why a board size was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// A side shorter than [`MIN_SIDE`], or more than [`MAX_CELLS`] cells.
    #[error("board {width}x{height} is not supported: each side must be at least {MIN_SIDE} and the board at most {MAX_CELLS} cells")]
    Unsupported {
        /// The width asked for.
        width: usize,
        /// The height asked for.
        height: usize,
    },
    /// The text is not of the form `WxH`.
    #[error("board size `{0}` is not of the form WxH (for example 3x3 or 4x4)")]
    Malformed(String),
}

/// `width()`, `height()` and `cells()`, written once for [`Board`] and
/// [`LargeBoard`](crate::large::LargeBoard), whose sides are stored as `u8` and `u16`.
macro_rules! side_accessors {
    () => {
        /// Cells per row.
        pub fn width(self) -> usize {
            usize::from(self.width)
        }

        /// Number of rows.
        pub fn height(self) -> usize {
            usize::from(self.height)
        }

        /// Number of cells, `width * height`.
        pub fn cells(self) -> usize {
            self.width() * self.height()
        }
    };
}
pub(crate) use side_accessors;

impl Board {
    /// The 3x3 board of the 8-puzzle.
    pub const THREE_BY_THREE: Board = Board {
        width: 3,
        height: 3,
    };

    /// A board `width` cells wide and `height` cells high.
    ///
    /// # Errors
    /// [`BoardError::Unsupported`] unless both sides are at least [`MIN_SIDE`] and the board
    /// has at most [`MAX_CELLS`] cells.
    pub fn new(width: usize, height: usize) -> Result<Board, BoardError> {
        let ok = |side: usize| side >= MIN_SIDE as usize;
        if ok(width) && ok(height) && width.saturating_mul(height) <= MAX_CELLS {
            Ok(Board {
                width: u8::try_from(width).expect("at most MAX_CELLS, checked above"),
                height: u8::try_from(height).expect("at most MAX_CELLS, checked above"),
            })
        } else {
            Err(BoardError::Unsupported { width, height })
        }
    }

    /// The square board with `cells` cells, if `cells` is 4, 9, 16 or 25.
    pub fn square_with_cells(cells: usize) -> Option<Board> {
        (MIN_SIDE as usize..=MAX_SIDE as usize)
            .find(|side| side * side == cells && cells <= MAX_CELLS)
            .map(|side| Board {
                width: u8::try_from(side).expect("at most MAX_SIDE"),
                height: u8::try_from(side).expect("at most MAX_SIDE"),
            })
    }

    side_accessors!();

    /// Whether every tile is one digit (at most 10 cells), so that a state can be written one
    /// character per cell, as in `123456780`.
    pub fn has_single_digit_tiles(self) -> bool {
        self.cells() <= 10
    }

    /// The cell the blank reaches from `cell` by `mv`, or `None` at the edge.
    #[inline]
    pub fn step(self, cell: usize, mv: Move) -> Option<usize> {
        let (w, n) = (self.width(), self.cells());
        match mv {
            Move::Up => cell.checked_sub(w),
            Move::Down => Some(cell + w).filter(|&c| c < n),
            Move::Left => (!cell.is_multiple_of(w)).then(|| cell - 1),
            Move::Right => (cell % w != w - 1).then(|| cell + 1),
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Board {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Board, BoardError> {
        let malformed = || BoardError::Malformed(text.to_string());
        let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(malformed)?;
        let w: usize = w.trim().parse().map_err(|_| malformed())?;
        let h: usize = h.trim().parse().map_err(|_| malformed())?;
        Board::new(w, h)
    }
}

/// A move, named for the direction the **blank** moves (`Up` slides the tile above the blank down).
///
/// Written as one letter: `U`, `D`, `L`, `R`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Move {
    /// The blank moves up one row.
    Up,
    /// The blank moves down one row.
    Down,
    /// The blank moves one cell left.
    Left,
    /// The blank moves one cell right.
    Right,
}

impl Move {
    /// All four moves, in the order solvers try them.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// The move's letter: `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Move::Up => 'U',
            Move::Down => 'D',
            Move::Left => 'L',
            Move::Right => 'R',
        }
    }

    /// The move written as `letter` (either case), if it is one of `UDLR`.
    pub fn from_letter(letter: char) -> Option<Move> {
        match letter.to_ascii_uppercase() {
            'U' => Some(Move::Up),
            'D' => Some(Move::Down),
            'L' => Some(Move::Left),
            'R' => Some(Move::Right),
            _ => None,
        }
    }

    /// The move that undoes this one.
    pub fn inverse(self) -> Move {
        match self {
            Move::Up => Move::Down,
            Move::Down => Move::Up,
            Move::Left => Move::Right,
            Move::Right => Move::Left,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl std::str::FromStr for Move {
    type Err = ParseMoveError;

    /// Reads one move: its letter (`U`, `D`, `L`, `R`, either case) or its name (`up`, `down`,
    /// `left`, `right`, any case).
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let mut chars = text.chars();
        if let (Some(letter), None) = (chars.next(), chars.next()) {
            if let Some(mv) = Move::from_letter(letter) {
                return Ok(mv);
            }
        }
        match text.to_ascii_lowercase().as_str() {
            "up" => Ok(Move::Up),
            "down" => Ok(Move::Down),
            "left" => Ok(Move::Left),
            "right" => Ok(Move::Right),
            _ => Err(ParseMoveError {
                found: text.chars().take(32).collect(),
            }),
        }
    }
}

/// A state given to something built for another board (a rank space, a heuristic).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a state of the {found} board was given to something built for the {expected} board")]
pub struct WrongBoardError {
    /// The board it was built for.
    pub expected: Board,
    /// The state's board.
    pub found: Board,
}

impl WrongBoardError {
    /// `Ok` if `found` is `expected`.
    ///
    /// # Errors
    /// The two boards, when they differ.
    pub fn check(expected: Board, found: Board) -> Result<(), WrongBoardError> {
        if expected == found {
            Ok(())
        } else {
            Err(WrongBoardError { expected, found })
        }
    }
}

/// A text that is not a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{found}` is not a move: moves are U, D, L, R (or up, down, left, right), naming the direction the blank moves")]
pub struct ParseMoveError {
    /// The text read (its first 32 characters).
    pub found: String,
}

/// With the `serde` feature: a move is its letter, `"U"`; reading also takes `"up"`.
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl serde::Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_char(self.letter())
    }
}

#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> serde::Deserialize<'de> for Move {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Move, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Writes moves as letters, for example `LURD`; an empty slice gives an empty string.
pub fn moves_to_string(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_stay_on_a_non_square_board() {
        let board = Board::new(3, 2).unwrap();
        assert_eq!(board.step(0, Move::Up), None);
        assert_eq!(board.step(0, Move::Left), None);
        assert_eq!(board.step(2, Move::Right), None);
        assert_eq!(board.step(2, Move::Down), Some(5));
        assert_eq!(board.step(5, Move::Down), None);
        assert_eq!(board.step(3, Move::Right), Some(4));
    }

    #[test]
    fn every_step_is_undone_by_its_inverse() {
        for (w, h) in [(2, 2), (3, 2), (2, 3), (3, 3), (4, 4), (5, 3)] {
            let board = Board::new(w, h).unwrap();
            for cell in 0..board.cells() {
                for mv in Move::ALL {
                    if let Some(next) = board.step(cell, mv) {
                        assert_eq!(board.step(next, mv.inverse()), Some(cell));
                    }
                }
            }
        }
    }

    #[test]
    fn boards_are_bounded_by_cell_count_not_by_a_side() {
        assert!(Board::new(1, 3).is_err());
        assert!(Board::new(6, 5).is_err());
        assert!(Board::new(13, 2).is_err());
        for (w, h) in [(6, 2), (2, 6), (12, 2), (2, 12), (6, 4), (5, 5)] {
            assert!(Board::new(w, h).is_ok(), "{w}x{h}");
        }
        assert!("3x".parse::<Board>().is_err());
        assert_eq!("3X4".parse::<Board>().unwrap(), Board::new(3, 4).unwrap());
    }
}
