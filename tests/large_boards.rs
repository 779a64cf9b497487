//! Boards of any size (npuzzle::large): the constructive solver's answers replayed on every
//! board from 2x2 to 32x32 (non-square too, many seeds on the small ones), scramblers that
//! stay solvable, and a chi-square test that the uniform scrambler is uniform.

use std::collections::HashMap;

use npuzzle::large::{scramble_uniform, scramble_walk, solve_constructive, LargeBoard, LargeState};
use npuzzle::rng::SplitMix64;

fn check(start: &LargeState, goal: &LargeState) -> usize {
    let moves = solve_constructive(start, goal).expect("a solvable pair");
    assert_eq!(
        &start.after(&moves).expect("legal moves"),
        goal,
        "{start} -> {goal}"
    );
    moves.len()
}

#[test]
fn every_board_from_2x2_to_32x32_is_solved_to_its_goal() {
    for w in 2..=32 {
        for h in 2..=32 {
            let board = LargeBoard::new(w, h).unwrap();
            let goal = LargeState::goal(board);
            // Many seeds where a solve is cheap, a few on the large boards.
            let seeds = if w * h <= 30 {
                40
            } else if w * h <= 200 {
                4
            } else {
                1
            };
            for seed in 0..seeds {
                let mut rng = SplitMix64::new(seed * 1000 + (w * 40 + h) as u64);
                let start = scramble_uniform(&goal, &mut rng);
                check(&start, &goal);
            }
        }
    }
}

#[test]
fn any_goal_with_the_blank_anywhere_is_reached() {
    for (w, h) in [(2, 2), (3, 3), (4, 4), (5, 5), (6, 4), (10, 10), (3, 17)] {
        let standard = LargeState::goal(LargeBoard::new(w, h).unwrap());
        for seed in 0..25 {
            let mut rng = SplitMix64::new(seed);
            let start = scramble_uniform(&standard, &mut rng);
            let goal = scramble_uniform(&standard, &mut rng);
            check(&start, &goal);
            assert_eq!(check(&goal, &goal), 0);
        }
    }
}

#[test]
fn walks_are_solvable_and_stay_within_their_length_on_small_boards() {
    // On 2x3 the exact distance is known by breadth-first search over the 360 states; a walk
    // of k moves is at most k away.
    let goal = LargeState::goal(LargeBoard::new(3, 2).unwrap());
    let distance = bfs_distances(&goal);
    for seed in 0..200 {
        let k = (seed % 25) as usize;
        let state = scramble_walk(&goal, k, &mut SplitMix64::new(seed));
        assert!(distance[&state] as usize <= k);
        check(&state, &goal);
    }
}

fn bfs_distances(goal: &LargeState) -> HashMap<LargeState, u32> {
    let mut seen = HashMap::from([(goal.clone(), 0)]);
    let mut queue = std::collections::VecDeque::from([goal.clone()]);
    while let Some(state) = queue.pop_front() {
        let d = seen[&state];
        for mv in npuzzle::Move::ALL {
            let mut next = state.clone();
            if next.step(mv) && !seen.contains_key(&next) {
                seen.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    seen
}

/// Chi-square over every reachable state of 3x2 (360) and 2x2 (12): a fixed seed, so the
/// test is deterministic; the thresholds are the 0.999 quantiles (df 359: 455.4; df 11: 31.3),
/// which a scrambler missing or favouring states would exceed by far.
#[test]
fn the_uniform_scrambler_is_uniform_over_the_reachable_states() {
    for ((w, h), limit) in [((3, 2), 455.4), ((2, 2), 31.3), ((2, 3), 455.4)] {
        let goal = LargeState::goal(LargeBoard::new(w, h).unwrap());
        let states = bfs_distances(&goal);
        let draws = 200 * states.len();
        let mut counts: HashMap<LargeState, usize> = HashMap::new();
        let mut rng = SplitMix64::new(2026);
        for _ in 0..draws {
            let state = scramble_uniform(&goal, &mut rng);
            assert!(states.contains_key(&state), "an unreachable draw {state}");
            *counts.entry(state).or_default() += 1;
        }
        assert_eq!(counts.len(), states.len(), "every state drawn");
        let expected = draws as f64 / states.len() as f64;
        let chi2: f64 = counts
            .values()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < limit, "{w}x{h}: chi-square {chi2} over {limit}");
    }
}

#[test]
fn small_states_convert_both_ways_and_agree_on_solvability() {
    let goal = npuzzle::State::goal(npuzzle::Board::new(4, 4).unwrap());
    for seed in 0..50 {
        let large = scramble_uniform(&LargeState::from_small(&goal), &mut SplitMix64::new(seed));
        let small = large.to_small().expect("a 4x4 state is small");
        assert!(small.can_reach(&goal));
        assert_eq!(LargeState::from_small(&small), large);
    }
}
