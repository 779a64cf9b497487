//! Solves Korf's 15-puzzles (data/korf100.txt) or Korf and Felner's 24-puzzles
//! (data/korf50_24.txt) with IDA* and the pattern databases of a data directory, one line per
//! instance (length, nodes expanded and generated, time, node rate) and the totals, opening
//! time included.
//!
//! ```text
//! cargo run --release --example pdb_korf -- DATA_DIR 4x4 [COUNT|all|IDS]   # 7-8 or 6-6-3
//! cargo run --release --example pdb_korf -- DATA_DIR 5x5 3,4,5              # 6-6-6-6
//! cargo run --release --example pdb_korf -- DATA_DIR hardest [COUNT|all|IDS] # 80 moves
//! ```
//! The 4x4 instances are taken easiest first by Korf's 1985 node counts; the 5x5 ones by
//! Korf and Felner's 2002 counts; `hardest` reads the 17 positions at 80 moves
//! (data/hardest80.txt, goal `1 2 ... 15 0`, whose 6-6-3 databases are built on first use) in
//! file order. The databases must be built for Korf's goal (blank first):
//! `npuzzle build --pdb 4x4:7-8 --goal "0 1 2 ... 15" --data-dir DIR`; on 4x4 a missing 7-8
//! falls back to 6-6-3, built on first use.
//!
//! The instance files are in the repository and in the published package (`data/*.txt`); when
//! one is missing (a copy of `examples/` alone) the example says where to get it and exits 2.
//! `NPUZZLE_LOOKUPS=regular,reflected` (any of `regular`, `reflected`, `dual`,
//! `dual-reflected`, or `all`) picks the lookups maxed (default: the answer layer's, regular
//! and reflected); `NPUZZLE_SEARCH=dual` runs dual IDA* instead of IDA*; `NPUZZLE_PRUNE=back`
//! refuses only the moves straight back instead of the move-pruning automaton, and
//! `NPUZZLE_PRUNE=10` takes the automaton of strings of up to 10 moves (the default's before
//! it compared 12);
//! `NPUZZLE_REGIONS=DIR` lets the dual lookups read the databases of the patterns' other blank
//! regions (`npuzzle::pattern::region_goals`), opened from `DIR` or built and saved there on
//! first use (on 4x4, one 7-tile database of 28.8 MB; on 5x5, one 6-tile database of 63.8 MB).
//! `NPUZZLE_RESIDENT=1` copies the databases into the process's memory on huge pages before
//! searching (`PatternDatabase::resident`; the copy's time is printed and counted in the
//! opening); `NPUZZLE_THREADS=N` solves N instances at a time (one thread each) and prints the
//! set's wall time as well as the sum of the instances' search times. Each instance's CPU time
//! (its thread's, from `/proc/thread-self/schedstat` where Linux has it, else `-`) is printed
//! beside its wall time: on a shared machine the figure to compare. Without dual lookups the
//! search runs on `RegularReflected`'s smaller node; `NPUZZLE_NODE=full` runs it on the full
//! `PatternNode` instead (the same nodes searched), to measure what the smaller node saves.
//! `NPUZZLE_SECOND=DIR` also opens the second 5x5 partition's databases (`6-6-6-6b`, built
//! with `npuzzle build --pdb 5x5:6-6-6-6b`) from `DIR` and searches with the maximum of both
//! partitions' regular and reflected lookups (`heuristic::MaxPartitions`; not with dual
//! lookups or `NPUZZLE_SEARCH=dual`); with it, `NPUZZLE_PREFETCH=1` or `0` turns the
//! search's prefetch pass on or off (`MaxPartitions::with_prefetch`).

use std::time::Instant;

use npuzzle::answer::{DataDir, Oracle};
use std::ops::ControlFlow;
use std::sync::Arc;

use rayon::prelude::*;

use npuzzle::heuristic::{Heuristic, Lookups, MaxPartitions, PatternHeuristic};
use npuzzle::pattern::file::{open_pattern_database, save_pattern_database};
use npuzzle::pattern::{region_goals, Partition, PatternDatabase};
use npuzzle::search::prune::MovePruner;
use npuzzle::search::{self, Algorithm, Limits};
use npuzzle::store::StoredBytes;
use npuzzle::{Board, State};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir, board, ..] = args.as_slice() else {
        eprintln!("usage: pdb_korf DATA_DIR 4x4|5x5|hardest [COUNT|all|IDS]");
        std::process::exit(2);
    };
    let pick = args.get(3).map_or("all", String::as_str);
    let (file, side, blank) = match board.as_str() {
        "4x4" => ("data/korf100.txt", 4, 0),
        "5x5" => ("data/korf50_24.txt", 5, 0),
        "hardest" => ("data/hardest80.txt", 4, 15),
        other => panic!("board {other}: 4x4, 5x5 or hardest"),
    };
    let n = side * side;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/").to_string() + file;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!(
            "pdb_korf: cannot read the instance file {path}: {e}\n\
             it is {file} in the npuzzle repository and in the crate's package \
             (`cargo package` or the crates.io download); copy it there"
        );
        std::process::exit(2);
    });
    let mut rows: Vec<Vec<u64>> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect())
        .collect();
    // By published node counts where the file has them (hardest80.txt has none).
    rows.sort_by_key(|r| r.get(n + 3).copied().unwrap_or(0));
    let rows: Vec<Vec<u64>> = if pick == "all" {
        rows
    } else if pick.contains(',') {
        let ids: Vec<u64> = pick.split(',').map(|t| t.parse().unwrap()).collect();
        rows.into_iter().filter(|r| ids.contains(&r[0])).collect()
    } else {
        rows.into_iter().take(pick.parse().unwrap()).collect()
    };
    let board = Board::new(side, side).unwrap();
    let goal = State::canonical_goal(board, blank);
    let began = Instant::now();
    let oracle = Oracle::new(DataDir::new(dir));
    let found = oracle
        .pattern_databases(&goal)
        .unwrap()
        .expect("databases for this goal");
    let (h, which) = &*found;
    let mut databases = h.databases().to_vec();
    if std::env::var_os("NPUZZLE_RESIDENT").is_some() {
        let copying = Instant::now();
        databases = databases
            .iter()
            .map(|db| Arc::new(db.resident().expect("memory for the copy")))
            .collect();
        println!(
            "databases copied into memory in {:.3} s",
            copying.elapsed().as_secs_f64()
        );
    }
    let lookups = match std::env::var("NPUZZLE_LOOKUPS") {
        Ok(names) => names.parse::<Lookups>().unwrap(),
        Err(_) => h.lookups(),
    };
    let h = PatternHeuristic::with_lookups(&goal, databases, lookups).unwrap();
    let h = match std::env::var_os("NPUZZLE_REGIONS") {
        Some(dir) => {
            let regions = region_databases(&goal, h.databases(), std::path::Path::new(&dir));
            h.with_region_databases(regions).unwrap()
        }
        None => h,
    };
    let h = &h;
    let second = std::env::var_os("NPUZZLE_SECOND").map(|dir| {
        let partition = Partition::SixSixSixSixB;
        let databases = Oracle::new(DataDir::new(dir))
            .partition_databases(&goal, partition)
            .unwrap()
            .expect("the second partition's databases in NPUZZLE_SECOND");
        PatternHeuristic::with_lookups(&goal, databases, lookups).unwrap()
    });
    let both = second.as_ref().map(|b| {
        let (a, b) = (h.regular_reflected(), b.regular_reflected());
        let both = MaxPartitions::new(a.expect("no dual lookup"), b.expect("no dual lookup"));
        match std::env::var("NPUZZLE_PREFETCH").as_deref() {
            Ok("1") => both.unwrap().with_prefetch(true),
            Ok("0") => both.unwrap().with_prefetch(false),
            _ => both.unwrap(),
        }
    });
    let opened = began.elapsed();
    println!(
        "databases: {} {}, opened in {:.3} s",
        which.partition,
        both.as_ref().map_or(h.describe(), |m| format!(
            "{} (max {})",
            m.describe(),
            Partition::SixSixSixSixB
        )),
        opened.as_secs_f64()
    );
    println!(
        "id\tlength\toptimal\texpanded\tgenerated\tpublished_nodes\ttime_s\tcpu_s\tMnodes_per_s"
    );
    // Without dual lookups the search runs on the heuristic's smaller node
    // (`RegularReflected`); `NPUZZLE_NODE=full` keeps the full node, to compare the two.
    let lean = h
        .regular_reflected()
        .filter(|_| std::env::var("NPUZZLE_NODE").as_deref() != Ok("full"));
    let solve = |r: &Vec<u64>| {
        let cpu = thread_cpu();
        let tiles: Vec<u8> = r[1..=n].iter().map(|&t| t as u8).collect();
        let start = State::from_tiles(board, &tiles).unwrap();
        let result = if std::env::var("NPUZZLE_SEARCH").as_deref() == Ok("dual") {
            search::dual_idastar(&start, h, Limits::default()).result
        } else if let Some(both) = &both {
            ida(&start, both)
        } else if let Some(lean) = lean {
            ida(&start, &lean)
        } else {
            ida(&start, h)
        };
        let length = result.solution().expect("solved").len() as u64;
        assert_eq!(length, r[n + 1], "instance {}", r[0]);
        let cpu = thread_cpu().zip(cpu).map(|(end, start)| end - start);
        let wall = result.elapsed.as_secs_f64();
        (length, result.expanded, result.generated, wall, cpu)
    };
    let threads: usize = std::env::var("NPUZZLE_THREADS").map_or(1, |t| t.parse().unwrap());
    let searching = Instant::now();
    let solved: Vec<(u64, u64, u64, f64, Option<f64>)> = if threads > 1 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                // Hardest first (by the published counts), so that no long one starts last.
                let mut solved: Vec<(usize, _)> = (0..rows.len())
                    .into_par_iter()
                    .rev()
                    .with_max_len(1)
                    .map(|i| (i, solve(&rows[i])))
                    .collect();
                solved.sort_by_key(|s| s.0);
                solved.into_iter().map(|s| s.1).collect()
            })
    } else {
        rows.iter().map(solve).collect()
    };
    let wall = searching.elapsed().as_secs_f64();
    let (mut nodes, mut generated, mut time, mut cpu_time) = (0u64, 0u64, 0f64, Some(0f64));
    for (r, &(length, expanded, created, t, cpu)) in rows.iter().zip(&solved) {
        println!(
            "{}\t{length}\t{}\t{}\t{}\t{}\t{t:.4}\t{}\t{:.1}",
            r[0],
            r[n + 1],
            expanded,
            created,
            r.get(n + 3).map_or("-".to_string(), u64::to_string),
            cpu.map_or("-".to_string(), |c| format!("{c:.4}")),
            expanded as f64 / t / 1e6
        );
        nodes += expanded;
        generated += created;
        time += t;
        cpu_time = cpu_time.zip(cpu).map(|(a, b)| a + b);
    }
    println!(
        "total: {} instances, {nodes} expanded, {generated} generated, search {time:.3} s (CPU {}), with opening {:.2} s, {:.1} M nodes/s",
        rows.len(),
        cpu_time.map_or("-".to_string(), |c| format!("{c:.3} s")),
        time + opened.as_secs_f64(),
        nodes as f64 / time / 1e6
    );
    if threads > 1 {
        println!("set: {threads} instances at a time, wall {wall:.3} s for the searches");
    }
}

/// IDA* from `start` with `h`: with the move-pruning automaton, refusing only the moves
/// straight back under `NPUZZLE_PRUNE=back`, or with the automaton of strings up to N moves
/// under `NPUZZLE_PRUNE=N` (to measure what a longer automaton saves: 10 against 12).
fn ida<H: Heuristic + Sync>(start: &State, h: &H) -> search::SearchResult {
    let length = match std::env::var("NPUZZLE_PRUNE").as_deref() {
        Ok("back") => Some(2),
        Ok(n) => n.parse().ok(),
        Err(_) => None,
    };
    match length {
        Some(2) => {
            let back_only = MovePruner::generate(start.board(), 2);
            search::idastar_with_pruner(start, h, Limits::default(), &back_only)
        }
        Some(length) => {
            let pruner = MovePruner::for_board_up_to(start.board(), length);
            search::idastar_with_pruner(start, h, Limits::default(), &pruner)
        }
        None => search::run_with(Algorithm::IdaStar, h, start, Limits::default()),
    }
}

/// The CPU time of the calling thread so far, in seconds: the first field of
/// `/proc/thread-self/schedstat` (nanoseconds on a processor); `None` where there is none.
fn thread_cpu() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// The databases of the other blank regions of `databases`' patterns, opened from `dir` or
/// built and saved there.
fn region_databases(
    goal: &State,
    databases: &[Arc<PatternDatabase<StoredBytes>>],
    dir: &std::path::Path,
) -> Vec<Arc<PatternDatabase<StoredBytes>>> {
    std::fs::create_dir_all(dir).unwrap();
    let mut found = Vec::new();
    for db in databases {
        let tiles = db.space().tiles();
        for other in region_goals(goal, tiles) {
            let join = |v: &[u8]| v.iter().map(u8::to_string).collect::<Vec<_>>().join("-");
            let name = format!(
                "{}-{}-pdb-{}.npt",
                other.board(),
                join(other.cells()),
                join(tiles)
            );
            let path = dir.join(name);
            let db = if path.exists() {
                open_pattern_database(&path).unwrap()
            } else {
                let began = Instant::now();
                let built =
                    PatternDatabase::build(&other, tiles, &|_| ControlFlow::Continue(())).unwrap();
                save_pattern_database(&path, &built).unwrap();
                eprintln!(
                    "built {} in {:.1} s",
                    path.display(),
                    began.elapsed().as_secs_f64()
                );
                drop(built);
                open_pattern_database(&path).unwrap()
            };
            found.push(Arc::new(db));
        }
    }
    found
}
