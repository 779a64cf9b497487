//! The 17 positions of the 15-puzzle at the greatest distance, 80 moves (data/hardest80.txt,
//! goal `1 2 ... 15 0`). The fast tier checks the file: 17 distinct positions, each solvable
//! and no admissible estimate above 80. The long tier (`cargo test --release -- --ignored`;
//! reported as ignored otherwise) builds the 6-6-3 databases for this goal in memory and
//! solves the first position with IDA* and 6-6-3 + reflection, checking 80 moves that reach
//! the goal: about a billion nodes, two to three minutes here. `NPUZZLE_HARDEST=all` solves
//! all 17 (most of an hour with 6-6-3).

use std::collections::HashSet;

use npuzzle::heuristic::{LinearConflict, PatternHeuristic};
use npuzzle::pattern::Partition;
use npuzzle::search::{self, Algorithm};
use npuzzle::{Board, Heuristic, Limits, State};

/// The longest distance on the 15-puzzle.
const GREATEST: u64 = 80;

fn goal() -> State {
    let board = Board::new(4, 4).unwrap();
    State::canonical_goal(board, board.cells() - 1)
}

/// (id, position, published length) of every line.
fn hardest() -> Vec<(u64, State, u64)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/hardest80.txt"))
        .expect("data/hardest80.txt is part of the repository");
    let board = Board::new(4, 4).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<u64> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
            let tiles: Vec<u8> = f[1..17].iter().map(|&t| t as u8).collect();
            (f[0], State::from_tiles(board, &tiles).unwrap(), f[17])
        })
        .collect()
}

#[test]
fn the_17_hardest_positions_are_distinct_solvable_and_no_estimate_exceeds_80() {
    let goal = goal();
    let positions = hardest();
    assert_eq!(positions.len(), 17);
    let distinct: HashSet<State> = positions.iter().map(|p| p.1).collect();
    assert_eq!(distinct.len(), 17);
    let lc = LinearConflict::new(&goal);
    for (id, position, length) in &positions {
        assert_eq!(*length, GREATEST, "position {id}");
        assert!(position.can_reach(&goal), "position {id} is not solvable");
        let estimate = lc.estimate(position) as u64;
        assert!(
            estimate <= GREATEST && estimate % 2 == GREATEST % 2,
            "position {id}"
        );
    }
}

#[test]
#[ignore = "long tier: an 80-move position takes minutes with 6-6-3; run with -- --ignored"]
fn long_tier_hardest_positions_need_80_moves_with_6_6_3() {
    let goal = goal();
    let h = PatternHeuristic::build(&goal, Partition::SixSixThree, true).unwrap();
    let count = match std::env::var("NPUZZLE_HARDEST").as_deref() {
        Ok("all") => 17,
        _ => 1,
    };
    for (id, position, _) in hardest().into_iter().take(count) {
        let result = search::run_with(Algorithm::IdaStar, &h, &position, Limits::default());
        let solution = result.solution().expect("solvable, no limit");
        assert_eq!(solution.len() as u64, GREATEST, "position {id}");
        assert_eq!(solution.end(), goal, "position {id}");
        eprintln!(
            "position {id}: 80 moves, {} expanded in {:.1} s",
            result.expanded,
            result.elapsed.as_secs_f64()
        );
    }
}
