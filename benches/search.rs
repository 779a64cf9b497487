//! Search against the exact table, and IDA* on Korf's 15-puzzle instances.
//!
//! `cargo bench --bench search` runs:
//! - `3x3_random/*`: the same 500 seeded random 3x3 states (the table's parity class) answered
//!   by a table `distance`, a table `solve` (the whole path), and A* / IDA* searches. Throughput
//!   is per instance. Before timing, every search answer is checked against the table and the
//!   mean and worst nodes and time of A* with Manhattan per instance are printed.
//! - `korf15/idastar_lc_easiest_10`: IDA* with linear conflict on the ten instances of Korf's
//!   100 that his 1985 IDA* solved with the fewest nodes, each checked against the published
//!   optimal length.
//!
//! All 100 Korf instances take many minutes, so they run only when asked:
//! `NPUZZLE_KORF=all cargo bench --bench search -- korf15` prints, before the criterion runs,
//! one line per instance (length, nodes, time) and the totals, each run once;
//! `NPUZZLE_KORF=30` does the same for the 30 easiest (by Korf's node counts).

#![allow(missing_docs)] // criterion_group! defines an undocumented public function

use std::hint::black_box;
use std::time::{Duration, Instant};

// Korf's 100 come from the tests' loader (the library's instance-set parser), so benches and
// tests read data/korf100.txt one way.
#[path = "../tests/references/mod.rs"]
mod references;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use npuzzle::heuristic::{LinearConflict, Manhattan};
use npuzzle::search::{astar, idastar};
use npuzzle::{Board, BuildOptions, Limits, State, Table};
use references::{easiest, korf100, Published};

const SEED: u64 = 0x5eed_3b3b;
const INSTANCES: usize = 500;

/// SplitMix64, so that the instances are the same on every run.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn random_states(table: &Table<Vec<u8>>, count: usize) -> Vec<State> {
    let mut seed = SEED;
    let class = table.goal().parity_class();
    (0..count)
        .map(|_| {
            let index = (splitmix(&mut seed) % table.space().states() as u64) as u32;
            table.space().unrank(index, class)
        })
        .collect()
}

/// Checks A* and IDA* against the table once, and prints A*'s nodes and time per instance.
fn report_astar(table: &Table<Vec<u8>>, states: &[State], h: &Manhattan) {
    let (mut nodes, mut worst_nodes, mut time, mut worst_time) =
        (0u64, 0u64, Duration::ZERO, Duration::ZERO);
    let mut depth = 0u64;
    for start in states {
        let exact = table.distance(start).unwrap().expect("same class") as usize;
        let began = Instant::now();
        let result = astar(start, h, Limits::default());
        let elapsed = began.elapsed();
        assert_eq!(
            result.solution().expect("solvable").len(),
            exact,
            "A* from {start}"
        );
        let ida = idastar(start, h, Limits::default());
        assert_eq!(
            ida.solution().expect("solvable").len(),
            exact,
            "IDA* from {start}"
        );
        depth += exact as u64;
        nodes += result.expanded;
        worst_nodes = worst_nodes.max(result.expanded);
        time += elapsed;
        worst_time = worst_time.max(elapsed);
    }
    let n = states.len() as u64;
    eprintln!(
        "A* manhattan on {n} random 3x3 instances (mean depth {:.2}): expanded mean {:.0}, worst {worst_nodes}; time mean {:.1} us, worst {:.1} us",
        depth as f64 / n as f64,
        nodes as f64 / n as f64,
        time.as_secs_f64() * 1e6 / n as f64,
        worst_time.as_secs_f64() * 1e6,
    );
}

fn three_by_three(c: &mut Criterion) {
    let goal = State::goal(Board::THREE_BY_THREE);
    let table = Table::build(&goal, BuildOptions::default()).expect("3x3 can be ranked");
    let states = random_states(&table, INSTANCES);
    let manhattan = Manhattan::new(&goal);
    let lc = LinearConflict::new(&goal);
    report_astar(&table, &states, &manhattan);

    let mut group = c.benchmark_group("3x3_random");
    group.throughput(Throughput::Elements(states.len() as u64));
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("table_distance", |b| {
        b.iter(|| {
            for s in &states {
                black_box(table.distance(black_box(s)).unwrap());
            }
        })
    });
    group.bench_function("table_solve", |b| {
        b.iter(|| {
            for s in &states {
                black_box(table.solve(black_box(s)).unwrap());
            }
        })
    });
    group.sample_size(10);
    group.bench_function("astar_manhattan", |b| {
        b.iter(|| {
            for s in &states {
                black_box(astar(black_box(s), &manhattan, Limits::default()));
            }
        })
    });
    group.bench_function("astar_linear_conflict", |b| {
        b.iter(|| {
            for s in &states {
                black_box(astar(black_box(s), &lc, Limits::default()));
            }
        })
    });
    group.bench_function("idastar_manhattan", |b| {
        b.iter(|| {
            for s in &states {
                black_box(idastar(black_box(s), &manhattan, Limits::default()));
            }
        })
    });
    group.finish();
}

/// Every instance once, timed, with totals (only with `NPUZZLE_KORF=all`).
fn korf_all(instances: &[Published], h: &LinearConflict) {
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    for instance in instances {
        let result = idastar(&instance.start, h, Limits::default());
        let length = result.solution().expect("solvable").len();
        assert_eq!(
            u32::try_from(length).ok(),
            Some(instance.optimal),
            "instance {}",
            instance.id
        );
        nodes += result.expanded;
        time += result.elapsed;
        eprintln!(
            "korf {:>3}: {length} moves, {:>11} expanded, {:>9.3} s",
            instance.id,
            result.expanded,
            result.elapsed.as_secs_f64()
        );
    }
    eprintln!(
        "korf all {}: {nodes} expanded, {:.1} s, {:.2} M nodes/s",
        instances.len(),
        time.as_secs_f64(),
        nodes as f64 / time.as_secs_f64() / 1e6
    );
}

fn korf(c: &mut Criterion) {
    let goal = State::canonical_goal(Board::new(4, 4).expect("4x4"), 0);
    let h = LinearConflict::new(&goal);
    let instances = korf100();
    // `all`: the 100 in file order; a number N: the N easiest by Korf's node counts.
    match std::env::var("NPUZZLE_KORF").as_deref() {
        Ok("all") => korf_all(&instances, &h),
        Ok(n) => {
            let n: usize = n.parse().expect("NPUZZLE_KORF is `all` or a number");
            korf_all(&easiest(instances.clone(), n), &h);
        }
        Err(_) => {}
    }
    let instances = easiest(instances, 10);
    let mut expanded = 0;
    for instance in &instances {
        let result = idastar(&instance.start, &h, Limits::default());
        assert_eq!(
            u32::try_from(result.solution().expect("solvable").len()).ok(),
            Some(instance.optimal)
        );
        expanded += result.expanded;
    }
    eprintln!("korf easiest 10: {expanded} nodes expanded per run");
    let mut group = c.benchmark_group("korf15");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(instances.len() as u64));
    group.bench_function("idastar_lc_easiest_10", |b| {
        b.iter(|| {
            for instance in &instances {
                black_box(idastar(black_box(&instance.start), &h, Limits::default()));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, three_by_three, korf);
criterion_main!(benches);
