//! The walk from a state to the goal along a table body checked whole: the fast path of
//! [`Table::solve_moves`](super::Table::solve_moves).
//!
//! A step reads the entries of all four neighbours (a missing move is a slot that stays, whose
//! entry is the state's own and never one closer) and takes the first one closer in
//! [`Move::ALL`] order, chosen by selects rather than branches: which neighbour is closer is
//! as good as random, so a branch on it would be mispredicted about every other step. The
//! walk keeps the blank cell and the tile rank apart, so no step divides, and the four reads
//! of a step are independent of each other: the walk waits for one read per step.

use crate::board::Move;
use crate::rank::RankSpace;

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
    let perms = space.perms();
    let (mut blank, mut perm) = (full / perms, full % perms);
    let mut moves = Vec::with_capacity(depth as usize);
    for closer in (0..depth).rev() {
        let found = space.slots(blank).iter().find_map(|slot| {
            let (index, tiles) = space.through(slot, perm);
            (body[(index >> 1) as usize] == closer).then_some((slot, tiles))
        });
        let Some((slot, tiles)) = found else {
            return Err(blank * perms + perm);
        };
        moves.push(slot.mv);
        (blank, perm) = (slot.to, tiles);
    }
    Ok(moves)
}
