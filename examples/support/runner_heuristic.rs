//! The heuristic of the 24-puzzle runner (`examples/solve_set.rs` with `--lookups
//! regular,reflected`), for the examples that study its searches: the 6-6-6-6 databases of
//! `goal` found in a data directory, looked up regular and reflected. One definition, so that
//! their checkpoints' fingerprints and node counts are the runner's.
use std::path::Path;

use npuzzle::answer::{DataDir, Oracle};
use npuzzle::heuristic::{Lookups, PatternHeuristic};
use npuzzle::State;

/// The databases of `goal` in `dir` with the regular and reflected lookups (call
/// `regular_reflected()` on it for the search's cheaper nodes; it has no dual lookup).
///
/// # Errors
/// `dir` holds no databases for `goal`, or they cannot be read.
pub fn runner_heuristic(dir: &Path, goal: &State) -> Result<PatternHeuristic, String> {
    let found = Oracle::new(DataDir::new(dir))
        .pattern_databases(goal)
        .map_err(|e| e.to_string())?
        .ok_or(format!(
            "no pattern databases for {goal} in {}",
            dir.display()
        ))?;
    let (built, _) = &*found;
    let lookups: Lookups = "regular,reflected".parse().map_err(|e| format!("{e}"))?;
    PatternHeuristic::with_lookups(goal, built.databases().to_vec(), lookups)
        .map_err(|e| e.to_string())
}
