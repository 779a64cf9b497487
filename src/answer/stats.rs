//! The stats query: how the states of a goal's table spread over distances (the header's
//! depth counts, their mean) and which states lie farthest (found by scanning the body), in
//! the goal's own tile labels. `npuzzle stats` formats it.

use crate::metric::Metric;
use crate::state::State;
use crate::store::StoredBytes;
use crate::table::Table;

use super::{AnswerError, Oracle};

/// How a goal's states spread over distances: [`Oracle::depth_stats`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct DepthStats {
    /// How the distances count moves.
    pub metric: Metric,
    /// The goal asked for.
    pub goal: State,
    /// The canonical goal whose table holds the counts (the same distribution).
    pub table_goal: State,
    /// States at each depth, `0..=max_depth`.
    pub counts: Vec<u64>,
    /// All states that reach the goal.
    pub total: u64,
    /// The mean distance.
    pub mean: f64,
    /// The states at the largest depth in the goal's labels: the first `listed` by rank
    /// (all of them where there are no more), sorted by their text.
    pub farthest: Vec<State>,
}

impl DepthStats {
    /// The largest distance.
    pub fn max_depth(&self) -> usize {
        self.counts.len() - 1
    }

    /// How many states lie at the largest distance (all of them, listed or not).
    pub fn farthest_count(&self) -> u64 {
        *self.counts.last().expect("a table has depth 0")
    }
}

impl Oracle {
    /// The depth statistics of `goal` in `metric`, with at most `listed` of its farthest
    /// states, from the table of its board and blank cell (opened or built as for a distance).
    ///
    /// ```
    /// use npuzzle::{Board, Metric, Oracle, State};
    /// let goal = State::goal(Board::THREE_BY_THREE);
    /// let stats = Oracle::in_memory().depth_stats(&goal, Metric::Stm, 20)?;
    /// assert_eq!((stats.total, stats.max_depth(), stats.farthest_count()), (181_440, 31, 2));
    /// assert_eq!(stats.farthest.len(), 2);
    /// # Ok::<(), npuzzle::AnswerError>(())
    /// ```
    ///
    /// # Errors
    /// [`AnswerError::NoTable`] for a board without tables; the table's errors (damage found
    /// while scanning its body).
    pub fn depth_stats(
        &self,
        goal: &State,
        metric: Metric,
        listed: usize,
    ) -> Result<DepthStats, AnswerError> {
        let no_table = || AnswerError::NoTable {
            board: goal.board(),
        };
        let table = match metric {
            Metric::Stm => self.table(goal)?.ok_or_else(no_table)?,
            Metric::Mtm => self.mtm_table(goal)?.ok_or_else(no_table)?.table(),
        };
        from_table(table, goal, metric, listed)
    }
}

/// The counts of `table` (in `metric`) and its first `listed` farthest states in `goal`'s labels.
fn from_table(
    table: &Table<StoredBytes>,
    goal: &State,
    metric: Metric,
    listed: usize,
) -> Result<DepthStats, AnswerError> {
    let header = table.header();
    let counts = header.counts.clone();
    let total: u64 = counts.iter().sum();
    let weighted: u64 = counts.iter().enumerate().map(|(d, &c)| d as u64 * c).sum();
    let class = table.goal().parity_class();
    let mut farthest: Vec<State> = table
        .entries()?
        .iter()
        .enumerate()
        .filter(|&(_, &d)| d == header.max_depth)
        .take(listed)
        .map(|(index, _)| {
            table
                .space()
                .unrank(
                    u32::try_from(index).expect("a table's ranks are u32"),
                    class,
                )
                .relabel_from_canonical(goal)
        })
        .collect();
    farthest.sort_by_key(|s| s.to_string());
    Ok(DepthStats {
        metric,
        goal: *goal,
        table_goal: *table.goal(),
        counts,
        total,
        mean: weighted as f64 / total as f64,
        farthest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::How;

    /// The farthest states, renamed into a relabelled goal's labels, are each at the largest
    /// distance from that goal when asked one by one; the counts are the canonical table's.
    #[test]
    fn farthest_states_are_in_the_goals_labels() {
        let oracle = Oracle::in_memory();
        for goal in ["087654321", "3 1 / 2 0", "5 4 3 / 2 1 0"] {
            let goal = State::parse(goal, None).unwrap();
            let stats = oracle.depth_stats(&goal, Metric::Stm, 5).unwrap();
            let canonical = State::canonical_goal(goal.board(), goal.blank());
            assert_eq!(stats.table_goal, canonical);
            assert_eq!(stats.total, stats.counts.iter().sum::<u64>());
            assert!(!stats.farthest.is_empty() && stats.farthest.len() <= 5);
            let max = u8::try_from(stats.max_depth()).unwrap();
            for state in &stats.farthest {
                let answer = oracle.distance(state, &goal, How::default()).unwrap();
                assert_eq!(answer.value, Ok(max), "{state} to {goal}");
            }
        }
    }
}
