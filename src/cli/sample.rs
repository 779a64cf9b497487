//! `npuzzle sample`: test instances for other solvers, in the CSV and JSON-lines forms that
//! `batch` and `verify` read.

use std::io::Write;

use serde::Serialize;

use npuzzle::sample::{depth_range, fresh_seed, Instance, SampleOptions};

use super::args::{SampleArgs, SampleFormat};
use super::input::goal_or_default;
use super::{CommandResult, Context, Failure};

/// The word written in the `distance` column for a pair with no solution.
pub const UNSOLVABLE: &str = "unsolvable";

/// One instance as a JSON line; CSV rows carry the same names as columns.
#[derive(Serialize)]
struct InstanceRecord {
    start: String,
    goal: String,
    /// The exact distance, or `"unsolvable"`; null without `--with-answers` (every key is in
    /// every row: docs/json/sample.schema.json).
    distance: Option<Distance>,
}

/// A distance or the word `unsolvable`.
#[derive(Serialize)]
#[serde(untagged)]
enum Distance {
    Moves(u8),
    Word(&'static str),
}

impl InstanceRecord {
    fn new(instance: &Instance, with_answers: bool) -> InstanceRecord {
        InstanceRecord {
            start: instance.start.to_string(),
            goal: instance.goal.to_string(),
            distance: with_answers.then_some(match instance.distance {
                Some(d) => Distance::Moves(d),
                None => Distance::Word(UNSOLVABLE),
            }),
        }
    }
}

/// Draws the instances and writes them to stdout.
pub fn run(args: &SampleArgs, context: &mut Context) -> CommandResult {
    if let Some(kind) = args.scramble {
        let seed = args.seed.unwrap_or_else(|| {
            let seed = fresh_seed();
            stderr_line!("npuzzle: note: no --seed given; drawing with --seed {seed}");
            seed
        });
        return super::large::sample(args, kind, seed);
    }
    let goal = goal_or_default(&args.goal)?;
    let depths = depth_range(args.depth, args.min_depth, args.max_depth)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let options = SampleOptions {
        count: args.count,
        depths,
        unsolvable: args.unsolvable,
    };
    let oracle = context.oracle();
    if args.with_answers && !oracle.uses_table(goal.board()) {
        return Err(Failure::usage(format!(
            "--with-answers needs an exact table, and the {} board has none (tables cover boards of at most {} cells): verify the instances' answers with `npuzzle verify` instead",
            goal.board(),
            npuzzle::answer::MAX_TABLE_CELLS
        )));
    }
    // Opened (or built) before a seed is drawn, so a missing table is named first.
    let metric = npuzzle::Metric::from(args.metric);
    match metric {
        npuzzle::Metric::Stm => drop(oracle.table(&goal)?),
        npuzzle::Metric::Mtm => drop(oracle.mtm_table(&goal)?),
    }
    let seed = args.seed.unwrap_or_else(|| {
        let seed = fresh_seed();
        stderr_line!("npuzzle: note: no --seed given; drawing with --seed {seed}");
        seed
    });
    let instances = oracle.sample_in(metric, &goal, &options, seed)?;
    let (drawn, _) = instances.size_hint();
    if (drawn as u64) < args.count {
        // Solvable starts never repeat: fewer exist at these depths than were asked for.
        let exist = drawn as u64 - args.unsolvable;
        stderr_line!(
            "npuzzle: note: only {exist} state{} lie{} at depth {} from {goal}: each is printed once, {drawn} instance{} instead of {}",
            if exist == 1 { "" } else { "s" },
            if exist == 1 { "s" } else { "" },
            describe_depths(&options.depths),
            if drawn == 1 { "" } else { "s" },
            args.count
        );
    }
    let out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    match args.format {
        SampleFormat::Csv => {
            let mut writer = csv::Writer::from_writer(out);
            if args.with_answers {
                writer
                    .write_record(["start", "goal", "distance"])
                    .map_err(csv_error)?;
            } else {
                writer.write_record(["start", "goal"]).map_err(csv_error)?;
            }
            for instance in instances {
                let start = instance.start.to_string();
                let goal = instance.goal.to_string();
                if args.with_answers {
                    let distance = instance
                        .distance
                        .map_or_else(|| UNSOLVABLE.to_string(), |d| d.to_string());
                    writer
                        .write_record([&start, &goal, &distance])
                        .map_err(csv_error)?;
                } else {
                    writer.write_record([&start, &goal]).map_err(csv_error)?;
                }
            }
            writer.flush()?;
        }
        SampleFormat::Jsonl => {
            let mut out = out;
            for instance in instances {
                serde_json::to_writer(&mut out, &InstanceRecord::new(&instance, args.with_answers))
                    .map_err(std::io::Error::from)?;
                out.write_all(b"\n")?;
            }
            out.flush()?;
        }
    }
    Ok(())
}

fn csv_error(error: csv::Error) -> Failure {
    match error.into_kind() {
        csv::ErrorKind::Io(io) => Failure::from(io),
        other => Failure::usage(format!("could not write CSV: {other:?}")),
    }
}

/// `31`, or `20 to 31`, or `20 or more`.
fn describe_depths(depths: &std::ops::RangeInclusive<u8>) -> String {
    match (*depths.start(), *depths.end()) {
        (min, max) if min == max => min.to_string(),
        (min, u8::MAX) => format!("{min} or more"),
        (min, max) => format!("{min} to {max}"),
    }
}
