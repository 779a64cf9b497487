//! The additive pattern-database generator: a layered breadth-first search over placements of
//! the pattern tiles where only their moves cost 1.
//!
//! A search state is a placement and the *region* of the blank: the connected set of cells
//! the blank can reach through non-pattern cells, for free. Within a layer the blank's moves
//! are closed by a flood fill (bit masks: a few shifts per step), and a state is stored per
//! placement as a bit mask of the free cells its visited regions cover (indexed by the free
//! cells in order, so 8 pattern tiles on 16 cells need 8 bits a placement). A pattern tile
//! next to the region steps into it (cost 1); the blank is then where the tile was, and its
//! new region is flooded from there. The value of a placement is the first layer in which any
//! of its regions is reached: the minimum over blank positions, as an additive database needs.
//!
//! Three mask arrays (visited, this layer, the next) and one value byte per placement: for
//! 8 of 16 cells that is 4 x 519 MB, for 6 of 25 cells (19 free cells, 32-bit masks)
//! 13 x 127.5 MB.
//!
//! Parallel with rayon over ranges of placements. Writes go to any placement through atomic
//! `fetch_or`: set union does not depend on the order, and the thread that turns a visited
//! mask from zero to non-zero writes the layer number, which every thread would write the same,
//! so the output is identical for any number of threads.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use super::space::{count_cells, PatternSpace};
use crate::state::State;

/// What the generator reports after each layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The layer just finished (pattern moves from the goal).
    pub depth: u32,
    /// Placements whose value is known so far.
    pub reached: u64,
    /// All placements.
    pub entries: u64,
}

/// The caller stopped the build through its progress hook.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the pattern database build was cancelled")]
pub struct Cancelled;

/// A progress hook: called after each layer; [`ControlFlow::Break`] cancels the build.
pub type ProgressHook<'a> = &'a (dyn Fn(Progress) -> ControlFlow<()> + Sync);

/// A progress hook that never cancels and reports nothing.
pub fn no_progress(_: Progress) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// One mask per placement, as narrow as the board's free cells allow.
trait Masks: Sync + Send + Sized {
    fn zeroed(len: usize) -> Self;
    fn get(&self, i: usize) -> u32;
    /// ORs `bits` in and returns the old mask.
    fn or(&self, i: usize, bits: u32) -> u32;
    /// Returns the mask and clears it.
    fn take(&self, i: usize) -> u32;
}

macro_rules! masks {
    ($atomic:ty, $int:ty) => {
        impl Masks for Vec<$atomic> {
            fn zeroed(len: usize) -> Self {
                (0..len)
                    .into_par_iter()
                    .map(|_| <$atomic>::new(0))
                    .collect()
            }
            #[inline]
            fn get(&self, i: usize) -> u32 {
                self[i].load(Relaxed) as u32
            }
            #[inline]
            // The generator picks the narrowest type that holds every mask it will store, and
            // this runs for every move it tries: no check.
            #[allow(clippy::cast_possible_truncation)]
            fn or(&self, i: usize, bits: u32) -> u32 {
                self[i].fetch_or(bits as $int, Relaxed) as u32
            }
            #[inline]
            fn take(&self, i: usize) -> u32 {
                if self[i].load(Relaxed) == 0 {
                    0
                } else {
                    self[i].swap(0, Relaxed) as u32
                }
            }
        }
    };
}
masks!(AtomicU8, u8);
masks!(AtomicU16, u16);
masks!(AtomicU32, u32);

/// The board's cell masks, for flood fills (also the deep check's).
pub(crate) struct Geometry {
    width: u32,
    pub(crate) all: u32,
    /// Cells a one-step shift left (towards higher cells) may land on: not column 0.
    not_first_column: u32,
    /// Cells a one-step shift right may land on: not the last column.
    not_last_column: u32,
    /// The cells next to each cell.
    pub(crate) around: Vec<u32>,
}

impl Geometry {
    pub(crate) fn new(space: &PatternSpace) -> Geometry {
        let board = space.board();
        let (w, n) = (board.width(), board.cells());
        let mut g = Geometry {
            width: u32::try_from(w).expect("a side is at most 25"),
            all: u32::try_from((1u64 << n) - 1).expect("a board has at most 25 cells"),
            not_first_column: 0,
            not_last_column: 0,
            around: vec![0; n],
        };
        for cell in 0..n {
            if cell % w != 0 {
                g.not_first_column |= 1 << cell;
            }
            if cell % w != w - 1 {
                g.not_last_column |= 1 << cell;
            }
            for mv in crate::board::Move::ALL {
                if let Some(next) = board.step(cell, mv) {
                    g.around[cell] |= 1 << next;
                }
            }
        }
        g
    }

    /// The cells of `free` connected to `seed` (a subset of `free`).
    #[inline]
    pub(crate) fn flood(&self, seed: u32, free: u32) -> u32 {
        let mut region = seed;
        loop {
            let grown = (region
                | ((region << 1) & self.not_first_column)
                | ((region >> 1) & self.not_last_column)
                | (region << self.width)
                | (region >> self.width))
                & free;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

/// The bits of `cells` (a subset of `free`) renumbered by position among `free`'s cells.
#[inline]
fn extract(cells: u32, free: u32) -> u32 {
    let mut out = 0;
    let mut rest = cells;
    while rest != 0 {
        let c = rest.trailing_zeros();
        out |= 1 << count_cells(free & ((1u32 << c) - 1));
        rest &= rest - 1;
    }
    out
}

/// The inverse of [`extract`]: bit `i` of `bits` becomes the `i`-th cell of `free`.
#[inline]
fn deposit(bits: u32, free: u32) -> u32 {
    let mut out = 0;
    let mut f = free;
    let mut i = 0;
    while f != 0 && bits >> i != 0 {
        let c = f.trailing_zeros();
        if bits & (1 << i) != 0 {
            out |= 1 << c;
        }
        f &= f - 1;
        i += 1;
    }
    out
}

/// The code of each placement of `space`'s tiles, indexed by [`PatternSpace::rank`]: its
/// *value* is the fewest moves of pattern tiles that bring them from that placement to their
/// cells in `goal`, the blank anywhere it can get to for free (moves of other tiles cost
/// nothing), and its code is `(value - manhattan) / 2`, where `manhattan` is the pattern
/// tiles' Manhattan distance (each pattern move changes it by one, so the difference is even).
/// Codes are what the files store: they fit four bits where values would need eight. A
/// placement that no state reachable from `goal` has (possible with fewer than three free
/// cells) gets code 0, a lower bound as good as any.
///
/// `progress` is called after each layer, on the calling thread.
///
/// # Errors
/// [`Cancelled`] when `progress` returns [`ControlFlow::Break`].
///
/// # Panics
/// If `goal` is on another board than `space`.
pub fn codes(
    space: &PatternSpace,
    goal: &State,
    progress: ProgressHook<'_>,
) -> Result<Vec<u8>, Cancelled> {
    assert_eq!(space.board(), goal.board(), "the goal is on another board");
    let free = space.board().cells() - space.tiles().len();
    if free <= 8 {
        run::<Vec<AtomicU8>>(space, goal, progress)
    } else if free <= 16 {
        run::<Vec<AtomicU16>>(space, goal, progress)
    } else {
        run::<Vec<AtomicU32>>(space, goal, progress)
    }
}

/// Code byte of a placement not reached yet.
const UNREACHED: u8 = u8::MAX;

/// `manhattan(space, goal)[i][cell]`: the Manhattan distance of pattern tile `i` (in
/// [`PatternSpace::tiles`] order) from `cell` to its cell in `goal`.
pub(crate) fn manhattan(space: &PatternSpace, goal: &State) -> Vec<[u8; 32]> {
    let w = goal.board().width();
    space
        .tiles()
        .iter()
        .map(|&tile| {
            let home = goal
                .cells()
                .iter()
                .position(|&t| t == tile)
                .expect("a tile");
            let mut row = [0u8; 32];
            for (cell, d) in row.iter_mut().enumerate().take(goal.board().cells()) {
                let distance = (home / w).abs_diff(cell / w) + (home % w).abs_diff(cell % w);
                *d = u8::try_from(distance).expect("below 25 + 25");
            }
            row
        })
        .collect()
}
/// Placements per parallel task.
const CHUNK: usize = 1 << 14;

fn run<M: Masks>(
    space: &PatternSpace,
    goal: &State,
    progress: ProgressHook<'_>,
) -> Result<Vec<u8>, Cancelled> {
    let geometry = Geometry::new(space);
    let manhattan = manhattan(space, goal);
    let entries = usize::try_from(space.entries()).expect("a database that fits in memory");
    let k = space.tiles().len();
    let visited = M::zeroed(entries);
    let mut layer = M::zeroed(entries);
    let mut next = M::zeroed(entries);
    let values: Vec<AtomicU8> = (0..entries)
        .into_par_iter()
        .map(|_| AtomicU8::new(UNREACHED))
        .collect();

    let mut home = [0u8; 32];
    for (i, &tile) in space.tiles().iter().enumerate() {
        home[i] = goal
            .cells()
            .iter()
            .position(|&t| t == tile)
            .map(|cell| u8::try_from(cell).expect("a board has at most 25 cells"))
            .expect("a tile");
    }
    let start = space.rank(&home[..k]) as usize;
    let occupied = home[..k].iter().fold(0u32, |m, &c| m | 1 << c);
    let free_cells = geometry.all & !occupied;
    let region = geometry.flood(1 << goal.blank(), free_cells);
    visited.or(start, extract(region, free_cells));
    layer.or(start, extract(region, free_cells));
    values[start].store(0, Relaxed);
    let mut reached = 1u64;
    let mut depth = 0u32;
    loop {
        let found = AtomicU64::new(0);
        let value = depth + 1;
        (0..entries.div_ceil(CHUNK))
            .into_par_iter()
            .for_each(|chunk| {
                let mut cells = [0u8; 32];
                let mut new = 0u64;
                for p in chunk * CHUNK..((chunk + 1) * CHUNK).min(entries) {
                    let bits = layer.take(p);
                    if bits == 0 {
                        continue;
                    }
                    // p < entries, a u32 count; this is the generator's inner loop.
                    #[allow(clippy::cast_possible_truncation)]
                    let rank = p as u32;
                    space.unrank(rank, &mut cells);
                    let occupied = cells[..k].iter().fold(0u32, |m, &c| m | 1 << c);
                    let free = geometry.all & !occupied;
                    let mut pending = deposit(bits, free);
                    while pending != 0 {
                        let region = geometry.flood(pending & pending.wrapping_neg(), free);
                        pending &= !region;
                        for i in 0..k {
                            let from = cells[i];
                            let mut targets = geometry.around[from as usize] & region;
                            while targets != 0 {
                                let to = targets.trailing_zeros();
                                targets &= targets - 1;
                                // `to` is a cell (a trailing zero count of a 25-bit mask).
                                #[allow(clippy::cast_possible_truncation)]
                                let to_cell = to as u8;
                                let q = space.rank_with(&cells[..k], i, to_cell) as usize;
                                let after = (free & !(1 << to)) | 1 << from;
                                let blank_bit = 1 << count_cells(after & ((1u32 << from) - 1));
                                if visited.get(q) & blank_bit != 0 {
                                    continue;
                                }
                                let reach = extract(geometry.flood(1 << from, after), after);
                                let old = visited.or(q, reach);
                                if old & reach != 0 {
                                    continue;
                                }
                                next.or(q, reach);
                                if old == 0 {
                                    let md: u32 = (0..k)
                                        .map(|j| {
                                            let c = if j == i {
                                                to as usize
                                            } else {
                                                cells[j] as usize
                                            };
                                            u32::from(manhattan[j][c])
                                        })
                                        .sum();
                                    let code = (value - md) / 2;
                                    // Capped below UNREACHED, so it fits a u8.
                                    #[allow(clippy::cast_possible_truncation)]
                                    let code = code.min(u32::from(UNREACHED) - 1) as u8;
                                    values[q].store(code, Relaxed);
                                    new += 1;
                                }
                            }
                        }
                    }
                }
                found.fetch_add(new, Relaxed);
            });
        let found = found.into_inner();
        let any_next = (0..entries.div_ceil(CHUNK))
            .into_par_iter()
            .any(|c| (c * CHUNK..((c + 1) * CHUNK).min(entries)).any(|p| next.get(p) != 0));
        reached += found;
        depth += 1;
        std::mem::swap(&mut layer, &mut next);
        let report = Progress {
            depth,
            reached,
            entries: entries as u64,
        };
        if progress(report).is_break() {
            return Err(Cancelled);
        }
        if !any_next {
            break;
        }
    }
    drop((visited, layer, next));
    // With few free cells some placements cannot be reached from the goal (no solvable state
    // has them); code 0 is a lower bound for those as for anything.
    Ok(values
        .into_par_iter()
        .map(|v| match v.into_inner() {
            UNREACHED => 0,
            v => v,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extract_and_deposit_are_inverse() {
        let free = 0b1011_0110_1101u32;
        for bits in 0..(1u32 << free.count_ones()) {
            let cells = deposit(bits, free);
            assert_eq!(cells & !free, 0);
            assert_eq!(extract(cells, free), bits);
        }
    }
}
