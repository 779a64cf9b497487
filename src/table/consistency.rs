//! The deep check of a table body: every entry against its neighbours, without unranking.
//!
//! It walks folded indices block by block, as the generator lays them out (see [`crate::generate`]):
//! block `c` holds the states with the blank in cell `c`, and its pair `p` is the one tile rank
//! `2p` or `2p + 1` of the goal's class, told apart by the generator's pair parities. A
//! horizontal neighbour has the same pair in the next cell's block; a vertical one the pair of
//! the rotated tile rank ([`RankSpace::rotate`]). So a state costs a few table reads and one
//! rotation per vertical move, and the ranges run in parallel on rayon.

use rayon::prelude::*;

use crate::generate::{class_flips, pair_parities};
use crate::rank::RankSpace;
use crate::state::State;

/// Pairs checked by one parallel task: small enough to balance two threads on 3x3 (20,160
/// pairs a block), large enough that a task's setup is noise.
const PAIRS_PER_TASK: usize = 4096;

/// The first folded index (in index order) whose entry is inconsistent: the goal's entry is
/// not 0, or another entry is 0, or a state has a neighbour more than one closer, or a state
/// other than the goal has no neighbour exactly one closer.
///
/// "One closer" is computed in `u8` arithmetic with wrap-around, as the first version of the
/// check (which unranked every state) did in release builds: a neighbour whose entry is 255
/// counts as distance -1, so every state next to it is reported.
///
/// # Panics
/// If `entries` is not `space.states()` bytes long or `goal` is on another board.
pub(crate) fn first_inconsistent_entry(
    space: &RankSpace,
    goal: &State,
    entries: &[u8],
) -> Option<u32> {
    assert_eq!(space.board(), goal.board(), "the goal is on another board");
    assert_eq!(entries.len(), space.states() as usize, "one byte per state");
    let cells = space.board().cells();
    let pairs = space.perms() as usize / 2;
    let parities = pair_parities(space);
    let flips = class_flips(space, goal);
    let goal_index = space.rank_unchecked(goal) as usize;
    let tasks: Vec<(usize, usize)> = (0..cells)
        .flat_map(|cell| (0..pairs).step_by(PAIRS_PER_TASK).map(move |p| (cell, p)))
        .collect();
    tasks.par_iter().find_map_first(|&(cell, first)| {
        // Each move out of `cell`: the start of the destination block, and for a vertical move
        // its rotation of the tile rank.
        let moves: Vec<_> = space
            .outgoing(cell)
            .map(|(to, window)| (to as usize * pairs, window.map(|w| space.rotation(w))))
            .collect();
        let words = parities.as_raw_slice();
        let flip = flips[cell];
        let base = cell * pairs;
        for pair in first..(first + PAIRS_PER_TASK).min(pairs) {
            let index = base + pair;
            let d = entries[index];
            if (d == 0) != (index == goal_index) {
                return Some(u32::try_from(index).expect("a table has fewer than 2^32 entries"));
            }
            let low = ((words[pair / 64] ^ flip) >> (pair % 64)) & 1;
            // `2 * pair` is below n! < 2^32 and `low` is one bit; this runs for every entry of
            // the table, so no check.
            #[allow(clippy::cast_possible_truncation)]
            let perm = (2 * pair) as u32 + low as u32;
            let mut closer = false;
            let mut too_close = false;
            for (block, rotate) in &moves {
                let to = match rotate {
                    None => pair,
                    Some(rotate) => (rotate(perm) >> 1) as usize,
                };
                let one_more = entries[block + to].wrapping_add(1);
                closer |= one_more == d;
                too_close |= one_more < d;
            }
            if too_close || (d > 0 && !closer) {
                return Some(u32::try_from(index).expect("a table has fewer than 2^32 entries"));
            }
        }
        None
    })
}
