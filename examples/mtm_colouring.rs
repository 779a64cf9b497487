//! The 4x4 MTM search with Rokicki's colouring database (figures for BENCHMARKS.md, "MTM 4x4
//! optimal: the relabelled database"): builds the database (timed), optionally deep-checks,
//! saves and reopens it, then solves states read from stdin, one a line (`#` lines skipped,
//! `tools/slidy-bench/mtm_instances.txt`: the transposed goal, then Korf's 100 turned towards
//! the default goal), printing for each the state, its MTM length, the seconds and the nodes
//! expanded (the same first three columns as tools/slidy-bench's `slidy_mtm`).
//!
//! `cargo run --release --example mtm_colouring -- CONFIG FIRST COUNT [MAX_NODES] < FILE`:
//! CONFIG is `c` (the database, also read on the transposed state), `c-flat` (no transposed
//! read), `c-wd` (maxed with the walking distance) or `c-wd-flat`; the instances
//! FIRST..FIRST+COUNT (0-based). `MTM_COLOURING_FILE=PATH` saves the database there (after
//! the deep check, timed) when missing and reads it from there otherwise.

use std::io::BufRead;
use std::sync::Arc;
use std::time::Instant;

use npuzzle::metric::Metric;
use npuzzle::mtm::colouring::{Colouring, ColouringDb};
use npuzzle::mtm::heuristic::MtmHeuristic;
use npuzzle::mtm::search::ida_star;
use npuzzle::search::Outcome;
use npuzzle::store::StoredBytes;
use npuzzle::{Limits, State};

fn database(goal: &State) -> Result<ColouringDb<StoredBytes>, Box<dyn std::error::Error>> {
    let colouring = Colouring::four_by_four();
    let file = std::env::var_os("MTM_COLOURING_FILE");
    if let Some(path) = &file {
        if let Ok(bytes) = std::fs::read(path) {
            let t = Instant::now();
            let db = ColouringDb::from_bytes(bytes)?;
            eprintln!(
                "read {} and checked its sums in {:.2} s",
                path.to_string_lossy(),
                t.elapsed().as_secs_f64()
            );
            return Ok(db.map_into());
        }
    }
    let t = Instant::now();
    let db = ColouringDb::build_reporting(goal, colouring, &|depth, entries| {
        eprintln!(
            "  depth {depth}: {entries} entries, {:.2} s",
            t.elapsed().as_secs_f64()
        );
    })?;
    eprintln!(
        "npuzzle: database built in {:.2} s ({} entries, max depth {})",
        t.elapsed().as_secs_f64(),
        db.counts().iter().sum::<u64>(),
        db.counts().len() - 1
    );
    if let Some(path) = &file {
        let t = Instant::now();
        db.verify_deep()?;
        eprintln!("deep check in {:.2} s", t.elapsed().as_secs_f64());
        std::fs::write(path, db.as_bytes())?;
    }
    Ok(db.map_into())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let config = args.get(1).map_or("c-wd", String::as_str);
    let first: usize = args.get(2).map_or(Ok(0), |a| a.parse())?;
    let count: usize = args.get(3).map_or(Ok(usize::MAX), |a| a.parse())?;
    let limits = match args.get(4) {
        Some(max) => Limits::NONE.nodes(max.parse()?),
        None => Limits::NONE,
    };
    let goal = State::goal("4x4".parse()?);
    let db = database(&goal)?;
    // On huge pages, as the answer layer keeps it (MTM_RESIDENT=0: as read or built).
    let db = if std::env::var_os("MTM_RESIDENT").is_some_and(|v| v == "0") {
        db
    } else {
        db.resident()?
    };
    let db = Arc::new(db);
    let walking = config.contains("wd");
    let mut h = MtmHeuristic::with_colouring(&goal, db, walking)?;
    if config.ends_with("-flat") {
        h = h.unmirrored();
    }
    let (mut nodes, mut seconds) = (0u64, 0.0f64);
    let lines = std::io::stdin().lock().lines().map(|l| l.expect("stdin"));
    let states = lines.filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    for line in states.skip(first).take(count) {
        let start = State::parse(line.trim(), None)?;
        let result = ida_star(&start, &h, &limits);
        nodes += result.expanded;
        seconds += result.elapsed.as_secs_f64();
        let length = match &result.outcome {
            Outcome::Solved(s) => Metric::Mtm.length(s.moves()).to_string(),
            other => format!("{other:?}"),
        };
        println!(
            "{}\t{length}\t{:.3}\t{}\th0 {}",
            line.trim(),
            result.elapsed.as_secs_f64(),
            result.expanded,
            h.estimate(&start)
        );
    }
    eprintln!("{config} total: {nodes} nodes, {seconds:.2} s");
    Ok(())
}
