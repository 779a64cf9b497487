//! A set's progress: each instance with its results line, easiest first, as data
//! ([`progress`]) and as the Markdown table BENCHMARKS.md holds for Korf and Felner's fifty
//! ([`progress_table`]), and where an unfinished instance's search stands, read from its
//! checkpoint ([`in_progress`]). What `solve-set --report` prints; it reads, never writes.

use std::fmt;
use std::path::Path;

use super::{checkpoint_files, counted_seconds, Finished, Instance};
use crate::digits::grouped;
use crate::search::checkpoint::{Checkpoint, CheckpointError, Estimate};
use crate::state::State;

/// Where the search of an unfinished instance stands, read from its checkpoint in a
/// checkpoint directory ([`in_progress`]): what `solve-set --report --checkpoint-dir` shows
/// while a run of hours goes on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InProgress {
    /// The bound of the iteration in progress: the optimal length once it is the last one.
    pub bound: u32,
    /// How many of that iteration's subtrees are finished.
    pub finished_subtrees: usize,
    /// How many were stopped part way, their work kept ([`Checkpoint::partial`]).
    pub partial_subtrees: usize,
    /// How many subtrees the iteration has (0 before its split is done).
    pub subtrees: usize,
    /// Nodes generated so far, over every iteration and every run.
    pub nodes: u64,
    /// Seconds counted so far, over every run (to the checkpoint's last writing).
    pub seconds: f64,
    /// How far the iteration has gone by the previous iteration's nodes, and the nodes it
    /// has left ([`Checkpoint::estimate`]); `None` without the previous iteration's nodes.
    pub estimate: Option<Estimate>,
    /// The seconds the iteration's nodes left would take at the instance's rate so far (its
    /// nodes over its seconds, every run).
    pub seconds_left: Option<f64>,
}

/// Whether `checkpoint` is of the search from `start` to `goal`: as asked, or relabelled onto
/// the canonical goal with `goal`'s blank cell, which is what a search with pattern databases
/// runs and saves ([`State::relabel_for`]; the run checks its checkpoint the same way).
fn is_question_of(checkpoint: &Checkpoint, start: &State, goal: &State) -> bool {
    let asked = checkpoint.start == *start && checkpoint.goal == *goal;
    asked
        || (start.board() == goal.board()
            && checkpoint.start == start.relabel_for(goal)
            && checkpoint.goal == goal.relabel_for(goal))
}

/// `instance`'s checkpoint in `dir` (`ID.checkpoint`, with the seconds of `ID.seconds`, as
/// [`run`](super::run) keeps them), read and not changed: `Ok(None)` where there is none.
///
/// ```
/// use npuzzle::instance_set::{in_progress, parse_instances};
/// use npuzzle::search::checkpoint::Checkpoint;
/// use npuzzle::{Board, Move, State};
/// let set = parse_instances("a 8 6 7 2 5 4 3 0 1 31\n", Board::THREE_BY_THREE)?;
/// let goal = State::goal(Board::THREE_BY_THREE);
/// let dir = std::env::temp_dir().join(format!("npuzzle-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// assert_eq!(in_progress(&dir, &set[0], &goal)?, None);
/// let mut checkpoint = Checkpoint::new(set[0].start, goal, 7, 64, 29);
/// checkpoint.subtrees = 70;
/// checkpoint.mark(3, Some(31), 100, 250);
/// // Subtree 4 stopped part way: the trees left below it, the nodes of the part done.
/// checkpoint.mark_partial(4, vec![vec![Move::Up, Move::Left]], None, 10, 20);
/// std::fs::write(dir.join("a.checkpoint"), checkpoint.to_text())?;
/// std::fs::write(dir.join("a.seconds"), "12.5\n")?;
/// let found = in_progress(&dir, &set[0], &goal)?.expect("a checkpoint");
/// assert_eq!((found.bound, found.finished_subtrees, found.subtrees), (29, 1, 70));
/// assert_eq!(found.partial_subtrees, 1);
/// assert_eq!((found.nodes, found.seconds), (270, 12.5));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// The checkpoint cannot be read, is damaged, or is of another start or goal (the instance
/// file or `--goal` changed): the run would refuse it too. The report has no heuristic, so a
/// checkpoint of another heuristic (other databases or lookups) passes here and is refused
/// by the run.
pub fn in_progress(
    dir: &Path,
    instance: &Instance,
    goal: &State,
) -> Result<Option<InProgress>, CheckpointError> {
    let (path, seconds) = checkpoint_files(dir, &instance.id);
    let Some(checkpoint) = Checkpoint::load(&path)? else {
        return Ok(None);
    };
    if !is_question_of(&checkpoint, &instance.start, goal) {
        return Err(CheckpointError::Foreign {
            path: path.display().to_string(),
            what: format!(
                "from {} to {}, not instance {}'s",
                checkpoint.start, checkpoint.goal, instance.id
            ),
        });
    }
    let seconds = counted_seconds(&seconds).as_secs_f64();
    let estimate = checkpoint.estimate();
    // At the rate so far: nodes over seconds, known once both are above zero.
    let seconds_left = estimate
        .and_then(|e| e.nodes_left)
        .filter(|_| seconds > 0.0 && checkpoint.generated > 0)
        .map(|left| left as f64 * seconds / checkpoint.generated as f64);
    Ok(Some(InProgress {
        bound: checkpoint.bound,
        finished_subtrees: checkpoint.finished(),
        partial_subtrees: checkpoint.partial.len(),
        subtrees: checkpoint.subtrees,
        nodes: checkpoint.generated,
        seconds,
        estimate,
        seconds_left,
    }))
}

/// What an unfinished instance's row adds from its [`Estimate`]: `; about 27% of the
/// iteration by the previous one's nodes, about 291,003,652,866 nodes and 2.6 h left`, less
/// what is not known.
fn estimate_text(now: &InProgress) -> String {
    let Some(estimate) = now.estimate else {
        return String::new();
    };
    let mut text = format!(
        "; about {:.0}% of the iteration by the previous one's nodes",
        estimate.share_done * 100.0
    );
    if let Some(left) = estimate.nodes_left {
        text.push_str(&format!(", about {} nodes", grouped(&left.to_string())));
        if let Some(seconds) = now.seconds_left {
            text.push_str(&format!(" and {}", duration_text(seconds)));
        }
        text.push_str(" left");
    }
    text
}

/// A duration as a person reads an estimate: seconds under two minutes, minutes under two
/// hours, hours to one decimal beyond.
fn duration_text(seconds: f64) -> String {
    if seconds < 120.0 {
        format!("{seconds:.0} s")
    } else if seconds < 7_200.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3_600.0)
    }
}

/// One instance of a set and, once it is finished, its results line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress<'a> {
    /// The instance.
    pub instance: &'a Instance,
    /// Its results line, if it is finished.
    pub finished: Option<&'a Finished>,
}

/// Each instance of `set` with its line of `finished` if it has one, easiest first (by
/// [`sort_easiest_first`](super::sort_easiest_first)): the rows of [`progress_table`], as data.
#[must_use]
pub fn progress<'a>(set: &'a [Instance], finished: &'a [Finished]) -> Vec<Progress<'a>> {
    let mut rows: Vec<Progress<'a>> = set
        .iter()
        .map(|instance| Progress {
            instance,
            finished: finished.iter().find(|f| f.id == instance.id),
        })
        .collect();
    rows.sort_by_key(|row| row.instance.published_nodes().unwrap_or(u64::MAX));
    rows
}

/// The per-instance table of a set's progress, in Markdown, as BENCHMARKS.md holds it for
/// Korf and Felner's fifty: one row per instance of `set`, easiest first by its last column
/// (the published node count in Korf's files; rows without one go last), with the finished
/// instance's length against the published one, its nodes against the published nodes and
/// their ratio, the seconds counted and the node rate; an unfinished instance shows its
/// published figures only. A last row sums the finished ones.
///
/// ```
/// use npuzzle::instance_set::{parse_instances, progress_table, Finished};
/// use npuzzle::Board;
/// let set = parse_instances(
///     "a 1 2 3 4 5 6 7 0 8 1 0 2000000\nb 1 2 3 4 5 6 0 7 8 2 0 1000\n",
///     Board::THREE_BY_THREE,
/// )?;
/// let moves = "R".to_string();
/// let done = [Finished { id: "a".into(), length: 1, nodes: 3_000_000, seconds: 2.0, moves }];
/// let table = progress_table(&set, &done);
/// let rows: Vec<&str> = table.lines().collect();
/// assert_eq!(rows[2], "| b | (2) | not yet | 1,000 | | | |");
/// assert_eq!(rows[3], "| a | 1 (1) | 3,000,000 | 2,000,000 | 1.50 | 2 | 1.5 M/s |");
/// assert_eq!(rows[4], "| 1 of 2 solved | | 3,000,000 | 2,000,000 | 1.50 | 2 | 1.5 M/s |");
/// # Ok::<(), npuzzle::instance_set::SetError>(())
/// ```
#[must_use]
pub fn progress_table(set: &[Instance], finished: &[Finished]) -> String {
    progress_table_with(set, finished, |_| None)
}

/// [`progress_table`] with the unfinished instances' checkpoints: `checkpoint` gives each
/// unfinished instance's ([`in_progress`] in a checkpoint directory), shown in place of
/// "not yet" as `in progress: bound 101, 2,789 of 6,111 subtrees, 97,326,069,661 nodes,
/// 3,825 s`, or the reason it would be refused.
#[must_use]
pub fn progress_table_with(
    set: &[Instance],
    finished: &[Finished],
    checkpoint: impl Fn(&Instance) -> Option<Result<InProgress, CheckpointError>>,
) -> String {
    use fmt::Write as _;
    let mut out = String::from(
        "| id | length (published) | nodes generated | published nodes | ratio | seconds | node rate |\n\
         | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    let (mut solved, mut nodes, mut seconds) = (0, 0u64, 0.0f64);
    // The ratio compares the instances that have a published count.
    let (mut compared, mut published_nodes) = (0u64, 0u64);
    let length = |l: Option<u32>| l.map_or_else(|| "?".to_string(), |l| l.to_string());
    for Progress { instance, finished } in progress(set, finished) {
        let published = instance.published_nodes();
        let shown = published.map_or_else(String::new, |p| grouped(&p.to_string()));
        match finished {
            Some(f) => {
                let differs = if instance.published.is_some_and(|p| p != f.length) {
                    " **differs**"
                } else {
                    ""
                };
                let ratio = published.map_or_else(String::new, |p| ratio(f.nodes, p));
                let _ = writeln!(
                    out,
                    "| {} | {} ({}){differs} | {} | {shown} | {ratio} | {} | {} |",
                    instance.id,
                    f.length,
                    length(instance.published),
                    grouped(&f.nodes.to_string()),
                    grouped(&format!("{:.0}", f.seconds)),
                    rate(f.nodes, f.seconds)
                );
                solved += 1;
                nodes = nodes.saturating_add(f.nodes);
                seconds += f.seconds;
                if let Some(p) = published {
                    compared = compared.saturating_add(f.nodes);
                    published_nodes = published_nodes.saturating_add(p);
                }
            }
            None => {
                let state = match checkpoint(instance) {
                    None => "not yet".to_string(),
                    Some(Ok(now)) => format!(
                        "in progress: bound {}, {} of {} subtrees{}, {} nodes, {} s{}",
                        now.bound,
                        grouped(&now.finished_subtrees.to_string()),
                        grouped(&now.subtrees.to_string()),
                        match now.partial_subtrees {
                            0 => String::new(),
                            n => format!(" ({n} part way)"),
                        },
                        grouped(&now.nodes.to_string()),
                        grouped(&format!("{:.0}", now.seconds)),
                        estimate_text(&now)
                    ),
                    // A path may hold the table's separator.
                    Some(Err(refused)) => {
                        format!("checkpoint refused: {refused}").replace('|', "\\|")
                    }
                };
                let _ = writeln!(
                    out,
                    "| {} | ({}) | {state} | {shown} | | | |",
                    instance.id,
                    length(instance.published)
                );
            }
        }
    }
    let _ = writeln!(
        out,
        "| {solved} of {} solved | | {} | {} | {} | {} | {} |",
        set.len(),
        grouped(&nodes.to_string()),
        grouped(&published_nodes.to_string()),
        ratio(compared, published_nodes),
        grouped(&format!("{seconds:.0}")),
        rate(nodes, seconds)
    );
    out
}

/// `ours / published` to two places (0.00 when nothing is published).
fn ratio(ours: u64, published: u64) -> String {
    let r = if published == 0 {
        0.0
    } else {
        ours as f64 / published as f64
    };
    format!("{r:.2}")
}

/// Millions of nodes a second, to one place (0.0 for no time).
fn rate(nodes: u64, seconds: f64) -> String {
    let r = if seconds > 0.0 {
        nodes as f64 / seconds / 1e6
    } else {
        0.0
    };
    format!("{r:.1} M/s")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::instance_set::parse_instances;

    /// Towards a goal other than the canonical one, a search with pattern databases runs on
    /// the start relabelled onto the canonical goal and saves that: the report reads such a
    /// checkpoint as the instance's (it refused it once), and still refuses another's.
    #[test]
    fn a_relabelled_checkpoint_is_the_instance_s() {
        let board = Board::THREE_BY_THREE;
        let set = parse_instances("a 8 6 7 2 5 4 3 0 1\nb 1 2 3 4 5 6 0 7 8\n", board).unwrap();
        let goal: State = "876543210".parse().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let write = |start: State| {
            let mut c = Checkpoint::new(start, goal.relabel_for(&goal), 7, 64, 21);
            c.subtrees = 70;
            std::fs::write(dir.path().join("a.checkpoint"), c.to_text()).unwrap();
        };
        write(set[0].start.relabel_for(&goal));
        let found = in_progress(dir.path(), &set[0], &goal).unwrap();
        assert_eq!(found.map(|f| (f.bound, f.subtrees)), Some((21, 70)));
        write(set[1].start.relabel_for(&goal));
        assert!(matches!(
            in_progress(dir.path(), &set[0], &goal),
            Err(CheckpointError::Foreign { .. })
        ));
    }
}
