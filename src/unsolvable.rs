//! Why a start cannot reach a goal: the one explanation the command line, the server and the
//! Python package print, carried by [`NoAnswer::Unsolvable`](crate::NoAnswer::Unsolvable).

use std::fmt;

use crate::state::State;

/// A start and a goal in different parity classes, with the reason written out: which
/// invariant differs ([`Unsolvable::invariant`]) and its value for each.
///
/// ```
/// use npuzzle::{State, Unsolvable};
/// let start: State = "213456780".parse()?;
/// let goal: State = "123456780".parse()?;
/// let why = Unsolvable::between(&start, &goal).expect("two tiles swapped");
/// assert_eq!(
///     why.to_string(),
///     "213456780 cannot reach 123456780: the parity of tile inversions is odd for the start \
///      but even for the goal, and no move changes it"
/// );
/// assert!(Unsolvable::between(&goal, &goal).is_none());
/// # Ok::<(), npuzzle::ParseStateError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unsolvable {
    start: State,
    goal: State,
}

impl Unsolvable {
    /// The reason `start` cannot reach `goal`, or `None` where it can. Both are on one board
    /// (a pair on two boards is a malformed question, not an unsolvable one).
    ///
    /// # Panics
    /// If the two states are on different boards.
    pub fn between(start: &State, goal: &State) -> Option<Unsolvable> {
        assert_eq!(start.board(), goal.board(), "the pair is on two boards");
        (!start.can_reach(goal)).then_some(Unsolvable {
            start: *start,
            goal: *goal,
        })
    }

    /// The reason for a pair the caller found unsolvable (it checked the parity, or a table or
    /// a search did).
    pub(crate) fn of(start: &State, goal: &State) -> Unsolvable {
        Unsolvable {
            start: *start,
            goal: *goal,
        }
    }

    /// The start.
    pub fn start(&self) -> &State {
        &self.start
    }

    /// The goal.
    pub fn goal(&self) -> &State {
        &self.goal
    }

    /// The invariant that differs, in words: the tile inversions, plus the blank's row on a
    /// board of even width (see [`State::parity_class`]).
    pub fn invariant(&self) -> &'static str {
        if self.start.board().width().is_multiple_of(2) {
            "tile inversions plus the blank's row"
        } else {
            "tile inversions"
        }
    }
}

impl fmt::Display for Unsolvable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} cannot reach {}: the parity of {} is {} for the start but {} for the goal, and no move changes it",
            self.start,
            self.goal,
            self.invariant(),
            self.start.parity_class(),
            self.goal.parity_class(),
        )
    }
}
