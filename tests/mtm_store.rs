//! MTM tables kept in a data directory: built and saved under their own file name in the
//! store's format, reopened without a build, answering exactly as the table built in memory,
//! and a damaged file refused and rebuilt as an STM table's is. The metric is in the header,
//! so a valid table of the other metric under a table's name is refused, never answered.

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex};

use npuzzle::answer::store::Notice;
use npuzzle::answer::{AnswerError, DataDir, SourceEvent};
use npuzzle::mtm::MtmTable;
use npuzzle::store::file::{file_name, mtm_file_name};
use npuzzle::{BuildOptions, How, Metric, Oracle, State};

/// An oracle on `dir`, and the events it reported (`built` for a build begun, or the notice).
fn oracle_on(dir: &Path) -> (Oracle, Arc<Mutex<Vec<String>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let source = DataDir::new(dir).on_event(move |event| {
        let line = match event {
            SourceEvent::Building { .. } => "building".to_string(),
            SourceEvent::Notice(Notice::Built { .. }) => "built".to_string(),
            SourceEvent::Notice(Notice::Rebuilt { .. }) => "rebuilt".to_string(),
            SourceEvent::Notice(other) => format!("{other}"),
            _ => return,
        };
        log.lock().expect("log").push(line);
    });
    (Oracle::new(source), seen)
}

/// Every state of `goal`'s class, by breadth-first search over the moves.
fn class_of(goal: State) -> Vec<State> {
    let mut seen = HashSet::from([goal]);
    let mut order = vec![goal];
    let mut at = 0;
    while at < order.len() {
        let state = order[at];
        at += 1;
        for (_, next) in state.successors() {
            if seen.insert(next) {
                order.push(next);
            }
        }
    }
    order
}

fn mtm() -> How {
    How::default().in_metric(Metric::Mtm)
}

#[test]
fn an_mtm_table_is_saved_reopened_and_answers_as_the_one_in_memory() {
    let dir = tempfile::tempdir().expect("temp dir");
    let goal = State::goal("3x3".parse().expect("board"));
    let reference = MtmTable::build(&goal, BuildOptions::default()).expect("built");
    let (oracle, events) = oracle_on(dir.path());
    let saved = oracle.mtm_table(&goal).expect("opened").expect("a table");
    assert_eq!(saved.counts(), reference.counts(), "the histogram");
    assert_eq!(*events.lock().expect("log"), ["building", "built"]);
    let path = dir.path().join(mtm_file_name(&goal));
    assert!(path.is_file(), "{path:?}");
    // Its own name: the STM table's file is not written for an MTM question.
    assert!(!dir.path().join(file_name(&goal)).exists());
    let bytes = std::fs::read(&path).expect("read");
    assert_eq!(
        bytes,
        reference.table().as_bytes(),
        "the store's format, byte for byte"
    );

    // A second oracle opens the file: no build, every state's answer as in memory.
    let (again, events) = oracle_on(dir.path());
    for start in class_of(goal) {
        let answer = again.distance(&start, &goal, mtm()).expect("answered");
        assert_eq!(
            answer.value.ok(),
            reference.distance_to(&start, &goal).expect("read"),
            "{start}"
        );
    }
    assert!(events.lock().expect("log").is_empty(), "nothing built");
    // An unsolvable start, and a solution from the file's table.
    let start: State = "123456870".parse().expect("state");
    assert!(again
        .distance(&start, &goal, mtm())
        .expect("answered")
        .value
        .is_err());
    let start: State = "123456078".parse().expect("state");
    let path = again
        .solve(&start, &goal, mtm())
        .expect("answered")
        .value
        .expect("solved");
    assert_eq!(path.moves_string(), "RR");
}

#[test]
fn a_damaged_mtm_file_is_refused_and_rebuilt() {
    let dir = tempfile::tempdir().expect("temp dir");
    let goal = State::goal("3x2".parse().expect("board"));
    let path = dir.path().join(mtm_file_name(&goal));
    let (first, _) = oracle_on(dir.path());
    first.mtm_table(&goal).expect("built");
    let good = std::fs::read(&path).expect("read");

    // A damaged header: refused when opened, rebuilt and saved again.
    let mut bad = good.clone();
    bad[21] ^= 0x55; // a reserved header byte: refused
    std::fs::write(&path, &bad).expect("write");
    let (oracle, events) = oracle_on(dir.path());
    oracle.mtm_table(&goal).expect("rebuilt");
    assert!(events.lock().expect("log").contains(&"rebuilt".to_string()));
    assert_eq!(std::fs::read(&path).expect("read"), good);

    // A damaged entry behind a valid header: refused where it is checked (a small table's
    // only block when opened, and rebuilt then; a large one's block at its first read, and
    // the file removed so that the next oracle builds it again), never answered.
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last - 40] ^= 0x01;
    std::fs::write(&path, &bad).expect("write");
    let (oracle, events) = oracle_on(dir.path());
    let refused = class_of(goal)
        .into_iter()
        .find_map(|start| oracle.distance(&start, &goal, mtm()).err());
    match refused {
        Some(error) => {
            assert!(matches!(error, AnswerError::Table(_)), "{error}");
            assert!(!path.exists(), "the damaged file is removed");
        }
        None => assert!(
            events.lock().expect("log").contains(&"rebuilt".to_string()),
            "neither refused nor rebuilt"
        ),
    }
    let (oracle, _) = oracle_on(dir.path());
    let reference = MtmTable::build(&goal, BuildOptions::default()).expect("built");
    for start in class_of(goal) {
        let answer = oracle.distance(&start, &goal, mtm()).expect("answered");
        assert_eq!(
            answer.value.ok(),
            reference.distance_to(&start, &goal).expect("read")
        );
    }
    assert_eq!(std::fs::read(&path).expect("read"), good);
}

/// [`load_or_build_in_metric`](npuzzle::answer::store::load_or_build_in_metric) on `dir`,
/// counting the builds it ran.
fn load(
    dir: &Path,
    goal: &State,
    metric: Metric,
) -> (
    npuzzle::Table<npuzzle::store::StoredBytes>,
    Vec<Notice>,
    usize,
) {
    let mut builds = 0;
    let (table, notices) =
        npuzzle::answer::store::load_or_build_in_metric(dir, goal, metric, || {
            builds += 1;
            match metric {
                Metric::Stm => npuzzle::Table::build(goal, BuildOptions::default()),
                Metric::Mtm => npuzzle::mtm::build_table(goal, BuildOptions::default()),
            }
        })
        .expect("loaded");
    (table, notices, builds)
}

#[test]
fn the_header_records_the_metric_and_stm_headers_are_unchanged() {
    let goal = State::goal("3x2".parse().expect("board"));
    let stm = npuzzle::Table::build(&goal, BuildOptions::default()).expect("built");
    let mtm = npuzzle::mtm::build_table(&goal, BuildOptions::default()).expect("built");
    assert_eq!((stm.metric(), mtm.metric()), (Metric::Stm, Metric::Mtm));
    let offset = npuzzle::store::format::METRIC_OFFSET;
    // STM files keep the zero byte every file had there before the field: old ones read as STM.
    assert_eq!(stm.as_bytes()[offset], 0);
    assert_eq!(mtm.as_bytes()[offset], 1);
    // Another value is damage, not a third metric.
    let mut bad = mtm.as_bytes().to_vec();
    bad[offset] = 2;
    assert_eq!(
        npuzzle::store::format::decode_header(&bad),
        Err(npuzzle::store::FormatError::UnknownMetric { found: 2 })
    );
    // The byte is under the header checksum: flipping the metric alone is not a valid file.
    let mut flipped = stm.as_bytes().to_vec();
    flipped[offset] = 1;
    assert!(matches!(
        npuzzle::store::format::decode_header(&flipped),
        Err(npuzzle::store::FormatError::HeaderChecksum { .. })
    ));
}

#[test]
fn a_table_of_the_other_metric_under_a_tables_name_is_refused_and_rebuilt() {
    for (wanted, other) in [(Metric::Mtm, Metric::Stm), (Metric::Stm, Metric::Mtm)] {
        let dir = tempfile::tempdir().expect("temp dir");
        let goal = State::goal("3x3".parse().expect("board"));
        let name = |metric| match metric {
            Metric::Stm => file_name(&goal),
            Metric::Mtm => mtm_file_name(&goal),
        };
        // The other metric's table, saved under its own name, then copied to the wanted name.
        let (_, _, builds) = load(dir.path(), &goal, other);
        assert_eq!(builds, 1);
        let wrong = std::fs::read(dir.path().join(name(other))).expect("read");
        let path = dir.path().join(name(wanted));
        std::fs::write(&path, &wrong).expect("copied");

        let (table, notices, builds) = load(dir.path(), &goal, wanted);
        assert_eq!(builds, 1, "{wanted}: refused, so rebuilt");
        assert_eq!(table.metric(), wanted);
        let [Notice::Rebuilt { reason }] = &notices[..] else {
            panic!("{wanted}: {notices:?}");
        };
        let line = reason.to_string();
        assert_eq!(
            line,
            format!(
                "table {} is not the one asked for: the table counts {other} moves, not the {wanted} moves asked for",
                path.display()
            )
        );
        assert!(!line.contains('\n'));
        // Every answer is the wanted metric's: the rebuilt file is the wanted table.
        let (again, notices, builds) = load(dir.path(), &goal, wanted);
        assert!(notices.is_empty() && builds == 0, "{notices:?}");
        assert_eq!(again.as_bytes(), table.as_bytes());
        assert_ne!(again.as_bytes(), &wrong[..]);
    }
}

#[test]
fn an_oracle_refuses_a_sources_table_of_the_other_metric() {
    use npuzzle::answer::{SourceError, TableSource};
    use npuzzle::store::StoredBytes;
    use npuzzle::Table;

    /// A table's bytes as a source gives them.
    fn stored(table: Table<Vec<u8>>) -> Table<StoredBytes> {
        Table::from_bytes(StoredBytes::from(table.into_inner())).expect("valid")
    }
    /// A source that gives each metric's question the other metric's table.
    struct Swapped;
    impl TableSource for Swapped {
        fn table(&self, goal: &State) -> Result<Table<StoredBytes>, SourceError> {
            let table = npuzzle::mtm::build_table(goal, BuildOptions::default())?;
            Ok(stored(table))
        }
        fn mtm_table(&self, goal: &State) -> Result<Option<Table<StoredBytes>>, SourceError> {
            let table = Table::build(goal, BuildOptions::default())?;
            Ok(Some(stored(table)))
        }
    }
    let oracle = Oracle::new(Swapped);
    let goal = State::goal("3x2".parse().expect("board"));
    let start: State = "123/045".parse().expect("state");
    for how in [How::default(), mtm()] {
        let error = oracle.distance(&start, &goal, how).expect_err("refused");
        assert!(matches!(error, AnswerError::Source { .. }), "{error}");
        assert!(error.to_string().contains("moves asked for"), "{error}");
    }
    let stm = Table::build(&goal, BuildOptions::default()).expect("built");
    let error = MtmTable::from_table(stored(stm)).expect_err("refused");
    assert!(matches!(error, npuzzle::store::Mismatch::Metric { .. }));
}

/// The table file of `entries` for `goal` in `metric`: header, counts and checksums made anew.
fn encoded(goal: &State, metric: Metric, entries: Vec<u8>) -> npuzzle::Table<Vec<u8>> {
    let counts = npuzzle::generate::count_depths(&entries);
    let bytes = npuzzle::generate::encode(
        goal,
        metric,
        &npuzzle::generate::Distances { entries, counts },
    );
    npuzzle::Table::from_bytes(bytes).expect("valid checksums and histogram")
}

#[test]
fn the_deep_check_takes_the_tables_metric() {
    for board in ["3x2", "2x4", "3x3"] {
        let goal = State::goal(board.parse().expect("board"));
        let stm = npuzzle::Table::build(&goal, BuildOptions::default()).expect("built");
        let mtm = npuzzle::mtm::build_table(&goal, BuildOptions::default()).expect("built");
        stm.verify_deep()
            .expect("STM table consistent under STM moves");
        mtm.verify_deep()
            .expect("MTM table consistent under MTM moves");
        let body = |t: &npuzzle::Table<Vec<u8>>| t.as_bytes()[t.header().len..].to_vec();
        // Each body under the other metric's header: valid checksums, inconsistent entries.
        let swapped = encoded(&goal, Metric::Mtm, body(&stm));
        assert!(
            swapped.first_inconsistent_entry().is_some(),
            "{board}: STM as MTM"
        );
        let swapped = encoded(&goal, Metric::Stm, body(&mtm));
        assert!(
            swapped.first_inconsistent_entry().is_some(),
            "{board}: MTM as STM"
        );
        // One MTM entry raised by one, checksums made anew: found.
        let mut edited = body(&mtm);
        let at = edited.iter().position(|&d| d == 3).expect("a state at 3");
        edited[at] = 4;
        let edited = encoded(&goal, Metric::Mtm, edited);
        assert!(
            edited.verify_deep().is_err(),
            "{board}: an edited MTM entry"
        );
        // And answered only where the neighbours agree.
        let checked = (0..edited.header().entries as u32)
            .map(|i| edited.space().unrank(i, goal.parity_class()))
            .find_map(|s| edited.distance_checked(&s).err());
        assert!(
            checked.is_some(),
            "{board}: distance_checked refuses the edited entry"
        );
    }
}
