//! Dual lookups: pattern databases read for the *dual* position, where tiles and cells swap
//! roles, and, more generally, for a position whose blank is another label than the goal's.
//!
//! Name every tile by its goal cell (a *label*), so that a position is a permutation `x`
//! (cell to label) and the goal is the identity. A move swaps the contents of the blank's cell
//! and a neighbour: `x' = x ∘ (a c)`. If `s ∘ τ1 ∘ … ∘ τk = id` (a solution of `s`), then
//! `s⁻¹ ∘ τk ∘ … ∘ τ1 = id`: the same swaps in reverse order take the inverse permutation to
//! the identity, and they are legal moves there if the blank of `s⁻¹` is taken to be the
//! label `p`, the cell where `s` has its blank (before each swap `τm` the label `p` lies in the
//! cell the blank of `s` reaches with it; see the tests). So `s` and its *dual* `(s⁻¹, blank p)`
//! are equally far from the identity, and a lower bound of one is a lower bound of the other.
//! In general `(x, β)` and `(x⁻¹, x⁻¹(β))` are equally far apart, which is what dual search
//! ([`crate::search::dual`]) jumps between.
//!
//! A database of pattern `P` (labels) holds, for each placement of `P`, the fewest moves of
//! `P`'s tiles that bring them home, the blank moving freely through the other cells, the
//! minimum over the blank's cells, counted to the goal with the blank in the goal's blank cell
//! `b`. For a position whose blank is label `β`, the same value bounds the moves of `P`'s
//! labels when
//!
//! - `β` is not in `P` (else `P`'s label `β` is the blank, whose moves are not counted), and
//! - at the goal placement of `P`, cell `β` is connected to cell `b` through cells outside
//!   `P` (then the database's goal and this goal are the same abstract state: the blank's
//!   region). Where they are not connected (for example the 6-6-6-6 pattern around the
//!   top-left corner walls cell 0 in), the database may count moves that only serve to bring
//!   the blank to `b`'s side, so only the Manhattan distances of `P`'s labels count.
//!
//! With `β` in `P`, the Manhattan distances of `P`'s other labels count. Labels in no pattern
//! (the real blank's among them, on the dual side) are not counted, so the sum may have the
//! other parity than the distance (which every move flips, so it is known: that of the
//! Manhattan distances of all tiles); callers then add one. These rules are
//! checked against exact tables on every state of 3x3 and 3x4 (tests/pattern_dual.rs).

use std::sync::Arc;

use crate::pattern::delta::NO_PATTERN;
use crate::pattern::PatternDatabase;
use crate::state::State;
use crate::store::StoredBytes;

/// What a bound with any label as the blank needs, for one goal and one partition.
#[derive(Clone, Debug)]
pub(crate) struct Bounds {
    /// `home[tile]`: the tile's goal cell (its label).
    pub(crate) home: [u8; 32],
    /// The reflection about the diagonal through the goal's blank, as a cell map, if any.
    pub(crate) sigma: Option<[u8; 32]>,
    /// `labels[p]`: pattern `p`'s labels, in the order of its database's tiles.
    labels: Vec<Vec<u8>>,
    /// `pattern[label]`: the pattern holding the label, or [`NO_PATTERN`].
    pattern: [u8; 32],
    /// `index[label]`: the label's place in its pattern's tiles.
    index: [u8; 32],
    /// `open[p]`: the cells connected to the goal's blank cell through cells outside pattern
    /// `p`'s goal cells, as a bit mask.
    open: Vec<u32>,
}

impl Bounds {
    /// The tables for `goal` and the patterns `patterns` (tiles, each in its database's order).
    pub(crate) fn new(goal: &State, patterns: &[Vec<u8>], sigma: Option<[u8; 32]>) -> Bounds {
        let board = goal.board();
        let (w, n) = (board.width(), board.cells());
        let mut home = [0u8; 32];
        for (cell, &tile) in goal.cells().iter().enumerate() {
            home[tile as usize] = u8::try_from(cell).expect("a board has at most 25 cells");
        }
        let mut pattern = [NO_PATTERN; 32];
        let mut index = [0u8; 32];
        let mut labels = Vec::new();
        let mut open = Vec::new();
        for (p, tiles) in patterns.iter().enumerate() {
            let ls: Vec<u8> = tiles.iter().map(|&t| home[t as usize]).collect();
            let walls = ls.iter().fold(0u32, |m, &l| m | 1 << l);
            for (i, &l) in ls.iter().enumerate() {
                pattern[l as usize] = u8::try_from(p).expect("at most MAX_PATTERNS patterns");
                index[l as usize] = u8::try_from(i).expect("a pattern has at most 25 tiles");
            }
            // Flood from the goal's blank cell through cells outside the pattern.
            let mut region = 1u32 << goal.blank();
            loop {
                let mut grown = region;
                for cell in 0..n {
                    if region >> cell & 1 == 0 {
                        continue;
                    }
                    let (r, c) = (cell / w, cell % w);
                    let mut near = Vec::with_capacity(4);
                    if r > 0 {
                        near.push(cell - w);
                    }
                    if r + 1 < board.height() {
                        near.push(cell + w);
                    }
                    if c > 0 {
                        near.push(cell - 1);
                    }
                    if c + 1 < w {
                        near.push(cell + 1);
                    }
                    for other in near {
                        if walls >> other & 1 == 0 {
                            grown |= 1 << other;
                        }
                    }
                }
                if grown == region {
                    break;
                }
                region = grown;
            }
            labels.push(ls);
            open.push(region);
        }
        Bounds {
            home,
            sigma,
            labels,
            pattern,
            index,
            open,
        }
    }

    /// The lower bound of the position where label `l` lies in cell `pos[l]`, with label
    /// `blank` as the blank, to the identity: per pattern its database value, or its labels'
    /// Manhattan distances where the database does not apply (module docs).
    #[inline]
    pub(crate) fn bound(
        &self,
        databases: &[Arc<PatternDatabase<StoredBytes>>],
        pos: &[u8; 32],
        blank: usize,
    ) -> u32 {
        let blank = blank & 31;
        let mut sum = 0u32;
        for (p, db) in databases.iter().enumerate() {
            let labels = &self.labels[p];
            let mut placement = [0u8; 16];
            let mut md = 0u32;
            for (i, &l) in labels.iter().enumerate() {
                let cell = pos[l as usize & 31];
                placement[i & 15] = cell;
                md += u32::from(db.tile_manhattan(i, cell));
            }
            if usize::from(self.pattern[blank]) == p {
                let i = self.index[blank] as usize;
                sum += md - u32::from(db.tile_manhattan(i, pos[blank]));
            } else if self.open[p] >> blank & 1 == 1 {
                let rank = db.space().rank(&placement[..labels.len()]);
                sum += md + 2 * u32::from(db.code(rank));
            } else {
                sum += md;
            }
        }
        sum
    }
}
