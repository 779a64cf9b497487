//! Machine-readable output: the serde types with their stable, documented field names.
//! Core types stay free of serde; they are converted here.

use serde::Serialize;

use npuzzle::Solution;

/// `solve --format json`.
#[derive(Serialize)]
pub struct SolveJson {
    /// The start, as written by `State`'s `Display`.
    pub start: String,
    /// The goal.
    pub goal: String,
    /// The length of the solution found.
    pub distance: usize,
    /// The blank's moves, e.g. `LURD`.
    pub moves: String,
    /// Every state from start to goal.
    pub path: Vec<String>,
    /// The algorithm that found it.
    pub algorithm: String,
    /// Whether the solution is known to be optimal.
    pub optimal: bool,
}

impl SolveJson {
    /// The JSON form of `solution`.
    pub fn new(
        solution: &Solution,
        goal: &npuzzle::State,
        algorithm: &str,
        optimal: bool,
    ) -> SolveJson {
        SolveJson {
            start: solution.start().to_string(),
            goal: goal.to_string(),
            distance: solution.len(),
            moves: solution.moves_string(),
            path: solution.path().iter().map(|s| s.to_string()).collect(),
            algorithm: algorithm.to_string(),
            optimal,
        }
    }
}

/// One row of `batch --format jsonl`. Field names are stable: `start`, `goal`, `distance`
/// (null on failure), `moves` (only with `--solve`; null on failure), `error` (null when ok).
#[derive(Serialize)]
pub struct BatchRow<'a> {
    /// The start as `State` displays it, or as written when it could not be read.
    pub start: &'a str,
    /// The goal, or as written (empty when unknown).
    pub goal: &'a str,
    /// The exact distance.
    pub distance: Option<u8>,
    /// The blank's moves of an optimal solution; present only with `--solve`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Option<&'a str>>,
    /// Why this question got no answer.
    pub error: Option<&'a str>,
}
