//! The answer layer under the multi-tile metric: which way an MTM question goes.
//!
//! Boards with tables read the MTM table of the goal's board and blank cell (built in memory
//! on first use and kept for the oracle's life); every other question is searched by IDA*
//! with the MTM estimate of the goal, kept for the oracle's life (the walking distance, maxed
//! on 4x4 with Rokicki's colouring database where the goal's blank is on the last cell,
//! opened from or saved in the data directory, else with MTM pattern databases built in
//! memory: [`crate::mtm::heuristic::MtmHeuristic`]; [`crate::mtm::search::ida_star`]).

use std::sync::Arc;

use super::{Answer, AnswerError, Choice, Draws, Exact, How, Judged, Method, NoAnswer, Oracle};
use crate::generate::BuildOptions;
use crate::metric::Metric;
use crate::mtm::colouring::{Colouring, ColouringDb};
use crate::mtm::heuristic::MtmHeuristic;
use crate::mtm::search::ida_star;
use crate::mtm::MtmTable;
use crate::sample::{self as sampling, SampleOptions};
use crate::search::{Algorithm, Outcome};
use crate::solution::Solution;
use crate::state::State;
use crate::store::StoredBytes;
use crate::table::TableError;
use crate::verify::{self, Claim};

use super::source::build_colouring_isolated;

/// Whether the colouring database's estimate is maxed with the walking distance (measured in
/// BENCHMARKS.md, "MTM 4x4 optimal: the relabelled database").
const COLOURING_WITH_WALKING: bool = false;

/// Where an MTM question goes.
enum MtmRoute<'a> {
    Unsolvable,
    Table(&'a MtmTable),
    Search,
}

impl Oracle {
    /// The MTM table serving `goal` (its board and blank cell), from the source where it keeps
    /// MTM tables ([`TableSource::mtm_table`](super::TableSource::mtm_table): a data
    /// directory opens or builds and saves its own file), else built in memory, on first use;
    /// `None` where the oracle uses no table for the board.
    ///
    /// # Errors
    /// [`AnswerError::Source`] when the source cannot give it.
    pub fn mtm_table(&self, goal: &State) -> Result<Option<&MtmTable>, AnswerError> {
        if !self.uses_table(goal.board()) {
            return Ok(None);
        }
        // As for STM tables: one load at a time, each once.
        self.mtm_tables
            .get_or_load(goal.board(), goal.blank(), &self.loading, || {
                let canonical = State::canonical_goal(goal.board(), goal.blank());
                let kept = match &self.source {
                    Some(source) => {
                        source
                            .mtm_table(&canonical)
                            .map_err(|reason| AnswerError::Source {
                                goal: canonical,
                                reason,
                            })?
                    }
                    None => None,
                };
                Ok(match kept {
                    // The source's table is checked to count MTM moves, whatever it was
                    // opened from.
                    Some(table) => {
                        MtmTable::from_table(table).map_err(|mismatch| AnswerError::Source {
                            goal: canonical,
                            reason: Box::new(mismatch),
                        })?
                    }
                    None => MtmTable::build(&canonical, BuildOptions::default())
                        .expect("a board with tables can be ranked"),
                })
            })
    }

    /// An MTM table's reply, telling the source about damage (as [`Oracle::read`] does for
    /// STM tables) so that a damaged file is not opened again.
    fn read_mtm<T>(
        &self,
        table: &MtmTable,
        reply: Result<T, TableError>,
    ) -> Result<T, AnswerError> {
        if let (Err(TableError::Damaged { .. }), Some(source)) = (&reply, &self.source) {
            source.damaged_mtm(table.table().goal());
        }
        Ok(reply?)
    }

    fn mtm_estimate(&self, goal: &State) -> Arc<MtmHeuristic> {
        let mut known = self.mtm_estimates.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(known.entry(*goal).or_insert_with(|| {
            let colouring = Colouring::four_by_four();
            let db = (goal.board() == colouring.board() && goal.blank() == colouring.blank())
                .then(|| self.mtm_colouring_database())
                .flatten();
            Arc::new(match db {
                // Any goal with the blank on the colouring's cell: its tiles take the classes
                // of their goal cells (a relabelling that keeps the blank's cell).
                Some(db) => MtmHeuristic::with_colouring(goal, db, COLOURING_WITH_WALKING)
                    .expect("the goal's board and blank cell are the colouring's"),
                None => MtmHeuristic::new(goal),
            })
        }))
    }

    /// The 4x4 colouring database towards the default goal, from the source (a data
    /// directory opens or builds and saves its file), else, where the source keeps none
    /// (`Ok(None)`) or there is no source, built (and deep-checked) in memory, once; `None`
    /// where the source refused or the build failed (the search then uses the 5-tile
    /// databases).
    fn mtm_colouring_database(&self) -> Option<Arc<ColouringDb<StoredBytes>>> {
        self.mtm_colouring
            .get_or_init(|| {
                let colouring = Colouring::four_by_four();
                let goal = State::goal(colouring.board());
                // A source that refuses (the server's, without the file) means no database.
                let kept = match &self.source {
                    Some(source) => source.mtm_colouring_database(&goal, &colouring).ok()?,
                    None => None,
                };
                let db = match kept {
                    Some(db) => db,
                    None => {
                        let built = build_colouring_isolated(&goal, &colouring, None).ok()?;
                        built.verify_deep().ok()?;
                        built.map_into()
                    }
                };
                // On huge pages where the system gives them: the search reads it at random.
                Some(Arc::new(db.resident().unwrap_or(db)))
            })
            .clone()
    }

    fn mtm_route(
        &self,
        start: &State,
        goal: &State,
        how: How,
    ) -> Result<MtmRoute<'_>, AnswerError> {
        Oracle::same_board(start, goal)?;
        // An open table tells an unsolvable pair as it ranks; otherwise parity decides first,
        // so that a question with no answer neither builds a table nor searches.
        let open = self
            .mtm_tables
            .slot(goal.board(), goal.blank())
            .and_then(|slot| slot.get());
        if let Some(table) = open.filter(|_| how.choice.may_use_table()) {
            return Ok(MtmRoute::Table(table));
        }
        if !start.can_reach(goal) {
            return Ok(MtmRoute::Unsolvable);
        }
        let table = match how.choice {
            Choice::Auto(_) => self.mtm_table(goal)?,
            Choice::Table => Some(self.mtm_table(goal)?.ok_or(AnswerError::NoTable {
                board: goal.board(),
            })?),
            _ => None,
        };
        Ok(table.map_or(MtmRoute::Search, MtmRoute::Table))
    }

    /// [`Oracle::distance`] under MTM.
    pub(super) fn mtm_distance(
        &self,
        start: &State,
        goal: &State,
        how: How,
    ) -> Result<Answer<u8>, AnswerError> {
        match self.mtm_route(start, goal, how)? {
            MtmRoute::Unsolvable => Ok(Answer::of(
                Err(NoAnswer::unsolvable(start, goal)),
                Method::Reasoning,
            )),
            MtmRoute::Table(table) => {
                // Checked against the neighbours' entries (one slide away), as an STM answer
                // is: an entry edited behind valid checksums is refused rather than answered.
                let value = self.read_mtm(table, table.distance_to_checked(start, goal))?;
                Ok(Answer::of(
                    value.ok_or_else(|| NoAnswer::unsolvable(start, goal)),
                    Method::Table {
                        goal: *table.table().goal(),
                    },
                ))
            }
            MtmRoute::Search => Ok(self.mtm_search(start, goal, how).map(|s| {
                u8::try_from(Metric::Mtm.length(s.moves())).expect(
                    "an optimal search that finishes on at most 25 cells ends below 256 moves",
                )
            })),
        }
    }

    /// [`Oracle::solve`] under MTM: the moves are single-cell moves, a slide of `k` cells
    /// written as `k` equal letters.
    pub(super) fn mtm_solve(
        &self,
        start: &State,
        goal: &State,
        how: How,
    ) -> Result<Answer<Solution>, AnswerError> {
        match self.mtm_route(start, goal, how)? {
            MtmRoute::Unsolvable => Ok(Answer::of(
                Err(NoAnswer::unsolvable(start, goal)),
                Method::Reasoning,
            )),
            MtmRoute::Table(table) => {
                let value = self
                    .read_mtm(table, table.solve_to(start, goal))?
                    .ok_or_else(|| NoAnswer::unsolvable(start, goal));
                let mut answer = Answer::of(
                    value,
                    Method::Table {
                        goal: *table.table().goal(),
                    },
                );
                if let Ok(solution) = &answer.value {
                    answer.expanded = solution.len() as u64;
                }
                Ok(answer)
            }
            MtmRoute::Search => Ok(self.mtm_search(start, goal, how)),
        }
    }

    /// [`Oracle::judge`] under MTM: against the MTM table where the board has one, else from
    /// the claim alone where that decides, else against the MTM search's distance.
    pub(super) fn mtm_judge(
        &self,
        start: &State,
        goal: &State,
        claim: &Claim,
        how: How,
    ) -> Result<Answer<Judged>, AnswerError> {
        let judged = |exact: Option<u8>| Judged {
            verdict: verify::judge_held_to(how.guarantee, Metric::Mtm, start, goal, exact, claim),
            exact: exact.map_or(Exact::Unsolvable, Exact::Distance),
        };
        let route = self.mtm_route(start, goal, how)?;
        if let MtmRoute::Unsolvable = route {
            return Ok(Answer::of(Ok(judged(None)), Method::Reasoning));
        }
        if let MtmRoute::Search = route {
            if let Some(verdict) = verify::judge_without_distance(start, goal, claim) {
                let judged = Judged {
                    verdict,
                    exact: Exact::Unknown,
                };
                return Ok(Answer::of(Ok(judged), Method::Reasoning));
            }
        }
        let (found, cost) = self.mtm_distance(start, goal, how)?.split();
        let value = match found {
            Ok(d) => judged(Some(d)),
            Err(NoAnswer::Unsolvable(_)) => judged(None),
            Err(NoAnswer::GaveUp(limit)) => {
                Judged::search_gave_up(Metric::Mtm, goal.board(), limit, cost.expanded)
            }
        };
        Ok(cost.map(|()| value))
    }

    /// [`Oracle::sample`] with depths (and the instances' distances) in `metric`: under MTM
    /// from the MTM table where the board has one; elsewhere uniformly, as under STM.
    ///
    /// # Errors
    /// As [`Oracle::sample`].
    pub fn sample_in(
        &self,
        metric: Metric,
        goal: &State,
        options: &SampleOptions,
        seed: u64,
    ) -> Result<Draws<'_>, AnswerError> {
        if metric == Metric::Stm {
            return self.sample(goal, options, seed);
        }
        match self.mtm_table(goal)? {
            Some(table) => Ok(Box::new(sampling::sample(
                table.table(),
                goal,
                options,
                seed,
            )?)),
            None => Ok(Box::new(sampling::sample_uniform(goal, options, seed)?)),
        }
    }

    fn mtm_search(&self, start: &State, goal: &State, how: How) -> Answer<Solution> {
        let estimate = self.mtm_estimate(goal);
        let result = ida_star(start, &*estimate, &how.limits);
        let value = match result.outcome {
            Outcome::Solved(solution) => Ok(solution),
            Outcome::GaveUp(limit) => Err(NoAnswer::GaveUp(limit)),
            Outcome::Unsolvable | Outcome::Refused(_) => Err(NoAnswer::unsolvable(start, goal)),
        };
        Answer {
            value,
            method: Method::Search {
                algorithm: Algorithm::IdaStar,
                heuristic: None,
                databases: None,
            },
            expanded: result.expanded,
            generated: result.generated,
            elapsed: result.elapsed,
        }
    }
}
