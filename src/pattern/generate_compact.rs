//! The pattern-database generator for large patterns: two bits per blank region.
//!
//! It computes exactly what [`super::generate`]'s mask generator computes (the same layered
//! search over placements and the blank's regions, the same codes), in a fifth of the memory.
//! Why: the mask generator keeps three masks over the free cells and a code byte per placement,
//! 13 bytes a placement once more than 16 cells are free; for a 7-tile pattern of the 5x5
//! board (2,422,728,000 placements) that is 31 GB. Here a placement's regions are numbered by
//! their lowest cell, and each region has a two-bit state:
//!
//! - `11` not reached,
//! - `01` or `10` reached in the layer being expanded or the one being found (the two swap
//!   roles every layer),
//! - `00` expanded (and the slots past a placement's last region, from when it is first
//!   reached: a move into a placement with no region left unreached is then skipped without
//!   finding which region the blank lands in).
//!
//! Eight regions in 16 bits a placement, plus the code byte: 3 bytes a placement, 7.3 GB for
//! 7 tiles of 25 cells (6-6-6-6's patterns: 383 MB against 1.66 GB). Every change of a state
//! clears bits (`11` to `01`/`10` to `00`), so it is one atomic `fetch_and`, whichever thread
//! makes it and in whatever order: the output is identical for any number of threads. A layer
//! scans the states four placements to a 64-bit word; a word without the layer's code is
//! skipped by a few bit operations.
//!
//! Why eight regions is enough is checked before the search, not assumed: the most regions
//! any set of `k` occupied cells leaves on the board (every `k`-subset of cells tried; at most
//! a few million flood fills) must be at most eight, else [`fits`] says no and the mask
//! generator runs instead. On the 5x5 board 7 tiles leave at most 6 regions.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

use super::generate::{
    code, finished, huge_vec, moves_into, run_layers, Cancelled, Geometry, ProgressHook, Setup,
    Step, MAX_MOVES,
};
use super::space::PatternSpace;
use crate::state::State;

/// Regions a placement may have: two bits each in a `u16`.
const SLOTS: u32 = 8;

/// A region not reached yet.
const UNREACHED: u64 = 0b11;

/// Code byte of a placement not reached yet (as in the mask generator).
const NO_CODE: u8 = u8::MAX;

/// Every placement's region states, four placements to a word.
struct RegionStates {
    words: Vec<AtomicU64>,
}

/// Bit 0 of every two-bit lane of a word.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

impl RegionStates {
    fn unreached(entries: usize) -> RegionStates {
        RegionStates {
            words: huge_vec(entries.div_ceil(4), || AtomicU64::new(u64::MAX)),
        }
    }

    #[inline(always)]
    fn place(i: usize) -> (usize, u32) {
        // Below 64: no truncation.
        #[allow(clippy::cast_possible_truncation)]
        let shift = (i % 4) as u32 * 16;
        (i / 4, shift)
    }

    /// Placement `i`'s sixteen bits.
    #[inline(always)]
    fn get(&self, i: usize) -> u64 {
        let (word, shift) = Self::place(i);
        self.words[word].load(Relaxed) >> shift & 0xFFFF
    }

    /// ANDs `mask` (sixteen bits) into placement `i`'s states; returns the old ones.
    #[inline(always)]
    fn and(&self, i: usize, mask: u64) -> u64 {
        let (word, shift) = Self::place(i);
        let keep = !(0xFFFF << shift) | mask << shift;
        self.words[word].fetch_and(keep, Relaxed) >> shift & 0xFFFF
    }

    /// Whether a placement of `start..end` has a region in state `code` (a word-aligned
    /// superset of the range is read).
    #[inline(always)]
    fn any(&self, start: usize, end: usize, code: u64) -> bool {
        self.words[start / 4..end.div_ceil(4)]
            .iter()
            .any(|w| lanes_equal(w.load(Relaxed), code) != 0)
    }
}

/// Bit `2j` set where lane `j` of `word` holds `code`.
#[inline(always)]
fn lanes_equal(word: u64, code: u64) -> u64 {
    let x = word ^ (code * LOW_BITS);
    !(x | x >> 1) & LOW_BITS
}

/// The index of the region of `free` that holds `cell`: how many regions have their lowest
/// cell below its lowest cell.
#[inline]
fn region_index(geometry: &Geometry, cell: u32, free: u32) -> u32 {
    let region = geometry.flood(1 << cell, free);
    if region == free {
        return 0;
    }
    let mut below = free & ((region & region.wrapping_neg()) - 1);
    let mut index = 0;
    while below != 0 {
        below &= !geometry.flood(below & below.wrapping_neg(), free);
        index += 1;
    }
    index
}

/// The mask that keeps the states of `free`'s regions and marks the slots past them done.
#[inline]
fn regions_mask(geometry: &Geometry, free: u32) -> u64 {
    let mut rest = free;
    let mut regions = 0;
    while rest != 0 {
        rest &= !geometry.flood(rest & rest.wrapping_neg(), free);
        regions += 1;
    }
    (1u64 << (2 * regions)) - 1
}

/// The most regions that `k` occupied cells leave free on `space`'s board, over every set of
/// `k` cells.
fn most_regions(space: &PatternSpace) -> u32 {
    let geometry = Geometry::new(space);
    let k = space.tiles().len();
    let mut most = 0;
    // Every k-subset of n cells, in increasing order (Gosper's hack).
    let mut set: u32 = (1u32 << k) - 1;
    while set <= geometry.all {
        let mut rest = geometry.all & !set;
        let mut regions = 0;
        while rest != 0 {
            rest &= !geometry.flood(rest & rest.wrapping_neg(), geometry.all & !set);
            regions += 1;
        }
        most = most.max(regions);
        let low = set & set.wrapping_neg();
        let ripple = set + low;
        if ripple > geometry.all || ripple == 0 {
            break;
        }
        set = (((ripple ^ set) >> 2) / low) | ripple;
    }
    most
}

/// Whether this generator serves `space`: its placements have at most eight regions.
pub(crate) fn fits(space: &PatternSpace) -> bool {
    most_regions(space) <= SLOTS
}

/// The codes of [`super::generate::codes`], computed in two bits per region. The caller has
/// checked [`fits`].
pub(crate) fn codes(
    space: &PatternSpace,
    goal: &State,
    progress: ProgressHook<'_>,
) -> Result<Vec<u8>, Cancelled> {
    debug_assert!(fits(space));
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
    let states = RegionStates::unreached(entries);
    let values: Vec<AtomicU8> = huge_vec(entries, || AtomicU8::new(NO_CODE));
    let blank = u32::try_from(goal.blank()).expect("a board has at most 25 cells");
    let first = region_index(&geometry, blank, free_cells);
    // Layer 0 is found in state 01.
    states.and(start, !(0b10 << (2 * first)) & 0xFFFF);
    states.and(start, regions_mask(&geometry, free_cells));
    values[start].store(0, Relaxed);
    let block_len = space.block_len() as usize;
    run_layers(space, progress, |depth, blocks| {
        // The layer expanded is in state `now`, the one found goes to `found_in`.
        let (now, found_in) = if depth.is_multiple_of(2) {
            (0b01u64, 0b10u64)
        } else {
            (0b10, 0b01)
        };
        let value = depth + 1;
        let mut new = 0u64;
        let mut any_pushed = false;
        let mut moves = [Step::default(); MAX_MOVES];
        for block in blocks {
            let from_rank = block as usize * block_len;
            if !states.any(from_rank, from_rank + block_len, now) {
                continue;
            }
            let _ = space.visit_block(block, |rank, cells, board, occupied| {
                let mut layer = lanes_equal(states.get(rank as usize), now) & 0xFFFF;
                if layer == 0 {
                    return ControlFlow::<()>::Continue(());
                }
                let md: u32 = (0..k)
                    .map(|i| u32::from(manhattan[i][cells[i] as usize]))
                    .sum();
                let free = geometry.all & !occupied;
                let done = !(layer | layer << 1) & 0xFFFF;
                // The regions in order of their lowest cells, up to the last one expanded.
                let mut rest = free;
                let mut index = 0;
                while layer != 0 {
                    let region = geometry.flood(rest & rest.wrapping_neg(), free);
                    rest &= !region;
                    let this = layer & 1;
                    layer >>= 2;
                    index += 1;
                    if this == 0 {
                        continue;
                    }
                    // Every move into the region first, then their states in one run of
                    // independent loads, then the moves (as the mask generator).
                    let count = moves_into(
                        &geometry,
                        &delta,
                        tiles,
                        (rank, cells, board),
                        region,
                        &mut moves,
                    );
                    for m in &mut moves[..count] {
                        m.seen = states.get(m.q as usize);
                    }
                    for m in &moves[..count] {
                        let (q, tile) = (m.q as usize, usize::from(m.tile));
                        let (from, to) = (u32::from(m.from), u32::from(m.to));
                        // Every region of the successor reached (its regions past the last
                        // are marked done when it is first reached): nothing to find there,
                        // and no flood fill to tell which region.
                        if lanes_equal(m.seen, UNREACHED) == 0 {
                            continue;
                        }
                        let after = (free & !(1 << to)) | 1 << from;
                        let slot = 2 * region_index(&geometry, from, after);
                        // Read before this layer's writes: a region seen reached was, and one
                        // seen unreached can only have been found since, in this layer, in
                        // the same state.
                        if m.seen >> slot & 0b11 != UNREACHED {
                            continue;
                        }
                        let old = states.and(q, !((found_in ^ 0b11) << slot) & 0xFFFF);
                        if old >> slot & 0b11 != UNREACHED {
                            continue;
                        }
                        any_pushed = true;
                        if old == 0xFFFF {
                            states.and(q, regions_mask(&geometry, after));
                            let md = md - u32::from(manhattan[tile][from as usize])
                                + u32::from(manhattan[tile][to as usize]);
                            values[q].store(code(value, md, NO_CODE), Relaxed);
                            new += 1;
                        }
                    }
                }
                debug_assert!(index <= SLOTS);
                // The regions just expanded are done.
                states.and(rank as usize, done);
                ControlFlow::Continue(())
            });
        }
        (new, any_pushed)
    })?;
    drop(states);
    Ok(finished(values, NO_CODE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn lanes_equal_finds_each_code() {
        let word = 0b11_10_01_00u64 | 0b01 << 40;
        assert_eq!(lanes_equal(word, 0b00) & 0xFF, 0b00_00_00_01);
        assert_eq!(lanes_equal(word, 0b01), 0b00_00_01_00 | 1 << 40);
        assert_eq!(lanes_equal(word, 0b10), 0b00_01_00_00);
        assert_eq!(lanes_equal(word, 0b11) & 0xFF, 0b01_00_00_00);
    }

    #[test]
    fn regions_are_numbered_by_their_lowest_cell() {
        let space = PatternSpace::new(Board::new(4, 4).unwrap(), &[1]).unwrap();
        let g = Geometry::new(&space);
        // Cells 1 and 4 taken: cell 0 is walled in (region 0), the rest is region 1.
        let free = g.all & !(1 << 1 | 1 << 4);
        assert_eq!(region_index(&g, 0, free), 0);
        assert_eq!(region_index(&g, 2, free), 1);
        assert_eq!(region_index(&g, 15, free), 1);
        // Cells 2, 7 and 11 wall in 3 (region 1 of three: 0..=1 and the rest are one).
        let free = g.all & !(1 << 2 | 1 << 7 | 1 << 11 | 1 << 6);
        assert_eq!(region_index(&g, 3, free), 1);
        assert_eq!(region_index(&g, 0, free), 0);
    }

    /// The bound the generator relies on, by brute force over every set of cells.
    #[test]
    fn seven_tiles_leave_at_most_six_regions_on_5x5_and_eight_tiles_eight_on_4x4() {
        let five = PatternSpace::new(Board::new(5, 5).unwrap(), &[1, 2, 3, 4, 5, 6, 7]).unwrap();
        assert_eq!(most_regions(&five), 6);
        let four = PatternSpace::new(Board::new(4, 4).unwrap(), &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        assert_eq!(most_regions(&four), 8);
        let nine =
            PatternSpace::new(Board::new(4, 4).unwrap(), &[1, 2, 3, 4, 5, 6, 7, 8, 9]).unwrap();
        assert_eq!(most_regions(&nine), 7);
        assert!(fits(&five) && fits(&four) && fits(&nine));
    }

    /// Both generators, every code equal, on patterns whose placements have one region and
    /// patterns that wall cells in (several regions, the blank's region not the first).
    #[test]
    fn the_same_codes_as_the_mask_generator() {
        let cases: &[(usize, usize, usize, &[u8])] = &[
            (3, 3, 0, &[1, 2, 3]),
            (3, 3, 8, &[1, 3, 5, 7]),
            (4, 3, 0, &[1, 2, 4, 5, 6]),
            (4, 4, 0, &[1, 4, 2, 8]),
            (4, 4, 15, &[1, 2, 3, 4, 5, 6]),
            (4, 4, 0, &[4, 5, 8, 9, 12, 13]),
            (4, 4, 5, &[1, 4, 6, 9, 11]),
            (5, 5, 0, &[1, 5, 2, 10, 6]),
            (5, 5, 24, &[1, 5, 18, 22, 23]),
            (5, 5, 12, &[7, 11, 13, 17]),
        ];
        for &(w, h, blank, tiles) in cases {
            let goal = State::canonical_goal(Board::new(w, h).unwrap(), blank);
            let space = PatternSpace::new(goal.board(), tiles).unwrap();
            assert!(fits(&space));
            let no = &super::super::generate::no_progress;
            let compact = codes(&space, &goal, no).unwrap();
            let masks = super::super::generate::mask_codes(&space, &goal, no).unwrap();
            assert_eq!(compact.len(), masks.len());
            if let Some(i) = (0..compact.len()).find(|&i| compact[i] != masks[i]) {
                panic!(
                    "{w}x{h} blank {blank} tiles {tiles:?}: entry {i} is {} here, {} by masks",
                    compact[i], masks[i]
                );
            }
            assert!(compact.iter().any(|&c| c > 0), "{tiles:?}: every code 0");
        }
    }
}
