//! `batch`'s fast path: plain lines that each ask one distance to the one goal of the run
//! (`--goal`, else the board's default goal), answered a piece at a time in bulk.
//!
//! The general path answers a line through the answer layer's per-question machinery
//! ([`Oracle::distance`]: routing, the goal's table found again, five reads of the table).
//! Here a piece's lines are read first ([`State::parse`], whose plain spellings cost no
//! allocation), their tiles handed to [`Oracle::distances`] in one call (one rank and one read
//! per line once the table was checked deeply, five reads before, as the general path), and
//! their rows written in input order. Only what the general path would answer from the same
//! table the same way goes through here: every other line (a malformed one, `START,GOAL`,
//! another board, an unsolvable one) is handed back to the general path, in its place among
//! the rows, so its row and error are the general path's. A piece whose bulk read fails (a
//! damaged table) is answered wholly by the general path.
//!
//! `NPUZZLE_BATCH_GENERAL=1` in the environment turns this path off (and with it the
//! encoder-free rows of `batch_rows`): the reference the tests compare this path's output with.

use npuzzle::answer::DEEP_CHECK_ROWS;
use npuzzle::table::rows::UNSOLVABLE;
use npuzzle::{Board, Metric, Oracle, State};

use super::batch_input;
use super::batch_rows::Sink;

/// The environment variable that turns the fast path off (any value but `0` or empty).
pub const FORCE_GENERAL: &str = "NPUZZLE_BATCH_GENERAL";

/// Whether [`FORCE_GENERAL`] asks for the general path.
pub fn general_forced() -> bool {
    std::env::var_os(FORCE_GENERAL).is_some_and(|v| !v.is_empty() && v != "0")
}

/// The questions the fast path answers: distances (no moves, single-tile metric) to `goal`, on
/// its board, from the table the answer layer uses there.
pub struct FastLines {
    /// The board given with `--board`, as the general path reads each line with it.
    asked: Option<Board>,
    /// Every question's goal.
    goal: State,
    /// Whether the table was checked deeply (or the check was tried).
    deep_checked: std::sync::atomic::AtomicBool,
}

/// One question line of a piece.
struct Line {
    /// Its 1-based number in the input.
    number: u64,
    /// Where its text (trimmed) lies in the piece.
    text: std::ops::Range<usize>,
    /// Its row among the bulk read's, or `None` for the general path.
    row: Option<usize>,
}

impl FastLines {
    /// The fast path for a run with these settings, or `None` where it does not apply: moves
    /// asked for, another metric, a board without a table, or [`FORCE_GENERAL`] set.
    pub fn new(
        asked: Option<Board>,
        goal: Option<State>,
        solve: bool,
        metric: Metric,
        oracle: &Oracle,
    ) -> Option<FastLines> {
        if solve || metric != Metric::Stm || general_forced() {
            return None;
        }
        let board = asked.unwrap_or(npuzzle::answer::DEFAULT_BOARD);
        let goal = goal.unwrap_or_else(|| State::goal(board));
        oracle.uses_table(goal.board()).then_some(FastLines {
            asked,
            goal,
            deep_checked: false.into(),
        })
    }

    /// Called between blocks with the lines read so far: once there are [`DEEP_CHECK_ROWS`],
    /// checks the open table deeply, as [`Oracle::distances`] does before that many rows, so
    /// that each later line reads one entry. A table that fails the check stays as it was:
    /// each read is then checked against its neighbours, as on the general path.
    pub fn lines_read(&self, lines: u64, oracle: &Oracle) {
        use std::sync::atomic::Ordering;
        if lines >= DEEP_CHECK_ROWS as u64 && !self.deep_checked.load(Ordering::Relaxed) {
            if let Some(table) = oracle.open_table(&self.goal) {
                self.deep_checked.store(true, Ordering::Relaxed);
                // A failure is found again, and reported, by the reads that meet it.
                let _ = table.verify_deep();
            }
        }
    }

    /// Answers the plain lines of `piece` (the first numbered `first + 1`) into `sink`, handing
    /// each line it does not answer to `general`; `false`, with nothing written, when the
    /// goal's table is not open yet (the general path opens it, or finds that no line needs
    /// it) or its bulk read fails: the caller then answers the whole piece line by line.
    pub fn piece(
        &self,
        oracle: &Oracle,
        piece: &[u8],
        first: u64,
        sink: &mut Sink,
        mut general: impl FnMut(&[u8], u64, &mut Sink),
    ) -> bool {
        if oracle.open_table(&self.goal).is_none() {
            return false;
        }
        let n = self.goal.board().cells();
        let mut lines = Vec::with_capacity(piece.len() / (n + 1) + 1);
        let mut states = Vec::with_capacity(lines.capacity());
        let mut tiles = Vec::with_capacity(lines.capacity() * n);
        let (mut at, mut number) = (0, first);
        while at < piece.len() {
            let end = memchr::memchr(b'\n', &piece[at..]).map_or(piece.len(), |i| at + i);
            let line = &piece[at..end];
            let trimmed = line.trim_ascii();
            let from = at + (line.len() - line.trim_ascii_start().len());
            at = end + 1;
            number += 1;
            if batch_input::is_skipped(trimmed) {
                continue;
            }
            let row = self.state(trimmed).map(|state| {
                states.push(state);
                tiles.extend_from_slice(&state.cells()[..n]);
                states.len() - 1
            });
            lines.push(Line {
                number,
                text: from..from + trimmed.len(),
                row,
            });
        }
        let mut distances = vec![0; states.len()];
        if oracle
            .distances(&tiles, &self.goal, &mut distances)
            .is_err()
        {
            return false;
        }
        for line in lines {
            match line.row.map(|row| (row, distances[row])) {
                Some((row, distance)) if distance != UNSOLVABLE => {
                    sink.answer(&states[row], &self.goal, distance, None);
                }
                // An unsolvable start's row and message are the general path's.
                _ => general(&piece[line.text], line.number, sink),
            }
        }
        true
    }

    /// The start of a line the general path would read as one state on the goal's board and
    /// answer with the goal: not `START,GOAL` (one comma), and read by the same parser.
    fn state(&self, text: &[u8]) -> Option<State> {
        // (A plain count: lines are short, too short for `memchr` to pay.)
        if text.iter().filter(|&&b| b == b',').count() == 1 {
            return None; // `START,GOAL`
        }
        // The plain spellings are ASCII: no UTF-8 check for them. Any other line the general
        // path would read as a state is read here the same way.
        let start = match State::parse_plain_bytes(text, self.asked) {
            Some(start) => start,
            None => State::parse(std::str::from_utf8(text).ok()?, self.asked).ok()?,
        };
        (start.board() == self.goal.board()).then_some(start)
    }
}

#[cfg(test)]
mod tests {
    use super::super::args::BatchFormat;
    use super::*;

    #[test]
    fn plain_lines_are_answered_here_and_the_rest_handed_to_the_general_path() {
        let oracle = Oracle::in_memory();
        let fast = FastLines::new(None, None, false, Metric::Stm, &oracle).expect("3x3 has tables");
        let piece: &[u8] = b"123456780\n\n1 2 3 4 5 6 7 0 8\r\n213456780\n12345678\n# c\n\
            123456780,123456708\n1,2,3,4,5,6,0,7,8\n123/456/_78";
        let mut sink = Sink::new(BatchFormat::Csv, false, true, 1024);
        let mut handed = Vec::new();
        let mut general = |text: &[u8], line: u64, _: &mut Sink| {
            handed.push((line, String::from_utf8_lossy(text).into_owned()));
        };
        assert!(
            !fast.piece(&oracle, piece, 10, &mut sink, &mut general),
            "the table is not open yet: the general path opens it"
        );
        oracle.table(&State::goal(Board::THREE_BY_THREE)).unwrap();
        assert!(fast.piece(&oracle, piece, 10, &mut sink, &mut general));
        let handed: Vec<(u64, &str)> = handed.iter().map(|(l, t)| (*l, t.as_str())).collect();
        assert_eq!(
            handed,
            [
                (14, "213456780"),
                (15, "12345678"),
                (17, "123456780,123456708")
            ]
        );
        let rows = String::from_utf8(sink.finish().bytes).unwrap();
        assert_eq!(
            rows,
            "123456780,123456780,0,\n123456708,123456780,1,\n\
             123456078,123456780,2,\n123456078,123456780,2,\n"
        );
    }

    #[test]
    fn moves_another_metric_or_the_switch_turn_it_off() {
        let oracle = Oracle::in_memory();
        assert!(FastLines::new(None, None, true, Metric::Stm, &oracle).is_none());
        assert!(FastLines::new(None, None, false, Metric::Mtm, &oracle).is_none());
        let search_only = Oracle::search_only();
        assert!(FastLines::new(None, None, false, Metric::Stm, &search_only).is_none());
        let four = Board::new(4, 4).unwrap();
        assert!(FastLines::new(Some(four), None, false, Metric::Stm, &oracle).is_none());
    }
}
