//! An additive pattern database: a validated view over the bytes of a kind-2 table file,
//! answering the lower bound of one pattern for a placement of its tiles.

use std::ops::ControlFlow;

use super::consistency::PatternDamage;
use super::generate::{self, Cancelled, Progress};
use super::space::PatternSpace;
use crate::state::State;
use crate::store::format::{self, FormatError, Header, ENCODING_NIBBLE, KIND_PATTERN_DATABASE};
use crate::store::Mismatch;

/// One pattern's database over any bytes: a `Vec<u8>` built in memory or a memory-mapped file.
///
/// Holding one means the header and the whole body were validated (checksums and the
/// histogram of codes against the header), in this process or, for a file of a data
/// directory, when this version of the file was verified (see [`crate::pattern::file`]):
/// lookups are then plain slice reads, which is what the search's inner loop needs.
///
/// ```
/// use npuzzle::pattern::PatternDatabase;
/// use npuzzle::{Board, State};
/// let goal = State::canonical_goal(Board::THREE_BY_THREE, 0);
/// let db = PatternDatabase::build(&goal, &[1, 2, 3, 4], &|_| std::ops::ControlFlow::Continue(()))?;
/// // At the goal, the pattern tiles need no move.
/// assert_eq!(db.value_of(&goal), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct PatternDatabase<D> {
    data: D,
    header: Header,
    space: PatternSpace,
    /// `manhattan[i][cell]`: pattern tile `i`'s Manhattan distance from `cell` to its goal cell.
    manhattan: Vec<[u8; 32]>,
}

impl<D> std::fmt::Debug for PatternDatabase<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternDatabase")
            .field("goal", &self.header.goal)
            .field("tiles", &self.space.tiles())
            .field("entries", &self.header.entries)
            .field("encoding", &self.header.encoding)
            .finish_non_exhaustive()
    }
}

impl PatternDatabase<Vec<u8>> {
    /// Runs the generator for `tiles` of `goal` and encodes the result as a file in memory.
    /// `progress` is called after each layer and may cancel.
    ///
    /// # Errors
    /// [`BuildError`]: tiles that are not a pattern of the board, or a cancelled build.
    pub fn build(
        goal: &State,
        tiles: &[u8],
        progress: &(dyn Fn(Progress) -> ControlFlow<()> + Sync),
    ) -> Result<PatternDatabase<Vec<u8>>, BuildError> {
        let space = PatternSpace::new(goal.board(), tiles)?;
        let free = goal.board().cells() - space.tiles().len();
        if free < 2 || (free > 21 && !super::generate_compact::fits(&space)) {
            // With one free cell (the blank's) the tiles are the whole puzzle: that is an
            // exact table's job. More than 21 free cells do not fit the mask generator's
            // words (three masks in 64 bits); the compact generator takes them where a
            // placement has at most eight regions (a pattern of one to three tiles, the
            // small part of a 5x5 partition such as 7-7-7-3).
            return Err(BuildError::TooManyTiles {
                tiles: space.tiles().len(),
                cells: goal.board().cells(),
            });
        }
        let needed = generate::memory_to_build(&space);
        if let Some(available) = available_memory()? {
            if needed > available {
                return Err(BuildError::NotEnoughMemory { needed, available });
            }
        }
        let codes = generate::codes(&space, goal, progress)?;
        let data = format::encode_pattern_database(goal, space.mask(), &codes);
        drop(codes);
        let header = format::decode_header(&data).expect("an encoded header decodes");
        Ok(PatternDatabase::with_header(data, header, space))
    }
}

/// Why a database could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// Not a pattern of the board.
    #[error(transparent)]
    Pattern(#[from] super::space::PatternError),
    /// A pattern must leave at least 2 cells free, and at most 21 unless its placements
    /// have at most eight blank regions.
    #[error("a pattern of {tiles} tiles on {cells} cells leaves too few or too many cells free (2 to 21, more where the placements have at most eight blank regions)")]
    TooManyTiles {
        /// Tiles in the pattern.
        tiles: usize,
        /// Cells of the board.
        cells: usize,
    },
    /// The build needs more memory than the machine has available: refused before it
    /// starts rather than failing (or swapping for hours) part way.
    /// Printed in GiB (powers of 1024), the unit `NPUZZLE_MEMORY_LIMIT`'s suffixes use, so a
    /// limit of `8G` reads back as `8.0 GiB`.
    #[error("building this pattern database needs {:.1} GiB of memory and {:.1} GiB is available", crate::memory::gib(*needed), crate::memory::gib(*available))]
    NotEnoughMemory {
        /// Bytes the build needs ([`super::generate::memory_to_build`]).
        needed: u64,
        /// Bytes available: the system's `MemAvailable`, or `NPUZZLE_MEMORY_LIMIT` where set
        /// lower.
        available: u64,
    },
    /// `NPUZZLE_MEMORY_LIMIT` is set but is not a size: refused rather than ignored, since a
    /// misspelt limit would let a build take more memory than its user allowed.
    #[error("NPUZZLE_MEMORY_LIMIT: {0}")]
    MemoryLimit(crate::memory::SizeError),
    /// Cancelled through the progress hook.
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
}

impl<D: AsRef<[u8]>> PatternDatabase<D> {
    /// Validates `data` as a complete pattern database file, header and whole body.
    ///
    /// # Errors
    /// The first [`FormatError`] found; [`FormatError::OtherKind`] for an exact table. Never
    /// panics, whatever the bytes.
    pub fn from_bytes(data: D) -> Result<PatternDatabase<D>, FormatError> {
        let header = format::decode_header(data.as_ref())?;
        if header.kind != KIND_PATTERN_DATABASE {
            return Err(FormatError::OtherKind {
                found: "an exact distance table",
                expected: "a pattern database",
            });
        }
        format::verify_body(&header, &data.as_ref()[header.len..])?;
        PatternDatabase::with_checked_header(data, header)
    }

    /// Validates the header of `data` alone (a few kilobytes, whatever the database's size)
    /// and wraps it: the body is taken as it is. Only for bytes whose body is already known
    /// good: a file whose version (device, inode, size, change time) the data directory's
    /// record of verified files lists, so that this very version passed [`from_bytes`]
    /// (every block, the histogram) and [`verify_deep`](PatternDatabase::verify_deep) before
    /// (see [`crate::pattern::file`]).
    ///
    /// [`from_bytes`]: PatternDatabase::from_bytes
    ///
    /// # Errors
    /// The first [`FormatError`] of the header or the file's length.
    pub(crate) fn from_verified_header(data: D) -> Result<PatternDatabase<D>, FormatError> {
        let header = format::decode_header(data.as_ref())?;
        PatternDatabase::with_checked_header(data, header)
    }

    /// Wraps `data` whose header is `header`: refuses an exact table and a mask that is not a
    /// pattern of the board.
    fn with_checked_header(data: D, header: Header) -> Result<PatternDatabase<D>, FormatError> {
        if header.kind != KIND_PATTERN_DATABASE {
            return Err(FormatError::OtherKind {
                found: "an exact distance table",
                expected: "a pattern database",
            });
        }
        let tiles: Vec<u8> = (0..64u8).filter(|t| header.pattern >> t & 1 == 1).collect();
        let space =
            PatternSpace::new(header.board(), &tiles).map_err(|_| FormatError::BadPattern {
                mask: header.pattern,
            })?;
        Ok(PatternDatabase::with_header(data, header, space))
    }

    fn with_header(data: D, header: Header, space: PatternSpace) -> PatternDatabase<D> {
        let manhattan = generate::manhattan(&space, &header.goal);
        PatternDatabase {
            data,
            header,
            space,
            manhattan,
        }
    }

    /// Checks that this database is for `goal` and `tiles`.
    ///
    /// # Errors
    /// [`Mismatch::Goal`] or [`Mismatch::Pattern`].
    pub fn expect(&self, goal: &State, tiles: &[u8]) -> Result<(), Mismatch> {
        if self.header.goal != *goal {
            return Err(Mismatch::Goal {
                found: self.header.goal,
                expected: *goal,
            });
        }
        let mut wanted = tiles.to_vec();
        wanted.sort_unstable();
        if wanted != self.space.tiles() {
            return Err(Mismatch::Pattern {
                found: self.space.tiles().to_vec(),
                expected: wanted,
            });
        }
        Ok(())
    }

    /// The validated header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The goal the values are measured to.
    pub fn goal(&self) -> &State {
        &self.header.goal
    }

    /// The pattern's index space (its tiles, ranks).
    pub fn space(&self) -> &PatternSpace {
        &self.space
    }

    /// The whole file: header and body.
    pub fn as_bytes(&self) -> &[u8] {
        self.data.as_ref()
    }

    /// The stored code of the placement with rank `rank`.
    ///
    /// # Panics
    /// If `rank` is not below the entry count.
    #[inline]
    pub fn code(&self, rank: u32) -> u8 {
        let body = &self.data.as_ref()[self.header.len..];
        if self.header.encoding == ENCODING_NIBBLE {
            (body[(rank >> 1) as usize] >> ((rank & 1) * 4)) & 15
        } else {
            body[rank as usize]
        }
    }

    /// Starts fetching the stored code of rank `rank` into the processor's cache, for a
    /// [`code`](Self::code) of it soon after ([`crate::store::os::prefetch`]); a hint that
    /// changes nothing else, and asks nothing for a rank past the end.
    #[inline(always)]
    pub(crate) fn prefetch(&self, rank: u32) {
        let at = if self.header.encoding == ENCODING_NIBBLE {
            rank >> 1
        } else {
            rank
        };
        crate::store::os::prefetch(self.data.as_ref(), self.header.len + at as usize);
    }

    /// The Manhattan distance of pattern tile `i` (in [`PatternSpace::tiles`] order) from
    /// `cell` to its goal cell.
    #[inline]
    pub fn tile_manhattan(&self, i: usize, cell: u8) -> u8 {
        self.manhattan[i][cell as usize]
    }

    /// The lower bound for the placement `cells` (cell of each pattern tile, in
    /// [`PatternSpace::tiles`] order): moves of pattern tiles needed to reach the goal.
    #[inline]
    pub fn value(&self, cells: &[u8]) -> u32 {
        let md: u32 = cells
            .iter()
            .enumerate()
            .map(|(i, &c)| u32::from(self.manhattan[i][c as usize]))
            .sum();
        md + 2 * u32::from(self.code(self.space.rank(cells)))
    }

    /// The same database with its bytes copied into the process's own memory on huge pages
    /// where the system gives them ([`StoredBytes::resident_copy`](crate::store::StoredBytes::resident_copy)):
    /// for long searches over a large database; the bytes are the ones already validated.
    ///
    /// # Errors
    /// The operating system's, when the memory cannot be mapped.
    pub fn resident(&self) -> std::io::Result<PatternDatabase<crate::store::StoredBytes>> {
        Ok(PatternDatabase {
            data: crate::store::StoredBytes::resident_copy(self.data.as_ref())?,
            header: self.header.clone(),
            space: self.space.clone(),
            manhattan: self.manhattan.clone(),
        })
    }

    /// The lower bound for `state` (on the database's board).
    pub fn value_of(&self, state: &State) -> u32 {
        let cells: Vec<u8> = self
            .space
            .tiles()
            .iter()
            .map(|&t| {
                let cell = state.cells().iter().position(|&c| c == t).expect("a tile");
                u8::try_from(cell).expect("a board has at most 25 cells")
            })
            .collect();
        self.value(&cells)
    }
}

impl<D: AsRef<[u8]> + Sync> PatternDatabase<D> {
    /// The deep check: every entry against its neighbours (see [`PatternDamage`] for the
    /// rules), in parallel on the current rayon pool. A 7-8 database's 259.5 MB file takes
    /// tens of seconds on two cores, so callers run it once per file (the data directory
    /// remembers which files passed) and after every build.
    ///
    /// ```
    /// use npuzzle::pattern::PatternDatabase;
    /// use npuzzle::{Board, State};
    /// let goal = State::canonical_goal(Board::THREE_BY_THREE, 0);
    /// let db = PatternDatabase::build(&goal, &[1, 2, 3, 4], &|_| std::ops::ControlFlow::Continue(()))?;
    /// db.verify_deep()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// The first [`PatternDamage`] in rank order.
    pub fn verify_deep(&self) -> Result<(), PatternDamage> {
        match super::consistency::first_damage(self) {
            Some(damage) => Err(damage),
            None => Ok(()),
        }
    }
}

impl<D> PatternDatabase<D> {
    /// Bits per stored code: 4 (two a byte) or 8.
    pub fn bits_per_entry(&self) -> u32 {
        if self.header.encoding == ENCODING_NIBBLE {
            4
        } else {
            8
        }
    }

    /// The bytes, given back.
    pub fn into_inner(self) -> D {
        self.data
    }

    /// The same database over other bytes holding the same content (a `Vec` into the
    /// [`StoredBytes`](crate::store::StoredBytes) that files are opened as).
    pub fn map_into<E: From<D>>(self) -> PatternDatabase<E> {
        self.map_bytes(E::from)
    }

    /// The same database over other bytes holding the same content.
    pub(crate) fn map_bytes<E>(self, wrap: impl FnOnce(D) -> E) -> PatternDatabase<E> {
        PatternDatabase {
            data: wrap(self.data),
            header: self.header,
            space: self.space,
            manhattan: self.manhattan,
        }
    }
}

/// The memory a build may take, in bytes: Linux's `MemAvailable` (free memory plus what the
/// page cache can give back), capped by the environment variable `NPUZZLE_MEMORY_LIMIT`
/// (a size as [`crate::memory::parse_size`] reads it: `8G`, `1.5G`) where it is set; `None`
/// where neither is known (the build is then not checked).
///
/// # Errors
/// [`BuildError::MemoryLimit`] where `NPUZZLE_MEMORY_LIMIT` is set but is not a size.
fn available_memory() -> Result<Option<u64>, BuildError> {
    let limit = match std::env::var_os("NPUZZLE_MEMORY_LIMIT") {
        None => None,
        Some(text) => Some(
            crate::memory::parse_size(&text.to_string_lossy()).map_err(BuildError::MemoryLimit)?,
        ),
    };
    Ok(match (crate::memory::available(), limit) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    })
}
