//! Linear conflict (Hansson, Mayer and Yung, 1992): Manhattan distance plus two moves for each
//! tile that must leave its line so that others can pass.
//!
//! Two tiles in their goal row (or column) whose goal order there is the reverse of their
//! current order are in conflict: one of them must step out of the line and back, two moves
//! Manhattan does not count. The fewest tiles that must step out so that the rest are in order
//! is the line's tile count minus the longest increasing run of their goal positions (the
//! longest subsequence that may stay). Row conflicts cost vertical moves and column conflicts
//! horizontal ones, so the two add up and the bound stays admissible; a move changes one line
//! by at most one tile, so it stays consistent.

use super::{goal_cells, Heuristic, Manhattan};
use crate::board::{MAX_CELLS, MAX_SIDE};
use crate::state::State;

/// Manhattan distance plus twice, over every row and column, the fewest tiles that must leave
/// the line to resolve its conflicts.
///
/// A line's cost depends only on which of its cells hold tiles that belong to it and where they
/// belong, so each line is summarised as a base-`(len + 1)` number (a digit per cell: the tile's
/// goal position along the line, or `len` for a tile of another line and for the blank) and its
/// cost read from a table built once: at most 7^6 = 117,649 entries for a line of 6. Longer
/// lines (2x7 up to 2x12) would need up to 13^12 keys, so their cost is computed directly
/// (the longest increasing run of at most 12 positions) and a move recomputes the estimate.
#[derive(Clone, Debug)]
pub struct LinearConflict {
    manhattan: Manhattan,
    width: usize,
    height: usize,
    /// `row_digit[r][tile]`: the tile's goal column if its goal row is `r`, else `width`.
    row_digit: [[u8; MAX_CELLS]; MAX_SIDE as usize],
    /// `col_digit[c][tile]`: the tile's goal row if its goal column is `c`, else `height`.
    col_digit: [[u8; MAX_CELLS]; MAX_SIDE as usize],
    /// Powers of `width + 1` and `height + 1`: the weight of each position in a line's key.
    row_pow: [u32; MAX_SIDE as usize],
    col_pow: [u32; MAX_SIDE as usize],
    /// Extra moves (twice the tiles that must leave) for every row key and column key.
    row_cost: Vec<u8>,
    col_cost: Vec<u8>,
    /// Whether both line lengths have cost tables (at most [`MAX_TABLED_LINE`] cells).
    tabled: bool,
}

/// The longest line whose costs are tabled: 7^6 keys. Longer lines are computed directly.
const MAX_TABLED_LINE: usize = 6;

impl LinearConflict {
    /// The heuristic for `goal`.
    pub fn new(goal: &State) -> LinearConflict {
        let (width, height) = (goal.board().width(), goal.board().height());
        let home = goal_cells(goal);
        let mut row_digit =
            [[u8::try_from(width).expect("a side is at most 25"); MAX_CELLS]; MAX_SIDE as usize];
        let mut col_digit =
            [[u8::try_from(height).expect("a side is at most 25"); MAX_CELLS]; MAX_SIDE as usize];
        for tile in 1..goal.board().cells() {
            let (r, c) = (home[tile] as usize / width, home[tile] as usize % width);
            row_digit[r][tile] = u8::try_from(c).expect("a column is below the width");
            col_digit[c][tile] = u8::try_from(r).expect("a row is below the height");
        }
        let tabled = width <= MAX_TABLED_LINE && height <= MAX_TABLED_LINE;
        let powers = |base: u32| {
            let mut pow = [0u32; MAX_SIDE as usize];
            let mut p = 1;
            for slot in pow.iter_mut().take(MAX_TABLED_LINE) {
                *slot = p;
                p *= base;
            }
            pow
        };
        let costs = |len: usize| if tabled { line_costs(len) } else { Vec::new() };
        LinearConflict {
            manhattan: Manhattan::new(goal),
            width,
            height,
            row_digit,
            col_digit,
            row_pow: powers(u32::try_from(width).expect("a side is at most 25") + 1),
            col_pow: powers(u32::try_from(height).expect("a side is at most 25") + 1),
            row_cost: costs(width),
            col_cost: costs(height),
            tabled,
        }
    }

    /// The extra moves of one line computed from its digits, for lines too long to table.
    // `count` is at most MAX_SIDE; this runs for every node of a search on a wide board.
    #[allow(clippy::cast_possible_truncation)]
    fn line_extra(digits: &[u8; MAX_CELLS], len: usize, cells: impl Iterator<Item = u8>) -> u32 {
        let mut positions = [0u8; MAX_SIDE as usize];
        let mut count = 0;
        for tile in cells {
            let digit = digits[tile as usize];
            if (digit as usize) < len {
                positions[count] = digit;
                count += 1;
            }
        }
        if count < 2 {
            0
        } else {
            2 * (count - longest_increasing(&positions[..count])) as u32
        }
    }

    #[inline]
    fn row_key(&self, r: usize, cells: &[u8]) -> usize {
        let digits = &self.row_digit[r];
        (0..self.width)
            .map(|i| u32::from(digits[cells[r * self.width + i] as usize]) * self.row_pow[i])
            .sum::<u32>() as usize
    }

    #[inline]
    fn col_key(&self, c: usize, cells: &[u8]) -> usize {
        let digits = &self.col_digit[c];
        (0..self.height)
            .map(|i| u32::from(digits[cells[c + i * self.width] as usize]) * self.col_pow[i])
            .sum::<u32>() as usize
    }

    fn conflicts(&self, cells: &[u8]) -> u32 {
        if !self.tabled {
            let (w, h) = (self.width, self.height);
            let rows: u32 = (0..h)
                .map(|r| Self::line_extra(&self.row_digit[r], w, (0..w).map(|i| cells[r * w + i])))
                .sum();
            let columns: u32 = (0..w)
                .map(|c| Self::line_extra(&self.col_digit[c], h, (0..h).map(|i| cells[c + i * w])))
                .sum();
            return rows + columns;
        }
        let rows: u32 = (0..self.height)
            .map(|r| u32::from(self.row_cost[self.row_key(r, cells)]))
            .sum();
        let columns: u32 = (0..self.width)
            .map(|c| u32::from(self.col_cost[self.col_key(c, cells)]))
            .sum();
        rows + columns
    }
}

/// The extra moves of every key of a line of `len` cells (see [`LinearConflict`]).
fn line_costs(len: usize) -> Vec<u8> {
    let base = len + 1;
    let keys = base.pow(u32::try_from(len).expect("len <= MAX_TABLED_LINE"));
    (0..keys)
        .map(|key| {
            let mut rest = key;
            let mut positions = [0u8; MAX_SIDE as usize];
            let mut count = 0;
            for _ in 0..len {
                let digit = rest % base;
                rest /= base;
                if digit < len {
                    positions[count] = u8::try_from(digit).expect("digit < len <= MAX_TABLED_LINE");
                    count += 1;
                }
            }
            if count < 2 {
                0
            } else {
                2 * u8::try_from(count - longest_increasing(&positions[..count]))
                    .expect("count <= MAX_TABLED_LINE")
            }
        })
        .collect()
}

/// The length of the longest strictly increasing subsequence of at most [`MAX_SIDE`] values.
fn longest_increasing(values: &[u8]) -> usize {
    let mut best = [1usize; MAX_SIDE as usize];
    let mut longest = 1;
    for i in 1..values.len() {
        for j in 0..i {
            if values[j] < values[i] && best[j] + 1 > best[i] {
                best[i] = best[j] + 1;
            }
        }
        longest = longest.max(best[i]);
    }
    longest
}

impl LinearConflict {
    fn goal_state(&self) -> &State {
        self.manhattan.goal()
    }

    pub(crate) fn compute(&self, cells: &[u8]) -> u32 {
        self.manhattan.compute(cells) + self.conflicts(cells)
    }

    #[inline]
    pub(crate) fn update(
        &self,
        cells: &[u8],
        before: u32,
        tile: u8,
        from: usize,
        to: usize,
    ) -> u32 {
        // A vertical move keeps the order within the tile's column and changes two rows; a
        // horizontal move keeps the order within its row and changes two columns. The keys
        // before the move differ from those after only in the moved tile's digit.
        if !self.tabled {
            return self.compute(cells);
        }
        let w = self.width;
        let t = tile as usize;
        let (removed, added) = if from.abs_diff(to) == w {
            let (old, new, i) = (from / w, to / w, from % w);
            let (old_after, new_after) = (self.row_key(old, cells), self.row_key(new, cells));
            // A side is at most 25; `update` runs for every node of a search, so no check.
            #[allow(clippy::cast_possible_truncation)]
            let none = w as u32;
            let old_before = old_after
                + (u32::from(self.row_digit[old][t]) * self.row_pow[i]) as usize
                - (none * self.row_pow[i]) as usize;
            let new_before = new_after + (none * self.row_pow[i]) as usize
                - (u32::from(self.row_digit[new][t]) * self.row_pow[i]) as usize;
            (
                self.row_cost[old_before] + self.row_cost[new_before],
                self.row_cost[old_after] + self.row_cost[new_after],
            )
        } else {
            let (old, new, i) = (from % w, to % w, from / w);
            let (old_after, new_after) = (self.col_key(old, cells), self.col_key(new, cells));
            // As above: a side is at most 25, and this is the search's inner loop.
            #[allow(clippy::cast_possible_truncation)]
            let none = self.height as u32;
            let old_before = old_after
                + (u32::from(self.col_digit[old][t]) * self.col_pow[i]) as usize
                - (none * self.col_pow[i]) as usize;
            let new_before = new_after + (none * self.col_pow[i]) as usize
                - (u32::from(self.col_digit[new][t]) * self.col_pow[i]) as usize;
            (
                self.col_cost[old_before] + self.col_cost[new_before],
                self.col_cost[old_after] + self.col_cost[new_after],
            )
        };
        self.manhattan.update(cells, before, tile, from, to) + u32::from(added) - u32::from(removed)
    }
}

super::scalar_heuristic!(
    LinearConflict,
    "npuzzle::heuristic::linear_conflict::LinearConflict"
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Move};

    /// The direct line costs (for lines longer than the tables reach) must equal the tabled
    /// ones wherever both exist: compare them on a random walk over boards with tabled lines.
    #[test]
    fn direct_line_costs_equal_the_tabled_ones() {
        for (w, h) in [(3, 3), (4, 4), (6, 2), (2, 6), (5, 5)] {
            let board = Board::new(w, h).unwrap();
            let goal = State::canonical_goal(board, board.cells() / 2);
            let tabled = LinearConflict::new(&goal);
            let mut direct = tabled.clone();
            direct.tabled = false;
            let mut state = State::goal(board);
            let mut seed = 0x2545_f491_4f6c_dd1du64;
            let mut states_in_conflict = 0;
            for _ in 0..5000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                if let Some(next) = state.apply(Move::ALL[(seed % 4) as usize]) {
                    state = next;
                }
                let cost = tabled.conflicts(state.cells());
                assert_eq!(direct.conflicts(state.cells()), cost, "{state}");
                states_in_conflict += u32::from(cost > 0);
            }
            assert!(
                states_in_conflict > 0,
                "the walk on {board} met no conflict at all"
            );
        }
    }
}
