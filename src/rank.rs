//! Ranking: a bijection between the states of one parity class and `0..n!/2`.
//!
//! A state is indexed as `blank_cell * (n-1)! + lehmer(tiles)`, where `tiles` are the tiles in
//! cell order with the blank left out and `lehmer` is the Lehmer-code rank of that sequence.
//! This *full index* covers both parity classes (`n!` values). The two permutations whose full
//! indices differ only in the lowest bit differ by one swap of the last two tiles, so they lie in
//! different classes: the *folded* index `full >> 1` is a bijection from one class onto
//! `0..n!/2`. (Folding the plain Lehmer rank of all `n` cells would be wrong on odd widths,
//! where every move flips that permutation's parity.)
//!
//! Why this layout: a horizontal move keeps the tile sequence, so only the blank term changes;
//! a vertical move carries one tile past `width - 1` others, a rotation of `width` consecutive
//! Lehmer digits, whose effect on the rank depends only on those digits. [`RankSpace`]
//! precomputes that effect per window, so a neighbour's index costs two divisions by
//! precomputed constants and one small-table read instead of a full re-rank.

use crate::board::{Board, Move, WrongBoardError, MAX_CELLS};
use crate::state::{Parity, State};

/// The largest board (in cells) that can be ranked: 12 cells keep every full index below 2^32.
pub const MAX_RANKED_CELLS: usize = 12;

/// The number of 3x3 states in one parity class: 9!/2.
pub const STATES_3X3: u32 = 181_440;

/// Why a board cannot be ranked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a {board} board has too many states to rank: exact tables need at most {MAX_RANKED_CELLS} cells")]
pub struct TooLargeError {
    /// The board asked for.
    pub board: Board,
}

/// Division by a divisor fixed at run time, by multiply and shift (Lemire's fastmod), because
/// hardware division would cost more than everything else in a neighbour computation.
///
/// Branch-free for every divisor, 1 included: a descent computes several neighbours per
/// step through windows whose divisors differ, so a test of the divisor would be
/// mispredicted.
#[derive(Clone, Copy, Debug)]
struct Divisor {
    /// `ceil(2^64 / divisor)`; 0 for divisor 1, whose constant does not fit.
    magic: u64,
    /// All ones for divisor 1 (the quotient is `n` itself), else zero.
    identity: u32,
}

impl Divisor {
    fn new(divisor: u32) -> Divisor {
        debug_assert!(divisor > 0);
        let (magic, identity) = if divisor == 1 {
            (0, u32::MAX)
        } else {
            (u64::MAX / u64::from(divisor) + 1, 0)
        };
        Divisor { magic, identity }
    }

    #[inline(always)]
    fn div(self, n: u32) -> u32 {
        // The high half of a u64 x u32 product is below 2^32; a checked cast here would sit
        // in the rank's inner loop, which is the tables' hot path.
        #[allow(clippy::cast_possible_truncation)]
        let quotient = ((u128::from(self.magic) * u128::from(n)) >> 64) as u32;
        quotient | (n & self.identity)
    }
}

/// How a vertical move changes the tiles' Lehmer rank when the blank is in one cell.
#[derive(Clone, Copy, Debug)]
struct Window {
    /// The window's digits of a tile rank are `(rank / below) % span`, computed as
    /// `rank / below - (rank / above) * span` with `above = below * span`: the two divisions
    /// are independent, so they run side by side instead of one after the other.
    below: Divisor,
    above: Divisor,
    span: u32,
    /// Where the window's `span` rank changes start in [`RankSpace`]'s `deltas`: the change
    /// of the tile rank for each value of the window's digits.
    offset: u32,
}

impl Window {
    /// The window of a move that keeps the tile rank (a horizontal move): one digit value,
    /// whose change (at offset 0 of `deltas`) is 0.
    const IDENTITY: Window = Window {
        below: Divisor {
            magic: 0,
            identity: u32::MAX,
        },
        above: Divisor {
            magic: 0,
            identity: u32::MAX,
        },
        span: 1,
        offset: 0,
    };

    /// The tile rank after the move, from tile rank `perm`; `deltas` is the space's.
    #[inline(always)]
    fn rotate(self, deltas: &[i32], perm: u32) -> u32 {
        perm.wrapping_add_signed(deltas[(self.offset + self.digits(perm)) as usize])
    }

    /// The value of the window's digits in tile rank `perm`, `0..span`.
    #[inline(always)]
    fn digits(self, perm: u32) -> u32 {
        self.below.div(perm) - self.above.div(perm) * self.span
    }
}

/// One move of the blank out of a cell with everything a walk needs to compute the neighbour
/// from the tile rank alone (see [`RankSpace::slots`]): no division to split a full index,
/// no branch on the kind of move, and the window's constants beside the move, one load away.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    /// The move.
    pub(crate) mv: Move,
    /// The blank's cell after the move.
    pub(crate) to: u32,
    /// `to * (n-1)!`: the full index of the blank in `to` with tile rank 0.
    base: u32,
    /// The move's window; [`Window::IDENTITY`] for a horizontal move.
    window: Window,
    /// Whether the move is vertical: a horizontal one keeps the tile rank, and a walk
    /// that knows it need not wait for a rotation through the identity window.
    vertical: bool,
}

/// Tile ranks below `2^NARROW_BITS` (boards of at most 10 cells: `9! < 2^19`) have
/// [`NarrowSlot`]s.
const NARROW_BITS: u32 = 19;

/// A [`NarrowSlot`]'s division of `n` by `d` is `(n * ceil(2^NARROW_SHIFT / d)) >>
/// NARROW_SHIFT`. Exact for `n, d < 2^19`: with the constant `(2^40 + e) / d`, `0 <= e < d`,
/// the product over `2^40` is `n / d + n * e / (d * 2^40)`, and `n * e < 2^38` keeps the excess
/// below `1 / d`, which the fraction of `n / d` never fills; the product stays below `2^59`.
const NARROW_SHIFT: u32 = 40;

/// [`Slot`] for boards of at most 10 cells: 32 bytes, four to a cell, so a walk finds a cell's
/// row by a shift, and each of the window's divisions is one 64-bit multiplication and a
/// shift (see [`NARROW_SHIFT`]), where [`Divisor`] needs a 128-bit one and a mask for a divisor
/// of 1: one step of a descent waits for two of them. A cell with fewer than four moves is
/// padded with slots that stay (the neighbour is the state itself, never one closer), so a walk
/// reads four without a length.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NarrowSlot {
    /// The constants dividing by the move's window's `below` and `above` (see [`Window`]).
    below: u64,
    above: u64,
    span: u32,
    /// Where the window's rank changes start in [`RankSpace`]'s `deltas`.
    offset: u32,
    /// `to * (n-1)!`: the full index of the blank in `to` with tile rank 0.
    base: u32,
    /// The blank's cell after the move.
    pub(crate) to: u8,
    /// The move.
    pub(crate) mv: Move,
    /// Whether the move is vertical (a horizontal one keeps the tile rank).
    vertical: bool,
}

/// The [`NarrowSlot`]s of each cell, from the moves out of each cell (`steps`), the windows
/// and their `below`s, and `perms`, `(n-1)!`.
fn narrow_slots(
    steps: &[Vec<Step>],
    windows: &[Window],
    belows: &[u32],
    perms: u32,
) -> Vec<[NarrowSlot; 4]> {
    let magic = |d: u32| (1u64 << NARROW_SHIFT).div_ceil(u64::from(d));
    let slot = |mv, to: u32, window: Option<u32>| {
        let (below, above, span, offset) = match window {
            Some(w) => {
                let (win, below) = (windows[w as usize], belows[w as usize]);
                (below, below * win.span, win.span, win.offset)
            }
            None => (1, 1, 1, 0),
        };
        NarrowSlot {
            below: magic(below),
            above: magic(above),
            span,
            offset,
            base: to * perms,
            to: u8::try_from(to).expect("a cell index is below MAX_RANKED_CELLS"),
            mv,
            vertical: window.is_some(),
        }
    };
    steps
        .iter()
        .enumerate()
        .map(|(cell, from_here)| {
            let mut row = [slot(Move::Up, cell_u32(cell), None); 4];
            for (narrow, step) in row.iter_mut().zip(from_here) {
                *narrow = slot(step.mv, step.to, step.window);
            }
            row
        })
        .collect()
}

/// One precomputed move of the blank from one cell.
#[derive(Clone, Debug)]
struct Step {
    mv: Move,
    /// The blank's cell after the move.
    to: u32,
    /// `None` for horizontal moves, which keep the tile rank.
    window: Option<u32>,
}

/// The index arithmetic of one board: rank, unrank, and neighbours' indices.
///
/// ```
/// use npuzzle::{Board, RankSpace, State};
/// let space = RankSpace::new(Board::THREE_BY_THREE)?;
/// let goal = State::goal(Board::THREE_BY_THREE);
/// let index = space.rank_unchecked(&goal);
/// assert_eq!(space.unrank(index, goal.parity_class()), goal);
/// assert_eq!(space.states(), 181_440);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct RankSpace {
    board: Board,
    /// `(n-1)!`: tile ranks per blank cell.
    perms: u32,
    /// Moves *into* each cell: `(from cell, window)`, `None` for horizontal moves.
    incoming: Vec<Vec<(u32, Option<u32>)>>,
    perms_div: Divisor,
    /// `weights[b][c]`: with the blank in cell `b`, the weight of the Lehmer digit of the tile
    /// in cell `c`, `(m-1-i)!` for its tile position `i` (`c`, or `c - 1` after the blank).
    /// One row per blank cell, so the rank's loop reads a weight instead of computing a
    /// position.
    weights: [[u32; MAX_RANKED_CELLS]; MAX_RANKED_CELLS],
    /// Moves from each cell, in [`Move::ALL`] order.
    steps: Vec<Vec<Step>>,
    windows: Vec<Window>,
    /// Each window's `below`, the tile ranks over which its digits stay the same (see
    /// [`RankSpace::runs`]).
    belows: Vec<u32>,
    /// The moves out of each cell (see [`Slot`]): the first `len` of four.
    slots: Vec<([Slot; 4], u8)>,
    /// [`NarrowSlot`]s of each cell, on boards of at most 10 cells; empty on larger ones.
    narrow_slots: Vec<[NarrowSlot; 4]>,
    /// Every window's rank changes, one after the other, after a 0 for [`Window::IDENTITY`].
    deltas: Vec<i32>,
}

/// What [`RankSpace::tile_rank`]'s 4-bit counters start from: 1 for every tile, 0 for the
/// blank (counter 0).
const COUNTERS_START: u64 = 0x1111_1111_1111_1110;

/// `SEEN[t]` for a tile `t >= 1`: a one in each 4-bit counter above `t` (see
/// [`RankSpace::tile_rank`]); `SEEN[0]`, the blank, adds nothing.
const SEEN: [u64; 16] = {
    let mut seen = [0u64; 16];
    let mut tile = 1;
    while tile < 16 {
        seen[tile] = (0x1111_1111_1111_1111u64 << (4 * tile)) << 4;
        tile += 1;
    }
    seen
};

/// `cell` (a cell index or count of a board of at most 25 cells) as a `u32`.
fn cell_u32(cell: usize) -> u32 {
    u32::try_from(cell).expect("a board has at most 25 cells")
}

fn factorial(k: usize) -> u64 {
    (1..=k as u64).product()
}

impl RankSpace {
    /// The rank space of `board`.
    ///
    /// # Errors
    /// [`TooLargeError`] for boards of more than [`MAX_RANKED_CELLS`] cells.
    pub fn new(board: Board) -> Result<RankSpace, TooLargeError> {
        let n = board.cells();
        if n > MAX_RANKED_CELLS {
            return Err(TooLargeError { board });
        }
        let m = n - 1;
        let w = board.width();
        let mut windows = Vec::new();
        let mut belows = Vec::new();
        let mut deltas = vec![0];
        let mut steps = Vec::with_capacity(n);
        for cell in 0..n {
            let mut from_here = Vec::new();
            for mv in Move::ALL {
                let Some(to) = board.step(cell, mv) else {
                    continue;
                };
                let window = match mv {
                    Move::Left | Move::Right => None,
                    // The tile above moves down: tile positions to-..cell-1 rotate left.
                    Move::Up => Some(window(m, to, w, true, &mut deltas)),
                    // The tile below moves up: tile positions cell..to-1 rotate right.
                    Move::Down => Some(window(m, cell, w, false, &mut deltas)),
                };
                let window = window.map(|(win, below)| {
                    windows.push(win);
                    belows.push(below);
                    u32::try_from(windows.len() - 1).expect("at most 4 windows a cell")
                });
                from_here.push(Step {
                    mv,
                    to: cell_u32(to),
                    window,
                });
            }
            steps.push(from_here);
        }
        let mut incoming = vec![Vec::new(); n];
        for (from, from_here) in steps.iter().enumerate() {
            for step in from_here {
                incoming[step.to as usize].push((cell_u32(from), step.window));
            }
        }
        let perms =
            u32::try_from(factorial(m)).expect("m < MAX_RANKED_CELLS (checked above): 11! < 2^32");
        let slots = steps
            .iter()
            .enumerate()
            .map(|(cell, from_here)| {
                // Slots past the cell's moves are never read.
                let unused = Slot {
                    mv: Move::Up,
                    to: cell_u32(cell),
                    base: cell_u32(cell) * perms,
                    window: Window::IDENTITY,
                    vertical: false,
                };
                let mut row = [unused; 4];
                for (slot, step) in row.iter_mut().zip(from_here) {
                    *slot = Slot {
                        mv: step.mv,
                        to: step.to,
                        base: step.to * perms,
                        window: step
                            .window
                            .map_or(Window::IDENTITY, |w| windows[w as usize]),
                        vertical: step.window.is_some(),
                    };
                }
                (
                    row,
                    u8::try_from(from_here.len()).expect("a cell has at most 4 moves"),
                )
            })
            .collect();
        let narrow_slots = if perms < 1 << NARROW_BITS {
            narrow_slots(&steps, &windows, &belows, perms)
        } else {
            Vec::new()
        };
        let mut weights = [[0u32; MAX_RANKED_CELLS]; MAX_RANKED_CELLS];
        for (blank, row) in weights.iter_mut().enumerate().take(n) {
            for (cell, weight) in row.iter_mut().enumerate().take(n) {
                if cell != blank {
                    let position = cell - usize::from(cell > blank);
                    *weight = u32::try_from(factorial(m - 1 - position)).expect("below m! < 2^32");
                }
            }
        }
        Ok(RankSpace {
            board,
            perms,
            incoming,
            weights,
            perms_div: Divisor::new(perms),
            steps,
            windows,
            belows,
            slots,
            narrow_slots,
            deltas,
        })
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// States in one parity class, `n!/2`: the length of a table.
    pub fn states(&self) -> u32 {
        self.full_len() / 2
    }

    /// Full indices, both classes: `n!`.
    pub fn full_len(&self) -> u32 {
        self.perms * cell_u32(self.board.cells())
    }

    /// The full index of `state` (both parity classes), `0..n!`.
    ///
    /// # Panics
    /// As [`rank_unchecked`](Self::rank_unchecked), for a state of another board.
    #[inline]
    pub fn full_index(&self, state: &State) -> u32 {
        self.full_index_and_parity(state).0
    }

    /// The full index of `state` and the parity of its tiles' inversions (the Lehmer digits'
    /// sum), computed in one pass.
    ///
    /// # Panics
    /// As [`rank_unchecked`](Self::rank_unchecked), for a state of another board (always in debug builds).
    #[inline]
    pub(crate) fn full_index_and_parity(&self, state: &State) -> (u32, bool) {
        debug_assert_eq!(state.board(), self.board);
        self.full_index_of_cells(state.cells(), state.blank())
    }

    /// [`full_index_and_parity`](Self::full_index_and_parity) of the state whose cells are
    /// `cells` (a permutation of `0..n`, the blank in cell `blank`): the bulk path ranks rows
    /// of bytes without making a `State` of each.
    #[inline]
    pub(crate) fn full_index_of_cells(&self, cells: &[u8], blank: usize) -> (u32, bool) {
        debug_assert_eq!(cells.len(), self.board.cells());
        // One copy of the loop per board size, unrolled: the 3x3 one is the tables' hot path.
        let (rank, parity) = match cells.len() {
            4 => self.tile_rank::<4>(cells, blank),
            6 => self.tile_rank::<6>(cells, blank),
            8 => self.tile_rank::<8>(cells, blank),
            9 => self.tile_rank::<9>(cells, blank),
            10 => self.tile_rank::<10>(cells, blank),
            12 => self.tile_rank::<12>(cells, blank),
            _ => self.tile_rank_other_board(cells, blank),
        };
        // The blank's cell is below MAX_RANKED_CELLS; checking it here would cost in the rank,
        // the tables' hot path.
        #[allow(clippy::cast_possible_truncation)]
        let blank = blank as u32;
        (blank * self.perms + rank, parity)
    }

    /// The Lehmer rank of the tiles of `cells` (the blank, in cell `blank`, left out) and the
    /// parity of its digits, for a board of exactly `N` cells.
    ///
    /// A tile's digit counts the smaller tiles still to come: the tiles smaller than `t` are
    /// `t - 1`, less those already seen. The loop keeps that "1 + smaller tiles seen" for
    /// every value at once, a 4-bit counter per value in one `u64` (at most 11 tiles, so at
    /// most 12 counters of at most 12): seeing tile `t` adds one to the counters above `t`
    /// (`SEEN[t]`), and a digit is `t` minus its counter, one shift and mask. The blank (0)
    /// has counter 0 and adds nothing, so its digit is 0 without a test: the blank's cell is
    /// random, a branch on it would be mispredicted. No popcount either: the baseline x86-64
    /// target lacks the instruction and would emulate it in a dozen.
    #[inline(always)]
    fn tile_rank<const N: usize>(&self, cells: &[u8], blank: usize) -> (u32, bool) {
        let cells: &[u8; N] = cells.first_chunk().expect("the caller matched the length");
        let weights = &self.weights[blank.min(MAX_RANKED_CELLS - 1)];
        let mut counters: u64 = COUNTERS_START;
        let mut rank: u32 = 0;
        let mut digits: u32 = 0;
        for (cell, &tile) in cells.iter().enumerate() {
            let tile = u32::from(tile & 15);
            let digit = tile.wrapping_sub(((counters >> (4 * tile)) & 15) as u32);
            rank = rank.wrapping_add(digit.wrapping_mul(weights[cell % MAX_RANKED_CELLS]));
            digits = digits.wrapping_add(digit);
            counters = counters.wrapping_add(SEEN[tile as usize]);
        }
        (rank, digits & 1 == 1)
    }

    /// [`RankSpace::tile_rank`] of a state of a board too large for any rank space: a
    /// meaningless number, but no panic (see [`RankSpace::rank_unchecked`]).
    #[cold]
    #[inline(never)]
    fn tile_rank_other_board(&self, cells: &[u8], blank: usize) -> (u32, bool) {
        let mut padded = [0u8; MAX_RANKED_CELLS];
        let n = cells.len().min(MAX_RANKED_CELLS);
        padded[..n].copy_from_slice(&cells[..n]);
        self.tile_rank::<MAX_RANKED_CELLS>(&padded, blank)
    }

    /// The folded index of `state` in `0..n!/2` (states of one parity class never share
    /// one), after checking that `state` is on this space's board; [`unrank`](Self::unrank)
    /// is its inverse.
    ///
    /// # Errors
    /// [`WrongBoardError`] for a state of another board.
    pub fn rank(&self, state: &State) -> Result<u32, WrongBoardError> {
        WrongBoardError::check(self.board, state.board())?;
        Ok(self.rank_unchecked(state))
    }

    /// The folded index of `state`, as [`rank`](Self::rank) gives it, without checking its
    /// board: the tables' hot path.
    ///
    /// # Panics
    /// `state` must be on this space's board: debug builds assert it; in release builds a
    /// state of another board gives a meaningless index, possibly out of range. Use [`rank`](Self::rank) where the board is not known.
    #[inline]
    pub fn rank_unchecked(&self, state: &State) -> u32 {
        self.full_index(state) >> 1
    }

    /// The state of parity class `class` (see [`State::parity_class`]) with folded `index`.
    ///
    /// # Panics
    /// If `index >= self.states()`.
    pub fn unrank(&self, index: u32, class: Parity) -> State {
        assert!(index < self.states(), "index {index} is out of range");
        let even = self.state_at(index * 2);
        if even.parity_class() == class {
            even
        } else {
            self.state_at(index * 2 + 1)
        }
    }

    /// The state with full index `full`.
    pub fn state_at(&self, full: u32) -> State {
        let n = self.board.cells();
        let m = n - 1;
        let blank = (full / self.perms) as usize;
        let mut rank = full % self.perms;
        let mut digits = [0u32; MAX_CELLS];
        // Digit `i` has radix `m - i`: 1 for the last digit, counting up.
        for (i, radix) in (0..m).rev().zip(1u32..) {
            digits[i] = rank % radix;
            rank /= radix;
        }
        let mut remaining: Vec<u8> = (1..=u8::try_from(m).expect("m < MAX_RANKED_CELLS")).collect();
        let mut cells = [0u8; MAX_CELLS];
        let mut next = 0;
        for (cell, slot) in cells.iter_mut().enumerate().take(n) {
            if cell == blank {
                continue;
            }
            *slot = remaining.remove(digits[next] as usize);
            next += 1;
        }
        State::from_valid_cells(self.board, cells)
    }

    /// Calls `visit(move, neighbour_full_index)` for each move of the blank from full index
    /// `full`, in [`Move::ALL`] order. This is the generator's and the solver's inner loop.
    #[inline]
    pub fn for_each_neighbour(&self, full: u32, mut visit: impl FnMut(Move, u32)) {
        let blank = self.perms_div.div(full);
        let perm = full - blank * self.perms;
        self.for_each_neighbour_split(blank, perm, &mut visit);
    }

    /// [`RankSpace::for_each_neighbour`] with the blank cell and tile rank already separated.
    #[inline]
    pub(crate) fn for_each_neighbour_split(
        &self,
        blank: u32,
        perm: u32,
        visit: &mut impl FnMut(Move, u32),
    ) {
        for step in &self.steps[blank as usize] {
            visit(step.mv, self.step_index(step, perm));
        }
    }

    /// The first move from full index `full` (in [`Move::ALL`] order) whose neighbour
    /// satisfies `accept`, with that neighbour's full index. Later neighbours are not computed,
    /// which is what a descent along a table wants.
    #[inline]
    pub(crate) fn find_neighbour(
        &self,
        full: u32,
        mut accept: impl FnMut(u32) -> bool,
    ) -> Option<(Move, u32)> {
        let blank = self.perms_div.div(full);
        let perm = full - blank * self.perms;
        self.steps[blank as usize].iter().find_map(|step| {
            let next = self.step_index(step, perm);
            accept(next).then_some((step.mv, next))
        })
    }

    /// The blank cell and the tile rank of full index `full`, without a hardware division.
    #[inline(always)]
    pub(crate) fn split(&self, full: u32) -> (u32, u32) {
        let blank = self.perms_div.div(full);
        (blank, full - blank * self.perms)
    }

    /// Tile ranks per blank cell, `(n-1)!`: the length of one blank cell's block of full
    /// indices (`full = blank * perms + perm`).
    pub(crate) fn perms(&self) -> u32 {
        self.perms
    }

    /// The moves that bring the blank *into* `cell`: the cell it comes from, and for a
    /// vertical move the window whose rotation changes the tile rank (see
    /// [`RankSpace::rotate`]); a horizontal move keeps the tile rank.
    pub(crate) fn incoming(&self, cell: usize) -> &[(u32, Option<u32>)] {
        &self.incoming[cell]
    }

    /// The moves of the blank *out of* `cell`, in [`Move::ALL`] order: the cell it goes to,
    /// and for a vertical move the window to pass to [`RankSpace::rotate`].
    pub(crate) fn outgoing(&self, cell: usize) -> impl Iterator<Item = (u32, Option<u32>)> + '_ {
        self.steps[cell].iter().map(|step| (step.to, step.window))
    }

    /// The tile rank after the vertical move of `window` from tile rank `perm`.
    #[inline(always)]
    pub(crate) fn rotate(&self, window: u32, perm: u32) -> u32 {
        self.windows[window as usize].rotate(&self.deltas, perm)
    }

    /// The moves of the blank out of `cell`, in [`Move::ALL`] order (see [`Slot`]).
    ///
    /// # Panics
    /// If `cell` is not a cell of the board.
    #[inline(always)]
    pub(crate) fn slots(&self, cell: u32) -> &[Slot] {
        let (slots, len) = &self.slots[cell as usize];
        &slots[..*len as usize]
    }

    /// The [`NarrowSlot`]s of every cell, four per cell, on boards of at most 10 cells; `None`
    /// on larger ones.
    pub(crate) fn narrow_slots(&self) -> Option<&[[NarrowSlot; 4]]> {
        (!self.narrow_slots.is_empty()).then_some(&self.narrow_slots[..])
    }

    /// [`RankSpace::through`] for a [`NarrowSlot`] of this space.
    #[inline(always)]
    pub(crate) fn through_narrow(&self, slot: &NarrowSlot, perm: u32) -> (u32, u32) {
        let next = if slot.vertical {
            let div = |magic: u64| ((u64::from(perm) * magic) >> NARROW_SHIFT) as u32;
            let digits = div(slot.below) - div(slot.above) * slot.span;
            perm.wrapping_add_signed(self.deltas[(slot.offset + digits) as usize])
        } else {
            perm
        };
        (slot.base + next, next)
    }

    /// The neighbour through `slot` of the state with tile rank `perm` (its blank in the
    /// slot's cell): its full index and its tile rank.
    #[inline(always)]
    pub(crate) fn through(&self, slot: &Slot, perm: u32) -> (u32, u32) {
        // A branch, not the identity window's arithmetic: a horizontal step of a walk then
        // waits for no multiplication (the slots' kinds come in a fixed order, U D L R,
        // which the branch predictor follows).
        let next = if slot.vertical {
            slot.window.rotate(&self.deltas, perm)
        } else {
            perm
        };
        (slot.base + next, next)
    }

    /// [`RankSpace::rotate`] for one window, looked up once: a loop over many tile ranks then
    /// keeps the window's constants in registers.
    #[inline(always)]
    pub(crate) fn rotation(&self, window: u32) -> impl Fn(u32) -> u32 + '_ {
        // Copies, not a reference: a reference's fields would be reloaded after every store
        // the caller makes, since the compiler cannot rule out that the store changed them.
        let win = self.windows[window as usize];
        let delta = &self.deltas[win.offset as usize..][..win.span as usize];
        move |perm| {
            let digits = win.digits(perm);
            perm.wrapping_add_signed(delta[digits as usize])
        }
    }

    /// The vertical move of `window` as *runs*: `(below, changes)`. The window's digits of a
    /// tile rank are the same over each run of `below` tile ranks, and runs take the window's
    /// digit values in turn, `changes.len()` of them, before they repeat; every rank of a run
    /// changes by the same amount, the run's entry of `changes` (a multiple of `below`). So the
    /// move carries a run of consecutive ranks onto a run of consecutive ranks.
    pub(crate) fn runs(&self, window: u32) -> (u32, &[i32]) {
        let win = self.windows[window as usize];
        let changes = &self.deltas[win.offset as usize..][..win.span as usize];
        (self.belows[window as usize], changes)
    }

    #[inline(always)]
    fn step_index(&self, step: &Step, perm: u32) -> u32 {
        let next_perm = match step.window {
            None => perm,
            Some(w) => self.rotate(w, perm),
        };
        step.to * self.perms + next_perm
    }
}

/// The window of `len` Lehmer digits starting at tile position `start` (of `m` tiles), and the
/// rank change for every value of its digits when its tiles rotate left (or right).
/// The changes are appended to `deltas`.
fn window(
    m: usize,
    start: usize,
    len: usize,
    rotate_left: bool,
    deltas: &mut Vec<i32>,
) -> (Window, u32) {
    // Digits of the window are ranks within the suffix of `suffix` tiles that starts at `start`.
    let suffix = m - start;
    let below = factorial(suffix - len);
    let span = factorial(suffix) / below;
    // Opening a 12-cell table builds 16 windows of up to 7,920 codes each, so this loop is
    // allocation-free: the pool of unused tiles is a bit mask, and a digit is the rank of a
    // tile among those left (a popcount) or the tile of a rank among them (the d-th set bit).
    let offset =
        u32::try_from(deltas.len()).expect("deltas index a table's rank space, below 2^32");
    deltas.reserve(usize::try_from(span).expect("a window spans at most 11! codes"));
    let all: u32 = (1 << suffix) - 1;
    for code in 0..span {
        // Decode the window's digits (radices suffix, suffix-1, ..., last digit lowest).
        let mut digits = [0u32; MAX_RANKED_CELLS];
        let mut rest = code;
        for j in (0..len).rev() {
            let radix = u64::try_from(suffix - j).expect("suffix < MAX_RANKED_CELLS");
            digits[j] =
                u32::try_from(rest % radix).expect("a digit is below its radix, at most 11");
            rest /= radix;
        }
        // The window's tiles, as ranks among the suffix's tiles.
        let mut pool = all;
        let mut values = [0u32; MAX_RANKED_CELLS];
        for (value, &d) in values.iter_mut().zip(&digits[..len]) {
            let mut left = pool;
            for _ in 0..d {
                left &= left - 1;
            }
            *value = left.trailing_zeros();
            pool &= !(1 << *value);
        }
        if rotate_left {
            values[..len].rotate_left(1);
        } else {
            values[..len].rotate_right(1);
        }
        let mut pool = all;
        let mut new_code = 0u64;
        for (j, &v) in values[..len].iter().enumerate() {
            let d = (pool & ((1 << v) - 1)).count_ones();
            pool &= !(1 << v);
            new_code = new_code * (suffix - j) as u64 + u64::from(d);
        }
        let delta = (new_code as i64 - code as i64) * below as i64;
        deltas.push(i32::try_from(delta).expect("a rank change is below 11! < 2^31"));
    }
    let window = Window {
        below: Divisor::new(u32::try_from(below).expect("below <= 11!")),
        above: Divisor::new(u32::try_from(below * span).expect("below * span <= 11!")),
        span: u32::try_from(span).expect("span <= 11!"),
        offset,
    };
    (window, u32::try_from(below).expect("below <= 11!"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_division_matches_hardware_division() {
        for d in [1u32, 2, 3, 6, 7, 120, 720, 5040, 40320, 39_916_800] {
            let div = Divisor::new(d);
            for n in (0..2_000_000u32)
                .step_by(997)
                .chain([u32::MAX - 1, 479_001_599])
            {
                assert_eq!(div.div(n), n / d, "{n} / {d}");
            }
        }
    }

    /// The rank as its definition reads: digit `i` counts the later tiles smaller than tile
    /// `i`, weighted by `(m-1-i)!`; the parity is that of the digits' sum.
    fn reference_full_index_and_parity(state: &State) -> (u32, bool) {
        let tiles: Vec<u8> = state.cells().iter().copied().filter(|&t| t != 0).collect();
        let m = tiles.len();
        let mut rank = 0u64;
        let mut digits = 0u64;
        for (i, &tile) in tiles.iter().enumerate() {
            let digit = tiles[i + 1..].iter().filter(|&&t| t < tile).count() as u64;
            rank += digit * factorial(m - 1 - i);
            digits += digit;
        }
        let full = state.blank() as u64 * factorial(m) + rank;
        (u32::try_from(full).unwrap(), digits % 2 == 1)
    }

    /// Every board of at most 10 cells, the ones with narrow slots.
    const UP_TO_TEN_CELLS: [(usize, usize); 8] = [
        (2, 2),
        (3, 2),
        (2, 3),
        (4, 2),
        (2, 4),
        (3, 3),
        (2, 5),
        (5, 2),
    ];

    #[test]
    fn rank_matches_its_definition_on_every_state_of_boards_up_to_ten_cells() {
        for (w, h) in UP_TO_TEN_CELLS {
            assert_rank_matches_its_definition(w, h, 1);
        }
    }

    /// Checks the rank against its definition on every `step`-th state of the `w`x`h` board.
    fn assert_rank_matches_its_definition(w: usize, h: usize, step: usize) {
        let space = RankSpace::new(Board::new(w, h).unwrap()).unwrap();
        for full in (0..space.full_len()).step_by(step) {
            let state = space.state_at(full);
            let expected = reference_full_index_and_parity(&state);
            assert_eq!(
                space.full_index_and_parity(&state),
                expected,
                "{w}x{h} {state}"
            );
            assert_eq!(expected.0, full, "{w}x{h} {state}");
        }
    }

    #[test]
    fn rank_matches_its_definition_on_twelve_cell_boards() {
        for (w, h) in [(3, 4), (4, 3), (2, 6), (6, 2)] {
            assert_rank_matches_its_definition(w, h, 9_973);
        }
    }

    #[test]
    fn slots_and_narrow_slots_give_the_neighbours_of_for_each_neighbour_for_every_state() {
        for (w, h) in UP_TO_TEN_CELLS {
            let space = RankSpace::new(Board::new(w, h).unwrap()).unwrap();
            let rows = space.narrow_slots().expect("boards of at most 10 cells");
            assert_eq!(rows.len(), w * h);
            for full in 0..space.full_len() {
                let (blank, perm) = space.split(full);
                assert_eq!((blank, perm), (full / space.perms(), full % space.perms()));
                let mut expected = Vec::new();
                space.for_each_neighbour(full, |mv, index| expected.push((mv, index)));
                let check = |mv: Move, to: u32, (index, tiles): (u32, u32)| {
                    assert_eq!(index, to * space.perms() + tiles, "{w}x{h} {full}");
                    (mv, index)
                };
                let slots = space.slots(blank).iter();
                let through: Vec<(Move, u32)> = slots
                    .map(|slot| check(slot.mv, slot.to, space.through(slot, perm)))
                    .collect();
                assert_eq!(through, expected, "{w}x{h} full index {full}");
                let narrow: Vec<(Move, u32)> = rows[blank as usize]
                    .iter()
                    .map(|slot| {
                        check(
                            slot.mv,
                            u32::from(slot.to),
                            space.through_narrow(slot, perm),
                        )
                    })
                    .collect();
                // The moves, then slots that stay.
                let (moves, stays) = narrow.split_at(expected.len());
                assert_eq!(moves, expected, "{w}x{h} full index {full}");
                assert!(
                    stays.iter().all(|&(_, index)| index == full),
                    "{w}x{h} {full}"
                );
            }
        }
        for (w, h) in [(3, 4), (4, 3), (2, 6), (6, 2)] {
            let space = RankSpace::new(Board::new(w, h).unwrap()).unwrap();
            assert!(space.narrow_slots().is_none(), "{w}x{h}");
        }
    }

    #[test]
    fn runs_move_every_tile_rank_as_rotate_does_on_boards_up_to_ten_cells() {
        for (w, h) in UP_TO_TEN_CELLS {
            let space = RankSpace::new(Board::new(w, h).unwrap()).unwrap();
            for window in 0..u32::try_from(space.windows.len()).unwrap() {
                let (below, changes) = space.runs(window);
                let run_count = space.perms() / below;
                assert_eq!(run_count * below, space.perms(), "{w}x{h} window {window}");
                for (run, &change) in changes.iter().cycle().take(run_count as usize).enumerate() {
                    assert_eq!(change % below as i32, 0, "{w}x{h} window {window}");
                    let run = u32::try_from(run).unwrap();
                    for perm in run * below..(run + 1) * below {
                        let moved = perm.wrapping_add_signed(change);
                        assert_eq!(space.rotate(window, perm), moved, "{w}x{h} {window} {perm}");
                    }
                }
            }
        }
    }

    #[test]
    fn neighbour_indices_match_re_ranking_on_small_boards() {
        for (w, h) in [(2, 2), (3, 2), (2, 3), (4, 2), (2, 4), (3, 3)] {
            let space = RankSpace::new(Board::new(w, h).unwrap()).unwrap();
            for full in (0..space.full_len()).step_by(if w * h > 6 { 7 } else { 1 }) {
                let state = space.state_at(full);
                assert_eq!(space.full_index(&state), full);
                let mut expected = state
                    .successors()
                    .map(|(mv, next)| (mv, space.full_index(&next)));
                space.for_each_neighbour(full, |mv, index| {
                    assert_eq!(Some((mv, index)), expected.next(), "{w}x{h} {state}");
                });
                assert_eq!(expected.next(), None);
            }
        }
    }
}
