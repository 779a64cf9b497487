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
    /// The exact (optimal) distance where it is known: the solution's length when it is
    /// optimal, else the table's distance, else null (a greedy path on a board without a
    /// table).
    pub distance: Option<usize>,
    /// The number of moves of the solution found (equal to `distance` when it is optimal).
    pub length: usize,
    /// The blank's moves, e.g. `LURD`.
    pub moves: String,
    /// Every state from start to goal; null on boards beyond 5x5 (replay `moves`).
    pub path: Option<Vec<String>>,
    /// The algorithm that found it.
    pub algorithm: String,
    /// Whether the solution is known to be optimal.
    pub optimal: bool,
    /// What the solution is guaranteed to be: `optimal`, `within FACTOR` or `none`.
    pub guarantee: String,
    /// Always true: the record of an unsolvable pair is [`UnsolvableJson`], with `false` here
    /// (docs/json/solve.schema.json has both).
    pub solvable: bool,
    /// Search statistics (`solve` always includes them in JSON), flattened into this object.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub stats: Option<SearchStatsJson>,
}

/// `distance --format json` (schema: docs/json/distance.schema.json). An unsolvable pair has
/// `distance` null, `solvable` false (exit code 1).
#[derive(Serialize)]
pub struct DistanceJson {
    /// The start, as written by `State`'s `Display`.
    pub start: String,
    /// The goal.
    pub goal: String,
    /// The exact distance, or null when the start cannot reach the goal.
    pub distance: Option<u8>,
    /// Whether the start can reach the goal.
    pub solvable: bool,
    /// How it was answered: `table`, a search (`idastar with ...`), or `parity and replay`.
    pub algorithm: String,
}

/// `solve --format json` for a pair with no solution (exit code 1).
#[derive(Serialize)]
pub struct UnsolvableJson {
    /// The start.
    pub start: String,
    /// The goal.
    pub goal: String,
    /// Always false.
    pub solvable: bool,
    /// Always null: there is no distance.
    pub distance: Option<usize>,
    /// Why no move sequence leads from the start to the goal.
    pub reason: String,
}

/// The cost of an answer, as `solve --format json` and `compare --format json` report it.
#[derive(Serialize)]
pub struct SearchStatsJson {
    /// The heuristic used, or null for the table, `bfs` and `iddfs`.
    pub heuristic: Option<String>,
    /// Nodes whose successors were produced (for the table: the states along the path).
    pub expanded: u64,
    /// Successors produced (for the table: the neighbours read).
    pub generated: u64,
    /// Wall-clock time of the answer in milliseconds.
    pub time_ms: f64,
    /// The exact distance from the table, or null where no table was used.
    pub table_distance: Option<u8>,
}

impl SolveJson {
    /// The JSON form of `solution`; `exact` is the optimal distance where known otherwise.
    pub fn new(
        solution: &Solution,
        goal: &npuzzle::State,
        algorithm: &str,
        optimal: bool,
        exact: Option<usize>,
        guarantee: npuzzle::Guarantee,
    ) -> SolveJson {
        SolveJson {
            start: solution.start().to_string(),
            goal: goal.to_string(),
            distance: if optimal { Some(solution.len()) } else { exact },
            length: solution.len(),
            moves: solution.moves_string(),
            path: Some(solution.path().iter().map(|s| s.to_string()).collect()),
            algorithm: algorithm.to_string(),
            optimal,
            guarantee: guarantee.to_string(),
            solvable: true,
            stats: None,
        }
    }
}

/// One row of `batch --format jsonl` (schema: docs/json/batch.schema.json). Every key is in
/// every row: `start`, `goal` (null when unknown), `distance` (null on failure), `moves` (null
/// on failure and without `--solve`), `unsolvable`, `error` (null when ok).
#[derive(Serialize)]
pub struct BatchRow<'a> {
    /// The start as `State` displays it, or as written when it could not be read.
    pub start: &'a str,
    /// The goal, or as written; null when the line gave none that could be told.
    pub goal: Option<&'a str>,
    /// The exact distance.
    pub distance: Option<u8>,
    /// The blank's moves of an optimal solution (`--solve` only).
    pub moves: Option<&'a str>,
    /// `true` for a pair with no solution.
    pub unsolvable: bool,
    /// Why this question got no answer.
    pub error: Option<&'a str>,
}
