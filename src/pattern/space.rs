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
        let n = self.cells();
        let k = self.tiles.len();
        let mut rest = rank;
        for i in (0..k).rev() {
            let radix = n - i as u32;
            cells[i] = (rest % radix) as u8;
            rest /= radix;
        }
        let mut used = 0u32;
        for cell in cells.iter_mut().take(k) {
            // The digit-th cell not yet used.
            let mut free = !used;
            for _ in 0..*cell {
                free &= free - 1;
            }
            let c = free.trailing_zeros();
            *cell = c as u8;
            used |= 1 << c;
        }
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
