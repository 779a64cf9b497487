//! The deep check of a table body: every entry against its neighbours, without unranking.
//!
//! It walks folded indices block by block, as the generator lays them out (see [`crate::generate`]):
//! block `c` holds the states with the blank in cell `c`, and its pair `p` is the one tile rank
//! `2p` or `2p + 1` of the goal's class, told apart by the generator's pair parities. A
//! horizontal neighbour has the same pair in the next cell's block; a vertical one the pair of
//! the rotated tile rank ([`RankSpace::rotate`]), which moves whole runs of consecutive pairs
//! by one change ([`RankSpace::runs`]). So a range of states is checked a move at a time: its
//! neighbours' entries gathered (slices, runs, or one load a state found with a counter), then
//! compared with its own a byte column at a time, and the ranges run in parallel on rayon.
//!
//! Under MTM a slide of `k` cells is `k` single-cell moves in one direction: the same pair
//! `k` blocks along for a horizontal slide, the tile rank rotated through each of the `k`
//! windows for a vertical one. A vertical slide only reorders the digits of its windows'
//! union, so its change is a function of the union's digits alone: tabled once per slide
//! and read as one window's (whole runs of consecutive pairs by one change, or a counter
//! where the union reaches the last digits). So the same walk checks an MTM table, over the
//! MTM neighbours.

use rayon::prelude::*;

use crate::generate::{class_flips, pair_parities};
use crate::metric::Metric;
use crate::rank::RankSpace;
use crate::state::State;

/// Pairs checked by one parallel task: small enough to balance two threads on 3x3 (20,160
/// pairs a block), large enough that a task's setup is noise.
const PAIRS_PER_TASK: usize = 4096;

/// The moves of the blank out of `cell` under `metric`: for each, the start of the
/// destination cell's block (of `pairs` entries) and the windows of the vertical single-cell
/// steps it is made of (none for a horizontal move), in order.
fn moves_out_of(
    space: &RankSpace,
    cell: usize,
    metric: Metric,
    pairs: usize,
) -> Vec<(usize, Vec<u32>)> {
    let mut moves = Vec::new();
    for (to, window) in space.outgoing(cell) {
        // Horizontal steps change the cell by 1, vertical ones by the width (at least 2).
        let step = i64::from(to) - cell as i64;
        let mut at = to;
        let mut windows: Vec<u32> = window.into_iter().collect();
        moves.push((at as usize * pairs, windows.clone()));
        if metric == Metric::Stm {
            continue;
        }
        // Under MTM, the slide goes on in the same direction to the row's or column's end.
        while let Some((next, window)) = space
            .outgoing(at as usize)
            .find(|&(next, _)| i64::from(next) - i64::from(at) == step)
        {
            windows.extend(window);
            at = next;
            moves.push((at as usize * pairs, windows.clone()));
        }
    }
    moves
}

/// How the neighbours of one move out of a block are found, for a range of pairs.
enum Neighbours<'a> {
    /// A horizontal move (or slide): the same pair in another block.
    Same,
    /// One vertical single-cell move whose window's digits are the same over runs of `below`
    /// tile ranks (`below` even): every pair of a run of `below / 2` moves by the run's
    /// change, half of `changes[(pair / (below / 2)) % changes.len()]`, the class bit kept
    /// (see [`RankSpace::runs`]). No division, no class bit.
    Runs { run: usize, changes: &'a [i32] },
    /// One vertical single-cell move whose window's digits change with every tile rank
    /// (`below` is 1): the tile rank `2 * pair + low` moves by
    /// `changes[(2 * pair) % span + low]` (`span`, the changes' count, is even).
    EveryRank { changes: &'a [i32] },
    /// (Only for slides whose table, [`slide_changes`], would be too large: those whose
    /// windows span high digits of a large board.)
    /// An MTM slide through several windows whose digits together are the same over runs of
    /// `2 * run` tile ranks: the slide only reorders the digits of the windows' union, so
    /// every pair of a run moves by one change, found once a run by rotating the run's first
    /// tile rank through each window in turn (the class bit kept, as for [`Neighbours::Runs`]).
    SlideRuns { run: usize, windows: &'a [u32] },
    /// An MTM slide whose union of windows ends at the last digit or the one before (runs of
    /// one tile rank) and whose rank-change table ([`slide_changes`]) would be too large:
    /// each tile rank rotated through each window in turn. (With their tables, slides are
    /// read as [`Neighbours::Runs`] or [`Neighbours::EveryRank`].)
    Slide { windows: &'a [u32] },
}

/// The first folded index (in index order) whose entry is inconsistent, its neighbours those
/// of `metric`'s moves: the goal's entry is not 0, or another entry is 0, or a state has a
/// neighbour more than one closer, or a state other than the goal has no neighbour exactly
/// one closer.
///
/// "One closer" is computed in `u8` arithmetic with wrap-around, as the first version of the
/// check (which unranked every state) did in release builds: a neighbour whose entry is 255
/// counts as distance -1, so every state next to it is reported.
///
/// How: a task takes [`PAIRS_PER_TASK`] consecutive pairs of one block and, per move, first
/// gathers their neighbours' entries into a buffer (a slice of another block for a horizontal
/// move; runs of consecutive entries, or one entry a pair found with a counter instead of a
/// division, for a vertical one, see [`Neighbours`]), then compares the buffer with the
/// pairs' own entries a byte column at a time (code the compiler turns into vector
/// instructions). A state thus costs a few loads per move and no rank arithmetic.
///
/// # Panics
/// If `entries` is not `space.states()` bytes long or `goal` is on another board.
pub(crate) fn first_inconsistent_entry(
    space: &RankSpace,
    goal: &State,
    metric: Metric,
    entries: &[u8],
) -> Option<u32> {
    assert_eq!(space.board(), goal.board(), "the goal is on another board");
    assert_eq!(entries.len(), space.states() as usize, "one byte per state");
    let cells = space.board().cells();
    let pairs = space.perms() as usize / 2;
    let parities = pair_parities(space);
    let flips = class_flips(space, goal);
    let goal_index = space.rank_unchecked(goal) as usize;
    let moves: Vec<Vec<(usize, Vec<u32>)>> = (0..cells)
        .map(|cell| moves_out_of(space, cell, metric, pairs))
        .collect();
    // The rank changes of the slides, one table a slide.
    let slide_changes: Vec<Vec<Option<SlideChanges>>> = moves
        .iter()
        .map(|out| {
            out.iter()
                .map(|(_, windows)| slide_changes(space, windows))
                .collect()
        })
        .collect();
    let board = space.board();
    if metric == Metric::Mtm && board.height() > board.width() {
        let column = Column {
            space,
            entries,
            pairs,
            parities: parities.as_raw_slice(),
            goal_index,
        };
        return column
            .first_inconsistent(&moves, &slide_changes, &flips)
            .map(|index| u32::try_from(index).expect("a table has fewer than 2^32 entries"));
    }
    let tasks: Vec<(usize, usize)> = (0..cells)
        .flat_map(|cell| (0..pairs).step_by(PAIRS_PER_TASK).map(move |p| (cell, p)))
        .collect();
    tasks.par_iter().find_map_first(|&(cell, first)| {
        let len = PAIRS_PER_TASK.min(pairs - first);
        let base = cell * pairs;
        let own = &entries[base + first..base + first + len];
        let mut closer = [0u8; PAIRS_PER_TASK];
        let mut too_close = [0u8; PAIRS_PER_TASK];
        let mut gathered = [0u8; PAIRS_PER_TASK];
        let low = (parities.as_raw_slice(), flips[cell]);
        for ((block, windows), table) in moves[cell].iter().zip(&slide_changes[cell]) {
            let neighbours = neighbours_of(space, windows, table.as_ref());
            let around: &[u8] = match neighbours {
                Neighbours::Same => &entries[block + first..block + first + len],
                _ => {
                    let to = &entries[*block..*block + pairs];
                    gather(space, &neighbours, to, first, low, &mut gathered[..len]);
                    &gathered[..len]
                }
            };
            compare(own, around, &mut closer[..len], &mut too_close[..len]);
        }
        first_bad(
            own,
            &closer[..len],
            &too_close[..len],
            base + first,
            goal_index,
        )
        .map(|index| u32::try_from(index).expect("a table has fewer than 2^32 entries"))
    })
}

/// The MTM check by column cliques, for boards taller than wide.
///
/// Under MTM the states with the blank anywhere in one column and the other tiles in the same
/// order are one slide from one another: each is one member's (the anchor's) slide up or down
/// to the blank's row. So a task takes a range of pairs of the anchor cell's block and
/// gathers, once, the entries of the whole column's clique (the anchor's own, and each of its
/// slides', a gather like
/// [`first_inconsistent_entry`]'s) and, at the same places, the entries of each member's
/// horizontal neighbours (the same pair in the other cells of its row). A member's least
/// vertical neighbour is then the least of the others, found from the clique's least and
/// second least: a column of `h` cells costs `h - 1` gathers instead of `h * (h - 1)` (30 to
/// 5 on 2x6). Wider boards gain less (each member's horizontal neighbours are then gathered
/// too) and keep the walk move by move.
///
/// The rule is the same: with `m` the least of a state's neighbours' entries plus one
/// (wrapping in `u8`), a state is consistent where `m` is its entry (no neighbour more than
/// one closer, and one exactly one closer) and the entry is not 0; the goal only where its
/// entry is 0. A task whose states all pass returns nothing; one with a failure (rare: only a
/// damaged table, or the task of the goal's 0) finds its members' indices and returns its
/// least bad one, and the least over the tasks is the first in index order.
struct Column<'a> {
    space: &'a RankSpace,
    entries: &'a [u8],
    pairs: usize,
    /// The pair parities' words ([`pair_parities`]).
    parities: &'a [u64],
    goal_index: usize,
}

/// One member of a column clique: the blocks (starts) of its own cell and of the other cells
/// of its row, and how its pairs are found from the anchor's ([`Neighbours::Same`] for the
/// anchor itself).
struct Member<'a> {
    blocks: Vec<usize>,
    neighbours: Neighbours<'a>,
}

impl Column<'_> {
    /// The least inconsistent index; `moves`, `slide_changes` and `flips` per cell, as
    /// [`first_inconsistent_entry`] computes them.
    fn first_inconsistent(
        &self,
        moves: &[Vec<(usize, Vec<u32>)>],
        slide_changes: &[Vec<Option<SlideChanges>>],
        flips: &[u64],
    ) -> Option<usize> {
        let (width, pairs) = (self.space.board().width(), self.pairs);
        let row_blocks = |cell: usize| -> Vec<usize> {
            let row = cell - cell % width;
            std::iter::once(cell)
                .chain((row..row + width).filter(|&other| other != cell))
                .map(|cell| cell * pairs)
                .collect()
        };
        // A clique seen from one of its cells (the anchor): the anchor itself, then its slides
        // up and down.
        let clique = |anchor: usize| -> Vec<Member> {
            let slides = moves[anchor]
                .iter()
                .zip(&slide_changes[anchor])
                .filter(|((_, windows), _)| !windows.is_empty())
                .map(|((block, windows), table)| Member {
                    blocks: row_blocks(block / pairs),
                    neighbours: neighbours_of(self.space, windows, table.as_ref()),
                });
            std::iter::once(Member {
                blocks: row_blocks(anchor),
                neighbours: Neighbours::Same,
            })
            .chain(slides)
            .collect()
        };
        // Per column, the anchor whose slides are cheapest to follow: from the top row, a
        // slide to the bottom spans the whole rank (no table: every window rotated per
        // pair); from a middle row every slide is shorter and has its table.
        let height = self.space.board().height();
        let columns: Vec<(usize, Vec<Member>)> = (0..width)
            .map(|column| {
                (0..height)
                    .map(|row| {
                        let anchor = row * width + column;
                        (anchor, clique(anchor))
                    })
                    .min_by_key(|(_, members)| {
                        members
                            .iter()
                            .map(|m| gather_cost(&m.neighbours))
                            .sum::<usize>()
                    })
                    .expect("a column has cells")
            })
            .collect();
        let tasks: Vec<(usize, usize)> = (0..width)
            .flat_map(|column| (0..pairs).step_by(PAIRS_PER_TASK).map(move |p| (column, p)))
            .collect();
        let goal = (self.entries[self.goal_index] != 0).then_some(self.goal_index);
        let found = tasks
            .par_iter()
            .filter_map(|&(column, first)| {
                let len = PAIRS_PER_TASK.min(pairs - first);
                let (anchor, members) = &columns[column];
                self.task(members, first, len, (self.parities, flips[*anchor]))
            })
            .min();
        goal.into_iter().chain(found).min()
    }

    /// The least bad index of the clique members of the anchor's pairs `first..first + len`
    /// (`members[0]` is the anchor); `low` is the anchor block's pair parities and class flip.
    fn task(
        &self,
        members: &[Member],
        first: usize,
        len: usize,
        low: (&[u64], u64),
    ) -> Option<usize> {
        let across = members[0].blocks.len();
        // Per member, its entries and then its horizontal neighbours', `len` each.
        let mut gathered = vec![0u8; members.len() * across * len];
        for (member, out) in members.iter().zip(gathered.chunks_exact_mut(across * len)) {
            let entries = self.entries;
            for_each_segment(
                self.space,
                &member.neighbours,
                first,
                len,
                low,
                |at, from, here| {
                    for (k, &block) in member.blocks.iter().enumerate() {
                        let at = k * len + at;
                        out[at..at + here].copy_from_slice(&entries[block + from..][..here]);
                    }
                },
            );
        }
        // The least and second least of the members' entries plus one, state by state.
        let (mut least, mut second) = ([u8::MAX; PAIRS_PER_TASK], [u8::MAX; PAIRS_PER_TASK]);
        for own in gathered.chunks_exact(across * len) {
            let columns = own[..len]
                .iter()
                .zip(&mut least[..len])
                .zip(&mut second[..len]);
            for ((&d, least), second) in columns {
                let e = d.wrapping_add(1);
                *second = (*second).min((*least).max(e));
                *least = (*least).min(e);
            }
        }
        let mut bad = 0u8;
        let mut around = [0u8; PAIRS_PER_TASK];
        for own in gathered.chunks_exact(across * len) {
            self.least_around(own, len, &least, &second, &mut around);
            bad |= own[..len]
                .iter()
                .zip(&around[..len])
                .fold(0u8, |bad, (&d, &m)| {
                    bad | u8::from(d == 0) | u8::from(m != d)
                });
        }
        if bad == 0 {
            return None;
        }
        // A failure (or the goal's 0): each member's indices, its states judged one by one.
        let mut worst: Option<usize> = None;
        let mut at_pairs = vec![0usize; len];
        for (member, own) in members.iter().zip(gathered.chunks_exact(across * len)) {
            for_each_segment(
                self.space,
                &member.neighbours,
                first,
                len,
                low,
                |at, from, here| {
                    for (k, slot) in at_pairs[at..at + here].iter_mut().enumerate() {
                        *slot = from + k;
                    }
                },
            );
            self.least_around(own, len, &least, &second, &mut around);
            for i in 0..len {
                let index = member.blocks[0] + at_pairs[i];
                let d = own[i];
                let wrong = if index == self.goal_index {
                    d != 0
                } else {
                    d == 0 || around[i] != d
                };
                if wrong {
                    worst = Some(worst.map_or(index, |w| w.min(index)));
                }
            }
        }
        worst
    }

    /// Into `around`, for one member (`own`: its entries, then its horizontal neighbours'),
    /// the least entry plus one of each state's neighbours: the least of the other members'
    /// (from the clique's `least` and `second`) and of the horizontal neighbours'.
    #[inline]
    fn least_around(&self, own: &[u8], len: usize, least: &[u8], second: &[u8], around: &mut [u8]) {
        let (own, across) = own.split_at(len);
        let columns = own.iter().zip(&least[..len]).zip(&second[..len]);
        for ((around, ((&d, &least), &second)), _) in around.iter_mut().zip(columns).zip(0..len) {
            let e = d.wrapping_add(1);
            *around = if e == least { second } else { least };
        }
        for neighbour in across.chunks_exact(len) {
            for (around, &e) in around[..len].iter_mut().zip(neighbour) {
                *around = (*around).min(e.wrapping_add(1));
            }
        }
    }
}

/// A rough cost a pair of following `neighbours` in a gather, to choose a clique's anchor:
/// a slice is cheapest, then a load a pair by a counter, then rotations.
fn gather_cost(neighbours: &Neighbours) -> usize {
    match neighbours {
        Neighbours::Same => 0,
        Neighbours::Runs { run, .. } if *run > 1 => 1,
        Neighbours::Runs { .. } => 2,
        Neighbours::EveryRank { .. } => 3,
        Neighbours::SlideRuns { .. } => 4,
        Neighbours::Slide { windows } => 4 + 4 * windows.len(),
    }
}

/// How the neighbours through the move of `windows` (none: a horizontal move) are gathered,
/// `table` its slide table where it has one ([`slide_changes`]).
fn neighbours_of<'a>(
    space: &'a RankSpace,
    windows: &'a [u32],
    table: Option<&'a SlideChanges>,
) -> Neighbours<'a> {
    match (table, windows) {
        // A slide with its table: its changes read like one window's.
        (Some((1, changes)), _) => Neighbours::EveryRank { changes },
        (Some((below, changes)), _) => Neighbours::Runs {
            run: *below as usize / 2,
            changes,
        },
        (None, []) => Neighbours::Same,
        (None, &[window]) => match space.runs(window) {
            (1, changes) => Neighbours::EveryRank { changes },
            (below, changes) => Neighbours::Runs {
                run: below as usize / 2,
                changes,
            },
        },
        (None, windows) => {
            // The union's digits are those up to the end of the window that reaches
            // furthest, whose `below` is the smallest.
            let below = windows.iter().map(|&w| space.runs(w).0).min();
            match below {
                Some(below) if below >= 2 => Neighbours::SlideRuns {
                    run: below as usize / 2,
                    windows,
                },
                _ => Neighbours::Slide { windows },
            }
        }
    }
}

/// A slide's `below` and rank changes ([`slide_changes`]).
type SlideChanges = (u32, Vec<i32>);

/// The largest rank-change table [`slide_changes`] builds (4 MiB of `i32`): 3x4's longest
/// vertical slides need 9! = 362,880 entries.
const MAX_SLIDE_TABLE: u64 = 1 << 20;

/// For an MTM slide through several `windows`, `(below, changes)` as [`RankSpace::runs`]
/// gives them for one window: the slide reorders only the digits of its windows' union, the
/// digits between the nearest window's `below` (the smallest) and the furthest window's top
/// (`above`, the largest of the windows' `below * span`), so its change is a function of
/// `(rank / below) % (above / below)` alone, tabled here once per slide (one rotation a
/// window per entry). A gather then reads it as one window's changes
/// ([`Neighbours::Runs`], or [`Neighbours::EveryRank`] where `below` is 1: `above` is then
/// even, the second-last digit's radix 2 being in it) instead of rotating a rank through
/// each window per run or per rank. `None` for a single step or a horizontal move, or where
/// the table would be larger than [`MAX_SLIDE_TABLE`] (the rotations serve those).
fn slide_changes(space: &RankSpace, windows: &[u32]) -> Option<SlideChanges> {
    if windows.len() < 2 {
        return None;
    }
    let below = windows.iter().map(|&w| space.runs(w).0).min()?;
    let above = windows
        .iter()
        .map(|&w| {
            let (below, changes) = space.runs(w);
            u64::from(below) * changes.len() as u64
        })
        .max()?;
    let span = above / u64::from(below);
    if span > MAX_SLIDE_TABLE || above % 2 != 0 || above > u64::from(space.perms()) {
        return None;
    }
    let span = u32::try_from(span).ok()?;
    let changes = (0..span)
        .map(|digits| {
            let start = digits * below;
            let next = windows.iter().fold(start, |p, &w| space.rotate(w, p));
            // Both are tile ranks, below n! < 2^32, and differ by less than 2^31.
            i32::try_from(i64::from(next) - i64::from(start)).ok()
        })
        .collect::<Option<Vec<i32>>>()?;
    Some((below, changes))
}

/// Copies into `out` the entries (of the destination block `to`) of the neighbours of pairs
/// `first..first + out.len()` through one vertical move; `low` is the pair parities and the
/// block's class flip (see [`class_flips`]).
fn gather(
    space: &RankSpace,
    neighbours: &Neighbours,
    to: &[u8],
    first: usize,
    low: (&[u64], u64),
    out: &mut [u8],
) {
    let len = out.len();
    for_each_segment(space, neighbours, first, len, low, |at, from, here| {
        out[at..at + here].copy_from_slice(&to[from..from + here]);
    });
}

/// Where the neighbours of pairs `first..first + len` through one vertical move lie in the
/// destination block, in order, as segments: `segment(at, from, here)` says that the
/// neighbours of pairs `first + at..first + at + here` are the destination's pairs
/// `from..from + here`. `low` is the pair parities and the block's class flip (see
/// [`class_flips`]). A segment is a run where the move keeps runs of pairs together
/// ([`Neighbours::Runs`], [`Neighbours::SlideRuns`]), else one pair.
#[inline(always)]
fn for_each_segment(
    space: &RankSpace,
    neighbours: &Neighbours,
    first: usize,
    len: usize,
    (parities, flip): (&[u64], u64),
    mut segment: impl FnMut(usize, usize, usize),
) {
    // The low bit of the in-class tile rank of `pair`.
    let low = |pair: usize| (((parities[pair / 64] ^ flip) >> (pair % 64)) & 1) as usize;
    match *neighbours {
        Neighbours::Same => segment(0, first, len),
        Neighbours::Runs { run: 1, changes } => {
            // Runs of one pair: one load a pair, the change's index counted, not divided.
            let span = changes.len();
            let mut digit = first % span;
            for i in 0..len {
                segment(
                    i,
                    (first + i).wrapping_add_signed(changes[digit] as isize / 2),
                    1,
                );
                digit += 1;
                if digit == span {
                    digit = 0;
                }
            }
        }
        Neighbours::Runs { run, changes } => {
            // A slice a run: the first run may start partway, every later one whole.
            let span = changes.len();
            let (mut digit, mut within) = ((first / run) % span, first % run);
            let mut at = 0;
            while at < len {
                let here = (run - within).min(len - at);
                let from = (first + at).wrapping_add_signed(changes[digit] as isize / 2);
                segment(at, from, here);
                at += here;
                within = 0;
                digit += 1;
                if digit == span {
                    digit = 0;
                }
            }
        }
        Neighbours::EveryRank { changes } => {
            let span = changes.len();
            let mut even = (2 * first) % span;
            for i in 0..len {
                let pair = first + i;
                let perm = 2 * pair + low(pair);
                let next = perm.wrapping_add_signed(changes[even + low(pair)] as isize);
                segment(i, next >> 1, 1);
                even += 2;
                if even == span {
                    even = 0;
                }
            }
        }
        Neighbours::SlideRuns { run, windows } => {
            // A slice a run, its change from the run's first tile rank (a multiple of `below`,
            // so even: the pair moves by half of it, its class bit kept).
            let mut within = first % run;
            let mut at = 0;
            while at < len {
                let pair = first + at;
                let here = (run - within).min(len - at);
                // Below n! < 2^32: a tile rank.
                #[allow(clippy::cast_possible_truncation)]
                let start = (2 * (pair - within)) as u32;
                let next = windows.iter().fold(start, |p, &w| space.rotate(w, p));
                let from = pair.wrapping_add_signed((next as isize - start as isize) / 2);
                segment(at, from, here);
                at += here;
                within = 0;
            }
        }
        Neighbours::Slide { windows } => {
            for i in 0..len {
                let pair = first + i;
                // `2 * pair + 1` is below n! < 2^32: a tile rank.
                #[allow(clippy::cast_possible_truncation)]
                let perm = (2 * pair + low(pair)) as u32;
                let next = windows.iter().fold(perm, |p, &w| space.rotate(w, p));
                segment(i, (next >> 1) as usize, 1);
            }
        }
    }
}

/// Marks, for each state, whether this neighbour is exactly one closer (`closer`) or more
/// than one closer (`too_close`), in wrapping `u8` arithmetic. Byte columns without branches,
/// so the compiler vectorises the loop.
#[inline]
fn compare(own: &[u8], around: &[u8], closer: &mut [u8], too_close: &mut [u8]) {
    let columns = own.iter().zip(around).zip(closer).zip(too_close);
    for (((&d, &e), closer), too_close) in columns {
        let one_more = e.wrapping_add(1);
        *closer |= u8::from(one_more == d);
        *too_close |= u8::from(one_more < d);
    }
}

/// The first index (from `start`, the index of `own[0]`) whose state breaks a rule: the goal
/// not at 0, another state at 0, a neighbour more than one closer, or no neighbour one closer.
#[inline]
fn first_bad(
    own: &[u8],
    closer: &[u8],
    too_close: &[u8],
    start: usize,
    goal_index: usize,
) -> Option<usize> {
    let bad = |i: usize| -> bool {
        if start + i == goal_index {
            own[i] != 0
        } else {
            own[i] == 0 || too_close[i] != 0 || closer[i] == 0
        }
    };
    // A whole range at once first (no branch per state: vectorised), then the goal apart.
    let any = own
        .iter()
        .zip(closer)
        .zip(too_close)
        .fold(0u8, |any, ((&d, &closer), &too_close)| {
            any | u8::from(d == 0) | too_close | (closer ^ 1)
        });
    let goal_here = (start..start + own.len()).contains(&goal_index);
    if any == 0 && !goal_here {
        return None;
    }
    (0..own.len()).find(|&i| bad(i)).map(|i| start + i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// Every slide's change table (where it is small enough to build) agrees with rotating
    /// each tile rank through its windows (every rank on 3x3, a stride on 3x4, 4x3 and 2x6);
    /// tables of slides that reach the last digits exist on each board and tables of slides
    /// that do not on some, so the damaged-table comparisons of `tests/generator_oracle.rs`
    /// read both kinds.
    #[test]
    fn slide_tables_match_the_rotations() {
        let mut runs_tables = 0;
        for (board, stride) in [("3x3", 1u32), ("3x4", 7919), ("2x6", 7919), ("4x3", 7919)] {
            let board: Board = board.parse().unwrap();
            let space = RankSpace::new(board).unwrap();
            let pairs = space.perms() as usize / 2;
            let (mut tables, mut reach_end) = (0, 0);
            for cell in 0..board.cells() {
                for (_, windows) in moves_out_of(&space, cell, Metric::Mtm, pairs) {
                    let Some((below, changes)) = slide_changes(&space, &windows) else {
                        continue;
                    };
                    tables += 1;
                    reach_end += usize::from(below == 1);
                    let span = u32::try_from(changes.len()).unwrap();
                    for perm in (0..space.perms()).step_by(stride as usize) {
                        let rotated = windows.iter().fold(perm, |p, &w| space.rotate(w, p));
                        let digits = (perm / below) % span;
                        let read = perm.wrapping_add_signed(changes[digits as usize]);
                        assert_eq!(read, rotated, "{board} cell {cell} {windows:?} rank {perm}");
                    }
                }
            }
            assert!(reach_end > 0, "{board}: no slide reaches the last digits");
            runs_tables += tables - reach_end;
            // 3x3, which the damaged-table comparisons cover, has both kinds.
            assert!(
                board.cells() != 9 || tables > reach_end,
                "{board}: runs tables"
            );
        }
        assert!(runs_tables > 0, "no table of a slide above the last digits");
    }
}
