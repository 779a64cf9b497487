//! What `verify` prints: one JSON object per answer (`--format jsonl`), or a summary with the
//! counts per verdict, the worst lines first, and the time taken. Either way it keeps only
//! counts and a bounded list of the worst lines, so memory stays flat.

use std::io::Write;
use std::time::Duration;

use serde::Serialize;

use npuzzle::answer::Exact;
use npuzzle::verify::{Policy, Verdict, VerdictKind};
use npuzzle::State;

use super::args::VerifyFormat;
use super::input::escape_controls;
use super::CommandResult;
use super::Failure;

/// What a line claimed, as far as it could be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claimed {
    /// Nothing readable.
    Nothing,
    /// No solution.
    Unsolvable,
    /// A solution of this many moves.
    Moves(u32),
}

/// The judgement of one line.
pub struct Outcome {
    /// The 1-based physical line number.
    pub line: u64,
    /// The verdict.
    pub verdict: Verdict,
    /// The exact answer.
    pub exact: Exact,
    /// The claim's length.
    pub claimed: Claimed,
    /// The start and goal, when they were read.
    pub pair: Option<(State, State)>,
    /// One optimal solution's moves, for a failing answer to a solvable pair (where a table
    /// gives it, or with `--explain` also by search).
    pub optimal: Option<String>,
}

/// A number or a word in JSON output.
#[derive(Serialize)]
#[serde(untagged)]
enum NumberOrWord {
    Number(u32),
    Word(&'static str),
}

/// `verify --format jsonl`: one object per answer. Field names are part of the interface.
#[derive(Serialize)]
struct OutcomeJson {
    /// The 1-based line number in the input (the CSV header is line 1).
    line: u64,
    /// One of the nine verdict names.
    verdict: &'static str,
    /// The exact distance, `"unsolvable"`, or `null` when the pair could not be read.
    exact: Option<NumberOrWord>,
    /// The claimed number of moves, `"unsolvable"`, or `null` when nothing could be read.
    claimed: Option<NumberOrWord>,
    /// What is wrong, in one line; `null` for passing answers.
    detail: Option<String>,
    /// illegal-move only: the 1-based step at fault; null otherwise (every key is in every
    /// row: docs/json/verify.schema.json).
    step: Option<usize>,
    /// suboptimal only: moves more than needed; null otherwise.
    by: Option<u32>,
    /// Failing answers to solvable pairs: the blank's moves of one optimal solution; null
    /// otherwise.
    optimal: Option<String>,
}

impl OutcomeJson {
    fn new(outcome: &Outcome) -> OutcomeJson {
        OutcomeJson {
            line: outcome.line,
            verdict: outcome.verdict.name(),
            exact: match outcome.exact {
                Exact::Unknown => None,
                Exact::Unsolvable => Some(NumberOrWord::Word("unsolvable")),
                Exact::Distance(d) => Some(NumberOrWord::Number(u32::from(d))),
            },
            claimed: match outcome.claimed {
                Claimed::Nothing => None,
                Claimed::Unsolvable => Some(NumberOrWord::Word("unsolvable")),
                Claimed::Moves(n) => Some(NumberOrWord::Number(n)),
            },
            detail: outcome
                .verdict
                .detail()
                .map(|d| escape_controls(&d).into_owned()),
            step: match outcome.verdict {
                Verdict::IllegalMove { step, .. } => Some(step),
                _ => None,
            },
            by: match outcome.verdict {
                Verdict::Suboptimal { by } => Some(by),
                _ => None,
            },
            optimal: outcome.optimal.clone(),
        }
    }
}

/// One of the worst lines, kept for the summary.
struct Worst {
    severity: (u8, u32),
    line: u64,
    text: String,
}

/// Counts verdicts, writes per-line output, and prints the summary at the end.
pub struct Report<W: Write> {
    out: W,
    format: VerifyFormat,
    policy: Policy,
    counts: [u64; VerdictKind::ALL.len()],
    total: u64,
    suboptimal_by: (u32, u32, u64),
    worst: Vec<Worst>,
    keep_worst: usize,
}

impl<W: Write> Report<W> {
    /// A report writing to `out`.
    pub fn new(out: W, format: VerifyFormat, policy: Policy, keep_worst: usize) -> Report<W> {
        Report {
            out,
            format,
            policy,
            counts: [0; VerdictKind::ALL.len()],
            total: 0,
            suboptimal_by: (u32::MAX, 0, 0),
            worst: Vec::new(),
            keep_worst,
        }
    }

    /// Records one line's outcome (and writes it in `jsonl` form).
    pub fn add(&mut self, outcome: &Outcome) -> std::io::Result<()> {
        let kind = outcome.verdict.kind();
        self.counts[kind.index()] += 1;
        self.total += 1;
        if let Verdict::Suboptimal { by } = outcome.verdict {
            let (min, max, sum) = &mut self.suboptimal_by;
            *min = (*min).min(by);
            *max = (*max).max(by);
            *sum += u64::from(by);
        }
        match self.format {
            VerifyFormat::Jsonl => {
                serde_json::to_writer(&mut self.out, &OutcomeJson::new(outcome))?;
                self.out.write_all(b"\n")?;
            }
            VerifyFormat::Summary => self.keep_if_worst(outcome),
        }
        Ok(())
    }

    fn keep_if_worst(&mut self, outcome: &Outcome) {
        let severity = outcome.verdict.severity();
        // Only lines that fail are listed: under --allow-suboptimal a suboptimal answer passes,
        // and listing it among the worst lines would read as a failure.
        if outcome.verdict.passes(self.policy) || self.keep_worst == 0 {
            return;
        }
        // Sorted worst first, earlier lines first among equals; a new line goes after its equals.
        let at = self.worst.partition_point(|w| w.severity >= severity);
        if at >= self.keep_worst {
            return;
        }
        self.worst.insert(
            at,
            Worst {
                severity,
                line: outcome.line,
                text: escape_controls(&describe(outcome)).into_owned(),
            },
        );
        self.worst.truncate(self.keep_worst);
    }

    /// How many lines were recorded.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// How many lines do not pass under the policy.
    pub fn failing(&self) -> u64 {
        VerdictKind::ALL
            .iter()
            .filter(|k| !k.passes(self.policy))
            .map(|k| self.counts[k.index()])
            .sum()
    }

    /// Prints the summary (in `summary` form), flushes, and gives the exit status.
    pub fn finish(mut self, elapsed: Duration) -> CommandResult {
        if self.format == VerifyFormat::Summary {
            self.write_summary(elapsed)?;
        }
        self.out.flush()?;
        if self.failing() > 0 {
            Err(Failure::quiet_negative())
        } else {
            Ok(())
        }
    }

    fn write_summary(&mut self, elapsed: Duration) -> std::io::Result<()> {
        let seconds = elapsed.as_secs_f64();
        // A rate over a handful of lines (or over the first use's table build) means nothing.
        let rate = if seconds > 0.0 && self.total >= 10_000 {
            format!(", {} lines/s", group(self.total as f64 / seconds))
        } else {
            String::new()
        };
        writeln!(
            self.out,
            "verified {} answer{} in {:.3} s{rate}",
            group(self.total as f64),
            if self.total == 1 { "" } else { "s" },
            seconds
        )?;
        for kind in VerdictKind::ALL {
            let count = self.counts[kind.index()];
            if count == 0 && kind != VerdictKind::Optimal {
                continue;
            }
            write!(self.out, "  {:<20}{:>10}", kind.name(), group(count as f64))?;
            if kind == VerdictKind::Suboptimal {
                let (min, max, sum) = self.suboptimal_by;
                let range = if min == max {
                    format!("{min}")
                } else {
                    format!("{min} to {max}")
                };
                write!(
                    self.out,
                    "  ({range} moves longer, {:.1} on average{})",
                    sum as f64 / count as f64,
                    if kind.passes(self.policy) {
                        "; allowed"
                    } else {
                        ""
                    }
                )?;
            }
            writeln!(self.out)?;
        }
        if !self.worst.is_empty() {
            writeln!(self.out, "worst lines:")?;
            for worst in &self.worst {
                writeln!(self.out, "  line {}: {}", worst.line, worst.text)?;
            }
        }
        let failing = self.failing();
        if self.total == 0 {
            // Nothing verified is not a pass: a solver that printed nothing must not look right.
            writeln!(self.out, "FAIL: no answers to verify")?;
        } else if failing == 0 {
            let what = match self.policy {
                _ if self.counts[VerdictKind::WithinGuarantee.index()] > 0 => {
                    "optimal, within the guarantee they state, or rightly unsolvable"
                }
                Policy::OptimalOnly => "optimal or rightly unsolvable",
                Policy::AllowSuboptimal => "legal and at the goal, or rightly unsolvable",
            };
            writeln!(
                self.out,
                "PASS: all {} answers are {what}",
                group(self.total as f64)
            )?;
        } else {
            let hint = if self.policy == Policy::OptimalOnly
                && self.counts[VerdictKind::Suboptimal.index()] > 0
            {
                " (--allow-suboptimal lets suboptimal answers pass)"
            } else {
                ""
            };
            writeln!(
                self.out,
                "FAIL: {} of {} answers do not pass{hint}",
                group(failing as f64),
                group(self.total as f64)
            )?;
        }
        Ok(())
    }
}

/// One line of the worst-lines list: verdict, detail, and the pair with both answers.
fn describe(outcome: &Outcome) -> String {
    let mut text = outcome.verdict.to_string();
    if let Some((start, goal)) = outcome.pair {
        text.push_str(&format!(" [start {start}, goal {goal}"));
        match outcome.exact {
            Exact::Distance(d) => text.push_str(&format!(", exact {d}")),
            Exact::Unsolvable => text.push_str(", exact: unsolvable"),
            Exact::Unknown => {}
        }
        match outcome.claimed {
            Claimed::Moves(n) => text.push_str(&format!(", claimed {n}")),
            Claimed::Unsolvable => text.push_str(", claimed: unsolvable"),
            Claimed::Nothing => {}
        }
        text.push(']');
    }
    if let Some(moves) = &outcome.optimal {
        let moves = if moves.is_empty() {
            "none (the start is the goal)"
        } else {
            moves
        };
        text.push_str(&format!("; one optimal solution: {moves}"));
    }
    text
}

/// A count with thousands separators: `1,234,567` (negative values as 0).
pub(super) fn group(value: f64) -> String {
    npuzzle::digits::grouped(&format!("{:.0}", value.max(0.0)))
}
