//! Manhattan distance: each tile needs at least as many moves as the rows plus columns
//! between its cell and its goal cell, and one move carries one tile one step.

use super::goal_cells;
use crate::board::MAX_CELLS;
use crate::state::State;

/// The sum over tiles (the blank not counted) of the Manhattan distance to the goal cell.
#[derive(Clone, Debug)]
pub struct Manhattan {
    goal: State,
    /// `distance[tile][cell]`: the tile's Manhattan distance from `cell` to its goal cell,
    /// 0 for the blank, so that the estimate is one table read per cell.
    distance: Box<[[u8; MAX_CELLS]; MAX_CELLS]>,
}

impl Manhattan {
    /// The heuristic for `goal`.
    pub fn new(goal: &State) -> Manhattan {
        let w = goal.board().width();
        let home = goal_cells(goal);
        let mut distance = Box::new([[0u8; MAX_CELLS]; MAX_CELLS]);
        for tile in 1..goal.board().cells() {
            let h = home[tile] as usize;
            for cell in 0..goal.board().cells() {
                distance[tile][cell] =
                    u8::try_from((h / w).abs_diff(cell / w) + (h % w).abs_diff(cell % w))
                        .expect("below 25 + 25");
            }
        }
        Manhattan {
            goal: *goal,
            distance,
        }
    }

    /// The Manhattan distance of `tile` in `cell` from its goal cell (0 for the blank).
    #[inline]
    pub fn tile_distance(&self, tile: u8, cell: usize) -> u32 {
        u32::from(self.distance[tile as usize][cell])
    }
}

impl Manhattan {
    fn goal_state(&self) -> &State {
        &self.goal
    }

    #[inline]
    pub(crate) fn compute(&self, cells: &[u8]) -> u32 {
        cells
            .iter()
            .enumerate()
            .map(|(cell, &tile)| self.tile_distance(tile, cell))
            .sum()
    }

    #[inline]
    pub(crate) fn update(
        &self,
        _cells: &[u8],
        before: u32,
        tile: u8,
        from: usize,
        to: usize,
    ) -> u32 {
        before + self.tile_distance(tile, to) - self.tile_distance(tile, from)
    }
}

super::scalar_heuristic!(Manhattan, "npuzzle::heuristic::manhattan::Manhattan");
