//! Property tests of the state parser: whatever the text, it returns a valid state or a
//! one-line error, never panics; a state reads back from its display; every documented
//! spelling of a state reads the same state.

use npuzzle::{Board, State};
use proptest::prelude::*;

/// Checks what a parse returned: a valid state that reads back, or a one-line error.
fn check_outcome(text: &str, board: Option<Board>) -> Result<(), TestCaseError> {
    match State::parse(text, board) {
        Ok(state) => {
            if let Some(board) = board {
                prop_assert_eq!(state.board(), board);
            }
            let n = state.board().cells();
            let mut tiles = state.cells().to_vec();
            prop_assert_eq!(tiles.len(), n);
            tiles.sort_unstable();
            prop_assert_eq!(tiles, (0..n as u8).collect::<Vec<_>>(), "{:?}", text);
            prop_assert_eq!(state.cells()[state.blank()], 0);
            let shown = state.to_string();
            prop_assert_eq!(
                State::parse(&shown, None),
                Ok(state),
                "{:?} -> {:?}",
                text,
                shown
            );
        }
        Err(error) => {
            let message = error.to_string();
            prop_assert!(
                !message.is_empty() && !message.contains('\n'),
                "{:?}",
                message
            );
        }
    }
    Ok(())
}

fn boards() -> impl Strategy<Value = Option<Board>> {
    prop::option::of((2usize..=5, 2usize..=5).prop_map(|(w, h)| Board::new(w, h).unwrap()))
}

/// A random state of a random board.
fn states() -> impl Strategy<Value = State> {
    (2usize..=5, 2usize..=5).prop_flat_map(|(w, h)| {
        let board = Board::new(w, h).unwrap();
        Just((0..board.cells() as u8).collect::<Vec<u8>>())
            .prop_shuffle()
            .prop_map(move |tiles| State::from_tiles(board, &tiles).unwrap())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_text_gives_a_valid_state_or_an_error(text in any::<String>(), board in boards()) {
        check_outcome(&text, board)?;
    }

    #[test]
    fn near_miss_text_gives_a_valid_state_or_an_error(
        text in "[0-9_., /\t-]{0,40}",
        board in boards(),
    ) {
        check_outcome(&text, board)?;
    }

    #[test]
    fn shuffled_digits_give_a_valid_state_or_an_error(
        digits in Just(b"0123456789".to_vec()).prop_shuffle(),
        len in 0usize..=10,
    ) {
        let text = String::from_utf8(digits[..len].to_vec()).unwrap();
        check_outcome(&text, None)?;
    }

    #[test]
    fn display_then_parse_is_identity(state in states()) {
        prop_assert_eq!(State::parse(&state.to_string(), None), Ok(state));
    }

    #[test]
    fn every_documented_spelling_reads_the_same_state(state in states(), blank in 0usize..3) {
        let board = state.board();
        let cell = |t: &u8| match (*t, blank) {
            (0, 1) => "_".to_string(),
            (0, 2) => ".".to_string(),
            (t, _) => t.to_string(),
        };
        let cells: Vec<String> = state.cells().iter().map(cell).collect();
        let rows: Vec<String> = cells.chunks(board.width()).map(|r| r.join(" ")).collect();
        let mut spellings = vec![
            cells.join(" "),
            cells.join(","),
            cells.join(", "),
            rows.join("/"),
            rows.join(" / "),
            format!("  {}\r\n", cells.join(" ")),
        ];
        if board.cells() <= 10 {
            spellings.push(cells.concat());
            let compact_rows: Vec<String> =
                cells.chunks(board.width()).map(|r| r.concat()).collect();
            spellings.push(compact_rows.join("/"));
        }
        for text in spellings {
            prop_assert_eq!(State::parse(&text, Some(board)), Ok(state), "{:?}", text);
        }
    }
}
