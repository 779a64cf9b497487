//! The table file format: encoding, decoding and validation of the header. No I/O here.
//!
//! All integers are little-endian. Offsets are in bytes from the start of the file.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `NPUZZLE\0` (first, so a foreign file is "not an npuzzle table") |
//! | 8 | 4 | format version, `u32` = [`FORMAT_VERSION`] |
//! | 12 | 4 | header length `H`, `u32` = `92 + 8 * (max_depth + 1) + 4 * B` |
//! | 16 | 1 | kind: 1 = exact distance table, 2 = additive pattern database, 3 = MTM colouring database |
//! | 17 | 1 | board width |
//! | 18 | 1 | board height |
//! | 19 | 1 | entry encoding: 1 = one byte per entry; 2 = four bits per entry (pattern databases) |
//! | 20 | 1 | metric of an exact table's distances: 0 = STM, 1 = MTM ([`Metric`]); zero in pattern databases, 1 in colouring databases |
//! | 21 | 3 | reserved, zero |
//! | 24 | 32 | goal: one byte per cell row-major, 0 = blank; bytes past the board are `0xFF` |
//! | 56 | 8 | pattern mask: bit `t` for each pattern tile `t`; zero in exact tables; a colouring database's classes, four bits a goal cell |
//! | 64 | 8 | entry count `N`, `u64` = cells! / 2 (exact), cells!/(cells-k)! (pattern of `k` tiles), cells times the classes' multinomial (colouring) |
//! | 72 | 4 | CRC-32 (IEEE) of the whole body |
//! | 76 | 1 | block shift `S`: the body is checked in blocks of `2^S` bytes (12..=30) |
//! | 77 | 3 | reserved, zero |
//! | 80 | 1 | maximum depth `D` (pattern databases: the largest code) |
//! | 81 | 7 | reserved, zero |
//! | 88 | 8*(D+1) | entries at each depth (code) 0..=D, `u64` each; they sum to `N` |
//! | 96+8D | 4*B | CRC-32 of each body block, `B = ceil(N / 2^S)` |
//! | H-4 | 4 | CRC-32 of header bytes `0..H-4` |
//! | H | L | body: entry `i` is the distance of the state with folded rank `i` |
//!
//! The body length `L` is `N` bytes, except for encoding 2: `ceil(N / 2)` bytes, entry `i` in
//! the low (even `i`) or high (odd `i`) four bits of byte `i / 2`.
//!
//! **Pattern databases** (kind 2) index entries by [`PatternSpace::rank`](crate::pattern::PatternSpace::rank)
//! of the pattern's tiles. An entry is a *code* `c`: the database's value for that placement is
//! the pattern tiles' Manhattan distance plus `2c` (every move of a pattern tile changes that
//! distance by one, so the excess is even). Codes fit four bits for every partition npuzzle
//! builds, which halves the files. The depth counts of a database count codes.
//!
//! **The metric** (offset 20) was a reserved zero byte before MTM tables existed, so every
//! STM table written before it reads as STM, unchanged; an MTM table says so in its header, and
//! the loaders refuse a table whose metric is not the one asked for
//! ([`Mismatch::Metric`](super::Mismatch::Metric)), whatever its file name says. An MTM
//! table written before the byte was set reads as STM and is refused (and rebuilt) under its
//! MTM name; a build older than the byte refuses an MTM table as a nonzero reserved byte.
//!
//! Why blocks: a 12-cell table is 240 MB, and checking the whole body on every open cost a
//! quarter of a second per process. [`decode_header`] validates everything but the body (a few
//! kilobytes), and a reader checks each block the first time it reads from it
//! ([`verify_block`], about 100 us per MiB); [`verify_body`] checks every block, the whole-body
//! checksum and the histogram (after a build, in `npuzzle check`, and in [`decode`]).
//!
//! The body is indexed by [`RankSpace::rank_unchecked`](crate::RankSpace::rank_unchecked) relative to the goal's
//! parity class. After the checksums, the body's histogram must equal the header's counts.
//! Validation runs in a fixed order and each failure is its own
//! [`FormatError`], so a damaged file is named precisely and never read as valid.

use super::histogram::{count_depths_all, count_nibbles};
use crate::board::{Board, MAX_CELLS};
use crate::metric::Metric;
use crate::rank::RankSpace;
use crate::state::State;

/// The magic bytes that open every table file.
pub const MAGIC: [u8; 8] = *b"NPUZZLE\0";
/// The format version this build writes and reads (2: per-block checksums).
pub const FORMAT_VERSION: u32 = 2;
/// The block shift this build writes: blocks of 1 MiB.
pub const BLOCK_SHIFT: u8 = 20;
/// The block shifts a file may declare: 4 KiB to 1 GiB.
pub const BLOCK_SHIFTS: std::ops::RangeInclusive<u8> = 12..=30;
/// Bytes before the depth counts.
pub const FIXED_HEADER_LEN: usize = 88;

/// Kind byte of an exact distance table.
pub const KIND_DISTANCE_TABLE: u8 = 1;
/// Kind byte of an additive pattern database.
pub const KIND_PATTERN_DATABASE: u8 = 2;
/// Kind byte of an MTM colouring database (the `mtm::colouring` module's): exact MTM
/// distances of an abstraction that keeps the blank's cell and colours the tiles into classes.
pub const KIND_COLOURING_DATABASE: u8 = 3;
/// Encoding byte for one byte per entry.
pub const ENCODING_BYTE_PER_STATE: u8 = 1;
/// Encoding byte for four bits per entry, two entries a byte (pattern databases only).
pub const ENCODING_NIBBLE: u8 = 2;
/// Offset of the metric byte of an exact table.
pub const METRIC_OFFSET: usize = 20;
/// Metric byte of a table in single-tile moves (and of every file written before the byte).
pub const METRIC_STM: u8 = 0;
/// Metric byte of a table in multi-tile moves.
pub const METRIC_MTM: u8 = 1;

/// The metric byte written for `metric`.
fn metric_byte(metric: Metric) -> u8 {
    match metric {
        Metric::Stm => METRIC_STM,
        Metric::Mtm => METRIC_MTM,
    }
}

/// Bytes reserved for the goal.
const GOAL_BYTES: usize = 32;

/// Why bytes are not a valid table (or not the table asked for).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FormatError {
    /// Fewer bytes than the fixed part of a header.
    #[error("truncated table: {found} bytes, a header alone needs {needed}")]
    TooShort {
        /// Bytes present.
        found: usize,
        /// Bytes needed.
        needed: usize,
    },
    /// The magic bytes are wrong.
    #[error("not an npuzzle table (the file does not start with `NPUZZLE`)")]
    NotATable,
    /// Another format version.
    #[error("table format version {found} is not supported (this build reads {FORMAT_VERSION}); it must be rebuilt")]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
    },
    /// The header length does not follow from the maximum depth.
    #[error("corrupt header: header length {found} does not match {expected} for maximum depth {max_depth}")]
    HeaderLength {
        /// Stored length.
        found: u64,
        /// Length implied by the maximum depth.
        expected: u64,
        /// Stored maximum depth.
        max_depth: u8,
    },
    /// A reserved byte is not zero.
    #[error("corrupt header: reserved byte at offset {offset} is not zero")]
    Reserved {
        /// Offset of the byte.
        offset: usize,
    },
    /// A kind or entry encoding this build does not know.
    #[error(
        "unsupported table kind {kind} / encoding {encoding} (this build reads kind 1 with encoding 1, kind 2 with encoding 1 or 2, and kind 3 with encoding 1)"
    )]
    UnsupportedKind {
        /// Kind byte.
        kind: u8,
        /// Encoding byte.
        encoding: u8,
    },
    /// An exact table's metric byte is neither STM's nor MTM's.
    #[error("corrupt header: metric byte {found} is neither 0 (stm) nor 1 (mtm)")]
    UnknownMetric {
        /// The stored byte.
        found: u8,
    },
    /// A board this build cannot rank.
    #[error("corrupt header: a {width}x{height} board cannot hold an exact table")]
    UnsupportedBoard {
        /// Stored width.
        width: u8,
        /// Stored height.
        height: u8,
    },
    /// A file of the other kind than asked for (an exact table where a pattern database was
    /// expected, or the reverse).
    #[error("the file is {found}, not {expected}")]
    OtherKind {
        /// What the file is.
        found: &'static str,
        /// What was asked for.
        expected: &'static str,
    },
    /// The pattern mask is not a set of tiles of the board (or is set in an exact table).
    #[error("corrupt header: pattern mask {mask:#x} is not a set of tiles of the board")]
    BadPattern {
        /// The stored mask.
        mask: u64,
    },
    /// The goal bytes are not a permutation of the board's tiles.
    #[error("corrupt header: the goal is not a permutation of the board's tiles")]
    BadGoal,
    /// The entry count does not fit the board (and pattern).
    #[error(
        "corrupt header: {found} entries stored, a {board} table (or this pattern) has {expected}"
    )]
    EntryCount {
        /// Stored count.
        found: u64,
        /// Count the board implies.
        expected: u64,
        /// The board.
        board: Board,
    },
    /// The depth counts do not add up to the entry count.
    #[error("corrupt header: the depth counts add up to {found}, not the {expected} entries")]
    DepthCounts {
        /// Their sum.
        found: u64,
        /// The entry count.
        expected: u64,
    },
    /// The file ends before the body does.
    #[error("truncated table: {found} bytes, expected {expected}")]
    Truncated {
        /// Bytes present.
        found: usize,
        /// Bytes expected.
        expected: usize,
    },
    /// Bytes after the body.
    #[error("table has {found} bytes, expected {expected}: trailing bytes after the body")]
    TrailingBytes {
        /// Bytes present.
        found: usize,
        /// Bytes expected.
        expected: usize,
    },
    /// The header checksum does not match.
    #[error("corrupt header: checksum {found:08x} does not match the stored {stored:08x}")]
    HeaderChecksum {
        /// Stored checksum.
        stored: u32,
        /// Computed checksum.
        found: u32,
    },
    /// The body checksum does not match.
    #[error("corrupt body: checksum {found:08x} does not match the stored {stored:08x}")]
    BodyChecksum {
        /// Stored checksum.
        stored: u32,
        /// Computed checksum.
        found: u32,
    },
    /// A block shift outside [`BLOCK_SHIFTS`].
    #[error("corrupt header: block shift {found} is outside {}..={}", BLOCK_SHIFTS.start(), BLOCK_SHIFTS.end())]
    BlockShift {
        /// The stored shift.
        found: u8,
    },
    /// One block of the body does not match its checksum.
    #[error("corrupt body: block {block} (bytes {start}..{end} of the body) has checksum {found:08x}, not the stored {stored:08x}")]
    BlockChecksum {
        /// The block's number.
        block: usize,
        /// Its first byte in the body.
        start: usize,
        /// One past its last byte.
        end: usize,
        /// Stored checksum.
        stored: u32,
        /// Computed checksum.
        found: u32,
    },
    /// The body's states per depth differ from the header's counts (checksums can be
    /// recomputed by whoever damaged the file; the histogram ties the body to the header).
    #[error(
        "corrupt table: the body holds {body} states at depth {depth}, the header says {header}"
    )]
    BodyCounts {
        /// The first depth that differs.
        depth: usize,
        /// The header's count.
        header: u64,
        /// The body's count.
        body: u64,
    },
}

/// The decoded, validated header of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The goal every distance is measured to (its board is the table's board).
    pub goal: State,
    /// How many entries the body holds (a count, not bytes: the states of one parity class for
    /// a table, the pattern's placements for a pattern database); [`Header::body_len`] gives
    /// the bytes.
    pub entries: u64,
    /// The largest distance.
    pub max_depth: u8,
    /// States at each depth `0..=max_depth`.
    pub counts: Vec<u64>,
    /// CRC-32 of the body.
    pub body_checksum: u32,
    /// The body is checked in blocks of `1 << block_shift` bytes.
    pub block_shift: u8,
    /// CRC-32 of each block of the body.
    pub block_checksums: Vec<u32>,
    /// Length of the header in bytes; the body starts here.
    pub len: usize,
    /// [`KIND_DISTANCE_TABLE`] or [`KIND_PATTERN_DATABASE`].
    pub kind: u8,
    /// [`ENCODING_BYTE_PER_STATE`] or [`ENCODING_NIBBLE`].
    pub encoding: u8,
    /// The pattern's tiles as a bit mask; 0 for an exact table.
    pub pattern: u64,
    /// How an exact table's distances count moves (offset 20); [`Metric::Stm`] for a pattern
    /// database.
    pub metric: Metric,
}

impl Header {
    /// The header's length for a given maximum depth and number of body blocks.
    pub fn len_for(max_depth: u8, blocks: usize) -> usize {
        FIXED_HEADER_LEN + 8 * (max_depth as usize + 1) + 4 * blocks + 4
    }

    /// The number of blocks a body of `body_len` bytes has with blocks of `1 << shift` bytes.
    pub fn blocks_for(body_len: u64, shift: u8) -> usize {
        usize::try_from(body_len.div_ceil(1u64 << shift)).expect("a body that fits in memory")
    }

    /// The byte range of block `block` within the body.
    pub fn block_range(&self, block: usize) -> std::ops::Range<usize> {
        let start = block << self.block_shift;
        let end = ((block + 1) << self.block_shift)
            .min(usize::try_from(self.body_len()).expect("a body that fits in memory"));
        start..end
    }

    /// The body's length in bytes: one per entry, or one per two entries (encoding 2).
    pub fn body_len(&self) -> u64 {
        body_len(self.entries, self.encoding)
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.goal.board()
    }
}

fn body_len(entries: u64, encoding: u8) -> u64 {
    if encoding == ENCODING_NIBBLE {
        entries.div_ceil(2)
    } else {
        entries
    }
}

fn u32_at(bytes: &[u8], offset: usize) -> u32 {
    u32::from_le_bytes(bytes[offset..offset + 4].try_into().expect("4 bytes"))
}

fn u64_at(bytes: &[u8], offset: usize) -> u64 {
    u64::from_le_bytes(bytes[offset..offset + 8].try_into().expect("8 bytes"))
}

/// The longest header of a table with `entries` entries (maximum depth 255): a buffer can
/// reserve it before the depth is known.
pub fn max_header_len(entries: u64) -> usize {
    let bytes = body_len(entries, ENCODING_BYTE_PER_STATE);
    Header::len_for(u8::MAX, Header::blocks_for(bytes, BLOCK_SHIFT))
}

/// The checksum of each block of `body` (in parallel: a 12-cell body is 240 MB).
pub fn block_checksums(body: &[u8], shift: u8) -> Vec<u32> {
    use rayon::prelude::*;
    body.par_chunks(1 << shift).map(crc32fast::hash).collect()
}

/// The whole body's checksum from its blocks' (CRC-32 combines without rereading).
fn combined_checksum(body: &[u8], shift: u8, blocks: &[u32]) -> u32 {
    let mut whole = crc32fast::Hasher::new();
    for (chunk, &crc) in body.chunks(1 << shift).zip(blocks) {
        whole.combine(&crc32fast::Hasher::new_with_initial_len(
            crc,
            chunk.len() as u64,
        ));
    }
    whole.finalize()
}

/// Encodes the header of a table whose body is `body`, distances in `metric` moves, with
/// `counts` states at each depth.
pub fn encode_header(goal: &State, metric: Metric, body: &[u8], counts: &[u64]) -> Vec<u8> {
    encode_header_of(
        (KIND_DISTANCE_TABLE, metric_byte(metric)),
        ENCODING_BYTE_PER_STATE,
        0,
        body.len() as u64,
        goal,
        body,
        counts,
    )
}

/// Encodes a complete pattern database file: `codes` (one per entry, see the module
/// documentation) for the pattern `mask` and `goal`, four bits an entry when every code fits,
/// else a byte.
pub fn encode_pattern_database(goal: &State, mask: u64, codes: &[u8]) -> Vec<u8> {
    use rayon::prelude::*;
    // The histogram in one parallel pass (a 7-8 database's 519 M codes took half a second on
    // one thread); the highest code is its last non-zero count.
    let mut counts = codes
        .par_chunks(1 << 20)
        .fold(
            || vec![0u64; 256],
            |mut counts, chunk| {
                for &c in chunk {
                    counts[c as usize] += 1;
                }
                counts
            },
        )
        .reduce(
            || vec![0u64; 256],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
                a
            },
        );
    let max =
        u8::try_from(counts.iter().rposition(|&n| n > 0).unwrap_or(0)).expect("a code is a byte");
    counts.truncate(max as usize + 1);
    let (encoding, body) = if max < 16 {
        let packed: Vec<u8> = codes
            .par_chunks(2)
            .map(|pair| pair[0] | pair.get(1).map_or(0, |high| high << 4))
            .collect();
        (ENCODING_NIBBLE, packed)
    } else {
        (ENCODING_BYTE_PER_STATE, codes.to_vec())
    };
    let mut out = encode_header_of(
        (KIND_PATTERN_DATABASE, 0),
        encoding,
        mask,
        codes.len() as u64,
        goal,
        &body,
        &counts,
    );
    out.extend_from_slice(&body);
    out
}

/// Encodes the header of an MTM colouring database ([`KIND_COLOURING_DATABASE`]) whose body
/// is `body` (one byte an entry, every entry a distance): its classes `mask` (four bits a
/// goal cell), the histogram counted here. The body follows the header in the file.
pub fn encode_colouring_header(goal: &State, mask: u64, body: &[u8]) -> Vec<u8> {
    use rayon::prelude::*;
    let histogram = body
        .par_chunks(1 << BLOCK_SHIFT)
        .map(count_depths_all)
        .reduce(
            || [0u64; 256],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
    let max = histogram.iter().rposition(|&n| n > 0).unwrap_or(0);
    encode_header_of(
        (KIND_COLOURING_DATABASE, METRIC_MTM),
        ENCODING_BYTE_PER_STATE,
        mask,
        body.len() as u64,
        goal,
        body,
        &histogram[..=max],
    )
}

/// `kind` is the kind byte and the metric byte.
fn encode_header_of(
    (kind, metric): (u8, u8),
    encoding: u8,
    mask: u64,
    entries: u64,
    goal: &State,
    body: &[u8],
    counts: &[u64],
) -> Vec<u8> {
    let max_depth = u8::try_from(counts.len() - 1).expect("distances fit a byte");
    let blocks = block_checksums(body, BLOCK_SHIFT);
    let header_len = Header::len_for(max_depth, blocks.len());
    let mut out = Vec::with_capacity(header_len);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(
        &u32::try_from(header_len)
            .expect("a header of a few KiB")
            .to_le_bytes(),
    );
    let board = goal.board();
    out.extend_from_slice(&[
        kind,
        u8::try_from(board.width()).expect("a side is at most 25"),
        u8::try_from(board.height()).expect("a side is at most 25"),
        encoding,
        metric,
        0,
        0,
        0,
    ]);
    let mut goal_bytes = [0xFFu8; GOAL_BYTES];
    goal_bytes[..board.cells()].copy_from_slice(goal.cells());
    out.extend_from_slice(&goal_bytes);
    out.extend_from_slice(&mask.to_le_bytes());
    out.extend_from_slice(&entries.to_le_bytes());
    out.extend_from_slice(&combined_checksum(body, BLOCK_SHIFT, &blocks).to_le_bytes());
    out.extend_from_slice(&[BLOCK_SHIFT, 0, 0, 0]);
    out.extend_from_slice(&[max_depth, 0, 0, 0, 0, 0, 0, 0]);
    for count in counts {
        out.extend_from_slice(&count.to_le_bytes());
    }
    for crc in &blocks {
        out.extend_from_slice(&crc.to_le_bytes());
    }
    let header_checksum = crc32fast::hash(&out);
    out.extend_from_slice(&header_checksum.to_le_bytes());
    debug_assert_eq!(out.len(), header_len);
    out
}

/// Decodes and validates `bytes` as a complete table file: the header ([`decode_header`]) and
/// the whole body ([`verify_body`]).
///
/// # Errors
/// The first [`FormatError`] found, in the order the module documentation lists the fields.
/// Never panics, whatever the bytes.
pub fn decode(bytes: &[u8]) -> Result<Header, FormatError> {
    let header = decode_header(bytes)?;
    verify_body(&header, &bytes[header.len..])?;
    Ok(header)
}

/// Decodes and validates everything but the body: the header, its checksum, the depth counts
/// and the file's length. Costs a few kilobytes of reading whatever the table's size.
///
/// # Errors
/// The first [`FormatError`] found. Never panics, whatever the bytes.
pub fn decode_header(bytes: &[u8]) -> Result<Header, FormatError> {
    if bytes.len() < 8 || bytes[..8] != MAGIC {
        // A short file that starts like a table is truncated; anything else is foreign.
        if bytes.len() < FIXED_HEADER_LEN && MAGIC.starts_with(bytes) && !bytes.is_empty() {
            return Err(FormatError::TooShort {
                found: bytes.len(),
                needed: FIXED_HEADER_LEN,
            });
        }
        return Err(FormatError::NotATable);
    }
    if bytes.len() < FIXED_HEADER_LEN {
        return Err(FormatError::TooShort {
            found: bytes.len(),
            needed: FIXED_HEADER_LEN,
        });
    }
    let version = u32_at(bytes, 8);
    if version != FORMAT_VERSION {
        return Err(FormatError::UnsupportedVersion { found: version });
    }
    let max_depth = bytes[80];
    let block_shift = bytes[76];
    if !BLOCK_SHIFTS.contains(&block_shift) {
        return Err(FormatError::BlockShift { found: block_shift });
    }
    // The entry count is validated against the board below; bound it here so that the block
    // count (and so the header length) cannot be absurd before then.
    let stored_entries = u64_at(bytes, 64).min(1 << 40);
    let (kind, width, height, encoding) = (bytes[16], bytes[17], bytes[18], bytes[19]);
    let blocks = Header::blocks_for(body_len(stored_entries, encoding), block_shift);
    let stored_len = u64::from(u32_at(bytes, 12));
    let header_len = Header::len_for(max_depth, blocks);
    if stored_len != header_len as u64 {
        return Err(FormatError::HeaderLength {
            found: stored_len,
            expected: header_len as u64,
            max_depth,
        });
    }
    let pattern_kind = kind == KIND_PATTERN_DATABASE;
    let colouring_kind = kind == KIND_COLOURING_DATABASE;
    let reserved_mask = if pattern_kind || colouring_kind {
        0..0
    } else {
        56..64
    };
    // The metric byte is a field of exact tables only.
    let reserved_metric = if pattern_kind { 20..21 } else { 0..0 };
    for offset in reserved_metric
        .chain(21..24)
        .chain(reserved_mask)
        .chain(77..80)
        .chain(81..88)
    {
        if bytes[offset] != 0 {
            return Err(FormatError::Reserved { offset });
        }
    }
    let known = match kind {
        KIND_DISTANCE_TABLE => encoding == ENCODING_BYTE_PER_STATE,
        KIND_PATTERN_DATABASE => encoding == ENCODING_BYTE_PER_STATE || encoding == ENCODING_NIBBLE,
        KIND_COLOURING_DATABASE => encoding == ENCODING_BYTE_PER_STATE,
        _ => false,
    };
    if !known {
        return Err(FormatError::UnsupportedKind { kind, encoding });
    }
    let metric = match bytes[METRIC_OFFSET] {
        METRIC_STM => Metric::Stm,
        METRIC_MTM => Metric::Mtm,
        found => return Err(FormatError::UnknownMetric { found }),
    };
    // Exact tables need a board that ranks; a pattern database any board; a colouring
    // database at most 16 cells.
    let board = Board::new(width as usize, height as usize)
        .ok()
        .filter(|b| pattern_kind || colouring_kind || RankSpace::new(*b).is_ok())
        .filter(|b| !colouring_kind || b.cells() <= 16)
        .ok_or(FormatError::UnsupportedBoard { width, height })?;
    let mask = u64_at(bytes, 56);
    let pattern_entries = if pattern_kind {
        Some(pattern_entries(board, mask).ok_or(FormatError::BadPattern { mask })?)
    } else {
        None
    };
    let goal_bytes = &bytes[24..24 + GOAL_BYTES];
    if goal_bytes[board.cells()..].iter().any(|&b| b != 0xFF) {
        return Err(FormatError::BadGoal);
    }
    let goal =
        State::from_tiles(board, &goal_bytes[..board.cells()]).map_err(|_| FormatError::BadGoal)?;
    let expected_entries = match pattern_entries {
        Some(entries) => entries,
        None if colouring_kind => {
            if metric != Metric::Mtm {
                return Err(FormatError::UnknownMetric {
                    found: bytes[METRIC_OFFSET],
                });
            }
            colouring_entries(board, goal.blank(), mask).ok_or(FormatError::BadPattern { mask })?
        }
        None => (1..=board.cells() as u64).product::<u64>() / 2,
    };
    let entries = u64_at(bytes, 64);
    if entries != expected_entries {
        return Err(FormatError::EntryCount {
            found: entries,
            expected: expected_entries,
            board,
        });
    }
    // A body too long to address is one no file of this machine holds: reported as truncated.
    let body_bytes = usize::try_from(body_len(entries, encoding)).unwrap_or(usize::MAX);
    if bytes.len() < header_len {
        return Err(FormatError::Truncated {
            found: bytes.len(),
            expected: header_len + body_bytes,
        });
    }
    let stored_header_checksum = u32_at(bytes, header_len - 4);
    let header_checksum = crc32fast::hash(&bytes[..header_len - 4]);
    if stored_header_checksum != header_checksum {
        return Err(FormatError::HeaderChecksum {
            stored: stored_header_checksum,
            found: header_checksum,
        });
    }
    let counts: Vec<u64> = (0..=max_depth as usize)
        .map(|d| u64_at(bytes, FIXED_HEADER_LEN + 8 * d))
        .collect();
    let sum = counts.iter().try_fold(0u64, |acc, &c| acc.checked_add(c));
    // An exact table has one state at depth 0, the goal; a pattern database at least one
    // placement with code 0, the goal's.
    let zeros_ok = match counts.first() {
        Some(&zeros) => zeros == 1 || (pattern_kind && zeros > 0),
        None => false,
    };
    if sum != Some(entries) || counts.last() == Some(&0) || !zeros_ok {
        return Err(FormatError::DepthCounts {
            found: sum.unwrap_or(u64::MAX),
            expected: entries,
        });
    }
    let file_len = header_len + body_bytes;
    if bytes.len() < file_len {
        return Err(FormatError::Truncated {
            found: bytes.len(),
            expected: file_len,
        });
    }
    if bytes.len() > file_len {
        return Err(FormatError::TrailingBytes {
            found: bytes.len(),
            expected: file_len,
        });
    }
    let blocks_at = FIXED_HEADER_LEN + 8 * (max_depth as usize + 1);
    let block_checksums = (0..blocks)
        .map(|b| u32_at(bytes, blocks_at + 4 * b))
        .collect();
    Ok(Header {
        goal,
        entries,
        max_depth,
        counts,
        body_checksum: u32_at(bytes, 72),
        block_shift,
        block_checksums,
        len: header_len,
        kind,
        encoding,
        pattern: mask,
        metric,
    })
}

/// Checks block `block` of `body` against its checksum in `header`.
///
/// # Errors
/// [`FormatError::BlockChecksum`] naming the block and its byte range.
///
/// # Panics
/// If `block` is not a block of the header's body, or `body` is shorter than the header says
/// (a [`Header`] from [`decode_header`] guarantees the length).
pub fn verify_block(header: &Header, body: &[u8], block: usize) -> Result<(), FormatError> {
    let range = header.block_range(block);
    let found = crc32fast::hash(&body[range.clone()]);
    let stored = header.block_checksums[block];
    if found == stored {
        Ok(())
    } else {
        Err(FormatError::BlockChecksum {
            block,
            start: range.start,
            end: range.end,
            stored,
            found,
        })
    }
}

/// Checks the whole body: every block's checksum (in parallel), the whole-body checksum, and
/// the body's histogram against the header's depth counts (checksums can be recomputed by
/// whoever edits a file; the histogram ties the body to the header).
///
/// # Errors
/// The first [`FormatError`] found: the lowest damaged block, then the body checksum, then the
/// first depth whose count differs.
pub fn verify_body(header: &Header, body: &[u8]) -> Result<(), FormatError> {
    use rayon::prelude::*;
    let found = block_checksums(body, header.block_shift);
    if let Some(block) = (0..found.len()).find(|&b| found[b] != header.block_checksums[b]) {
        return verify_block(header, body, block);
    }
    let whole = combined_checksum(body, header.block_shift, &found);
    if whole != header.body_checksum {
        return Err(FormatError::BodyChecksum {
            stored: header.body_checksum,
            found: whole,
        });
    }
    let nibbles = header.encoding == ENCODING_NIBBLE;
    let histogram = body
        .par_chunks(1 << header.block_shift)
        .map(|chunk| {
            if nibbles {
                count_nibbles(chunk)
            } else {
                count_depths_all(chunk)
            }
        })
        .reduce(
            || [0u64; 256],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
    let mut histogram = histogram;
    if nibbles && header.entries % 2 == 1 {
        // The last byte's high half is padding, zero, not an entry.
        histogram[0] -= 1;
    }
    let counts = &header.counts;
    if let Some(depth) = (0..256).find(|&d| histogram[d] != counts.get(d).copied().unwrap_or(0)) {
        return Err(FormatError::BodyCounts {
            depth,
            header: counts.get(depth).copied().unwrap_or(0),
            body: histogram[depth],
        });
    }
    Ok(())
}

/// The entry count of a pattern database of the tiles in `mask` on `board`, `n!/(n-k)!` for
/// `k` tiles on `n` cells; `None` where the mask is not a pattern the database view accepts
/// (no tiles, the blank, a tile off the board, more than 2^32 entries). The same rule as
/// [`PatternSpace::new`](crate::pattern::PatternSpace::new), written on the mask so that the
/// store needs no pattern types.
fn pattern_entries(board: Board, mask: u64) -> Option<u64> {
    let n = board.cells();
    let k = mask.count_ones() as usize;
    if k == 0 || mask & 1 == 1 || (n < 64 && mask >> n != 0) {
        return None;
    }
    let entries: u128 = (n - k + 1..=n).map(|f| f as u128).product();
    u64::try_from(entries).ok().filter(|&e| e <= 1 << 32)
}

/// The entry count of a colouring database on `board` whose goal's blank is on `blank` and
/// whose classes are `mask` (four bits a cell): the cells times the multinomial of the four
/// classes' sizes; `None` where the mask is not a colouring (the blank's cell not class 0,
/// another cell not of class 1 to 4, bits past the board). The rule of the MTM colouring's
/// `Colouring::from_mask`, written on the mask so that the store needs no MTM types.
fn colouring_entries(board: Board, blank: usize, mask: u64) -> Option<u64> {
    let n = board.cells();
    if n > 16 || (n < 16 && mask >> (4 * n) != 0) {
        return None;
    }
    let mut sizes = [0u64; 5];
    for cell in 0..n {
        let class = (mask >> (4 * cell) & 0xF) as usize;
        if (cell == blank) != (class == 0) || class > 4 {
            return None;
        }
        sizes[class] += 1;
    }
    let factorial = |k: u64| (1..=k).product::<u64>();
    let tiles = n as u64 - 1;
    Some(n as u64 * factorial(tiles) / sizes[1..].iter().map(|&s| factorial(s)).product::<u64>())
}

/// Offsets where each header field starts, for damage tests and `npuzzle check`.
pub const FIELD_OFFSETS: [(usize, &str); 15] = [
    (0, "magic"),
    (8, "version"),
    (12, "header length"),
    (16, "kind"),
    (17, "width"),
    (18, "height"),
    (19, "encoding"),
    (METRIC_OFFSET, "metric"),
    (24, "goal"),
    (56, "pattern mask"),
    (64, "entry count"),
    (72, "body checksum"),
    (76, "block shift"),
    (80, "max depth"),
    (FIXED_HEADER_LEN, "depth counts"),
];

/// The goal bytes' capacity must hold the largest board's cells.
const _: () = assert!(GOAL_BYTES >= MAX_CELLS);
