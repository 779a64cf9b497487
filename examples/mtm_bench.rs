//! Times the multi-tile metric against the single-tile one in one run (figures for
//! BENCHMARKS.md): the 3x3 table builds, reads of every 3x3 state through the answer layer,
//! and MTM IDA* on 4x4: the transposed goal (43 MTM moves) and Korf's 100 (in MTM, towards
//! Korf's goal, blank top-left).
//!
//! `cargo run --release --example mtm_bench [KORF_COUNT] [SECONDS_PER_INSTANCE]`: the first
//! KORF_COUNT of Korf's instances (default 0: none), each (and the transposed goal) within the time limit (default 60).

use std::time::{Duration, Instant};

use npuzzle::generate::BuildOptions;
use npuzzle::metric::Metric;
use npuzzle::mtm::MtmTable;
use npuzzle::{Board, How, Limits, Oracle, RankSpace, State, Table};

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let korf_count: usize = args.get(1).map_or(Ok(0), |a| a.parse())?;
    let per_instance = Duration::from_secs(args.get(2).map_or(Ok(60), |a| a.parse())?);

    // 1. 3x3 table builds, alternated so that load changes hit both alike: on rayon's
    // pool (all cores) and on one thread; the minimum shows the code, the median the load.
    let goal = State::goal(Board::THREE_BY_THREE);
    for (threads, label) in [(None, "all cores"), (Some(1), "1 thread")] {
        let options = BuildOptions { threads };
        let (mut stm, mut mtm) = (Vec::new(), Vec::new());
        for _ in 0..31 {
            let t = Instant::now();
            let table = Table::build(&goal, options)?;
            stm.push(t.elapsed());
            drop(table);
            let t = Instant::now();
            let table = MtmTable::build(&goal, options)?;
            mtm.push(t.elapsed());
            drop(table);
        }
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let (stm_min, mtm_min) = (*stm.iter().min().unwrap(), *mtm.iter().min().unwrap());
        let (stm, mtm) = (median(stm), median(mtm));
        println!(
            "3x3 build, {label} (31 each): median STM {:.2} ms, MTM {:.2} ms, ratio {:.2}; min STM {:.2} ms, MTM {:.2} ms, ratio {:.2}",
            ms(stm),
            ms(mtm),
            ms(mtm) / ms(stm),
            ms(stm_min),
            ms(mtm_min),
            ms(mtm_min) / ms(stm_min)
        );
    }
    if std::env::var_os("MTM_BENCH_BUILD_ONLY").is_some() {
        return Ok(());
    }

    // 2. The distance of every 3x3 state through the answer layer, tables open.
    let oracle = Oracle::in_memory();
    let space = RankSpace::new(goal.board())?;
    let states: Vec<State> = (0..space.states())
        .map(|i| space.unrank(i, goal.parity_class()))
        .collect();
    for metric in Metric::ALL {
        let how = How::default().in_metric(metric);
        oracle.distance(&goal, &goal, how)?; // opens (builds) the table
    }
    let mut per_metric = Vec::new();
    for round in 0..3 {
        for metric in Metric::ALL {
            let how = How::default().in_metric(metric);
            let t = Instant::now();
            let mut sum = 0u64;
            for s in &states {
                sum += u64::from(oracle.distance(s, &goal, how)?.value.unwrap_or(0));
            }
            let took = t.elapsed();
            if round == 2 {
                println!(
                    "3x3 distance of all {} states, {metric}: {:.1} ns a state (sum {sum})",
                    states.len(),
                    took.as_secs_f64() * 1e9 / states.len() as f64
                );
            }
            per_metric.push(took);
        }
    }

    // 3. 4x4 MTM: the transposed goal, then Korf's instances.
    let search = Oracle::search_only();
    let four = "4x4".parse::<Board>()?;
    let transposed = State::parse("1 5 9 13 / 2 6 10 14 / 3 7 11 15 / 4 8 12 0", None)?;
    let how = How::within(Limits::NONE.time(per_instance)).in_metric(Metric::Mtm);
    let t = Instant::now();
    let answer = search.solve(&transposed, &State::goal(four), how)?;
    let length = answer
        .value
        .as_ref()
        .map(|s| Metric::Mtm.length(s.moves()))
        .ok();
    println!(
        "4x4 transposed goal: {length:?} MTM moves, {} nodes expanded, {:.2} s",
        answer.expanded,
        t.elapsed().as_secs_f64()
    );
    if korf_count > 0 {
        let text = std::fs::read_to_string("data/korf100.txt")?;
        let korf_goal = State::canonical_goal(four, 0);
        let how = How::within(Limits::NONE.time(per_instance)).in_metric(Metric::Mtm);
        let (mut solved, mut nodes, mut total) = (0, 0u64, Duration::ZERO);
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .take(korf_count)
        {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let tiles: Vec<u8> = fields[1..17].iter().map(|t| t.parse().unwrap()).collect();
            let start = State::from_tiles(four, &tiles)?;
            let t = Instant::now();
            let answer = search.solve(&start, &korf_goal, how)?;
            let took = t.elapsed();
            total += took;
            nodes += answer.expanded;
            match &answer.value {
                Ok(s) => {
                    solved += 1;
                    println!(
                        "korf {}: {} MTM moves ({} STM optimal), {} nodes, {:.2} s",
                        fields[0],
                        Metric::Mtm.length(s.moves()),
                        fields[17],
                        answer.expanded,
                        took.as_secs_f64()
                    );
                }
                Err(why) => println!(
                    "korf {}: no answer ({why:?}) after {} nodes",
                    fields[0], answer.expanded
                ),
            }
        }
        println!(
            "Korf's first {korf_count} in MTM: {solved} solved within {} s each; {nodes} nodes expanded, {:.1} s in all",
            per_instance.as_secs(),
            total.as_secs_f64()
        );
    }
    Ok(())
}
