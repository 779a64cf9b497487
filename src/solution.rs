//! A solution: the blank's moves from a start, and the states they pass through.

use std::fmt;

use crate::board::{moves_to_string, Move};
use crate::state::State;

/// A sequence of moves from `start`, with every state along the way.
///
/// ```
/// use npuzzle::{Move, Solution, State};
/// let start: State = "123456708".parse()?;
/// let solution = Solution::from_moves(start, vec![Move::Right]).expect("legal");
/// assert_eq!(solution.len(), 1);
/// assert_eq!(solution.moves_string(), "R");
/// assert_eq!(solution.end().to_string(), "123456780");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// It prints as its moves' letters (`{}`) and, with the alternate flag (`{:#}`), as every
/// board along the path with its step number.
///
/// With the `serde` feature it is written as `{"start": "123456708", "moves": "R"}` and read
/// back by replaying the moves, so a read solution is legal.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "SolutionText", try_from = "SolutionText")
)]
pub struct Solution {
    moves: Vec<Move>,
    path: Vec<State>,
}

/// A move that would take the blank off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[error("move {step} ({mv}) takes the blank off the board from cell {cell}")]
pub struct IllegalMove {
    /// The 1-based step.
    pub step: usize,
    /// The move.
    pub mv: Move,
    /// The blank's cell before the move.
    pub cell: usize,
}

impl Solution {
    /// Replays `moves` from `start`.
    ///
    /// # Errors
    /// [`IllegalMove`] at the first move that leaves the board.
    pub fn from_moves(start: State, moves: Vec<Move>) -> Result<Solution, IllegalMove> {
        let mut path = Vec::with_capacity(moves.len() + 1);
        path.push(start);
        let mut state = start;
        for (i, &mv) in moves.iter().enumerate() {
            state = state.apply(mv).ok_or(IllegalMove {
                step: i + 1,
                mv,
                cell: state.blank(),
            })?;
            path.push(state);
        }
        Ok(Solution { moves, path })
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the start is already the goal.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The blank's moves.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The moves as letters, for example `LURD`.
    pub fn moves_string(&self) -> String {
        moves_to_string(&self.moves)
    }

    /// The states from the start to the end, `len() + 1` of them.
    pub fn path(&self) -> &[State] {
        &self.path
    }

    /// The first state.
    pub fn start(&self) -> State {
        self.path[0]
    }

    /// The last state.
    pub fn end(&self) -> State {
        *self.path.last().expect("a path holds at least the start")
    }
}

impl fmt::Display for Solution {
    /// `RDLU`: the moves' letters (empty for no moves). With `{:#}`: each board along the
    /// path as a grid, headed by its step number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            return f.write_str(&self.moves_string());
        }
        for (step, state) in self.path.iter().enumerate() {
            if step > 0 {
                f.write_str("\n\n")?;
            }
            match step.checked_sub(1).map(|i| self.moves[i]) {
                None => writeln!(f, "step 0 (start)")?,
                Some(mv) => writeln!(f, "step {step} ({mv})")?,
            }
            f.write_str(&state.grid())?;
        }
        Ok(())
    }
}

/// The serde form of a [`Solution`]: the start and the moves as letters.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct SolutionText {
    start: State,
    moves: String,
}

#[cfg(feature = "serde")]
impl From<Solution> for SolutionText {
    fn from(solution: Solution) -> SolutionText {
        SolutionText {
            start: solution.start(),
            moves: solution.moves_string(),
        }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<SolutionText> for Solution {
    type Error = String;

    fn try_from(text: SolutionText) -> Result<Solution, String> {
        let moves = text
            .moves
            .chars()
            .map(|letter| {
                Move::from_letter(letter)
                    .ok_or_else(|| format!("`{letter}` is not a move: moves are U, D, L, R"))
            })
            .collect::<Result<Vec<Move>, String>>()?;
        Solution::from_moves(text.start, moves).map_err(|e| e.to_string())
    }
}
