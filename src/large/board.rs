//! [`LargeBoard`]: a width x height board of any size up to [`MAX_SIDE`] on each side.

use std::fmt;
use std::str::FromStr;

use crate::board::{side_accessors, Board, Move, MIN_SIDE};

/// The longest side of a large board: 64 cells (a 64x64 board has 4,095 tiles).
pub const MAX_SIDE: usize = 64;

/// A board of any size, `width` cells wide and `height` high, each side from 2 to
/// [`MAX_SIDE`]. Boards of at most 25 cells are [`Board`]s too ([`LargeBoard::to_small`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LargeBoard {
    width: u16,
    height: u16,
}

/// A board size that is malformed or out of range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LargeBoardError {
    /// A side shorter than 2 or longer than [`MAX_SIDE`].
    #[error(
        "board {width}x{height} is not supported: each side must be from {MIN_SIDE} to {MAX_SIDE}"
    )]
    OutOfRange {
        /// The width asked for.
        width: usize,
        /// The height asked for.
        height: usize,
    },
    /// Not written `WxH`.
    #[error("board {0:?} is not of the form WxH (for example 10x10)")]
    Malformed(String),
}

impl LargeBoard {
    /// A board `width` x `height`.
    ///
    /// # Errors
    /// [`LargeBoardError::OutOfRange`] for a side below 2 or above [`MAX_SIDE`].
    pub fn new(width: usize, height: usize) -> Result<LargeBoard, LargeBoardError> {
        let ok = |side: usize| (MIN_SIDE as usize..=MAX_SIDE).contains(&side);
        if ok(width) && ok(height) {
            Ok(LargeBoard {
                width: u16::try_from(width).expect("at most MAX_SIDE, checked above"),
                height: u16::try_from(height).expect("at most MAX_SIDE, checked above"),
            })
        } else {
            Err(LargeBoardError::OutOfRange { width, height })
        }
    }

    /// The same board as a small [`Board`], where it has at most 25 cells.
    pub fn to_small(self) -> Option<Board> {
        Board::new(self.width(), self.height()).ok()
    }

    side_accessors!();

    /// The cell the blank reaches from `cell` by `mv`, or `None` at the edge.
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

impl From<Board> for LargeBoard {
    fn from(board: Board) -> LargeBoard {
        LargeBoard {
            width: u16::try_from(board.width()).expect("a Board's side is at most 12"),
            height: u16::try_from(board.height()).expect("a Board's side is at most 12"),
        }
    }
}

impl fmt::Display for LargeBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for LargeBoard {
    type Err = LargeBoardError;

    /// Reads `WxH` (`10x10`, `32X8`), as [`Board`] does.
    fn from_str(text: &str) -> Result<LargeBoard, LargeBoardError> {
        let malformed = || LargeBoardError::Malformed(text.chars().take(32).collect());
        let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(malformed)?;
        let w: usize = w.trim().parse().map_err(|_| malformed())?;
        let h: usize = h.trim().parse().map_err(|_| malformed())?;
        LargeBoard::new(w, h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_out_of_range_and_malformed_sizes_are_refused() {
        assert!(LargeBoard::new(1, 5).is_err());
        assert!(LargeBoard::new(65, 2).is_err());
        assert_eq!("32x8".parse::<LargeBoard>().unwrap().cells(), 256);
        assert!("32".parse::<LargeBoard>().is_err());
        assert_eq!(
            LargeBoard::new(5, 5).unwrap().to_small().unwrap().cells(),
            25
        );
        assert!(LargeBoard::new(6, 5).unwrap().to_small().is_none());
    }

    #[test]
    fn steps_stop_at_every_edge() {
        let board = LargeBoard::new(3, 2).unwrap();
        assert_eq!(board.step(0, Move::Up), None);
        assert_eq!(board.step(0, Move::Left), None);
        assert_eq!(board.step(2, Move::Right), None);
        assert_eq!(board.step(4, Move::Down), None);
        assert_eq!(board.step(1, Move::Down), Some(4));
    }
}
