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
/// cost read from a table built once: at most 6^5 = 7,776 entries for 5x5.
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
}

impl LinearConflict {
    /// The heuristic for `goal`.
    pub fn new(goal: &State) -> LinearConflict {
        let (width, height) = (goal.board().width(), goal.board().height());
        let home = goal_cells(goal);
        let mut row_digit = [[width as u8; MAX_CELLS]; MAX_SIDE as usize];
        let mut col_digit = [[height as u8; MAX_CELLS]; MAX_SIDE as usize];
        for tile in 1..goal.board().cells() {
            let (r, c) = (home[tile] as usize / width, home[tile] as usize % width);
            row_digit[r][tile] = c as u8;
            col_digit[c][tile] = r as u8;
        }
        let powers = |base: u32| {
            let mut pow = [0u32; MAX_SIDE as usize];
            let mut p = 1;
            for slot in pow.iter_mut() {
                *slot = p;
                p *= base;
            }
            pow
        };
        LinearConflict {
            manhattan: Manhattan::new(goal),
            width,
            height,
            row_digit,
            col_digit,
            row_pow: powers(width as u32 + 1),
            col_pow: powers(height as u32 + 1),
            row_cost: line_costs(width),
            col_cost: line_costs(height),
        }
    }

    #[inline]
    fn row_key(&self, r: usize, cells: &[u8]) -> usize {
        let digits = &self.row_digit[r];
        (0..self.width)
            .map(|i| digits[cells[r * self.width + i] as usize] as u32 * self.row_pow[i])
            .sum::<u32>() as usize
    }

    #[inline]
    fn col_key(&self, c: usize, cells: &[u8]) -> usize {
        let digits = &self.col_digit[c];
        (0..self.height)
            .map(|i| digits[cells[c + i * self.width] as usize] as u32 * self.col_pow[i])
            .sum::<u32>() as usize
    }

    fn conflicts(&self, cells: &[u8]) -> u32 {
        let rows: u32 = (0..self.height)
            .map(|r| self.row_cost[self.row_key(r, cells)] as u32)
            .sum();
        let columns: u32 = (0..self.width)
            .map(|c| self.col_cost[self.col_key(c, cells)] as u32)
            .sum();
        rows + columns
    }
}

/// The extra moves of every key of a line of `len` cells (see [`LinearConflict`]).
fn line_costs(len: usize) -> Vec<u8> {
    let base = len + 1;
    let keys = base.pow(len as u32);
    (0..keys)
        .map(|key| {
            let mut rest = key;
            let mut positions = [0u8; MAX_SIDE as usize];
            let mut count = 0;
            for _ in 0..len {
                let digit = rest % base;
                rest /= base;
                if digit < len {
                    positions[count] = digit as u8;
                    count += 1;
                }
            }
            if count < 2 {
                0
            } else {
                2 * (count - longest_increasing(&positions[..count])) as u8
            }
        })
        .collect()
}

/// The length of the longest strictly increasing subsequence of at most five values.
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

impl Heuristic for LinearConflict {
    fn goal(&self) -> &State {
        self.manhattan.goal()
    }

    fn estimate_cells(&self, cells: &[u8]) -> u32 {
        self.manhattan.estimate_cells(cells) + self.conflicts(cells)
    }

    #[inline]
    fn update(&self, cells: &[u8], before: u32, tile: u8, from: usize, to: usize) -> u32 {
        // A vertical move keeps the order within the tile's column and changes two rows; a
        // horizontal move keeps the order within its row and changes two columns. The keys
        // before the move differ from those after only in the moved tile's digit.
        let w = self.width;
        let t = tile as usize;
        let (removed, added) = if from.abs_diff(to) == w {
            let (old, new, i) = (from / w, to / w, from % w);
            let (old_after, new_after) = (self.row_key(old, cells), self.row_key(new, cells));
            let none = w as u32;
            let old_before = old_after + (self.row_digit[old][t] as u32 * self.row_pow[i]) as usize
                - (none * self.row_pow[i]) as usize;
            let new_before = new_after + (none * self.row_pow[i]) as usize
                - (self.row_digit[new][t] as u32 * self.row_pow[i]) as usize;
            (
                self.row_cost[old_before] + self.row_cost[new_before],
                self.row_cost[old_after] + self.row_cost[new_after],
            )
        } else {
            let (old, new, i) = (from % w, to % w, from / w);
            let (old_after, new_after) = (self.col_key(old, cells), self.col_key(new, cells));
            let none = self.height as u32;
            let old_before = old_after + (self.col_digit[old][t] as u32 * self.col_pow[i]) as usize
                - (none * self.col_pow[i]) as usize;
            let new_before = new_after + (none * self.col_pow[i]) as usize
                - (self.col_digit[new][t] as u32 * self.col_pow[i]) as usize;
            (
                self.col_cost[old_before] + self.col_cost[new_before],
                self.col_cost[old_after] + self.col_cost[new_after],
            )
        };
        self.manhattan.update(cells, before, tile, from, to) + added as u32 - removed as u32
    }
}
