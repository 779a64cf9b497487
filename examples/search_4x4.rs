//! A 15-puzzle (4x4) by IDA* with linear conflict, within limits: boards over 12 cells have no
//! table, so the oracle searches.
//!
//! Run: `cargo run --release --example search_4x4 ["START"]`.

use std::time::Duration;

use npuzzle::heuristic::LinearConflict;
use npuzzle::search::{idastar, Outcome};
use npuzzle::{How, Limits, Oracle, State};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let text = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "5 1 2 3 9 6 7 4 13 10 11 8 0 14 15 12".to_string());
    let start: State = text.parse()?;
    let goal = State::goal(start.board());
    let limits = Limits::NONE.time(Duration::from_secs(60));

    // Through the oracle: it picks IDA* with linear conflict for boards without a table.
    let answer = Oracle::search_only().solve(&start, &goal, How::within(limits))?;
    match &answer.value {
        Ok(solution) => println!(
            "{} moves: {solution} ({}, {} nodes expanded)",
            solution.len(),
            answer.method,
            answer.expanded
        ),
        Err(why) => println!("no answer: {why:?}"),
    }

    // The same search called directly.
    let result = idastar(&start, &LinearConflict::new(&goal), limits);
    if let Outcome::Solved(solution) = &result.outcome {
        println!(
            "idastar directly: {} moves in {:?}",
            solution.len(),
            result.elapsed
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_example_runs() {
        super::main().unwrap();
    }
}
