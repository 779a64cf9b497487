//! Pattern databases against exact tables on every state of boards that have one (3x3, 2x5,
//! 5x2): each database is a lower bound; a move of a tile outside the pattern never changes
//! it; a move of a pattern tile changes it by at most one wherever the free cells are
//! connected before and after (a database keeps the minimum over the blank's positions, so
//! where pattern tiles wall the blank in, a move may change it by more: such databases are
//! admissible, not consistent, as Korf and Felner (2002) note, and the search uses pathmax);
//! databases of a partition add up to a lower bound, the reflected maximum too; and the search
//! heuristic's incremental steps equal its recomputation. Every database value also equals an
//! independent 0-1 breadth-first search over (placement, blank cell) pairs. Also: 1 thread
//! and 2 threads build identical files; a cancelled build says so.

use std::collections::{HashMap, VecDeque};

use std::ops::ControlFlow;
use std::sync::Arc;

use npuzzle::heuristic::PatternHeuristic;
use npuzzle::pattern::PatternDatabase;
use npuzzle::store::StoredBytes;
use npuzzle::{Board, BuildOptions, Heuristic, State, Table};

fn build(goal: &State, tiles: &[u8]) -> PatternDatabase<Vec<u8>> {
    PatternDatabase::build(goal, tiles, &|_| ControlFlow::Continue(())).unwrap()
}

fn shared(db: PatternDatabase<Vec<u8>>) -> Arc<PatternDatabase<StoredBytes>> {
    let bytes = db.into_inner();
    Arc::new(PatternDatabase::from_bytes(StoredBytes::from(bytes)).unwrap())
}

/// Every state of `table`'s parity class, in index order.
fn every_state(table: &Table<Vec<u8>>) -> impl Iterator<Item = (State, u8)> + '_ {
    let class = table.goal().parity_class();
    let entries = table.entries().unwrap();
    (0..table.space().states()).map(move |i| (table.space().unrank(i, class), entries[i as usize]))
}

fn check_partition(board: Board, blank: usize, partition: &[&[u8]]) {
    let goal = State::canonical_goal(board, blank);
    let table = Table::build(&goal, BuildOptions::default()).unwrap();
    let dbs: Vec<PatternDatabase<Vec<u8>>> = partition.iter().map(|p| build(&goal, p)).collect();
    for (db, tiles) in dbs.iter().zip(partition) {
        check_against_independent_search(db, &goal, tiles);
    }
    let mut checked = 0u64;
    let mut tight = 0u64;
    let mut walled = 0u64;
    for (state, exact) in every_state(&table) {
        let values: Vec<u32> = dbs.iter().map(|db| db.value_of(&state)).collect();
        let sum: u32 = values.iter().sum();
        assert!(sum <= exact as u32, "{state}: sum {sum} > exact {exact}");
        tight += (sum == exact as u32) as u64;
        for (_, next) in state.successors() {
            let moved = state.cells()[next.blank()];
            for (db, &value) in dbs.iter().zip(&values) {
                let after = db.value_of(&next);
                if db.space().tiles().contains(&moved) {
                    let connected = free_cells_connected(&state, db.space().tiles())
                        && free_cells_connected(&next, db.space().tiles());
                    if connected {
                        assert!(
                            value.abs_diff(after) <= 1,
                            "{state} -> {next}: {value} -> {after}"
                        );
                    } else {
                        walled += (value.abs_diff(after) > 1) as u64;
                    }
                } else {
                    assert_eq!(
                        value, after,
                        "{state} -> {next}: a free move changed the value"
                    );
                }
            }
        }
        checked += 1;
    }
    assert_eq!(checked, table.space().states() as u64);
    // The bound is not trivially loose: it is exact somewhere besides the goal.
    assert!(tight > 1, "{board} {partition:?}: only the goal is tight");
    eprintln!("{board} {partition:?}: {checked} states, {tight} tight, {walled} moves changing a value by more than one (blank walled in)");

    // The heuristic: the reflected maximum is still a lower bound, and each step equals a
    // fresh start from the cells after the move.
    let h = PatternHeuristic::new(&goal, dbs.into_iter().map(shared).collect(), true).unwrap();
    assert_eq!(h.is_reflected(), board.width() == board.height());
    for (state, exact) in every_state(&table) {
        let (node, estimate) = h.start(state.cells());
        assert!(estimate <= exact as u32, "{state}: {estimate} > {exact}");
        for (_, next) in state.successors() {
            let (from, to) = (next.blank(), state.blank());
            let tile = next.cells()[to];
            let (_, stepped) = h.step(&node, next.cells(), tile, from, to);
            assert_eq!(stepped, h.estimate(&next), "{state} -> {next}");
            let _ = estimate;
        }
    }
}

/// Whether the cells not holding a tile of `pattern` (the blank's and the other tiles') are
/// connected.
fn free_cells_connected(state: &State, pattern: &[u8]) -> bool {
    let board = state.board();
    let free: Vec<usize> = (0..board.cells())
        .filter(|&c| !pattern.contains(&state.cells()[c]))
        .collect();
    let mut seen = vec![free[0]];
    let mut todo = vec![free[0]];
    while let Some(c) = todo.pop() {
        for mv in npuzzle::Move::ALL {
            if let Some(n) = board.step(c, mv) {
                if free.contains(&n) && !seen.contains(&n) {
                    seen.push(n);
                    todo.push(n);
                }
            }
        }
    }
    seen.len() == free.len()
}

/// A plain 0-1 breadth-first search over (cells of the pattern tiles, blank cell), hashed:
/// blank moves onto a non-pattern cell cost 0, onto a pattern tile (moving it) cost 1. Every
/// placement's database value must be its minimum over blank cells.
fn check_against_independent_search(db: &PatternDatabase<Vec<u8>>, goal: &State, tiles: &[u8]) {
    let board = goal.board();
    let mut sorted = tiles.to_vec();
    sorted.sort_unstable();
    let home: Vec<u8> = sorted
        .iter()
        .map(|&t| goal.cells().iter().position(|&c| c == t).unwrap() as u8)
        .collect();
    let mut dist: HashMap<(Vec<u8>, u8), u32> = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert((home.clone(), goal.blank() as u8), 0);
    queue.push_back((home, goal.blank() as u8, 0u32));
    while let Some((cells, blank, d)) = queue.pop_front() {
        if dist[&(cells.clone(), blank)] < d {
            continue;
        }
        for mv in npuzzle::Move::ALL {
            let Some(to) = board.step(blank as usize, mv) else {
                continue;
            };
            let mut next = cells.clone();
            let cost = match cells.iter().position(|&c| c as usize == to) {
                Some(i) => {
                    next[i] = blank;
                    1
                }
                None => 0,
            };
            let key = (next.clone(), to as u8);
            if dist.get(&key).is_none_or(|&old| old > d + cost) {
                dist.insert(key, d + cost);
                if cost == 0 {
                    queue.push_front((next, to as u8, d));
                } else {
                    queue.push_back((next, to as u8, d + 1));
                }
            }
        }
    }
    let mut best: HashMap<Vec<u8>, u32> = HashMap::new();
    for ((cells, _), d) in dist {
        let entry = best.entry(cells).or_insert(d);
        *entry = (*entry).min(d);
    }
    // With two free cells not every placement is reachable; with more, every one is.
    let free = board.cells() - tiles.len();
    assert!(best.len() as u64 <= db.space().entries());
    if free > 2 {
        assert_eq!(
            best.len() as u64,
            db.space().entries(),
            "every placement is reachable"
        );
    }
    for (cells, d) in best {
        assert_eq!(db.value(&cells), d, "{tiles:?} at {cells:?}");
    }
}

#[test]
fn partitions_of_3x3_are_admissible_and_consistent_on_every_state() {
    let board = Board::THREE_BY_THREE;
    check_partition(board, 0, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]);
    check_partition(board, 8, &[&[1, 4, 7], &[2, 5, 8], &[3, 6]]);
    check_partition(board, 4, &[&[1, 2, 3, 4, 5, 6, 7]]);
}

#[test]
fn partitions_of_2x5_and_5x2_are_admissible_and_consistent_on_every_state() {
    check_partition(
        Board::new(5, 2).unwrap(),
        0,
        &[&[1, 2, 3, 4], &[5, 6, 7, 8, 9]],
    );
    check_partition(
        Board::new(2, 5).unwrap(),
        9,
        &[&[1, 2, 3], &[4, 5, 6], &[7, 8, 9]],
    );
}

/// The generator against the independent search on boards with no exact table: 4x4, 5x3
/// and 3x5 patterns of one to four tiles, so the block walk's one-tile, two-tile and longer
/// cases, and vertical moves that pass two, three and four cells (each a rank change read
/// from a table), all meet a placement-by-placement search that ranks nothing; the deep
/// check passes each database too.
#[test]
fn small_patterns_of_boards_without_tables_equal_an_independent_search() {
    for (width, height, blank, patterns) in [
        (
            4usize,
            4usize,
            0usize,
            vec![vec![7u8], vec![1, 2, 3], vec![5, 6, 9, 10]],
        ),
        (4, 4, 15, vec![vec![12, 15], vec![1, 4, 13, 14]]),
        (5, 3, 7, vec![vec![1, 2, 6], vec![10, 14]]),
        (3, 5, 14, vec![vec![1, 4, 7, 8], vec![13]]),
    ] {
        let goal = State::canonical_goal(Board::new(width, height).unwrap(), blank);
        for tiles in patterns {
            let db = build(&goal, &tiles);
            check_against_independent_search(&db, &goal, &tiles);
            db.verify_deep().unwrap();
        }
    }
}

#[test]
fn one_thread_and_two_threads_build_identical_files() {
    let goal = State::canonical_goal(Board::new(4, 4).unwrap(), 0);
    let in_pool = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| build(&goal, &[1, 2, 3, 4, 5]).into_inner())
    };
    assert_eq!(in_pool(1), in_pool(2));
}

#[test]
fn a_cancelled_build_stops_and_says_so() {
    let goal = State::canonical_goal(Board::new(4, 4).unwrap(), 0);
    let layers = std::sync::atomic::AtomicU32::new(0);
    let result = PatternDatabase::build(&goal, &[1, 2, 3, 4, 5], &|p| {
        layers.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if p.depth >= 3 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert!(matches!(
        result,
        Err(npuzzle::pattern::BuildError::Cancelled(_))
    ));
    assert_eq!(layers.into_inner(), 3);
}
