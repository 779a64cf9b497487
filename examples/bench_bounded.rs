//! Bounded-suboptimal search on Korf and Felner's fifty 24-puzzles (BENCHMARKS.md, "Fast
//! solutions"): the answer layer's bounded search (`npuzzle::search::bounded_idastar`) on the
//! 6-6-6-6 pattern databases of `--data-dir` (Korf's goal, blank first, the regular and
//! reflected lookups the answer layer uses), for each factor, with a limit of CPU time per
//! instance; with `--baseline`, weighted IDA* (`weighted_idastar`, what answered before) on
//! the same instances right after it, in the same process. Prints each instance's length
//! against the published optimum, the lower bound proved, the CPU and wall time, then a
//! summary per search and factor. Every path is replayed to the goal, and checked against
//! factor x optimum and against factor x the lower bound proved, which must not exceed the
//! optimum.
//!
//! ```text
//! cargo run --release --example bench_bounded -- --data-dir DIR --limit-s 3 [--baseline] 1.1 1.2 1.5
//! cargo run --release --example bench_bounded -- --data-dir DIR --random 50 1.2   # uniform random 5x5s
//! ```
//!
//! `--random N` takes N uniform random solvable 5x5 boards (seed 2026, or `--seed S`) instead of the fifty;
//! they have no published optimum, so only the factor against the lower bound is checked.
//! The limit is CPU time (the thread's, `/proc/thread-self/schedstat`, read by the search's
//! observer every few thousand expansions), so that a loaded machine changes the wall times
//! but not which instances finish; without that file it is wall time. `--threads N` (N > 1)
//! runs the bounded search on two threads (`Limits::threads`: one proving the bound, one
//! looking for paths); its limit and its times are then wall-clock (on a quiet machine the
//! figure a user waits for), printed in the CPU columns.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use npuzzle::answer::{DataDir, Oracle};
use npuzzle::heuristic::PatternHeuristic;
use npuzzle::instance_set::parse_instances;
use npuzzle::sample::{sample_uniform, SampleOptions};
use npuzzle::search::{bounded_idastar, weighted_idastar, Progress};
use npuzzle::{Board, Factor, Limits, State};

/// The CPU time of the calling thread so far, in nanoseconds: the first field of
/// `/proc/thread-self/schedstat`; `None` where there is none.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// The thread CPU time at which the running search must stop (nanoseconds).
static CPU_DEADLINE_NS: AtomicU64 = AtomicU64::new(u64::MAX);

fn watch(_: &Progress) -> ControlFlow<()> {
    match thread_cpu_ns() {
        Some(now) if now >= CPU_DEADLINE_NS.load(Ordering::Relaxed) => ControlFlow::Break(()),
        _ => ControlFlow::Continue(()),
    }
}

/// One instance: its name, start and published optimum (if any).
struct Instance {
    name: String,
    start: State,
    optimum: Option<usize>,
}

/// What one search made of one instance.
struct Run {
    length: Option<usize>,
    lower: Option<u32>,
    cpu_s: f64,
    wall_s: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (mut dir, mut limit, mut factors, mut baseline, mut random, mut threads) =
        (None, 10.0f64, Vec::new(), false, None, 1usize);
    let mut seed = 2026u64;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--data-dir" => dir = Some(args.next().ok_or("--data-dir DIR")?),
            "--limit-s" => limit = args.next().ok_or("--limit-s S")?.parse()?,
            "--baseline" => baseline = true,
            "--random" => random = Some(args.next().ok_or("--random N")?.parse::<u64>()?),
            "--threads" => threads = args.next().ok_or("--threads N")?.parse()?,
            "--seed" => seed = args.next().ok_or("--seed N")?.parse()?,
            factor => factors.push(factor.parse::<Factor>()?),
        }
    }
    let board = Board::new(5, 5)?;
    let goal = State::canonical_goal(board, 0);
    let instances: Vec<Instance> = match random {
        Some(count) => {
            let options = SampleOptions {
                count,
                ..SampleOptions::default()
            };
            sample_uniform(&goal, &options, seed)?
                .enumerate()
                .map(|(i, drawn)| Instance {
                    name: format!("random {}", i + 1),
                    start: drawn.start,
                    optimum: None,
                })
                .collect()
        }
        None => {
            let text = std::fs::read_to_string("data/korf50_24.txt")?;
            parse_instances(&text, board)?
                .into_iter()
                .map(|i| Instance {
                    name: format!("#{}", i.id),
                    start: i.start,
                    optimum: i.published.map(|p| p as usize),
                })
                .collect()
        }
    };
    let oracle = Oracle::new(DataDir::new(dir.ok_or("--data-dir DIR")?));
    let found = oracle
        .pattern_databases(&goal)?
        .ok_or("no pattern databases for Korf's 5x5 goal in --data-dir")?;
    let (h, which) = &*found;
    let clock = if threads > 1 { "wall" } else { "CPU" };
    println!(
        "databases: {which}; limit {limit} s of {clock} time per instance, {threads} thread(s)"
    );
    let searches: &[&str] = if baseline {
        &["bounded", "weighted"]
    } else {
        &["bounded"]
    };
    for &factor in &factors {
        for &search in searches {
            let runs: Vec<Run> = instances
                .iter()
                .map(|instance| run(search, instance, h, &goal, factor, limit, threads))
                .collect();
            summarize(search, factor, limit, &instances, &runs);
        }
    }
    Ok(())
}

/// Runs `search` on `instance`, checks its answer, prints a line.
fn run(
    search: &str,
    instance: &Instance,
    h: &PatternHeuristic,
    goal: &State,
    factor: Factor,
    limit: f64,
    threads: usize,
) -> Run {
    // On several threads one thread's CPU time says nothing: wall time instead.
    let cpu_began = thread_cpu_ns().filter(|_| threads <= 1);
    if let Some(began) = cpu_began {
        CPU_DEADLINE_NS.store(began + (limit * 1e9) as u64, Ordering::Relaxed);
    }
    let limits = if cpu_began.is_some() {
        Limits::NONE.observe(&watch)
    } else {
        Limits::NONE.time(Duration::from_secs_f64(limit))
    }
    .threads(threads);
    let began = Instant::now();
    let (result, lower) = match search {
        "bounded" => {
            let found = bounded_idastar(&instance.start, h, factor, limits);
            (found.result, Some(found.lower_bound))
        }
        _ => (weighted_idastar(&instance.start, h, factor, limits), None),
    };
    let wall_s = began.elapsed().as_secs_f64();
    let cpu_s = match (cpu_began, thread_cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 / 1e9,
        _ => wall_s,
    };
    let length = result.solution().map(|solution| {
        assert_eq!(
            solution.end(),
            *goal,
            "{}: the path does not replay",
            instance.name
        );
        solution.len()
    });
    if let Some(length) = length {
        if let Some(optimum) = instance.optimum {
            assert!(factor.allows(length, optimum), "{}", instance.name);
            assert!(
                lower.is_none_or(|l| l as usize <= optimum),
                "{}",
                instance.name
            );
        }
        if let Some(lower) = lower {
            assert!(factor.allows(length, lower as usize), "{}", instance.name);
        }
    }
    let optimum = instance.optimum.map_or("-".into(), |o| o.to_string());
    let lower_text = lower.map_or("-".into(), |l| l.to_string());
    match length {
        Some(length) => println!(
            "{search} w {factor} {}: {length} moves (optimum {optimum}, lower bound {lower_text}), {:.1} ms CPU, {:.1} ms wall, {} nodes",
            instance.name,
            cpu_s * 1e3,
            wall_s * 1e3,
            result.generated
        ),
        None => println!(
            "{search} w {factor} {}: no answer within {limit} s (lower bound {lower_text}), {:.1} ms CPU",
            instance.name,
            cpu_s * 1e3
        ),
    }
    Run {
        length,
        lower,
        cpu_s,
        wall_s,
    }
}

/// One summary line: how many finished, their total and median times, and the lengths
/// against the optimum (or, without one, against the lower bound proved).
fn summarize(search: &str, factor: Factor, limit: f64, instances: &[Instance], runs: &[Run]) {
    let done: Vec<(&Instance, &Run)> = instances
        .iter()
        .zip(runs)
        .filter(|(_, r)| r.length.is_some())
        .collect();
    // Unfinished instances count as over the limit, so the median is of all of them.
    let mut cpu: Vec<f64> = runs
        .iter()
        .map(|r| {
            if r.length.is_some() {
                r.cpu_s
            } else {
                f64::INFINITY
            }
        })
        .collect();
    cpu.sort_by(f64::total_cmp);
    let median = cpu[cpu.len() / 2];
    let (total_cpu, total_wall): (f64, f64) = done
        .iter()
        .fold((0.0, 0.0), |(c, w), (_, r)| (c + r.cpu_s, w + r.wall_s));
    let ratios: Vec<f64> = done
        .iter()
        .filter_map(|(i, r)| {
            let reference = i.optimum.or(r.lower.map(|l| l as usize))?;
            Some(r.length? as f64 / reference as f64)
        })
        .collect();
    let against = if instances.iter().all(|i| i.optimum.is_some()) {
        "optimum"
    } else {
        "lower bound"
    };
    let mean = ratios.iter().sum::<f64>() / ratios.len().max(1) as f64;
    let worst = ratios.iter().copied().fold(0.0, f64::max);
    println!(
        "SUMMARY {search} w {factor}: {}/{} within {limit} s CPU; total {total_cpu:.2} s CPU ({total_wall:.2} s wall); median {} ms CPU (all, unfinished as over the limit); length / {against} mean {mean:.3} worst {worst:.3}",
        done.len(),
        runs.len(),
        if median.is_finite() { format!("{:.1}", median * 1e3) } else { "-".into() },
    );
}
