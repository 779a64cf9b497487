//! Gives a checkpointed 24-puzzle search the largest-first order for the rest of its
//! iteration, where its checkpoint has none: one resumed from a checkpoint of version 1 (which
//! kept no subtree sizes), or one begun in the sequential order. Each unfinished subtree of
//! the checkpoint's split is searched at a smaller bound, and its nodes there become its key
//! in `previous` (`search::SubtreeOrder::LargestFirst` then takes the subtrees largest key
//! first when the search resumes). `examples/last_iteration.rs` measured keys taken four below
//! the last bound as nearly as good as those two below (BENCHMARKS, "The last iteration's
//! subtrees, largest first"), for about an eighth of the nodes.
//!
//! ```text
//! cargo run --release --example order_checkpoint -- DIR CHECKPOINT BOUND [--threads N]
//! ```
//!
//! DIR holds the 6-6-6-6 databases of the checkpoint's goal; the heuristic is the runner's
//! (regular and reflected lookups), and the checkpoint's fingerprint must match it. The split
//! and the searches use the checkpoint's move-pruning automaton (`Checkpoint::automaton`:
//! strings of 10 moves for a checkpoint of versions 1 to 3), whose subtrees it names. Every
//! subtree is keyed, the finished ones too, so that `solve-set --report` can still say what
//! share of the iteration is done. Stop the search that writes CHECKPOINT first: the file is
//! rewritten (atomically) at the end.
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use npuzzle::search::checkpoint::{fingerprint, Checkpoint};
use npuzzle::search::prune::MovePruner;
use npuzzle::search::split::{search_below_pruned, split_pruned};
use npuzzle::search::{Limits, SUBTREES};

#[path = "support/runner_heuristic.rs"]
mod support;
use support::runner_heuristic;

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
    let usage = "usage: order_checkpoint DIR CHECKPOINT BOUND [--threads N]";
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, path, bound, rest @ ..] = args.as_slice() else {
        return Err(usage.to_string());
    };
    let dir = PathBuf::from(dir);
    let path = PathBuf::from(path);
    let bound: u32 = bound
        .parse()
        .map_err(|_| format!("bound {bound:?} is not a number"))?;
    let threads = match rest {
        [] => 0,
        [flag, n] if flag == "--threads" => n
            .parse()
            .map_err(|_| format!("--threads {n:?} is not a number"))?,
        _ => return Err(usage.to_string()),
    };
    let mut checkpoint = Checkpoint::load(&path)
        .map_err(|e| e.to_string())?
        .ok_or(format!("no checkpoint at {}", path.display()))?;
    if bound >= checkpoint.bound {
        return Err(format!(
            "bound {bound} is not below the checkpoint's bound {}",
            checkpoint.bound
        ));
    }
    let (start, goal) = (checkpoint.start, checkpoint.goal);
    let h = runner_heuristic(&dir, &goal)?;
    let h = h
        .regular_reflected()
        .ok_or("no regular + reflected heuristic")?;
    checkpoint
        .check(&start, &goal, fingerprint(&start, &h), SUBTREES, &path)
        .map_err(|e| e.to_string())?;
    let prune = MovePruner::for_board_up_to(start.board(), checkpoint.automaton);
    let prefixes: Vec<_> = split_pruned(&start, &h, checkpoint.bound, SUBTREES, &prune)
        .subtrees
        .into_iter()
        .map(|s| s.moves)
        .collect();
    if prefixes.len() != checkpoint.subtrees {
        return Err(format!(
            "the split at bound {} has {} subtrees, the checkpoint {}",
            checkpoint.bound,
            prefixes.len(),
            checkpoint.subtrees
        ));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    let began = Instant::now();
    let (searched, nodes) = (AtomicUsize::new(0), AtomicU64::new(0));
    let subtrees = prefixes.len();
    let keys: Vec<u64> = pool.install(|| {
        prefixes
            .par_iter()
            .map(|prefix| {
                let size =
                    search_below_pruned(&start, &h, prefix, bound, Limits::default(), &prune)
                        .generated;
                let total = nodes.fetch_add(size, Ordering::Relaxed) + size;
                let k = searched.fetch_add(1, Ordering::Relaxed) + 1;
                if k % 250 == 0 || k == subtrees {
                    eprintln!(
                        "{k} of {subtrees} subtrees at bound {bound}: {total} nodes, {:.0} s",
                        began.elapsed().as_secs_f64()
                    );
                }
                size
            })
            .collect()
    });
    checkpoint.previous = keys;
    checkpoint.save(&path).map_err(|e| e.to_string())?;
    println!(
        "{}: {} subtrees keyed by their nodes at bound {bound} ({} nodes, {:.0} s)",
        path.display(),
        subtrees,
        nodes.load(Ordering::Relaxed),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}
