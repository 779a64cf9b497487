//! Dual IDA* and move pruning against exact tables: on 3x3 (fast tier) and 3x4 (long tier,
//! `--ignored`), for 10,000 states drawn uniformly from the goal's class, dual IDA* with all
//! four lookups (the dual ones reading the databases of the patterns' other blank regions
//! where the partition walls one off) returns a path of exactly the table's length, replayed from the start to the
//! goal, and jumps somewhere; and IDA* with the move-pruning automaton finds the exact
//! distance of every one of them, generating fewer nodes in all than without it.

use std::ops::ControlFlow;
use std::sync::Arc;

use npuzzle::heuristic::{Lookups, PatternHeuristic};
use npuzzle::pattern::{region_goals, PatternDatabase};
use npuzzle::rng::SplitMix64;
use npuzzle::search::prune::MovePruner;
use npuzzle::search::{self, Limits};
use npuzzle::{Board, BuildOptions, State, Table};

fn heuristic(goal: &State, partition: &[&[u8]], lookups: Lookups) -> PatternHeuristic {
    let build = |goal: &State, tiles: &[u8]| {
        let db = PatternDatabase::build(goal, tiles, &|_| ControlFlow::Continue(())).unwrap();
        Arc::new(db.map_into())
    };
    let dbs = partition.iter().map(|tiles| build(goal, tiles)).collect();
    PatternHeuristic::with_lookups(goal, dbs, lookups).unwrap()
}

/// As [`heuristic`], the dual lookups also reading the databases of the patterns' other blank
/// regions.
fn with_regions(goal: &State, partition: &[&[u8]], lookups: Lookups) -> PatternHeuristic {
    let regions: Vec<_> = partition
        .iter()
        .flat_map(|tiles| {
            region_goals(goal, tiles).into_iter().map(move |other| {
                let db =
                    PatternDatabase::build(&other, tiles, &|_| ControlFlow::Continue(())).unwrap();
                Arc::new(db.map_into())
            })
        })
        .collect();
    heuristic(goal, partition, lookups)
        .with_region_databases(regions)
        .unwrap()
}

/// `count` states of the goal's class, uniformly, with their exact distances.
fn sample(table: &Table<Vec<u8>>, count: usize, seed: u64) -> Vec<(State, u8)> {
    let class = table.goal().parity_class();
    let entries = table.entries().unwrap();
    let space = table.space();
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let i = (rng.next_u64() % space.states() as u64) as u32;
            (space.unrank(i, class), entries[i as usize])
        })
        .collect()
}

fn check_dual(board: Board, blank: usize, partition: &[&[u8]], count: usize) {
    let goal = State::canonical_goal(board, blank);
    let table = Table::build(&goal, BuildOptions::default()).unwrap();
    let h = with_regions(&goal, partition, Lookups::ALL);
    let (mut jumps, mut nodes) = (0u64, 0u64);
    for (start, exact) in sample(&table, count, 22 + blank as u64) {
        let found = search::dual_idastar(&start, &h, Limits::default());
        let solution = found.result.solution().expect("solvable, no limit");
        assert_eq!(solution.len(), exact as usize, "{start} to {goal}");
        assert_eq!(solution.path()[0], start);
        assert_eq!(solution.end(), goal);
        jumps += found.jumps;
        nodes += found.result.generated;
    }
    assert!(jumps > 0, "{board}: dual search never jumped");
    eprintln!("{board} blank {blank}: {count} states, {nodes} generated, {jumps} jumps");
}

/// IDA* with the board's automaton finds the exact distance of `count` sampled states, and
/// generates fewer nodes in all than with the moves straight back refused alone.
fn check_pruning(board: Board, blank: usize, partition: &[&[u8]], count: usize) {
    let goal = State::canonical_goal(board, blank);
    let table = Table::build(&goal, BuildOptions::default()).unwrap();
    let h = heuristic(&goal, partition, Lookups::REGULAR);
    let back_only = MovePruner::generate(board, 2);
    let (mut pruned, mut unpruned) = (0u64, 0u64);
    for (start, exact) in sample(&table, count, 23 + blank as u64) {
        let found = search::idastar(&start, &h, Limits::default());
        let solution = found.solution().expect("solvable, no limit");
        assert_eq!(solution.len(), exact as usize, "{start} to {goal}");
        assert_eq!(solution.end(), goal);
        pruned += found.generated;
        let plain = search::idastar_with_pruner(&start, &h, Limits::default(), &back_only);
        assert_eq!(plain.solution().map(|s| s.len()), Some(exact as usize));
        unpruned += plain.generated;
    }
    assert!(
        pruned < unpruned,
        "{board}: the automaton saved nothing ({pruned} against {unpruned})"
    );
    eprintln!(
        "{board} blank {blank}: {count} states, {pruned} generated with the automaton, {unpruned} with the moves back refused alone"
    );
}

#[test]
fn pruned_idastar_finds_exact_distances_on_3x3() {
    let board = Board::new(3, 3).unwrap();
    check_pruning(board, 0, &[&[1, 2, 3, 4], &[5, 6, 7, 8]], 10_000);
    check_pruning(board, 4, &[&[1, 3, 5], &[2, 4, 6], &[7, 8]], 10_000);
}

#[test]
#[ignore = "long tier: builds the 3x4 table (seconds) and searches 10,000 states twice"]
fn pruned_idastar_finds_exact_distances_on_3x4() {
    let board = Board::new(3, 4).unwrap();
    check_pruning(
        board,
        11,
        &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10, 11]],
        10_000,
    );
}

#[test]
fn dual_search_finds_exact_lengths_on_3x3() {
    let board = Board::new(3, 3).unwrap();
    for blank in [0, 8] {
        check_dual(board, blank, &[&[1, 2, 3, 4], &[5, 6, 7, 8]], 10_000);
    }
    check_dual(board, 4, &[&[1, 3, 5], &[2, 4, 6], &[7, 8]], 10_000);
}

#[test]
#[ignore = "long tier: builds the 3x4 table (seconds) and searches 10,000 states"]
fn dual_search_finds_exact_lengths_on_3x4() {
    let board = Board::new(3, 4).unwrap();
    check_dual(board, 0, &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10, 11]], 10_000);
}
