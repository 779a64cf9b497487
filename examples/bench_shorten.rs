//! Path shortening on Korf and Felner's fifty 24-puzzles (BENCHMARKS.md, "Fast solutions",
//! branch b28): each instance solved by weighted IDA* with the factor `W` on the 6-6-6-6
//! databases of `DIR` (Korf's goal), then shortened (`npuzzle::search::shorten`) by windows
//! of each size in `WINDOWS` in turn, each call allowed `CAP` expansions; prints the
//! estimate at the start, the fast path's and the shortened path's lengths against the
//! published optimum, and the wall time (the path is checked to end at the goal).
//!
//! ```text
//! cargo run --release --example bench_shorten -- DIR 1.5 16,24,32,40,48 20000000
//! ```

use npuzzle::answer::{DataDir, Oracle};
use npuzzle::heuristic::Heuristic;
use npuzzle::instance_set::parse_instances;
use npuzzle::search::{shorten, weighted_idastar};
use npuzzle::{Board, Factor, Limits, State};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, w, windows, cap] = &args[..] else {
        return Err("usage: bench_shorten DIR W WINDOWS CAP".into());
    };
    let w: Factor = w.parse()?;
    let windows: Vec<usize> = windows
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let cap: u64 = cap.parse()?;
    let board = Board::new(5, 5)?;
    let goal = State::canonical_goal(board, 0);
    let text = std::fs::read_to_string("data/korf50_24.txt")?;
    let set = parse_instances(&text, board)?;
    let oracle = Oracle::new(DataDir::new(dir));
    let found = oracle
        .pattern_databases(&goal)?
        .ok_or("no pattern databases for Korf's 5x5 goal in DIR")?;
    let (h, _) = &*found;
    let (mut r0, mut r1, mut n) = (0.0, 0.0, 0.0);
    for i in &set {
        let opt = i.published.unwrap() as f64;
        let h0 = h.estimate(&i.start);
        let t = Instant::now();
        let first = weighted_idastar(&i.start, h, w, Limits::NONE);
        let first = first.solution().unwrap().clone();
        let t1 = t.elapsed();
        let mut s = first.clone();
        for &win in &windows {
            s = shorten(&s, h, win, Limits::NONE.nodes(cap));
        }
        let t2 = t.elapsed();
        assert_eq!(s.end(), goal);
        println!(
            "#{} opt {} h0 {} ({:.3}) first {} ({:.3}) {:.1} ms shortened {} ({:.3}) {:.1} ms",
            i.id,
            opt,
            h0,
            h0 as f64 / opt,
            first.len(),
            first.len() as f64 / opt,
            t1.as_secs_f64() * 1e3,
            s.len(),
            s.len() as f64 / opt,
            t2.as_secs_f64() * 1e3
        );
        r0 += first.len() as f64 / opt;
        r1 += s.len() as f64 / opt;
        n += 1.0;
    }
    println!("mean first {:.3} shortened {:.3}", r0 / n, r1 / n);
    Ok(())
}
