//! Turning what was typed into validated states: the board, the start and the goal.

use npuzzle::{Board, ParseStateError, State};

use super::args::GoalArgs;
use super::Failure;

/// Reads `--size`, if given.
pub fn board_option(goal: &GoalArgs) -> Result<Option<Board>, Failure> {
    parse_size(&goal.size)
}

/// Reads a `--size WxH` option, if given.
pub fn parse_size(size: &Option<String>) -> Result<Option<Board>, Failure> {
    size.as_deref()
        .map(|size| {
            size.parse::<Board>()
                .map_err(|e| Failure::usage(format!("invalid --size: {e}")))
        })
        .transpose()
}

/// Reads one state for the message `what` (`start`, `goal`, ...).
pub fn parse_state(what: &str, text: &str, board: Option<Board>) -> Result<State, Failure> {
    State::parse(text, board).map_err(|e| Failure::usage(state_error(what, text, &e)))
}

/// The one-line message for a state that could not be read.
pub fn state_error(what: &str, text: &str, error: &ParseStateError) -> String {
    // The library names no flags; here the way to give a board is `--board WxH`.
    let hint = match error {
        ParseStateError::NotSquare { .. } => " (--board WxH)",
        _ => "",
    };
    format!("invalid {what} `{}`: {error}{hint}", shorten(text))
}

/// `text` cut to its first 40 characters (with `...`), so that an absurd input never floods
/// an error message.
pub fn shorten(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(40) {
        Some((cut, _)) => std::borrow::Cow::Owned(format!("{}...", &text[..cut])),
        None => std::borrow::Cow::Borrowed(text),
    }
}

/// `text` with its control characters written as escapes (`\x1b`, `\r`, `\n`, `\0`,
/// `\u{9b}`; also the bidirectional overrides, `\u{202e}`), so that input quoted in a message
/// or an error column can neither steer a terminal nor break the line. Tabs, backslashes and
/// every printable character stay as they are.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    fn escaped(c: char) -> bool {
        (c.is_control() && c != '\t')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    }
    if !text.chars().any(escaped) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            c if !escaped(c) => out.push(c),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if c.is_ascii() => out.push_str(&format!("\\x{:02x}", u32::from(c))),
            c => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Reads the start and the goal: the board is `--size`, else the start's own; the goal
/// defaults to the board's default goal.
pub fn start_and_goal(start: &str, goal: &GoalArgs) -> Result<(State, State), Failure> {
    let board = board_option(goal)?;
    let start = parse_state("start", start, board)?;
    let goal = match goal.goal.as_deref() {
        Some(text) => parse_state("goal", text, Some(start.board()))?,
        None => State::goal(start.board()),
    };
    Ok((start, goal))
}

/// The goal of one question of many (`batch`, `verify`): the line's own, else `--goal`, else
/// the default goal of the start's board; one on another board than the start is an error.
pub fn goal_for(start: &State, own: Option<State>, given: Option<State>) -> Result<State, String> {
    let goal = own.or(given).unwrap_or_else(|| State::goal(start.board()));
    if goal.board() != start.board() {
        return Err(format!(
            "the start {start} is on a {} board but the goal {goal} is on a {} board",
            start.board(),
            goal.board()
        ));
    }
    Ok(goal)
}

/// Reads the goal of a command without a start: `--goal` (on the `--size` board, if given),
/// else the default goal of the `--size` board, else of the default board.
pub fn goal_or_default(goal: &GoalArgs) -> Result<State, Failure> {
    goal_of(goal.goal.as_deref(), board_option(goal)?)
}

/// [`goal_or_default`] from a goal's text and a board, for commands with their own options.
pub fn goal_of(text: Option<&str>, board: Option<Board>) -> Result<State, Failure> {
    match text {
        Some(text) => parse_state("goal", text, board),
        None => Ok(State::goal(board.unwrap_or(npuzzle::answer::DEFAULT_BOARD))),
    }
}

/// Why `start` cannot reach `goal`, in one line.
pub fn unsolvable_reason(start: &State, goal: &State) -> String {
    let what = if start.board().width().is_multiple_of(2) {
        "tile inversions plus the blank's row"
    } else {
        "tile inversions"
    };
    format!(
        "{start} cannot reach {goal}: the parity of {what} is {} for the start but {} for the goal, and no move changes it",
        start.parity_class(),
        goal.parity_class(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(escape_controls("12\t3 é\\x"), "12\t3 é\\x");
        assert_eq!(
            escape_controls("\u{1b}[31m\r\n\0\u{7f}\u{9b}\u{202e}"),
            "\\x1b[31m\\r\\n\\0\\x7f\\u{9b}\\u{202e}"
        );
    }
}
