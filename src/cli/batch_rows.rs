//! The rows `batch` writes: the CSV header, and each piece's rows encoded into memory, with the
//! counts the closing message needs. A failed line's row, which echoes what it read, goes
//! through the csv or serde_json encoder (never string concatenation). An answered row holds
//! only states, a distance and moves: when none of their bytes needs quoting or escaping (the
//! rows of every board npuzzle answers), it is written as the bytes the encoder would write,
//! without the encoder; `plain_rows: false` sends every row through it, as the check of that
//! shortcut. Most rows share one goal, so its text is kept.

use std::io::{self, Write};

use npuzzle::State;

use super::args::BatchFormat;
use super::input::{escape_controls, shorten};
use super::output::BatchRow;

/// Writes the CSV header (`start,goal,distance[,moves],error`); JSON lines have none.
pub fn write_header(format: BatchFormat, solve: bool, out: &mut dyn Write) -> io::Result<()> {
    if format == BatchFormat::Csv {
        let mut header = csv::Writer::from_writer(out);
        let mut names = vec!["start", "goal", "distance"];
        if solve {
            names.push("moves");
        }
        names.push("error");
        header.write_record(&names)?;
        header.flush()?;
    }
    Ok(())
}

/// A piece answered: its rows, formatted.
pub struct PieceDone {
    /// The rows, encoded.
    pub bytes: Vec<u8>,
    /// Questions answered or failed.
    pub questions: u64,
    /// Questions failed.
    pub failed: u64,
    /// The line of the first failure.
    pub first_failure: Option<u64>,
}

/// Rows of one piece, formatted into a buffer.
pub struct Sink {
    format: Format,
    solve: bool,
    /// Answered rows may be written without the encoder (see the module's doc).
    plain_rows: bool,
    state_text: Vec<u8>,
    /// The last goal written, its text, and whether that is plain (`is_plain`): most rows
    /// share one goal.
    goal: Option<(State, Vec<u8>, bool)>,
    questions: u64,
    failed: u64,
    first_failure: Option<u64>,
}

enum Format {
    Csv(Vec<u8>),
    Jsonl(Vec<u8>),
}

impl Sink {
    /// A sink for the rows of a piece of about `input_bytes` of input (the buffer is sized
    /// for the rows, which are larger than the lines).
    pub fn new(format: BatchFormat, solve: bool, plain_rows: bool, input_bytes: usize) -> Sink {
        let format = match format {
            BatchFormat::Csv => Format::Csv(Vec::with_capacity(input_bytes * 3)),
            BatchFormat::Jsonl => Format::Jsonl(Vec::with_capacity(input_bytes * 6)),
        };
        Sink {
            format,
            solve,
            plain_rows,
            state_text: Vec::with_capacity(64),
            goal: None,
            questions: 0,
            failed: 0,
            first_failure: None,
        }
    }

    /// Writes the row of an answered question.
    pub fn answer(&mut self, start: &State, goal: &State, distance: u8, moves: Option<&str>) {
        self.questions += 1;
        let start_digits = write_state(start, &mut self.state_text);
        let (goal, goal_plain) = match &mut self.goal {
            Some((last, text, plain)) if last == goal => (&text[..], *plain),
            slot => {
                let mut text = Vec::with_capacity(64);
                write_state(goal, &mut text);
                let plain = is_plain(&text);
                let (_, text, _) = slot.insert((*goal, text, plain));
                (&text[..], plain)
            }
        };
        let mut digits = [0u8; 3];
        let distance_text = u8_text(distance, &mut digits);
        let start = &self.state_text[..];
        let moves = if self.solve { moves } else { None };
        let plain = self.plain_rows
            && goal_plain
            && (start_digits || is_plain(start))
            && moves.is_none_or(|m| is_plain(m.as_bytes()));
        match &mut self.format {
            Format::Csv(buf) if plain => {
                // What the csv encoder writes for fields that need no quotes.
                for field in [start, goal, distance_text] {
                    buf.extend_from_slice(field);
                    buf.push(b',');
                }
                if self.solve {
                    buf.extend_from_slice(moves.unwrap_or("").as_bytes());
                    buf.push(b',');
                }
                buf.push(b'\n');
            }
            Format::Csv(buf) => {
                let row: &[&[u8]] = match (self.solve, moves) {
                    (true, moves) => &[
                        start,
                        goal,
                        distance_text,
                        moves.unwrap_or("").as_bytes(),
                        b"",
                    ],
                    (false, _) => &[start, goal, distance_text, b""],
                };
                write_csv(buf, row);
            }
            Format::Jsonl(buf) if plain => {
                // What serde_json writes for a `BatchRow` of strings that need no escapes.
                buf.extend_from_slice(b"{\"start\":\"");
                buf.extend_from_slice(start);
                buf.extend_from_slice(b"\",\"goal\":\"");
                buf.extend_from_slice(goal);
                buf.extend_from_slice(b"\",\"distance\":");
                buf.extend_from_slice(distance_text);
                match moves {
                    Some(moves) => {
                        buf.extend_from_slice(b",\"moves\":\"");
                        buf.extend_from_slice(moves.as_bytes());
                        buf.push(b'"');
                    }
                    None => buf.extend_from_slice(b",\"moves\":null"),
                }
                buf.extend_from_slice(b",\"unsolvable\":false,\"error\":null}\n");
            }
            Format::Jsonl(buf) => {
                let row = BatchRow {
                    start: std::str::from_utf8(start).expect("states print as ASCII"),
                    goal: Some(std::str::from_utf8(goal).expect("states print as ASCII")),
                    distance: Some(distance),
                    moves,
                    unsolvable: false,
                    error: None,
                };
                write_json(buf, &row);
            }
        }
    }

    /// Writes the row of a failed question, with its error.
    pub fn failure(&mut self, line: u64, start: &str, goal: &str, error: &str) {
        self.unanswered(line, start, goal, error, false);
    }

    /// Writes the row of an unsolvable pair: `unsolvable` where the distance goes (CSV), or
    /// `"unsolvable": true` (JSON), with the reason as its error. It counts as failed, as
    /// before.
    pub fn unsolvable(&mut self, line: u64, start: &str, goal: &str, error: &str) {
        self.unanswered(line, start, goal, error, true);
    }

    fn unanswered(&mut self, line: u64, start: &str, goal: &str, error: &str, unsolvable: bool) {
        // A field longer than any state is echoed in part, so one absurd line cannot flood
        // the output; ordinary malformed input is echoed as it was written, except its
        // control characters, escaped (`\x1b`) like the error's, so that a row shown on a
        // terminal cannot steer it.
        let clip = |text: &str| {
            if text.len() > npuzzle::MAX_STATE_TEXT {
                escape_controls(&shorten(text)).into_owned()
            } else {
                escape_controls(text).into_owned()
            }
        };
        let (start, goal) = (&*clip(start), &*clip(goal));
        let error = &*escape_controls(error);
        self.questions += 1;
        self.failed += 1;
        self.first_failure.get_or_insert(line);
        match &mut self.format {
            Format::Csv(buf) => {
                let mut row = vec![start, goal, if unsolvable { "unsolvable" } else { "" }];
                if self.solve {
                    row.push("");
                }
                row.push(error);
                write_csv(buf, &row);
            }
            Format::Jsonl(buf) => {
                let row = BatchRow {
                    start,
                    goal: (!goal.is_empty()).then_some(goal),
                    distance: None,
                    moves: None,
                    unsolvable,
                    error: Some(error),
                };
                write_json(buf, &row);
            }
        }
    }

    /// The encoded rows and their counts.
    pub fn finish(self) -> PieceDone {
        let (Format::Csv(bytes) | Format::Jsonl(bytes)) = self.format;
        PieceDone {
            bytes,
            questions: self.questions,
            failed: self.failed,
            first_failure: self.first_failure,
        }
    }
}

/// Whether the csv encoder writes `field` as it is and serde_json writes it between quotes as
/// it is: printable ASCII without a comma, quote or backslash (states, distances and moves
/// always are).
fn is_plain(field: &[u8]) -> bool {
    field
        .iter()
        .all(|&b| (b' '..=b'~').contains(&b) && !matches!(b, b',' | b'"' | b'\\'))
}

/// One record through the csv encoder (quotes where a field needs them).
fn write_csv<T: AsRef<[u8]>>(buf: &mut Vec<u8>, row: &[T]) {
    let mut writer = csv::WriterBuilder::new()
        .buffer_capacity(1 << 10)
        .from_writer(buf);
    // Writing to a Vec cannot fail.
    writer.write_record(row).expect("writing to memory");
    writer.flush().expect("writing to memory");
}

fn write_json(buf: &mut Vec<u8>, row: &BatchRow) {
    // Serialising plain strings and numbers into memory cannot fail.
    serde_json::to_writer(&mut *buf, row).expect("writing to memory");
    buf.push(b'\n');
}

/// Writes `state` as its `Display` does, without the formatting machinery for the common
/// square boards of at most ten cells (one digit per cell); `true` when it wrote those digits.
fn write_state(state: &State, out: &mut Vec<u8>) -> bool {
    out.clear();
    let board = state.board();
    if board.has_single_digit_tiles() && board.width() == board.height() {
        out.extend(state.cells().iter().map(|&t| b'0' + t));
        true
    } else {
        // Writing to a Vec cannot fail.
        write!(out, "{state}").expect("writing to memory");
        false
    }
}

/// The decimal digits of `value`.
fn u8_text(value: u8, digits: &mut [u8; 3]) -> &[u8] {
    let mut start = 3;
    let mut v = value;
    loop {
        start -= 1;
        digits[start] = b'0' + v % 10;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    &digits[start..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::Board;

    #[test]
    fn fast_state_text_matches_display_on_every_board() {
        let mut buf = Vec::new();
        for (w, h) in [(2, 2), (3, 2), (2, 3), (3, 3), (4, 4), (5, 2)] {
            let board = Board::new(w, h).unwrap();
            for blank in 0..board.cells() {
                let state = State::canonical_goal(board, blank);
                write_state(&state, &mut buf);
                assert_eq!(buf, state.to_string().into_bytes());
            }
        }
    }

    #[test]
    fn plain_rows_are_the_bytes_the_encoders_write() {
        let boards = [(2, 2), (3, 3), (3, 2), (4, 3), (4, 4), (5, 5)];
        for format in [BatchFormat::Csv, BatchFormat::Jsonl] {
            for solve in [false, true] {
                let mut rows = [true, false].map(|plain| Sink::new(format, solve, plain, 64));
                for sink in &mut rows {
                    for (w, h) in boards {
                        let board = Board::new(w, h).unwrap();
                        for blank in [0, board.cells() - 1] {
                            let start = State::canonical_goal(board, blank);
                            let goal = State::goal(board);
                            for (distance, moves) in [(0, ""), (7, "UDLR"), (255, "RRR")] {
                                sink.answer(&start, &goal, distance, Some(moves));
                            }
                        }
                    }
                    // A failure between answers, and one more answer after it.
                    sink.failure(9, "1,2", "", "line 9: a \"bad\" line");
                    sink.answer(
                        &State::goal(Board::THREE_BY_THREE),
                        &State::goal(Board::THREE_BY_THREE),
                        0,
                        None,
                    );
                }
                let [plain, encoded] =
                    rows.map(|sink| String::from_utf8(sink.finish().bytes).unwrap());
                assert_eq!(plain, encoded, "{format:?} solve={solve}");
                assert!(
                    plain.contains("1 2 3 4/5 6 7 8/9 10 11 0"),
                    "rows and spaces: {plain}"
                );
            }
        }
    }

    #[test]
    fn u8_text_matches_to_string() {
        let mut digits = [0u8; 3];
        for v in 0..=255u8 {
            assert_eq!(u8_text(v, &mut digits), v.to_string().as_bytes());
        }
    }
}
