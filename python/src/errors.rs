//! The package's exceptions, and the library's errors turned into them.
//!
//! Malformed input (a state, a board, options that cannot be met) is a `ValueError`, as
//! Python code expects; a valid question without an answer raises a package exception, so a
//! caller can tell "my input is wrong" from "this pair has no solution" or "the search ran out
//! of time". Messages are the library's.

use std::ffi::CString;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeWarning, PyValueError};
use pyo3::prelude::*;

use npuzzle::answer::store::Notice;
use npuzzle::answer::{AnswerError, SourceEvent};
use npuzzle::table::rows::RowsError;
use npuzzle::{Answer, NoAnswer};

create_exception!(
    npuzzle,
    NpuzzleError,
    PyException,
    "Base class of npuzzle's own exceptions."
);
create_exception!(
    npuzzle,
    UnsolvableError,
    NpuzzleError,
    "The start cannot reach the goal (their parity classes differ), so there is no distance or solution."
);
create_exception!(
    npuzzle,
    LimitReached,
    NpuzzleError,
    "A search reached its `limit` (seconds) or `max_nodes`, or was stopped by its `progress` callback, before finding the answer."
);
create_exception!(
    npuzzle,
    TableError,
    NpuzzleError,
    "An exact table could not be opened or built, or is damaged."
);

/// An error found where Python cannot be reached (a worker thread with the GIL released),
/// raised once back in Python.
pub enum Deferred {
    /// A `ValueError`.
    Value(String),
    /// An [`UnsolvableError`].
    Unsolvable(String),
    /// A [`LimitReached`].
    Limit(String),
    /// A [`TableError`].
    Table(String),
}

impl Deferred {
    pub fn from_answer(error: AnswerError) -> Deferred {
        let message = error.to_string();
        match error {
            AnswerError::Source { .. }
            | AnswerError::Table(_)
            | AnswerError::Rows(RowsError::Table { .. }) => Deferred::Table(message),
            // Everything else is a question that cannot be asked this way: other boards, no
            // table where one was required, options `sample` cannot meet.
            _ => Deferred::Value(message),
        }
    }

    pub fn no_answer(why: NoAnswer, rest: &Answer<()>) -> Deferred {
        match why {
            // The library's reason, as the command line and the server print it.
            NoAnswer::Unsolvable(why) => Deferred::Unsolvable(why.to_string()),
            NoAnswer::GaveUp(npuzzle::search::Limit::Stopped) => Deferred::Limit(format!(
                "the search ({}) was stopped on request (its progress callback returned False, \
                 or its task was cancelled) after {} expanded nodes and {:.3} s",
                rest.method,
                rest.expanded,
                rest.elapsed.as_secs_f64()
            )),
            NoAnswer::GaveUp(limit) => Deferred::Limit(format!(
                "the search ({}) gave up at its {limit} after {} expanded nodes and {:.3} s",
                rest.method,
                rest.expanded,
                rest.elapsed.as_secs_f64()
            )),
            // `NoAnswer` is non-exhaustive: a future reason is still an answer withheld.
            other => Deferred::Table(format!("no answer: {other:?}")),
        }
    }

    /// The exception, its message prefixed by `prefix` (which row or answer failed).
    pub fn into_err(self, prefix: &str) -> PyErr {
        match self {
            Deferred::Value(m) => PyValueError::new_err(format!("{prefix}{m}")),
            Deferred::Unsolvable(m) => UnsolvableError::new_err(format!("{prefix}{m}")),
            Deferred::Limit(m) => LimitReached::new_err(format!("{prefix}{m}")),
            Deferred::Table(m) => TableError::new_err(format!("{prefix}{m}")),
        }
    }
}

/// The exception for a question the answer layer refused.
pub fn answer_error(error: AnswerError) -> PyErr {
    Deferred::from_answer(error).into_err("")
}

/// The exception for a valid question without an answer.
pub fn no_answer_error(why: NoAnswer, rest: &Answer<()>) -> PyErr {
    Deferred::no_answer(why, rest).into_err("")
}

/// Reports a data directory's notices as Python `RuntimeWarning`s: a table rebuilt, or
/// answered from memory because the directory cannot be used (another user's, say), and a
/// build of more than 10 MB before it begins ([`SourceEvent::announcement`]). Building a small
/// missing table is the normal first use and says nothing.
///
/// Called by the library while the GIL is released (possibly on a worker thread), so it
/// attaches to the interpreter for the warning. A warning filter that turns warnings into
/// errors cannot fail the question here; the warning is then dropped.
pub fn warn_event(event: SourceEvent<'_>) {
    // A build of more than 10 MB (a 12-cell table: 240 MB into the data directory) is said
    // before it begins, not found later on disk.
    let text = match (&event, event.announcement()) {
        (_, Some(announcement)) => format!("npuzzle: {announcement}"),
        (SourceEvent::Notice(Notice::Built { .. }), _) => return,
        (SourceEvent::Notice(notice), _) => format!("npuzzle: {notice}"),
        _ => return,
    };
    warn(&text);
}

/// Issues `message` as a Python `RuntimeWarning` (see [`warn_event`] on the GIL and on
/// warnings made errors).
pub fn warn(message: &str) {
    let Ok(message) = CString::new(message) else {
        return;
    };
    Python::attach(|py| {
        let category = py.get_type::<PyRuntimeWarning>();
        // An error here (warnings as errors) is returned, not left set: dropping it is enough.
        let _ = PyErr::warn(py, &category, &message, 1);
    });
}
