//! The index space of a pattern: where `k` chosen tiles lie among the `n` cells of a board,
//! ranked onto `0..n!/(n-k)!` (partial permutations), the blank and the other tiles ignored.
//!
//! The rank is the mixed-radix number whose digit `i` counts the cells below tile `i`'s cell
//! that no earlier pattern tile holds (radices `n, n-1, ..., n-k+1`). With a bit mask of the
//! cells used so far a digit is one `popcount`, so ranking costs `k` popcounts and
//! multiply-adds; no table of size `n^k` is needed. That matters for memory: 8 tiles of 16
//! cells are 518,918,400 entries this way and 4,294,967,296 as `16^8`; 7 tiles are 57,657,600
//! against 268,435,456.
//!
//! A move changes one tile's cell, so a neighbour's rank is the same loop with that one cell
//! substituted ([`PatternSpace::rank_with`]); nothing else needs recomputing.

use std::ops::ControlFlow;

use crate::board::Board;

/// Why a pattern cannot be indexed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PatternError {
    /// A tile is the blank, off the board, or listed twice; or no tile at all.
    #[error("a pattern on the {board} board needs distinct tiles 1..{} (at least one), not {tiles:?}", board.cells() - 1)]
    BadTiles {
        /// The board.
        board: Board,
        /// The tiles given.
        tiles: Vec<u8>,
    },
    /// The pattern's entries would not fit a 32-bit index.
    #[error("a pattern of {k} tiles on the {board} board has {entries} entries, more than 2^32")]
    TooLarge {
        /// The board.
        board: Board,
        /// Tiles in the pattern.
        k: usize,
        /// Entries it would have.
        entries: u128,
    },
}

/// The rank arithmetic of one pattern: `k` tiles (in increasing order) on one board.
///
/// ```
/// use npuzzle::pattern::PatternSpace;
/// use npuzzle::Board;
/// let space = PatternSpace::new(Board::new(4, 4)?, &[1, 2, 3])?;
/// assert_eq!(space.entries(), 16 * 15 * 14);
/// let rank = space.rank(&[5, 0, 9]);
/// let mut cells = [0u8; 3];
/// space.unrank(rank, &mut cells);
/// assert_eq!(cells, [5, 0, 9]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternSpace {
    board: Board,
    tiles: Vec<u8>,
    entries: u64,
}

impl PatternSpace {
    /// The space of `tiles` (any order; kept sorted) on `board`.
    ///
    /// # Errors
    /// [`PatternError`] for the blank, a tile off the board or repeated, no tiles, or more
    /// than 2^32 entries.
    pub fn new(board: Board, tiles: &[u8]) -> Result<PatternSpace, PatternError> {
        let n = board.cells();
        let mut sorted = tiles.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != tiles.len()
            || sorted.is_empty()
            || sorted[0] == 0
            || *sorted.last().expect("not empty") as usize >= n
        {
            return Err(PatternError::BadTiles {
                board,
                tiles: tiles.to_vec(),
            });
        }
        let k = sorted.len();
        let entries: u128 = (n - k + 1..=n).map(|f| f as u128).product();
        if entries > 1 << 32 {
            return Err(PatternError::TooLarge { board, k, entries });
        }
        Ok(PatternSpace {
            board,
            tiles: sorted,
            entries: u64::try_from(entries).expect("at most 2^32, checked above"),
        })
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The pattern's tiles, increasing.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The pattern as a bit mask of tiles (bit `t` for tile `t`), as stored in file headers.
    pub fn mask(&self) -> u64 {
        self.tiles.iter().fold(0, |m, &t| m | 1 << t)
    }

    /// Number of entries: `n!/(n-k)!`.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// The rank of the placement where tile `tiles()[i]` is in cell `cells[i]`.
    ///
    /// `cells` must hold `k` distinct cells of the board (checked in debug builds only: this is
    /// the inner loop of the generator and of every database lookup).
    #[inline]
    pub fn rank(&self, cells: &[u8]) -> u32 {
        rank_cells(self.cells(), cells.iter().copied())
    }

    /// The rank of `cells` with `cells[i]` replaced by `cell`: a neighbour's rank after tile `i`
    /// moved, without copying the placement.
    #[inline]
    pub fn rank_with(&self, cells: &[u8], i: usize, cell: u8) -> u32 {
        rank_cells(
            self.cells(),
            cells
                .iter()
                .enumerate()
                .map(|(j, &c)| if j == i { cell } else { c }),
        )
    }

    /// The board's cell count, at most 25, as the ranks' radix.
    // A checked conversion here would run on every rank, the generator's and every database
    // lookup's inner loop.
    #[allow(clippy::cast_possible_truncation)]
    #[inline]
    fn cells(&self) -> u32 {
        self.board.cells() as u32
    }

    /// Writes the cells of the placement with rank `rank` into `cells` (`k` of them).
    ///
    /// # Panics
    /// If `rank >= entries()` or `cells` is shorter than the pattern.
    // Digits are below the cell count and cells below 25, so the casts keep every value; this
    // runs for every placement the generator expands.
    #[allow(clippy::cast_possible_truncation)]
    pub fn unrank(&self, rank: u32, cells: &mut [u8]) {
        assert!(u64::from(rank) < self.entries, "rank {rank} out of range");
        let k = self.tiles.len();
        self.unrank_digits(rank, &mut cells[..k]);
    }

    /// Writes the cells of the first `cells.len()` tiles, whose digits make the number `rest`
    /// in their radices `n, n-1, ...`, into `cells`; returns the mask of those cells.
    // Digits are below the cell count and cells below 25, so the casts keep every value.
    #[allow(clippy::cast_possible_truncation)]
    #[inline]
    fn unrank_digits(&self, mut rest: u32, cells: &mut [u8]) -> u32 {
        let n = self.cells();
        for i in (0..cells.len()).rev() {
            let radix = n - i as u32;
            cells[i] = (rest % radix) as u8;
            rest /= radix;
        }
        let mut used = 0u32;
        for cell in cells.iter_mut() {
            // The digit-th cell not yet used.
            let mut free = !used;
            for _ in 0..*cell {
                free &= free - 1;
            }
            let c = free.trailing_zeros();
            *cell = c as u8;
            used |= 1 << c;
        }
        used
    }

    /// Placements per *block*: the ranks `b * block_len() .. (b + 1) * block_len()` are the
    /// placements whose tiles other than the last two (the last one, for a one-tile pattern)
    /// hold the same cells, so they share every digit but the last two.
    /// [`visit_block`](PatternSpace::visit_block) walks one block.
    pub(crate) fn block_len(&self) -> u32 {
        let n = self.cells();
        // At most 25 tiles: no truncation.
        #[allow(clippy::cast_possible_truncation)]
        let k = self.tiles.len() as u32;
        (n - k + 1..=n - k + k.min(2)).product()
    }

    /// Blocks of placements: `entries() / block_len()`.
    pub(crate) fn blocks(&self) -> u32 {
        u32::try_from(self.entries / u64::from(self.block_len())).expect("entries below 2^32")
    }

    /// Calls `visit(rank, cells, board, occupied)` for every placement of block `block`, in
    /// rank order, until it breaks: `cells` as [`unrank`](PatternSpace::unrank) writes them,
    /// `board[cell]` the pattern tile in `cell` (0 where none), `occupied` the mask of the
    /// placement's cells. Why: the generator and the deep check visit placements in rank
    /// order, and unranking each one (`k` divisions and as many bit selections) was an eighth
    /// of their time; here the block's other tiles are unranked once and the last two walk the
    /// free cells in increasing order, which is rank order, at a few instructions a placement.
    ///
    /// # Panics
    /// If `block >= blocks()` (debug builds).
    // Cells are below 25 and the board's mask fits 25 bits: the casts keep every value.
    #[allow(clippy::cast_possible_truncation)]
    #[inline(always)]
    pub(crate) fn visit_block<B>(
        &self,
        block: u32,
        mut visit: impl FnMut(u32, &[u8], &[u8; 32], u32) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        debug_assert!(block < self.blocks());
        let k = self.tiles.len();
        let head = k - k.min(2);
        let mut cells = [0u8; 32];
        let mut board = [0u8; 32];
        let used = self.unrank_digits(block, &mut cells[..head]);
        for (i, &c) in cells[..head].iter().enumerate() {
            board[c as usize] = self.tiles[i];
        }
        let free = ((1u64 << self.cells()) - 1) as u32 & !used;
        let mut rank = block.wrapping_mul(self.block_len());
        if k == 1 {
            let mut first = free;
            while first != 0 {
                let a = first.trailing_zeros();
                first &= first - 1;
                cells[0] = a as u8;
                board[a as usize] = self.tiles[0];
                visit(rank, &cells[..k], &board, used | 1 << a)?;
                board[a as usize] = 0;
                rank = rank.wrapping_add(1);
            }
        } else {
            let mut first = free;
            while first != 0 {
                let a = first.trailing_zeros();
                first &= first - 1;
                cells[head] = a as u8;
                board[a as usize] = self.tiles[head];
                let mut second = free & !(1 << a);
                while second != 0 {
                    let b = second.trailing_zeros();
                    second &= second - 1;
                    cells[head + 1] = b as u8;
                    board[b as usize] = self.tiles[head + 1];
                    visit(rank, &cells[..k], &board, used | 1 << a | 1 << b)?;
                    board[b as usize] = 0;
                    rank = rank.wrapping_add(1);
                }
                board[a as usize] = 0;
            }
        }
        ControlFlow::Continue(())
    }
}

/// Bits set in each 13-bit number.
static POPCOUNT_13: [u8; 1 << 13] = {
    let mut table = [0u8; 1 << 13];
    let mut i = 1;
    while i < table.len() {
        table[i] = table[i >> 1] + (i & 1 == 1) as u8;
        i += 1;
    }
    table
};

/// The number of bits set in a mask of at most 26 cells, by two reads of an 8 KiB table.
///
/// Why not `u32::count_ones`: without `-C target-feature=+popcnt` (not in the default
/// x86-64 target) it compiles to a dozen arithmetic instructions, which made them most of the
/// generator's time; the table stays in the L1 cache.
#[inline(always)]
pub(crate) fn count_cells(mask: u32) -> u32 {
    debug_assert!(mask < 1 << 26);
    u32::from(POPCOUNT_13[(mask & 0x1FFF) as usize]) + u32::from(POPCOUNT_13[(mask >> 13) as usize])
}

/// The mixed-radix rank of distinct cells (at most 32) on a board of `n` cells.
#[inline(always)]
fn rank_cells(n: u32, cells: impl Iterator<Item = u8>) -> u32 {
    let mut used = 0u32;
    let mut rank = 0u32;
    let mut radix = n;
    for c in cells {
        let below = used & ((1u32 << c) - 1);
        let digit = u32::from(c) - count_cells(below);
        rank = rank.wrapping_mul(radix).wrapping_add(digit);
        used |= 1 << c;
        radix -= 1;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_a_bijection_on_every_entry_of_small_spaces() {
        for (w, h, tiles) in [
            (2usize, 2usize, vec![1u8]),
            (2, 2, vec![1, 2, 3]),
            (3, 3, vec![1, 5, 8]),
            (3, 3, vec![2, 3, 4, 6, 7]),
            (2, 5, vec![1, 2, 3, 4]),
            (4, 4, vec![3, 9, 15]),
            (5, 5, vec![1, 2, 5]),
            (5, 5, vec![24]),
        ] {
            let board = Board::new(w, h).unwrap();
            let space = PatternSpace::new(board, &tiles).unwrap();
            let k = tiles.len();
            let mut seen = vec![false; usize::try_from(space.entries()).unwrap()];
            let mut cells = vec![0u8; k];
            for rank in 0..u32::try_from(space.entries()).unwrap() {
                space.unrank(rank, &mut cells);
                let mut sorted = cells.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), k, "repeated cell at rank {rank}");
                assert!(cells.iter().all(|&c| (c as usize) < board.cells()));
                assert_eq!(space.rank(&cells), rank);
                assert!(!std::mem::replace(&mut seen[rank as usize], true));
                // Every neighbour's rank, by substitution, equals ranking the moved placement.
                for i in 0..k {
                    for to in 0..u8::try_from(board.cells()).unwrap() {
                        if cells.contains(&to) {
                            continue;
                        }
                        let mut moved = cells.clone();
                        moved[i] = to;
                        assert_eq!(space.rank_with(&cells, i, to), space.rank(&moved));
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
            // The block walk hands over every placement in rank order, with its cells, board
            // and mask as unranking and ranking give them.
            let mut next = 0u32;
            for block in 0..space.blocks() {
                let walked = space.visit_block(block, |rank, walked, board, occupied| {
                    assert_eq!(rank, next, "ranks in order, none skipped");
                    next += 1;
                    space.unrank(rank, &mut cells);
                    assert_eq!(walked, &cells[..], "block {block}, rank {rank}");
                    assert_eq!(space.rank(walked), rank);
                    let mut expected = [0u8; 32];
                    for (i, &c) in walked.iter().enumerate() {
                        expected[c as usize] = space.tiles()[i];
                    }
                    assert_eq!(board, &expected);
                    assert_eq!(occupied, walked.iter().fold(0, |m, &c| m | 1 << c));
                    ControlFlow::<()>::Continue(())
                });
                assert!(walked.is_continue());
            }
            assert_eq!(u64::from(next), space.entries());
            // A break stops the walk where it was asked to.
            let mut calls = 0;
            let stopped = space.visit_block(space.blocks() - 1, |rank, _, _, _| {
                calls += 1;
                if calls == 2 {
                    ControlFlow::Break(rank)
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert_eq!(
                stopped,
                ControlFlow::Break((space.blocks() - 1) * space.block_len() + 1)
            );
        }
    }

    #[test]
    fn entry_counts_and_refusals() {
        let b44 = Board::new(4, 4).unwrap();
        let b55 = Board::new(5, 5).unwrap();
        let eight: Vec<u8> = (8..16).collect();
        assert_eq!(
            PatternSpace::new(b44, &eight).unwrap().entries(),
            518_918_400
        );
        assert_eq!(
            PatternSpace::new(b55, &[1, 2, 5, 6, 7, 12])
                .unwrap()
                .entries(),
            127_512_000
        );
        assert!(PatternSpace::new(b44, &[0, 1]).is_err());
        assert!(PatternSpace::new(b44, &[1, 1]).is_err());
        assert!(PatternSpace::new(b44, &[16]).is_err());
        assert!(PatternSpace::new(b44, &[]).is_err());
        let nine: Vec<u8> = (1..10).collect();
        assert!(matches!(
            PatternSpace::new(b55, &nine),
            Err(PatternError::TooLarge { .. })
        ));
        assert_eq!(PatternSpace::new(b44, &[3, 1]).unwrap().mask(), 0b1010);
    }
}
