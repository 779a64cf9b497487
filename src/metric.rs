//! How moves are counted: one cell of the blank at a time (the single-tile metric, STM), or a
//! slide of several tiles along a row or column as one move (the multi-tile metric, MTM).
//!
//! A path is always written as single-cell blank moves (`U D L R`, the interface contract);
//! under MTM a run of equal consecutive letters is one move, so `RRD` is two MTM moves and
//! three STM moves. Only the counting and the optimum differ.
//!
//! ```
//! use npuzzle::metric::Metric;
//! use npuzzle::moves_to_string;
//! let moves = npuzzle::verify::parse_moves("RRDLL")?;
//! assert_eq!(Metric::Stm.length(&moves), 5);
//! assert_eq!(Metric::Mtm.length(&moves), 3);
//! assert_eq!("mtm".parse::<Metric>()?, Metric::Mtm);
//! # let _ = moves_to_string(&moves);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::board::Move;
use crate::state::State;

/// How moves are counted. [`Metric::Stm`] is the default everywhere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Metric {
    /// The single-tile metric: every cell the blank moves is one move.
    #[default]
    Stm,
    /// The multi-tile metric: sliding the blank any number of cells along its row or column
    /// (moving that many tiles one cell each) is one move.
    Mtm,
}

impl Metric {
    /// Both metrics, STM first.
    pub const ALL: [Metric; 2] = [Metric::Stm, Metric::Mtm];

    /// The metric's name as the command line writes it: `stm` or `mtm`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Stm => "stm",
            Metric::Mtm => "mtm",
        }
    }

    /// The number of moves `moves` (single-cell blank moves) count in this metric: their
    /// number under STM, their number of runs of equal consecutive moves under MTM.
    pub fn length(self, moves: &[Move]) -> usize {
        match self {
            Metric::Stm => moves.len(),
            Metric::Mtm => moves.len() - moves.windows(2).filter(|pair| pair[0] == pair[1]).count(),
        }
    }
}

impl Metric {
    /// The first move of `moves` (single-cell blank moves) counted in this metric: its first
    /// letter under STM, its first run of equal letters (one slide) under MTM; empty for an
    /// empty path. A hint is this, whatever solver wrote the path.
    ///
    /// ```
    /// use npuzzle::metric::Metric;
    /// let moves = npuzzle::verify::parse_moves("RRDLL")?;
    /// assert_eq!(Metric::Stm.first_move(&moves), &moves[..1]);
    /// assert_eq!(Metric::Mtm.first_move(&moves), &moves[..2]);
    /// assert!(Metric::Mtm.first_move(&[]).is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn first_move(self, moves: &[Move]) -> &[Move] {
        let Some(&first) = moves.first() else {
            return moves;
        };
        let end = match self {
            Metric::Stm => 1,
            Metric::Mtm => moves.iter().take_while(|&&mv| mv == first).count(),
        };
        &moves[..end]
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A metric name that is neither `stm` nor `mtm`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMetricError(pub String);

impl fmt::Display for ParseMetricError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown metric {:?} (expected stm or mtm)", self.0)
    }
}

impl std::error::Error for ParseMetricError {}

impl FromStr for Metric {
    type Err = ParseMetricError;

    fn from_str(text: &str) -> Result<Metric, ParseMetricError> {
        // The exact names first, without the copy below: Python reads `metric=` on every call.
        match text {
            "stm" => return Ok(Metric::Stm),
            "mtm" => return Ok(Metric::Mtm),
            _ => {}
        }
        match text.trim().to_ascii_lowercase().as_str() {
            "stm" => Ok(Metric::Stm),
            "mtm" => Ok(Metric::Mtm),
            _ => Err(ParseMetricError(text.to_string())),
        }
    }
}

/// Calls `visit(direction, cells, next)` for every MTM move from `state`: the blank moves
/// `cells` (1 or more) cells in `direction`, in [`Move::ALL`] order and nearest first. The
/// single-cell moves among them are exactly the STM moves.
pub fn for_each_mtm_move(state: &State, mut visit: impl FnMut(Move, usize, &State)) {
    for mv in Move::ALL {
        let mut next = *state;
        let mut cells = 0;
        while let Some(after) = next.apply(mv) {
            next = after;
            cells += 1;
            visit(mv, cells, &next);
        }
    }
}
