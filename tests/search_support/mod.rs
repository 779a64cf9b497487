//! Shared by the `search_*` test binaries: one in-memory 3x3 table per binary, a seeded RNG.
#![allow(dead_code)]

use std::sync::OnceLock;

use npuzzle::{Board, BuildOptions, RankSpace, State, Table};

/// The table for the default 3x3 goal, built once per test binary.
pub fn table() -> &'static Table<Vec<u8>> {
    static TABLE: OnceLock<Table<Vec<u8>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        Table::build(&State::goal(Board::THREE_BY_THREE), BuildOptions::default())
            .expect("3x3 can be ranked")
    })
}

/// The nine canonical 3x3 tables (one per blank cell), built once per test binary.
pub fn canonical_tables() -> &'static Vec<Table<Vec<u8>>> {
    static TABLES: OnceLock<Vec<Table<Vec<u8>>>> = OnceLock::new();
    TABLES.get_or_init(|| {
        (0..9)
            .map(|blank| {
                Table::build(
                    &State::canonical_goal(Board::THREE_BY_THREE, blank),
                    BuildOptions::default(),
                )
                .expect("3x3 can be ranked")
            })
            .collect()
    })
}

/// The library's seeded SplitMix64, with the seed printed so that failures can be replayed.
pub struct Rng(npuzzle::rng::SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        eprintln!("rng seed: {seed:#x}");
        Rng(npuzzle::rng::SplitMix64::new(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0.below(n)
    }

    /// A uniformly random permutation of the board's tiles (either parity class).
    pub fn state(&mut self, board: Board) -> State {
        let mut tiles: Vec<u8> = (0..board.cells() as u8).collect();
        for i in (1..tiles.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            tiles.swap(i, j);
        }
        State::from_tiles(board, &tiles).expect("a permutation is a valid state")
    }

    /// A random state of the 3x3 table's parity class, picked by index.
    pub fn table_state(&mut self, table: &Table<Vec<u8>>) -> State {
        let space: &RankSpace = table.space();
        let index = self.below(space.states() as u64) as u32;
        space.unrank(index, table.goal().parity_class())
    }
}

/// Every state of the table's class at distance `depth` (by scanning the table).
pub fn states_at_depth(table: &Table<Vec<u8>>, depth: u8) -> Vec<State> {
    let class = table.goal().parity_class();
    table
        .entries()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|&(_, &d)| d == depth)
        .map(|(index, _)| table.space().unrank(index as u32, class))
        .collect()
}
