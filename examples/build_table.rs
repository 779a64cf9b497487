//! Builds one table in memory and reports how long it took, for measuring the generator's
//! time and peak memory outside criterion (peak memory needs a process of its own).
//!
//! Run: `cargo build --release --example build_table` then
//! `/usr/bin/time -v target/release/examples/build_table 3x4 2` (board, threads; add `deep` to
//! also time `Table::first_inconsistent_entry`, `mtm` to build the MTM table instead).
//! "Maximum resident set size" is the peak. Without `deep` the process does nothing but
//! generate (and encode), so `perf stat -e task-clock` on it is the generator's CPU, to set
//! against `npuzzle check --deep FILE`'s for the deep check.

use std::time::Instant;

use npuzzle::{Board, BuildOptions, State, Table};

fn main() {
    let mut args = std::env::args().skip(1);
    let board = args.next().unwrap_or_else(|| "3x4".to_string());
    let threads: usize = args
        .next()
        .map_or(2, |t| t.parse().expect("threads: a number"));
    let flags: Vec<String> = args.collect();
    let deep = flags.iter().any(|f| f == "deep");
    let mtm = flags.iter().any(|f| f == "mtm");
    let (w, h) = board.split_once('x').expect("board: WxH");
    let board = Board::new(w.parse().expect("width"), h.parse().expect("height")).expect("board");
    let goal = State::goal(board);
    let options = BuildOptions {
        threads: Some(threads),
    };
    let start = Instant::now();
    let table = if mtm {
        npuzzle::mtm::build_table(&goal, options)
    } else {
        Table::build(&goal, options)
    }
    .expect("a board that can be ranked");
    let built = start.elapsed();
    println!(
        "{board} goal {goal}: {} {} bytes, max depth {}, built in {:.3} s on {threads} threads",
        table.metric(),
        table.as_bytes().len(),
        table.header().max_depth,
        built.as_secs_f64()
    );
    if deep {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a small pool");
        let start = Instant::now();
        let bad = pool.install(|| table.first_inconsistent_entry());
        println!(
            "deep check: {bad:?} in {:.3} s on {threads} threads",
            start.elapsed().as_secs_f64()
        );
    }
}
