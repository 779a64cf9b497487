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
//! holds the shortest path. For the same reason it names the split its subtree numbers refer
//! to ([`Checkpoint::prefixes`]): a build that splits the bound otherwise refuses it.
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

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use crate::board::Move;
use crate::heuristic::Heuristic;
use crate::search::prune::{LENGTH_BEFORE_12, MAX_LENGTH};
use crate::state::State;

/// The first line of every checkpoint, with the format's version: 2 adds the lines
/// `previous` and `sizes` ([`Checkpoint::previous`], [`Checkpoint::sizes`]); 3 the line
/// `partial N` and its N lines ([`Checkpoint::partial`]); 4 the line `automaton N`
/// ([`Checkpoint::automaton`]); 5 the line `prefixes CRC` ([`Checkpoint::prefixes`]).
const MAGIC: &str = "npuzzle-checkpoint 5";

/// Version 4's first line: read as a checkpoint without [`Checkpoint::prefixes`].
const MAGIC_4: &str = "npuzzle-checkpoint 4";

/// Version 3's first line: read as a checkpoint of the automaton of
/// [`LENGTH_BEFORE_12`] moves.
const MAGIC_3: &str = "npuzzle-checkpoint 3";

/// Version 2's first line: read as a checkpoint without partial subtrees.
const MAGIC_2: &str = "npuzzle-checkpoint 2";

/// Version 1's first line: read as a checkpoint with none of the later lines.
const MAGIC_1: &str = "npuzzle-checkpoint 1";

/// The largest checkpoint read: a few hundred bytes, then per subtree a hex digit per four
/// and two decimal numbers (its key and its size), and the partial subtrees' lines (#10's,
/// of 6,888 subtrees, is 72 KB): 64 MiB is far past any split's.
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
    /// The longest move strings compared by the move-pruning automaton the iteration was
    /// split with ([`for_board_up_to`]): [`MAX_LENGTH`] for a search begun now,
    /// [`LENGTH_BEFORE_12`] for a checkpoint of versions 1 to 3. The split's subtrees, and so
    /// the bits of [`done`](Checkpoint::done), depend on it: a resumed search keeps it.
    ///
    /// [`for_board_up_to`]: crate::search::prune::MovePruner::for_board_up_to
    pub automaton: usize,
    /// The iteration's bound.
    pub bound: u32,
    /// How many subtrees the split gave (known once the iteration has begun; 0 before).
    pub subtrees: usize,
    /// The split's subtrees, as [`split_crc`] of their moves from the start: the subtrees
    /// that [`done`](Checkpoint::done) numbers. `None` before the iteration's split, and in a
    /// checkpoint of versions 1 to 4, which named the split by its number of subtrees alone.
    pub prefixes: Option<u32>,
    /// The finished subtrees, one bit each.
    pub done: Vec<u64>,
    /// The smallest `g + h` beyond the bound seen by the split and the finished subtrees.
    pub next: Option<u32>,
    /// Nodes expanded: earlier iterations, this iteration's split, its finished subtrees and
    /// the parts done of its [`partial`](Checkpoint::partial) ones.
    pub expanded: u64,
    /// Nodes generated, counted the same way.
    pub generated: u64,
    /// The key of each subtree in the iteration's order of [`SubtreeOrder::LargestFirst`]
    /// (the nodes its part of the tree took in the previous iteration), by index; empty for
    /// the sequential order. Kept so that a resumed iteration goes on in the same order.
    ///
    /// [`SubtreeOrder::LargestFirst`]: super::SubtreeOrder::LargestFirst
    pub previous: Vec<u64>,
    /// The nodes generated by each finished subtree, by index (0 for one not finished), from
    /// which the next iteration's order is made; empty where they were not recorded from the
    /// iteration's start (a checkpoint of version 1 resumed), and then the next iteration
    /// keeps the sequential order.
    pub sizes: Vec<u64>,
    /// The subtrees stopped part way, by index: what is left of each, so that a stop (a
    /// signal, a time limit) loses none of the work done inside a subtree, which in the last
    /// iterations of a 24-puzzle can be an hour of one thread's.
    pub partial: BTreeMap<usize, Partial>,
}

/// A subtree stopped part way ([`Checkpoint::partial`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partial {
    /// The trees left, by their moves from the start, in the order the subtree's search takes
    /// them; each lies below the subtree's own moves. Searching them all at the iteration's
    /// bound finishes the subtree as one search would have, with the same nodes.
    pub left: Vec<Vec<Move>>,
    /// The smallest `g + h` beyond the bound seen by the part done.
    pub next: Option<u32>,
    /// Nodes expanded by the part done (counted in [`Checkpoint::expanded`] too).
    pub expanded: u64,
    /// Nodes generated by the part done (counted in [`Checkpoint::generated`] too).
    pub generated: u64,
}

/// How far an iteration has gone, estimated from the previous iteration's nodes
/// ([`Checkpoint::estimate`]): a run of hours wants to know how much of it is left, and the
/// subtree counts alone mislead when the largest subtrees go first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The share of the previous iteration's nodes that the finished subtrees' parts of the
    /// tree took, from 0 to 1.
    pub share_done: f64,
    /// The nodes still to generate in this iteration: the unfinished subtrees' nodes in the
    /// previous iteration times the growth the finished ones showed (their nodes now over
    /// their nodes then), less the parts done of the subtrees stopped part way. `None`
    /// until a subtree that took nodes in the previous iteration is finished.
    pub nodes_left: Option<u64>,
}

impl Checkpoint {
    /// The checkpoint of an iteration at `bound` before any subtree is finished.
    pub fn new(start: State, goal: State, heuristic: u32, at_least: usize, bound: u32) -> Self {
        Checkpoint {
            start,
            goal,
            heuristic,
            at_least,
            automaton: MAX_LENGTH,
            bound,
            subtrees: 0,
            prefixes: None,
            done: Vec::new(),
            next: None,
            expanded: 0,
            generated: 0,
            previous: Vec::new(),
            sizes: Vec::new(),
            partial: BTreeMap::new(),
        }
    }

    /// Records subtree `index` as finished, with its smallest value beyond the bound and its
    /// nodes (those of this search of it: a part done before, in [`Checkpoint::partial`], is
    /// counted already, and its record goes).
    pub fn mark(&mut self, index: usize, next: Option<u32>, expanded: u64, generated: u64) {
        if self.done.len() <= index / 64 {
            self.done.resize(index / 64 + 1, 0);
        }
        self.done[index / 64] |= 1 << (index % 64);
        self.subtrees = self.subtrees.max(index + 1);
        self.note_next(next);
        self.expanded += expanded;
        self.generated += generated;
        let before = self.partial.remove(&index);
        if let Some(before) = &before {
            self.note_next(before.next);
        }
        if let Some(size) = self.sizes.get_mut(index) {
            *size = generated + before.map_or(0, |b| b.generated);
        }
    }

    /// Records subtree `index` as stopped part way: the trees `left` (moves from the start),
    /// and the smallest value beyond the bound and the nodes of the part done by this search
    /// of it (added to a part done before).
    pub fn mark_partial(
        &mut self,
        index: usize,
        left: Vec<Vec<Move>>,
        next: Option<u32>,
        expanded: u64,
        generated: u64,
    ) {
        self.subtrees = self.subtrees.max(index + 1);
        self.expanded += expanded;
        self.generated += generated;
        let part = self.partial.entry(index).or_insert(Partial {
            left: Vec::new(),
            next: None,
            expanded: 0,
            generated: 0,
        });
        part.left = left;
        part.next = min_next(part.next, next);
        part.expanded += expanded;
        part.generated += generated;
    }

    /// Lowers the next bound to `next` where it is smaller.
    pub fn note_next(&mut self, next: Option<u32>) {
        self.next = min_next(self.next, next);
    }

    /// Whether subtree `index` is finished.
    pub fn is_done(&self, index: usize) -> bool {
        bit(&self.done, index)
    }

    /// How many subtrees are finished.
    pub fn finished(&self) -> usize {
        self.done.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// How far the iteration has gone by the previous iteration's nodes ([`Estimate`]):
    /// `None` where the previous iteration's nodes were not recorded (the sequential order, a
    /// first iteration, a checkpoint of version 1) or add up to nothing.
    ///
    /// ```
    /// use npuzzle::search::checkpoint::Checkpoint;
    /// let mut c = Checkpoint::new("867254301".parse()?, "123456780".parse()?, 7, 4, 31);
    /// c.subtrees = 4;
    /// c.previous = vec![60, 20, 15, 5];
    /// c.sizes = vec![0; 4];
    /// assert_eq!(c.estimate().map(|e| e.nodes_left), Some(None));
    /// c.mark(0, None, 100, 240); // four times its nodes of the previous iteration
    /// let estimate = c.estimate().expect("the previous iteration's nodes");
    /// assert_eq!(estimate.share_done, 0.6);
    /// assert_eq!(estimate.nodes_left, Some(160)); // 4 x (20 + 15 + 5)
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn estimate(&self) -> Option<Estimate> {
        if self.subtrees == 0 || self.previous.len() != self.subtrees {
            return None;
        }
        let total: u64 = self.previous.iter().sum();
        if total == 0 {
            return None;
        }
        let finished = |i: &usize| self.is_done(*i);
        let then: u64 = (0..self.subtrees)
            .filter(finished)
            .map(|i| self.previous[i])
            .sum();
        let nodes_left = (then > 0 && self.sizes.len() == self.subtrees).then(|| {
            let now: u64 = (0..self.subtrees)
                .filter(finished)
                .map(|i| self.sizes[i])
                .sum();
            let part_done: u64 = self.partial.values().map(|p| p.generated).sum();
            // (total - then) x now / then, in whole nodes: u128 holds the product of two
            // counts; a quotient past u64 (no real search) saturates.
            let grown = u128::from(total - then) * u128::from(now) / u128::from(then);
            u64::try_from(grown)
                .unwrap_or(u64::MAX)
                .saturating_sub(part_done)
        });
        Some(Estimate {
            share_done: then as f64 / total as f64,
            nodes_left,
        })
    }

    /// The file's text, checksum last.
    pub fn to_text(&self) -> String {
        let done: String = self.done.iter().map(|w| format!("{w:016x}")).collect();
        let body = format!(
            "{MAGIC}\nstart {}\ngoal {}\nheuristic {:08x}\nsplit {}\nautomaton {}\nbound {}\nsubtrees {}\nprefixes {}\nnext {}\nexpanded {}\ngenerated {}\ndone {}\nprevious {}\nsizes {}\n",
            self.start,
            self.goal,
            self.heuristic,
            self.at_least,
            self.automaton,
            self.bound,
            self.subtrees,
            self.prefixes.map_or("-".to_string(), |crc| format!("{crc:08x}")),
            self.next.map_or("none".to_string(), |n| n.to_string()),
            self.expanded,
            self.generated,
            if done.is_empty() { "-" } else { &done },
            numbers(&self.previous),
            numbers(&self.sizes),
        );
        let mut body = body;
        body.push_str(&format!("partial {}\n", self.partial.len()));
        for (index, part) in &self.partial {
            let left: Vec<String> = part.left.iter().map(|m| moves_text(m)).collect();
            body.push_str(&format!(
                "{index} {} {} {} {}\n",
                part.next.map_or("none".to_string(), |n| n.to_string()),
                part.expanded,
                part.generated,
                left.join(" ")
            ));
        }
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
        let version = match lines.next() {
            Some(MAGIC) => 5,
            Some(MAGIC_4) => 4,
            Some(MAGIC_3) => 3,
            Some(MAGIC_2) => 2,
            Some(MAGIC_1) => 1,
            _ => return Err(damaged("not an npuzzle checkpoint of this version")),
        };
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
        let automaton = if version >= 4 {
            let length: usize = field("automaton")?.parse().map_err(|_| bad("automaton"))?;
            if !(2..=MAX_LENGTH).contains(&length) {
                return Err(bad("automaton"));
            }
            length
        } else {
            LENGTH_BEFORE_12
        };
        let bound = field("bound")?.parse().map_err(|_| bad("bound"))?;
        let subtrees: usize = field("subtrees")?.parse().map_err(|_| bad("subtrees"))?;
        let prefixes = if version >= 5 {
            match field("prefixes")? {
                "-" => None,
                hex if hex.len() == 8 => {
                    Some(u32::from_str_radix(hex, 16).map_err(|_| bad("prefixes"))?)
                }
                _ => return Err(bad("prefixes")),
            }
        } else {
            None
        };
        let next = match field("next")? {
            "none" => None,
            n => Some(n.parse().map_err(|_| bad("next"))?),
        };
        // Every value the search notes is beyond the iteration's bound.
        if next.is_some_and(|n: u32| n <= bound) {
            return Err(bad("next"));
        }
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
        // Only the split's subtrees can be done: no word past them, no bit past the last.
        if done.len() > subtrees.div_ceil(64) || (subtrees..done.len() * 64).any(|i| bit(&done, i))
        {
            return Err(bad("done"));
        }
        let (previous, sizes) = if version == 1 {
            (Vec::new(), Vec::new())
        } else {
            let mut per_subtree = |key: &str| -> Result<Vec<u64>, CheckpointError> {
                let list = parse_numbers(field(key)?).ok_or_else(|| bad(key))?;
                if list.is_empty() || list.len() == subtrees {
                    Ok(list)
                } else {
                    Err(bad(key))
                }
            };
            (per_subtree("previous")?, per_subtree("sizes")?)
        };
        let mut partial = BTreeMap::new();
        if version >= 3 {
            let count: usize = field("partial")?.parse().map_err(|_| bad("partial"))?;
            if count > subtrees {
                return Err(bad("partial"));
            }
            for _ in 0..count {
                let line = lines.next().ok_or_else(|| bad("partial"))?;
                let (index, part) = parse_partial(line).ok_or_else(|| bad("partial"))?;
                if index >= subtrees || bit(&done, index) || partial.insert(index, part).is_some() {
                    return Err(bad("partial"));
                }
            }
        }
        if lines.next().is_some() {
            return Err(damaged("a line after the last field"));
        }
        Ok(Checkpoint {
            start,
            goal,
            heuristic,
            at_least,
            automaton,
            bound,
            subtrees,
            prefixes,
            done,
            next,
            expanded,
            generated,
            previous,
            sizes,
            partial,
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

/// A list of numbers as a checkpoint line writes it: separated by spaces, `-` for none.
fn numbers(list: &[u64]) -> String {
    if list.is_empty() {
        return "-".to_string();
    }
    list.iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The list [`numbers`] wrote; `None` for anything else.
fn parse_numbers(text: &str) -> Option<Vec<u64>> {
    if text == "-" {
        return Some(Vec::new());
    }
    text.split(' ').map(|n| n.parse().ok()).collect()
}

/// Bit `index` of a bitset held in words of 64.
fn bit(words: &[u64], index: usize) -> bool {
    words
        .get(index / 64)
        .is_some_and(|word| word >> (index % 64) & 1 == 1)
}

/// Moves as a checkpoint writes them: their letters, `-` for none.
fn moves_text(moves: &[Move]) -> String {
    if moves.is_empty() {
        return "-".to_string();
    }
    moves.iter().map(|m| m.letter()).collect()
}

/// One line of the `partial` list: `INDEX NEXT EXPANDED GENERATED LEFT...`, every tree left
/// given by its moves from the start; `None` for anything else (no tree left included: a
/// subtree with nothing left is finished, not partial).
fn parse_partial(line: &str) -> Option<(usize, Partial)> {
    let mut words = line.split(' ');
    let index = words.next()?.parse().ok()?;
    let next = match words.next()? {
        "none" => None,
        n => Some(n.parse().ok()?),
    };
    let expanded = words.next()?.parse().ok()?;
    let generated = words.next()?.parse().ok()?;
    let left = words
        .map(|word| match word {
            "-" => Some(Vec::new()),
            letters => letters.chars().map(Move::from_letter).collect(),
        })
        .collect::<Option<Vec<Vec<Move>>>>()?;
    if left.is_empty() {
        return None;
    }
    Some((
        index,
        Partial {
            left,
            next,
            expanded,
            generated,
        },
    ))
}

/// The smaller of two values beyond a bound (candidates for the next bound), either of which
/// may be missing.
pub(crate) fn min_next(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    a.into_iter().chain(b).min()
}

/// A CRC-32 of a split's subtrees, by their moves from the start in the split's order
/// ([`Checkpoint::prefixes`]): two splits with as many subtrees but other ones differ.
pub fn split_crc(prefixes: &[Vec<Move>]) -> u32 {
    let mut crc = crc32fast::Hasher::new();
    for moves in prefixes {
        crc.update(moves_text(moves).as_bytes());
        crc.update(b"\n");
    }
    crc.finalize()
}

/// A fingerprint of heuristic `h` seen from `start`: a CRC-32 of its
/// [`fingerprint_name`](Heuristic::fingerprint_name) and of its estimates for every state
/// within four moves of `start`. Two heuristics that disagree near the start (Manhattan
/// distance against pattern databases, or two partitions) differ; the same heuristic gives the
/// same fingerprint in every build, so that a checkpoint outlives the toolchain that wrote it.
pub fn fingerprint<H: Heuristic>(start: &State, h: &H) -> u32 {
    let mut crc = crc32fast::Hasher::new();
    crc.update(h.fingerprint_name().as_bytes());
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
    use crate::heuristic::testing::Wrapped;
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
        c.previous = (0..130).map(|i| i * 7 % 11).collect();
        c.sizes = vec![0; 130];
        c.mark(0, Some(33), 5, 9);
        c.mark(129, Some(31), 5, 9);
        c.mark(64, None, 1, 1);
        use Move::{Down as D, Left as L, Up as U};
        c.mark_partial(
            3,
            vec![vec![U, L, D], vec![U, L, U], vec![U, U]],
            Some(35),
            4,
            11,
        );
        c.mark_partial(5, vec![Vec::new()], None, 0, 0);
        c
    }

    /// The estimate grows the unfinished subtrees' previous nodes by the finished ones'
    /// growth and takes off the parts done; it is `None` without previous nodes.
    #[test]
    fn the_estimate_counts_finished_subtrees_growth_and_parts_done() {
        let mut c = sample();
        // sample(): previous i * 7 % 11; finished 0 (0 nodes then), 64 (8) and 129 (12); parts
        // done of 3 and 5: 11 nodes.
        let total: u64 = c.previous.iter().sum();
        let then = c.previous[64] + c.previous[129];
        assert_eq!(then, 64 * 7 % 11 + 129 * 7 % 11);
        let estimate = c.estimate().unwrap();
        assert_eq!(estimate.share_done, then as f64 / total as f64);
        let now = c.sizes[0] + c.sizes[64] + c.sizes[129];
        let grown = (total - then) * now / then;
        assert_eq!(estimate.nodes_left, Some(grown - 11));
        // A checkpoint read back gives the same estimate.
        let back = Checkpoint::parse(&c.to_text(), "file").unwrap();
        assert_eq!(back.estimate(), Some(estimate));
        c.previous.clear();
        assert_eq!(c.estimate(), None);
        c.previous = vec![0; 130];
        assert_eq!(c.estimate(), None, "no previous nodes at all");
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
    fn the_order_keys_and_sizes_read_back() {
        let c = sample();
        let back = Checkpoint::parse(&c.to_text(), "f").unwrap();
        assert_eq!(back.previous, c.previous);
        assert_eq!((back.sizes[0], back.sizes[64], back.sizes[1]), (9, 1, 0));
        // A list of another length than the subtrees is refused, even with a good checksum.
        let short = Checkpoint {
            sizes: vec![1; 129],
            ..c.clone()
        };
        assert!(Checkpoint::parse(&short.to_text(), "f").is_err());
    }

    /// The partial subtrees read back, and finishing one counts its earlier part: in the
    /// totals once, in its size, in the next bound.
    #[test]
    fn partial_subtrees_read_back_and_count_once_when_finished() {
        let mut c = sample();
        let back = Checkpoint::parse(&c.to_text(), "f").unwrap();
        assert_eq!(back.partial, c.partial);
        let part = &back.partial[&3];
        assert_eq!(part.left.len(), 3);
        assert_eq!(
            (part.next, part.expanded, part.generated),
            (Some(35), 4, 11)
        );
        assert_eq!(back.partial[&5].left, vec![Vec::<Move>::new()]);
        // Stopped again: the trees left replaced, the parts added.
        c.mark_partial(3, vec![vec![Move::Up, Move::Up]], Some(37), 2, 3);
        let part = &c.partial[&3];
        assert_eq!(part.left, vec![vec![Move::Up, Move::Up]]);
        assert_eq!(
            (part.next, part.expanded, part.generated),
            (Some(35), 6, 14)
        );
        let (expanded, generated) = (c.expanded, c.generated);
        c.mark(3, Some(39), 10, 20);
        assert!(c.is_done(3) && !c.partial.contains_key(&3));
        assert_eq!((c.expanded, c.generated), (expanded + 10, generated + 20));
        assert_eq!(c.sizes[3], 34);
        assert_eq!(c.next, Some(31));
        // A partial line for a finished subtree, or one past the last, is refused.
        let mut done = sample();
        done.partial.insert(0, done.partial[&3].clone());
        assert!(Checkpoint::parse(&done.to_text(), "f").is_err());
        let mut past = sample();
        past.partial.insert(130, past.partial[&3].clone());
        assert!(Checkpoint::parse(&past.to_text(), "f").is_err());
    }

    /// `body` (a checkpoint's text less its checksum) written as version `magic` without the
    /// `automaton` line that version 4 added, checksummed.
    fn before_version_4(body: &str, magic: &str) -> String {
        let automaton = format!("automaton {MAX_LENGTH}\n");
        assert!(body.contains(&automaton));
        before_version_5(body, magic).replace(&automaton, "")
    }

    /// `body` written as version `magic` without the `prefixes` line that version 5 added.
    fn before_version_5(body: &str, magic: &str) -> String {
        let line = body
            .lines()
            .find(|l| l.starts_with("prefixes "))
            .expect("a prefixes line");
        body.replace(MAGIC, magic).replace(&format!("{line}\n"), "")
    }

    /// A checkpoint of version 4 (no `prefixes` line) is read without the split's CRC (it
    /// resumes where its subtree count matches, as before); version 5 keeps the CRC, and
    /// needs the line.
    #[test]
    fn a_version_4_checkpoint_is_read_without_the_splits_crc() {
        let c = Checkpoint {
            prefixes: Some(0x0bad_cafe),
            ..sample()
        };
        let text = c.to_text();
        assert!(text.contains("\nprefixes 0badcafe\n"), "{text}");
        assert_eq!(Checkpoint::parse(&text, "f").unwrap(), c);
        let body = &text[..text.rfind("crc32 ").unwrap()];
        let old = before_version_5(body, MAGIC_4);
        let old = format!("{old}crc32 {:08x}\n", crc32fast::hash(old.as_bytes()));
        assert_eq!(
            Checkpoint::parse(&old, "f").unwrap(),
            Checkpoint {
                prefixes: None,
                ..c.clone()
            }
        );
        for odd in ["", "0badcaf", "0badcafe0", "nothex00"] {
            let odd = body.replace("prefixes 0badcafe\n", &format!("prefixes {odd}\n"));
            let odd = format!("{odd}crc32 {:08x}\n", crc32fast::hash(odd.as_bytes()));
            assert!(Checkpoint::parse(&odd, "f").is_err(), "{odd}");
        }
        let missing = before_version_5(body, MAGIC);
        let missing = format!(
            "{missing}crc32 {:08x}\n",
            crc32fast::hash(missing.as_bytes())
        );
        assert!(Checkpoint::parse(&missing, "f").is_err());
        // Splits with as many subtrees but other moves are told apart.
        use Move::{Down as D, Left as L, Right as R, Up as U};
        let split = [vec![U, L], vec![U, R]];
        assert_ne!(split_crc(&split), split_crc(&[vec![U, L], vec![U, D]]));
        assert_ne!(split_crc(&split), split_crc(&[vec![U, R], vec![U, L]]));
        assert_ne!(
            split_crc(&[vec![U], vec![L, R]]),
            split_crc(&[vec![U, L], vec![R]])
        );
    }

    /// A checkpoint of version 3 (no `automaton` line), as written before the automaton
    /// compared 12 moves, resumes with the automaton of 10 that split it.
    #[test]
    fn a_version_3_checkpoint_is_read_with_the_automaton_of_10_moves() {
        let c = sample();
        let text = c.to_text();
        let body = &text[..text.rfind("crc32 ").unwrap()];
        let old = before_version_4(body, MAGIC_3);
        let old = format!("{old}crc32 {:08x}\n", crc32fast::hash(old.as_bytes()));
        let read = Checkpoint::parse(&old, "f").unwrap();
        assert_eq!(read.automaton, LENGTH_BEFORE_12);
        assert_eq!(
            read,
            Checkpoint {
                automaton: LENGTH_BEFORE_12,
                ..c
            }
        );
        // Written again, it keeps its automaton.
        assert_eq!(Checkpoint::parse(&read.to_text(), "f").unwrap(), read);
        // Version 4 needs the line, and a length the automaton can have.
        let missing = body.replace(&format!("automaton {MAX_LENGTH}\n"), "");
        let missing = format!(
            "{missing}crc32 {:08x}\n",
            crc32fast::hash(missing.as_bytes())
        );
        assert!(Checkpoint::parse(&missing, "f").is_err());
        for length in [0, 1, MAX_LENGTH + 1] {
            let odd = body.replace(
                &format!("automaton {MAX_LENGTH}\n"),
                &format!("automaton {length}\n"),
            );
            let odd = format!("{odd}crc32 {:08x}\n", crc32fast::hash(odd.as_bytes()));
            assert!(Checkpoint::parse(&odd, "f").is_err(), "{length}");
        }
    }

    /// A checkpoint of version 2 (no `partial` line), as written before stops kept the work
    /// inside a subtree, still resumes.
    #[test]
    fn a_version_2_checkpoint_is_read_without_partial_subtrees() {
        let c = Checkpoint {
            partial: BTreeMap::new(),
            automaton: LENGTH_BEFORE_12,
            ..sample()
        };
        let text = Checkpoint {
            automaton: MAX_LENGTH,
            ..c.clone()
        }
        .to_text();
        let body = &text[..text.rfind("crc32 ").unwrap()];
        let old = before_version_4(body, MAGIC_2).replace("partial 0\n", "");
        let old = format!("{old}crc32 {:08x}\n", crc32fast::hash(old.as_bytes()));
        assert_eq!(Checkpoint::parse(&old, "f").unwrap(), c);
    }

    /// A checkpoint of version 1 (no `previous` and `sizes` lines), as written before the
    /// largest-first order, still resumes: in the sequential order.
    #[test]
    fn a_version_1_checkpoint_is_read_without_an_order() {
        let c = Checkpoint {
            previous: Vec::new(),
            sizes: Vec::new(),
            partial: BTreeMap::new(),
            automaton: LENGTH_BEFORE_12,
            ..sample()
        };
        let text = Checkpoint {
            automaton: MAX_LENGTH,
            ..c.clone()
        }
        .to_text();
        let body = &text[..text.rfind("crc32 ").unwrap()];
        let old = before_version_4(body, MAGIC_1).replace("previous -\nsizes -\npartial 0\n", "");
        let old = format!("{old}crc32 {:08x}\n", crc32fast::hash(old.as_bytes()));
        assert_eq!(Checkpoint::parse(&old, "f").unwrap(), c);
        // Version 1 with version 2's lines is not a checkpoint either wrote.
        let mixed = before_version_4(body, MAGIC_1);
        let mixed = format!("{mixed}crc32 {:08x}\n", crc32fast::hash(mixed.as_bytes()));
        assert!(Checkpoint::parse(&mixed, "f").is_err());
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

    /// Sound checksums over values the search never writes are refused too: a subtree past
    /// the split marked done (it would count as finished), a next bound not beyond the bound.
    #[test]
    fn values_no_search_writes_are_refused() {
        let c = sample();
        assert!(Checkpoint::parse(&c.to_text(), "f").is_ok());
        // 130 subtrees: the last word's bits from 130 % 64 = 2 on are past the split.
        let mut past = c.clone();
        past.done[2] |= 1 << 2;
        assert!(Checkpoint::parse(&past.to_text(), "f").is_err());
        let mut at_bound = c.clone();
        at_bound.next = Some(c.bound);
        assert!(Checkpoint::parse(&at_bound.to_text(), "f").is_err());
        at_bound.next = Some(c.bound + 1);
        assert!(Checkpoint::parse(&at_bound.to_text(), "f").is_ok());
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
    fn a_fingerprint_hashes_the_fixed_name_not_the_type_name() {
        let goal: State = "123456780".parse().unwrap();
        let start: State = "867254301".parse().unwrap();
        let m = Manhattan::new(&goal);
        assert_ne!(
            std::any::type_name::<Wrapped>(),
            std::any::type_name::<Manhattan>()
        );
        assert_eq!(
            fingerprint(
                &start,
                &Wrapped {
                    inner: m.clone(),
                    spin: 0
                }
            ),
            fingerprint(&start, &m)
        );
        // Written into every checkpoint of this search since format 4: a build that changes it
        // refuses the checkpoints of every build before it.
        assert_eq!(fingerprint(&start, &m), 0x0954_39d8);
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
