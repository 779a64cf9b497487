//! A solution: the blank's moves from a start, and the states they pass through.

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    moves: Vec<Move>,
    path: Vec<State>,
}

/// A move that would take the blank off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
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
