//! `npuzzle verify FILE|-`: judges another solver's answers against the exact tables.
//!
//! Data flow, one chunk of lines at a time (so memory stays flat): read raw lines
//! ([`verify_input::Source::fill`]), parse them in parallel into pairs and claims, open the
//! tables their goals need (serially: opening may build a table), judge them in parallel with
//! [`npuzzle::verify::judge`], then count and print them in input order
//! ([`verify_report::Report`]).

use std::fs::File;
use std::io::{BufReader, Read};
use std::time::Instant;

use rayon::prelude::*;

use npuzzle::search::Limits;
use npuzzle::verify::{judge, judge_without_distance, Policy, Verdict};

use super::args::VerifyArgs;
use super::input::{board_option, parse_state};
use super::search::exact_by_search;
use super::verify_input::{Chunk, Defaults, Line, Source};
use super::verify_report::{Claimed, Exact, Outcome, Report};
use super::{CommandResult, Context, Failure};

/// Runs `verify`.
pub fn run(args: &VerifyArgs, context: &mut Context) -> CommandResult {
    let began = Instant::now();
    let board = board_option(&args.goal)?;
    let goal = args
        .goal
        .goal
        .as_deref()
        .map(|text| parse_state("goal", text, board))
        .transpose()?;
    let defaults = Defaults { goal, board };
    let search_limits = super::limits::limits(&args.limit, super::search::DEFAULT_LINE_LIMITS);
    let policy = if args.allow_suboptimal {
        Policy::AllowSuboptimal
    } else {
        Policy::OptimalOnly
    };
    let (input, name): (Box<dyn Read + Send>, String) = if args.file == "-" {
        (Box::new(std::io::stdin()), "standard input".to_string())
    } else {
        let file = File::open(&args.file)
            .map_err(|e| Failure::usage(format!("cannot read {}: {e}", args.file)))?;
        (Box::new(file), args.file.clone())
    };
    let out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut report = Report::new(out, args.format, policy, args.worst);
    let source = Source::open(Box::new(BufReader::with_capacity(1 << 18, input)), &name)?;
    if let Some(mut source) = source {
        let mut chunk = Chunk::default();
        while source.fill(&mut chunk, &name)? > 0 {
            let lines = source.parse(&chunk, &defaults);
            open_tables(&lines, context);
            let context = &*context;
            let outcomes: Vec<Outcome> = lines
                .par_iter()
                .map(|line| judge_line(line, context, search_limits))
                .collect();
            for outcome in &outcomes {
                report.add(outcome)?;
            }
        }
    }
    if report.total() == 0 {
        report.finish(began.elapsed())?;
        return Err(Failure::negative(format!(
            "no answers to verify in {name}: expected a CSV header and rows, or JSON lines"
        )));
    }
    report.finish(began.elapsed())
}

/// Opens (or builds) the tables the chunk's goals need, once each.
fn open_tables(lines: &[Line], context: &mut Context) {
    for line in lines {
        if let Ok((_, goal)) = &line.pair {
            if Context::has_tables(goal.board()) && context.loaded_table(goal).is_none() {
                context.table_for(goal);
            }
        }
    }
}

/// Looks up the exact answer for the line's pair (from its table, else by a search within
/// `search_limits`) and judges its claim.
fn judge_line(line: &Line, context: &Context, search_limits: Limits) -> Outcome {
    let (start, goal) = match &line.pair {
        Ok(pair) => *pair,
        Err(why) => {
            return Outcome {
                line: line.number,
                verdict: Verdict::malformed(why.clone()),
                exact: Exact::Unknown,
                claimed: Claimed::Nothing,
                pair: None,
            }
        }
    };
    let claimed = match &line.claim {
        Ok(claim) if claim.says_unsolvable() => Claimed::Unsolvable,
        Ok(claim) => claim
            .claimed_length(&start)
            .map_or(Claimed::Nothing, Claimed::Moves),
        Err(_) => Claimed::Nothing,
    };
    let exact = match (context.loaded_table(&goal), &line.claim) {
        (Some(table), _) => table
            .distance_to(&start, &goal)
            .map_err(|e| Verdict::malformed(e.to_string())),
        // A claim that cannot be read is malformed whatever the distance: skip the search.
        (None, Err(why)) => Err(Verdict::malformed(why.clone())),
        // No table: solvability comes from parity; an illegal move or a wrong end needs no
        // distance, so only the claims that do pay for the search.
        (None, Ok(claim)) => {
            if !start.can_reach(&goal) {
                Ok(None)
            } else if let Some(verdict) = judge_without_distance(&start, &goal, claim) {
                Err(verdict)
            } else {
                exact_by_search(&start, &goal, search_limits)
                    .map(|found| found.map(|(distance, _)| distance))
                    .map_err(|why| Verdict::Unverified { why })
            }
        }
    };
    let (verdict, exact) = match (exact, &line.claim) {
        (Err(verdict), _) => (verdict, Exact::Unknown),
        (Ok(exact), claim) => {
            let verdict = match claim {
                Ok(claim) => judge(&start, &goal, exact, claim),
                Err(why) => Verdict::malformed(why.clone()),
            };
            (verdict, exact.map_or(Exact::Unsolvable, Exact::Moves))
        }
    };
    Outcome {
        line: line.number,
        verdict,
        exact,
        claimed,
        pair: Some((start, goal)),
    }
}
