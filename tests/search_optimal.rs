//! A* and IDA* (and the other searches) against the exact table on random 3x3 instances,
//! including every state at depth 30 and 31, the hardest there are.

mod search_support;

use npuzzle::heuristic::{LinearConflict, Manhattan, Misplaced};
use npuzzle::search::{astar, bfs, greedy, idastar, iddfs};
use npuzzle::{Heuristic, Limits, Outcome, SearchResult, State};
use search_support::{states_at_depth, table, Rng};

/// Checks that `result` is a legal path from `start` to the goal of exactly `expected` moves.
fn assert_optimal(result: &SearchResult, start: &State, goal: &State, expected: u8, what: &str) {
    let solution = result
        .solution()
        .unwrap_or_else(|| panic!("{what} found no path from {start}: {:?}", result.outcome));
    assert_eq!(solution.start(), *start, "{what}");
    assert_eq!(solution.end(), *goal, "{what} from {start} ends elsewhere");
    assert_eq!(
        solution.len(),
        expected as usize,
        "{what} from {start} is not optimal"
    );
    // Replaying the letters from the start must pass through the reported states.
    let mut state = *start;
    for (mv, next) in solution.moves().iter().zip(&solution.path()[1..]) {
        state = state.apply(*mv).expect("legal move");
        assert_eq!(state, *next, "{what}");
    }
    assert!(
        result.expanded <= result.generated + 1 || expected == 0,
        "{what}"
    );
}

#[test]
fn astar_and_idastar_with_manhattan_are_optimal_on_thousands_of_random_states() {
    let table = table();
    let goal = *table.goal();
    let h = Manhattan::new(&goal);
    let mut rng = Rng::new(0x5ea2c4);
    for _ in 0..3000 {
        let start = rng.table_state(table);
        let expected = table.distance(&start).unwrap().expect("same class");
        let a = astar(&start, &h, Limits::default());
        assert_optimal(&a, &start, &goal, expected, "A* manhattan");
        let i = idastar(&start, &h, Limits::default());
        assert_optimal(&i, &start, &goal, expected, "IDA* manhattan");
    }
}

#[test]
fn linear_conflict_and_misplaced_searches_are_optimal_on_random_states() {
    let table = table();
    let goal = *table.goal();
    let lc = LinearConflict::new(&goal);
    let misplaced = Misplaced::new(&goal);
    let mut rng = Rng::new(0x11c0);
    for round in 0..1500 {
        let start = rng.table_state(table);
        let expected = table.distance(&start).unwrap().expect("same class");
        assert_optimal(
            &astar(&start, &lc, Limits::default()),
            &start,
            &goal,
            expected,
            "A* lc",
        );
        assert_optimal(
            &idastar(&start, &lc, Limits::default()),
            &start,
            &goal,
            expected,
            "IDA* lc",
        );
        if round % 10 == 0 {
            let a = astar(&start, &misplaced, Limits::default());
            assert_optimal(&a, &start, &goal, expected, "A* misplaced");
        }
    }
}

#[test]
fn every_state_at_depth_30_and_31_is_solved_optimally() {
    let table = table();
    let goal = *table.goal();
    let manhattan = Manhattan::new(&goal);
    let lc = LinearConflict::new(&goal);
    let deepest = states_at_depth(table, 31);
    let next = states_at_depth(table, 30);
    // Published (OEIS A089473): 2 states at depth 31 and 221 at depth 30.
    assert_eq!((deepest.len(), next.len()), (2, 221));
    for (depth, states) in [(31, &deepest), (30, &next)] {
        for start in states {
            assert_optimal(
                &astar(start, &manhattan, Limits::default()),
                start,
                &goal,
                depth,
                "A*",
            );
            assert_optimal(
                &idastar(start, &lc, Limits::default()),
                start,
                &goal,
                depth,
                "IDA* lc",
            );
        }
    }
    for start in deepest.iter().chain(next.iter().step_by(20)) {
        let i = idastar(start, &manhattan, Limits::default());
        assert_optimal(
            &i,
            start,
            &goal,
            table.distance(start).unwrap().unwrap(),
            "IDA* md",
        );
    }
}

#[test]
fn uninformed_searches_are_optimal_and_greedy_paths_are_legal() {
    let table = table();
    let goal = *table.goal();
    let h = Misplaced::new(&goal);
    let mut rng = Rng::new(0xb0f5);
    for round in 0..200 {
        let start = rng.table_state(table);
        let expected = table.distance(&start).unwrap().unwrap();
        assert_optimal(
            &bfs(&start, &goal, Limits::default()),
            &start,
            &goal,
            expected,
            "BFS",
        );
        if expected <= 20 || round % 25 == 0 {
            let d = iddfs(&start, &goal, Limits::default());
            assert_optimal(&d, &start, &goal, expected, "IDDFS");
        }
        let g = greedy(&start, &h, Limits::default());
        let solution = g.solution().expect("greedy finds a path in a finite space");
        assert_eq!(solution.end(), goal);
        assert!(solution.len() >= expected as usize);
        assert_eq!(
            solution.len() % 2,
            expected as usize % 2,
            "path parity is fixed"
        );
    }
}

#[test]
fn the_start_at_the_goal_needs_no_moves() {
    let goal = *table().goal();
    let h = Manhattan::new(&goal);
    for result in [
        astar(&goal, &h, Limits::default()),
        idastar(&goal, &h, Limits::default()),
        bfs(&goal, &goal, Limits::default()),
        iddfs(&goal, &goal, Limits::default()),
        greedy(&goal, &h, Limits::default()),
    ] {
        assert_eq!(result.solution().map(|s| s.len()), Some(0));
        assert_eq!(result.expanded, 0);
    }
}

#[test]
fn unsolvable_pairs_are_refused_without_searching() {
    let goal = *table().goal();
    let start: State = "213456780".parse().unwrap();
    assert!(!start.can_reach(&goal));
    let h = Manhattan::new(&goal);
    for result in [
        astar(&start, &h, Limits::default()),
        idastar(&start, &h, Limits::default()),
        bfs(&start, &goal, Limits::default()),
        iddfs(&start, &goal, Limits::default()),
        greedy(&start, &h, Limits::default()),
    ] {
        assert_eq!(result.outcome, Outcome::Unsolvable);
        assert_eq!((result.expanded, result.generated), (0, 0));
    }
}

#[test]
fn searches_give_up_at_the_node_limit() {
    let goal = *table().goal();
    let start: State = "867254301".parse().unwrap();
    let limits = Limits::NONE.nodes(1000);
    let h = Misplaced::new(&goal);
    for (name, result) in [
        ("astar", astar(&start, &h, limits)),
        ("idastar", idastar(&start, &h, limits)),
        ("bfs", bfs(&start, &goal, limits)),
        ("iddfs", iddfs(&start, &goal, limits)),
    ] {
        assert_eq!(
            result.gave_up(),
            Some(npuzzle::search::Limit::Nodes),
            "{name}"
        );
        assert_eq!(result.expanded, 1000, "{name}");
    }
    // A zero time limit is noticed at the first reading of the clock.
    let result = iddfs(&start, &goal, Limits::NONE.time(std::time::Duration::ZERO));
    assert_eq!(result.gave_up(), Some(npuzzle::search::Limit::Time));
    assert!(h.estimate(&start) > 0);
}
