//! Boards beyond 5x5 on the command line: which questions go to [`npuzzle::large`], `--within`,
//! `sample --scramble`, and the output of a large board's solution. The rules (spellings,
//! solvability, scramblers, the solver) live in the library; this file reads and prints.

use std::io::Write;
use std::time::Instant;

use npuzzle::large::{
    constructive_guarantee, scrambles, solve_constructive, LargeBoard, LargeState, Scrambler,
};
use npuzzle::{moves_to_string, Guarantee, State};

use super::args::{GoalArgs, SampleArgs, SampleFormat, ScrambleArg, SolveArgs, SolveFormat};
use super::input::shorten;
use super::output::{SearchStatsJson, SolveJson, UnsolvableJson};
use super::{CommandResult, Failure};

/// Reads `--size` as a large board, if given.
fn large_board(goal: &GoalArgs) -> Result<Option<LargeBoard>, Failure> {
    goal.size
        .as_deref()
        .map(|size| {
            size.parse::<LargeBoard>()
                .map_err(|e| Failure::usage(format!("invalid --size: {e}")))
        })
        .transpose()
}

/// The start and goal of a question on a board of more than 25 cells, or `None` where the
/// small types read it (their parser then names any error).
pub fn large_pair(
    start: &str,
    goal: &GoalArgs,
) -> Result<Option<(LargeState, LargeState)>, Failure> {
    let board = match large_board(goal)? {
        Some(board) if board.to_small().is_some() => return Ok(None),
        Some(board) => Some(board),
        None if State::parse(start, None).is_ok() => return Ok(None),
        None => match LargeState::parse(start, None) {
            Ok(state) if state.board().to_small().is_none() => Some(state.board()),
            _ => return Ok(None),
        },
    };
    let read = |what: &str, text: &str| {
        LargeState::parse(text, board)
            .map_err(|e| Failure::usage(format!("invalid {what} `{}`: {e}", shorten(text))))
    };
    let start = read("start", start)?;
    let goal = match goal.goal.as_deref() {
        Some(text) => read("goal", text)?,
        None => LargeState::goal(start.board()),
    };
    Ok(Some((start, goal)))
}

/// `solve` on a board beyond 5x5: the constructive solver.
pub fn solve(args: &SolveArgs, start: &LargeState, goal: &LargeState) -> CommandResult {
    if let Some(Err(refused)) = args.within.map(constructive_guarantee) {
        return Err(Failure::usage(format!(
            "--within: {refused}, and `{}` was asked (leave out --within, or give --within none)",
            refused.asked
        )));
    }
    let began = Instant::now();
    let moves = match solve_constructive(start, goal) {
        Ok(moves) => moves,
        Err(unreachable) => {
            let reason = unreachable.to_string();
            if args.format == SolveFormat::Json {
                let json = UnsolvableJson {
                    start: start.to_string(),
                    goal: goal.to_string(),
                    solvable: false,
                    distance: None,
                    reason,
                };
                let mut out = std::io::stdout().lock();
                serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
                writeln!(out)?;
                return Err(Failure::quiet_negative());
            }
            return Err(Failure::negative(reason));
        }
    };
    let took = began.elapsed();
    let text = moves_to_string(&moves);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match args.format {
        SolveFormat::Moves => writeln!(out, "{text}")?,
        SolveFormat::Json => {
            let json = SolveJson {
                start: start.to_string(),
                goal: goal.to_string(),
                distance: None,
                length: moves.len(),
                moves: text,
                path: None,
                algorithm: "constructive".to_string(),
                optimal: false,
                guarantee: Guarantee::None.to_string(),
                solvable: true,
                stats: Some(SearchStatsJson {
                    heuristic: None,
                    expanded: 0,
                    generated: 0,
                    time_ms: took.as_secs_f64() * 1e3,
                    table_distance: None,
                }),
            };
            serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        SolveFormat::Text => {
            writeln!(
                out,
                "{} board: {} moves (guarantee none, constructive)\n\nstart\n{}\n\ngoal\n{}\n\nsolved in {} moves: {text}",
                start.board(),
                moves.len(),
                start.grid(),
                goal.grid(),
                moves.len()
            )?;
            if args.stats {
                writeln!(
                    out,
                    "stats: algorithm constructive; time {:.3} ms; length {}; optimal not known (no length guarantee)",
                    took.as_secs_f64() * 1e3,
                    moves.len()
                )?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// `sample --scramble`: `count` states drawn by the scrambler from one seeded stream, on any
/// board; CSV (`start,goal`) or JSON lines with `distance` null.
pub fn sample(args: &SampleArgs, kind: ScrambleArg, seed: u64) -> CommandResult {
    let board = large_board(&args.goal)?;
    let goal = match (args.goal.goal.as_deref(), board) {
        (Some(text), board) => LargeState::parse(text, board)
            .map_err(|e| Failure::usage(format!("invalid goal `{}`: {e}", shorten(text))))?,
        (None, Some(board)) => LargeState::goal(board),
        (None, None) => LargeState::goal(npuzzle::answer::DEFAULT_BOARD.into()),
    };
    // The small boards keep their compact spelling (`123456780`), so `batch` and `verify`
    // read the instances as they read any other.
    let spell = |state: &LargeState| match state.to_small() {
        Some(small) => small.to_string(),
        None => state.to_string(),
    };
    let scrambler = match kind {
        ScrambleArg::Uniform => Scrambler::Uniform,
        ScrambleArg::Walk => Scrambler::Walk(args.moves),
    };
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    if args.format == SampleFormat::Csv {
        writeln!(out, "start,goal")?;
    }
    let goal_text = spell(&goal);
    for start in
        scrambles(&goal, scrambler, seed).take(usize::try_from(args.count).unwrap_or(usize::MAX))
    {
        let start = spell(&start);
        match args.format {
            SampleFormat::Csv => {
                let mut writer = csv::Writer::from_writer(Vec::new());
                writer
                    .write_record([&start, &goal_text])
                    .and_then(|()| writer.flush().map_err(csv::Error::from))
                    .map_err(|e| Failure::usage(format!("could not write CSV: {e}")))?;
                out.write_all(&writer.into_inner().map_err(|e| e.into_error())?)?;
            }
            SampleFormat::Jsonl => {
                let record =
                    serde_json::json!({"start": start, "goal": goal_text, "distance": null});
                serde_json::to_writer(&mut out, &record).map_err(std::io::Error::from)?;
                out.write_all(b"\n")?;
            }
        }
    }
    out.flush()?;
    Ok(())
}
