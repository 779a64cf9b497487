//! Path shortening: a path found fast (by a weighted search) made shorter by replacing its
//! windows, stretches of a few dozen moves between two of its states, with optimal sub-paths,
//! and by cutting out every loop (a state met twice). The bounded-suboptimal search
//! ([`super::bounded_idastar`]) uses it to bring a path down to `w` times the lower bound it
//! proves, where finding such a path by search alone costs far more (BENCHMARKS.md, "Fast
//! solutions").
//!
//! A window's end is any state, not the search's goal, so the window's start is renamed
//! ([`State::relabel_for`]) so that its end becomes the canonical goal with the same blank
//! cell, and searched with linear conflict towards that goal (one heuristic per blank cell,
//! built once); renaming keeps the moves. A window that ends at the goal is searched with the
//! search's own heuristic, the pattern databases where there are some, which settles far
//! longer tails. Each window is settled by IDA* with its bound kept below the window's
//! length, so a replacement is always strictly shorter, and a window whose search runs past
//! its allowance is left as it was: shortening never lengthens a path and always leaves a
//! path from the same start to the same end.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::in_place::shortest_within;
use super::prune::MovePruner;
use super::{pack, Limits};
use crate::board::Move;
use crate::heuristic::{Heuristic, LinearConflict};
use crate::solution::Solution;
use crate::state::State;

/// Shortens paths towards `h`'s goal; keeps the linear-conflict heuristics it has built.
pub(crate) struct Shortener<'h, H> {
    h: &'h H,
    prune: Arc<MovePruner>,
    /// Linear conflict towards the canonical goal with the blank at each cell, built when
    /// first needed.
    towards: Vec<Option<LinearConflict>>,
    /// Expansions spent so far, every window's search together.
    pub(crate) expanded: u64,
}

impl<'h, H: Heuristic> Shortener<'h, H> {
    /// A shortener for paths to `h`'s goal.
    pub(crate) fn new(h: &'h H) -> Shortener<'h, H> {
        let board = h.goal().board();
        Shortener {
            h,
            prune: MovePruner::for_board(board),
            towards: vec![None; board.cells()],
            expanded: 0,
        }
    }

    /// Removes every loop from `states` (a path's states, start first): where a state comes
    /// again, the moves between its two visits go. Returns whether any went.
    pub(crate) fn cut_loops(states: &mut Vec<State>) -> bool {
        let mut seen: FxHashMap<u128, usize> = FxHashMap::default();
        let mut kept: Vec<State> = Vec::with_capacity(states.len());
        for state in states.iter() {
            match seen.get(&pack(state)) {
                Some(&at) => {
                    for gone in kept.drain(at + 1..) {
                        seen.remove(&pack(&gone));
                    }
                }
                None => {
                    seen.insert(pack(state), kept.len());
                    kept.push(*state);
                }
            }
        }
        let cut = kept.len() < states.len();
        *states = kept;
        cut
    }

    /// Replaces `states[i..=j]` by a shortest path between its ends if that is shorter (by
    /// two moves at least: every path between two states has the same parity), searching at
    /// most `cap` expansions. Returns whether it did.
    fn window(&mut self, states: &mut Vec<State>, i: usize, j: usize, cap: u64) -> bool {
        let Some(max_len) = (j - i).checked_sub(2) else {
            return false;
        };
        let max_len = u32::try_from(max_len).expect("a path is far shorter than 2^32 moves");
        let (from, to) = (states[i], states[j]);
        let (moves, spent) = if to == *self.h.goal() {
            shortest_within(&from, self.h, &self.prune, max_len, cap)
        } else {
            let blank = to.blank();
            let lc = self.towards[blank].get_or_insert_with(|| {
                LinearConflict::new(&State::canonical_goal(to.board(), blank))
            });
            shortest_within(&from.relabel_for(&to), lc, &self.prune, max_len, cap)
        };
        self.expanded += spent;
        let Some(moves) = moves else {
            return false;
        };
        let mut between = Vec::with_capacity(moves.len());
        let mut at = from;
        for mv in moves {
            at = at.apply(mv).expect("a searched move is legal");
            between.push(at);
        }
        debug_assert_eq!(at, to, "renaming keeps the moves");
        states.splice(i + 1..=j, between);
        true
    }

    /// One sweep over `states`: every loop cut, then windows of `window` moves starting every
    /// `window / 2` moves, each searching at most `cap` expansions, from the end (where the
    /// pattern databases settle the longest windows) back to the start. After each window,
    /// `go_on` is told the expansions it spent; the sweep stops when it answers `false`.
    /// Returns whether the path got shorter.
    pub(crate) fn sweep(
        &mut self,
        states: &mut Vec<State>,
        window: usize,
        cap: u64,
        go_on: &mut dyn FnMut(u64) -> bool,
    ) -> bool {
        let mut shorter = Self::cut_loops(states);
        let stride = (window / 2).max(1);
        let mut end = states.len() - 1;
        loop {
            let start = end.saturating_sub(window);
            let before = self.expanded;
            shorter |= self.window(states, start, end, cap);
            if !go_on(self.expanded - before) || start == 0 {
                break;
            }
            // The next window overlaps this one by half (what is left of it).
            end = (start + stride).min(states.len() - 1);
        }
        shorter
    }
}

/// The moves that take each state of `states` to the next.
pub(crate) fn moves_of(states: &[State]) -> Vec<Move> {
    states
        .windows(2)
        .map(|pair| {
            pair[0]
                .successors()
                .find(|(_, next)| *next == pair[1])
                .map(|(mv, _)| mv)
                .expect("neighbouring states of a path are one move apart")
        })
        .collect()
}

/// `solution` shortened: loops cut, then sweeps of windows of `window` moves, each replaced by
/// an optimal sub-path where that is shorter, until a sweep shortens nothing or
/// `limits.max_expanded` expansions are spent (other limits are not read; without that
/// limit, every window is settled, whatever it costs). Windows ending at
/// `h`'s goal are searched with `h`, the others with linear conflict; `solution` must end at
/// `h`'s goal for the first to matter, and may end anywhere. The result is never longer than
/// `solution`, and goes from its start to its end.
///
/// ```
/// use npuzzle::heuristic::LinearConflict;
/// use npuzzle::search::{shorten, weighted_idastar};
/// use npuzzle::{Factor, Limits, State};
///
/// let start: State = "8 13 5 4 3 7 15 9 1 12 6 14 11 0 10 2".parse()?;
/// let h = LinearConflict::new(&State::goal(start.board()));
/// let fast = weighted_idastar(&start, &h, "3".parse::<Factor>()?, Limits::NONE);
/// let fast = fast.solution().unwrap();
/// let short = shorten(fast, &h, 24, Limits::NONE.nodes(1_000_000));
/// assert!(short.len() <= fast.len() && short.end() == fast.end());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn shorten<H: Heuristic>(
    solution: &Solution,
    h: &H,
    window: usize,
    limits: Limits,
) -> Solution {
    let mut shortener = Shortener::new(h);
    let mut states = solution.path().to_vec();
    let until = limits.max_expanded.unwrap_or(u64::MAX);
    loop {
        let left = until.saturating_sub(shortener.expanded);
        let mut spent = 0u64;
        let shorter = shortener.sweep(&mut states, window.max(2), left, &mut |more| {
            spent += more;
            spent < left
        });
        if !shorter || shortener.expanded >= until {
            break;
        }
    }
    Solution::from_moves(solution.start(), moves_of(&states))
        .expect("moves between states of a path are legal")
}
