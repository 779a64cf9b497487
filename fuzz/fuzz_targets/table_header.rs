//! Any bytes given to the table decoder are refused or accepted as a consistent table, never
//! a panic; an accepted table answers a query without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use npuzzle::{State, Table};

fuzz_target!(|bytes: &[u8]| {
    if let Ok(table) = Table::from_bytes(bytes) {
        let goal = *table.goal();
        assert_eq!(table.distance(&goal).unwrap(), table.entries().unwrap().first().map(|_| table.entries().unwrap()[table.space().index(&goal) as usize]));
        let _ = table.solve(&State::goal(goal.board())).unwrap();
    }
});
