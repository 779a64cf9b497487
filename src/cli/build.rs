//! `npuzzle build`: write tables to the data directory and say where, how big, how fast.

use std::io::Write;
use std::time::Instant;

use rayon::prelude::*;

use npuzzle::answer::{has_table, DEFAULT_BOARD};
use npuzzle::table::file::save_table_timed;
use npuzzle::{BuildOptions, State, Table};

use super::args::BuildArgs;
use super::input::{goal_of, parse_size};
use super::{CommandResult, Context, Failure};

/// Builds the requested tables; each line of output names the file, its size and build time.
pub fn run(args: &BuildArgs, context: &mut Context) -> CommandResult {
    let command_began = Instant::now();
    let size = parse_size(&args.size)?;
    // Refused before anything is built: a directory another user owns or may write is not
    // where tables or databases go.
    let dir = context.data_dir()?;
    npuzzle::store::file::check_data_dir(dir).map_err(|e| Failure::usage(e.to_string()))?;
    if let Some(partition) = &args.pdb {
        return build_databases(partition, args, size, context);
    }
    let goals: Vec<State> = if args.all {
        let board = size.unwrap_or(DEFAULT_BOARD);
        if !has_table(board) {
            return Err(Context::no_table(board));
        }
        (0..board.cells())
            .map(|b| State::canonical_goal(board, b))
            .collect()
    } else {
        let goal = goal_of(args.goal.as_deref(), size)?;
        if !has_table(goal.board()) {
            return Err(Context::no_table(goal.board()));
        }
        vec![State::canonical_goal(goal.board(), goal.blank())]
    };
    let metric = npuzzle::Metric::from(args.metric);
    let build_one = |goal: &State, options: BuildOptions| {
        let began = Instant::now();
        let table = match metric {
            npuzzle::Metric::Stm => Table::build(goal, options),
            npuzzle::Metric::Mtm => npuzzle::mtm::build_table(goal, options),
        };
        (table, began.elapsed())
    };
    let began = Instant::now();
    let generate = || -> Vec<_> {
        if goals.len() > 1 {
            // Several tables: all generators at once, sharing one pool (one layer of one table
            // offers less parallel work than nine tables do; rayon nests the two levels).
            goals
                .par_iter()
                .map(|g| build_one(g, BuildOptions::default()))
                .collect()
        } else {
            goals
                .iter()
                .map(|g| build_one(g, BuildOptions::default()))
                .collect()
        }
    };
    let built = match args.threads {
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(super::threads::pool_threads(Some(threads)))
            .build()
            .map_err(|e| Failure::usage(format!("cannot start {threads} threads: {e}")))?
            .install(generate),
        None => generate(),
    };
    let generating = began.elapsed();
    // Save every table before printing anything: a reader that stops early (`| head -1`)
    // must not stop the saving.
    let mut lines = Vec::with_capacity(goals.len());
    for (goal, (table, generated)) in goals.iter().zip(built) {
        let table = table.map_err(|e| Failure::usage(e.to_string()))?;
        // The deep check and the write run side by side inside the save; the file takes its
        // name only once the check has passed.
        let saved = save_table_timed(dir, &table).map_err(|e| Failure::usage(e.to_string()))?;
        let (path, checked, saved) = (saved.path, saved.checked, saved.saved);
        // The whole build of this table, not only its generation: checking every entry and
        // writing the file take about as long again on the largest boards.
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        lines.push(format!(
            "{}\t{} bytes\tbuilt in {:.2} ms (generated {:.2} ms, checked {:.2} ms, saved {:.2} ms)\tgoal {}\tmax depth {}{}",
            path.display(),
            table.as_bytes().len(),
            ms(generated + checked + saved),
            ms(generated),
            ms(checked),
            ms(saved),
            goal,
            table.header().max_depth,
            match metric {
                npuzzle::Metric::Stm => "",
                npuzzle::Metric::Mtm => "\tmetric mtm",
            },
        ));
    }
    let mut out = std::io::stdout().lock();
    for line in lines {
        writeln!(out, "{line}")?;
    }
    if goals.len() > 1 {
        stderr_line!(
            "npuzzle: built {} tables in {:.2} ms (generating them side by side took {:.2} ms, then checking and saving each)",
            goals.len(),
            command_began.elapsed().as_secs_f64() * 1e3,
            generating.as_secs_f64() * 1e3,
        );
    }
    Ok(())
}

/// `build --pdb`: the databases of one partition for the canonical goal with the blank cell
/// of `--goal` (or the board's default goal), one file per pattern, with a progress bar on a
/// terminal.
fn build_databases(
    partition: &str,
    args: &BuildArgs,
    size: Option<npuzzle::Board>,
    context: &mut Context,
) -> CommandResult {
    use std::io::IsTerminal;
    use std::ops::ControlFlow;

    use npuzzle::pattern::{Partition, PatternDatabase};

    let partition: Partition = partition
        .parse()
        .map_err(|e: npuzzle::pattern::UnknownPartition| Failure::usage(e.to_string()))?;
    let goal = goal_of(args.goal.as_deref(), size.or(Some(partition.board())))?;
    let canonical = State::canonical_goal(goal.board(), goal.blank());
    let groups = partition.groups(&canonical).ok_or_else(|| {
        Failure::usage(format!(
            "the {partition} databases need a {} goal with the blank in a corner, not {goal}",
            partition.board()
        ))
    })?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(super::threads::pool_threads(args.threads))
        .build()
        .map_err(|e| Failure::usage(format!("cannot start the generator's threads: {e}")))?;
    let terminal = std::io::stderr().is_terminal();
    for tiles in &groups {
        let bar = terminal.then(super::context::pattern_bar);
        let label = format!("{} pattern {:?}", partition, tiles);
        let began = Instant::now();
        let db = pool
            .install(|| {
                PatternDatabase::build(&canonical, tiles, &|p| {
                    if let Some(bar) = &bar {
                        bar.set_length(p.entries);
                        bar.set_position(p.reached);
                        bar.set_message(format!("{label}: layer {}", p.depth));
                    }
                    ControlFlow::Continue(())
                })
            })
            .map_err(|e| Failure::usage(e.to_string()))?;
        let elapsed = began.elapsed();
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let path = context
            .data_dir()?
            .join(npuzzle::store::file::pattern_file_name(&canonical, tiles));
        // Deep-checked before the rename, and recorded as verified in the data directory.
        npuzzle::pattern::file::save_pattern_database(&path, &db)
            .map_err(|e| Failure::usage(e.to_string()))?;
        let header = db.header();
        writeln!(
            std::io::stdout().lock(),
            "{}\t{} bytes\tbuilt in {:.2} s\tgoal {}\tpattern {:?}\t{} entries, {} bits each, max code {}",
            path.display(),
            db.as_bytes().len(),
            elapsed.as_secs_f64(),
            canonical,
            tiles,
            header.entries,
            if header.encoding == npuzzle::store::format::ENCODING_NIBBLE { 4 } else { 8 },
            header.max_depth,
        )?;
    }
    Ok(())
}
