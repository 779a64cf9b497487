//! Pattern database files: round trip through the data directory, and every kind of damage
//! refused with its own error, never read as valid; exact tables and pattern databases refuse
//! each other; the data directory rebuilds a damaged database with a note, or, when it may not
//! build, reports it and does without.

use std::ops::ControlFlow;
use std::sync::OnceLock;

use npuzzle::answer::store::Notice;
use npuzzle::pattern::PatternDatabase;
use npuzzle::store::format::{FormatError, FIXED_HEADER_LEN};
use npuzzle::store::StoredFileError;
use npuzzle::table::Mismatch;
use npuzzle::{Board, BuildOptions, State, Table};

fn goal() -> State {
    State::canonical_goal(Board::THREE_BY_THREE, 0)
}

const TILES: [u8; 4] = [1, 2, 3, 4];

/// No way to build: the data directory may only open.
type Build = fn() -> Result<PatternDatabase<Vec<u8>>, npuzzle::pattern::BuildError>;
const NO_BUILD: Option<Build> = None;

/// One database file's bytes, built once for this test binary.
fn bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        PatternDatabase::build(&goal(), &TILES, &|_| ControlFlow::Continue(()))
            .unwrap()
            .into_inner()
    })
}

fn header_len() -> usize {
    PatternDatabase::from_bytes(bytes()).unwrap().header().len
}

#[test]
fn a_database_round_trips_through_a_file_and_answers_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir
        .path()
        .join(npuzzle::store::file::pattern_file_name(&goal(), &TILES));
    npuzzle::store::file::write_atomic(&path, bytes()).unwrap();
    let opened = npuzzle::pattern::file::open_pattern_database(&path).unwrap();
    let built = PatternDatabase::from_bytes(bytes()).unwrap();
    opened.expect(&goal(), &[4, 3, 2, 1]).unwrap();
    assert_eq!(opened.header().kind, 2);
    assert_eq!(opened.header().pattern, 0b11110);
    // 9!/5! entries, four bits each.
    assert_eq!(opened.header().entries, 3024);
    assert_eq!(opened.as_bytes().len(), header_len() + 1512);
    let state: State = "876543210".parse().unwrap();
    assert_eq!(opened.value_of(&state), built.value_of(&state));
    assert_eq!(opened.value_of(&goal()), 0);
}

#[test]
fn truncation_anywhere_is_refused() {
    let len = bytes().len();
    for cut in [
        0,
        7,
        16,
        56,
        64,
        FIXED_HEADER_LEN,
        header_len() - 1,
        header_len(),
        len - 1,
    ] {
        let error = PatternDatabase::from_bytes(&bytes()[..cut]).expect_err("accepted");
        assert!(
            matches!(
                error,
                FormatError::TooShort { .. }
                    | FormatError::Truncated { .. }
                    | FormatError::NotATable
            ),
            "cut at {cut}: {error}"
        );
    }
}

#[test]
fn a_flipped_bit_anywhere_is_refused() {
    for offset in 0..bytes().len() {
        for bit in [0x01u8, 0x10, 0x80] {
            let mut damaged = bytes().to_vec();
            damaged[offset] ^= bit;
            assert!(
                PatternDatabase::from_bytes(&damaged[..]).is_err(),
                "flipping bit {bit:#x} at offset {offset} went unnoticed"
            );
        }
    }
}

/// Rewrites the header checksum after an edit, as someone tampering with a file could.
fn reseal(bytes: &mut [u8]) {
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let crc = crc32fast::hash(&bytes[..len - 4]);
    bytes[len - 4..len].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn another_pattern_mask_is_refused_even_with_a_valid_checksum() {
    // Same entry count (4 tiles of 9 cells), other tiles: valid as a file, wrong as asked.
    let mut other = bytes().to_vec();
    other[56..64].copy_from_slice(&0b1_1110_0000u64.to_le_bytes()); // tiles 5, 6, 7, 8
    reseal(&mut other);
    let db = PatternDatabase::from_bytes(&other[..]).unwrap();
    assert!(matches!(
        db.expect(&goal(), &TILES),
        Err(Mismatch::Pattern { .. })
    ));
    // A mask with another number of tiles contradicts the entry count.
    let mut five = bytes().to_vec();
    five[56] = 0b11_1110;
    reseal(&mut five);
    assert!(matches!(
        PatternDatabase::from_bytes(&five[..]),
        Err(FormatError::EntryCount { .. })
    ));
    // The blank, or a tile off the board, is no pattern.
    for mask in [0b1_1111u64, 1 << 9, 0] {
        let mut bad = bytes().to_vec();
        bad[56..64].copy_from_slice(&mask.to_le_bytes());
        reseal(&mut bad);
        assert!(
            matches!(
                PatternDatabase::from_bytes(&bad[..]),
                Err(FormatError::BadPattern { .. })
            ),
            "mask {mask:#b}"
        );
    }
}

#[test]
fn another_board_or_goal_is_refused() {
    let mut other_board = bytes().to_vec();
    other_board[17] = 4; // 4x3: other entry count
    reseal(&mut other_board);
    assert!(PatternDatabase::from_bytes(&other_board[..]).is_err());
    let db = PatternDatabase::from_bytes(bytes()).unwrap();
    assert!(matches!(
        db.expect(&State::goal(Board::THREE_BY_THREE), &TILES),
        Err(Mismatch::Goal { .. })
    ));
}

#[test]
fn exact_tables_and_pattern_databases_refuse_each_other() {
    let table = Table::build(&goal(), BuildOptions::default()).unwrap();
    assert!(matches!(
        PatternDatabase::from_bytes(table.as_bytes()),
        Err(FormatError::OtherKind { .. })
    ));
    assert!(matches!(
        Table::from_bytes(bytes()),
        Err(FormatError::OtherKind { .. })
    ));
    // An exact table with a pattern mask is damaged, not a database.
    let mut masked = table.as_bytes().to_vec();
    masked[56] = 0b10;
    reseal(&mut masked);
    assert!(matches!(
        Table::from_bytes(&masked[..]),
        Err(FormatError::Reserved { offset: 56 })
    ));
}

#[test]
fn the_data_directory_rebuilds_a_damaged_database_with_a_note_or_does_without() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir
        .path()
        .join(npuzzle::store::file::pattern_file_name(&goal(), &TILES));
    let build = || PatternDatabase::build(&goal(), &TILES, &|_| ControlFlow::Continue(()));
    // Missing, may not build: none, no note.
    let (db, notes) =
        npuzzle::answer::store::load_or_build_pattern(dir.path(), &goal(), &TILES, NO_BUILD)
            .unwrap();
    assert!(db.is_none() && notes.is_empty());
    // Missing, may build: built and saved.
    let (db, notes) =
        npuzzle::answer::store::load_or_build_pattern(dir.path(), &goal(), &TILES, Some(build))
            .unwrap();
    assert!(db.is_some() && matches!(notes[..], [Notice::Built { .. }]));
    assert_eq!(std::fs::read(&path).unwrap(), bytes());
    // Damaged body, may not build: reported, not used.
    let mut damaged = bytes().to_vec();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x11;
    std::fs::write(&path, &damaged).unwrap();
    let (db, notes) =
        npuzzle::answer::store::load_or_build_pattern(dir.path(), &goal(), &TILES, NO_BUILD)
            .unwrap();
    assert!(db.is_none());
    assert!(matches!(&notes[..], [Notice::Damaged { reason }] if reason.is_invalid()));
    // Damaged, may build: rebuilt, with a note naming the damage.
    let (db, notes) =
        npuzzle::answer::store::load_or_build_pattern(dir.path(), &goal(), &TILES, Some(build))
            .unwrap();
    assert!(db.is_some());
    assert!(matches!(&notes[..], [Notice::Rebuilt { .. }]), "{notes:?}");
    assert!(
        notes[0].to_string().contains("corrupt body"),
        "{}",
        notes[0]
    );
    assert_eq!(std::fs::read(&path).unwrap(), bytes());
    // A valid database for other tiles under this one's name: a mismatch, not damage.
    let other_tiles = [5, 6, 7, 8];
    let other =
        PatternDatabase::build(&goal(), &other_tiles, &|_| ControlFlow::Continue(())).unwrap();
    std::fs::write(&path, other.as_bytes()).unwrap();
    let (db, notes) =
        npuzzle::answer::store::load_or_build_pattern(dir.path(), &goal(), &TILES, NO_BUILD)
            .unwrap();
    assert!(db.is_none());
    assert!(
        matches!(
            &notes[..],
            [Notice::Damaged {
                reason: StoredFileError::Mismatch {
                    error: Mismatch::Pattern { .. },
                    ..
                }
            }]
        ),
        "{notes:?}"
    );
    let (db, notes) =
        npuzzle::answer::store::load_or_build_pattern(dir.path(), &goal(), &TILES, Some(build))
            .unwrap();
    assert!(db.is_some() && matches!(&notes[..], [Notice::Rebuilt { .. }]));
    assert_eq!(std::fs::read(&path).unwrap(), bytes());
    // A directory in the file's place is not a database (regular files only).
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    assert!(npuzzle::pattern::file::open_pattern_database(&path).is_err());
}

/// The trust model of issue 26: a data directory's database is checked whole once per version
/// of the file, and opened by its header alone while its version is the one recorded. A byte
/// flipped in place after that (checksums left alone) changes the version, so the next open
/// checks the file whole again and refuses it; only a record that names the damaged version
/// (which only the directory's owner can write) would let it through, which shows that the
/// recorded version is what the open relies on and the body is not read.
#[cfg(unix)]
#[test]
fn a_byte_flipped_after_verification_is_caught_at_the_next_open() {
    use std::io::{Seek, SeekFrom, Write};
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let name = npuzzle::store::file::pattern_file_name(&goal(), &TILES);
    let path = dir.path().join(&name);
    let record = dir.path().join(npuzzle::store::file::VERIFIED_LIST);
    let build = || PatternDatabase::build(&goal(), &TILES, &|_| ControlFlow::Continue(()));
    let open = || {
        npuzzle::answer::store::load_or_build_pattern(dir.path(), &goal(), &TILES, NO_BUILD)
            .unwrap()
    };
    let (db, notes) =
        npuzzle::answer::store::load_or_build_pattern(dir.path(), &goal(), &TILES, Some(build))
            .unwrap();
    assert!(db.is_some() && matches!(notes[..], [Notice::Built { .. }]));
    let version = |path: &std::path::Path| {
        let m = std::fs::metadata(path).unwrap();
        format!(
            "{} {} {} {}.{:09}",
            m.dev(),
            m.ino(),
            m.size(),
            m.ctime(),
            m.ctime_nsec()
        )
    };
    let recorded = std::fs::read_to_string(&record).unwrap();
    assert_eq!(recorded, format!("{name}\t{}\n", version(&path)));
    // Verified: opened again (by its header), the same database, nothing to report.
    let (db, notes) = open();
    assert_eq!(db.unwrap().as_bytes(), bytes());
    assert!(notes.is_empty(), "{notes:?}");

    // A byte of the body flipped in place: same inode, same size, a new change time.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let at = bytes().len() as u64 - 7;
    let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.seek(SeekFrom::Start(at)).unwrap();
    file.write_all(&[bytes()[at as usize] ^ 0x40]).unwrap();
    drop(file);
    assert_ne!(version(&path), recorded.split('\t').nth(1).unwrap().trim());
    let (db, notes) = open();
    assert!(db.is_none(), "a changed file is checked whole again");
    assert!(
        matches!(
            &notes[..],
            [Notice::Damaged {
                reason: StoredFileError::Invalid {
                    error: FormatError::BlockChecksum { .. },
                    ..
                }
            }]
        ),
        "{notes:?}"
    );
    // The record still names the old version only.
    assert_eq!(std::fs::read_to_string(&record).unwrap(), recorded);

    // What the open relies on: a record naming the damaged version is believed, header only.
    std::fs::write(&record, format!("{name}\t{}\n", version(&path))).unwrap();
    let (db, notes) = open();
    assert!(notes.is_empty(), "{notes:?}");
    assert_ne!(db.unwrap().as_bytes(), bytes());
}
