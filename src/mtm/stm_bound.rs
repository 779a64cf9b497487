//! An MTM lower bound from any admissible STM estimate (the STM pattern databases included),
//! with its proof, and the maximum of two MTM estimates.
//!
//! An STM estimate is not an MTM one (one slide moves up to `W - 1` tiles), but it bounds the
//! tile moves of every MTM path. Take an optimal MTM path from `s` of `m` slides, `a` of them
//! horizontal and `b` vertical, and count the tiles' unit steps along it: `X` horizontal ones
//! and `Y` vertical ones.
//!
//! 1. Spelled out one cell at a time the path is an STM path of `X + Y` moves, so
//!    `X + Y >= d_stm(s) >= h` for any admissible STM estimate `h`; and `X + Y` has the
//!    parity of `d_stm(s)` (every STM path between two states has the same parity), so
//!    `X + Y >= h'`, `h` raised to that parity where the parity is known (not used here).
//! 2. Each horizontal unit step changes the sum of the tiles' column distances to their goal
//!    columns (`Mx`) by exactly one, so `X >= Mx` and `X = Mx (mod 2)`; likewise
//!    `Y >= My`, `Y = My (mod 2)` with row distances.
//! 3. A horizontal slide moves at most `W - 1` tiles one cell each, a vertical one at most
//!    `H - 1`: `X <= (W - 1) a`, `Y <= (H - 1) b`.
//! 4. Two slides along the same axis are never next to each other in an optimal path (they
//!    are one slide, or none), so the path alternates axes: `|a - b| <= 1`.
//!
//! So `m` is at least the least `a + b` with `|a - b| <= 1` for which some `X`, `Y` meet 2 and
//! 3 with `X + Y >= h`: [`mtm_floor`]. Without 2 and 4 this is `ceil(h / (W - 1))` on a
//! square board (`ceil(h / 3)` on 4x4); 2 and 4 add where the tiles are far from home along
//! one axis only (the slides of the other axis, which must alternate with them, move
//! nothing needed). Nothing here needs the STM estimate to be additive, consistent or read
//! in any particular way: the dual and reflected lookups of
//! [`PatternHeuristic`](crate::heuristic::PatternHeuristic) qualify like any other.
//!
//! BENCHMARKS.md ("STM databases with a proven MTM bound") measures the bound from the
//! 4x4 6-6-3 databases against the colouring database on Korf's 100: much weaker.
//!
//! ```
//! use std::sync::Arc;
//! use npuzzle::heuristic::PatternHeuristic;
//! use npuzzle::mtm::search::Estimate;
//! use npuzzle::mtm::stm_bound::{mtm_floor, StmBound};
//! use npuzzle::pattern::PatternDatabase;
//! use npuzzle::{Board, State};
//! // 30 STM moves of estimate on 4x4, balanced: at least ceil(30 / 3) = 10 slides.
//! assert_eq!(mtm_floor(30, 11, 11, 4, 4), 10);
//! // With even column and row distances, five slides of an axis make at most 14 steps.
//! assert_eq!(mtm_floor(30, 10, 10, 4, 4), 11);
//! // All of it across columns: the 10 horizontal slides alternate with 9 vertical ones.
//! assert_eq!(mtm_floor(30, 30, 0, 4, 4), 19);
//!
//! let goal = State::goal(Board::THREE_BY_THREE);
//! let none = &|_| std::ops::ControlFlow::Continue(());
//! let mut dbs = Vec::new();
//! for tiles in [&[1u8, 2, 3, 4][..], &[5, 6, 7, 8]] {
//!     dbs.push(Arc::new(PatternDatabase::build(&goal, tiles, none)?.map_into()));
//! }
//! let h = StmBound::new(PatternHeuristic::new(&goal, dbs, false)?);
//! // One slide of two tiles away from the goal.
//! let start: State = "123456078".parse()?;
//! assert_eq!(h.estimate(&start), 1);
//! assert_eq!(h.estimate(&goal), 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::board::MAX_CELLS;
use crate::heuristic::Heuristic;
use crate::state::State;

use super::search::Estimate;

/// The least number of MTM slides compatible with an STM bound of `stm` tile moves and the
/// tiles' column and row distances `across` (`Mx`) and `down` (`My`) on a `width` x `height`
/// board (module documentation, steps 2 to 4). Boards of one row or column have slides
/// along one axis only: the bound is then one slide a line of tiles, at most.
pub fn mtm_floor(stm: u32, across: u32, down: u32, width: usize, height: usize) -> u32 {
    let per_across = u32::try_from(width.saturating_sub(1)).unwrap_or(u32::MAX);
    let per_down = u32::try_from(height.saturating_sub(1)).unwrap_or(u32::MAX);
    // The most unit steps of one axis `slides` slides can make with the parity of `needed`
    // (None: fewer than `needed`).
    let most = |slides: u32, per: u32, needed: u32| -> Option<u32> {
        let cap = slides.saturating_mul(per);
        if cap < needed {
            return None;
        }
        Some(if (cap - needed).is_multiple_of(2) {
            cap
        } else {
            cap - 1
        })
    };
    let fits = |a: u32, b: u32| match (most(a, per_across, across), most(b, per_down, down)) {
        (Some(x), Some(y)) => x.saturating_add(y) >= stm,
        _ => false,
    };
    if stm == 0 && across == 0 && down == 0 {
        return 0;
    }
    if per_across == 0 || per_down == 0 {
        // One line: slides along one axis only, and one slide is already the whole way.
        return 1;
    }
    let mut m = 1u32;
    loop {
        let (low, high) = (m / 2, m - m / 2);
        if fits(low, high) || fits(high, low) {
            return m;
        }
        m += 1;
    }
}

/// An admissible MTM estimate from an admissible STM estimate: [`mtm_floor`] of its value and
/// the state's column and row distances (proof in the module documentation).
#[derive(Debug)]
pub struct StmBound<H> {
    stm: H,
    goal: State,
    /// `column[tile]`, `row[tile]`: the tile's goal cell's column and row.
    column: [u8; MAX_CELLS],
    row: [u8; MAX_CELLS],
}

impl<H: Heuristic> StmBound<H> {
    /// The bound read from `stm`, towards its goal.
    pub fn new(stm: H) -> StmBound<H> {
        let goal = *stm.goal();
        let w = goal.board().width();
        let (mut column, mut row) = ([0u8; MAX_CELLS], [0u8; MAX_CELLS]);
        for (cell, &tile) in goal.cells().iter().enumerate() {
            column[usize::from(tile)] = u8::try_from(cell % w).expect("below 25");
            row[usize::from(tile)] = u8::try_from(cell / w).expect("below 25");
        }
        StmBound {
            stm,
            goal,
            column,
            row,
        }
    }

    /// The STM estimate read.
    pub fn stm(&self) -> &H {
        &self.stm
    }

    /// The tiles' column and row distances to their goal cells (the blank not counted).
    pub fn distances(&self, state: &State) -> (u32, u32) {
        let w = self.goal.board().width();
        let (mut across, mut down) = (0u32, 0u32);
        for (cell, &tile) in state.cells().iter().enumerate() {
            if tile == 0 {
                continue;
            }
            let t = usize::from(tile);
            across += u32::from(self.column[t].abs_diff(u8::try_from(cell % w).unwrap_or(0)));
            down += u32::from(self.row[t].abs_diff(u8::try_from(cell / w).unwrap_or(0)));
        }
        (across, down)
    }
}

impl<H: Heuristic + Sync> Estimate for StmBound<H> {
    fn goal(&self) -> &State {
        &self.goal
    }

    fn estimate(&self, state: &State) -> u32 {
        let (across, down) = self.distances(state);
        let board = self.goal.board();
        mtm_floor(
            self.stm.estimate(state),
            across,
            down,
            board.width(),
            board.height(),
        )
    }
}

/// The larger of two admissible MTM estimates towards the same goal (itself one), the first
/// read first.
#[derive(Debug)]
pub struct Larger<A, B>(pub A, pub B);

impl<A: Estimate, B: Estimate> Estimate for Larger<A, B> {
    fn goal(&self) -> &State {
        self.0.goal()
    }

    fn estimate(&self, state: &State) -> u32 {
        self.0.estimate(state).max(self.1.estimate(state))
    }
}
