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
//! `b`, that is to `P` home with the blank anywhere in `b`'s *region* (the cells connected to
//! `b` through cells outside `P`). For a position whose blank is label `β`, whose goal has the
//! blank in cell `β`, the same value bounds the moves of `P`'s labels when
//!
//! - `β` is not in `P` (else `P`'s label `β` is the blank, whose moves are not counted), and
//! - at the goal placement of `P`, cell `β` is in `b`'s region (then the database's abstract
//!   goal is this goal's).
//!
//! Where the pattern walls cells off (the 6-6-6-6 pattern around the top-left corner walls
//! cell 0 in, so `β` outside it is in another region than `b = 0`), the database may count
//! moves that only serve to bring the blank to `b`'s side. The same pattern's database built
//! for a goal with the blank in `β`'s region ([`crate::pattern::region_goals`]) counts to
//! exactly that abstract goal, so it serves every `β` of that region in full; without one
//! only the Manhattan distances of `P`'s labels count.
//!
//! With `β` in `P`, the Manhattan distances of `P`'s other labels count. Labels in no pattern
//! (the real blank's among them, on the dual side) are not counted, so the sum may have the
//! other parity than the distance (which every move flips, so it is known: that of the
//! Manhattan distances of all tiles); callers then add one. These rules are
//! checked against exact tables on every state of 3x3 and 3x4 (tests/pattern_dual.rs), with
//! and without the databases of the other regions.

use std::sync::Arc;

use super::pattern::PatternHeuristicError;
use crate::board::MAX_CELLS;
use crate::pattern::delta::NO_PATTERN;
use crate::pattern::PatternDatabase;
use crate::state::State;
use crate::store::StoredBytes;

/// `source` entry of a label for which a pattern counts its Manhattan distances alone.
const MANHATTAN: u8 = u8::MAX;

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
    /// The databases a bound reads: the heuristic's (pattern `p`'s at `p`), then those built
    /// for the patterns' other blank regions.
    tables: Vec<Arc<PatternDatabase<StoredBytes>>>,
    /// `source[p][blank]`: the table that counts pattern `p` when label `blank` is the blank
    /// (`blank` outside `p`, in the region that table's goal has its blank in), or
    /// [`MANHATTAN`].
    source: Vec<[u8; 32]>,
}

impl Bounds {
    /// The tables for `goal` and its databases `databases` (disjoint patterns, all for `goal`),
    /// with `regions`: databases of the same patterns built for goals with the blank in
    /// another region ([`crate::pattern::region_goals`]).
    ///
    /// # Errors
    /// [`PatternHeuristicError::NotARegion`] for a database of `regions` that is not one of
    /// the patterns' for one of their other regions.
    pub(crate) fn new(
        goal: &State,
        databases: &[Arc<PatternDatabase<StoredBytes>>],
        regions: &[Arc<PatternDatabase<StoredBytes>>],
        sigma: Option<[u8; 32]>,
    ) -> Result<Bounds, PatternHeuristicError> {
        let mut home = [0u8; 32];
        for (cell, &tile) in goal.cells().iter().enumerate() {
            home[tile as usize] = u8::try_from(cell).expect("a board has at most 25 cells");
        }
        let mut pattern = [NO_PATTERN; 32];
        let mut index = [0u8; 32];
        let mut labels = Vec::new();
        let mut source = Vec::new();
        let mut masks = Vec::new();
        for (p, db) in databases.iter().enumerate() {
            let tiles = db.space().tiles();
            let ls: Vec<u8> = tiles.iter().map(|&t| home[t as usize]).collect();
            for (i, &l) in ls.iter().enumerate() {
                pattern[l as usize] = u8::try_from(p).expect("at most MAX_PATTERNS patterns");
                index[l as usize] = u8::try_from(i).expect("a pattern has at most 25 tiles");
            }
            let found = crate::pattern::regions(goal, tiles);
            let mut from = [MANHATTAN; 32];
            for (l, slot) in from.iter_mut().enumerate() {
                if found[0] >> l & 1 == 1 {
                    *slot = u8::try_from(p).expect("at most MAX_PATTERNS patterns");
                }
            }
            labels.push(ls);
            source.push(from);
            masks.push(found);
        }
        let mut tables = databases.to_vec();
        for db in regions {
            let fits = |p: usize| {
                let tiles = databases[p].space().tiles();
                db.goal().board() == goal.board()
                    && db.space().tiles() == tiles
                    && tiles.iter().all(|&t| {
                        db.goal().cells().iter().position(|&c| c == t)
                            == Some(home[t as usize].into())
                    })
            };
            let p = (0..databases.len())
                .find(|&p| fits(p))
                .ok_or(PatternHeuristicError::NotARegion { goal: *db.goal() })?;
            let blank = db.goal().blank();
            let region = masks[p][1..]
                .iter()
                .find(|r| *r >> blank & 1 == 1)
                .ok_or(PatternHeuristicError::NotARegion { goal: *db.goal() })?;
            let slot = u8::try_from(tables.len())
                .ok()
                .filter(|&s| s < MANHATTAN)
                .ok_or(PatternHeuristicError::NotARegion { goal: *db.goal() })?;
            for (l, entry) in source[p].iter_mut().enumerate() {
                if region >> l & 1 == 1 {
                    *entry = slot;
                }
            }
            tables.push(Arc::clone(db));
        }
        Ok(Bounds {
            home,
            sigma,
            labels,
            pattern,
            index,
            tables,
            source,
        })
    }

    /// The databases of the other regions, as given.
    pub(crate) fn region_databases(&self) -> &[Arc<PatternDatabase<StoredBytes>>] {
        &self.tables[self.labels.len()..]
    }

    /// The lower bound of the position where label `l` lies in cell `pos[l]`, with label
    /// `blank` as the blank, to the identity: per pattern its [`term`](Self::term).
    #[inline]
    pub(crate) fn bound(&self, pos: &[u8; 32], blank: usize) -> u32 {
        let mut sum = 0u32;
        for (p, labels) in self.labels.iter().enumerate() {
            let mut placement = [0u8; MAX_CELLS];
            for (slot, &l) in placement.iter_mut().zip(labels) {
                *slot = pos[l as usize & 31];
            }
            sum += self.term(p, &placement[..labels.len()], blank);
        }
        sum
    }

    /// Pattern `p`'s part of [`bound`](Self::bound), its label `i` (in the order of
    /// [`labels`](Self::labels)) lying in cell `placement[i]`, with label `blank` as the
    /// blank: its database value (the database of `blank`'s region), or its labels' Manhattan
    /// distances where none applies, less the blank's own where `p` holds it (module docs).
    /// A move of the real position changes the placements of at most two patterns of its
    /// dual, and only those patterns' terms (`heuristic/pattern.rs` carries the others).
    #[inline]
    pub(crate) fn term(&self, p: usize, placement: &[u8], blank: usize) -> u32 {
        let blank = blank & 31;
        let db = &self.tables[p];
        let mut md = 0u32;
        for (i, &cell) in placement.iter().enumerate() {
            md += u32::from(db.tile_manhattan(i, cell));
        }
        if usize::from(self.pattern[blank]) == p {
            let i = self.index[blank] as usize;
            return md - u32::from(db.tile_manhattan(i, placement[i]));
        }
        match self.source[p][blank] {
            MANHATTAN => md,
            from => {
                let table = &self.tables[from as usize];
                md + 2 * u32::from(table.code(table.space().rank(placement)))
            }
        }
    }

    /// `labels()[p]`: pattern `p`'s labels (goal cells), in the order of its database's tiles.
    pub(crate) fn labels(&self) -> &[Vec<u8>] {
        &self.labels
    }

    /// The pattern holding `label`, or [`NO_PATTERN`].
    pub(crate) fn pattern_of(&self, label: usize) -> u8 {
        self.pattern[label & 31]
    }
}
