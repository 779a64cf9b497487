//! Generator speed: one 3x3 table with 1, 2 and all threads, all nine tables, and the baseline
//! cost of touching every state once (unrank + rank of each index), measured in the same run.
//!
//! Run: `cargo bench --bench build`

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
    // Baseline: the cost of visiting every index once with a full unrank and rank.
    group.bench_function("touch_every_state_unrank_rank", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for full in 0..space.full_len() {
                if full & 1 == 0 {
                    sum += space.full_index(&space.state_at(black_box(full))) as u64;
                }
            }
            sum
        })
    });
    // Baseline: the cost of visiting every full index's neighbours once (no BFS bookkeeping).
    group.bench_function("touch_every_state_neighbours", |b| {
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
    all.bench_function("parallel_over_goals", |b| {
        use rayon::prelude::*;
        b.iter(|| {
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
    });
    all.finish();
}

criterion_group!(benches, build);
criterion_main!(benches);
