use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use slidy::puzzle::small::Puzzle3x3;
use slidy::solver::{solver::Solver as _, Solver3x3Stm};

struct Inst {
    start: String,
    puzzle: Puzzle3x3,
    expected: Option<u64>,
}

fn load() -> Vec<Inst> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/instances.csv");
    let text = std::fs::read_to_string(path).expect("instances.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let si = header.iter().position(|h| *h == "start").unwrap();
    let gi = header.iter().position(|h| *h == "goal").unwrap();
    let di = header.iter().position(|h| *h == "distance");
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(
                f[gi], "123456780",
                "slidy's solved state is 1..8 then blank"
            );
            let mut arr = [0u8; 9];
            for (i, c) in f[si].bytes().enumerate() {
                arr[i] = c - b'0';
            }
            Inst {
                start: f[si].to_string(),
                puzzle: Puzzle3x3::try_from(arr).unwrap(),
                expected: di.and_then(|d| f[d].parse().ok()),
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let insts = load();
    let n = insts.len();

    // --- Sanity check (untimed): every instance, plus the known depth-31 state.
    let mut solver = Solver3x3Stm::default();
    let extra = Puzzle3x3::try_from([8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
    let sol = solver.solve(&extra).unwrap();
    let mut p = extra;
    slidy::puzzle::sliding_puzzle::SlidingPuzzle::apply_alg(&mut p, &sol);
    println!(
        "check 867254301: len_stm={} (expect 31) solved={}",
        sol.len_stm(),
        slidy::puzzle::sliding_puzzle::SlidingPuzzle::is_solved(&p)
    );
    let mut ok = 0;
    let mut bad = 0;
    for (i, inst) in insts.iter().enumerate() {
        let sol = solver.solve(&inst.puzzle).unwrap();
        let mut p = inst.puzzle;
        slidy::puzzle::sliding_puzzle::SlidingPuzzle::apply_alg(&mut p, &sol);
        let len = sol.len_stm();
        let good = slidy::puzzle::sliding_puzzle::SlidingPuzzle::is_solved(&p)
            && inst.expected.map_or(true, |e| e == len);
        if good {
            ok += 1
        } else {
            bad += 1
        }
        if i < 5 || !good {
            println!(
                "check {}: len_stm={} expected={:?} solved={} sol={}",
                inst.start,
                len,
                inst.expected,
                slidy::puzzle::sliding_puzzle::SlidingPuzzle::is_solved(&p),
                sol
            );
        }
    }
    println!("length check: {ok}/{n} match sample's distance, {bad} mismatches");

    // --- (a) build the 3x3 STM solver (full BFS distance table over 181440 states).
    let mut g = c.benchmark_group("slidy_3x3");
    g.sample_size(30).measurement_time(Duration::from_secs(20));
    g.bench_function("build_solver_default", |b| {
        b.iter(|| black_box(Solver3x3Stm::default()))
    });

    // --- (b) all instances per iteration; criterion reports per-iteration time (= n solves).
    let mut solver = Solver3x3Stm::default();
    g.bench_function(format!("solve_all_{n}_instances"), |b| {
        b.iter(|| {
            let mut total = 0u64;
            for inst in &insts {
                total += solver.solve(black_box(&inst.puzzle)).unwrap().len_stm();
            }
            black_box(total)
        })
    });
    g.finish();

    // Plain-timer cross-check, reported per instance.
    let mut per = Vec::new();
    for _ in 0..31 {
        let t = Instant::now();
        for inst in &insts {
            black_box(solver.solve(black_box(&inst.puzzle)).unwrap());
        }
        per.push(t.elapsed().as_secs_f64() / n as f64);
    }
    per.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "manual: median per-instance solve = {:.3} us over {n} instances (31 rounds)",
        per[15] * 1e6
    );
    let mut bt = Vec::new();
    for _ in 0..11 {
        let t = Instant::now();
        black_box(Solver3x3Stm::default());
        bt.push(t.elapsed().as_secs_f64());
    }
    bt.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("manual: median build = {:.3} ms (11 rounds)", bt[5] * 1e3);
}

criterion_group!(benches, bench);
criterion_main!(benches);
