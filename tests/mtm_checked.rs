//! `Table::distance_checked` on MTM tables, state by state, against its rule read plainly over
//! `State`s: the neighbours are every state one slide away (`npuzzle::metric::for_each_mtm_move`,
//! no rank arithmetic shared with the check), and an entry `d` is answered only if one of
//! them is at `d - 1` (the goal alone at 0) and none lower ("one closer" wraps in `u8`, as the
//! deep check's rule does). The tables are damaged behind valid checksums (entries swapped,
//! raised, lowered, set to 255), so a check that skipped a slide's far cells, or skipped the
//! neighbours altogether, answers where the plain rule refuses and fails here.

use npuzzle::generate::{count_depths_all, BuildOptions, Distances};
use npuzzle::rng::SplitMix64;
use npuzzle::{Board, Metric, State, Table, TableError};

/// `entries` under a header that matches them (valid checksums and histogram), in MTM.
fn resealed(goal: &State, entries: Vec<u8>) -> Table<Vec<u8>> {
    let all = count_depths_all(&entries);
    let max = all.iter().rposition(|&c| c > 0).expect("some entry");
    let counts = all[..=max].to_vec();
    let bytes = npuzzle::generate::encode(goal, Metric::Mtm, &Distances { entries, counts });
    Table::from_bytes(bytes).expect("valid checksums and histogram")
}

/// Whether the plain rule refuses `state`'s entry in `table`.
fn plainly_refused(table: &Table<Vec<u8>>, state: &State) -> bool {
    let read = |s: &State| {
        table
            .distance(s)
            .expect("checked body")
            .expect("same class")
    };
    let d = read(state);
    if (d == 0) != (state == table.goal()) {
        return true;
    }
    let mut around = Vec::new();
    npuzzle::metric::for_each_mtm_move(state, |_, _, next| around.push(read(next).wrapping_add(1)));
    around.iter().any(|&e| e < d) || (d > 0 && !around.contains(&d))
}

#[test]
fn distance_checked_refuses_exactly_what_the_plain_mtm_rule_refuses() {
    let mut rng = SplitMix64::new(0x28_c4ec);
    let (mut refused, mut answered) = (0u64, 0u64);
    for (w, h, trials) in [(2, 3, 6), (3, 2, 6), (2, 4, 6), (4, 2, 6), (3, 3, 6)] {
        let board = Board::new(w, h).expect("board");
        for trial in 0..trials {
            let goal = State::canonical_goal(board, rng.below(board.cells() as u64) as usize);
            let valid = npuzzle::mtm::build_table(&goal, BuildOptions::default()).expect("built");
            let mut entries = valid.entries().expect("checked").to_vec();
            let len = entries.len() as u64;
            for _ in 0..=rng.below(3) {
                let (i, j) = (rng.below(len) as usize, rng.below(len) as usize);
                match rng.below(4) {
                    0 => entries.swap(i, j),
                    1 => entries[i] = entries[i].saturating_add(1),
                    2 => entries[i] = entries[i].saturating_sub(2),
                    _ => entries[i] = 255,
                }
            }
            let table = resealed(&goal, entries);
            let space = table.space();
            for index in 0..space.states() {
                let state = space.unrank(index, goal.parity_class());
                let plain = plainly_refused(&table, &state);
                match table.distance_checked(&state) {
                    Ok(Some(d)) => {
                        assert!(
                            !plain,
                            "{board} goal {goal} trial {trial}: {state} answered"
                        );
                        assert_eq!(Some(d), table.distance(&state).unwrap());
                        answered += 1;
                    }
                    Err(TableError::Inconsistent { state: named, .. }) => {
                        assert!(plain, "{board} goal {goal} trial {trial}: {state} refused");
                        assert_eq!(named, state);
                        refused += 1;
                    }
                    other => panic!("{board} goal {goal} trial {trial}: {state}: {other:?}"),
                }
            }
        }
    }
    // The damage reached the check: states were refused, and most were answered.
    assert!(refused >= 30, "only {refused} states refused");
    assert!(
        answered > 100 * refused,
        "{answered} answered, {refused} refused"
    );
}
