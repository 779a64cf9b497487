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
//!   a test. Where the window's digits sit above many others, the move shifts whole runs of
//!   consecutive pairs by the same amount (`RankSpace::runs`): a dense layer then moves 64
//!   pairs per word operation there too.
//! - Half of all successors lie in the layer before (every edge is seen from both ends). For
//!   vertical moves, the costly kind, each block keeps per incoming vertical move the states
//!   its layer got *through* that move ("came via"); the opposite move from those states leads
//!   back, so they are masked out of the source words before any rotation. Every rotation
//!   computed then lands in the new layer.
//!
//! The layers near both ends hold a few hundred states in blocks of hundreds of words (3x3)
//! to hundreds of thousands (3x4), so every block keeps *marks*, a bit per word that may be
//! non-zero: a sparse layer is expanded and claimed through its marked words instead of swept.
//! A dense layer is swept, and its distance bytes are written 8 at a time from the new
//! layer's word (no branch per state: a bit walk's exit is mispredicted on every word).
//!
//! Each task owns one destination block (the blank's cell after the move): it reads any block
//! of the current layer but writes only its own layer block, its own "came via" blocks and its
//! own distance bytes, so blocks run in parallel on rayon without atomics or locks, and the
//! result is the same for any number of threads (tests compare the bytes). The depth counts
//! come from the layers' sizes, so each distance byte is written once and never read to
//! decide anything (an 8-byte write keeps the bytes beside the new ones as they were).
//!
//! Memory: the distance bytes plus `n!/2` bits of layers, `(n-1)!/2` bits per vertical move
//! (both directions) and `(n-1)!/2` bits of pair parities: 240 MB + 30 + 45 + 2.5 MB on 3x4;
//! the marks add one bit per 64 (1.2 MB on 3x4).

use bitvec::prelude::*;
use rayon::prelude::*;

use crate::metric::Metric;
use crate::rank::RankSpace;
use crate::state::State;
use crate::store::format;

/// Counts the entries of every byte value (the store's histogram, kept here under the name the
/// generator's users know).
pub use crate::store::histogram::count_depths_all;

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
            if row_term ^ goal.parity_class().is_odd() {
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

/// One block's bits (a bit per pair) and a summary of its words, the *marks*: bit `w` of
/// `marks` clear means word `w` is zero. The first and last layers hold a few hundred states
/// in blocks of hundreds of words (3x3) to hundreds of thousands (3x4); with the marks they are
/// walked word by word where they are set instead of swept whole.
///
/// Shared with the MTM generator (`crate::mtm::generate`), which keeps its layers the same way.
#[derive(Default)]
pub(crate) struct Marked {
    pub(crate) bits: BitVec<u64, Lsb0>,
    pub(crate) marks: Vec<u64>,
    /// The marks are not kept (a block filled by a dense expansion): any word may be non-zero.
    pub(crate) unmarked: bool,
}

impl Marked {
    /// An empty block of `pairs` bits.
    pub(crate) fn new(pairs: usize) -> Marked {
        let bits = BitVec::<u64, Lsb0>::repeat(false, pairs);
        let marks = vec![0; bits.as_raw_slice().len().div_ceil(64)];
        Marked {
            bits,
            marks,
            unmarked: false,
        }
    }

    /// Sets bit `pair` and its word's mark.
    pub(crate) fn set(&mut self, pair: usize) {
        self.bits.set(pair, true);
        mark(&mut self.marks, pair / 64);
    }

    /// Clears every bit: the marked words only, unless the marks are not kept.
    pub(crate) fn clear(&mut self) {
        let words = self.bits.as_raw_mut_slice();
        if self.unmarked {
            words.fill(0);
        } else {
            for_each_marked(&self.marks, |w| words[w] = 0);
        }
        self.marks.fill(0);
        self.unmarked = false;
    }
}

/// Sets the mark of word `w`: it may be non-zero.
#[inline(always)]
pub(crate) fn mark(marks: &mut [u64], w: usize) {
    marks[w / 64] |= 1 << (w % 64);
}

/// Calls `visit` with the index of every word whose mark is set, in increasing order.
#[inline(always)]
pub(crate) fn for_each_marked(marks: &[u64], mut visit: impl FnMut(usize)) {
    for (m, &mark) in marks.iter().enumerate() {
        let mut todo = mark;
        while todo != 0 {
            visit(64 * m + todo.trailing_zeros() as usize);
            todo &= todo - 1;
        }
    }
}

/// A source block of at most `1 / SPARSE` as many states as it has words is expanded through
/// its marks; a denser one is swept.
const SPARSE: usize = 4;

/// Runs of fewer pairs are rotated state by state.
const RUN_MIN: usize = 8;

/// A source block is expanded run by run when it holds at least this many states per 64-bit
/// piece of a run.
const RUN_DENSITY: usize = 2;

/// A layer of fewer states than this is expanded on the calling thread, its blocks one after
/// the other; a wider one is shared among rayon's threads, a block per task.
///
/// Why: a parallel layer costs a fork-join (waking a sleeping worker, a futex each way, and a
/// barrier at the layer's end: tens of microseconds on this 2-core VM, far more when the
/// machine is loaded and the worker waits for a core), while a state costs about 4-5 ns on
/// one thread. A layer of `n` states split over two threads saves at most about `2n` ns, so
/// below a few thousand states the fork-join costs more than it saves. On 3x3 this keeps 23
/// of the 32 layers (the narrow ends, 16% of the states) on one thread and shares the 9 wide
/// ones (9,529 to 24,047 states, 84%): before, every layer was shared and 2 threads measured
/// 0.95x of 1 thread (issue 26). Every layer of a 12-cell board past the first few is far
/// wider than this, so those builds are unchanged. The order of the blocks does not change
/// the result (each task writes only its own block), so the output is the same either way.
/// Measured in BENCHMARKS.md ("The 3x3 generator, 1 and 2 threads").
pub(crate) const SHARED_FROM: u64 = 8192;

/// What one task of a layer owns: a destination cell, its layer block (layer `d - 1` in, the
/// new layer out), its "came via" blocks and its distance bytes.
struct Job<'a> {
    cell: usize,
    layer: Marked,
    via: Vec<Marked>,
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
    // Layer `d` in the blocks of one colour, layer `d - 1` in the others.
    let mut layers: Vec<Marked> = (0..cells).map(|_| Marked::new(pairs)).collect();
    // `via[c][j]`: the states of `c`'s layer reached by its `j`th vertical incoming move.
    let mut via: Vec<Vec<Marked>> = verticals
        .iter()
        .map(|moves| moves.iter().map(|_| Marked::new(pairs)).collect())
        .collect();
    let mut blocks: Vec<&mut [u8]> = entries.chunks_mut(pairs).collect();

    let start = space.full_index(goal) as usize;
    let (start_cell, start_pair) = (start / (2 * pairs), (start % (2 * pairs)) >> 1);
    layers[start_cell].set(start_pair);
    blocks[start_cell][start_pair] = 0;
    // States of the current layer in each block: empty blocks are not expanded.
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
        let expand_job = |job: &mut Job| {
            let vertical = &verticals[job.cell];
            for (out, m) in job.via.iter_mut().zip(vertical) {
                out.clear();
                let size = usize::try_from(sizes[m.from]).expect("a layer that fits in memory");
                if size > 0 {
                    let came = via[m.from][m.back].bits.as_raw_slice();
                    let low = (parities.as_raw_slice(), flips[m.from]);
                    expand(space, m.window, (&layers[m.from], size), came, low, out);
                }
            }
            let mut sources: Vec<&Marked> = horizontals[job.cell]
                .iter()
                .filter(|&&from| sizes[from] > 0)
                .map(|&from| &layers[from])
                .collect();
            sources.extend(&job.via);
            claim(&sources, &mut job.layer, job.entries, depth)
        };
        let frontier: u64 = sizes.iter().sum();
        let reached: Vec<u64> = if frontier < SHARED_FROM || rayon::current_num_threads() == 1 {
            jobs.iter_mut().map(expand_job).collect()
        } else {
            jobs.par_iter_mut()
                .with_max_len(1)
                .map(expand_job)
                .collect()
        };
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

/// Sets in `out` (cleared) the successor, by the vertical move of `window`, of every state of
/// a source block's layer (`size` states) that did not come *from* the destination by the
/// opposite move (`came`): those successors are in the layer before, so skipping them halves
/// the work without a test. `low` is the pair parities and the flip that turns them into the
/// in-class low bit of the source block's tile ranks.
///
/// A sparse source is read through its marks, a dense one run by run where the move's runs
/// are long (see [`expand_runs`]), else word by word.
pub(crate) fn expand(
    space: &RankSpace,
    window: u32,
    (source, size): (&Marked, usize),
    came: &[u64],
    low: (&[u64], u64),
    out: &mut Marked,
) {
    let words = source.bits.as_raw_slice();
    let rotate = space.rotation(window);
    let (below, changes) = space.runs(window);
    let run = below as usize / 2;
    // The 64-pair pieces of all runs: what a run-by-run expansion costs.
    let pieces = source.bits.len() / run.max(1) * run.div_ceil(64);
    if size * SPARSE <= words.len() {
        expand_marked(rotate, source, came, low, out);
    } else if run >= RUN_MIN && size >= RUN_DENSITY * pieces {
        expand_runs(words, came, run, changes, out);
    } else {
        expand_swept(rotate, words, came, low, out);
    }
}

/// [`expand`] of every word of the source, one rotation per state; `out`'s marks are not kept.
fn expand_swept(
    rotate: impl Fn(u32) -> u32,
    source: &[u64],
    came: &[u64],
    low: (&[u64], u64),
    out: &mut Marked,
) {
    let bits = out.bits.as_raw_mut_slice();
    for (w, (&word, &came)) in source.iter().zip(came).enumerate() {
        expand_word::<false>(&rotate, w, word & !came, low, bits, &mut []);
    }
    out.unmarked = true;
}

/// [`expand`] of a sparse source block: only its marked words are read, one rotation per
/// state, and `out`'s marks are kept.
fn expand_marked(
    rotate: impl Fn(u32) -> u32,
    source: &Marked,
    came: &[u64],
    low: (&[u64], u64),
    out: &mut Marked,
) {
    let (words, bits) = (source.bits.as_raw_slice(), out.bits.as_raw_mut_slice());
    for_each_marked(&source.marks, |w| {
        expand_word::<true>(&rotate, w, words[w] & !came[w], low, bits, &mut out.marks);
    });
}

/// [`expand`] for a vertical move whose window's digits stay the same over runs of `run` pairs
/// (see [`RankSpace::runs`]; `changes` are the tile rank's changes, twice the pairs'): the
/// pairs of a run keep their order and their class bit, so a run of the source, less `came`,
/// is OR-ed into `out` shifted by its change, 64 pairs per operation, with no rotation;
/// `out`'s marks are not kept. On 3x3 the windows that start at the first two tiles (4 of the
/// 12 vertical moves) have runs of 60 and 12 pairs; on 3x4 runs reach 20,160 pairs.
fn expand_runs(source: &[u64], came: &[u64], run: usize, changes: &[i32], out: &mut Marked) {
    let pairs = out.bits.len();
    let out = {
        out.unmarked = true;
        out.bits.as_raw_mut_slice()
    };
    let mut from = 0;
    while from < pairs {
        for &change in changes {
            let to = from.wrapping_add_signed(change as isize / 2);
            let mut done = 0;
            while done < run {
                let len = (run - done).min(64);
                let bits = bits_at(source, from + done) & !bits_at(came, from + done);
                or_at(out, to + done, bits & (u64::MAX >> (64 - len)));
                done += len;
            }
            from += run;
        }
    }
}

/// The 64 bits of `words` from bit `at` on (zeros past the end).
#[inline(always)]
fn bits_at(words: &[u64], at: usize) -> u64 {
    let (w, shift) = (at / 64, at % 64);
    let high = words
        .get(w + 1)
        .map_or(0, |&next| (next << 1) << (63 - shift));
    (words[w] >> shift) | high
}

/// ORs `bits` into `words` from bit `at` on (bits past the end must be zero).
#[inline(always)]
fn or_at(words: &mut [u64], at: usize, bits: u64) {
    let (w, shift) = (at / 64, at % 64);
    words[w] |= bits << shift;
    if let Some(next) = words.get_mut(w + 1) {
        *next |= (bits >> 1) >> (63 - shift);
    }
}

/// Sets in `out` the successor of each pair of word `w` whose bit is set in `bits`, and with
/// `MARK` their words' marks in `marks`.
#[inline(always)]
fn expand_word<const MARK: bool>(
    rotate: &impl Fn(u32) -> u32,
    w: usize,
    mut bits: u64,
    (parities, flip): (&[u64], u64),
    out: &mut [u64],
    marks: &mut [u64],
) {
    if bits == 0 {
        return;
    }
    // Bit k: the low bit of the in-class tile rank of pair 64w + k.
    let low = parities[w] ^ flip;
    // `w * 128` is below the table's n! < 2^32 ranks; this runs for every word of a layer.
    #[allow(clippy::cast_possible_truncation)]
    let base = (w * 128) as u32;
    while bits != 0 {
        let k = bits.trailing_zeros();
        let perm = base + 2 * k + ((low >> k) & 1) as u32;
        let pair = (rotate(perm) >> 1) as usize;
        out[pair / 64] |= 1 << (pair % 64);
        if MARK {
            mark(marks, pair / 64);
        }
        bits &= bits - 1;
    }
}

/// Replaces `layer` (the block's layer before the current one) by the new layer: the union of
/// `sources` (successors of the current layer) minus the old layer; writes `depth` into the new
/// states' distance bytes, marks the new layer's words and returns how many states it has.
fn claim(sources: &[&Marked], layer: &mut Marked, entries: &mut [u8], depth: u8) -> u64 {
    // Where every source keeps its marks, only the words marked in a source or in the old
    // layer can change.
    let union = (!sources.iter().any(|s| s.unmarked)).then(|| {
        let mut union = layer.marks.clone();
        for source in sources {
            for (u, &m) in union.iter_mut().zip(&source.marks) {
                *u |= m;
            }
        }
        union
    });
    fn words<'a>(s: &&'a Marked) -> &'a [u64] {
        s.bits.as_raw_slice()
    }
    // A few sources (1 to 4), each cut to the layer's length, so the word loop indexes them
    // without a bounds check.
    let union = union.as_deref();
    match sources {
        [a] => claim_from(&[a].map(words), union, layer, entries, depth),
        [a, b] => claim_from(&[a, b].map(words), union, layer, entries, depth),
        [a, b, c] => claim_from(&[a, b, c].map(words), union, layer, entries, depth),
        [a, b, c, d] => claim_from(&[a, b, c, d].map(words), union, layer, entries, depth),
        _ => {
            let len = layer.bits.as_raw_slice().len();
            let all: Vec<u64> = (0..len)
                .map(|w| sources.iter().fold(0, |next, s| next | words(s)[w]))
                .collect();
            claim_from(&[&all], union, layer, entries, depth)
        }
    }
}

/// [`claim`] for `K` sources: the words marked in `union`, or every word without it.
#[inline(always)]
fn claim_from<const K: usize>(
    sources: &[&[u64]; K],
    union: Option<&[u64]>,
    layer: &mut Marked,
    entries: &mut [u8],
    depth: u8,
) -> u64 {
    let words = layer.bits.as_raw_mut_slice();
    let sources = sources.map(|source| &source[..words.len()]);
    let marks = &mut layer.marks;
    marks.fill(0);
    let fill = u64::from_le_bytes([depth; 8]);
    let mut reached = 0;
    let (len, bytes) = (words.len(), entries.len());
    let mut claim_word = |w: usize, dense: bool| {
        let next = sources.iter().fold(0, |next, source| next | source[w]);
        let new = next & !words[w];
        words[w] = new;
        if new != 0 {
            mark(marks, w);
            let chunk = &mut entries[64 * w..(64 * w + 64).min(bytes)];
            reached += write_depth(new, chunk, depth, fill, dense);
        }
    };
    match union {
        Some(union) => for_each_marked(union, |w| claim_word(w, false)),
        None => (0..len).for_each(|w| claim_word(w, true)),
    }
    reached
}

/// Writes `depth` into the bytes of `chunk` (64 distance bytes, fewer at a block's end) whose
/// bits are set in `new`; returns how many. A `dense` word is written 8 bytes at a time
/// without a branch per bit (a bit walk's exit is mispredicted on every word); a sparse one
/// bit by bit.
#[inline(always)]
pub(crate) fn write_depth(new: u64, chunk: &mut [u8], depth: u8, fill: u64, dense: bool) -> u64 {
    if let (true, Ok(chunk)) = (dense, <&mut [u8; 64]>::try_from(&mut *chunk)) {
        for (j, bytes) in chunk.chunks_exact_mut(8).enumerate() {
            let mask = SPREAD[((new >> (8 * j)) & 0xff) as usize];
            let old = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
            bytes.copy_from_slice(&((old & !mask) | (fill & mask)).to_le_bytes());
        }
        return new.count_ones() as u64;
    }
    // Counted while the bits are walked: a popcount would be emulated in a dozen
    // instructions on the baseline x86-64 target.
    let (mut bits, mut count) = (new, 0);
    while bits != 0 {
        chunk[bits.trailing_zeros() as usize] = depth;
        count += 1;
        bits &= bits - 1;
    }
    count
}

/// `SPREAD[b]`: byte `i` is 0xff where bit `i` of `b` is set, else 0.
const SPREAD: [u64; 256] = {
    let mut spread = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if (b >> i) & 1 == 1 {
                spread[b] |= 0xff << (8 * i);
            }
            i += 1;
        }
        b += 1;
    }
    spread
};

/// Counts the entries at each depth; unreached entries are not counted.
pub fn count_depths(entries: &[u8]) -> Vec<u64> {
    let mut counts = count_depths_all(entries);
    counts[UNREACHED as usize] = 0;
    let max = counts.iter().rposition(|&c| c > 0).unwrap_or(0);
    counts[..=max].to_vec()
}

/// Encodes a complete table file, header then body, from the generator's output, its
/// distances counted in `metric` moves (recorded in the header; tests, tools and the MTM
/// tables; [`Table::build`](crate::Table::build) writes the body in place instead).
pub fn encode(goal: &State, metric: Metric, distances: &Distances) -> Vec<u8> {
    let mut out = format::encode_header(goal, metric, &distances.entries, &distances.counts);
    out.extend_from_slice(&distances.entries);
    out
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
