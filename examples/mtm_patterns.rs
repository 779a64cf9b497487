//! Compares MTM estimates on 4x4 (figures for BENCHMARKS.md, "MTM 4x4 optimal"): IDA* over
//! MTM moves with the walking distance alone, or maxed with sets of MTM pattern databases,
//! on the transposed goal (43 MTM moves) and Korf's instances (in MTM, towards Korf's goal).
//!
//! `cargo run --release --example mtm_patterns CONFIG [FIRST] [COUNT] [MAX_NODES]`: CONFIG is
//! `wd`, `555`, `555-flat` (no mirror reads), `663`, `66` or `666`; Korf's instances FIRST..FIRST+COUNT
//! (FIRST 0 is the transposed goal instead, towards the usual goal), each within MAX_NODES
//! expanded nodes (default: no limit).

use std::time::Instant;

use npuzzle::metric::Metric;
use npuzzle::mtm::heuristic::MtmHeuristic;
use npuzzle::mtm::search::ida_star;
use npuzzle::search::Outcome;
use npuzzle::{Board, Limits, State};

fn patterns(config: &str) -> Vec<Vec<usize>> {
    let sets: &[&[usize]] = match config {
        "wd" => &[],
        "555" | "555-flat" => &[&[0, 1, 4, 5, 8], &[2, 3, 6, 7, 11], &[9, 10, 12, 13, 14]],
        "663" => &[&[0, 1, 4, 5, 8, 12], &[2, 3, 6, 7, 10, 11], &[9, 13, 14]],
        "66" => &[&[0, 1, 4, 5, 8, 12], &[2, 3, 6, 7, 10, 11]],
        "666" => &[
            &[0, 1, 4, 5, 8, 12],
            &[2, 3, 6, 7, 10, 11],
            &[8, 9, 10, 12, 13, 14],
        ],
        other => panic!("unknown config {other}"),
    };
    sets.iter().map(|s| s.to_vec()).collect()
}

fn heuristic(config: &str, goal: &State) -> MtmHeuristic {
    let moved: Vec<Vec<usize>> = patterns(config)
        .into_iter()
        .map(|cells| {
            cells
                .into_iter()
                .map(|c| if c == goal.blank() { 15 } else { c })
                .collect()
        })
        .collect();
    let slices: Vec<&[usize]> = moved.iter().map(Vec::as_slice).collect();
    let h = MtmHeuristic::with_patterns(goal, &slices).expect("valid patterns");
    if config.ends_with("-flat") {
        h.unmirrored()
    } else {
        h
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let config = args.get(1).map_or("555", String::as_str);
    let first: usize = args.get(2).map_or(Ok(0), |a| a.parse())?;
    let count: usize = args.get(3).map_or(Ok(1), |a| a.parse())?;
    let max_nodes: Option<u64> = args.get(4).map(|a| a.parse()).transpose()?;
    let limits = match max_nodes {
        Some(max) => Limits::NONE.nodes(max),
        None => Limits::NONE,
    };
    let four = "4x4".parse::<Board>()?;
    let mut cases: Vec<(String, State, State, Option<String>)> = Vec::new();
    if first == 0 {
        let transposed = State::parse("1 5 9 13 / 2 6 10 14 / 3 7 11 15 / 4 8 12 0", None)?;
        cases.push(("transposed".into(), transposed, State::goal(four), None));
    } else {
        let text = std::fs::read_to_string("data/korf100.txt")?;
        let korf_goal = State::canonical_goal(four, 0);
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .skip(first - 1)
            .take(count)
        {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let tiles: Vec<u8> = fields[1..17].iter().map(|t| t.parse().unwrap()).collect();
            let start = State::from_tiles(four, &tiles)?;
            cases.push((
                format!("korf {}", fields[0]),
                start,
                korf_goal,
                Some(fields[17].to_string()),
            ));
        }
    }
    let mut built: Option<(State, MtmHeuristic)> = None;
    let (mut nodes, mut seconds) = (0u64, 0.0f64);
    for (name, start, goal, stm) in cases {
        if built.as_ref().is_none_or(|(g, _)| *g != goal) {
            let t = Instant::now();
            let h = heuristic(config, &goal);
            println!(
                "{config}: {} databases, mirrored {}, built in {:.2} s",
                h.databases().len(),
                h.mirrored(),
                t.elapsed().as_secs_f64()
            );
            built = Some((goal, h));
        }
        let h = &built.as_ref().expect("built above").1;
        let result = ida_star(&start, h, &limits);
        nodes += result.expanded;
        seconds += result.elapsed.as_secs_f64();
        let length = match &result.outcome {
            Outcome::Solved(s) => Metric::Mtm.length(s.moves()).to_string(),
            other => format!("{other:?}"),
        };
        println!(
            "{config} {name}: h0 {} length {length} (STM {}), {} nodes, {:.2} s",
            h.estimate(&start),
            stm.as_deref().unwrap_or("-"),
            result.expanded,
            result.elapsed.as_secs_f64()
        );
    }
    println!("{config} total: {nodes} nodes, {seconds:.2} s");
    Ok(())
}
