//! Judging a claim on a board beyond 5x5 ([`crate::large`]), where no exact distance can be
//! known: the claimed moves are replayed and checked (legal, ending at the goal), solvability
//! claims are decided by the parity class, and the guarantee the claim carries
//! ([`Guarantee`]: `optimal`, `within F`, `none`) is held to what can be shown without the
//! exact distance: `none` passes once the moves are right; `optimal` and `within F` cannot be
//! checked, so such a claim is [`VerdictKind::Unverified`], never passed on trust.
//!
//! The verdicts carry the same stable names as [`super::Verdict`]'s ([`LargeVerdict::kind`]),
//! so the command line, the server and Python report both alike.

use std::fmt;

use super::VerdictKind;
use crate::board::Move;
use crate::guarantee::Guarantee;
use crate::large::LargeState;

/// The judgement of a claim about a pair on a board of [`crate::large`].
///
/// ```
/// use npuzzle::large::{solve_constructive, LargeBoard, LargeState};
/// use npuzzle::verify::large::{judge_large, LargeVerdict};
/// use npuzzle::Guarantee;
///
/// let board = LargeBoard::new(6, 6)?;
/// let goal = LargeState::goal(board);
/// let mut start = goal.clone();
/// start.step(npuzzle::Move::Up);
/// start.step(npuzzle::Move::Left);
/// let moves = solve_constructive(&start, &goal)?;
/// // A constructive solution, labelled `none`, passes; labelled `optimal` it is unverified.
/// let none = judge_large(&start, &goal, Some(&moves[..]), None, Guarantee::None);
/// assert_eq!(none, LargeVerdict::WithinGuarantee);
/// let optimal = judge_large(&start, &goal, Some(&moves[..]), None, Guarantee::Optimal);
/// assert_eq!(optimal.kind().name(), "unverified");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LargeVerdict {
    /// Legal, reaches the goal, and claims no length guarantee (`none`): it passes, as the
    /// solver promised no more ([`VerdictKind::WithinGuarantee`]).
    WithinGuarantee,
    /// Legal and reaches the goal, but claims an optimal or bounded length, which needs the
    /// exact distance: out of reach beyond 5x5, so neither right nor wrong, and not a pass.
    Unverified {
        /// The guarantee claimed.
        guarantee: Guarantee,
        /// The claimed solution's length, in single-cell moves.
        length: usize,
    },
    /// A move takes the blank off the board.
    IllegalMove {
        /// The 1-based step at fault.
        step: usize,
        /// Its move.
        mv: Move,
        /// The blank's cell (row-major, from 0) before it.
        cell: usize,
        /// Whether the same letters, read as the direction the *tile* moves, are legal and
        /// reach the goal.
        tile_moves_reach_goal: bool,
    },
    /// Legal, but the last state is not the goal.
    WrongEnd {
        /// Where the moves end.
        end: LargeState,
        /// Whether the same letters, read as the direction the *tile* moves, reach the goal.
        tile_moves_reach_goal: bool,
    },
    /// Rightly claims there is no solution (start and goal in different parity classes).
    CorrectUnsolvable,
    /// Claims there is no solution, but the pair is in one parity class, which every board
    /// of [`crate::large`] connects.
    FalseUnsolvable,
    /// Claims moves for a pair that has no solution.
    FalseSolution,
    /// The claim cannot be judged: both moves and "unsolvable", neither, or boards that differ.
    Malformed {
        /// Why.
        why: String,
    },
}

impl LargeVerdict {
    /// The kind, with the stable name `verify` prints ([`VerdictKind::name`]).
    pub fn kind(&self) -> VerdictKind {
        match self {
            LargeVerdict::WithinGuarantee => VerdictKind::WithinGuarantee,
            LargeVerdict::Unverified { .. } => VerdictKind::Unverified,
            LargeVerdict::IllegalMove { .. } => VerdictKind::IllegalMove,
            LargeVerdict::WrongEnd { .. } => VerdictKind::WrongEnd,
            LargeVerdict::CorrectUnsolvable => VerdictKind::CorrectUnsolvable,
            LargeVerdict::FalseUnsolvable => VerdictKind::FalseUnsolvable,
            LargeVerdict::FalseSolution => VerdictKind::FalseSolution,
            LargeVerdict::Malformed { .. } => VerdictKind::Malformed,
        }
    }

    /// Whether the answer passes: the right moves with guarantee `none`, or a right
    /// "unsolvable".
    pub fn passes(&self) -> bool {
        self.kind().passes(super::Policy::default())
    }

    /// What is wrong, or why it was not judged, in one line; `None` for a pass.
    pub fn detail(&self) -> Option<String> {
        let hint = |tile_moves: bool| {
            if tile_moves {
                format!("; {}", super::TILE_MOVES_HINT)
            } else {
                String::new()
            }
        };
        match self {
            LargeVerdict::WithinGuarantee | LargeVerdict::CorrectUnsolvable => None,
            LargeVerdict::Unverified { guarantee, length } => Some(format!(
                "legal and reaches the goal in {length} moves, but the claimed guarantee ({guarantee}) needs the exact distance, which is out of reach beyond 5x5 (claim `none` for a solution with no length guarantee)"
            )),
            LargeVerdict::IllegalMove {
                step,
                mv,
                cell,
                tile_moves_reach_goal,
            } => Some(format!(
                "step {step}: {} moves the blank off the board from cell {cell}{}",
                mv.letter(),
                hint(*tile_moves_reach_goal)
            )),
            LargeVerdict::WrongEnd {
                end,
                tile_moves_reach_goal,
            } => Some(format!(
                "the moves end at {end}, not at the goal{}",
                hint(*tile_moves_reach_goal)
            )),
            LargeVerdict::FalseUnsolvable => Some(
                "claims no solution, but start and goal are in the same parity class, so one exists"
                    .to_string(),
            ),
            LargeVerdict::FalseSolution => Some(
                "claims a solution, but start and goal are in different parity classes".to_string(),
            ),
            LargeVerdict::Malformed { why } => Some(why.clone()),
        }
    }
}

impl fmt::Display for LargeVerdict {
    /// The name, then the detail when there is one, as [`super::Verdict`] writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.detail() {
            Some(detail) => write!(f, "{}: {detail}", self.kind().name()),
            None => f.write_str(self.kind().name()),
        }
    }
}

/// Judges a claim about `start` and `goal` on any board of [`crate::large`]: `moves` (the
/// blank's), or `unsolvable: Some(true)`, carrying `guarantee` (what the solver said of the
/// length: `none` for the constructive solver's). See the module documentation for the rules.
pub fn judge_large(
    start: &LargeState,
    goal: &LargeState,
    moves: Option<&[Move]>,
    unsolvable: Option<bool>,
    guarantee: Guarantee,
) -> LargeVerdict {
    if start.board() != goal.board() {
        return LargeVerdict::Malformed {
            why: format!(
                "the start is on a {} board and the goal on a {} board",
                start.board(),
                goal.board()
            ),
        };
    }
    let says_unsolvable = unsolvable == Some(true);
    let moves = match (moves, says_unsolvable) {
        (Some(_), true) => {
            return LargeVerdict::Malformed {
                why: "claims both moves and that there is no solution".to_string(),
            }
        }
        (None, false) => {
            return LargeVerdict::Malformed {
                why: "no claim: neither moves nor that there is no solution".to_string(),
            }
        }
        (None, true) => {
            return if start.can_reach(goal) {
                LargeVerdict::FalseUnsolvable
            } else {
                LargeVerdict::CorrectUnsolvable
            };
        }
        (Some(moves), false) => moves,
    };
    if !start.can_reach(goal) {
        return LargeVerdict::FalseSolution;
    }
    let tile_moves_reach_goal = || {
        let opposite: Vec<Move> = moves.iter().map(|mv| mv.inverse()).collect();
        start.after(&opposite).is_ok_and(|end| end == *goal)
    };
    match start.after(moves) {
        Err(at) => LargeVerdict::IllegalMove {
            step: at + 1,
            mv: moves[at],
            cell: start
                .after(&moves[..at])
                .expect("the moves before the first illegal one are legal")
                .blank(),
            tile_moves_reach_goal: tile_moves_reach_goal(),
        },
        Ok(end) if end != *goal => LargeVerdict::WrongEnd {
            end,
            tile_moves_reach_goal: tile_moves_reach_goal(),
        },
        Ok(_) => match guarantee {
            Guarantee::None => LargeVerdict::WithinGuarantee,
            Guarantee::Optimal | Guarantee::Within(_) => LargeVerdict::Unverified {
                guarantee,
                length: moves.len(),
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::large::{scrambles, solve_constructive, LargeBoard, Scrambler};

    #[test]
    fn constructive_solutions_pass_with_none_and_are_unverified_otherwise_on_several_sizes() {
        for (w, h) in [(6, 6), (7, 5), (10, 10), (3, 9)] {
            let board = LargeBoard::new(w, h).unwrap();
            let goal = LargeState::goal(board);
            for start in scrambles(&goal, Scrambler::Uniform, 7).take(3) {
                let moves = solve_constructive(&start, &goal).unwrap();
                let judge = |g| judge_large(&start, &goal, Some(&moves[..]), None, g);
                assert_eq!(judge(Guarantee::None), LargeVerdict::WithinGuarantee);
                assert!(judge(Guarantee::None).passes());
                for g in [
                    Guarantee::Optimal,
                    Guarantee::Within("1.2".parse().unwrap()),
                ] {
                    let verdict = judge(g);
                    assert_eq!(verdict.kind(), VerdictKind::Unverified, "{w}x{h} {g}");
                    assert!(!verdict.passes());
                }
                // One move dropped: legal (or not), never a pass.
                let short = &moves[..moves.len() - 1];
                let verdict = judge_large(&start, &goal, Some(short), None, Guarantee::None);
                assert!(!verdict.passes(), "{verdict}");
                // Tile moves (each letter reversed) are named as such.
                let flipped: Vec<Move> = moves.iter().map(|m| m.inverse()).collect();
                match judge_large(&start, &goal, Some(&flipped[..]), None, Guarantee::None) {
                    LargeVerdict::IllegalMove {
                        tile_moves_reach_goal,
                        ..
                    }
                    | LargeVerdict::WrongEnd {
                        tile_moves_reach_goal,
                        ..
                    } => assert!(tile_moves_reach_goal),
                    other => panic!("{other}"),
                }
            }
        }
    }

    #[test]
    fn illegal_moves_unsolvable_claims_and_malformed_claims_are_named() {
        const NO_MOVES: &[Move] = &[];
        let board = LargeBoard::new(6, 6).unwrap();
        let goal = LargeState::goal(board);
        // From the goal (blank bottom right), R leaves the board at once.
        let moves = [Move::Up, Move::Down, Move::Right];
        let verdict = judge_large(&goal, &goal, Some(&moves[..]), None, Guarantee::None);
        assert_eq!(
            verdict,
            LargeVerdict::IllegalMove {
                step: 3,
                mv: Move::Right,
                cell: 35,
                tile_moves_reach_goal: false
            }
        );
        let mut swapped = goal.tiles().to_vec();
        swapped.swap(0, 1);
        let unsolvable = LargeState::from_tiles(board, &swapped).unwrap();
        let judge = |start: &LargeState, moves: Option<&[Move]>, says: Option<bool>| {
            judge_large(start, &goal, moves, says, Guarantee::None)
        };
        assert_eq!(
            judge(&unsolvable, None, Some(true)),
            LargeVerdict::CorrectUnsolvable
        );
        assert_eq!(
            judge(&goal, None, Some(true)),
            LargeVerdict::FalseUnsolvable
        );
        assert_eq!(
            judge(&unsolvable, Some(NO_MOVES), None),
            LargeVerdict::FalseSolution
        );
        assert_eq!(judge(&goal, None, None).kind(), VerdictKind::Malformed);
        assert_eq!(
            judge(&goal, Some(NO_MOVES), Some(true)).kind(),
            VerdictKind::Malformed
        );
        assert_eq!(
            judge(&goal, Some(NO_MOVES), None),
            LargeVerdict::WithinGuarantee
        );
        let other = LargeState::goal(LargeBoard::new(7, 7).unwrap());
        assert_eq!(
            judge_large(&other, &goal, Some(NO_MOVES), None, Guarantee::None).kind(),
            VerdictKind::Malformed
        );
    }
}
