//! The generator: a layered, parallel breadth-first search from the goal over ranks.
//!
//! The search runs over *folded* indices of the goal's parity class, grouped in *blocks*: the
//! states with the blank in cell `c` are folded indices `c * perms/2 .. (c + 1) * perms/2`
//! (see [`crate::rank`]). A block's *pair* `p` stands for tile ranks `2p` and `2p + 1`, of which
//! exactly one is in the goal's class; which one is read from a table of pair parities (one bit
//! per pair, shared by every block, see `pair_parities`).
//!
//! Three facts make the layers cheap:
//! - A move carries the blank to a cell of the other colour (a chessboard colouring), so the
//!   states at depth `d` all have their blank on one colour and their neighbours lie at depth
//!   `d - 1` or `d + 1`. The new layer in a block is therefore "successors of layer `d`, minus
//!   layer `d - 1`": no visited set is kept. One bit set of `n!/2` bits holds the last two
//!   layers at once (layer `d` in the blocks of one colour, layer `d - 1` in the others), and
//!   each new layer is written over the old one in place, word by word.
//! - A horizontal move keeps the tile rank (and the class choice within a pair), so all
//!   horizontal successors of a layer are one source block OR-ed, 64 pairs per word operation,
//!   into the destination block. A vertical move rotates a window of Lehmer digits; each
//!   frontier state's successor is computed with `RankSpace::rotate` and its bit set without
//!   a test.
//! - Half of all successors lie in the layer before (every edge is seen from both ends). For
//!   vertical moves, the costly kind, each block keeps per incoming vertical move the states
//!   its layer got *through* that move ("came via"); the opposite move from those states leads
//!   back, so they are masked out of the source words before any rotation. Every rotation
//!   computed then lands in the new layer.
//!
//! Each task owns one destination block (the blank's cell after the move): it reads any block
//! of the current layer but writes only its own layer block, its own "came via" blocks and its
//! own distance bytes, so blocks run in parallel on rayon without atomics or locks, and the
//! result is the same for any number of threads (tests compare the bytes). The depth counts
//! come from the layers' sizes, so the distance bytes are written once each and never read.
//!
//! Memory: the distance bytes plus `n!/2` bits of layers, `(n-1)!/2` bits per vertical move
//! (both directions) and `(n-1)!/2` bits of pair parities: 240 MB + 30 + 45 + 2.5 MB on 3x4.

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
/// As [`distances_into`].
pub fn distances(space: &RankSpace, goal: &State, options: BuildOptions) -> Distances {
    // Every byte is written by the search, so the buffer need not be filled first (a zeroed
    // allocation costs nothing until touched).
    let mut entries = vec![0; space.states() as usize];
    let counts = distances_into(space, goal, options, &mut entries);
    Distances { entries, counts }
}

/// Runs the breadth-first search from `goal` and writes the distance of each state of its
/// parity class into `entries` (by folded index); returns the count of states at each depth.
///
/// Every byte of `entries` is written, whatever it held before, so a caller can generate
/// straight into the body of a file buffer (as [`Table::build`](crate::Table::build) does).
///
/// # Panics
/// If `goal` is not on `space`'s board, if `entries` is not `space.states()` bytes long, or if
/// a state lies deeper than 254 moves (no board that can be ranked comes close: 3x3 reaches
/// 31, 4x3 reaches 53).
pub fn distances_into(
    space: &RankSpace,
    goal: &State,
    options: BuildOptions,
    entries: &mut [u8],
) -> Vec<u64> {
    assert_eq!(space.board(), goal.board(), "the goal is on another board");
    assert_eq!(
        entries.len(),
        space.states() as usize,
        "one distance byte per state"
    );
    let counts = match options.threads {
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .expect("a rayon pool of a few threads can always be built")
            .install(|| run(space, goal, entries)),
        None => run(space, goal, entries),
    };
    // Every board that can be ranked has a connected parity class, so every byte was written.
    assert_eq!(
        counts.iter().sum::<u64>(),
        space.states() as u64,
        "the search reached every state of the class"
    );
    counts
}

/// The pair parities of `space`: bit `p` is the parity of the Lehmer digits of tile rank `2p`
/// (tile rank `2p + 1` has the other parity: it differs only in the digit of weight 1).
///
/// Pair `p`'s digits are those of the tile rank without its two last positions, so with `m`
/// tiles the table for `k` tiles is the table for `k - 1` tiles repeated `k` times, every
/// other copy inverted (the new leading digit's parity). Built that way it is a few bit-slice
/// copies, not `(n-1)!/2` unrankings.
pub(crate) fn pair_parities(space: &RankSpace) -> BitVec<u64, Lsb0> {
    let tiles = space.board().cells() - 1;
    let pairs = space.perms() as usize / 2;
    let mut bits = BitVec::<u64, Lsb0>::repeat(false, pairs);
    // The table for 2 tiles is one pair of parity 0.
    let mut len = 1;
    for k in 3..=tiles {
        for digit in 1..k {
            bits.copy_within(..len, digit * len);
            if digit % 2 == 1 {
                let copy = &mut bits[digit * len..(digit + 1) * len];
                let _ = !copy;
            }
        }
        len *= k;
    }
    debug_assert_eq!(len, pairs);
    bits
}

/// For each blank cell, the bit to XOR into a pair parity to get the low bit of the pair's tile
/// rank that lies in `goal`'s class, spread over a word (all ones or all zeros).
///
/// A state is in `goal`'s class iff its tile parity, XOR-ed with the blank's row parity on
/// boards of even width, equals the goal's (see [`State::parity_class`]).
pub(crate) fn class_flips(space: &RankSpace, goal: &State) -> Vec<u64> {
    let width = space.board().width();
    (0..space.board().cells())
        .map(|cell| {
            let row_term = width.is_multiple_of(2) && !(cell / width).is_multiple_of(2);
            if row_term ^ goal.parity_class() {
                !0
            } else {
                0
            }
        })
        .collect()
}

/// The chessboard colour of `cell`: every move changes it.
fn colour(space: &RankSpace, cell: usize) -> usize {
    let width = space.board().width();
    (cell / width + cell % width) % 2
}

/// What one task of a layer owns: a destination cell, its layer block (layer `d - 1` in, the
/// new layer out), its "came via" blocks and its distance bytes.
struct Job<'a> {
    cell: usize,
    layer: BitVec<u64, Lsb0>,
    via: Vec<BitVec<u64, Lsb0>>,
    entries: &'a mut [u8],
}

/// One vertical move into a cell: where the blank comes from, the window it rotates, and the
/// index of the opposite move among the source cell's vertical incoming moves.
#[derive(Clone, Copy)]
struct Vertical {
    from: usize,
    window: u32,
    back: usize,
}

/// The search; see the module documentation. Returns the count at each depth.
fn run(space: &RankSpace, goal: &State, entries: &mut [u8]) -> Vec<u64> {
    let cells = space.board().cells();
    let pairs = space.perms() as usize / 2;
    let parities = pair_parities(space);
    let flips = class_flips(space, goal);
    let verticals: Vec<Vec<Vertical>> = (0..cells).map(|c| vertical_moves(space, c)).collect();
    let horizontals: Vec<Vec<usize>> = (0..cells)
        .map(|c| {
            let incoming = space.incoming(c).iter();
            incoming
                .filter(|m| m.1.is_none())
                .map(|m| m.0 as usize)
                .collect()
        })
        .collect();
    let empty = || BitVec::<u64, Lsb0>::repeat(false, pairs);
    // Layer `d` in the blocks of one colour, layer `d - 1` in the others.
    let mut layers: Vec<BitVec<u64, Lsb0>> = (0..cells).map(|_| empty()).collect();
    // `via[c][j]`: the states of `c`'s layer reached by its `j`th vertical incoming move.
    let mut via: Vec<Vec<BitVec<u64, Lsb0>>> = verticals
        .iter()
        .map(|moves| moves.iter().map(|_| empty()).collect())
        .collect();
    let mut blocks: Vec<&mut [u8]> = entries.chunks_mut(pairs).collect();

    let start = space.full_index(goal) as usize;
    let (start_cell, start_pair) = (start / (2 * pairs), (start % (2 * pairs)) >> 1);
    layers[start_cell].set(start_pair, true);
    blocks[start_cell][start_pair] = 0;
    // States of the current layer in each block: empty blocks are not swept.
    let mut sizes = vec![0u64; cells];
    sizes[start_cell] = 1;
    let mut counts = vec![1u64];
    loop {
        let depth = u8::try_from(counts.len())
            .ok()
            .filter(|&d| d < UNREACHED)
            .expect("depth fits a byte");
        let target = (colour(space, start_cell) + counts.len()) % 2;
        let mut jobs: Vec<Job> = (0..cells)
            .filter(|&cell| colour(space, cell) == target)
            .map(|cell| Job {
                cell,
                layer: std::mem::take(&mut layers[cell]),
                via: std::mem::take(&mut via[cell]),
                entries: std::mem::take(&mut blocks[cell]),
            })
            .collect();
        let reached: Vec<u64> = jobs
            .par_iter_mut()
            .with_max_len(1)
            .map(|job| {
                let vertical = &verticals[job.cell];
                for (out, m) in job.via.iter_mut().zip(vertical) {
                    let came = via[m.from][m.back].as_raw_slice();
                    let out = out.as_raw_mut_slice();
                    out.fill(0);
                    if sizes[m.from] > 0 {
                        let rotate = space.rotation(m.window);
                        let (source, flip) = (layers[m.from].as_raw_slice(), flips[m.from]);
                        expand(rotate, source, came, parities.as_raw_slice(), flip, out);
                    }
                }
                let mut sources: Vec<&[u64]> = horizontals[job.cell]
                    .iter()
                    .filter(|&&from| sizes[from] > 0)
                    .map(|&from| layers[from].as_raw_slice())
                    .collect();
                sources.extend(job.via.iter().map(|v| v.as_raw_slice()));
                claim(&sources, job.layer.as_raw_mut_slice(), job.entries, depth)
            })
            .collect();
        for (job, n) in jobs.into_iter().zip(reached) {
            sizes[job.cell] = n;
            layers[job.cell] = job.layer;
            via[job.cell] = job.via;
            blocks[job.cell] = job.entries;
        }
        for (cell, size) in sizes.iter_mut().enumerate() {
            if colour(space, cell) != target {
                *size = 0;
            }
        }
        let total: u64 = sizes.iter().sum();
        if total == 0 {
            break;
        }
        counts.push(total);
    }
    counts
}

/// The vertical moves into `cell`, each with the index of its opposite among the vertical
/// moves into its source cell.
fn vertical_moves(space: &RankSpace, cell: usize) -> Vec<Vertical> {
    let into = |c: usize| -> Vec<(usize, u32)> {
        let incoming = space.incoming(c).iter();
        incoming
            .filter_map(|&(from, w)| Some((from as usize, w?)))
            .collect()
    };
    into(cell)
        .into_iter()
        .map(|(from, window)| Vertical {
            from,
            window,
            back: into(from)
                .iter()
                .position(|&(f, _)| f == cell)
                .expect("every move has an opposite"),
        })
        .collect()
}

/// Sets in `out` the successor, by one vertical move (`rotate`), of every state of a source
/// block's layer that did not come *from* the destination by the opposite move (`came`): those
/// successors are in the layer before, so skipping them halves the rotations without a test.
/// `flip` turns the pair parities into the in-class low bit of the source block's tile ranks.
fn expand(
    rotate: impl Fn(u32) -> u32,
    source: &[u64],
    came: &[u64],
    parities: &[u64],
    flip: u64,
    out: &mut [u64],
) {
    for (w, ((&word, &came), &parity)) in source.iter().zip(came).zip(parities).enumerate() {
        // Bit k: the low bit of the in-class tile rank of pair 64w + k.
        let low = parity ^ flip;
        let base = (w * 128) as u32;
        let mut bits = word & !came;
        while bits != 0 {
            let k = bits.trailing_zeros();
            let perm = base + 2 * k + ((low >> k) & 1) as u32;
            let pair = (rotate(perm) >> 1) as usize;
            out[pair / 64] |= 1 << (pair % 64);
            bits &= bits - 1;
        }
    }
}

/// Replaces `layer` (the block's layer before the current one) by the new layer: the union of
/// `sources` (successors of the current layer) minus the old layer; writes `depth` into the new
/// states' distance bytes and returns how many there were.
fn claim(sources: &[&[u64]], layer: &mut [u64], entries: &mut [u8], depth: u8) -> u64 {
    // A few sources (1 to 4), each cut to the layer's length, so the word loop indexes them
    // without a bounds check.
    match sources {
        [a] => claim_from(&[a], layer, entries, depth),
        [a, b] => claim_from(&[a, b], layer, entries, depth),
        [a, b, c] => claim_from(&[a, b, c], layer, entries, depth),
        [a, b, c, d] => claim_from(&[a, b, c, d], layer, entries, depth),
        _ => {
            let union: Vec<u64> = (0..layer.len())
                .map(|w| sources.iter().fold(0, |next, source| next | source[w]))
                .collect();
            claim_from(&[&union], layer, entries, depth)
        }
    }
}

/// [`claim`] for `K` sources.
#[inline(always)]
fn claim_from<const K: usize>(
    sources: &[&[u64]; K],
    layer: &mut [u64],
    entries: &mut [u8],
    depth: u8,
) -> u64 {
    let words = layer.len();
    let sources = sources.map(|source| &source[..words]);
    let mut reached = 0;
    for (w, (word, entries)) in layer.iter_mut().zip(entries.chunks_mut(64)).enumerate() {
        let next = sources.iter().fold(0, |next, source| next | source[w]);
        let new = next & !*word;
        *word = new;
        // Counted while the bits are walked: a popcount would be emulated in a dozen
        // instructions on the baseline x86-64 target.
        let mut bits = new;
        while bits != 0 {
            entries[bits.trailing_zeros() as usize] = depth;
            reached += 1;
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
            assert_eq!(d.counts, count_depths(&d.entries), "{w}x{h}");
        }
    }

    #[test]
    fn pair_parities_match_the_lehmer_digits_of_every_tile_rank() {
        for (w, h) in [(2, 2), (3, 2), (2, 4), (3, 3), (2, 5)] {
            let space = RankSpace::new(Board::new(w, h).unwrap()).unwrap();
            let parities = pair_parities(&space);
            assert_eq!(parities.len(), space.perms() as usize / 2);
            for perm in 0..space.perms() {
                // The blank in cell 0: the state's tile parity is its tiles' Lehmer parity.
                let (_, parity) = space.full_index_and_parity(&space.state_at(perm));
                let expected = parities[perm as usize / 2] ^ (perm % 2 == 1);
                assert_eq!(parity, expected, "{w}x{h} tile rank {perm}");
            }
        }
    }
}
