//! Any goal in O(1): the nine canonical tables answer every start/goal pair by relabelling.
//! Checked over many random goals against an independent breadth-first search over
//! [`State::successors`] (no ranks, no relabelling), against the `pathfinding` crate's BFS,
//! and against A* run on the goal directly.

mod references;
mod search_support;

use npuzzle::heuristic::Manhattan;
use npuzzle::search::astar;
use npuzzle::{Board, Limits, State};
use references::plain_bfs as distances_to;
use search_support::{canonical_tables, Rng};

#[test]
fn distances_and_paths_to_random_goals_match_an_independent_search() {
    let board = Board::THREE_BY_THREE;
    let tables = canonical_tables();
    let mut rng = Rng::new(0x60a1);
    let mut goals: Vec<State> = ["123804765", "012345678", "876543210", "123456780"]
        .iter()
        .map(|g| g.parse().unwrap())
        .collect();
    goals.extend((0..16).map(|_| rng.state(board)));
    for goal in goals {
        let oracle = distances_to(goal);
        assert_eq!(oracle.len(), 181_440);
        let table = &tables[goal.blank()];
        assert!(table.serves(&goal));
        for _ in 0..1000 {
            // Either parity class: half of these pairs are unsolvable.
            let start = rng.state(board);
            let expected = oracle.get(&start).copied();
            assert_eq!(
                table.distance_to(&start, &goal).unwrap(),
                expected,
                "{start} -> {goal}"
            );
            let solution = table.solve_to(&start, &goal).unwrap();
            match (solution, expected) {
                (Some(solution), Some(d)) => {
                    assert_eq!(solution.len(), d as usize);
                    assert_eq!(solution.start(), start);
                    assert_eq!(solution.end(), goal, "the path is in the caller's labels");
                    for (step, state) in solution.path().iter().enumerate() {
                        assert_eq!(
                            oracle[state] as usize,
                            d as usize - step,
                            "each move one closer"
                        );
                    }
                }
                (None, None) => assert!(!start.can_reach(&goal)),
                (found, expected) => panic!("{start} -> {goal}: {found:?} vs {expected:?}"),
            }
        }
    }
}

#[test]
fn a_table_refuses_goals_it_does_not_serve() {
    let tables = canonical_tables();
    let goal: State = "123804765".parse().unwrap();
    let start: State = "123456780".parse().unwrap();
    assert!(!tables[0].serves(&goal));
    assert!(tables[0].distance_to(&start, &goal).is_err());
    assert!(tables[0].solve_to(&start, &goal).is_err());
}

#[test]
fn table_astar_and_the_pathfinding_crate_agree_on_random_pairs() {
    let board = Board::THREE_BY_THREE;
    let tables = canonical_tables();
    let mut rng = Rng::new(0x9a7f);
    let mut checked = 0;
    while checked < 40 {
        let (start, goal) = (rng.state(board), rng.state(board));
        if !start.can_reach(&goal) {
            continue;
        }
        checked += 1;
        let table = tables[goal.blank()]
            .distance_to(&start, &goal)
            .unwrap()
            .unwrap();
        let theirs = pathfinding::directed::bfs::bfs(
            &start,
            |s: &State| s.successors().map(|(_, n)| n).collect::<Vec<_>>(),
            |s| *s == goal,
        )
        .expect("solvable");
        assert_eq!(theirs.len() - 1, table as usize, "{start} -> {goal}");
        let ours = astar(&start, &Manhattan::new(&goal), Limits::default());
        assert_eq!(ours.solution().unwrap().len(), table as usize);
        assert_eq!(ours.solution().unwrap().end(), goal);
    }
}
