//! The depth histograms of every board with tables, pinned to the published sequences.
//!
//! Each count is the number of states at that many moves from the goal with the blank in a
//! corner (our default goal: tiles 1..n row-major, blank in the last cell). Sources: the OEIS
//! entries named on each constant (Pfoertner; Karlemo and Östergård, "On Sliding Block
//! Puzzles", J. Combin. Math. Combin. Comp. 34, 2000), read on 2026-11-23. A board and its
//! transpose have the same histogram (transposing maps moves to moves and a corner to a
//! corner), so both orientations are checked against one sequence: two independent builds.
//!
//! The 12-cell tables (239,500,800 states each) take seconds apiece; this tier runs in CI.

use npuzzle::{Board, BuildOptions, State, Table};

/// OEIS A089473: the 3x3 board (maximum 31).
const A089473: &[u64] = &[
    1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878,
    16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
];

/// OEIS A090034: the 3x2 board (maximum 21).
const A090034: &[u64] = &[
    1, 2, 3, 5, 6, 7, 10, 12, 12, 16, 23, 25, 28, 39, 44, 40, 29, 21, 18, 12, 6, 1,
];

/// OEIS A090035: the 4x2 board (maximum 36).
const A090035: &[u64] = &[
    1, 2, 3, 6, 10, 14, 19, 28, 42, 61, 85, 119, 161, 215, 293, 396, 506, 632, 788, 985, 1194,
    1414, 1664, 1884, 1999, 1958, 1770, 1463, 1076, 667, 361, 190, 88, 39, 19, 7, 1,
];

/// OEIS A090036: the 5x2 board (maximum 55).
const A090036: &[u64] = &[
    1, 2, 3, 6, 11, 19, 30, 44, 68, 112, 176, 271, 411, 602, 851, 1232, 1783, 2530, 3567, 4996,
    6838, 9279, 12463, 16597, 21848, 28227, 35682, 44464, 54597, 65966, 78433, 91725, 104896,
    116966, 126335, 131998, 133107, 128720, 119332, 106335, 91545, 75742, 60119, 45840, 33422,
    23223, 15140, 9094, 5073, 2605, 1224, 528, 225, 75, 20, 2,
];

/// OEIS A090166: the 4x3 board (maximum 53).
const A090166: &[u64] = &[
    1, 2, 4, 9, 20, 37, 63, 122, 232, 431, 781, 1392, 2494, 4442, 7854, 13899, 24215, 41802, 71167,
    119888, 198363, 323206, 515778, 811000, 1248011, 1885279, 2782396, 4009722, 5621354, 7647872,
    10065800, 12760413, 15570786, 18171606, 20299876, 21587248, 21841159, 20906905, 18899357,
    16058335, 12772603, 9515217, 6583181, 4242753, 2503873, 1350268, 643245, 270303, 92311, 27116,
    5390, 1115, 86, 18,
];

/// OEIS A090167: the 6x2 board, as far as the entry lists it (depths 0..=38); its b-file gives
/// the complete sequence to depth 80, the maximum.
const A090167_PREFIX: &[u64] = &[
    1, 2, 3, 6, 11, 20, 36, 60, 95, 155, 258, 426, 688, 1106, 1723, 2615, 3901, 5885, 8851, 13205,
    19508, 28593, 41179, 58899, 83582, 118109, 165136, 228596, 312542, 423797, 568233, 755727,
    994641, 1296097, 1667002, 2119476, 2660415, 3300586, 4038877,
];
/// The 6x2 board's maximum distance (A090167 has 81 terms, depths 0..=80).
const RADIUS_6X2: usize = 80;

/// The histogram of the default goal's table on a `width` x `height` board, from the header
/// and recounted from the body.
fn histogram(width: usize, height: usize) -> Vec<u64> {
    let board = Board::new(width, height).unwrap();
    let table = Table::build(&State::goal(board), BuildOptions::default()).unwrap();
    let counts = table.header().counts.clone();
    assert_eq!(table.recount_depths(), counts, "{board}: header vs body");
    let total: u64 = counts.iter().sum();
    let states: u64 = (1..=board.cells() as u64).product::<u64>() / 2;
    assert_eq!(
        total, states,
        "{board}: every state of the class is reached"
    );
    counts
}

#[test]
fn two_by_two_has_twelve_states_at_most_six_moves_away() {
    assert_eq!(histogram(2, 2), vec![1, 2, 2, 2, 2, 2, 1]);
}

#[test]
fn three_by_three_matches_a089473() {
    assert_eq!(histogram(3, 3), A089473);
}

#[test]
fn three_by_two_and_two_by_three_match_a090034() {
    assert_eq!(histogram(3, 2), A090034);
    assert_eq!(histogram(2, 3), A090034);
}

#[test]
fn four_by_two_and_two_by_four_match_a090035() {
    assert_eq!(histogram(4, 2), A090035);
    assert_eq!(histogram(2, 4), A090035);
}

#[test]
fn five_by_two_and_two_by_five_match_a090036() {
    assert_eq!(histogram(5, 2), A090036);
    assert_eq!(histogram(2, 5), A090036);
}

#[test]
fn four_by_three_and_three_by_four_match_a090166() {
    assert_eq!(histogram(4, 3), A090166);
    assert_eq!(histogram(3, 4), A090166);
}

#[test]
fn six_by_two_and_two_by_six_match_a090167() {
    for (w, h) in [(6, 2), (2, 6)] {
        let counts = histogram(w, h);
        assert_eq!(counts.len(), RADIUS_6X2 + 1, "{w}x{h}: radius");
        assert_eq!(&counts[..A090167_PREFIX.len()], A090167_PREFIX, "{w}x{h}");
    }
}
