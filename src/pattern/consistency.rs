//! The deep check of a pattern database: every entry against its abstract neighbours.
//!
//! Checksums catch accidents, not edits: a database whose entries were raised and whose
//! checksums were recomputed passes every header and block check, and a raised entry makes the
//! heuristic inadmissible, so IDA* returns a longer path and calls it optimal. The deep check
//! holds the body to rules every database the generator writes obeys, from its stored values
//! alone (value = the pattern tiles' Manhattan distance + 2 x code):
//!
//! - the goal placement's value is 0;
//! - **no entry above a connected neighbour plus one**: where the free cells of a placement
//!   `P` are all connected, the blank can be anywhere among them, so every placement one
//!   pattern move away is at most one above `P`'s value (its value is a minimum over the
//!   blank's regions, one of which is reached from `P` in one move). Placements whose free
//!   cells are walled apart get no such bound (a database is admissible but not consistent
//!   there, see `tests/pattern_exhaustive.rs`);
//! - **reached from a step lower**: every entry above its Manhattan distance (code > 0) has a
//!   neighbour of a smaller value (the placement it was reached from in the generator's
//!   layer before);
//! - the histogram of codes equals the header's (checked with the checksums, when the file is
//!   opened).
//!
//! Every rule holds for a correct database, so a failure is damage. The rules are necessary,
//! not sufficient: an entry raised where every lower neighbour's free cells are walled apart
//! can pass (docs/trust-model.md says what this defends against). One pass over
//! the placements on rayon, walked in rank order a block at a time
//! ([`PatternSpace::visit_block`](super::PatternSpace::visit_block): no unrank per placement)
//! and its neighbours' ranks carried by [`RankDelta`];
//! the first damage in rank order is reported, whatever the thread count.

use std::ops::ControlFlow;

use rayon::prelude::*;

use super::database::PatternDatabase;
use super::delta::RankDelta;
use super::generate::{blocks_per_task, home_cells, manhattan, Geometry};

/// What the deep check found wrong with a pattern database.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PatternDamage {
    /// The goal placement's entry is not 0.
    #[error("the goal placement's entry is {value}, not 0")]
    GoalNotZero {
        /// Its value.
        value: u32,
    },
    /// An entry is more than one above a neighbour whose free cells are all connected.
    #[error(
        "entry {rank} (pattern tiles at cells {cells:?}) holds {value}, more than one above its neighbour {neighbour} ({neighbour_value}), whose free cells are connected"
    )]
    TooHigh {
        /// The entry's rank.
        rank: u32,
        /// The cell of each pattern tile, in the pattern's tile order.
        cells: Vec<u8>,
        /// Its value.
        value: u32,
        /// The neighbour's rank.
        neighbour: u32,
        /// The neighbour's value.
        neighbour_value: u32,
    },
    /// An entry above its Manhattan distance has no neighbour of a smaller value.
    #[error(
        "entry {rank} (pattern tiles at cells {cells:?}) holds {value}, but no neighbour holds less: no placement a step lower reaches it"
    )]
    Unreached {
        /// The entry's rank.
        rank: u32,
        /// The cell of each pattern tile, in the pattern's tile order.
        cells: Vec<u8>,
        /// Its value.
        value: u32,
    },
}

/// The first damage in rank order, or `None` for a database that passes every rule.
pub(crate) fn first_damage<D: AsRef<[u8]> + Sync>(
    db: &PatternDatabase<D>,
) -> Option<PatternDamage> {
    let space = db.space();
    let goal = db.goal();
    let k = space.tiles().len();
    let geometry = Geometry::new(space);
    let manhattan = manhattan(space, goal);
    let home = home_cells(space, goal);
    let goal_value = db.value(&home[..k]);
    if goal_value != 0 {
        return Some(PatternDamage::GoalNotZero { value: goal_value });
    }
    // With fewer than three free cells some placements are unreachable from the goal; they
    // hold code 0 and bound nothing, so their neighbours are not held to them.
    let few_free = space.board().cells() - k < 3;
    // A neighbour's rank from the entry's by the search's arithmetic (one weight for a
    // horizontal move, `width - 1` table reads for a vertical one), not ranked from scratch.
    let n = space.board().cells();
    let identity: Vec<u8> = (0..u8::try_from(n).expect("a board has at most 25 cells")).collect();
    let delta = RankDelta::new(n, &[space.tiles().to_vec()], &identity, &identity);
    let tiles = space.tiles();
    // One placement against its neighbours; `board` holds the pattern tiles in place, 0
    // elsewhere (the block walk keeps it).
    let check_placement = |p: u32, cells: &[u8], board: &[u8; 32], occupied: u32| {
        let free = geometry.all & !occupied;
        let md: u32 = (0..k)
            .map(|i| u32::from(manhattan[i][cells[i] as usize]))
            .sum();
        let code = u32::from(db.code(p));
        let value = md + 2 * code;
        let connected =
            geometry.flood(free & free.wrapping_neg(), free) == free && !(few_free && code == 0);
        let mut lowest = u32::MAX;
        for i in 0..k {
            let from = cells[i] as usize;
            let mut targets = geometry.around[from] & free;
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                let q = p.wrapping_add(delta.delta(board, tiles[i], from, to));
                let q_value = md - u32::from(manhattan[i][from])
                    + u32::from(manhattan[i][to])
                    + 2 * u32::from(db.code(q));
                if connected && q_value > value + 1 {
                    let mut q_cells = cells.to_vec();
                    q_cells[i] = u8::try_from(to).expect("a cell is below 25");
                    return ControlFlow::Break(PatternDamage::TooHigh {
                        rank: q,
                        cells: q_cells,
                        value: q_value,
                        neighbour: p,
                        neighbour_value: value,
                    });
                }
                lowest = lowest.min(q_value);
            }
        }
        if code > 0 && lowest >= value {
            return ControlFlow::Break(PatternDamage::Unreached {
                rank: p,
                cells: cells.to_vec(),
                value,
            });
        }
        ControlFlow::Continue(())
    };
    let blocks = space.blocks();
    let per_task = blocks_per_task(space);
    (0..blocks.div_ceil(per_task))
        .into_par_iter()
        .find_map_first(|task| {
            let first = task * per_task;
            (first..first.saturating_add(per_task).min(blocks))
                .find_map(|block| space.visit_block(block, &check_placement).break_value())
        })
}
