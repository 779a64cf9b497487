//! The generator: a layered, parallel breadth-first search from the goal over ranks.
//!
//! The search runs over *full* indices (both parity classes, see [`crate::rank`]) because a
//! neighbour's full index is cheap to compute from its parent's ([`RankSpace::for_each_neighbour`]);
//! only one class is ever reached, and the distance of full index `i` is stored at folded index
//! `i >> 1`.
//!
//! Each layer runs in two phases, so no two threads ever write the same word and no atomics
//! are needed:
//! 1. *Expand* (parallel over ranges of the `frontier` bit set): compute each state's
//!    neighbours and keep those not yet in `visited` (read-only in this phase), sorted into
//!    buckets by the *owner* range of the index space they fall in.
//! 2. *Claim* (parallel over owner ranges): each range's worker holds `&mut` to its own words
//!    of `visited` and `next` and its own distance bytes, marks its bucketed states and writes
//!    their depth. `next` becomes the following layer's frontier.
//!
//! Small layers skip the phases and run in one loop: splitting them would cost more than it
//! saves. The result does not depend on the number of threads (tests check it byte for byte).

use bitvec::prelude::*;
use rayon::prelude::*;

use crate::rank::RankSpace;
use crate::state::State;

/// The distance byte of a state not (yet) reached.
pub const UNREACHED: u8 = u8::MAX;

/// Layers smaller than twice this many states run in a single loop instead of two phases.
const EXPAND_SLICE: usize = 2048;

/// Owner ranges of the index space (a few per thread, for balance).
const OWNERS: usize = 16;

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

/// The words of `visited` and `next` and the distance bytes one worker owns in a claim phase.
struct Owner<'a> {
    /// First full index of the range (a multiple of 128, so words and byte pairs align).
    first: usize,
    /// Words of the bit sets, bit `i % 64` of word `i / 64` for local index `i` (`Lsb0`).
    visited: &'a mut [u64],
    next: &'a mut [u64],
    entries: &'a mut [u8],
}

impl Owner<'_> {
    /// Marks `full` as reached at `depth` unless it was reached before; returns whether new.
    #[inline]
    fn claim(&mut self, full: u32, depth: u8) -> bool {
        let local = full as usize - self.first;
        let (word, bit) = (local / 64, 1u64 << (local % 64));
        // Word operations rather than `BitSlice::replace`: this is the innermost loop.
        let new = self.visited[word] & bit == 0;
        if new {
            self.visited[word] |= bit;
            self.entries[local >> 1] = depth;
            self.next[word] |= bit;
        }
        new
    }
}

/// Splits `visited`, `next` and `entries` into owners of `owner_len` full indices each.
fn owners<'a>(
    visited: &'a mut BitVec<u64, Lsb0>,
    next: &'a mut BitVec<u64, Lsb0>,
    entries: &'a mut [u8],
    owner_len: usize,
) -> Vec<Owner<'a>> {
    // Splitting the raw words (owner_len is a multiple of 128 bits) means no two owners share
    // a word, so each gets plain `&mut` words and no atomics are needed.
    visited
        .as_raw_mut_slice()
        .chunks_mut(owner_len / 64)
        .zip(next.as_raw_mut_slice().chunks_mut(owner_len / 64))
        .zip(entries.chunks_mut(owner_len / 2))
        .enumerate()
        .map(|(k, ((visited, next), entries))| Owner {
            first: k * owner_len,
            visited,
            next,
            entries,
        })
        .collect()
}

fn run(space: &RankSpace, goal: &State) -> Distances {
    let full_len = space.full_len() as usize;
    let mut visited: BitVec<u64, Lsb0> = BitVec::repeat(false, full_len);
    let mut frontier: BitVec<u64, Lsb0> = BitVec::repeat(false, full_len);
    let mut next: BitVec<u64, Lsb0> = BitVec::repeat(false, full_len);
    let mut entries = vec![UNREACHED; space.states() as usize];
    // Owner ranges: whole 128-bit blocks, so each owns whole words and whole distance bytes.
    let owner_len = full_len.div_ceil(OWNERS).div_ceil(128) * 128;

    let start = space.full_index(goal);
    visited.set(start as usize, true);
    frontier.set(start as usize, true);
    entries[(start >> 1) as usize] = 0;
    let mut layer_len = 1;
    let mut depth: u8 = 0;
    while layer_len > 0 {
        depth = depth
            .checked_add(1)
            .filter(|&d| d < UNREACHED)
            .expect("depth fits a byte");
        next.fill(false);
        if layer_len < 2 * EXPAND_SLICE || rayon::current_num_threads() == 1 {
            // One loop: expand and claim at once. Frontier bits come in index order, which
            // keeps neighbours' reads close together.
            let mut whole = owners(
                &mut visited,
                &mut next,
                &mut entries,
                full_len.div_ceil(128) * 128,
            );
            let whole = &mut whole[0];
            layer_len = 0;
            for full in frontier.iter_ones() {
                space.for_each_neighbour(full as u32, |_, n| {
                    layer_len += whole.claim(n, depth) as usize;
                });
            }
        } else {
            // Phase 1: expand slices of the frontier, filtering against the earlier layers.
            let seen: &BitSlice<u64, Lsb0> = &visited;
            let buckets: Vec<Vec<Vec<u32>>> = frontier
                .as_raw_slice()
                .par_chunks(owner_len / 64)
                .enumerate()
                .map(|(k, words)| {
                    let first = k * owner_len;
                    let mut buckets = vec![Vec::new(); OWNERS];
                    for local in BitSlice::<u64, Lsb0>::from_slice(words).iter_ones() {
                        space.for_each_neighbour((first + local) as u32, |_, n| {
                            if !seen[n as usize] {
                                buckets[n as usize / owner_len].push(n);
                            }
                        });
                    }
                    buckets
                })
                .collect();
            // Phase 2: each owner range claims the states bucketed for it.
            layer_len = owners(&mut visited, &mut next, &mut entries, owner_len)
                .into_par_iter()
                .enumerate()
                .map(|(k, mut owner)| {
                    let mut claimed = 0;
                    for from in &buckets {
                        for &full in &from[k] {
                            claimed += owner.claim(full, depth) as usize;
                        }
                    }
                    claimed
                })
                .sum();
        }
        std::mem::swap(&mut frontier, &mut next);
    }

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
