//! # npuzzle: exact answers for sliding-tile puzzles
//!
//! Start at [`Oracle`], the front door: one type that answers any start and goal on any board
//! from 2x2 to 5x5, from an exact table where the board has one (every board of at most 12
//! cells) and by an optimal search beyond. It opens each table once and keeps it.
//!
//! ```
//! use npuzzle::{How, Oracle, State};
//! let oracle = Oracle::in_memory(); // tables built in memory; `DataDir` keeps them on disk
//! let start: State = "1 2 3 4 5 6 0 7 8".parse()?;
//! let goal: State = "123456780".parse()?;
//! let answer = oracle.solve(&start, &goal, How::default())?;
//! let solution = answer.value.expect("solvable");
//! assert_eq!((solution.len(), solution.to_string()), (2, "RR".to_string()));
//! // Any board, any goal:
//! let start = State::parse("0 1 2 3 / 4 5 6 7", None)?; // 4x2: a table of 20,160 states
//! let goal = State::parse("1 2 3 0 / 4 5 6 7", None)?;
//! assert_eq!(oracle.distance(&start, &goal, How::default())?.value, Ok(3));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The `examples/` folder has runnable programs: `cargo run --example distance_and_path`,
//! `any_goal`, `judge_answers`, `search_4x4`, `table_12_cells`.
//!
//! ## Types
//! - [`Oracle`] (the [`answer`] layer): [`distance`](Oracle::distance),
//!   [`solve`](Oracle::solve), [`judge`](Oracle::judge) and [`sample`](Oracle::sample) for any
//!   board; [`How`] says table or which search, [`Answer`] carries the value and its cost.
//! - [`Board`]: width x height (sides of at least 2, at most 25 cells); [`Move`]: the direction
//!   the blank moves.
//! - [`State`]: tiles row-major, `0` the blank; parsing accepts every documented spelling.
//! - [`Solution`]: moves and the states along them.
//! - [`Table`]: a validated table of exact distances over any bytes, built by the
//!   [`generate`] module's breadth-first generator; [`table::file`]: the data directory,
//!   atomic writes, the memory map. [`RankSpace`]: [`rank`](RankSpace::rank)/
//!   [`unrank`](RankSpace::unrank) of states.
//! - [`heuristic`]: the [`Heuristic`] trait and misplaced tiles, Manhattan distance and linear
//!   conflict, for any goal on any board from 2x2 to 5x5, with incremental updates per move.
//! - [`search`]: A*, IDA*, breadth-first, iterative deepening and greedy best-first, each
//!   returning a [`SearchResult`] (the path, nodes expanded and generated, or the [`Limits`]
//!   it gave up at).
//! - [`verify`]: judging another solver's answer ([`verify::judge`] gives a [`verify::Verdict`]);
//!   [`sample`]: drawing test instances at chosen depths, seeded by [`rng::SplitMix64`].
//!
//! ## Features
//! - `cli` (default): the `npuzzle` binary and its dependencies. A library user can depend on
//!   `npuzzle = { version = "0.1", default-features = false }`.
//! - `serde`: `Serialize`/`Deserialize` for [`State`] (its string form), [`Move`] (its
//!   letter), [`Solution`] (start and moves, replayed when read) and [`verify::Verdict`].
//!
//! ## Errors
//! Every error type is one line, names no command-line flag, and shows each cause once: an
//! error whose message includes its cause's text does not also return it from `source()`, so
//! a printer that walks the chain ([`ErrorChain`]) repeats nothing.
//!
//! ## Tables directly
//! ```
//! use npuzzle::{Board, BuildOptions, State, Table};
//! let table = Table::build(&State::goal(Board::THREE_BY_THREE), BuildOptions::default())?;
//! let start: State = "1 2 3 4 5 6 0 7 8".parse()?;
//! assert_eq!(table.distance(&start)?, Some(2));
//! assert_eq!(table.solve(&start)?.expect("solvable").moves_string(), "RR");
//! // Any goal with the blank in the same (last) cell, by relabelling tiles onto this table:
//! let goal: State = "876543210".parse()?;
//! let near: State = "876503241".parse()?;
//! assert_eq!(table.distance_to(&near, &goal)?, Some(2));
//! let path = table.solve_to(&near, &goal)?.expect("solvable");
//! assert_eq!((path.moves_string(), path.end()), ("DR".to_string(), goal));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Limits
//! Search on 4x4 is IDA* with additive pattern databases (6-6-3, built on first use in a
//! second or two; 7-8 where built): random instances take milliseconds. On 5x5 most random
//! instances are out of reach without the 6-6-6-6 databases (`npuzzle build --pdb 5x5:6-6-6-6`).
//! Exact tables need boards of at most 12 cells ([`answer::MAX_TABLE_CELLS`]); the 12-cell
//! ones (3x4, 4x3, 2x6, 6x2) hold 239,500,800 states and take seconds to build. Larger boards
//! are answered by search.
#![deny(missing_docs)]
#![deny(missing_debug_implementations)]
// A value cut by an `as` cast is a wrong answer, not a crash: every narrowing conversion in the
// library is checked (`try_from`), made unneeded by its types, or allowed with its bound.
#![warn(clippy::cast_possible_truncation)]
// docs.rs builds with `--cfg docsrs` (Cargo.toml, [package.metadata.docs.rs]) on nightly:
// `doc_cfg` labels each item that needs a feature ("Available on crate feature serde only").
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod answer;
mod board;
pub mod digits;
mod error;
pub mod generate;
mod guarantee;
pub mod heuristic;
pub mod instance_set;
pub mod large;
pub mod memory;
pub mod metric;
pub mod mtm;
pub mod pattern;
pub mod rank;
pub mod rng;
mod row;
pub mod sample;
pub mod search;
mod solution;
mod state;
pub mod store;
pub mod table;
mod unsolvable;
pub mod verify;

pub use answer::{Answer, AnswerError, How, Method, NoAnswer, Oracle};
pub use board::{
    moves_to_string, Board, BoardError, Move, ParseMoveError, WrongBoardError, MAX_CELLS, MIN_SIDE,
};
pub use error::ErrorChain;
pub use generate::BuildOptions;
pub use guarantee::{Factor, FactorError, Guarantee, MAX_FACTOR_THOUSANDTHS};
pub use heuristic::{Heuristic, HeuristicKind};
pub use metric::Metric;
pub use rank::{RankSpace, TooLargeError};
pub use row::InvalidRow;
pub use search::{Algorithm, Limits, Outcome, SearchResult};
pub use solution::{IllegalMove, Solution};
pub use state::{Parity, ParseStateError, State, BLANK, BLANK_GLYPH, MAX_STATE_TEXT};
pub use table::{FormatError, Header, Table, TableError};
pub use unsolvable::Unsolvable;

/// The generator's old name (it is [`generate`] now: `search::bfs` is the breadth-first
/// search), kept so that code written against it still builds.
#[doc(hidden)]
pub use generate as bfs;

/// The README's Rust examples run as doctests, so the README cannot drift from the API.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The guides in `docs/` are tested the same way: each one's Rust code blocks are doctests
/// (its `sh` and `python` blocks are not Rust and are left alone).
#[cfg(doctest)]
pub mod guide_doctests {
    #[doc = include_str!("../docs/solving.md")]
    pub struct Solving;
    #[doc = include_str!("../docs/tables-and-databases.md")]
    pub struct TablesAndDatabases;
    #[doc = include_str!("../docs/checking-a-solver.md")]
    pub struct CheckingASolver;
    #[doc = include_str!("../docs/python.md")]
    pub struct Python;
    #[doc = include_str!("../docs/server.md")]
    pub struct Server;
    #[doc = include_str!("../docs/library.md")]
    pub struct Library;
    #[doc = include_str!("../docs/file-format.md")]
    pub struct FileFormat;
    #[doc = include_str!("../docs/trust-model.md")]
    pub struct TrustModel;
}
