//! The rows `batch` writes: the CSV header, and each piece's rows encoded into memory by the
//! csv or serde_json encoder (never by string concatenation), with the counts the closing
//! message needs. Most rows share one goal, so its text is kept; states and distances are
//! written as bytes without the formatting machinery.

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

/// Rows of one piece, formatted into a buffer by the csv or serde_json encoder.
pub struct Sink {
    format: Format,
    solve: bool,
    state_text: Vec<u8>,
    /// The last goal written and its text: most rows share one goal.
    goal: Option<(State, Vec<u8>)>,
    questions: u64,
    failed: u64,
    first_failure: Option<u64>,
}

enum Format {
    Csv(Box<csv::Writer<Vec<u8>>>),
    Jsonl(Vec<u8>),
}

impl Sink {
    /// A sink for the rows of a piece of about `input_bytes` of input (the buffer is sized
    /// for the rows, which are larger than the lines).
    pub fn new(format: BatchFormat, solve: bool, input_bytes: usize) -> Sink {
        let format = match format {
            BatchFormat::Csv => Format::Csv(Box::new(
                csv::WriterBuilder::new()
                    .buffer_capacity(1 << 14)
                    .from_writer(Vec::with_capacity(input_bytes * 3)),
            )),
            BatchFormat::Jsonl => Format::Jsonl(Vec::with_capacity(input_bytes * 6)),
        };
        Sink {
            format,
            solve,
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
        write_state(start, &mut self.state_text);
        let goal = match &mut self.goal {
            Some((last, text)) if last == goal => &text[..],
            slot => {
                let mut text = Vec::with_capacity(64);
                write_state(goal, &mut text);
                &slot.insert((*goal, text)).1[..]
            }
        };
        let mut digits = [0u8; 3];
        let distance_text = u8_text(distance, &mut digits);
        match &mut self.format {
            Format::Csv(writer) => {
                let start = &self.state_text[..];
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
                // Writing to a Vec cannot fail.
                writer.write_record(row).expect("writing to memory");
            }
            Format::Jsonl(buf) => {
                let row = BatchRow {
                    start: std::str::from_utf8(&self.state_text).expect("states print as ASCII"),
                    goal: Some(std::str::from_utf8(goal).expect("states print as ASCII")),
                    distance: Some(distance),
                    moves: if self.solve { moves } else { None },
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
            Format::Csv(writer) => {
                let mut row = vec![start, goal, if unsolvable { "unsolvable" } else { "" }];
                if self.solve {
                    row.push("");
                }
                row.push(error);
                writer.write_record(&row).expect("writing to memory");
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
        let bytes = match self.format {
            Format::Csv(writer) => writer.into_inner().expect("flushing to memory"),
            Format::Jsonl(buf) => buf,
        };
        PieceDone {
            bytes,
            questions: self.questions,
            failed: self.failed,
            first_failure: self.first_failure,
        }
    }
}

fn write_json(buf: &mut Vec<u8>, row: &BatchRow) {
    // Serialising plain strings and numbers into memory cannot fail.
    serde_json::to_writer(&mut *buf, row).expect("writing to memory");
    buf.push(b'\n');
}

/// Writes `state` as its `Display` does, without the formatting machinery for the common
/// square boards of at most ten cells (one digit per cell).
fn write_state(state: &State, out: &mut Vec<u8>) {
    out.clear();
    let board = state.board();
    if board.has_single_digit_tiles() && board.width() == board.height() {
        out.extend(state.cells().iter().map(|&t| b'0' + t));
    } else {
        // Writing to a Vec cannot fail.
        write!(out, "{state}").expect("writing to memory");
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
    fn u8_text_matches_to_string() {
        let mut digits = [0u8; 3];
        for v in 0..=255u8 {
            assert_eq!(u8_text(v, &mut digits), v.to_string().as_bytes());
        }
    }
}
