//! Generator speed: one 3x3 table with 1, 2 (and more, where the machine has them) threads,
//! all nine tables, and three baselines measured in the same run: writing one byte per state
//! (memory), ranking every state from scratch, and computing every state's neighbours
//! incrementally (the ranking work a BFS cannot avoid without word-parallel moves).
//!
//! The 3x4 table (239,500,800 states, 240 MB) and its deep check take seconds per run, so
//! they are measured only with `NPUZZLE_BENCH_12=1` in the environment (10 samples each).
//!
//! `metric_3x3`: the 3x3 STM table build against the MTM one (issue 28's target: within
//! 1.5x), and the deep check of each, alternated in one run.
//!
//! Run: `cargo bench --bench build` (3x3 only) or
//! `NPUZZLE_BENCH_12=1 cargo bench --bench build -- 3x4` (the 12-cell groups)

// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use npuzzle::generate::{distances, BuildOptions};
use npuzzle::{Board, RankSpace, State, Table};

fn build(c: &mut Criterion) {
    let board = Board::THREE_BY_THREE;
    let space = RankSpace::new(board).expect("3x3 ranks");
    let goal = State::goal(board);
    let reference = distances(&space, &goal, BuildOptions { threads: Some(1) });
    assert_eq!(reference.counts.len(), 32, "3x3 reaches depth 31");

    let mut group = c.benchmark_group("build_3x3");
    group.throughput(Throughput::Elements(space.states() as u64));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut threads: Vec<usize> = vec![1, 2, 4, 8, 16];
    threads.retain(|&t| t <= cores.max(2));
    for t in threads {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .unwrap();
        group.bench_with_input(BenchmarkId::new("one_table_threads", t), &t, |b, _| {
            b.iter(|| pool.install(|| distances(&space, black_box(&goal), BuildOptions::default())))
        });
    }
    // Baseline, memory: write one distance byte per state, in index order.
    group.bench_function("baseline_write_every_entry", |b| {
        let mut entries = vec![0u8; space.states() as usize];
        b.iter(|| {
            for (i, e) in entries.iter_mut().enumerate() {
                *e = black_box(i as u8);
            }
            entries[black_box(7)]
        })
    });
    // Baseline, ranking: rank every state once from scratch (states prepared outside).
    let all: Vec<State> = (0..space.states())
        .map(|i| space.unrank(i, goal.parity_class()))
        .collect();
    group.bench_function("baseline_rank_every_state", |b| {
        b.iter(|| {
            all.iter()
                .map(|s| space.rank_unchecked(black_box(s)) as u64)
                .sum::<u64>()
        })
    });
    // Baseline: the cost of visiting every full index's neighbours once (no BFS bookkeeping).
    group.bench_function("baseline_neighbours_of_every_state", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for full in (0..space.full_len()).step_by(2) {
                space.for_each_neighbour(black_box(full), |_, n| sum += n as u64);
            }
            sum
        })
    });
    group.finish();

    let mut all = c.benchmark_group("build_all_nine_3x3");
    all.sample_size(20);
    for t in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .unwrap();
        all.bench_with_input(
            BenchmarkId::new("nine_generators_in_one_pool_threads", t),
            &t,
            |b, _| {
                use rayon::prelude::*;
                b.iter(|| {
                    pool.install(|| {
                        (0..9)
                            .into_par_iter()
                            .map(|blank| {
                                let goal = State::canonical_goal(board, blank);
                                distances(&space, &goal, BuildOptions { threads: Some(1) })
                                    .counts
                                    .len()
                            })
                            .sum::<usize>()
                    })
                })
            },
        );
    }
    all.finish();
}

/// The 3x3 table build and deep check in each metric, side by side in one group.
fn metric(c: &mut Criterion) {
    let goal = State::goal(Board::THREE_BY_THREE);
    let mut group = c.benchmark_group("metric_3x3");
    group.throughput(Throughput::Elements(181_440));
    group.bench_function("stm_build", |b| {
        b.iter(|| Table::build(black_box(&goal), BuildOptions::default()))
    });
    group.bench_function("mtm_build", |b| {
        b.iter(|| npuzzle::mtm::build_table(black_box(&goal), BuildOptions::default()))
    });
    let stm = Table::build(&goal, BuildOptions::default()).expect("3x3 ranks");
    let mtm = npuzzle::mtm::build_table(&goal, BuildOptions::default()).expect("3x3 ranks");
    assert_eq!(mtm.first_inconsistent_entry(), None);
    group.bench_function("stm_deep_check", |b| {
        b.iter(|| black_box(&stm).first_inconsistent_entry())
    });
    group.bench_function("mtm_deep_check", |b| {
        b.iter(|| black_box(&mtm).first_inconsistent_entry())
    });
    group.finish();
}

/// The deep consistency check of a valid 3x3 table, and of the 3x4 table when enabled.
fn deep_check(c: &mut Criterion) {
    let mut group = c.benchmark_group("deep_check");
    let goal = State::goal(Board::THREE_BY_THREE);
    let table = Table::build(&goal, BuildOptions::default()).expect("3x3 ranks");
    assert_eq!(table.first_inconsistent_entry(), None);
    group.throughput(Throughput::Elements(table.header().entries));
    for t in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .unwrap();
        group.bench_with_input(BenchmarkId::new("3x3_threads", t), &t, |b, _| {
            b.iter(|| pool.install(|| black_box(&table).first_inconsistent_entry()))
        });
    }
    group.finish();
    if std::env::var_os("NPUZZLE_BENCH_12").is_none() {
        return;
    }
    let goal = State::goal(Board::new(3, 4).expect("3x4 is a board"));
    let table = Table::build(&goal, BuildOptions::default()).expect("3x4 ranks");
    let mut group = c.benchmark_group("deep_check_3x4");
    group.sample_size(10);
    group.throughput(Throughput::Elements(table.header().entries));
    for t in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .unwrap();
        group.bench_with_input(BenchmarkId::new("threads", t), &t, |b, _| {
            b.iter(|| pool.install(|| black_box(&table).first_inconsistent_entry()))
        });
    }
    group.finish();
}

/// One 3x4 table (12 cells, 53 layers) on 1 and 2 threads, only with `NPUZZLE_BENCH_12=1`.
fn build_3x4(c: &mut Criterion) {
    if std::env::var_os("NPUZZLE_BENCH_12").is_none() {
        return;
    }
    let board = Board::new(3, 4).expect("3x4 is a board");
    let space = RankSpace::new(board).expect("12 cells rank");
    let goal = State::goal(board);
    let mut group = c.benchmark_group("build_3x4");
    group.sample_size(10);
    group.throughput(Throughput::Elements(space.states() as u64));
    for t in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .unwrap();
        group.bench_with_input(BenchmarkId::new("one_table_threads", t), &t, |b, _| {
            b.iter(|| {
                pool.install(|| distances(&space, black_box(&goal), BuildOptions::default()))
                    .counts
                    .len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, build, metric, build_3x4, deep_check);
criterion_main!(benches);
