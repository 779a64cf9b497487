//! The parity rule ([`State::can_reach`]) against exhaustive reachability: a breadth-first
//! search over [`State::successors`] (no ranks, no parity) from a goal, then every permutation
//! of the board's tiles is reachable exactly when the rule says so.

mod references;

use std::collections::HashSet;

use npuzzle::{Board, RankSpace, State};

/// Every state that can reach `goal`, by the tests' breadth-first search.
fn reachable_from(goal: State) -> HashSet<State> {
    references::plain_bfs(goal).into_keys().collect()
}

fn check_board(w: usize, h: usize, goal_blanks: &[usize]) {
    let board = Board::new(w, h).unwrap();
    // The full index enumerates every permutation once (both parity classes).
    let space = RankSpace::new(board).unwrap();
    let every: Vec<State> = (0..space.full_len()).map(|i| space.state_at(i)).collect();
    assert_eq!(every.iter().collect::<HashSet<_>>().len(), every.len());
    for &blank in goal_blanks {
        let goal = State::canonical_goal(board, blank);
        let reached = reachable_from(goal);
        assert_eq!(
            reached.len() * 2,
            every.len(),
            "{w}x{h}: half of all permutations"
        );
        for state in &every {
            assert_eq!(
                state.can_reach(&goal),
                reached.contains(state),
                "{w}x{h}: {state} -> {goal}"
            );
            assert_eq!(goal.can_reach(state), reached.contains(state), "symmetric");
        }
    }
}

#[test]
fn the_parity_rule_matches_reachability_on_2x2_2x3_3x2_4x2_and_2x4() {
    for (w, h) in [(2, 2), (2, 3), (3, 2), (4, 2), (2, 4)] {
        let cells: Vec<usize> = (0..w * h).collect();
        check_board(w, h, &cells);
    }
}

#[test]
fn the_parity_rule_matches_reachability_on_3x3() {
    check_board(3, 3, &[8, 4, 0]);
}

#[test]
fn states_of_different_boards_never_reach_each_other() {
    let a = State::goal(Board::new(3, 2).unwrap());
    let b = State::goal(Board::new(2, 3).unwrap());
    assert!(!a.can_reach(&b));
}
