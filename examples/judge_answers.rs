//! Judging another solver's answers: each claim gets a verdict whose details are facts (the
//! step, the move, the cell), with text only in its `Display`.
//!
//! Run: `cargo run --example judge_answers`.

use npuzzle::verify::{parse_moves, Claim, Verdict};
use npuzzle::{How, Oracle, State};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let oracle = Oracle::in_memory();
    let start: State = "123456078".parse()?;
    let goal = State::goal(start.board());
    let claims = [
        ("RR", Claim::moves(parse_moves("RR")?)),
        ("RRLR", Claim::moves(parse_moves("RRLR")?)),
        // Tile moves instead of blank moves: illegal, with a hint.
        ("LL", Claim::moves(parse_moves("LL")?)),
        ("length 3", Claim::length(3)),
        ("unsolvable", Claim::unsolvable()),
    ];
    for (text, claim) in &claims {
        let judged = oracle.judge(&start, &goal, claim, How::default())?;
        let verdict = judged
            .value
            .expect("a table answers every 3x3 question")
            .verdict;
        if let Verdict::IllegalMove { step, fault, .. } = &verdict {
            println!("{text}: illegal at step {step} ({fault:?})");
        }
        println!("{text}: {verdict}");
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
