//! The answer layer (`npuzzle::answer`): one decision between table and search for every
//! board, tables opened once per goal and process, and answers that agree with independent
//! algorithms.

mod references;

use references::{plain_bfs, walk, SMALL_BOARDS};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use npuzzle::answer::{
    has_table, AnswerError, BuildInMemory, Databases, Exact, SourceError, TableSource,
    MAX_TABLE_CELLS,
};
use npuzzle::pattern::Partition;
use npuzzle::rng::SplitMix64;
use npuzzle::sample::{sample_uniform, SampleOptions};
use npuzzle::search::{Algorithm, Limits};
use npuzzle::store::StoredBytes;
use npuzzle::verify::{parse_moves, Claim, Verdict};
use npuzzle::{Board, HeuristicKind, How, Method, NoAnswer, Oracle, State, Table};

/// A source that builds in memory and counts what it was asked for.
#[derive(Default)]
struct Counting {
    asked: Arc<AtomicUsize>,
}

impl TableSource for Counting {
    fn table(&self, goal: &State) -> Result<Table<StoredBytes>, SourceError> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        BuildInMemory::default().table(goal)
    }
}

#[test]
fn exactly_the_boards_of_at_most_twelve_cells_have_tables() {
    assert_eq!(MAX_TABLE_CELLS, 12);
    let tabled: Vec<String> = (2..=12)
        .flat_map(|w| (2..=12).map(move |h| (w, h)))
        .filter_map(|(w, h)| Board::new(w, h).ok())
        .filter(|b| has_table(*b))
        .map(|b| b.to_string())
        .collect();
    let mut expected = vec![
        "2x2", "2x3", "2x4", "2x5", "2x6", "3x2", "3x3", "3x4", "4x2", "4x3", "5x2", "6x2",
    ];
    expected.sort();
    let mut tabled_sorted = tabled.clone();
    tabled_sorted.sort();
    assert_eq!(tabled_sorted, expected);
}

#[test]
fn table_answers_equal_an_independent_search_on_every_small_board_and_goal() {
    let oracle = Oracle::in_memory();
    let searched = Oracle::search_only();
    let mut rng = SplitMix64::new(20261123);
    for (w, h) in SMALL_BOARDS {
        let board = Board::new(w, h).unwrap();
        for blank in 0..board.cells() {
            // A goal with scrambled labels, so relabelling is exercised too.
            let goal = walk(&State::canonical_goal(board, blank), 7, &mut rng);
            for _ in 0..6 {
                let start = walk(&goal, 40, &mut rng);
                let table = oracle.solve(&start, &goal, How::default()).unwrap();
                assert!(table.method.is_table(), "{board}");
                let path = table.value.unwrap();
                assert_eq!(path.end(), goal);
                let search = searched
                    .distance(
                        &start,
                        &goal,
                        How::search(Algorithm::Bfs, None, Limits::default()),
                    )
                    .unwrap();
                assert!(!search.method.is_table());
                assert_eq!(search.value, Ok(path.len() as u8), "{start} -> {goal}");
                let distance = oracle.distance(&start, &goal, How::default()).unwrap();
                assert_eq!(distance.value, Ok(path.len() as u8));
            }
        }
    }
}

#[test]
fn each_table_is_asked_for_once_however_many_threads_ask_at_once() {
    let source = Counting::default();
    let asked = Arc::clone(&source.asked);
    let oracle = Oracle::new(source);
    let board = Board::new(4, 2).unwrap();
    let goals = [State::goal(board), State::canonical_goal(board, 0)];
    let mut rng = SplitMix64::new(3);
    let questions: Vec<(State, State)> = (0..2000)
        .map(|i| {
            let goal = goals[i % 2];
            (walk(&goal, 30, &mut rng), goal)
        })
        .collect();
    let answered: Vec<u8> = questions
        .par_iter()
        .map(|(start, goal)| {
            oracle
                .distance(start, goal, How::default())
                .unwrap()
                .value
                .unwrap()
        })
        .collect();
    // Every answer is the reference's (answers from threads that waited for a table
    // someone else was opening are still right).
    let reference: Vec<HashMap<State, u8>> = goals.iter().map(|&g| plain_bfs(g)).collect();
    for (i, ((start, goal), &distance)) in questions.iter().zip(&answered).enumerate() {
        assert_eq!(reference[i % 2][start], distance, "{start} -> {goal}");
    }
    assert_eq!(
        asked.load(Ordering::SeqCst),
        2,
        "one table per blank cell, asked once each"
    );
    // Another goal with the blank in the same cell (two tiles swapped) is served by the same
    // table, by relabelling: nothing more is asked for.
    let mut tiles = goals[0].cells().to_vec();
    tiles.swap(0, 1);
    let relabelled = State::from_tiles(board, &tiles).unwrap();
    assert_eq!(relabelled.blank(), goals[0].blank());
    let start = walk(&relabelled, 12, &mut rng);
    assert_eq!(
        oracle
            .distance(&start, &relabelled, How::default())
            .unwrap()
            .value,
        Ok(plain_bfs(relabelled)[&start])
    );
    assert_eq!(asked.load(Ordering::SeqCst), 2, "the same table serves it");
    // A goal with the blank in a third cell needs a third table, asked for once.
    let third = State::canonical_goal(board, 3);
    oracle.distance(&third, &third, How::default()).unwrap();
    oracle.distance(&third, &third, How::default()).unwrap();
    assert_eq!(asked.load(Ordering::SeqCst), 3);
}

#[test]
fn a_table_is_loaded_from_inside_a_busy_rayon_pool_without_deadlock() {
    // Every question of the first 64 needs a table nobody has opened, on a pool of 2 threads
    // whose other tasks also wait for it: the build must not run on (and steal from) that pool.
    let oracle = Oracle::in_memory();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let boards = [(3, 3), (2, 5), (5, 2), (2, 4)];
    let answered: usize = pool.install(|| {
        (0..256usize)
            .into_par_iter()
            .map(|i| {
                let (w, h) = boards[i % boards.len()];
                let goal = State::goal(Board::new(w, h).unwrap());
                let start = walk(&goal, i % 17, &mut SplitMix64::new(i as u64));
                oracle
                    .distance(&start, &goal, How::default())
                    .unwrap()
                    .value
                    .is_ok() as usize
            })
            .sum()
    });
    assert_eq!(answered, 256);
}

#[test]
fn boards_without_tables_are_searched_optimally() {
    let oracle = Oracle::in_memory();
    let board = Board::new(4, 4).unwrap();
    let goal = State::goal(board);
    let mut rng = SplitMix64::new(9);
    for _ in 0..5 {
        let start = walk(&goal, 30, &mut rng);
        let answer = oracle.solve(&start, &goal, How::default()).unwrap();
        // The default goal has its blank in a corner: 6-6-3 databases, built on first use.
        assert_eq!(
            answer.method,
            Method::Search {
                algorithm: Algorithm::IdaStar,
                heuristic: Some(HeuristicKind::PatternDatabase),
                databases: Some(Databases {
                    partition: Partition::SixSixThree,
                    reflected: true,
                    lookups: npuzzle::heuristic::Lookups::REFLECTED,
                }),
            }
        );
        assert!(answer.expanded > 0);
        let path = answer.value.unwrap();
        assert_eq!(path.end(), goal);
        // A* with Manhattan distance, an independent optimal search, agrees on the length.
        let other = oracle
            .distance(
                &start,
                &goal,
                How::search(
                    Algorithm::AStar,
                    Some(HeuristicKind::Manhattan),
                    Limits::default(),
                ),
            )
            .unwrap();
        assert_eq!(other.value, Ok(path.len() as u8));
    }
}

/// Pattern databases serve every goal with the blank in a corner by relabelling onto the
/// canonical goal's databases, agree with linear conflict on the length, and are not used
/// where the blank is elsewhere (linear conflict answers) or where asked not to.
#[test]
fn pattern_databases_serve_relabelled_corner_goals_and_only_those() {
    let oracle = Oracle::in_memory();
    let board = Board::new(4, 4).unwrap();
    let mut rng = SplitMix64::new(21);
    let lc = |start: &State, goal: &State| {
        oracle
            .solve(
                start,
                goal,
                How::search(
                    Algorithm::IdaStar,
                    Some(HeuristicKind::LinearConflict),
                    Limits::default(),
                ),
            )
            .unwrap()
    };
    // A scrambled labelling with the blank top-left, and one with the blank in cell 5.
    let corner =
        walk(&State::canonical_goal(board, 0), 200, &mut rng).relabel_for(&State::goal(board));
    let corner = State::from_tiles(board, &{
        let mut tiles = corner.cells().to_vec();
        let blank = tiles.iter().position(|&t| t == 0).unwrap();
        tiles.swap(blank, 0);
        tiles
    })
    .unwrap();
    assert_eq!(corner.blank(), 0);
    for (goal, databases) in [(corner, true), (State::canonical_goal(board, 5), false)] {
        for _ in 0..3 {
            let start = walk(&goal, 40, &mut rng);
            let answer = oracle.solve(&start, &goal, How::default()).unwrap();
            let path = answer.value.clone().unwrap();
            assert_eq!(path.start(), start);
            assert_eq!(path.end(), goal);
            assert_eq!(
                path.len(),
                lc(&start, &goal).value.unwrap().len(),
                "{start} -> {goal}"
            );
            match answer.method {
                Method::Search {
                    databases: Some(d), ..
                } => {
                    assert!(
                        databases,
                        "{goal}: databases where the blank is not in a corner"
                    );
                    assert_eq!(d.partition, Partition::SixSixThree);
                }
                _ => assert!(!databases, "{goal}: no databases for a corner goal"),
            }
        }
        let asked = oracle.distance(
            &goal,
            &goal,
            How::search(
                Algorithm::IdaStar,
                Some(HeuristicKind::PatternDatabase),
                Limits::default(),
            ),
        );
        assert_eq!(asked.is_ok(), databases, "{goal}");
    }
    // Never with a source that has none.
    let goal = State::goal(board);
    let answer = Oracle::search_only()
        .distance(&walk(&goal, 20, &mut rng), &goal, How::default())
        .unwrap();
    assert!(matches!(
        answer.method,
        Method::Search {
            databases: None,
            ..
        }
    ));
}

#[test]
fn a_right_answer_on_a_board_without_tables_is_judged_optimal_not_a_false_solution() {
    let oracle = Oracle::in_memory();
    let goal = State::goal(Board::new(4, 4).unwrap());
    let start: State = "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15".parse().unwrap();
    let judge = |moves: &str| {
        let claim = Claim::moves(parse_moves(moves).unwrap());
        oracle
            .judge(&start, &goal, &claim, How::default())
            .unwrap()
            .value
            .unwrap()
    };
    let right = judge("RR");
    assert_eq!(right.verdict, Verdict::Optimal);
    assert_eq!(right.exact, Exact::Distance(2));
    assert_eq!(judge("RLRR").verdict, Verdict::Suboptimal { by: 2 });
    assert_eq!(judge("D").verdict.name(), "illegal-move");
    let unsolvable: State = "2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0".parse().unwrap();
    let judged = oracle
        .judge(&unsolvable, &goal, &Claim::unsolvable(), How::default())
        .unwrap();
    assert_eq!(judged.value.unwrap().verdict, Verdict::CorrectUnsolvable);
    assert_eq!(judged.method, Method::Reasoning);
}

#[test]
fn a_search_that_reaches_its_limit_says_so_and_judging_is_unverified() {
    let oracle = Oracle::in_memory();
    let goal = State::goal(Board::new(5, 5).unwrap());
    let mut rng = SplitMix64::new(1);
    let start = walk(&goal, 400, &mut rng);
    let limits = Limits::NONE.nodes(10);
    let answer = oracle.distance(&start, &goal, How::within(limits)).unwrap();
    assert!(
        matches!(answer.value, Err(NoAnswer::GaveUp(_))),
        "{:?}",
        answer.value
    );
    let claim = Claim::length(90);
    let judged = oracle
        .judge(&start, &goal, &claim, How::within(limits))
        .unwrap();
    assert_eq!(judged.value.unwrap().verdict.name(), "unverified");
}

#[test]
fn unsolvable_pairs_and_mismatched_boards_are_told_apart() {
    let oracle = Oracle::in_memory();
    let goal = State::goal(Board::THREE_BY_THREE);
    let swapped: State = "213456780".parse().unwrap();
    let answer = oracle.distance(&swapped, &goal, How::default()).unwrap();
    assert_eq!(
        answer.value,
        Err(NoAnswer::Unsolvable(
            npuzzle::Unsolvable::between(&swapped, &goal).unwrap()
        ))
    );
    let other = State::goal(Board::new(2, 2).unwrap());
    assert!(matches!(
        oracle.distance(&other, &goal, How::default()),
        Err(AnswerError::OtherBoards { .. })
    ));
    assert!(matches!(
        oracle.distance(
            &goal,
            &goal,
            How::search(Algorithm::Greedy, None, Limits::default())
        ),
        Err(AnswerError::NotOptimal { .. })
    ));
    let big = State::goal(Board::new(4, 4).unwrap());
    assert!(matches!(
        oracle.distance(&big, &big, How::table()),
        Err(AnswerError::NoTable { .. })
    ));
}

#[test]
fn uniform_draws_cover_a_parity_class_evenly() {
    // 2x2 has 12 states in a class: 12,000 draws, each state about 1,000 times.
    let goal = State::goal(Board::new(2, 2).unwrap());
    let options = SampleOptions {
        count: 12_000,
        ..SampleOptions::default()
    };
    let mut seen: HashMap<State, u32> = HashMap::new();
    for instance in sample_uniform(&goal, &options, 5).unwrap() {
        assert!(instance.start.can_reach(&goal));
        *seen.entry(instance.start).or_default() += 1;
    }
    assert_eq!(seen.len(), 12);
    for (state, count) in seen {
        assert!((850..1150).contains(&count), "{state}: {count}");
    }
    // The same seed draws the same instances; depths need a table.
    let again: Vec<_> = sample_uniform(&goal, &options, 5)
        .unwrap()
        .take(20)
        .collect();
    let first: Vec<_> = sample_uniform(&goal, &options, 5)
        .unwrap()
        .take(20)
        .collect();
    assert_eq!(again, first);
    let at_depth = SampleOptions {
        depths: 3..=3,
        ..SampleOptions::default()
    };
    assert!(sample_uniform(&goal, &at_depth, 5).is_err());
}

#[test]
fn the_oracle_samples_at_exact_depths_where_a_table_exists_and_uniformly_elsewhere() {
    let oracle = Oracle::in_memory();
    let goal = State::goal(Board::new(5, 2).unwrap());
    let options = SampleOptions {
        count: 50,
        depths: 40..=40,
        unsolvable: 5,
    };
    let drawn: Vec<_> = oracle.sample(&goal, &options, 8).unwrap().collect();
    assert_eq!(drawn.iter().filter(|i| !i.solvable).count(), 5);
    for instance in drawn.iter().filter(|i| i.solvable) {
        let exact = oracle
            .distance(&instance.start, &goal, How::default())
            .unwrap();
        assert_eq!(exact.value, Ok(40));
        assert_eq!(instance.distance, Some(40));
    }
    let big = State::goal(Board::new(4, 4).unwrap());
    let options = SampleOptions {
        count: 10,
        ..SampleOptions::default()
    };
    let drawn: Vec<_> = oracle.sample(&big, &options, 8).unwrap().collect();
    assert!(drawn
        .iter()
        .all(|i| i.start.can_reach(&big) && i.distance.is_none()));
}

#[test]
fn the_oracles_lower_bound_uses_the_databases_it_holds_and_never_exceeds_the_distance() {
    let oracle = Oracle::in_memory();
    // A corner goal other than the canonical one: the databases are for the canonical goal.
    let goal = State::parse("15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0", None).unwrap();
    let mut rng = SplitMix64::new(26);
    let starts: Vec<State> = (0..12).map(|_| walk(&goal, 40, &mut rng)).collect();
    // Before any database is open: the linear conflict bound, nothing is opened.
    for start in &starts {
        assert_eq!(
            oracle.lower_bound(start, &goal),
            npuzzle::answer::lower_bound(start, &goal)
        );
    }
    assert!(oracle.pattern_databases(&goal).unwrap().is_some());
    let mut stronger = 0;
    for start in &starts {
        let plain = npuzzle::answer::lower_bound(start, &goal).unwrap();
        let bound = oracle.lower_bound(start, &goal).unwrap();
        let exact = oracle.distance(start, &goal, How::default()).unwrap();
        let exact = u32::from(exact.value.expect("solvable"));
        assert!(
            plain <= bound && bound <= exact,
            "{start}: {plain} {bound} {exact}"
        );
        stronger += usize::from(bound > plain);
    }
    // 6-6-3 beats linear conflict on some of these starts (else the databases were not used).
    assert!(stronger > 0);
    let unsolvable = State::parse("14 15 13 12 11 10 9 8 7 6 5 4 3 2 1 0", None).unwrap();
    assert_eq!(oracle.lower_bound(&unsolvable, &goal), None);
}
