//! `npuzzle verify FILE|-`: judges another solver's answers against the exact tables.
//!
//! Data flow, one chunk of lines at a time (so memory stays flat): read raw lines
//! ([`verify_input::Source::fill`]), parse them in parallel into pairs and claims, judge them
//! in parallel through the answer layer ([`Oracle::judge`]: the table where the board has one,
//! opened on first use, else the claim alone or a search), then count and print them in input
//! order ([`verify_report::Report`]).

use std::fs::File;
use std::io::{BufReader, IsTerminal, Read};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use npuzzle::answer::Exact;
use npuzzle::search::Limits;
use npuzzle::verify::{Policy, Verdict, VerdictKind};
use npuzzle::{How, Metric, Oracle, State};

use super::args::{VerifyArgs, VerifyFormat};
use super::input::{board_option, parse_state};
use super::verify_input::{Chunk, Defaults, Line, Source};
use super::verify_report::{Claimed, Outcome, Report};
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
    let metric = Metric::from(args.metric);
    let policy = if args.allow_suboptimal {
        Policy::AllowSuboptimal
    } else {
        Policy::OptimalOnly
    };
    let (input, name): (Box<dyn Read + Send>, String) = match args.file.as_deref() {
        None | Some("-") => (Box::new(std::io::stdin()), "standard input".to_string()),
        Some(path) => {
            let file =
                File::open(path).map_err(|e| Failure::usage(format!("cannot read {path}: {e}")))?;
            (Box::new(file), path.to_string())
        }
    };
    // An optimal solution is shown for failing lines in JSON, and in the summary with
    // --explain (which also searches for it on boards without a table).
    let explain = Explain {
        table: args.explain || args.format == VerifyFormat::Jsonl,
        search: args.explain,
    };
    let out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut report = Report::new(out, args.format, policy, args.worst);
    let source = Source::open(Box::new(BufReader::with_capacity(1 << 18, input)), &name)?;
    // On a terminal, a spinner counts the answers judged (stdout may be the terminal too, but
    // the summary comes only at the end).
    let progress = if std::io::stderr().is_terminal() {
        ProgressBar::new_spinner().with_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                .expect("the template is valid"),
        )
    } else {
        ProgressBar::hidden()
    };
    if let Some(mut source) = source {
        let mut chunk = Chunk::default();
        while source.fill(&mut chunk, &name)? > 0 {
            let lines = source.parse(&chunk, &defaults);
            let oracle = context.oracle();
            let outcomes: Vec<Outcome> = lines
                .par_iter()
                .map(|line| judge_line(line, oracle, search_limits, explain, metric))
                .collect();
            for outcome in &outcomes {
                report.add(outcome)?;
            }
            progress.set_message(format!("{} answers judged", report.total()));
        }
    }
    progress.finish_and_clear();
    if report.total() == 0 {
        report.finish(began.elapsed())?;
        return Err(Failure::negative(format!(
            "no answers to verify in {name}: expected a CSV header and rows, or JSON lines"
        )));
    }
    report.finish(began.elapsed())
}

/// Judges the line's claim through the answer layer: against the table where the board has
/// one, else from the claim alone where that decides, else against a search within
/// `search_limits`.
fn judge_line(
    line: &Line,
    oracle: &Oracle,
    search_limits: Limits,
    explain: Explain,
    metric: Metric,
) -> Outcome {
    let malformed = |why: &str, pair| Outcome {
        line: line.number,
        verdict: Verdict::malformed(why),
        exact: Exact::Unknown,
        claimed: Claimed::Nothing,
        pair,
        optimal: None,
    };
    let (start, goal) = match &line.pair {
        Ok(pair) => *pair,
        Err(why) => return malformed(why, None),
    };
    // A claim that cannot be read is malformed whatever the distance: nothing is searched,
    // and the exact distance is shown only where a table gives it for one read.
    let claim = match &line.claim {
        Ok(claim) => claim,
        Err(why) => {
            let mut outcome = malformed(why, Some((start, goal)));
            if oracle.uses_table(goal.board()) {
                if let Ok(answer) = oracle.distance(&start, &goal, How::table().in_metric(metric)) {
                    outcome.exact = answer.value.map_or(Exact::Unsolvable, Exact::Distance);
                }
            }
            return outcome;
        }
    };
    let claimed = if claim.says_unsolvable() {
        Claimed::Unsolvable
    } else {
        let length = match (&claim.moves, metric) {
            // 2^32 moves or more saturate, judged too long rather than cut short.
            (Some(moves), Metric::Mtm) => {
                Some(u32::try_from(metric.length(moves)).unwrap_or(u32::MAX))
            }
            _ => claim.claimed_length(&start),
        };
        length.map_or(Claimed::Nothing, Claimed::Moves)
    };
    let (verdict, exact) = match oracle.judge(
        &start,
        &goal,
        claim,
        How::within(search_limits)
            .in_metric(metric)
            .with_guarantee(line.guarantee),
    ) {
        Ok(answer) => match answer.value {
            Ok(judged) => (judged.verdict, judged.exact),
            Err(_) => (Verdict::malformed("no verdict"), Exact::Unknown),
        },
        Err(error) => {
            let why = Failure::from(error).message.unwrap_or_default();
            (Verdict::malformed(why), Exact::Unknown)
        }
    };
    let wrong = !matches!(
        verdict.kind(),
        VerdictKind::Optimal | VerdictKind::CorrectUnsolvable | VerdictKind::WithinGuarantee
    );
    let optimal = match exact {
        Exact::Distance(_) if wrong => {
            optimal_moves(&start, &goal, oracle, search_limits, explain, metric)
        }
        _ => None,
    };
    Outcome {
        line: line.number,
        verdict,
        exact,
        claimed,
        pair: Some((start, goal)),
        optimal,
    }
}

/// Where failing lines get an optimal solution: from a table, and by search too.
#[derive(Clone, Copy)]
struct Explain {
    table: bool,
    search: bool,
}

/// One optimal solution's moves, from the table where the board has one (if `explain.table`),
/// else by a search within `limits` (if `explain.search`).
fn optimal_moves(
    start: &State,
    goal: &State,
    oracle: &Oracle,
    limits: Limits,
    explain: Explain,
    metric: Metric,
) -> Option<String> {
    let how = if oracle.uses_table(goal.board()) {
        explain.table.then(How::table)?
    } else {
        explain.search.then(|| How::within(limits))?
    }
    .in_metric(metric);
    let answer = oracle.solve(start, goal, how).ok()?;
    answer
        .value
        .ok()
        .filter(|solution| solution.end() == *goal)
        .map(|solution| solution.moves_string())
}
