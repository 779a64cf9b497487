//! The MTM bound from STM estimates (`npuzzle::mtm::stm_bound`) against the exact MTM tables:
//! read from the exact STM distance itself (the strongest admissible STM estimate, so the
//! bound's own arithmetic is what is tested) and from STM pattern databases with every
//! lookup (regular, reflected, dual, dual-reflected), it never exceeds the MTM distance on
//! every 3x3 state for three goals, every 2x4 and 4x2 state, and a sample of 3x4 and 4x3
//! states; IDA* over MTM moves with it (alone and maxed with the walking distance) returns
//! the exact MTM distance on 3x3 and 3x4 samples. `mtm_floor` is also checked against a
//! plain enumeration of slide counts.

mod references;

use std::sync::Arc;

use npuzzle::generate::BuildOptions;
use npuzzle::heuristic::{Heuristic, Lookups, PatternHeuristic};
use npuzzle::metric::Metric;
use npuzzle::mtm::search::{ida_star, Estimate};
use npuzzle::mtm::stm_bound::{mtm_floor, Larger, StmBound};
use npuzzle::mtm::walking::WalkingDistance;
use npuzzle::mtm::MtmTable;
use npuzzle::pattern::PatternDatabase;
use npuzzle::rng::SplitMix64;
use npuzzle::search::Outcome;
use npuzzle::table::Table;
use npuzzle::{Board, Limits, RankSpace, State};

/// The exact STM distance as a [`Heuristic`] (every estimate computed from scratch).
struct ExactStm {
    goal: State,
    table: Table<Vec<u8>>,
}

impl Heuristic for ExactStm {
    type Node = ();

    fn goal(&self) -> &State {
        &self.goal
    }

    fn start(&self, cells: &[u8]) -> ((), u32) {
        let state = State::from_tiles(self.goal.board(), cells).unwrap();
        let d = self.table.distance_to(&state, &self.goal).unwrap().unwrap();
        ((), u32::from(d))
    }

    fn step(&self, _: &(), cells: &[u8], _: u8, _: usize, _: usize) -> ((), u32) {
        self.start(cells)
    }
}

fn exact_stm(goal: &State) -> StmBound<ExactStm> {
    let table = Table::build(goal, BuildOptions::default()).unwrap();
    StmBound::new(ExactStm { goal: *goal, table })
}

/// Pattern databases of `groups` (disjoint tiles) with every lookup the goal allows.
fn databases(goal: &State, groups: &[&[u8]]) -> StmBound<PatternHeuristic> {
    let none = &|_| std::ops::ControlFlow::Continue(());
    let dbs = groups
        .iter()
        .map(|tiles| {
            Arc::new(
                PatternDatabase::build(goal, tiles, none)
                    .unwrap()
                    .map_into(),
            )
        })
        .collect();
    StmBound::new(PatternHeuristic::with_lookups(goal, dbs, Lookups::ALL).unwrap())
}

/// Asserts `h` never exceeds the MTM table's distance on `states`; the sums of the estimate
/// and of the distance.
fn check<E: Estimate>(h: &E, table: &MtmTable, states: impl Iterator<Item = State>) -> (u64, u64) {
    let goal = *h.goal();
    let (mut sum_h, mut sum_d) = (0, 0);
    for start in states {
        let d = u32::from(table.distance_to(&start, &goal).unwrap().unwrap());
        let e = h.estimate(&start);
        assert!(e <= d, "{start}: bound {e} above the MTM distance {d}");
        sum_h += u64::from(e);
        sum_d += u64::from(d);
    }
    (sum_h, sum_d)
}

#[test]
fn the_bound_never_exceeds_the_mtm_distance_on_every_small_state() {
    for (board, blanks) in [
        ("3x3", &[8usize, 0, 4][..]),
        ("2x4", &[7, 2]),
        ("4x2", &[7]),
    ] {
        let board: Board = board.parse().unwrap();
        let space = RankSpace::new(board).unwrap();
        for &blank in blanks {
            let goal = State::canonical_goal(board, blank);
            let mtm = MtmTable::build(&goal, BuildOptions::default()).unwrap();
            let states = || (0..space.states()).map(|i| space.unrank(i, goal.parity_class()));
            let (sum_exact, sum_d) = check(&exact_stm(&goal), &mtm, states());
            let tiles: Vec<u8> = (1..u8::try_from(board.cells()).unwrap()).collect();
            let (first, second) = tiles.split_at(tiles.len() / 2);
            let (sum_pdb, _) = check(&databases(&goal, &[first, second]), &mtm, states());
            // Not vacuous: the bound from the exact STM distance is far from zero, and the
            // weaker STM estimate gives the weaker bound.
            assert!(
                sum_exact * 2 > sum_d,
                "{board} blank {blank}: {sum_exact} of {sum_d}"
            );
            assert!(sum_pdb <= sum_exact && sum_pdb > 0);
        }
    }
}

#[test]
fn the_bound_never_exceeds_the_mtm_distance_on_3x4_and_4x3_samples() {
    for board in ["3x4", "4x3"] {
        let goal = State::goal(board.parse().unwrap());
        let mtm = MtmTable::build(&goal, BuildOptions::default()).unwrap();
        let h = exact_stm(&goal);
        let mut states = references::random_states(&goal, 20_000, 2828);
        // And states near the goal, where a bound is most often tight.
        let mut rng = SplitMix64::new(28);
        states.extend((0..5_000).map(|i| references::walk(&goal, 1 + i % 30, &mut rng)));
        let (sum_h, sum_d) = check(&h, &mtm, states.iter().copied());
        assert!(sum_h * 2 > sum_d, "{board}: {sum_h} of {sum_d}");
        let pdb = databases(&goal, &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10, 11]]);
        check(&pdb, &mtm, states.iter().copied());
    }
}

#[test]
fn ida_star_with_the_bound_finds_the_exact_mtm_distance() {
    for board in ["3x3", "3x4"] {
        let goal = State::goal(board.parse().unwrap());
        let mtm = MtmTable::build(&goal, BuildOptions::default()).unwrap();
        let alone = exact_stm(&goal);
        let maxed = Larger(WalkingDistance::new(&goal), exact_stm(&goal));
        for start in references::random_states(&goal, 12, 28) {
            let exact = mtm.distance_to(&start, &goal).unwrap().unwrap();
            for result in [
                ida_star(&start, &alone, &Limits::NONE),
                ida_star(&start, &maxed, &Limits::NONE),
            ] {
                let Outcome::Solved(solution) = result.outcome else {
                    panic!("{start}: {:?}", result.outcome);
                };
                assert_eq!(solution.end(), goal);
                assert_eq!(Metric::Mtm.length(solution.moves()), usize::from(exact));
            }
        }
    }
}

/// The least `a + b` with `|a - b| <= 1` for which some `x <= per_a * a`, `y <= per_b * b`
/// with `x >= across`, `x = across (mod 2)`, `y >= down`, `y = down (mod 2)` and
/// `x + y >= stm` exist, by enumerating every `a`, `b`, `x`, `y`.
fn floor_by_enumeration(stm: u32, across: u32, down: u32, per_a: u32, per_b: u32) -> u32 {
    let mut best = u32::MAX;
    for a in 0..40u32 {
        for b in a.saturating_sub(1)..=a + 1 {
            let fits = (across..=per_a * a)
                .step_by(2)
                .any(|x| (down..=per_b * b).step_by(2).any(|y| x + y >= stm));
            if fits {
                best = best.min(a + b);
            }
        }
    }
    best
}

#[test]
fn mtm_floor_is_the_least_slide_count_the_proof_allows() {
    for (w, h) in [(3usize, 3usize), (4, 4), (3, 4), (2, 6), (5, 5)] {
        let (per_a, per_b) = (w as u32 - 1, h as u32 - 1);
        for across in 0..14 {
            for down in 0..14 {
                for stm in across + down..across + down + 14 {
                    if stm == 0 {
                        assert_eq!(mtm_floor(0, 0, 0, w, h), 0);
                        continue;
                    }
                    assert_eq!(
                        mtm_floor(stm, across, down, w, h),
                        floor_by_enumeration(stm, across, down, per_a, per_b),
                        "{w}x{h}: stm {stm}, across {across}, down {down}"
                    );
                }
            }
        }
    }
}
