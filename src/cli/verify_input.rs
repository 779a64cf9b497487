//! Reading `verify`'s input: telling CSV from JSON lines, reading it in chunks of lines, and
//! turning one line's fields into a start, a goal and a [`Claim`].
//!
//! The form is decided by the first line that is neither blank nor a `#` comment: a JSON object
//! (`{...}`) means JSON lines, anything else must be a CSV header naming a `start` column and at
//! least one claim column (`moves`, `path`, `length`, `unsolvable`; case and surrounding spaces
//! do not matter; other columns are ignored). Blank lines and lines starting with `#` are
//! skipped in both forms. Line numbers are physical line numbers of the input, header included.
//!
//! An empty CSV field and an absent (or `null`) JSON field are no claim. In JSON, `moves` is a
//! string (`""` is zero moves) or a list of strings, `path` a list of states (or one string in
//! the CSV form), `length` a number or a string of digits, `unsolvable` a boolean or a string.
//! In CSV, zero moves are written `-`.
//!
//! A line over 1 MiB ([`MAX_LINE`]) is `malformed` without being kept: only its first bytes
//! are, to tell a `#` comment (skipped whatever its length).

use std::borrow::Cow;
use std::io::{BufRead, Cursor, Read};

use rayon::prelude::*;
use serde::Deserialize;

use npuzzle::verify::{parse_flag, parse_length, parse_moves, parse_path, Claim};
use npuzzle::{Board, Guarantee, State};

use super::csv_line::LineCsv;
use super::input::{goal_for, shorten, state_error};
use super::lines::{self, MAX_LINE};
use super::Failure;

/// Lines read and judged together, at most: large enough to keep both cores busy, small enough
/// that memory stays flat whatever the input size.
pub const CHUNK_LINES: usize = 16 * 1024;
/// Bytes of line text a chunk holds, about: a chunk ends at the first line that reaches it, so
/// long lines cannot make it hold gigabytes (16,384 lines of 1 MiB would be 16 GiB).
pub const CHUNK_BYTES: usize = 8 << 20;

/// The defaults for fields a line leaves out, from the command line.
pub struct Defaults {
    /// `--goal`, if given.
    pub goal: Option<State>,
    /// `--size`, if given.
    pub board: Option<Board>,
}

/// One line, read: the pair, and the claim (each may have failed to read).
pub struct Line {
    /// The 1-based physical line number.
    pub number: u64,
    /// The start and goal, or why they could not be read.
    pub pair: Result<(State, State), String>,
    /// The claim, or why it could not be read.
    pub claim: Result<Claim, String>,
    /// The guarantee the claim states (the `guarantee` field, as `npuzzle solve` writes it:
    /// `optimal`, `within 1.2`, `none`); `optimal` where the line has none.
    pub guarantee: Guarantee,
}

/// Where each known field sits in a CSV record.
#[derive(Default, Debug)]
pub struct Columns {
    /// Fields in the header: a record with more is malformed (its fields cannot be placed).
    width: usize,
    start: Option<usize>,
    goal: Option<usize>,
    moves: Option<usize>,
    path: Option<usize>,
    length: Option<usize>,
    unsolvable: Option<usize>,
    guarantee: Option<usize>,
}

impl Columns {
    fn from_header(header: &csv::ByteRecord) -> Columns {
        let mut columns = Columns::default();
        // `distance` (what `sample --with-answers` writes) stands for `length` when there is
        // no `length` column, so a sample verifies as it is.
        let mut distance = None;
        for (i, name) in header.iter().enumerate() {
            let name = String::from_utf8_lossy(name).trim().to_ascii_lowercase();
            let slot = match name.as_str() {
                "distance" => &mut distance,
                "start" => &mut columns.start,
                "goal" => &mut columns.goal,
                "moves" => &mut columns.moves,
                "path" => &mut columns.path,
                "length" => &mut columns.length,
                "unsolvable" => &mut columns.unsolvable,
                "guarantee" => &mut columns.guarantee,
                _ => continue,
            };
            slot.get_or_insert(i);
        }
        columns.length = columns.length.or(distance);
        columns.width = header.len();
        columns
    }

    fn has_claim(&self) -> bool {
        self.moves.is_some()
            || self.path.is_some()
            || self.length.is_some()
            || self.unsolvable.is_some()
    }
}

/// A chunk of raw lines, reused from one chunk to the next.
#[derive(Default)]
pub struct Chunk {
    text: Vec<u8>,
    /// `(physical line number, start, end, over the limit)` of each answer line in `text`; a
    /// line over the limit has only its first bytes there.
    lines: Vec<(u64, usize, usize, bool)>,
}

/// The opened input, positioned after the CSV header (if any).
pub enum Source {
    /// CSV with a header, read one record per physical line: a stray quote can spoil its own
    /// line only, never swallow the lines after it.
    Csv {
        /// The input after the header.
        reader: Box<dyn BufRead + Send>,
        /// Lines read so far (the header's included).
        line: u64,
        /// Where the fields are.
        columns: Columns,
    },
    /// JSON lines.
    Jsonl {
        /// The input.
        reader: Box<dyn BufRead + Send>,
        /// Lines read so far.
        line: u64,
    },
}

/// The UTF-8 byte-order mark.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

fn is_skipped(line: &[u8]) -> bool {
    let trimmed = line.trim_ascii();
    trimmed.is_empty() || trimmed.starts_with(b"#")
}

impl Source {
    /// Detects the form from the first line that is neither blank nor a comment. `Ok(None)`:
    /// the input holds no such line.
    ///
    /// # Errors
    /// Exit code 2 when the input cannot be read or its first line is no usable CSV header.
    pub fn open(mut input: Box<dyn BufRead + Send>, name: &str) -> Result<Option<Source>, Failure> {
        let mut prefix = Vec::new();
        let mut lines = 0;
        let read_error = |e: std::io::Error| Failure::usage(format!("cannot read {name}: {e}"));
        let first = loop {
            let at = prefix.len();
            // At most MAX_LINE + 1 bytes: a longer line stays unfinished, its rest unread.
            let read = (&mut input)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut prefix)
                .map_err(read_error)?;
            if read == 0 {
                return Ok(None);
            }
            lines += 1;
            if at == 0 && prefix.starts_with(UTF8_BOM) {
                // Spreadsheets often start CSV files with a byte-order mark; it is no field.
                prefix.drain(..UTF8_BOM.len());
            }
            let line = &prefix[at..];
            if read > MAX_LINE && !line.ends_with(b"\n") {
                if lines::is_comment(line) {
                    // Keep `#` (line numbers stay right) and drop the rest of the comment.
                    prefix.truncate(at);
                    prefix.extend_from_slice(b"#\n");
                    let mut rest = Vec::new();
                    lines::read_line(&mut input, &mut rest).map_err(read_error)?;
                    continue;
                }
                if line.trim_ascii_start().starts_with(b"{") {
                    // JSON lines, the first one over the limit: the reader of the chunks
                    // reads it again, with its rest, and reports it.
                    return Ok(Some(Source::Jsonl {
                        reader: Box::new(Cursor::new(prefix).chain(input)),
                        line: 0,
                    }));
                }
                return Err(Failure::usage(format!(
                    "{name}: the first line is longer than 1 MiB ({MAX_LINE} bytes): neither a JSON object nor a CSV header"
                )));
            }
            if !is_skipped(line) {
                break line.trim_ascii().to_vec();
            }
        };
        if first.starts_with(b"{") {
            // The prefix is read again, so line numbers stay physical.
            return Ok(Some(Source::Jsonl {
                reader: Box::new(Cursor::new(prefix).chain(input)),
                line: 0,
            }));
        }
        let mut header = csv::ByteRecord::new();
        LineCsv::default().read(&first, &mut header);
        let columns = Columns::from_header(&header);
        let shown = shorten(&String::from_utf8_lossy(&first)).into_owned();
        if columns.start.is_none() {
            return Err(Failure::usage(format!(
                "{name}: the first line `{shown}` is neither a JSON object nor a CSV header naming a `start` column"
            )));
        }
        if !columns.has_claim() {
            return Err(Failure::usage(format!(
                "{name}: the CSV header `{shown}` names no claim column: expected moves, path, length or unsolvable"
            )));
        }
        Ok(Some(Source::Csv {
            reader: input,
            line: lines,
            columns,
        }))
    }

    /// Reads up to [`CHUNK_LINES`] answer lines into `chunk`; returns how many (0 at the end).
    ///
    /// # Errors
    /// Exit code 2 when the input cannot be read.
    pub fn fill(&mut self, chunk: &mut Chunk, name: &str) -> Result<usize, Failure> {
        let (Source::Csv { reader, line, .. } | Source::Jsonl { reader, line }) = self;
        chunk.text.clear();
        chunk.lines.clear();
        while chunk.lines.len() < CHUNK_LINES && chunk.text.len() < CHUNK_BYTES {
            let at = chunk.text.len();
            let read = lines::read_line(reader, &mut chunk.text)
                .map_err(|e| Failure::usage(format!("cannot read {name}: {e}")))?;
            if read.consumed == 0 {
                break;
            }
            *line += 1;
            let text = &chunk.text[at..];
            let skipped = if read.long {
                lines::is_comment(text)
            } else {
                is_skipped(text)
            };
            if skipped {
                chunk.text.truncate(at);
                continue;
            }
            chunk.lines.push((*line, at, chunk.text.len(), read.long));
        }
        Ok(chunk.lines.len())
    }

    /// Reads every line of `chunk` into a start, a goal and a claim, in parallel, in order.
    pub fn parse(&self, chunk: &Chunk, defaults: &Defaults) -> Vec<Line> {
        match self {
            Source::Csv { columns, .. } => chunk
                .lines
                .par_iter()
                .map_init(
                    || {
                        (
                            GoalCache::default(),
                            LineCsv::default(),
                            csv::ByteRecord::new(),
                        )
                    },
                    |(cache, parser, record), &(number, from, to, long)| {
                        if long {
                            return too_long(number);
                        }
                        parser.read(chunk.text[from..to].trim_ascii(), record);
                        csv_line(record, number, columns, defaults, cache)
                    },
                )
                .collect(),
            Source::Jsonl { .. } => chunk
                .lines
                .par_iter()
                .map_init(GoalCache::default, |cache, &(number, from, to, long)| {
                    if long {
                        return too_long(number);
                    }
                    json_line(number, &chunk.text[from..to], defaults, cache)
                })
                .collect(),
        }
    }
}

/// A line over the length limit: malformed, unread.
fn too_long(number: u64) -> Line {
    let why = lines::too_long();
    Line {
        number,
        pair: Err(why.clone()),
        claim: Err(why),
        guarantee: Guarantee::Optimal,
    }
}

/// A path as given: the CSV text form, or a JSON list of states.
enum PathInput<'a> {
    Text(&'a str),
    List(Vec<Cow<'a, str>>),
}

/// The claim's fields as text, before parsing.
#[derive(Default)]
struct ClaimText<'a> {
    moves: Option<Cow<'a, str>>,
    path: Option<PathInput<'a>>,
    length: Option<Cow<'a, str>>,
    unsolvable: Option<Cow<'a, str>>,
}

fn csv_line(
    record: &csv::ByteRecord,
    number: u64,
    columns: &Columns,
    defaults: &Defaults,
    cache: &mut GoalCache,
) -> Line {
    // A field that is absent, empty, or not UTF-8 (reported as such).
    let field = |column: Option<usize>, name: &str| -> Result<Option<&str>, String> {
        let Some(bytes) = column.and_then(|c| record.get(c)) else {
            return Ok(None);
        };
        let text = std::str::from_utf8(bytes)
            .map_err(|_| format!("the `{name}` field is not valid UTF-8"))?;
        Ok((!text.is_empty()).then_some(text))
    };
    if record.len() > columns.width {
        let why = format!(
            "the record has {} fields but the header names {}",
            record.len(),
            columns.width
        );
        return Line {
            number,
            pair: Err(why.clone()),
            claim: Err(why),
            guarantee: Guarantee::Optimal,
        };
    }
    let pair = field(columns.start, "start")
        .and_then(|start| Ok((start, field(columns.goal, "goal")?)))
        .and_then(|(start, goal)| read_pair(start, goal, defaults, cache));
    let claim = (|| {
        let text = ClaimText {
            moves: field(columns.moves, "moves")?.map(Cow::Borrowed),
            path: field(columns.path, "path")?.map(PathInput::Text),
            length: field(columns.length, "length")?.map(Cow::Borrowed),
            unsolvable: field(columns.unsolvable, "unsolvable")?.map(Cow::Borrowed),
        };
        let claim = read_claim(text, &pair)?;
        Ok((
            claim,
            read_guarantee(field(columns.guarantee, "guarantee")?)?,
        ))
    })();
    with_guarantee(number, pair, claim)
}

/// A line from its pair and its claim with the guarantee it states.
fn with_guarantee(
    number: u64,
    pair: Result<(State, State), String>,
    claim: Result<(Claim, Guarantee), String>,
) -> Line {
    let (claim, guarantee) = match claim {
        Ok((claim, guarantee)) => (Ok(claim), guarantee),
        Err(why) => (Err(why), Guarantee::Optimal),
    };
    Line {
        number,
        pair,
        claim,
        guarantee,
    }
}

/// Reads the `guarantee` field: the library's labels; `optimal` where there is none.
fn read_guarantee(text: Option<&str>) -> Result<Guarantee, String> {
    text.map_or(Ok(Guarantee::Optimal), |text| {
        text.parse().map_err(|e| {
            format!(
                "invalid guarantee `{}`: {e} (or optimal, none)",
                shorten(text)
            )
        })
    })
}

/// One JSON line. Flexible fields are read as values and checked by hand, for clear messages.
#[derive(Deserialize)]
struct JsonAnswer<'a> {
    #[serde(borrow, default)]
    start: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    goal: Option<Cow<'a, str>>,
    #[serde(default)]
    moves: Option<serde_json::Value>,
    #[serde(default)]
    path: Option<serde_json::Value>,
    #[serde(default)]
    length: Option<serde_json::Value>,
    /// `distance` stands for `length` where there is no `length` (what `sample` writes);
    /// beside a `length` (what `solve -f json` writes) it is the exact distance, not a claim.
    #[serde(default)]
    distance: Option<serde_json::Value>,
    #[serde(default)]
    unsolvable: Option<serde_json::Value>,
    #[serde(default)]
    guarantee: Option<serde_json::Value>,
}

fn json_line(number: u64, bytes: &[u8], defaults: &Defaults, cache: &mut GoalCache) -> Line {
    let answer: JsonAnswer = match serde_json::from_slice(bytes) {
        Ok(answer) => answer,
        Err(e) => {
            let why = format!("not a JSON object with string fields start, goal: {e}");
            return Line {
                number,
                pair: Err(why.clone()),
                claim: Err(why),
                guarantee: Guarantee::Optimal,
            };
        }
    };
    let start = answer.start.as_deref().filter(|s| !s.is_empty());
    let pair = read_pair(start, answer.goal.as_deref(), defaults, cache);
    let claim = json_claim(&answer).and_then(|text| {
        let claim = read_claim(text, &pair)?;
        let guarantee = match &answer.guarantee {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(text)) => Some(text.as_str()),
            Some(other) => {
                return Err(format!(
                    "`guarantee` must be a string (optimal, within 1.2, none), found {}",
                    shorten(&other.to_string())
                ))
            }
        };
        Ok((claim, read_guarantee(guarantee)?))
    });
    with_guarantee(number, pair, claim)
}

fn json_claim<'a>(answer: &'a JsonAnswer<'_>) -> Result<ClaimText<'a>, String> {
    use serde_json::Value;
    let moves = match &answer.moves {
        None => None,
        Some(Value::String(text)) => Some(Cow::Borrowed(text.as_str())),
        Some(Value::Array(items)) => Some(Cow::Owned(
            items
                .iter()
                .map(|item| item.as_str().ok_or(()))
                .collect::<Result<Vec<_>, ()>>()
                .map_err(|()| "`moves` must be a string or a list of strings".to_string())?
                .join(" "),
        )),
        Some(other) => {
            return Err(format!(
                "`moves` must be a string, found {}",
                shorten(&other.to_string())
            ))
        }
    };
    let path = match &answer.path {
        None => None,
        Some(Value::String(text)) => Some(PathInput::Text(text.as_str())),
        Some(Value::Array(items)) => Some(PathInput::List(
            items
                .iter()
                .map(|item| item.as_str().map(Cow::Borrowed).ok_or(()))
                .collect::<Result<_, ()>>()
                .map_err(|()| "`path` must be a list of states written as strings".to_string())?,
        )),
        Some(other) => {
            return Err(format!(
                "`path` must be a list of strings, found {}",
                shorten(&other.to_string())
            ))
        }
    };
    let length = match answer.length.as_ref().or(answer.distance.as_ref()) {
        None => None,
        Some(Value::Number(n)) => Some(Cow::Owned(n.to_string())),
        Some(Value::String(text)) => Some(Cow::Borrowed(text.as_str())),
        Some(other) => {
            return Err(format!(
                "`length` must be a number, found {}",
                shorten(&other.to_string())
            ))
        }
    };
    let unsolvable = match &answer.unsolvable {
        None => None,
        Some(Value::Bool(flag)) => Some(Cow::Borrowed(if *flag { "true" } else { "false" })),
        Some(Value::String(text)) => Some(Cow::Borrowed(text.as_str())),
        Some(other) => {
            return Err(format!(
                "`unsolvable` must be true or false, found {}",
                shorten(&other.to_string())
            ))
        }
    };
    Ok(ClaimText {
        moves,
        path,
        length,
        unsolvable,
    })
}

/// The last goal read by one worker: answer files usually repeat one goal on every line, so
/// reading it once per worker instead of once per line saves a parse.
#[derive(Default)]
struct GoalCache {
    text: String,
    goal: Option<State>,
}

impl GoalCache {
    fn read(&mut self, text: &str, board: Board) -> Result<State, String> {
        if let Some(goal) = self
            .goal
            .filter(|g| g.board() == board && self.text == text)
        {
            return Ok(goal);
        }
        let goal = State::parse(text, Some(board)).map_err(|e| state_error("goal", text, &e))?;
        self.text.clear();
        self.text.push_str(text);
        self.goal = Some(goal);
        Ok(goal)
    }
}

/// Reads the start (required) and the goal (the line's, else `--goal`, else the default goal
/// of the start's board).
fn read_pair(
    start: Option<&str>,
    goal: Option<&str>,
    defaults: &Defaults,
    cache: &mut GoalCache,
) -> Result<(State, State), String> {
    let text = start.ok_or("no start: the `start` field is missing or empty")?;
    let start = State::parse(text, defaults.board).map_err(|e| state_error("start", text, &e))?;
    let own = match goal.filter(|g| !g.is_empty()) {
        Some(text) => Some(cache.read(text, start.board())?),
        None => None,
    };
    Ok((start, goal_for(&start, own, defaults.goal)?))
}

/// Parses the claim's fields; paths need the board, taken from the start when it was read.
fn read_claim(text: ClaimText<'_>, pair: &Result<(State, State), String>) -> Result<Claim, String> {
    let moves = text
        .moves
        .map(|m| parse_moves(&m))
        .transpose()
        .map_err(|e| format!("invalid moves: {e}"))?;
    let path = match (text.path, pair) {
        (None, _) => None,
        // Without a start there is no board to read the states on; the pair's own error is
        // the one reported.
        (Some(_), Err(why)) => return Err(why.clone()),
        (Some(PathInput::Text(text)), Ok((start, _))) => {
            Some(parse_path(text, start.board()).map_err(|e| format!("invalid path: {e}"))?)
        }
        (Some(PathInput::List(states)), Ok((start, _))) => Some(
            states
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    State::parse(s, Some(start.board())).map_err(|e| {
                        format!(
                            "invalid path: state {} of the path (`{}`): {e}",
                            i + 1,
                            shorten(s)
                        )
                    })
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    // A length written as the word `unsolvable` (as `sample --with-answers` writes it) is an
    // unsolvable claim.
    let (length_text, says_unsolvable) = match text.length {
        Some(l) if l.trim().eq_ignore_ascii_case("unsolvable") => (None, true),
        other => (other, false),
    };
    let length = length_text
        .map(|l| parse_length(&l))
        .transpose()
        .map_err(|e| format!("invalid length: {e}"))?;
    let unsolvable = text
        .unsolvable
        .map(|u| parse_flag(&u))
        .transpose()
        .map_err(|e| format!("invalid unsolvable: {e}"))?
        .or(says_unsolvable.then_some(true));
    Ok(Claim {
        moves,
        path,
        length,
        unsolvable,
    })
}
