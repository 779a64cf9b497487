//! Dual IDA* (DIDA*; Zahavi, Felner, Holte and Schaeffer, "Duality in permutation state spaces
//! and the dual search algorithm", AIJ 2008): IDA* that may continue from the *dual* of the
//! current position when the dual looks farther from the goal, and maps the path back.
//!
//! Tiles are named by their goal cells (labels), so a position is a permutation `x` (cell to
//! label) with one label `β` playing the blank, and the goal is the identity. A move swaps the
//! blank's cell with a neighbour, `x ∘ (a c)`. The dual of `(x, β)` is `(x⁻¹, x⁻¹(β))`; both
//! are equally far from the identity (`heuristic::dual`). The search keeps `x` and its inverse
//! `pos` (label to cell) side by side, so the dual is a swap of the two arrays, and the
//! heuristic of either side is the databases read at one or the other
//! ([`PatternHeuristic`]'s regular and reflected lookups for the side searched, its dual and
//! dual-reflected lookups for the other). At each node the search *jumps* (continues from the
//! dual, at no move's cost) when the dual's estimate is larger: the published policy.
//!
//! A move on the dual side, `x⁻¹ ∘ ρ`, is `ρ ∘ x` seen from the original side: the labels are
//! swapped, not the cells. So the moves of the original side `τ1 … τR` and those of the dual
//! side `ρ1 … ρL`, in the order made, end with `ρL … ρ1 ∘ s ∘ τ1 … τR = id`, that is
//! `s ∘ τ1 … τR ∘ ρL … ρ1 = id`: the path from the start is the original side's moves, then the
//! dual side's in reverse order. The path is replayed on the start's tiles and must end at the
//! goal (an assertion: the tests check it on every sampled state of 3x3 and 3x4).
//!
//! Each node ranks its patterns from scratch (the incremental ranks of [`PatternHeuristic`]
//! follow one side only), so a node costs several times an IDA* node; what it saves is
//! measured in BENCHMARKS.md.

use super::{unsolvable, Budget, Limit, Limits, Outcome, SearchResult};
use crate::board::{Move, MAX_CELLS};
use crate::heuristic::{Heuristic, PatternHeuristic};
use crate::solution::Solution;
use crate::state::State;

const FOUND: u32 = u32::MAX;
const STOPPED: u32 = u32::MAX - 1;
/// No cell: the root (and a node just jumped to) has no previous blank cell to avoid.
const NO_CELL: u8 = u8::MAX;

/// One swap of two cells, and on which side it was made.
#[derive(Clone, Copy, Debug)]
struct Swap {
    a: u8,
    c: u8,
    dual: bool,
}

struct Engine<'h> {
    h: &'h PatternHeuristic,
    sigma: Option<[u8; 32]>,
    n: usize,
    /// The cells next to each cell.
    near: [[u8; 4]; MAX_CELLS],
    near_count: [u8; MAX_CELLS],
    /// Cell to label, of the side searched.
    x: [u8; 32],
    /// Label to cell: the inverse of `x`, and the dual position.
    pos: [u8; 32],
    /// The label playing the blank on the side searched.
    blank: u8,
    /// Whether the side searched is the dual of the start's.
    dual: bool,
    path: Vec<Swap>,
    expanded: u64,
    generated: u64,
    jumps: u64,
    /// The parity of the start's distance.
    root_parity: u32,
    budget: Budget,
    stopped: Option<Limit>,
}

/// What [`dual_idastar`] found, with the number of jumps made.
#[derive(Clone, Debug)]
pub struct DualResult {
    /// The search's outcome and counts (the path is from the start, replayed).
    pub result: SearchResult,
    /// Jumps between the two sides, over all iterations.
    pub jumps: u64,
}

/// Finds an optimal path from `start` to `h`'s goal with dual IDA*: `h`'s regular and
/// reflected lookups (those it uses) bound the side searched, its dual and dual-reflected
/// lookups the other side, and the search jumps to the other side where that bound is larger.
/// With no dual lookup in `h` it never jumps (IDA* with patterns ranked from scratch).
///
/// ```
/// use std::ops::ControlFlow;
/// use std::sync::Arc;
/// use npuzzle::heuristic::{Lookups, PatternHeuristic};
/// use npuzzle::pattern::PatternDatabase;
/// use npuzzle::search::{dual_idastar, Limits};
/// use npuzzle::{Board, State};
/// let goal = State::canonical_goal(Board::THREE_BY_THREE, 0);
/// let dbs = [[1u8, 2, 3, 4], [5, 6, 7, 8]]
///     .iter()
///     .map(|tiles| {
///         let db = PatternDatabase::build(&goal, tiles, &|_| ControlFlow::Continue(())).unwrap();
///         Arc::new(db.map_into())
///     })
///     .collect();
/// let h = PatternHeuristic::with_lookups(&goal, dbs, Lookups::ALL)?;
/// let start: State = "8 7 6 5 4 3 2 1 0".parse()?;
/// let found = dual_idastar(&start, &h, Limits::default());
/// assert_eq!(found.result.solution().map(|s| s.len()), Some(28));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn dual_idastar(start: &State, h: &PatternHeuristic, limits: Limits) -> DualResult {
    let goal = *h.goal();
    let budget = Budget::new(limits);
    if start.board() != goal.board() || !start.can_reach(&goal) {
        return DualResult {
            result: unsolvable(std::time::Instant::now()),
            jumps: 0,
        };
    }
    let board = start.board();
    let n = board.cells();
    let mut near = [[0u8; 4]; MAX_CELLS];
    let mut near_count = [0u8; MAX_CELLS];
    for cell in 0..n {
        for mv in Move::ALL {
            if let Some(to) = board.step(cell, mv) {
                near[cell][near_count[cell] as usize] =
                    u8::try_from(to).expect("a board has at most 25 cells");
                near_count[cell] += 1;
            }
        }
    }
    let home = h.homes();
    let mut x = [0u8; 32];
    let mut pos = [0u8; 32];
    for (cell, &tile) in start.cells().iter().enumerate() {
        x[cell] = home[tile as usize];
        pos[home[tile as usize] as usize] =
            u8::try_from(cell).expect("a board has at most 25 cells");
    }
    let mut engine = Engine {
        h,
        sigma: h.reflection_cells().copied(),
        n,
        near,
        near_count,
        x,
        pos,
        blank: home[0],
        dual: false,
        path: Vec::with_capacity(256),
        expanded: 0,
        generated: 0,
        jumps: 0,
        root_parity: 0,
        budget,
        stopped: None,
    };
    // The distance's parity at the root: that of the tiles' Manhattan distances (every move
    // flips both); a node at depth g has the root's parity flipped g times.
    let root_parity = start
        .cells()
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != 0)
        .map(|(cell, &t)| {
            let (home, w) = (home[t as usize] as usize, board.width());
            u32::try_from((home / w).abs_diff(cell / w) + (home % w).abs_diff(cell % w))
                .expect("below 25 + 25")
        })
        .sum::<u32>()
        & 1;
    engine.root_parity = root_parity;
    let (here, there) = engine.estimates(u32::MAX, root_parity);
    let root_h = here.max(there);
    let mut bound = root_h;
    let outcome = loop {
        engine.budget.note_bound(bound);
        let saved = (engine.x, engine.pos, engine.blank, engine.dual);
        let result = engine.dfs(0, root_h, bound, NO_CELL);
        if result == FOUND {
            break Outcome::Solved(engine.replay(start, &goal));
        }
        if result == STOPPED {
            break Outcome::GaveUp(engine.stopped.expect("set when stopping"));
        }
        (engine.x, engine.pos, engine.blank, engine.dual) = saved;
        bound = result;
    };
    DualResult {
        result: engine
            .budget
            .finish(outcome, engine.expanded, engine.generated),
        jumps: engine.jumps,
    }
}

impl Engine<'_> {
    /// The bound of `(p, blank)` from the lookups `plain` and `reflected` (position `p` given
    /// as label to cell).
    #[inline]
    fn side(&self, p: &[u8; 32], blank: u8, plain: bool, reflected: bool, limit: u32) -> u32 {
        let mut h = 0;
        if plain {
            h = self.h.bound(p, blank as usize);
            if h > limit {
                return h;
            }
        }
        if reflected {
            let sigma = self
                .sigma
                .as_ref()
                .expect("reflected lookups need a reflection");
            let mut r = [0u8; 32];
            for l in 0..self.n {
                r[sigma[l] as usize & 31] = sigma[p[l] as usize & 31];
            }
            h = h.max(self.h.bound(&r, sigma[blank as usize & 31] as usize));
        }
        h
    }

    /// The estimates of the side searched and of its dual, each raised by one where it has
    /// the other parity than the distance (`parity`); the dual's is left at 0 when the
    /// side's alone exceeds `limit`.
    #[inline]
    fn estimates(&self, limit: u32, parity: u32) -> (u32, u32) {
        let used = self.h.lookups();
        let here = self.side(&self.pos, self.blank, used.regular, used.reflected, limit);
        let here = here + ((here ^ parity) & 1);
        if here > limit || !used.any_dual() {
            return (here, 0);
        }
        let dual_blank = self.pos[self.blank as usize & 31];
        let there = self.side(&self.x, dual_blank, used.dual, used.dual_reflected, limit);
        (here, there + ((there ^ parity) & 1))
    }

    /// Continues from the dual of the position searched.
    fn jump(&mut self) {
        self.blank = self.pos[self.blank as usize & 31];
        std::mem::swap(&mut self.x, &mut self.pos);
        self.dual = !self.dual;
        self.jumps += 1;
    }

    fn is_identity(&self) -> bool {
        self.x[..self.n]
            .iter()
            .enumerate()
            .all(|(c, &l)| c == l as usize)
    }

    /// Swaps the contents of cells `a` and `c`.
    #[inline]
    // Cells are below 25; this runs twice for every node of the search, so no check.
    #[allow(clippy::cast_possible_truncation)]
    fn swap(&mut self, a: usize, c: usize) {
        let (la, lc) = (self.x[a & 31], self.x[c & 31]);
        self.x[a & 31] = lc;
        self.x[c & 31] = la;
        self.pos[la as usize & 31] = c as u8;
        self.pos[lc as usize & 31] = a as u8;
    }

    fn dfs(&mut self, g: u32, h: u32, bound: u32, back: u8) -> u32 {
        if g + h > bound {
            return g + h;
        }
        if h == 0 && self.is_identity() {
            return FOUND;
        }
        if let Some(limit) = self.budget.exhausted(self.expanded) {
            self.stopped = Some(limit);
            return STOPPED;
        }
        self.expanded += 1;
        let mut next_bound = u32::MAX - 2;
        let blank_cell = self.pos[self.blank as usize & 31];
        let a = usize::from(blank_cell);
        let limit = bound.saturating_sub(g + 1);
        for k in 0..self.near_count[a] as usize {
            let c = self.near[a][k];
            if c == back {
                continue;
            }
            self.swap(a, c as usize);
            self.generated += 1;
            let (here, there) = self.estimates(limit, self.root_parity ^ ((g + 1) & 1));
            let child_h = here.max(there).max(h.saturating_sub(1));
            if child_h > limit {
                next_bound = next_bound.min(g + 1 + child_h);
                self.swap(a, c as usize);
                continue;
            }
            self.path.push(Swap {
                a: blank_cell,
                c,
                dual: self.dual,
            });
            let result = if there > here {
                // Jump: the dual side continues, without a previous cell to avoid; then back.
                let saved = (self.x, self.pos, self.blank, self.dual);
                self.jump();
                let result = self.dfs(g + 1, child_h, bound, NO_CELL);
                if result != FOUND && result != STOPPED {
                    (self.x, self.pos, self.blank, self.dual) = saved;
                }
                result
            } else {
                self.dfs(g + 1, child_h, bound, blank_cell)
            };
            if result == FOUND || result == STOPPED {
                return result;
            }
            self.path.pop();
            self.swap(a, c as usize);
            next_bound = next_bound.min(result);
        }
        next_bound
    }

    /// The path from `start`: the original side's swaps in order, then the dual side's in
    /// reverse, each replayed as the blank's move; checked to end at `goal`.
    fn replay(&self, start: &State, goal: &State) -> Solution {
        let w = start.board().width();
        let swaps = self
            .path
            .iter()
            .filter(|s| !s.dual)
            .chain(self.path.iter().rev().filter(|s| s.dual));
        let mut blank = start.blank();
        let mut moves = Vec::with_capacity(self.path.len());
        for s in swaps {
            let (a, c) = (s.a as usize, s.c as usize);
            let to = match blank {
                _ if blank == a => c,
                _ if blank == c => a,
                _ => panic!("dual search: swap {a}-{c} does not hold the blank (cell {blank})"),
            };
            let mv = if to + w == blank {
                Move::Up
            } else if blank + w == to {
                Move::Down
            } else if to + 1 == blank {
                Move::Left
            } else {
                Move::Right
            };
            moves.push(mv);
            blank = to;
        }
        let solution = Solution::from_moves(*start, moves).expect("replayed moves are legal");
        assert_eq!(
            solution.end(),
            *goal,
            "dual search: the path does not reach the goal"
        );
        solution
    }
}
