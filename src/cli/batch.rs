//! `npuzzle batch`: many questions in, one answer row per question out, in input order.
//!
//! Data flow: the input is read a bounded block at a time (plain lines: [`BLOCK_BYTES`]; CSV or
//! JSON lines: [`CHUNK_RECORDS`] records or about 8 MiB, whichever comes first); a line over
//! 1 MiB is skipped unread and gets a row with the error. A block is cut into pieces that rayon
//! answers in parallel, each piece formatting its own rows into a byte buffer
//! (`batch_rows::Sink`); the buffers are then written in order. Memory stays flat: one block
//! in, one block of rows out.
//!
//! Tables come from the [`Context`]. A piece that meets a goal whose table is not open yet
//! stops and names the goals it needs; they are opened (or built) on the main thread and the
//! piece is answered again.

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::{self, BufWriter, IsTerminal, Write};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use npuzzle::table::file::TableBytes;
use npuzzle::{Board, State, Table};

use npuzzle::search::Limits;

use super::args::{BatchArgs, BatchFormat};
use super::batch_input::{
    self, Block, InputForm, LineBlocks, Record, RecordReader, BLOCK_BYTES, CHUNK_RECORDS,
};
use super::batch_rows::{write_header, PieceDone, Sink};
use super::input::{board_option, parse_state, shorten, state_error, unsolvable_reason};
use super::lines;
use super::{CommandResult, Context, Failure};

/// Bytes of input per parallel piece: large enough to amortise scheduling, small enough to
/// spread a block over the cores.
const PIECE_BYTES: usize = 1 << 16;
/// Records per parallel piece of CSV or JSON-lines input.
const PIECE_RECORDS: usize = 4096;

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
    };
    let work = |context: &mut Context| -> CommandResult {
        let mut out = BufWriter::with_capacity(1 << 20, out);
        let summary = answer_all(&settings, source, context, &mut out)?;
        out.flush()?;
        summary.into_result(settings.format)
    };
    match args.threads {
        None => work(context),
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
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
    out: &mut dyn Write,
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
    let mut summary = Summary::default();
    if form == InputForm::Lines {
        let mut line = 0u64;
        let mut blocks = LineBlocks::new(buf, reader);
        while let Some(block) = blocks.next().map_err(read_error)? {
            let block = match block {
                Block::Lines(block) => block,
                Block::Long(head) => {
                    line += 1;
                    if !lines::is_comment(head) {
                        long_line_row(settings, line, head, out, &mut summary)?;
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
            answer_pieces(settings, &inputs, context, out, &mut summary)?;
            line += counts.iter().sum::<u64>();
            progress.set_position(blocks.bytes);
            progress.set_message(format!("{} questions", summary.questions));
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
            answer_pieces(settings, &inputs, context, out, &mut summary)?;
            progress.set_position(records.bytes);
            progress.set_message(format!("{} questions", summary.questions));
        }
    }
    progress.finish_and_clear();
    Ok(summary)
}

/// The row of a plain line over the length limit (its first bytes echoed, like any failed
/// line's start).
fn long_line_row(
    settings: &Settings,
    line: u64,
    head: &[u8],
    out: &mut dyn Write,
    summary: &mut Summary,
) -> Result<(), Failure> {
    let mut sink = Sink::new(settings.format, settings.solve, 256);
    let goal = settings.goal.map(|g| g.to_string()).unwrap_or_default();
    let message = format!("line {line}: {}", lines::too_long());
    sink.failure(
        line,
        &shorten(&String::from_utf8_lossy(head)),
        &goal,
        &message,
    );
    let piece = sink.finish();
    out.write_all(&piece.bytes)?;
    summary.add(&piece);
    Ok(())
}

/// A progress bar on stderr when it is a terminal; hidden otherwise (pipes stay quiet).
fn progress_bar(len: Option<u64>) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    match len {
        Some(len) => ProgressBar::new(len).with_style(
            ProgressStyle::with_template(
                "{bar:40} {bytes}/{total_bytes} {msg} ({bytes_per_sec}, {eta} left)",
            )
            .expect("the template is valid"),
        ),
        None => ProgressBar::new_spinner().with_style(
            ProgressStyle::with_template("{spinner} {bytes} read, {msg} ({bytes_per_sec})")
                .expect("the template is valid"),
        ),
    }
}

/// One piece of a block, answered by one worker.
enum Input<'a> {
    /// Plain lines; `first` lines of the input came before them.
    Lines { piece: &'a [u8], first: u64 },
    /// CSV or JSON-line records.
    Records(&'a [Record]),
}

/// Answers `inputs` in parallel and writes their rows in order, opening tables on demand.
fn answer_pieces(
    settings: &Settings,
    inputs: &[Input],
    context: &mut Context,
    out: &mut dyn Write,
    summary: &mut Summary,
) -> Result<(), Failure> {
    let mut done: Vec<Option<PieceDone>> = inputs.iter().map(|_| None).collect();
    loop {
        let needed: HashSet<State> = {
            let answerer = Answerer::new(settings, context);
            let results: Vec<Result<PieceDone, HashSet<State>>> = inputs
                .par_iter()
                .zip(done.par_iter())
                .map(|(input, prior)| match prior {
                    Some(_) => Err(HashSet::new()),
                    None => answerer.piece(input),
                })
                .collect();
            let mut needed = HashSet::new();
            for (slot, result) in done.iter_mut().zip(results) {
                match result {
                    Ok(piece) => *slot = Some(piece),
                    Err(goals) => needed.extend(goals),
                }
            }
            needed
        };
        if needed.is_empty() {
            break;
        }
        for goal in &needed {
            // Goals reach here only after `has_tables`, so a table is always found or built.
            context.table_for(goal);
        }
    }
    for piece in done.into_iter().flatten() {
        out.write_all(&piece.bytes)?;
        summary.add(&piece);
    }
    Ok(())
}

/// Answers questions with the tables open at the time; immutable, shared by the workers.
struct Answerer<'a> {
    settings: &'a Settings,
    tables: Vec<(State, &'a Table<TableBytes>)>,
    /// The `--goal`'s text, written in every row that uses it.
    goal_text: Option<String>,
}

/// Why a question got no answer: a row's message, or a table to open first.
enum Miss {
    Failed(String),
    NeedTable(State),
}

impl<'a> Answerer<'a> {
    fn new(settings: &'a Settings, context: &'a Context) -> Answerer<'a> {
        let board = Board::THREE_BY_THREE;
        let mut tables = Vec::new();
        for goal in (2..=3usize)
            .flat_map(|w| (2..=3usize).map(move |h| (w, h)))
            .filter_map(|(w, h)| Board::new(w, h).ok())
            .flat_map(|b| (0..b.cells()).map(move |blank| State::canonical_goal(b, blank)))
        {
            if let Some(table) = context.loaded_table(&goal) {
                tables.push((goal, table));
            }
        }
        // The 3x3 table of the default goal first: most questions use it.
        tables.sort_by_key(|(g, _)| *g != State::goal(board));
        Answerer {
            settings,
            tables,
            goal_text: settings.goal.map(|g| g.to_string()),
        }
    }

    fn table(&self, goal: &State) -> Option<&'a Table<TableBytes>> {
        // A canonical goal is known by its board and blank cell.
        self.tables
            .iter()
            .find(|(g, _)| g.blank() == goal.blank() && g.board() == goal.board())
            .map(|(_, t)| *t)
    }

    /// Answers one piece, or names the tables it needs.
    fn piece(&self, input: &Input) -> Result<PieceDone, HashSet<State>> {
        let mut sink = Sink::new(self.settings.format, self.settings.solve, PIECE_BYTES);
        let mut needed = HashSet::new();
        match input {
            Input::Lines { piece, first } => {
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
                    match std::str::from_utf8(text) {
                        Ok(text) => self.line(text, line, &mut sink, &mut needed),
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
            }
            Input::Records(records) => {
                for record in records.iter() {
                    match &record.fields {
                        Ok((start, goal)) => {
                            let question =
                                self.fields(start.trim(), goal.as_deref().map(str::trim));
                            self.settle(
                                question,
                                record.line,
                                start,
                                goal.as_deref(),
                                &mut sink,
                                &mut needed,
                            );
                        }
                        Err((raw, message)) => sink.failure(record.line, raw, "", message),
                    }
                }
            }
        }
        if needed.is_empty() {
            Ok(sink.finish())
        } else {
            Err(needed)
        }
    }

    /// A plain line: `START`, `START,GOAL`, or a comma-separated start (`1,2,3,4,5,6,7,8,0`).
    fn line(&self, text: &str, line: u64, sink: &mut Sink, needed: &mut HashSet<State>) {
        let commas = text.bytes().filter(|&b| b == b',').count();
        if commas == 1 {
            let (start, goal) = text.split_once(',').expect("one comma");
            let (start, goal) = (start.trim(), goal.trim());
            let question = self.fields(start, Some(goal));
            return self.settle(question, line, start, Some(goal), sink, needed);
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
                        return self.settle(question, line, start, Some(goal), sink, needed);
                    }
                }
                let first = text.split(',').next().unwrap_or("").trim();
                if commas >= 2 && State::parse(first, self.settings.board).is_ok() {
                    Err(Miss::Failed(format!(
                        "expected START or START,GOAL but found {} comma-separated fields",
                        commas + 1
                    )))
                } else {
                    Err(Miss::Failed(state_error("start", text, &error)))
                }
            }
        };
        self.settle(question, line, text, None, sink, needed);
    }

    /// Reads a start and an optional goal written apart.
    fn fields(&self, start: &str, goal: Option<&str>) -> Result<(State, State), Miss> {
        let start = State::parse(start, self.settings.board)
            .map_err(|e| Miss::Failed(state_error("start", start, &e)))?;
        let goal = match goal.filter(|g| !g.is_empty()) {
            Some(text) => Some(
                State::parse(text, Some(start.board()))
                    .map_err(|e| Miss::Failed(state_error("goal", text, &e)))?,
            ),
            None => None,
        };
        Ok((start, self.with_goal(start, goal)?))
    }

    /// The goal of a question: its own, else `--goal`, else the board's default goal.
    fn with_goal(&self, start: State, own: Option<State>) -> Result<State, Miss> {
        let goal = own
            .or(self.settings.goal)
            .unwrap_or_else(|| State::goal(start.board()));
        if goal.board() != start.board() {
            return Err(Miss::Failed(format!(
                "the start {start} is on a {} board but the goal {goal} is on a {} board",
                start.board(),
                goal.board()
            )));
        }
        Ok(goal)
    }

    /// Answers a read question, or writes its failure row.
    fn settle(
        &self,
        question: Result<(State, State), Miss>,
        line: u64,
        start_text: &str,
        goal_text: Option<&str>,
        sink: &mut Sink,
        needed: &mut HashSet<State>,
    ) {
        let known_goal = question.as_ref().ok().map(|(_, goal)| *goal);
        let answer = question.and_then(|(start, goal)| {
            self.answer(&start, &goal)
                .map(|(distance, moves)| (start, goal, distance, moves))
        });
        match answer {
            Ok((start, goal, distance, moves)) => {
                sink.answer(&start, &goal, distance, moves.as_deref());
            }
            Err(Miss::NeedTable(goal)) => {
                needed.insert(goal);
            }
            Err(Miss::Failed(message)) => {
                let goal = known_goal
                    .map(|g| Cow::Owned(g.to_string()))
                    .or_else(|| goal_text.map(Cow::Borrowed))
                    .or_else(|| self.goal_text.as_deref().map(Cow::Borrowed))
                    .unwrap_or(Cow::Borrowed(""));
                sink.failure(line, start_text, &goal, &format!("line {line}: {message}"));
            }
        }
    }

    fn answer(&self, start: &State, goal: &State) -> Result<(u8, Option<String>), Miss> {
        if !Context::has_tables(goal.board()) {
            return self.search(start, goal);
        }
        // No `can_reach` here: the table's lookup checks the parity class as it ranks.
        let table = self
            .table(goal)
            .ok_or_else(|| Miss::NeedTable(State::canonical_goal(goal.board(), goal.blank())))?;
        let unsolvable = || Miss::Failed(unsolvable_reason(start, goal));
        let failed = |e: npuzzle::FormatError| Miss::Failed(e.to_string());
        if self.settings.solve {
            let solution = table
                .solve_to(start, goal)
                .map_err(failed)?
                .ok_or_else(unsolvable)?;
            Ok((solution.len() as u8, Some(solution.moves_string())))
        } else {
            let distance = table
                .distance_to(start, goal)
                .map_err(failed)?
                .ok_or_else(unsolvable)?;
            Ok((distance, None))
        }
    }
}

impl Answerer<'_> {
    /// Answers a question on a board without an exact table by IDA* with linear conflict
    /// (optimal, memory-light), within the per-line limits.
    fn search(&self, start: &State, goal: &State) -> Result<(u8, Option<String>), Miss> {
        match super::search::exact_by_search(start, goal, self.settings.search_limits) {
            Ok(Some((distance, solution))) => Ok((
                distance,
                self.settings.solve.then(|| solution.moves_string()),
            )),
            Ok(None) => Err(Miss::Failed(unsolvable_reason(start, goal))),
            Err(why) => Err(Miss::Failed(why)),
        }
    }
}
