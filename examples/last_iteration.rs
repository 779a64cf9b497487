//! Where the last IDA* iteration of a 24-puzzle meets its first solution, under three orders
//! of its subtrees: the sequential one, largest first by the previous iteration's nodes
//! (`search::SubtreeOrder`), and largest first by the nodes of the iteration before that.
//! Each subtree of the last iteration's split (at the published length L, as the parallel
//! driver splits it) is searched at L - 4, at L - 2 and, in full, at L; the line per instance
//! gives the share of the last iteration's nodes searched before its first solution under
//! each order. `--subtrees` prints a line per subtree instead (id, index, depth, root
//! estimate, nodes at L - 2, nodes at L up to its first solution, solution 0/1, nodes at
//! L - 4).
//!
//! ```text
//! cargo run --release --example last_iteration -- DIR 38,25,32 [--subtrees]
//! ```
//!
//! DIR holds the 6-6-6-6 databases of Korf's goal (blank first); the instances come from
//! `data/korf50_24.txt`. One thread; it searches each last iteration in full, several
//! times the nodes the runner needs for the instance.
use std::path::PathBuf;
use std::process::ExitCode;

use npuzzle::instance_set;
use npuzzle::search::split::{search_below, split, Below};
use npuzzle::search::{Limits, SUBTREES};
use npuzzle::{Board, State};

#[path = "support/runner_heuristic.rs"]
mod support;
use support::runner_heuristic;

/// One subtree of the last iteration.
struct Subtree {
    earlier: u64,
    previous: u64,
    last: u64,
    solution: bool,
}

/// The nodes of the last iteration searched before its first solution when the subtrees are
/// taken in `order` (all of them if none holds one).
fn nodes_before_solution(subtrees: &[Subtree], order: &[usize]) -> u64 {
    let mut nodes = 0;
    for &i in order {
        nodes += subtrees[i].last;
        if subtrees[i].solution {
            break;
        }
    }
    nodes
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: last_iteration DIR ID,ID,... [--subtrees]";
    let dir = PathBuf::from(args.next().ok_or(usage)?);
    let ids: Vec<String> = args
        .next()
        .ok_or(usage)?
        .split(',')
        .map(String::from)
        .collect();
    let per_subtree = args.next().as_deref() == Some("--subtrees");
    let board: Board = "5x5".parse().map_err(|e| format!("{e}"))?;
    let text = std::fs::read_to_string("data/korf50_24.txt").map_err(|e| e.to_string())?;
    let set = instance_set::parse_instances(&text, board).map_err(|e| e.to_string())?;
    let goal = State::canonical_goal(board, 0);
    let h = runner_heuristic(&dir, &goal)?;
    let h = h
        .regular_reflected()
        .ok_or("no regular + reflected heuristic")?;
    if !per_subtree {
        println!(
            "id\tsubtrees\twith a solution\tlast iteration\tprevious\tsequential\tlargest first\tby L - 4"
        );
    }
    for id in &ids {
        let instance = set
            .iter()
            .find(|i| &i.id == id)
            .ok_or(format!("no instance {id}"))?;
        let length = instance
            .published
            .ok_or(format!("{id}: no published length"))?;
        let frontier = split(&instance.start, &h, length, SUBTREES);
        let mut subtrees = Vec::new();
        for (i, root) in frontier.subtrees.iter().enumerate() {
            let at =
                |bound| search_below(&instance.start, &h, &root.moves, bound, Limits::default());
            let (earlier, previous, last) = (at(length - 4), at(length - 2), at(length));
            let subtree = Subtree {
                earlier: earlier.generated,
                previous: previous.generated,
                last: last.generated,
                solution: matches!(last.end, Below::Found(_)),
            };
            if per_subtree {
                println!(
                    "{id}\t{i}\t{}\t{}\t{}\t{}\t{}\t{}",
                    root.moves.len(),
                    root.h,
                    subtree.previous,
                    subtree.last,
                    u8::from(subtree.solution),
                    subtree.earlier
                );
            }
            subtrees.push(subtree);
        }
        if per_subtree {
            continue;
        }
        let sequential: Vec<usize> = (0..subtrees.len()).collect();
        let mut largest = sequential.clone();
        largest.sort_by_key(|&i| std::cmp::Reverse(subtrees[i].previous));
        let mut by_earlier = sequential.clone();
        by_earlier.sort_by_key(|&i| std::cmp::Reverse(subtrees[i].earlier));
        let whole: u64 = subtrees.iter().map(|s| s.last).sum();
        let share = |order: &[usize]| nodes_before_solution(&subtrees, order) as f64 / whole as f64;
        println!(
            "{id}\t{}\t{}\t{whole}\t{}\t{:.3}\t{:.3}\t{:.3}",
            subtrees.len(),
            subtrees.iter().filter(|s| s.solution).count(),
            subtrees.iter().map(|s| s.previous).sum::<u64>(),
            share(&sequential),
            share(&largest),
            share(&by_earlier),
        );
    }
    Ok(())
}
