//! Drawing test instances: from an exact table, uniform among the states at chosen depths;
//! on a board without one, uniform over the goal's parity class ([`sample_uniform`]); with
//! unsolvable pairs mixed in, reproducible from a seed.
//!
//! Uniformity comes from the table itself: the body holds the distance of every state of the
//! goal's parity class by rank, so the states at depths `min..=max` are exactly the ranks whose
//! entry lies in that range. Drawing one of those ranks uniformly and unranking it gives a state
//! drawn uniformly among them. The table measures distances to the canonical goal with the
//! goal's blank cell; a state drawn there is renamed back into the goal's own tile labels (the
//! inverse of [`State::relabel_for`]), which keeps its distance.

use std::ops::RangeInclusive;

use crate::board::MAX_CELLS;
use crate::rng::SplitMix64;
use crate::state::{Parity, State, BLANK};
use crate::table::{Table, TableError};

/// One instance: a start, its goal, whether it is solvable, and the exact distance where known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Instance {
    /// The start state.
    pub start: State,
    /// The goal state.
    pub goal: State,
    /// Whether the start can reach the goal.
    pub solvable: bool,
    /// The exact distance: `None` for an unsolvable pair, and for instances drawn without a
    /// table ([`sample_uniform`]), whose distance nobody has computed.
    pub distance: Option<u8>,
}

/// What to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampleOptions {
    /// How many instances.
    pub count: u64,
    /// The depths the solvable starts are drawn from, uniformly among all states at these
    /// depths (each state equally likely). `0..=u8::MAX` means every solvable state.
    pub depths: RangeInclusive<u8>,
    /// How many of the `count` instances are unsolvable; their positions are drawn uniformly.
    pub unsolvable: u64,
}

impl Default for SampleOptions {
    fn default() -> SampleOptions {
        SampleOptions {
            count: 10,
            depths: 0..=u8::MAX,
            unsolvable: 0,
        }
    }
}

/// Why instances cannot be drawn as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SampleError {
    /// The table does not serve the goal, or its body is damaged.
    #[error(transparent)]
    Table(#[from] TableError),
    /// No state lies at the depths asked for.
    #[error("no state is at depth {} from {goal} (the deepest states are at depth {deepest})", describe(.depths))]
    NoStateAtDepth {
        /// The depths asked for.
        depths: RangeInclusive<u8>,
        /// The goal.
        goal: State,
        /// The table's maximum depth.
        deepest: u8,
    },
    /// The minimum depth exceeds the maximum.
    #[error("the minimum depth {min} is larger than the maximum depth {max}")]
    EmptyRange {
        /// The minimum asked for.
        min: u8,
        /// The maximum asked for.
        max: u8,
    },
    /// Depths were asked for on a board without an exact table.
    #[error("drawing at chosen depths needs an exact table, and the {board} board has none: leave out the depths to draw uniformly among all solvable states")]
    DepthsNeedTable {
        /// The board.
        board: crate::Board,
    },
    /// A single depth was given together with a minimum or maximum depth.
    #[error("a depth cannot be given with a minimum or maximum depth")]
    DepthWithRange,
    /// More unsolvable instances than instances.
    #[error("{unsolvable} unsolvable instances were asked for, but only {count} instances in all")]
    TooManyUnsolvable {
        /// Unsolvable instances asked for.
        unsolvable: u64,
        /// Instances asked for.
        count: u64,
    },
}

fn describe(depths: &RangeInclusive<u8>) -> String {
    if depths.start() == depths.end() {
        depths.start().to_string()
    } else {
        format!("{} to {}", depths.start(), depths.end())
    }
}

/// The depths to draw from, as the command line, the server and Python take them: one `depth`,
/// or a range from `min` (default 0) to `max` (default every depth).
///
/// # Errors
/// [`SampleError::DepthWithRange`] when `depth` comes with `min` or `max`.
///
/// ```
/// use npuzzle::sample::depth_range;
/// assert_eq!(depth_range(Some(31), None, None)?, 31..=31);
/// assert_eq!(depth_range(None, Some(20), None)?, 20..=u8::MAX);
/// assert!(depth_range(Some(3), Some(1), None).is_err());
/// # Ok::<(), npuzzle::sample::SampleError>(())
/// ```
pub fn depth_range(
    depth: Option<u8>,
    min: Option<u8>,
    max: Option<u8>,
) -> Result<RangeInclusive<u8>, SampleError> {
    match (depth, min, max) {
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) => Err(SampleError::DepthWithRange),
        (Some(depth), None, None) => Ok(depth..=depth),
        (None, min, max) => Ok(min.unwrap_or(0)..=max.unwrap_or(u8::MAX)),
    }
}

/// A seed for a draw whose caller gave none: the clock mixed with the process id, kept below
/// 10^9 so that it is short enough to type back (callers print it, so the draw can be repeated).
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        // The nanoseconds since the epoch, modulo 2^64 (what `as_nanos() as u64` keeps).
        .map_or(0, |d| {
            d.as_secs()
                .wrapping_mul(1_000_000_000)
                .wrapping_add(u64::from(d.subsec_nanos()))
        });
    let mut rng = SplitMix64::new(nanos ^ u64::from(std::process::id()) << 32);
    rng.next_u64() % 1_000_000_000
}

/// The most ranks a sampler lists (64 MB); a larger population is drawn by rejection instead.
const MAX_LISTED_RANKS: u64 = 1 << 24;

/// Which ranks a sampler draws from.
enum Population {
    /// Every rank of the table.
    All,
    /// These ranks (at most [`MAX_LISTED_RANKS`]).
    Listed(Vec<u32>),
    /// Ranks drawn uniformly until one lies in the depths: used when the population is larger
    /// than a list should be, so at least 1 in 15 ranks qualifies on any board.
    Rejection(RangeInclusive<u8>),
}

/// Draws solvable starts for one goal, uniformly among the states at the chosen depths.
pub struct Sampler<'t, D> {
    table: &'t Table<D>,
    /// The table's body, checked whole once.
    entries: &'t [u8],
    goal: State,
    class: Parity,
    population: Population,
    /// How many states qualify.
    size: u64,
    /// Canonical tile label -> the goal's label for the same cell.
    rename: [u8; MAX_CELLS],
    /// Draws without replacement ([`Sampler::draw_new`]): how many listed ranks were taken
    /// (they sit at the front of the list), or a bit per rank already drawn (allocated on the
    /// first such draw: one bit per state, 30 MB on a 12-cell board).
    taken: usize,
    seen: Vec<u64>,
}

impl<D> std::fmt::Debug for Sampler<'_, D> {
    /// The goal and how many states qualify, not the table.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sampler")
            .field("goal", &self.goal)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl<'t, D: AsRef<[u8]>> Sampler<'t, D> {
    /// A sampler of starts for `goal` at `depths`, drawn from `table`.
    ///
    /// # Errors
    /// [`SampleError::Table`] when `table` does not serve `goal` or its body is damaged;
    /// [`SampleError::EmptyRange`] or [`SampleError::NoStateAtDepth`] when no state qualifies.
    pub fn new(
        table: &'t Table<D>,
        goal: &State,
        depths: RangeInclusive<u8>,
    ) -> Result<Sampler<'t, D>, SampleError> {
        if !table.serves(goal) {
            return Err(TableError::GoalNotServed {
                table_goal: *table.goal(),
                goal: *goal,
            }
            .into());
        }
        let (min, max) = (*depths.start(), *depths.end());
        if min > max {
            return Err(SampleError::EmptyRange { min, max });
        }
        let entries = table.entries()?;
        let deepest = table.header().max_depth;
        let counts = &table.header().counts;
        let size: u64 = (min as usize..=(max as usize).min(counts.len() - 1))
            .filter_map(|d| counts.get(d))
            .sum();
        if size == 0 {
            return Err(SampleError::NoStateAtDepth {
                depths,
                goal: *goal,
                deepest,
            });
        }
        let population = if min == 0 && max >= deepest {
            Population::All
        } else if size <= MAX_LISTED_RANKS {
            Population::Listed(
                entries
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| depths.contains(d))
                    .map(|(rank, _)| u32::try_from(rank).expect("a table's ranks are u32"))
                    .collect(),
            )
        } else {
            Population::Rejection(depths)
        };
        let canonical = table.goal();
        let mut rename = [0u8; MAX_CELLS];
        for (&from, &to) in canonical.cells().iter().zip(goal.cells()) {
            rename[from as usize] = to;
        }
        Ok(Sampler {
            table,
            entries,
            goal: *goal,
            class: canonical.parity_class(),
            population,
            size,
            rename,
            taken: 0,
            seen: Vec::new(),
        })
    }

    /// How many states the sampler draws from.
    pub fn population(&self) -> u64 {
        self.size
    }

    /// A start drawn uniformly from the population, with its exact distance to the goal (with
    /// replacement: the same start may come again; see [`Sampler::draw_new`]).
    pub fn draw(&self, rng: &mut SplitMix64) -> (State, u8) {
        let states = self.table.space().states();
        let rank = match &self.population {
            Population::Listed(ranks) => ranks[rng.index_below(ranks.len())],
            Population::All => rng.below_u32(states),
            Population::Rejection(depths) => loop {
                let rank = rng.below_u32(states);
                if depths.contains(&self.entries[rank as usize]) {
                    break rank;
                }
            },
        };
        self.state_of(rank)
    }

    /// A start drawn uniformly among those of the population not drawn by this method before
    /// (without replacement), or `None` once every one has been drawn.
    pub fn draw_new(&mut self, rng: &mut SplitMix64) -> Option<(State, u8)> {
        let states = self.table.space().states();
        let rank = match &mut self.population {
            // A partial Fisher-Yates shuffle: the taken ranks move to the front.
            Population::Listed(ranks) => {
                if self.taken == ranks.len() {
                    return None;
                }
                let pick = self.taken + rng.index_below(ranks.len() - self.taken);
                ranks.swap(self.taken, pick);
                self.taken += 1;
                ranks[self.taken - 1]
            }
            Population::All | Population::Rejection(_) => {
                if self.taken as u64 == self.size {
                    return None;
                }
                if self.seen.is_empty() {
                    self.seen = vec![0; states.div_ceil(64) as usize];
                }
                loop {
                    let rank = rng.below_u32(states);
                    let (word, bit) = (rank as usize / 64, 1u64 << (rank % 64));
                    let fits = match &self.population {
                        Population::Rejection(depths) => {
                            depths.contains(&self.entries[rank as usize])
                        }
                        _ => true,
                    };
                    if fits && self.seen[word] & bit == 0 {
                        self.seen[word] |= bit;
                        self.taken += 1;
                        break rank;
                    }
                }
            }
        };
        Some(self.state_of(rank))
    }

    /// The state of canonical rank `rank` in the goal's labels, with its distance.
    fn state_of(&self, rank: u32) -> (State, u8) {
        let distance = self.entries[rank as usize];
        let canonical = self.table.space().unrank(rank, self.class);
        let mut cells = [0u8; MAX_CELLS];
        for (slot, &tile) in cells.iter_mut().zip(canonical.cells()) {
            *slot = self.rename[tile as usize];
        }
        (State::from_valid_cells(self.goal.board(), cells), distance)
    }
}

/// `start` with two of its tiles (never the blank) swapped, chosen uniformly: one swap flips the
/// tiles' inversion parity, so the result cannot reach any goal `start` could reach.
pub(crate) fn swap_two_tiles(start: &State, rng: &mut SplitMix64) -> State {
    let tiles: Vec<usize> = (0..start.board().cells())
        .filter(|&c| start.cells()[c] != BLANK)
        .collect();
    let first = rng.index_below(tiles.len());
    // Draw the second among the others, so the two always differ.
    let mut second = rng.index_below(tiles.len() - 1);
    if second >= first {
        second += 1;
    }
    let mut cells = [0u8; MAX_CELLS];
    cells[..start.board().cells()].copy_from_slice(start.cells());
    cells.swap(tiles[first], tiles[second]);
    State::from_valid_cells(start.board(), cells)
}

/// Draws `options.count` instances for `goal`, reproducibly from `seed`.
///
/// The instances come lazily. Exactly `options.unsolvable` of them are unsolvable (a start
/// drawn from the population with two tiles swapped), at positions chosen uniformly by
/// selection sampling. The solvable starts are drawn without replacement: no start comes
/// twice, and when fewer states lie at the depths than solvable instances were asked for,
/// each of them comes once, in random order, and no more (the iterator's `size_hint` is exact,
/// so a caller can say so; [`Sampler::population`] counts them). Drawing without replacement
/// keeps a bit per state of the board once the population is too large to list (30 MB for 12
/// cells). The same seed, table goal and options give
/// the same instances on every machine: the generator is [`SplitMix64`] and every draw is spelled
/// out here.
///
/// # Errors
/// See [`Sampler::new`]; [`SampleError::TooManyUnsolvable`] when `unsolvable > count`.
///
/// ```
/// use npuzzle::sample::{sample, SampleOptions};
/// use npuzzle::{Board, BuildOptions, State, Table};
/// let goal = State::goal(Board::THREE_BY_THREE);
/// let table = Table::build(&goal, BuildOptions::default())?;
/// let options = SampleOptions { count: 3, depths: 31..=31, unsolvable: 0 };
/// for instance in sample(&table, &goal, &options, 7)? {
///     assert_eq!(instance.distance, Some(31));
///     assert_eq!(table.distance(&instance.start)?, Some(31));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn sample<'t, D: AsRef<[u8]>>(
    table: &'t Table<D>,
    goal: &State,
    options: &SampleOptions,
    seed: u64,
) -> Result<impl Iterator<Item = Instance> + 't, SampleError> {
    if options.unsolvable > options.count {
        return Err(SampleError::TooManyUnsolvable {
            unsolvable: options.unsolvable,
            count: options.count,
        });
    }
    let mut sampler = Sampler::new(table, goal, options.depths.clone())?;
    let solvable = (options.count - options.unsolvable).min(sampler.population());
    Ok(Instances::new(
        move |rng, distinct| {
            let (start, distance) = if distinct {
                sampler
                    .draw_new(rng)
                    .expect("no more distinct starts are drawn than the population holds")
            } else {
                sampler.draw(rng)
            };
            (start, Some(distance))
        },
        goal,
        solvable,
        options.unsolvable,
        seed,
    ))
}

/// Draws `options.count` instances for `goal` on a board without a table, reproducibly from
/// `seed`: solvable starts uniformly among every state of the goal's parity class (a uniform
/// permutation, with two fixed tiles swapped when it lies in the other class: a bijection
/// between the classes, so the result stays uniform). Their distances are not known. Starts
/// are drawn with replacement (these boards have at least 10^13 states).
///
/// # Errors
/// [`SampleError::DepthsNeedTable`] when `options.depths` is not every depth;
/// [`SampleError::TooManyUnsolvable`] when `unsolvable > count`.
///
/// ```
/// use npuzzle::sample::{sample_uniform, SampleOptions};
/// use npuzzle::{Board, State};
/// let goal = State::goal(Board::new(4, 4)?);
/// let options = SampleOptions { count: 5, unsolvable: 2, ..SampleOptions::default() };
/// let drawn: Vec<_> = sample_uniform(&goal, &options, 7)?.collect();
/// assert_eq!(drawn.iter().filter(|i| i.start.can_reach(&goal)).count(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn sample_uniform(
    goal: &State,
    options: &SampleOptions,
    seed: u64,
) -> Result<impl Iterator<Item = Instance>, SampleError> {
    if options.depths != (0..=u8::MAX) {
        return Err(SampleError::DepthsNeedTable {
            board: goal.board(),
        });
    }
    if options.unsolvable > options.count {
        return Err(SampleError::TooManyUnsolvable {
            unsolvable: options.unsolvable,
            count: options.count,
        });
    }
    let goal_copy = *goal;
    // No record of what was drawn: these boards have at least 10^13 states, so a repeat
    // among any count one could print is vanishingly unlikely.
    Ok(Instances::new(
        move |rng, _| (uniform_in_class(&goal_copy, rng), None),
        goal,
        options.count - options.unsolvable,
        options.unsolvable,
        seed,
    ))
}

/// A state drawn uniformly among those that can reach `goal`.
fn uniform_in_class(goal: &State, rng: &mut SplitMix64) -> State {
    let n = goal.board().cells();
    let mut cells = [0u8; MAX_CELLS];
    for (cell, slot) in cells.iter_mut().enumerate().take(n) {
        *slot = u8::try_from(cell).expect("a board has at most 25 cells");
    }
    // Fisher-Yates, from the last cell down.
    for i in (1..n).rev() {
        let j = rng.index_below(i + 1);
        cells.swap(i, j);
    }
    let state = State::from_valid_cells(goal.board(), cells);
    if state.can_reach(goal) {
        return state;
    }
    // The first two cells that hold tiles: which cells those are depends only on the blank's
    // cell, so the swap maps each class onto the other one to one.
    let mut tiles = (0..n).filter(|&c| cells[c] != BLANK);
    let (a, b) = (tiles.next(), tiles.next());
    if let (Some(a), Some(b)) = (a, b) {
        cells.swap(a, b);
    }
    State::from_valid_cells(goal.board(), cells)
}

/// The instances: `solvable` solvable starts and `unsolvable` unsolvable ones from `draw` (a
/// start and its distance, where known; asked for a start not drawn before when its flag is
/// set, which the solvable ones are), the unsolvable ones at positions chosen by selection
/// sampling.
struct Instances<F> {
    draw: F,
    goal: State,
    rng: SplitMix64,
    remaining: u64,
    unsolvable_left: u64,
}

impl<F: FnMut(&mut SplitMix64, bool) -> (State, Option<u8>)> Instances<F> {
    fn new(draw: F, goal: &State, solvable: u64, unsolvable: u64, seed: u64) -> Instances<F> {
        Instances {
            draw,
            goal: *goal,
            rng: SplitMix64::new(seed),
            remaining: solvable + unsolvable,
            unsolvable_left: unsolvable,
        }
    }
}

impl<F: FnMut(&mut SplitMix64, bool) -> (State, Option<u8>)> Iterator for Instances<F> {
    type Item = Instance;

    fn next(&mut self) -> Option<Instance> {
        if self.remaining == 0 {
            return None;
        }
        // Selection sampling (Knuth's Algorithm S): each line is unsolvable with probability
        // (unsolvable still to place) / (lines left), which places exactly that many, uniformly.
        let unsolvable = self.rng.below(self.remaining) < self.unsolvable_left;
        self.remaining -= 1;
        let (start, distance) = (self.draw)(&mut self.rng, !unsolvable);
        Some(if unsolvable {
            self.unsolvable_left -= 1;
            Instance {
                start: swap_two_tiles(&start, &mut self.rng),
                goal: self.goal,
                solvable: false,
                distance: None,
            }
        } else {
            Instance {
                start,
                goal: self.goal,
                solvable: true,
                distance,
            }
        })
    }

    /// Exact: callers compare it with the count they asked for.
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.remaining).unwrap_or(usize::MAX);
        (n, Some(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::BuildOptions;

    #[test]
    fn swapping_two_tiles_always_gives_an_unsolvable_pair() {
        let mut rng = SplitMix64::new(5);
        for (w, h) in [(2, 2), (3, 2), (3, 3), (4, 4)] {
            let goal = State::goal(Board::new(w, h).unwrap());
            for _ in 0..50 {
                let swapped = swap_two_tiles(&goal, &mut rng);
                assert_eq!(swapped.blank(), goal.blank());
                assert!(!swapped.can_reach(&goal), "{swapped}");
            }
        }
    }

    #[test]
    fn drawn_states_on_a_small_board_cover_every_state_at_the_depth() {
        let board = Board::new(3, 2).unwrap();
        let goal: State = "4 1 2 / 3 5 0".parse().unwrap();
        let canonical = State::canonical_goal(board, goal.blank());
        let table = Table::build(&canonical, BuildOptions::default()).unwrap();
        let depth = 10;
        let expected = table
            .entries()
            .unwrap()
            .iter()
            .filter(|&&d| d == depth)
            .count();
        let sampler = Sampler::new(&table, &goal, depth..=depth).unwrap();
        assert_eq!(sampler.population(), expected as u64);
        let mut rng = SplitMix64::new(11);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..expected * 40 {
            let (start, distance) = sampler.draw(&mut rng);
            assert_eq!(distance, depth);
            assert_eq!(table.distance_to(&start, &goal), Ok(Some(depth)));
            seen.insert(start);
        }
        assert_eq!(
            seen.len(),
            expected,
            "every state at depth {depth} was drawn"
        );
    }

    #[test]
    fn asked_for_more_than_exist_each_state_at_the_depth_comes_once() {
        let goal = State::goal(Board::THREE_BY_THREE);
        let table = Table::build(&goal, BuildOptions::default()).unwrap();
        let at = |d: u8| table.header().counts[d as usize];
        // The deepest layer (2 states on 3x3) and a wide one, each asked for more than it holds.
        for depth in [table.header().max_depth, 30] {
            let exist = at(depth);
            let options = SampleOptions {
                count: exist + 20,
                depths: depth..=depth,
                unsolvable: 3,
            };
            let drawn = sample(&table, &goal, &options, 9).unwrap();
            assert_eq!(
                drawn.size_hint(),
                (
                    usize::try_from(exist).unwrap() + 3,
                    Some(usize::try_from(exist).unwrap() + 3)
                )
            );
            let drawn: Vec<Instance> = drawn.collect();
            assert_eq!(drawn.len() as u64, exist + 3);
            let solvable: std::collections::HashSet<State> = drawn
                .iter()
                .filter(|i| i.solvable)
                .map(|i| i.start)
                .collect();
            assert_eq!(
                solvable.len() as u64,
                exist,
                "every state at depth {depth}, once"
            );
            for start in &solvable {
                assert_eq!(table.distance(start), Ok(Some(depth)));
            }
            assert_eq!(drawn.iter().filter(|i| !i.solvable).count(), 3);
        }
    }

    #[test]
    fn solvable_starts_never_repeat_in_a_small_or_a_whole_population() {
        let goal = State::goal(Board::new(3, 2).unwrap());
        let table = Table::build(&goal, BuildOptions::default()).unwrap();
        // 360 states in all: the whole population (drawn by rejection with a record) and a
        // listed range, each asked for all of it and for most of it.
        for (depths, count) in [(0..=u8::MAX, 360), (0..=u8::MAX, 300), (5..=12, 1000)] {
            let options = SampleOptions {
                count,
                depths: depths.clone(),
                unsolvable: 0,
            };
            let starts: Vec<State> = sample(&table, &goal, &options, 4)
                .unwrap()
                .map(|i| i.start)
                .collect();
            let distinct: std::collections::HashSet<&State> = starts.iter().collect();
            assert_eq!(distinct.len(), starts.len(), "{depths:?}: no start repeats");
            let exist: u64 = (0..table.header().counts.len())
                .filter(|&d| depths.contains(&u8::try_from(d).unwrap()))
                .map(|d| table.header().counts[d])
                .sum();
            assert_eq!(starts.len() as u64, count.min(exist), "{depths:?}");
        }
    }
}
