//! Seeded scramblers for any board: a uniform random state of the goal's class, and a random
//! walk from the goal.

use super::state::LargeState;
use crate::board::Move;
use crate::rng::SplitMix64;

/// A state drawn uniformly from those that reach `goal`: every cell shuffled (Fisher-Yates),
/// then, if the draw is in the other class, the first two tiles (not the blank) swapped.
/// Swapping them is a bijection between the two classes with the blank in place, so each
/// reachable state has exactly two draws that land on it: uniform.
pub fn scramble_uniform(goal: &LargeState, rng: &mut SplitMix64) -> LargeState {
    let mut tiles = goal.tiles().to_vec();
    for i in (1..tiles.len()).rev() {
        let j = rng.index_below(i + 1);
        tiles.swap(i, j);
    }
    let mut state = LargeState::from_tiles(goal.board(), &tiles).expect("a permutation");
    if !state.can_reach(goal) {
        let mut cells = (0..tiles.len()).filter(|&c| tiles[c] != 0);
        let (a, b) = (cells.next(), cells.next());
        tiles.swap(a.expect("two tiles"), b.expect("two tiles"));
        state = LargeState::from_tiles(goal.board(), &tiles).expect("a permutation");
    }
    state
}

/// The state after a random walk of `moves` moves from `goal`: each move drawn uniformly
/// among those the blank can make, never straight back (so the walk does not undo itself
/// at once; it may still come back to a state by a longer loop). Its distance is at most
/// `moves`.
pub fn scramble_walk(goal: &LargeState, moves: usize, rng: &mut SplitMix64) -> LargeState {
    let board = goal.board();
    let mut state = goal.clone();
    let mut last: Option<Move> = None;
    for _ in 0..moves {
        let choices: Vec<Move> = Move::ALL
            .into_iter()
            .filter(|&mv| board.step(state.blank(), mv).is_some())
            .filter(|&mv| Some(mv.inverse()) != last)
            .collect();
        let mv = choices[rng.index_below(choices.len())];
        state.step(mv);
        last = Some(mv);
    }
    state
}

/// Which scrambler draws a state: [`scramble_uniform`], or [`scramble_walk`] of this many moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scrambler {
    /// A uniformly random state of the goal's class.
    Uniform,
    /// The end of a random walk of this many moves from the goal.
    Walk(usize),
}

impl Scrambler {
    /// One state drawn from `rng`.
    pub fn draw(self, goal: &LargeState, rng: &mut SplitMix64) -> LargeState {
        match self {
            Scrambler::Uniform => scramble_uniform(goal, rng),
            Scrambler::Walk(moves) => scramble_walk(goal, moves, rng),
        }
    }
}

/// States drawn by `scrambler` one after another from one stream seeded with `seed`: the
/// draws of `npuzzle sample --scramble` and of Python's `sample(scramble=...)`, so that one
/// seed gives the same states everywhere.
///
/// ```
/// use npuzzle::large::{scrambles, LargeBoard, LargeState, Scrambler};
/// let goal = LargeState::goal(LargeBoard::new(10, 10)?);
/// let drawn: Vec<LargeState> = scrambles(&goal, Scrambler::Walk(50), 7).take(3).collect();
/// assert!(drawn.iter().all(|state| state.can_reach(&goal)));
/// assert_eq!(drawn, scrambles(&goal, Scrambler::Walk(50), 7).take(3).collect::<Vec<_>>());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn scrambles(
    goal: &LargeState,
    scrambler: Scrambler,
    seed: u64,
) -> impl Iterator<Item = LargeState> + '_ {
    let mut rng = SplitMix64::new(seed);
    std::iter::repeat_with(move || scrambler.draw(goal, &mut rng))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::large::LargeBoard;

    #[test]
    fn every_draw_is_solvable_and_seeded() {
        for (w, h) in [(2, 2), (3, 3), (4, 4), (7, 3), (32, 32)] {
            let goal = LargeState::goal(LargeBoard::new(w, h).unwrap());
            for seed in 0..20 {
                let a = scramble_uniform(&goal, &mut SplitMix64::new(seed));
                assert!(a.can_reach(&goal));
                assert_eq!(a, scramble_uniform(&goal, &mut SplitMix64::new(seed)));
                let b = scramble_walk(&goal, 100, &mut SplitMix64::new(seed));
                assert!(b.can_reach(&goal));
            }
        }
    }

    /// On a board of at most 25 cells the walk is the one `play` shuffles with: the same
    /// moves drawn from the same stream as a walk over [`crate::State`]'s successors (written
    /// out here as `play` wrote it before it called this function), and the stream left at the
    /// same point.
    #[test]
    fn a_walk_on_a_small_board_is_the_walk_over_small_states() {
        use crate::{Board, Move, State};
        for (w, h) in [(2, 2), (3, 3), (4, 4), (5, 5), (2, 6)] {
            let goal = State::goal(Board::new(w, h).unwrap());
            for (seed, moves) in (0..20).zip([0, 1, 2, 7, 30, 80].into_iter().cycle()) {
                let mut rng = SplitMix64::new(seed);
                let (mut state, mut last) = (goal, None::<Move>);
                for _ in 0..moves {
                    let choices: Vec<(Move, State)> = state
                        .successors()
                        .filter(|(mv, _)| Some(mv.inverse()) != last)
                        .collect();
                    let (mv, next) = choices[rng.index_below(choices.len())];
                    state = next;
                    last = Some(mv);
                }
                let mut ours = SplitMix64::new(seed);
                let walked = scramble_walk(&LargeState::from_small(&goal), moves, &mut ours);
                assert_eq!(
                    walked.to_small(),
                    Some(state),
                    "{w}x{h}, seed {seed}, {moves} moves"
                );
                assert_eq!(ours.next_u64(), rng.next_u64());
            }
        }
    }
}
