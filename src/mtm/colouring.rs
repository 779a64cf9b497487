//! MTM colouring databases: exact MTM distances in an abstraction that keeps the blank's cell
//! and colours the tiles into at most four classes, the tiles of a class indistinguishable.
//!
//! The idea, and the 4x4 colouring [`Colouring::four_by_four`], are Tomas Rokicki's, as used by
//! slidy's optimal 4x4 MTM solver (slidy 0.7, `solver::size4x4::mtm`): one database over
//!
//! ```text
//! 1 1 2 2
//! 3 3 2 2
//! 3 3 4 4
//! 3 4 4 _
//! ```
//!
//! (16 blank cells times 15!/(2!4!5!4!) colourings = 151,351,200 entries, one byte each), read
//! on the state and on its conjugate by the transposition (see
//! [`MtmHeuristic`](super::heuristic::MtmHeuristic)). The code here is npuzzle's own: the
//! index, the tables and the layered build below.
//!
//! Why the bound holds: a real MTM move (the blank slides `k` cells along its row or column)
//! maps, in the abstraction, to the same slide of the blank with the classes of the `k`
//! tiles it passes shifted the same way. So every real solution maps to an abstract path of
//! as many moves, and the abstract distance, found by a breadth-first search from the
//! goal's abstraction under the MTM move set, bounds the real MTM distance from below
//! (`tests/mtm_colouring.rs` checks it against the exact table on every 3x3 state).
//!
//! **The index.** Leave out the blank's cell and read the other cells' classes in row-major
//! order: a word of `n - 1` letters over four classes, a permutation of a multiset. Its rank
//! among those permutations in lexicographic order is a sum of one term per letter, and the
//! terms of the last letters depend on those letters alone; so the rank is one table read for
//! the first eight letters plus one for the rest (two tables of 65,536 and 16,384 entries
//! that stay in the first-level cache). The entry's index is `rank * cells + blank cell`,
//! which puts the states one horizontal slide apart (same word, another blank cell) on one
//! cache line.
//!
//! **The build** goes by layers over the index: a layer is a parallel pass over every word in
//! rank order (next permutation, no unranking), expanding the entries at the layer's depth
//! ("push"), or, once fewer entries are unseen than the frontier holds, giving each unseen
//! entry the next depth if a neighbour is at this one ("pull": MTM moves are reversible).
//! Entries are atomic bytes, so the threads of a layer may write the same entry.
//!
//! ```
//! use npuzzle::mtm::colouring::{Colouring, ColouringDb};
//! use npuzzle::{Board, State};
//! let board = Board::THREE_BY_THREE;
//! let goal = State::goal(board);
//! let colouring = Colouring::new(board, &[1, 1, 2, 3, 3, 2, 4, 4, 0])?;
//! let db = ColouringDb::build(&goal, colouring)?;
//! assert_eq!(db.estimate(&goal), 0);
//! let start: State = "123456078".parse()?;
//! assert_eq!(db.estimate(&start), 1); // one slide of two tiles
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// Indices, ranks and words convert between u64 and usize throughout: an index is below
// 2^32 (at most 16 cells, four classes: `Colouring::entries`), a word fits 30 bits and a
// letter two, so no conversion here truncates.
#![allow(clippy::cast_possible_truncation)]

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use crate::board::Board;
use crate::state::State;
use crate::store::format::{self, FormatError, Header, KIND_COLOURING_DATABASE};
use crate::store::{Mismatch, StoredBytes};

/// The most cells a board may have for a colouring database (its words fit the tables).
pub const MAX_COLOURING_CELLS: usize = 16;

/// The tile classes a colouring may use (numbered 1 to 4; the blank's cell is class 0).
pub const CLASSES: usize = 4;

/// Entries not (yet) reached by the breadth-first search.
const UNSEEN: u8 = u8::MAX;

/// Letters ranked by the first table.
const PREFIX_LETTERS: usize = 8;

/// Words ranked per parallel task of a layer.
const CHUNK: u64 = 2048;

/// Why a colouring or its database cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ColouringError {
    /// The board has more than [`MAX_COLOURING_CELLS`] cells.
    #[error("MTM colouring databases are built for boards of at most {MAX_COLOURING_CELLS} cells, not the {0} board")]
    BoardTooLarge(Board),
    /// Not one class per cell.
    #[error("a colouring of the {board} board gives each of its {} cells a class, not {found}", board.cells())]
    Length {
        /// The board.
        board: Board,
        /// Classes given.
        found: usize,
    },
    /// One cell must be class 0 (the blank's), every other of class 1 to 4.
    #[error("cell {cell} has class {class}: one cell (the goal's blank) takes class 0, the others a class 1 to {CLASSES}")]
    BadClass {
        /// The cell.
        cell: usize,
        /// Its class.
        class: u8,
    },
    /// No class holds two tiles.
    #[error("a colouring needs a class of two tiles or more")]
    AllDistinct,
    /// The goal's blank is not on the colouring's class-0 cell, or the board differs.
    #[error("the colouring's blank cell is {colouring}, the goal's blank is on {goal}")]
    OtherGoal {
        /// The colouring's class-0 cell.
        colouring: usize,
        /// The goal's blank cell.
        goal: usize,
    },
}

/// A colouring of a goal's cells: class 0 on the blank's cell, a class 1 to [`CLASSES`] on
/// each other cell. A tile takes the class of its goal cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Colouring {
    board: Board,
    blank: usize,
    classes: [u8; MAX_COLOURING_CELLS],
    /// How many cells have each class 1..=4 (index 0 for class 1).
    sizes: [u8; CLASSES],
}

impl Colouring {
    /// The colouring with class `classes[c]` on cell `c`.
    ///
    /// # Errors
    /// [`ColouringError`]: a board over [`MAX_COLOURING_CELLS`] cells, not one class per cell,
    /// not exactly one class-0 cell, or a class above [`CLASSES`].
    pub fn new(board: Board, classes: &[u8]) -> Result<Colouring, ColouringError> {
        let n = board.cells();
        if n > MAX_COLOURING_CELLS {
            return Err(ColouringError::BoardTooLarge(board));
        }
        if classes.len() != n {
            return Err(ColouringError::Length {
                board,
                found: classes.len(),
            });
        }
        let mut blank = None;
        let mut sizes = [0u8; CLASSES];
        for (cell, &class) in classes.iter().enumerate() {
            match class {
                0 if blank.is_none() => blank = Some(cell),
                1..=4 => sizes[usize::from(class - 1)] += 1,
                _ => return Err(ColouringError::BadClass { cell, class }),
            }
        }
        let blank = blank.ok_or(ColouringError::BadClass {
            cell: 0,
            class: classes.first().copied().unwrap_or(0),
        })?;
        if sizes.iter().all(|&s| s < 2) {
            // Without two tiles alike the abstraction keeps the permutation's parity, and
            // half its entries are never reached.
            return Err(ColouringError::AllDistinct);
        }
        let mut all = [0u8; MAX_COLOURING_CELLS];
        all[..n].copy_from_slice(classes);
        Ok(Colouring {
            board,
            blank,
            classes: all,
            sizes,
        })
    }

    /// Rokicki's 4x4 colouring (see the module documentation), blank on the last cell.
    pub fn four_by_four() -> Colouring {
        let board = Board::new(4, 4).expect("4x4 is a board");
        Colouring::new(board, &[1, 1, 2, 2, 3, 3, 2, 2, 3, 3, 4, 4, 3, 4, 4, 0])
            .expect("a valid colouring")
    }

    /// The colouring whose classes are `mask`, four bits a cell (as a file's header holds it).
    ///
    /// # Errors
    /// As [`Colouring::new`].
    pub fn from_mask(board: Board, mask: u64) -> Result<Colouring, ColouringError> {
        let n = board.cells().min(MAX_COLOURING_CELLS);
        let classes: Vec<u8> = (0..n)
            .map(|c| u8::try_from(mask >> (4 * c) & 0xF).expect("four bits"))
            .collect();
        if board.cells() > MAX_COLOURING_CELLS {
            return Err(ColouringError::BoardTooLarge(board));
        }
        Colouring::new(board, &classes)
    }

    /// The classes as four bits a cell, cell 0 lowest.
    pub fn mask(&self) -> u64 {
        self.classes()
            .iter()
            .enumerate()
            .fold(0, |m, (c, &k)| m | u64::from(k) << (4 * c))
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The class-0 cell: the goal's blank cell.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// The class of each cell.
    pub fn classes(&self) -> &[u8] {
        &self.classes[..self.board.cells()]
    }

    /// The number of entries of its database: the cells times the arrangements of the
    /// classes on the other cells.
    pub fn entries(&self) -> u64 {
        self.board.cells() as u64 * multinomial(&self.sizes)
    }

    /// Each tile's letter (its class less one; 0 for the blank too) towards `goal`, whose
    /// blank must be on the class-0 cell.
    ///
    /// # Errors
    /// [`ColouringError::OtherGoal`] for a goal on another board or with its blank elsewhere.
    pub fn letters_for(&self, goal: &State) -> Result<[u8; MAX_COLOURING_CELLS], ColouringError> {
        if goal.board() != self.board || goal.blank() != self.blank {
            return Err(ColouringError::OtherGoal {
                colouring: self.blank,
                goal: goal.blank(),
            });
        }
        let mut letters = [0u8; MAX_COLOURING_CELLS];
        for (cell, &tile) in goal.cells().iter().enumerate() {
            letters[usize::from(tile)] = self.classes[cell].saturating_sub(1);
        }
        Ok(letters)
    }
}

/// `k!` for every `k` a word's length can be.
const FACTORIALS: [u64; MAX_COLOURING_CELLS] = {
    let mut f = [1u64; MAX_COLOURING_CELLS];
    let mut k = 1;
    while k < MAX_COLOURING_CELLS {
        f[k] = f[k - 1] * k as u64;
        k += 1;
    }
    f
};

/// The number of words with `sizes[k]` letters `k` (at most 15 letters in all).
fn multinomial(sizes: &[u8; CLASSES]) -> u64 {
    let total: usize = sizes.iter().map(|&s| usize::from(s)).sum();
    FACTORIALS[total]
        / sizes
            .iter()
            .map(|&s| FACTORIALS[usize::from(s)])
            .product::<u64>()
}

/// The ranking of one colouring's words and the board's geometry.
#[derive(Clone, Debug)]
struct Space {
    cells: usize,
    width: usize,
    /// Letters in a word (`cells - 1`).
    letters: usize,
    /// Letters ranked by `prefix` (the first ones).
    head: usize,
    /// The rank's share of the first `head` letters, by those letters (two bits each).
    prefix: Vec<u32>,
    /// The rank's share of the other letters, by those letters.
    suffix: Vec<u32>,
    /// The number of words.
    words: u64,
    sizes: [u8; CLASSES],
}

/// The sum, over the letters of `word` (`letters` of them, two bits each, first lowest) from
/// `remaining` letters of each class, of the words that have a smaller letter there; `None`
/// where the word uses more letters of a class than remain.
fn rank_share(word: u64, letters: usize, mut remaining: [u8; CLASSES]) -> Option<u64> {
    let mut rank = 0;
    for i in 0..letters {
        let letter = (word >> (2 * i) & 3) as usize;
        if remaining[letter] == 0 {
            return None;
        }
        for smaller in 0..letter {
            if remaining[smaller] > 0 {
                remaining[smaller] -= 1;
                rank += multinomial(&remaining);
                remaining[smaller] += 1;
            }
        }
        remaining[letter] -= 1;
    }
    Some(rank)
}

/// A word's rank as the sum of its two shares: the first letters' (one table read) and the
/// others' (another): [`ColouringDb::shares_of`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Shares {
    head: u32,
    tail: u32,
}

impl Shares {
    /// The rank.
    #[inline]
    pub(crate) fn rank(self) -> usize {
        self.head as usize + self.tail as usize
    }
}

impl Space {
    fn new(colouring: &Colouring) -> Space {
        let cells = colouring.board.cells();
        let letters = cells - 1;
        let head = letters.min(PREFIX_LETTERS);
        let tail = letters - head;
        let sizes = colouring.sizes;
        let prefix = (0..1u64 << (2 * head))
            .map(|word| {
                rank_share(word, head, sizes).map_or(0, |r| u32::try_from(r).expect("fits"))
            })
            .collect();
        let suffix = (0..1u64 << (2 * tail))
            .map(|word| {
                // The tail's letters are the ones left after the head's, whatever they were.
                let mut own = [0u8; CLASSES];
                for i in 0..tail {
                    own[(word >> (2 * i) & 3) as usize] += 1;
                }
                rank_share(word, tail, own).map_or(0, |r| u32::try_from(r).expect("fits"))
            })
            .collect();
        Space {
            cells,
            width: colouring.board.width(),
            letters,
            head,
            prefix,
            suffix,
            words: multinomial(&sizes),
            sizes,
        }
    }

    fn entries(&self) -> usize {
        usize::try_from(self.words).expect("entries fit memory") * self.cells
    }

    /// The word of a board (two bits a cell, the blank's zero) whose blank is on `blank`.
    #[inline]
    fn word_of(board: u64, blank: usize) -> u64 {
        let low = board & ((1u64 << (2 * blank)) - 1);
        low | (board >> (2 * blank + 2)) << (2 * blank)
    }

    /// The board of `word` with the blank (a zero) on `blank`.
    #[inline]
    fn board_of(word: u64, blank: usize) -> u64 {
        let low = word & ((1u64 << (2 * blank)) - 1);
        low | (word >> (2 * blank)) << (2 * blank + 2)
    }

    /// The rank of a word.
    #[inline]
    fn rank(&self, word: u64) -> u64 {
        let shares = self.shares(word);
        u64::from(shares.head) + u64::from(shares.tail)
    }

    /// The rank of a word in its two shares, one table read each.
    #[inline]
    fn shares(&self, word: u64) -> Shares {
        let head = (word & ((1u64 << (2 * self.head)) - 1)) as usize;
        let tail = (word >> (2 * self.head)) as usize;
        Shares {
            head: self.prefix[head],
            tail: self.suffix[tail],
        }
    }

    /// The shares of `word`, those of `before` where `before`'s letters of that share are
    /// `word`'s (`shares` being `before`'s shares): a slide changes the letters of the cells
    /// it passes only, often all in one share's.
    #[inline]
    fn shares_after(&self, before: u64, shares: Shares, word: u64) -> Shares {
        let changed = before ^ word;
        let head_bits = 2 * self.head;
        Shares {
            head: if changed & ((1u64 << head_bits) - 1) == 0 {
                shares.head
            } else {
                self.prefix[(word & ((1u64 << head_bits) - 1)) as usize]
            },
            tail: if changed >> head_bits == 0 {
                shares.tail
            } else {
                self.suffix[(word >> head_bits) as usize]
            },
        }
    }

    /// The entry of the board `board` (two bits a cell) with the blank on `blank`.
    #[inline]
    fn index(&self, board: u64, blank: usize) -> usize {
        self.rank(Space::word_of(board, blank)) as usize * self.cells + blank
    }

    /// The letters of the word of rank `rank`, first first.
    fn unrank(&self, mut rank: u64, out: &mut [u8]) {
        let mut remaining = self.sizes;
        for slot in out.iter_mut().take(self.letters) {
            for letter in 0..CLASSES {
                if remaining[letter] == 0 {
                    continue;
                }
                remaining[letter] -= 1;
                let count = multinomial(&remaining);
                if rank < count {
                    *slot = letter as u8;
                    break;
                }
                remaining[letter] += 1;
                rank -= count;
            }
        }
    }

    /// Calls `f(entry, word, blank)` for each MTM neighbour of the board `board` whose word has
    /// rank `rank` and whose blank is on `blank`, until `f` answers true.
    #[inline]
    fn for_each_neighbour(
        &self,
        rank: u64,
        board: u64,
        blank: usize,
        mut f: impl FnMut(usize, u64, usize) -> bool,
    ) {
        let w = self.width;
        let base = rank as usize * self.cells;
        // Horizontal slides keep the word: only the blank's cell changes.
        let row = blank - blank % w;
        let word = Space::word_of(board, blank);
        for cell in row..row + w {
            if cell != blank && f(base + cell, word, cell) {
                return;
            }
        }
        // Vertical slides: each cell passed moves its letter one row towards the blank.
        for up in [true, false] {
            let mut at = blank;
            let mut now = board;
            loop {
                let next = if up {
                    match at.checked_sub(w) {
                        Some(next) => next,
                        None => break,
                    }
                } else if at + w < self.cells {
                    at + w
                } else {
                    break;
                };
                let letter = now >> (2 * next) & 3;
                now = (now & !(3 << (2 * next))) | letter << (2 * at);
                at = next;
                let word = Space::word_of(now, at);
                if f(self.rank(word) as usize * self.cells + at, word, at) {
                    return;
                }
            }
        }
    }
}

/// Packs `letters` two bits each, first lowest.
#[inline]
fn pack(letters: &[u8]) -> u64 {
    letters
        .iter()
        .rev()
        .fold(0, |word, &l| word << 2 | u64::from(l))
}

/// Steps `letters` to the next word in lexicographic order; false after the last.
fn next_word(letters: &mut [u8]) -> bool {
    let Some(i) = (0..letters.len().saturating_sub(1))
        .rev()
        .find(|&i| letters[i] < letters[i + 1])
    else {
        return false;
    };
    let j = (i + 1..letters.len())
        .rev()
        .find(|&j| letters[j] > letters[i])
        .expect("a larger letter follows");
    letters.swap(i, j);
    letters[i + 1..].reverse();
    true
}

/// Runs `visit(rank, word)` on every word of `space` in rank order, in parallel chunks, and
/// sums what it returns.
fn sum_over_words(space: &Space, visit: impl Fn(u64, u64) -> u64 + Sync) -> u64 {
    (0..space.words.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let start = chunk * CHUNK;
            let end = (start + CHUNK).min(space.words);
            let mut letters = [0u8; MAX_COLOURING_CELLS];
            let letters = &mut letters[..space.letters];
            space.unrank(start, letters);
            let mut sum = 0;
            for rank in start..end {
                sum += visit(rank, pack(letters));
                next_word(letters);
            }
            sum
        })
        .sum()
}

/// Runs `visit(rank, word, found)` on every word of `space` in rank order, in parallel
/// chunks, and gathers what it pushes to `found`, in rank order.
fn gather_over_words(space: &Space, visit: impl Fn(u64, u64, &mut Vec<u64>) + Sync) -> Vec<u64> {
    (0..space.words.div_ceil(CHUNK))
        .into_par_iter()
        .flat_map_iter(|chunk| {
            let start = chunk * CHUNK;
            let end = (start + CHUNK).min(space.words);
            let mut letters = [0u8; MAX_COLOURING_CELLS];
            let letters = &mut letters[..space.letters];
            space.unrank(start, letters);
            let mut found = Vec::new();
            for rank in start..end {
                visit(rank, pack(letters), &mut found);
                next_word(letters);
            }
            found
        })
        .collect()
}

/// Layers of at most this many entries are kept as a list (each entry's word and blank cell)
/// and expanded from it rather than found by a pass over every entry.
const LIST_MAX: usize = 2_000_000;

/// A listed entry: its word and blank cell.
#[inline]
fn listed(word: u64, blank: usize) -> u64 {
    word << 4 | blank as u64
}

/// The exact abstract distances by a layered breadth-first search from `goal_index`.
///
/// Each layer is expanded from the list of its entries where it is small enough (all but the
/// largest layers), else found by a pass over every word: "push" (expand the entries at the
/// layer's depth) while more entries are unseen than the layer holds, then "pull" (an unseen
/// entry with a neighbour at the layer's depth is one deeper; MTM moves are reversible).
fn breadth_first(space: &Space, goal: (u64, usize), report: &(dyn Fn(u8, u64) + Sync)) -> Vec<u8> {
    let entries = space.entries();
    let distances: Vec<AtomicU8> = (0..entries)
        .into_par_iter()
        .map(|_| AtomicU8::new(UNSEEN))
        .collect();
    let (goal_word, goal_blank) = goal;
    distances[space.rank(goal_word) as usize * space.cells + goal_blank].store(0, Relaxed);
    let mut depth = 0u8;
    let mut layer: Option<Vec<u64>> = Some(vec![listed(goal_word, goal_blank)]);
    let mut frontier = 1u64;
    let mut seen = 1u64;
    // Marks entry `i` one deeper if it is still unseen; the swap, not a store, so that two
    // threads reaching one entry list it once.
    let claim = |i: usize, word: u64, blank: usize, next: u8, found: &mut Vec<u64>| {
        if distances[i].load(Relaxed) == UNSEEN && distances[i].swap(next, Relaxed) == UNSEEN {
            found.push(listed(word, blank));
        }
    };
    while frontier > 0 {
        let next = depth + 1;
        let found: Vec<u64> = if let Some(list) = layer.take() {
            list.par_chunks(4096)
                .flat_map_iter(|chunk| {
                    let mut found = Vec::new();
                    for &entry in chunk {
                        let (word, blank) = (entry >> 4, (entry & 15) as usize);
                        let board = Space::board_of(word, blank);
                        space.for_each_neighbour(space.rank(word), board, blank, |i, w, b| {
                            claim(i, w, b, next, &mut found);
                            false
                        });
                    }
                    found
                })
                .collect()
        } else if (entries as u64 - seen) < frontier {
            gather_over_words(space, |rank, word, found| {
                let base = rank as usize * space.cells;
                for blank in 0..space.cells {
                    if distances[base + blank].load(Relaxed) != UNSEEN {
                        continue;
                    }
                    let mut hit = false;
                    let board = Space::board_of(word, blank);
                    space.for_each_neighbour(rank, board, blank, |i, _, _| {
                        hit = distances[i].load(Relaxed) == depth;
                        hit
                    });
                    if hit {
                        distances[base + blank].store(next, Relaxed);
                        found.push(listed(word, blank));
                    }
                }
            })
        } else {
            gather_over_words(space, |rank, word, found| {
                let base = rank as usize * space.cells;
                for blank in 0..space.cells {
                    if distances[base + blank].load(Relaxed) != depth {
                        continue;
                    }
                    let board = Space::board_of(word, blank);
                    space.for_each_neighbour(rank, board, blank, |i, w, b| {
                        claim(i, w, b, next, found);
                        false
                    });
                }
            })
        };
        frontier = found.len() as u64;
        seen += frontier;
        if frontier > 0 {
            report(next, frontier);
        }
        layer = (found.len() <= LIST_MAX).then_some(found);
        depth = next;
    }
    distances
        .into_par_iter()
        .map(AtomicU8::into_inner)
        .collect()
}

/// An entry that disagrees with its MTM neighbours: the database is not the exact abstract
/// distances (edited behind valid checksums, or a generator fault).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("entry {index} of the MTM colouring database is {entry}, but its neighbours' least entry is {least} (the goal's entry must be 0, every other entry one more than its neighbours' least)")]
pub struct ColouringDamage {
    /// The entry's index.
    pub index: u64,
    /// Its value.
    pub entry: u8,
    /// The least entry of its neighbours.
    pub least: u8,
}

/// The exact MTM distances of one colouring's abstraction towards one goal, as a file's bytes
/// (header, then one byte an entry): an admissible MTM estimate.
#[derive(Debug)]
pub struct ColouringDb<B> {
    bytes: B,
    header: Header,
    colouring: Colouring,
    space: Space,
    /// Each tile's letter towards the database's goal.
    letters: [u8; MAX_COLOURING_CELLS],
}

impl ColouringDb<Vec<u8>> {
    /// Builds the database of `colouring` towards `goal` (whose blank must be on its class-0
    /// cell) in memory, on the current rayon pool.
    ///
    /// # Errors
    /// [`ColouringError::OtherGoal`] where the goal's board or blank cell is not the
    /// colouring's.
    pub fn build(
        goal: &State,
        colouring: Colouring,
    ) -> Result<ColouringDb<Vec<u8>>, ColouringError> {
        ColouringDb::build_reporting(goal, colouring, &|_, _| {})
    }

    /// [`ColouringDb::build`], calling `report(depth, entries)` after each layer.
    ///
    /// # Errors
    /// As [`ColouringDb::build`].
    pub fn build_reporting(
        goal: &State,
        colouring: Colouring,
        report: &(dyn Fn(u8, u64) + Sync),
    ) -> Result<ColouringDb<Vec<u8>>, ColouringError> {
        let letters = colouring.letters_for(goal)?;
        let space = Space::new(&colouring);
        let goal_board = goal.cells().iter().enumerate().fold(0u64, |b, (c, &t)| {
            b | u64::from(letters[usize::from(t)]) << (2 * c)
        });
        let goal_word = Space::word_of(goal_board, goal.blank());
        let body = breadth_first(&space, (goal_word, goal.blank()), report);
        let mut bytes = format::encode_colouring_header(goal, colouring.mask(), &body);
        bytes.extend_from_slice(&body);
        drop(body);
        let header = format::decode_header(&bytes).expect("a header just encoded is valid");
        Ok(ColouringDb {
            bytes,
            header,
            colouring,
            space,
            letters,
        })
    }
}

impl<B: AsRef<[u8]>> ColouringDb<B> {
    /// The database in `bytes` (a file's), checked whole: header, every block's checksum, the
    /// histogram. Not the deep check ([`ColouringDb::verify_deep`]).
    ///
    /// # Errors
    /// [`FormatError`]: not a valid colouring database.
    pub fn from_bytes(bytes: B) -> Result<ColouringDb<B>, FormatError> {
        let header = format::decode(bytes.as_ref())?;
        ColouringDb::with_header(bytes, header)
    }

    /// The database in `bytes`, its header alone checked: for a file version that passed
    /// every check before (the data directory's record of verified files).
    pub(crate) fn from_verified_header(bytes: B) -> Result<ColouringDb<B>, FormatError> {
        let header = format::decode_header(bytes.as_ref())?;
        ColouringDb::with_header(bytes, header)
    }

    fn with_header(bytes: B, header: Header) -> Result<ColouringDb<B>, FormatError> {
        if header.kind != KIND_COLOURING_DATABASE {
            return Err(FormatError::OtherKind {
                found: if header.kind == format::KIND_PATTERN_DATABASE {
                    "a pattern database"
                } else {
                    "an exact distance table"
                },
                expected: "an MTM colouring database",
            });
        }
        let bad = FormatError::BadPattern {
            mask: header.pattern,
        };
        let colouring =
            Colouring::from_mask(header.board(), header.pattern).map_err(|_| bad.clone())?;
        let letters = colouring.letters_for(&header.goal).map_err(|_| bad)?;
        let space = Space::new(&colouring);
        Ok(ColouringDb {
            bytes,
            header,
            colouring,
            space,
            letters,
        })
    }

    /// Refuses a database for another goal or colouring than asked for.
    ///
    /// # Errors
    /// [`Mismatch::Goal`] or [`Mismatch::Colouring`].
    pub fn expect(&self, goal: &State, colouring: &Colouring) -> Result<(), Mismatch> {
        if self.header.goal != *goal {
            return Err(Mismatch::Goal {
                found: self.header.goal,
                expected: *goal,
            });
        }
        if self.colouring != *colouring {
            return Err(Mismatch::Colouring {
                found: self.colouring.classes().to_vec(),
                expected: colouring.classes().to_vec(),
            });
        }
        Ok(())
    }

    /// The goal its distances are measured to.
    pub fn goal(&self) -> &State {
        &self.header.goal
    }

    /// The colouring.
    pub fn colouring(&self) -> &Colouring {
        &self.colouring
    }

    /// The number of entries at each distance, from the header.
    pub fn counts(&self) -> &[u64] {
        &self.header.counts
    }

    /// The file's bytes: header, then body.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// The entries.
    pub fn body(&self) -> &[u8] {
        &self.bytes.as_ref()[self.header.len..]
    }

    /// The same database over other bytes (a built one's, made [`StoredBytes`]).
    pub fn map_into<C: AsRef<[u8]> + From<B>>(self) -> ColouringDb<C> {
        ColouringDb {
            bytes: C::from(self.bytes),
            header: self.header,
            colouring: self.colouring,
            space: self.space,
            letters: self.letters,
        }
    }

    /// A copy in the process's own memory on huge pages
    /// ([`StoredBytes::resident_copy`]): for a search that reads the 151 MB at random
    /// millions of times (with 4 KB pages nearly every read also misses the TLB).
    ///
    /// # Errors
    /// The operating system's, when the memory cannot be mapped.
    pub fn resident(&self) -> std::io::Result<ColouringDb<StoredBytes>> {
        Ok(ColouringDb {
            bytes: StoredBytes::resident_copy(self.as_bytes())?,
            header: self.header.clone(),
            colouring: self.colouring.clone(),
            space: self.space.clone(),
            letters: self.letters,
        })
    }

    /// The entry of the state whose tile on cell `c` has letter `letters[tile]` (a colouring
    /// read towards any goal with the same blank cell: [`Colouring::letters_for`]).
    #[inline]
    pub fn estimate_with(&self, letters: &[u8; MAX_COLOURING_CELLS], state: &State) -> u32 {
        let board = state.cells().iter().enumerate().fold(0u64, |b, (c, &t)| {
            b | u64::from(letters[usize::from(t)]) << (2 * c)
        });
        self.entry_of(board, state.blank())
    }

    /// The entry of the board `board` (each cell's letter, two bits a cell, zero at the blank)
    /// whose blank is on `blank`.
    #[inline]
    pub fn entry_of(&self, board: u64, blank: usize) -> u32 {
        u32::from(self.bytes.as_ref()[self.header.len + self.space.index(board, blank)])
    }

    /// The rank of the word of the board `board` (letters, two bits a cell, zero at the
    /// blank) whose blank is on `blank`, in its two shares: the same for every blank cell of
    /// one row, since a horizontal slide keeps the word. Its entries' indexes are
    /// [`index_at`](Self::index_at)`(shares.rank(), blank)`.
    #[inline]
    pub(crate) fn shares_of(&self, board: u64, blank: usize) -> Shares {
        self.space.shares(Space::word_of(board, blank))
    }

    /// [`shares_of`](Self::shares_of)`(board, blank)` where the board `before` with its blank
    /// on `blank_before` has shares `shares`: only a share whose letters differ is read
    /// again.
    #[inline]
    pub(crate) fn shares_after(
        &self,
        (before, blank_before): (u64, usize),
        shares: Shares,
        board: u64,
        blank: usize,
    ) -> Shares {
        self.space.shares_after(
            Space::word_of(before, blank_before),
            shares,
            Space::word_of(board, blank),
        )
    }

    /// The entry's index of the board whose word has rank `rank` ([`Shares::rank`])
    /// and whose blank is on `blank`: for [`entry_at`](Self::entry_at) and
    /// [`prefetch`](Self::prefetch). The entries of one rank lie side by side (one cache
    /// line's quarter for 16 cells).
    #[inline]
    pub(crate) fn index_at(&self, rank: usize, blank: usize) -> usize {
        rank * self.space.cells + blank
    }

    /// The entry at `index` ([`index_at`](Self::index_at)).
    #[inline]
    pub(crate) fn entry_at(&self, index: usize) -> u8 {
        self.bytes.as_ref()[self.header.len + index]
    }

    /// Starts fetching the entry at `index` into the processor's cache for an
    /// [`entry_at`](Self::entry_at) soon after ([`crate::store::os::prefetch`]): a hint.
    #[inline]
    pub(crate) fn prefetch(&self, index: usize) {
        crate::store::os::prefetch(self.bytes.as_ref(), self.header.len + index);
    }

    /// A lower bound on the MTM distance from `state` to the database's goal.
    pub fn estimate(&self, state: &State) -> u32 {
        self.estimate_with(&self.letters, state)
    }

    /// The deep check: the goal's entry is 0, every other entry is one more than the least
    /// of its MTM neighbours' entries. By induction on the entries this proves each one the
    /// exact abstract distance (an entry's chain of neighbours one closer reaches the goal,
    /// so it is at least the distance; along a shortest path entries fall by at most one a
    /// move, so it is at most the distance). Parallel over the entries.
    ///
    /// # Errors
    /// [`ColouringDamage`] naming an entry that fails.
    pub fn verify_deep(&self) -> Result<(), ColouringDamage> {
        let body = self.body();
        let space = &self.space;
        let goal_index = {
            let board = self
                .header
                .goal
                .cells()
                .iter()
                .enumerate()
                .fold(0u64, |b, (c, &t)| {
                    b | u64::from(self.letters[usize::from(t)]) << (2 * c)
                });
            space.index(board, self.header.goal.blank())
        };
        let first_bad = std::sync::atomic::AtomicU64::new(u64::MAX);
        sum_over_words(space, |rank, word| {
            let base = rank as usize * space.cells;
            for blank in 0..space.cells {
                let index = base + blank;
                let entry = body[index];
                let mut least = u8::MAX;
                space.for_each_neighbour(rank, Space::board_of(word, blank), blank, |i, _, _| {
                    least = least.min(body[i]);
                    false
                });
                let ok = if index == goal_index {
                    entry == 0
                } else {
                    entry != UNSEEN && entry > 0 && least == entry - 1
                };
                if !ok {
                    first_bad.fetch_min(index as u64, Relaxed);
                }
            }
            0
        });
        match first_bad.into_inner() {
            u64::MAX => Ok(()),
            index => {
                let i = index as usize;
                let rank = (i / space.cells) as u64;
                let blank = i % space.cells;
                let mut letters = [0u8; MAX_COLOURING_CELLS];
                space.unrank(rank, &mut letters[..space.letters]);
                let board = Space::board_of(pack(&letters[..space.letters]), blank);
                let mut least = u8::MAX;
                space.for_each_neighbour(rank, board, blank, |n, _, _| {
                    least = least.min(body[n]);
                    false
                });
                Err(ColouringDamage {
                    index,
                    entry: body[i],
                    least,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection_onto_the_words_in_lexicographic_order() {
        let board = Board::new(3, 3).unwrap();
        let colouring = Colouring::new(board, &[1, 1, 2, 3, 3, 2, 4, 4, 0]).unwrap();
        let space = Space::new(&colouring);
        let mut letters = [0u8; 8];
        space.unrank(0, &mut letters);
        for rank in 0..space.words {
            let mut again = [0u8; 8];
            space.unrank(rank, &mut again);
            assert_eq!(again, letters);
            assert_eq!(space.rank(pack(&letters)), rank);
            assert_eq!(next_word(&mut letters), rank + 1 < space.words);
        }
    }

    #[test]
    fn the_four_by_four_colouring_has_rokickis_entry_count() {
        let colouring = Colouring::four_by_four();
        assert_eq!(colouring.entries(), 151_351_200);
        let space = Space::new(&colouring);
        // The last word (letters in decreasing order) ranks last.
        let mut last = [0u8; 15];
        space.unrank(space.words - 1, &mut last);
        assert!(last.windows(2).all(|w| w[0] >= w[1]));
        assert_eq!(space.rank(pack(&last)), space.words - 1);
        assert_eq!(
            Colouring::from_mask(colouring.board(), colouring.mask()),
            Ok(colouring)
        );
    }

    #[test]
    fn bad_colourings_are_refused() {
        let board = Board::new(3, 3).unwrap();
        assert!(matches!(
            Colouring::new(board, &[1, 1, 2, 3, 3, 2, 4, 4]),
            Err(ColouringError::Length { .. })
        ));
        assert!(matches!(
            Colouring::new(board, &[1, 1, 2, 3, 3, 2, 5, 4, 0]),
            Err(ColouringError::BadClass { cell: 6, .. })
        ));
        assert!(matches!(
            Colouring::new(board, &[0, 1, 2, 3, 3, 2, 4, 4, 0]),
            Err(ColouringError::BadClass { cell: 8, .. })
        ));
        let goal: State = "012345678".parse().unwrap();
        let colouring = Colouring::new(board, &[1, 1, 2, 3, 3, 2, 4, 4, 0]).unwrap();
        assert!(matches!(
            ColouringDb::build(&goal, colouring),
            Err(ColouringError::OtherGoal { .. })
        ));
    }
}
