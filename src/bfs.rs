//! The generator: a layered, parallel breadth-first search from the goal over ranks.
//!
//! The search runs over *full* indices `blank * perms + perm` (both parity classes, see
//! [`crate::rank`]); only the goal's class is ever reached, and the distance of full index `i`
//! is stored at folded index `i >> 1`. The sets `visited`, `frontier` and `next` are bit sets
//! (`bitvec`), one *block* of `perms` bits per blank cell, so a block's words are aligned on
//! every board.
//!
//! The block structure is what makes the layers cheap:
//! - A horizontal move keeps the tile rank and only moves the blank to the next cell, so all
//!   horizontal successors of a layer are the frontier block of one cell OR-ed, 64 states per
//!   word operation, into the `next` block of its neighbour cell.
//! - A vertical move rotates a window of Lehmer digits; each frontier state's successor is
//!   computed with [`RankSpace::rotate`] (no re-ranking) and its bit set without a test.
//! - The new layer is `next & !visited`, again a word operation, and only its bits are visited
//!   one by one, to write their distance byte.
//!
//! Each task owns one destination block (the blank's cell after the move): it reads any
//! frontier block but writes only its own `next` and `visited` words and its own distance
//! bytes, so blocks run in parallel on rayon without atomics or locks, and the result is the
//! same for any number of threads (tests compare the bytes).

use bitvec::prelude::*;
use rayon::prelude::*;

use crate::rank::RankSpace;
use crate::state::State;

/// The distance byte of a state not (yet) reached.
pub const UNREACHED: u8 = u8::MAX;

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

/// One bit set per blank cell, each `perms` bits long.
type Blocks = Vec<BitVec<u64, Lsb0>>;

fn run(space: &RankSpace, goal: &State) -> Distances {
    let cells = space.board().cells();
    let perms = space.perms() as usize;
    let empty = || -> Blocks { (0..cells).map(|_| BitVec::repeat(false, perms)).collect() };
    let (mut visited, mut frontier, mut next) = (empty(), empty(), empty());
    let mut entries = vec![UNREACHED; space.states() as usize];

    let start = space.full_index(goal) as usize;
    visited[start / perms].set(start % perms, true);
    frontier[start / perms].set(start % perms, true);
    entries[start >> 1] = 0;
    // States of the frontier in each block: empty blocks are not swept.
    let mut sizes = vec![0u64; cells];
    sizes[start / perms] = 1;
    let mut depth: u8 = 0;
    loop {
        depth = depth
            .checked_add(1)
            .filter(|&d| d < UNREACHED)
            .expect("depth fits a byte");
        sizes = visited
            .par_iter_mut()
            .zip(next.par_iter_mut())
            .zip(entries.par_chunks_mut(perms / 2))
            .enumerate()
            .map(|(cell, ((visited, next), entries))| {
                expand_into(space, cell, &frontier, &sizes, next);
                claim(visited, next, entries, depth)
            })
            .collect();
        if sizes.iter().all(|&n| n == 0) {
            break;
        }
        std::mem::swap(&mut frontier, &mut next);
    }
    let counts = count_depths(&entries);
    Distances { entries, counts }
}

/// Sets in `next` (the block of `cell`) every successor of the frontier whose blank lands on
/// `cell`. Bits are only set, never tested: filtering against `visited` is done per word.
fn expand_into(
    space: &RankSpace,
    cell: usize,
    frontier: &Blocks,
    sizes: &[u64],
    next: &mut BitVec<u64, Lsb0>,
) {
    let words = next.as_raw_mut_slice();
    words.fill(0);
    for &(from, window) in space.incoming(cell) {
        if sizes[from as usize] == 0 {
            continue;
        }
        let source = frontier[from as usize].as_raw_slice();
        match window {
            // Horizontal: same tile rank, so the whole block moves over, a word at a time.
            None => {
                for (to, from) in words.iter_mut().zip(source) {
                    *to |= from;
                }
            }
            Some(window) => {
                for (w, &word) in source.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let perm = (w * 64) as u32 + bits.trailing_zeros();
                        let next = space.rotate(window, perm) as usize;
                        words[next / 64] |= 1 << (next % 64);
                        bits &= bits - 1;
                    }
                }
            }
        }
    }
}

/// Keeps in `next` only the states not visited before, marks them visited, writes `depth` into
/// their distance bytes (the block's, indexed `perm >> 1`) and returns how many there were.
fn claim(
    visited: &mut BitVec<u64, Lsb0>,
    next: &mut BitVec<u64, Lsb0>,
    entries: &mut [u8],
    depth: u8,
) -> u64 {
    let mut reached = 0;
    let visited = visited.as_raw_mut_slice();
    for (w, (next, seen)) in next.as_raw_mut_slice().iter_mut().zip(visited).enumerate() {
        let new = *next & !*seen;
        *seen |= new;
        *next = new;
        reached += new.count_ones() as u64;
        let mut bits = new;
        while bits != 0 {
            let perm = w * 64 + bits.trailing_zeros() as usize;
            entries[perm >> 1] = depth;
            bits &= bits - 1;
        }
    }
    reached
}

/// Counts the entries at each depth; unreached entries are not counted.
pub fn count_depths(entries: &[u8]) -> Vec<u64> {
    let mut counts = count_depths_all(entries);
    counts[UNREACHED as usize] = 0;
    let max = counts.iter().rposition(|&c| c > 0).unwrap_or(0);
    counts[..=max].to_vec()
}

/// Counts the entries of every byte value.
pub fn count_depths_all(entries: &[u8]) -> [u64; 256] {
    // Four tables break the dependency between neighbouring increments of one counter.
    let mut counts = [[0u64; 256]; 4];
    let mut chunks = entries.chunks_exact(4);
    for chunk in &mut chunks {
        for (table, &d) in counts.iter_mut().zip(chunk) {
            table[d as usize] += 1;
        }
    }
    for &d in chunks.remainder() {
        counts[0][d as usize] += 1;
    }
    let mut total = [0u64; 256];
    for table in &counts {
        for (sum, &c) in total.iter_mut().zip(table) {
            *sum += c;
        }
    }
    total
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
