//! The search observer (`Limits::observe`): what a long search tells while it runs, which the
//! command line shows on a terminal.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use npuzzle::heuristic::Manhattan;
use npuzzle::mtm::search::ida_star as mtm_idastar;
use npuzzle::mtm::walking::WalkingDistance;
use npuzzle::search::{astar, idastar, parallel_idastar, Limit, Progress};
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

fn watch_idastar(progress: &Progress) -> ControlFlow<()> {
    IDA_SEEN.lock().unwrap().push(*progress);
    ControlFlow::Continue(())
}

#[test]
fn idastar_reports_nodes_and_its_iteration_bound_while_it_runs() {
    let (start, goal) = korf3();
    let h = Manhattan::new(&goal);
    let limit = 300_000;
    let result = idastar(
        &start,
        &h,
        Limits::default().nodes(limit).observe(&watch_idastar),
    );
    assert!(result.gave_up().is_some());
    let seen = IDA_SEEN.lock().unwrap();
    assert_reports(&seen, limit, h.start(start.cells()).1, "idastar");
    // The reports stop at the limit the result gives.
    assert!(seen.last().unwrap().expanded <= result.expanded);
}

static ASTAR_SEEN: Mutex<Vec<Progress>> = Mutex::new(Vec::new());

fn watch_astar(progress: &Progress) -> ControlFlow<()> {
    ASTAR_SEEN.lock().unwrap().push(*progress);
    ControlFlow::Continue(())
}

#[test]
fn astar_reports_nodes_and_its_smallest_f() {
    let (start, goal) = korf3();
    let h = Manhattan::new(&goal);
    let limit = 100_000;
    let result = astar(
        &start,
        &h,
        Limits::default().nodes(limit).observe(&watch_astar),
    );
    assert!(result.gave_up().is_some());
    assert_reports(
        &ASTAR_SEEN.lock().unwrap(),
        limit,
        h.start(start.cells()).1,
        "astar",
    );
}

fn silent(_: &Progress) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

#[test]
fn limits_are_equal_only_with_the_same_observer() {
    let plain = Limits::default().nodes(10);
    assert_eq!(plain, Limits::default().nodes(10));
    assert_eq!(plain.observe(&silent), plain.observe(&silent));
    assert_ne!(plain, plain.observe(&silent));
    assert_ne!(plain.observe(&silent), plain.observe(&watch_astar));
}

/// Expansions at which [`stop_after`] asks each search to stop.
const STOP_AT: u64 = 200_000;

/// The most expansions any search made when its observer asked it to stop.
static ASKED_AT: AtomicU64 = AtomicU64::new(0);

/// An observer that stops a search once it has expanded [`STOP_AT`] nodes.
fn stop_after(progress: &Progress) -> ControlFlow<()> {
    if progress.expanded >= STOP_AT {
        ASKED_AT.fetch_max(progress.expanded, Ordering::Relaxed);
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
}

/// The observer's `Break` stops every search that reports to it, sequential, on several
/// threads or in the multi-tile metric, which then gives up with `Limit::Stopped` (the search
/// has no node limit: without the stop, Korf's instance 3 takes hundreds of millions of nodes
/// with Manhattan distance, and millions under MTM with the walking distance).
#[test]
fn an_observer_that_breaks_stops_the_search() {
    let (start, goal) = korf3();
    let h = Manhattan::new(&goal);
    let limits = Limits::default().observe(&stop_after);
    let runs = [
        ("idastar", idastar(&start, &h, limits)),
        ("astar", astar(&start, &h, limits)),
        (
            "parallel idastar",
            parallel_idastar(&start, &h, limits.threads(2)),
        ),
        (
            "parallel idastar, deterministic",
            parallel_idastar(&start, &h, limits.threads(2).deterministic(true)),
        ),
        (
            "mtm idastar",
            mtm_idastar(&start, &WalkingDistance::new(&goal), &limits),
        ),
    ];
    for (what, result) in runs {
        assert_eq!(result.gave_up(), Some(Limit::Stopped), "{what}: {result:?}");
        // Stopped when asked: each thread reports every 4,096 expansions and stops at its
        // next report (the margin covers a split's nodes and the other thread's last report).
        assert!(result.expanded >= STOP_AT, "{what}: {}", result.expanded);
        assert!(
            result.expanded < STOP_AT + 4 * 4096 + 100_000,
            "{what}: {} nodes, asked at {}",
            result.expanded,
            ASKED_AT.load(Ordering::Relaxed)
        );
    }
}
