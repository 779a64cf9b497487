//! Heuristics: lower bounds on the number of moves from a state to a goal, for informed search.
//!
//! Every heuristic here is built for one goal on one board (any board from 2x2 to 5x5, any
//! goal) and is admissible (never overestimates) and consistent (changes by at most one per
//! move), which is what lets A* and IDA* return optimal paths.
//!
//! Searches that change a state in place ask [`Heuristic::step`] for the new estimate after
//! one move instead of recomputing it: a move changes one tile's cell, so each heuristic only
//! looks at what that tile touches. What a heuristic needs to remember between moves is its
//! own *node* type: the estimate itself (a `u32`) for Manhattan distance and linear conflict,
//! the tiles' cells and each pattern's value for pattern databases, so that a move costs one
//! or two database reads instead of re-ranking every pattern.

pub(crate) mod dual;
mod linear_conflict;
mod manhattan;
mod max_partitions;
mod misplaced;
mod pattern;

use std::fmt;
use std::str::FromStr;

pub use linear_conflict::LinearConflict;
pub use manhattan::Manhattan;
pub use max_partitions::{MaxNode, MaxPartitions};
pub use misplaced::Misplaced;
pub use pattern::{
    CarriedNode, Lookups, PatternHeuristic, PatternHeuristicError, PatternNode, RegularReflected,
    UnknownLookups,
};

use crate::board::MAX_CELLS;
use crate::state::State;

/// A lower bound on the moves from a state to the goal it was built for.
///
/// States are passed as their cells (row-major, `0` the blank, as [`State::cells`]) so that a
/// search may keep one state in place and change it move by move.
pub trait Heuristic {
    /// What the heuristic keeps per search node to update its estimate after a move: the
    /// estimate itself for the simple heuristics, more for pattern databases. Searches keep
    /// one per node on the current path (IDA*) or per stored node (A*).
    type Node: Copy;

    /// The goal the estimates are measured to.
    fn goal(&self) -> &State;

    /// The name a checkpoint's [fingerprint](crate::search::checkpoint::fingerprint) hashes
    /// for this kind of heuristic. It is part of every checkpoint written, so it must not
    /// change from one build to the next: a changed name makes every stored checkpoint "of
    /// another heuristic" (refused, its hours of search lost). The heuristics of this crate
    /// name themselves with a fixed string (the module path and type name they had when
    /// checkpoints were first written, so that those still resume). The default,
    /// [`std::any::type_name`], suits a heuristic of another crate whose checkpoints need
    /// not outlive a toolchain: Rust does not promise that name stable across compilers.
    fn fingerprint_name(&self) -> &'static str {
        std::any::type_name::<Self>()
    }

    /// The node and the estimate for the state whose cells are `cells` (on the goal's board).
    fn start(&self, cells: &[u8]) -> (Self::Node, u32);

    /// The node and the estimate after one move from the state of `node`: `tile` slid from
    /// cell `from` to cell `to` (so the blank went from `to` to `from`), and `cells` are the
    /// cells *after* the move. Implementations look only at what changed.
    fn step(
        &self,
        node: &Self::Node,
        cells: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> (Self::Node, u32);

    /// [`step`](Self::step) for a search that does not descend into a child whose estimate
    /// exceeds `limit`: an implementation may skip work whose only use would be to say how far
    /// above `limit` the estimate is, and answer [`Bounded::Beyond`] with a lower bound of the
    /// estimate that already exceeds `limit`. The default computes the estimate in full.
    #[inline]
    fn step_within(
        &self,
        node: &Self::Node,
        cells: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> Bounded<Self::Node> {
        let _ = limit;
        let (node, h) = self.step(node, cells, tile, from, to);
        Bounded::Known(node, h)
    }

    /// Whether [`prefetch`](Self::prefetch) does anything: a search skips the work of
    /// calling it (the children's cells, the automaton's steps) where it does not. The
    /// default: no.
    #[inline]
    fn prefetches(&self) -> bool {
        false
    }

    /// A hint from a depth-first search, given for each child before the first child's
    /// [`step_within`](Self::step_within): it will soon ask about `tile` sliding from cell
    /// `from` to cell `to` (`cells` are the cells *before* the move) with this `limit`. A
    /// heuristic that reads large tables may start fetching the entries that child will read,
    /// so that the children's trips to memory overlap instead of following one another; it
    /// must change nothing an estimate depends on. The default does nothing.
    #[inline]
    fn prefetch(
        &self,
        node: &Self::Node,
        cells: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) {
        let _ = (node, cells, tile, from, to, limit);
    }

    /// The estimate for the state whose cells are `cells`.
    fn estimate_cells(&self, cells: &[u8]) -> u32 {
        self.start(cells).1
    }

    /// The estimate for `state`, which must be on the goal's board.
    ///
    /// # Panics
    /// Debug builds assert that `state` is on the goal's board; in release builds the
    /// estimate of a state of another board is meaningless (or panics, an index out of
    /// bounds). Use [`try_estimate`](Self::try_estimate) where the board is not known.
    fn estimate(&self, state: &State) -> u32 {
        debug_assert_eq!(
            state.board(),
            self.goal().board(),
            "a state of another board"
        );
        self.estimate_cells(state.cells())
    }

    /// The estimate for `state`, after checking that it is on the goal's board.
    ///
    /// # Errors
    /// [`WrongBoardError`](crate::WrongBoardError) for a state of another board.
    fn try_estimate(&self, state: &State) -> Result<u32, crate::WrongBoardError> {
        crate::WrongBoardError::check(self.goal().board(), state.board())?;
        Ok(self.estimate_cells(state.cells()))
    }
}

/// What [`Heuristic::step_within`] found out about a child.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bounded<N> {
    /// The child's node and its estimate (which may still exceed the limit).
    Known(N, u32),
    /// The estimate is at least this much, which exceeds the limit; the node was not computed.
    Beyond(u32),
}

/// Implements [`Heuristic`] with the estimate as the node, for a type with inherent
/// `goal_state`, `compute(cells)` and `update(cells, before, tile, from, to)`; the literal is
/// its fixed [`Heuristic::fingerprint_name`].
macro_rules! scalar_heuristic {
    ($ty:ty, $fingerprint_name:literal) => {
        impl $crate::heuristic::Heuristic for $ty {
            type Node = u32;

            fn goal(&self) -> &$crate::state::State {
                self.goal_state()
            }

            fn fingerprint_name(&self) -> &'static str {
                $fingerprint_name
            }

            #[inline]
            fn start(&self, cells: &[u8]) -> (u32, u32) {
                let h = self.compute(cells);
                (h, h)
            }

            #[inline]
            fn step(
                &self,
                before: &u32,
                cells: &[u8],
                tile: u8,
                from: usize,
                to: usize,
            ) -> (u32, u32) {
                let h = self.update(cells, *before, tile, from, to);
                (h, h)
            }
        }
    };
}
pub(crate) use scalar_heuristic;

/// The heuristics npuzzle offers, by name: `misplaced`, `manhattan`, `linear-conflict` and
/// `pdb` (pattern databases, which must be built first).
///
/// The default, Manhattan distance (the textbook heuristic), is the one a search named without
/// a heuristic runs with: the command line's `--algorithm` without `--heuristic` takes it from
/// here. (A [`crate::answer::Choice`] that names no heuristic leaves it to the answer layer:
/// pattern databases where IDA* finds some, else linear conflict.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum HeuristicKind {
    /// Tiles not in their goal cell ([`Misplaced`]).
    Misplaced,
    /// Sum of the tiles' Manhattan distances to their goal cells ([`Manhattan`]).
    #[default]
    Manhattan,
    /// Manhattan plus two moves per tile that must leave its line to let another pass
    /// ([`LinearConflict`]).
    LinearConflict,
    /// Additive pattern databases ([`PatternHeuristic`]), named `pdb`. Not in
    /// [`HeuristicKind::ALL`]: they must be built first (seconds to minutes), so they come
    /// through the answer layer ([`crate::Oracle`], which keeps them) or
    /// [`crate::search::run_with`]; [`crate::search::run`] builds the 4x4 6-6-3 databases in
    /// memory for a goal with the blank in a corner and uses linear conflict elsewhere.
    PatternDatabase,
}

impl HeuristicKind {
    /// Every heuristic built from the goal alone, weakest first.
    pub const ALL: [HeuristicKind; 3] = [
        HeuristicKind::Misplaced,
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Misplaced => "misplaced",
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::LinearConflict => "linear-conflict",
            HeuristicKind::PatternDatabase => "pdb",
        }
    }
}

impl fmt::Display for HeuristicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of [`HeuristicKind::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown heuristic `{0}`: expected misplaced, manhattan, linear-conflict or pdb")]
pub struct UnknownHeuristic(pub String);

impl FromStr for HeuristicKind {
    type Err = UnknownHeuristic;

    fn from_str(text: &str) -> Result<HeuristicKind, UnknownHeuristic> {
        HeuristicKind::ALL
            .into_iter()
            .chain([HeuristicKind::PatternDatabase])
            .find(|kind| kind.name() == text.trim())
            .ok_or_else(|| UnknownHeuristic(text.to_string()))
    }
}

/// One of the heuristics, chosen at run time (for the command line). A match per call costs a
/// well-predicted branch; code that knows its heuristic can use the concrete type instead.
// Built once per search and read at every node: boxing the large variant would only add an
// indirection to each call.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum AnyHeuristic {
    /// See [`Misplaced`].
    Misplaced(Misplaced),
    /// See [`Manhattan`].
    Manhattan(Manhattan),
    /// See [`LinearConflict`].
    LinearConflict(LinearConflict),
}

impl AnyHeuristic {
    /// The heuristic `kind` for `goal`. [`HeuristicKind::PatternDatabase`] needs databases,
    /// which this type does not hold: it gives linear conflict (use [`PatternHeuristic`]).
    pub fn new(kind: HeuristicKind, goal: &State) -> AnyHeuristic {
        match kind {
            HeuristicKind::Misplaced => AnyHeuristic::Misplaced(Misplaced::new(goal)),
            HeuristicKind::Manhattan => AnyHeuristic::Manhattan(Manhattan::new(goal)),
            HeuristicKind::LinearConflict | HeuristicKind::PatternDatabase => {
                AnyHeuristic::LinearConflict(LinearConflict::new(goal))
            }
        }
    }

    /// Which heuristic this is.
    pub fn kind(&self) -> HeuristicKind {
        match self {
            AnyHeuristic::Misplaced(_) => HeuristicKind::Misplaced,
            AnyHeuristic::Manhattan(_) => HeuristicKind::Manhattan,
            AnyHeuristic::LinearConflict(_) => HeuristicKind::LinearConflict,
        }
    }
}

impl AnyHeuristic {
    fn goal_state(&self) -> &State {
        match self {
            AnyHeuristic::Misplaced(h) => h.goal(),
            AnyHeuristic::Manhattan(h) => h.goal(),
            AnyHeuristic::LinearConflict(h) => h.goal(),
        }
    }

    #[inline]
    fn compute(&self, cells: &[u8]) -> u32 {
        match self {
            AnyHeuristic::Misplaced(h) => h.compute(cells),
            AnyHeuristic::Manhattan(h) => h.compute(cells),
            AnyHeuristic::LinearConflict(h) => h.compute(cells),
        }
    }

    #[inline]
    fn update(&self, cells: &[u8], before: u32, tile: u8, from: usize, to: usize) -> u32 {
        match self {
            AnyHeuristic::Misplaced(h) => h.update(cells, before, tile, from, to),
            AnyHeuristic::Manhattan(h) => h.update(cells, before, tile, from, to),
            AnyHeuristic::LinearConflict(h) => h.update(cells, before, tile, from, to),
        }
    }
}

scalar_heuristic!(AnyHeuristic, "npuzzle::heuristic::AnyHeuristic");

/// The goal cell of every tile of `goal` (index: tile number).
fn goal_cells(goal: &State) -> [u8; MAX_CELLS] {
    let mut cells = [0u8; MAX_CELLS];
    for (cell, &tile) in goal.cells().iter().enumerate() {
        cells[tile as usize] = u8::try_from(cell).expect("a board has at most 25 cells");
    }
    cells
}

/// Heuristics for tests of the search around them.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Heuristic, Manhattan};
    use crate::state::State;

    /// Manhattan distance behind another type, each step slowed by `spin` rounds of busy work
    /// (2,000 are about a microsecond): the same estimates and fingerprint, so the same
    /// search and checkpoints. Tests use it for a type whose name is not Manhattan's (what a
    /// new compiler or a wrapper looks like to a checkpoint), and for a search slow enough
    /// that every thread of a pool surely runs before a limit comes.
    pub(crate) struct Wrapped {
        pub(crate) inner: Manhattan,
        pub(crate) spin: u64,
    }

    impl Heuristic for Wrapped {
        type Node = u32;
        fn goal(&self) -> &State {
            self.inner.goal()
        }
        fn fingerprint_name(&self) -> &'static str {
            self.inner.fingerprint_name()
        }
        fn start(&self, cells: &[u8]) -> (u32, u32) {
            self.inner.start(cells)
        }
        fn step(&self, node: &u32, cells: &[u8], tile: u8, from: usize, to: usize) -> (u32, u32) {
            let mut spin = 0u64;
            for i in 0..self.spin {
                spin = std::hint::black_box(spin.wrapping_add(i));
            }
            std::hint::black_box(spin);
            self.inner.step(node, cells, tile, from, to)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Move};

    /// Walks pseudo-randomly and checks each incremental update against a full recomputation.
    fn check_updates(h: &impl Heuristic, start: State, steps: usize) {
        let mut state = start;
        let (mut node, _) = h.start(state.cells());
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..steps {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let mv = Move::ALL[(seed >> 62) as usize];
            let Some(next) = state.apply(mv) else {
                continue;
            };
            let (from, to) = (next.blank(), state.blank());
            let tile = next.cells()[to];
            let (after, estimate) = h.step(&node, next.cells(), tile, from, to);
            node = after;
            assert_eq!(estimate, h.estimate(&next), "{state} -> {next}");
            state = next;
        }
    }

    #[test]
    fn incremental_updates_match_recomputation_on_every_board_shape() {
        for (w, h) in [
            (2, 2),
            (3, 2),
            (2, 3),
            (3, 3),
            (4, 3),
            (4, 4),
            (5, 4),
            (5, 5),
            (6, 2),
            (2, 6),
            (7, 2),
            (2, 12),
            (12, 2),
        ] {
            let board = Board::new(w, h).unwrap();
            for blank in [0, board.cells() / 2, board.cells() - 1] {
                let goal = State::canonical_goal(board, blank);
                let start = State::goal(board);
                for kind in HeuristicKind::ALL {
                    check_updates(&AnyHeuristic::new(kind, &goal), start, 3000);
                }
            }
        }
    }

    #[test]
    fn names_read_back() {
        for kind in HeuristicKind::ALL
            .into_iter()
            .chain([HeuristicKind::PatternDatabase])
        {
            assert_eq!(kind.name().parse::<HeuristicKind>(), Ok(kind));
        }
        assert!("euclid".parse::<HeuristicKind>().is_err());
    }
}
