//! The MTM search's inner loop for a colouring-database estimate, on packed boards: the
//! state as one 64-bit word (four bits a cell), its colouring as another (two bits a cell,
//! the letters the database ranks) and the mirrored colouring as a third, each updated by a
//! slide with a mask and a shift instead of rebuilt cell by cell.
//!
//! The entries are read lazily. A slide keeps one of the two words (a horizontal slide the
//! colouring's, a vertical one the mirrored colouring's; only the blank's cell changes), and
//! the entries of one word lie side by side in the table, so a child's entry on the kept word
//! is on the cache line of its parent's, just read: it is read first, at once. Only a child
//! that it does not cut has its other word ranked and that entry asked of memory
//! (`ColouringDb::prefetch`), every such child before the first is read, so that their trips
//! to the 151 MB table overlap. The ranks travel down the search with the words.
//!
//! Why it is the same search as [`super::search::ida_star`] with
//! [`Estimate::estimate`](super::search::Estimate::estimate): the children are taken in the
//! same order (the four moves in [`Move::ALL`] order, never two along one axis in a row, each
//! slide of one cell, then two, ...), each is counted, cut or searched by the same `g + h`
//! against the same bound, where `h` is the maximum of the two entries (a child is cut by
//! either; one the first entry cuts has its second read only where its estimate could still
//! lower the next bound, so the next bound is the same). `tests/mtm_colouring.rs` checks that
//! both give the same lengths and node counts, and that the packed words equal the ones
//! built from scratch along random walks.
//!
//! A slide moves the `k` tiles between the blank and its new cell one cell towards the old
//! one: in a packed word that is the bits of those cells shifted by one cell's width along a
//! row (a horizontal slide) or one row's width (a vertical one), the blank's zero bits taking
//! the place they leave. The mirror (the transposition) turns a horizontal slide into a
//! vertical one of the mirrored board, and the other way round.

// Cells, slide lengths and moves are below 16 (a colouring's board has at most 16 cells),
// an entry's index below 2^32 (`Colouring::entries`): no conversion here truncates.
#![allow(clippy::cast_possible_truncation)]

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Instant;

use crate::board::{Board, Move};
use crate::search::{Limit, Limits, Outcome, SearchResult};
use crate::state::State;
use crate::store::StoredBytes;

use super::colouring::{ColouringDb, Shares, MAX_COLOURING_CELLS};
use super::search::{iterate, spelled_out, Step};

/// A colouring database read towards one goal on the state and, where the goal is its own
/// mirror image, on the mirrored state (the estimate of
/// [`MtmHeuristic::with_colouring`](super::heuristic::MtmHeuristic::with_colouring) without
/// the walking distance), in the form the packed search reads it.
#[derive(Debug)]
pub struct PackedColouring {
    db: Arc<ColouringDb<StoredBytes>>,
    /// Each tile's letter towards the goal.
    letters: [u8; MAX_COLOURING_CELLS],
    /// The mirror's cell map and each tile's letter after the mirror's relabelling.
    mirror: Option<([u8; MAX_COLOURING_CELLS], [u8; MAX_COLOURING_CELLS])>,
}

impl PackedColouring {
    pub(crate) fn new(
        db: Arc<ColouringDb<StoredBytes>>,
        letters: [u8; MAX_COLOURING_CELLS],
        mirror: Option<([u8; MAX_COLOURING_CELLS], [u8; MAX_COLOURING_CELLS])>,
    ) -> PackedColouring {
        PackedColouring {
            db,
            letters,
            mirror,
        }
    }

    /// The packed words of `state` (at most [`MAX_COLOURING_CELLS`] cells).
    fn node(&self, state: &State) -> Node {
        let (mut tiles, mut board, mut mirrored) = (0u64, 0u64, 0u64);
        let blank = state.blank();
        // Zero without a mirror, as the slides leave it.
        let mut mirror_blank = 0;
        for (c, &t) in state.cells().iter().enumerate() {
            let t = usize::from(t);
            tiles |= (t as u64) << (4 * c);
            board |= u64::from(self.letters[t]) << (2 * c);
            if let Some((cell, letter)) = &self.mirror {
                mirrored |= u64::from(letter[t]) << (2 * cell[c]);
                mirror_blank = usize::from(cell[blank]);
            }
        }
        Node {
            tiles,
            board,
            mirrored,
            blank: blank as u8,
            mirror_blank: mirror_blank as u8,
        }
    }

    /// The ranks of both words of `node` ([`ColouringDb::shares_of`]; the mirrored one zero
    /// without a mirror).
    fn ranks(&self, node: &Node) -> Ranks {
        Ranks {
            plain: self.db.shares_of(node.board, usize::from(node.blank)),
            mirrored: if self.mirror.is_some() {
                self.db
                    .shares_of(node.mirrored, usize::from(node.mirror_blank))
            } else {
                Shares::default()
            },
        }
    }

    /// The rank of `child`'s plain word, its parent `node`'s being `shares`.
    #[inline]
    fn plain_rank(&self, node: &Node, shares: Shares, child: &Node) -> Shares {
        self.db.shares_after(
            (node.board, usize::from(node.blank)),
            shares,
            child.board,
            usize::from(child.blank),
        )
    }

    /// The rank of `child`'s mirrored word, its parent `node`'s being `shares`.
    #[inline]
    fn mirrored_rank(&self, node: &Node, shares: Shares, child: &Node) -> Shares {
        self.db.shares_after(
            (node.mirrored, usize::from(node.mirror_blank)),
            shares,
            child.mirrored,
            usize::from(child.mirror_blank),
        )
    }

    /// The index of `node`'s plain entry, its plain word's rank being `rank`.
    #[inline]
    fn plain_index(&self, node: &Node, rank: Shares) -> usize {
        self.db.index_at(rank.rank(), usize::from(node.blank))
    }

    /// The index of `node`'s mirrored entry, its mirrored word's rank being `rank`.
    #[inline]
    fn mirrored_index(&self, node: &Node, rank: Shares) -> usize {
        self.db
            .index_at(rank.rank(), usize::from(node.mirror_blank))
    }

    #[inline]
    fn entry(&self, index: usize) -> u32 {
        u32::from(self.db.entry_at(index))
    }

    /// The estimate of `node` whose words have ranks `ranks`: the larger entry.
    fn estimate(&self, node: &Node, ranks: Ranks) -> u32 {
        let plain = self.entry(self.plain_index(node, ranks.plain));
        if self.mirror.is_some() {
            plain.max(self.entry(self.mirrored_index(node, ranks.mirrored)))
        } else {
            plain
        }
    }
}

/// The ranks of a node's two words, carried down the search: a slide keeps one of them (a
/// horizontal slide the plain word, a vertical one the mirrored word), so a child computes
/// at most one, only where the kept one's entry does not already cut it, and of that one only
/// the shares whose letters the slide changed ([`ColouringDb::shares_after`]).
#[derive(Clone, Copy, Debug, Default)]
struct Ranks {
    plain: Shares,
    mirrored: Shares,
}

/// A state of the search, packed: tile `t` on cell `c` is `t << 4c` in `tiles`, its letter
/// `letter << 2c` in `board`, its mirrored letter `<< 2 mirror(c)` in `mirrored`; the blank
/// is zero in all three. Without a mirror, `mirrored` and `mirror_blank` stay zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    tiles: u64,
    board: u64,
    mirrored: u64,
    blank: u8,
    mirror_blank: u8,
}

/// The slides of one board: for each blank cell and move, how far the blank can go, and for
/// each length the masks of the cells whose tiles move.
struct Slides {
    /// `reach[blank][move]`: the most cells the blank can slide that way.
    reach: [[u8; 4]; MAX_COLOURING_CELLS],
    /// `mask[(blank * 4 + move) * 16 + k - 1]`: the cells (four bits each) whose tiles a
    /// slide of `k` cells moves, and the same cells two bits each.
    mask: Vec<(u64, u64)>,
    /// `step[move]`: how many cells apart in row-major order the blank's successive cells
    /// are (1 along a row, the width along a column).
    step: [u32; 4],
}

/// The move of the mirrored board that a move of the board is.
fn transposed(mv: usize) -> usize {
    // Up <-> Left, Down <-> Right (indexes in Move::ALL: Up 0, Down 1, Left 2, Right 3).
    [2, 3, 0, 1][mv]
}

impl Slides {
    fn new(board: Board) -> Slides {
        let n = board.cells();
        let mut slides = Slides {
            reach: [[0; 4]; MAX_COLOURING_CELLS],
            mask: vec![(0, 0); n * 4 * 16],
            step: [0; 4],
        };
        for (m, mv) in Move::ALL.into_iter().enumerate() {
            slides.step[m] = if matches!(mv, Move::Left | Move::Right) {
                1
            } else {
                board.width() as u32
            };
            for blank in 0..n {
                let (mut cell, mut k) = (blank, 0);
                let (mut tiles, mut letters) = (0u64, 0u64);
                while let Some(next) = board.step(cell, mv) {
                    cell = next;
                    k += 1;
                    tiles |= 0xF << (4 * cell);
                    letters |= 0x3 << (2 * cell);
                    slides.mask[(blank * 4 + m) * 16 + k - 1] = (tiles, letters);
                }
                slides.reach[blank][m] = k as u8;
            }
        }
        slides
    }

    /// `node` after its blank slid `k` cells by move `m` (`k` at most its reach), the
    /// mirrored word updated too where `mirrored`.
    #[inline(always)]
    fn slide(&self, node: &Node, m: usize, k: usize, mirrored: bool) -> Node {
        let blank = usize::from(node.blank);
        let mut child = Node {
            tiles: self.apply(node.tiles, 4, blank, m, k),
            board: self.apply(node.board, 2, blank, m, k),
            mirrored: node.mirrored,
            blank: self.target(blank, m, k) as u8,
            mirror_blank: node.mirror_blank,
        };
        if mirrored {
            let (t, mirror_blank) = (transposed(m), usize::from(node.mirror_blank));
            child.mirrored = self.apply(node.mirrored, 2, mirror_blank, t, k);
            child.mirror_blank = self.target(mirror_blank, t, k) as u8;
        }
        child
    }

    /// The cell the blank on `blank` reaches by `k` cells of move `m`.
    #[inline(always)]
    fn target(&self, blank: usize, m: usize, k: usize) -> usize {
        let step = self.step[m] as usize;
        if m == 0 || m == 2 {
            blank - k * step
        } else {
            blank + k * step
        }
    }

    /// `word` (`bits` a cell) after the blank on `blank` slid `k` cells by move `m`.
    #[inline(always)]
    fn apply(&self, word: u64, bits: u32, blank: usize, m: usize, k: usize) -> u64 {
        let (tiles, letters) = self.mask[(blank * 4 + m) * 16 + k - 1];
        let mask = if bits == 4 { tiles } else { letters };
        let moving = word & mask;
        let shift = bits * self.step[m];
        // Up and Left take the blank to lower cells: its tiles go up a cell (a left shift).
        let moved = if m == 0 || m == 2 {
            moving << shift
        } else {
            moving >> shift
        };
        (word & !mask) | moved
    }
}

/// The most children a node has: every slide of the blank along its row and column, at
/// most `(w - 1) + (h - 1)` with both sides at least 2 and at most 16 cells (2x8: 8).
const MAX_CHILDREN: usize = 8;

/// One child of a node that its first entry did not cut: its words and ranks, the slide
/// that made it, its place among all the node's children, that first entry and the index of
/// the other (asked of memory; the first's own index where there is no other).
#[derive(Clone, Copy)]
struct Child {
    node: Node,
    ranks: Ranks,
    m: u8,
    k: u8,
    place: u8,
    first: u8,
    other: u32,
}

struct Search<'a> {
    h: &'a PackedColouring,
    slides: Slides,
    goal: u64,
    limits: &'a Limits,
    began: Instant,
    expanded: u64,
    generated: u64,
    path: Vec<(Move, usize)>,
    stopped: Option<Limit>,
    bound: u32,
    /// The least estimate beyond the bound seen so far in this iteration: the next bound.
    next: u32,
    /// The children waiting to be searched of every node on the path, each node's on top
    /// of its parent's.
    children: Vec<Child>,
    mirrored: bool,
}

/// [`super::search::ida_star`] for the estimate `h` towards `goal` (the board of `start`,
/// at most [`MAX_COLOURING_CELLS`] cells), on packed boards.
pub(crate) fn ida_star(
    start: &State,
    goal: &State,
    h: &PackedColouring,
    limits: &Limits,
) -> SearchResult {
    let began = Instant::now();
    let board = goal.board();
    let mut search = Search {
        h,
        slides: Slides::new(board),
        goal: h.node(goal).tiles,
        limits,
        began,
        expanded: 0,
        generated: 0,
        path: Vec::new(),
        stopped: None,
        bound: 0,
        next: u32::MAX,
        children: Vec::with_capacity(MAX_CHILDREN * 64),
        mirrored: h.mirror.is_some(),
    };
    let outcome = if start.board() != board || !start.can_reach(goal) {
        Outcome::Unsolvable
    } else {
        let root = h.node(start);
        let ranks = h.ranks(&root);
        let found = iterate(h.estimate(&root, ranks), |bound| {
            search.bound = bound;
            search.next = u32::MAX;
            match search.dfs(&root, ranks, 0, bound, None) {
                ControlFlow::Break(step) => step,
                ControlFlow::Continue(()) => Step::Next(search.next),
            }
        });
        if found {
            Outcome::Solved(spelled_out(start, &search.path))
        } else {
            Outcome::GaveUp(search.stopped.unwrap_or(Limit::Nodes))
        }
    };
    SearchResult {
        outcome,
        expanded: search.expanded,
        generated: search.generated,
        elapsed: began.elapsed(),
    }
}

impl Search<'_> {
    /// The index of the entry of `child` (made by a horizontal slide or not) on the word
    /// its slide changed, that word's rank set in `ranks`; `None` for a horizontal slide
    /// without a mirror (the only entry is on the kept word).
    #[inline(always)]
    fn other_index(
        &self,
        node: &Node,
        child: &Node,
        horizontal: bool,
        ranks: &mut Ranks,
    ) -> Option<usize> {
        let h = self.h;
        if !horizontal {
            ranks.plain = h.plain_rank(node, ranks.plain, child);
            Some(h.plain_index(child, ranks.plain))
        } else if self.mirrored {
            ranks.mirrored = h.mirrored_rank(node, ranks.mirrored, child);
            Some(h.mirrored_index(child, ranks.mirrored))
        } else {
            None
        }
    }

    /// Below `node` (its words' ranks `ranks`), reached in `g` moves within `bound` (the
    /// caller checked `g + h`), the last along the axis of `last` (move index): breaks with
    /// [`Step::Found`] or [`Step::Stopped`], or goes on having lowered `self.next` to the
    /// least estimate beyond the bound below it.
    ///
    /// Each child's entry on the word its slide keeps is read first: it lies on the line
    /// of the node's own entry, which was just read, so it is in the cache. Only a child
    /// that this entry does not cut has its other word ranked and that entry asked of
    /// memory; all such children are asked for before the first is read. A cut child's
    /// other entry is read only where its estimate could still lower `self.next`, so the
    /// next bound is the one the maximum of both entries gives, and so is every count.
    fn dfs(
        &mut self,
        node: &Node,
        ranks: Ranks,
        g: u32,
        bound: u32,
        last: Option<usize>,
    ) -> ControlFlow<Step> {
        if node.tiles == self.goal {
            return ControlFlow::Break(Step::Found);
        }
        self.stopped =
            super::search::out_of_limits(self.limits, self.began, self.expanded, self.bound);
        if self.stopped.is_some() {
            return ControlFlow::Break(Step::Stopped);
        }
        self.expanded += 1;
        let h = self.h;
        // This node's children go on top of the shared stack, its ancestors' below; the
        // stack grows without being filled first (an array here cost a `memset` a node).
        let base = self.children.len();
        let mut all = 0u8;
        let blank = usize::from(node.blank);
        for m in 0..4 {
            // Up/Down are 0/1, Left/Right 2/3: the same axis when the halves agree.
            if last.is_some_and(|l| l / 2 == m / 2) {
                continue;
            }
            let horizontal = m >= 2;
            for k in 1..=usize::from(self.slides.reach[blank][m]) {
                let child = self.slides.slide(node, m, k, self.mirrored);
                all += 1;
                // The entry on the kept word (none for a vertical slide without a mirror).
                let mut ranks = ranks;
                let first = if horizontal {
                    h.entry(h.plain_index(&child, ranks.plain))
                } else if self.mirrored {
                    h.entry(h.mirrored_index(&child, ranks.mirrored))
                } else {
                    0
                };
                let f = g + 1 + first;
                if f > bound {
                    // Cut; its exact estimate matters only where it could lower the next
                    // bound.
                    if f < self.next {
                        let exact = match self.other_index(node, &child, horizontal, &mut ranks) {
                            Some(index) => f.max(g + 1 + h.entry(index)),
                            None => f,
                        };
                        self.next = self.next.min(exact);
                    }
                    continue;
                }
                let other = match self.other_index(node, &child, horizontal, &mut ranks) {
                    Some(index) => {
                        h.db.prefetch(index);
                        index
                    }
                    None => h.plain_index(&child, ranks.plain),
                };
                self.children.push(Child {
                    node: child,
                    ranks,
                    m: m as u8,
                    k: k as u8,
                    place: all,
                    first: first as u8,
                    other: other as u32,
                });
            }
        }
        // Every child counts as generated, as in the state-by-state search, which takes
        // them one by one: so where a child's subtree ends the search, the children after
        // it are taken back off.
        self.generated += u64::from(all);
        for i in base..self.children.len() {
            let child = self.children[i];
            let f = g + 1 + u32::from(child.first).max(h.entry(child.other as usize));
            if f > bound {
                self.next = self.next.min(f);
                continue;
            }
            self.path
                .push((Move::ALL[usize::from(child.m)], usize::from(child.k)));
            let below = self.dfs(
                &child.node,
                child.ranks,
                g + 1,
                bound,
                Some(usize::from(child.m)),
            );
            if below.is_break() {
                self.generated -= u64::from(all - child.place);
                self.children.truncate(base);
                return below;
            }
            self.path.pop();
        }
        self.children.truncate(base);
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mtm::colouring::Colouring;
    use crate::rng::SplitMix64;

    /// Along random walks of single-cell and multi-cell slides on 3x3 and 3x4, every packed
    /// word updated slide by slide equals the one built from the state from scratch.
    #[test]
    fn packed_words_updated_by_slides_equal_words_built_from_scratch() {
        for (board, classes) in [
            (Board::new(3, 3).unwrap(), vec![1u8, 1, 2, 3, 3, 2, 4, 4, 0]),
            (
                Board::new(4, 3).unwrap(),
                vec![1, 1, 2, 2, 3, 3, 2, 2, 3, 4, 4, 0],
            ),
            (
                Board::new(4, 4).unwrap(),
                Colouring::four_by_four().classes().to_vec(),
            ),
        ] {
            let goal = State::goal(board);
            let colouring = Colouring::new(board, &classes).unwrap();
            let letters = colouring.letters_for(&goal).unwrap();
            // Any cell permutation and letters serve for the words' arithmetic; the
            // transposition where the board is square, as the search uses it.
            let w = board.width();
            let mirror = (w == board.height()).then(|| {
                let mut cell = [0u8; MAX_COLOURING_CELLS];
                for (c, slot) in cell.iter_mut().enumerate().take(board.cells()) {
                    *slot = ((c % w) * w + c / w) as u8;
                }
                // The blank keeps letter 0, as in every colouring.
                let mut letter = letters;
                letter[1..board.cells()].reverse();
                (cell, letter)
            });
            // No database is read: a tiny one of the 3x3 colouring stands in.
            let small = Board::new(3, 3).unwrap();
            let db = ColouringDb::build(
                &State::goal(small),
                Colouring::new(small, &[1, 1, 2, 3, 3, 2, 4, 4, 0]).unwrap(),
            )
            .unwrap();
            let h = PackedColouring::new(Arc::new(db.map_into()), letters, mirror);
            let slides = Slides::new(board);
            let mut rng = SplitMix64::new(board.cells() as u64);
            let mut state = goal;
            let mut node = h.node(&state);
            for _ in 0..5_000 {
                let m = (rng.next_u64() % 4) as usize;
                let reach = usize::from(slides.reach[state.blank()][m]);
                if reach == 0 {
                    continue;
                }
                let k = 1 + (rng.next_u64() % reach as u64) as usize;
                for _ in 0..k {
                    state = state.apply(Move::ALL[m]).unwrap();
                }
                node = slides.slide(&node, m, k, h.mirror.is_some());
                assert_eq!(node, h.node(&state), "{state}");
            }
        }
    }
}
