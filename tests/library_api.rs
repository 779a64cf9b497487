//! The library as a user meets it (issue 14): common traits, errors that show each cause once
//! and name no command-line flag, structured verdicts, checked misuse, the names on the
//! import path.

use std::collections::{BTreeSet, HashSet};
use std::error::Error;

use npuzzle::heuristic::Manhattan;
use npuzzle::store::StoredFileError;
use npuzzle::table::file;
use npuzzle::verify::{
    judge, parse_moves, parse_path, Claim, IllegalStep, ParseClaimError, Verdict,
};
use npuzzle::{
    Board, ErrorChain, Heuristic, Move, ParseStateError, RankSpace, Solution, State,
    WrongBoardError,
};

/// Every cause in an error's chain, each checked against its parent's message: a cause whose
/// text is already in the parent's message must not also be returned by `source()`.
fn assert_each_cause_once(error: &(dyn Error + 'static)) {
    let mut parent: &dyn Error = error;
    while let Some(cause) = parent.source() {
        let (outer, inner) = (parent.to_string(), cause.to_string());
        assert!(
            !outer.contains(&inner),
            "`{outer}` includes its cause `{inner}` and also returns it from source()"
        );
        parent = cause;
    }
    let chain = ErrorChain(error).to_string();
    assert!(chain.starts_with(&error.to_string()), "{chain}");
}

#[test]
fn errors_with_causes_show_each_cause_once() {
    let dir = tempfile::tempdir().unwrap();
    // A file that cannot be read: an io::Error inside.
    let missing = file::open(&dir.path().join("absent.npt")).unwrap_err();
    assert!(
        matches!(missing, StoredFileError::Read { .. }),
        "{missing:?}"
    );
    assert!(missing.is_missing());
    assert_each_cause_once(&missing);
    // A file that is not a table: a FormatError inside.
    let junk = dir.path().join("junk.npt");
    std::fs::write(
        &junk,
        b"not a table at all, but long enough to hold a header, surely? no",
    )
    .unwrap();
    let invalid = file::open(&junk).unwrap_err();
    assert!(invalid.is_invalid(), "{invalid:?}");
    assert_each_cause_once(&invalid);
    assert!(ErrorChain(&invalid)
        .to_string()
        .contains("not an npuzzle table"));
    // A path state that cannot be read: a ParseStateError inside.
    let bad_path = parse_path("123456708;12345678x", Board::THREE_BY_THREE).unwrap_err();
    assert!(
        matches!(bad_path, ParseClaimError::BadPathState { index: 2, .. }),
        "{bad_path:?}"
    );
    assert_each_cause_once(&bad_path);
}

#[test]
fn library_messages_name_no_command_line_flag() {
    let errors: Vec<String> = [
        "1 2 3 4 5 6 7 0",
        "1234567",
        "12345678",
        "1 2 3 4 5 6 7 8 9 10 11 0",
    ]
    .iter()
    .map(|text| text.parse::<State>().unwrap_err().to_string())
    .collect();
    for message in &errors {
        assert!(!message.contains("--"), "{message}");
    }
}

#[test]
fn cell_counts_that_make_no_board_get_the_likely_reason() {
    let missing = "12345678".parse::<State>().unwrap_err();
    assert!(
        matches!(missing, ParseStateError::MissingBlank { found: 8, .. }),
        "{missing:?}"
    );
    assert!(
        missing.to_string().contains("is the blank missing?"),
        "{missing}"
    );
    // Eight cells with a blank are a 4x2 or 2x4 board written flat: not a missing blank.
    let flat = "12345670".parse::<State>().unwrap_err();
    assert_eq!(flat, ParseStateError::NotSquare { found: 8 });
    let tiles: Vec<String> = (0..36).map(|t| t.to_string()).collect();
    let six = tiles.join(" ").parse::<State>().unwrap_err();
    assert_eq!(six, ParseStateError::TooManyCells { found: 36 });
    assert_eq!(
        six.to_string(),
        "36 cells make a 6x6 board, and boards have at most 25 cells"
    );
}

#[test]
fn states_order_and_hash_by_board_then_tiles() {
    let mut states: Vec<State> = ["123456780", "123456708", "012345678", "1230"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    states.sort();
    let sorted: Vec<String> = states.iter().map(State::to_string).collect();
    assert_eq!(sorted, ["1230", "012345678", "123456708", "123456780"]);
    let set: HashSet<State> = states
        .iter()
        .copied()
        .chain(states.iter().copied())
        .collect();
    assert_eq!(set.len(), 4);
    let tree: BTreeSet<State> = states.into_iter().collect();
    assert_eq!(tree.len(), 4);
}

#[test]
fn moves_parse_from_letters_and_names() {
    assert_eq!("U".parse::<Move>(), Ok(Move::Up));
    assert_eq!("r".parse::<Move>(), Ok(Move::Right));
    assert_eq!("Down".parse::<Move>(), Ok(Move::Down));
    assert_eq!("LEFT".parse::<Move>(), Ok(Move::Left));
    let error = "X".parse::<Move>().unwrap_err();
    assert!(error.to_string().contains("`X` is not a move"), "{error}");
    assert!("UD".parse::<Move>().is_err());
    assert!("".parse::<Move>().is_err());
}

#[test]
fn a_solution_displays_as_its_moves_and_in_full_with_the_alternate_flag() {
    let start: State = "123456078".parse().unwrap();
    let solution = Solution::from_moves(start, vec![Move::Right, Move::Right]).unwrap();
    assert_eq!(solution.to_string(), "RR");
    let full = format!("{solution:#}");
    assert!(
        full.starts_with("step 0 (start)\n1 2 3\n4 5 6\n_ 7 8"),
        "{full}"
    );
    assert!(full.contains("step 2 (R)\n1 2 3\n4 5 6\n7 8 _"), "{full}");
    let empty = Solution::from_moves(start, Vec::new()).unwrap();
    assert_eq!(empty.to_string(), "");
}

#[test]
fn public_types_implement_debug() {
    fn debug<T: std::fmt::Debug>() {}
    debug::<npuzzle::Table<Vec<u8>>>();
    debug::<npuzzle::Table<npuzzle::store::StoredBytes>>();
    debug::<npuzzle::Oracle>();
    debug::<npuzzle::sample::Sampler<'static, Vec<u8>>>();
    debug::<npuzzle::answer::DataDir>();
    debug::<ErrorChain<'static>>();
    debug::<Manhattan>();
    // The crate denies `missing_debug_implementations`, so every other public type has it too.
}

#[test]
fn verdict_details_are_facts_with_text_only_in_display() {
    let start: State = "123456078".parse().unwrap();
    let goal = State::goal(start.board());
    let verdict = judge(
        &start,
        &goal,
        Some(2),
        &Claim::moves(parse_moves("RRD").unwrap()),
    );
    match &verdict {
        Verdict::IllegalMove {
            step: 3,
            fault:
                IllegalStep::OffBoard {
                    mv: Move::Down,
                    cell: 8,
                    state,
                },
            tile_moves_reach_goal: false,
        } => assert_eq!(*state, goal),
        other => panic!("{other:?}"),
    }
    assert!(verdict
        .to_string()
        .starts_with("illegal-move: step 3: D moves the blank off the board"));
    // The goal is two moves from the start, not one.
    let path = parse_path("123456780", start.board()).unwrap();
    match judge(&start, &goal, Some(2), &Claim::path(path)) {
        Verdict::IllegalMove {
            step: 1,
            fault: IllegalStep::NotAdjacent { from, to },
            ..
        } => assert_eq!((from, to), (start, goal)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn moves_that_work_only_as_tile_moves_get_the_hint() {
    let start: State = "123456078".parse().unwrap();
    let goal = State::goal(start.board());
    // The tiles 7 and 8 slide left: the blank moves right twice.
    let tile_moves = judge(
        &start,
        &goal,
        Some(2),
        &Claim::moves(parse_moves("LL").unwrap()),
    );
    assert!(
        matches!(
            tile_moves,
            Verdict::IllegalMove {
                tile_moves_reach_goal: true,
                ..
            }
        ),
        "{tile_moves:?}"
    );
    assert!(tile_moves
        .to_string()
        .contains("npuzzle's letters name the direction the blank moves"));
    // One legal step the wrong way, that read as a tile move solves it: wrong end, with the hint.
    let near: State = "123456708".parse().unwrap();
    let wrong_end = judge(
        &near,
        &goal,
        Some(1),
        &Claim::moves(parse_moves("L").unwrap()),
    );
    assert!(
        matches!(
            wrong_end,
            Verdict::WrongEnd {
                tile_moves_reach_goal: true,
                ..
            }
        ),
        "{wrong_end:?}"
    );
    // Plain wrong moves get no hint.
    let plain = judge(
        &start,
        &goal,
        Some(2),
        &Claim::moves(parse_moves("UU").unwrap()),
    );
    assert!(
        matches!(
            plain,
            Verdict::WrongEnd {
                tile_moves_reach_goal: false,
                ..
            }
        ),
        "{plain:?}"
    );
    assert!(!plain.to_string().contains("tile"));
}

#[test]
fn a_state_of_another_board_is_refused_by_rank_and_try_estimate() {
    let space = RankSpace::new("4x3".parse().unwrap()).unwrap();
    let small: State = "123456780".parse().unwrap();
    assert_eq!(
        space.rank(&small),
        Err(WrongBoardError {
            expected: "4x3".parse().unwrap(),
            found: Board::THREE_BY_THREE
        })
    );
    let goal = State::goal(space.board());
    let rank = space.rank(&goal).unwrap();
    assert_eq!(space.unrank(rank, goal.parity_class()), goal);
    assert_eq!(space.rank_unchecked(&goal), rank);

    let fifteen = Manhattan::new(&State::goal(Board::new(4, 4).unwrap()));
    let error = fifteen.try_estimate(&small).unwrap_err();
    assert!(error.to_string().contains("3x3"), "{error}");
    assert_eq!(fifteen.try_estimate(fifteen.goal()), Ok(0));
}

#[test]
fn the_search_functions_are_on_the_import_path_under_their_own_names() {
    use npuzzle::search::{astar, bfs, greedy, idastar, iddfs};
    let start: State = "123456708".parse().unwrap();
    let goal = State::goal(start.board());
    let h = Manhattan::new(&goal);
    let limits = npuzzle::Limits::default();
    for result in [
        astar(&start, &h, limits),
        idastar(&start, &h, limits),
        greedy(&start, &h, limits),
        bfs(&start, &goal, limits),
        iddfs(&start, &goal, limits),
    ] {
        assert_eq!(result.solution().map(Solution::len), Some(1));
    }
    // The generator is `generate`, apart from the breadth-first search `search::bfs`.
    let space = RankSpace::new(Board::new(2, 2).unwrap()).unwrap();
    let distances =
        npuzzle::generate::distances(&space, &State::goal(space.board()), Default::default());
    assert_eq!(
        distances.counts.len() - 1,
        6,
        "the 2x2 board is at most 6 moves from its goal"
    );
}
