//! slidy 0.7's optimal 4x4 MTM solver on the instances of `mtm_instances.txt` (or any file of
//! states, one a line, `#` lines skipped), for BENCHMARKS.md's "MTM 4x4 optimal: the relabelled
//! database": prints the database's build time on stderr, then one line an instance: the state,
//! its MTM length, the seconds it took.
//!
//! `cargo +nightly run --release --bin slidy_mtm -- FIRST COUNT < mtm_instances.txt`: the
//! instances FIRST..FIRST+COUNT (0-based, comment lines not counted).

use std::io::BufRead;
use std::str::FromStr;
use std::time::Instant;

use slidy::puzzle::puzzle::Puzzle;
use slidy::solver::config::PdbConfig;
use slidy::solver::size4x4::mtm::solver::Solver;
use slidy::solver::solver::Solver as _;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("FIRST and COUNT are numbers"))
        .collect();
    let first = args.first().copied().unwrap_or(0);
    let count = args.get(1).copied().unwrap_or(usize::MAX);
    let began = Instant::now();
    let mut solver = Solver::new(&PdbConfig::default());
    eprintln!("slidy: database built in {:.2} s", began.elapsed().as_secs_f64());
    let lines = std::io::stdin().lock().lines().map(|l| l.expect("stdin"));
    let states = lines.filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    for line in states.skip(first).take(count) {
        let puzzle = Puzzle::from_str(line.trim()).expect("a 4x4 state");
        let began = Instant::now();
        let solution = solver.solve(&puzzle).expect("a solvable 4x4 state");
        println!(
            "{}\t{}\t{:.3}",
            line.trim(),
            solution.len_mtm(),
            began.elapsed().as_secs_f64()
        );
    }
}
