//! Properties of the library's verdicts: random move strings from random starts, toward all
//! nine canonical goals, are classified exactly as an independent replay and the exact table
//! say, in every way a claim can be written (moves, text, path, length).

use std::sync::OnceLock;

use proptest::prelude::*;

use npuzzle::moves_to_string;
use npuzzle::verify::{judge, judge_without_distance, parse_moves, Claim, Verdict};
use npuzzle::{Board, BuildOptions, Move, Solution, State, Table};

/// The nine canonical 3x3 tables (one per blank cell), built once for this test binary.
fn tables() -> &'static Vec<Table<Vec<u8>>> {
    static TABLES: OnceLock<Vec<Table<Vec<u8>>>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let board = Board::THREE_BY_THREE;
        (0..board.cells())
            .map(|blank| {
                Table::build(
                    &State::canonical_goal(board, blank),
                    BuildOptions::default(),
                )
                .expect("3x3 tables build")
            })
            .collect()
    })
}

/// How a claim's moves are made: a random walk, the table's optimal solution, or that
/// solution with a random detour (a walk and its reverse) spliced in.
#[derive(Clone, Debug)]
enum Shape {
    Walk,
    Optimal,
    Detour { at: usize },
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::Walk),
        Just(Shape::Optimal),
        (0usize..40).prop_map(|at| Shape::Detour { at }),
    ]
}

/// A legal walk from `from`: at each step the `choice`-th legal move (modulo their number).
fn walk(from: &State, choices: &[usize]) -> Vec<Move> {
    let mut state = *from;
    let mut moves = Vec::new();
    for &choice in choices {
        let legal: Vec<(Move, State)> = state.successors().collect();
        let (mv, next) = legal[choice % legal.len()];
        moves.push(mv);
        state = next;
    }
    moves
}

/// The verdict the rules demand for legal `moves`, from an independent replay.
fn expected(start: &State, goal: &State, exact: u8, moves: &[Move]) -> Verdict {
    let solution = Solution::from_moves(*start, moves.to_vec()).expect("the moves are legal");
    if solution.end() != *goal {
        // The hint: the same letters, each read as its opposite (the tile's direction), are
        // legal and end at the goal.
        let opposite: Vec<Move> = moves.iter().map(|mv| mv.inverse()).collect();
        let tile_moves_reach_goal =
            Solution::from_moves(*start, opposite).is_ok_and(|tiles| tiles.end() == *goal);
        return Verdict::WrongEnd {
            end: solution.end(),
            tile_moves_reach_goal,
        };
    }
    let length = moves.len() as u32;
    assert!(
        length >= u32::from(exact),
        "a path shorter than the exact distance"
    );
    if length == u32::from(exact) {
        Verdict::Optimal
    } else {
        Verdict::Suboptimal {
            by: length - u32::from(exact),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn random_legal_move_strings_are_classified_exactly(
        blank in 0usize..9,
        rank in 0u32..181_440,
        shape in shape(),
        choices in proptest::collection::vec(0usize..4, 0..40),
    ) {
        let table = &tables()[blank];
        let goal = *table.goal();
        let start = table.space().unrank(rank, goal.parity_class());
        let exact = table.distance(&start).unwrap().expect("same parity class");
        let moves = match shape {
            Shape::Walk => walk(&start, &choices),
            Shape::Optimal => table.solve_moves(&start).unwrap().expect("solvable"),
            Shape::Detour { at } => {
                let mut moves = table.solve_moves(&start).unwrap().expect("solvable");
                let at = at.min(moves.len());
                let there = Solution::from_moves(start, moves[..at].to_vec()).unwrap().end();
                let out = walk(&there, &choices);
                let back: Vec<Move> = out.iter().rev().map(|m| m.inverse()).collect();
                moves.splice(at..at, out.into_iter().chain(back));
                moves
            }
        };
        let want = expected(&start, &goal, exact, &moves);
        // Optimal exactly when the length equals the exact distance (and the end is the goal).
        let verdict = judge(&start, &goal, Some(exact), &Claim::moves(moves.clone()));
        prop_assert_eq!(&verdict, &want);
        // The same answer written as text (lower case, separated), or as a path, or both.
        let text: Vec<String> = moves.iter().map(|m| m.letter().to_ascii_lowercase().to_string()).collect();
        let parsed = parse_moves(&text.join(", ")).unwrap();
        prop_assert_eq!(&parsed, &moves);
        let path = Solution::from_moves(start, moves.clone()).unwrap().path().to_vec();
        prop_assert_eq!(&judge(&start, &goal, Some(exact), &Claim::path(path.clone())), &want);
        prop_assert_eq!(&judge(&start, &goal, Some(exact), &Claim::path(path[1..].to_vec())), &want);
        let both = Claim { moves: Some(moves.clone()), path: Some(path), length: Some(moves.len() as u32), unsolvable: Some(false) };
        prop_assert_eq!(&judge(&start, &goal, Some(exact), &both), &want);
        // A length-only claim is optimal exactly when it equals the distance.
        let length_verdict = judge(&start, &goal, Some(exact), &Claim::length(moves.len() as u32));
        if moves.len() == usize::from(exact) {
            prop_assert_eq!(length_verdict, Verdict::Optimal);
        } else {
            prop_assert_eq!(length_verdict, Verdict::WrongLength { claimed: moves.len() as u32, exact });
        }
        // Claiming no solution for a solvable pair is always false.
        prop_assert_eq!(judge(&start, &goal, Some(exact), &Claim::unsolvable()), Verdict::FalseUnsolvable { exact });
    }

    #[test]
    fn arbitrary_move_strings_stop_at_the_first_illegal_move(
        rank in 0u32..181_440,
        letters in proptest::collection::vec(0usize..4, 0..30),
    ) {
        let table = &tables()[8];
        let goal = *table.goal();
        let start = table.space().unrank(rank, goal.parity_class());
        let exact = table.distance(&start).unwrap().unwrap();
        let moves: Vec<Move> = letters.iter().map(|&i| Move::ALL[i]).collect();
        let verdict = judge(&start, &goal, Some(exact), &Claim::moves(moves.clone()));
        // Independent replay with State::apply.
        let mut state = start;
        let mut first_illegal = None;
        for (i, &mv) in moves.iter().enumerate() {
            match state.apply(mv) {
                Some(next) => state = next,
                None => { first_illegal = Some(i + 1); break; }
            }
        }
        match first_illegal {
            Some(step) => prop_assert!(
                matches!(&verdict, Verdict::IllegalMove { step: s, .. } if *s == step),
                "expected illegal-move at {}, got {:?}", step, verdict
            ),
            None => prop_assert_eq!(verdict, expected(&start, &goal, exact, &moves)),
        }
        // Solvability is decided before replaying: the same moves on an unsolvable pair.
        let mut swapped = start.cells().to_vec();
        let tiles: Vec<usize> = (0..9).filter(|&c| swapped[c] != 0).take(2).collect();
        swapped.swap(tiles[0], tiles[1]);
        let unsolvable = State::from_tiles(Board::THREE_BY_THREE, &swapped).unwrap();
        prop_assert_eq!(table.distance(&unsolvable).unwrap(), None);
        prop_assert_eq!(judge(&unsolvable, &goal, None, &Claim::moves(moves)), Verdict::FalseSolution);
        prop_assert_eq!(judge(&unsolvable, &goal, None, &Claim::unsolvable()), Verdict::CorrectUnsolvable);
    }

    #[test]
    fn without_the_distance_the_verdict_is_judges_or_left_open(
        rank in 0u32..181_440,
        letters in proptest::collection::vec(0usize..4, 0..30),
    ) {
        let table = &tables()[4];
        let goal = *table.goal();
        let start = table.space().unrank(rank, goal.parity_class());
        let exact = table.distance(&start).unwrap().unwrap();
        let moves: Vec<Move> = letters.iter().map(|&i| Move::ALL[i]).collect();
        let claim = Claim::moves(moves);
        let with = judge(&start, &goal, Some(exact), &claim);
        match judge_without_distance(&start, &goal, &claim) {
            // Decided from the claim alone: exactly what the distance would have said.
            Some(verdict) => prop_assert_eq!(verdict, with),
            // Left open only where the distance decides: moves that reach the goal.
            None => prop_assert!(
                matches!(with, Verdict::Optimal | Verdict::Suboptimal { .. }),
                "left open, but judge says {:?}", with
            ),
        }
        prop_assert_eq!(judge_without_distance(&start, &goal, &Claim::length(u32::from(exact))), None);
        prop_assert_eq!(judge_without_distance(&start, &goal, &Claim::unsolvable()), None);
    }
}

#[test]
fn move_words_and_letters_mix() {
    assert_eq!(moves_to_string(&parse_moves("up,LEFT dR").unwrap()), "ULDR");
}
