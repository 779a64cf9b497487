//! IDA* with additive pattern databases on Korf's 15-puzzles (and the 24-puzzle when asked):
//! the fast tier builds 6-6-3 in memory (seconds) and solves the ten easiest of Korf's 100,
//! checking the published optimal lengths. The long tier (`cargo test --test search_pdb --
//! --ignored`) adds all 100: about 15 s on two cores, so `.ci/run` runs it after `cargo test`.

mod references;

use std::ops::ControlFlow;
use std::sync::{Arc, OnceLock};

use npuzzle::heuristic::PatternHeuristic;
use npuzzle::pattern::{Partition, PatternDatabase};
use npuzzle::search::{self, Algorithm};
use npuzzle::store::StoredBytes;
use npuzzle::{Board, Heuristic, Limits, State};

fn heuristic(goal: &State, partition: Partition, reflect: bool) -> PatternHeuristic {
    let dbs = partition
        .groups(goal)
        .expect("a corner goal")
        .iter()
        .map(|tiles| {
            let db = PatternDatabase::build(goal, tiles, &|_| ControlFlow::Continue(())).unwrap();
            Arc::new(db.map_into::<StoredBytes>())
        })
        .collect();
    PatternHeuristic::new(goal, dbs, reflect).unwrap()
}

/// The 6-6-3 databases for Korf's goal, with reflection, built once for this test binary.
fn korf_6_6_3() -> &'static PatternHeuristic {
    static H: OnceLock<PatternHeuristic> = OnceLock::new();
    H.get_or_init(|| {
        let goal = State::canonical_goal(Board::new(4, 4).unwrap(), 0);
        heuristic(&goal, Partition::SixSixThree, true)
    })
}

fn solve_korf(count: usize, h: &PatternHeuristic) {
    let goal = *h.goal();
    let (mut nodes, mut time) = (0u64, 0f64);
    for instance in references::easiest(references::korf100(), count) {
        let start = instance.start;
        assert_eq!(instance.goal, goal);
        let result = search::run_with(Algorithm::IdaStar, h, &start, Limits::default());
        let solution = result.solution().expect("solvable, no limit");
        assert_eq!(
            solution.len(),
            instance.optimal as usize,
            "{}",
            instance.start
        );
        assert_eq!(solution.end(), goal);
        nodes += result.expanded;
        time += result.elapsed.as_secs_f64();
    }
    eprintln!(
        "{count} instances, {}: {nodes} expanded in {time:.2} s",
        h.describe()
    );
}

#[test]
fn idastar_with_6_6_3_solves_the_ten_easiest_korf_instances_optimally() {
    solve_korf(10, korf_6_6_3());
}

#[test]
fn the_6_6_3_bound_never_exceeds_the_published_optimum_and_reflection_only_raises_it() {
    let goal = State::canonical_goal(Board::new(4, 4).unwrap(), 0);
    let plain = heuristic(&goal, Partition::SixSixThree, false);
    let reflected = korf_6_6_3();
    assert!(!plain.is_reflected() && reflected.is_reflected());
    let mut raised = 0;
    for instance in references::korf100() {
        let start = instance.start;
        let (a, b) = (plain.estimate(&start), reflected.estimate(&start));
        assert!(a <= b && b <= instance.optimal, "{}", instance.start);
        assert_eq!(b % 2, instance.optimal % 2);
        raised += (b > a) as u32;
    }
    assert!(raised > 0, "reflection never helped on 100 instances");
}

#[test]
#[ignore = "long tier: all 100 Korf instances (about 15 s; CI runs it); run with -- --ignored"]
fn long_tier_all_100_korf_instances_with_6_6_3() {
    solve_korf(100, korf_6_6_3());
}
