//! The walk from a state to the goal along a table body checked whole: the fast path of
//! [`Table::solve_moves`](super::Table::solve_moves).
//!
//! A step tries the moves out of the blank's cell in [`Move::ALL`] order and takes the first
//! whose neighbour's entry is one closer, by a branch per move. Which neighbour is closer
//! looks random, yet branches beat selects here: with a branch the processor runs ahead on the
//! predicted neighbour, so a step waits for the rank arithmetic of the move taken, not for the
//! table read; a branch-free step (all four neighbours read, the first closer chosen by
//! conditional moves) waits for the read every step and measured 570-600 ns against 325 ns
//! for the 31-move 3x3 state (BENCHMARKS.md, "Issue 11's speed aims").
//!
//! The walk keeps the blank cell and the tile rank apart, so no step divides: each move out of
//! a cell is a slot holding its window's constants ([`RankSpace::slots`]). On boards of at
//! most 10 cells the slots are [`NarrowSlot`]s: 32 bytes, four to a cell (a row found by a
//! shift, read without a length), and one 64-bit multiplication per division, which shortens
//! the chain a vertical step waits for.

use crate::board::Move;
use crate::rank::{NarrowSlot, RankSpace};

/// The moves from the state with full index `full`, whose entry is `depth`, to the goal, each
/// to the first neighbour (in [`Move::ALL`] order) one closer; `body` must have been checked.
///
/// # Errors
/// The full index of a state with no neighbour one closer (a body that passed its checksums
/// but is not what a breadth-first search writes).
///
/// # Panics
/// If `body` is not the body of `space`'s table.
pub(super) fn moves_to_goal(
    space: &RankSpace,
    body: &[u8],
    full: u32,
    depth: u8,
) -> Result<Vec<Move>, u32> {
    let start = space.split(full);
    match space.narrow_slots() {
        Some(rows) => walk(
            body,
            start,
            depth,
            |cell| &rows[cell as usize][..],
            |slot: &NarrowSlot, perm| space.through_narrow(slot, perm),
            |slot| (slot.mv, u32::from(slot.to)),
        ),
        None => walk(
            body,
            start,
            depth,
            |cell| space.slots(cell),
            |slot, perm| space.through(slot, perm),
            |slot| (slot.mv, slot.to),
        ),
    }
    .map_err(|(blank, perm)| blank * space.perms() + perm)
}

/// [`moves_to_goal`] from blank cell and tile rank `(blank, perm)`, over the slots `row` gives
/// for a cell: `through` is a slot's neighbour (full index, tile rank), `step` its move and
/// the blank's cell after it. The error is the blank cell and tile rank of a state with no
/// neighbour one closer.
#[inline(always)]
fn walk<'a, S: 'a>(
    body: &[u8],
    (mut blank, mut perm): (u32, u32),
    depth: u8,
    row: impl Fn(u32) -> &'a [S],
    through: impl Fn(&S, u32) -> (u32, u32),
    step: impl Fn(&S) -> (Move, u32),
) -> Result<Vec<Move>, (u32, u32)> {
    // Filled in place rather than pushed: no capacity test and no growth path per step.
    let mut moves = vec![Move::Up; depth as usize];
    for (taken, closer) in moves.iter_mut().zip((0..depth).rev()) {
        let found = row(blank).iter().find_map(|slot| {
            let (index, tiles) = through(slot, perm);
            (body[(index >> 1) as usize] == closer).then_some((slot, tiles))
        });
        let Some((slot, tiles)) = found else {
            return Err((blank, perm));
        };
        let to;
        (*taken, to) = step(slot);
        (blank, perm) = (to, tiles);
    }
    Ok(moves)
}
