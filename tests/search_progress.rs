//! The search observer (`Limits::observe`): what a long search tells while it runs, which the
//! command line shows on a terminal.

use std::sync::Mutex;

use npuzzle::heuristic::Manhattan;
use npuzzle::search::{astar, idastar, Progress};
use npuzzle::{Heuristic, Limits, State};

/// Korf's instance 3: hundreds of millions of IDA* nodes with Manhattan distance, so every
/// run below stops at its node limit.
fn korf3() -> (State, State) {
    (
        "14 7 8 2 / 13 11 10 4 / 9 12 5 0 / 3 6 1 15"
            .parse()
            .unwrap(),
        "0 1 2 3 / 4 5 6 7 / 8 9 10 11 / 12 13 14 15"
            .parse()
            .unwrap(),
    )
}

/// Checks what one search told its observer: regular reports up to the node limit, counts and
/// times that never go back, and a bound that never falls below the start's estimate nor
/// decreases (Manhattan distance is consistent, so A*'s smallest `f` never decreases either).
fn assert_reports(seen: &[Progress], limit: u64, root_h: u32, what: &str) {
    assert!(
        seen.len() as u64 >= limit / 4096 - 1,
        "{what}: {} reports for {limit} nodes",
        seen.len()
    );
    for pair in seen.windows(2) {
        assert!(pair[0].expanded < pair[1].expanded, "{what}: {pair:?}");
        assert!(pair[0].elapsed <= pair[1].elapsed, "{what}: {pair:?}");
        assert!(pair[0].bound <= pair[1].bound, "{what}: {pair:?}");
    }
    assert!(seen.iter().all(|p| p.expanded <= limit), "{what}");
    let first = seen[0].bound.expect("a bound is reported");
    assert!(first >= root_h, "{what}: bound {first} under h = {root_h}");
}

static IDA_SEEN: Mutex<Vec<Progress>> = Mutex::new(Vec::new());

fn watch_idastar(progress: &Progress) {
    IDA_SEEN.lock().unwrap().push(*progress);
}

#[test]
fn idastar_reports_nodes_and_its_iteration_bound_while_it_runs() {
    let (start, goal) = korf3();
    let h = Manhattan::new(&goal);
    let limit = 300_000;
    let result = idastar(
        &start,
        &h,
        Limits::default().nodes(limit).observe(watch_idastar),
    );
    assert!(result.gave_up().is_some());
    let seen = IDA_SEEN.lock().unwrap();
    assert_reports(&seen, limit, h.start(start.cells()).1, "idastar");
    // The reports stop at the limit the result gives.
    assert!(seen.last().unwrap().expanded <= result.expanded);
}

static ASTAR_SEEN: Mutex<Vec<Progress>> = Mutex::new(Vec::new());

fn watch_astar(progress: &Progress) {
    ASTAR_SEEN.lock().unwrap().push(*progress);
}

#[test]
fn astar_reports_nodes_and_its_smallest_f() {
    let (start, goal) = korf3();
    let h = Manhattan::new(&goal);
    let limit = 100_000;
    let result = astar(
        &start,
        &h,
        Limits::default().nodes(limit).observe(watch_astar),
    );
    assert!(result.gave_up().is_some());
    assert_reports(
        &ASTAR_SEEN.lock().unwrap(),
        limit,
        h.start(start.cells()).1,
        "astar",
    );
}

fn silent(_: &Progress) {}

#[test]
fn limits_are_equal_only_with_the_same_observer() {
    let plain = Limits::default().nodes(10);
    assert_eq!(plain, Limits::default().nodes(10));
    assert_eq!(plain.observe(silent), plain.observe(silent));
    assert_ne!(plain, plain.observe(silent));
    assert_ne!(plain.observe(silent), plain.observe(watch_astar));
}
