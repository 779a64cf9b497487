//! Builds one pattern database, any pattern of any goal, and saves it (deep-checked and
//! recorded as verified) in a data directory under the name the answer layer looks for, printing each layer as it is found with the time and the process's peak memory: how
//! a pattern larger than the named partitions' is built and measured before a partition is
//! named for it (issue 22: 7-tile patterns of the 5x5 board).
//!
//! ```text
//! cargo run --release --example build_pattern -- 5x5 "0 1 2 ... 24" 1,2,5,6,7,10,11 DATA_DIR
//! ```
//!
//! Exit status 2 for bad arguments, 1 if the build or the save fails.

use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::Instant;

use npuzzle::pattern::file::save_pattern_database;
use npuzzle::pattern::{PatternDatabase, Progress};
use npuzzle::{Board, State};

/// The process's peak resident memory in MB (Linux's `VmHWM`), or 0 where unknown.
fn peak_mb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb / 1024)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, board, goal, tiles, out] = args.as_slice() else {
        eprintln!("usage: build_pattern WxH GOAL TILES(1,2,...) DATA_DIR");
        return ExitCode::from(2);
    };
    let parsed = (|| -> Result<(State, Vec<u8>), String> {
        let board: Board = board.parse().map_err(|e| format!("{e}"))?;
        let goal = State::parse(goal, Some(board)).map_err(|e| e.to_string())?;
        let tiles = tiles
            .split(',')
            .map(|t| {
                t.trim()
                    .parse::<u8>()
                    .map_err(|e| format!("tile {t:?}: {e}"))
            })
            .collect::<Result<Vec<u8>, String>>()?;
        Ok((goal, tiles))
    })();
    let (goal, tiles) = match parsed {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let began = Instant::now();
    let report = |p: Progress| {
        println!(
            "layer {:>3}: {:>13} of {} placements, {:>8.1} s, peak {} MB",
            p.depth,
            p.reached,
            p.entries,
            began.elapsed().as_secs_f64(),
            peak_mb()
        );
        ControlFlow::Continue(())
    };
    let db = match PatternDatabase::build(&goal, &tiles, &report) {
        Ok(db) => db,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let built = began.elapsed().as_secs_f64();
    let saving = Instant::now();
    let out =
        std::path::Path::new(out).join(npuzzle::store::file::pattern_file_name(&goal, &tiles));
    if let Err(e) = std::fs::create_dir_all(out.parent().expect("a directory"))
        .map_err(|e| e.to_string())
        .and_then(|()| save_pattern_database(&out, &db).map_err(|e| e.to_string()))
    {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    println!(
        "{}: built in {built:.1} s, deep-checked and saved in {:.1} s, peak {} MB, {} bytes",
        out.display(),
        saving.elapsed().as_secs_f64(),
        peak_mb(),
        db.as_bytes().len()
    );
    ExitCode::SUCCESS
}
