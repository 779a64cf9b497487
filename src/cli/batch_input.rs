//! `npuzzle batch` input: opening the source, recognising its form from the first line, and
//! reading it in bounded blocks so memory stays flat whatever the input's size. A line over
//! [`MAX_LINE`] bytes is skipped without being kept and becomes that line's error
//! (see `cli::lines`).
//!
//! Three forms, told apart by the first line that is neither blank nor a `#` comment:
//! - a header naming a `start` column (and maybe `goal`): CSV, read with the csv crate;
//! - a line starting with `{`: JSON lines with `start` (and maybe `goal`) fields;
//! - anything else: one question per line, `START` or `START,GOAL`.

use std::fs::File;
use std::io::{self, BufReader, Cursor, Read};
use std::path::Path;

use serde::Deserialize;

use super::csv_line::LineCsv;
use super::input::shorten;
use super::lines::{self, LONG_LINE_PREFIX, MAX_LINE};

/// Bytes read per block of plain lines: about 100,000 short lines, a few MiB of output. One
/// more than the longest line, so a block without a newline holds a line over the limit.
pub const BLOCK_BYTES: usize = MAX_LINE + 1;
/// The UTF-8 byte-order mark.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";
/// Records read per chunk of CSV or JSON lines, at most.
pub const CHUNK_RECORDS: usize = 1 << 16;
/// Input bytes read per chunk of CSV or JSON lines, about: a chunk ends at the first line that
/// reaches it, so long lines cannot make a chunk hold gigabytes.
pub const CHUNK_BYTES: u64 = 8 << 20;

/// How the questions are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputForm {
    /// `START` or `START,GOAL` per line.
    Lines,
    /// CSV with a header naming `start` (and maybe `goal`).
    Csv,
    /// One JSON object per line with `start` (and maybe `goal`).
    Jsonl,
}

/// The opened input: its bytes, and its length when it is a regular file (for progress).
pub struct Source {
    /// The bytes.
    pub reader: Box<dyn Read + Send>,
    /// The file's length, when known.
    pub len: Option<u64>,
    /// How to name the input in messages.
    pub name: String,
}

/// Opens `path` (`-` or none: standard input).
///
/// # Errors
/// The one-line reason the file cannot be read.
pub fn open(path: Option<&Path>) -> Result<Source, String> {
    match path {
        None => Ok(stdin()),
        Some(p) if p.as_os_str() == "-" => Ok(stdin()),
        Some(p) => {
            let fail = |e: io::Error| format!("cannot read {}: {e}", p.display());
            let file = File::open(p).map_err(fail)?;
            let meta = file.metadata().map_err(fail)?;
            if meta.is_dir() {
                return Err(format!("cannot read {}: it is a directory", p.display()));
            }
            Ok(Source {
                reader: Box::new(file),
                len: meta.is_file().then_some(meta.len()),
                name: p.display().to_string(),
            })
        }
    }
}

fn stdin() -> Source {
    Source {
        reader: Box::new(io::stdin()),
        len: None,
        name: "standard input".to_string(),
    }
}

/// Whether a (trimmed) line carries no question.
pub fn is_skipped(line: &[u8]) -> bool {
    line.is_empty() || line[0] == b'#'
}

/// Reads from `reader` until `buf` holds a complete first question line (or the input ends),
/// and tells the input's form from it. What was read stays in `buf`, except the rest of a `#`
/// comment over [`MAX_LINE`] bytes, which is left as `#`. A first question line over the
/// limit is left unfinished in `buf` (at most [`MAX_LINE`] + [`BLOCK_BYTES`] bytes), for the
/// reader of its form to skip: it is JSON lines when it starts with `{`, else plain lines.
///
/// # Errors
/// Read errors.
pub fn detect(reader: &mut dyn Read, buf: &mut Vec<u8>) -> io::Result<InputForm> {
    let mut scanned = 0;
    loop {
        if scanned == 0 && buf.starts_with(UTF8_BOM) {
            // Spreadsheets often start CSV files with a byte-order mark; it is no field.
            buf.drain(..UTF8_BOM.len());
        }
        // Look at the complete lines read so far.
        while let Some(end) = memchr::memchr(b'\n', &buf[scanned..]) {
            let line = buf[scanned..scanned + end].trim_ascii();
            scanned += end + 1;
            if !is_skipped(line) {
                return Ok(form_of(line));
            }
        }
        if buf.len() - scanned > MAX_LINE {
            // An unfinished line over the limit.
            if !lines::is_comment(&buf[scanned..]) {
                let head = &buf[scanned..buf.len().min(scanned + LONG_LINE_PREFIX)];
                return Ok(if head.trim_ascii_start().starts_with(b"{") {
                    InputForm::Jsonl
                } else {
                    InputForm::Lines
                });
            }
            // A comment: keep `#` (so line numbers stay right), drop the rest.
            buf.truncate(scanned);
            buf.extend_from_slice(b"#\n");
            skip_line(reader, buf)?;
            continue;
        }
        if fill(reader, buf, buf.len() + BLOCK_BYTES)? == 0 {
            let line = buf[scanned..].trim_ascii();
            return Ok(if is_skipped(line) {
                InputForm::Lines
            } else {
                form_of(line)
            });
        }
    }
}

/// The form announced by the first question line.
fn form_of(line: &[u8]) -> InputForm {
    if line.first() == Some(&b'{') {
        return InputForm::Jsonl;
    }
    let header = line.split(|&b| b == b',').any(|field| {
        field
            .trim_ascii()
            .trim_ascii_start_matches_quote()
            .eq_ignore_ascii_case(b"start")
    });
    if header {
        InputForm::Csv
    } else {
        InputForm::Lines
    }
}

/// Strips one pair of surrounding double quotes, as a CSV header may have.
trait TrimQuote {
    fn trim_ascii_start_matches_quote(&self) -> &[u8];
}

impl TrimQuote for [u8] {
    fn trim_ascii_start_matches_quote(&self) -> &[u8] {
        match self {
            [b'"', inner @ .., b'"'] => inner,
            other => other,
        }
    }
}

/// Reads into `buf` until it holds `target` bytes or the input ends; returns the bytes read.
///
/// # Errors
/// Read errors other than interruptions.
pub fn fill(reader: &mut dyn Read, buf: &mut Vec<u8>, target: usize) -> io::Result<usize> {
    let before = buf.len();
    while buf.len() < target {
        let len = buf.len();
        buf.resize(target, 0);
        match reader.read(&mut buf[len..]) {
            Ok(0) => {
                buf.truncate(len);
                break;
            }
            Ok(n) => buf.truncate(len + n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => buf.truncate(len),
            Err(e) => {
                buf.truncate(len);
                return Err(e);
            }
        }
    }
    Ok(buf.len() - before)
}

/// Reads and drops the rest of a line, scanning each byte once; what follows its newline is
/// appended to `buf`. Returns the bytes dropped, newline included.
///
/// # Errors
/// Read errors other than interruptions.
fn skip_line(reader: &mut dyn Read, buf: &mut Vec<u8>) -> io::Result<u64> {
    let at = buf.len();
    let mut dropped = 0;
    loop {
        if fill(reader, buf, at + BLOCK_BYTES)? == 0 {
            return Ok(dropped);
        }
        if let Some(i) = memchr::memchr(b'\n', &buf[at..]) {
            buf.drain(at..at + i + 1);
            return Ok(dropped + i as u64 + 1);
        }
        dropped += (buf.len() - at) as u64;
        buf.truncate(at);
    }
}

/// Plain lines, read a block at a time: each block ends at a newline (or the input's end),
/// and a line over [`MAX_LINE`] bytes comes alone, as its first bytes.
pub struct LineBlocks {
    reader: Box<dyn Read + Send>,
    buf: Vec<u8>,
    /// Bytes at the front of `buf` handed out by the last call, dropped by the next.
    used: usize,
    /// Input bytes consumed so far (for progress).
    pub bytes: u64,
}

/// What [`LineBlocks::next`] gives.
pub enum Block<'a> {
    /// Complete lines of at most [`MAX_LINE`] bytes each (the last one may lack its newline
    /// at the end of the input).
    Lines(&'a [u8]),
    /// One line over [`MAX_LINE`] bytes: its first [`LONG_LINE_PREFIX`] bytes; the rest was
    /// read and dropped.
    Long(&'a [u8]),
}

impl LineBlocks {
    /// A reader of plain lines over what `detect` read (`head`), then the rest of `reader`.
    pub fn new(head: Vec<u8>, reader: Box<dyn Read + Send>) -> LineBlocks {
        LineBlocks {
            reader,
            buf: head,
            used: 0,
            bytes: 0,
        }
    }

    /// The next block, or `None` at the end of the input.
    ///
    /// # Errors
    /// Read errors.
    pub fn next(&mut self) -> io::Result<Option<Block<'_>>> {
        self.buf.drain(..self.used);
        fill(&mut *self.reader, &mut self.buf, BLOCK_BYTES)?;
        if self.buf.is_empty() {
            self.used = 0;
            return Ok(None);
        }
        // Only the first BLOCK_BYTES are looked at: any line that ends among them is short
        // enough. (`buf` may hold more, from `detect`.)
        let window = self.buf.len().min(BLOCK_BYTES);
        if let Some(i) = memchr::memrchr(b'\n', &self.buf[..window]) {
            self.used = i + 1;
        } else if self.buf.len() <= MAX_LINE {
            // The input ended within a last line without a newline (`fill` reached the end).
            self.used = self.buf.len();
        } else {
            // No newline in BLOCK_BYTES: a line over the limit. Keep its head, drop the rest.
            match memchr::memchr(b'\n', &self.buf[window..]) {
                Some(i) => {
                    self.bytes += (window + i + 1 - LONG_LINE_PREFIX) as u64;
                    self.buf.drain(LONG_LINE_PREFIX..window + i + 1);
                }
                None => {
                    self.bytes += (self.buf.len() - LONG_LINE_PREFIX) as u64;
                    self.buf.truncate(LONG_LINE_PREFIX);
                    self.bytes += skip_line(&mut *self.reader, &mut self.buf)?;
                }
            }
            self.used = LONG_LINE_PREFIX;
            self.bytes += LONG_LINE_PREFIX as u64;
            return Ok(Some(Block::Long(&self.buf[..LONG_LINE_PREFIX])));
        }
        self.bytes += self.used as u64;
        Ok(Some(Block::Lines(&self.buf[..self.used])))
    }
}

/// Splits `block` into pieces of about `piece_bytes`, each ending at a newline (the last one
/// at the block's end), so pieces can be answered in parallel.
pub fn pieces(block: &[u8], piece_bytes: usize) -> Vec<&[u8]> {
    let mut out = Vec::with_capacity(block.len() / piece_bytes.max(1) + 1);
    let mut start = 0;
    while start < block.len() {
        let probe = (start + piece_bytes).min(block.len());
        let end = match memchr::memchr(b'\n', &block[probe..]) {
            Some(i) if probe < block.len() => probe + i + 1,
            _ => block.len(),
        };
        out.push(&block[start..end]);
        start = end;
    }
    out
}

/// The number of lines in `piece` (a final line without a newline counts).
pub fn count_lines(piece: &[u8]) -> u64 {
    let newlines = memchr::memchr_iter(b'\n', piece).count() as u64;
    newlines + u64::from(!piece.is_empty() && !piece.ends_with(b"\n"))
}

/// One question from a CSV or JSON line, or why it could not be read.
pub struct Record {
    /// Its 1-based line.
    pub line: u64,
    /// The start and goal fields, or the reason the record is unreadable (and its raw text).
    pub fields: Result<(String, Option<String>), (String, String)>,
}

/// Reads the questions of a CSV or JSON-lines input, a chunk at a time.
pub struct RecordReader {
    inner: RecordInner,
    csv: LineCsv,
    reader: BufReader<Box<dyn Read + Send>>,
    buf: Vec<u8>,
    line: u64,
    /// Bytes consumed so far (for progress).
    pub bytes: u64,
}

enum RecordInner {
    /// Columns of `start` and `goal` once the header has been read.
    Csv {
        columns: Option<(Option<usize>, Option<usize>)>,
    },
    Jsonl,
}

/// The fields of a JSON line; others are ignored.
#[derive(Deserialize)]
struct JsonQuestion {
    start: String,
    #[serde(default)]
    goal: Option<String>,
}

impl RecordReader {
    /// A reader of `form` over what `detect` read (`head`) followed by the rest of `reader`.
    ///
    /// # Errors
    /// A CSV header that cannot be read.
    pub fn new(form: InputForm, head: Vec<u8>, reader: Box<dyn Read + Send>) -> RecordReader {
        let chained: Box<dyn Read + Send> = Box::new(Cursor::new(head).chain(reader));
        let inner = match form {
            InputForm::Csv => RecordInner::Csv { columns: None },
            InputForm::Jsonl | InputForm::Lines => RecordInner::Jsonl,
        };
        RecordReader {
            inner,
            csv: LineCsv::default(),
            reader: BufReader::with_capacity(1 << 16, chained),
            buf: Vec::new(),
            line: 0,
            bytes: 0,
        }
    }

    /// Reads up to `max` records into `out` (cleared first), stopping early after about
    /// [`CHUNK_BYTES`] of input; an empty `out` means the end.
    ///
    /// # Errors
    /// Read errors of the underlying input (a malformed record is a [`Record`] with an error).
    pub fn read_chunk(&mut self, out: &mut Vec<Record>, max: usize) -> io::Result<()> {
        out.clear();
        let until = self.bytes + CHUNK_BYTES;
        while out.len() < max && self.bytes < until {
            match self.next_record()? {
                Some(record) => out.push(record),
                None => break,
            }
        }
        Ok(())
    }

    fn next_record(&mut self) -> io::Result<Option<Record>> {
        loop {
            self.buf.clear();
            let read = lines::read_line(&mut self.reader, &mut self.buf)?;
            if read.consumed == 0 {
                return Ok(None);
            }
            self.bytes += read.consumed;
            self.line += 1;
            let line = self.line;
            if read.long {
                if lines::is_comment(&self.buf) {
                    continue;
                }
                let raw = shorten(&String::from_utf8_lossy(&self.buf)).into_owned();
                let why = format!("line {line}: {}", lines::too_long());
                return Ok(Some(Record {
                    line,
                    fields: Err((raw, why)),
                }));
            }
            let text = self.buf.trim_ascii();
            if is_skipped(text) {
                continue;
            }
            let fields = match &mut self.inner {
                RecordInner::Jsonl => match serde_json::from_slice::<JsonQuestion>(text) {
                    Ok(q) => Ok((q.start, q.goal.filter(|g| !g.is_empty()))),
                    Err(e) => Err((
                        String::from_utf8_lossy(text).into_owned(),
                        format!(
                            "line {line}: not a JSON object with string fields `start` (and optionally `goal`): {e}"
                        ),
                    )),
                },
                RecordInner::Csv { columns } => {
                    let record = match csv_fields(&mut self.csv, text) {
                        Ok(record) => record,
                        Err(e) => {
                            let raw = String::from_utf8_lossy(text).into_owned();
                            return Ok(Some(Record {
                                line,
                                fields: Err((raw, format!("line {line}: bad CSV: {e}"))),
                            }));
                        }
                    };
                    let Some((start, goal)) = *columns else {
                        // The header: find the columns by name.
                        let find = |name: &str| {
                            record
                                .iter()
                                .position(|h| h.trim().eq_ignore_ascii_case(name))
                        };
                        *columns = Some((find("start"), find("goal")));
                        continue;
                    };
                    let field = |i: Option<usize>| {
                        i.and_then(|i| record.get(i)).map(|f| f.trim().to_string())
                    };
                    match (start, field(start)) {
                        (_, Some(s)) => Ok((s, field(goal).filter(|g| !g.is_empty()))),
                        (_, None) => Err((
                            String::from_utf8_lossy(text).into_owned(),
                            format!(
                                "line {line}: missing `start` field (the record has {} fields)",
                                record.len()
                            ),
                        )),
                    }
                }
            };
            return Ok(Some(Record { line, fields }));
        }
    }
}

/// The fields of one CSV line, read by the csv crate's parser (quotes and escapes included). A
/// record per line keeps line numbers exact; states never need a quoted newline.
fn csv_fields(parser: &mut LineCsv, line: &[u8]) -> Result<csv::StringRecord, csv::FromUtf8Error> {
    let mut record = csv::ByteRecord::new();
    parser.read(line, &mut record);
    csv::StringRecord::from_byte_record(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_comes_from_the_first_question_line() {
        let form = |text: &str| {
            let mut buf = Vec::new();
            detect(&mut text.as_bytes(), &mut buf).unwrap()
        };
        assert_eq!(form("# c\n\n123456780\n"), InputForm::Lines);
        assert_eq!(form("1,2,3,4,5,6,7,8,0"), InputForm::Lines);
        assert_eq!(form("# c\nid,Start,goal\n"), InputForm::Csv);
        assert_eq!(form("\"start\"\n"), InputForm::Csv);
        assert_eq!(form("  {\"start\": \"123456780\"}\n"), InputForm::Jsonl);
        assert_eq!(form(""), InputForm::Lines);
    }

    #[test]
    fn pieces_end_at_newlines_and_cover_the_block() {
        let block = b"123\n45\n6789\n0\n\n12";
        for size in 1..block.len() + 2 {
            let parts = pieces(block, size);
            assert_eq!(parts.concat(), block.to_vec());
            for part in &parts[..parts.len() - 1] {
                assert!(part.ends_with(b"\n"));
            }
            assert_eq!(parts.iter().map(|p| count_lines(p)).sum::<u64>(), 6);
        }
    }
}
