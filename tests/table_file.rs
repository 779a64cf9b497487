//! The table file: round trip, and every kind of damage refused with its own error.

mod reseal;

use std::path::Path;
use std::sync::OnceLock;

use npuzzle::answer::store::Notice;
use npuzzle::store::format::{FIXED_HEADER_LEN, FORMAT_VERSION};
use npuzzle::store::StoredFileError;
use npuzzle::table::file;
use npuzzle::table::Mismatch;
use npuzzle::{Board, BuildOptions, FormatError, State, Table};

fn goal() -> State {
    State::goal(Board::THREE_BY_THREE)
}

fn bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        Table::build(&goal(), BuildOptions::default())
            .unwrap()
            .into_inner()
    })
}

fn header_len() -> usize {
    Table::from_bytes(bytes()).unwrap().header().len
}

/// Rewrites the header checksum so that a deliberate header change is judged on its own.
fn reseal(bytes: &mut [u8]) {
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let crc = crc32fast::hash(&bytes[..len - 4]);
    bytes[len - 4..len].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn a_written_table_opens_with_the_same_bytes_and_answers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(npuzzle::store::file::file_name(&goal()));
    npuzzle::store::file::write_atomic(&path, bytes()).unwrap();
    let table = file::open(&path).unwrap();
    assert_eq!(table.as_bytes(), bytes());
    assert_eq!(
        table.distance(&"867254301".parse().unwrap()).unwrap(),
        Some(31)
    );
    table.expect(&goal()).unwrap();
}

#[test]
fn truncation_anywhere_is_refused() {
    let len = bytes().len();
    let cuts = [
        0,
        1,
        7,
        8,
        12,
        16,
        24,
        56,
        64,
        72,
        80,
        FIXED_HEADER_LEN,
        header_len() - 1,
    ]
    .into_iter()
    .chain([header_len(), header_len() + 1, len / 2, len - 1]);
    for cut in cuts {
        let error = Table::from_bytes(&bytes()[..cut]).expect_err("truncated file accepted");
        assert!(
            matches!(
                error,
                FormatError::TooShort { .. }
                    | FormatError::Truncated { .. }
                    | FormatError::NotATable
            ),
            "cut at {cut}: {error}"
        );
        if cut >= 8 {
            assert!(
                error.to_string().contains("truncated"),
                "cut at {cut}: {error}"
            );
        }
    }
}

#[test]
fn a_flipped_byte_anywhere_in_the_header_is_refused() {
    for offset in 0..header_len() {
        for bit in [0x01u8, 0x80] {
            let mut damaged = bytes().to_vec();
            damaged[offset] ^= bit;
            assert!(
                Table::from_bytes(&damaged[..]).is_err(),
                "flipping bit {bit:#x} at header offset {offset} went unnoticed"
            );
        }
    }
}

#[test]
fn a_flipped_byte_in_the_body_is_a_checksum_error() {
    for offset in [header_len(), header_len() + 90_000, bytes().len() - 1] {
        let mut damaged = bytes().to_vec();
        damaged[offset] ^= 0x04;
        let error = Table::from_bytes(&damaged[..]).err().unwrap();
        let body_offset = offset - header_len();
        assert!(
            matches!(error, FormatError::BlockChecksum { block: 0, start, end, .. } if (start..end).contains(&body_offset)),
            "{error}"
        );
        // Opened lazily, the header passes and the first read of the block refuses it.
        let lazy = Table::from_header(&damaged[..]).unwrap();
        let damaged_state = lazy
            .space()
            .unrank(body_offset as u32, goal().parity_class());
        assert!(matches!(
            lazy.distance(&damaged_state),
            Err(npuzzle::TableError::Damaged { .. })
        ));
    }
}

#[test]
fn a_future_version_is_refused_by_name() {
    let mut future = bytes().to_vec();
    future[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    reseal(&mut future);
    let error = Table::from_bytes(&future[..]).err().unwrap();
    assert_eq!(
        error,
        FormatError::UnsupportedVersion {
            found: FORMAT_VERSION + 1
        }
    );
    // The library says what is wrong; the command line says which command mends it.
    assert!(error.to_string().contains("must be rebuilt"), "{error}");
    assert!(!error.to_string().contains("npuzzle"), "{error}");
}

#[test]
fn foreign_bytes_trailing_bytes_and_header_lies_are_refused() {
    assert_eq!(
        Table::from_bytes(&b"PK\x03\x04 not a table at all"[..]).err(),
        Some(FormatError::NotATable)
    );
    let mut longer = bytes().to_vec();
    longer.push(0);
    assert!(matches!(
        Table::from_bytes(&longer[..]).err(),
        Some(FormatError::TrailingBytes { .. })
    ));
    // A header that claims another board, sealed so only the board check can catch it.
    let mut other_board = bytes().to_vec();
    other_board[17] = 4;
    reseal(&mut other_board);
    assert!(Table::from_bytes(&other_board[..]).is_err());
    // A goal with a repeated tile.
    let mut bad_goal = bytes().to_vec();
    bad_goal[24] = bad_goal[25];
    reseal(&mut bad_goal);
    assert_eq!(
        Table::from_bytes(&bad_goal[..]).err(),
        Some(FormatError::BadGoal)
    );
}

#[test]
fn a_valid_table_for_another_goal_or_board_is_refused_when_asked_for_this_one() {
    let table = Table::from_bytes(bytes()).unwrap();
    let other_goal = State::canonical_goal(Board::THREE_BY_THREE, 0);
    let error = table.expect(&other_goal).err().unwrap();
    assert!(matches!(error, Mismatch::Goal { .. }));
    let small = Table::build(
        &State::goal(Board::new(3, 2).unwrap()),
        BuildOptions::default(),
    )
    .unwrap();
    let error = small.expect(&goal()).err().unwrap();
    assert!(error.to_string().contains("3x2"), "{error}");
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn load_or_build_builds_a_missing_table_and_rebuilds_a_damaged_one() {
    let dir = tempfile::tempdir().unwrap();
    let (table, notices) =
        npuzzle::answer::store::load_or_build(dir.path(), &goal(), BuildOptions::default())
            .unwrap();
    assert!(matches!(notices[..], [Notice::Built { .. }]), "{notices:?}");
    assert_eq!(table.distance(&goal()).unwrap(), Some(0));
    let path = dir.path().join(npuzzle::store::file::file_name(&goal()));
    assert_eq!(std::fs::read(&path).unwrap(), bytes());

    let (_, notices) =
        npuzzle::answer::store::load_or_build(dir.path(), &goal(), BuildOptions::default())
            .unwrap();
    assert!(
        notices.is_empty(),
        "a valid table is used as is: {notices:?}"
    );

    let mut damaged = bytes().to_vec();
    damaged[header_len() + 5] ^= 1;
    write(&path, &damaged);
    let (table, notices) =
        npuzzle::answer::store::load_or_build(dir.path(), &goal(), BuildOptions::default())
            .unwrap();
    assert!(
        matches!(notices[..], [Notice::Rebuilt { .. }]),
        "{notices:?}"
    );
    assert!(
        notices[0].to_string().contains("checksum"),
        "{}",
        notices[0]
    );
    assert_eq!(
        table.distance(&"867254301".parse().unwrap()).unwrap(),
        Some(31)
    );
    assert_eq!(std::fs::read(&path).unwrap(), bytes());
    file::open(&path).unwrap();
}

#[test]
fn a_valid_table_under_another_goals_name_is_a_mismatch_and_is_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let other_goal = State::canonical_goal(Board::THREE_BY_THREE, 0);
    let other = Table::build(&other_goal, BuildOptions::default()).unwrap();
    let path = dir.path().join(npuzzle::store::file::file_name(&goal()));
    write(&path, other.as_bytes());
    let (table, notices) =
        npuzzle::answer::store::load_or_build(dir.path(), &goal(), BuildOptions::default())
            .unwrap();
    match &notices[..] {
        [Notice::Rebuilt {
            reason: StoredFileError::Mismatch { error, .. },
        }] => assert_eq!(
            *error,
            Mismatch::Goal {
                found: other_goal,
                expected: goal()
            }
        ),
        other => panic!("expected a rebuild over a mismatch, got {other:?}"),
    }
    assert!(notices[0].to_string().contains("not the one asked for"));
    assert_eq!(table.goal(), &goal());
    assert_eq!(std::fs::read(&path).unwrap(), bytes());
}

#[test]
fn an_unusable_data_directory_still_answers_from_memory() {
    let dir = tempfile::tempdir().unwrap();
    // A data directory whose parent is a regular file can never be created, even by root.
    let blocker = dir.path().join("not-a-dir");
    write(&blocker, b"x");
    let (table, notices) = npuzzle::answer::store::load_or_build(
        &blocker.join("data"),
        &goal(),
        BuildOptions::default(),
    )
    .unwrap();
    assert!(
        matches!(notices[..], [Notice::InMemory { .. }]),
        "{notices:?}"
    );
    assert_eq!(
        table.distance(&"867254301".parse().unwrap()).unwrap(),
        Some(31)
    );

    // A table path that is a directory is reported as such, and the answer still comes.
    let data = dir.path().join("data");
    std::fs::create_dir_all(data.join(npuzzle::store::file::file_name(&goal()))).unwrap();
    let error = file::open(&data.join(npuzzle::store::file::file_name(&goal())))
        .err()
        .unwrap();
    assert!(
        matches!(
            error,
            StoredFileError::IsDirectory { .. } | StoredFileError::Read { .. }
        ),
        "{error}"
    );
    let (table, notices) =
        npuzzle::answer::store::load_or_build(&data, &goal(), BuildOptions::default()).unwrap();
    assert!(
        matches!(notices[..], [Notice::InMemory { .. }]),
        "{notices:?}"
    );
    assert_eq!(table.distance(&goal()).unwrap(), Some(0));
}

mod decoding_never_panics {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Damage of any shape (flipped bytes anywhere, then a cut) is refused or is no damage.
        #[test]
        fn damaged_tables_are_refused(
            flips in proptest::collection::vec((0usize..1_000_000, 1u8..=255), 1..4),
            cut in proptest::option::of(0usize..200_000),
        ) {
            let mut damaged = bytes().to_vec();
            for (at, mask) in flips {
                let at = if at < 2000 { at % header_len().max(1) } else { at % damaged.len() };
                damaged[at] ^= mask;
            }
            if let Some(cut) = cut {
                damaged.truncate(cut.min(damaged.len()));
            }
            match Table::from_bytes(&damaged[..]) {
                Ok(_) => prop_assert_eq!(&damaged[..], bytes()),
                Err(error) => prop_assert!(!error.to_string().is_empty()),
            }
        }

        /// Arbitrary bytes, including ones that start with the magic, never panic the decoder.
        #[test]
        fn arbitrary_bytes_are_refused(mut raw in proptest::collection::vec(any::<u8>(), 0..400), magic in any::<bool>()) {
            if magic && raw.len() >= 8 {
                raw[..8].copy_from_slice(b"NPUZZLE\0");
            }
            prop_assert!(Table::from_bytes(&raw[..]).is_err());
        }
    }
}

#[test]
fn a_body_whose_histogram_differs_from_the_header_is_refused_even_with_valid_checksums() {
    let mut damaged = bytes().to_vec();
    let len = header_len();
    // Turn one depth-31 state into depth 30, then recompute both checksums.
    let at = damaged[len..].iter().position(|&d| d == 31).unwrap() + len;
    damaged[at] = 30;
    reseal::reseal_body(&mut damaged);
    let error = Table::from_bytes(&damaged[..]).err().unwrap();
    assert!(
        matches!(error, FormatError::BodyCounts { depth: 30, .. }),
        "{error}"
    );
}

/// The 3x3 table with the entries of a state one move from the goal (`near`) and one two
/// moves from it (`far`) swapped, and the checksums sealed again: damage that only the
/// neighbours' entries (or a deep check) reveal.
fn swapped_entries() -> (Vec<u8>, State, State) {
    let space = npuzzle::RankSpace::new(Board::THREE_BY_THREE).unwrap();
    let near: State = "123456708".parse().unwrap();
    let far: State = "123456078".parse().unwrap();
    let mut edited = bytes().to_vec();
    let len = header_len();
    edited.swap(
        len + space.rank_unchecked(&near) as usize,
        len + space.rank_unchecked(&far) as usize,
    );
    reseal::reseal_body(&mut edited);
    (edited, near, far)
}

#[test]
fn a_deep_check_that_fails_keeps_every_read_checked_and_one_that_passes_trusts_the_table() {
    let (edited, near, far) = swapped_entries();
    let table = Table::from_bytes(&edited[..]).expect("checksums and histogram pass");
    assert!(matches!(
        table.distance_checked(&near),
        Err(npuzzle::TableError::Inconsistent { .. })
    ));
    // The walk from `near` (now at 2) steps to `far` (now at 1), whose neighbours have no 0.
    assert_eq!(
        table.solve_moves(&near),
        Err(npuzzle::TableError::Inconsistent {
            goal: goal(),
            state: far
        })
    );
    assert!(table.verify_deep().is_err());
    assert!(
        table.distance_checked(&near).is_err(),
        "a failed deep check must not switch the neighbour checks off"
    );
    let valid = Table::from_bytes(bytes()).unwrap();
    valid.verify_deep().unwrap();
    for state in [near, far, "867254301".parse().unwrap()] {
        assert_eq!(
            valid.distance_checked(&state).unwrap(),
            valid.distance(&state).unwrap()
        );
    }
}

#[test]
fn a_lazily_checked_table_answers_from_good_blocks_and_never_from_a_damaged_one() {
    // 2x5: 1,814,400 entries, two blocks of 1 MiB; a byte of the second block is flipped.
    let goal = State::goal(Board::new(5, 2).unwrap());
    let mut bytes = Table::build(&goal, BuildOptions::default())
        .unwrap()
        .into_inner();
    let built = Table::from_bytes(&bytes[..]).unwrap();
    let (body, shift) = (built.header().len, built.header().block_shift);
    assert_eq!(built.header().block_checksums.len(), 2);
    let space = built.space().clone();
    let in_block = |block: u32| space.unrank((block << shift) + 12_345, goal.parity_class());
    let (good_state, damaged_state) = (in_block(0), in_block(1));
    let good_distance = built.distance(&good_state).unwrap();
    bytes[body + (1 << shift) + 7] ^= 1;
    let lazy = Table::from_header(&bytes[..]).unwrap();
    for _ in 0..2 {
        assert_eq!(lazy.distance(&good_state).unwrap(), good_distance);
        assert!(matches!(
            lazy.distance(&damaged_state),
            Err(npuzzle::TableError::Damaged { .. })
        ));
        assert!(lazy.solve_moves(&damaged_state).is_err());
        assert!(lazy.entries().is_err());
    }
}

#[test]
fn a_walk_reading_block_by_block_takes_the_moves_of_a_walk_over_a_checked_body() {
    // 2x5 has two blocks: a table opened on its header walks with a check per read until
    // both blocks are checked, a table checked whole takes the fast walk; same moves.
    let goal = State::goal(Board::new(5, 2).unwrap());
    let bytes = Table::build(&goal, BuildOptions::default())
        .unwrap()
        .into_inner();
    let checked = Table::from_bytes(&bytes[..]).unwrap();
    let space = checked.space().clone();
    for index in (0..space.states()).step_by(7_919) {
        let start = space.unrank(index, goal.parity_class());
        let lazy = Table::from_header(&bytes[..]).unwrap();
        assert_eq!(
            lazy.solve_moves(&start).unwrap(),
            checked.solve_moves(&start).unwrap(),
            "{start}"
        );
    }
}

/// `save_table` writes the file while it checks the table deeply (side by side): a table that
/// fails the check is still never named, and the temporary file written beside the check is
/// removed; one that passes is saved with its exact bytes and nothing else is left behind.
#[test]
fn save_table_never_names_a_table_that_fails_the_deep_check_and_leaves_no_temporary_file() {
    let (edited, _, _) = swapped_entries();
    let table = Table::from_bytes(edited).expect("checksums and histogram pass");
    let dir = tempfile::tempdir().unwrap();
    let listing = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let refused = file::save_table(dir.path(), &table);
    assert!(
        matches!(
            refused,
            Err(file::SaveError::Check(
                npuzzle::TableError::Inconsistent { .. }
            ))
        ),
        "{refused:?}"
    );
    assert_eq!(
        listing(),
        Vec::<String>::new(),
        "nothing named, nothing left"
    );
    let valid = Table::from_bytes(bytes().to_vec()).unwrap();
    let saved = file::save_table_timed(dir.path(), &valid).unwrap();
    assert_eq!(
        saved.path,
        dir.path().join(npuzzle::store::file::file_name(&goal()))
    );
    assert_eq!(std::fs::read(&saved.path).unwrap(), bytes());
    assert_eq!(listing(), [npuzzle::store::file::file_name(&goal())]);
}
