//! One 3x3 table built many times on 1 and on 2 threads, alternately, each build timed on its
//! own: prints the minimum, the 10th percentile and the median wall time per thread count.
//!
//! Criterion averages many builds per sample, so on a shared machine every sample holds a few
//! preemptions and its mean measures the load; a single build (about 1 ms) often runs without
//! one, so the minimum and the low percentiles of single builds say what the generator costs,
//! and alternating the thread counts exposes both to the same load. Issue 26: 2 threads must
//! never be slower than 1.
//!
//! Run: `cargo build --release --example gen_threads` then
//! `target/release/examples/gen_threads [BUILDS]` (default 2000 per thread count).

use std::time::{Duration, Instant};

use npuzzle::generate::{distances, BuildOptions};
use npuzzle::{Board, RankSpace, State};

fn main() {
    let builds: usize = std::env::args()
        .nth(1)
        .map_or(2000, |n| n.parse().expect("builds: a number"));
    let board = Board::THREE_BY_THREE;
    let space = RankSpace::new(board).expect("3x3 ranks");
    let goal = State::goal(board);
    let pools: Vec<(usize, rayon::ThreadPool)> = [1, 2]
        .into_iter()
        .map(|t| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .expect("a small pool");
            (t, pool)
        })
        .collect();
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(builds); pools.len()];
    for _ in 0..builds {
        for ((_, pool), times) in pools.iter().zip(&mut times) {
            let start = Instant::now();
            let d = pool.install(|| distances(&space, &goal, BuildOptions::default()));
            times.push(start.elapsed());
            assert_eq!(d.counts.len(), 32, "3x3 reaches depth 31");
        }
    }
    for ((threads, _), times) in pools.iter().zip(&mut times) {
        times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "{threads} thread(s): min {:.3} ms  p10 {:.3} ms  median {:.3} ms  ({builds} builds)",
            ms(times[0]),
            ms(times[times.len() / 10]),
            ms(times[times.len() / 2]),
        );
    }
}
