//! The generator and the deep consistency check against independent references over `State`s
//! (no ranking arithmetic shared with the code under test except `RankSpace::index` to find
//! an entry): every small board, every 3x3 blank cell, 1 vs 2 threads, and damaged tables
//! whose first bad entry must be the one a naive check finds.

mod references;

use references::{assert_first_closer_moves, plain_bfs, SMALL_BOARDS};

use npuzzle::generate::{count_depths_all, distances, distances_into, BuildOptions, Distances};
use npuzzle::rng::SplitMix64;
use npuzzle::{Board, Metric, RankSpace, State, Table};

fn on_threads(space: &RankSpace, goal: &State, threads: usize) -> Distances {
    distances(
        space,
        goal,
        BuildOptions {
            threads: Some(threads),
        },
    )
}

/// The generator's bytes equal the oracle's distances, and its counts the bytes' histogram.
fn assert_matches_plain_bfs(space: &RankSpace, goal: State, built: &Distances) {
    let oracle = plain_bfs(goal);
    let board = goal.board();
    assert_eq!(oracle.len(), space.states() as usize, "{board} {goal}");
    let mut expected = vec![u8::MAX; space.states() as usize];
    for (state, &d) in &oracle {
        expected[space.rank_unchecked(state) as usize] = d;
    }
    assert!(
        built.entries == expected,
        "{board} goal {goal}: bytes differ"
    );
    let mut counts = vec![0u64; *oracle.values().max().unwrap() as usize + 1];
    for &d in oracle.values() {
        counts[d as usize] += 1;
    }
    assert_eq!(built.counts, counts, "{board} goal {goal}");
}

#[test]
fn every_small_board_matches_a_plain_bfs_on_one_and_two_threads() {
    for (w, h) in SMALL_BOARDS {
        let board = Board::new(w, h).unwrap();
        let space = RankSpace::new(board).unwrap();
        // Every blank cell on the boards of at most 9 cells; the goal's on 10 cells.
        let blanks = if board.cells() <= 9 {
            (0..board.cells()).collect()
        } else {
            vec![board.cells() - 1]
        };
        for blank in blanks {
            let goal = State::canonical_goal(board, blank);
            let one = on_threads(&space, &goal, 1);
            let two = on_threads(&space, &goal, 2);
            assert!(one == two, "{board} goal {goal}: 1 and 2 threads differ");
            assert_matches_plain_bfs(&space, goal, &one);
        }
    }
}

#[test]
fn a_non_canonical_goal_matches_a_plain_bfs() {
    for text in ["123456708", "812043765", "0123/4567"] {
        let goal: State = text.parse().unwrap();
        let space = RankSpace::new(goal.board()).unwrap();
        assert_matches_plain_bfs(&space, goal, &on_threads(&space, &goal, 2));
    }
}

#[test]
fn distances_into_overwrites_every_byte_of_a_dirty_buffer() {
    let goal = State::goal(Board::THREE_BY_THREE);
    let space = RankSpace::new(goal.board()).unwrap();
    let expected = on_threads(&space, &goal, 1);
    for junk in [0u8, 7, 255] {
        let mut entries = vec![junk; space.states() as usize];
        let counts = distances_into(&space, &goal, BuildOptions::default(), &mut entries);
        assert_eq!(counts, expected.counts);
        assert!(entries == expected.entries, "junk {junk}");
    }
}

#[test]
fn table_build_equals_encoding_the_generator_output() {
    for (w, h) in [(2, 3), (3, 3)] {
        let goal = State::goal(Board::new(w, h).unwrap());
        let space = RankSpace::new(goal.board()).unwrap();
        let built = Table::build(&goal, BuildOptions::default()).unwrap();
        let encoded =
            npuzzle::generate::encode(&goal, npuzzle::Metric::Stm, &on_threads(&space, &goal, 1));
        assert!(built.as_bytes() == encoded.as_slice(), "{w}x{h}");
        let reopened = Table::from_bytes(encoded).unwrap();
        assert_eq!(built.header(), reopened.header());
    }
}

/// The deep check written plainly: unrank each folded index in order, take its neighbours
/// under `metric` as `State`s (an MTM slide of several cells is one move, from
/// `npuzzle::metric::for_each_mtm_move`), rank them. "One closer" wraps in `u8`, the
/// documented rule.
fn naive_first_inconsistent_in(
    space: &RankSpace,
    goal: &State,
    metric: Metric,
    entries: &[u8],
) -> Option<u32> {
    (0..space.states()).find(|&index| {
        let state = space.unrank(index, goal.parity_class());
        let d = entries[index as usize];
        if (d == 0) != (state == *goal) {
            return true;
        }
        let mut around: Vec<u8> = Vec::new();
        let mut read = |next: &State| {
            around.push(entries[space.rank_unchecked(next) as usize].wrapping_add(1));
        };
        match metric {
            Metric::Stm => state.successors().for_each(|(_, next)| read(&next)),
            Metric::Mtm => npuzzle::metric::for_each_mtm_move(&state, |_, _, next| read(next)),
        }
        around.iter().any(|&e| e < d) || (d > 0 && !around.contains(&d))
    })
}

/// A table with `entries` as its body and a header that matches them (valid checksums and
/// histogram), however wrong the distances are.
fn resealed(goal: &State, entries: Vec<u8>) -> Table<Vec<u8>> {
    resealed_in(goal, Metric::Stm, entries)
}

/// [`resealed`] with the header's metric byte saying `metric`.
fn resealed_in(goal: &State, metric: Metric, entries: Vec<u8>) -> Table<Vec<u8>> {
    let all = count_depths_all(&entries);
    let max = all.iter().rposition(|&c| c > 0).unwrap();
    let counts = all[..=max].to_vec();
    let bytes = npuzzle::generate::encode(goal, metric, &Distances { entries, counts });
    Table::from_bytes(bytes).expect("a resealed body is a valid table")
}

/// One to three random changes that keep exactly one 0 (the decoder insists on it): a swap of
/// two entries, or an entry set to another depth (0..=max+2 or 255).
fn damage(rng: &mut SplitMix64, entries: &mut [u8], max_depth: u8) {
    let len = entries.len() as u64;
    for _ in 0..=rng.below(3) {
        let (i, j) = (rng.below(len) as usize, rng.below(len) as usize);
        if rng.chance(1, 2) {
            entries.swap(i, j);
        } else if entries[i] != 0 {
            entries[i] = match rng.below(8) {
                0 => 255,
                _ => 1 + rng.below(max_depth as u64 + 2) as u8,
            };
        }
    }
}

fn assert_check_agrees(table: &Table<Vec<u8>>, what: &str) {
    let entries = table.entries().unwrap();
    let naive = naive_first_inconsistent_in(table.space(), table.goal(), table.metric(), entries);
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let fast = pool.install(|| table.first_inconsistent_entry());
        assert_eq!(fast, naive, "{what}, {threads} threads");
    }
}

#[test]
fn the_deep_check_accepts_valid_tables_of_every_small_board() {
    for (w, h) in SMALL_BOARDS.into_iter().filter(|&(w, h)| w * h <= 9) {
        let board = Board::new(w, h).unwrap();
        for blank in [0, board.cells() / 2, board.cells() - 1] {
            let goal = State::canonical_goal(board, blank);
            let table = Table::build(&goal, BuildOptions::default()).unwrap();
            assert_eq!(
                table.first_inconsistent_entry(),
                None,
                "{board} goal {goal}"
            );
            assert_check_agrees(&table, &format!("{board} goal {goal}"));
        }
    }
}

#[test]
fn the_deep_check_finds_the_same_first_damage_as_a_naive_check() {
    let seed = 0x5eed_c4ec;
    println!("seed {seed:#x}");
    let mut rng = SplitMix64::new(seed);
    let mut found = 0;
    for (w, h, trials) in [
        (2, 2, 10),
        (2, 3, 30),
        (3, 2, 30),
        (2, 4, 20),
        (4, 2, 20),
        (3, 3, 40),
    ] {
        let board = Board::new(w, h).unwrap();
        for trial in 0..trials {
            let goal = State::canonical_goal(board, rng.below(board.cells() as u64) as usize);
            let valid = Table::build(&goal, BuildOptions::default()).unwrap();
            let mut entries = valid.entries().unwrap().to_vec();
            damage(&mut rng, &mut entries, valid.header().max_depth);
            let table = resealed(&goal, entries);
            let what = format!("{board} goal {goal} trial {trial}");
            assert_check_agrees(&table, &what);
            found += table.first_inconsistent_entry().is_some() as u32;
        }
    }
    // Most damage is visible (a swap of two equal depths is not): the check did find some.
    assert!(found > 100, "only {found} damaged tables were reported");
}

/// The check gathers a vertical neighbour's entry by runs where the move's window sits above
/// many digits and by a counter where it changes with every rank; 10-cell boards have windows
/// of every kind (runs of 1 to 2,520 pairs) in blocks of 181,440 pairs.
#[test]
fn the_deep_check_finds_the_same_first_damage_as_a_naive_check_on_ten_cells() {
    let mut rng = SplitMix64::new(0x0010_ce11);
    for (w, h) in [(2, 5), (5, 2)] {
        let board = Board::new(w, h).unwrap();
        let goal = State::canonical_goal(board, rng.below(board.cells() as u64) as usize);
        let valid = Table::build(&goal, BuildOptions::default()).unwrap();
        assert_eq!(valid.first_inconsistent_entry(), None, "{board}");
        for trial in 0..2 {
            let mut entries = valid.entries().unwrap().to_vec();
            damage(&mut rng, &mut entries, valid.header().max_depth);
            let table = resealed(&goal, entries);
            assert_check_agrees(&table, &format!("{board} goal {goal} trial {trial}"));
        }
    }
}

/// Under MTM a vertical slide of several cells rotates through several windows: damaged MTM
/// tables are judged as a naive check over `for_each_mtm_move` judges them.
#[test]
fn the_deep_check_finds_the_same_first_damage_as_a_naive_check_under_mtm() {
    let mut rng = SplitMix64::new(0x03a7_c4ec);
    let mut found = 0;
    for (w, h, trials) in [
        (2, 2, 5),
        (2, 3, 10),
        (3, 2, 10),
        (2, 4, 10),
        (4, 2, 10),
        (3, 3, 20),
    ] {
        let board = Board::new(w, h).unwrap();
        for trial in 0..trials {
            let goal = State::canonical_goal(board, rng.below(board.cells() as u64) as usize);
            let valid = npuzzle::mtm::build_table(&goal, BuildOptions::default()).unwrap();
            assert_eq!(
                valid.first_inconsistent_entry(),
                None,
                "{board} goal {goal}"
            );
            let mut entries = valid.entries().unwrap().to_vec();
            damage(&mut rng, &mut entries, valid.header().max_depth);
            let table = resealed_in(&goal, Metric::Mtm, entries);
            assert_check_agrees(&table, &format!("MTM {board} goal {goal} trial {trial}"));
            found += table.first_inconsistent_entry().is_some() as u32;
        }
    }
    assert!(found > 30, "only {found} damaged MTM tables were reported");
}

/// Under MTM a board taller than wide is checked by column cliques (each state's vertical
/// neighbours read from the least and second least of its column's); 2x5 has slides of one to
/// four cells whose gathers go by runs and by single pairs, 5x2 keeps the walk move by move:
/// damaged MTM tables of both are judged as the naive check judges them, and so is a table
/// whose goal entry (the only 0) was swapped with another.
#[test]
fn the_deep_check_finds_the_same_first_damage_as_a_naive_check_under_mtm_on_ten_cells() {
    let mut rng = SplitMix64::new(0x0a7c_0113);
    let mut found = 0;
    for (w, h) in [(2, 5), (5, 2)] {
        let board = Board::new(w, h).unwrap();
        let goal = State::canonical_goal(board, rng.below(board.cells() as u64) as usize);
        let valid = npuzzle::mtm::build_table(&goal, BuildOptions::default()).unwrap();
        assert_eq!(valid.first_inconsistent_entry(), None, "{board}");
        for trial in 0..3 {
            let mut entries = valid.entries().unwrap().to_vec();
            damage(&mut rng, &mut entries, valid.header().max_depth);
            let table = resealed_in(&goal, Metric::Mtm, entries);
            assert_check_agrees(&table, &format!("MTM {board} goal {goal} trial {trial}"));
            found += table.first_inconsistent_entry().is_some() as u32;
        }
        let goal_index = valid.space().rank_unchecked(&goal) as usize;
        let mut entries = valid.entries().unwrap().to_vec();
        let other = (goal_index + 777) % entries.len();
        entries.swap(goal_index, other);
        let table = resealed_in(&goal, Metric::Mtm, entries);
        let first = table
            .first_inconsistent_entry()
            .expect("a moved goal is reported");
        assert!(first as usize <= goal_index.max(other), "{board}: {first}");
        assert_check_agrees(&table, &format!("MTM {board} goal swapped"));
    }
    assert!(found >= 3, "only {found} damaged MTM tables were reported");
}

#[test]
fn the_deep_check_reports_a_moved_goal_and_a_second_zero() {
    let goal = State::goal(Board::THREE_BY_THREE);
    let valid = Table::build(&goal, BuildOptions::default()).unwrap();
    let goal_index = valid.space().rank_unchecked(&goal) as usize;
    // The goal's 0 swapped with an entry before it: that entry is the first bad one.
    let mut entries = valid.entries().unwrap().to_vec();
    entries.swap(goal_index, 10);
    let table = resealed(&goal, entries);
    assert_eq!(table.first_inconsistent_entry(), Some(10));
    assert_check_agrees(&table, "goal swapped with index 10");
    // A body whose only 0 is after the goal: the goal's own index is bad, or an earlier
    // neighbour of one of the two swapped entries.
    let mut entries = valid.entries().unwrap().to_vec();
    entries.swap(goal_index, goal_index + 1000);
    let table = resealed(&goal, entries);
    let first = table
        .first_inconsistent_entry()
        .expect("a moved goal is reported");
    assert!(first <= goal_index as u32, "{first}");
    assert_check_agrees(&table, "goal swapped forward");
}

/// The one 12-cell test: the 3x4 table is complete, 53 moves deep, and passes the deep check
/// (about 240 MB and a few seconds).
#[test]
fn the_3x4_table_is_complete_and_consistent() {
    let goal = State::goal(Board::new(3, 4).unwrap());
    let table = Table::build(&goal, BuildOptions { threads: Some(2) }).unwrap();
    let header = table.header();
    assert_eq!(header.entries, 239_500_800);
    assert_eq!(header.counts.iter().sum::<u64>(), header.entries);
    assert_eq!(header.max_depth, 53);
    assert_eq!(table.first_inconsistent_entry(), None);
    // A table built in memory walks with the 12-cell slots (boards of at most 10 cells have
    // narrow ones): every step goes one closer, by the first such move in U D L R order.
    let space = table.space().clone();
    let mut rng = SplitMix64::new(12);
    for _ in 0..200 {
        let start = space.unrank(rng.below(space.states() as u64) as u32, goal.parity_class());
        let moves = table.solve_moves(&start).unwrap().unwrap();
        let distance = |s: &State| table.distance(s).unwrap().unwrap();
        assert_eq!(moves.len(), distance(&start) as usize);
        assert_first_closer_moves(start, goal, &moves, distance);
    }
}
