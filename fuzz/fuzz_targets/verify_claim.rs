//! Any text in a verify line's claim fields is read or refused without a panic, and whatever
//! claim results is judged without a panic, against the exact table, for a start taken from the
//! same bytes; `judge_without_distance` never contradicts it.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use npuzzle::verify::{
    judge, judge_without_distance, parse_flag, parse_length, parse_moves, parse_path, Claim,
};
use npuzzle::{Board, BuildOptions, RankSpace, State, Table};

fn table() -> &'static Table<Vec<u8>> {
    static TABLE: OnceLock<Table<Vec<u8>>> = OnceLock::new();
    TABLE.get_or_init(|| Table::build(&State::goal(Board::THREE_BY_THREE), BuildOptions::default()).unwrap())
}

fuzz_target!(|input: (u32, &str, &str, &str, &str)| {
    let (index, moves, path, length, flag) = input;
    let board = Board::THREE_BY_THREE;
    let space = RankSpace::new(board).unwrap();
    let goal = State::goal(board);
    // Half the starts are unsolvable (the other parity class).
    let class = if index & 1 == 1 { !goal.parity_class() } else { goal.parity_class() };
    let start = space.unrank((index >> 1) % space.states(), class);
    let claim = Claim {
        moves: parse_moves(moves).ok(),
        path: parse_path(path, board).ok(),
        length: parse_length(length).ok(),
        unsolvable: parse_flag(flag).ok(),
    };
    let exact = table().distance(&start).unwrap();
    let verdict = judge(&start, &goal, exact, &claim);
    assert!(!verdict.name().is_empty());
    // For a solvable pair, what is decided without the distance is what the distance says.
    if exact.is_some() {
        if let Some(without) = judge_without_distance(&start, &goal, &claim) {
            assert_eq!(without, verdict);
        }
    }
});
