//! The partitions npuzzle builds databases for, named as in the literature, and the board
//! symmetry that gives each a second, reflected lookup.
//!
//! Each partition is written for the goal with the blank in the top-left corner (Korf's goal,
//! tile `t` in cell `t`), as groups of goal cells. For a goal with the blank in another corner
//! the groups are carried there by the flip that takes the top-left corner to it, so every
//! corner goal gets the same shapes; a goal with the blank elsewhere has no named partition.

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::state::State;

/// A named partition of a board's tiles into disjoint patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Partition {
    /// 4x4, three patterns of five tiles (compact blocks; 524,160 entries each).
    FiveFiveFive,
    /// 4x4, six, six and three tiles (compact blocks; 5,765,760 and 3,360 entries).
    SixSixThree,
    /// 4x4, the top seven tiles and the bottom eight (Korf and Felner's 7-8;
    /// 57,657,600 and 518,918,400 entries).
    SevenEight,
    /// 5x5, Korf and Felner's four patterns of six tiles (127,512,000 entries each).
    SixSixSixSix,
    /// 5x5, a second partition into four patterns of six tiles whose blocks cut each of
    /// Korf and Felner's (and their reflections) in two, for taking the maximum over both
    /// partitions ([`crate::heuristic::MaxPartitions`]); not picked by the answer layer.
    SixSixSixSixB,
    /// 5x5, three patterns of seven tiles and one of three: the 3x3 block at the blank's
    /// corner less its far corner, the 3x2 block beside it with the right column's fourth
    /// cell, the bottom-left 2x3 block with the centre cell, and the bottom-right L of three
    /// (2,422,728,000 entries each for the seven-tile patterns; 7.3 GB of memory to build
    /// one, 1.2 GB on disk). Not closed under the reflection about the diagonal, so its
    /// reflected lookup is a second cut of the tiles. Measured weaker than 6-6-6-6 with
    /// its reflection on three of four instances, and their maximum slower than 6-6-6-6
    /// alone, so the answer layer never picks it; for experiments (a second partition of
    /// [`crate::heuristic::MaxPartitions`]).
    SevenSevenSevenThree,
}

const FIVE_FIVE_FIVE: &[&[u8]] = &[&[1, 2, 3, 6, 7], &[4, 5, 8, 9, 12], &[10, 11, 13, 14, 15]];
const SIX_SIX_THREE: &[&[u8]] = &[&[4, 5, 8, 9, 12, 13], &[6, 7, 10, 11, 14, 15], &[1, 2, 3]];
const SEVEN_EIGHT: &[&[u8]] = &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]];
/// Korf and Felner (2002), "Disjoint pattern database heuristics", AIJ 134, figure of the
/// 6-6-6-6 partition; the first two groups as in the programs derived from it (for example
/// github spinute/slide_puzzle, `pattern_1_2_5_6_7_12`, `pattern_3_4_8_9_13_14`).
const SIX_SIX_SIX_SIX: &[&[u8]] = &[
    &[1, 2, 5, 6, 7, 12],
    &[3, 4, 8, 9, 13, 14],
    &[10, 11, 15, 16, 20, 21],
    &[17, 18, 19, 22, 23, 24],
];
/// The second 6-6-6-6 partition: a 2x3 block on the top row's middle, a block down the right
/// edge, one down the left edge and the bottom-left rest. Each of Korf and Felner's groups
/// (and each of their transposes, which the reflected lookup reads) is split between two of
/// these, so the tiles whose interactions one partition misses at a seam are counted
/// together in the other: where one partition is weak the other may not be.
/// Issue 22's try at a stronger 5x5 partition: seven-tile groups where the memory allows
/// (one 7-tile database is 19x a 6-tile one). The first group is its own transpose; the
/// others are not each other's (the second's transpose is `15 16 17 20 21 22 23`, the
/// third's `3 4 8 9 12 13 14`), so the reflected lookup reads a different cut. The first
/// version, closed under the transpose (third group `15 16 17 20 21 22 23`, then
/// `12 18 24` on the diagonal), gained nothing from its reflection and needed 2.6-30x the
/// nodes of this one on the four instances measured (BENCHMARKS.md, "An asymmetric
/// 7-7-7-3").
const SEVEN_SEVEN_SEVEN_THREE: &[&[u8]] = &[
    &[1, 2, 5, 6, 7, 10, 11],
    &[3, 4, 8, 9, 13, 14, 19],
    &[12, 15, 16, 17, 20, 21, 22],
    &[18, 23, 24],
];
const SIX_SIX_SIX_SIX_B: &[&[u8]] = &[
    &[1, 2, 3, 6, 7, 8],
    &[4, 9, 13, 14, 18, 19],
    &[5, 10, 11, 12, 15, 16],
    &[17, 20, 21, 22, 23, 24],
];

impl Partition {
    /// Every named partition.
    pub const ALL: [Partition; 6] = [
        Partition::FiveFiveFive,
        Partition::SixSixThree,
        Partition::SevenEight,
        Partition::SixSixSixSix,
        Partition::SixSixSixSixB,
        Partition::SevenSevenSevenThree,
    ];

    /// The name: `5-5-5`, `6-6-3`, `7-8`, `6-6-6-6`, `6-6-6-6b`, `7-7-7-3`.
    pub fn name(self) -> &'static str {
        match self {
            Partition::FiveFiveFive => "5-5-5",
            Partition::SixSixThree => "6-6-3",
            Partition::SevenEight => "7-8",
            Partition::SixSixSixSix => "6-6-6-6",
            Partition::SixSixSixSixB => "6-6-6-6b",
            Partition::SevenSevenSevenThree => "7-7-7-3",
        }
    }

    /// The board it partitions.
    pub fn board(self) -> Board {
        match self {
            Partition::SixSixSixSix
            | Partition::SixSixSixSixB
            | Partition::SevenSevenSevenThree => Board::new(5, 5),
            _ => Board::new(4, 4),
        }
        .expect("4x4 and 5x5 are boards")
    }

    /// The groups as goal cells, for the blank in the top-left corner.
    fn cells(self) -> &'static [&'static [u8]] {
        match self {
            Partition::FiveFiveFive => FIVE_FIVE_FIVE,
            Partition::SixSixThree => SIX_SIX_THREE,
            Partition::SevenEight => SEVEN_EIGHT,
            Partition::SixSixSixSix => SIX_SIX_SIX_SIX,
            Partition::SixSixSixSixB => SIX_SIX_SIX_SIX_B,
            Partition::SevenSevenSevenThree => SEVEN_SEVEN_SEVEN_THREE,
        }
    }

    /// The groups of tiles for `goal`, or `None` when `goal` is on another board or its blank
    /// is not in a corner.
    pub fn groups(self, goal: &State) -> Option<Vec<Vec<u8>>> {
        let board = goal.board();
        if board != self.board() {
            return None;
        }
        let flip = corner_flip(board, goal.blank())?;
        Some(
            self.cells()
                .iter()
                .map(|group| {
                    group
                        .iter()
                        .map(|&c| goal.cells()[flip(c as usize)])
                        .collect()
                })
                .collect(),
        )
    }

    /// The named partitions of `board`, strongest first (what the answer layer prefers).
    /// The second 5x5 partition is left out: the answer layer reads one partition, and
    /// Korf and Felner's is the one every data directory holds. 7-7-7-3 is left out too:
    /// measured weaker than 6-6-6-6 with its reflection (BENCHMARKS.md, "A 7-7-7-3
    /// partition", "An asymmetric 7-7-7-3").
    pub fn strongest_first(board: Board) -> Vec<Partition> {
        [
            Partition::SixSixSixSix,
            Partition::SevenEight,
            Partition::SixSixThree,
            Partition::FiveFiveFive,
        ]
        .into_iter()
        .filter(|p| p.board() == board)
        .collect()
    }

    /// The partition the answer layer builds when `board`'s databases are missing, where a
    /// source builds: 4x4 6-6-3 (seconds, tens of megabytes). The others take minutes to
    /// hours and gigabytes, so only `npuzzle build --pdb` builds them.
    ///
    /// ```
    /// use npuzzle::pattern::Partition;
    /// use npuzzle::Board;
    /// assert_eq!(Partition::built_on_first_use(Board::new(4, 4)?), Some(Partition::SixSixThree));
    /// assert_eq!(Partition::built_on_first_use(Board::new(5, 5)?), None);
    /// # Ok::<(), npuzzle::BoardError>(())
    /// ```
    pub fn built_on_first_use(board: Board) -> Option<Partition> {
        (board == Partition::SixSixThree.board()).then_some(Partition::SixSixThree)
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.board(), self.name())
    }
}

/// A name that is not `BOARD:NAME` of a partition in [`Partition::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown partition `{0}`: expected 4x4:5-5-5, 4x4:6-6-3, 4x4:7-8, 5x5:6-6-6-6, 5x5:6-6-6-6b or 5x5:7-7-7-3"
)]
pub struct UnknownPartition(pub String);

impl FromStr for Partition {
    type Err = UnknownPartition;

    /// `4x4:7-8`, or the name alone (`7-8`).
    fn from_str(text: &str) -> Result<Partition, UnknownPartition> {
        let text = text.trim();
        Partition::ALL
            .into_iter()
            .find(|p| text == p.name() || text == format!("{}:{}", p.board(), p.name()))
            .ok_or_else(|| UnknownPartition(text.to_string()))
    }
}

/// The flip of the board that takes the top-left corner to `blank` (a corner), as a map of
/// cells.
fn corner_flip(board: Board, blank: usize) -> Option<impl Fn(usize) -> usize> {
    let (w, h) = (board.width(), board.height());
    let (row, col) = (blank / w, blank % w);
    let flip_rows = match row {
        0 => false,
        r if r == h - 1 => true,
        _ => return None,
    };
    let flip_cols = match col {
        0 => false,
        c if c == w - 1 => true,
        _ => return None,
    };
    Some(move |cell: usize| {
        let (r, c) = (cell / w, cell % w);
        let r = if flip_rows { h - 1 - r } else { r };
        let c = if flip_cols { w - 1 - c } else { c };
        r * w + c
    })
}

/// The reflection of a square board about the diagonal through `goal`'s blank cell: a cell
/// map `sigma` (an involution fixing the blank's cell) and the tile map `m(t) =
/// goal[sigma(home(t))]`. Reflecting a state `s` gives `r` with `r[sigma(c)] = m(s[c])`; it is
/// as far from `goal` as `s` is (the moves reflect too, and `goal` reflects onto itself), so a
/// lower bound of `r` is one of `s`. `None` unless the board is square and the blank's goal
/// cell is on one of its diagonals.
pub fn reflection(goal: &State) -> Option<([u8; 32], [u8; 32])> {
    let board = goal.board();
    let (w, h) = (board.width(), board.height());
    if w != h {
        return None;
    }
    let (row, col) = (goal.blank() / w, goal.blank() % w);
    let sigma = |cell: usize| {
        let (r, c) = (cell / w, cell % w);
        if row == col {
            c * w + r
        } else {
            (w - 1 - c) * w + (w - 1 - r)
        }
    };
    if sigma(goal.blank()) != goal.blank() {
        return None;
    }
    let mut cell_map = [0u8; 32];
    let mut tile_map = [0u8; 32];
    for cell in 0..board.cells() {
        cell_map[cell] = u8::try_from(sigma(cell)).expect("a board has at most 25 cells");
        tile_map[goal.cells()[cell] as usize] = goal.cells()[sigma(cell)];
    }
    Some((cell_map, tile_map))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_partition_covers_every_tile_once_for_every_corner_goal() {
        for partition in Partition::ALL {
            let board = partition.board();
            let (w, n) = (board.width(), board.cells());
            for blank in [0, w - 1, n - w, n - 1] {
                let goal = State::canonical_goal(board, blank);
                let mut tiles: Vec<u8> = partition.groups(&goal).unwrap().concat();
                tiles.sort_unstable();
                assert_eq!(
                    tiles,
                    (1..u8::try_from(n).unwrap()).collect::<Vec<_>>(),
                    "{partition} {blank}"
                );
                assert!(reflection(&goal).is_some());
            }
            assert!(partition.groups(&State::canonical_goal(board, 1)).is_none());
            assert_eq!(partition.name().parse::<Partition>(), Ok(partition));
        }
    }

    #[test]
    fn reflecting_the_goal_gives_the_goal() {
        for blank in [0usize, 3, 12, 15] {
            let goal = State::canonical_goal(Board::new(4, 4).unwrap(), blank);
            let (cells, tiles) = reflection(&goal).unwrap();
            for c in 0..16 {
                assert_eq!(
                    goal.cells()[cells[c] as usize],
                    tiles[goal.cells()[c] as usize]
                );
            }
        }
    }
}
