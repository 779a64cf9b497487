//! What the server may build: the tables and pattern databases it answers from are the ones
//! present in the data directory, unless it was started with `--build`; then it builds what
//! a question needs, one build at a time, while everything it holds and the build's working
//! memory stay within `--max-memory`. A question that would need more is refused with 503
//! and a message saying what to do ([`Refused`]), never by building anyway: each 12-cell goal
//! is a 240 MB table, and any client can ask for any goal.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use npuzzle::answer::{SourceError, TableSource};
use npuzzle::pattern::{PatternDatabase, PatternSpace};
use npuzzle::store::StoredBytes;
use npuzzle::table::file;
use npuzzle::{RankSpace, State, Table};

/// Why the server did not build or open what a question needs: answered with 503.
#[derive(Debug)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// The server's build policy.
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    /// Whether missing tables and databases may be built (`--build`).
    pub build: bool,
    /// The most memory (bytes) the tables and databases held plus a build's working memory
    /// may take (`--max-memory`).
    pub max_memory: u64,
}

/// The default `--max-memory`: a quarter of the machine's memory
/// ([`npuzzle::memory::total`]), or 1 GiB where that cannot be read.
pub fn default_max_memory() -> u64 {
    npuzzle::memory::total().map_or(1 << 30, |bytes| bytes / 4)
}

/// Reads a `--max-memory` value, a size as [`npuzzle::memory::parse_size`] reads it (`512M`,
/// `1.5G`).
///
/// # Errors
/// The reason, for clap to print beside the flag: not a size, or 0.
pub fn parse_memory(text: &str) -> Result<u64, String> {
    npuzzle::memory::parse_size(text).map_err(|e| e.to_string())
}

/// Megabytes, for messages.
fn mb(bytes: u64) -> String {
    format!("{:.0} MB", bytes as f64 / 1e6)
}

/// The server's [`TableSource`]: the data directory's (or memory's) source under a
/// [`Policy`].
pub struct PolicySource<S> {
    inner: S,
    /// The data directory, where present files are looked for (`None`: tables in memory).
    dir: Option<PathBuf>,
    policy: Policy,
    /// Bytes of the tables and databases given out so far.
    held: AtomicU64,
    /// Held while a build runs: one at a time.
    building: Mutex<()>,
}

impl<S: TableSource> PolicySource<S> {
    /// `inner` under `policy`, its files in `dir`.
    pub fn new(inner: S, dir: Option<PathBuf>, policy: Policy) -> PolicySource<S> {
        PolicySource {
            inner,
            dir,
            policy,
            held: AtomicU64::new(0),
            building: Mutex::new(()),
        }
    }

    /// Bytes held now.
    fn held(&self) -> u64 {
        self.held.load(Ordering::Relaxed)
    }

    /// Refuses what would take the memory past the budget: `kept` held afterwards, `working`
    /// more while it is built.
    fn within_budget(&self, what: &str, kept: u64, working: u64) -> Result<(), Refused> {
        let need = self.held() + kept + working;
        if need > self.policy.max_memory {
            return Err(Refused(format!(
                "the {what} would take the server to {} of memory, over its --max-memory of {} ({} held now); start it with a larger --max-memory, or ask about a board or goal it has open",
                mb(need),
                mb(self.policy.max_memory),
                mb(self.held())
            )));
        }
        Ok(())
    }

    /// Runs `build` as the one build of the moment, or refuses when another runs or the
    /// policy does not build.
    fn build_one<T>(
        &self,
        what: &str,
        hint: &str,
        build: impl FnOnce() -> Result<T, SourceError>,
    ) -> Result<T, SourceError> {
        if !self.policy.build {
            return Err(Box::new(Refused(format!(
                "the {what} is not in the server's data directory, and the server does not build (start it with --build, or run `{hint}` first)"
            ))));
        }
        let Ok(_one) = self.building.try_lock() else {
            return Err(Box::new(Refused(format!(
                "busy: the server is building another table; the {what} must wait for it, try again in a minute"
            ))));
        };
        build()
    }
}

/// The build command a hint names for `goal`'s table in `metric`.
fn table_hint(goal: &State, metric: npuzzle::Metric) -> String {
    let option = match metric {
        npuzzle::Metric::Stm => "",
        npuzzle::Metric::Mtm => " --metric mtm",
    };
    format!(
        "npuzzle build{option} --board {} --goal {goal}",
        goal.board()
    )
}

impl<S: TableSource> PolicySource<S> {
    /// The table of `goal` in `metric` (one byte per state) in the data directory's file of
    /// that metric: opened within the budget when present and sound (its header's goal and
    /// metric the ones asked for), else built by `build` (the inner source) under the build
    /// policy, within the budget.
    fn table_in_metric(
        &self,
        goal: &State,
        metric: npuzzle::Metric,
        build: impl FnOnce() -> Result<Table<StoredBytes>, SourceError>,
    ) -> Result<Table<StoredBytes>, SourceError> {
        let (name, label) = match metric {
            npuzzle::Metric::Stm => (npuzzle::store::file::file_name(goal), ""),
            npuzzle::Metric::Mtm => (npuzzle::store::file::mtm_file_name(goal), "MTM "),
        };
        // One byte per state.
        let bytes = u64::from(RankSpace::new(goal.board())?.states());
        let what = format!(
            "{} {label}table for goal {goal} ({})",
            goal.board(),
            mb(bytes)
        );
        let hint = table_hint(goal, metric);
        let path = self.dir.as_ref().map(|dir| dir.join(&name));
        let sound =
            path.as_ref().filter(|path| path.is_file()).map(|path| {
                self.within_budget(&what, bytes, 0)?;
                // A damaged file would be rebuilt by the inner source: that is a build too.
                Ok::<_, SourceError>(file::open_trusted(path).ok().filter(|table| {
                    table.expect(goal).is_ok() && table.expect_metric(metric).is_ok()
                }))
            });
        let table = match sound.transpose()?.flatten() {
            Some(table) => table,
            None => self.build_one(&what, &hint, || {
                // The generator's layers and parities: about a third of the body more.
                self.within_budget(&what, bytes, bytes / 2)?;
                build()
            })?,
        };
        self.held.fetch_add(bytes, Ordering::Relaxed);
        Ok(table)
    }
}

impl<S: TableSource> TableSource for PolicySource<S> {
    fn table(&self, goal: &State) -> Result<Table<StoredBytes>, SourceError> {
        self.table_in_metric(goal, npuzzle::Metric::Stm, || self.inner.table(goal))
    }

    fn damaged(&self, goal: &State) {
        self.inner.damaged(goal);
    }

    /// The MTM table under the same policy as [`PolicySource::table`]: its own file in the
    /// data directory, built by the inner source (and saved there) only under `--build`.
    fn mtm_table(&self, goal: &State) -> Result<Option<Table<StoredBytes>>, SourceError> {
        let table = self.table_in_metric(goal, npuzzle::Metric::Mtm, || {
            self.inner.mtm_table(goal)?.ok_or_else(|| -> SourceError {
                Box::new(Refused(
                    "the server's table source keeps no MTM tables".to_string(),
                ))
            })
        })?;
        Ok(Some(table))
    }

    fn damaged_mtm(&self, goal: &State) {
        self.inner.damaged_mtm(goal);
    }

    /// The MTM colouring database only where its file is already in the data directory (the
    /// inner source opens and checks it): the server never builds its 151 MB, and without it
    /// the 4x4 MTM search uses the 5-tile databases.
    fn mtm_colouring_database(
        &self,
        goal: &State,
        colouring: &npuzzle::mtm::colouring::Colouring,
    ) -> Result<Option<npuzzle::mtm::colouring::ColouringDb<StoredBytes>>, SourceError> {
        let name = npuzzle::mtm::colouring_file::colouring_file_name(goal, colouring);
        if self
            .dir
            .as_ref()
            .is_some_and(|dir| dir.join(&name).is_file())
        {
            return self.inner.mtm_colouring_database(goal, colouring);
        }
        Err(Box::new(Refused(format!(
            "the server builds no MTM colouring database ({name} is not in the data directory)"
        ))))
    }

    /// A database present in the data directory is opened (its first use checks it deeply);
    /// a missing one is built only under `--build`, within the budget, else the question is
    /// searched without it (never refused for that: the search has its own limit).
    fn pattern_database(
        &self,
        goal: &State,
        tiles: &[u8],
        build: bool,
    ) -> Result<Option<PatternDatabase<StoredBytes>>, SourceError> {
        let space = PatternSpace::new(goal.board(), tiles)?;
        let entries = space.entries();
        let kept = entries.div_ceil(2);
        let what = format!("pattern database of tiles {tiles:?} for goal {goal}");
        let present = self.dir.as_ref().is_some_and(|dir| {
            dir.join(npuzzle::store::file::pattern_file_name(goal, tiles))
                .is_file()
        });
        if present && self.within_budget(&what, kept, 0).is_ok() {
            if let Some(db) = self.inner.pattern_database(goal, tiles, false)? {
                self.held.fetch_add(kept, Ordering::Relaxed);
                return Ok(Some(db));
            }
        }
        if !(build && self.policy.build) {
            return Ok(None);
        }
        // Three masks (1, 2 or 4 bytes by free cells) and a byte per placement.
        let free = goal.board().cells() - tiles.len();
        let mask = if free <= 8 {
            1
        } else if free <= 16 {
            2
        } else {
            4
        };
        let working = entries * (3 * mask + 1);
        if self.within_budget(&what, kept, working).is_err() {
            return Ok(None);
        }
        let Ok(_one) = self.building.try_lock() else {
            return Ok(None);
        };
        let db = self.inner.pattern_database(goal, tiles, true)?;
        if db.is_some() {
            self.held.fetch_add(kept, Ordering::Relaxed);
        }
        Ok(db)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_with_their_units() {
        // The grammar is the library's (`npuzzle::memory`); here, that its errors reach clap.
        assert_eq!(parse_memory("1.5GiB"), Ok(3 << 29));
        assert!(parse_memory("0").unwrap_err().contains("more than 0"));
        assert!(parse_memory("lots").unwrap_err().contains("`lots`"));
        assert!(default_max_memory() > 0);
    }
}
