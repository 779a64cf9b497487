//! The generator: a layered, parallel breadth-first search from the goal over ranks.
//!
//! Each layer's states are split among rayon's workers. A worker computes its states'
//! neighbours with [`RankSpace::for_each_neighbour`] (no re-ranking) and claims unseen ones in
//! a shared `visited` bit set (atomic words, so claims from different threads never tear).
//! A state can be claimed by two workers in the same instant; then it sits twice in the next
//! layer, which costs a little work and changes no distance, so the table is the same for any
//! number of threads. The distance byte of a claimed state is written by its claimer; both
//! claimers of a doubly-claimed state write the same value.

use std::sync::atomic::{AtomicU8, Ordering};

use bitvec::prelude::*;
use rayon::prelude::*;

use crate::rank::RankSpace;
use crate::state::State;

/// The distance byte of a state not (yet) reached.
pub const UNREACHED: u8 = u8::MAX;

/// Frontier slices smaller than this are not split further among threads.
const MIN_SPLIT: usize = 1024;

/// Options for [`distances`].
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildOptions {
    /// Worker threads: `None` uses rayon's current pool (all cores unless configured).
    pub threads: Option<usize>,
}

/// The result of a generator run: a distance per folded rank and the count at each depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distances {
    /// `entries[index]` is the distance to the goal of the state with that folded index.
    pub entries: Vec<u8>,
    /// `counts[d]` states lie at distance `d`; the last entry is non-zero.
    pub counts: Vec<u64>,
}

/// Runs the breadth-first search from `goal` over its parity class.
///
/// # Panics
/// If `goal` is not on `space`'s board, or a state lies deeper than 254 moves (no board that
/// can be ranked comes close: 3x3 reaches 31, 4x3 reaches 53).
pub fn distances(space: &RankSpace, goal: &State, options: BuildOptions) -> Distances {
    assert_eq!(space.board(), goal.board(), "the goal is on another board");
    match options.threads {
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .expect("a rayon pool of a few threads can always be built")
            .install(|| run(space, goal)),
        None => run(space, goal),
    }
}

fn run(space: &RankSpace, goal: &State) -> Distances {
    let full_len = space.full_len() as usize;
    let visited: BitVec<std::sync::atomic::AtomicU64, Lsb0> = BitVec::repeat(false, full_len);
    let entries: Vec<AtomicU8> = (0..space.states())
        .map(|_| AtomicU8::new(UNREACHED))
        .collect();
    let start = space.full_index(goal);
    visited.set_aliased(start as usize, true);
    entries[(start >> 1) as usize].store(0, Ordering::Relaxed);

    let mut frontier = vec![start];
    let mut depth: u8 = 0;
    while !frontier.is_empty() {
        depth = depth
            .checked_add(1)
            .filter(|&d| d < UNREACHED)
            .expect("depth fits a byte");
        let expand = |layer: &[u32], next: &mut Vec<u32>| {
            for &full in layer {
                space.for_each_neighbour(full, |_, neighbour| {
                    let i = neighbour as usize;
                    // A plain read first: most neighbours are already visited, and the atomic
                    // read-modify-write is only paid for states seen for the first time.
                    if !visited[i] {
                        visited.set_aliased(i, true);
                        entries[i >> 1].store(depth, Ordering::Relaxed);
                        next.push(neighbour);
                    }
                });
            }
        };
        frontier = if frontier.len() < 2 * MIN_SPLIT || rayon::current_num_threads() == 1 {
            let mut next = Vec::with_capacity(frontier.len() * 2);
            expand(&frontier, &mut next);
            next
        } else {
            frontier
                .par_chunks(MIN_SPLIT)
                .fold(Vec::new, |mut next, layer| {
                    expand(layer, &mut next);
                    next
                })
                .reduce(Vec::new, |mut a, mut b| {
                    if a.len() < b.len() {
                        std::mem::swap(&mut a, &mut b);
                    }
                    a.append(&mut b);
                    a
                })
        };
    }

    let entries: Vec<u8> = entries.into_iter().map(AtomicU8::into_inner).collect();
    let counts = count_depths(&entries);
    Distances { entries, counts }
}

/// Counts the entries at each depth; unreached entries are not counted.
pub fn count_depths(entries: &[u8]) -> Vec<u64> {
    let mut counts = [0u64; 256];
    for &d in entries {
        counts[d as usize] += 1;
    }
    counts[UNREACHED as usize] = 0;
    let max = counts.iter().rposition(|&c| c > 0).unwrap_or(0);
    counts[..=max].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn every_state_of_small_boards_is_reached() {
        for (w, h) in [(2, 2), (3, 2), (2, 3), (4, 2)] {
            let board = Board::new(w, h).unwrap();
            let space = RankSpace::new(board).unwrap();
            let d = distances(&space, &State::goal(board), BuildOptions::default());
            assert!(d.entries.iter().all(|&e| e != UNREACHED), "{w}x{h}");
            assert_eq!(d.counts.iter().sum::<u64>(), space.states() as u64);
        }
    }
}
