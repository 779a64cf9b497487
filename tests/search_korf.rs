//! Korf's 100 random 15-puzzle instances (data/korf100.txt): IDA* with linear conflict solves
//! the easiest ones optimally (the rest are in `benches/search.rs`), and Manhattan distance
//! matches the file's published initial estimate on all 100.

mod references;

use npuzzle::heuristic::{LinearConflict, Manhattan};
use npuzzle::search::idastar;
use npuzzle::{Board, Heuristic, Limits, State};
use references::korf100 as instances;

/// Korf's goal puts the blank first: 0 1 2 ... 15.
fn korf_goal() -> State {
    State::canonical_goal(Board::new(4, 4).unwrap(), 0)
}

#[test]
fn the_file_holds_100_solvable_instances_and_manhattan_matches_its_estimates() {
    let instances = instances();
    assert_eq!(instances.len(), 100);
    assert_eq!(instances.iter().map(|i| i.optimal).sum::<u32>(), 5305);
    let goal = korf_goal();
    let manhattan = Manhattan::new(&goal);
    let lc = LinearConflict::new(&goal);
    for instance in &instances {
        assert!(instance.start.can_reach(&goal), "instance {}", instance.id);
        assert_eq!(
            manhattan.estimate(&instance.start),
            instance.manhattan,
            "{}",
            instance.id
        );
        assert_eq!(instance.goal, goal);
        let bound = lc.estimate(&instance.start);
        assert!(bound <= instance.optimal && bound % 2 == instance.optimal % 2);
    }
}

#[test]
fn idastar_with_linear_conflict_solves_the_easiest_instances_optimally() {
    let mut instances = instances();
    // The easiest by Korf's own IDA* node counts: 79, 12, 42, 55, 97.
    instances.sort_by_key(|i| i.nodes);
    let goal = korf_goal();
    let lc = LinearConflict::new(&goal);
    for instance in &instances[..5] {
        let result = idastar(&instance.start, &lc, Limits::default());
        let solution = result.solution().expect("solvable, no limit");
        assert_eq!(
            solution.len(),
            instance.optimal as usize,
            "instance {}",
            instance.id
        );
        assert_eq!(solution.end(), goal);
        eprintln!(
            "instance {}: {} moves, {} expanded in {:?}",
            instance.id, instance.optimal, result.expanded, result.elapsed
        );
    }
}
