//! Move pruning by a finite-state machine (Taylor and Korf, "Pruning duplicate nodes in
//! depth-first search", AAAI 1993): an automaton over the blank's moves that refuses every
//! move string having an equivalent that is shorter, or as short and earlier in `U D L R`
//! order, so that depth-first search walks fewer paths to the same positions.
//!
//! Generation, per board: every string of at most [`MAX_LENGTH`] moves (no move straight
//! back) is played on an unbounded grid from one cell, in length-then-`U D L R` order; its
//! *effect* is the blank's final offset and where each tile it moved ended. A string is
//! refused when an earlier string has the same effect and a blank path within its bounding box
//! (so the earlier string is legal wherever the refused one is: legality on a rectangle
//! depends on the box alone), or when it contains a refused string. Strings whose box does
//! not fit the board never occur and are left out. The refused strings (minimal ones: none
//! containing another) make an Aho–Corasick automaton: a state is the longest suffix of the
//! path that is a prefix of a refused string, and a move into a refused string is
//! [`DEAD`]. The four moves straight back (`UD`, `DU`, `LR`, `RL`, equivalent to nothing) are
//! among the refused strings, so the automaton replaces the "never undo the last move" rule.
//!
//! Why no optimal path is lost: among the optimal paths take the first in length-then-order;
//! if it contained a refused string, putting the earlier equivalent in its place would give a
//! legal path to the same position, shorter or earlier: a contradiction. So that path passes
//! the automaton, and IDA* finds it at the optimal bound (tests/search_dual.rs checks exact
//! distances on sampled 3x3 and 3x4 states).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use crate::board::Board;

/// The longest strings compared. The shortest cycles of the sliding-tile puzzle (the blank
/// around a 2x2 block three times, 12 moves) make pairs of 6 and 6, 7 and 5, ..., 10 and 2
/// moves equal, all within 10; strings of 12 make the automaton five times larger (6,868
/// states on 4x4 against 1,291, 110 KB of transitions) and take 40 s to generate.
pub const MAX_LENGTH: usize = 10;

/// The state of a move string that contains a refused string.
pub const DEAD: u32 = u32::MAX;

/// Move indices (in `U D L R` order) of the moves straight back.
const INVERSE: [u8; 4] = [1, 0, 3, 2];

/// The automaton of one board: `next[state * 4 + move]`, the start state 0.
#[derive(Clone, Debug)]
pub struct MovePruner {
    next: Vec<u32>,
    refused: usize,
}

impl MovePruner {
    /// The automaton for `board`, generated on first use and shared afterwards.
    pub fn for_board(board: Board) -> Arc<MovePruner> {
        static CACHE: OnceLock<Mutex<HashMap<Board, Arc<MovePruner>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
        // A panic while generating leaves the map without this board: still whole.
        let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(board)
            .or_insert_with(|| Arc::new(MovePruner::generate(board, MAX_LENGTH)))
            .clone()
    }

    /// Generates the automaton for `board` from strings of at most `max_length` moves.
    pub fn generate(board: Board, max_length: usize) -> MovePruner {
        let refused = refused_strings(board, max_length);
        let count = refused.len();
        MovePruner {
            next: automaton(&refused),
            refused: count,
        }
    }

    /// The state after move `mv` (index in `U D L R` order) from `state`, or [`DEAD`].
    #[inline(always)]
    pub fn step(&self, state: u32, mv: u8) -> u32 {
        self.next[(state as usize) * 4 + (mv as usize & 3)]
    }

    /// States of the automaton.
    pub fn states(&self) -> usize {
        self.next.len() / 4
    }

    /// Minimal refused strings it was built from.
    pub fn refused(&self) -> usize {
        self.refused
    }
}

/// The blank's path as a bounding box of offsets: (min row, max row, min column, max column).
type Box4 = (i8, i8, i8, i8);

/// A row or column offset of a walk from its start, within the walk's length.
fn offset(cells: i32) -> i8 {
    i8::try_from(cells).expect("a walk of at most max_length moves")
}

fn within(inner: Box4, outer: Box4) -> bool {
    inner.0 >= outer.0 && inner.1 <= outer.1 && inner.2 >= outer.2 && inner.3 <= outer.3
}

/// The minimal refused strings for `board` (move indices), up to `max_length` moves.
fn refused_strings(board: Board, max_length: usize) -> Vec<Vec<u8>> {
    let side = 2 * max_length + 1;
    let centre = i32::try_from(max_length * side + max_length).expect("a short walk's grid");
    let mut walk = Walk {
        side: i32::try_from(side).expect("a short walk's grid"),
        grid: (0..u16::try_from(side * side).expect("a short walk's grid")).collect(),
        blank: centre,
        centre,
        moves: Vec::new(),
        cells: vec![centre],
        boxes: vec![(0, 0, 0, 0)],
        seen: HashMap::new(),
        refused: Vec::new(),
        lookup: HashSet::new(),
        max_rows: i8::try_from(board.height()).expect("a side is at most 12") - 1,
        max_cols: i8::try_from(board.width()).expect("a side is at most 12") - 1,
    };
    for m in 0..4u8 {
        walk.refuse(vec![m, INVERSE[m as usize]]);
    }
    // The empty string: the effect of every cycle.
    let key = walk.key();
    walk.seen.insert(key, vec![(0, 0, 0, 0)]);
    for length in 1..=max_length {
        walk.strings(length);
    }
    walk.refused
}

/// The depth-first walk over move strings of one length on the unbounded grid.
struct Walk {
    side: i32,
    /// The label of each cell's tile (the blank's cell holds the blank's label).
    grid: Vec<u16>,
    blank: i32,
    centre: i32,
    moves: Vec<u8>,
    /// Cells the blank has visited, with repeats.
    cells: Vec<i32>,
    /// The bounding box after each move.
    boxes: Vec<Box4>,
    /// Each effect seen, with the boxes of the strings that have it (none refused).
    seen: HashMap<Vec<i32>, Vec<Box4>>,
    refused: Vec<Vec<u8>>,
    /// The same, to look suffixes up.
    lookup: HashSet<Vec<u8>>,
    max_rows: i8,
    max_cols: i8,
}

impl Walk {
    /// The effect of the moves so far: the blank's offset, then each visited cell whose tile
    /// is not its own, with the tile's label.
    fn key(&self) -> Vec<i32> {
        let mut cells = self.cells.clone();
        cells.sort_unstable();
        cells.dedup();
        let mut key = vec![self.blank - self.centre];
        for c in cells {
            if self.grid[c as usize] as i32 != c {
                key.push(c);
                key.push(self.grid[c as usize] as i32);
            }
        }
        key
    }

    /// Whether the moves so far end with a refused string.
    fn ends_refused(&self) -> bool {
        (2..=self.moves.len()).any(|k| self.lookup.contains(&self.moves[self.moves.len() - k..]))
    }

    fn refuse(&mut self, s: Vec<u8>) {
        self.lookup.insert(s.clone());
        self.refused.push(s);
    }

    /// Visits every string of `length` moves that contains no refused string.
    fn strings(&mut self, length: usize) {
        if self.moves.len() == length {
            let here = *self.boxes.last().expect("the start's box");
            if here.1 - here.0 > self.max_rows || here.3 - here.2 > self.max_cols {
                // Never legal on this board.
                return;
            }
            let key = self.key();
            let boxes = self.seen.entry(key).or_default();
            if boxes.iter().any(|&b| within(b, here)) {
                let moves = self.moves.clone();
                self.refuse(moves);
            } else {
                boxes.push(here);
            }
            return;
        }
        for mv in 0..4u8 {
            if self.moves.last() == Some(&INVERSE[mv as usize]) {
                continue;
            }
            let (dr, dc) = [(-1, 0), (1, 0), (0, -1), (0, 1)][mv as usize];
            let to = self.blank + dr * self.side + dc;
            let (r, c) = (
                offset(to / self.side - self.centre / self.side),
                offset(to % self.side - self.centre % self.side),
            );
            let last = *self.boxes.last().expect("the start's box");
            let next = (last.0.min(r), last.1.max(r), last.2.min(c), last.3.max(c));
            self.grid.swap(self.blank as usize, to as usize);
            let from = self.blank;
            self.blank = to;
            self.moves.push(mv);
            self.cells.push(to);
            self.boxes.push(next);
            if !self.ends_refused() {
                self.strings(length);
            }
            self.boxes.pop();
            self.cells.pop();
            self.moves.pop();
            self.blank = from;
            self.grid.swap(from as usize, to as usize);
        }
    }
}

/// The Aho–Corasick automaton refusing every string that contains one of `refused`, as
/// `next[state * 4 + move]` with [`DEAD`] for a refused string.
fn automaton(refused: &[Vec<u8>]) -> Vec<u32> {
    // The trie: children per node, and whether a refused string ends there.
    let mut children: Vec<[u32; 4]> = vec![[DEAD; 4]];
    let mut end = vec![false];
    for s in refused {
        let mut node = 0usize;
        for &m in s {
            if children[node][m as usize] == DEAD {
                children.push([DEAD; 4]);
                end.push(false);
                children[node][m as usize] =
                    u32::try_from(children.len() - 1).expect("a trie of a few thousand nodes");
            }
            node = children[node][m as usize] as usize;
        }
        end[node] = true;
    }
    // Breadth-first: failure links, the transitions, and "a refused string ends here or at a
    // suffix" carried along the failure links.
    let nodes = children.len();
    let mut next = vec![DEAD; nodes * 4];
    let mut fail = vec![0u32; nodes];
    let mut queue = std::collections::VecDeque::new();
    for m in 0..4 {
        match children[0][m] {
            DEAD => next[m] = 0,
            child => {
                next[m] = child;
                fail[child as usize] = 0;
                queue.push_back(child as usize);
            }
        }
    }
    while let Some(node) = queue.pop_front() {
        end[node] |= end[fail[node] as usize];
        for m in 0..4 {
            match children[node][m] {
                DEAD => next[node * 4 + m] = next[fail[node] as usize * 4 + m],
                child => {
                    fail[child as usize] = next[fail[node] as usize * 4 + m];
                    next[node * 4 + m] = child;
                    queue.push_back(child as usize);
                }
            }
        }
    }
    // Renumber the live nodes (no refused string ends there) from 0; the rest are DEAD.
    let mut number = vec![DEAD; nodes];
    let mut live = 0u32;
    for node in 0..nodes {
        if !end[node] {
            number[node] = live;
            live += 1;
        }
    }
    let mut table = vec![DEAD; live as usize * 4];
    for node in 0..nodes {
        if number[node] == DEAD {
            continue;
        }
        for m in 0..4 {
            let to = next[node * 4 + m] as usize;
            table[number[node] as usize * 4 + m] = number[to];
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The automaton refuses exactly the strings that contain a refused string.
    #[test]
    fn the_automaton_refuses_exactly_strings_containing_a_refused_one() {
        let board = Board::new(4, 4).unwrap();
        let refused = refused_strings(board, 8);
        let pruner = MovePruner::generate(board, 8);
        assert!(refused.iter().any(|r| r.len() > 2), "only the moves back");
        // Every string of up to 9 moves.
        fn all(len: usize, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            out.push(prefix.clone());
            if prefix.len() == len {
                return;
            }
            for m in 0..4 {
                prefix.push(m);
                all(len, prefix, out);
                prefix.pop();
            }
        }
        let mut strings = Vec::new();
        all(9, &mut Vec::new(), &mut strings);
        for s in strings {
            let contains = refused
                .iter()
                .any(|r| s.windows(r.len()).any(|w| w == r.as_slice()));
            let mut state = 0;
            for &m in &s {
                state = pruner.step(state, m);
                if state == DEAD {
                    break;
                }
            }
            assert_eq!(state == DEAD, contains, "{s:?}");
        }
    }

    #[test]
    fn cycles_of_twelve_are_refused_and_boards_differ() {
        let p44 = MovePruner::for_board(Board::new(4, 4).unwrap());
        // The blank around a 2x2 block three times: R D L U, three times.
        let cycle = [3u8, 1, 2, 0].repeat(3);
        let mut state = 0;
        for (i, &m) in cycle.iter().enumerate() {
            state = p44.step(state, m);
            if state == DEAD {
                assert!(i < 11 || state == DEAD);
                break;
            }
        }
        assert_eq!(state, DEAD);
        // A 2x2 board has no room for 2x3 boxes: fewer refused strings.
        let p22 = MovePruner::generate(Board::new(2, 2).unwrap(), MAX_LENGTH);
        assert!(p22.refused() < p44.refused());
    }
}
