//! The MTM generator: a breadth-first search from the goal over its parity class, where a
//! move takes the blank any number of cells along its row or column.
//!
//! The STM generator (`crate::generate`) relies on every move changing the blank's
//! chessboard colour (a layer's neighbours lie one layer before or after it), which a
//! two-cell slide breaks. So this is a separate neighbour expansion over the same folded
//! indices ([`RankSpace::rank_unchecked`]) and the same body layout: a frontier of full indices, each
//! slide found by repeating one single-cell move with the rank arithmetic
//! ([`RankSpace::for_each_neighbour`]; no state is unranked). Chunks of the frontier run on
//! rayon and return the unreached neighbours they saw; those are claimed in frontier order,
//! so the output is identical for any thread count.

use rayon::prelude::*;

use crate::board::Move;
use crate::generate::{BuildOptions, Distances, UNREACHED};
use crate::rank::RankSpace;
use crate::state::State;

/// Frontier indices expanded before their unreached neighbours are claimed: bounds the
/// memory of the neighbour lists (at most 5 a state on 12 cells).
const SEGMENT: usize = 1 << 20;

/// Frontier indices per rayon task.
const CHUNK: usize = 4096;

/// The MTM distance of every state of `goal`'s parity class, by folded index.
///
/// # Panics
/// If `space` is not the goal's board's.
pub fn distances(space: &RankSpace, goal: &State, options: BuildOptions) -> Distances {
    assert_eq!(
        space.board(),
        goal.board(),
        "the goal is on the space's board"
    );
    match options.threads {
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .expect("a rayon pool of a few threads can always be built")
            .install(|| run(space, goal)),
        None => run(space, goal),
    }
}

/// The full index one single-cell move `mv` from `full`, if the blank can make it.
#[inline]
fn step(space: &RankSpace, full: u32, mv: Move) -> Option<u32> {
    let mut next = None;
    space.for_each_neighbour(full, |m, n| {
        if m == mv {
            next = Some(n);
        }
    });
    next
}

fn run(space: &RankSpace, goal: &State) -> Distances {
    let mut entries = vec![UNREACHED; space.states() as usize];
    let start = space.full_index(goal);
    entries[(start >> 1) as usize] = 0;
    let mut frontier = vec![start];
    let mut counts = vec![1u64];
    let mut depth = 0u8;
    loop {
        let mut next = Vec::new();
        for segment in frontier.chunks(SEGMENT) {
            let seen: Vec<Vec<u32>> = segment
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let mut out = Vec::new();
                    for &full in chunk {
                        space.for_each_neighbour(full, |mv, first| {
                            let mut at = Some(first);
                            while let Some(j) = at {
                                if entries[(j >> 1) as usize] == UNREACHED {
                                    out.push(j);
                                }
                                at = step(space, j, mv);
                            }
                        });
                    }
                    out
                })
                .collect();
            for j in seen.into_iter().flatten() {
                let entry = &mut entries[(j >> 1) as usize];
                if *entry == UNREACHED {
                    *entry = depth + 1;
                    next.push(j);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        depth += 1;
        counts.push(next.len() as u64);
        frontier = next;
    }
    Distances { entries, counts }
}
