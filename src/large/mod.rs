//! Boards of any size up to [`MAX_SIDE`] x [`MAX_SIDE`] (non-square too), beyond the 25 cells
//! of [`crate::State`].
//!
//! [`crate::State`] is `Copy` with a fixed 25-byte array, which the exact tables and the
//! optimal searches depend on for speed; a 32x32 board does not fit it, and no optimal answer
//! is in reach there anyway. This module keeps large boards apart: [`LargeBoard`] and
//! [`LargeState`] (tiles as `u16` on the heap) with the same spellings, solvability rule and
//! moves as the small types, seeded scramblers ([`scramble_uniform`], [`scramble_walk`]) and
//! the constructive solver ([`solve_constructive`]: rows and columns in turn, a solution with
//! no length guarantee, in milliseconds on any size). Small states convert both ways
//! ([`LargeState::from_small`], [`LargeState::to_small`]), so the scramblers and the
//! constructive solver serve 2x2..5x5 too.
//!
//! ```
//! use npuzzle::large::{scramble_uniform, solve_constructive, LargeBoard, LargeState};
//! use npuzzle::rng::SplitMix64;
//!
//! let board = LargeBoard::new(10, 10)?;
//! let goal = LargeState::goal(board);
//! let start = scramble_uniform(&goal, &mut SplitMix64::new(7));
//! let moves = solve_constructive(&start, &goal)?;
//! assert_eq!(start.after(&moves), Ok(goal));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod board;
mod scramble;
mod solve;
mod state;

pub use board::{LargeBoard, LargeBoardError, MAX_SIDE};
pub use scramble::{scramble_uniform, scramble_walk, scrambles, Scrambler};
pub use solve::{constructive_guarantee, solve_constructive, NoLengthGuarantee, UnreachableGoal};
pub use state::{LargeState, ParseLargeError, MAX_LARGE_TEXT};
