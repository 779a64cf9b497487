//! An admissible MTM estimate: the walking distance of each axis, counted in MTM moves.
//!
//! Seen along one axis (rows, say), a position is how many tiles of each goal row every row
//! holds, and which row holds the blank. A vertical MTM move of `k` cells moves one tile out
//! of each of the `k` rows it crosses, one row towards where the blank was; which tile is
//! forgotten, so the abstract move may take any tile of each row. Horizontal moves leave this
//! abstraction unchanged. So the vertical moves of any solution are a path in the abstract
//! graph from the position's abstraction to the goal's, and the abstract distance (found by a
//! breadth-first search from the goal's abstraction) bounds them from below; the columns'
//! bound is the same over the transposed board, and as every move is vertical or horizontal,
//! their sum bounds the MTM distance (`tests/mtm.rs` checks it against the exact tables).
//!
//! The abstraction is kept for axes of at most [`MAX_LINES`] lines; beyond, an axis is
//! bounded by its Manhattan distance over the most tiles one move can shift, `lines - 1`.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use crate::state::{State, BLANK};

/// The most lines (rows or columns) an axis may have for its walking distance to be tabled.
pub const MAX_LINES: usize = 4;

/// Bits of one count in a packed abstraction (a line holds at most 7 tiles of one kind).
const BITS: usize = 3;

/// The walking distances of one axis of one goal, in MTM moves.
#[derive(Debug)]
struct Axis {
    /// Number of lines along this axis (rows for the vertical axis).
    lines: usize,
    /// Distance of each packed abstraction to the goal's.
    distance: FxHashMap<u64, u8>,
}

/// The MTM estimate of one goal: walking distance per axis, else Manhattan over `lines - 1`.
#[derive(Debug)]
pub struct WalkingDistance {
    goal: State,
    /// Goal row and column of each tile.
    goal_row: [u8; crate::board::MAX_CELLS],
    goal_col: [u8; crate::board::MAX_CELLS],
    vertical: Option<Axis>,
    horizontal: Option<Axis>,
}

impl WalkingDistance {
    /// The estimate towards `goal`.
    pub fn new(goal: &State) -> WalkingDistance {
        let board = goal.board();
        let (w, h) = (board.width(), board.height());
        let mut goal_row = [0u8; crate::board::MAX_CELLS];
        let mut goal_col = [0u8; crate::board::MAX_CELLS];
        for (cell, &tile) in goal.cells().iter().enumerate() {
            goal_row[tile as usize] = u8::try_from(cell / w).expect("a row is below 25");
            goal_col[tile as usize] = u8::try_from(cell % w).expect("a column is below 25");
        }
        let fits = |lines: usize, size: usize| lines <= MAX_LINES && size < (1 << BITS);
        let vertical = fits(h, w).then(|| Axis::build(goal, h, &|cell| cell / w, &goal_row));
        let horizontal = fits(w, h).then(|| Axis::build(goal, w, &|cell| cell % w, &goal_col));
        WalkingDistance {
            goal: *goal,
            goal_row,
            goal_col,
            vertical,
            horizontal,
        }
    }

    /// The goal this estimate is for.
    pub fn goal(&self) -> &State {
        &self.goal
    }

    /// A lower bound on the MTM distance from `state` to the goal.
    // Rows, columns and sides are below 25; this runs for every node of a search, so the
    // casts are not checked.
    #[allow(clippy::cast_possible_truncation)]
    pub fn estimate(&self, state: &State) -> u32 {
        let board = state.board();
        let w = board.width();
        let (mut rows, mut cols) = ([0u8; 16], [0u8; 16]);
        let (mut manhattan_v, mut manhattan_h) = (0u32, 0u32);
        for (cell, &tile) in state.cells().iter().enumerate() {
            if tile == BLANK {
                continue;
            }
            let (r, c) = (cell / w, cell % w);
            let (gr, gc) = (self.goal_row[tile as usize], self.goal_col[tile as usize]);
            manhattan_v += (r as i32 - i32::from(gr)).unsigned_abs();
            manhattan_h += (c as i32 - i32::from(gc)).unsigned_abs();
            if r < MAX_LINES && (gr as usize) < MAX_LINES {
                rows[r * MAX_LINES + gr as usize] += 1;
            }
            if c < MAX_LINES && (gc as usize) < MAX_LINES {
                cols[c * MAX_LINES + gc as usize] += 1;
            }
        }
        let blank = state.blank();
        let vertical = match &self.vertical {
            Some(axis) => axis.distance_of(&rows, blank / w),
            None => manhattan_v.div_ceil(board.height() as u32 - 1),
        };
        let horizontal = match &self.horizontal {
            Some(axis) => axis.distance_of(&cols, blank % w),
            None => manhattan_h.div_ceil(w as u32 - 1),
        };
        vertical + horizontal
    }
}

/// Packs counts (`MAX_LINES` by `MAX_LINES`, line-major) and the blank's line.
fn pack(counts: &[u8; 16], blank_line: usize) -> u64 {
    let mut key = blank_line as u64;
    for &count in counts {
        key = (key << BITS) | u64::from(count);
    }
    key
}

impl Axis {
    /// Breadth-first search over the abstractions from the goal's; `line_of(cell)` is a
    /// cell's line and `class[tile]` a tile's goal line.
    fn build(goal: &State, lines: usize, line_of: &dyn Fn(usize) -> usize, class: &[u8]) -> Axis {
        let mut start = [0u8; 16];
        for (cell, &tile) in goal.cells().iter().enumerate() {
            if tile != BLANK {
                start[line_of(cell) * MAX_LINES + class[tile as usize] as usize] += 1;
            }
        }
        let blank = line_of(goal.blank());
        let mut distance = FxHashMap::default();
        distance.insert(pack(&start, blank), 0u8);
        let mut queue = VecDeque::from([(start, blank, 0u8)]);
        while let Some((counts, blank, d)) = queue.pop_front() {
            for target in 0..lines {
                if target == blank {
                    continue;
                }
                let mut choose = |next: [u8; 16]| {
                    let key = pack(&next, target);
                    if let std::collections::hash_map::Entry::Vacant(slot) = distance.entry(key) {
                        slot.insert(d + 1);
                        queue.push_back((next, target, d + 1));
                    }
                };
                successors(&counts, blank, target, lines, &mut choose);
            }
        }
        Axis { lines, distance }
    }

    fn distance_of(&self, counts: &[u8; 16], blank_line: usize) -> u32 {
        debug_assert!(blank_line < self.lines);
        // Every abstraction of a solvable position is reached from the goal's; a position of
        // the other parity class may not be, and 0 is always a lower bound.
        self.distance
            .get(&pack(counts, blank_line))
            .map_or(0, |&d| u32::from(d))
    }
}

/// Calls `visit` with every abstraction after the blank's line moves from `blank` to
/// `target`: each line crossed (between them, `target` included) gives one tile of any goal
/// line it holds to its neighbour towards `blank`.
fn successors(
    counts: &[u8; 16],
    blank: usize,
    target: usize,
    lines: usize,
    visit: &mut dyn FnMut([u8; 16]),
) {
    let crossed: Vec<(usize, usize)> = if target > blank {
        (blank + 1..=target).map(|l| (l, l - 1)).collect()
    } else {
        (target..blank).rev().map(|l| (l, l + 1)).collect()
    };
    fn go(
        original: &[u8; 16],
        current: [u8; 16],
        crossed: &[(usize, usize)],
        lines: usize,
        visit: &mut dyn FnMut([u8; 16]),
    ) {
        let Some(&(from, to)) = crossed.first() else {
            visit(current);
            return;
        };
        for class in 0..lines {
            if original[from * MAX_LINES + class] > 0 {
                let mut next = current;
                next[from * MAX_LINES + class] -= 1;
                next[to * MAX_LINES + class] += 1;
                go(original, next, &crossed[1..], lines, visit);
            }
        }
    }
    go(counts, *counts, &crossed, lines, visit);
}
