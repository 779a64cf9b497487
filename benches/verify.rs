//! `npuzzle verify` throughput: the library's `judge` alone, and the real binary checking a
//! file of a million answers (CSV and JSON lines), against `cat` reading the same file.
//!
//! Run: `cargo bench --bench verify`. Inputs are made before timing from a seeded sample:
//! 90% optimal move strings, 5% suboptimal (a move and its inverse appended), 5% unsolvable
//! pairs rightly claimed unsolvable. The binary's verdict counts are checked once before timing.
//! `NPUZZLE_BENCH_KEEP=DIR` keeps the generated inputs in DIR (to profile the binary by hand).
// criterion_group! generates an undocumented function.
#![allow(missing_docs)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

use npuzzle::moves_to_string;
use npuzzle::sample::{sample, SampleOptions};
use npuzzle::verify::{judge, Claim};
use npuzzle::{Board, BuildOptions, Move, State, Table};

const LINES: u64 = 1_000_000;

struct Answer {
    start: State,
    goal: State,
    exact: Option<u8>,
    claim: Claim,
}

fn answers(table: &Table<Vec<u8>>, goal: &State, count: u64) -> Vec<Answer> {
    let options = SampleOptions {
        count,
        depths: 0..=u8::MAX,
        unsolvable: count / 20,
    };
    sample(table, goal, &options, 1)
        .expect("the default goal has a table")
        .enumerate()
        .map(|(i, instance)| {
            let claim = match table.solve_moves(&instance.start).unwrap() {
                None => Claim::unsolvable(),
                Some(mut moves) => {
                    if i % 20 == 3 {
                        let end = moves
                            .iter()
                            .fold(instance.start, |s, &m| s.apply(m).expect("legal"));
                        let detour = Move::ALL
                            .into_iter()
                            .find(|&m| end.apply(m).is_some())
                            .expect("a blank can always move");
                        moves.extend([detour, detour.inverse()]);
                    }
                    Claim::moves(moves)
                }
            };
            Answer {
                start: instance.start,
                goal: instance.goal,
                exact: instance.distance,
                claim,
            }
        })
        .collect()
}

fn write_inputs(answers: &[Answer], dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let csv_path = dir.join("answers.csv");
    let jsonl_path = dir.join("answers.jsonl");
    let mut csv = std::io::BufWriter::new(std::fs::File::create(&csv_path).unwrap());
    let mut jsonl = std::io::BufWriter::new(std::fs::File::create(&jsonl_path).unwrap());
    writeln!(csv, "start,goal,moves,unsolvable").unwrap();
    for answer in answers {
        match &answer.claim.moves {
            Some(moves) => {
                let moves = moves_to_string(moves);
                let moves = if moves.is_empty() {
                    "-".to_string()
                } else {
                    moves
                };
                writeln!(csv, "{},{},{},", answer.start, answer.goal, moves).unwrap();
                writeln!(
                    jsonl,
                    r#"{{"start":"{}","goal":"{}","moves":"{}"}}"#,
                    answer.start, answer.goal, moves
                )
                .unwrap();
            }
            None => {
                writeln!(csv, "{},{},,true", answer.start, answer.goal).unwrap();
                writeln!(
                    jsonl,
                    r#"{{"start":"{}","goal":"{}","unsolvable":true}}"#,
                    answer.start, answer.goal
                )
                .unwrap();
            }
        }
    }
    csv.flush().unwrap();
    jsonl.flush().unwrap();
    (csv_path, jsonl_path)
}

fn run_verify(file: &Path, data_dir: &Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .arg("verify")
        .arg(file)
        .arg("--data-dir")
        .arg(data_dir)
        .arg("--allow-suboptimal")
        .stderr(Stdio::null())
        .output()
        .expect("run npuzzle verify");
    assert!(output.status.success(), "verify failed: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

fn bench(c: &mut Criterion) {
    let goal = State::goal(Board::THREE_BY_THREE);
    let table = Table::build(&goal, BuildOptions::default()).unwrap();
    let answers = answers(&table, &goal, LINES);
    let dir = tempfile::tempdir().unwrap();
    // NPUZZLE_BENCH_KEEP=DIR keeps the inputs there, for profiling the binary by hand.
    let inputs =
        std::env::var_os("NPUZZLE_BENCH_KEEP").map_or(dir.path().to_path_buf(), Into::into);
    let (csv_path, jsonl_path) = write_inputs(&answers, &inputs);

    // Check the answers once: the binary must agree with the counts we built in.
    let suboptimal = answers
        .iter()
        .enumerate()
        .filter(|(i, a)| a.exact.is_some() && i % 20 == 3)
        .count();
    for path in [&csv_path, &jsonl_path] {
        let summary = run_verify(path, dir.path());
        let line = summary
            .lines()
            .find(|l| l.trim_start().starts_with("suboptimal"))
            .expect("a suboptimal row");
        assert!(
            line.contains(&format!(" {} ", group(suboptimal))),
            "{summary}"
        );
    }

    let mut group_judge = c.benchmark_group("verify_judge");
    group_judge.throughput(Throughput::Elements(answers.len() as u64));
    group_judge.sample_size(10);
    group_judge.bench_function("judge", |b| {
        b.iter(|| {
            for answer in &answers {
                black_box(judge(
                    &answer.start,
                    &answer.goal,
                    answer.exact,
                    &answer.claim,
                ));
            }
        })
    });
    group_judge.finish();

    let mut group_cli = c.benchmark_group("verify_cli");
    group_cli.throughput(Throughput::Elements(LINES));
    group_cli.sample_size(10);
    group_cli.bench_function("cat_csv_baseline", |b| {
        b.iter(|| {
            let status = Command::new("cat")
                .arg(&csv_path)
                .stdout(Stdio::null())
                .status()
                .unwrap();
            assert!(status.success());
        })
    });
    group_cli.bench_function("csv", |b| {
        b.iter(|| black_box(run_verify(&csv_path, dir.path())))
    });
    group_cli.bench_function("jsonl", |b| {
        b.iter(|| black_box(run_verify(&jsonl_path, dir.path())))
    });
    group_cli.finish();
}

/// As the report prints counts.
fn group(value: usize) -> String {
    npuzzle::digits::grouped(&value.to_string())
}

criterion_group!(benches, bench);
criterion_main!(benches);
