//! The distance and one optimal path of an 8-puzzle, from a table built in memory.
//!
//! Run: `cargo run --example distance_and_path [START]` (default: the hardest 8-puzzle).

use npuzzle::{How, Oracle, State};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let text = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "867254301".to_string());
    let start: State = text.parse()?;
    let goal = State::goal(start.board());
    // `Oracle::new(DataDir::new(dir))` would keep the tables on disk between runs.
    let oracle = Oracle::in_memory();
    let distance = oracle.distance(&start, &goal, How::default())?;
    match distance.value {
        Ok(moves) => println!("{start} -> {goal}: {moves} moves ({})", distance.method),
        Err(why) => {
            println!("{start} -> {goal}: no answer ({why:?})");
            return Ok(());
        }
    }
    let solution = oracle
        .solve(&start, &goal, How::default())?
        .value
        .expect("solvable");
    println!("moves of the blank: {solution}");
    println!("{solution:#}");
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_example_runs() {
        super::main().unwrap();
    }
}
