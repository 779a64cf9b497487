//! The blank's regions at a pattern's goal placement, and the goals that serve each of them.
//!
//! A pattern database is counted to its goal's *abstract* goal: the pattern's tiles home and
//! the blank anywhere in the region of free cells (cells outside the pattern's goal cells)
//! connected to the goal's blank cell. Where the pattern walls a cell in (the 7-8 pattern
//! `1..7` and the 6-6-6-6 pattern `1 2 5 6 7 12` around cell 0 of Korf's goal), the free cells
//! fall into several regions, and a position whose blank must end in another region (the dual
//! positions of [`crate::heuristic::PatternHeuristic`]: their blank is the label of the cell
//! where the real blank is) has another abstract goal. The same pattern's database built for
//! the goal with the blank moved into that region (the pattern's tiles where they were)
//! counts to it: [`region_goals`] names those goals, one per other region.
//!
//! ```
//! use npuzzle::pattern::region_goals;
//! use npuzzle::{Board, State};
//! let goal = State::canonical_goal(Board::new(4, 4)?, 0); // Korf's goal, blank in cell 0
//! // The top seven tiles wall cell 0 in: the free cells 8..15 are a second region.
//! let goals = region_goals(&goal, &[1, 2, 3, 4, 5, 6, 7]);
//! assert_eq!(goals.len(), 1);
//! assert_eq!(goals[0].blank(), 8);
//! // The bottom eight leave the cells 0..7 connected: one region, nothing more to build.
//! assert!(region_goals(&goal, &[8, 9, 10, 11, 12, 13, 14, 15]).is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::board::Move;
use crate::state::State;

/// The regions of the cells left free when `tiles` are home in `goal`, as bit masks of cells:
/// first the one holding the goal's blank, then the others by their lowest cell.
pub(crate) fn regions(goal: &State, tiles: &[u8]) -> Vec<u32> {
    let board = goal.board();
    let n = board.cells();
    let walls = goal
        .cells()
        .iter()
        .enumerate()
        .filter(|(_, t)| **t != 0 && tiles.contains(t))
        .fold(0u32, |m, (cell, _)| m | 1 << cell);
    let flood = |seed: usize| {
        let mut region = 1u32 << seed;
        let mut todo = vec![seed];
        while let Some(cell) = todo.pop() {
            for mv in Move::ALL {
                if let Some(next) = board.step(cell, mv) {
                    if walls >> next & 1 == 0 && region >> next & 1 == 0 {
                        region |= 1 << next;
                        todo.push(next);
                    }
                }
            }
        }
        region
    };
    let mut found = vec![flood(goal.blank())];
    let mut covered = walls | found[0];
    for cell in 0..n {
        if covered >> cell & 1 == 0 {
            let region = flood(cell);
            covered |= region;
            found.push(region);
        }
    }
    found
}

/// For each region of free cells at `tiles`' goal placement other than the goal's blank's
/// (module docs), the goal with the blank moved to that region's lowest cell, swapped with the
/// tile there (not a pattern tile): a database of `tiles` built for it serves positions whose
/// blank ends in that region. Empty where the free cells are connected.
pub fn region_goals(goal: &State, tiles: &[u8]) -> Vec<State> {
    regions(goal, tiles)
        .into_iter()
        .skip(1)
        .map(|region| {
            let cell = region.trailing_zeros() as usize;
            let mut cells = goal.cells().to_vec();
            cells.swap(cell, goal.blank());
            State::from_tiles(goal.board(), &cells).expect("a permutation of the goal's tiles")
        })
        .collect()
}
