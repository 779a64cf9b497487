//! The constructive solver: any board, any goal, a solution in milliseconds with no length
//! guarantee.
//!
//! It solves the way people do: the top row of the unsolved region when the region is at
//! least as tall as it is wide, else its left column (the same routine on the transposed
//! board), until a 2x2 region is left, which a breadth-first search finishes. A tile is
//! brought to its cell one step at a time along a shortest route through the unsolved cells,
//! the blank taken round it by a breadth-first search that avoids the tile and every placed
//! cell. The last two tiles of a line are the classic hard case (the second cannot enter its
//! corner once the first is placed): the second is put in the first's cell, the first under
//! it, and two moves turn them into place; where the first is caught in the corner, a
//! breadth-first search over the positions of the two tiles and the blank in the 3x3 (or
//! 2x3) window at the line's end finishes them. Moves that undo each other are cancelled at
//! the end.

use std::collections::VecDeque;

use super::state::LargeState;
use crate::board::Move;
use crate::guarantee::Guarantee;

/// The start cannot reach the goal (another board, or the other parity class): the
/// constructive solver's refusal, with the reason written out once for every front end (the
/// command line, the server, the game and Python print its `Display`). For states of at most
/// 25 cells, [`crate::Unsolvable`] also says which invariant differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnreachableGoal {
    start: LargeState,
    goal: LargeState,
}

impl UnreachableGoal {
    /// The start that cannot reach [`UnreachableGoal::goal`].
    #[must_use]
    pub fn start(&self) -> &LargeState {
        &self.start
    }

    /// The goal out of reach.
    #[must_use]
    pub fn goal(&self) -> &LargeState {
        &self.goal
    }
}

impl std::fmt::Display for UnreachableGoal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (start, goal) = (&self.start, &self.goal);
        if start.board() != goal.board() {
            return write!(
                f,
                "{start} cannot reach {goal}: they are on different boards ({} and {})",
                start.board(),
                goal.board()
            );
        }
        // On boards of even width a vertical move also moves the blank a row, so the class
        // counts the blank's row with the tile inversions.
        let what = if start.board().width().is_multiple_of(2) {
            "tile inversions plus the blank's row"
        } else {
            "tile inversions"
        };
        write!(
            f,
            "{start} cannot reach {goal}: the two are in different parity classes ({what}), and no move changes it"
        )
    }
}

impl std::error::Error for UnreachableGoal {}

/// A length guarantee asked of the constructive solver, which gives none: only
/// [`Guarantee::None`] may be asked of boards beyond 5x5. The command line and Python name
/// their own option before this reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("boards beyond 5x5 are solved by the constructive solver only, with no length guarantee")]
pub struct NoLengthGuarantee {
    /// What was asked: optimal, or within a factor.
    pub asked: Guarantee,
}

/// `Ok` where the constructive solver can honour `asked` (no guarantee at all).
///
/// # Errors
/// [`NoLengthGuarantee`] for an optimal or bounded length.
///
/// ```
/// use npuzzle::large::constructive_guarantee;
/// use npuzzle::Guarantee;
///
/// assert!(constructive_guarantee(Guarantee::None).is_ok());
/// assert!(constructive_guarantee(Guarantee::Optimal).is_err());
/// ```
pub fn constructive_guarantee(asked: Guarantee) -> Result<(), NoLengthGuarantee> {
    match asked {
        Guarantee::None => Ok(()),
        Guarantee::Optimal | Guarantee::Within(_) => Err(NoLengthGuarantee { asked }),
    }
}

/// A solution from `start` to `goal` by the constructive method (see the module doc): any
/// board of [`crate::large`], no guarantee on its length.
///
/// # Errors
/// [`UnreachableGoal`] where the goal cannot be reached.
pub fn solve_constructive(
    start: &LargeState,
    goal: &LargeState,
) -> Result<Vec<Move>, UnreachableGoal> {
    if !start.can_reach(goal) {
        return Err(UnreachableGoal {
            start: start.clone(),
            goal: goal.clone(),
        });
    }
    if start == goal {
        return Ok(Vec::new());
    }
    let board = goal.board();
    let n = board.cells();
    // Solve towards the goal with its blank walked to the last cell (right, then down), then
    // walk it back: the solver places tiles with the blank ending bottom right.
    let mut tail = Vec::new();
    let mut shifted = goal.clone();
    while shifted.blank() % board.width() != board.width() - 1 {
        shifted.step(Move::Right);
        tail.push(Move::Left);
    }
    while shifted.blank() != n - 1 {
        shifted.step(Move::Down);
        tail.push(Move::Up);
    }
    tail.reverse();
    // Rename tiles so that the shifted goal reads 1, 2, ..., n-1, blank.
    let mut rename = vec![0u16; n];
    for (cell, &tile) in shifted.tiles().iter().enumerate() {
        if tile != 0 {
            rename[tile as usize] = tile_homed_at(cell);
        }
    }
    let tiles: Vec<u16> = start.tiles().iter().map(|&t| rename[t as usize]).collect();
    let mut solver = Solver::new(board.width(), board.height(), tiles);
    solver.run();
    let mut moves = solver.moves;
    moves.extend(tail);
    Ok(cancel_inverses(moves))
}

/// The tile whose home is `cell` in the renamed goal `1, 2, ..., n-1, blank`.
fn tile_homed_at(cell: usize) -> u16 {
    u16::try_from(cell + 1).expect("a board has at most 64 * 64 cells")
}

/// Removes every move followed at once by its inverse (repeatedly, as a stack).
fn cancel_inverses(moves: Vec<Move>) -> Vec<Move> {
    let mut kept: Vec<Move> = Vec::with_capacity(moves.len());
    for mv in moves {
        if kept.last() == Some(&mv.inverse()) {
            kept.pop();
        } else {
            kept.push(mv);
        }
    }
    kept
}

/// A line's cells named in its own frame: `(row, column)` of the board, or of its transpose.
#[derive(Clone, Copy)]
struct Frame {
    width: usize,
    transposed: bool,
}

impl Frame {
    fn cell(self, row: usize, col: usize) -> usize {
        if self.transposed {
            col * self.width + row
        } else {
            row * self.width + col
        }
    }
}

struct Solver {
    w: usize,
    h: usize,
    tiles: Vec<u16>,
    /// `pos[tile]`: the cell holding it.
    pos: Vec<usize>,
    blank: usize,
    locked: Vec<bool>,
    moves: Vec<Move>,
    /// Breadth-first scratch: a stamp per cell (visited in the current search), the parent.
    stamp: Vec<u32>,
    epoch: u32,
    parent: Vec<usize>,
    dist: Vec<u32>,
    queue: VecDeque<usize>,
}

impl Solver {
    fn new(w: usize, h: usize, tiles: Vec<u16>) -> Solver {
        let n = w * h;
        let mut pos = vec![0; n];
        for (cell, &tile) in tiles.iter().enumerate() {
            pos[tile as usize] = cell;
        }
        Solver {
            w,
            h,
            blank: pos[0],
            tiles,
            pos,
            locked: vec![false; n],
            moves: Vec::new(),
            stamp: vec![0; n],
            epoch: 0,
            parent: vec![0; n],
            dist: vec![0; n],
            queue: VecDeque::new(),
        }
    }

    fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> {
        let (w, n) = (self.w, self.w * self.h);
        let (r, c) = (cell / w, cell % w);
        [
            (r > 0).then(|| cell - w),
            (cell + w < n).then(|| cell + w),
            (c > 0).then(|| cell - 1),
            (c + 1 < w).then(|| cell + 1),
        ]
        .into_iter()
        .flatten()
    }

    /// Moves the blank one step to the adjacent `to`.
    fn step_blank(&mut self, to: usize) {
        let from = self.blank;
        let mv = if to + self.w == from {
            Move::Up
        } else if from + self.w == to {
            Move::Down
        } else if to + 1 == from {
            Move::Left
        } else {
            debug_assert_eq!(from + 1, to);
            Move::Right
        };
        let tile = self.tiles[to];
        self.tiles[from] = tile;
        self.pos[tile as usize] = from;
        self.tiles[to] = 0;
        self.pos[0] = to;
        self.blank = to;
        self.moves.push(mv);
    }

    fn run(&mut self) {
        let (mut top, mut left) = (0, 0);
        loop {
            let (rows, cols) = (self.h - top, self.w - left);
            if rows <= 2 && cols <= 2 {
                break;
            }
            if rows > 2 && rows >= cols {
                self.solve_line(
                    Frame {
                        width: self.w,
                        transposed: false,
                    },
                    top,
                    left,
                    cols,
                );
                top += 1;
            } else {
                self.solve_line(
                    Frame {
                        width: self.w,
                        transposed: true,
                    },
                    left,
                    top,
                    rows,
                );
                left += 1;
            }
        }
        // The last 2x2: its three tiles and the blank, by breadth-first search.
        let cells = [
            top * self.w + left,
            top * self.w + left + 1,
            (top + 1) * self.w + left,
            (top + 1) * self.w + left + 1,
        ];
        let tracked: Vec<(u16, usize)> =
            cells[..3].iter().map(|&c| (tile_homed_at(c), c)).collect();
        let found = self.window_search(&cells, &tracked);
        debug_assert!(found, "a solvable 2x2 is solved by search");
    }

    /// Places the line of `len` cells starting at `(r0, c0)` in `frame`; the region below it
    /// (in the frame) has at least two more rows.
    fn solve_line(&mut self, frame: Frame, r0: usize, c0: usize, len: usize) {
        for i in 0..len - 2 {
            let target = frame.cell(r0, c0 + i);
            let placed = self.move_tile(tile_homed_at(target), target);
            debug_assert!(placed, "a tile placed in a two-connected region");
            self.locked[target] = true;
        }
        let (a_cell, b_cell) = (frame.cell(r0, c0 + len - 2), frame.cell(r0, c0 + len - 1));
        let (below_a, below_b) = (
            frame.cell(r0 + 1, c0 + len - 2),
            frame.cell(r0 + 1, c0 + len - 1),
        );
        let (a, b) = (tile_homed_at(a_cell), tile_homed_at(b_cell));
        if !(self.pos[a as usize] == a_cell && self.pos[b as usize] == b_cell) {
            // b into a's cell, a under it, the blank into b's cell: two moves finish.
            let mut done = false;
            if self.move_tile(b, a_cell) {
                self.locked[a_cell] = true;
                let caught = [b_cell, below_b].contains(&self.pos[a as usize]);
                if !caught && self.move_tile(a, below_a) {
                    self.locked[below_a] = true;
                    if self.move_blank(&[b_cell], None) {
                        self.step_blank(a_cell);
                        self.step_blank(below_a);
                        done = true;
                    }
                    self.locked[below_a] = false;
                }
                self.locked[a_cell] = false;
            }
            if !done {
                let first = c0 + len.saturating_sub(3);
                let mut window = Vec::new();
                for row in r0..r0 + 3 {
                    for col in first..c0 + len {
                        let cell = frame.cell(row, col);
                        if !self.locked[cell] {
                            window.push(cell);
                        }
                    }
                }
                let (pa, pb) = (self.pos[a as usize], self.pos[b as usize]);
                let inside = window.contains(&pa) && window.contains(&pb);
                let entered = inside
                    && (window.contains(&self.blank) || {
                        let avoid = [pa, pb];
                        self.move_blank_avoiding(&window, &avoid)
                    });
                let solved = entered && self.window_search(&window, &[(a, a_cell), (b, b_cell)]);
                debug_assert!(solved, "the end of a line is solved in its window");
            }
        }
        self.locked[a_cell] = true;
        self.locked[b_cell] = true;
    }

    /// Brings `tile` to `target` through unlocked cells; `false` if the blank cannot get
    /// round it.
    fn move_tile(&mut self, tile: u16, target: usize) -> bool {
        if self.pos[tile as usize] == target {
            return true;
        }
        // Distances to the target over unlocked cells.
        self.epoch += 1;
        let epoch = self.epoch;
        self.stamp[target] = epoch;
        self.dist[target] = 0;
        self.queue.clear();
        self.queue.push_back(target);
        while let Some(cell) = self.queue.pop_front() {
            let d = self.dist[cell];
            for next in self.neighbours(cell).collect::<arrayvec_like::Four>() {
                if !self.locked[next] && self.stamp[next] != epoch {
                    self.stamp[next] = epoch;
                    self.dist[next] = d + 1;
                    self.queue.push_back(next);
                }
            }
        }
        let to_target: Vec<u32> = self
            .stamp
            .iter()
            .zip(&self.dist)
            .map(|(&s, &d)| if s == epoch { d } else { u32::MAX })
            .collect();
        while self.pos[tile as usize] != target {
            let at = self.pos[tile as usize];
            let d = to_target[at];
            if d == u32::MAX {
                return false;
            }
            let closer: arrayvec_like::Four = self
                .neighbours(at)
                .filter(|&q| !self.locked[q] && to_target[q] + 1 == d)
                .collect();
            if !self.move_blank(closer.as_slice(), Some(at)) {
                return false;
            }
            self.step_blank(at);
        }
        true
    }

    /// Takes the blank to the nearest of `targets` through unlocked cells, never through
    /// `avoid`; `false` if none is reachable.
    fn move_blank(&mut self, targets: &[usize], avoid: Option<usize>) -> bool {
        let avoid: Vec<usize> = avoid.into_iter().collect();
        self.move_blank_avoiding(targets, &avoid)
    }

    fn move_blank_avoiding(&mut self, targets: &[usize], avoid: &[usize]) -> bool {
        if targets.contains(&self.blank) {
            return true;
        }
        self.epoch += 1;
        let epoch = self.epoch;
        self.stamp[self.blank] = epoch;
        self.queue.clear();
        self.queue.push_back(self.blank);
        let mut found = None;
        'search: while let Some(cell) = self.queue.pop_front() {
            for next in self.neighbours(cell).collect::<arrayvec_like::Four>() {
                if self.locked[next] || avoid.contains(&next) || self.stamp[next] == epoch {
                    continue;
                }
                self.stamp[next] = epoch;
                self.parent[next] = cell;
                if targets.contains(&next) {
                    found = Some(next);
                    break 'search;
                }
                self.queue.push_back(next);
            }
        }
        let Some(end) = found else { return false };
        let mut path = vec![end];
        let mut cell = end;
        while self.parent[cell] != self.blank {
            cell = self.parent[cell];
            path.push(cell);
        }
        for &cell in path.iter().rev() {
            self.step_blank(cell);
        }
        true
    }

    /// Breadth-first search over the cells of `window` (the blank inside it) for the moves
    /// that put each tracked tile on its cell, tracking only those tiles and the blank (the
    /// others are interchangeable). Applies the moves; `false` if no such moves exist.
    fn window_search(&mut self, window: &[usize], tracked: &[(u16, usize)]) -> bool {
        let m = window.len();
        let index = |cell: usize| window.iter().position(|&c| c == cell);
        let Some(blank) = index(self.blank) else {
            return false;
        };
        let mut start = vec![blank];
        for &(tile, _) in tracked {
            match index(self.pos[tile as usize]) {
                Some(i) => start.push(i),
                None => return false,
            }
        }
        let want: Vec<usize> = match tracked.iter().map(|&(_, cell)| index(cell)).collect() {
            Some(want) => want,
            None => return false,
        };
        let encode = |s: &[usize]| s.iter().fold(0usize, |acc, &i| acc * m + i);
        let digits = u32::try_from(start.len()).expect("a window of at most four cells");
        let states = m.pow(digits);
        let mut parent = vec![usize::MAX; states];
        let start_code = encode(&start);
        parent[start_code] = start_code;
        let mut queue = VecDeque::from([start.clone()]);
        let mut goal = None;
        while let Some(state) = queue.pop_front() {
            if state[1..] == want[..] {
                goal = Some(state);
                break;
            }
            let code = encode(&state);
            for next_cell in self
                .neighbours(window[state[0]])
                .collect::<arrayvec_like::Four>()
            {
                let Some(j) = index(next_cell) else { continue };
                let mut next = state.clone();
                for i in next.iter_mut().skip(1) {
                    if *i == j {
                        *i = state[0];
                    }
                }
                next[0] = j;
                let next_code = encode(&next);
                if parent[next_code] == usize::MAX {
                    parent[next_code] = code;
                    queue.push_back(next);
                }
            }
        }
        let Some(goal) = goal else { return false };
        // The blank's cells along the way, from the goal back to the start.
        let mut blanks = Vec::new();
        let mut code = encode(&goal);
        while code != start_code {
            blanks.push(window[code / m.pow(digits - 1)]);
            code = parent[code];
        }
        for &cell in blanks.iter().rev() {
            self.step_blank(cell);
        }
        true
    }
}

/// Up to four cells (a cell's neighbours) without a heap allocation.
mod arrayvec_like {
    #[derive(Default)]
    pub(super) struct Four {
        cells: [usize; 4],
        len: usize,
    }

    impl Four {
        pub(super) fn as_slice(&self) -> &[usize] {
            &self.cells[..self.len]
        }
    }

    impl FromIterator<usize> for Four {
        fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Four {
            let mut four = Four::default();
            for cell in iter {
                four.cells[four.len] = cell;
                four.len += 1;
            }
            four
        }
    }

    impl IntoIterator for Four {
        type Item = usize;
        type IntoIter = std::iter::Take<std::array::IntoIter<usize, 4>>;
        fn into_iter(self) -> Self::IntoIter {
            self.cells.into_iter().take(self.len)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::large::{scramble_uniform, LargeBoard};
    use crate::rng::SplitMix64;

    #[test]
    fn every_small_board_is_solved_from_many_starts_to_several_goals() {
        for (w, h) in [
            (2, 2),
            (3, 2),
            (2, 3),
            (3, 3),
            (4, 2),
            (2, 5),
            (4, 4),
            (5, 3),
        ] {
            let board = LargeBoard::new(w, h).unwrap();
            let standard = LargeState::goal(board);
            for seed in 0..300 {
                let mut rng = SplitMix64::new(seed);
                let start = scramble_uniform(&standard, &mut rng);
                let goal = scramble_uniform(&standard, &mut rng);
                let moves = solve_constructive(&start, &goal).unwrap();
                assert_eq!(start.after(&moves).unwrap(), goal, "{w}x{h} seed {seed}");
            }
        }
    }

    #[test]
    fn the_other_class_is_refused() {
        let board = LargeBoard::new(3, 3).unwrap();
        let goal = LargeState::goal(board);
        let swapped = LargeState::parse("2 1 3 4 5 6 7 8 0", None).unwrap();
        let refused = solve_constructive(&swapped, &goal).unwrap_err();
        assert_eq!((refused.start(), refused.goal()), (&swapped, &goal));
        assert!(
            refused
                .to_string()
                .contains("different parity classes (tile inversions)"),
            "{refused}"
        );
        let wide = LargeBoard::new(4, 3).unwrap();
        let wide_goal = LargeState::goal(wide);
        let wide_swapped = LargeState::parse("2 1 3 4 5 6 7 8 9 10 11 0", Some(wide)).unwrap();
        let refused = solve_constructive(&wide_swapped, &wide_goal).unwrap_err();
        assert!(
            refused.to_string().contains("plus the blank's row"),
            "{refused}"
        );
        let other = solve_constructive(&swapped, &wide_goal).unwrap_err();
        assert!(other.to_string().contains("different boards"), "{other}");
    }
}
