//! `GET /api/boards`: the boards the page offers and what the server gives on each, so that
//! the page's menu says it (an exact table; a search with pattern databases; a search without
//! them, which answers only short shuffles within the time limit; beyond 5x5, no distance and
//! the constructive solver's hints) instead of offering boards as if they were all alike.

use axum::extract::State as With;
use axum::Json;
use serde::Serialize;

use npuzzle::large::LargeBoard;
use npuzzle::pattern::Partition;
use npuzzle::{Board, State};

use super::api::{ask, ApiError, DEFAULT_LIMIT};
use super::{large, Shared};

/// The boards of the page's menu, in its order.
pub const MENU: [(usize, usize); 8] = [
    (2, 2),
    (2, 3),
    (3, 2),
    (3, 3),
    (4, 3),
    (3, 4),
    (4, 4),
    (5, 5),
];

/// The deepest random-walk shuffle offered on a board searched without databases: deeper
/// walks lead to positions a search with linear conflict often cannot finish within the
/// request's time limit.
pub const SEARCH_SHUFFLE_DEPTH: u8 = 30;

/// Tables of at least this many bytes are named with their size in the menu (they are built
/// on first use, which takes seconds).
const NAMED_TABLE_BYTES: u64 = 10_000_000;

/// One board of the menu.
#[derive(Serialize)]
pub struct BoardJson {
    /// `WxH`.
    board: String,
    /// `table`, `databases`, `search`, or `constructive` (beyond 5x5: no exact distance, the
    /// constructive solver's hints).
    answers: &'static str,
    /// The menu's words for it, e.g. `4x4 (search with databases)`.
    label: String,
    /// One sentence on what the board gives.
    detail: String,
    /// Whether a shuffle draws a position at an exact depth (a table), or walks randomly.
    exact_shuffle: bool,
    /// The deepest shuffle offered, where there is a limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    max_shuffle: Option<u8>,
}

#[derive(Serialize)]
pub struct BoardsJson {
    boards: Vec<BoardJson>,
    /// The most cells of a board the API answers on (boards beyond the menu's too).
    max_cells: usize,
}

/// `GET /api/boards`.
pub async fn boards(With(shared): With<Shared>) -> Result<Json<BoardsJson>, ApiError> {
    // On the blocking pool: asking which databases serve a board may open files.
    let builds = shared.builds;
    ask(&shared, Board::THREE_BY_THREE, move |oracle| {
        let limit = DEFAULT_LIMIT.as_secs();
        let mut boards = Vec::new();
        for (width, height) in MENU {
            let Ok(board) = Board::new(width, height) else {
                continue;
            };
            let name = board.to_string();
            let goal = State::goal(board);
            let entry = if oracle.uses_table(board) {
                let states = npuzzle::RankSpace::new(board).map_or(0, |s| u64::from(s.states()));
                let size = if states >= NAMED_TABLE_BYTES {
                    format!(", {}", bytes(states))
                } else {
                    String::new()
                };
                BoardJson {
                    label: format!("{name} (exact table{size})"),
                    detail: format!(
                        "{name}: exact distances from a table of all {states} states ({}, built on first use); shuffles draw a position at exactly the depth asked for",
                        bytes(states)
                    ),
                    board: name,
                    answers: "table",
                    exact_shuffle: true,
                    max_shuffle: None,
                }
            } else {
                // Never built here: a build of seconds (minutes for the debug binary) at the
                // page's load would hold up the 3x3 table its first question waits for.
                let databases = match oracle.open_pattern_databases(&goal).map_err(ApiError::from)? {
                    Some(found) => Some(found.1.to_string()),
                    None => Partition::built_on_first_use(board)
                        .filter(|_| builds)
                        .map(|p| format!("{p} (built on the first question, in seconds)")),
                };
                match databases {
                    Some(which) => BoardJson {
                        label: format!("{name} (search with databases)"),
                        detail: format!(
                            "{name}: exact distances by IDA* with the pattern databases {which}, within {limit} s a question (a position it cannot finish shows a lower bound); shuffles are random walks"
                        ),
                        board: name,
                        answers: "databases",
                        exact_shuffle: false,
                        max_shuffle: None,
                    },
                    None => BoardJson {
                        label: format!("{name} (search: short shuffles only)"),
                        detail: format!(
                            "{name}: no pattern databases here, so exact distances come from IDA* with linear conflict within {limit} s a question, which finishes only near the goal: shuffles go at most {SEARCH_SHUFFLE_DEPTH} random moves deep (`npuzzle build --pdb` adds databases where the board has them)"
                        ),
                        board: name,
                        answers: "search",
                        exact_shuffle: false,
                        max_shuffle: Some(SEARCH_SHUFFLE_DEPTH),
                    },
                }
            };
            boards.push(entry);
        }
        for (width, height) in large::MENU {
            let Ok(board) = LargeBoard::new(width, height) else {
                continue;
            };
            boards.push(BoardJson {
                board: board.to_string(),
                answers: "constructive",
                label: format!("{board} (constructive hints, not optimal)"),
                detail: large::detail(board),
                exact_shuffle: false,
                max_shuffle: None,
            });
        }
        Ok(Json(BoardsJson {
            boards,
            max_cells: large::MAX_CELLS,
        }))
    })
    .await
}

/// A table's size (one byte a state) in words: `182 KB`, `240 MB`.
fn bytes(states: u64) -> String {
    if states >= 1_000_000 {
        format!("{} MB", states.div_ceil(1_000_000))
    } else {
        format!("{} KB", states.div_ceil(1_000))
    }
}
