//! Any goal on any board: the tables are built for canonical goals, and every other goal is
//! answered by relabelling tiles, so the paths come back in your own labels.
//!
//! Run: `cargo run --example any_goal`.

use npuzzle::{How, Oracle, State};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let oracle = Oracle::in_memory();
    let questions = [
        // 3x3, a goal with the blank in the middle.
        ("283164705", "123804765"),
        // 2x4 (rows separated by `/` say the board), the blank top-left in the goal.
        ("1 2 3 0 / 4 5 6 7", "0 1 2 3 / 4 5 6 7"),
        // Start and goal in different parity classes: no solution.
        ("123456780", "213456780"),
    ];
    for (start, goal) in questions {
        let start = State::parse(start, None)?;
        let goal = State::parse(goal, Some(start.board()))?;
        let answer = oracle.solve(&start, &goal, How::default())?;
        match answer.value {
            Ok(solution) => println!(
                "{} {start} -> {goal}: {} moves, {solution}",
                start.board(),
                solution.len()
            ),
            Err(why) => println!("{} {start} -> {goal}: {why:?}", start.board()),
        }
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
