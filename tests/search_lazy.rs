//! Lazy lookups against eager ones. IDA* asks the pattern-database heuristic for a child's
//! estimate with the search's limit (`Heuristic::step_within`), and the heuristic stops at
//! the first lookup that puts the child beyond it (regular or reflected first, whichever was
//! larger at the parent, then the other, then the dual lookups, carried incrementally). This
//! checks, against the full estimate of every lookup (`Heuristic::step`) and the exact
//! tables:
//!
//! - on sampled states, for every successor and every limit, a child within the limit gets
//!   exactly `step`'s estimate and a node whose own steps equal the estimates recomputed from
//!   scratch; a child beyond it is never kept with another estimate, and a lower bound given
//!   in place of the estimate exceeds the limit and is at most the estimate (so lazy
//!   evaluation never cuts a child that eager evaluation keeps);
//! - IDA* with the lazy evaluation finds the very path IDA* with eager evaluation finds (of
//!   the table's exact length) on every sampled state, after at least as many nodes: each
//!   iteration explores the same tree, since the cuts are the same, and a lower bound given
//!   in place of an estimate may only set the next bound below eager evaluation's (the
//!   database maximum is not consistent: the minimum over the blank's cells may drop by
//!   more than one), which repeats an iteration (about one state in 200 on 3x3, printed).
//!
//! `RegularReflected` (a heuristic without dual lookups, on the node without dual terms) gives
//! the same answers step by step and the same searches, node for node.
//!
//! 3x3 in the fast tier (three goals, two partitions, six sets of lookups), 3x4 in the long
//! tier (`--ignored`).

use std::ops::ControlFlow;
use std::sync::Arc;

use npuzzle::heuristic::{Bounded, Lookups, PatternHeuristic};
use npuzzle::pattern::{region_goals, PatternDatabase};
use npuzzle::rng::SplitMix64;
use npuzzle::search::{self, Limits};
use npuzzle::{Board, BuildOptions, Heuristic, State, Table};

/// The same heuristic evaluated eagerly: every lookup of every child, through the trait's
/// default `step_within`.
struct Eager<'a>(&'a PatternHeuristic);

impl Heuristic for Eager<'_> {
    type Node = <PatternHeuristic as Heuristic>::Node;

    fn goal(&self) -> &State {
        self.0.goal()
    }

    fn start(&self, cells: &[u8]) -> (Self::Node, u32) {
        self.0.start(cells)
    }

    fn step(
        &self,
        node: &Self::Node,
        cells: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> (Self::Node, u32) {
        self.0.step(node, cells, tile, from, to)
    }
}

/// The heuristics compared: regular + reflected; all four lookups with and without the
/// databases of the patterns' other blank regions; each dual lookup with the regular one.
fn variants(goal: &State, partition: &[&[u8]]) -> Vec<PatternHeuristic> {
    let none = &|_| ControlFlow::Continue(());
    let dbs: Vec<_> = partition
        .iter()
        .map(|tiles| {
            Arc::new(
                PatternDatabase::build(goal, tiles, none)
                    .unwrap()
                    .map_into(),
            )
        })
        .collect();
    let regions: Vec<_> = partition
        .iter()
        .flat_map(|tiles| {
            region_goals(goal, tiles).into_iter().map(move |other| {
                Arc::new(
                    PatternDatabase::build(&other, tiles, none)
                        .unwrap()
                        .map_into(),
                )
            })
        })
        .collect();
    let with = |lookups| PatternHeuristic::with_lookups(goal, dbs.clone(), lookups).unwrap();
    let mut found = vec![
        with(Lookups::REFLECTED),
        with(Lookups::ALL),
        with(Lookups::ALL)
            .with_region_databases(regions.clone())
            .unwrap(),
    ];
    for lookups in [
        "regular,dual",
        "regular,dual-reflected",
        "dual",
        "reflected",
    ] {
        found.push(with(lookups.parse().unwrap()));
    }
    // Without a reflection (3x4) the reflected lookups are dropped: "reflected" alone is none.
    found.retain(|h| !h.lookups().is_empty());
    found
}

/// `count` states of the goal's class, uniformly, with their exact distances.
fn sample(table: &Table<Vec<u8>>, count: usize, seed: u64) -> Vec<(State, u32)> {
    let class = table.goal().parity_class();
    let entries = table.entries().unwrap();
    let space = table.space();
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let i = (rng.next_u64() % space.states() as u64) as u32;
            (space.unrank(i, class), u32::from(entries[i as usize]))
        })
        .collect()
}

/// The step-by-step comparison on `states`; returns (children checked, lower bounds given
/// below the estimate).
fn check_steps(h: &PatternHeuristic, states: &[(State, u32)]) -> (u64, u64) {
    let (mut checked, mut below) = (0u64, 0u64);
    for (state, _) in states {
        let (node, _) = h.start(state.cells());
        for (_, next) in state.successors() {
            let (from, to) = (next.blank(), state.blank());
            let tile = next.cells()[to];
            let (_, eager) = h.step(&node, next.cells(), tile, from, to);
            assert_eq!(eager, h.estimate(&next), "{state} -> {next}: step");
            for limit in 0..=eager + 2 {
                let lazy = h.step_within(&node, next.cells(), tile, from, to, limit);
                checked += 1;
                if let Some(lean) = h.regular_reflected() {
                    // The lean node gives the same answer: the same estimate or lower bound.
                    let (carried, _) = lean.start(state.cells());
                    let same = match (
                        lean.step_within(&carried, next.cells(), tile, from, to, limit),
                        lazy,
                    ) {
                        (Bounded::Known(_, a), Bounded::Known(_, b)) => a == b,
                        (Bounded::Beyond(a), Bounded::Beyond(b)) => a == b,
                        _ => false,
                    };
                    assert!(same, "{state} -> {next}, limit {limit}: lean differs");
                }
                match lazy {
                    Bounded::Known(child, estimate) => {
                        assert_eq!(estimate, eager, "{state} -> {next}, limit {limit}");
                        if limit != eager {
                            continue;
                        }
                        // The node carries on exactly: its steps equal recomputations.
                        for (_, after) in next.successors() {
                            let (f, t) = (after.blank(), next.blank());
                            let (_, stepped) =
                                h.step(&child, after.cells(), after.cells()[t], f, t);
                            assert_eq!(stepped, h.estimate(&after), "{next} -> {after}");
                        }
                    }
                    Bounded::Beyond(at_least) => {
                        assert!(
                            eager > limit,
                            "{state} -> {next} ({}): cut at limit {limit}, estimate {eager}",
                            h.lookups()
                        );
                        assert!(
                            at_least > limit && at_least <= eager,
                            "{state} -> {next} ({}): lower bound {at_least}, limit {limit}, estimate {eager}",
                            h.lookups()
                        );
                        below += u64::from(at_least < eager);
                    }
                }
            }
        }
    }
    (checked, below)
}

fn check(board: Board, blank: usize, partition: &[&[u8]], count: usize) {
    let goal = State::canonical_goal(board, blank);
    let table = Table::build(&goal, BuildOptions::default()).unwrap();
    let states = sample(&table, count, 2200 + blank as u64);
    for (k, h) in variants(&goal, partition).iter().enumerate() {
        let (checked, below) = check_steps(h, &states[..count / 4]);
        let (mut lazy_nodes, mut eager_nodes, mut equal, mut leaned) = (0u64, 0u64, 0usize, 0);
        for (start, exact) in &states {
            let lazy = search::idastar(start, h, Limits::default());
            let eager = search::idastar(start, &Eager(h), Limits::default());
            let moves = |r: &search::SearchResult| r.solution().map(|s| s.moves().to_vec());
            let found = eager.solution().map(|s| s.len() as u32);
            assert_eq!(found, Some(*exact), "{start} ({}): eager", h.lookups());
            // The last iteration is the same search, so the same first path.
            assert_eq!(moves(&lazy), moves(&eager), "{start} ({})", h.lookups());
            // Earlier iterations are the same trees, plus repeats where a lower bound stood
            // below the next bound.
            assert!(
                lazy.expanded >= eager.expanded && lazy.generated >= eager.generated,
                "{start} ({}): lazy {} / {} against eager {} / {}",
                h.lookups(),
                lazy.expanded,
                lazy.generated,
                eager.expanded,
                eager.generated
            );
            // Without a dual lookup, `RegularReflected` (the node without dual terms) is the
            // same search: the same path after exactly the same nodes.
            if let Some(lean) = h.regular_reflected() {
                let carried = search::idastar(start, &lean, Limits::default());
                assert_eq!(
                    moves(&carried),
                    moves(&lazy),
                    "{start} ({}): lean",
                    h.lookups()
                );
                assert_eq!(
                    (carried.expanded, carried.generated),
                    (lazy.expanded, lazy.generated),
                    "{start} ({}): lean",
                    h.lookups()
                );
                leaned += 1;
            }
            equal += usize::from(lazy.generated == eager.generated);
            lazy_nodes += lazy.generated;
            eager_nodes += eager.generated;
        }
        // The first variant (regular + reflected) reads the reflected lookup only where the
        // regular one does not cut: some lower bounds must stand below the estimate.
        // Every variant without a dual lookup was also searched on the lean node.
        assert_eq!(
            leaned,
            if h.lookups().any_dual() {
                0
            } else {
                states.len()
            },
            "{}",
            h.describe()
        );
        if k == 0 && board.width() == board.height() {
            assert!(below > 0, "{board}: the lazy path never gave a lower bound");
        }
        eprintln!(
            "{board} blank {blank}, {}: {checked} children and limits checked, {below} lower bounds below the estimate; IDA* on {count} states: {lazy_nodes} generated lazily, {eager_nodes} eagerly, equal on {equal}",
            h.describe()
        );
    }
}

#[test]
fn lazy_lookups_equal_eager_ones_on_3x3() {
    let board = Board::new(3, 3).unwrap();
    for blank in [0, 8] {
        check(board, blank, &[&[1, 2, 3, 4], &[5, 6, 7, 8]], 2000);
    }
    check(board, 4, &[&[1, 3, 5], &[2, 4, 6], &[7, 8]], 2000);
}

#[test]
#[ignore = "long tier: builds the 3x4 table (seconds) and searches 2,000 states per variant twice"]
fn lazy_lookups_equal_eager_ones_on_3x4() {
    let board = Board::new(3, 4).unwrap();
    for blank in [0, 11] {
        check(
            board,
            blank,
            &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10, 11]],
            2000,
        );
    }
}
