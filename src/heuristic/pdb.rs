//! Additive pattern databases as a heuristic: the sum of disjoint patterns' values, and, where
//! the goal allows it, the maximum with that sum for the position reflected about the diagonal
//! through the blank's goal cell.
//!
//! The per-node state ([`PatternNode`]) keeps every tile's cell and each pattern's value, so a
//! move re-ranks only the pattern of the moved tile (one database read), and for the
//! reflected position only the pattern of the moved tile's mirror (a second read).

use std::sync::Arc;

use super::Heuristic;
use crate::board::MAX_CELLS;
use crate::pattern::{reflection, Partition, PatternDatabase};
use crate::state::State;
use crate::table::file::TableBytes;
use std::ops::ControlFlow;

/// At most this many patterns (the 24-puzzle needs four; a partition into singletons would
/// be Manhattan distance, slower).
pub const MAX_PATTERNS: usize = 8;
/// A tile in no pattern.
const NONE: u8 = u8::MAX;

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
}

struct Group {
    db: Arc<PatternDatabase<TableBytes>>,
    /// The pattern's tiles, in rank order.
    tiles: Vec<u8>,
    /// For the reflected lookup: the tile whose cell, reflected, is each pattern tile's cell.
    mirrored: Vec<u8>,
}

/// The sum of disjoint pattern databases, maxed with the reflected sum where the goal is
/// symmetric about a diagonal through its blank (square boards, blank in a corner or on the
/// diagonal).
pub struct PatternHeuristic {
    goal: State,
    groups: Vec<Group>,
    group_of: [u8; MAX_CELLS],
    /// `(cell map, tile map)` of the reflection, if used.
    reflection: Option<([u8; 32], [u8; 32])>,
}

impl std::fmt::Debug for PatternHeuristic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternHeuristic")
            .field("goal", &self.goal)
            .field("patterns", &self.describe())
            .finish_non_exhaustive()
    }
}

/// What [`PatternHeuristic`] keeps per node: the cell of every tile and each pattern's value
/// (normal, then reflected), with the two sums.
#[derive(Clone, Copy, Debug)]
pub struct PatternNode {
    cell: [u8; MAX_CELLS],
    value: [u8; 2 * MAX_PATTERNS],
    sum: [u16; 2],
}

impl PatternHeuristic {
    /// The heuristic for `goal` from disjoint databases (all for `goal`); with `reflect`, the
    /// reflected lookup is added where the goal allows it ([`PatternHeuristic::is_reflected`]).
    ///
    /// # Errors
    /// [`PatternHeuristicError`]: a database for another goal, overlapping patterns, none or
    /// too many.
    pub fn new(
        goal: &State,
        databases: Vec<Arc<PatternDatabase<TableBytes>>>,
        reflect: bool,
    ) -> Result<PatternHeuristic, PatternHeuristicError> {
        if databases.is_empty() || databases.len() > MAX_PATTERNS {
            return Err(PatternHeuristicError::Count(databases.len()));
        }
        let mut group_of = [NONE; MAX_CELLS];
        let reflection = if reflect { reflection(goal) } else { None };
        let mut groups = Vec::new();
        for (g, db) in databases.into_iter().enumerate() {
            if db.goal() != goal {
                return Err(PatternHeuristicError::OtherGoal {
                    found: *db.goal(),
                    expected: *goal,
                });
            }
            let tiles = db.space().tiles().to_vec();
            for &t in &tiles {
                if group_of[t as usize] != NONE {
                    return Err(PatternHeuristicError::Overlap { tile: t });
                }
                group_of[t as usize] = g as u8;
            }
            let mirrored = match &reflection {
                Some((_, tile_map)) => tiles.iter().map(|&t| tile_map[t as usize]).collect(),
                None => Vec::new(),
            };
            groups.push(Group {
                db,
                tiles,
                mirrored,
            });
        }
        Ok(PatternHeuristic {
            goal: *goal,
            groups,
            group_of,
            reflection,
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

    /// Whether the reflected lookup is used.
    pub fn is_reflected(&self) -> bool {
        self.reflection.is_some()
    }

    /// The patterns' sizes, as `6-6-3`, with ` + reflection` when reflected.
    pub fn describe(&self) -> String {
        let sizes: Vec<String> = self
            .groups
            .iter()
            .map(|g| g.tiles.len().to_string())
            .collect();
        let reflected = if self.is_reflected() {
            " + reflection"
        } else {
            ""
        };
        format!("{}{reflected}", sizes.join("-"))
    }

    /// Value of pattern `g` for tile cells `cell`, reflected or not.
    #[inline]
    fn lookup(&self, g: usize, cell: &[u8; MAX_CELLS], reflected: bool) -> u8 {
        let group = &self.groups[g];
        let mut cells = [0u8; MAX_CELLS];
        let k = group.tiles.len();
        match (&self.reflection, reflected) {
            (Some((cell_map, _)), true) => {
                for i in 0..k {
                    cells[i] = cell_map[cell[group.mirrored[i] as usize] as usize];
                }
            }
            _ => {
                for i in 0..k {
                    cells[i] = cell[group.tiles[i] as usize];
                }
            }
        }
        group.db.value(&cells[..k]) as u8
    }
}

impl Heuristic for PatternHeuristic {
    type Node = PatternNode;

    fn goal(&self) -> &State {
        &self.goal
    }

    fn start(&self, cells: &[u8]) -> (PatternNode, u32) {
        let mut node = PatternNode {
            cell: [0; MAX_CELLS],
            value: [0; 2 * MAX_PATTERNS],
            sum: [0; 2],
        };
        for (c, &tile) in cells.iter().enumerate() {
            node.cell[tile as usize] = c as u8;
        }
        for g in 0..self.groups.len() {
            node.value[g] = self.lookup(g, &node.cell, false);
            node.sum[0] += node.value[g] as u16;
            if self.reflection.is_some() {
                node.value[MAX_PATTERNS + g] = self.lookup(g, &node.cell, true);
                node.sum[1] += node.value[MAX_PATTERNS + g] as u16;
            }
        }
        let h = node.sum[0].max(node.sum[1]) as u32;
        (node, h)
    }

    #[inline]
    fn step(
        &self,
        node: &PatternNode,
        _cells: &[u8],
        tile: u8,
        _from: usize,
        to: usize,
    ) -> (PatternNode, u32) {
        let mut next = *node;
        next.cell[tile as usize] = to as u8;
        let g = self.group_of[tile as usize];
        if g != NONE {
            let g = g as usize;
            let value = self.lookup(g, &next.cell, false);
            next.sum[0] = next.sum[0] - next.value[g] as u16 + value as u16;
            next.value[g] = value;
        }
        if let Some((_, tile_map)) = &self.reflection {
            let g = self.group_of[tile_map[tile as usize] as usize];
            if g != NONE {
                let g = g as usize;
                let value = self.lookup(g, &next.cell, true);
                let slot = MAX_PATTERNS + g;
                next.sum[1] = next.sum[1] - next.value[slot] as u16 + value as u16;
                next.value[slot] = value;
            }
        }
        (next, next.sum[0].max(next.sum[1]) as u32)
    }
}
