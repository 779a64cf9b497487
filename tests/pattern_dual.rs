//! Dual lookups against exact tables on every state: on 3x3 (fast tier) and 3x4 (long tier,
//! `--ignored`: 239,500,800 states), each lookup of a [`PatternHeuristic`] — regular,
//! reflected, dual, dual-reflected, the dual ones reading the databases of the patterns' other
//! blank regions ([`region_goals`]) — and their maximum is a lower bound of the exact distance,
//! for goals with the blank in a corner and (3x3) in the centre; the dual ones add something
//! (they exceed regular + reflected somewhere), the region databases raise them somewhere and
//! lower them nowhere; and the incremental steps of the maximum equal its recomputation.
//!
//! The region databases are also checked entry by entry against a plain search of the
//! abstract space written here (pattern placement and the blank's exact cell, a 0-1
//! breadth-first search from every goal cell of the region), so one too large by one anywhere
//! fails even where the exact distance would not catch it.

use std::collections::{HashMap, VecDeque};
use std::ops::ControlFlow;
use std::sync::Arc;

use rayon::prelude::*;

use npuzzle::heuristic::{Lookups, PatternHeuristic};
use npuzzle::pattern::{region_goals, PatternDatabase};
use npuzzle::store::StoredBytes;
use npuzzle::{Board, BuildOptions, Heuristic, Move, State, Table};

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

/// The databases of `partition`'s other blank regions for `goal`.
fn region_databases(goal: &State, partition: &[&[u8]]) -> Vec<Arc<PatternDatabase<StoredBytes>>> {
    let mut found = Vec::new();
    for tiles in partition {
        for other in region_goals(goal, tiles) {
            let db = PatternDatabase::build(&other, tiles, &|_| ControlFlow::Continue(())).unwrap();
            found.push(Arc::new(db.map_into::<StoredBytes>()));
        }
    }
    found
}

/// Checks every lookup and the maximum on every state of the goal's class; `steps` also
/// checks each incremental step of the maximum against its recomputation.
fn check(board: Board, blank: usize, partition: &[&[u8]], steps: bool) {
    let goal = State::canonical_goal(board, blank);
    let dbs = databases(&goal, partition);
    let regions = region_databases(&goal, partition);
    let table = Table::build(&goal, BuildOptions::default()).unwrap();
    let heuristic = |lookups| {
        PatternHeuristic::with_lookups(&goal, dbs.clone(), lookups)
            .unwrap()
            .with_region_databases(regions.clone())
            .unwrap()
    };
    let mut variants: Vec<PatternHeuristic> = ONLY
        .into_iter()
        .chain([Lookups::REFLECTED, Lookups::ALL])
        .map(heuristic)
        .collect();
    // The four lookups without the region databases: never above, somewhere below.
    variants.push(PatternHeuristic::with_lookups(&goal, dbs.clone(), Lookups::ALL).unwrap());
    let square = board.width() == board.height();
    let class = table.goal().parity_class();
    let entries = table.entries().unwrap();
    let space = table.space();
    let states = space.states();
    // (states checked, states where the dual maximum beats regular + reflected, tight, states
    // where the region databases raise the maximum).
    let (checked, better, tight, raised) = (0..states)
        .into_par_iter()
        .with_min_len(1 << 14)
        .map(|i| {
            let state = space.unrank(i, class);
            let exact = entries[i as usize] as u32;
            let mut values = [0u32; 7];
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
            assert!(
                values[6] <= values[5],
                "{state}: the region databases lowered the bound"
            );
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
                (values[5] > values[6]) as u64,
            )
        })
        .reduce(
            || (0, 0, 0, 0),
            |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3),
        );
    assert_eq!(checked, states as u64);
    assert_eq!(
        raised > 0,
        !regions.is_empty(),
        "{board} blank {blank}: {} region databases raised the bound on {raised} states",
        regions.len()
    );
    assert!(
        better > 0,
        "{board} blank {blank}: the dual lookups never beat regular + reflected"
    );
    eprintln!("{board} blank {blank} {partition:?}: {checked} states, the dual lookups raise the bound on {better}, the region databases on {raised}, the maximum is exact on {tight}");
}

#[test]
fn every_lookup_is_admissible_on_every_3x3_state() {
    let board = Board::new(3, 3).unwrap();
    // The corner goals' first partition walls a cell in: region databases to check.
    let corner = State::canonical_goal(board, 0);
    assert_eq!(region_goals(&corner, &[1, 2, 3, 4]).len(), 1);
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

/// The value of every placement of `tiles` counted to `goal`'s abstract goal (the tiles home,
/// the blank anywhere in the region of free cells holding `goal`'s blank), by a 0-1
/// breadth-first search over (placement, blank cell) written here from the moves alone: a
/// move of the blank onto a pattern tile costs 1, onto a free cell 0. Keyed by the placement.
fn abstract_values(goal: &State, tiles: &[u8]) -> HashMap<Vec<u8>, u32> {
    let board = goal.board();
    let home: Vec<u8> = tiles
        .iter()
        .map(|&t| goal.cells().iter().position(|&c| c == t).unwrap() as u8)
        .collect();
    let mut best: HashMap<(Vec<u8>, u8), u32> = HashMap::new();
    let mut queue = VecDeque::new();
    // Every free cell connected to the goal's blank through free cells starts at 0; the
    // zero-cost moves reach them all from the blank's cell.
    queue.push_back(((home.clone(), goal.blank() as u8), 0u32));
    while let Some(((placement, blank), d)) = queue.pop_front() {
        if best
            .get(&(placement.clone(), blank))
            .is_some_and(|&b| b <= d)
        {
            continue;
        }
        best.insert((placement.clone(), blank), d);
        for mv in Move::ALL {
            let Some(next) = board.step(blank as usize, mv) else {
                continue;
            };
            let next = next as u8;
            match placement.iter().position(|&c| c == next) {
                Some(i) => {
                    let mut moved = placement.clone();
                    moved[i] = blank;
                    queue.push_back(((moved, next), d + 1));
                }
                None => queue.push_front(((placement.clone(), next), d)),
            }
        }
    }
    let mut values: HashMap<Vec<u8>, u32> = HashMap::new();
    for ((placement, _), d) in best {
        let v = values.entry(placement).or_insert(d);
        *v = (*v).min(d);
    }
    values
}

/// Every entry of the databases of `partition` for `goal` and for its other blank regions
/// equals the plain abstract search's value; placements that search never reaches (none on
/// these boards) are skipped.
fn check_entries(goal: &State, partition: &[&[u8]]) {
    let mut checked = 0;
    for tiles in partition {
        for target in std::iter::once(*goal).chain(region_goals(goal, tiles)) {
            let db =
                PatternDatabase::build(&target, tiles, &|_| ControlFlow::Continue(())).unwrap();
            let values = abstract_values(&target, db.space().tiles());
            assert!(!values.is_empty());
            for (placement, &value) in &values {
                assert_eq!(
                    db.value(placement),
                    value,
                    "{tiles:?} for goal {target}: placement {placement:?}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}

#[test]
fn region_databases_equal_a_plain_abstract_search_on_3x3() {
    let board = Board::new(3, 3).unwrap();
    for blank in [0, 2, 4, 8] {
        let goal = State::canonical_goal(board, blank);
        check_entries(&goal, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]);
        check_entries(&goal, &[&[1, 3, 5], &[2, 4, 6], &[7, 8]]);
    }
    // Korf's goal on 3x4 with the long tier's partition: the top-left pattern walls cell 0 in.
    let goal = State::canonical_goal(Board::new(3, 4).unwrap(), 0);
    assert_eq!(region_goals(&goal, &[1, 2, 3, 4, 5]).len(), 1);
    check_entries(&goal, &[&[1, 2, 3, 4, 5]]);
}

/// The dual lookup at its strongest for these databases: every pattern read for the dual
/// goal itself (identity labels, the blank in cell `β`, the cell of the position's blank), and
/// the pattern holding `β` read without it (a database of the pattern less `β`). This is
/// what the region databases and the Manhattan fallback of `heuristic/dual.rs` approximate,
/// so it must be admissible and never below the library's dual lookup; its means say how
/// much the fallbacks lose and how far the dual lookup stays below the regular one when the
/// blank is not home (BENCHMARKS.md, "The dual lookup at its strongest").
fn check_strongest_dual(board: Board, partition: &[&[u8]]) {
    let n = board.cells();
    let goal = State::canonical_goal(board, 0);
    // For each β: the dual goal (label 0, an ordinary tile there, written as tile β) and the
    // partition's patterns less β, read by a regular lookup.
    let per_blank: Vec<PatternHeuristic> = (0..n)
        .map(|beta| {
            let mut cells: Vec<u8> = (0..n as u8).collect();
            cells.swap(0, beta);
            let target = State::from_tiles(board, &cells).unwrap();
            let less: Vec<Vec<u8>> = partition
                .iter()
                .map(|p| p.iter().copied().filter(|&l| l as usize != beta).collect())
                .collect();
            let less: Vec<&[u8]> = less.iter().map(Vec::as_slice).collect();
            PatternHeuristic::with_lookups(&target, databases(&target, &less), ONLY[0]).unwrap()
        })
        .collect();
    let dbs = databases(&goal, partition);
    let lookups = |l| PatternHeuristic::with_lookups(&goal, dbs.clone(), l).unwrap();
    let (regular, dual, both, all) = (
        lookups(ONLY[0]),
        lookups(ONLY[2]),
        lookups(Lookups::REFLECTED),
        lookups(Lookups::ALL),
    );
    let manhattan = npuzzle::heuristic::Manhattan::new(&goal);
    let table = Table::build(&goal, BuildOptions::default()).unwrap();
    let class = table.goal().parity_class();
    let entries = table.entries().unwrap();
    let space = table.space();
    // Sums of: exact, regular, the library's dual, the strongest dual, regular + reflected,
    // all four, all four with the strongest dual.
    let sums = (0..space.states())
        .into_par_iter()
        .with_min_len(1 << 14)
        .map(|i| {
            let state = space.unrank(i, class);
            let exact = u64::from(entries[i as usize]);
            let beta = state.blank();
            // The dual position: cell c holds the cell where label c lies; label β is its
            // blank and label 0 is written as tile β.
            let mut cells = vec![0u8; n];
            for (cell, &label) in state.cells().iter().enumerate() {
                cells[label as usize] = cell as u8;
            }
            for c in &mut cells {
                *c = match *c as usize {
                    b if b == beta => 0,
                    0 => beta as u8,
                    other => other as u8,
                };
            }
            let dual_position = State::from_tiles(board, &cells).unwrap();
            let mut strongest = u64::from(per_blank[beta].estimate(&dual_position));
            // Every move flips the parity of the Manhattan sum, so the distance has its parity.
            if (strongest + u64::from(manhattan.estimate(&state))) % 2 == 1 {
                strongest += 1;
            }
            let library = u64::from(dual.estimate(&state));
            assert!(
                strongest <= exact,
                "{state}: strongest dual {strongest} > exact {exact}"
            );
            assert!(
                library <= strongest,
                "{state}: library dual {library} > strongest {strongest}"
            );
            let four = u64::from(all.estimate(&state));
            [
                exact,
                u64::from(regular.estimate(&state)),
                library,
                strongest,
                u64::from(both.estimate(&state)),
                four,
                four.max(strongest),
            ]
        })
        .reduce(|| [0; 7], |a, b| std::array::from_fn(|k| a[k] + b[k]));
    let mean = |k: usize| sums[k] as f64 / space.states() as f64;
    assert!(
        sums[3] > sums[2],
        "the databases of the dual goal raise the dual lookup somewhere"
    );
    eprintln!(
        "{board} {partition:?}, means over {} states: exact {:.3}; regular {:.3}; dual: library {:.3}, strongest {:.3}; regular + reflected {:.3}; all four {:.3}, with the strongest dual {:.3}",
        space.states(),
        mean(0),
        mean(1),
        mean(2),
        mean(3),
        mean(4),
        mean(5),
        mean(6)
    );
}

#[test]
fn the_strongest_dual_lookup_is_admissible_on_every_3x3_state() {
    let board = Board::new(3, 3).unwrap();
    check_strongest_dual(board, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]);
    check_strongest_dual(board, &[&[1, 3, 5], &[2, 4, 6], &[7, 8]]);
}

#[test]
#[ignore = "long tier: every state of 3x4 (239,500,800), several minutes on two cores"]
fn the_strongest_dual_lookup_is_admissible_on_every_3x4_state() {
    check_strongest_dual(
        Board::new(3, 4).unwrap(),
        &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10, 11]],
    );
}
