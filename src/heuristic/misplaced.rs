//! Misplaced tiles: the textbook branch-and-bound heuristic. Each misplaced tile needs at
//! least one move, so the count never overestimates; one move fixes at most one tile.

use super::goal_cells;
use crate::board::MAX_CELLS;
use crate::state::{State, BLANK};

/// The number of tiles (the blank not counted) that are not in their goal cell.
#[derive(Clone, Debug)]
pub struct Misplaced {
    goal: State,
    goal_cell: [u8; MAX_CELLS],
}

impl Misplaced {
    /// The heuristic for `goal`.
    pub fn new(goal: &State) -> Misplaced {
        Misplaced {
            goal: *goal,
            goal_cell: goal_cells(goal),
        }
    }
}

impl Misplaced {
    fn goal_state(&self) -> &State {
        &self.goal
    }

    #[inline]
    // At most 25 tiles; this runs for every node of a search, so no check.
    #[allow(clippy::cast_possible_truncation)]
    pub(crate) fn compute(&self, cells: &[u8]) -> u32 {
        cells
            .iter()
            .zip(self.goal.cells())
            .filter(|&(&tile, &wanted)| tile != BLANK && tile != wanted)
            .count() as u32
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
        let home = self.goal_cell[tile as usize] as usize;
        before + u32::from(to != home) - u32::from(from != home)
    }
}

super::scalar_heuristic!(Misplaced, "npuzzle::heuristic::misplaced::Misplaced");
