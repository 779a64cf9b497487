//! Python values in: states (strings, sequences of ints, nested rows), boards, moves.
//!
//! Every state goes through the library's parser, [`State::parse`]: a string as given, a
//! sequence as the text `1 2 3 ...`, nested rows as `1 2 / 3 0`. So Python accepts exactly
//! what the CLI accepts, and every error is the library's, quoted with the text its columns
//! refer to.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PyList, PyString, PyTuple};

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
    if let Some(state) = tiles_fast(value, board) {
        return Ok(state);
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

/// The fast way in for the common sequence forms: a flat list or tuple of Python ints, and a
/// NumPy array of integers (1-D, or 2-D rows giving the board), read straight into bytes and
/// checked by [`State::from_row`]'s bit mask, without the text the general path writes for
/// the parser (that path cost 1.2 µs a call from a list, and 9.4 µs from a NumPy row, whose
/// items are NumPy scalars asked for `__index__` and `__len__` one by one).
///
/// `None` whenever anything is off (another type, a bool, a number that is no tile, a board
/// that does not fit, a row that is no permutation): the general path then reads the value
/// and words the error, so both ways accept the same values and give the same messages.
fn tiles_fast(value: &Bound<'_, PyAny>, board: Option<Board>) -> Option<State> {
    let mut tiles = [0u8; MAX_ITEMS];
    let (n, shape) = if let Ok(list) = value.cast::<PyList>() {
        sequence_into(list.iter(), &mut tiles)?
    } else if let Ok(tuple) = value.cast::<PyTuple>() {
        sequence_into(tuple.iter(), &mut tiles)?
    } else if is_ndarray(value) {
        array_into(value, &mut tiles)?
    } else {
        return None;
    };
    let board = match (board, shape) {
        (Some(board), Some((w, h))) if (board.width(), board.height()) != (w, h) => return None,
        (Some(board), _) => board,
        (None, Some((w, h))) => Board::new(w, h).ok()?,
        (None, None) => Board::square_with_cells(n)?,
    };
    State::from_row(board, &tiles[..n]).ok()
}

/// A list or tuple of ints, or of rows (lists or tuples of ints, all of one length), copied
/// into `tiles`: their count and, for rows, the board's width and height.
fn sequence_into<'py>(
    mut items: impl ExactSizeIterator<Item = Bound<'py, PyAny>>,
    tiles: &mut [u8; MAX_ITEMS],
) -> Option<(usize, Option<(usize, usize)>)> {
    let rows = items.len();
    let first = items.next()?;
    let row_of = |row: &Bound<'py, PyAny>, tiles: &mut [u8]| -> Option<usize> {
        if let Ok(list) = row.cast::<PyList>() {
            ints_into(list.iter(), tiles)
        } else if let Ok(tuple) = row.cast::<PyTuple>() {
            ints_into(tuple.iter(), tiles)
        } else {
            None
        }
    };
    if first.is_exact_instance_of::<PyInt>() {
        tiles[0] = first.extract::<u8>().ok()?;
        return Some((1 + ints_into(items, &mut tiles[1..])?, None));
    }
    let width = row_of(&first, &mut tiles[..])?;
    if width == 0 || rows * width >= MAX_ITEMS {
        return None;
    }
    for (i, row) in items.enumerate() {
        let at = (i + 1) * width;
        if row_of(&row, &mut tiles[at..])? != width {
            return None;
        }
    }
    Some((rows * width, Some((width, rows))))
}

/// Copies exact Python ints (no bools) that fit a byte into `tiles` (fewer than its length);
/// their count, or `None` for anything else.
fn ints_into<'py>(
    items: impl ExactSizeIterator<Item = Bound<'py, PyAny>>,
    tiles: &mut [u8],
) -> Option<usize> {
    let n = items.len();
    if n >= tiles.len() {
        return None;
    }
    for (slot, item) in tiles.iter_mut().zip(items) {
        if !item.is_exact_instance_of::<PyInt>() {
            return None;
        }
        *slot = item.extract::<u8>().ok()?;
    }
    Some(n)
}

/// Whether `value` is a NumPy array, asked without importing NumPy (the package works
/// without it): an array's type is NumPy's `ndarray` or a subclass of it.
fn is_ndarray(value: &Bound<'_, PyAny>) -> bool {
    if value.is_instance_of::<PyString>() || value.is_instance_of::<PyBool>() {
        return false;
    }
    let ty = value.get_type();
    let named = |t: &Bound<'_, pyo3::types::PyType>| {
        t.name()
            .is_ok_and(|name| name.to_cow().is_ok_and(|n| n == "ndarray"))
    };
    named(&ty) && value.cast::<PyUntypedArray>().is_ok()
}

/// Copies the integers of a 1-D or 2-D NumPy array (any integer type; each must fit a byte)
/// into `tiles`: their count and, for rows, the board's width and height.
fn array_into(
    value: &Bound<'_, PyAny>,
    tiles: &mut [u8; MAX_ITEMS],
) -> Option<(usize, Option<(usize, usize)>)> {
    let untyped = value.cast::<PyUntypedArray>().ok()?;
    if untyped.len() >= MAX_ITEMS {
        return None;
    }
    // Copied without NumPy's borrow tracking (`to_owned_array`: a few bytes), which costs
    // more than the rest of the call on a row that is a view of a large array.
    macro_rules! try_dtypes {
        ($($t:ty),*) => {$(
            match untyped.ndim() {
                1 => if let Ok(array) = value.cast::<PyArray1<$t>>() {
                    let view = array.to_owned_array();
                    return copy_tiles(view.iter().copied(), view.len(), tiles).map(|n| (n, None));
                },
                2 => if let Ok(array) = value.cast::<PyArray2<$t>>() {
                    let view = array.to_owned_array();
                    let (h, w) = view.dim();
                    return copy_tiles(view.iter().copied(), w * h, tiles)
                        .map(|n| (n, Some((w, h))));
                },
                _ => return None,
            }
        )*};
    }
    try_dtypes!(u8, i64, i32, u16, i16, u32, u64, i8);
    None
}

/// Copies `len` integers into `tiles` if there are fewer than [`MAX_ITEMS`] and each fits a
/// byte.
fn copy_tiles<T: TryInto<u8>>(
    values: impl Iterator<Item = T>,
    len: usize,
    tiles: &mut [u8; MAX_ITEMS],
) -> Option<usize> {
    if len >= MAX_ITEMS {
        return None;
    }
    for (slot, value) in tiles.iter_mut().zip(values) {
        *slot = value.try_into().ok()?;
    }
    Some(len)
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
    if value.is_instance_of::<PyBool>() {
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
