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
    /// Search statistics (`solve` always includes them in JSON), flattened into this object.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub stats: Option<StatsJson>,
}

/// The cost of an answer, as `solve --format json` and `compare --format json` report it.
#[derive(Serialize)]
pub struct StatsJson {
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
            stats: None,
        }
    }
}
