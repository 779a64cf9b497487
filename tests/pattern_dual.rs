//! Dual lookups against exact tables on every state: on 3x3 (fast tier) and 3x4 (long tier,
//! `--ignored`: 239,500,800 states), each lookup of a [`PatternHeuristic`] — regular,
//! reflected, dual, dual-reflected — and their maximum is a lower bound of the exact distance,
//! for goals with the blank in a corner and (3x3) in the centre; the dual ones add something
//! (they exceed regular + reflected somewhere); and the incremental steps of the maximum equal
//! its recomputation.

use std::ops::ControlFlow;
use std::sync::Arc;

use rayon::prelude::*;

use npuzzle::heuristic::{Lookups, PatternHeuristic};
use npuzzle::pattern::PatternDatabase;
use npuzzle::store::StoredBytes;
use npuzzle::{Board, BuildOptions, Heuristic, State, Table};

const ONLY: [Lookups; 4] = [
    Lookups {
        regular: true,
        reflected: false,
        dual: false,
        dual_reflected: false,
    },
    Lookups {
        regular: false,
        reflected: true,
        dual: false,
        dual_reflected: false,
    },
    Lookups {
        regular: false,
        reflected: false,
        dual: true,
        dual_reflected: false,
    },
    Lookups {
        regular: false,
        reflected: false,
        dual: false,
        dual_reflected: true,
    },
];

fn databases(goal: &State, partition: &[&[u8]]) -> Vec<Arc<PatternDatabase<StoredBytes>>> {
    partition
        .iter()
        .map(|tiles| {
            let db = PatternDatabase::build(goal, tiles, &|_| ControlFlow::Continue(())).unwrap();
            Arc::new(db.map_into::<StoredBytes>())
        })
        .collect()
}

/// Checks every lookup and the maximum on every state of the goal's class; `steps` also
/// checks each incremental step of the maximum against its recomputation.
fn check(board: Board, blank: usize, partition: &[&[u8]], steps: bool) {
    let goal = State::canonical_goal(board, blank);
    let dbs = databases(&goal, partition);
    let table = Table::build(&goal, BuildOptions::default()).unwrap();
    let heuristic = |lookups| PatternHeuristic::with_lookups(&goal, dbs.clone(), lookups).unwrap();
    let variants: Vec<PatternHeuristic> = ONLY
        .into_iter()
        .chain([Lookups::REFLECTED, Lookups::ALL])
        .map(heuristic)
        .collect();
    let square = board.width() == board.height();
    let class = table.goal().parity_class();
    let entries = table.entries().unwrap();
    let space = table.space();
    let states = space.states();
    // (states checked, states where the dual maximum beats regular + reflected, tight).
    let (checked, better, tight) = (0..states)
        .into_par_iter()
        .with_min_len(1 << 14)
        .map(|i| {
            let state = space.unrank(i, class);
            let exact = entries[i as usize] as u32;
            let mut values = [0u32; 6];
            for (v, h) in values.iter_mut().zip(&variants) {
                if h.lookups().is_empty() {
                    continue;
                }
                *v = h.estimate(&state);
                assert!(
                    *v <= exact,
                    "{state} (goal {goal}): lookups {} give {v} > exact {exact}",
                    h.lookups()
                );
            }
            let expected_max = if square {
                values[..4].iter().copied().max().unwrap()
            } else {
                values[0].max(values[2])
            };
            assert_eq!(values[5], expected_max, "{state}: the maximum of the four");
            if steps {
                let all = &variants[5];
                let (node, _) = all.start(state.cells());
                for (_, next) in state.successors() {
                    let (from, to) = (next.blank(), state.blank());
                    let tile = next.cells()[to];
                    let (_, stepped) = all.step(&node, next.cells(), tile, from, to);
                    assert_eq!(stepped, all.estimate(&next), "{state} -> {next}");
                }
            }
            (
                1u64,
                (values[5] > values[4]) as u64,
                (values[5] == exact) as u64,
            )
        })
        .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    assert_eq!(checked, states as u64);
    assert!(
        better > 0,
        "{board} blank {blank}: the dual lookups never beat regular + reflected"
    );
    eprintln!("{board} blank {blank} {partition:?}: {checked} states, the dual lookups raise the bound on {better}, the maximum is exact on {tight}");
}

#[test]
fn every_lookup_is_admissible_on_every_3x3_state() {
    let board = Board::new(3, 3).unwrap();
    for blank in [0, 2, 4, 8] {
        check(board, blank, &[&[1, 2, 3, 4], &[5, 6, 7, 8]], true);
        check(board, blank, &[&[1, 3, 5], &[2, 4, 6], &[7, 8]], false);
    }
}

#[test]
#[ignore = "long tier: every state of 3x4 (239,500,800), about two minutes on two cores"]
fn every_lookup_is_admissible_on_every_3x4_state() {
    let board = Board::new(3, 4).unwrap();
    for blank in [0, 11] {
        check(
            board,
            blank,
            &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10, 11]],
            false,
        );
    }
}
