//! Printing a solution in the forms `solve` offers, and move counts in words.

use std::io::Write;

use npuzzle::{Metric, Solution, State};

use super::args::SolveFormat;
use super::output::SolveJson;
use super::CommandResult;

/// What a printed solution claims: how it was found, whether it is optimal, the exact distance
/// where it is known, the metric its length is counted in and the guarantee it carries.
pub struct Claim<'a> {
    /// The method, as text.
    pub algorithm: &'a str,
    /// Proven optimal.
    pub optimal: bool,
    /// The optimal distance, where known.
    pub exact: Option<usize>,
    /// How moves are counted.
    pub metric: Metric,
    /// The guarantee the solution carries.
    pub guarantee: npuzzle::Guarantee,
}

/// Writes `solution` to stdout in `format` with what it claims.
pub fn print_solution(
    solution: &Solution,
    goal: &State,
    format: SolveFormat,
    claim: Claim<'_>,
) -> CommandResult {
    let Claim {
        algorithm,
        optimal,
        exact,
        metric,
        guarantee,
    } = claim;
    let length = metric.length(solution.moves());
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match format {
        SolveFormat::Moves => writeln!(out, "{}", solution.moves_string())?,
        SolveFormat::Json => {
            let mut json = SolveJson::new(solution, goal, algorithm, optimal, exact, guarantee);
            json.length = length;
            if optimal {
                json.distance = Some(length);
            }
            serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        SolveFormat::Text => {
            let quality = match (optimal, exact) {
                (true, _) => "optimal".to_string(),
                (false, Some(exact)) => {
                    format!("guarantee {guarantee}; not optimal: the exact distance is {exact}")
                }
                (false, None) => format!("guarantee {guarantee}; not proven optimal"),
            };
            writeln!(
                out,
                "{} -> {}: {} ({quality}, {algorithm})",
                solution.start(),
                goal,
                moves_in(length, metric)
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
            match length {
                0 => writeln!(out, "solved in 0 moves: the start is the goal")?,
                n => writeln!(
                    out,
                    "solved in {}: {}",
                    moves_in(n, metric),
                    solution.moves_string()
                )?,
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// `n` moves in `metric`: as [`moves`] under STM, `n MTM moves` under MTM.
pub fn moves_in(n: usize, metric: Metric) -> String {
    match metric {
        Metric::Stm => moves(n),
        Metric::Mtm if n == 1 => "1 MTM move".to_string(),
        Metric::Mtm => format!("{n} MTM moves"),
    }
}

/// `n` moves, in words: `1 move`, `31 moves`.
pub fn moves(n: usize) -> String {
    match n {
        1 => "1 move".to_string(),
        n => format!("{n} moves"),
    }
}
