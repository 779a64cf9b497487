//! Boards beyond 5x5 (more than 25 cells, up to 64x64) in Python: telling a large question
//! from a small one, and reading its states. The rules (spellings, solvability, the
//! scramblers, the constructive solver) are the library's ([`npuzzle::large`]); this file only
//! reads Python values into its types, as `src/cli/large.rs` does for the command line.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use npuzzle::large::{LargeBoard, LargeState};
use npuzzle::{Board, State};

/// `board="WxH"` as a large board, where it names one beyond the small boards' 25 cells;
/// `None` for no board or a small one (the small reader reads it and words its errors).
pub fn large_board(board: Option<&str>) -> Option<LargeBoard> {
    let text = board?;
    if text.parse::<Board>().is_ok() {
        return None;
    }
    text.parse::<LargeBoard>()
        .ok()
        .filter(|board| board.to_small().is_none())
}

/// `value` read as a large state on `board` (or on the board its spelling implies), where
/// it is one: `Ok(None)` for a state the small reader takes (or words the error of). A state
/// on a large `board` that does not read is a `ValueError` naming the problem.
pub fn read_large(
    value: &Bound<'_, PyAny>,
    board: Option<LargeBoard>,
    what: &str,
) -> PyResult<Option<LargeState>> {
    let refuse = |e: npuzzle::large::ParseLargeError| {
        PyValueError::new_err(format!("invalid {what}: {e}"))
    };
    if let Ok(text) = value.cast::<PyString>() {
        let text = text.to_cow()?;
        if board.is_some() {
            return LargeState::parse(&text, board).map(Some).map_err(refuse);
        }
        if State::parse(&text, None).is_ok() {
            return Ok(None);
        }
        return Ok(LargeState::parse(&text, None)
            .ok()
            .filter(|state| state.to_small().is_none()));
    }
    if value.is_instance_of::<PyBytes>() {
        return Ok(None);
    }
    // A flat sequence of tiles, or a sequence of rows.
    let (tiles, shape): (Vec<u16>, Option<(usize, usize)>) =
        if let Ok(flat) = value.extract::<Vec<u16>>() {
            (flat, None)
        } else if let Ok(rows) = value.extract::<Vec<Vec<u16>>>() {
            let width = rows.first().map_or(0, Vec::len);
            if rows.iter().any(|row| row.len() != width) {
                return Ok(None);
            }
            let height = rows.len();
            (rows.concat(), Some((width, height)))
        } else {
            return Ok(None);
        };
    if board.is_none() && tiles.len() <= npuzzle::MAX_CELLS {
        return Ok(None);
    }
    let board = match (board, shape) {
        (Some(board), _) => board,
        (None, Some((w, h))) => LargeBoard::new(w, h)
            .map_err(|e| PyValueError::new_err(format!("invalid {what}: {e}")))?,
        (None, None) => {
            let side = (1..=tiles.len())
                .find(|s| s * s >= tiles.len())
                .unwrap_or(0);
            if side * side != tiles.len() {
                return Err(PyValueError::new_err(format!(
                    "invalid {what}: {} tiles do not make a square board: pass board=\"WxH\"",
                    tiles.len()
                )));
            }
            LargeBoard::new(side, side)
                .map_err(|e| PyValueError::new_err(format!("invalid {what}: {e}")))?
        }
    };
    LargeState::from_tiles(board, &tiles)
        .map(Some)
        .map_err(refuse)
}

/// A question on a board beyond 5x5: the start and the goal (the board's default goal for
/// `None`), or `None` where the start is a small state.
pub fn large_question(
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    board: Option<&str>,
) -> PyResult<Option<(LargeState, LargeState)>> {
    let Some(start) = read_large(start, large_board(board), "start")? else {
        return Ok(None);
    };
    let goal = match goal {
        Some(goal) if !goal.is_none() => read_large(goal, Some(start.board()), "goal")?
            .expect("a large board reads a large state or fails"),
        _ => LargeState::goal(start.board()),
    };
    Ok(Some((start, goal)))
}

/// How a state is written back: the small boards keep their compact spelling
/// (`123456780`), as `npuzzle sample --scramble` writes them.
pub fn spell(state: &LargeState) -> String {
    match state.to_small() {
        Some(small) => small.to_string(),
        None => state.to_string(),
    }
}
