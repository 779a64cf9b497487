//! Opening a table: what a process pays before its first answer. A 12-cell table (240 MB)
//! opens on its header alone and checks a 1 MiB block when a query first reads it; the
//! baseline, in the same run, is checking the whole body at open (what format 1 did).
//!
//! Run: `NPUZZLE_BENCH_12=1 cargo bench --bench open` (the 4x3 table is built once, seconds);
//! without the variable only the 3x3 table is measured.

// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use npuzzle::table::file;
use npuzzle::{Board, BuildOptions, State, Table};

fn open(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut boards = vec![Board::THREE_BY_THREE];
    if std::env::var_os("NPUZZLE_BENCH_12").is_some() {
        boards.push(Board::new(4, 3).expect("4x3 is a board"));
    }
    let mut group = c.benchmark_group("open");
    group.sample_size(20);
    for board in boards {
        let goal = State::goal(board);
        let path = dir.path().join(npuzzle::store::file::file_name(&goal));
        let table = Table::build(&goal, BuildOptions::default()).expect("tables rank");
        npuzzle::store::file::write_atomic(&path, table.as_bytes()).expect("the table is written");
        drop(table);
        let start = npuzzle::RankSpace::new(board)
            .unwrap()
            .unrank(12345, goal.parity_class());
        group.bench_function(format!("{board}_open_and_first_distance"), |b| {
            b.iter(|| {
                let table = file::open(black_box(&path)).expect("valid");
                table.distance(black_box(&start)).expect("undamaged")
            })
        });
        group.bench_function(format!("{board}_baseline_open_and_check_whole_body"), |b| {
            b.iter(|| {
                let table = file::open(black_box(&path)).expect("valid");
                table.verify_body().expect("undamaged");
                table.distance(black_box(&start)).expect("undamaged")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, open);
criterion_main!(benches);
