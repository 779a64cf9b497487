//! Asks `Oracle::distance` for every 3x3 state, ROUNDS times, in one metric, and nothing else:
//! a loop to run under `perf stat` (task-clock, instructions), so that the cost of one metric's
//! checked read is the difference between a run of ROUNDS and a run of 0 (the table's build
//! and the process are the same in both).
//!
//! `cargo build --release --example distance_loop && perf stat -e task-clock,instructions
//! ./target/release/examples/distance_loop mtm 20`

use std::time::Instant;

use npuzzle::metric::Metric;
use npuzzle::{Board, How, Oracle, RankSpace, State};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let metric: Metric = args.get(1).map_or("stm", String::as_str).parse()?;
    let rounds: usize = args.get(2).map_or(Ok(10), |a| a.parse())?;
    let goal = State::goal(Board::THREE_BY_THREE);
    let space = RankSpace::new(goal.board())?;
    let states: Vec<State> = (0..space.states())
        .map(|i| space.unrank(i, goal.parity_class()))
        .collect();
    let oracle = Oracle::in_memory();
    let how = How::default().in_metric(metric);
    oracle.distance(&goal, &goal, how)?; // builds the table
    let began = Instant::now();
    let mut sum = 0u64;
    for _ in 0..rounds {
        for s in &states {
            sum += u64::from(oracle.distance(s, &goal, how)?.value.unwrap_or(0));
        }
    }
    let reads = (rounds * states.len()).max(1);
    println!(
        "{metric}: {rounds} rounds of {} states, {:.1} ns a read (sum {sum})",
        states.len(),
        began.elapsed().as_secs_f64() * 1e9 / reads as f64
    );
    Ok(())
}
