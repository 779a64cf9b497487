//! Any text given to the state parser yields a valid state or an error, never a panic; a
//! state it accepts prints in a form that reads back to the same state.
#![no_main]

use libfuzzer_sys::fuzz_target;
use npuzzle::{Board, State};

fuzz_target!(|text: &str| {
    for board in [None, Some(Board::THREE_BY_THREE), Board::new(4, 3).ok()] {
        if let Ok(state) = State::parse(text, board) {
            let cells = state.cells();
            let mut sorted = cells.to_vec();
            sorted.sort_unstable();
            assert!(sorted.iter().enumerate().all(|(i, &t)| i == t as usize));
            assert_eq!(State::parse(&state.to_string(), Some(state.board())), Ok(state));
        }
    }
});
