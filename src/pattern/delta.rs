//! How one move changes the rank of the moved tile's pattern, so that a search can carry every
//! pattern's rank from node to node instead of ranking the pattern again (`k` popcounts and a
//! gather of `k` cells per lookup).
//!
//! The rank of [`PatternSpace`](super::PatternSpace) is mixed radix: digit `i` is the cell of
//! pattern tile `i` less the number of earlier pattern tiles on lower cells. When tile `i` moves
//! from cell `a` up to cell `b > a`, only the cells strictly between `a` and `b` matter:
//!
//! - digit `i` grows by `b - a`, less one for each earlier pattern tile between them (they are
//!   now below it);
//! - digit `j > i` grows by one for each later pattern tile between them (tile `i` was below
//!   it and no longer is); tiles outside `(a, b)` keep their digits.
//!
//! A move to a lower cell is the same change negated. A horizontal move passes no cell, so the
//! rank changes by one weight; a vertical move passes `width - 1` cells, each read from the
//! state and looked up in a per-tile-pair table.
//!
//! The same arithmetic serves the reflected lookups: the reflected position ranks the mirror
//! tile's pattern with cells numbered in the reflected order, so a [`RankDelta`] is built over
//! a cell numbering and a tile relabelling (both the identity for the plain lookups).

use crate::board::MAX_CELLS;

/// A tile no pattern holds.
pub(crate) const NO_PATTERN: u8 = u8::MAX;

/// Table side: every cell and tile number (below [`MAX_CELLS`]) masked with `SIDE - 1` stays
/// itself, and the mask lets the compiler drop the bounds checks of the inner loop.
const SIDE: usize = 32;
const _: () = assert!(MAX_CELLS <= SIDE && SIDE.is_power_of_two());

/// The rank changes of one set of disjoint patterns under single moves, on one board, for one
/// cell numbering.
#[derive(Clone, Debug)]
pub(crate) struct RankDelta {
    /// `number[cell]`: the cell's number in the order the ranks count cells in.
    number: [u8; SIDE],
    /// `cell_of[number]`: the cell with that number (the inverse of `number`).
    cell_of: [u8; SIDE],
    /// `pattern[tile]`: the index of the pattern whose rank the tile's moves change, or
    /// [`NO_PATTERN`].
    pattern: [u8; SIDE],
    /// `weight[tile]`: the place value of the tile's digit in its pattern's rank.
    weight: [u32; SIDE],
    /// `passed[tile][other]`: the change of `tile`'s pattern rank, beyond its own digit's
    /// `weight * distance`, when `tile` moves to a higher number past `other`.
    passed: [[i32; SIDE]; SIDE],
}

impl RankDelta {
    /// The rank changes for `patterns` (each a pattern's tiles in rank order, increasing, as
    /// [`PatternSpace::tiles`](super::PatternSpace::tiles)) on a board of `cells` cells.
    ///
    /// The state's cells are numbered by `number` (a permutation of `0..cells`) and its tiles
    /// relabelled by `relabel` (tile `t` of the state is tile `relabel[t]` of the patterns)
    /// before ranking: the identity for the plain lookups, the reflection for the reflected
    /// ones.
    pub(crate) fn new(
        cells: usize,
        patterns: &[Vec<u8>],
        number: &[u8],
        relabel: &[u8],
    ) -> RankDelta {
        assert!(cells <= MAX_CELLS && number.len() >= cells && relabel.len() >= cells);
        let mut delta = RankDelta {
            number: [0; SIDE],
            cell_of: [0; SIDE],
            pattern: [NO_PATTERN; SIDE],
            weight: [0; SIDE],
            passed: [[0; SIDE]; SIDE],
        };
        for (cell, &n) in number.iter().enumerate().take(cells) {
            delta.number[cell] = n;
            delta.cell_of[n as usize] = u8::try_from(cell).expect("a board has at most 25 cells");
        }
        // Per pattern label: (pattern, digit index, place value).
        let mut digit = [None; SIDE];
        for (p, tiles) in patterns.iter().enumerate() {
            let k = tiles.len();
            for (i, &tile) in tiles.iter().enumerate() {
                let weight: u32 = (i + 1..k)
                    .map(|l| u32::try_from(cells - l).expect("at most 25"))
                    .product();
                digit[tile as usize] = Some((p, i, weight));
            }
        }
        for tile in 0..cells {
            let Some((p, i, weight)) = digit[relabel[tile] as usize] else {
                continue;
            };
            delta.pattern[tile] = u8::try_from(p).expect("at most MAX_PATTERNS patterns");
            delta.weight[tile] = weight;
            for other in 0..cells {
                delta.passed[tile][other] = match digit[relabel[other] as usize] {
                    Some((q, j, other_weight)) if q == p && j > i => other_weight as i32,
                    Some((q, j, _)) if q == p && j < i => -(weight as i32),
                    _ => 0,
                };
            }
        }
        delta
    }

    /// The index of the pattern whose rank a move of `tile` changes, or [`NO_PATTERN`].
    #[inline(always)]
    pub(crate) fn pattern(&self, tile: u8) -> u8 {
        self.pattern[tile as usize & (SIDE - 1)]
    }

    /// What to add (wrapping) to the rank of `tile`'s pattern when `tile` moves from cell
    /// `from` to cell `to`, `cells` being the state after the move (or before: only the cells
    /// strictly between the two, which the move does not change, are read). `tile` must be in
    /// a pattern.
    #[inline(always)]
    // `high - low` is below 25; this runs for every move of a pattern-database search.
    #[allow(clippy::cast_possible_truncation)]
    pub(crate) fn delta(&self, cells: &[u8], tile: u8, from: usize, to: usize) -> u32 {
        let t = tile as usize & (SIDE - 1);
        let a = self.number[from & (SIDE - 1)] as usize;
        let b = self.number[to & (SIDE - 1)] as usize;
        let (low, high) = if a < b { (a, b) } else { (b, a) };
        let passed = &self.passed[t];
        let mut change = self.weight[t] as i32 * (high - low) as i32;
        for number in low + 1..high {
            let other = cells[self.cell_of[number & (SIDE - 1)] as usize];
            change += passed[other as usize & (SIDE - 1)];
        }
        if a > b {
            change = -change;
        }
        change as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::pattern::PatternSpace;
    use crate::rng::SplitMix64;
    use crate::state::State;

    /// Every move of random walks on 3x3, 4x4 and 5x5: the rank carried by deltas equals the
    /// rank computed from scratch, plain and in the transposed numbering with a relabelling.
    #[test]
    fn carried_ranks_equal_ranks_from_scratch_over_random_walks() {
        for (side, patterns) in [
            (3usize, vec![vec![1u8, 2, 3], vec![4, 5, 6, 7, 8]]),
            (
                4,
                vec![
                    vec![4, 5, 8, 9, 12, 13],
                    vec![6, 7, 10, 11, 14, 15],
                    vec![1, 2, 3],
                ],
            ),
            (5, vec![vec![1, 2, 5, 6, 7, 12], vec![3, 4, 8, 9, 13, 14]]),
        ] {
            let board = Board::new(side, side).unwrap();
            let n = board.cells();
            let spaces: Vec<PatternSpace> = patterns
                .iter()
                .map(|p| PatternSpace::new(board, p).unwrap())
                .collect();
            let transpose: Vec<u8> = (0..n)
                .map(|c| u8::try_from((c % side) * side + c / side).unwrap())
                .collect();
            // Any permutation of the tiles fixing the blank will do as a relabelling.
            let mut relabel: Vec<u8> = (0..u8::try_from(n).unwrap()).collect();
            relabel[1..].reverse();
            let identity: Vec<u8> = (0..u8::try_from(n).unwrap()).collect();
            for (number, labels) in [(&identity, &identity), (&transpose, &relabel)] {
                let delta = RankDelta::new(n, &patterns, number, labels);
                let ranks_of = |state: &State| -> Vec<u32> {
                    let mut cell_of_label = [0u8; MAX_CELLS];
                    for (cell, &tile) in state.cells().iter().enumerate() {
                        cell_of_label[labels[tile as usize] as usize] = number[cell];
                    }
                    spaces
                        .iter()
                        .map(|s| {
                            let cells: Vec<u8> = s
                                .tiles()
                                .iter()
                                .map(|&t| cell_of_label[t as usize])
                                .collect();
                            s.rank(&cells)
                        })
                        .collect()
                };
                let mut rng = SplitMix64::new(side as u64);
                let mut state = State::goal(board);
                let mut ranks = ranks_of(&state);
                for _ in 0..20_000 {
                    let mv = crate::board::Move::ALL[(rng.next_u64() % 4) as usize];
                    let Some(next) = state.apply(mv) else {
                        continue;
                    };
                    let (from, to) = (next.blank(), state.blank());
                    let tile = next.cells()[to];
                    let p = delta.pattern(tile);
                    if p != NO_PATTERN {
                        let change = delta.delta(next.cells(), tile, from, to);
                        ranks[p as usize] = ranks[p as usize].wrapping_add(change);
                    }
                    state = next;
                    assert_eq!(ranks, ranks_of(&state), "{state}");
                }
            }
        }
    }
}
