//! The pattern-database heuristic carries each pattern's rank and value from node to node
//! (`step`, `step_within`) instead of ranking from scratch. Over long random walks — so that
//! any drift in the carried ranks would accumulate — every carried estimate must equal the
//! estimate computed from scratch (`estimate`, which ranks every pattern anew), with and
//! without reflection, on 3x3 and 4x4 boards, for goals with the blank in each corner; and a
//! `step_within` that stops early must give a lower bound of the true estimate above its limit.

use std::ops::ControlFlow;
use std::sync::Arc;

use npuzzle::heuristic::{Bounded, PatternHeuristic};
use npuzzle::pattern::{Partition, PatternDatabase};
use npuzzle::store::StoredBytes;
use npuzzle::{Board, Heuristic, Move, State};

/// The plain and the reflected heuristic over the same databases of `groups`.
fn heuristics(goal: &State, groups: &[Vec<u8>]) -> [PatternHeuristic; 2] {
    let dbs: Vec<_> = groups
        .iter()
        .map(|tiles| {
            let db = PatternDatabase::build(goal, tiles, &|_| ControlFlow::Continue(())).unwrap();
            Arc::new(db.map_into::<StoredBytes>())
        })
        .collect();
    [false, true].map(|reflect| PatternHeuristic::new(goal, dbs.clone(), reflect).unwrap())
}

/// A fixed-seed linear congruential walk (the seed is printed on failure through the state).
fn walk(h: &PatternHeuristic, steps: usize, seed: u64) {
    let mut state = *h.goal();
    let (mut node, _) = h.start(state.cells());
    let (mut within_node, _) = h.start(state.cells());
    let mut rng = seed;
    let (mut cut, mut known) = (0u32, 0u32);
    for _ in 0..steps {
        rng = rng
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let Some(next) = state.apply(Move::ALL[(rng >> 62) as usize]) else {
            continue;
        };
        let (from, to) = (next.blank(), state.blank());
        let tile = next.cells()[to];
        let exact = h.estimate(&next);
        let (after, estimate) = h.step(&node, next.cells(), tile, from, to);
        assert_eq!(estimate, exact, "seed {seed}: {state} -> {next}");
        node = after;
        // A limit a little below or above the true estimate: both answers get exercised.
        let limit = (exact + ((rng >> 20) % 5) as u32).saturating_sub(2);
        match h.step_within(&within_node, next.cells(), tile, from, to, limit) {
            Bounded::Known(_, estimate) => {
                assert_eq!(estimate, exact, "seed {seed}: {state} -> {next}");
                known += 1;
            }
            Bounded::Beyond(at_least) => {
                assert!(
                    at_least > limit && at_least <= exact,
                    "seed {seed}: {state} -> {next}: {at_least} vs limit {limit}, exact {exact}"
                );
                cut += 1;
            }
        }
        // Carry the node on the walk whatever step_within answered.
        within_node = h.step(&within_node, next.cells(), tile, from, to).0;
        state = next;
    }
    assert!(
        cut > 0 && known > 0,
        "seed {seed}: cut {cut}, known {known}"
    );
}

#[test]
fn carried_estimates_equal_estimates_from_scratch_on_3x3_for_every_corner_goal() {
    let board = Board::THREE_BY_THREE;
    for blank in [0usize, 2, 6, 8] {
        let goal = State::canonical_goal(board, blank);
        // Any disjoint patterns will do; these leave two tiles out of every pattern.
        let tiles: Vec<u8> = goal.cells().iter().copied().filter(|&t| t != 0).collect();
        let groups = vec![tiles[0..3].to_vec(), tiles[3..6].to_vec()];
        for h in heuristics(&goal, &groups) {
            walk(&h, 20_000, blank as u64 + 1);
        }
    }
}

#[test]
fn carried_estimates_equal_estimates_from_scratch_on_4x4_with_5_5_5_and_6_6_3() {
    let board = Board::new(4, 4).unwrap();
    for (blank, partition) in [
        (0usize, Partition::SixSixThree),
        (15, Partition::SixSixThree),
        (3, Partition::FiveFiveFive),
    ] {
        let goal = State::canonical_goal(board, blank);
        let groups = partition.groups(&goal).unwrap();
        for h in heuristics(&goal, &groups) {
            walk(&h, 50_000, 7 + blank as u64);
        }
    }
}
