//! Solves a file of instances into a results file that survives restarts
//! ([`npuzzle::instance_set`]): one line per finished instance (id, length, nodes generated,
//! seconds, moves), appended as soon as it is solved and checked by replay against the
//! published length; a restart skips the finished lines.
//!
//! ```text
//! cargo run --release --example solve_set -- --board 5x5 --data-dir DIR \
//!     --instances data/korf50_24.txt --results data/korf50_24-results.txt --easiest-first
//! ```
//!
//! `--report` prints the set's progress instead of solving: one Markdown row per instance,
//! easiest first, the results file's figures against the published ones
//! ([`instance_set::progress_table`]; BENCHMARKS.md's table of the fifty is this output,
//! `--data-dir` not needed); with `--checkpoint-dir`, an unfinished instance's row says where
//! its search stands ([`instance_set::in_progress`]):
//!
//! ```text
//! cargo run --release --example solve_set -- --board 5x5 --instances data/korf50_24.txt \
//!     --results data/korf50_24-results.txt --report
//! ```
//!
//! Options: `--goal G` (default: the blank in the top-left corner, tiles in order, as in
//! Korf's files), `--easiest-first` (by the file's last column: the published node counts),
//! `--only ID,ID` (solve only these; the results file may hold any instance's lines, so
//! runs over different subsets, on different machines, share one file format and merge by
//! appending; an id not in the instance file is refused), `--lookups L` (default `all`; `regular,reflected` is faster per node; see
//! `heuristic::Lookups`), `--search
//! idastar|dual` (default `idastar`: IDA* with the move-pruning automaton), `--resident` (copy
//! the databases into the process's memory on huge pages first: `PatternDatabase::resident`,
//! fewer TLB misses per lookup for the price of the copy), `--threads N` (IDA* on N threads,
//! the parallel driver of [`npuzzle::search::parallel_idastar`]), `--checkpoint-dir DIR`
//! (each instance keeps a checkpoint `DIR/ID.checkpoint`, [`Limits::checkpoint`], so a
//! restart resumes the instance in progress at the subtree it had reached instead of starting
//! it over; the seconds already spent are kept beside it in `DIR/ID.seconds`, so the results
//! line counts every run's time; SIGTERM or Ctrl-C then stops the run with the checkpoint
//! written, the work inside the subtrees in progress included, and a second signal ends it at
//! once), `--order largest-first` (the parallel driver takes each
//! iteration's subtrees largest first by the previous iteration's nodes, so that the last
//! iteration tends to meet a solution sooner: `search::SubtreeOrder`; default `sequential`),
//! `--data-dir-b DIR` (also open a
//! second partition's databases from `DIR`, `--partition-b NAME`, default `6-6-6-6b`, built
//! with `npuzzle build --pdb 5x5:6-6-6-6b`, and search with the maximum of both partitions'
//! regular and reflected lookups: `heuristic::MaxPartitions`; needs `--lookups
//! regular,reflected` and `--search idastar`). The pattern
//! databases come from `--data-dir` (the strongest there, as the answer layer picks them;
//! 6-6-6-6 and 7-8 must be built first with `npuzzle build --pdb`). Exit status 1 if an
//! instance failed (a length other than the published one, or a checkpoint that could not be
//! read or written: the command line's `npuzzle solve-set` exits 2 for that), 2 for bad
//! arguments, instance or results files.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use npuzzle::answer::{DataDir, Oracle};
use npuzzle::heuristic::{Lookups, MaxPartitions, PatternHeuristic};
use npuzzle::instance_set;
use npuzzle::pattern::{Partition, PatternDatabase};
use npuzzle::search::{self, Algorithm, Limits, SubtreeOrder};
use npuzzle::store::StoredBytes;
use npuzzle::{Board, State};
use signal_hook::consts::{SIGINT, SIGTERM};
use std::sync::Arc;

/// Set by the first SIGTERM or SIGINT ([`stop_on_signals`]).
static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// With checkpoints: the first SIGTERM or SIGINT stops the search in progress with its
/// checkpoint written, the work inside its subtrees in progress included (the command line's
/// `solve-set` does the same), and the run with it; a second ends the process at once.
fn stop_on_signals() -> Result<(), String> {
    let flag = STOP.get_or_init(|| Arc::new(AtomicBool::new(false)));
    for signal in [SIGTERM, SIGINT] {
        signal_hook::flag::register_conditional_shutdown(signal, 130, Arc::clone(flag))
            .and_then(|_| signal_hook::flag::register(signal, Arc::clone(flag)))
            .map_err(|e| format!("signal {signal}: {e}"))?;
    }
    Ok(())
}

/// The searches' observer: stop once a signal came.
fn stop_requested(_: &search::Progress) -> ControlFlow<()> {
    match STOP.get().is_some_and(|flag| flag.load(Ordering::Relaxed)) {
        true => ControlFlow::Break(()),
        false => ControlFlow::Continue(()),
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode, String> {
    let mut args = std::env::args().skip(1);
    let (mut board, mut dir, mut instances, mut results) = (None, None, None, None);
    let (mut goal, mut easiest_first, mut only) = (None, false, None::<Vec<String>>);
    let (mut lookups, mut dual, mut resident) = (Lookups::ALL, false, false);
    let (mut threads, mut checkpoints, mut report) = (1usize, None::<PathBuf>, false);
    let (mut dir_b, mut partition_b) = (None, Partition::SixSixSixSixB);
    let mut order = SubtreeOrder::Sequential;
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--board" => board = Some(value()?.parse::<Board>().map_err(|e| e.to_string())?),
            "--data-dir" => dir = Some(PathBuf::from(value()?)),
            "--data-dir-b" => dir_b = Some(PathBuf::from(value()?)),
            "--partition-b" => {
                partition_b = value()?
                    .parse()
                    .map_err(|e: npuzzle::pattern::UnknownPartition| e.to_string())?
            }
            "--instances" => instances = Some(PathBuf::from(value()?)),
            "--results" => results = Some(PathBuf::from(value()?)),
            "--goal" => goal = Some(value()?),
            "--easiest-first" => easiest_first = true,
            "--resident" => resident = true,
            "--report" => report = true,
            "--threads" => {
                threads = value()?
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or(format!("{arg}: expected a number of threads, 1 or more"))?
            }
            "--checkpoint-dir" => checkpoints = Some(PathBuf::from(value()?)),
            "--order" => {
                order = value()?
                    .parse()
                    .map_err(|e: npuzzle::search::UnknownSubtreeOrder| e.to_string())?
            }
            "--only" => only = Some(value()?.split(',').map(str::to_string).collect()),
            "--lookups" => {
                lookups = value()?
                    .parse()
                    .map_err(|e: npuzzle::heuristic::UnknownLookups| e.to_string())?
            }
            "--search" => {
                dual = match value()?.as_str() {
                    "idastar" => false,
                    "dual" => true,
                    other => return Err(format!("--search {other}: expected idastar or dual")),
                }
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let board = board.ok_or("--board is needed")?;
    let instances = instances.ok_or("--instances is needed")?;
    let results = results.ok_or("--results is needed")?;
    let goal = match goal {
        Some(text) => State::parse(&text, Some(board)).map_err(|e| e.to_string())?,
        None => State::canonical_goal(board, 0),
    };
    let text =
        std::fs::read_to_string(&instances).map_err(|e| format!("{}: {e}", instances.display()))?;
    let mut set = instance_set::parse_instances(&text, board).map_err(|e| e.to_string())?;
    if report {
        // As `npuzzle solve-set --report` reads it: a last line cut short by a kill is left
        // out, not an error.
        let read = instance_set::read_results(&results, &set, &goal).map_err(|e| e.to_string())?;
        if let Some(ids) = &only {
            set.retain(|i| ids.contains(&i.id));
        }
        // With --checkpoint-dir, where each unfinished instance stands (read only).
        let table = instance_set::progress_table_with(&set, &read.finished, |instance| {
            let dir = checkpoints.as_deref()?;
            instance_set::in_progress(dir, instance, &goal).transpose()
        });
        print!("{table}");
        return Ok(ExitCode::SUCCESS);
    }
    let dir = dir.ok_or("--data-dir is needed")?;
    if easiest_first {
        instance_set::sort_easiest_first(&mut set);
    }
    let oracle = Oracle::new(DataDir::new(&dir));
    let canonical = State::canonical_goal(board, goal.blank());
    let found = oracle
        .pattern_databases(&canonical)
        .map_err(|e| e.to_string())?
        .ok_or(format!(
            "no pattern databases for {canonical} in {}",
            dir.display()
        ))?;
    let (built, which) = &*found;
    let in_memory = |databases: Vec<Arc<PatternDatabase<StoredBytes>>>| {
        if !resident {
            return Ok(databases);
        }
        databases
            .iter()
            .map(|db| db.resident().map(Arc::new))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("copying the databases into memory: {e}"))
    };
    let databases = in_memory(built.databases().to_vec())?;
    let h = PatternHeuristic::with_lookups(&canonical, databases, lookups)
        .map_err(|e| e.to_string())?;
    // The second partition, regular + reflected, maxed with the first.
    let second = match &dir_b {
        Some(dir_b) => {
            let databases = Oracle::new(DataDir::new(dir_b))
                .partition_databases(&canonical, partition_b)
                .map_err(|e| e.to_string())?
                .ok_or(format!(
                    "no {partition_b} databases for {canonical} in {}",
                    dir_b.display()
                ))?;
            let databases = in_memory(databases)?;
            if dual || lookups.any_dual() {
                return Err(
                    "--data-dir-b needs --lookups regular,reflected and --search idastar".into(),
                );
            }
            Some(
                PatternHeuristic::with_lookups(&canonical, databases, lookups)
                    .map_err(|e| e.to_string())?,
            )
        }
        None => None,
    };
    let both = match &second {
        Some(b) => Some(
            MaxPartitions::new(
                h.regular_reflected().expect("no dual lookup"),
                b.regular_reflected().expect("no dual lookup"),
            )
            .map_err(|e| e.to_string())?,
        ),
        None => None,
    };
    eprintln!(
        "{} instances, databases {} {}, {}",
        only.as_ref().map_or(set.len(), Vec::len),
        which.partition,
        match (&both, &second) {
            (Some(both), Some(_)) => format!("{} (max {partition_b})", both.describe()),
            _ => h.describe(),
        },
        if dual {
            "dual IDA*"
        } else {
            "IDA* with move pruning"
        }
    );
    if dual && (threads > 1 || checkpoints.is_some()) {
        return Err("--search dual runs on one thread without a checkpoint".into());
    }
    if let Some(dir) = &checkpoints {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        stop_on_signals()?;
    }
    let solve = |instance: &instance_set::Instance| {
        // The databases are for the canonical goal: relabel, search, replay in own labels.
        let relabelled = instance.start.relabel_for(&goal);
        let mut limits = Limits::default().threads(threads).order(order);
        let clock = checkpoints
            .as_deref()
            .map(|dir| instance_set::RunClock::start(dir, &instance.id));
        if let Some(clock) = &clock {
            // Removed by `instance_set::run` once the results line is written.
            limits = limits
                .checkpoint(clock.checkpoint())
                .keep_solved_checkpoint(true)
                .observe(&stop_requested);
        }
        let mut result = if dual {
            search::dual_idastar(&relabelled, &h, limits).result
        } else if let Some(both) = &both {
            search::run_with(Algorithm::IdaStar, both, &relabelled, limits)
        } else if let Some(lean) = h.regular_reflected() {
            // Without dual lookups: the heuristic's smaller node, the same search.
            search::run_with(Algorithm::IdaStar, &lean, &relabelled, limits)
        } else {
            search::run_with(Algorithm::IdaStar, &h, &relabelled, limits)
        };
        if let Some(clock) = clock {
            result.elapsed = clock.stop(matches!(result.outcome, npuzzle::Outcome::Solved(_)));
        }
        if let npuzzle::Outcome::Solved(solution) = &result.outcome {
            let moves = solution.moves().to_vec();
            result.outcome = npuzzle::Outcome::Solved(
                npuzzle::Solution::from_moves(instance.start, moves).expect("the same moves"),
            );
        }
        Ok(result)
    };
    let summary = instance_set::run(
        &set,
        only.as_deref(),
        &goal,
        &results,
        checkpoints.as_deref(),
        solve,
        |_, outcome| match outcome {
            Ok(finished) => println!("{}", finished.progress_line()),
            Err(e) => eprintln!("error: {e}"),
        },
    )
    .map_err(|e| e.to_string())?;
    let nodes: u64 = summary.solved.iter().map(|f| f.nodes).sum();
    // A fold from +0.0: `Sum` for floats starts at -0.0, which prints as "-0.0 s" when
    // nothing was solved.
    let seconds = summary
        .solved
        .iter()
        .fold(0.0, |total, f| total + f.seconds);
    eprintln!(
        "{} skipped (finished before), {} solved now ({nodes} nodes, {seconds:.1} s), {} failed{}",
        summary.skipped,
        summary.solved.len(),
        summary.failed.len(),
        if summary.stopped {
            "; stopped by a signal, the checkpoint written"
        } else {
            ""
        }
    );
    Ok(if summary.failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
