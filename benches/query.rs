//! Query speed: `distance` on random states, the bulk path over a million rows of bytes,
//! `solve` of random and 31-move states, against the baseline of ranking alone, measured in
//! the same run.
//!
//! Run: `cargo bench --bench query`

// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use npuzzle::rng::SplitMix64;
use npuzzle::sample::{sample, SampleOptions};
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
    assert_eq!(table.distance(&hardest).unwrap(), Some(31));

    let mut group = c.benchmark_group("query_3x3");
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function("rank_only_4096_random", |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| space.rank_unchecked(black_box(s)) as u64)
                .sum::<u64>()
        })
    });
    group.bench_function("distance_4096_random", |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| table.distance(black_box(s)).unwrap().unwrap() as u64)
                .sum::<u64>()
        })
    });
    group.finish();

    // The bulk path behind Python's `distances`: a million random states (both classes) as
    // rows of bytes, through the bit-mask check, the rank and the read of a deep-checked
    // table, on one thread (per row, comparable with the rank alone above) and on the pool.
    let count = 1_000_000;
    let rows: Vec<u8> = (0..count)
        .flat_map(|_| {
            let full = (rng.next_u64() % space.full_len() as u64) as u32;
            space.state_at(full).cells().to_vec()
        })
        .collect();
    table.verify_deep().expect("a sound table");
    let mut out = vec![0u8; count];
    table.distances_to_checked(&rows, &goal, &mut out).unwrap();
    for (tiles, &d) in rows.chunks_exact(9).zip(&out).step_by(997) {
        let state = State::from_row(board, tiles).unwrap();
        assert_eq!(table.distance(&state).unwrap().unwrap_or(u8::MAX), d);
    }
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool of one thread");
    let mut bulk = c.benchmark_group("rows_3x3");
    bulk.throughput(Throughput::Elements(count as u64));
    bulk.sample_size(20);
    bulk.bench_function("distances_to_checked_1m_rows_1_thread", |b| {
        b.iter(|| {
            one_thread.install(|| table.distances_to_checked(black_box(&rows), &goal, &mut out))
        })
    });
    bulk.bench_function("distances_to_checked_1m_rows_all_threads", |b| {
        b.iter(|| table.distances_to_checked(black_box(&rows), &goal, &mut out))
    });
    bulk.finish();

    let mut solve = c.benchmark_group("solve_3x3");
    solve.bench_function("solve_31_moves_867254301", |b| {
        b.iter(|| table.solve(black_box(&hardest)).unwrap().unwrap().len())
    });
    solve.bench_function("solve_moves_only_31_moves", |b| {
        b.iter(|| {
            table
                .solve_moves(black_box(&hardest))
                .unwrap()
                .unwrap()
                .len()
        })
    });
    solve.throughput(Throughput::Elements(256));
    solve.bench_function("solve_256_random", |b| {
        b.iter(|| {
            states[..256]
                .iter()
                .map(|s| table.solve(black_box(s)).unwrap().unwrap().len())
                .sum::<usize>()
        })
    });
    solve.finish();

    // The instance set slidy 0.7's `Solver3x3Stm` was timed on (BENCHMARKS.md, "Against
    // slidy"): what `npuzzle sample --seed 2026` prints with `--count 200 --min-depth 20`
    // and with `--count 50 --depth 31`.
    let drawn = |count: u64, depths: std::ops::RangeInclusive<u8>| {
        let options = SampleOptions {
            count,
            depths,
            unsolvable: 0,
        };
        sample(&table, &goal, &options, 2026)
            .expect("valid options")
            .map(|instance| instance.start)
            .collect::<Vec<State>>()
    };
    let mut same = drawn(200, 20..=u8::MAX);
    same.extend(drawn(50, 31..=31));
    let mut versus = c.benchmark_group("vs_slidy_same_250_instances");
    versus.throughput(Throughput::Elements(same.len() as u64));
    versus.bench_function("solve_each", |b| {
        b.iter(|| {
            same.iter()
                .map(|s| table.solve(black_box(s)).unwrap().unwrap().len())
                .sum::<usize>()
        })
    });
    versus.finish();
}

criterion_group!(benches, query);
criterion_main!(benches);
