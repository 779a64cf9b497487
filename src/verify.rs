//! Judging a solver's answer against the exact distance: one [`Verdict`] per claim.
//!
//! The caller supplies the start, the goal, the exact distance (`None` for an unsolvable pair)
//! and what the solver claimed ([`Claim`]); [`judge`] replays the claim and says what is wrong
//! with it, if anything. No I/O happens here: the command line reads files, looks distances up
//! in the table and prints verdicts; this module only decides them, so every rule is testable
//! with hand-made values.
//!
//! # Rules, in the order they apply
//! 1. A claim that cannot be judged is [`Verdict::Malformed`]: no claim at all, `unsolvable`
//!    together with a solution, or a `length` (or `path`) that contradicts the `moves`.
//! 2. Solvability is decided before any move is replayed: on an unsolvable pair any solution
//!    claim (moves, path or length) is [`Verdict::FalseSolution`], whatever its moves, and an
//!    `unsolvable` claim is [`Verdict::CorrectUnsolvable`]; on a solvable pair an `unsolvable`
//!    claim is [`Verdict::FalseUnsolvable`].
//! 3. A length-only claim is [`Verdict::Optimal`] when it equals the exact distance, else
//!    [`Verdict::WrongLength`].
//! 4. Moves (or a path) are replayed from the start: the first move off the board (or the first
//!    pair of path states that are not one move apart) is [`Verdict::IllegalMove`]; an end other
//!    than the goal is [`Verdict::WrongEnd`]; at the goal, the length decides between
//!    [`Verdict::Optimal`] and [`Verdict::Suboptimal`].
//!
//! # Text forms read by the `parse_*` helpers
//! - Moves ([`parse_moves`]): the letters `U D L R` in either case, or the words `up`, `down`,
//!   `left`, `right`; separators (whitespace, `,` `;` `|` `-` `[` `]` `'` `"`) are ignored, so
//!   `LURD`, `l,u,r,d`, `L U R D` and `['L', 'U']` all read. A lone `-` (or nothing) is zero moves.
//! - Paths ([`parse_path`]): states separated by `;` or `|` (each state in any form
//!   [`State::parse`] reads, spaces included), or, when neither appears, by whitespace (each
//!   state then in a form without spaces: `123456780`, `1,2,3,4,5,6,7,8,0`, `123/456/780`).
//!   The start may be listed first or left out; both mean the same moves.
//! - Lengths ([`parse_length`]): a non-negative integer.
//! - Flags ([`parse_flag`]): `true`/`false`, `yes`/`no`, `1`/`0`, `unsolvable`/`solvable`.
//!
//! Boards beyond 5x5 have no exact distance: [`large::judge_large`] replays and checks a claim
//! there and holds its guarantee label to what can be shown without one.

pub mod large;

use std::fmt;

use crate::board::{Board, Move, MAX_CELLS};
use crate::guarantee::Guarantee;
use crate::metric::Metric;
use crate::state::{ParseStateError, State, BLANK};

/// What one answer claims. `None` means the field was absent (in CSV: empty): no claim.
///
/// A claim is a solution (any of `moves`, `path`, `length`, which must agree) or
/// `unsolvable: Some(true)`. `unsolvable: Some(false)` only confirms that a solution is given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Claim {
    /// The blank's moves from the start.
    pub moves: Option<Vec<Move>>,
    /// The states from the start (which may be left out) to the end.
    pub path: Option<Vec<State>>,
    /// The number of moves.
    pub length: Option<u32>,
    /// Whether the solver says the pair has no solution.
    pub unsolvable: Option<bool>,
}

impl Claim {
    /// A claim of these moves.
    pub fn moves(moves: Vec<Move>) -> Claim {
        Claim {
            moves: Some(moves),
            ..Claim::default()
        }
    }

    /// A claim of this path.
    pub fn path(path: Vec<State>) -> Claim {
        Claim {
            path: Some(path),
            ..Claim::default()
        }
    }

    /// A length-only claim.
    pub fn length(length: u32) -> Claim {
        Claim {
            length: Some(length),
            ..Claim::default()
        }
    }

    /// The claim that there is no solution.
    pub fn unsolvable() -> Claim {
        Claim {
            unsolvable: Some(true),
            ..Claim::default()
        }
    }

    /// Whether the claim says there is no solution.
    pub fn says_unsolvable(&self) -> bool {
        self.unsolvable == Some(true)
    }

    /// The number of moves claimed: the moves' count, else the path's steps from `start`,
    /// else the length. `None` for an unsolvable claim or no claim.
    pub fn claimed_length(&self, start: &State) -> Option<u32> {
        if self.says_unsolvable() {
            return None;
        }
        if let Some(moves) = &self.moves {
            return Some(claimed_count(moves.len()));
        }
        if let Some(path) = &self.path {
            return Some(claimed_count(path_steps(start, path).len()));
        }
        self.length
    }
}

/// A claimed count of moves as a length; 2^32 moves or more (no distance comes near) saturate
/// at `u32::MAX`, so such a claim is judged too long rather than cut to a short one.
fn claimed_count(moves: usize) -> u32 {
    u32::try_from(moves).unwrap_or(u32::MAX)
}

/// The MTM length of a replayed claim of moves or a path (each step one cell, as replay
/// checked): its runs of equal moves.
fn claimed_mtm_length(start: &State, claim: &Claim) -> u32 {
    if let Some(moves) = &claim.moves {
        return claimed_count(Metric::Mtm.length(moves));
    }
    let Some(path) = &claim.path else {
        return claim.length.unwrap_or_default();
    };
    let mut before = *start;
    let mut moves = Vec::with_capacity(path.len());
    for state in path_steps(start, path) {
        if let Some((mv, _)) = before.successors().find(|(_, next)| next == state) {
            moves.push(mv);
        }
        before = *state;
    }
    claimed_count(Metric::Mtm.length(&moves))
}

/// The states after each move of a path: the path without its first state when that is the start.
fn path_steps<'p>(start: &State, path: &'p [State]) -> &'p [State] {
    match path.first() {
        Some(first) if first == start => &path[1..],
        _ => path,
    }
}

/// Which verdicts pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Policy {
    /// Only optimal answers and correct `unsolvable` claims pass.
    #[default]
    OptimalOnly,
    /// Suboptimal answers pass too (legal and at the goal).
    AllowSuboptimal,
}

/// The kind of a [`Verdict`], without its details: for counting and for names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum VerdictKind {
    /// See [`Verdict::Optimal`].
    Optimal,
    /// See [`Verdict::CorrectUnsolvable`].
    CorrectUnsolvable,
    /// See [`Verdict::Suboptimal`].
    Suboptimal,
    /// See [`Verdict::WrongLength`].
    WrongLength,
    /// See [`Verdict::WrongEnd`].
    WrongEnd,
    /// See [`Verdict::IllegalMove`].
    IllegalMove,
    /// See [`Verdict::FalseUnsolvable`].
    FalseUnsolvable,
    /// See [`Verdict::FalseSolution`].
    FalseSolution,
    /// See [`Verdict::Malformed`].
    Malformed,
    /// See [`Verdict::Unverified`].
    Unverified,
    /// See [`Verdict::WithinGuarantee`].
    WithinGuarantee,
    /// See [`Verdict::BrokenGuarantee`].
    BrokenGuarantee,
}

impl VerdictKind {
    /// Every kind, in the order summaries list them (the two guarantee verdicts, added
    /// later, last).
    pub const ALL: [VerdictKind; 12] = [
        VerdictKind::Optimal,
        VerdictKind::CorrectUnsolvable,
        VerdictKind::Suboptimal,
        VerdictKind::WrongLength,
        VerdictKind::WrongEnd,
        VerdictKind::IllegalMove,
        VerdictKind::FalseUnsolvable,
        VerdictKind::FalseSolution,
        VerdictKind::Malformed,
        VerdictKind::Unverified,
        VerdictKind::WithinGuarantee,
        VerdictKind::BrokenGuarantee,
    ];

    /// The stable name printed and written to JSON, for example `illegal-move`.
    pub fn name(self) -> &'static str {
        match self {
            VerdictKind::Optimal => "optimal",
            VerdictKind::CorrectUnsolvable => "correct-unsolvable",
            VerdictKind::Suboptimal => "suboptimal",
            VerdictKind::WrongLength => "wrong-length",
            VerdictKind::WrongEnd => "wrong-end",
            VerdictKind::IllegalMove => "illegal-move",
            VerdictKind::FalseUnsolvable => "false-unsolvable",
            VerdictKind::FalseSolution => "false-solution",
            VerdictKind::Malformed => "malformed",
            VerdictKind::Unverified => "unverified",
            VerdictKind::WithinGuarantee => "within-guarantee",
            VerdictKind::BrokenGuarantee => "broken-guarantee",
        }
    }

    /// The position of this kind in [`VerdictKind::ALL`], for counting in an array.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether answers of this kind pass under `policy`.
    pub fn passes(self, policy: Policy) -> bool {
        match self {
            VerdictKind::Optimal
            | VerdictKind::CorrectUnsolvable
            | VerdictKind::WithinGuarantee => true,
            VerdictKind::Suboptimal => policy == Policy::AllowSuboptimal,
            _ => false,
        }
    }
}

impl fmt::Display for VerdictKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The judgement of one answer. The details are facts (steps, moves, cells, states); the text
/// is only in [`Display`](fmt::Display) and [`Verdict::detail`].
///
/// With the `serde` feature it is written as an object whose `verdict` field is the stable name
/// ([`Verdict::name`]), next to the variant's fields.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "verdict", rename_all = "kebab-case")
)]
#[non_exhaustive]
pub enum Verdict {
    /// Legal, reaches the goal, and as short as the exact distance (or a length-only claim
    /// equal to it).
    Optimal,
    /// Legal and reaches the goal, but `by` moves longer than the exact distance.
    Suboptimal {
        /// Moves more than needed.
        by: u32,
    },
    /// A move leaves the board, or two consecutive path states are not one move apart.
    IllegalMove {
        /// The 1-based step at fault.
        step: usize,
        /// What is wrong with it.
        fault: IllegalStep,
        /// Whether the same letters, read as the direction the *tile* moves (the opposite of
        /// the blank's), are legal and reach the goal: the solver wrote tile moves.
        tile_moves_reach_goal: bool,
    },
    /// Legal, but the last state is not the goal.
    WrongEnd {
        /// Where the moves end.
        end: State,
        /// Whether the same letters, read as the direction the *tile* moves, reach the goal.
        tile_moves_reach_goal: bool,
    },
    /// A length-only claim that differs from the exact distance.
    WrongLength {
        /// The length claimed.
        claimed: u32,
        /// The exact distance.
        exact: u8,
    },
    /// Claims there is no solution, but there is one.
    FalseUnsolvable {
        /// The exact distance.
        exact: u8,
    },
    /// Claims a solution (moves, path or length) for a pair that has none.
    FalseSolution,
    /// The answer cannot be read or judged.
    Malformed {
        /// Why.
        why: String,
    },
    /// Rightly claims there is no solution; it passes like [`Verdict::Optimal`].
    CorrectUnsolvable,
    /// The answer was read, but its exact distance could not be found (on a board without a
    /// table, the search for it reached its limit): neither right nor wrong, and not a pass.
    Unverified {
        /// Why.
        why: String,
    },
    /// Legal and reaches the goal, not shown optimal, but within the guarantee the solver
    /// stated with it (`within FACTOR` of the exact distance, or `none`: any legal solution):
    /// it passes, as the solver promised no more.
    WithinGuarantee {
        /// The guarantee stated.
        guarantee: Guarantee,
        /// Moves longer than the exact distance; `None` where it was not needed (`none`).
        by: Option<u32>,
    },
    /// Legal and reaches the goal (or a length-only claim), but longer than the factor its
    /// stated guarantee allows: the solver promised more than it gave.
    BrokenGuarantee {
        /// The guarantee stated.
        guarantee: Guarantee,
        /// The length, in the metric judged.
        length: u32,
        /// The exact distance.
        exact: u8,
    },
}

/// What makes a step of a claimed solution illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "kind", rename_all = "kebab-case")
)]
#[non_exhaustive]
pub enum IllegalStep {
    /// The move would take the blank off the board.
    OffBoard {
        /// The move.
        #[cfg_attr(feature = "serde", serde(rename = "move"))]
        mv: Move,
        /// The blank's cell (row-major, from 0) before the move.
        cell: usize,
        /// The state before the move.
        state: State,
    },
    /// A state of a claimed path is not one move from the state before it.
    NotAdjacent {
        /// The state before.
        from: State,
        /// The state the path lists next.
        to: State,
    },
}

impl fmt::Display for IllegalStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IllegalStep::OffBoard { mv, cell, state } => {
                let board = state.board();
                let (row, column) = (cell / board.width() + 1, cell % board.width() + 1);
                let edge = match mv {
                    Move::Up => "top row",
                    Move::Down => "bottom row",
                    Move::Left => "left column",
                    Move::Right => "right column",
                };
                write!(
                    f,
                    "{} moves the blank off the board: the blank is on the {edge} (row {row}, column {column}) of {state}",
                    mv.letter()
                )
            }
            IllegalStep::NotAdjacent { from, to } => write!(f, "{to} is not one move from {from}"),
        }
    }
}

/// The hint for moves that work only when read as the tile's direction.
const TILE_MOVES_HINT: &str = "read as the direction the tile moves, these moves solve it: npuzzle's letters name the direction the blank moves (swap U/D and L/R)";

impl Verdict {
    /// A malformed verdict with this reason.
    pub fn malformed(why: impl Into<String>) -> Verdict {
        Verdict::Malformed { why: why.into() }
    }

    /// The kind, without details.
    pub fn kind(&self) -> VerdictKind {
        match self {
            Verdict::Optimal => VerdictKind::Optimal,
            Verdict::Suboptimal { .. } => VerdictKind::Suboptimal,
            Verdict::IllegalMove { .. } => VerdictKind::IllegalMove,
            Verdict::WrongEnd { .. } => VerdictKind::WrongEnd,
            Verdict::WrongLength { .. } => VerdictKind::WrongLength,
            Verdict::FalseUnsolvable { .. } => VerdictKind::FalseUnsolvable,
            Verdict::FalseSolution => VerdictKind::FalseSolution,
            Verdict::Malformed { .. } => VerdictKind::Malformed,
            Verdict::CorrectUnsolvable => VerdictKind::CorrectUnsolvable,
            Verdict::Unverified { .. } => VerdictKind::Unverified,
            Verdict::WithinGuarantee { .. } => VerdictKind::WithinGuarantee,
            Verdict::BrokenGuarantee { .. } => VerdictKind::BrokenGuarantee,
        }
    }

    /// The stable name, for example `suboptimal`.
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }

    /// Whether the answer passes under `policy`.
    pub fn passes(&self, policy: Policy) -> bool {
        self.kind().passes(policy)
    }

    /// How bad the verdict is, for listing the worst answers first: larger is worse.
    /// Wrong claims about solvability and illegal moves come first, then wrong ends and
    /// lengths, then unreadable lines, then unverified ones, then suboptimal answers by how
    /// much they overshoot.
    pub fn severity(&self) -> (u8, u32) {
        match self {
            Verdict::Optimal | Verdict::CorrectUnsolvable | Verdict::WithinGuarantee { .. } => {
                (0, 0)
            }
            Verdict::Suboptimal { by } => (1, *by),
            Verdict::BrokenGuarantee { length, exact, .. } => {
                (3, length.saturating_sub(u32::from(*exact)))
            }
            Verdict::Unverified { .. } => (2, 0),
            Verdict::Malformed { .. } => (2, 1),
            Verdict::WrongLength { .. } => (3, 0),
            Verdict::WrongEnd { .. } => (4, 0),
            Verdict::IllegalMove { .. } => (5, 0),
            Verdict::FalseUnsolvable { .. } => (6, 0),
            Verdict::FalseSolution => (7, 0),
        }
    }

    /// One line saying what is wrong; `None` for passing verdicts, which need no explanation.
    pub fn detail(&self) -> Option<String> {
        match self {
            Verdict::Optimal | Verdict::CorrectUnsolvable | Verdict::WithinGuarantee { .. } => {
                None
            }
            Verdict::BrokenGuarantee {
                guarantee,
                length,
                exact,
            } => Some(format!(
                "{length} moves, but the exact distance is {exact} and the claimed guarantee ({guarantee}) allows no more than {}",
                allowed_length(*guarantee, *exact)
            )),
            Verdict::Suboptimal { by } => Some(format!(
                "{by} move{} longer than optimal",
                if *by == 1 { "" } else { "s" }
            )),
            Verdict::IllegalMove {
                step,
                fault,
                tile_moves_reach_goal,
            } => Some(format!(
                "step {step}: {fault}{}",
                hint(*tile_moves_reach_goal)
            )),
            Verdict::WrongEnd {
                end,
                tile_moves_reach_goal,
            } => Some(format!(
                "the moves end at {end}, not at the goal{}",
                hint(*tile_moves_reach_goal)
            )),
            Verdict::WrongLength { claimed, exact } => Some(format!(
                "claimed length {claimed}, but the exact distance is {exact}"
            )),
            Verdict::FalseUnsolvable { exact } => Some(format!(
                "claimed unsolvable, but an optimal solution has {exact} move{}",
                if *exact == 1 { "" } else { "s" }
            )),
            Verdict::FalseSolution => Some(
                "claimed a solution, but start and goal are in different parity classes: no solution exists"
                    .to_string(),
            ),
            Verdict::Malformed { why } | Verdict::Unverified { why } => Some(why.clone()),
        }
    }
}

/// `; ` and the tile-moves hint, when it applies.
fn hint(tile_moves_reach_goal: bool) -> String {
    if tile_moves_reach_goal {
        format!("; {TILE_MOVES_HINT}")
    } else {
        String::new()
    }
}

impl fmt::Display for Verdict {
    /// The name, then the detail when there is one: `suboptimal: 2 moves longer than optimal`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        if let Some(detail) = self.detail() {
            write!(f, ": {detail}")?;
        }
        Ok(())
    }
}

/// Judges `claim` for the pair `start` -> `goal`, whose exact distance is `exact` (`None`: the
/// pair is unsolvable). The rules are listed in the [module docs](self).
///
/// `start` and `goal` must be on one board; a claim's path states are compared as given.
/// Never panics. If `exact` is wrong and a legal solution shorter than it is claimed, that
/// impossible case is reported as [`Verdict::Malformed`] naming the contradiction.
///
/// ```
/// use npuzzle::verify::{judge, parse_moves, Claim, Verdict};
/// use npuzzle::State;
/// let start: State = "123456708".parse()?;
/// let goal: State = "123456780".parse()?;
/// let claim = Claim::moves(parse_moves("R")?);
/// assert_eq!(judge(&start, &goal, Some(1), &claim), Verdict::Optimal);
/// let claim = Claim::moves(parse_moves("RLR")?);
/// assert_eq!(judge(&start, &goal, Some(1), &claim), Verdict::Suboptimal { by: 2 });
/// assert_eq!(judge(&start, &goal, Some(1), &Claim::unsolvable()).name(), "false-unsolvable");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn judge(start: &State, goal: &State, exact: Option<u8>, claim: &Claim) -> Verdict {
    judge_in(Metric::Stm, start, goal, exact, claim)
}

/// [`judge`] with lengths counted in `metric`: `exact` is the distance in that metric, and
/// claimed moves (or a path's steps) count as [`Metric::length`] counts them.
///
/// ```
/// use npuzzle::verify::{judge_in, parse_moves, Claim, Verdict};
/// use npuzzle::{Metric, State};
/// let start: State = "123456078".parse()?;
/// let goal: State = "123456780".parse()?;
/// let claim = Claim::moves(parse_moves("RR")?);
/// assert_eq!(judge_in(Metric::Mtm, &start, &goal, Some(1), &claim), Verdict::Optimal);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn judge_in(
    metric: Metric,
    start: &State,
    goal: &State,
    exact: Option<u8>,
    claim: &Claim,
) -> Verdict {
    judge_held_to(Guarantee::Optimal, metric, start, goal, exact, claim)
}

/// [`judge_in`] for a claim that states its `guarantee` (the label `npuzzle solve` prints
/// with a solution): a legal solution longer than the exact distance is
/// [`Verdict::Suboptimal`] under `optimal`, [`Verdict::WithinGuarantee`] where the guarantee
/// allows its length (`within FACTOR`: at most FACTOR times the exact distance; `none`:
/// any), and [`Verdict::BrokenGuarantee`] where it does not. A length-only claim is judged
/// the same way (below the exact distance it is [`Verdict::WrongLength`]).
///
/// ```
/// use npuzzle::verify::{judge_held_to, Claim, Verdict};
/// use npuzzle::{Guarantee, Metric, State};
/// let start: State = "123456708".parse()?;
/// let goal = State::goal(start.board());
/// let within: Guarantee = "within 1.5".parse()?;
/// let judged = |length| judge_held_to(within, Metric::Stm, &start, &goal, Some(2), &Claim::length(length));
/// assert_eq!(judged(2), Verdict::Optimal);
/// assert_eq!(judged(3).name(), "within-guarantee");
/// assert_eq!(judged(4).name(), "broken-guarantee");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn judge_held_to(
    guarantee: Guarantee,
    metric: Metric,
    start: &State,
    goal: &State,
    exact: Option<u8>,
    claim: &Claim,
) -> Verdict {
    if let Some(problem) = contradiction(start, claim) {
        return Verdict::Malformed { why: problem };
    }
    let exact = match (exact, claim.says_unsolvable()) {
        (None, true) => return Verdict::CorrectUnsolvable,
        (None, false) => return Verdict::FalseSolution,
        (Some(exact), true) => return Verdict::FalseUnsolvable { exact },
        (Some(exact), false) => exact,
    };
    let end = match replay_claim(start, claim) {
        Ok(Some(end)) => end,
        Ok(None) => {
            // A length-only claim (`contradiction` ruled out having none).
            let claimed = claim.length.unwrap_or_default();
            return match claimed.checked_sub(u32::from(exact)) {
                Some(0) => Verdict::Optimal,
                Some(by) if guarantee != Guarantee::Optimal => {
                    held_to(guarantee, claimed, exact, by)
                }
                _ => Verdict::WrongLength { claimed, exact },
            };
        }
        Err(verdict) => return with_tile_hint(verdict, start, goal, claim),
    };
    if end != *goal {
        return with_tile_hint(
            Verdict::WrongEnd {
                end,
                tile_moves_reach_goal: false,
            },
            start,
            goal,
            claim,
        );
    }
    let length = match metric {
        Metric::Stm => claim.claimed_length(start).unwrap_or_default(),
        Metric::Mtm => claimed_mtm_length(start, claim),
    };
    match length.checked_sub(u32::from(exact)) {
        Some(0) => Verdict::Optimal,
        Some(by) if guarantee == Guarantee::Optimal => Verdict::Suboptimal { by },
        Some(by) => held_to(guarantee, length, exact, by),
        None => Verdict::malformed(format!(
            "a legal solution of {length} moves is shorter than the exact distance {exact} given for this pair: the exact distance is wrong"
        )),
    }
}

/// The verdict on a legal solution of `length` moves, `by` more than the exact distance,
/// that states `guarantee` (not optimal).
fn held_to(guarantee: Guarantee, length: u32, exact: u8, by: u32) -> Verdict {
    if guarantee.allows(length as usize, usize::from(exact)) {
        Verdict::WithinGuarantee {
            guarantee,
            by: Some(by),
        }
    } else {
        Verdict::BrokenGuarantee {
            guarantee,
            length,
            exact,
        }
    }
}

/// The longest length `guarantee` allows where the exact distance is `exact`.
fn allowed_length(guarantee: Guarantee, exact: u8) -> u64 {
    match guarantee {
        Guarantee::Within(factor) => u64::from(exact) * u64::from(factor.thousandths()) / 1000,
        Guarantee::Optimal => u64::from(exact),
        Guarantee::None => u64::MAX,
    }
}

/// The verdict on a claim that states the guarantee `none` (no length promised), where
/// legality alone decides it, with no exact distance: moves or a path that are legal and end
/// at the goal are [`Verdict::WithinGuarantee`]; an illegal move, a wrong end or a malformed
/// claim is its verdict as always. `None` for a length-only or `unsolvable` claim, which only
/// the exact distance (or the pair's solvability) decides.
///
/// ```
/// use npuzzle::verify::{judge_legality, parse_moves, Claim};
/// use npuzzle::State;
/// let start: State = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15".parse()?;
/// let goal = State::goal(start.board());
/// let judged = |moves: &str| judge_legality(&start, &goal, &Claim::moves(parse_moves(moves).unwrap()));
/// assert_eq!(judged("LRR").unwrap().name(), "within-guarantee");
/// assert_eq!(judged("D").unwrap().name(), "illegal-move");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn judge_legality(start: &State, goal: &State, claim: &Claim) -> Option<Verdict> {
    if claim.says_unsolvable() || (claim.moves.is_none() && claim.path.is_none()) {
        return contradiction(start, claim).map(|why| Verdict::Malformed { why });
    }
    Some(
        judge_without_distance(start, goal, claim).unwrap_or(Verdict::WithinGuarantee {
            guarantee: Guarantee::None,
            by: None,
        }),
    )
}

/// The verdict on `claim` for a solvable pair whose exact distance is not known, where the
/// verdict does not depend on it: a claim that cannot be read (`Malformed`), a move off the
/// board (`IllegalMove`), or moves that end elsewhere (`WrongEnd`). `None` when only the
/// distance could decide: a length, an `unsolvable` claim, or a legal solution.
///
/// ```
/// use npuzzle::verify::{judge_without_distance, parse_moves, Claim};
/// use npuzzle::State;
/// let start: State = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15".parse()?;
/// let goal = State::goal(start.board());
/// let judged = |moves: &str| judge_without_distance(&start, &goal, &Claim::moves(parse_moves(moves).unwrap()));
/// assert_eq!(judged("D").unwrap().name(), "illegal-move");
/// assert_eq!(judged("L").unwrap().name(), "wrong-end");
/// assert_eq!(judged("R"), None, "a legal solution: only the distance says if it is optimal");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn judge_without_distance(start: &State, goal: &State, claim: &Claim) -> Option<Verdict> {
    if let Some(problem) = contradiction(start, claim) {
        return Some(Verdict::Malformed { why: problem });
    }
    if claim.says_unsolvable() {
        return None;
    }
    match replay_claim(start, claim) {
        Ok(Some(end)) if end != *goal => Some(with_tile_hint(
            Verdict::WrongEnd {
                end,
                tile_moves_reach_goal: false,
            },
            start,
            goal,
            claim,
        )),
        Ok(_) => None,
        Err(verdict) => Some(with_tile_hint(verdict, start, goal, claim)),
    }
}

/// Sets `tile_moves_reach_goal` on an illegal-move or wrong-end verdict for claimed moves that,
/// each read as its opposite (the tile's direction), are legal and end at the goal.
fn with_tile_hint(mut verdict: Verdict, start: &State, goal: &State, claim: &Claim) -> Verdict {
    let Some(moves) = &claim.moves else {
        return verdict;
    };
    if let Verdict::IllegalMove {
        tile_moves_reach_goal,
        ..
    }
    | Verdict::WrongEnd {
        tile_moves_reach_goal,
        ..
    } = &mut verdict
    {
        let opposite: Vec<Move> = moves.iter().map(|mv| mv.inverse()).collect();
        *tile_moves_reach_goal = replay_fast(start, &opposite).is_ok_and(|end| end == *goal);
    }
    verdict
}

/// Replays a claim's moves or path: `Ok(Some(end))` where they lead, `Ok(None)` for a
/// length-only claim, `Err` for an illegal move or a path that disagrees with the moves.
fn replay_claim(start: &State, claim: &Claim) -> Result<Option<State>, Verdict> {
    match (&claim.moves, &claim.path) {
        (None, None) => Ok(None),
        (Some(moves), path) => replay_moves(start, moves, path.as_deref()).map(Some),
        (None, Some(path)) => replay_path(start, path).map(Some),
    }
}

/// Why the claim cannot be judged, if it cannot: nothing claimed, or parts that disagree.
fn contradiction(start: &State, claim: &Claim) -> Option<String> {
    let gives_solution = claim.moves.is_some() || claim.path.is_some() || claim.length.is_some();
    if claim.says_unsolvable() {
        if gives_solution {
            let parts: Vec<&str> = [
                claim.moves.as_ref().map(|_| "moves"),
                claim.path.as_ref().map(|_| "a path"),
                claim.length.map(|_| "a length"),
            ]
            .into_iter()
            .flatten()
            .collect();
            return Some(format!(
                "contradictory claim: `unsolvable` is true but the line also gives {}",
                parts.join(" and ")
            ));
        }
        return None;
    }
    if !gives_solution {
        return Some(if claim.unsolvable == Some(false) {
            "`unsolvable` is false but no moves, path or length is given".to_string()
        } else {
            "no claim: give moves, a path, a length, or unsolvable".to_string()
        });
    }
    let moves = claim.moves.as_ref().map(|m| claimed_count(m.len()));
    let steps = claim
        .path
        .as_ref()
        .map(|p| claimed_count(path_steps(start, p).len()));
    if let (Some(moves), Some(steps)) = (moves, steps) {
        if moves != steps {
            return Some(format!(
                "contradictory claim: {moves} moves but a path of {steps} steps"
            ));
        }
    }
    if let (Some(length), Some(counted)) = (claim.length, moves.or(steps)) {
        if length != counted {
            let what = if moves.is_some() {
                "moves"
            } else {
                "path steps"
            };
            return Some(format!(
                "contradictory claim: length {length} but {counted} {what} given"
            ));
        }
    }
    None
}

/// Replays `moves` from `start`; with a `path` too, checks that it lists the same states.
fn replay_moves(start: &State, moves: &[Move], path: Option<&[State]>) -> Result<State, Verdict> {
    let Some(path) = path else {
        return replay_fast(start, moves);
    };
    let listed = path_steps(start, path);
    let mut state = *start;
    for (i, &mv) in moves.iter().enumerate() {
        state = state.apply(mv).ok_or_else(|| illegal(i + 1, mv, &state))?;
        // `contradiction` made the path exactly as long as the moves.
        if listed.get(i) != Some(&state) {
            return Err(Verdict::malformed(format!(
                "contradictory claim: after move {} the moves reach {state}, but the path lists {}",
                i + 1,
                listed
                    .get(i)
                    .map_or("nothing".to_string(), |s| s.to_string())
            )));
        }
    }
    Ok(state)
}

/// Replays `moves` on a bare copy of the cells, tracking the blank's row and column, so a move
/// costs a comparison and a swap (no division): replaying is `verify`'s inner loop.
fn replay_fast(start: &State, moves: &[Move]) -> Result<State, Verdict> {
    let board = start.board();
    let (width, height) = (board.width(), board.height());
    let mut cells = [0u8; MAX_CELLS];
    cells[..board.cells()].copy_from_slice(start.cells());
    let mut blank = start.blank();
    let (mut row, mut column) = (blank / width, blank % width);
    for (i, &mv) in moves.iter().enumerate() {
        let target = match mv {
            Move::Up if row > 0 => {
                row -= 1;
                blank - width
            }
            Move::Down if row + 1 < height => {
                row += 1;
                blank + width
            }
            Move::Left if column > 0 => {
                column -= 1;
                blank - 1
            }
            Move::Right if column + 1 < width => {
                column += 1;
                blank + 1
            }
            _ => {
                let state = State::from_valid_cells(board, cells);
                return Err(illegal(i + 1, mv, &state));
            }
        };
        cells[blank] = cells[target];
        cells[target] = BLANK;
        blank = target;
    }
    Ok(State::from_valid_cells(board, cells))
}

/// Walks `path` from `start`, checking that each state is one move from the one before.
fn replay_path(start: &State, path: &[State]) -> Result<State, Verdict> {
    let mut state = *start;
    for (i, next) in path_steps(start, path).iter().enumerate() {
        let step = state.successors().find(|(_, s)| s == next);
        match step {
            Some((_, s)) => state = s,
            None => {
                return Err(Verdict::IllegalMove {
                    step: i + 1,
                    fault: IllegalStep::NotAdjacent {
                        from: state,
                        to: *next,
                    },
                    tile_moves_reach_goal: false,
                })
            }
        }
    }
    Ok(state)
}

/// The verdict for `mv` at 1-based `step` in `state`: the blank would leave the board.
fn illegal(step: usize, mv: Move, state: &State) -> Verdict {
    Verdict::IllegalMove {
        step,
        fault: IllegalStep::OffBoard {
            mv,
            cell: state.blank(),
            state: *state,
        },
        tile_moves_reach_goal: false,
    }
}

/// Why a claim's text could not be read. Columns are 1-based character positions.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseClaimError {
    /// A character in a move string that is neither a move nor a separator.
    #[error("unexpected `{found}` at column {column} of the moves: moves are U, D, L, R (or up, down, left, right)")]
    BadMove {
        /// The character, or the word, found.
        found: String,
        /// Its 1-based column.
        column: usize,
    },
    /// A state of a path that could not be read.
    #[error("state {index} of the path (`{text}`): {error}{}", if *.spaced { "" } else { " (separate states with `;` or `|` when they contain spaces)" })]
    BadPathState {
        /// The 1-based position of the state in the path.
        index: usize,
        /// The text of that state.
        text: String,
        /// Why it could not be read (its text is in this error's own message, so it is not
        /// also returned by `source()`).
        error: ParseStateError,
        /// Whether states were separated by `;` or `|` (so the hint would not help).
        spaced: bool,
    },
    /// A length that is not a non-negative integer.
    #[error("length `{0}` is not a non-negative integer")]
    BadLength(String),
    /// A flag that is not one of the accepted spellings.
    #[error("`{0}` is not true or false (accepted: true/false, yes/no, 1/0, unsolvable/solvable)")]
    BadFlag(String),
}

fn is_move_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | ';' | '|' | '-' | '[' | ']' | '\'' | '"')
}

/// Reads a move string; see the [module docs](self) for the forms. Empty text is zero moves
/// (whether an empty field is a claim at all is the caller's decision).
///
/// # Errors
/// [`ParseClaimError::BadMove`] naming the first character (or word) that is not a move.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, ParseClaimError> {
    // Fast path: only upper-case move letters, the common case for solvers' output.
    if text.bytes().all(|b| matches!(b, b'U' | b'D' | b'L' | b'R')) {
        return Ok(text
            .bytes()
            .map(|b| match b {
                b'U' => Move::Up,
                b'D' => Move::Down,
                b'L' => Move::Left,
                _ => Move::Right,
            })
            .collect());
    }
    let mut moves = Vec::with_capacity(text.len());
    let mut column = 0;
    for token in text.split(is_move_separator) {
        let token_column = column + 1;
        column += token.chars().count() + 1;
        if token.is_empty() {
            continue;
        }
        let word = match token.to_ascii_lowercase().as_str() {
            "up" => Some(Move::Up),
            "down" => Some(Move::Down),
            "left" => Some(Move::Left),
            "right" => Some(Move::Right),
            _ => None,
        };
        if let Some(mv) = word {
            moves.push(mv);
            continue;
        }
        for (offset, c) in token.chars().enumerate() {
            match Move::from_letter(c) {
                Some(mv) => moves.push(mv),
                None => {
                    return Err(ParseClaimError::BadMove {
                        found: c.to_string(),
                        column: token_column + offset,
                    })
                }
            }
        }
    }
    Ok(moves)
}

/// Reads a path of states on `board`; see the [module docs](self) for the forms. Empty text
/// is an empty path.
///
/// # Errors
/// [`ParseClaimError::BadPathState`] naming the first state that could not be read.
pub fn parse_path(text: &str, board: Board) -> Result<Vec<State>, ParseClaimError> {
    let spaced = text.contains([';', '|']);
    let pieces: Box<dyn Iterator<Item = &str>> = if spaced {
        Box::new(
            text.split([';', '|'])
                .map(str::trim)
                .filter(|p| !p.is_empty()),
        )
    } else {
        Box::new(text.split_whitespace())
    };
    pieces
        .enumerate()
        .map(|(i, piece)| {
            State::parse(piece, Some(board)).map_err(|error| ParseClaimError::BadPathState {
                index: i + 1,
                text: piece.to_string(),
                error,
                spaced,
            })
        })
        .collect()
}

/// Reads a claimed length: a non-negative integer, surrounding whitespace allowed.
///
/// # Errors
/// [`ParseClaimError::BadLength`] for anything else.
pub fn parse_length(text: &str) -> Result<u32, ParseClaimError> {
    let trimmed = text.trim();
    if !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(length) = trimmed.parse() {
            return Ok(length);
        }
    }
    Err(ParseClaimError::BadLength(text.to_string()))
}

/// Reads an `unsolvable` flag: `true`/`false`, `yes`/`no`, `1`/`0`, `unsolvable`/`solvable`,
/// in any case.
///
/// # Errors
/// [`ParseClaimError::BadFlag`] for anything else.
pub fn parse_flag(text: &str) -> Result<bool, ParseClaimError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" | "unsolvable" => Ok(true),
        "false" | "no" | "0" | "solvable" => Ok(false),
        _ => Err(ParseClaimError::BadFlag(text.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(text: &str) -> State {
        text.parse().unwrap()
    }

    #[test]
    fn every_move_spelling_reads_the_same_moves() {
        let expected = vec![Move::Left, Move::Up, Move::Right, Move::Down];
        for text in [
            "LURD",
            "lurd",
            "L U R D",
            "l,u,r,d",
            "L-U-R-D",
            "['L', 'U', 'R', 'D']",
            "left up right down",
            "Left,Up;Right|DOWN",
        ] {
            assert_eq!(parse_moves(text), Ok(expected.clone()), "{text}");
        }
        assert_eq!(parse_moves("-"), Ok(vec![]));
        assert_eq!(parse_moves(""), Ok(vec![]));
    }

    #[test]
    fn a_stray_character_in_moves_is_named_with_its_column() {
        assert_eq!(
            parse_moves("LU X"),
            Err(ParseClaimError::BadMove {
                found: "X".into(),
                column: 4
            })
        );
        assert_eq!(
            parse_moves("LUx"),
            Err(ParseClaimError::BadMove {
                found: "x".into(),
                column: 3
            })
        );
    }

    #[test]
    fn paths_read_with_every_separator() {
        let board = Board::THREE_BY_THREE;
        let expected = vec![state("123456708"), state("123456780")];
        for text in [
            "123456708 123456780",
            "123456708;123456780",
            "1 2 3 4 5 6 7 0 8 | 1 2 3 4 5 6 7 8 0",
            "123/456/708; 123/456/780;",
        ] {
            assert_eq!(parse_path(text, board), Ok(expected.clone()), "{text}");
        }
        let error = parse_path("1 2 3 4 5 6 7 0 8", board).unwrap_err();
        assert!(
            error.to_string().contains("separate states with `;`"),
            "{error}"
        );
    }

    #[test]
    fn lengths_and_flags_read_their_documented_spellings() {
        assert_eq!(parse_length(" 12 "), Ok(12));
        for bad in ["-1", "1.5", "", "x", "99999999999"] {
            assert!(parse_length(bad).is_err(), "{bad}");
        }
        for yes in ["true", "YES", "1", "Unsolvable"] {
            assert_eq!(parse_flag(yes), Ok(true));
        }
        for no in ["false", "no", "0", "solvable"] {
            assert_eq!(parse_flag(no), Ok(false));
        }
        assert!(parse_flag("maybe").is_err());
    }

    #[test]
    fn contradictions_are_malformed() {
        let start = state("123456708");
        let goal = state("123456780");
        let both = Claim {
            moves: Some(vec![Move::Right]),
            unsolvable: Some(true),
            ..Claim::default()
        };
        assert_eq!(
            judge(&start, &goal, Some(1), &both).kind(),
            VerdictKind::Malformed
        );
        let disagree = Claim {
            moves: Some(vec![Move::Right]),
            length: Some(3),
            ..Claim::default()
        };
        assert_eq!(
            judge(&start, &goal, Some(1), &disagree).kind(),
            VerdictKind::Malformed
        );
        let agree = Claim {
            moves: Some(vec![Move::Right]),
            length: Some(1),
            path: Some(vec![start, goal]),
            unsolvable: Some(false),
        };
        assert_eq!(judge(&start, &goal, Some(1), &agree), Verdict::Optimal);
        assert_eq!(
            judge(&start, &goal, Some(1), &Claim::default()).kind(),
            VerdictKind::Malformed
        );
    }

    #[test]
    fn a_path_may_list_the_start_or_leave_it_out() {
        let start = state("123456078");
        let goal = state("123456780");
        let with = Claim::path(vec![start, state("123456708"), goal]);
        let without = Claim::path(vec![state("123456708"), goal]);
        assert_eq!(judge(&start, &goal, Some(2), &with), Verdict::Optimal);
        assert_eq!(judge(&start, &goal, Some(2), &without), Verdict::Optimal);
        let jump = Claim::path(vec![start, goal]);
        assert!(matches!(
            judge(&start, &goal, Some(2), &jump),
            Verdict::IllegalMove { step: 1, .. }
        ));
    }
}
