//! What every command shares: the data directory and the tables opened so far.

use std::collections::HashMap;
use std::path::PathBuf;

use npuzzle::table::file::{self, Notice, TableBytes};
use npuzzle::{Board, BuildOptions, State, Table};

use super::{Cli, Failure};

/// Boards the command line keeps exact tables for: at most this many cells (3x3 and smaller),
/// because a table for 4x3 would hold 239 million entries.
pub const MAX_TABLE_CELLS: usize = 9;

/// The data directory and the tables opened (or built) during this run.
pub struct Context {
    data_dir: PathBuf,
    tables: HashMap<State, Table<TableBytes>>,
}

impl Context {
    /// The context for the parsed command line: `--data-dir`, else `NPUZZLE_DATA_DIR`, else
    /// the documented default. An empty value counts as unset, as an empty `XDG_CACHE_HOME`
    /// does (a shell's `NPUZZLE_DATA_DIR=` must not break every command).
    pub fn new(cli: &Cli) -> Context {
        let given = |dir: &PathBuf| !dir.as_os_str().is_empty();
        Context {
            data_dir: cli
                .data_dir
                .clone()
                .filter(given)
                .or_else(|| {
                    std::env::var_os("NPUZZLE_DATA_DIR")
                        .map(PathBuf::from)
                        .filter(given)
                })
                .unwrap_or_else(file::default_data_dir),
            tables: HashMap::new(),
        }
    }

    /// The data directory.
    pub fn data_dir(&self) -> &PathBuf {
        &self.data_dir
    }

    /// Whether exact tables are kept for `board`.
    pub fn has_tables(board: Board) -> bool {
        board.cells() <= MAX_TABLE_CELLS
    }

    /// The usage error of a command that needs an exact table for `board`, which has none.
    pub fn no_table(board: Board) -> Failure {
        Failure::usage(format!(
            "no exact table for the {board} board: tables cover boards of at most \
             {MAX_TABLE_CELLS} cells"
        ))
    }

    /// The table serving `goal`: the canonical table with the same blank cell, opened from the
    /// data directory, or built (and saved) on first use; notices go to stderr. `None` for
    /// boards without tables.
    pub fn table_for(&mut self, goal: &State) -> Option<&Table<TableBytes>> {
        if !Context::has_tables(goal.board()) {
            return None;
        }
        let canonical = State::canonical_goal(goal.board(), goal.blank());
        if !self.tables.contains_key(&canonical) {
            let (table, notices) =
                file::load_or_build(&self.data_dir, &canonical, BuildOptions::default())
                    .expect("boards of at most 9 cells can be ranked");
            for notice in notices {
                match notice {
                    Notice::Built { .. } => eprintln!("npuzzle: note: {notice} (first use)"),
                    _ => eprintln!("npuzzle: warning: {notice}"),
                }
            }
            self.tables.insert(canonical, table);
        }
        self.tables.get(&canonical)
    }

    /// The table serving `goal` if [`Context::table_for`] has already opened it: a shared
    /// borrow, so a batch can hold the tables of several goals at once.
    pub fn loaded_table(&self, goal: &State) -> Option<&Table<TableBytes>> {
        let canonical = State::canonical_goal(goal.board(), goal.blank());
        self.tables.get(&canonical)
    }
}
