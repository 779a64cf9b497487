//! MTM tables kept in a data directory: built and saved under their own file name in the
//! store's format, reopened without a build, answering exactly as the table built in memory,
//! and a damaged file refused and rebuilt as an STM table's is.

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
    bad[20] ^= 0x55; // a reserved header byte: the header checksum fails
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
