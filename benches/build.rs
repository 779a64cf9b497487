//! Generator speed: one 3x3 table with 1, 2 (and more, where the machine has them) threads,
//! all nine tables, and three baselines measured in the same run: writing one byte per state
//! (memory), ranking every state from scratch, and computing every state's neighbours
//! incrementally (the ranking work a BFS cannot avoid without word-parallel moves).
//!
//! Run: `cargo bench --bench build`

// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use npuzzle::bfs::{distances, BuildOptions};
use npuzzle::{Board, RankSpace, State};

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
                .map(|s| space.index(black_box(s)) as u64)
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

criterion_group!(benches, build);
criterion_main!(benches);
