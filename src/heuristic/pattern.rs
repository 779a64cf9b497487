//! Additive pattern databases as a heuristic: the sum of disjoint patterns' values, and, where
//! the goal allows it, the maximum with that sum for the position reflected about the diagonal
//! through the blank's goal cell.
//!
//! The per-node state ([`PatternNode`]) keeps each pattern's rank and value, plain and
//! reflected, so a move updates the rank of the moved tile's pattern by a few additions
//! ([`RankDelta`]) and reads one database entry, and for the reflected position the same for
//! the pattern of the moved tile's mirror (a second read). It also keeps each pattern's term
//! of the dual lookups: a move changes the dual position at two labels, so only the (at most
//! two) patterns holding them are ranked and read again, and the pattern holding the dual's
//! blank label is read not at all (`dual.rs`).
//!
//! In IDA* the lookups are evaluated lazily ([`Heuristic::step_within`]): a child is cut at
//! the first lookup that puts it beyond the bound.
//!
//! Without a dual lookup the dual terms would only be copied from node to node: a search
//! with regular and reflected lookups alone runs on [`RegularReflected`], whose node
//! ([`CarriedNode`], 44 bytes with four patterns) holds the ranks, codes and sums and nothing
//! else, as before the dual lookups were carried (BENCHMARKS.md, "The node rate with regular
//! + reflected lookups").

use std::sync::Arc;

use super::dual::Bounds;
use super::{Bounded, Heuristic};
use crate::board::MAX_CELLS;
use crate::pattern::delta::{RankDelta, NO_PATTERN};
use crate::pattern::{reflection, Partition, PatternDatabase};
use crate::state::State;
use crate::store::StoredBytes;
use std::ops::ControlFlow;

/// At most this many patterns: every named partition has three or four (the 24-puzzle's
/// 6-6-6-6), and each node of a search carries a rank and a code per pattern, plain and
/// reflected, so room for more would make every node larger (44 bytes with four, 84 with
/// eight), which costs IDA* time when it copies a child's node.
pub const MAX_PATTERNS: usize = 4;

/// The size of the largest database from which the search prefetches the children's
/// entries. Measured (BENCHMARKS.md, "Node rate at the memory's limit"): on Korf's 100 with
/// 7-8 (files of 259 and 518 MB) the prefetch pass takes 10-15% of the search's CPU off; on
/// the 24-puzzle with 6-6-6-6 (four of 64 MB) it adds 8-20%, as it did in `k22`. The reason
/// for the difference is not known; the threshold keeps each where it was measured faster.
pub(crate) const PREFETCH_MIN_BYTES: usize = 128 << 20;

/// Why databases cannot be combined into a heuristic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PatternHeuristicError {
    /// A database measures to another goal.
    #[error("a pattern database is for goal {found}, not {expected}")]
    OtherGoal {
        /// The database's goal.
        found: State,
        /// The heuristic's goal.
        expected: State,
    },
    /// Two databases share a tile: their sum would not be a lower bound.
    #[error("tile {tile} is in two patterns: only disjoint patterns add up")]
    Overlap {
        /// The shared tile.
        tile: u8,
    },
    /// The partition has no groups for this goal (another board, or the blank not in a corner).
    #[error("the {partition} partition has no patterns for this goal (another board, or the blank not in a corner)")]
    NoPartition {
        /// The partition.
        partition: Partition,
    },
    /// None, or more than eight (the most patterns a heuristic sums).
    #[error("between 1 and {MAX_PATTERNS} pattern databases are needed, not {0}")]
    Count(usize),
    /// No lookup asked for.
    #[error("at least one lookup (regular, reflected, dual, dual-reflected) is needed")]
    NoLookup,
    /// A database given for another blank region is not one of the heuristic's patterns for
    /// one of its other regions ([`crate::pattern::region_goals`]).
    #[error("the pattern database for goal {goal} is not one of this heuristic's patterns with the blank in another region")]
    NotARegion {
        /// The database's goal.
        goal: State,
    },
}

/// One way of looking a position up in the databases: plain, or reflected about the diagonal.
#[derive(Clone, Debug)]
struct Lookup {
    /// `number[cell]`: the cell the databases see for the state's `cell` (the identity, or the
    /// reflection's cell map).
    number: [u8; 32],
    /// `relabel[tile]`: the tile the databases see for the state's `tile` (the identity, or
    /// the reflection's tile map).
    relabel: [u8; 32],
    /// How a move changes the rank of the moved tile's pattern, in this numbering.
    delta: RankDelta,
}

/// How one dual lookup (of the position, or of the position reflected) reads its patterns'
/// placements off the state's cells. A move changes the contents of two cells, so the dual
/// position changes at two labels: only the patterns holding them (at most two) are ranked
/// and read again, and the node carries every pattern's term (`dual.rs`, `Bounds::term`).
#[derive(Clone, Debug)]
struct DualSide {
    /// `read[p][i]`: the state's cell whose tile says where pattern `p`'s label `i` lies.
    read: [[u8; MAX_CELLS]; MAX_PATTERNS],
    /// `len[p]`: pattern `p`'s labels.
    len: [u8; MAX_PATTERNS],
    /// `place[tile]`: where the label read off a cell holding `tile` lies in the dual
    /// position: the tile's goal cell, reflected on the reflected side.
    place: [u8; 32],
    /// `label[cell]`: the label that plays the blank when the state's blank is in `cell`.
    label: [u8; 32],
    /// `touched[cell]`: the pattern holding the label read off `cell` (whose placement a move
    /// into or out of `cell` changes), or [`NO_PATTERN`].
    touched: [u8; 32],
}

impl DualSide {
    /// The side read through the cell map `sigma` (the identity for the dual lookup, the
    /// reflection for the dual-reflected one), for the patterns of `bounds`.
    fn new(bounds: &Bounds, sigma: &[u8; 32]) -> DualSide {
        let mut side = DualSide {
            read: [[0; MAX_CELLS]; MAX_PATTERNS],
            len: [0; MAX_PATTERNS],
            place: [0; 32],
            label: [0; 32],
            touched: [NO_PATTERN; 32],
        };
        for (p, labels) in bounds.labels().iter().enumerate() {
            side.len[p] = u8::try_from(labels.len()).expect("at most 25 labels");
            for (i, &l) in labels.iter().enumerate() {
                side.read[p][i] = sigma[l as usize];
            }
        }
        let slots = side
            .place
            .iter_mut()
            .zip(&mut side.label)
            .zip(&mut side.touched);
        for (i, ((place, label), touched)) in slots.enumerate() {
            *place = sigma[bounds.home[i] as usize & 31];
            *label = sigma[i];
            *touched = bounds.pattern_of(sigma[i] as usize);
        }
        side
    }
}

/// Which lookups of the databases a [`PatternHeuristic`] takes the maximum of.
///
/// - *regular*: the position itself;
/// - *reflected*: the position reflected about the diagonal through the goal's blank cell
///   (square boards, the blank's goal cell on a diagonal);
/// - *dual*: the dual position, where tiles and cells swap roles (see `heuristic/dual.rs`);
/// - *dual-reflected*: the dual of the reflected position.
///
/// Every one is a lower bound on its own, so any set of them may be maxed; the reflected ones
/// are dropped where the goal has no reflection ([`PatternHeuristic::lookups`] says which
/// are used). Felner, Zahavi, Schaeffer and Holte (2005) report the maximum of all four at
/// about a third of the nodes of regular + reflected on the 24-puzzle.
///
/// ```
/// use npuzzle::heuristic::Lookups;
/// assert_eq!(Lookups::ALL.to_string(), "regular, reflected, dual, dual-reflected");
/// assert_eq!(Lookups::REFLECTED.to_string(), "regular, reflected");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lookups {
    /// The position itself.
    pub regular: bool,
    /// The position reflected about the diagonal through the goal's blank.
    pub reflected: bool,
    /// The dual position.
    pub dual: bool,
    /// The dual of the reflected position.
    pub dual_reflected: bool,
}

impl Lookups {
    /// The regular lookup alone.
    pub const REGULAR: Lookups = Lookups {
        regular: true,
        reflected: false,
        dual: false,
        dual_reflected: false,
    };
    /// Regular and reflected: what npuzzle used before the dual lookups.
    pub const REFLECTED: Lookups = Lookups {
        reflected: true,
        ..Lookups::REGULAR
    };
    /// All four.
    pub const ALL: Lookups = Lookups {
        regular: true,
        reflected: true,
        dual: true,
        dual_reflected: true,
    };

    /// Whether a dual lookup is asked for.
    pub fn any_dual(self) -> bool {
        self.dual || self.dual_reflected
    }

    /// Whether none is asked for.
    pub fn is_empty(self) -> bool {
        !(self.regular || self.reflected || self.any_dual())
    }
}

impl std::fmt::Display for Lookups {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names = [
            (self.regular, "regular"),
            (self.reflected, "reflected"),
            (self.dual, "dual"),
            (self.dual_reflected, "dual-reflected"),
        ];
        let used: Vec<&str> = names.iter().filter(|n| n.0).map(|n| n.1).collect();
        f.write_str(&used.join(", "))
    }
}

/// A set of lookups that is not a comma-separated list of `regular`, `reflected`, `dual`,
/// `dual-reflected` (or `all`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown lookups `{0}`: expected a comma-separated list of regular, reflected, dual, dual-reflected, or all")]
pub struct UnknownLookups(pub String);

impl std::str::FromStr for Lookups {
    type Err = UnknownLookups;

    fn from_str(text: &str) -> Result<Lookups, UnknownLookups> {
        if text.trim() == "all" {
            return Ok(Lookups::ALL);
        }
        let mut lookups = Lookups {
            regular: false,
            ..Lookups::default_none()
        };
        for name in text.split(',') {
            match name.trim() {
                "regular" => lookups.regular = true,
                "reflected" => lookups.reflected = true,
                "dual" => lookups.dual = true,
                "dual-reflected" => lookups.dual_reflected = true,
                _ => return Err(UnknownLookups(text.to_string())),
            }
        }
        Ok(lookups)
    }
}

impl Lookups {
    const fn default_none() -> Lookups {
        Lookups {
            regular: false,
            reflected: false,
            dual: false,
            dual_reflected: false,
        }
    }
}

/// The sum of disjoint pattern databases, maxed with the reflected sum where the goal is
/// symmetric about a diagonal through its blank (square boards, blank in a corner or on the
/// diagonal), and with the dual lookups where asked ([`Lookups`]).
///
/// A node carries every pattern's rank (plain and reflected), so that a move costs one rank
/// update (a horizontal move adds a constant, a vertical one also reads the
/// `width - 1` cells it passes) and one database read per lookup, instead of re-ranking the
/// moved tile's pattern. The pattern tiles' Manhattan distance, which the stored codes are
/// counted above, changes by one table read per move.
pub struct PatternHeuristic {
    goal: State,
    /// Whether the search is asked to prefetch the children's entries
    /// ([`Heuristic::prefetches`]): where a database is at least [`PREFETCH_MIN_BYTES`].
    prefetch: bool,
    databases: Vec<Arc<PatternDatabase<StoredBytes>>>,
    /// The plain lookup, then the reflected one if used (carried incrementally).
    lookups: Vec<Lookup>,
    /// The lookups used (reflected ones only where the goal has a reflection).
    used: Lookups,
    /// What the dual lookups (and any lookup with another label as the blank) need.
    bounds: Bounds,
    /// The dual lookup's reading of the state, then the dual-reflected one's if the goal has
    /// a reflection.
    duals: Vec<DualSide>,
    /// `manhattan[tile][cell]`: the tile's Manhattan distance from `cell` to its goal cell
    /// (the same for the reflected lookup: the reflection keeps distances and the goal).
    manhattan: [[u8; 32]; 32],
}

impl std::fmt::Debug for PatternHeuristic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternHeuristic")
            .field("goal", &self.goal)
            .field("patterns", &self.describe())
            .finish_non_exhaustive()
    }
}

/// What the regular and reflected lookups keep per node: each pattern's rank and stored
/// code, plain and reflected, and the two sums of values (Manhattan distance of the pattern
/// tiles plus twice the codes). The node of [`RegularReflected`]; 44 bytes with four
/// patterns.
#[derive(Clone, Copy, Debug)]
pub struct CarriedNode {
    rank: [[u32; MAX_PATTERNS]; 2],
    code: [[u8; MAX_PATTERNS]; 2],
    pub(super) sum: [u16; 2],
}

/// What [`PatternHeuristic`] keeps per node: the regular and reflected lookups'
/// [`CarriedNode`]; each pattern's term of the dual lookups used (dual, dual-reflected); and
/// the parity of the distance (that of the tiles' Manhattan distances; every move flips it).
/// 56 bytes with four patterns.
#[derive(Clone, Copy, Debug)]
pub struct PatternNode {
    carried: CarriedNode,
    dual: [[u8; MAX_PATTERNS]; 2],
    parity: u8,
}

/// A [`PatternHeuristic`] without dual lookups (regular, reflected or both), searched with
/// the smaller [`CarriedNode`]: the same estimates, the same lazy order, the same nodes
/// searched, but no dual terms or parity copied and updated at every node (8-10% of the
/// CPU time on the 24-puzzle; BENCHMARKS.md, "The node rate with regular + reflected
/// lookups"). Made by [`PatternHeuristic::regular_reflected`].
///
/// ```
/// use std::{ops::ControlFlow, sync::Arc};
/// use npuzzle::heuristic::{Heuristic, PatternHeuristic};
/// use npuzzle::pattern::PatternDatabase;
/// use npuzzle::search::{idastar, Limits};
/// use npuzzle::{Board, State};
/// let goal = State::canonical_goal(Board::THREE_BY_THREE, 0);
/// let none = &|_| ControlFlow::Continue(());
/// let mut dbs = Vec::new();
/// for tiles in [&[1u8, 3, 4][..], &[2, 5, 6, 7, 8]] {
///     dbs.push(Arc::new(PatternDatabase::build(&goal, tiles, none)?.map_into()));
/// }
/// let h = PatternHeuristic::new(&goal, dbs, true)?;
/// let lean = h.regular_reflected().expect("no dual lookup");
/// let start: State = "867254301".parse()?;
/// assert_eq!(lean.estimate(&start), h.estimate(&start));
/// let (a, b) = (idastar(&start, &lean, Limits::default()), idastar(&start, &h, Limits::default()));
/// assert_eq!((a.expanded, a.generated), (b.expanded, b.generated));
/// assert_eq!(a.solution().map(|s| s.len()), Some(b.solution().unwrap().len()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct RegularReflected<'h>(pub(super) &'h PatternHeuristic);

impl PatternHeuristic {
    /// The heuristic for `goal` from disjoint databases (all for `goal`); with `reflect`, the
    /// reflected lookup is added where the goal allows it ([`PatternHeuristic::is_reflected`]).
    ///
    /// # Errors
    /// [`PatternHeuristicError`]: a database for another goal, overlapping patterns, none or
    /// too many.
    pub fn new(
        goal: &State,
        databases: Vec<Arc<PatternDatabase<StoredBytes>>>,
        reflect: bool,
    ) -> Result<PatternHeuristic, PatternHeuristicError> {
        let lookups = if reflect {
            Lookups::REFLECTED
        } else {
            Lookups::REGULAR
        };
        PatternHeuristic::with_lookups(goal, databases, lookups)
    }

    /// The heuristic for `goal` from disjoint databases (all for `goal`), the maximum of the
    /// `lookups` asked for that the goal allows (the reflected ones need a reflection).
    ///
    /// # Errors
    /// As [`new`](Self::new); [`PatternHeuristicError::NoLookup`] when no lookup is asked for.
    pub fn with_lookups(
        goal: &State,
        databases: Vec<Arc<PatternDatabase<StoredBytes>>>,
        lookups: Lookups,
    ) -> Result<PatternHeuristic, PatternHeuristicError> {
        if lookups.is_empty() {
            return Err(PatternHeuristicError::NoLookup);
        }
        let reflect = lookups.reflected;
        if databases.is_empty() || databases.len() > MAX_PATTERNS {
            return Err(PatternHeuristicError::Count(databases.len()));
        }
        let mut seen = [false; MAX_CELLS];
        let mut patterns = Vec::new();
        for db in &databases {
            if db.goal() != goal {
                return Err(PatternHeuristicError::OtherGoal {
                    found: *db.goal(),
                    expected: *goal,
                });
            }
            let tiles = db.space().tiles().to_vec();
            for &t in &tiles {
                if std::mem::replace(&mut seen[t as usize], true) {
                    return Err(PatternHeuristicError::Overlap { tile: t });
                }
            }
            patterns.push(tiles);
        }
        let n = goal.board().cells();
        let identity: [u8; 32] = std::array::from_fn(|i| u8::try_from(i).expect("below 32"));
        let mut views = vec![(identity, identity)];
        if reflect {
            views.extend(reflection(goal));
        }
        let views: Vec<Lookup> = views
            .into_iter()
            .map(|(number, relabel)| Lookup {
                number,
                relabel,
                delta: RankDelta::new(n, &patterns, &number, &relabel),
            })
            .collect();
        let mut manhattan = [[0u8; 32]; 32];
        let w = goal.board().width();
        for (home, &tile) in goal.cells().iter().enumerate() {
            for (cell, d) in manhattan[tile as usize].iter_mut().enumerate().take(n) {
                let distance = (home / w).abs_diff(cell / w) + (home % w).abs_diff(cell % w);
                *d = u8::try_from(distance).expect("below 25 + 25");
            }
        }
        let reflection = reflection(goal).map(|(cells, _)| cells);
        let used = Lookups {
            reflected: lookups.reflected && reflection.is_some(),
            dual_reflected: lookups.dual_reflected && reflection.is_some(),
            ..lookups
        };
        let bounds = Bounds::new(goal, &databases, &[], reflection)?;
        let duals = std::iter::once(identity)
            .chain(reflection)
            .map(|sigma| DualSide::new(&bounds, &sigma))
            .collect();
        let prefetch = databases
            .iter()
            .any(|db| db.as_bytes().len() >= PREFETCH_MIN_BYTES);
        Ok(PatternHeuristic {
            goal: *goal,
            prefetch,
            databases,
            lookups: views,
            used,
            bounds,
            duals,
            manhattan,
        })
    }

    /// Builds the databases of `partition` for `goal` in memory (any goal with the blank in a
    /// corner of the partition's board: the generator works for any labels) and combines
    /// them. 4x4 6-6-3 takes about two seconds on two cores; 7-8 and 6-6-6-6 take minutes.
    ///
    /// # Errors
    /// [`PatternHeuristicError::NoPartition`] for another board or a blank not in a corner.
    pub fn build(
        goal: &State,
        partition: Partition,
        reflect: bool,
    ) -> Result<PatternHeuristic, PatternHeuristicError> {
        let groups = partition
            .groups(goal)
            .ok_or(PatternHeuristicError::NoPartition { partition })?;
        let databases = groups
            .iter()
            .map(|tiles| {
                let db = PatternDatabase::build(goal, tiles, &|_| ControlFlow::Continue(()))
                    .expect("a named partition's groups are patterns of its board");
                Arc::new(db.map_into())
            })
            .collect();
        PatternHeuristic::new(goal, databases, reflect)
    }

    /// The same heuristic whose dual lookups also read `regions`: databases of its patterns
    /// built for the goals [`region_goals`](crate::pattern::region_goals) names (the blank in
    /// another region of a pattern's goal placement). A dual position whose blank label lies
    /// in such a region then counts that pattern in full instead of by its Manhattan
    /// distances (`heuristic/dual.rs`). The regular and reflected lookups are unchanged.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use npuzzle::heuristic::{Heuristic, Lookups, PatternHeuristic};
    /// use npuzzle::pattern::{region_goals, PatternDatabase};
    /// use npuzzle::{Board, State};
    /// let goal = State::canonical_goal(Board::THREE_BY_THREE, 0);
    /// let none = &|_| std::ops::ControlFlow::Continue(());
    /// let mut dbs = Vec::new();
    /// let mut regions = Vec::new();
    /// for tiles in [&[1u8, 3, 4][..], &[2, 5, 6, 7, 8]] {
    ///     dbs.push(Arc::new(PatternDatabase::build(&goal, tiles, none)?.map_into()));
    ///     for other in region_goals(&goal, tiles) {
    ///         regions.push(Arc::new(PatternDatabase::build(&other, tiles, none)?.map_into()));
    ///     }
    /// }
    /// // Tiles 1 and 3 wall cell 0 in: one more database, for the blank among cells 2, 5..8.
    /// assert_eq!(regions.len(), 1);
    /// let h = PatternHeuristic::with_lookups(&goal, dbs, Lookups::ALL)?.with_region_databases(regions)?;
    /// assert_eq!(h.region_databases().len(), 1);
    /// assert_eq!(h.estimate(&goal), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`PatternHeuristicError::NotARegion`] for a database that is not of one of the
    /// patterns, or whose goal has the blank in the goal's own region.
    pub fn with_region_databases(
        mut self,
        regions: Vec<Arc<PatternDatabase<StoredBytes>>>,
    ) -> Result<PatternHeuristic, PatternHeuristicError> {
        let mut all = self.bounds.region_databases().to_vec();
        all.extend(regions);
        self.bounds = Bounds::new(&self.goal, &self.databases, &all, self.bounds.sigma)?;
        Ok(self)
    }

    /// The databases of other blank regions the dual lookups read
    /// ([`with_region_databases`](Self::with_region_databases)).
    pub fn region_databases(&self) -> &[Arc<PatternDatabase<StoredBytes>>] {
        self.bounds.region_databases()
    }

    /// Whether the reflected lookup is used.
    pub fn is_reflected(&self) -> bool {
        self.used.reflected
    }

    /// The lookups used: those asked for that the goal allows.
    pub fn lookups(&self) -> Lookups {
        self.used
    }

    /// This heuristic as [`RegularReflected`], whose search nodes carry no dual terms; `None`
    /// where a dual lookup is used. The same estimates and the same searches, at a lower
    /// cost per node: what a search with regular and reflected lookups should run on.
    pub fn regular_reflected(&self) -> Option<RegularReflected<'_>> {
        (!self.used.any_dual()).then_some(RegularReflected(self))
    }

    /// The databases, in the order given.
    pub fn databases(&self) -> &[Arc<PatternDatabase<StoredBytes>>] {
        &self.databases
    }

    /// The patterns' sizes, as `6-6-3`, with ` + reflection` when regular and reflected are
    /// the lookups, else the lookups named (`6-6-6-6, lookups regular, reflected, dual`).
    pub fn describe(&self) -> String {
        let sizes: Vec<String> = self
            .databases
            .iter()
            .map(|db| db.space().tiles().len().to_string())
            .collect();
        let lookups = match self.used {
            Lookups::REGULAR => String::new(),
            Lookups::REFLECTED => " + reflection".to_string(),
            other => format!(", lookups {other}"),
        };
        let regions = match self.region_databases().len() {
            0 => String::new(),
            1 => ", 1 database of another blank region".to_string(),
            k => format!(", {k} databases of other blank regions"),
        };
        format!("{}{lookups}{regions}", sizes.join("-"))
    }

    /// The lower bound of the position where label `l` (a goal cell, standing for the tile
    /// whose goal cell it is) lies in cell `pos[l]`, with label `blank` playing the blank:
    /// the distance to the identity (every label on its own cell) with that blank. See
    /// [`Bounds`] for which patterns count in full.
    #[inline]
    pub(crate) fn bound(&self, pos: &[u8; 32], blank: usize) -> u32 {
        self.bounds.bound(pos, blank)
    }

    /// The reflection of the goal's board as a cell map, if the goal has one.
    pub(crate) fn reflection_cells(&self) -> Option<&[u8; 32]> {
        self.bounds.sigma.as_ref()
    }

    /// The goal cell of each tile (`[tile] = cell`).
    pub(crate) fn homes(&self) -> &[u8; 32] {
        &self.bounds.home
    }

    /// Pattern `p`'s term of dual lookup `side` (0 dual, 1 dual-reflected) of the state
    /// `cells` whose blank is in cell `blank`, at most 255 (a lower term is still a bound).
    #[inline(always)]
    fn dual_term(&self, side: usize, p: usize, cells: &[u8], blank: usize) -> u8 {
        let s = &self.duals[side];
        let k = s.len[p] as usize;
        let mut placement = [0u8; MAX_CELLS];
        for (slot, &cell) in placement.iter_mut().zip(&s.read[p][..k]) {
            *slot = s.place[cells[cell as usize] as usize & 31];
        }
        let term = self
            .bounds
            .term(p, &placement[..k], s.label[blank & 31] as usize);
        u8::try_from(term).unwrap_or(u8::MAX)
    }

    /// Dual lookup `side` of `node` after a move between cells `from` and `to` (the blank now
    /// in `from`, `cells` after the move): the terms of the patterns whose placement changed
    /// are recomputed, and the lookup's sum returned.
    #[inline(always)]
    fn dual_step(
        &self,
        node: &mut PatternNode,
        side: usize,
        cells: &[u8],
        from: usize,
        to: usize,
    ) -> u32 {
        let s = &self.duals[side];
        let (a, b) = (s.touched[from & 31], s.touched[to & 31]);
        if a != NO_PATTERN {
            node.dual[side][a as usize & 3] = self.dual_term(side, a as usize, cells, from);
        }
        if b != NO_PATTERN && b != a {
            node.dual[side][b as usize & 3] = self.dual_term(side, b as usize, cells, from);
        }
        node.dual[side].iter().map(|&v| u32::from(v)).sum()
    }

    /// `h` raised by one where it has the other parity than the distance: the dual sums leave
    /// labels out (the real blank's among them), so they may.
    #[inline(always)]
    fn with_parity(h: u32, parity: u8) -> u32 {
        h + ((h ^ u32::from(parity)) & 1)
    }

    /// Each carried sum of `node` after `tile` moved (its Manhattan distance changing by
    /// `manhattan`), less the moved pattern's new code: a lower bound known without a read,
    /// since codes are at least 0.
    #[inline(always)]
    pub(super) fn floor(&self, node: &CarriedNode, tile: u8, manhattan: u16) -> [u16; 2] {
        let mut floor = node.sum;
        for (side, lookup) in self.lookups.iter().enumerate() {
            let p = lookup.delta.pattern(tile);
            if p != NO_PATTERN {
                floor[side] = floor[side]
                    .wrapping_add(manhattan)
                    .wrapping_sub(2 * u16::from(node.code[side][p as usize & 3]));
            }
        }
        floor
    }

    /// The largest of the incrementally carried sums that are used.
    #[inline(always)]
    pub(super) fn carried(&self, sum: [u16; 2]) -> u32 {
        let regular = if self.used.regular { sum[0] } else { 0 };
        let reflected = if self.used.reflected { sum[1] } else { 0 };
        u32::from(regular.max(reflected))
    }

    /// The change of `tile`'s Manhattan distance when it slides from `from` to `to`, as a
    /// wrapping `u16` (negative when it comes closer), as [`advance`](Self::advance) takes it.
    /// The masks keep every index inside the 32-entry rows without a bounds check.
    #[inline(always)]
    pub(super) fn manhattan_change(&self, tile: u8, from: usize, to: usize) -> u16 {
        let row = &self.manhattan[tile as usize & 31];
        u16::from(row[to & 31]).wrapping_sub(u16::from(row[from & 31]))
    }

    /// Lookup `side` (0 plain, 1 reflected) of `node` after `tile` moved from `from` to `to`
    /// (`cells` after the move): the moved tile's pattern gets its new rank, code and value.
    /// `manhattan` is the tile's change of Manhattan distance, as a wrapping `u16`.
    #[inline(always)]
    fn advance(
        &self,
        node: &mut CarriedNode,
        side: usize,
        cells: &[u8],
        (tile, from, to): (u8, usize, usize),
        manhattan: u16,
    ) {
        let lookup = &self.lookups[side];
        let p = lookup.delta.pattern(tile);
        if p == NO_PATTERN {
            return;
        }
        let p = p as usize;
        let rank = node.rank[side][p].wrapping_add(lookup.delta.delta(cells, tile, from, to));
        let code = self.databases[p].code(rank);
        let old = node.code[side][p];
        node.rank[side][p] = rank;
        node.code[side][p] = code;
        node.sum[side] = node.sum[side]
            .wrapping_add(manhattan)
            .wrapping_add(2 * u16::from(code))
            .wrapping_sub(2 * u16::from(old));
    }

    /// The regular and reflected lookups' part of [`Heuristic::prefetch`]: where the child
    /// may be within `limit` (its floor, [`floor`](Self::floor), is not above it), the
    /// entries its lookups will read are fetched: the moved tile's pattern, plain and
    /// reflected, at the rank the move gives it. The rank is computed again by the step (a
    /// few additions); the read it starts early is a trip to memory.
    #[inline(always)]
    pub(super) fn carried_prefetch(
        &self,
        node: &CarriedNode,
        cells: &[u8],
        (tile, from, to): (u8, usize, usize),
        limit: u32,
    ) {
        let manhattan = self.manhattan_change(tile, from, to);
        if !self.prefetch || self.carried(self.floor(node, tile, manhattan)) > limit {
            return;
        }
        self.carried_fetch(node, cells, (tile, from, to));
    }

    /// Fetches the entries the regular and reflected lookups of the child read (the moved
    /// tile's pattern, plain and reflected, at its new rank), whatever the databases' size.
    #[inline(always)]
    pub(super) fn carried_fetch(
        &self,
        node: &CarriedNode,
        cells: &[u8],
        (tile, from, to): (u8, usize, usize),
    ) {
        for (side, lookup) in self.lookups.iter().enumerate() {
            let p = lookup.delta.pattern(tile);
            if p == NO_PATTERN {
                continue;
            }
            let rank = node.rank[side][p as usize & 3]
                .wrapping_add(lookup.delta.delta(cells, tile, from, to));
            self.databases[p as usize].prefetch(rank);
        }
    }

    /// The regular and reflected lookups' part of [`Heuristic::start`]: every pattern ranked
    /// from scratch.
    pub(super) fn carried_start(&self, cells: &[u8]) -> CarriedNode {
        let mut node = CarriedNode {
            rank: [[0; MAX_PATTERNS]; 2],
            code: [[0; MAX_PATTERNS]; 2],
            sum: [0; 2],
        };
        for (side, lookup) in self.lookups.iter().enumerate() {
            // The cell of each tile, as the databases see the position.
            let mut cell_of = [0u8; 32];
            for (cell, &tile) in cells.iter().enumerate() {
                cell_of[lookup.relabel[tile as usize] as usize] = lookup.number[cell];
            }
            for (p, db) in self.databases.iter().enumerate() {
                let placement: Vec<u8> = db
                    .space()
                    .tiles()
                    .iter()
                    .map(|&t| cell_of[t as usize])
                    .collect();
                let rank = db.space().rank(&placement);
                node.rank[side][p] = rank;
                node.code[side][p] = db.code(rank);
                node.sum[side] += u16::try_from(db.value(&placement)).expect("a bound below 2^16");
            }
        }
        node
    }

    /// The regular and reflected lookups' part of [`Heuristic::step`]: every lookup read.
    #[inline(always)]
    pub(super) fn carried_step(
        &self,
        node: &CarriedNode,
        cells: &[u8],
        (tile, from, to): (u8, usize, usize),
    ) -> CarriedNode {
        let mut next = *node;
        let manhattan = self.manhattan_change(tile, from, to);
        self.advance(&mut next, 0, cells, (tile, from, to), manhattan);
        if self.lookups.len() == 2 {
            self.advance(&mut next, 1, cells, (tile, from, to), manhattan);
        }
        next
    }

    /// The regular and reflected lookups' part of [`Heuristic::step_within`]: the child's
    /// node where the larger of its carried sums is within `limit`, else a lower bound of
    /// that sum above `limit` (`Err`). Stored codes are at least 0, so each sum less the
    /// moved pattern's old code is a lower bound on the child's sum, known without a read;
    /// where it already exceeds `limit` (about half of all moves at the search's frontier,
    /// those that take a tile away from home), the child is cut without touching a table.
    /// Otherwise the plain and reflected lookups are read, the one whose sum was larger at
    /// the parent first (the likelier to cut the child alone), the second only if the first
    /// does not exceed `limit`.
    #[inline(always)]
    pub(super) fn carried_within(
        &self,
        node: &CarriedNode,
        cells: &[u8],
        (tile, from, to): (u8, usize, usize),
        limit: u32,
    ) -> Result<CarriedNode, u32> {
        let manhattan = self.manhattan_change(tile, from, to);
        let floor = self.floor(node, tile, manhattan);
        let at_least = self.carried(floor);
        if at_least > limit {
            return Err(at_least);
        }
        let mut next = *node;
        if self.lookups.len() == 2 {
            let used = [self.used.regular, self.used.reflected];
            let first = usize::from(!used[0] || (used[1] && node.sum[1] > node.sum[0]));
            let second = 1 - first;
            self.advance(&mut next, first, cells, (tile, from, to), manhattan);
            if u32::from(next.sum[first]) > limit {
                let other = if used[second] { floor[second] } else { 0 };
                return Err(u32::from(next.sum[first].max(other)));
            }
            self.advance(&mut next, second, cells, (tile, from, to), manhattan);
        } else {
            self.advance(&mut next, 0, cells, (tile, from, to), manhattan);
        }
        let h = self.carried(next.sum);
        if h > limit {
            return Err(h);
        }
        Ok(next)
    }
}

impl PatternHeuristic {
    /// The same heuristic with the prefetch pass forced on or off, whatever the databases'
    /// size: for the test that it changes no search (`search::in_place`'s tests).
    #[cfg(test)]
    pub(crate) fn with_prefetch(mut self, on: bool) -> PatternHeuristic {
        self.prefetch = on;
        self
    }
}

impl Heuristic for PatternHeuristic {
    type Node = PatternNode;
    #[inline]
    fn prefetches(&self) -> bool {
        self.prefetch
    }

    fn fingerprint_name(&self) -> &'static str {
        "npuzzle::heuristic::pattern::PatternHeuristic"
    }

    fn goal(&self) -> &State {
        &self.goal
    }

    /// Ranks every pattern from scratch (the steps carry the ranks on).
    fn start(&self, cells: &[u8]) -> (PatternNode, u32) {
        let mut node = PatternNode {
            carried: self.carried_start(cells),
            dual: [[0; MAX_PATTERNS]; 2],
            parity: 0,
        };
        let blank = cells.iter().position(|&t| t == 0).unwrap_or(0);
        for (cell, &tile) in cells.iter().enumerate() {
            if tile != 0 {
                node.parity ^= self.manhattan[tile as usize & 31][cell & 31] & 1;
            }
        }
        let mut h = self.carried(node.carried.sum);
        for (side, used) in [self.used.dual, self.used.dual_reflected]
            .into_iter()
            .enumerate()
        {
            if !used {
                continue;
            }
            let patterns = self.databases.len();
            for (p, term) in node.dual[side].iter_mut().enumerate().take(patterns) {
                *term = self.dual_term(side, p, cells, blank);
            }
            let sum = node.dual[side].iter().map(|&v| u32::from(v)).sum();
            h = h.max(Self::with_parity(sum, node.parity));
        }
        (node, h)
    }

    #[inline]
    fn step(
        &self,
        node: &PatternNode,
        cells: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> (PatternNode, u32) {
        let mut next = PatternNode {
            carried: self.carried_step(&node.carried, cells, (tile, from, to)),
            dual: node.dual,
            parity: node.parity ^ 1,
        };
        let mut h = self.carried(next.carried.sum);
        if self.used.dual {
            let dual = self.dual_step(&mut next, 0, cells, from, to);
            h = h.max(Self::with_parity(dual, next.parity));
        }
        if self.used.dual_reflected {
            let dual = self.dual_step(&mut next, 1, cells, from, to);
            h = h.max(Self::with_parity(dual, next.parity));
        }
        (next, h)
    }

    /// Fetches the regular and reflected lookups' entries of a child that may be within
    /// `limit` (`carried_prefetch`).
    #[inline(always)]
    fn prefetch(
        &self,
        node: &PatternNode,
        cells: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) {
        self.carried_prefetch(&node.carried, cells, (tile, from, to), limit);
    }

    /// Reads the databases only where the answer can still be within `limit`, and stops at
    /// the first lookup that proves the child beyond it: the regular and reflected lookups
    /// as `RegularReflected` reads them (the floor without a read, then the one larger at
    /// the parent first), then the dual lookups, each only if every lookup before it is
    /// within `limit`. A child within `limit` gets every lookup asked for, as
    /// [`step`](Heuristic::step) computes them (tests/search_lazy.rs).
    // Inlined into the search: as a call, the child's node comes back through memory and is
    // copied again (BENCHMARKS.md, "The node rate with regular + reflected lookups").
    #[inline(always)]
    fn step_within(
        &self,
        node: &PatternNode,
        cells: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> Bounded<PatternNode> {
        let carried = match self.carried_within(&node.carried, cells, (tile, from, to), limit) {
            Ok(carried) => carried,
            Err(at_least) => return Bounded::Beyond(at_least),
        };
        let mut next = PatternNode {
            carried,
            dual: node.dual,
            parity: node.parity ^ 1,
        };
        let mut h = self.carried(next.carried.sum);
        for (side, used) in [self.used.dual, self.used.dual_reflected]
            .into_iter()
            .enumerate()
        {
            if !used {
                continue;
            }
            let dual = self.dual_step(&mut next, side, cells, from, to);
            h = h.max(Self::with_parity(dual, next.parity));
            if h > limit {
                return Bounded::Beyond(h);
            }
        }
        Bounded::Known(next, h)
    }
}

impl Heuristic for RegularReflected<'_> {
    type Node = CarriedNode;
    #[inline]
    fn prefetches(&self) -> bool {
        self.0.prefetch
    }

    fn fingerprint_name(&self) -> &'static str {
        "npuzzle::heuristic::pattern::RegularReflected<'_>"
    }

    fn goal(&self) -> &State {
        &self.0.goal
    }

    /// Ranks every pattern from scratch (the steps carry the ranks on).
    fn start(&self, cells: &[u8]) -> (CarriedNode, u32) {
        let node = self.0.carried_start(cells);
        (node, self.0.carried(node.sum))
    }

    #[inline]
    fn step(
        &self,
        node: &CarriedNode,
        cells: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> (CarriedNode, u32) {
        let next = self.0.carried_step(node, cells, (tile, from, to));
        (next, self.0.carried(next.sum))
    }

    /// As [`PatternHeuristic`]'s.
    #[inline(always)]
    fn prefetch(
        &self,
        node: &CarriedNode,
        cells: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) {
        self.0
            .carried_prefetch(node, cells, (tile, from, to), limit);
    }

    /// As [`PatternHeuristic`]'s, without the dual lookups: the same estimates and lower
    /// bounds, so the same search.
    #[inline(always)]
    fn step_within(
        &self,
        node: &CarriedNode,
        cells: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> Bounded<CarriedNode> {
        match self.0.carried_within(node, cells, (tile, from, to), limit) {
            Ok(next) => Bounded::Known(next, self.0.carried(next.sum)),
            Err(at_least) => Bounded::Beyond(at_least),
        }
    }
}
