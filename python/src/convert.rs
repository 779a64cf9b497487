//! Python values in: states (strings, sequences of ints, nested rows), boards, moves.
//!
//! Every state goes through the library's parser, [`State::parse`]: a string as given, a
//! sequence as the text `1 2 3 ...`, nested rows as `1 2 / 3 0`. So Python accepts exactly
//! what the CLI accepts, and every error is the library's, quoted with the text its columns
//! refer to.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyString};

use npuzzle::{Board, ParseStateError, State};

/// More cells than any board has (25), plus one to tell "too many" from "just enough".
const MAX_ITEMS: usize = 26;

/// Reads a `board="WxH"` keyword.
pub fn read_board(board: Option<&str>) -> PyResult<Option<Board>> {
    board
        .map(|text| {
            text.parse::<Board>()
                .map_err(|e| PyValueError::new_err(format!("invalid board: {e}")))
        })
        .transpose()
}

/// Reads the goal on `board`, or the board's default goal (tiles in order, blank last).
pub fn read_goal(goal: Option<&Bound<'_, PyAny>>, board: Board) -> PyResult<State> {
    match goal {
        Some(goal) if !goal.is_none() => read_state(goal, Some(board), "goal"),
        _ => Ok(State::goal(board)),
    }
}

/// Reads a state given as a string, a sequence of ints (row-major) or a sequence of rows.
/// `what` names it in messages (`start`, `goal`).
pub fn read_state(value: &Bound<'_, PyAny>, board: Option<Board>, what: &str) -> PyResult<State> {
    if let Ok(text) = value.cast::<PyString>() {
        let text = text.to_cow()?;
        return parse(&text, board, what, "");
    }
    if value.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a str or a sequence of ints, not bytes"
        )));
    }
    let items = sequence(value, what)?;
    let mut text = String::new();
    let mut nested = None;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            text.push_str(if nested == Some(true) { " / " } else { " " });
        }
        let is_row = !is_int(item);
        if *nested.get_or_insert(is_row) != is_row {
            return Err(PyTypeError::new_err(format!(
                "{what} mixes tiles and rows: give a sequence of ints or a sequence of rows"
            )));
        }
        if is_row {
            let row = sequence(item, what)?;
            for (j, cell) in row.iter().enumerate() {
                if j > 0 {
                    text.push(' ');
                }
                text.push_str(&tile(cell, what)?.to_string());
            }
        } else {
            text.push_str(&tile(item, what)?.to_string());
        }
    }
    parse(&text, board, what, " (tiles given as a sequence)")
}

/// The items of a sequence (at most [`MAX_ITEMS`]: a longer one is no state, and a generator
/// that never ends must not be read to its end).
fn sequence<'py>(value: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let not_a_state = || {
        PyTypeError::new_err(format!(
            "{what} must be a str (\"123456780\", \"1 2 3 / 4 5 6 / 7 8 0\") or a sequence of ints or rows, not {}",
            type_name(value)
        ))
    };
    if value.is_instance_of::<PyString>() || value.is_instance_of::<PyBytes>() {
        return Err(not_a_state());
    }
    let mut items = Vec::new();
    for item in value.try_iter().map_err(|_| not_a_state())? {
        items.push(item?);
        if items.len() == MAX_ITEMS {
            return Err(PyValueError::new_err(format!(
                "{what} has more than {} cells: a board has at most 25",
                MAX_ITEMS - 1
            )));
        }
    }
    Ok(items)
}

/// Whether `value` is an integer (a Python int, a NumPy integer: anything with `__index__`
/// and no length), as opposed to a row. A NumPy array has `__index__` too (it raises for more
/// than one element), so a length is what tells a row.
fn is_int(value: &Bound<'_, PyAny>) -> bool {
    value.is_instance_of::<PyInt>()
        || (value.hasattr("__index__").unwrap_or(false)
            && !value.hasattr("__len__").unwrap_or(true))
}

/// One tile number. The parser checks it against the board; here only what text cannot
/// carry is refused (negative and huge numbers, which would read as stray characters).
fn tile(value: &Bound<'_, PyAny>, what: &str) -> PyResult<u8> {
    let not_a_tile = || {
        PyValueError::new_err(format!(
            "{what}: `{}` is not a tile number (tiles are 0 to 24, 0 the blank)",
            value
                .repr()
                .map_or_else(|_| "?".to_string(), |r| r.to_string())
        ))
    };
    if !is_int(value) {
        return Err(PyTypeError::new_err(format!(
            "{what}: a tile must be an int, not {}",
            type_name(value)
        )));
    }
    // Bool is an int in Python, but True as a tile is surely a mistake.
    if value.is_instance_of::<pyo3::types::PyBool>() {
        return Err(not_a_tile());
    }
    value.extract::<u8>().map_err(|_| not_a_tile())
}

/// [`State::parse`], with the CLI's message form: the text quoted, then the library's error.
fn parse(text: &str, board: Option<Board>, what: &str, note: &str) -> PyResult<State> {
    State::parse(text, board).map_err(|e| {
        let hint = match e {
            ParseStateError::NotSquare { .. } => {
                " (in Python: pass board=\"WxH\", or the tiles as nested rows)"
            }
            _ => "",
        };
        PyValueError::new_err(format!(
            "invalid {what} `{}`{note}: {e}{hint}",
            shorten(text)
        ))
    })
}

/// `text` cut to its first 40 characters, so that an absurd input never floods a message.
fn shorten(text: &str) -> String {
    let escaped: String = text.escape_debug().collect();
    match escaped.char_indices().nth(40) {
        Some((cut, _)) => format!("{}...", &escaped[..cut]),
        None => escaped,
    }
}

/// The text of a claimed move list: a string as given, a sequence of strings joined by commas.
pub fn read_moves_text(moves: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = moves.cast::<PyString>() {
        return Ok(text.to_cow()?.into_owned());
    }
    let bad = || {
        PyTypeError::new_err(format!(
            "moves must be a str (\"RRD\"), a sequence of moves ([\"R\", \"R\", \"D\"]) or None, not {}",
            type_name(moves)
        ))
    };
    let mut parts = Vec::new();
    for item in moves.try_iter().map_err(|_| bad())? {
        let item = item?;
        let text = item.cast::<PyString>().map_err(|_| bad())?;
        parts.push(text.to_cow()?.into_owned());
    }
    Ok(parts.join(","))
}

/// The same exception with `prefix` before its message (which answer or row failed).
pub fn prefix_error(py: Python<'_>, error: PyErr, prefix: &str) -> PyErr {
    let message = error.value(py).to_string();
    let new = PyErr::from_type(error.get_type(py), format!("{prefix}{message}"));
    new.set_cause(py, Some(error));
    new
}

/// The Python type name of `value`, for messages.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "an object".to_string(), |n| n.to_string())
}
