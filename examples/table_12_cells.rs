//! A 12-cell board (4x3): 239,500,800 states, a 240 MB table built on first use in seconds
//! and kept in a data directory, so later runs open it in milliseconds.
//!
//! Run: `cargo run --release --example table_12_cells [DIR] [WxH]` (default: a temporary
//! directory, 4x3). Its test runs the same code on a 10-cell board, which builds in a blink.

use std::time::Instant;

use npuzzle::answer::DataDir;
use npuzzle::{Board, How, Oracle, State};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = match args.next() {
        Some(dir) => std::path::PathBuf::from(dir),
        None => std::env::temp_dir().join(format!("npuzzle-example-{}", std::process::id())),
    };
    let board: Board = args.next().as_deref().unwrap_or("4x3").parse()?;
    run(&dir, board)
}

/// Answers one question on `board` twice: the first builds and saves the table in `dir`, the
/// second (a new oracle, as a new process would have) opens it.
fn run(dir: &std::path::Path, board: Board) -> Result<(), Box<dyn std::error::Error>> {
    // npuzzle uses only a directory of your own that others cannot write.
    std::fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    let goal = State::goal(board);
    // Three moves from the goal: the blank goes left, up, left.
    let start = [npuzzle::Move::Left, npuzzle::Move::Up, npuzzle::Move::Left]
        .into_iter()
        .try_fold(goal, |state, mv| state.apply(mv))
        .expect("legal on any board of at least 2x2");
    for round in ["first (builds and saves)", "second (opens the file)"] {
        let began = Instant::now();
        let oracle = Oracle::new(DataDir::new(dir));
        let distance = oracle.distance(&start, &goal, How::default())?.value;
        println!(
            "{board} {start}: {distance:?} moves, {round}, {:.3} s",
            began.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_example_runs_on_a_small_board() {
        let dir = std::env::temp_dir().join(format!("npuzzle-example-test-{}", std::process::id()));
        super::run(&dir, "5x2".parse().unwrap()).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
