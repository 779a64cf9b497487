//! A puzzle state: which tile sits in which cell, with no heap allocation.
//!
//! Parsing accepts every documented spelling (`123456780`, `1 2 3 4 5 6 7 8 0`,
//! `1,2,3,4,5,6,7,8,0`, `123/456/780`, with `0`, `_` or `.` as the blank) and refuses anything
//! else with an error that names the problem and the 1-based column where it was found.

#![warn(clippy::cast_possible_truncation)]

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, Move, MAX_CELLS};

/// The tile number of the blank.
pub const BLANK: u8 = 0;

/// How every drawing of a board (grids, the terminal game) shows the blank. The parser also
/// reads `0` and `.` for it; output uses this one spelling.
pub const BLANK_GLYPH: char = '_';

/// A cell index or a tile number as the byte a state stores it in: a board has at most
/// [`MAX_CELLS`] (25) cells, so both fit.
#[inline]
fn to_byte(value: usize) -> u8 {
    debug_assert!(value < MAX_CELLS);
    u8::try_from(value).expect("a board has at most 25 cells")
}

/// The parity of a count. As a state's class ([`State::parity_class`]) it is the invariant
/// every move keeps, and which of a board's two halves the state lies in.
///
/// Two states of one board reach each other exactly when their classes agree; a table holds the states of the goal's class only.
///
/// ```
/// use npuzzle::{Parity, State};
/// let goal: State = "123456780".parse()?;
/// let swapped: State = "213456780".parse()?;
/// assert_eq!(goal.parity_class(), Parity::Even);
/// assert_eq!(swapped.parity_class(), !Parity::Even);
/// assert_eq!(swapped.parity_class().to_string(), "odd");
/// # Ok::<(), npuzzle::ParseStateError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Parity {
    /// An even count (of inversions, plus the blank's row where the width is even).
    Even,
    /// An odd count.
    Odd,
}

impl Parity {
    /// `Odd` when `odd`, else `Even`: the parity of a count given as its low bit.
    pub const fn from_odd(odd: bool) -> Parity {
        if odd {
            Parity::Odd
        } else {
            Parity::Even
        }
    }

    /// Whether this is `Odd`: the low bit of the count.
    pub const fn is_odd(self) -> bool {
        matches!(self, Parity::Odd)
    }
}

/// The other parity.
impl std::ops::Not for Parity {
    type Output = Parity;

    fn not(self) -> Parity {
        Parity::from_odd(!self.is_odd())
    }
}

/// `even` or `odd`, as messages name it.
impl fmt::Display for Parity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_odd() { "odd" } else { "even" })
    }
}

/// A state of a board: `cells[c]` is the tile in cell `c` (row-major), `0` the blank.
///
/// Holding a `State` means it is valid: every tile `0..cells` appears exactly once.
/// It is `Copy` and 28 bytes (the board's two sides, the blank's cell, 25 cells); no state
/// allocates.
///
/// ```
/// use npuzzle::{Move, State};
/// assert_eq!(std::mem::size_of::<State>(), 28);
/// let state: State = "123/456/708".parse()?;
/// assert_eq!(state.blank(), 7);
/// let solved = state.apply(Move::Right).expect("the blank can move right");
/// assert_eq!(solved.to_string(), "123456780");
/// assert_eq!(solved, State::goal(state.board()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    board: Board,
    blank: u8,
    cells: [u8; MAX_CELLS],
}

/// Why a state could not be read. Columns are 1-based character positions in the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseStateError {
    /// Nothing but separators or whitespace.
    #[error("empty state: expected the tiles row-major, for example 123456780")]
    Empty,
    /// Far longer than any state's spelling.
    #[error("state too long: {found} bytes (a state has at most 25 cells; at most {MAX_STATE_TEXT} bytes are read)")]
    TooLong {
        /// Bytes found.
        found: usize,
    },
    /// A character that is not a digit, a blank (`0`, `_`, `.`) or a separator.
    #[error("unexpected character `{found}` at column {column}: a state holds digits, `_` or `.` for the blank, and separators ` `, `,`, `/`")]
    StrayCharacter {
        /// The character found.
        found: char,
        /// Its 1-based column.
        column: usize,
    },
    /// A token mixing digits and blank marks, or a number too large to be a tile.
    #[error(
        "bad cell `{token}` at column {column}: a cell is a tile number or `_`/`.` for the blank"
    )]
    BadCell {
        /// The token.
        token: String,
        /// Its 1-based column.
        column: usize,
    },
    /// Two separators with no cell between them, as in `1,,2`.
    #[error("missing cell at column {column}: two separators with nothing between them")]
    MissingCell {
        /// The 1-based column of the second separator.
        column: usize,
    },
    /// The number of cells does not fit the board.
    #[error("wrong number of cells: found {found}, expected {expected} for a {board} board")]
    WrongCellCount {
        /// Cells found.
        found: usize,
        /// Cells the board has.
        expected: usize,
        /// The board.
        board: Board,
    },
    /// The number of cells is not a supported square and no size was given.
    #[error("cell count {found} does not make a square board (4, 9, 16 or 25 cells): give the board as WxH or write rows separated by `/`")]
    NotSquare {
        /// Cells found.
        found: usize,
    },
    /// One cell short of a square board, and no blank among the tiles: the blank was probably
    /// left out.
    #[error("cell count {found} with no blank: is the blank missing? a {board} board has {} cells, one of them the blank (`0`, `_` or `.`)", board.cells())]
    MissingBlank {
        /// Cells found.
        found: usize,
        /// The square board the tiles and a blank would fill.
        board: Board,
    },
    /// More cells than any board holds (and no size was given).
    #[error("{}, and boards have at most {MAX_CELLS} cells", describe_cells(*.found))]
    TooManyCells {
        /// Cells found.
        found: usize,
    },
    /// Rows separated by `/` have different lengths.
    #[error("row {row} has {found} cells but row 1 has {expected}: rows separated by `/` must have equal lengths")]
    RaggedRows {
        /// The 1-based row that differs.
        row: usize,
        /// Cells in that row.
        found: usize,
        /// Cells in the first row.
        expected: usize,
    },
    /// The rows given do not match the board asked for.
    #[error("the rows describe a {found} board, but a {expected} board was asked for")]
    BoardMismatch {
        /// Board the rows describe.
        found: Board,
        /// Board asked for.
        expected: Board,
    },
    /// Rows that describe an unsupported board (a side under 2, or over 25 cells).
    #[error("the rows describe a {width}x{height} board; each side must be at least 2 and the board at most 25 cells")]
    UnsupportedRows {
        /// Cells per row.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A tile number too large for the board.
    #[error("tile {tile} at column {column} is out of range: a {board} board has tiles 0..={max}")]
    TileOutOfRange {
        /// The tile.
        tile: usize,
        /// Its 1-based column.
        column: usize,
        /// The board.
        board: Board,
        /// The largest tile of that board.
        max: usize,
    },
    /// A tile (or the blank) written twice.
    #[error("tile {tile} is repeated at column {column}{}", if *tile == 0 { " (the blank `0`, `_` or `.` may appear once)" } else { "" })]
    RepeatedTile {
        /// The tile (0 for the blank).
        tile: usize,
        /// The 1-based column of the second occurrence.
        column: usize,
    },
}

/// The longest text read as a state, in bytes: a 5x5 state with generous separators and
/// whitespace fits many times over.
pub const MAX_STATE_TEXT: usize = 1024;

/// One cell as written: its value (0 for the blank) and its 1-based column.
#[derive(Clone, Copy)]
pub(crate) struct Token {
    pub(crate) value: usize,
    pub(crate) column: usize,
}

/// The cells of an input, before the board is known: tokens plus row lengths when `/` was used.
pub(crate) struct Lexed {
    pub(crate) tokens: Vec<Token>,
    pub(crate) rows: Vec<usize>,
}

fn is_blank_mark(c: char) -> bool {
    c == '_' || c == '.'
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ',' || c == '/'
}

/// Splits `text` into cells. Without whitespace or commas every character is one cell
/// (`123456780`, `123/456/780`); otherwise cells are separated by whitespace, `,` or `/`.
/// A separated cell above `max_value` is a [`ParseStateError::BadCell`] (99 for [`State`];
/// the large boards of [`crate::large`] read the same spellings with more digits).
pub(crate) fn lex(text: &str, max_value: usize) -> Result<Lexed, ParseStateError> {
    let chars: Vec<(usize, char)> = text.chars().enumerate().map(|(i, c)| (i + 1, c)).collect();
    if let Some(&(column, found)) = chars
        .iter()
        .find(|(_, c)| !(c.is_ascii_digit() || is_blank_mark(*c) || is_separator(*c)))
    {
        return Err(ParseStateError::StrayCharacter { found, column });
    }
    // Whitespace around the state (a trailing newline or `\r`, an indent) does not make it
    // spaced: ` 123456780\r` is the compact form.
    let inner = {
        let first = chars.iter().position(|(_, c)| !c.is_whitespace());
        let last = chars.iter().rposition(|(_, c)| !c.is_whitespace());
        match (first, last) {
            (Some(first), Some(last)) => &chars[first..=last],
            _ => &chars[..0],
        }
    };
    let spaced = inner.iter().any(|(_, c)| c.is_whitespace() || *c == ',');
    let mut tokens = Vec::new();
    let mut rows = vec![0usize];
    let mut saw_slash = false;
    if !spaced {
        for &(column, c) in inner {
            if c == '/' {
                saw_slash = true;
                rows.push(0);
                continue;
            }
            let value = if is_blank_mark(c) {
                0
            } else {
                c.to_digit(10).unwrap_or(0) as usize // only digits remain here
            };
            tokens.push(Token { value, column });
            *rows.last_mut().expect("rows starts non-empty") += 1;
        }
    } else {
        let mut i = 0;
        // The last hard separator (`,` or `/`) seen since the previous cell, to catch `1,,2`.
        let mut pending_hard: Option<(usize, char)> = None;
        while i < chars.len() {
            let (column, c) = chars[i];
            if is_separator(c) {
                if c == ',' || c == '/' {
                    if pending_hard.is_some() || tokens.is_empty() && c == ',' {
                        return Err(ParseStateError::MissingCell { column });
                    }
                    pending_hard = Some((column, c));
                    if c == '/' {
                        saw_slash = true;
                        rows.push(0);
                    }
                }
                i += 1;
                continue;
            }
            let start = i;
            while i < chars.len() && !is_separator(chars[i].1) {
                i += 1;
            }
            let token: String = chars[start..i].iter().map(|(_, c)| *c).collect();
            let value = if token.len() == 1 && token.chars().all(is_blank_mark) {
                0
            } else if token.chars().all(|c| c.is_ascii_digit()) {
                token
                    .parse::<usize>()
                    .ok()
                    .filter(|v| *v <= max_value)
                    .ok_or(ParseStateError::BadCell {
                        token: token.clone(),
                        column,
                    })?
            } else {
                return Err(ParseStateError::BadCell { token, column });
            };
            pending_hard = None;
            tokens.push(Token { value, column });
            *rows.last_mut().expect("rows starts non-empty") += 1;
        }
        if let Some((column, ',')) = pending_hard {
            return Err(ParseStateError::MissingCell { column });
        }
    }
    if tokens.is_empty() {
        return Err(ParseStateError::Empty);
    }
    if !saw_slash {
        rows.clear();
    }
    Ok(Lexed { tokens, rows })
}

/// Reads the plain spellings of a valid state without allocating: one character per cell
/// (`123456780`, `12345678_`), maybe cut into rows by single `/` (`123/456/780`), or cells of
/// one or two digits (or a lone `_` or `.`) apart by spaces or tabs with at most one `,` or `/`
/// between two cells (`1 2 3 4 5 6 7 8 0`, `1,2,3,4,5,6,7,8,0`, `1, 2, 3/4, 5, 6/7, 8, 0`).
/// `Some` only for a text the general parser reads as the same state on the same board; `None`
/// for anything else, which the general parser then reads or refuses, so every error is still
/// its. Batch queries read millions of lines; this is their cost of parsing.
fn parse_plain(text: &[u8], asked: Option<Board>) -> Option<State> {
    if text.len() > MAX_STATE_TEXT {
        return None; // the general parser's `TooLong`
    }
    let text = text.trim_ascii();
    // The lexer's choice: cells are apart when there is whitespace or a comma between them. A
    // text accepted below holds no whitespace but spaces and tabs, so this is the same choice.
    let spaced = text.iter().any(|&b| matches!(b, b' ' | b'\t' | b','));
    let mut read = PlainCells::default();
    if !spaced {
        // One character per cell, rows cut by single `/`.
        for &b in text {
            match b {
                b'0'..=b'9' => read.push(b - b'0')?,
                b'_' | b'.' => read.push(0)?,
                b'/' => read.cut()?,
                _ => return None,
            }
        }
    } else {
        let mut i = 0;
        loop {
            let (value, len) = match *text.get(i..)? {
                [b'_' | b'.', ..] => (0, 1),
                [a @ b'0'..=b'9', b @ b'0'..=b'9', ..] => (10 * (a - b'0') + (b - b'0'), 2),
                [a @ b'0'..=b'9', ..] => (a - b'0', 1),
                _ => return None,
            };
            read.push(value)?;
            i += len;
            if i == text.len() {
                break;
            }
            // Spaces and tabs, with at most one `,` or `/`, part it from the next cell.
            let (mut apart, mut hard) = (0, 0);
            while let Some(&b) = text.get(i) {
                match b {
                    b' ' | b'\t' => {}
                    b',' => hard += 1,
                    b'/' => {
                        hard += 1;
                        read.cut()?;
                    }
                    _ => break,
                }
                apart += 1;
                i += 1;
            }
            if hard > 1 || apart == 0 {
                return None;
            }
        }
    }
    read.state(asked)
}

/// The cells [`parse_plain`] has read so far, and the rows they were cut into.
#[derive(Default)]
struct PlainCells {
    cells: [u8; MAX_CELLS],
    n: usize,
    /// A bit per tile seen.
    seen: u32,
    blank: u8,
    /// Rows started; the first row's length; the current row's.
    rows: usize,
    width: usize,
    row_len: usize,
}

impl PlainCells {
    /// The next cell; `None` for a tile seen before or beyond any board.
    #[inline]
    fn push(&mut self, value: u8) -> Option<()> {
        if usize::from(value) >= MAX_CELLS || self.n == MAX_CELLS || self.seen & (1 << value) != 0 {
            return None;
        }
        self.seen |= 1 << value;
        self.cells[self.n] = value;
        if value == 0 {
            self.blank = to_byte(self.n);
        }
        self.n += 1;
        self.row_len += 1;
        Some(())
    }

    /// A `/`: the end of a row, as long as the first; `None` for an empty or ragged row.
    #[inline]
    fn cut(&mut self) -> Option<()> {
        if self.row_len == 0 || (self.rows > 0 && self.row_len != self.width) {
            return None;
        }
        if self.rows == 0 {
            self.width = self.row_len;
        }
        self.rows += 1;
        self.row_len = 0;
        Some(())
    }

    /// The state read, on the board the general parser would choose (`infer_board`), if its
    /// tiles are a permutation of that board's.
    fn state(mut self, asked: Option<Board>) -> Option<State> {
        let from_rows = match self.rows {
            0 => None,
            _ => {
                self.cut()?; // the last row, after the last `/`
                Some(Board::new(self.width, self.rows).ok()?)
            }
        };
        let n = self.n;
        let board = match (asked, from_rows) {
            (Some(board), rows) if board.cells() == n && rows.is_none_or(|r| r == board) => board,
            (Some(_), _) => return None,
            (None, Some(rows)) => rows,
            (None, None) => Board::square_with_cells(n)?,
        };
        // `n` distinct tiles, each below `n`: a permutation of the board's tiles.
        (board.cells() == n && u64::from(self.seen) == (1u64 << n) - 1).then_some(State {
            board,
            blank: self.blank,
            cells: self.cells,
        })
    }
}

/// Chooses the board from what was asked for, the rows written, or the cell count.
fn infer_board(lexed: &Lexed, asked: Option<Board>) -> Result<Board, ParseStateError> {
    let found = lexed.tokens.len();
    let from_rows = if lexed.rows.is_empty() {
        None
    } else {
        let expected = lexed.rows[0];
        if let Some((i, &len)) = lexed
            .rows
            .iter()
            .enumerate()
            .find(|(_, &len)| len != expected)
        {
            return Err(ParseStateError::RaggedRows {
                row: i + 1,
                found: len,
                expected,
            });
        }
        let (width, height) = (expected, lexed.rows.len());
        Some(
            Board::new(width, height)
                .map_err(|_| ParseStateError::UnsupportedRows { width, height })?,
        )
    };
    match (asked, from_rows) {
        (Some(board), _) if board.cells() != found => Err(ParseStateError::WrongCellCount {
            found,
            expected: board.cells(),
            board,
        }),
        (Some(board), Some(rows)) if rows != board => Err(ParseStateError::BoardMismatch {
            found: rows,
            expected: board,
        }),
        (Some(board), _) => Ok(board),
        (None, Some(rows)) => Ok(rows),
        (None, None) => Board::square_with_cells(found).ok_or_else(|| {
            let has_blank = lexed.tokens.iter().any(|token| token.value == 0);
            match Board::square_with_cells(found + 1) {
                Some(board) if !has_blank => ParseStateError::MissingBlank { found, board },
                _ if found > MAX_CELLS => ParseStateError::TooManyCells { found },
                _ => ParseStateError::NotSquare { found },
            }
        }),
    }
}

/// `36 cells make a 6x6 board` where the count is a square, else `37 cells`.
fn describe_cells(found: usize) -> String {
    let side = (1..=found)
        .find(|side| side * side >= found)
        .unwrap_or(found);
    if side * side == found {
        format!("{found} cells make a {side}x{side} board")
    } else {
        format!("{found} cells")
    }
}

impl State {
    /// Reads a state; the board is `board` if given, else the rows written with `/`, else the
    /// square board with that many cells.
    ///
    /// # Errors
    /// A [`ParseStateError`] naming the problem and its column. Never panics.
    pub fn parse(text: &str, board: Option<Board>) -> Result<State, ParseStateError> {
        // Batch queries read millions of lines: answer the plain spellings without allocating.
        // That path accepts only valid states, so every error still comes from `parse_general`.
        if let Some(state) = parse_plain(text.as_bytes(), board) {
            return Ok(state);
        }
        State::parse_general(text, board)
    }

    /// [`State::parse`] of bytes in one of the plain spellings (one character a cell, maybe
    /// cut into rows by `/`, or cells apart by spaces, tabs and single commas): those are
    /// ASCII, so the bytes need no UTF-8 check first, and nothing is allocated. `None` for
    /// any other text, which [`State::parse`] may still read (the general parser) or refuses
    /// with its error: a caller that reads millions of lines (`npuzzle batch`) tries this
    /// first and hands the rest to [`State::parse`].
    ///
    /// ```
    /// use npuzzle::{Board, State};
    /// let state = State::parse_plain_bytes(b"1 2 3/4 5 6/7 8 _", None).expect("plain");
    /// assert_eq!(Some(state), State::parse("123456780", None).ok());
    /// assert_eq!(State::parse_plain_bytes(b"123456780", Some(Board::new(3, 3)?)), Some(state));
    /// // Not a state, or not a plain spelling: for `State::parse` to judge.
    /// assert_eq!(State::parse_plain_bytes(b"123456788", None), None);
    /// assert_eq!(State::parse_plain_bytes("12345678\u{e9}".as_bytes(), None), None);
    /// # Ok::<(), npuzzle::BoardError>(())
    /// ```
    pub fn parse_plain_bytes(text: &[u8], board: Option<Board>) -> Option<State> {
        parse_plain(text, board)
    }

    /// The general parser behind [`State::parse`]: every form, every error.
    fn parse_general(text: &str, board: Option<Board>) -> Result<State, ParseStateError> {
        // Refuse absurd input before allocating per character: no spelling of a 5x5 state
        // comes near this, and a multi-megabyte line must not cost memory per character.
        if text.len() > MAX_STATE_TEXT {
            return Err(ParseStateError::TooLong { found: text.len() });
        }
        let lexed = lex(text, 99)?;
        let board = infer_board(&lexed, board)?;
        let n = board.cells();
        let mut cells = [0u8; MAX_CELLS];
        let mut seen = [false; MAX_CELLS];
        let mut blank = 0u8;
        for (cell, token) in lexed.tokens.iter().enumerate() {
            if token.value >= n {
                return Err(ParseStateError::TileOutOfRange {
                    tile: token.value,
                    column: token.column,
                    board,
                    max: n - 1,
                });
            }
            if std::mem::replace(&mut seen[token.value], true) {
                return Err(ParseStateError::RepeatedTile {
                    tile: token.value,
                    column: token.column,
                });
            }
            cells[cell] = to_byte(token.value);
            if token.value == 0 {
                blank = to_byte(cell);
            }
        }
        Ok(State {
            board,
            blank,
            cells,
        })
    }

    /// Builds a state from tiles listed row-major.
    ///
    /// # Errors
    /// The same errors as [`State::parse`] (columns are then 1-based indices into `tiles`).
    pub fn from_tiles(board: Board, tiles: &[u8]) -> Result<State, ParseStateError> {
        let text = tiles
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        State::parse(&text, Some(board))
    }

    /// The default goal: tiles `1..n` row-major, then the blank in the last cell (`123456780`).
    pub fn goal(board: Board) -> State {
        State::canonical_goal(board, board.cells() - 1)
    }

    /// The canonical goal with the blank in `blank_cell`: the other cells hold `1..n` in
    /// row-major order. Every goal is a relabelling of the canonical goal with the same blank cell.
    ///
    /// # Panics
    /// If `blank_cell` is not a cell of `board`.
    pub fn canonical_goal(board: Board, blank_cell: usize) -> State {
        assert!(
            blank_cell < board.cells(),
            "blank cell {blank_cell} is off the {board} board"
        );
        let mut cells = [0u8; MAX_CELLS];
        let mut next = 1u8;
        for (cell, slot) in cells.iter_mut().enumerate().take(board.cells()) {
            if cell != blank_cell {
                *slot = next;
                next += 1;
            }
        }
        State {
            board,
            blank: to_byte(blank_cell),
            cells,
        }
    }

    /// Builds a state from cells already known to be a permutation of `0..board.cells()`.
    pub(crate) fn from_valid_cells(board: Board, cells: [u8; MAX_CELLS]) -> State {
        let blank = to_byte(
            cells[..board.cells()]
                .iter()
                .position(|&t| t == BLANK)
                .expect("a valid state has a blank"),
        );
        State {
            board,
            blank,
            cells,
        }
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The tiles, row-major, `0` for the blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells[..self.board.cells()]
    }

    /// The blank's cell.
    #[inline]
    pub fn blank(&self) -> usize {
        usize::from(self.blank)
    }

    /// Whether this is a canonical goal: tiles `1..n` row-major around the blank.
    pub fn is_canonical_goal(&self) -> bool {
        *self == State::canonical_goal(self.board, self.blank())
    }

    /// The state after the blank makes `mv`, or `None` if it would leave the board.
    #[inline]
    pub fn apply(&self, mv: Move) -> Option<State> {
        let target = self.board.step(self.blank(), mv)?;
        let mut next = *self;
        next.cells[self.blank()] = self.cells[target];
        next.cells[target] = BLANK;
        next.blank = to_byte(target);
        Some(next)
    }

    /// The legal moves from here, with the states they lead to.
    pub fn successors(&self) -> impl Iterator<Item = (Move, State)> + '_ {
        Move::ALL
            .into_iter()
            .filter_map(move |mv| self.apply(mv).map(|next| (mv, next)))
    }

    /// The parity of the number of inversions among the tiles, the blank left out.
    pub fn tile_parity(&self) -> Parity {
        let tiles: Vec<u8> = self
            .cells()
            .iter()
            .copied()
            .filter(|&t| t != BLANK)
            .collect();
        let mut odd = false;
        for i in 0..tiles.len() {
            for j in i + 1..tiles.len() {
                odd ^= tiles[i] > tiles[j];
            }
        }
        Parity::from_odd(odd)
    }

    /// The invariant that moves preserve: the tiles' inversion parity, plus on boards of even
    /// width the parity of the blank's row (a vertical move there carries a tile past an odd
    /// number of others). Two states of a board reach each other exactly when their classes agree.
    pub fn parity_class(&self) -> Parity {
        let row_term = self.board.width().is_multiple_of(2)
            && !(self.blank() / self.board.width()).is_multiple_of(2);
        Parity::from_odd(self.tile_parity().is_odd() ^ row_term)
    }

    /// Whether `goal` can be reached from this state (same board, same parity class).
    pub fn can_reach(&self, goal: &State) -> bool {
        self.board == goal.board && self.parity_class() == goal.parity_class()
    }

    /// Renames tiles so that `goal` becomes the canonical goal with the same blank cell.
    ///
    /// Renaming commutes with moves, so the distance from `self` to `goal` equals the distance
    /// from the result to [`State::canonical_goal`], and the same moves solve both.
    ///
    /// # Panics
    /// If `goal` is on another board.
    pub fn relabel_for(&self, goal: &State) -> State {
        assert_eq!(
            self.board, goal.board,
            "relabelling needs states of one board"
        );
        Relabelling::onto_canonical(goal).apply(self)
    }

    /// The inverse of [`State::relabel_for`]: a state in the labels of the canonical goal with
    /// `goal`'s blank cell (a state of that goal's table) renamed back into `goal`'s labels.
    ///
    /// ```
    /// use npuzzle::State;
    /// let goal: State = "087654321".parse()?;
    /// let start: State = "123456780".parse()?;
    /// assert_eq!(start.relabel_for(&goal).relabel_from_canonical(&goal), start);
    /// # Ok::<(), npuzzle::ParseStateError>(())
    /// ```
    ///
    /// # Panics
    /// If `goal` is on another board.
    pub fn relabel_from_canonical(&self, goal: &State) -> State {
        assert_eq!(
            self.board, goal.board,
            "relabelling needs states of one board"
        );
        Relabelling::from_canonical(goal).apply(self)
    }

    /// The state drawn as rows of right-aligned tiles, [`BLANK_GLYPH`] for the blank, one row
    /// per line.
    pub fn grid(&self) -> String {
        let w = self.board.width();
        let digits = (self.board.cells() - 1).to_string().len();
        let mut out = String::new();
        for (i, row) in self.cells().chunks(w).enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let line: Vec<String> = row
                .iter()
                .map(|&t| {
                    if t == BLANK {
                        format!("{:>digits$}", BLANK_GLYPH)
                    } else {
                        format!("{t:>digits$}")
                    }
                })
                .collect();
            out.push_str(&line.join(" "));
        }
        out
    }
}

/// The renaming of [`State::relabel_for`] for one goal, worked out once and applied to many
/// states (the bulk path relabels every row to the same goal).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Relabelling {
    board: Board,
    /// `rename[tile]` is the tile's name in the canonical goal; the blank stays the blank.
    rename: [u8; MAX_CELLS],
}

impl Relabelling {
    /// The renaming that takes `goal` to the canonical goal with the same blank cell.
    pub(crate) fn onto_canonical(goal: &State) -> Relabelling {
        let canonical = State::canonical_goal(goal.board, goal.blank());
        let mut rename = [0u8; MAX_CELLS];
        for (&from, &to) in goal.cells().iter().zip(canonical.cells()) {
            rename[usize::from(from)] = to;
        }
        Relabelling {
            board: goal.board,
            rename,
        }
    }

    /// The renaming that takes the canonical goal with `goal`'s blank cell to `goal`: the
    /// inverse of [`Relabelling::onto_canonical`].
    pub(crate) fn from_canonical(goal: &State) -> Relabelling {
        let canonical = State::canonical_goal(goal.board, goal.blank());
        let mut rename = [0u8; MAX_CELLS];
        for (&from, &to) in canonical.cells().iter().zip(goal.cells()) {
            rename[usize::from(from)] = to;
        }
        Relabelling {
            board: goal.board,
            rename,
        }
    }

    /// `state` with its tiles renamed; `state` must be on the goal's board.
    #[inline]
    pub(crate) fn apply(&self, state: &State) -> State {
        debug_assert_eq!(state.board, self.board);
        let mut next = *state;
        self.rename_cells(&mut next.cells[..state.board.cells()]);
        next
    }

    /// Renames the tiles of `cells` in place: the cells of a state of the goal's board.
    #[inline]
    pub(crate) fn rename_cells(&self, cells: &mut [u8]) {
        for tile in cells {
            *tile = self.rename[usize::from(*tile)];
        }
    }
}

impl FromStr for State {
    type Err = ParseStateError;

    /// Reads a state of a square board; see [`State::parse`] for other boards.
    fn from_str(text: &str) -> Result<State, ParseStateError> {
        State::parse(text, None)
    }
}

impl fmt::Display for State {
    /// Writes the form [`State::parse`] reads back: `123456780` on boards of at most ten
    /// cells, tiles separated by spaces beyond; rows are separated by `/` on non-square boards.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let compact = self.board.has_single_digit_tiles();
        let square = self.board.width() == self.board.height();
        for (i, &tile) in self.cells().iter().enumerate() {
            if i > 0 {
                if !square && i % self.board.width() == 0 {
                    f.write_str("/")?;
                } else if !compact {
                    f.write_str(" ")?;
                }
            }
            write!(f, "{tile}")?;
        }
        Ok(())
    }
}

impl Ord for State {
    /// Orders by board (width, then height), then by the tiles row-major: sorted states of one
    /// board read as sorted strings of their tiles.
    fn cmp(&self, other: &State) -> std::cmp::Ordering {
        (self.board.width(), self.board.height(), self.cells()).cmp(&(
            other.board.width(),
            other.board.height(),
            other.cells(),
        ))
    }
}

impl PartialOrd for State {
    fn partial_cmp(&self, other: &State) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// With the `serde` feature: a state is its string form ([`Display`](fmt::Display)), read back
/// with [`State::parse`] (rows separated by `/` say a non-square board).
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl serde::Serialize for State {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> serde::Deserialize<'de> for State {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<State, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        State::parse(&text, None).map_err(serde::de::Error::custom)
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "State({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absurdly_long_text_is_refused_before_it_costs_memory_per_character() {
        let long = "1".repeat(MAX_STATE_TEXT + 1);
        assert_eq!(
            State::parse(&long, None),
            Err(ParseStateError::TooLong { found: long.len() })
        );
        let spaced = format!("{}123456780", " ".repeat(MAX_STATE_TEXT));
        assert!(matches!(
            State::parse(&spaced, None),
            Err(ParseStateError::TooLong { .. })
        ));
    }

    #[test]
    fn every_documented_spelling_reads_the_same_state() {
        let expected: State = "123456780".parse().unwrap();
        for text in [
            "1 2 3 4 5 6 7 8 0",
            "1,2,3,4,5,6,7,8,0",
            "123/456/780",
            "12345678_",
            "12345678.",
            " 1, 2, 3, 4, 5, 6, 7, 8, _ ",
            "1 2 3 / 4 5 6 / 7 8 0",
        ] {
            assert_eq!(text.parse::<State>(), Ok(expected), "{text}");
        }
    }

    #[test]
    fn display_reads_back_on_every_board_shape() {
        for (w, h) in [(2, 2), (3, 2), (2, 3), (3, 3), (4, 3), (4, 4), (5, 5)] {
            let board = Board::new(w, h).unwrap();
            for blank in 0..board.cells() {
                let state = State::canonical_goal(board, blank);
                let text = state.to_string();
                assert_eq!(State::parse(&text, None), Ok(state), "{text}");
            }
        }
    }

    #[test]
    fn parity_class_is_kept_by_every_move() {
        for (w, h) in [(2, 2), (3, 2), (2, 3), (3, 3), (4, 4)] {
            let board = Board::new(w, h).unwrap();
            let mut state = State::goal(board);
            for step in 0..200usize {
                let mv = Move::ALL[(step * 7 + step / 3) % 4];
                if let Some(next) = state.apply(mv) {
                    assert_eq!(next.parity_class(), state.parity_class());
                    state = next;
                }
            }
        }
    }

    #[test]
    fn regression_whitespace_around_the_compact_form_is_ignored() {
        // `" 123456780"` and `"123456780\r"` (a CRLF line) were read as spaced forms with one
        // token `123456780`, and refused as a bad cell.
        let expected = State::goal(Board::THREE_BY_THREE);
        for text in [
            " 123456780",
            "123456780\r",
            "\t123456780\n",
            " 123/456/780 ",
        ] {
            assert_eq!(State::parse(text, None), Ok(expected), "{text:?}");
        }
        assert_eq!(
            State::parse(" 12a456780", None),
            Err(ParseStateError::StrayCharacter {
                found: 'a',
                column: 4
            })
        );
    }

    proptest::proptest! {
        #[test]
        fn the_plain_fast_path_agrees_with_the_general_parser(
            text in "[0-9_./, \t]{0,30}",
            size in proptest::option::of((2usize..=5, 2usize..=5)),
        ) {
            let board = size.and_then(|(w, h)| Board::new(w, h).ok());
            if let Some(fast) = parse_plain(text.as_bytes(), board) {
                proptest::prop_assert_eq!(Ok(fast), State::parse_general(&text, board), "{:?}", text);
            }
        }

        #[test]
        fn the_compact_form_takes_the_fast_path_exactly_when_it_is_valid(
            text in "[0-9_.]{0,11}",
            size in proptest::option::of((2usize..=5, 2usize..=5)),
        ) {
            let board = size.and_then(|(w, h)| Board::new(w, h).ok());
            let general = State::parse_general(&text, board);
            match parse_plain(text.as_bytes(), board) {
                Some(fast) => proptest::prop_assert_eq!(Ok(fast), general),
                None => proptest::prop_assert!(general.is_err(), "{text:?} {general:?}"),
            }
        }

        #[test]
        fn states_spelled_with_any_gaps_agree_and_the_documented_spellings_are_fast(
            seed in proptest::prelude::any::<u64>(),
            (width, height) in (2usize..=5, 2usize..=5),
            gaps in proptest::collection::vec(0usize..GAPS.len(), 24),
            uniform in 0usize..4,
            blank in 0usize..3,
            ask in proptest::prelude::any::<bool>(),
        ) {
            let Ok(board) = Board::new(width, height) else { return Ok(()) };
            let n = board.cells();
            let mut tiles: Vec<usize> = (0..n).collect();
            let mut rng = crate::rng::SplitMix64::new(seed);
            for i in (1..n).rev() {
                tiles.swap(i, rng.index_below(i + 1));
            }
            let mut text = String::new();
            for (cell, &tile) in tiles.iter().enumerate() {
                if cell > 0 {
                    text.push_str(match uniform {
                        // The documented spellings: compact (where every tile is one digit),
                        // spaces, commas, rows cut by `/`.
                        0 if n <= 10 => "",
                        1 => " ",
                        2 => ",",
                        3 if n <= 10 => if cell % width == 0 { "/" } else { "" },
                        _ => GAPS[gaps[cell - 1]],
                    });
                }
                match tile {
                    0 => text.push(['0', '_', '.'][blank]),
                    t => text.push_str(&t.to_string()),
                }
            }
            let asked = ask.then_some(board);
            let general = State::parse_general(&text, asked);
            let fast = parse_plain(text.as_bytes(), asked);
            if let Some(fast) = fast {
                proptest::prop_assert_eq!(Ok(fast), general.clone(), "{:?}", text);
            }
            let documented = uniform == 1 || uniform == 2 || n <= 10;
            // Without a board asked for, only square boards (or rows written out) are told.
            let told = ask || width == height || (uniform == 3 && n <= 10);
            if documented && told {
                proptest::prop_assert!(general.is_ok(), "{:?} {:?}", text, general);
                proptest::prop_assert!(fast.is_some(), "{:?} not fast", text);
            }
        }
    }

    /// What may stand between two cells in the generated spellings, valid or not.
    const GAPS: [&str; 12] = [
        "", " ", ",", ", ", " ,", "/", " / ", "  ", "\t", ",,", "//", ",/",
    ];

    #[test]
    fn relabelling_maps_the_goal_to_the_canonical_goal() {
        let goal: State = "123804765".parse().unwrap();
        assert_eq!(
            goal.relabel_for(&goal),
            State::canonical_goal(goal.board(), 4)
        );
    }
}
