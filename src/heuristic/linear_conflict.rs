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
use crate::state::{State, BLANK};

/// Manhattan distance plus twice, over every row and column, the fewest tiles that must leave
/// the line to resolve its conflicts.
#[derive(Clone, Debug)]
pub struct LinearConflict {
    manhattan: Manhattan,
    width: usize,
    height: usize,
    /// The goal row and column of every tile.
    goal_row: [u8; MAX_CELLS],
    goal_col: [u8; MAX_CELLS],
}

/// A row or a column.
#[derive(Clone, Copy)]
enum Line {
    Row(usize),
    Column(usize),
}

impl LinearConflict {
    /// The heuristic for `goal`.
    pub fn new(goal: &State) -> LinearConflict {
        let width = goal.board().width();
        let home = goal_cells(goal);
        let mut goal_row = [0u8; MAX_CELLS];
        let mut goal_col = [0u8; MAX_CELLS];
        for tile in 0..goal.board().cells() {
            goal_row[tile] = home[tile] / width as u8;
            goal_col[tile] = home[tile] % width as u8;
        }
        LinearConflict {
            manhattan: Manhattan::new(goal),
            width,
            height: goal.board().height(),
            goal_row,
            goal_col,
        }
    }

    /// The extra moves (Manhattan not counted) that the conflicts of `line` force.
    #[inline]
    fn line_cost(&self, line: Line, tile_at: impl Fn(usize) -> u8) -> u32 {
        // Goal positions, along the line, of the tiles that belong to it, in current order.
        let mut positions = [0u8; MAX_SIDE as usize];
        let mut count = 0;
        let (len, first, stride) = match line {
            Line::Row(r) => (self.width, r * self.width, 1),
            Line::Column(c) => (self.height, c, self.width),
        };
        for i in 0..len {
            let tile = tile_at(first + i * stride);
            if tile == BLANK {
                continue;
            }
            let position = match line {
                Line::Row(r) => (self.goal_row[tile as usize] as usize == r)
                    .then_some(self.goal_col[tile as usize]),
                Line::Column(c) => (self.goal_col[tile as usize] as usize == c)
                    .then_some(self.goal_row[tile as usize]),
            };
            if let Some(position) = position {
                positions[count] = position;
                count += 1;
            }
        }
        if count < 2 {
            return 0;
        }
        2 * (count - longest_increasing(&positions[..count])) as u32
    }

    fn conflicts(&self, cells: &[u8]) -> u32 {
        let rows: u32 = (0..self.height)
            .map(|r| self.line_cost(Line::Row(r), |c| cells[c]))
            .sum();
        let columns: u32 = (0..self.width)
            .map(|c| self.line_cost(Line::Column(c), |cell| cells[cell]))
            .sum();
        rows + columns
    }
}

/// The length of the longest strictly increasing subsequence of at most five values.
#[inline]
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
        // horizontal move keeps the order within its row and changes two columns.
        let w = self.width;
        let (old, new) = if from.abs_diff(to) == w {
            (Line::Row(from / w), Line::Row(to / w))
        } else {
            (Line::Column(from % w), Line::Column(to % w))
        };
        let before_move = |c: usize| {
            if c == from {
                tile
            } else if c == to {
                BLANK
            } else {
                cells[c]
            }
        };
        let after_move = |c: usize| cells[c];
        let removed = self.line_cost(old, before_move) + self.line_cost(new, before_move);
        let added = self.line_cost(old, after_move) + self.line_cost(new, after_move);
        self.manhattan.update(cells, before, tile, from, to) + added - removed
    }
}
