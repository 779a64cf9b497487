//! `npuzzle batch`: many questions in, one answer row per question out, in input order.
//!
//! Data flow: the input is read a bounded block at a time (plain lines: [`BLOCK_BYTES`]; CSV or
//! JSON lines: [`CHUNK_RECORDS`] records or about 8 MiB, whichever comes first); a line over
//! 1 MiB is skipped unread and gets a row with the error. A block is cut into pieces that rayon
//! answers in parallel, each piece formatting its own rows into a byte buffer
//! (`batch_rows::Sink`); the buffers are then handed, in order, to a thread that writes them
//! while the next block is read and answered (`batch_writer`). Memory stays flat: one block
//! in, at most two blocks of rows queued for the writer.
//!
//! Answers come from the answer layer ([`Oracle`]), shared by the workers: a table where the
//! board has one (opened, or built, the first time a question needs it), else a search within
//! the per-line `--limit`.

use std::borrow::Cow;
use std::io::{self, BufWriter, IsTerminal, Write};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use npuzzle::answer::AnswerError;
use npuzzle::{Board, How, NoAnswer, Oracle, State};

use npuzzle::search::Limits;

use super::args::{BatchArgs, BatchFormat};
use super::batch_fast::{self, FastLines};
use super::batch_input::{
    self, Block, InputForm, LineBlocks, Record, RecordReader, BLOCK_BYTES, CHUNK_RECORDS,
};
use super::batch_rows::{write_header, PieceDone, Sink};
use super::batch_writer::{pipelined, Rows};
use super::input::{board_option, goal_for, parse_state, shorten, state_error};
use super::lines;
use super::{CommandResult, Context, Failure};

/// Bytes of input per parallel piece: large enough to amortise scheduling, small enough to
/// spread a block over the cores.
const PIECE_BYTES: usize = 1 << 16;
/// Records per parallel piece of CSV or JSON-lines input.
const PIECE_RECORDS: usize = 4096;
/// Bytes of the output's buffer: a write at least this long bypasses it (`BufWriter`).
const OUT_BUFFER: usize = 1 << 16;

/// Answers every question of the input; exit code 1 when any line failed.
pub fn run(args: &BatchArgs, context: &mut Context) -> CommandResult {
    let board = board_option(&args.goal)?;
    let goal = match args.goal.goal.as_deref() {
        Some(text) => Some(parse_state("goal", text, board)?),
        None => None,
    };
    let source = batch_input::open(args.input.as_deref()).map_err(Failure::usage)?;
    let out: Box<dyn Write + Send> = match &args.output {
        Some(path) => Box::new(super::output_file::create(path, args.input.as_deref())?),
        None => Box::new(io::stdout()),
    };
    let settings = Settings {
        board,
        goal,
        solve: args.solve,
        format: args.format,
        search_limits: super::limits::limits(&args.limit, super::search::DEFAULT_LINE_LIMITS),
        metric: args.metric.into(),
        plain_rows: !batch_fast::general_forced(),
    };
    let work = |context: &mut Context| -> CommandResult {
        // A piece's rows (tens to hundreds of KiB) are larger than the buffer, so they go
        // straight to the file without a copy; small writes are still gathered.
        let mut out = BufWriter::with_capacity(OUT_BUFFER, out);
        let summary = answer_all(&settings, source, context, &mut out)?;
        out.flush()?;
        summary.into_result(settings.format)
    };
    // Without --threads, the global pool (capped in `main`).
    match args.threads {
        None => work(context),
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(super::threads::pool_threads(Some(threads)))
            .build()
            .map_err(|e| Failure::usage(format!("cannot start {threads} threads: {e}")))?
            .install(|| work(context)),
    }
}

/// What the command line fixed for every question.
struct Settings {
    board: Option<Board>,
    goal: Option<State>,
    solve: bool,
    format: BatchFormat,
    /// Per-line limits of the search that answers boards without a table.
    search_limits: Limits,
    /// How moves are counted.
    metric: npuzzle::Metric,
    /// Answered rows may be written without the encoders (`batch_rows`).
    plain_rows: bool,
}

/// Counts for the closing message and the exit code.
#[derive(Default)]
struct Summary {
    questions: u64,
    failed: u64,
    first_failure: Option<u64>,
}

impl Summary {
    fn add(&mut self, piece: &PieceDone) {
        self.questions += piece.questions;
        self.failed += piece.failed;
        if self.first_failure.is_none() {
            self.first_failure = piece.first_failure;
        }
    }

    fn into_result(self, format: BatchFormat) -> CommandResult {
        match self.first_failure {
            None => Ok(()),
            Some(line) => Err(Failure::negative(format!(
                "{} of {} questions failed, the first on line {line}; see the `error` {}",
                self.failed,
                self.questions,
                if format == BatchFormat::Csv {
                    "column"
                } else {
                    "field"
                },
            ))),
        }
    }
}

fn answer_all(
    settings: &Settings,
    source: batch_input::Source,
    context: &mut Context,
    out: &mut (dyn Write + Send),
) -> Result<Summary, Failure> {
    let batch_input::Source {
        mut reader,
        len,
        name,
    } = source;
    let read_error = |e: io::Error| Failure::usage(format!("cannot read {name}: {e}"));
    let progress = progress_bar(len);
    write_header(settings.format, settings.solve, out)?;
    let mut buf = Vec::with_capacity(2 * BLOCK_BYTES);
    let form = batch_input::detect(&mut reader, &mut buf).map_err(read_error)?;
    let summary = pipelined(out, |rows| {
        answer_blocks(
            settings,
            form,
            (buf, reader),
            &read_error,
            context,
            rows,
            &progress,
        )
    })?;
    progress.finish_and_clear();
    Ok(summary)
}

/// Reads the input a block at a time (what `detect` read first, then `reader`), answers each
/// block in parallel and queues its rows for the writer, in order.
fn answer_blocks(
    settings: &Settings,
    form: InputForm,
    (buf, reader): (Vec<u8>, Box<dyn io::Read + Send>),
    read_error: &dyn Fn(io::Error) -> Failure,
    context: &mut Context,
    rows: &Rows,
    progress: &ProgressBar,
) -> Result<Summary, Failure> {
    let mut summary = Summary::default();
    if form == InputForm::Lines {
        let fast = FastLines::new(
            settings.board,
            settings.goal,
            settings.solve,
            settings.metric,
            context.oracle(),
        );
        let mut line = 0u64;
        let mut blocks = LineBlocks::new(buf, reader);
        while let Some(block) = blocks.next().map_err(read_error)? {
            let block = match block {
                Block::Lines(block) => block,
                Block::Long(head) => {
                    line += 1;
                    if !lines::is_comment(head) {
                        long_line_row(settings, line, head, rows, &mut summary)?;
                    }
                    continue;
                }
            };
            let pieces = batch_input::pieces(block, PIECE_BYTES);
            let counts: Vec<u64> = pieces
                .par_iter()
                .map(|p| batch_input::count_lines(p))
                .collect();
            let firsts: Vec<u64> = counts
                .iter()
                .scan(line, |next, &n| {
                    let first = *next;
                    *next += n;
                    Some(first)
                })
                .collect();
            let inputs: Vec<Input> = pieces
                .iter()
                .zip(&firsts)
                .map(|(piece, &first)| Input::Lines { piece, first })
                .collect();
            answer_pieces(
                settings,
                fast.as_ref(),
                &inputs,
                context,
                rows,
                &mut summary,
            )?;
            line += counts.iter().sum::<u64>();
            if let Some(fast) = &fast {
                fast.lines_read(line, context.oracle());
            }
            progress.set_position(blocks.bytes);
            progress.set_message(answered(summary.questions, progress));
        }
    } else {
        let mut records = RecordReader::new(form, buf, reader);
        let mut chunk = Vec::with_capacity(CHUNK_RECORDS);
        loop {
            records
                .read_chunk(&mut chunk, CHUNK_RECORDS)
                .map_err(read_error)?;
            if chunk.is_empty() {
                break;
            }
            let inputs: Vec<Input> = chunk.chunks(PIECE_RECORDS).map(Input::Records).collect();
            answer_pieces(settings, None, &inputs, context, rows, &mut summary)?;
            progress.set_position(records.bytes);
            progress.set_message(answered(summary.questions, progress));
        }
    }
    Ok(summary)
}

/// The row of a plain line over the length limit (its first bytes echoed, like any failed
/// line's start).
fn long_line_row(
    settings: &Settings,
    line: u64,
    head: &[u8],
    rows: &Rows,
    summary: &mut Summary,
) -> Result<(), Failure> {
    let mut sink = Sink::new(settings.format, settings.solve, settings.plain_rows, 256);
    let goal = settings.goal.map(|g| g.to_string()).unwrap_or_default();
    let message = format!("line {line}: {}", lines::too_long());
    sink.failure(
        line,
        &shorten(&String::from_utf8_lossy(head)),
        &goal,
        &message,
    );
    let piece = sink.finish();
    summary.add(&piece);
    rows.send(vec![piece.bytes])?;
    Ok(())
}

/// A progress bar on stderr when it is a terminal; hidden otherwise (pipes stay quiet). Its
/// position is the bytes read (so the share done and the time left are right for any line
/// length), and its text the lines answered.
fn progress_bar(len: Option<u64>) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    match len {
        Some(len) => ProgressBar::new(len).with_style(
            ProgressStyle::with_template("{bar:40} {msg} ({percent}%, {eta} left)")
                .expect("the template is valid"),
        ),
        None => ProgressBar::new_spinner().with_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                .expect("the template is valid"),
        ),
    }
}

/// `12,345 lines answered, 1,000/s`: the count a user thinks in, not bytes.
fn answered(lines: u64, progress: &ProgressBar) -> String {
    let seconds = progress.elapsed().as_secs_f64();
    let rate = if seconds > 0.5 {
        format!(", {:.0}/s", lines as f64 / seconds)
    } else {
        String::new()
    };
    format!("{lines} lines answered{rate}")
}

/// One piece of a block, answered by one worker.
enum Input<'a> {
    /// Plain lines; `first` lines of the input came before them.
    Lines { piece: &'a [u8], first: u64 },
    /// CSV or JSON-line records.
    Records(&'a [Record]),
}

/// Answers `inputs` in parallel (plain lines through `fast` where it applies) and queues
/// their rows for the writer, in order. Tables open on first use, inside the answer layer.
fn answer_pieces(
    settings: &Settings,
    fast: Option<&FastLines>,
    inputs: &[Input],
    context: &Context,
    rows: &Rows,
    summary: &mut Summary,
) -> Result<(), Failure> {
    let answerer = Answerer::new(settings, context.oracle(), fast);
    let done: Vec<PieceDone> = inputs
        .par_iter()
        .map(|input| answerer.piece(input))
        .collect();
    let mut bytes = Vec::with_capacity(done.len());
    for piece in done {
        summary.add(&piece);
        bytes.push(piece.bytes);
    }
    rows.send(bytes)?;
    Ok(())
}

/// Answers questions through the answer layer; immutable, shared by the workers.
struct Answerer<'a> {
    settings: &'a Settings,
    oracle: &'a Oracle,
    /// The `--goal`'s text, written in every row that uses it.
    goal_text: Option<String>,
    /// The fast path of plain lines, where it applies.
    fast: Option<&'a FastLines>,
}

impl<'a> Answerer<'a> {
    fn new(
        settings: &'a Settings,
        oracle: &'a Oracle,
        fast: Option<&'a FastLines>,
    ) -> Answerer<'a> {
        Answerer {
            settings,
            oracle,
            goal_text: settings.goal.map(|g| g.to_string()),
            fast,
        }
    }

    /// Answers one piece.
    fn piece(&self, input: &Input) -> PieceDone {
        let mut sink = Sink::new(
            self.settings.format,
            self.settings.solve,
            self.settings.plain_rows,
            PIECE_BYTES,
        );
        match input {
            Input::Lines { piece, first } => {
                if let Some(fast) = self.fast {
                    let general = |text: &[u8], line, sink: &mut Sink| {
                        self.plain_line(text, line, sink);
                    };
                    if fast.piece(self.oracle, piece, *first, &mut sink, general) {
                        return sink.finish();
                    }
                }
                let mut line = *first;
                let mut rest: &[u8] = piece;
                while !rest.is_empty() {
                    let (text, next) = match memchr::memchr(b'\n', rest) {
                        Some(i) => (&rest[..i], &rest[i + 1..]),
                        None => (rest, &rest[rest.len()..]),
                    };
                    rest = next;
                    line += 1;
                    let text = text.trim_ascii();
                    if batch_input::is_skipped(text) {
                        continue;
                    }
                    self.plain_line(text, line, &mut sink);
                }
            }
            Input::Records(records) => {
                for record in records.iter() {
                    match &record.fields {
                        Ok((start, goal)) => {
                            let question =
                                self.fields(start.trim(), goal.as_deref().map(str::trim));
                            self.settle(question, record.line, start, goal.as_deref(), &mut sink);
                        }
                        Err((raw, message)) => sink.failure(record.line, raw, "", message),
                    }
                }
            }
        }
        sink.finish()
    }

    /// A plain line's bytes (trimmed, not skipped): its row, or its failure when it is not
    /// UTF-8.
    fn plain_line(&self, text: &[u8], line: u64, sink: &mut Sink) {
        match std::str::from_utf8(text) {
            Ok(text) => self.line(text, line, sink),
            Err(e) => sink.failure(
                line,
                &String::from_utf8_lossy(text),
                "",
                &format!(
                    "line {line}: not valid UTF-8 at byte {}",
                    e.valid_up_to() + 1
                ),
            ),
        }
    }

    /// A plain line: `START`, `START,GOAL`, or a comma-separated start (`1,2,3,4,5,6,7,8,0`).
    fn line(&self, text: &str, line: u64, sink: &mut Sink) {
        let commas = text.bytes().filter(|&b| b == b',').count();
        if commas == 1 {
            let (start, goal) = text.split_once(',').expect("one comma");
            let (start, goal) = (start.trim(), goal.trim());
            let question = self.fields(start, Some(goal));
            return self.settle(question, line, start, Some(goal), sink);
        }
        let whole = State::parse(text, self.settings.board);
        let question = match whole {
            Ok(start) => self.with_goal(start, None).map(|goal| (start, goal)),
            Err(error) => {
                // `1,2,3,4,5,6,7,8,0,1,2,3,4,5,6,7,8,0`: a comma-separated start and goal,
                // split at the middle comma when both halves are states.
                if commas >= 3 && commas % 2 == 1 {
                    let cut = text
                        .match_indices(',')
                        .nth(commas / 2)
                        .map(|(i, _)| i)
                        .expect("enough commas");
                    let (start, goal) = (text[..cut].trim(), text[cut + 1..].trim());
                    if let (Ok(_), Ok(_)) = (
                        State::parse(start, self.settings.board),
                        State::parse(goal, self.settings.board),
                    ) {
                        let question = self.fields(start, Some(goal));
                        return self.settle(question, line, start, Some(goal), sink);
                    }
                }
                let first = text.split(',').next().unwrap_or("").trim();
                if commas >= 2 && State::parse(first, self.settings.board).is_ok() {
                    Err(format!(
                        "expected START or START,GOAL but found {} comma-separated fields",
                        commas + 1
                    ))
                } else {
                    Err(state_error("start", text, &error))
                }
            }
        };
        self.settle(question, line, text, None, sink);
    }

    /// Reads a start and an optional goal written apart.
    fn fields(&self, start: &str, goal: Option<&str>) -> Result<(State, State), String> {
        let start = State::parse(start, self.settings.board)
            .map_err(|e| state_error("start", start, &e))?;
        let goal = match goal.filter(|g| !g.is_empty()) {
            Some(text) => Some(
                State::parse(text, Some(start.board()))
                    .map_err(|e| state_error("goal", text, &e))?,
            ),
            None => None,
        };
        Ok((start, self.with_goal(start, goal)?))
    }

    /// The goal of a question: its own, else `--goal`, else the board's default goal.
    fn with_goal(&self, start: State, own: Option<State>) -> Result<State, String> {
        goal_for(&start, own, self.settings.goal)
    }

    /// Answers a read question, or writes its failure row.
    fn settle(
        &self,
        question: Result<(State, State), String>,
        line: u64,
        start_text: &str,
        goal_text: Option<&str>,
        sink: &mut Sink,
    ) {
        let known_goal = question.as_ref().ok().map(|(_, goal)| *goal);
        let answer = question
            .map_err(Unanswered::Failed)
            .and_then(|(start, goal)| {
                self.answer(&start, &goal)
                    .map(|(distance, moves)| (start, goal, distance, moves))
            });
        match answer {
            Ok((start, goal, distance, moves)) => {
                sink.answer(&start, &goal, distance, moves.as_deref());
            }
            Err(Unanswered::Unsolvable(message)) => {
                // Known: the row says `unsolvable` where the distance goes, so `verify` reads
                // the answer back as the claim it is.
                let goal = known_goal.map(|g| g.to_string()).unwrap_or_default();
                sink.unsolvable(line, start_text, &goal, &format!("line {line}: {message}"));
            }
            Err(Unanswered::Failed(message)) => {
                let goal = known_goal
                    .map(|g| Cow::Owned(g.to_string()))
                    .or_else(|| goal_text.map(Cow::Borrowed))
                    .or_else(|| self.goal_text.as_deref().map(Cow::Borrowed))
                    .unwrap_or(Cow::Borrowed(""));
                sink.failure(line, start_text, &goal, &format!("line {line}: {message}"));
            }
        }
    }

    /// The distance (and with `--solve` the moves) from the answer layer: a table where the
    /// board has one, else a search within the per-line limits.
    fn answer(&self, start: &State, goal: &State) -> Result<(u8, Option<String>), Unanswered> {
        let how = How::within(self.settings.search_limits).in_metric(self.settings.metric);
        let failed =
            |e: AnswerError| Unanswered::Failed(Failure::from(e).message.unwrap_or_default());
        let answer = if self.settings.solve {
            let answer = self.oracle.solve(start, goal, how).map_err(failed)?;
            let metric = self.settings.metric;
            answer.map(|s| {
                let length = u8::try_from(metric.length(s.moves()))
                    .expect("an optimal answer on at most 25 cells is below 256 moves");
                (length, Some(s.moves_string()))
            })
        } else {
            let answer = self.oracle.distance(start, goal, how).map_err(failed)?;
            answer.map(|d| (d, None))
        };
        let (value, cost) = answer.split();
        value.map_err(|why| match why {
            NoAnswer::GaveUp(limit) => Unanswered::Failed(format!(
                "no exact table for the {} board, and the search gave up at its {limit} after {} expanded nodes (raise --limit)",
                goal.board(),
                cost.expanded
            )),
            why => Unanswered::Unsolvable(why.to_string()),
        })
    }
}

/// Why a question got no distance.
enum Unanswered {
    /// The pair has no solution: an answer, written as `unsolvable`.
    Unsolvable(String),
    /// The line could not be read, or the search gave up.
    Failed(String),
}
