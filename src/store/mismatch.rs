//! A valid table or pattern database asked to answer for something it was not built for.
//!
//! This is not damage: the bytes are fine, the question is another. Keeping it apart from
//! [`FormatError`](super::FormatError) lets a caller tell "this file is broken" from "this
//! file is for goal 012345678, you asked for 123456780" without matching on message text.

use crate::metric::Metric;
use crate::state::State;

/// A table or pattern database that is valid but was built for another goal or pattern.
///
/// ```
/// use npuzzle::{store::Mismatch, BuildOptions, State, Table};
///
/// let table = Table::build(&"123456780".parse::<State>()?, BuildOptions::default())?;
/// let other: State = "012345678".parse()?;
/// let error = table.expect(&other).unwrap_err();
/// assert!(matches!(error, Mismatch::Goal { .. }));
/// assert_eq!(
///     error.to_string(),
///     "the table is for goal 123456780 (3x3), not the goal 012345678 (3x3)"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Mismatch {
    /// The file measures distances to another goal (perhaps on another board).
    #[error("the table is for goal {found} ({}), not the goal {expected} ({})", found.board(), expected.board())]
    Goal {
        /// The file's goal.
        found: State,
        /// The goal asked for.
        expected: State,
    },
    /// The table's distances count moves in another metric than the one asked for (its
    /// header's metric byte), whatever its file name says.
    #[error("the table counts {found} moves, not the {expected} moves asked for")]
    Metric {
        /// The file's metric.
        found: Metric,
        /// The metric asked for.
        expected: Metric,
    },
    /// The pattern database abstracts other tiles than the ones asked for.
    #[error("the pattern database is for tiles {found:?}, not {expected:?}")]
    Pattern {
        /// The file's tiles, ascending.
        found: Vec<u8>,
        /// The tiles asked for, ascending.
        expected: Vec<u8>,
    },
    /// The MTM colouring database colours the goal's cells otherwise than asked for.
    #[error("the colouring database has classes {found:?}, not {expected:?}")]
    Colouring {
        /// The file's class of each goal cell.
        found: Vec<u8>,
        /// The classes asked for.
        expected: Vec<u8>,
    },
}
