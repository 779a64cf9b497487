//! Exhaustive checks of the ranking, the generator and the table over every 3x3 state, plus
//! the small boards (2x2, 2x3, 3x2) that catch geometry bugs square boards hide.

mod references;

use references::{assert_first_closer_moves, plain_bfs};

use std::sync::OnceLock;

use npuzzle::generate::{distances, BuildOptions};
use npuzzle::rank::STATES_3X3;
use npuzzle::{Board, Parity, RankSpace, State, Table};

/// OEIS A089473: 8-puzzle states at each distance from 123456780 (maximum 31).
const A089473: [u64; 32] = [
    1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878,
    16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
];

fn board() -> Board {
    Board::THREE_BY_THREE
}

fn space() -> &'static RankSpace {
    static SPACE: OnceLock<RankSpace> = OnceLock::new();
    SPACE.get_or_init(|| RankSpace::new(board()).unwrap())
}

fn table() -> &'static Table<Vec<u8>> {
    static TABLE: OnceLock<Table<Vec<u8>>> = OnceLock::new();
    TABLE.get_or_init(|| Table::build(&State::goal(board()), BuildOptions::default()).unwrap())
}

#[test]
fn unrank_then_rank_is_identity_for_every_3x3_state_of_both_classes() {
    let space = space();
    assert_eq!(space.states(), STATES_3X3);
    for class in [Parity::Even, Parity::Odd] {
        let mut hit = vec![false; STATES_3X3 as usize];
        for index in 0..STATES_3X3 {
            let state = space.unrank(index, class);
            assert_eq!(state.parity_class(), class);
            assert_eq!(space.rank_unchecked(&state), index, "{state}");
            assert!(!std::mem::replace(&mut hit[index as usize], true));
        }
    }
}

#[test]
fn rank_is_a_bijection_onto_the_reachable_states() {
    let reachable = plain_bfs(State::goal(board()));
    assert_eq!(reachable.len(), STATES_3X3 as usize);
    let mut hit = vec![false; STATES_3X3 as usize];
    for state in reachable.keys() {
        let index = space().rank_unchecked(state) as usize;
        assert!(
            !std::mem::replace(&mut hit[index], true),
            "two states share index {index}"
        );
        assert_eq!(space().unrank(index as u32, state.parity_class()), *state);
    }
}

#[test]
fn depth_counts_match_oeis_a089473() {
    let header = table().header();
    assert_eq!(header.max_depth, 31);
    assert_eq!(header.counts, A089473.to_vec());
    assert_eq!(table().recount_depths(), A089473.to_vec());
    assert_eq!(A089473.iter().sum::<u64>(), STATES_3X3 as u64);
}

#[test]
fn every_table_entry_of_all_nine_goals_equals_an_independent_breadth_first_search() {
    for blank in 0..9 {
        let goal = State::canonical_goal(board(), blank);
        let built;
        let table = if blank == 8 {
            table()
        } else {
            built = Table::build(&goal, BuildOptions::default()).unwrap();
            &built
        };
        let oracle = plain_bfs(goal);
        assert_eq!(oracle.len(), STATES_3X3 as usize);
        for (state, &d) in &oracle {
            assert_eq!(
                table.distance(state).unwrap(),
                Some(d),
                "goal {goal}, state {state}"
            );
        }
    }
}

#[test]
fn every_state_has_a_neighbour_one_closer_and_none_closer() {
    let goal = State::goal(board());
    for index in 0..STATES_3X3 {
        let state = space().unrank(index, goal.parity_class());
        let d = table().distance(&state).unwrap().unwrap();
        let neighbours: Vec<u8> = state
            .successors()
            .map(|(_, next)| table().distance(&next).unwrap().unwrap())
            .collect();
        assert_eq!(d == 0, state == goal);
        assert!(
            neighbours.iter().all(|&n| n + 1 >= d),
            "{state}: a neighbour is too close"
        );
        assert!(
            neighbours.iter().all(|&n| n <= d + 1),
            "{state}: a neighbour is too far"
        );
        if d > 0 {
            assert!(
                neighbours.contains(&(d - 1)),
                "{state}: no neighbour one closer"
            );
        }
    }
    assert_eq!(table().first_inconsistent_entry(), None);
}

#[test]
fn every_walked_path_is_legal_reaches_the_goal_and_has_the_table_length() {
    let goal = State::goal(board());
    for index in 0..STATES_3X3 {
        let start = space().unrank(index, goal.parity_class());
        let solution = table().solve(&start).unwrap().unwrap();
        assert_eq!(
            solution.len(),
            table().distance(&start).unwrap().unwrap() as usize
        );
        // Replay the moves independently of the solution's own path.
        let mut state = start;
        for &mv in solution.moves() {
            state = state.apply(mv).expect("a legal move");
        }
        assert_eq!(state, goal, "{start}");
        assert_eq!(solution.path().len(), solution.len() + 1);
    }
}

#[test]
fn every_step_of_a_walk_is_the_first_move_in_u_d_l_r_order_to_a_closer_state() {
    let goal = State::goal(board());
    let distance = |s: &State| table().distance(s).unwrap().unwrap();
    for index in 0..STATES_3X3 {
        let start = space().unrank(index, goal.parity_class());
        let moves = table().solve_moves(&start).unwrap().unwrap();
        assert_first_closer_moves(start, goal, &moves, distance);
    }
}

#[test]
fn states_of_the_other_parity_class_have_no_distance() {
    let other = space().unrank(12345, !State::goal(board()).parity_class());
    assert_eq!(table().distance(&other).unwrap(), None);
    assert!(table().solve(&other).unwrap().is_none());
}

#[test]
fn one_thread_and_many_threads_build_identical_tables() {
    let goal = State::goal(board());
    let one = distances(space(), &goal, BuildOptions { threads: Some(1) });
    for threads in [2, 3, 4, 8] {
        let many = distances(
            space(),
            &goal,
            BuildOptions {
                threads: Some(threads),
            },
        );
        assert!(one == many, "{threads} threads differ from 1");
    }
    assert_eq!(one.entries, table().entries().unwrap());
}

#[test]
fn every_canonical_goal_gets_a_complete_consistent_table() {
    for blank in 0..9 {
        let goal = State::canonical_goal(board(), blank);
        let table = Table::build(&goal, BuildOptions::default()).unwrap();
        assert_eq!(table.header().counts.iter().sum::<u64>(), STATES_3X3 as u64);
        assert!(table
            .entries()
            .unwrap()
            .iter()
            .all(|&d| d <= table.header().max_depth));
        assert_eq!(table.first_inconsistent_entry(), None, "goal {goal}");
        assert_eq!(table.distance(&goal).unwrap(), Some(0));
    }
}

#[test]
fn small_boards_match_an_independent_search_exhaustively() {
    for (w, h) in [(2, 2), (3, 2), (2, 3), (4, 2), (2, 4)] {
        let board = Board::new(w, h).unwrap();
        let space = RankSpace::new(board).unwrap();
        for blank in 0..board.cells() {
            let goal = State::canonical_goal(board, blank);
            let table = Table::build(&goal, BuildOptions::default()).unwrap();
            let oracle = plain_bfs(goal);
            assert_eq!(
                oracle.len() as u32,
                space.states(),
                "{w}x{h}: half the states reachable"
            );
            for (state, &d) in &oracle {
                assert_eq!(table.distance(state).unwrap(), Some(d), "{w}x{h} {state}");
                assert_eq!(
                    space.unrank(space.rank_unchecked(state), state.parity_class()),
                    *state
                );
                let solution = table.solve(state).unwrap().unwrap();
                assert_eq!(solution.end(), goal);
                assert_eq!(solution.len(), d as usize);
            }
        }
    }
}
