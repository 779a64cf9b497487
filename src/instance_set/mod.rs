//! Long sets of instances solved one by one into a results file that survives restarts: the
//! runner behind `examples/solve_set.rs` (Korf and Felner's fifty 24-puzzles take hours).
//!
//! An *instance file* has one instance a line: an id, the start's tiles row-major (`0` the
//! blank), then optionally the published optimal length and further counts (the last one, in
//! Korf's files the published nodes, orders a set easiest first); `#` lines are comments.
//! That is the layout of `data/korf100.txt` and `data/korf50_24.txt`.
//!
//! A *results file* has one finished instance a line, tab-separated: the id, the length, the
//! nodes generated, the seconds, and the solution as one string of `U D L R`. A line is
//! appended (and flushed) as soon as its instance is solved and checked, so a killed run
//! loses at most the instance in progress; a restart reads the file, replays every line's
//! solution (a line that does not reach the goal at its length is an error, not skipped), and
//! solves only the instances not in it. A last line cut short (a kill during the write, a
//! full disk) is removed and its instance solved again; a line that cannot be written is
//! quoted whole in the error, so no answer is lost.
//!
//! What a line proves: its moves are legal and reach the goal in its length, and that length
//! is the published optimum where the instance file gives one. For an instance without a
//! published length, the line's optimality rests on the run that wrote it (this runner only
//! appends optimal searches' answers); a line merged from elsewhere is checked by replay only.
//!
//! The set's progress, as data ([`progress()`]) and as a table ([`progress_table`]), with
//! where an unfinished instance stands ([`in_progress`]), lives in `instance_set/progress.rs`.

use std::collections::HashSet;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::answer::{AnswerError, How, Method, NoAnswer, Oracle};
use crate::board::{Board, Move};
use crate::guarantee::Guarantee;
use crate::metric::Metric;
use crate::search::{Algorithm, Limit, Outcome, SearchResult};
use crate::solution::Solution;
use crate::state::State;
use crate::store::file::write_atomic;

mod progress;
pub use progress::{
    in_progress, progress, progress_table, progress_table_with, InProgress, Progress,
};

/// One instance of a set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Its id, as written in the file.
    pub id: String,
    /// The start.
    pub start: State,
    /// The published optimal length, if the file gives one.
    pub published: Option<u32>,
    /// The remaining columns, as numbers where they are (for sorting, for example by published
    /// node counts).
    pub extra: Vec<u64>,
}

impl Instance {
    /// The line's last number after the length: in Korf's files the published count of nodes
    /// generated, which orders a set easiest first.
    #[must_use]
    pub fn published_nodes(&self) -> Option<u64> {
        self.extra.last().copied()
    }
}

/// A finished instance: a line of a results file.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// The instance's id.
    pub id: String,
    /// The solution's length.
    pub length: u32,
    /// Nodes generated.
    pub nodes: u64,
    /// Seconds of search.
    pub seconds: f64,
    /// The solution, as `U D L R` letters.
    pub moves: String,
}

impl Finished {
    /// Nodes generated a second (0 for no time).
    #[must_use]
    pub fn rate(&self) -> f64 {
        if self.seconds > 0.0 {
            self.nodes as f64 / self.seconds
        } else {
            0.0
        }
    }

    /// The line a run prints as it finishes this instance: the id, the length, the nodes, the
    /// seconds and the node rate, tab-separated and labelled (the results file's line, by
    /// [`Display`](fmt::Display), carries the moves instead of the rate).
    ///
    /// ```
    /// use npuzzle::instance_set::Finished;
    /// let f = Finished { id: "a".into(), length: 1, nodes: 3_000_000, seconds: 2.0, moves: "R".into() };
    /// assert_eq!(f.progress_line(), "a\tlength 1\t3000000 nodes\t2.00 s\t1.5 M nodes/s");
    /// assert_eq!(f.to_string(), "a\t1\t3000000\t2.000\tR");
    /// ```
    #[must_use]
    pub fn progress_line(&self) -> String {
        format!(
            "{}\tlength {}\t{} nodes\t{:.2} s\t{:.1} M nodes/s",
            self.id,
            self.length,
            self.nodes,
            self.seconds,
            self.rate() / 1e6
        )
    }
}

impl fmt::Display for Finished {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}\t{}\t{}\t{:.3}\t{}",
            self.id, self.length, self.nodes, self.seconds, self.moves
        )
    }
}

/// What went wrong with a set, naming the line or the instance.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetError {
    /// A line of the instance file is not an instance.
    #[error("instance file line {line}: {why}")]
    BadInstance {
        /// 1-based line number.
        line: usize,
        /// Why.
        why: String,
    },
    /// The same id twice in the instance file.
    #[error("instance file line {line}: id {id} was given before")]
    DuplicateId {
        /// 1-based line number.
        line: usize,
        /// The id.
        id: String,
    },
    /// A line of the results file cannot be read, or its solution does not check.
    #[error("results file line {line}: {why}")]
    BadResult {
        /// 1-based line number.
        line: usize,
        /// Why.
        why: String,
    },
    /// A solution found is not the published length, or does not reach the goal.
    #[error("instance {id}: {why}")]
    Mismatch {
        /// The instance's id.
        id: String,
        /// Why.
        why: String,
    },
    /// The search gave up or found no path.
    #[error("instance {id}: not solved ({why})")]
    Unsolved {
        /// The instance's id.
        id: String,
        /// Why.
        why: String,
    },
    /// An instance's checkpoint cannot be read (damaged, another search's) or written (a full
    /// disk): the run's files are at fault, not the search; the other instances still run.
    #[error("instance {id}: not solved (checkpoint refused: {why})")]
    Checkpoint {
        /// The instance's id.
        id: String,
        /// Why.
        why: String,
    },
    /// An instance asked for by id (`only`) is not in the instance file.
    #[error("instance {id} is not in the instance file")]
    UnknownId {
        /// The id asked for.
        id: String,
    },
    /// A solver that cannot serve a set ([`oracle_solver`]): one whose paths are not
    /// guaranteed optimal, one counting in another metric than the single-tile one of the
    /// published lengths, or one whose source fails (no databases, a damaged table).
    #[error("{0}")]
    Solver(String),
    /// Reading or writing a file failed.
    #[error("{0}")]
    Io(String),
}

/// Reads an instance file for `board`.
///
/// ```
/// use npuzzle::instance_set::parse_instances;
/// use npuzzle::Board;
/// let set = parse_instances("# comment\n7 1 2 3 4 5 6 7 8 0 0 9\n", Board::THREE_BY_THREE)?;
/// assert_eq!(set[0].id, "7");
/// assert_eq!(set[0].published, Some(0));
/// assert_eq!(set[0].extra, vec![9]);
/// # Ok::<(), npuzzle::instance_set::SetError>(())
/// ```
///
/// # Errors
/// [`SetError::BadInstance`] for a line without an id and a state's tiles, or with a state
/// that is not one; [`SetError::DuplicateId`].
pub fn parse_instances(text: &str, board: Board) -> Result<Vec<Instance>, SetError> {
    let n = board.cells();
    let mut seen = HashSet::new();
    let mut set = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = without_bom(line).trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let bad = |why: String| SetError::BadInstance { line: line_no, why };
        if words.len() < n + 1 {
            return Err(bad(format!(
                "expected an id and {n} tiles, found {} words",
                words.len()
            )));
        }
        let tiles: Vec<u8> = words[1..=n]
            .iter()
            .map(|w| {
                whole_number(w)
                    .and_then(|t| u8::try_from(t).ok())
                    .ok_or_else(|| bad(format!("`{w}` is not a tile")))
            })
            .collect::<Result<_, _>>()?;
        let start = State::from_tiles(board, &tiles).map_err(|e| bad(e.to_string()))?;
        let published = match words.get(n + 1) {
            Some(w) => Some(
                whole_number(w)
                    .and_then(|l| u32::try_from(l).ok())
                    .ok_or_else(|| bad(format!("`{w}` is not a length")))?,
            ),
            None => None,
        };
        let extra = words
            .iter()
            .enumerate()
            .skip(n + 2)
            .map(|(column, w)| {
                whole_number(w).ok_or_else(|| {
                    bad(format!(
                        "column {}: `{w}` is not a number (the columns after the length are \
                         counts, such as the published nodes)",
                        column + 1
                    ))
                })
            })
            .collect::<Result<_, _>>()?;
        let id = words[0].to_string();
        if id.starts_with('.')
            || !id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        {
            // An id names the instance's checkpoint file: no path, nothing hidden.
            return Err(bad(format!(
                "id `{id}`: an id is letters, digits, `-`, `_` and `.` (not first)"
            )));
        }
        if id.len() > MAX_ID_LEN {
            return Err(bad(format!(
                "id `{}...`: longer than {MAX_ID_LEN} characters (an id names files)",
                &id[..16]
            )));
        }
        if !seen.insert(id.clone()) {
            return Err(SetError::DuplicateId { line: line_no, id });
        }
        set.push(Instance {
            id,
            start,
            published,
            extra,
        });
    }
    Ok(set)
}

/// Puts `set` in order of each instance's last number, smallest first (in Korf's files the
/// published node count: easiest first), instances without one last; stable otherwise.
pub fn sort_easiest_first(set: &mut [Instance]) {
    set.sort_by_key(|i| i.published_nodes().unwrap_or(u64::MAX));
}

/// Reads a results file and checks every line against `set`: a known id, the solution's
/// letters replayed from its start reach `goal` in the line's length, and that length is the
/// published one where there is one.
///
/// # Errors
/// [`SetError::BadResult`] naming the first line that fails.
pub fn parse_results(
    text: &str,
    set: &[Instance],
    goal: &State,
) -> Result<Vec<Finished>, SetError> {
    let mut finished: Vec<Finished> = Vec::new();
    let mut first_line = std::collections::HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let Some(entry) = parse_result_line(i + 1, line, set, goal)? else {
            continue;
        };
        // Runs sharing a file may each append an instance once; two lines that disagree on
        // its length cannot both be optimal.
        if let Some(&(line, length)) = first_line.get(&entry.id) {
            if length != entry.length {
                return Err(SetError::BadResult {
                    line: i + 1,
                    why: format!(
                        "instance {} finished in {} moves, but in {length} on line {line}",
                        entry.id, entry.length
                    ),
                });
            }
            continue;
        }
        first_line.insert(entry.id.clone(), (i + 1, entry.length));
        finished.push(entry);
    }
    Ok(finished)
}

/// Line `line_no` of a results file, checked as [`parse_results`] says; `None` for a blank or
/// comment line.
fn parse_result_line(
    line_no: usize,
    line: &str,
    set: &[Instance],
    goal: &State,
) -> Result<Option<Finished>, SetError> {
    // A byte-order mark inside the file (files joined with `cat`) is no part of the id.
    let line = without_bom(line);
    if line.trim().is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let bad = |why: String| SetError::BadResult { line: line_no, why };
    let words: Vec<&str> = line.split('\t').collect();
    if words.len() != 5 {
        return Err(bad(format!(
            "expected 5 tab-separated fields (id, length, nodes, seconds, moves), found {}",
            words.len()
        )));
    }
    let number =
        |w: &str, what: &str| whole_number(w).ok_or_else(|| bad(format!("`{w}` is not a {what}")));
    let entry = Finished {
        id: words[0].to_string(),
        length: u32::try_from(number(words[1], "length")?)
            .map_err(|_| bad(format!("`{}` is not a length", words[1])))?,
        nodes: number(words[2], "node count")?,
        seconds: words[3]
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0)
            .ok_or_else(|| bad(format!("`{}` is not a number of seconds", words[3])))?,
        moves: words[4].to_string(),
    };
    let instance = set
        .iter()
        .find(|s| s.id == entry.id)
        .ok_or_else(|| bad(format!("id {} is not in the instance file", entry.id)))?;
    check_moves(instance, &entry.moves, entry.length, goal).map_err(|e| bad(e.to_string()))?;
    Ok(Some(entry))
}

/// A results file as [`run`] reads it before appending: the finished lines, and a last line
/// cut short (no end of line, and it does not check: a write stopped by a kill or a full
/// disk), which [`run`] removes so that the instance is solved again.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResultsFile {
    /// Every line that checks.
    pub finished: Vec<Finished>,
    /// The cut last line: its number and text.
    pub cut: Option<(usize, String)>,
    /// The length of the file without the cut line (the whole file without one).
    keep: usize,
    /// Whether the file ends in a line that checks but has no end of line.
    unended: bool,
}

/// Reads the results file at `path` (none yet is an empty one), at most [`MAX_FILE_BYTES`],
/// and checks it as [`parse_results`] does, except that a last line without its end of line
/// that does not check is set apart in [`ResultsFile::cut`] instead of refused.
///
/// # Errors
/// [`SetError::Io`] for a file that cannot be read, is not text or is too large;
/// [`SetError::BadResult`] naming the first other line that does not check.
pub fn read_results(path: &Path, set: &[Instance], goal: &State) -> Result<ResultsFile, SetError> {
    if !path.exists() {
        return Ok(ResultsFile::default());
    }
    if !path.is_file() {
        return Err(not_regular(path));
    }
    results_from_text(&read_text(path)?, set, goal)
}

/// The ids of the whole, checking lines appended to `file` since its first `seen_len` bytes
/// (which then cover them). Best effort: what cannot be read is read at the next start.
fn finished_since(
    mut file: &std::fs::File,
    seen_len: &mut u64,
    set: &[Instance],
    goal: &State,
) -> Vec<String> {
    use std::io::{Read as _, Seek as _};
    let Ok(len) = file.metadata().map(|m| m.len()) else {
        return Vec::new();
    };
    if len <= *seen_len || file.seek(std::io::SeekFrom::Start(*seen_len)).is_err() {
        return Vec::new();
    }
    let mut bytes = Vec::new();
    if file.take(len - *seen_len).read_to_end(&mut bytes).is_err() {
        return Vec::new();
    }
    let Some(end) = bytes.iter().rposition(|&b| b == b'\n') else {
        return Vec::new();
    };
    *seen_len += end as u64 + 1;
    String::from_utf8_lossy(&bytes[..=end])
        .lines()
        .filter_map(|line| parse_result_line(0, line, set, goal).ok().flatten())
        .map(|f| f.id)
        .collect()
}

/// The error for a results file that is not a regular file.
fn not_regular(path: &Path) -> SetError {
    SetError::Io(format!(
        "{}: not a regular file (a results file is appended to)",
        path.display()
    ))
}

/// [`read_results`] of the text read.
fn results_from_text(text: &str, set: &[Instance], goal: &State) -> Result<ResultsFile, SetError> {
    let whole = text.rfind('\n').map_or(0, |end| end + 1);
    let (complete, tail) = text.split_at(whole);
    let mut file = ResultsFile {
        finished: parse_results(complete, set, goal)?,
        cut: None,
        keep: text.len(),
        unended: false,
    };
    if !tail.is_empty() {
        let line_no = complete.lines().count() + 1;
        // A line of a file with Windows line ends keeps its `\r` when the `\n` is missing.
        let line = without_bom(tail)
            .strip_suffix('\r')
            .unwrap_or(without_bom(tail));
        match parse_result_line(line_no, line, set, goal) {
            Ok(entry) => {
                file.finished.extend(entry);
                file.unended = true;
            }
            Err(_) if is_cut_write(line, set, goal) => {
                file.cut = Some((line_no, tail.to_string()));
                file.keep = whole;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(file)
}

/// Whether `line`, the last of a results file without its end of line, is the start of a
/// line that this runner was writing when it stopped: a known id (or the start of one, cut
/// inside it), then tab-separated fields of the runner's form (counts in digits, seconds
/// as digits and a point, moves in U D L R) as far as they go, and fewer moves than its
/// length says, which do not reach the goal (a proper prefix of a shortest path never
/// does). Anything else at the end of the file (an instance line, notes, a whole answer that
/// does not check, an answer with a mistyped length) is not the runner's to remove.
fn is_cut_write(line: &str, set: &[Instance], goal: &State) -> bool {
    let fields: Vec<&str> = line.split('\t').collect();
    let id = fields[0];
    if fields.len() == 1 {
        return !id.is_empty() && set.iter().any(|i| i.id.starts_with(id));
    }
    if fields.len() > 5 || !set.iter().any(|i| i.id == id) {
        return false;
    }
    let digits = |w: &str| w.bytes().all(|b| b.is_ascii_digit());
    let seconds = |w: &str| {
        let (whole, fraction) = w.split_once('.').unwrap_or((w, ""));
        digits(whole) && digits(fraction)
    };
    let length = fields[1].parse::<usize>().ok();
    let reaches_goal = |letters: &str| {
        let instance = set.iter().find(|i| i.id == id).expect("a known id");
        let moves: Option<Vec<Move>> = letters.chars().map(Move::from_letter).collect();
        moves
            .and_then(|moves| Solution::from_moves(instance.start, moves).ok())
            .is_some_and(|solution| solution.end() == *goal)
    };
    fields.iter().enumerate().skip(1).all(|(k, w)| match k {
        1 | 2 => digits(w),
        3 => seconds(w),
        _ => {
            w.bytes().all(|b| b"UDLR".contains(&b))
                && length.is_some_and(|l| w.len() < l)
                && !reaches_goal(w)
        }
    })
}

/// The most bytes an instance or results file may hold (a million 24-puzzle results lines is
/// about 150 MB): a file that never ends (`/dev/zero`) is refused, not read into memory.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// The longest id: an id names two files (`ID.checkpoint`, `ID.seconds`), within every file
/// system's 255 bytes.
const MAX_ID_LEN: usize = 100;

/// The text of the file at `path`, at most [`MAX_FILE_BYTES`].
///
/// # Errors
/// [`SetError::Io`] naming the file: unreadable, not UTF-8, or larger than the cap.
pub fn read_text(path: &Path) -> Result<String, SetError> {
    let file =
        std::fs::File::open(path).map_err(|e| SetError::Io(format!("{}: {e}", path.display())))?;
    read_capped(file, path)
}

/// What `reader` (the file at `path`) holds, at most [`MAX_FILE_BYTES`], as text.
fn read_capped(reader: impl std::io::Read, path: &Path) -> Result<String, SetError> {
    use std::io::Read as _;
    let io = |why: String| SetError::Io(format!("{}: {why}", path.display()));
    let mut bytes = Vec::new();
    reader
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io(e.to_string()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(io(format!("larger than {} MiB", MAX_FILE_BYTES >> 20)));
    }
    String::from_utf8(bytes).map_err(|_| io("not UTF-8 text".into()))
}

/// `text` without a leading byte-order mark (an editor's, invisible in error messages).
fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// A count written as decimal digits only (no sign, no spaces), as a results file and an
/// instance file's columns hold them.
fn whole_number(word: &str) -> Option<u64> {
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    word.parse().ok()
}

/// Replays `letters` from `instance`'s start: they must be legal, reach `goal`, number
/// `length`, and `length` must be the published one where there is one.
fn check_moves(
    instance: &Instance,
    letters: &str,
    length: u32,
    goal: &State,
) -> Result<Solution, SetError> {
    let mismatch = |why: String| SetError::Mismatch {
        id: instance.id.clone(),
        why,
    };
    let moves: Vec<Move> = letters
        .chars()
        .map(|c| {
            Some(c)
                .filter(|c| matches!(c, 'U' | 'D' | 'L' | 'R'))
                .and_then(Move::from_letter)
                .ok_or_else(|| mismatch(format!("`{c}` is not a move (U, D, L or R)")))
        })
        .collect::<Result<_, _>>()?;
    let solution =
        Solution::from_moves(instance.start, moves).map_err(|e| mismatch(e.to_string()))?;
    if solution.end() != *goal {
        return Err(mismatch(format!(
            "the moves end at {}, not the goal {goal}",
            solution.end()
        )));
    }
    if u32::try_from(solution.len()).ok() != Some(length) {
        return Err(mismatch(format!(
            "{} moves, recorded as {length}",
            solution.len()
        )));
    }
    if let Some(published) = instance.published {
        if length != published {
            return Err(mismatch(format!(
                "length {length}, but the published optimal length is {published}"
            )));
        }
    }
    Ok(solution)
}

/// What [`run`] did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Instances found finished in the results file (not searched again).
    pub skipped: usize,
    /// Instances solved, checked and appended now.
    pub solved: Vec<Finished>,
    /// Instances that failed (not appended), with why.
    pub failed: Vec<SetError>,
    /// The results file's last line, cut short and removed before appending (its number and
    /// text; see [`read_results`]).
    pub cut: Option<(usize, String)>,
    /// Whether the run stopped early: a search asked to stop by its observer
    /// ([`Limit::Stopped`]) ends the run with its instance (reported in `failed`).
    pub stopped: bool,
}

/// Solves every instance of `set` (or, with `only`, those of the named ids) not finished in
/// the results file at `results` (created if missing), in `set`'s order, with `solve`; checks
/// each solution by replay against the goal and the published length and appends it at once.
/// An instance that fails (a search that gives up, a length other than the published one) is
/// reported in the summary, not appended, and the run goes on, except after a search asked
/// to stop by its observer ([`Limit::Stopped`]: a signal, for the command line), which ends
/// the run ([`Summary::stopped`]). With `checkpoint_dir`, an instance's checkpoint and seconds
/// there (`ID.checkpoint`, `ID.seconds`, [`RunClock`]) are removed once its line is on the
/// disk, not before: a solver that keeps its checkpoint when it finds the path
/// ([`Limits::keep_solved_checkpoint`], as [`oracle_solver`]'s does) loses no search to a kill
/// in between, and one whose line cannot be written keeps it for the next run. `observe` sees
/// each instance searched as it ends, with its outcome, solved or failed (instances finished
/// before are not searched and not shown): the caller prints it, as text or as data.
///
/// `set` is the whole instance file even when `only` names a few: the results file is checked
/// against all of it, so one results file serves runs over different subsets.
///
/// # Errors
/// [`SetError::UnknownId`] for an id in `only` that `set` lacks (before anything is searched);
/// a results file that cannot be read, fails its check ([`parse_results`]) or cannot be
/// appended to.
///
/// [`Limits::keep_solved_checkpoint`]: crate::search::Limits::keep_solved_checkpoint
pub fn run(
    set: &[Instance],
    only: Option<&[String]>,
    goal: &State,
    results: &Path,
    checkpoint_dir: Option<&Path>,
    mut solve: impl FnMut(&Instance) -> Result<SearchResult, String>,
    mut observe: impl FnMut(&Instance, &Result<Finished, SetError>),
) -> Result<Summary, SetError> {
    if let Some(id) = only
        .unwrap_or_default()
        .iter()
        .find(|id| !set.iter().any(|i| &i.id == *id))
    {
        return Err(SetError::UnknownId { id: id.clone() });
    }
    let chosen = |i: &Instance| only.is_none_or(|ids| ids.contains(&i.id));
    let io = |e: std::io::Error| SetError::Io(format!("{}: {e}", results.display()));
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(results)
        .map_err(io)?;
    // Appended to and cut: a pipe or a device (which may never end) is no results file.
    if !file.metadata().map_err(io)?.is_file() {
        return Err(not_regular(results));
    }
    // Runs sharing the file take turns: reading it and removing a cut line is one step, and
    // so is each append, so no run removes what another has just written. (Advisory: a file
    // system without locks runs without them, as before.)
    let _ = file.lock();
    let read = results_from_text(&read_capped(&file, results)?, set, goal)?;
    let mut done: HashSet<String> = read.finished.iter().map(|f| f.id.clone()).collect();
    if let Some((_, cut)) = &read.cut {
        // A line cut short by a kill or a full disk: it holds no answer, and the next line
        // must start clean. Its instance is not done, so it is solved again. Not while
        // another run is appending: a file that grew since it was read is left alone.
        let read_len = (read.keep + cut.len()) as u64;
        if file.metadata().map_err(io)?.len() != read_len {
            return Err(SetError::Io(format!(
                "{}: changed while it was read (another run appending?): start again",
                results.display()
            )));
        }
        file.set_len(read.keep as u64).map_err(io)?;
    } else if read.unended {
        // A complete last line without its end of line (written by hand): finish it.
        file.write_all(b"\n").map_err(io)?;
    }
    let mut seen_len = file.metadata().map_err(io)?.len();
    let _ = file.unlock();
    let mut summary = Summary {
        cut: read.cut.clone(),
        ..Summary::default()
    };
    for instance in set.iter().filter(|i| chosen(i)) {
        // What other runs sharing the file appended meanwhile: an instance one of them
        // finished is not searched again.
        let _ = file.lock();
        done.extend(finished_since(&file, &mut seen_len, set, goal));
        let _ = file.unlock();
        if done.contains(instance.id.as_str()) {
            summary.skipped += 1;
            continue;
        }
        let result = match solve(instance) {
            Ok(result) => result,
            Err(why) => {
                let failed = Err(SetError::Unsolved {
                    id: instance.id.clone(),
                    why,
                });
                observe(instance, &failed);
                summary.failed.extend(failed.err());
                continue;
            }
        };
        let outcome = checked(instance, &result, goal);
        if let Ok(finished) = &outcome {
            append(&file, finished, results)?;
            if let Some(dir) = checkpoint_dir {
                remove_checkpoint(dir, &instance.id);
            }
        }
        observe(instance, &outcome);
        match outcome {
            Ok(finished) => summary.solved.push(finished),
            Err(e) => summary.failed.push(e),
        }
        // Asked to stop (the observer of `Limits`: a signal, for the command line): the run
        // stops with this instance, whose checkpoint holds its work.
        if matches!(result.outcome, Outcome::GaveUp(Limit::Stopped)) {
            summary.stopped = true;
            break;
        }
    }
    Ok(summary)
}

/// What [`run`] makes of `instance`'s search `result`: its results line once the solution
/// checks (replayed to `goal`, the published length), else why not.
fn checked(instance: &Instance, result: &SearchResult, goal: &State) -> Result<Finished, SetError> {
    let failed = |why: String| SetError::Unsolved {
        id: instance.id.clone(),
        why,
    };
    match &result.outcome {
        Outcome::Solved(solution) => {
            let letters = solution.moves_string();
            let length = u32::try_from(solution.len()).expect("fewer than 2^32 moves");
            match check_moves(instance, &letters, length, goal) {
                Ok(_) => Ok(Finished {
                    id: instance.id.clone(),
                    length,
                    nodes: result.generated,
                    seconds: result.elapsed.as_secs_f64(),
                    moves: letters,
                }),
                // Reported with its moves: a search of hours is not thrown away over a
                // published length that may be the wrong one.
                Err(SetError::Mismatch { id, why }) => Err(SetError::Mismatch {
                    id,
                    why: format!("{why} (found {length} moves: {letters})"),
                }),
                Err(e) => Err(e),
            }
        }
        Outcome::Unsolvable => Err(failed("unsolvable".into())),
        Outcome::GaveUp(limit) => Err(failed(format!("gave up at the {limit}"))),
        Outcome::Refused(error) => Err(SetError::Checkpoint {
            id: instance.id.clone(),
            why: error.to_string(),
        }),
    }
}

/// Appends `finished`'s line to the results `file` (at `path`), in one write under the lock:
/// runs appending to one file at once keep their lines whole.
///
/// # Errors
/// [`SetError::Io`] quoting the whole line, so the answer is not lost; the part of it that
/// reached the file is taken back (half a line would join the next run's).
fn append(mut file: &std::fs::File, finished: &Finished, path: &Path) -> Result<(), SetError> {
    let _ = file.lock();
    let before = file.metadata().map(|m| m.len());
    let written = file
        .write_all(format!("{finished}\n").as_bytes())
        .and_then(|()| file.flush())
        // On the disk before the instance's checkpoint is removed (`run`, next): this line
        // is then the search's only copy.
        .and_then(|()| file.sync_data());
    if let Err(e) = written {
        if let Ok(len) = before {
            let _ = file.set_len(len);
        }
        return Err(SetError::Io(format!(
            "{}: {e}; the line not written: {finished}",
            path.display()
        )));
    }
    let _ = file.unlock();
    Ok(())
}

/// A solver for [`run`] that asks `oracle` for each instance's optimal path to `goal`, as
/// `how` says (its pattern databases where the data directory has them for the goal, with
/// regular and reflected lookups; its threads), and with `checkpoint_dir` keeps each instance's
/// checkpoint and seconds there ([`RunClock`]), so a run stopped and started again resumes
/// the instance in progress. The command line's `npuzzle solve-set` is this over [`run`].
///
/// Nodes are the oracle's count (generated); seconds are the wall time of each instance's
/// answer, over every run of a resumed instance (the table or databases are opened, or
/// built, before the first instance, and not counted).
///
/// # Errors
/// [`SetError::Solver`] for `how` asking for paths not guaranteed optimal (greedy search, a
/// factor of the optimum) or counting in another metric than the single-tile one of the
/// published lengths, and for an oracle that cannot answer the goal itself (pattern
/// databases named but missing, a damaged table): refused before any instance, since every
/// instance would fail. The closure's errors say why no search ran for one instance (a
/// checkpoint of another search, ...).
pub fn oracle_solver<'a>(
    oracle: &'a Oracle,
    goal: &'a State,
    how: How,
    checkpoint_dir: Option<&'a Path>,
) -> Result<impl FnMut(&Instance) -> Result<SearchResult, String> + 'a, SetError> {
    if how.metric != Metric::Stm {
        return Err(SetError::Solver(format!(
            "a set's lengths are single-tile moves; {} lengths cannot be checked against them",
            how.metric
        )));
    }
    if how.guarantee != Guarantee::Optimal || how.choice.algorithm() == Some(Algorithm::Greedy) {
        return Err(SetError::Solver(
            "a set is solved optimally: greedy search and --within find paths that may be longer"
                .into(),
        ));
    }
    // The goal to itself: whatever the answers need (a table, pattern databases) is opened
    // or built now, so that its time is not counted as the first instance's, and a source
    // that fails is said once instead of once an instance.
    oracle
        .solve(goal, goal, how)
        .map_err(|e| SetError::Solver(e.to_string()))?;
    Ok(move |instance: &Instance| {
        let mut how = how;
        let clock = checkpoint_dir.map(|dir| RunClock::start(dir, &instance.id));
        if let Some(clock) = &clock {
            // Removed by `run` once the line is written, not by the search.
            how.limits = how
                .limits
                .checkpoint(clock.checkpoint())
                .keep_solved_checkpoint(true);
        }
        let began = Instant::now();
        let answer = oracle.solve(&instance.start, goal, how);
        let solved = matches!(&answer, Ok(a) if a.value.is_ok());
        // Only IDA* keeps a checkpoint: an answer of A* or a table is this run's time alone,
        // and leaves another search's checkpoint and seconds as they were.
        let checkpointed = match &answer {
            Ok(a) => matches!(
                a.method,
                Method::Search {
                    algorithm: Algorithm::IdaStar,
                    ..
                }
            ),
            Err(_) => true,
        };
        let elapsed = match clock {
            Some(clock) if checkpointed => clock.stop(solved),
            Some(clock) => {
                clock.abandon();
                began.elapsed()
            }
            None => began.elapsed(),
        };
        let answer = match answer {
            Ok(answer) => answer,
            // A checkpoint that cannot be read or written: the run's files, not the search.
            Err(AnswerError::Checkpoint(error)) => {
                return Ok(SearchResult {
                    outcome: Outcome::Refused(error),
                    expanded: 0,
                    generated: 0,
                    elapsed,
                })
            }
            Err(e) => return Err(e.to_string()),
        };
        let outcome = match answer.value {
            Ok(solution) => Outcome::Solved(solution),
            Err(NoAnswer::Unsolvable(_)) => Outcome::Unsolvable,
            Err(NoAnswer::GaveUp(limit)) => Outcome::GaveUp(limit),
        };
        Ok(SearchResult {
            outcome,
            expanded: answer.expanded,
            generated: answer.generated,
            elapsed,
        })
    })
}

/// An instance's time over the runs that resume it from its checkpoint in a checkpoint
/// directory: `DIR/ID.checkpoint` (the search's, [`Limits::checkpoint`]) and `DIR/ID.seconds`
/// (the seconds up to that checkpoint, brought up to date each time the search writes it), so
/// the results line of an instance that took several sittings counts all of them. A run
/// killed between two checkpoints loses the work since the last one, and its next run does
/// that work again: the seconds count to the checkpoint, and the work is counted once.
///
/// [`Limits::checkpoint`]: crate::search::Limits::checkpoint
#[derive(Debug)]
pub struct RunClock {
    writer: std::thread::JoinHandle<()>,
    stop: mpsc::Sender<()>,
    before: Duration,
    began: Instant,
    seconds: PathBuf,
    checkpoint: &'static Path,
}

impl RunClock {
    /// Starts the clock of instance `id` in the checkpoint directory `dir`: the seconds of
    /// earlier runs count when its checkpoint exists (without one the instance starts over,
    /// and so does its time).
    #[must_use]
    pub fn start(dir: &Path, id: &str) -> RunClock {
        // One search per instance: the path lives as long as the process (and keeps `Limits`
        // `Copy`); a few bytes an instance.
        let (checkpoint, seconds) = checkpoint_files(dir, id);
        let checkpoint: &'static Path = Box::leak(checkpoint.into_boxed_path());
        let before = if checkpoint.exists() {
            counted_seconds(&seconds)
        } else {
            Duration::ZERO
        };
        let began = Instant::now();
        let began_on_clock = std::time::SystemTime::now();
        let (stop, stopped) = mpsc::channel::<()>();
        let path = seconds.clone();
        let writer = std::thread::spawn(move || {
            // The checkpoint's time of writing, once it is this run's: the seconds it stands
            // for. Ten stats a second cost nothing beside a search, and a kill loses at most
            // the last tenth of a second's count.
            let mut counted = None;
            while let Err(mpsc::RecvTimeoutError::Timeout) =
                stopped.recv_timeout(Duration::from_millis(100))
            {
                let written = std::fs::metadata(checkpoint)
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|at| at.duration_since(began_on_clock).ok());
                if written.is_some() && written != counted {
                    counted = written;
                    save_seconds(&path, before.saturating_add(written.unwrap_or_default()));
                }
            }
        });
        RunClock {
            writer,
            stop,
            before,
            began,
            seconds,
            checkpoint,
        }
    }

    /// The instance's checkpoint file, for [`Limits::checkpoint`](crate::search::Limits::checkpoint).
    #[must_use]
    pub fn checkpoint(&self) -> &'static Path {
        self.checkpoint
    }

    /// The instance's whole time, this run's and the earlier ones'. The seconds file is
    /// brought up to date for the next run while the checkpoint it counts for is there, and
    /// removed once there is no checkpoint left (nothing to resume). A `solved` instance whose
    /// checkpoint was kept ([`Limits::keep_solved_checkpoint`]) keeps the seconds of that
    /// checkpoint, for a run that must find the path again from it; [`run`] removes both once
    /// the results line is written.
    ///
    /// [`Limits::keep_solved_checkpoint`]: crate::search::Limits::keep_solved_checkpoint
    pub fn stop(self, solved: bool) -> Duration {
        let total = self.before.saturating_add(self.began.elapsed());
        let _ = self.stop.send(());
        let _ = self.writer.join();
        if !self.checkpoint.exists() {
            let _ = std::fs::remove_file(&self.seconds);
        } else if !solved {
            save_seconds(&self.seconds, total);
        }
        total
    }

    /// Stops the clock without counting this run: for an answer that kept no checkpoint (A*,
    /// a table), where the files, if any, are another search's and stay as they were.
    pub fn abandon(self) {
        let _ = self.stop.send(());
        let _ = self.writer.join();
    }
}

/// Removes instance `id`'s checkpoint and seconds from the checkpoint directory `dir` (see
/// [`RunClock`]), if they are there: once its answer is stored, nothing is left to resume.
pub fn remove_checkpoint(dir: &Path, id: &str) {
    let (checkpoint, seconds) = checkpoint_files(dir, id);
    let _ = std::fs::remove_file(checkpoint);
    let _ = std::fs::remove_file(seconds);
}

/// Instance `id`'s files in the checkpoint directory `dir`: `ID.checkpoint` and `ID.seconds`.
fn checkpoint_files(dir: &Path, id: &str) -> (PathBuf, PathBuf) {
    (
        dir.join(format!("{id}.checkpoint")),
        dir.join(format!("{id}.seconds")),
    )
}

/// The seconds an `ID.seconds` file counts; zero where it is missing, not a number (or
/// negative, or more than a `Duration` holds), or not a small regular file (a FIFO there
/// would block the run).
fn counted_seconds(path: &Path) -> Duration {
    std::fs::metadata(path)
        .ok()
        .filter(|meta| meta.is_file() && meta.len() < 100)
        .and_then(|_| std::fs::read_to_string(path).ok())
        .and_then(|text| text.trim().parse::<f64>().ok())
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .unwrap_or(Duration::ZERO)
}

/// Writes `seconds` to `path` atomically (never half a number). Best effort: a file that
/// cannot be written costs the next run's count, not this run's search.
fn save_seconds(path: &Path, seconds: Duration) {
    let _ = write_atomic(path, format!("{:.3}\n", seconds.as_secs_f64()).as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seconds file counts what it says when that is a duration, and zero otherwise: a
    /// value past what a `Duration` holds once panicked the run and the report.
    #[test]
    fn a_seconds_file_counts_only_a_duration() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("1.seconds");
        for (text, seconds) in [
            ("12.5\n", 12.5),
            ("0\n", 0.0),
            ("1e20\n", 0.0),
            ("-3\n", 0.0),
            ("nan\n", 0.0),
            ("inf\n", 0.0),
            ("twelve\n", 0.0),
        ] {
            std::fs::write(&path, text).unwrap();
            assert_eq!(counted_seconds(&path).as_secs_f64(), seconds, "{text:?}");
        }
        assert_eq!(counted_seconds(&dir.path().join("missing")), Duration::ZERO);
    }
}
