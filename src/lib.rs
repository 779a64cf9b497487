//! # npuzzle: exact answers for sliding-tile puzzles
//!
//! For the 8-puzzle, a parallel breadth-first search from the goal fills a table with the exact
//! distance of every one of the 9!/2 = 181,440 reachable states, indexed by a Lehmer rank. A
//! query ranks the state and reads one byte; an optimal path steps to a neighbour one move
//! closer each time. Any goal is served by relabelling tiles onto the table of the canonical
//! goal with the blank in the same cell.
//!
//! ## Types
//! - [`Board`]: width x height (sides of at least 2, at most 25 cells); [`Move`]: the direction the blank moves.
//! - [`State`]: tiles row-major, `0` the blank; parsing accepts every documented spelling.
//! - [`RankSpace`]: rank/unrank and neighbours' indices without re-ranking.
//! - [`bfs::distances`]: the generator; [`Table`]: a validated table over any bytes;
//!   [`table::file`]: the data directory, atomic writes, the memory map.
//! - [`Solution`]: moves and the states along them.
//! - [`heuristic`]: the [`Heuristic`] trait and misplaced tiles, Manhattan distance and linear
//!   conflict, for any goal on any board from 2x2 to 5x5, with incremental updates per move.
//! - [`search`]: A*, IDA*, breadth-first, iterative deepening and greedy best-first, each
//!   returning a [`SearchResult`] (the path, nodes expanded and generated, or the [`Limits`]
//!   it gave up at).
//! - [`verify`]: judging another solver's answer ([`verify::judge`] gives a [`verify::Verdict`]);
//!   [`sample`]: drawing test instances at chosen depths, seeded by [`rng::SplitMix64`].
//!
//! ## Example
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
//! The front door for any board is [`Oracle`] (the [`answer`] layer): it decides between a
//! table and a search, keeps the tables it opens, and answers any start and goal:
//! ```
//! use npuzzle::{How, Oracle, State};
//! let oracle = Oracle::in_memory();
//! let start = State::parse("0 1 2 3 / 4 5 6 7", None)?; // 4x2: a table of 20,160 states
//! let goal = State::parse("1 2 3 0 / 4 5 6 7", None)?;
//! assert_eq!(oracle.distance(&start, &goal, How::default())?.value, Ok(3));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Limits
//! Search on 4x4 is practical with IDA* and linear conflict (typical random instances take
//! seconds); on 5x5 most random instances are out of reach without pattern databases.
//! Exact tables need boards of at most 12 cells ([`answer::MAX_TABLE_CELLS`]); the 12-cell
//! ones (3x4, 4x3, 2x6, 6x2) hold 239,500,800 states and take seconds to build. Larger boards
//! are answered by search.
#![deny(missing_docs)]

pub mod answer;
pub mod bfs;
pub mod board;
mod consistency;
pub mod heuristic;
pub mod pattern;
pub mod rank;
pub mod rng;
pub mod sample;
pub mod search;
pub mod solution;
pub mod state;
pub mod table;
pub mod verify;

pub use answer::{Answer, How, Method, NoAnswer, Oracle};
pub use bfs::BuildOptions;
pub use board::{Board, Move};
pub use heuristic::{Heuristic, HeuristicKind};
pub use rank::{RankSpace, TooLargeError};
pub use search::{Algorithm, Limits, Outcome, SearchResult};
pub use solution::Solution;
pub use state::{ParseStateError, State};
pub use table::{FormatError, Header, Table, TableError};

/// The README's Rust examples run as doctests, so the README cannot drift from the API.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
