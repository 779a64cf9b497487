//! `npuzzle distance` and `npuzzle solve` from the exact table.

use std::io::Write;

use npuzzle::{Solution, State};

use super::args::{QueryArgs, SolveArgs, SolveFormat};
use super::input::{start_and_goal, unsolvable_reason};
use super::output::SolveJson;
use super::{CommandResult, Context, Failure};

/// Prints the exact distance, one integer and a newline.
pub fn distance(args: &QueryArgs, context: &mut Context) -> CommandResult {
    let (start, goal) = start_and_goal(&args.start, &args.goal)?;
    if !start.can_reach(&goal) {
        return Err(Failure::negative(unsolvable_reason(&start, &goal)));
    }
    let table = context
        .table_for(&goal)
        .ok_or_else(|| Context::no_table(goal.board()))?;
    let distance = table
        .distance_to(&start, &goal)
        .map_err(|e| Failure::usage(e.to_string()))?
        .ok_or_else(|| Failure::negative(unsolvable_reason(&start, &goal)))?;
    writeln!(std::io::stdout().lock(), "{distance}")?;
    Ok(())
}

/// Prints an optimal solution in the chosen form.
pub fn solve(args: &SolveArgs, context: &mut Context) -> CommandResult {
    let (start, goal) = start_and_goal(&args.start, &args.goal)?;
    if !start.can_reach(&goal) {
        return Err(Failure::negative(unsolvable_reason(&start, &goal)));
    }
    let table = context
        .table_for(&goal)
        .ok_or_else(|| Context::no_table(goal.board()))?;
    let solution = table_solution(table, &start, &goal)?;
    print_solution(&solution, &goal, args.format, "table", true, None)
}

/// The table's solution from `start` to `goal`: exit 1 for an unsolvable pair, and exit 2 with
/// a clear message when the table has no neighbour one move closer somewhere along the way (a
/// body damaged in a way its checksums and counts did not reveal; `check --deep` finds it).
pub fn table_solution<D: AsRef<[u8]>>(
    table: &npuzzle::Table<D>,
    start: &State,
    goal: &State,
) -> Result<Solution, Failure> {
    if !start.can_reach(goal) {
        return Err(Failure::negative(unsolvable_reason(start, goal)));
    }
    table
        .solve_to(start, goal)
        .map_err(|e| Failure::usage(e.to_string()))?
        .ok_or_else(|| {
            Failure::usage(format!(
                "the table for goal {} is inconsistent (no move one closer along the path from {start}); run `npuzzle check --deep` and rebuild it with `npuzzle build`",
                table.goal()
            ))
        })
}

/// Writes `solution` to stdout in `format`; `exact` is the optimal distance where it is known
/// and the solution is not optimal.
pub fn print_solution(
    solution: &Solution,
    goal: &State,
    format: SolveFormat,
    algorithm: &str,
    optimal: bool,
    exact: Option<usize>,
) -> CommandResult {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match format {
        SolveFormat::Moves => writeln!(out, "{}", solution.moves_string())?,
        SolveFormat::Json => {
            let json = SolveJson::new(solution, goal, algorithm, optimal, exact);
            serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        SolveFormat::Text => {
            let quality = match (optimal, exact) {
                (true, _) => "optimal".to_string(),
                (false, Some(exact)) => format!("not optimal: the exact distance is {exact}"),
                (false, None) => "not proven optimal".to_string(),
            };
            writeln!(
                out,
                "{} -> {}: {} ({quality}, {algorithm})",
                solution.start(),
                goal,
                moves(solution.len())
            )?;
            for (step, state) in solution.path().iter().enumerate() {
                writeln!(out)?;
                match step {
                    0 => writeln!(out, "start")?,
                    _ => writeln!(out, "move {step}: {}", solution.moves()[step - 1])?,
                }
                writeln!(out, "{}", state.grid())?;
            }
            writeln!(out)?;
            match solution.len() {
                0 => writeln!(out, "solved in 0 moves: the start is the goal")?,
                n => writeln!(out, "solved in {}: {}", moves(n), solution.moves_string())?,
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// `n` moves, in words: `1 move`, `31 moves`.
pub fn moves(n: usize) -> String {
    match n {
        1 => "1 move".to_string(),
        n => format!("{n} moves"),
    }
}
