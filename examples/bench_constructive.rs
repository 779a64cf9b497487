//! The constructive solver's lengths and times on random boards (BENCHMARKS.md, "Fast
//! solutions"): for each board, `COUNT` uniform random solvable states (seeded), solved and
//! replayed; the mean and worst length and the mean and worst time. On 4x4 the optimum of
//! each board too, by IDA* on the pattern databases of `--data-dir` (6-6-3 or 7-8).
//!
//! ```text
//! cargo run --release --example bench_constructive -- --count 1000 --data-dir DIR 4x4 5x5 10x10 32x32
//! ```

use std::time::Instant;

use npuzzle::answer::{DataDir, Oracle};
use npuzzle::large::{scramble_uniform, solve_constructive, LargeBoard, LargeState};
use npuzzle::rng::SplitMix64;
use npuzzle::{How, Limits};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (mut count, mut dir, mut boards) = (1000usize, None, Vec::new());
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--count" => count = args.next().ok_or("--count N")?.parse()?,
            "--data-dir" => dir = Some(args.next().ok_or("--data-dir DIR")?),
            board => boards.push(board.parse::<LargeBoard>()?),
        }
    }
    for board in boards {
        let goal = LargeState::goal(board);
        let mut rng = SplitMix64::new(2026);
        let (mut total, mut worst, mut total_s, mut worst_s) = (0usize, 0usize, 0f64, 0f64);
        let (mut ratio_total, mut ratio_worst, mut optimum_total) = (0f64, 0f64, 0usize);
        // The board that took longest, kept to be timed again alone: a worst time that is a
        // scheduling stall (a shared, loaded machine) does not come back, the solver's own
        // worst does.
        let mut slowest: Option<LargeState> = None;
        let mut times = Vec::with_capacity(count);
        let oracle = match (&dir, board.to_small()) {
            (Some(dir), Some(b)) if b.cells() == 16 => Some(Oracle::new(DataDir::new(dir))),
            _ => None,
        };
        for _ in 0..count {
            let start = scramble_uniform(&goal, &mut rng);
            let began = Instant::now();
            let moves = solve_constructive(&start, &goal)?;
            let took = began.elapsed().as_secs_f64();
            assert_eq!(start.after(&moves).map_err(|i| format!("move {i}"))?, goal);
            total += moves.len();
            worst = worst.max(moves.len());
            total_s += took;
            times.push(took);
            if took > worst_s {
                worst_s = took;
                slowest = Some(start.clone());
            }
            if let Some(oracle) = &oracle {
                let (small, small_goal) = (start.to_small().unwrap(), goal.to_small().unwrap());
                let exact = oracle
                    .distance(&small, &small_goal, How::within(Limits::NONE))?
                    .value?;
                let ratio = moves.len() as f64 / f64::from(exact.max(1));
                ratio_total += ratio;
                ratio_worst = ratio_worst.max(ratio);
                optimum_total += usize::from(exact);
            }
        }
        let n = count as f64;
        print!(
            "{board}: {count} boards; length mean {:.1} worst {worst}; time mean {:.3} ms worst {:.3} ms",
            total as f64 / n,
            total_s / n * 1e3,
            worst_s * 1e3
        );
        times.sort_by(f64::total_cmp);
        print!(
            "; median {:.3} ms, p99 {:.3} ms",
            times[times.len() / 2] * 1e3,
            times[times.len() * 99 / 100] * 1e3
        );
        if let Some(slowest) = &slowest {
            let again = (0..20)
                .map(|_| {
                    let began = Instant::now();
                    let moves = solve_constructive(slowest, &goal).expect("solved before");
                    std::hint::black_box(moves);
                    began.elapsed().as_secs_f64()
                })
                .fold(f64::INFINITY, f64::min);
            print!(
                "; the slowest board again, best of 20: {:.3} ms",
                again * 1e3
            );
        }
        if oracle.is_some() {
            print!(
                "; optimum mean {:.1}; length / optimum mean {:.2} worst {:.2}",
                optimum_total as f64 / n,
                ratio_total / n,
                ratio_worst
            );
        }
        println!();
    }
    Ok(())
}
