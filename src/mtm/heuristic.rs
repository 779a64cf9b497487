//! The MTM search's estimate: the largest of the walking distance and a few MTM pattern
//! databases, each database read twice on square boards whose goal is its own mirror image.
//!
//! Each part is an admissible MTM bound ([`WalkingDistance`], [`PatternDb`]), so their
//! maximum is one (their sum would not be: they count the same moves). The mirror read: the
//! transposition of the board (rows become columns) maps MTM moves to MTM moves, so the MTM
//! distance of `s` to `g` is that of the transposed `s` to the transposed `g`; where the
//! goal's blank is on the main diagonal, relabelling the tiles of the transposed goal gives
//! `g` back, and the same relabelling of the transposed `s` is a second state at the same
//! distance from `g` that every database can bound (as Korf and Felner do for STM).
//!
//! On 4x4 [`MtmHeuristic::new`] uses [`FOUR_BY_FOUR`], chosen by the measurements in
//! BENCHMARKS.md ("MTM 4x4 optimal"); elsewhere the walking distance alone.
//!
//! ```
//! use npuzzle::mtm::heuristic::MtmHeuristic;
//! use npuzzle::State;
//! let goal = State::goal("3x3".parse()?);
//! let h = MtmHeuristic::with_patterns(&goal, &[&[0, 1, 2, 3], &[4, 5, 6, 7]])?;
//! assert_eq!(h.estimate(&goal), 0);
//! // One slide of two tiles from the goal: the bound is exact.
//! let start: State = "123456078".parse()?;
//! assert_eq!(h.estimate(&start), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::Arc;

use crate::board::MAX_CELLS;
use crate::state::State;
use crate::store::StoredBytes;

use super::colouring::{ColouringDb, ColouringError, MAX_COLOURING_CELLS};
use super::packed::PackedColouring;
use super::pattern::{PatternDb, PatternError};
use super::search::Estimate;
use super::walking::WalkingDistance;

/// The 4x4 patterns, as goal cells, for a goal whose blank is on cell 15 (elsewhere the
/// blank's cell and cell 15 trade places): three databases of five tiles each.
pub const FOUR_BY_FOUR: [&[usize]; 3] = [&[0, 1, 4, 5, 8], &[2, 3, 6, 7, 11], &[9, 10, 12, 13, 14]];

/// The transposition's cell map and the tile relabelling that sends the transposed goal to
/// the goal.
#[derive(Debug)]
struct Mirror {
    cell: [u8; MAX_CELLS],
    tile: [u8; MAX_CELLS],
}

/// A colouring database read towards one goal, on the state and (where the goal is its own
/// mirror image) on the mirrored state.
#[derive(Debug)]
struct ColouringProbe {
    db: Arc<ColouringDb<StoredBytes>>,
    /// Each tile's letter towards the goal.
    letters: [u8; MAX_COLOURING_CELLS],
    /// The mirror's cell map and each tile's letter after the mirror's relabelling.
    mirror: Option<([u8; MAX_COLOURING_CELLS], [u8; MAX_COLOURING_CELLS])>,
}

impl ColouringProbe {
    #[inline]
    fn estimate(&self, state: &State) -> u32 {
        let Some((cell, letter)) = &self.mirror else {
            return self.db.estimate_with(&self.letters, state);
        };
        let (mut board, mut mirrored) = (0u64, 0u64);
        for (c, &t) in state.cells().iter().enumerate() {
            let t = usize::from(t);
            board |= u64::from(self.letters[t]) << (2 * c);
            mirrored |= u64::from(letter[t]) << (2 * cell[c]);
        }
        let blank = state.blank();
        self.db
            .entry_of(board, blank)
            .max(self.db.entry_of(mirrored, usize::from(cell[blank])))
    }
}

/// The walking distance maxed with pattern databases (see the module documentation).
#[derive(Debug)]
pub struct MtmHeuristic {
    goal: State,
    walking: WalkingDistance,
    /// Whether the walking distance is read (always without a colouring database).
    use_walking: bool,
    colouring: Option<ColouringProbe>,
    databases: Vec<PatternDb>,
    mirror: Option<Mirror>,
    /// The colouring read on packed boards, where it is the whole estimate (no walking
    /// distance, no pattern database): the search's fast path.
    packed: Option<PackedColouring>,
}

impl MtmHeuristic {
    /// The estimate towards `goal`: on 4x4 with the [`FOUR_BY_FOUR`] databases (built in
    /// memory, a few seconds), elsewhere the walking distance alone.
    pub fn new(goal: &State) -> MtmHeuristic {
        let board = goal.board();
        if (board.width(), board.height()) != (4, 4) {
            return MtmHeuristic::with_patterns(goal, &[]).expect("no pattern, no error");
        }
        let blank = goal.blank();
        let moved: Vec<Vec<usize>> = FOUR_BY_FOUR
            .iter()
            .map(|cells| {
                cells
                    .iter()
                    .map(|&c| if c == blank { 15 } else { c })
                    .collect()
            })
            .collect();
        let patterns: Vec<&[usize]> = moved.iter().map(Vec::as_slice).collect();
        MtmHeuristic::with_patterns(goal, &patterns).expect("the 4x4 patterns are valid")
    }

    /// The estimate towards `goal` with one database for each pattern (goal cells).
    ///
    /// # Errors
    /// As [`PatternDb::build`].
    pub fn with_patterns(
        goal: &State,
        patterns: &[&[usize]],
    ) -> Result<MtmHeuristic, PatternError> {
        let databases = patterns
            .iter()
            .map(|cells| PatternDb::build(goal, cells))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(MtmHeuristic {
            goal: *goal,
            walking: WalkingDistance::new(goal),
            use_walking: true,
            colouring: None,
            mirror: if databases.is_empty() {
                None
            } else {
                Mirror::of(goal)
            },
            databases,
            packed: None,
        })
    }

    /// The estimate towards `goal` from a colouring database (Rokicki's, on 4x4: see
    /// [`super::colouring`]) read on the state and, where the goal's blank is on the main
    /// diagonal of a square board, on the mirrored state; maxed with the walking distance
    /// where `walking` is set. `goal` may be any goal with the database's board and blank
    /// cell (its tiles take the classes of their cells in `goal`).
    ///
    /// # Errors
    /// [`ColouringError::OtherGoal`] for a goal on another board or with its blank elsewhere.
    pub fn with_colouring(
        goal: &State,
        db: Arc<ColouringDb<StoredBytes>>,
        walking: bool,
    ) -> Result<MtmHeuristic, ColouringError> {
        let letters = db.colouring().letters_for(goal)?;
        let mirror = Mirror::of(goal).map(|m| {
            let mut cell = [0u8; MAX_COLOURING_CELLS];
            cell.copy_from_slice(&m.cell[..MAX_COLOURING_CELLS]);
            let mut letter = [0u8; MAX_COLOURING_CELLS];
            for (t, slot) in letter.iter_mut().enumerate().take(goal.cells().len()) {
                *slot = letters[usize::from(m.tile[t])];
            }
            (cell, letter)
        });
        let packed = (!walking).then(|| PackedColouring::new(Arc::clone(&db), letters, mirror));
        Ok(MtmHeuristic {
            goal: *goal,
            walking: WalkingDistance::new(goal),
            use_walking: walking,
            packed,
            colouring: Some(ColouringProbe {
                db,
                letters,
                mirror,
            }),
            databases: Vec::new(),
            mirror: None,
        })
    }

    /// The same estimate without the mirror reads (for measuring what they add).
    pub fn unmirrored(mut self) -> MtmHeuristic {
        self.mirror = None;
        if let Some(probe) = &mut self.colouring {
            probe.mirror = None;
            if self.packed.is_some() {
                self.packed = Some(PackedColouring::new(
                    Arc::clone(&probe.db),
                    probe.letters,
                    None,
                ));
            }
        }
        self
    }

    /// Whether a colouring database is read ([`MtmHeuristic::with_colouring`]).
    pub fn has_colouring(&self) -> bool {
        self.colouring.is_some()
    }

    /// The goal.
    pub fn goal(&self) -> &State {
        &self.goal
    }

    /// The pattern databases.
    pub fn databases(&self) -> &[PatternDb] {
        &self.databases
    }

    /// Whether the databases are also read on the mirrored state.
    pub fn mirrored(&self) -> bool {
        self.mirror.is_some() || self.colouring.as_ref().is_some_and(|p| p.mirror.is_some())
    }

    /// A lower bound on the MTM distance from `state` to the goal.
    #[allow(clippy::cast_possible_truncation)] // a cell index is below MAX_CELLS (at most 25)
    pub fn estimate(&self, state: &State) -> u32 {
        let mut best = match &self.colouring {
            Some(probe) => probe.estimate(state),
            None => 0,
        };
        if self.use_walking {
            best = best.max(self.walking.estimate(state));
        }
        if self.databases.is_empty() {
            return best;
        }
        let mut cell_of = [0u8; MAX_CELLS];
        for (cell, &tile) in state.cells().iter().enumerate() {
            cell_of[usize::from(tile)] = cell as u8;
        }
        for db in &self.databases {
            best = best.max(db.estimate_from_cells(&cell_of));
        }
        if let Some(mirror) = &self.mirror {
            let mut mirrored = [0u8; MAX_CELLS];
            for (tile, &cell) in cell_of.iter().enumerate().take(state.cells().len()) {
                mirrored[usize::from(mirror.tile[tile])] = mirror.cell[usize::from(cell)];
            }
            for db in &self.databases {
                best = best.max(db.estimate_from_cells(&mirrored));
            }
        }
        best
    }
}

impl Estimate for MtmHeuristic {
    fn goal(&self) -> &State {
        &self.goal
    }

    fn estimate(&self, state: &State) -> u32 {
        MtmHeuristic::estimate(self, state)
    }

    fn packed(&self) -> Option<&PackedColouring> {
        self.packed.as_ref()
    }
}

impl Mirror {
    /// The mirror of a square board's goal whose blank is on the main diagonal; else `None`.
    fn of(goal: &State) -> Option<Mirror> {
        let board = goal.board();
        let w = board.width();
        if w != board.height() || goal.blank() % w != goal.blank() / w {
            return None;
        }
        let mut cell = [0u8; MAX_CELLS];
        for (c, slot) in cell.iter_mut().enumerate().take(board.cells()) {
            *slot = u8::try_from((c % w) * w + c / w).expect("a cell index fits a byte");
        }
        // The transposed goal holds tile t on cell[c] where the goal holds it on c; the
        // goal holds goal[cell[c]] there, so t is relabelled to it.
        let mut tile = [0u8; MAX_CELLS];
        for (c, &t) in goal.cells().iter().enumerate() {
            tile[usize::from(t)] = goal.cells()[usize::from(cell[c])];
        }
        Some(Mirror { cell, tile })
    }
}
