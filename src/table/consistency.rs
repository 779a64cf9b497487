//! The deep check of a table body: every entry against its neighbours, without unranking.
//!
//! It walks folded indices block by block, as the generator lays them out (see [`crate::generate`]):
//! block `c` holds the states with the blank in cell `c`, and its pair `p` is the one tile rank
//! `2p` or `2p + 1` of the goal's class, told apart by the generator's pair parities. A
//! horizontal neighbour has the same pair in the next cell's block; a vertical one the pair of
//! the rotated tile rank ([`RankSpace::rotate`]). So a state costs a few table reads and one
//! rotation per vertical move, and the ranges run in parallel on rayon.
//!
//! Under MTM a slide of `k` cells is `k` single-cell moves in one direction: the same pair
//! `k` blocks along for a horizontal slide, the tile rank rotated through each of the `k`
//! windows for a vertical one. So the same walk checks an MTM table, over the MTM neighbours.

use rayon::prelude::*;

use crate::generate::{class_flips, pair_parities};
use crate::metric::Metric;
use crate::rank::RankSpace;
use crate::state::State;

/// Pairs checked by one parallel task: small enough to balance two threads on 3x3 (20,160
/// pairs a block), large enough that a task's setup is noise.
const PAIRS_PER_TASK: usize = 4096;

/// The moves of the blank out of `cell` under `metric`: for each, the start of the
/// destination cell's block (of `pairs` entries) and the windows of the vertical single-cell
/// steps it is made of (none for a horizontal move), in order.
fn moves_out_of(
    space: &RankSpace,
    cell: usize,
    metric: Metric,
    pairs: usize,
) -> Vec<(usize, Vec<u32>)> {
    let mut moves = Vec::new();
    for (to, window) in space.outgoing(cell) {
        // Horizontal steps change the cell by 1, vertical ones by the width (at least 2).
        let step = i64::from(to) - cell as i64;
        let mut at = to;
        let mut windows: Vec<u32> = window.into_iter().collect();
        moves.push((at as usize * pairs, windows.clone()));
        if metric == Metric::Stm {
            continue;
        }
        // Under MTM, the slide goes on in the same direction to the row's or column's end.
        while let Some((next, window)) = space
            .outgoing(at as usize)
            .find(|&(next, _)| i64::from(next) - i64::from(at) == step)
        {
            windows.extend(window);
            at = next;
            moves.push((at as usize * pairs, windows.clone()));
        }
    }
    moves
}

/// The first folded index (in index order) whose entry is inconsistent, its neighbours those
/// of `metric`'s moves: the goal's entry is not 0, or another entry is 0, or a state has a
/// neighbour more than one closer, or a state other than the goal has no neighbour exactly
/// one closer.
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
    metric: Metric,
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
        let moves = moves_out_of(space, cell, metric, pairs);
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
            for (block, windows) in &moves {
                let to = match windows[..] {
                    [] => pair,
                    [window] => (space.rotate(window, perm) >> 1) as usize,
                    _ => (windows.iter().fold(perm, |p, &w| space.rotate(w, p)) >> 1) as usize,
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
