//! Bounded-suboptimal search on Korf and Felner's fifty 24-puzzles (BENCHMARKS.md): weighted
//! IDA* on the 6-6-6-6 pattern databases of `--data-dir` (Korf's goal, blank first), for each
//! factor, with a time limit per instance; prints each instance's length against the
//! published optimum and its time, then a summary of what finished. Every length is checked
//! against factor x optimum.
//!
//! ```text
//! cargo run --release --example bench_bounded -- --data-dir DIR --limit-s 10 1.1 1.2 1.5
//! ```

use std::time::Duration;

use npuzzle::answer::{DataDir, Oracle};
use npuzzle::instance_set::parse_instances;
use npuzzle::{Board, Factor, Guarantee, How, Limits, State};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (mut dir, mut limit, mut factors) = (None, 10.0f64, Vec::new());
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--data-dir" => dir = Some(args.next().ok_or("--data-dir DIR")?),
            "--limit-s" => limit = args.next().ok_or("--limit-s S")?.parse()?,
            factor => factors.push(factor.parse::<Factor>()?),
        }
    }
    let board = Board::new(5, 5)?;
    let text = std::fs::read_to_string("data/korf50_24.txt")?;
    let set = parse_instances(&text, board)?;
    let goal = State::canonical_goal(board, 0);
    let oracle = Oracle::new(DataDir::new(dir.ok_or("--data-dir DIR")?));
    for factor in factors {
        let how = How::within(Limits::NONE.time(Duration::from_secs_f64(limit)))
            .with_guarantee(Guarantee::Within(factor));
        let (mut solved, mut seconds, mut ratio_sum, mut ratio_worst) = (0, 0.0, 0.0, 0f64);
        let mut times = Vec::new();
        for instance in &set {
            let answer = oracle.solve(&instance.start, &goal, how)?;
            let optimum = instance.published.ok_or("no published length")? as usize;
            match &answer.value {
                Ok(solution) => {
                    assert_eq!(solution.end(), goal);
                    assert!(factor.allows(solution.len(), optimum), "{}", instance.id);
                    let ratio = solution.len() as f64 / optimum as f64;
                    solved += 1;
                    seconds += answer.elapsed.as_secs_f64();
                    times.push(answer.elapsed.as_secs_f64());
                    ratio_sum += ratio;
                    ratio_worst = ratio_worst.max(ratio);
                    println!(
                        "w {factor} #{}: {} moves (optimum {optimum}), {:.3} s, {} nodes",
                        instance.id,
                        solution.len(),
                        answer.elapsed.as_secs_f64(),
                        answer.generated
                    );
                }
                Err(why) => println!(
                    "w {factor} #{}: no answer within {limit} s ({why})",
                    instance.id
                ),
            }
        }
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).copied().unwrap_or(f64::NAN);
        println!(
            "SUMMARY w {factor}: {solved}/{} solved within {limit} s each; total {seconds:.2} s, median {:.1} ms; length / optimum mean {:.3} worst {:.3}",
            set.len(),
            median * 1e3,
            ratio_sum / f64::from(solved.max(1)),
            ratio_worst
        );
    }
    Ok(())
}
