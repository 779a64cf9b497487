//! `npuzzle solve-set`: a file of instances solved into a results file that survives
//! restarts, or (`--report`) the set's progress as a table. The reading, checking, solving
//! and appending are the library's ([`npuzzle::instance_set`]); this parses and formats.

use std::io::{self, Write};

use npuzzle::instance_set::{self, Instance};
use npuzzle::Board;

use super::args::SolveSetArgs;
use super::input::{board_option, goal_of};
use super::search::how;
use super::search_progress;
use super::{CommandResult, Context, Failure};

/// Runs `solve-set`.
pub fn run(args: &SolveSetArgs, context: &mut Context) -> CommandResult {
    let goal = goal_of(args.goal.goal.as_deref(), board(args)?)?;
    let set = instances(args, goal.board())?;
    if args.report {
        let done = match std::fs::read_to_string(&args.results) {
            Ok(text) => instance_set::parse_results(&text, &set, &goal)
                .map_err(|e| Failure::usage(e.to_string()))?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(unreadable(&args.results, &e)),
        };
        write!(
            io::stdout().lock(),
            "{}",
            instance_set::progress_table(&set, &done)
        )?;
        return Ok(());
    }
    let how = how(&args.search, goal.board(), context)?;
    if let Some(dir) = &args.checkpoint_dir {
        std::fs::create_dir_all(dir).map_err(|e| unreadable(dir, &e))?;
    }
    let oracle = context.oracle();
    let mut solver =
        instance_set::oracle_solver(oracle, &goal, how, args.checkpoint_dir.as_deref())
            .map_err(|e| Failure::usage(e.to_string()))?;
    // The live line of a long search (a terminal only) is cleared before its results line.
    let solve = |instance: &Instance| {
        let result = solver(instance);
        search_progress::clear();
        result
    };
    let only = (!args.only.is_empty()).then_some(args.only.as_slice());
    let summary = instance_set::run(
        &set,
        only,
        &goal,
        &args.results,
        solve,
        &mut io::stdout().lock(),
        &mut io::stderr().lock(),
    )
    .map_err(|e| Failure::usage(e.to_string()))?;
    eprintln!(
        "npuzzle: {} finished before, {} solved now, {} failed",
        summary.skipped,
        summary.solved.len(),
        summary.failed.len()
    );
    if summary.failed.is_empty() {
        Ok(())
    } else {
        Err(Failure::quiet_negative())
    }
}

/// The board: `--board`, else the goal's (an instance line has more numbers than tiles, so
/// the file cannot say it).
fn board(args: &SolveSetArgs) -> Result<Option<Board>, Failure> {
    let board = board_option(&args.goal)?;
    if board.is_none() && args.goal.goal.is_none() {
        return Err(Failure::usage(
            "solve-set needs --board WxH or --goal: an instance line's numbers after the tiles \
             leave its board unsaid",
        ));
    }
    Ok(board)
}

/// The instance file, every line parsed, in the order asked for.
fn instances(args: &SolveSetArgs, board: Board) -> Result<Vec<Instance>, Failure> {
    let text =
        std::fs::read_to_string(&args.instances).map_err(|e| unreadable(&args.instances, &e))?;
    let mut set = instance_set::parse_instances(&text, board)
        .map_err(|e| Failure::usage(format!("{}: {e}", args.instances.display())))?;
    if args.easiest_first {
        instance_set::sort_easiest_first(&mut set);
    }
    Ok(set)
}

fn unreadable(path: &std::path::Path, error: &io::Error) -> Failure {
    Failure::usage(format!("{}: {error}", path.display()))
}
