//! Any bytes given to the table decoder are refused or accepted as a consistent table, never
//! a panic; a table opened on its header alone answers a query or names the damage of the
//! block it read, and agrees with the fully validated table wherever both answer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use npuzzle::{State, Table};

fuzz_target!(|bytes: &[u8]| {
    if let Ok(lazy) = Table::from_header(bytes) {
        let goal = *lazy.goal();
        let lazily = lazy.distance(&goal);
        let _ = lazy.solve(&State::goal(goal.board()));
        if let Ok(table) = Table::from_bytes(bytes) {
            let index = table.space().rank_unchecked(&goal) as usize;
            assert_eq!(table.distance(&goal).unwrap(), Some(table.entries().unwrap()[index]));
            assert_eq!(lazily.unwrap(), table.distance(&goal).unwrap());
            let _ = table.solve(&State::goal(goal.board()));
        }
    }
});
