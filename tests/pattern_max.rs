//! The maximum over two partitions ([`MaxPartitions`]) against exact tables: on every 3x3
//! state (corner goals, where the reflected lookups apply) its estimate is the larger of the
//! two partitions' regular + reflected estimates, never above the exact distance, somewhere
//! above each partition alone; every incremental step equals the estimate recomputed; the
//! lazy step (`step_within`) gives the step's estimate or a lower bound above the limit. On
//! sampled 3x3 and 3x4 states IDA* with it finds paths of the exact length after no more
//! nodes than with either partition alone on the lean node.
//!
//! Fast tier: every 3x3 state and 1,000 3x4 states. Long tier (`--ignored`): 10,000 sampled
//! states per board and goal searched.

use std::ops::ControlFlow;
use std::sync::Arc;

use rayon::prelude::*;

use npuzzle::heuristic::{Bounded, MaxPartitions, PatternHeuristic};
use npuzzle::pattern::PatternDatabase;
use npuzzle::rng::SplitMix64;
use npuzzle::search::{self, Limits};
use npuzzle::{Board, BuildOptions, Heuristic, State, Table};

/// The regular + reflected heuristic of `partition` (groups of tiles) for `goal`.
fn partition(goal: &State, groups: &[&[u8]]) -> PatternHeuristic {
    let dbs = groups
        .iter()
        .map(|tiles| {
            let db = PatternDatabase::build(goal, tiles, &|_| ControlFlow::Continue(())).unwrap();
            Arc::new(db.map_into())
        })
        .collect();
    PatternHeuristic::new(goal, dbs, true).unwrap()
}

/// Every state of the goal's class: the maximum's estimate, admissibility, steps and lazy
/// steps; the maximum must beat partition A alone somewhere and B alone somewhere.
fn check_every_state(table: &Table<Vec<u8>>, a: &PatternHeuristic, b: &PatternHeuristic) {
    let goal = *table.goal();
    let (la, lb) = (
        a.regular_reflected().unwrap(),
        b.regular_reflected().unwrap(),
    );
    let max = MaxPartitions::new(la, lb).unwrap();
    let class = goal.parity_class();
    let entries = table.entries().unwrap();
    let space = table.space();
    let (checked, above_a, above_b, cut) = (0..space.states())
        .into_par_iter()
        .with_min_len(1 << 12)
        .map(|i| {
            let state = space.unrank(i, class);
            let exact = u32::from(entries[i as usize]);
            let (ha, hb, h) = (a.estimate(&state), b.estimate(&state), max.estimate(&state));
            assert_eq!(h, ha.max(hb), "{state} (goal {goal})");
            assert!(h <= exact, "{state} (goal {goal}): {h} > exact {exact}");
            let (node, _) = max.start(state.cells());
            let mut cut = 0u64;
            for (_, next) in state.successors() {
                let (from, to) = (next.blank(), state.blank());
                let tile = next.cells()[to];
                let (child, stepped) = max.step(&node, next.cells(), tile, from, to);
                assert_eq!(stepped, max.estimate(&next), "{state} -> {next}");
                // The child's node carries on: its own steps equal recomputations.
                for (_, after) in next.successors() {
                    let (f, t) = (after.blank(), next.blank());
                    let (_, again) = max.step(&child, after.cells(), after.cells()[t], f, t);
                    assert_eq!(again, max.estimate(&after), "{next} -> {after}");
                }
                for limit in 0..=stepped + 1 {
                    match max.step_within(&node, next.cells(), tile, from, to, limit) {
                        Bounded::Known(_, known) => {
                            assert_eq!(known, stepped, "{state} -> {next}, limit {limit}");
                            assert!(known <= limit, "{state} -> {next}: kept beyond {limit}");
                        }
                        Bounded::Beyond(at_least) => {
                            assert!(
                                at_least > limit && at_least <= stepped,
                                "{state} -> {next}: bound {at_least}, limit {limit}, estimate {stepped}"
                            );
                            cut += 1;
                        }
                    }
                }
            }
            (1u64, u64::from(h > ha), u64::from(h > hb), cut)
        })
        .reduce(
            || (0, 0, 0, 0),
            |x, y| (x.0 + y.0, x.1 + y.1, x.2 + y.2, x.3 + y.3),
        );
    assert_eq!(checked, u64::from(space.states()));
    assert!(cut > 0, "no child was ever cut lazily");
    assert!(
        above_a > 0 && above_b > 0,
        "goal {goal}: the maximum beats A on {above_a} states and B on {above_b}"
    );
    eprintln!("goal {goal}: {checked} states, the maximum beats A on {above_a} and B on {above_b}, {cut} lazy cuts");
}

/// IDA* with the maximum on `count` sampled states: the exact length, the same search with
/// the prefetch pass on, and no more nodes than with either partition alone. Returns the nodes generated with A, B and the maximum.
fn check_searches(
    table: &Table<Vec<u8>>,
    a: &PatternHeuristic,
    b: &PatternHeuristic,
    count: usize,
    seed: u64,
) -> (u64, u64, u64) {
    let (la, lb) = (
        a.regular_reflected().unwrap(),
        b.regular_reflected().unwrap(),
    );
    let max = MaxPartitions::new(la, lb).unwrap();
    let class = table.goal().parity_class();
    let entries = table.entries().unwrap();
    let space = table.space();
    let mut rng = SplitMix64::new(seed);
    let picks: Vec<u32> = (0..count)
        .map(|_| (rng.next_u64() % u64::from(space.states())) as u32)
        .collect();
    let totals = picks
        .par_iter()
        .map(|&i| {
            let start = space.unrank(i, class);
            let exact = usize::from(entries[i as usize]);
            let with_max = search::idastar(&start, &max, Limits::default());
            let length = with_max.solution().map(|s| s.len());
            assert_eq!(length, Some(exact), "{start}: the maximum's path");
            let path = with_max.solution().unwrap();
            assert_eq!(path.start(), start);
            assert_eq!(
                path.end(),
                *table.goal(),
                "{start}: the path ends at the goal"
            );
            // The prefetch pass only starts reads: the same search, node for node.
            let fetching = search::idastar(&start, &max.with_prefetch(true), Limits::default());
            assert!(
                fetching.solution() == with_max.solution(),
                "{start}: prefetch"
            );
            assert_eq!(
                (fetching.expanded, fetching.generated),
                (with_max.expanded, with_max.generated),
                "{start}: prefetch"
            );
            let only_a = search::idastar(&start, &la, Limits::default());
            let only_b = search::idastar(&start, &lb, Limits::default());
            (only_a.generated, only_b.generated, with_max.generated)
        })
        .reduce(|| (0, 0, 0), |x, y| (x.0 + y.0, x.1 + y.1, x.2 + y.2));
    assert!(
        totals.2 <= totals.0 && totals.2 <= totals.1,
        "the maximum generated {} nodes, A {}, B {}",
        totals.2,
        totals.0,
        totals.1
    );
    eprintln!(
        "goal {}: {count} states searched, {} nodes with A, {} with B, {} with the maximum",
        table.goal(),
        totals.0,
        totals.1,
        totals.2
    );
    totals
}

const A_3X3: &[&[u8]] = &[&[1, 2, 3, 4], &[5, 6, 7, 8]];
const B_3X3: &[&[u8]] = &[&[1, 3, 5], &[2, 4, 6], &[7, 8]];
const A_3X4: &[&[u8]] = &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10, 11]];
const B_3X4: &[&[u8]] = &[&[1, 2, 4, 5, 7], &[3, 6, 8, 9, 10, 11]];

fn tables_and_partitions(
    board: Board,
    blank: usize,
    a: &[&[u8]],
    b: &[&[u8]],
) -> (Table<Vec<u8>>, PatternHeuristic, PatternHeuristic) {
    let goal = State::canonical_goal(board, blank);
    let table = Table::build(&goal, BuildOptions::default()).unwrap();
    (table, partition(&goal, a), partition(&goal, b))
}

#[test]
fn the_maximum_is_admissible_and_steps_exactly_on_every_3x3_state() {
    for blank in [0, 8] {
        let (table, a, b) = tables_and_partitions(Board::new(3, 3).unwrap(), blank, A_3X3, B_3X3);
        assert!(a.is_reflected() && b.is_reflected());
        check_every_state(&table, &a, &b);
        check_searches(&table, &a, &b, 1000, 30 + blank as u64);
    }
}

#[test]
fn the_maximum_finds_exact_lengths_on_sampled_3x4_states() {
    let (table, a, b) = tables_and_partitions(Board::new(3, 4).unwrap(), 0, A_3X4, B_3X4);
    // 3x4 is not square: one lookup per partition.
    assert!(!a.is_reflected());
    let (na, nb, nmax) = check_searches(&table, &a, &b, 1000, 34);
    assert!(nmax < na && nmax < nb, "the maximum saved nothing on 3x4");
}

#[test]
#[ignore = "long tier: 10,000 sampled states per board and goal, each searched three times"]
fn the_maximum_finds_exact_lengths_on_10000_states_per_board() {
    for blank in [0, 8] {
        let (table, a, b) = tables_and_partitions(Board::new(3, 3).unwrap(), blank, A_3X3, B_3X3);
        check_searches(&table, &a, &b, 10_000, 300 + blank as u64);
    }
    for blank in [0, 11] {
        let (table, a, b) = tables_and_partitions(Board::new(3, 4).unwrap(), blank, A_3X4, B_3X4);
        check_searches(&table, &a, &b, 10_000, 340 + blank as u64);
    }
}
