//! slidy 0.7 and npuzzle in one process, on the same instances (issue 28's peer figures).
//!
//! `side-by-side small [ROUNDS] [COUNT]`: for the boards slidy has small optimal solvers for
//! (3x3, 2x3, 3x2, 2x4, 4x2) and both metrics, the table build (slidy's `Solver*::default()`,
//! a breadth-first search into its byte table, against npuzzle's `Table::build` /
//! `MtmTable::build` on one thread and on all cores), alternated ROUNDS times (default 31);
//! then COUNT uniform random solvable states (seed 2026, `npuzzle::large::scramble_uniform`),
//! solved optimally by both (slidy's `solve`, npuzzle's `Table::solve` / `MtmTable::solve_to`),
//! every length compared and every slidy solution replayed; the passes over all instances
//! alternated ROUNDS times.
//!
//! `side-by-side more [ROUNDS] [COUNT] [BOARD]`: the same for the other boards slidy has table
//! solvers for, 2x2, 2x5, 5x2, 3x4, 4x3, 2x6, 6x2 (both orientations; default 3 rounds),
//! or BOARD alone. In both, a length that differs or a slidy solution that does not solve
//! stops the run (an assertion).
//!
//! `side-by-side constructive PDB_DIR [COUNT] [OPTIMAL_COUNT] [LIMIT_S]`: 4x4: COUNT uniform
//! random boards (seed 2026, the boards of `examples/bench_constructive.rs`) solved by
//! npuzzle's constructive solver; the first OPTIMAL_COUNT of them also by slidy's optimal
//! 4x4 solver (`Solver4x4Stm`) and by npuzzle's IDA* on the 6-6-3 databases of the goal
//! `1 2 .. 15 _` found in PDB_DIR; then 5x5, 10x10 and 32x32: the constructive solver on
//! COUNT boards against slidy's any-size solver (`GenericSolver`, IDA* with Manhattan
//! distance) on the first board, given LIMIT_S seconds (default 60).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use npuzzle::answer::{DataDir, Oracle};
use npuzzle::large::{scramble_uniform, solve_constructive, LargeBoard, LargeState};
use npuzzle::metric::Metric;
use npuzzle::mtm::MtmTable;
use npuzzle::rng::SplitMix64;
use npuzzle::{Board, BuildOptions, How, Limits, Solution, State, Table};

use slidy::algorithm::algorithm::Algorithm;
use slidy::algorithm::metric::Stm;
use slidy::puzzle::label::label::RowGrids;
use slidy::puzzle::puzzle::Puzzle;
use slidy::puzzle::size::Size;
use slidy::puzzle::sliding_puzzle::SlidingPuzzle;
use slidy::puzzle::small::Puzzle as SmallPuzzle;
use slidy::solver::config::SolverConfig;
use slidy::solver::generic_solver::GenericSolver;
use slidy::solver::heuristic::manhattan::ManhattanDistance;
use slidy::solver::solver::Solver as _;
use slidy::solver::{
    Solver2x2Mtm, Solver2x2Stm, Solver3x2Mtm, Solver3x2Stm, Solver3x3Mtm, Solver3x3Stm,
    Solver4x2Mtm, Solver4x2Stm, Solver4x3Mtm, Solver4x3Stm, Solver4x4Stm, Solver5x2Mtm,
    Solver5x2Stm, Solver6x2Mtm, Solver6x2Stm,
};

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).map(String::as_str);
    match arg(0) {
        Some("small") => {
            let rounds = arg(1).map_or(Ok(31), str::parse)?;
            let count = arg(2).map_or(Ok(1000), str::parse)?;
            small(rounds, count)
        }
        Some("more") => {
            let rounds = arg(1).map_or(Ok(3), str::parse)?;
            let count = arg(2).map_or(Ok(1000), str::parse)?;
            let only = arg(3);
            more(rounds, count, only)
        }
        Some("constructive") => {
            let dir = arg(1).ok_or("constructive PDB_DIR [COUNT] [OPTIMAL_COUNT] [LIMIT_S]")?;
            let count = arg(2).map_or(Ok(1000), str::parse)?;
            let optimal = arg(3).map_or(Ok(100), str::parse)?;
            let limit = arg(4).map_or(Ok(60), str::parse)?;
            constructive(dir, count, optimal, Duration::from_secs(limit))
        }
        _ => Err("usage: side-by-side small [ROUNDS] [COUNT] | more [ROUNDS] [COUNT] [BOARD] | constructive PDB_DIR [COUNT] [OPTIMAL_COUNT] [LIMIT_S]".into()),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Minimum and median.
fn spread(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    (times[0], times[times.len() / 2])
}

/// `count` uniform random solvable states of `board` (seed 2026).
fn instances(board: Board, count: usize) -> Vec<State> {
    let goal = LargeState::goal(LargeBoard::from(board));
    let mut rng = SplitMix64::new(2026);
    (0..count)
        .map(|_| {
            scramble_uniform(&goal, &mut rng)
                .to_small()
                .expect("a small board")
        })
        .collect()
}

/// slidy's fixed-size puzzle of `state` (slidy's gap is piece 0, as npuzzle's blank).
fn small_puzzle<const W: usize, const H: usize, const N: usize>(state: &State) -> SmallPuzzle<W, H>
where
    SmallPuzzle<W, H>: TryFrom<[u8; N]>,
{
    let cells: [u8; N] = state.cells().try_into().expect("N cells");
    SmallPuzzle::<W, H>::try_from(cells)
        .ok()
        .expect("a valid puzzle")
}

/// Whether `solution` takes `puzzle` to slidy's solved state.
fn solves<P: SlidingPuzzle + Clone>(puzzle: &P, solution: &Algorithm) -> bool {
    let mut p = puzzle.clone();
    p.apply_alg(solution);
    p.is_solved()
}

/// A table npuzzle built, of either metric.
enum Built {
    Stm(Table<Vec<u8>>),
    Mtm(MtmTable),
}

/// One board and metric: builds, then solves, both alternated; panics where a length
/// differs or a slidy solution does not solve.
fn compare<S, P>(
    board: Board,
    metric: Metric,
    rounds: usize,
    count: usize,
    build_slidy: impl Fn() -> S,
    to_slidy: impl Fn(&State) -> P,
) -> Result<(), Error>
where
    S: slidy::solver::solver::Solver<P>,
    S::Context: Default,
    P: SlidingPuzzle + Clone,
{
    let goal = State::goal(board);
    let build_npuzzle = |threads: Option<usize>| -> Result<Built, Error> {
        let options = BuildOptions { threads };
        Ok(match metric {
            Metric::Stm => Built::Stm(std::hint::black_box(Table::build(&goal, options)?)),
            Metric::Mtm => Built::Mtm(std::hint::black_box(MtmTable::build(&goal, options)?)),
        })
    };
    let (mut slidy_t, mut one_t, mut all_t) = (Vec::new(), Vec::new(), Vec::new());
    // The last round's tables answer the solves (a 12-cell table takes seconds to minutes).
    let (mut solver, mut table) = (None, None);
    for _ in 0..rounds {
        // The last round's go before the next round builds its own.
        drop(solver.take());
        drop(table.take());
        let t = Instant::now();
        let built = std::hint::black_box(build_slidy());
        slidy_t.push(t.elapsed());
        solver = Some(built);
        let t = Instant::now();
        drop(build_npuzzle(Some(1))?);
        one_t.push(t.elapsed());
        let t = Instant::now();
        let built = build_npuzzle(None)?;
        all_t.push(t.elapsed());
        table = Some(built);
    }
    let ((s_min, s_med), (o_min, o_med), (a_min, a_med)) =
        (spread(slidy_t), spread(one_t), spread(all_t));
    println!(
        "{board} {metric} build ({rounds} each, min / median): slidy {:.3} / {:.3} ms; npuzzle 1 thread {:.3} / {:.3} ms, all cores {:.3} / {:.3} ms; slidy / npuzzle (min, 1 thread) {:.2}x",
        ms(s_min), ms(s_med), ms(o_min), ms(o_med), ms(a_min), ms(a_med),
        ms(s_min) / ms(o_min)
    );

    // Solves: the same states, lengths compared, slidy's solutions replayed.
    let states = instances(board, count);
    let puzzles: Vec<P> = states.iter().map(&to_slidy).collect();
    let mut solver = solver.ok_or("no round")?;
    let table = table.ok_or("no round")?;
    let solve_npuzzle = |state: &State| -> Result<Solution, Error> {
        Ok(match &table {
            Built::Stm(t) => t.solve(state)?.ok_or("unsolvable")?,
            Built::Mtm(t) => t.solve_to(state, &goal)?.ok_or("unsolvable")?,
        })
    };
    let npuzzle_length = |state: &State| -> Result<u64, Error> {
        let solution = solve_npuzzle(state)?;
        Ok(metric.length(solution.moves()) as u64)
    };
    let (mut same, mut differ, mut unsolved) = (0, 0, 0);
    for (state, puzzle) in states.iter().zip(&puzzles) {
        let solution = solver.solve(puzzle).map_err(|e| format!("slidy: {e}"))?;
        let theirs = match metric {
            Metric::Stm => solution.len_stm(),
            Metric::Mtm => solution.len_mtm(),
        };
        if !solves(puzzle, &solution) {
            unsolved += 1;
        }
        if theirs == npuzzle_length(state)? {
            same += 1;
        } else {
            differ += 1;
            println!(
                "  differ: {state}: slidy {theirs}, npuzzle {}",
                npuzzle_length(state)?
            );
        }
    }
    // Both solvers are optimal: a length that differs is a bug in one of them.
    assert_eq!(differ, 0, "{board} {metric}: lengths differ on {differ} states");
    assert_eq!(unsolved, 0, "{board} {metric}: slidy solutions that do not solve");
    let (mut slidy_t, mut npuzzle_t) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t = Instant::now();
        for puzzle in &puzzles {
            std::hint::black_box(solver.solve(std::hint::black_box(puzzle)).ok());
        }
        slidy_t.push(t.elapsed());
        let t = Instant::now();
        for state in &states {
            std::hint::black_box(solve_npuzzle(std::hint::black_box(state))?);
        }
        npuzzle_t.push(t.elapsed());
    }
    let ((s_min, s_med), (n_min, n_med)) = (spread(slidy_t), spread(npuzzle_t));
    let us = |d: Duration| d.as_secs_f64() * 1e6 / count as f64;
    println!(
        "{board} {metric} solve, {count} uniform states: lengths equal on {same}, differ on {differ}; slidy's solutions that do not solve: {unsolved}; per state (min / median of {rounds} passes): slidy {:.3} / {:.3} us, npuzzle {:.3} / {:.3} us; slidy / npuzzle (min) {:.2}x",
        us(s_min), us(s_med), us(n_min), us(n_med), us(s_min) / us(n_min)
    );
    Ok(())
}

fn small(rounds: usize, count: usize) -> Result<(), Error> {
    let b = |text: &str| text.parse::<Board>();
    // Each board with the puzzle type of its own shape; slidy's WxH solvers also take HxW
    // puzzles, by transposing.
    compare(
        b("3x3")?,
        Metric::Mtm,
        rounds,
        count,
        Solver3x3Mtm::default,
        small_puzzle::<3, 3, 9>,
    )?;
    compare(
        b("3x3")?,
        Metric::Stm,
        rounds,
        count,
        Solver3x3Stm::default,
        small_puzzle::<3, 3, 9>,
    )?;
    for metric in [Metric::Mtm, Metric::Stm] {
        for (board, wide) in [("3x2", true), ("2x3", false)] {
            match (metric, wide) {
                (Metric::Mtm, true) => compare(
                    b(board)?,
                    metric,
                    rounds,
                    count,
                    Solver3x2Mtm::default,
                    small_puzzle::<3, 2, 6>,
                )?,
                (Metric::Mtm, false) => compare(
                    b(board)?,
                    metric,
                    rounds,
                    count,
                    Solver3x2Mtm::default,
                    small_puzzle::<2, 3, 6>,
                )?,
                (Metric::Stm, true) => compare(
                    b(board)?,
                    metric,
                    rounds,
                    count,
                    Solver3x2Stm::default,
                    small_puzzle::<3, 2, 6>,
                )?,
                (Metric::Stm, false) => compare(
                    b(board)?,
                    metric,
                    rounds,
                    count,
                    Solver3x2Stm::default,
                    small_puzzle::<2, 3, 6>,
                )?,
            }
        }
        for (board, wide) in [("4x2", true), ("2x4", false)] {
            match (metric, wide) {
                (Metric::Mtm, true) => compare(
                    b(board)?,
                    metric,
                    rounds,
                    count,
                    Solver4x2Mtm::default,
                    small_puzzle::<4, 2, 8>,
                )?,
                (Metric::Mtm, false) => compare(
                    b(board)?,
                    metric,
                    rounds,
                    count,
                    Solver4x2Mtm::default,
                    small_puzzle::<2, 4, 8>,
                )?,
                (Metric::Stm, true) => compare(
                    b(board)?,
                    metric,
                    rounds,
                    count,
                    Solver4x2Stm::default,
                    small_puzzle::<4, 2, 8>,
                )?,
                (Metric::Stm, false) => compare(
                    b(board)?,
                    metric,
                    rounds,
                    count,
                    Solver4x2Stm::default,
                    small_puzzle::<2, 4, 8>,
                )?,
            }
        }
    }
    Ok(())
}

/// The other boards slidy has table solvers for, both metrics: 2x2, then 2x5, 5x2 (10
/// cells), 3x4, 4x3, 2x6, 6x2 (12 cells: each build takes seconds for npuzzle and about a
/// minute or more for slidy, so ROUNDS is small); `only` keeps one board.
fn more(rounds: usize, count: usize, only: Option<&str>) -> Result<(), Error> {
    macro_rules! pair {
        ($board:literal, $stm:ty, $mtm:ty, $w:literal, $h:literal, $n:literal) => {
            if only.is_none_or(|b| b == $board) {
                let board: Board = $board.parse()?;
                compare(board, Metric::Mtm, rounds, count, <$mtm>::default, small_puzzle::<$w, $h, $n>)?;
                compare(board, Metric::Stm, rounds, count, <$stm>::default, small_puzzle::<$w, $h, $n>)?;
            }
        };
    }
    pair!("2x2", Solver2x2Stm, Solver2x2Mtm, 2, 2, 4);
    pair!("2x5", Solver5x2Stm, Solver5x2Mtm, 2, 5, 10);
    pair!("5x2", Solver5x2Stm, Solver5x2Mtm, 5, 2, 10);
    pair!("3x4", Solver4x3Stm, Solver4x3Mtm, 3, 4, 12);
    pair!("4x3", Solver4x3Stm, Solver4x3Mtm, 4, 3, 12);
    pair!("2x6", Solver6x2Stm, Solver6x2Mtm, 2, 6, 12);
    pair!("6x2", Solver6x2Stm, Solver6x2Mtm, 6, 2, 12);
    Ok(())
}

/// slidy's general puzzle of a large state.
fn large_puzzle(state: &LargeState) -> Puzzle {
    let board = state.board();
    let size = Size::new(board.width() as u64, board.height() as u64).expect("a size");
    Puzzle::with_pieces(state.tiles().iter().map(|&t| u64::from(t)).collect(), size)
        .expect("a valid puzzle")
}

fn constructive(dir: &str, count: usize, optimal: usize, limit: Duration) -> Result<(), Error> {
    // 4x4: constructive on every board, optima by slidy and npuzzle on the first `optimal`.
    let four: LargeBoard = "4x4".parse()?;
    let goal = LargeState::goal(four);
    let mut rng = SplitMix64::new(2026);
    let boards: Vec<LargeState> = (0..count)
        .map(|_| scramble_uniform(&goal, &mut rng))
        .collect();
    let mut lengths = Vec::with_capacity(count);
    let t = Instant::now();
    for start in &boards {
        let moves = solve_constructive(start, &goal)?;
        assert_eq!(start.after(&moves).map_err(|i| format!("move {i}"))?, goal);
        lengths.push(moves.len() as u64);
    }
    let took = t.elapsed();
    println!(
        "4x4 constructive, {count} boards: length mean {:.1} worst {}; {:.3} ms a board",
        lengths.iter().sum::<u64>() as f64 / count as f64,
        lengths.iter().max().unwrap(),
        ms(took) / count as f64
    );

    let t = Instant::now();
    let mut slidy_solver = Solver4x4Stm::default();
    println!(
        "slidy Solver4x4Stm::default() (its databases built): {:.2} s",
        t.elapsed().as_secs_f64()
    );
    let oracle = Oracle::new(DataDir::new(dir));
    let small_goal = goal.to_small().expect("4x4");
    let how = How::within(Limits::NONE);
    let first = boards[0].to_small().expect("4x4");
    let t = Instant::now();
    oracle.solve(&first, &small_goal, how)?.value?;
    println!(
        "npuzzle: first 6-6-3 question (databases opened and deep-checked, one solve): {:.2} s",
        t.elapsed().as_secs_f64()
    );
    let (mut slidy_total, mut npuzzle_total) = (Duration::ZERO, Duration::ZERO);
    let (mut slidy_worst, mut npuzzle_worst) = (Duration::ZERO, Duration::ZERO);
    let (mut opt_sum, mut ratio_sum, mut ratio_worst, mut agree) = (0u64, 0f64, 0f64, 0);
    for (i, start) in boards.iter().take(optimal).enumerate() {
        let puzzle = large_puzzle(start);
        let t = Instant::now();
        let theirs = slidy_solver
            .solve(&puzzle)
            .map_err(|e| format!("slidy: {e}"))?;
        let slidy_took = t.elapsed();
        assert!(
            solves(&puzzle, &theirs),
            "slidy's solution of board {i} does not solve it"
        );
        let small = start.to_small().expect("4x4");
        let t = Instant::now();
        let ours = oracle.solve(&small, &small_goal, how)?.value?;
        let npuzzle_took = t.elapsed();
        let (theirs, ours) = (theirs.len_stm(), ours.len() as u64);
        if theirs == ours {
            agree += 1;
        } else {
            println!("  board {i}: slidy {theirs}, npuzzle {ours}");
        }
        slidy_total += slidy_took;
        npuzzle_total += npuzzle_took;
        slidy_worst = slidy_worst.max(slidy_took);
        npuzzle_worst = npuzzle_worst.max(npuzzle_took);
        opt_sum += ours;
        let ratio = lengths[i] as f64 / ours.max(1) as f64;
        ratio_sum += ratio;
        ratio_worst = ratio_worst.max(ratio);
    }
    let n = optimal as f64;
    println!(
        "4x4 optimal, first {optimal} boards: lengths agree on {agree}; optimum mean {:.2}; constructive / optimum mean {:.3} worst {:.3}; slidy Solver4x4Stm {:.1} ms a board (worst {:.1} ms, total {:.2} s); npuzzle 6-6-3 IDA* {:.2} ms a board (worst {:.1} ms, total {:.2} s); slidy / npuzzle {:.1}x",
        opt_sum as f64 / n, ratio_sum / n, ratio_worst,
        ms(slidy_total) / n, ms(slidy_worst), slidy_total.as_secs_f64(),
        ms(npuzzle_total) / n, ms(npuzzle_worst), npuzzle_total.as_secs_f64(),
        slidy_total.as_secs_f64() / npuzzle_total.as_secs_f64()
    );

    // Larger boards: slidy's any-size optimal solver on the first board, within `limit`.
    for name in ["5x5", "10x10", "32x32"] {
        let board: LargeBoard = name.parse()?;
        let goal = LargeState::goal(board);
        let mut rng = SplitMix64::new(2026);
        let boards: Vec<LargeState> = (0..count)
            .map(|_| scramble_uniform(&goal, &mut rng))
            .collect();
        let (mut sum, mut worst) = (0usize, 0usize);
        let t = Instant::now();
        for start in &boards {
            let moves = solve_constructive(start, &goal)?;
            sum += moves.len();
            worst = worst.max(moves.len());
        }
        let took = t.elapsed();
        println!(
            "{name} constructive, {count} boards: length mean {:.1} worst {worst}; {:.3} ms a board; first board {}",
            sum as f64 / count as f64,
            ms(took) / count as f64,
            solve_constructive(&boards[0], &goal)?.len()
        );
        slidy_generic(name, &boards[0], limit);
    }
    // The search thread may still run: end the process.
    std::process::exit(0)
}

/// slidy's `GenericSolver` (IDA*, Manhattan distance, STM) on `start`, on a thread given
/// `limit`: prints its solution or the last bound it finished, or its panic.
fn slidy_generic(name: &str, start: &LargeState, limit: Duration) {
    let puzzle = large_puzzle(start);
    let depth = Arc::new(AtomicU64::new(0));
    let seen = Arc::clone(&depth);
    let (send, receive) = mpsc::channel();
    let began = Instant::now();
    std::thread::spawn(move || {
        let result = std::panic::catch_unwind(move || {
            let mut solver: GenericSolver<Puzzle, RowGrids, ManhattanDistance<RowGrids>, Stm> =
                GenericSolver::default();
            let config = SolverConfig {
                end_of_iter_callback: Some(Box::new(move |stats| {
                    seen.store(stats.depth, Ordering::Relaxed);
                    ControlFlow::Continue(())
                })),
                ..SolverConfig::default()
            };
            solver
                .solve_collect_with_context(&puzzle, config, &())
                .map(|solutions| solutions.first().map(Algorithm::len_stm))
        });
        let _ = send.send(result.map_err(|panic| {
            panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
        }));
    });
    match receive.recv_timeout(limit) {
        Ok(Ok(Ok(Some(length)))) => println!(
            "{name}: slidy GenericSolver solved the first board: {length} moves in {:.1} s",
            began.elapsed().as_secs_f64()
        ),
        Ok(Ok(other)) => println!("{name}: slidy GenericSolver: {other:?}"),
        Ok(Err(panic)) => println!(
            "{name}: slidy GenericSolver panicked after {:.3} s: {panic}",
            began.elapsed().as_secs_f64()
        ),
        Err(_) => println!(
            "{name}: slidy GenericSolver: no solution within {} s (last bound finished: {})",
            limit.as_secs(),
            depth.load(Ordering::Relaxed)
        ),
    }
}
