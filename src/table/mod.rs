//! The exact distance table: a validated view over bytes, answering `distance` and `solve`.

pub mod file;
pub mod format;

use crate::bfs::{self, BuildOptions};
use crate::board::Move;
use crate::rank::{RankSpace, TooLargeError};
use crate::solution::Solution;
use crate::state::State;

pub use format::{FormatError, Header};

/// An exact distance table over any bytes: a `Vec<u8>` built in memory or a memory-mapped file.
///
/// Holding a `Table` means the header was validated and both checksums matched; afterwards
/// every query is a bounds-checked read. Distances are to [`Table::goal`].
///
/// ```
/// use npuzzle::{Board, BuildOptions, State, Table};
/// let goal = State::goal(Board::THREE_BY_THREE);
/// let table = Table::build(&goal, BuildOptions::default())?;
/// let start: State = "867254301".parse()?;
/// assert_eq!(table.distance(&start), Some(31));
/// let solution = table.solve(&start).expect("solvable");
/// assert_eq!(solution.len(), 31);
/// assert_eq!(solution.path().last(), Some(&goal));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Table<D> {
    data: D,
    header: Header,
    space: RankSpace,
    goal_class: bool,
}

impl Table<Vec<u8>> {
    /// Runs the generator for `goal` and encodes the result as a table file in memory.
    ///
    /// The generator writes straight into the file buffer, after room for the longest header;
    /// once the depth counts are known the body is moved down to the real header length. So
    /// the peak memory is the file plus the generator's bit sets, not two copies of the body.
    ///
    /// # Errors
    /// [`TooLargeError`] for boards too large to rank.
    pub fn build(goal: &State, options: BuildOptions) -> Result<Table<Vec<u8>>, TooLargeError> {
        let space = RankSpace::new(goal.board())?;
        let room = format::MAX_HEADER_LEN;
        let states = space.states() as usize;
        let mut data = vec![0u8; room + states];
        let counts = bfs::distances_into(&space, goal, options, &mut data[room..]);
        let body_checksum = crc32fast::hash(&data[room..]);
        let encoded = format::encode_header(goal, &counts, body_checksum);
        let len = encoded.len();
        data.copy_within(room.., len);
        data.truncate(len + states);
        data[..len].copy_from_slice(&encoded);
        let header = Header {
            goal: *goal,
            entries: states as u64,
            max_depth: (counts.len() - 1) as u8,
            counts,
            body_checksum,
            len,
        };
        Ok(Table {
            data,
            header,
            space,
            goal_class: goal.parity_class(),
        })
    }
}

impl<D: AsRef<[u8]>> Table<D> {
    /// Validates `data` as a complete table file and wraps it.
    ///
    /// # Errors
    /// The [`FormatError`] of the first problem found. Never panics, whatever the bytes.
    pub fn from_bytes(data: D) -> Result<Table<D>, FormatError> {
        let header = format::decode(data.as_ref())?;
        let space = RankSpace::new(header.board()).map_err(|_| FormatError::UnsupportedBoard {
            width: header.board().width() as u8,
            height: header.board().height() as u8,
        })?;
        let goal_class = header.goal.parity_class();
        Ok(Table {
            data,
            header,
            space,
            goal_class,
        })
    }

    /// Checks that this table measures distances to `goal`.
    ///
    /// # Errors
    /// [`FormatError::OtherGoal`] naming both goals.
    pub fn expect_goal(&self, goal: &State) -> Result<(), FormatError> {
        if self.header.goal == *goal {
            Ok(())
        } else {
            Err(FormatError::OtherGoal {
                found: self.header.goal.to_string(),
                found_board: self.header.board(),
                expected: goal.to_string(),
                expected_board: goal.board(),
            })
        }
    }

    /// The validated header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The goal every distance is measured to.
    pub fn goal(&self) -> &State {
        &self.header.goal
    }

    /// The rank space the body is indexed by.
    pub fn space(&self) -> &RankSpace {
        &self.space
    }

    /// The whole file: header and body.
    pub fn as_bytes(&self) -> &[u8] {
        self.data.as_ref()
    }

    /// The body: the distance of each state, by folded rank.
    #[inline]
    pub fn entries(&self) -> &[u8] {
        &self.data.as_ref()[self.header.len..]
    }

    /// The full index of `state` if it can reach the goal, else `None`.
    #[inline]
    fn full_index(&self, state: &State) -> Option<u32> {
        if state.board() != self.header.board() {
            return None;
        }
        let (full, tile_parity) = self.space.full_index_and_parity(state);
        let width = state.board().width();
        let row_term = width.is_multiple_of(2) && !(state.blank() / width).is_multiple_of(2);
        (tile_parity ^ row_term == self.goal_class).then_some(full)
    }

    /// The exact number of moves from `state` to the goal: one rank and one read.
    ///
    /// `None` when `state` cannot reach the goal (other parity class or other board).
    #[inline]
    pub fn distance(&self, state: &State) -> Option<u8> {
        let full = self.full_index(state)?;
        Some(self.entries()[(full >> 1) as usize])
    }

    /// An optimal solution from `state` to the goal, found by stepping each time to a
    /// neighbour one move closer (the first in `U D L R` order).
    ///
    /// `None` when `state` cannot reach the goal.
    pub fn solve(&self, state: &State) -> Option<Solution> {
        let moves = self.solve_moves(state)?;
        Some(Solution::from_moves(*state, moves).expect("moves from the table are legal"))
    }

    /// The moves of [`Table::solve`] without the states along the way.
    pub fn solve_moves(&self, state: &State) -> Option<Vec<Move>> {
        let mut full = self.full_index(state)?;
        let entries = self.entries();
        let mut depth = entries[(full >> 1) as usize];
        let mut moves = Vec::with_capacity(depth as usize);
        while depth > 0 {
            // A validated table built by breadth-first search always has a closer neighbour;
            // a consistent-looking but wrong body is caught by `check --deep`, not trusted here.
            let (mv, next) = self
                .space
                .find_neighbour(full, |n| entries[(n >> 1) as usize] == depth - 1)?;
            moves.push(mv);
            full = next;
            depth -= 1;
        }
        Some(moves)
    }

    /// Whether this table can answer questions about `goal`: it is the table's own goal, or
    /// the table's goal is the canonical goal with the same blank cell (see
    /// [`State::relabel_for`]).
    pub fn serves(&self, goal: &State) -> bool {
        *goal == self.header.goal
            || (goal.board() == self.header.board()
                && self.header.goal == State::canonical_goal(goal.board(), goal.blank()))
    }

    /// The exact distance from `start` to any `goal` this table [serves](Table::serves),
    /// relabelling tiles when `goal` is not the table's own goal. `Ok(None)`: unsolvable pair.
    ///
    /// # Errors
    /// [`FormatError::OtherGoal`] when the table does not serve `goal`.
    #[inline]
    pub fn distance_to(&self, start: &State, goal: &State) -> Result<Option<u8>, FormatError> {
        if *goal == self.header.goal {
            return Ok(self.distance(start));
        }
        self.check_serves(goal)?;
        if start.board() != goal.board() {
            return Ok(None);
        }
        Ok(self.distance(&start.relabel_for(goal)))
    }

    /// An optimal solution from `start` to any `goal` this table serves, in the caller's own
    /// tile labels. `Ok(None)`: unsolvable pair.
    ///
    /// # Errors
    /// [`FormatError::OtherGoal`] when the table does not serve `goal`.
    pub fn solve_to(&self, start: &State, goal: &State) -> Result<Option<Solution>, FormatError> {
        self.check_serves(goal)?;
        if start.board() != goal.board() {
            return Ok(None);
        }
        let relabelled = if *goal == self.header.goal {
            *start
        } else {
            start.relabel_for(goal)
        };
        Ok(self.solve_moves(&relabelled).map(|moves| {
            Solution::from_moves(*start, moves).expect("moves from the table are legal")
        }))
    }

    fn check_serves(&self, goal: &State) -> Result<(), FormatError> {
        if self.serves(goal) {
            Ok(())
        } else {
            self.expect_goal(goal)
        }
    }

    /// Checks every entry against its neighbours: the goal is the only 0, every other state has
    /// a neighbour one closer and none more than one closer. Returns the first bad folded index.
    ///
    /// Runs on rayon's current pool and never unranks a state: neighbours come from the same
    /// index arithmetic as the generator's (seconds for a 12-cell table).
    pub fn first_inconsistent_entry(&self) -> Option<u32> {
        crate::consistency::first_inconsistent_entry(&self.space, &self.header.goal, self.entries())
    }

    /// Recounts the states at each depth from the body.
    pub fn recount_depths(&self) -> Vec<u64> {
        bfs::count_depths(self.entries())
    }
}

impl<D> Table<D> {
    /// Gives back the bytes.
    pub fn into_inner(self) -> D {
        self.data
    }

    /// The same validated table over the same bytes in another container.
    pub(crate) fn map_bytes<E>(self, wrap: impl FnOnce(D) -> E) -> Table<E> {
        Table {
            data: wrap(self.data),
            header: self.header,
            space: self.space,
            goal_class: self.goal_class,
        }
    }
}
