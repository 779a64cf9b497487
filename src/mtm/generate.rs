//! The MTM generator: a layered breadth-first search from the goal over its parity class,
//! where a move takes the blank any number of cells along its row or column.
//!
//! It works on the STM generator's representation (`crate::generate`): per blank cell a
//! *block* of bits, one per pair of tile ranks (the pair's in-class rank read from the pair
//! parities), with marks for the words that may be non-zero. What differs, and why:
//!
//! - A slide of two cells breaks the chessboard colouring the STM generator leans on (a
//!   layer's neighbours lie one layer before or after it), so this search keeps a *seen* bit
//!   set, one bit a state, and a new layer is "successors of layer `d`, minus seen".
//! - A horizontal slide of any length keeps the tile rank, as a horizontal step does, so the
//!   horizontal successors in block `c` are the OR of the layer's blocks of the other cells of
//!   `c`'s row: 64 states per word operation, no rank arithmetic.
//! - A vertical slide of `k` cells is `k` vertical steps, each a rotation of the tile rank
//!   ([`crate::generate`]'s `expand`, with its run-by-run and marked paths). Per column and
//!   direction the blocks are walked in the blank's direction of travel: the states the
//!   slide brings into a cell are the step of (the layer there, plus the states slid into it
//!   by this chain) minus seen. A state slid into a cell that was already seen need not go
//!   on: if it is older than the layer, every state one slide from it is seen; if it is in
//!   the layer, the layer's own step covers it.
//! - A state of the layer that the blank reached by a vertical slide into its cell is not
//!   slid vertically again, in either direction: back along its line, every state is one
//!   slide from the state it came from (in the layer before), and onwards, every state is
//!   that state's longer slide; so all are seen by the end of this layer. Each block keeps
//!   the states its layer got that way (the STM generator's "came via", one mask for both
//!   directions), so only the states reached horizontally (and the goal) start a chain.
//!
//! Each task owns what it writes: a chain (column and direction) its slid blocks, a claim
//! (destination cell) its seen block, its new layer block and its distance bytes; so the
//! layers run on rayon without atomics or locks and the bytes are the same for any thread
//! count. Narrow layers stay on the calling thread (`SHARED_FROM`, as in the STM generator).
//! The depth counts come from the layers' sizes.
//!
//! Memory: the distance bytes plus six bit sets of `n!/2` bits (seen, the layer and the
//! next, the layer's "came via", and the slid states per vertical direction): 240 MB +
//! 180 MB on 3x4.

use rayon::prelude::*;

use crate::generate::{
    class_flips, expand, for_each_marked, mark, pair_parities, write_depth, BuildOptions,
    Distances, Marked, SHARED_FROM, UNREACHED,
};
use crate::rank::RankSpace;
use crate::state::State;

/// The MTM distance of every state of `goal`'s parity class, by folded index.
///
/// # Panics
/// If `space` is not the goal's board's.
pub fn distances(space: &RankSpace, goal: &State, options: BuildOptions) -> Distances {
    // Every byte is written by the search (a zeroed allocation costs nothing until touched).
    let mut entries = vec![0; space.states() as usize];
    let counts = distances_into(space, goal, options, &mut entries);
    Distances { entries, counts }
}

/// Runs the MTM breadth-first search from `goal` and writes the MTM distance of each state of
/// its parity class into `entries` (by folded index); returns the count of states at each
/// depth. Every byte of `entries` is written, so a caller can generate straight into the body
/// of a file buffer.
///
/// # Panics
/// If `goal` is not on `space`'s board or `entries` is not `space.states()` bytes long.
pub fn distances_into(
    space: &RankSpace,
    goal: &State,
    options: BuildOptions,
    entries: &mut [u8],
) -> Vec<u64> {
    assert_eq!(
        space.board(),
        goal.board(),
        "the goal is on the space's board"
    );
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
    assert_eq!(
        counts.iter().sum::<u64>(),
        space.states() as u64,
        "the search reached every state of the class"
    );
    counts
}

/// The two vertical directions of the blank, as indices of the per-direction blocks.
const UP: usize = 0;
const DOWN: usize = 1;

/// One step of a vertical chain: the blank moves from cell `from` into cell `to`, rotating
/// the tile rank by `window`.
#[derive(Clone, Copy)]
struct Step {
    from: usize,
    to: usize,
    window: u32,
}

/// A chain: one column, one direction of the blank, its steps in the order the blank
/// travels (so each step's source was the previous step's destination).
struct Chain {
    direction: usize,
    steps: Vec<Step>,
}

/// The chains of `space`'s board: per column, the blank sliding up (from the bottom row) and
/// sliding down (from the top row).
fn chains(space: &RankSpace) -> Vec<Chain> {
    let (width, height) = (space.board().width(), space.board().height());
    let window = |from: usize, to: usize| -> u32 {
        space
            .incoming(to)
            .iter()
            .find(|&&(f, _)| f as usize == from)
            .and_then(|&(_, window)| window)
            .expect("a vertical step into a cell has a window")
    };
    let mut out = Vec::with_capacity(2 * width);
    for x in 0..width {
        let step = |from_row: usize, to_row: usize| {
            let (from, to) = (from_row * width + x, to_row * width + x);
            Step {
                from,
                to,
                window: window(from, to),
            }
        };
        out.push(Chain {
            direction: UP,
            steps: (1..height).rev().map(|r| step(r, r - 1)).collect(),
        });
        out.push(Chain {
            direction: DOWN,
            steps: (1..height).map(|r| step(r - 1, r)).collect(),
        });
    }
    out
}

/// What one chain task owns: its chain and, per step, the slid block it writes and the states
/// left in it.
struct ChainJob<'a> {
    chain: &'a Chain,
    out: Vec<(Marked, u64)>,
}

/// What one claim task owns: a destination cell, its block of the next layer, its seen block
/// and its distance bytes.
struct ClaimJob<'a> {
    cell: usize,
    layer: Marked,
    seen: Vec<u64>,
    came: Vec<u64>,
    entries: &'a mut [u8],
}

/// The search's bit sets, all indexed by blank cell.
struct Layers {
    /// The current layer, `d`.
    layer: Vec<Marked>,
    /// Its states per block.
    sizes: Vec<u64>,
    /// The states of the current layer the blank brought into their cell by a vertical slide.
    came: Vec<Vec<u64>>,
    /// Every state reached so far, layer `d` included.
    seen: Vec<Vec<u64>>,
}

/// The search; see the module documentation. Returns the count at each depth.
fn run(space: &RankSpace, goal: &State, entries: &mut [u8]) -> Vec<u64> {
    let board = space.board();
    let (cells, width) = (board.cells(), board.width());
    let pairs = space.perms() as usize / 2;
    let parities = pair_parities(space);
    let parities = parities.as_raw_slice();
    let flips = class_flips(space, goal);
    let chains = chains(space);
    let blocks = || (0..cells).map(|_| Marked::new(pairs)).collect::<Vec<_>>();
    let words = pairs.div_ceil(64);
    let zeros = vec![0u64; words];
    let mut now = Layers {
        layer: blocks(),
        sizes: vec![0; cells],
        came: vec![vec![0u64; words]; cells],
        seen: vec![vec![0u64; words]; cells],
    };
    // The next layer's blocks, written while `now` is read; swapped after each layer.
    let mut next_layer = blocks();
    let mut slid: [Vec<Marked>; 2] = [blocks(), blocks()];
    let mut slid_sizes = [vec![0u64; cells], vec![0u64; cells]];
    let mut out_blocks: Vec<&mut [u8]> = entries.chunks_mut(pairs).collect();

    let start = space.full_index(goal) as usize;
    let (start_cell, start_pair) = (start / (2 * pairs), (start % (2 * pairs)) >> 1);
    now.layer[start_cell].set(start_pair);
    now.seen[start_cell][start_pair / 64] |= 1 << (start_pair % 64);
    now.sizes[start_cell] = 1;
    out_blocks[start_cell][start_pair] = 0;
    let mut counts = vec![1u64];
    loop {
        let depth = u8::try_from(counts.len())
            .ok()
            .filter(|&d| d < UNREACHED)
            .expect("depth fits a byte");
        let shared = counts[counts.len() - 1] >= SHARED_FROM && rayon::current_num_threads() > 1;

        // 1. The vertical slides, a chain per column and direction.
        let mut chain_jobs: Vec<ChainJob> = chains
            .iter()
            .map(|chain| ChainJob {
                chain,
                out: chain
                    .steps
                    .iter()
                    .map(|s| (std::mem::take(&mut slid[chain.direction][s.to]), 0))
                    .collect(),
            })
            .collect();
        let run_chain = |job: &mut ChainJob| {
            for (i, step) in job.chain.steps.iter().enumerate() {
                let (before, rest) = job.out.split_at_mut(i);
                let (out, size) = &mut rest[0];
                out.clear();
                let low = (parities, flips[step.from]);
                let here = now.sizes[step.from];
                if here > 0 {
                    let came = &now.came[step.from];
                    let source = (&now.layer[step.from], to_usize(here));
                    expand(space, step.window, source, came, low, out);
                }
                if let Some((carried, carried_size)) = before.last() {
                    if *carried_size > 0 {
                        let source = (carried, to_usize(*carried_size));
                        expand(space, step.window, source, &zeros, low, out);
                    }
                }
                *size = keep_unseen(out, &now.seen[step.to]);
            }
        };
        if shared {
            chain_jobs
                .par_iter_mut()
                .with_max_len(1)
                .for_each(run_chain);
        } else {
            chain_jobs.iter_mut().for_each(run_chain);
        }
        for job in chain_jobs {
            for (step, (block, size)) in job.chain.steps.iter().zip(job.out) {
                slid[job.chain.direction][step.to] = block;
                slid_sizes[job.chain.direction][step.to] = size;
            }
        }

        // 2. The new layer per cell: horizontal slides from the other cells of its row, and
        // the vertical slides into it, minus seen.
        let mut claim_jobs: Vec<ClaimJob> = out_blocks
            .iter_mut()
            .enumerate()
            .map(|(cell, bytes)| ClaimJob {
                cell,
                layer: std::mem::take(&mut next_layer[cell]),
                seen: std::mem::take(&mut now.seen[cell]),
                came: std::mem::take(&mut now.came[cell]),
                entries: std::mem::take(bytes),
            })
            .collect();
        let claim_job = |job: &mut ClaimJob| {
            let cell = job.cell;
            let row = cell / width * width;
            let mut sources: Vec<&Marked> = Vec::with_capacity(width + 1);
            let mut size = 0;
            for other in (row..row + width).filter(|&c| c != cell && now.sizes[c] > 0) {
                sources.push(&now.layer[other]);
                size += now.sizes[other];
            }
            for direction in [UP, DOWN] {
                if slid_sizes[direction][cell] > 0 {
                    sources.push(&slid[direction][cell]);
                    size += slid_sizes[direction][cell];
                }
            }
            job.layer.clear();
            // The next layer's "came via": the vertical slides into this cell (all new).
            match [UP, DOWN]
                .map(|d| (slid_sizes[d][cell] > 0).then(|| slid[d][cell].bits.as_raw_slice()))
            {
                [None, None] => job.came.fill(0),
                [Some(one), None] | [None, Some(one)] => job.came.copy_from_slice(one),
                [Some(up), Some(down)] => {
                    for ((came, &u), &d) in job.came.iter_mut().zip(up).zip(down) {
                        *came = u | d;
                    }
                }
            }
            if sources.is_empty() {
                return 0;
            }
            let dense = to_usize(size) >= words;
            claim(
                &sources,
                &mut job.seen,
                &mut job.layer,
                job.entries,
                depth,
                dense,
            )
        };
        let reached: Vec<u64> = if shared {
            claim_jobs
                .par_iter_mut()
                .with_max_len(1)
                .map(claim_job)
                .collect()
        } else {
            claim_jobs.iter_mut().map(claim_job).collect()
        };
        for (job, n) in claim_jobs.into_iter().zip(reached) {
            next_layer[job.cell] = job.layer;
            now.seen[job.cell] = job.seen;
            now.came[job.cell] = job.came;
            out_blocks[job.cell] = job.entries;
            now.sizes[job.cell] = n;
        }
        std::mem::swap(&mut now.layer, &mut next_layer);
        let total: u64 = now.sizes.iter().sum();
        if total == 0 {
            break;
        }
        counts.push(total);
    }
    counts
}

/// A layer's size as an index (every layer fits in memory).
fn to_usize(n: u64) -> usize {
    usize::try_from(n).expect("a layer that fits in memory")
}

/// Clears in `out` the states `seen` holds, keeps its marks and returns how many are left.
fn keep_unseen(out: &mut Marked, seen: &[u64]) -> u64 {
    let Marked {
        bits,
        marks,
        unmarked,
    } = out;
    let words = bits.as_raw_mut_slice();
    let mut count = 0;
    if *unmarked {
        marks.fill(0);
        for (w, (word, &old)) in words.iter_mut().zip(seen).enumerate() {
            *word &= !old;
            if *word != 0 {
                mark(marks, w);
                count += u64::from(word.count_ones());
            }
        }
        *unmarked = false;
    } else {
        for_each_marked(marks, |w| {
            words[w] &= !seen[w];
            count += u64::from(words[w].count_ones());
        });
    }
    count
}

/// Writes into `layer` (cleared) the union of `sources` minus `seen`, adds it to `seen`,
/// writes `depth` into the new states' distance bytes and returns how many there are. Only
/// the words marked in some source are read; a `dense` layer's bytes are written 8 at a time.
fn claim(
    sources: &[&Marked],
    seen: &mut [u64],
    layer: &mut Marked,
    entries: &mut [u8],
    depth: u8,
    dense: bool,
) -> u64 {
    let mut union = sources[0].marks.clone();
    for source in &sources[1..] {
        for (u, &m) in union.iter_mut().zip(&source.marks) {
            *u |= m;
        }
    }
    fn words<'a>(s: &&'a Marked) -> &'a [u64] {
        s.bits.as_raw_slice()
    }
    match sources {
        [a] => claim_from(&[a].map(words), &union, seen, layer, entries, depth, dense),
        [a, b] => claim_from(
            &[a, b].map(words),
            &union,
            seen,
            layer,
            entries,
            depth,
            dense,
        ),
        [a, b, c] => claim_from(
            &[a, b, c].map(words),
            &union,
            seen,
            layer,
            entries,
            depth,
            dense,
        ),
        [a, b, c, d] => claim_from(
            &[a, b, c, d].map(words),
            &union,
            seen,
            layer,
            entries,
            depth,
            dense,
        ),
        _ => {
            let mut all = vec![0u64; seen.len()];
            for_each_marked(&union, |w| {
                all[w] = sources.iter().fold(0, |next, s| next | words(s)[w]);
            });
            claim_from(&[&all], &union, seen, layer, entries, depth, dense)
        }
    }
}

/// [`claim`] for `K` sources, over the words marked in `union`.
#[inline(always)]
fn claim_from<const K: usize>(
    sources: &[&[u64]; K],
    union: &[u64],
    seen: &mut [u64],
    layer: &mut Marked,
    entries: &mut [u8],
    depth: u8,
    dense: bool,
) -> u64 {
    let words = layer.bits.as_raw_mut_slice();
    let seen = &mut seen[..words.len()];
    let sources = sources.map(|source| &source[..words.len()]);
    let marks = &mut layer.marks;
    let fill = u64::from_le_bytes([depth; 8]);
    let bytes = entries.len();
    let mut reached = 0;
    for_each_marked(union, |w| {
        let next = sources.iter().fold(0, |next, source| next | source[w]);
        let new = next & !seen[w];
        if new != 0 {
            seen[w] |= new;
            words[w] = new;
            mark(marks, w);
            let chunk = &mut entries[64 * w..(64 * w + 64).min(bytes)];
            reached += write_depth(new, chunk, depth, fill, dense);
        }
    });
    reached
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::metric::for_each_mtm_move;

    /// The MTM distances by a plain breadth-first search over states, each slide found by
    /// [`for_each_mtm_move`] and ranked from scratch: the reference this generator must
    /// match byte for byte.
    fn plain(space: &RankSpace, goal: &State) -> Vec<u8> {
        let mut entries = vec![UNREACHED; space.states() as usize];
        entries[space.rank_unchecked(goal) as usize] = 0;
        let mut frontier = vec![*goal];
        let mut depth = 0;
        while !frontier.is_empty() {
            depth += 1;
            let mut next = Vec::new();
            for state in &frontier {
                for_each_mtm_move(state, |_, _, after| {
                    let at = &mut entries[space.rank_unchecked(after) as usize];
                    if *at == UNREACHED {
                        *at = depth;
                        next.push(*after);
                    }
                });
            }
            frontier = next;
        }
        entries
    }

    #[test]
    fn the_layers_match_a_plain_search_for_every_goal_blank_of_boards_up_to_ten_cells() {
        for (w, h) in [
            (2, 2),
            (3, 2),
            (2, 3),
            (4, 2),
            (2, 4),
            (5, 2),
            (2, 5),
            (3, 3),
        ] {
            let board = Board::new(w, h).unwrap();
            let space = RankSpace::new(board).unwrap();
            for blank in 0..board.cells() {
                let goal = State::canonical_goal(board, blank);
                let reference = plain(&space, &goal);
                for threads in [1, 2] {
                    let options = BuildOptions {
                        threads: Some(threads),
                    };
                    let built = distances(&space, &goal, options);
                    assert!(
                        built.entries == reference,
                        "{w}x{h} blank {blank}, {threads} threads"
                    );
                    assert_eq!(
                        built.counts,
                        crate::generate::count_depths(&built.entries),
                        "{w}x{h} blank {blank}"
                    );
                }
            }
        }
    }
}
