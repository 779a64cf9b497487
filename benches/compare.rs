//! Side by side on one fixed, seeded set of 3x3 instances (random ones plus states at depths
//! 25..=31): the table's `distance` and `solve`, npuzzle's own A* and IDA* (Manhattan), and the
//! A* and IDA* of the `pathfinding` crate with a Manhattan heuristic written as a competent
//! user would.
//!
//! Run: `cargo bench --bench compare`. Per-instance times are the group time divided by
//! the instance count (criterion's throughput line, "elem/s", gives instances per second).

// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use npuzzle::heuristic::Manhattan;
use npuzzle::rng::SplitMix64;
use npuzzle::search::{astar, idastar, Limits};
use npuzzle::{Board, BuildOptions, RankSpace, State, Table};

/// The benchmark's instances: 24 uniformly random states and two at each depth 25..=31.
pub fn instances(table: &Table<Vec<u8>>) -> Vec<State> {
    let space = RankSpace::new(Board::THREE_BY_THREE).unwrap();
    let class = table.goal().parity_class();
    let mut rng = SplitMix64::new(2026);
    let mut states: Vec<State> = (0..24)
        .map(|_| space.unrank((rng.next_u64() % space.states() as u64) as u32, class))
        .collect();
    for depth in 25..=31u8 {
        let at_depth: Vec<u32> = (0..space.states())
            .filter(|&i| table.entries().unwrap()[i as usize] == depth)
            .collect();
        for _ in 0..2 {
            let pick = at_depth[(rng.next_u64() % at_depth.len() as u64) as usize];
            states.push(space.unrank(pick, class));
        }
    }
    states
}

/// Manhattan distance to the default goal, as a user of a generic search library writes it.
fn manhattan(state: &State) -> u32 {
    let w = state.board().width();
    let n = state.board().cells();
    state
        .cells()
        .iter()
        .enumerate()
        .filter(|(_, &t)| t != 0)
        .map(|(cell, &t)| {
            let home = (t as usize + n - 1) % n; // tile t belongs in cell t-1
            ((cell / w).abs_diff(home / w) + (cell % w).abs_diff(home % w)) as u32
        })
        .sum()
}

fn successors(state: &State) -> Vec<(State, u32)> {
    state.successors().map(|(_, next)| (next, 1)).collect()
}

fn compare(c: &mut Criterion) {
    let goal = State::goal(Board::THREE_BY_THREE);
    let table = Table::build(&goal, BuildOptions::default()).unwrap();
    let states = instances(&table);
    // Check the answers once, outside the timed loops: every solver is optimal here.
    for s in &states {
        let exact = table.distance(s).unwrap().unwrap() as u32;
        let (_, cost) =
            pathfinding::prelude::astar(s, successors, manhattan, |x| *x == goal).unwrap();
        assert_eq!(cost, exact, "pathfinding A* on {s}");
    }

    let mut group = c.benchmark_group("compare_3x3");
    group.throughput(Throughput::Elements(states.len() as u64));
    group.sample_size(10);
    group.bench_function("table_distance", |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| table.distance(black_box(s)).unwrap().unwrap() as u32)
                .sum::<u32>()
        })
    });
    group.bench_function("table_solve", |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| table.solve(black_box(s)).unwrap().unwrap().len())
                .sum::<usize>()
        })
    });
    let h = Manhattan::new(&goal);
    let own_len = |result: npuzzle::search::SearchResult| result.solution().unwrap().len();
    for s in &states {
        let exact = table.distance(s).unwrap().unwrap() as usize;
        assert_eq!(own_len(astar(s, &h, Limits::default())), exact);
        assert_eq!(own_len(idastar(s, &h, Limits::default())), exact);
    }
    group.bench_function("npuzzle_astar_manhattan", |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| own_len(astar(black_box(s), &h, Limits::default())))
                .sum::<usize>()
        })
    });
    group.bench_function("npuzzle_idastar_manhattan", |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| own_len(idastar(black_box(s), &h, Limits::default())))
                .sum::<usize>()
        })
    });
    group.bench_function("pathfinding_astar_manhattan", |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| {
                    pathfinding::prelude::astar(black_box(s), successors, manhattan, |x| *x == goal)
                        .unwrap()
                        .1
                })
                .sum::<u32>()
        })
    });
    group.bench_function("pathfinding_idastar_manhattan", |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| {
                    pathfinding::prelude::idastar(black_box(s), successors, manhattan, |x| {
                        *x == goal
                    })
                    .unwrap()
                    .1
                })
                .sum::<u32>()
        })
    });
    group.finish();
}

criterion_group!(benches, compare);
criterion_main!(benches);
