//! Pattern databases on the 15-puzzle (Korf's goal, blank first), each figure beside a
//! baseline measured in the same run.
//!
//! `cargo bench --bench pdb` runs:
//! - `pdb_step/*`: the heuristic's estimate after one move, over the same seeded random walk
//!   of 100,000 moves (throughput: moves). `step_6_6_3_reflected` carries the node (each
//!   pattern's rank) from move to move, as IDA* does; `from_scratch_6_6_3_reflected` computes
//!   each estimate anew (every pattern ranked, plain and reflected: what a lookup cost before
//!   ranks were carried); `step_linear_conflict` is the cheapest informed heuristic's step,
//!   for scale. Before timing, every carried estimate is checked against the one from scratch.
//! - `pdb_korf/*`: IDA* on fixed sets of Korf's 100, each answer checked against the
//!   published optimal length first (throughput: instances). `easiest_10_6_6_3` and
//!   `easiest_10_linear_conflict`: the ten that Korf's 1985 IDA* solved with the fewest
//!   nodes, with the databases and with linear conflict. `first_10_6_6_3` and
//!   `first_10_6_6_3_plain`: instances 1 to 10 in file order, with and without the reflected
//!   lookup.
//! - `pdb_build/*`: building the 6-6-3 databases in memory on every core, beside 5-5-5.
//!
//! The databases are built once in memory before anything is timed (a few seconds).

#![allow(missing_docs)] // criterion_group! defines an undocumented public function

use std::hint::black_box;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

// Korf's 100 come from the tests' loader (the library's instance-set parser), so benches and
// tests read data/korf100.txt one way.
#[path = "../tests/references/mod.rs"]
mod references;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use npuzzle::heuristic::{LinearConflict, PatternHeuristic};
use npuzzle::pattern::{Partition, PatternDatabase};
use npuzzle::search::idastar;
use npuzzle::store::StoredBytes;
use npuzzle::{Board, Heuristic, Limits, Move, State};
use references::{easiest, korf100, Published};

const SEED: u64 = 0x5eed_0663;
const WALK: usize = 100_000;

fn goal() -> State {
    State::canonical_goal(Board::new(4, 4).expect("4x4"), 0)
}

/// The 6-6-3 databases for `goal`, as the plain and the reflected heuristic over the same
/// tables.
fn six_six_three(goal: &State) -> (PatternHeuristic, PatternHeuristic) {
    let dbs: Vec<_> = Partition::SixSixThree
        .groups(goal)
        .expect("a corner goal")
        .iter()
        .map(|tiles| {
            let db = PatternDatabase::build(goal, tiles, &|_| ControlFlow::Continue(()))
                .expect("a pattern of the board");
            Arc::new(db.map_into::<StoredBytes>())
        })
        .collect();
    let reflected = PatternHeuristic::new(goal, dbs.clone(), true).expect("disjoint");
    let plain = PatternHeuristic::new(goal, dbs, false).expect("disjoint");
    (reflected, plain)
}

/// One move of the walk: the state after it, the tile moved, its old and new cell.
struct Step {
    after: State,
    tile: u8,
    from: usize,
    to: usize,
}

/// A seeded random walk from the goal that never undoes its last move.
fn random_walk(goal: &State, moves: usize) -> Vec<Step> {
    let mut seed = SEED;
    let mut state = *goal;
    let mut last: Option<Move> = None;
    let mut walk = Vec::with_capacity(moves);
    while walk.len() < moves {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let mv = Move::ALL[(seed >> 62) as usize];
        if last.is_some_and(|l| l.inverse() == mv) {
            continue;
        }
        let Some(after) = state.apply(mv) else {
            continue;
        };
        let (from, to) = (after.blank(), state.blank());
        walk.push(Step {
            tile: after.cells()[to],
            after,
            from,
            to,
        });
        state = after;
        last = Some(mv);
    }
    walk
}

/// Walks `h` over `walk` by steps and returns the sum of the estimates.
fn carried<H: Heuristic>(h: &H, goal: &State, walk: &[Step]) -> u64 {
    let (mut node, _) = h.start(goal.cells());
    let mut sum = 0u64;
    for step in walk {
        let (next, estimate) = h.step(&node, step.after.cells(), step.tile, step.from, step.to);
        node = next;
        sum += estimate as u64;
    }
    sum
}

fn step(c: &mut Criterion) {
    let goal = goal();
    let (pdb, _) = six_six_three(&goal);
    let lc = LinearConflict::new(&goal);
    let walk = random_walk(&goal, WALK);
    // Checked once: the carried estimates are the estimates from scratch.
    let (mut node, _) = pdb.start(goal.cells());
    for step in &walk {
        let (next, estimate) = pdb.step(&node, step.after.cells(), step.tile, step.from, step.to);
        assert_eq!(estimate, pdb.estimate(&step.after), "{}", step.after);
        node = next;
    }

    let mut group = c.benchmark_group("pdb_step");
    group.throughput(Throughput::Elements(walk.len() as u64));
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("step_6_6_3_reflected", |b| {
        b.iter(|| black_box(carried(&pdb, &goal, black_box(&walk))))
    });
    group.bench_function("from_scratch_6_6_3_reflected", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for step in black_box(&walk) {
                sum += pdb.estimate_cells(step.after.cells()) as u64;
            }
            black_box(sum)
        })
    });
    group.bench_function("step_linear_conflict", |b| {
        b.iter(|| black_box(carried(&lc, &goal, black_box(&walk))))
    });
    group.finish();
}

/// Solves every instance once with `h`, checking the optimal lengths; returns the nodes.
fn check<H: Heuristic>(h: &H, set: &[Published]) -> u64 {
    set.iter()
        .map(|k| {
            let result = idastar(&k.start, h, Limits::default());
            assert_eq!(
                u32::try_from(result.solution().expect("solvable").len()).ok(),
                Some(k.optimal),
                "instance {}",
                k.id
            );
            result.expanded
        })
        .sum()
}

/// The timed loop: IDA* on every instance of `set`.
fn solve<H: Heuristic>(h: &H, set: &[Published]) {
    for k in set {
        black_box(idastar(black_box(&k.start), h, Limits::default()));
    }
}

fn korf(c: &mut Criterion) {
    let goal = goal();
    let (pdb, plain) = six_six_three(&goal);
    let lc = LinearConflict::new(&goal);
    let instances = korf100();
    let first: Vec<_> = instances[..10].to_vec();
    let easiest = easiest(instances, 10);
    eprintln!(
        "nodes expanded per run: easiest 10: 6-6-3 {}, linear conflict {}; first 10: 6-6-3 {}, 6-6-3 plain {}",
        check(&pdb, &easiest),
        check(&lc, &easiest),
        check(&pdb, &first),
        check(&plain, &first),
    );

    let mut group = c.benchmark_group("pdb_korf");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Elements(10));
    group.bench_function("easiest_10_6_6_3", |b| b.iter(|| solve(&pdb, &easiest)));
    group.bench_function("easiest_10_linear_conflict", |b| {
        b.iter(|| solve(&lc, &easiest))
    });
    group.bench_function("first_10_6_6_3", |b| b.iter(|| solve(&pdb, &first)));
    group.bench_function("first_10_6_6_3_plain", |b| b.iter(|| solve(&plain, &first)));
    group.finish();
}

fn build(c: &mut Criterion) {
    let goal = goal();
    let mut group = c.benchmark_group("pdb_build");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(1));
    group.measurement_time(Duration::from_secs(10));
    for partition in [Partition::FiveFiveFive, Partition::SixSixThree] {
        let groups = partition.groups(&goal).expect("a corner goal");
        group.bench_function(partition.name(), |b| {
            b.iter(|| {
                for tiles in &groups {
                    black_box(
                        PatternDatabase::build(&goal, tiles, &|_| ControlFlow::Continue(()))
                            .expect("a pattern of the board"),
                    );
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, step, korf, build);
criterion_main!(benches);
