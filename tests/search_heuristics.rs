//! Every heuristic is admissible and consistent on every 3x3 state (checked against the exact
//! table), zero only at the goal, and linear conflict >= Manhattan >= misplaced tiles.

mod search_support;

use npuzzle::heuristic::{AnyHeuristic, LinearConflict, Manhattan, Misplaced};
use npuzzle::{Board, Heuristic, HeuristicKind, State};
use search_support::{canonical_tables, table, Rng};

#[test]
fn every_heuristic_is_admissible_and_consistent_on_every_3x3_state() {
    let table = table();
    let goal = *table.goal();
    let space = table.space();
    let class = goal.parity_class();
    let heuristics: Vec<AnyHeuristic> = HeuristicKind::ALL
        .iter()
        .map(|&kind| AnyHeuristic::new(kind, &goal))
        .collect();
    for index in 0..space.states() {
        let state = space.unrank(index, class);
        let exact = table.distance(&state).unwrap().expect("same class") as u32;
        for h in &heuristics {
            let estimate = h.estimate(&state);
            assert!(
                estimate <= exact,
                "{:?} overestimates {state}: {estimate} > {exact}",
                h.kind()
            );
            assert_eq!(estimate == 0, state == goal, "{:?} at {state}", h.kind());
            for (_, next) in state.successors() {
                let after = h.estimate(&next);
                assert!(
                    estimate <= after + 1,
                    "{:?} is inconsistent from {state} to {next}",
                    h.kind()
                );
            }
        }
    }
}

#[test]
fn heuristics_are_admissible_for_goals_with_the_blank_anywhere() {
    // The canonical tables with the blank in each cell, against relabelled goals too.
    let mut rng = Rng::new(0xad31);
    let board = Board::THREE_BY_THREE;
    for _ in 0..20 {
        let goal = rng.state(board);
        let table = &canonical_tables()[goal.blank()];
        let h = LinearConflict::new(&goal);
        let m = Manhattan::new(&goal);
        for _ in 0..2000 {
            let start = rng.state(board);
            let Some(exact) = table.distance_to(&start, &goal).expect("served") else {
                continue;
            };
            assert!(h.estimate(&start) <= exact as u32, "{start} -> {goal}");
            assert!(m.estimate(&start) <= h.estimate(&start));
        }
    }
}

#[test]
fn linear_conflict_dominates_manhattan_which_dominates_misplaced_on_every_board() {
    let mut rng = Rng::new(0xd0d0);
    for (w, h) in [
        (2, 2),
        (3, 2),
        (2, 3),
        (3, 3),
        (4, 3),
        (4, 4),
        (5, 4),
        (5, 5),
    ] {
        let board = Board::new(w, h).unwrap();
        for _ in 0..500 {
            let goal = rng.state(board);
            let start = rng.state(board);
            let (lc, md, mis) = (
                LinearConflict::new(&goal).estimate(&start),
                Manhattan::new(&goal).estimate(&start),
                Misplaced::new(&goal).estimate(&start),
            );
            assert!(
                lc >= md && md >= mis,
                "{w}x{h} {start} -> {goal}: {lc} {md} {mis}"
            );
            assert_eq!((lc - md) % 2, 0, "conflicts cost two moves each");
        }
    }
}

#[test]
fn known_values_on_small_examples() {
    // 123/456/078 -> goal: tiles 7 and 8 each one column off; no conflicts.
    let goal = State::goal(Board::THREE_BY_THREE);
    let start: State = "123456078".parse().unwrap();
    assert_eq!(Misplaced::new(&goal).estimate(&start), 2);
    assert_eq!(Manhattan::new(&goal).estimate(&start), 2);
    assert_eq!(LinearConflict::new(&goal).estimate(&start), 2);
    // 213/456/780: tiles 2 and 1 are swapped in their goal row, one must leave it.
    let swapped: State = "213456780".parse().unwrap();
    assert_eq!(Manhattan::new(&goal).estimate(&swapped), 2);
    assert_eq!(LinearConflict::new(&goal).estimate(&swapped), 4);
    // 321 in the goal row 123: the longest ordered run is one tile, so two must leave.
    let reversed: State = "321456780".parse().unwrap();
    assert_eq!(LinearConflict::new(&goal).estimate(&reversed), 4 + 2 * 2);
}
