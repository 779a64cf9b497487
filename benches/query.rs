//! Query speed: `distance` on random states, `solve` of random and 31-move states, against
//! the baseline of ranking alone, measured in the same run.
//!
//! Run: `cargo bench --bench query`

// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use npuzzle::rng::SplitMix64;
use npuzzle::{Board, BuildOptions, RankSpace, State, Table};

fn query(c: &mut Criterion) {
    let board = Board::THREE_BY_THREE;
    let goal = State::goal(board);
    let table = Table::build(&goal, BuildOptions::default()).expect("3x3 builds");
    let space = RankSpace::new(board).unwrap();
    let mut rng = SplitMix64::new(42);
    let states: Vec<State> = (0..4096)
        .map(|_| {
            space.unrank(
                (rng.next_u64() % space.states() as u64) as u32,
                goal.parity_class(),
            )
        })
        .collect();
    let hardest: State = "867254301".parse().unwrap();
    assert_eq!(table.distance(&hardest), Some(31));

    let mut group = c.benchmark_group("query_3x3");
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function("rank_only_4096_random", |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| space.index(black_box(s)) as u64)
                .sum::<u64>()
        })
    });
    group.bench_function("distance_4096_random", |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| table.distance(black_box(s)).unwrap() as u64)
                .sum::<u64>()
        })
    });
    group.finish();

    let mut solve = c.benchmark_group("solve_3x3");
    solve.bench_function("solve_31_moves_867254301", |b| {
        b.iter(|| table.solve(black_box(&hardest)).unwrap().len())
    });
    solve.bench_function("solve_moves_only_31_moves", |b| {
        b.iter(|| table.solve_moves(black_box(&hardest)).unwrap().len())
    });
    solve.throughput(Throughput::Elements(256));
    solve.bench_function("solve_256_random", |b| {
        b.iter(|| {
            states[..256]
                .iter()
                .map(|s| table.solve(black_box(s)).unwrap().len())
                .sum::<usize>()
        })
    });
    solve.finish();
}

criterion_group!(benches, query);
criterion_main!(benches);
