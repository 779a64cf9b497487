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
//! A layer is one pass over the placements in rank order, a block at a time
//! (`PatternSpace::visit_block`: the placements sharing all tiles but the last two, so no
//! placement is unranked): a block whose frontier words are all zero is skipped by a few word
//! loads, and a successor's rank is the placement's plus the moved tile's rank change
//! (`RankDelta`: one place value for a horizontal move, `width - 1` table reads for a
//! vertical one), not ranked from scratch. The masks are packed into 64-bit words.
//!
//! Parallel with rayon over ranges of blocks. Writes go to any placement through atomic
//! `fetch_or`: set union does not depend on the order, and the thread that turns a visited
//! mask from zero to non-zero writes the layer number, which every thread would write the same,
//! so the output is identical for any number of threads. Each task reads and then clears only
//! its own range of the frontier, which no thread writes during the layer.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use super::delta::RankDelta;
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

/// One mask of `BITS` bits per placement (as narrow as the board's free cells allow), packed
/// `64 / BITS` to an atomic word. Why words: each layer scans the whole frontier array, and
/// a word of zeros (8 placements of an 8-tile 4x4 pattern) is one load; a `fetch_or` on a
/// word is the same one instruction as on a byte.
struct Masks<const BITS: u32> {
    words: Vec<AtomicU64>,
}

impl<const BITS: u32> Masks<BITS> {
    /// Placements per word.
    const LANES: usize = 64 / BITS as usize;
    /// One placement's bits.
    const LANE: u64 = u64::MAX >> (64 - BITS);

    fn zeroed(len: usize) -> Self {
        Masks {
            words: huge_vec(len.div_ceil(Self::LANES), || AtomicU64::new(0)),
        }
    }

    /// Where placement `i`'s lane is: its word and the lane's shift.
    // Below 64: no truncation.
    #[allow(clippy::cast_possible_truncation)]
    #[inline(always)]
    fn lane(i: usize) -> (usize, u32) {
        (i / Self::LANES, (i % Self::LANES) as u32 * BITS)
    }

    // A lane is at most 32 bits: no truncation.
    #[allow(clippy::cast_possible_truncation)]
    #[inline(always)]
    fn get(&self, i: usize) -> u32 {
        let (word, shift) = Self::lane(i);
        (self.words[word].load(Relaxed) >> shift & Self::LANE) as u32
    }

    /// ORs `bits` into placement `i`'s mask and returns the old mask.
    // A lane is at most 32 bits: no truncation.
    #[allow(clippy::cast_possible_truncation)]
    #[inline(always)]
    fn or(&self, i: usize, bits: u32) -> u32 {
        let (word, shift) = Self::lane(i);
        (self.words[word].fetch_or(u64::from(bits) << shift, Relaxed) >> shift & Self::LANE) as u32
    }

    /// Whether any placement of `start..end` has a bit set (a word-aligned superset of the
    /// range is read).
    #[inline(always)]
    fn any(&self, start: usize, end: usize) -> bool {
        self.words[start / Self::LANES..end.div_ceil(Self::LANES)]
            .iter()
            .any(|w| w.load(Relaxed) != 0)
    }

    /// Clears the placements `start..end`, `start` a multiple of [`Self::LANES`] and `end` one
    /// too or the array's end: whole words, so only the caller's own placements.
    fn clear(&self, start: usize, end: usize) {
        debug_assert_eq!(start % Self::LANES, 0);
        for w in &self.words[start / Self::LANES..end.div_ceil(Self::LANES)] {
            if w.load(Relaxed) != 0 {
                w.store(0, Relaxed);
            }
        }
    }
}

/// `len` values made by `make`, in memory the kernel is asked to back with huge pages
/// ([`crate::store::os::advise_huge_pages`]) before it is first written, in parallel.
pub(super) fn huge_vec<T: Send>(len: usize, make: impl Fn() -> T + Sync + Send) -> Vec<T> {
    let mut v = Vec::with_capacity(len);
    crate::store::os::advise_huge_pages(v.spare_capacity_mut());
    v.par_extend((0..len).into_par_iter().map(|_| make()));
    v
}

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
    if cells == free {
        // The usual case: the free cells are connected, one region holds them all.
        return (1 << count_cells(free)) - 1;
    }
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
    if bits == (1 << count_cells(free)) - 1 {
        return free;
    }
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
    if free > 16 && super::generate_compact::fits(space) {
        // 13 bytes a placement here against 3 there (6-6-6-6: 1.66 GB against 383 MB; a
        // 7-tile 5x5 pattern: 31 GB against 7.3 GB); the same codes.
        return super::generate_compact::codes(space, goal, progress);
    }
    mask_codes(space, goal, progress)
}

/// The memory [`codes`] takes for `space`, in bytes: its working arrays (the compact
/// generator's two state bytes and one code byte a placement, or the mask generator's three
/// masks and a code byte), which outweigh the encoded file made from the codes afterwards
/// (half a byte a placement, with the codes still held). What a build checks against the
/// machine before it starts.
pub fn memory_to_build(space: &PatternSpace) -> u64 {
    let free = space.board().cells() - space.tiles().len();
    let per_placement_bits: u64 = if free > 16 && super::generate_compact::fits(space) {
        24
    } else if free <= 8 {
        3 * 8 + 8
    } else if free <= 16 {
        3 * 16 + 8
    } else {
        3 * 32 + 8
    };
    // Afterwards: the codes (a byte) and the encoded file (half a byte), less than either.
    space.entries() * per_placement_bits.max(8 + 4) / 8
}

/// [`codes`] by the mask generator of this module, whatever the number of free cells (the
/// compact generator's tests compare the two).
pub(crate) fn mask_codes(
    space: &PatternSpace,
    goal: &State,
    progress: ProgressHook<'_>,
) -> Result<Vec<u8>, Cancelled> {
    let free = space.board().cells() - space.tiles().len();
    if free <= 8 {
        run::<8>(space, goal, progress)
    } else if free <= 16 {
        run::<16>(space, goal, progress)
    } else {
        run::<32>(space, goal, progress)
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
/// `home_cells(space, goal)[i]`: the cell of pattern tile `i` (in [`PatternSpace::tiles`]
/// order) in `goal`, the goal placement (the generators' start, the deep check's zero).
pub(super) fn home_cells(space: &PatternSpace, goal: &State) -> [u8; 32] {
    let mut home = [0u8; 32];
    for (i, &tile) in space.tiles().iter().enumerate() {
        home[i] = goal
            .cells()
            .iter()
            .position(|&t| t == tile)
            .map(|cell| u8::try_from(cell).expect("a board has at most 25 cells"))
            .expect("a tile");
    }
    home
}

/// One pattern move out of a placement's region: the successor's rank, what the generator
/// keeps for it as read before the moves are made (a visited mask, or region states), which
/// tile moved (its index in the pattern), from and to which cell.
#[derive(Clone, Copy, Default)]
pub(super) struct Step {
    pub(super) q: u32,
    pub(super) seen: u64,
    pub(super) tile: u8,
    pub(super) from: u8,
    pub(super) to: u8,
}

/// The most moves out of one region: four per pattern tile, and a pattern leaves at least
/// two of at most 25 cells free.
pub(super) const MAX_MOVES: usize = 4 * 23;

/// Writes into `moves` every move of a pattern tile of the placement `rank` (`cells`, `board`
/// as [`PatternSpace::visit_block`] gives them) into `region`, and returns how many: both
/// generators' expansion of one region, the successors' ranks carried by `delta`.
#[inline(always)]
pub(super) fn moves_into(
    geometry: &Geometry,
    delta: &RankDelta,
    tiles: &[u8],
    (rank, cells, board): (u32, &[u8], &[u8; 32]),
    region: u32,
    moves: &mut [Step; MAX_MOVES],
) -> usize {
    let mut count = 0;
    for (i, &cell) in cells.iter().enumerate() {
        let from = u32::from(cell);
        let mut targets = geometry.around[from as usize] & region;
        while targets != 0 {
            let to = targets.trailing_zeros();
            targets &= targets - 1;
            let q = rank.wrapping_add(delta.delta(board, tiles[i], from as usize, to as usize));
            // Cells below 25, tiles below 24: no truncation.
            #[allow(clippy::cast_possible_truncation)]
            let step = Step {
                q,
                seen: 0,
                tile: i as u8,
                from: from as u8,
                to: to as u8,
            };
            moves[count] = step;
            count += 1;
        }
    }
    count
}

/// Placements per parallel task, about (whole blocks of [`PatternSpace::block_len`]).
const CHUNK: u32 = 1 << 14;

/// Blocks per parallel task: about [`CHUNK`] placements, and a multiple of 8 blocks so that
/// every task starts on a word of any [`Masks`] (8, 4 or 2 placements a word) and owns its
/// frontier words alone.
pub(crate) fn blocks_per_task(space: &PatternSpace) -> u32 {
    (CHUNK / space.block_len()).next_multiple_of(8).max(8)
}

/// What both generators begin with: the pattern's cell geometry, its tiles' Manhattan rows,
/// the rank steps of its moves, and the goal placement (its rank and the cells it leaves
/// free, the blank's first region among them).
pub(super) struct Setup {
    pub(super) geometry: Geometry,
    pub(super) manhattan: Vec<[u8; 32]>,
    pub(super) entries: usize,
    pub(super) delta: RankDelta,
    pub(super) start: usize,
    pub(super) free_cells: u32,
}

impl Setup {
    pub(super) fn new(space: &PatternSpace, goal: &State) -> Setup {
        let geometry = Geometry::new(space);
        let entries = usize::try_from(space.entries()).expect("a database that fits in memory");
        let k = space.tiles().len();
        // A successor's rank is the placement's plus the moved tile's rank change.
        let n = space.board().cells();
        let identity: Vec<u8> =
            (0..u8::try_from(n).expect("a board has at most 25 cells")).collect();
        let delta = RankDelta::new(n, &[space.tiles().to_vec()], &identity, &identity);
        let home = home_cells(space, goal);
        let occupied = home[..k].iter().fold(0u32, |m, &c| m | 1 << c);
        Setup {
            manhattan: manhattan(space, goal),
            entries,
            delta,
            start: space.rank(&home[..k]) as usize,
            free_cells: geometry.all & !occupied,
            geometry,
        }
    }
}

/// The layer loop both generators run: layer after layer (`depth` 0, 1, ...), the blocks
/// split into tasks of [`blocks_per_task`] run in parallel, each `expand(depth, blocks)`
/// expanding that layer over its blocks and returning how many placements it reached first
/// and whether it put anything into the next layer. Reports after each layer; stops after a
/// layer that put nothing into the next.
///
/// # Errors
/// [`Cancelled`] when `progress` returns [`ControlFlow::Break`].
pub(super) fn run_layers(
    space: &PatternSpace,
    progress: ProgressHook<'_>,
    expand: impl Fn(u32, std::ops::Range<u32>) -> (u64, bool) + Sync,
) -> Result<(), Cancelled> {
    let blocks = space.blocks();
    let per_task = blocks_per_task(space);
    let mut reached = 1u64;
    let mut depth = 0u32;
    loop {
        let (found, pushed) = (0..blocks.div_ceil(per_task))
            .into_par_iter()
            .map(|task| {
                let first = task * per_task;
                expand(depth, first..first.saturating_add(per_task).min(blocks))
            })
            .reduce(|| (0, false), |a, b| (a.0 + b.0, a.1 || b.1));
        reached += found;
        depth += 1;
        let report = Progress {
            depth,
            reached,
            entries: space.entries(),
        };
        if progress(report).is_break() {
            return Err(Cancelled);
        }
        if !pushed {
            return Ok(());
        }
    }
}

/// The code of a placement first reached in layer `value` with the pattern's Manhattan
/// distance `md` there, capped below `none` (the byte of a placement not reached) so that it
/// fits a byte.
pub(super) fn code(value: u32, md: u32, none: u8) -> u8 {
    // Capped below a u8, so no truncation.
    #[allow(clippy::cast_possible_truncation)]
    let code = ((value - md) / 2).min(u32::from(none) - 1) as u8;
    code
}

/// The codes from the generator's code bytes: a placement never reached (`none`; only with
/// few free cells, where no solvable state has it) gets code 0, a lower bound as good as any.
pub(super) fn finished(values: Vec<AtomicU8>, none: u8) -> Vec<u8> {
    values
        .into_par_iter()
        .map(|v| match v.into_inner() {
            v if v == none => 0,
            v => v,
        })
        .collect()
}

fn run<const BITS: u32>(
    space: &PatternSpace,
    goal: &State,
    progress: ProgressHook<'_>,
) -> Result<Vec<u8>, Cancelled> {
    let Setup {
        geometry,
        manhattan,
        entries,
        delta,
        start,
        free_cells,
    } = Setup::new(space, goal);
    let k = space.tiles().len();
    let tiles = space.tiles();
    let visited = Masks::<BITS>::zeroed(entries);
    // The layer being expanded and the next, by the depth's parity.
    let frontiers = [
        Masks::<BITS>::zeroed(entries),
        Masks::<BITS>::zeroed(entries),
    ];
    let values: Vec<AtomicU8> = huge_vec(entries, || AtomicU8::new(UNREACHED));
    let region = geometry.flood(1 << goal.blank(), free_cells);
    visited.or(start, extract(region, free_cells));
    frontiers[0].or(start, extract(region, free_cells));
    values[start].store(0, Relaxed);
    let block_len = space.block_len() as usize;
    run_layers(space, progress, |depth, blocks| {
        let (layer, next) = (
            &frontiers[depth as usize % 2],
            &frontiers[1 - depth as usize % 2],
        );
        let value = depth + 1;
        let mut new = 0u64;
        let mut any_pushed = false;
        let mut moves = [Step::default(); MAX_MOVES];
        for block in blocks.clone() {
            let from_rank = block as usize * block_len;
            if !layer.any(from_rank, from_rank + block_len) {
                continue;
            }
            let _ = space.visit_block(block, |rank, cells, board, occupied| {
                let bits = layer.get(rank as usize);
                if bits == 0 {
                    return ControlFlow::<()>::Continue(());
                }
                let md: u32 = (0..k)
                    .map(|i| u32::from(manhattan[i][cells[i] as usize]))
                    .sum();
                let free = geometry.all & !occupied;
                let mut pending = deposit(bits, free);
                while pending != 0 {
                    let region = geometry.flood(pending & pending.wrapping_neg(), free);
                    pending &= !region;
                    // Every move into the region first, then their visited masks in one run of
                    // independent loads (the far ones miss the caches and overlap instead of
                    // waiting one by one), then the moves. A mask read early is a subset of the
                    // mask now (bits are only set), so it skips nothing that the `fetch_or`
                    // below would not.
                    let count = moves_into(
                        &geometry,
                        &delta,
                        tiles,
                        (rank, cells, board),
                        region,
                        &mut moves,
                    );
                    for m in &mut moves[..count] {
                        m.seen = u64::from(visited.get(m.q as usize));
                    }
                    for m in &moves[..count] {
                        let (q, tile) = (m.q as usize, usize::from(m.tile));
                        let (from, to) = (u32::from(m.from), u32::from(m.to));
                        let after = (free & !(1 << to)) | 1 << from;
                        let blank_bit = 1 << count_cells(after & ((1u32 << from) - 1));
                        if m.seen & blank_bit != 0 {
                            continue;
                        }
                        let reach = extract(geometry.flood(1 << from, after), after);
                        let old = visited.or(q, reach);
                        if old & reach != 0 {
                            continue;
                        }
                        next.or(q, reach);
                        any_pushed = true;
                        if old == 0 {
                            let md = md - u32::from(manhattan[tile][from as usize])
                                + u32::from(manhattan[tile][to as usize]);
                            values[q].store(code(value, md, UNREACHED), Relaxed);
                            new += 1;
                        }
                    }
                }
                ControlFlow::Continue(())
            });
        }
        // This task's frontier words are its own (`blocks_per_task`): cleared here, the array
        // is the next layer's empty `next`.
        layer.clear(
            blocks.start as usize * block_len,
            blocks.end as usize * block_len,
        );
        (new, any_pushed)
    })?;
    drop((visited, frontiers));
    Ok(finished(values, UNREACHED))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extract_and_deposit_are_inverse() {
        let free = 0b1011_0110_1101u32;
        for bits in 0..(1u32 << free.count_ones()) {
            let cells = deposit(bits, free);
            // Bit `i` of `bits` is the `i`-th cell of `free`, counted plainly.
            let plain = (0..32u32)
                .filter(|&c| free >> c & 1 == 1)
                .enumerate()
                .filter(|&(i, _)| bits >> i & 1 == 1)
                .fold(0u32, |m, (_, c)| m | 1 << c);
            assert_eq!(cells, plain);
            assert_eq!(cells & !free, 0);
            assert_eq!(extract(cells, free), bits);
        }
    }
}
