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
//!
//! Stored, not generated per process: generating the strings is up to a second of CPU
//! (every string of up to 12 moves), far more than a one-question process. The minimal
//! refused strings of the unbounded grid are kept in `prune_refused.txt` (2,540 strings), and
//! a board's automaton is built from those whose bounding box fits the board (about a
//! millisecond): exactly the board's own generation, because whether a string is refused
//! depends only on strings whose box lies within its own (its substrings and its earlier
//! equivalents), so the strings that fit a board are decided alike on the board and on the
//! unbounded grid. Likewise the strings of at most `n` moves are decided alike whatever the
//! longest compared, so the stored list less its longer strings is the automaton of `n` moves
//! ([`MovePruner::for_board_up_to`]: a checkpoint written with the automaton of 10 moves,
//! before it had 12, resumes with that one). A test generates every supported board afresh
//! and compares.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rustc_hash::FxHashMap;

use crate::board::Board;

/// The longest strings compared. The shortest cycles of the sliding-tile puzzle (the blank
/// around a 2x2 block three times, 12 moves) make pairs of 6 and 6, 7 and 5, ..., 10 and 2
/// moves equal, all within 10; strings of 12 add the cycles of 2x3 blocks and longer
/// transpositions. 12 against 10: 6,868 states on 4x4 against 1,291 (110 KB of transitions,
/// still in the second-level cache) and 9,223 on 5x5, and 7-12% fewer nodes generated on
/// Korf's 4x4 and Korf and Felner's 5x5 instances at about the same cost per node
/// (BENCHMARKS.md, "A longer move-pruning automaton").
pub const MAX_LENGTH: usize = 12;

/// The longest strings of the automaton before it compared 12: what checkpoints of
/// versions 1 to 3 were split with.
pub const LENGTH_BEFORE_12: usize = 10;

/// The state of a move string that contains a refused string.
pub const DEAD: u32 = u32::MAX;

/// Move indices (in `U D L R` order) of the moves straight back.
const INVERSE: [u8; 4] = [1, 0, 3, 2];

/// The automata built so far, by board and longest string compared.
type Automata = HashMap<(Board, usize), Arc<MovePruner>>;

/// The automaton of one board: `next[state * 4 + move]`, the start state 0.
#[derive(Clone, Debug)]
pub struct MovePruner {
    next: Vec<u32>,
    refused: usize,
}

impl MovePruner {
    /// The automaton for `board` (strings of at most [`MAX_LENGTH`] moves), built on first use
    /// from the stored strings (`prune_refused.txt`) that fit the board, and shared afterwards.
    /// It equals `MovePruner::generate(board, MAX_LENGTH)` without the generation's cost.
    pub fn for_board(board: Board) -> Arc<MovePruner> {
        MovePruner::for_board_up_to(board, MAX_LENGTH)
    }

    /// [`MovePruner::for_board`] comparing strings of at most `length` moves (at most
    /// [`MAX_LENGTH`]): what a search resumed from a checkpoint split with a shorter automaton
    /// needs, since the split's subtrees depend on it. Equals `MovePruner::generate(board,
    /// length)`.
    pub fn for_board_up_to(board: Board, length: usize) -> Arc<MovePruner> {
        static CACHE: OnceLock<Mutex<Automata>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
        let length = length.min(MAX_LENGTH);
        // A panic while building leaves the map without this board: still whole.
        let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
        map.entry((board, length))
            .or_insert_with(|| Arc::new(MovePruner::stored(board, length)))
            .clone()
    }

    /// The automaton from the stored strings of at most `length` moves whose bounding box
    /// fits `board`.
    fn stored(board: Board, length: usize) -> MovePruner {
        let refused: Vec<Vec<u8>> = stored_strings()
            .filter(|s| s.len() <= length && fits(bounds(s), board))
            .collect();
        MovePruner {
            next: automaton(&refused),
            refused: refused.len(),
        }
    }

    /// Generates the automaton for `board` from strings of at most `max_length` moves (at most
    /// 12 are compared: a larger `max_length` counts as 12). Tens of milliseconds for
    /// [`MAX_LENGTH`] on 4x4; [`MovePruner::for_board`] gives the same automaton for that length
    /// without generating it.
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

/// Whether a blank path with this bounding box fits on `board`.
fn fits(b: Box4, board: Board) -> bool {
    ((b.1 - b.0) as usize) < board.height() && ((b.3 - b.2) as usize) < board.width()
}

/// The bounding box of the blank's path along `moves` (indices in `U D L R` order).
fn bounds(moves: &[u8]) -> Box4 {
    let (mut row, mut col) = (0i8, 0i8);
    let mut b = (0, 0, 0, 0);
    for &mv in moves {
        let (dr, dc) = STEPS[mv as usize];
        row += dr;
        col += dc;
        b = (b.0.min(row), b.1.max(row), b.2.min(col), b.3.max(col));
    }
    b
}

/// Row and column offsets of the blank's moves, in `U D L R` order.
const STEPS: [(i8, i8); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// The stored strings, as move indices.
fn stored_strings() -> impl Iterator<Item = Vec<u8>> {
    REFUSED.split_whitespace().map(|s| {
        s.bytes()
            .map(|c| match c {
                b'U' => 0,
                b'D' => 1,
                b'L' => 2,
                b'R' => 3,
                // The constant is this file's own; the test of it parses every letter.
                _ => unreachable!("a move letter in REFUSED: {c}"),
            })
            .collect()
    })
}

/// The effect of a move string: the blank's final cell, then (cell, label) for each visited
/// cell whose tile is not its own, in cell order, padded with `u16::MAX`. A string of `n` moves
/// visits at most `n + 1` cells.
type Effect = [u16; 2 * MAX_LENGTH_GENERATED + 3];

/// The minimal refused strings for `board` (move indices), up to `max_length` moves, in the
/// order they are found: the moves straight back, then by length, then in `U D L R` order.
fn refused_strings(board: Board, max_length: usize) -> Vec<Vec<u8>> {
    let side = |cells: usize| i8::try_from(cells).expect("a side is at most 12") - 1;
    refused_within(side(board.height()), side(board.width()), max_length)
}

/// [`refused_strings`] for blank paths whose box spans at most `max_rows` rows and
/// `max_cols` columns beyond its first (`max_length` each: no bound at all).
fn refused_within(max_rows: i8, max_cols: i8, max_length: usize) -> Vec<Vec<u8>> {
    let max_length = max_length.min(MAX_LENGTH_GENERATED);
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
        seen: FxHashMap::default(),
        refused: Vec::new(),
        lookup: (0..=max_length)
            .map(|length| vec![0u64; (1usize << (2 * length)).div_ceil(64)])
            .collect(),
        max_rows,
        max_cols,
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

/// The longest strings [`MovePruner::generate`] compares: [`Effect`] has room for this many
/// moves' cells, and the refused strings' bit sets grow as `4^length` bits.
const MAX_LENGTH_GENERATED: usize = 12;

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
    seen: FxHashMap<Effect, Vec<Box4>>,
    refused: Vec<Vec<u8>>,
    /// The refused strings by length, as bit sets indexed by the string read as base-4
    /// digits, last move most significant (so that suffixes are read off incrementally).
    lookup: Vec<Vec<u64>>,
    max_rows: i8,
    max_cols: i8,
}

impl Walk {
    /// The effect of the moves so far.
    fn key(&self) -> Effect {
        let mut cells = [u16::MAX; MAX_LENGTH_GENERATED + 1];
        for (slot, &c) in cells.iter_mut().zip(&self.cells) {
            *slot =
                u16::try_from(c).expect("a cell of the walk's window is non-negative and small");
        }
        let visited = &mut cells[..self.cells.len()];
        visited.sort_unstable();
        let mut key = [u16::MAX; 2 * MAX_LENGTH_GENERATED + 3];
        key[0] = u16::try_from(self.blank).expect("the blank stays in the walk's window");
        let mut at = 1;
        let mut previous = u16::MAX;
        for &c in visited.iter() {
            let label = self.grid[c as usize];
            if c != previous && label != c {
                key[at] = c;
                key[at + 1] = label;
                at += 2;
            }
            previous = c;
        }
        key
    }

    /// Whether the moves so far end with a refused string.
    fn ends_refused(&self) -> bool {
        let mut code = 0usize;
        for (k, &mv) in self.moves.iter().rev().enumerate() {
            code |= (mv as usize) << (2 * k);
            let set = &self.lookup[k + 1];
            if set[code / 64] >> (code % 64) & 1 != 0 {
                return true;
            }
        }
        false
    }

    fn refuse(&mut self, s: Vec<u8>) {
        let code = s
            .iter()
            .rev()
            .enumerate()
            .fold(0usize, |code, (k, &mv)| code | (mv as usize) << (2 * k));
        self.lookup[s.len()][code / 64] |= 1 << (code % 64);
        self.refused.push(s);
    }

    /// Visits every string of `length` moves that contains no refused string and fits the
    /// board (a string whose box does not fit never occurs, nor does any longer one through it).
    fn strings(&mut self, length: usize) {
        if self.moves.len() == length {
            let here = *self.boxes.last().expect("the start's box");
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
            let (dr, dc) = STEPS[mv as usize];
            let to = self.blank + dr as i32 * self.side + dc as i32;
            let (r, c) = (
                offset(to / self.side - self.centre / self.side),
                offset(to % self.side - self.centre % self.side),
            );
            let last = *self.boxes.last().expect("the start's box");
            let next = (last.0.min(r), last.1.max(r), last.2.min(c), last.3.max(c));
            if next.1 - next.0 > self.max_rows || next.3 - next.2 > self.max_cols {
                // Never legal on this board, nor any string through it.
                continue;
            }
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

/// The minimal refused strings of the unbounded grid, up to [`MAX_LENGTH`] moves, in the order
/// the generation finds them (the moves straight back, then by length, then in `U D L R`
/// order), one length to a paragraph. `stored_strings_are_the_generated_ones` generates them again
/// and writes the file afresh under `NPUZZLE_BLESS=1` when they differ.
const REFUSED: &str = include_str!("prune_refused.txt");

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

    /// The stored strings are what the generation finds on the unbounded grid, in the same
    /// order; `NPUZZLE_BLESS=1` writes the file afresh where they differ.
    #[test]
    fn stored_strings_are_the_generated_ones() {
        let unbounded = i8::try_from(MAX_LENGTH).unwrap();
        let generated = refused_within(unbounded, unbounded, MAX_LENGTH);
        let stored: Vec<Vec<u8>> = stored_strings().collect();
        if stored != generated && std::env::var_os("NPUZZLE_BLESS").is_some() {
            let mut text = String::new();
            for length in 2..=MAX_LENGTH {
                let line: Vec<String> = generated
                    .iter()
                    .filter(|s| s.len() == length)
                    .map(|s| {
                        s.iter()
                            .map(|&m| ['U', 'D', 'L', 'R'][m as usize])
                            .collect()
                    })
                    .collect();
                if line.is_empty() {
                    continue;
                }
                // One length to a paragraph, its lines under 100 characters.
                for row in line.chunks(96 / (length + 1)) {
                    text.push_str(&row.join(" "));
                    text.push('\n');
                }
                text.push('\n');
            }
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/search/prune_refused.txt");
            std::fs::write(path, text).unwrap();
            return;
        }
        assert!(
            stored == generated,
            "prune_refused.txt is not the generation's list: run with NPUZZLE_BLESS=1"
        );
        // Every one fits the 5x5 board, so it uses all of them.
        assert!(stored
            .iter()
            .all(|s| fits(bounds(s), Board::new(5, 5).unwrap())));
    }

    /// Every supported board's stored automaton is the one its own generation gives, for the
    /// longest strings and for those of the automaton before them.
    #[test]
    fn every_board_gets_the_automaton_its_generation_gives() {
        let mut boards = 0;
        for height in 2..=25 {
            for width in 2..=25 {
                let Ok(board) = Board::new(width, height) else {
                    continue;
                };
                for length in [MAX_LENGTH, LENGTH_BEFORE_12] {
                    let stored = MovePruner::for_board_up_to(board, length);
                    let generated = MovePruner::generate(board, length);
                    assert_eq!(stored.next, generated.next, "{board} {length}");
                    assert_eq!(stored.refused(), generated.refused(), "{board} {length}");
                }
                boards += 1;
            }
        }
        // 2xN for N up to 12, 3x8, 4x6, 5x5 and their transposes.
        assert_eq!(boards, 38);
        // The automaton before 12 is the one checkpoints of versions 1-3 were split with:
        // 1,291 states on 4x4 and 5x5, 340 strings.
        let before = MovePruner::for_board_up_to(Board::new(5, 5).unwrap(), LENGTH_BEFORE_12);
        assert_eq!((before.states(), before.refused()), (1_291, 340));
        let now = MovePruner::for_board(Board::new(5, 5).unwrap());
        assert_eq!((now.states(), now.refused()), (9_223, 2_540));
    }

    #[test]
    fn cycles_of_twelve_are_refused_and_boards_differ() {
        let p44 = MovePruner::for_board(Board::new(4, 4).unwrap());
        // The blank around a 2x2 block three times: R D L U, three times.
        let cycle = [3u8, 1, 2, 0].repeat(3);
        let mut state = 0;
        for &m in &cycle {
            state = p44.step(state, m);
            if state == DEAD {
                break;
            }
        }
        assert_eq!(state, DEAD, "a cycle of twelve passed");
        // A 2x2 board has no room for 2x3 boxes: fewer refused strings.
        let p22 = MovePruner::generate(Board::new(2, 2).unwrap(), MAX_LENGTH);
        assert!(p22.refused() < p44.refused());
    }
}
