//! The checkpoint of a long parallel IDA*: the bound of the current iteration, which of its
//! subtrees ([`split`](super::split)) are finished, the smallest value beyond the bound they
//! saw, and the nodes counted, so that a restarted search skips the work already done and
//! gives the same answer.
//!
//! A small text file, written to a temporary file in the same directory and renamed over the
//! old one (a reader sees the old checkpoint or the new one, never half of one). It names the
//! start, the goal and a fingerprint of the heuristic, and ends with a CRC-32 of everything
//! before it: a checkpoint that is damaged, or belongs to another question or heuristic, is
//! refused ([`CheckpointError`]), never trusted, since trusting it could skip a subtree that
//! holds the shortest path.
//!
//! ```
//! use npuzzle::search::checkpoint::Checkpoint;
//! let start = "867254301".parse()?;
//! let goal = "123456780".parse()?;
//! let mut checkpoint = Checkpoint::new(start, goal, 0x1234, 64, 29);
//! checkpoint.mark(3, Some(31), 120, 300);
//! let text = checkpoint.to_text();
//! assert_eq!(Checkpoint::parse(&text, "file")?, checkpoint);
//! // One changed character and the checksum refuses it.
//! assert!(Checkpoint::parse(&text.replace("bound 29", "bound 30"), "file").is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;
use std::path::Path;

use crate::board::Move;
use crate::heuristic::Heuristic;
use crate::state::State;

/// The first line of every checkpoint, with the format's version.
const MAGIC: &str = "npuzzle-checkpoint 1";

/// The largest checkpoint read: a few hundred bytes and one hex digit per four subtrees
/// (64 MiB would name 2^28 subtrees, far past any split).
const MAX_BYTES: u64 = 64 << 20;

/// Why a checkpoint was not used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CheckpointError {
    /// The file exists but could not be read, or could not be written.
    #[error("checkpoint {path}: {reason}")]
    Io {
        /// The file.
        path: String,
        /// The system's reason.
        reason: String,
    },
    /// The file is not a whole checkpoint: truncated, edited, or not a checkpoint at all.
    #[error("checkpoint {path} is damaged ({reason}); it was not used: delete it to start over")]
    Damaged {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A sound checkpoint of another search.
    #[error("checkpoint {path} belongs to another search ({what}); it was not used: give another file or delete it")]
    Foreign {
        /// The file.
        path: String,
        /// What differs.
        what: String,
    },
}

/// The state of one iteration of a parallel IDA*, as saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The start searched from.
    pub start: State,
    /// The goal.
    pub goal: State,
    /// The heuristic's [`fingerprint`].
    pub heuristic: u32,
    /// The `at_least` given to [`split`](super::split::split).
    pub at_least: usize,
    /// The iteration's bound.
    pub bound: u32,
    /// How many subtrees the split gave (known once the iteration has begun; 0 before).
    pub subtrees: usize,
    /// The finished subtrees, one bit each.
    pub done: Vec<u64>,
    /// The smallest `g + h` beyond the bound seen by the split and the finished subtrees.
    pub next: Option<u32>,
    /// Nodes expanded: earlier iterations, this iteration's split and its finished subtrees.
    pub expanded: u64,
    /// Nodes generated, counted the same way.
    pub generated: u64,
}

impl Checkpoint {
    /// The checkpoint of an iteration at `bound` before any subtree is finished.
    pub fn new(start: State, goal: State, heuristic: u32, at_least: usize, bound: u32) -> Self {
        Checkpoint {
            start,
            goal,
            heuristic,
            at_least,
            bound,
            subtrees: 0,
            done: Vec::new(),
            next: None,
            expanded: 0,
            generated: 0,
        }
    }

    /// Records subtree `index` as finished, with its smallest value beyond the bound and its
    /// nodes.
    pub fn mark(&mut self, index: usize, next: Option<u32>, expanded: u64, generated: u64) {
        if self.done.len() <= index / 64 {
            self.done.resize(index / 64 + 1, 0);
        }
        self.done[index / 64] |= 1 << (index % 64);
        self.subtrees = self.subtrees.max(index + 1);
        self.note_next(next);
        self.expanded += expanded;
        self.generated += generated;
    }

    /// Lowers the next bound to `next` where it is smaller.
    pub fn note_next(&mut self, next: Option<u32>) {
        if let Some(f) = next {
            self.next = Some(self.next.map_or(f, |n| n.min(f)));
        }
    }

    /// Whether subtree `index` is finished.
    pub fn is_done(&self, index: usize) -> bool {
        self.done
            .get(index / 64)
            .is_some_and(|word| word >> (index % 64) & 1 == 1)
    }

    /// How many subtrees are finished.
    pub fn finished(&self) -> usize {
        self.done.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The file's text, checksum last.
    pub fn to_text(&self) -> String {
        let done: String = self.done.iter().map(|w| format!("{w:016x}")).collect();
        let body = format!(
            "{MAGIC}\nstart {}\ngoal {}\nheuristic {:08x}\nsplit {}\nbound {}\nsubtrees {}\nnext {}\nexpanded {}\ngenerated {}\ndone {}\n",
            self.start,
            self.goal,
            self.heuristic,
            self.at_least,
            self.bound,
            self.subtrees,
            self.next.map_or("none".to_string(), |n| n.to_string()),
            self.expanded,
            self.generated,
            if done.is_empty() { "-" } else { &done },
        );
        let crc = crc32fast::hash(body.as_bytes());
        format!("{body}crc32 {crc:08x}\n")
    }

    /// Reads a checkpoint's text (`path` names it in errors).
    ///
    /// # Errors
    /// [`CheckpointError::Damaged`] for anything but a whole checkpoint with its checksum.
    pub fn parse(text: &str, path: &str) -> Result<Checkpoint, CheckpointError> {
        let damaged = |reason: &str| CheckpointError::Damaged {
            path: path.to_string(),
            reason: reason.to_string(),
        };
        let Some(at) = text.rfind("crc32 ") else {
            return Err(damaged("no checksum"));
        };
        let (body, tail) = text.split_at(at);
        let hex = tail["crc32 ".len()..]
            .strip_suffix('\n')
            .filter(|hex| hex.len() == 8)
            .ok_or_else(|| damaged("unreadable checksum"))?;
        let crc = u32::from_str_radix(hex, 16).map_err(|_| damaged("unreadable checksum"))?;
        if crc != crc32fast::hash(body.as_bytes()) {
            return Err(damaged("the checksum does not match"));
        }
        let mut lines = body.lines();
        if lines.next() != Some(MAGIC) {
            return Err(damaged("not an npuzzle checkpoint of this version"));
        }
        let mut field = |key: &str| -> Result<&str, CheckpointError> {
            lines
                .next()
                .and_then(|line| line.strip_prefix(key))
                .and_then(|rest| rest.strip_prefix(' '))
                .ok_or_else(|| damaged(&format!("no `{key}` line")))
        };
        let bad = |key: &str| damaged(&format!("unreadable `{key}`"));
        let start: State = field("start")?.parse().map_err(|_| bad("start"))?;
        let goal: State = field("goal")?.parse().map_err(|_| bad("goal"))?;
        let heuristic =
            u32::from_str_radix(field("heuristic")?, 16).map_err(|_| bad("heuristic"))?;
        let at_least = field("split")?.parse().map_err(|_| bad("split"))?;
        let bound = field("bound")?.parse().map_err(|_| bad("bound"))?;
        let subtrees: usize = field("subtrees")?.parse().map_err(|_| bad("subtrees"))?;
        let next = match field("next")? {
            "none" => None,
            n => Some(n.parse().map_err(|_| bad("next"))?),
        };
        let expanded = field("expanded")?.parse().map_err(|_| bad("expanded"))?;
        let generated = field("generated")?.parse().map_err(|_| bad("generated"))?;
        let done_text = field("done")?;
        let done = if done_text == "-" {
            Vec::new()
        } else {
            if done_text.len() % 16 != 0 || !done_text.is_ascii() {
                return Err(bad("done"));
            }
            (0..done_text.len() / 16)
                .map(|i| u64::from_str_radix(&done_text[i * 16..i * 16 + 16], 16))
                .collect::<Result<Vec<u64>, _>>()
                .map_err(|_| bad("done"))?
        };
        if done.len() > subtrees.div_ceil(64) {
            return Err(bad("done"));
        }
        Ok(Checkpoint {
            start,
            goal,
            heuristic,
            at_least,
            bound,
            subtrees,
            done,
            next,
            expanded,
            generated,
        })
    }

    /// Reads the checkpoint in `path`; `Ok(None)` when there is no such file.
    ///
    /// # Errors
    /// The file cannot be read, or is not a whole checkpoint.
    pub fn load(path: &Path) -> Result<Option<Checkpoint>, CheckpointError> {
        let name = path.display().to_string();
        let damaged = |reason: &str| CheckpointError::Damaged {
            path: name.clone(),
            reason: reason.to_string(),
        };
        // Only a regular file is read, and only so much of it: a FIFO in its place would
        // block the run (or the report) forever, and `/dev/zero` would fill the memory.
        match std::fs::metadata(path) {
            Ok(meta) if !meta.is_file() => return Err(damaged("not a regular file")),
            Ok(meta) if meta.len() > MAX_BYTES => {
                return Err(damaged(&format!("larger than {MAX_BYTES} bytes")))
            }
            _ => {}
        }
        match std::fs::read(path) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes).map_err(|_| damaged("not text"))?;
                Checkpoint::parse(&text, &name).map(Some)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(CheckpointError::Io {
                path: name,
                reason: e.to_string(),
            }),
        }
    }

    /// Whether this checkpoint is one of the search from `start` to `goal` with a heuristic of
    /// fingerprint `heuristic`, split with `at_least`.
    ///
    /// # Errors
    /// [`CheckpointError::Foreign`] naming what differs.
    pub fn check(
        &self,
        start: &State,
        goal: &State,
        heuristic: u32,
        at_least: usize,
        path: &Path,
    ) -> Result<(), CheckpointError> {
        let what = if self.start != *start {
            format!("start {}", self.start)
        } else if self.goal != *goal {
            format!("goal {}", self.goal)
        } else if self.heuristic != heuristic {
            "another heuristic".to_string()
        } else if self.at_least != at_least {
            format!("split into {} subtrees", self.at_least)
        } else {
            return Ok(());
        };
        Err(CheckpointError::Foreign {
            path: path.display().to_string(),
            what,
        })
    }

    /// Writes the checkpoint to `path` atomically: a temporary file in the same directory,
    /// flushed, then renamed over `path`.
    ///
    /// # Errors
    /// The directory cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        let io = |e: std::io::Error| CheckpointError::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        };
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let mut temp = tempfile::Builder::new()
            .prefix(".npuzzle-checkpoint")
            .tempfile_in(dir)
            .map_err(io)?;
        temp.write_all(self.to_text().as_bytes()).map_err(io)?;
        temp.as_file().sync_all().map_err(io)?;
        temp.persist(path).map_err(|e| io(e.error))?;
        Ok(())
    }
}

/// A fingerprint of heuristic `h` seen from `start`: a CRC-32 of its type's name and of its
/// estimates for every state within four moves of `start`. Two heuristics that disagree near
/// the start (Manhattan distance against pattern databases, or two partitions) differ.
pub fn fingerprint<H: Heuristic>(start: &State, h: &H) -> u32 {
    let mut crc = crc32fast::Hasher::new();
    crc.update(std::any::type_name::<H>().as_bytes());
    let mut level = vec![(*start, None::<Move>)];
    for _ in 0..=4 {
        let mut next = Vec::new();
        for (state, last) in level {
            crc.update(&h.estimate_cells(state.cells()).to_le_bytes());
            for mv in Move::ALL {
                if Some(mv.inverse()) == last {
                    continue;
                }
                if let Some(child) = state.apply(mv) {
                    next.push((child, Some(mv)));
                }
            }
        }
        level = next;
    }
    crc.finalize()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::{LinearConflict, Manhattan};

    fn sample() -> Checkpoint {
        let mut c = Checkpoint::new(
            "867254301".parse().unwrap(),
            "123456780".parse().unwrap(),
            7,
            100,
            29,
        );
        c.subtrees = 130;
        c.mark(0, Some(33), 5, 9);
        c.mark(129, Some(31), 5, 9);
        c.mark(64, None, 1, 1);
        c
    }

    /// A FIFO or a directory in a checkpoint's place is refused at once, not waited on (a
    /// FIFO blocks its reader until a writer comes) or read.
    #[cfg(unix)]
    #[test]
    fn only_a_regular_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("a.checkpoint");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        for path in [fifo.as_path(), dir.path()] {
            match Checkpoint::load(path) {
                Err(CheckpointError::Damaged { reason, .. }) => {
                    assert_eq!(reason, "not a regular file");
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(Checkpoint::load(&dir.path().join("none")), Ok(None));
    }

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        let c = sample();
        let back = Checkpoint::parse(&c.to_text(), "f").unwrap();
        assert_eq!(back, c);
        assert!(back.is_done(0) && back.is_done(64) && back.is_done(129) && !back.is_done(1));
        assert_eq!(back.finished(), 3);
        assert_eq!(back.next, Some(31));
    }

    #[test]
    fn any_damage_is_refused() {
        let text = sample().to_text();
        // Every truncation and every single changed byte.
        for cut in 0..text.len() {
            assert!(
                Checkpoint::parse(&text[..cut], "f").is_err(),
                "cut at {cut}"
            );
        }
        for i in 0..text.len() {
            let mut bytes = text.clone().into_bytes();
            bytes[i] = if bytes[i] == b'0' { b'1' } else { b'0' };
            if let Ok(changed) = String::from_utf8(bytes) {
                if changed != text {
                    assert!(Checkpoint::parse(&changed, "f").is_err(), "byte {i}");
                }
            }
        }
    }

    #[test]
    fn another_search_is_refused() {
        let c = sample();
        let p = Path::new("f");
        assert!(c.check(&c.start, &c.goal, 7, 100, p).is_ok());
        let other: State = "123456780".parse().unwrap();
        assert!(matches!(
            c.check(&other, &c.goal, 7, 100, p),
            Err(CheckpointError::Foreign { .. })
        ));
        assert!(c.check(&c.start, &c.goal, 8, 100, p).is_err());
        assert!(c.check(&c.start, &c.goal, 7, 99, p).is_err());
    }

    #[test]
    fn fingerprints_tell_heuristics_apart() {
        let goal: State = "123456780".parse().unwrap();
        let start: State = "867254301".parse().unwrap();
        let m = fingerprint(&start, &Manhattan::new(&goal));
        assert_eq!(m, fingerprint(&start, &Manhattan::new(&goal)));
        assert_ne!(m, fingerprint(&start, &LinearConflict::new(&goal)));
    }
}
