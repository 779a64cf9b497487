//! The bulk path (`Oracle::distances`, `Table::distances_to_checked`): rows of tile bytes to
//! one goal agree with one question at a time (`Table::distance_to`, `Oracle::distance`) on
//! every state of every class, for several goals and boards, through both of its reads (after
//! a deep check, and neighbour-checked); bad rows are reported first in row order with the
//! parser's message, never a panic.

mod references;
mod reseal;

use npuzzle::answer::DEEP_CHECK_ROWS;
use npuzzle::rng::SplitMix64;
use npuzzle::table::rows::{RowsError, UNSOLVABLE};
use npuzzle::{AnswerError, Board, BuildOptions, How, Oracle, RankSpace, State, Table};

/// Every state of `board`, both parity classes, as rows of tile bytes.
fn every_state(board: Board) -> (Vec<State>, Vec<u8>) {
    let space = RankSpace::new(board).expect("a board with tables");
    let states: Vec<State> = (0..space.full_len()).map(|f| space.state_at(f)).collect();
    let rows = states.iter().flat_map(|s| s.cells().to_vec()).collect();
    (states, rows)
}

/// What one question at a time says, in the bulk path's encoding.
fn one_by_one(table: &Table<impl AsRef<[u8]>>, states: &[State], goal: &State) -> Vec<u8> {
    states
        .iter()
        .map(|s| {
            table
                .distance_to(s, goal)
                .expect("a sound table")
                .unwrap_or(UNSOLVABLE)
        })
        .collect()
}

/// `Table::distances_to_checked` over `states` as rows agrees with one question at a time.
fn assert_rows_agree(table: &Table<impl AsRef<[u8]> + Sync>, states: &[State], goal: &State) {
    let rows: Vec<u8> = states.iter().flat_map(|s| s.cells().to_vec()).collect();
    let mut out = vec![0u8; states.len()];
    table.distances_to_checked(&rows, goal, &mut out).unwrap();
    assert_eq!(out, one_by_one(table, states, goal), "goal {goal}");
}

fn parse(text: &str) -> State {
    State::parse(text, None).expect("a valid state")
}

#[test]
fn every_3x3_state_of_both_classes_gets_the_one_question_answer_for_three_goals() {
    let oracle = Oracle::in_memory();
    let (states, rows) = every_state(Board::THREE_BY_THREE);
    assert_eq!(states.len(), 2 * npuzzle::rank::STATES_3X3 as usize);
    assert!(
        states.len() >= DEEP_CHECK_ROWS,
        "the deep-checked read is the one tested"
    );
    // The default goal, a relabelled goal on the same table, a goal of another blank cell.
    for goal in ["123456780", "876543210", "1 2 3 / 4 0 5 / 6 7 8"].map(parse) {
        let mut out = vec![0u8; states.len()];
        oracle
            .distances(&rows, &goal, &mut out)
            .expect("every row is a state");
        let table = oracle.table(&goal).unwrap().expect("3x3 has tables");
        assert_eq!(out, one_by_one(table, &states, &goal), "goal {goal}");
        assert_eq!(
            out.iter().filter(|&&d| d == UNSOLVABLE).count(),
            states.len() / 2,
            "goal {goal}: half of all states cannot reach it"
        );
    }
    // And against the answer layer's own question, on the default goal.
    let goal = parse("123456780");
    let mut out = vec![0u8; states.len()];
    oracle.distances(&rows, &goal, &mut out).unwrap();
    for (state, &d) in states.iter().zip(&out) {
        let answer = oracle.distance(state, &goal, How::default()).unwrap();
        assert_eq!(answer.value.unwrap_or(UNSOLVABLE), d, "start {state}");
    }
}

#[test]
fn the_neighbour_checked_read_agrees_on_every_3x3_state() {
    // A table fresh from the generator has not been checked deeply: each row's entry is
    // checked against its neighbours'.
    let goal = parse("876543210");
    let table = Table::build(&State::goal(goal.board()), BuildOptions::default()).unwrap();
    let (states, _) = every_state(goal.board());
    assert_rows_agree(&table, &states, &goal);
}

#[test]
fn every_state_of_the_small_boards_for_a_goal_with_the_blank_first() {
    let oracle = Oracle::in_memory();
    // Up to 8 cells (3x3 is above; 2x5 and 5x2 would add 7 million rows to a debug test):
    // fewer rows than DEEP_CHECK_ROWS, so every entry read is checked against its neighbours.
    for (w, h) in references::SMALL_BOARDS
        .into_iter()
        .filter(|(w, h)| w * h <= 8)
    {
        let board = Board::new(w, h).unwrap();
        let (states, rows) = every_state(board);
        let goal = State::canonical_goal(board, 0);
        let mut out = vec![0u8; states.len()];
        oracle.distances(&rows, &goal, &mut out).unwrap();
        let table = oracle.table(&goal).unwrap().unwrap();
        assert_eq!(out, one_by_one(table, &states, &goal), "{board}");
    }
}

#[test]
fn a_twelve_cell_board_agrees_on_random_rows() {
    let board = Board::new(4, 3).unwrap();
    let goal = State::parse("11 10 9 8 / 7 6 5 4 / 3 2 1 0", Some(board)).unwrap();
    let table = Table::build(&State::goal(board), BuildOptions::default()).unwrap();
    let mut rng = SplitMix64::new(15);
    let states: Vec<State> = (0..2_000)
        .map(|_| {
            let mut tiles: Vec<u8> = (0..12).collect();
            for i in (1..tiles.len()).rev() {
                tiles.swap(i, rng.below(i as u64 + 1) as usize);
            }
            State::from_row(board, &tiles).unwrap()
        })
        .collect();
    assert_rows_agree(&table, &states, &goal);
}

#[test]
fn the_first_bad_row_is_reported_with_the_parsers_message() {
    let oracle = Oracle::in_memory();
    let goal = State::goal(Board::THREE_BY_THREE);
    let good = [1, 2, 3, 4, 5, 6, 7, 8, 0];
    let cases: [(&[u8], &str); 5] = [
        (&[1, 2, 3, 4, 5, 6, 7, 8, 8], "invalid state `123456788`: tile 8 is repeated at column 9"),
        (&[1, 2, 3, 4, 5, 6, 7, 8, 9], "invalid state `123456789`: tile 9 at column 9 is out of range: a 3x3 board has tiles 0..=8"),
        (&[0; 9], "invalid state `000000000`: tile 0 is repeated at column 2 (the blank `0`, `_` or `.` may appear once)"),
        (&[255, 2, 3, 4, 5, 6, 7, 8, 0], "invalid state `25523456780`"),
        (&[1, 2, 3, 4, 5, 6, 7, 80, 0], "invalid state `1234567 800`"),
    ];
    // Bad rows in several chunks, the first of them far from the start: the lowest wins
    // whichever worker finds its own first.
    let count = 3 * DEEP_CHECK_ROWS;
    for (bad, message) in cases {
        for &(first, later) in &[(0, 1), (12_345, 20_000), (count - 2, count - 1)] {
            let mut rows: Vec<u8> = good.repeat(count);
            for row in [first, later, count - 1] {
                rows[row * 9..row * 9 + 9].copy_from_slice(bad);
            }
            let mut out = vec![0u8; count];
            let error = oracle.distances(&rows, &goal, &mut out).unwrap_err();
            let AnswerError::Rows(RowsError::Invalid { row, .. }) = &error else {
                panic!("not a row error: {error}");
            };
            assert_eq!(*row, first);
            let text = error.to_string();
            assert!(
                text.starts_with(&format!("row {first}: {message}")),
                "{text}"
            );
        }
    }
}

#[test]
fn shapes_boards_and_goals_that_do_not_fit_are_errors() {
    let oracle = Oracle::in_memory();
    let goal = State::goal(Board::THREE_BY_THREE);
    // No rows: nothing to answer, nothing opened.
    oracle.distances(&[], &goal, &mut []).unwrap();
    assert!(oracle.open_table(&goal).is_none());
    let mut out = [0u8; 2];
    let error = oracle.distances(&[0; 17], &goal, &mut out).unwrap_err();
    assert!(
        matches!(
            error,
            AnswerError::Rows(RowsError::Shape {
                bytes: 17,
                rows: 2,
                ..
            })
        ),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "17 bytes are not 2 rows of 9 tiles (one row per distance on a 3x3 board)"
    );
    // Boards answered by search: the caller asks row by row.
    let fifteen = State::goal(Board::new(4, 4).unwrap());
    let error = oracle.distances(&[0; 16], &fifteen, &mut [0]).unwrap_err();
    assert!(matches!(error, AnswerError::NoTable { .. }), "{error}");
    let search_only = Oracle::search_only();
    let error = search_only.distances(&[0; 9], &goal, &mut [0]).unwrap_err();
    assert!(matches!(error, AnswerError::NoTable { .. }), "{error}");
    // A table asked about a goal it does not serve.
    let table = Table::build(&goal, BuildOptions::default()).unwrap();
    let other = parse("1 2 3 / 4 0 5 / 6 7 8");
    let error = table
        .distances_to_checked(goal.cells(), &other, &mut [0])
        .unwrap_err();
    assert!(
        matches!(
            error,
            RowsError::Table {
                row: 0,
                error: npuzzle::TableError::GoalNotServed { .. }
            }
        ),
        "{error}"
    );
}

#[test]
fn an_edited_entry_is_refused_at_the_first_row_that_reads_it() {
    let goal = State::goal(Board::THREE_BY_THREE);
    let built = Table::build(&goal, BuildOptions::default()).unwrap();
    let space = built.space().clone();
    let header_len = built.as_bytes().len() - space.states() as usize;
    let near = parse("123456708");
    let far = parse("123456078");
    let mut edited = built.into_inner();
    edited.swap(
        header_len + space.rank_unchecked(&near) as usize,
        header_len + space.rank_unchecked(&far) as usize,
    );
    reseal::reseal_body(&mut edited);
    let table = Table::from_bytes(&edited[..]).expect("checksums and histogram pass");
    let rows: Vec<u8> = [goal, goal, near, goal, near]
        .iter()
        .flat_map(|s| s.cells().to_vec())
        .collect();
    let mut out = [0u8; 5];
    let error = table
        .distances_to_checked(&rows, &goal, &mut out)
        .unwrap_err();
    assert!(
        matches!(
            error,
            RowsError::Table {
                row: 2,
                error: npuzzle::TableError::Inconsistent { .. }
            }
        ),
        "{error}"
    );
}

#[test]
fn from_row_accepts_exactly_the_permutations() {
    let mut rng = SplitMix64::new(7);
    for (w, h) in references::SMALL_BOARDS {
        let board = Board::new(w, h).unwrap();
        let n = board.cells();
        for _ in 0..2_000 {
            // Mostly near-permutations: tiles drawn from a little more than the board's range.
            let len = if rng.below(10) == 0 {
                rng.below(n as u64 + 2) as usize
            } else {
                n
            };
            let tiles: Vec<u8> = (0..len).map(|_| rng.below(n as u64 + 2) as u8).collect();
            let mut sorted = tiles.clone();
            sorted.sort_unstable();
            let permutation = sorted == (0..n as u8).collect::<Vec<_>>();
            match State::from_row(board, &tiles) {
                Ok(state) => {
                    assert!(permutation, "{tiles:?} accepted");
                    assert_eq!(state.cells(), &tiles[..]);
                }
                Err(error) => {
                    assert!(!permutation, "{tiles:?} refused: {error}");
                    assert!(
                        State::parse(&error.text, Some(board)).is_err(),
                        "the quoted text parses: {error}"
                    );
                }
            }
        }
    }
}
