//! The maximum over two partitions of the tiles into additive pattern databases, each with
//! its regular and reflected lookups: four sums, each a lower bound, so their maximum is one.
//!
//! Holte, Felner, Newton, Meshulam and Furcy ("Maximizing over multiple pattern databases
//! speeds up heuristic search", AIJ 2006) and Döbbelin, Schütt and Reinefeld (2013) report
//! fewer nodes from the maximum over several partitions than from one: where one
//! partition's seams cut the tiles that block each other, another's may keep them together.
//!
//! The node is the two partitions' [`CarriedNode`]s side by side (88 bytes with four
//! patterns each): a move updates, in each partition, the rank of the moved tile's pattern
//! by a few additions and reads one entry per lookup, as [`RegularReflected`] does for one.
//! In IDA* the reads are lazy: both partitions' floors first (no read), then the partition
//! whose estimate was larger at the parent, the other only if the child is still within the
//! bound.

use super::pattern::{CarriedNode, PatternHeuristic, PatternHeuristicError, RegularReflected};
use super::{Bounded, Heuristic};
use crate::state::State;

/// The maximum of two [`RegularReflected`] heuristics for the same goal (two partitions of
/// the tiles, each with its regular and, where the goal has one, reflected lookup).
///
/// ```
/// use std::{ops::ControlFlow, sync::Arc};
/// use npuzzle::heuristic::{Heuristic, MaxPartitions, PatternHeuristic};
/// use npuzzle::pattern::PatternDatabase;
/// use npuzzle::search::{idastar, Limits};
/// use npuzzle::{Board, State};
/// let goal = State::canonical_goal(Board::THREE_BY_THREE, 0);
/// let none = &|_| ControlFlow::Continue(());
/// let partition = |groups: &[&[u8]]| -> Result<PatternHeuristic, Box<dyn std::error::Error>> {
///     let mut dbs = Vec::new();
///     for tiles in groups {
///         dbs.push(Arc::new(PatternDatabase::build(&goal, tiles, none)?.map_into()));
///     }
///     Ok(PatternHeuristic::new(&goal, dbs, true)?)
/// };
/// let a = partition(&[&[1, 3, 4], &[2, 5, 6, 7, 8]])?;
/// let b = partition(&[&[1, 2, 5], &[3, 4, 6, 7, 8]])?;
/// let both = MaxPartitions::new(a.regular_reflected().unwrap(), b.regular_reflected().unwrap())?;
/// let start: State = "867254301".parse()?;
/// assert_eq!(both.estimate(&start), a.estimate(&start).max(b.estimate(&start)));
/// let (one, max) = (idastar(&start, &a, Limits::default()), idastar(&start, &both, Limits::default()));
/// assert_eq!(max.solution().map(|s| s.len()), one.solution().map(|s| s.len()));
/// assert!(max.generated <= one.generated);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct MaxPartitions<'h> {
    parts: [&'h PatternHeuristic; 2],
    /// Whether the search is asked to fetch the children's entries ahead
    /// ([`Heuristic::prefetches`]): as either partition would, unless set by
    /// [`with_prefetch`](MaxPartitions::with_prefetch).
    prefetch: bool,
}

/// What [`MaxPartitions`] keeps per node: each partition's [`CarriedNode`].
#[derive(Clone, Copy, Debug)]
pub struct MaxNode {
    parts: [CarriedNode; 2],
}

impl<'h> MaxPartitions<'h> {
    /// The maximum of `a` and `b`.
    ///
    /// # Errors
    /// [`PatternHeuristicError::OtherGoal`] when the two are for different goals.
    pub fn new(
        a: RegularReflected<'h>,
        b: RegularReflected<'h>,
    ) -> Result<MaxPartitions<'h>, PatternHeuristicError> {
        if a.goal() != b.goal() {
            return Err(PatternHeuristicError::OtherGoal {
                found: *b.goal(),
                expected: *a.goal(),
            });
        }
        let prefetch = a.prefetches() || b.prefetches();
        Ok(MaxPartitions {
            parts: [a.0, b.0],
            prefetch,
        })
    }

    /// The same heuristic with the search's prefetch pass on or off, whatever the databases'
    /// size: eight 64 MB databases are twice the memory one 6-6-6-6 partition's four are,
    /// and a kept child reads four of them (BENCHMARKS.md, branch v30, measures both).
    pub fn with_prefetch(mut self, on: bool) -> MaxPartitions<'h> {
        self.prefetch = on;
        self
    }

    /// Both partitions described, as `6-6-6-6 + reflection, max 6-6-6-6 + reflection`.
    pub fn describe(&self) -> String {
        format!(
            "{}, max {}",
            self.parts[0].describe(),
            self.parts[1].describe()
        )
    }

    /// The larger of the two partitions' estimates in `node`.
    #[inline(always)]
    fn value(&self, node: &MaxNode) -> u32 {
        let [a, b] = self.parts;
        a.carried(node.parts[0].sum)
            .max(b.carried(node.parts[1].sum))
    }
}

impl Heuristic for MaxPartitions<'_> {
    type Node = MaxNode;

    #[inline]
    fn prefetches(&self) -> bool {
        self.prefetch
    }

    fn fingerprint_name(&self) -> &'static str {
        "npuzzle::heuristic::max_partitions::MaxPartitions<'_>"
    }

    fn goal(&self) -> &State {
        self.parts[0].goal()
    }

    /// Ranks every pattern of both partitions from scratch.
    fn start(&self, cells: &[u8]) -> (MaxNode, u32) {
        let node = MaxNode {
            parts: [
                self.parts[0].carried_start(cells),
                self.parts[1].carried_start(cells),
            ],
        };
        (node, self.value(&node))
    }

    #[inline]
    fn step(
        &self,
        node: &MaxNode,
        cells: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> (MaxNode, u32) {
        let next = MaxNode {
            parts: [
                self.parts[0].carried_step(&node.parts[0], cells, (tile, from, to)),
                self.parts[1].carried_step(&node.parts[1], cells, (tile, from, to)),
            ],
        };
        (next, self.value(&next))
    }

    #[inline(always)]
    fn prefetch(&self, node: &MaxNode, cells: &[u8], tile: u8, from: usize, to: usize, limit: u32) {
        if !self.prefetch {
            return;
        }
        // Only where no floor already cuts the child, as `step_within` reads.
        let manhattan = self.parts[0].manhattan_change(tile, from, to);
        for (h, part) in self.parts.iter().zip(&node.parts) {
            if h.carried(h.floor(part, tile, manhattan)) > limit {
                return;
            }
        }
        for (h, part) in self.parts.iter().zip(&node.parts) {
            h.carried_fetch(part, cells, (tile, from, to));
        }
    }

    /// Both partitions' floors first (each sum less the moved pattern's old code, known
    /// without a read): a child either puts beyond `limit` is cut. Then the partition whose
    /// estimate was larger at the parent is read (its regular and reflected lookups lazily,
    /// as [`RegularReflected`] reads them), and the other only if the child is still within
    /// `limit`. A child within `limit` gets all four lookups, as [`step`](Heuristic::step)
    /// computes them.
    #[inline(always)]
    fn step_within(
        &self,
        node: &MaxNode,
        cells: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> Bounded<MaxNode> {
        let [a, b] = self.parts;
        let manhattan = a.manhattan_change(tile, from, to);
        let floors = [
            a.carried(a.floor(&node.parts[0], tile, manhattan)),
            b.carried(b.floor(&node.parts[1], tile, manhattan)),
        ];
        let at_least = floors[0].max(floors[1]);
        if at_least > limit {
            return Bounded::Beyond(at_least);
        }
        let before = [a.carried(node.parts[0].sum), b.carried(node.parts[1].sum)];
        let first = usize::from(before[1] > before[0]);
        let second = 1 - first;
        let mut next = *node;
        match self.parts[first].carried_within(&node.parts[first], cells, (tile, from, to), limit) {
            Ok(part) => next.parts[first] = part,
            Err(beyond) => return Bounded::Beyond(beyond.max(floors[second])),
        }
        match self.parts[second].carried_within(&node.parts[second], cells, (tile, from, to), limit)
        {
            Ok(part) => next.parts[second] = part,
            Err(beyond) => {
                let known = self.parts[first].carried(next.parts[first].sum);
                return Bounded::Beyond(beyond.max(known));
            }
        }
        Bounded::Known(next, self.value(&next))
    }
}
