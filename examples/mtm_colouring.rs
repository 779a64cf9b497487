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
//!
//! The STM pattern databases' MTM bound ([`npuzzle::mtm::stm_bound`], BENCHMARKS.md "STM
//! databases with a proven MTM bound"): CONFIG `s663` (the 6-6-3 of the default goal, regular
//! and reflected lookups, read from `STM_PDB_DIR`, a data directory holding them), `s663-all`
//! (all four lookups), `s78` (the 7-8 of Korf's goal, read on the state turned half a turn
//! and relabelled `t -> 16 - t`, which keeps every MTM distance and maps the default goal
//! onto Korf's), and `c+s663`, `c+s78` (each maxed with `c`).

use std::io::BufRead;
use std::sync::Arc;
use std::time::Instant;

use npuzzle::heuristic::{Lookups, PatternHeuristic};
use npuzzle::metric::Metric;
use npuzzle::mtm::colouring::{Colouring, ColouringDb};
use npuzzle::mtm::heuristic::MtmHeuristic;
use npuzzle::mtm::search::{ida_star, Estimate};
use npuzzle::mtm::stm_bound::{Larger, StmBound};
use npuzzle::pattern::PatternDatabase;
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
    let (colouring, stm) = match config.split_once('+') {
        Some((c, s)) => (Some(c), Some(s)),
        None if config.starts_with('s') => (None, Some(config)),
        None => (Some(config), None),
    };
    let colouring = match colouring {
        Some(config) => Some(colouring_estimate(&goal, config)?),
        None => None,
    };
    let stm: Option<Box<dyn Estimate>> = match stm {
        Some(config) => Some(stm_estimate(config)?),
        None => None,
    };
    let h: Box<dyn Estimate> = match (colouring, stm) {
        (Some(c), Some(s)) => Box::new(Larger(c, s)),
        (Some(c), None) => Box::new(c),
        (None, Some(s)) => s,
        (None, None) => unreachable!("a config names one or both"),
    };
    let (mut nodes, mut seconds) = (0u64, 0.0f64);
    let lines = std::io::stdin().lock().lines().map(|l| l.expect("stdin"));
    let states = lines.filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    for line in states.skip(first).take(count) {
        let start = State::parse(line.trim(), None)?;
        let result = ida_star(&start, h.as_ref(), &limits);
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

/// The colouring database's estimate for CONFIG `c`, `c-flat`, `c-wd`, `c-wd-flat`.
fn colouring_estimate(
    goal: &State,
    config: &str,
) -> Result<MtmHeuristic, Box<dyn std::error::Error>> {
    let db = database(goal)?;
    // On huge pages, as the answer layer keeps it (MTM_RESIDENT=0: as read or built).
    let db = if std::env::var_os("MTM_RESIDENT").is_some_and(|v| v == "0") {
        db
    } else {
        db.resident()?
    };
    let mut h = MtmHeuristic::with_colouring(goal, Arc::new(db), config.contains("wd"))?;
    if config.ends_with("-flat") {
        h = h.unmirrored();
    }
    Ok(h)
}

/// The STM databases' MTM bound for CONFIG `s663`, `s663-all` or `s78`.
fn stm_estimate(config: &str) -> Result<Box<dyn Estimate>, Box<dyn std::error::Error>> {
    let dir = std::env::var_os("STM_PDB_DIR").ok_or("STM_PDB_DIR is not set")?;
    let (goal, groups): (State, &[&str]) = match config {
        "s663" | "s663-all" => (
            State::goal("4x4".parse()?),
            &["1-2-5-6-9-10", "3-4-7-8-11-12", "13-14-15"],
        ),
        "s78" => (
            State::canonical_goal("4x4".parse()?, 0),
            &["1-2-3-4-5-6-7", "8-9-10-11-12-13-14-15"],
        ),
        other => return Err(format!("unknown STM configuration {other}").into()),
    };
    let goal_name: Vec<String> = goal.cells().iter().map(u8::to_string).collect();
    let mut dbs = Vec::new();
    let t = Instant::now();
    for group in groups {
        let path =
            std::path::Path::new(&dir).join(format!("4x4-{}-pdb-{group}.npt", goal_name.join("-")));
        let db = PatternDatabase::from_bytes(std::fs::read(&path)?)?;
        dbs.push(Arc::new(db.map_into::<StoredBytes>().resident()?));
    }
    eprintln!(
        "read and checked the STM databases in {:.2} s",
        t.elapsed().as_secs_f64()
    );
    let lookups = if config.ends_with("-all") {
        Lookups::ALL
    } else {
        Lookups::REFLECTED
    };
    let bound = StmBound::new(PatternHeuristic::with_lookups(&goal, dbs, lookups)?);
    Ok(if config == "s78" {
        Box::new(HalfTurn(bound))
    } else {
        Box::new(bound)
    })
}

/// An estimate towards Korf's goal read for the default goal: the state turned half a turn
/// and relabelled `t -> 16 - t` (an MTM slide stays one, the default goal becomes Korf's).
struct HalfTurn<E>(E);

static DEFAULT_GOAL: std::sync::LazyLock<State> =
    std::sync::LazyLock::new(|| State::goal("4x4".parse().expect("a board")));

impl<E: Estimate> Estimate for HalfTurn<E> {
    fn goal(&self) -> &State {
        &DEFAULT_GOAL
    }

    fn estimate(&self, state: &State) -> u32 {
        let mut cells = [0u8; 16];
        for (c, &t) in state.cells().iter().enumerate() {
            cells[15 - c] = (16 - t) % 16;
        }
        let turned = State::from_tiles(state.board(), &cells).expect("a permutation");
        self.0.estimate(&turned)
    }
}
