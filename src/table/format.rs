//! The table file format: encoding, decoding and validation of the header. No I/O here.
//!
//! All integers are little-endian. Offsets are in bytes from the start of the file.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `NPUZZLE\0` (first, so a foreign file is "not an npuzzle table") |
//! | 8 | 4 | format version, `u32` = [`FORMAT_VERSION`] |
//! | 12 | 4 | header length `H`, `u32` = `92 + 8 * (max_depth + 1)` |
//! | 16 | 1 | kind: 1 = exact distance table |
//! | 17 | 1 | board width |
//! | 18 | 1 | board height |
//! | 19 | 1 | entry encoding: 1 = one byte per state, the distance |
//! | 20 | 4 | reserved, zero |
//! | 24 | 32 | goal: one byte per cell row-major, 0 = blank; bytes past the board are `0xFF` |
//! | 56 | 8 | reserved for a pattern mask, zero in exact tables |
//! | 64 | 8 | entry count `N`, `u64` = width*height! / 2 |
//! | 72 | 4 | CRC-32 (IEEE) of the body |
//! | 76 | 4 | reserved, zero |
//! | 80 | 1 | maximum depth `D` |
//! | 81 | 7 | reserved, zero |
//! | 88 | 8*(D+1) | states at each depth 0..=D, `u64` each; they sum to `N` |
//! | H-4 | 4 | CRC-32 of header bytes `0..H-4` |
//! | H | N | body: entry `i` is the distance of the state with folded rank `i` |
//!
//! The body is indexed by [`RankSpace::index`](crate::RankSpace::index) relative to the goal's
//! parity class. After the checksums, the body's histogram must equal the header's counts.
//! Validation runs in a fixed order and each failure is its own
//! [`FormatError`], so a damaged file is named precisely and never read as valid.

use crate::bfs::Distances;
use crate::board::{Board, MAX_CELLS};
use crate::rank::RankSpace;
use crate::state::State;

/// The magic bytes that open every table file.
pub const MAGIC: [u8; 8] = *b"NPUZZLE\0";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the depth counts.
pub const FIXED_HEADER_LEN: usize = 88;
/// The longest header: maximum depth 255 (a buffer can reserve it before the depth is known).
pub const MAX_HEADER_LEN: usize = FIXED_HEADER_LEN + 8 * 256 + 4;
/// Kind byte of an exact distance table.
pub const KIND_DISTANCE_TABLE: u8 = 1;
/// Encoding byte for one distance byte per state.
pub const ENCODING_BYTE_PER_STATE: u8 = 1;
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
    #[error("table format version {found} is not supported (this build reads {FORMAT_VERSION}); rebuild it with `npuzzle build`")]
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
        "unsupported table kind {kind} / encoding {encoding} (this build reads kind 1, encoding 1)"
    )]
    UnsupportedKind {
        /// Kind byte.
        kind: u8,
        /// Encoding byte.
        encoding: u8,
    },
    /// A board this build cannot rank.
    #[error("corrupt header: a {width}x{height} board cannot hold an exact table")]
    UnsupportedBoard {
        /// Stored width.
        width: u8,
        /// Stored height.
        height: u8,
    },
    /// The goal bytes are not a permutation of the board's tiles.
    #[error("corrupt header: the goal is not a permutation of the board's tiles")]
    BadGoal,
    /// The entry count does not fit the board.
    #[error("corrupt header: {found} entries stored, a {board} table has {expected}")]
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
    /// A valid table for another board or goal than the one asked for.
    #[error(
        "the table is for goal {found} ({found_board}), not the goal {expected} ({expected_board})"
    )]
    OtherGoal {
        /// The table's goal.
        found: String,
        /// The table's board.
        found_board: Board,
        /// The goal asked for.
        expected: String,
        /// The board asked for.
        expected_board: Board,
    },
}

/// The decoded, validated header of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The goal every distance is measured to (its board is the table's board).
    pub goal: State,
    /// States in the table (one parity class).
    pub entries: u64,
    /// The largest distance.
    pub max_depth: u8,
    /// States at each depth `0..=max_depth`.
    pub counts: Vec<u64>,
    /// CRC-32 of the body.
    pub body_checksum: u32,
    /// Length of the header in bytes; the body starts here.
    pub len: usize,
}

impl Header {
    /// The header's length for a given maximum depth.
    pub fn len_for(max_depth: u8) -> usize {
        FIXED_HEADER_LEN + 8 * (max_depth as usize + 1) + 4
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.goal.board()
    }
}

fn u32_at(bytes: &[u8], offset: usize) -> u32 {
    u32::from_le_bytes(bytes[offset..offset + 4].try_into().expect("4 bytes"))
}

fn u64_at(bytes: &[u8], offset: usize) -> u64 {
    u64::from_le_bytes(bytes[offset..offset + 8].try_into().expect("8 bytes"))
}

/// Encodes a complete table file: header then body.
pub fn encode(goal: &State, distances: &Distances) -> Vec<u8> {
    let mut out = encode_header(goal, &distances.counts, crc32fast::hash(&distances.entries));
    out.extend_from_slice(&distances.entries);
    out
}

/// Encodes the header of a table file for `goal` whose body has `counts[d]` states at each
/// depth `d` and the CRC-32 `body_checksum`; the body follows it. The header is
/// [`Header::len_for`] the maximum depth `counts.len() - 1` bytes long, at most
/// [`MAX_HEADER_LEN`].
///
/// # Panics
/// If `counts` is empty or has more than 256 depths.
pub fn encode_header(goal: &State, counts: &[u64], body_checksum: u32) -> Vec<u8> {
    let max_depth = u8::try_from(counts.len() - 1).expect("at most 256 depths");
    let header_len = Header::len_for(max_depth);
    let board = goal.board();
    let entries = (1..=board.cells() as u64).product::<u64>() / 2;
    let mut out = Vec::with_capacity(header_len);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(header_len as u32).to_le_bytes());
    out.extend_from_slice(&[
        KIND_DISTANCE_TABLE,
        board.width() as u8,
        board.height() as u8,
        ENCODING_BYTE_PER_STATE,
        0,
        0,
        0,
        0,
    ]);
    let mut goal_bytes = [0xFFu8; GOAL_BYTES];
    goal_bytes[..board.cells()].copy_from_slice(goal.cells());
    out.extend_from_slice(&goal_bytes);
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&entries.to_le_bytes());
    out.extend_from_slice(&body_checksum.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&[max_depth, 0, 0, 0, 0, 0, 0, 0]);
    for count in counts {
        out.extend_from_slice(&count.to_le_bytes());
    }
    let header_checksum = crc32fast::hash(&out);
    out.extend_from_slice(&header_checksum.to_le_bytes());
    debug_assert_eq!(out.len(), header_len);
    out
}

/// Decodes and validates `bytes` as a complete table file (header, length and both checksums).
///
/// # Errors
/// The first [`FormatError`] found, in the order the module documentation lists the fields.
/// Never panics, whatever the bytes.
pub fn decode(bytes: &[u8]) -> Result<Header, FormatError> {
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
    let stored_len = u32_at(bytes, 12) as u64;
    let header_len = Header::len_for(max_depth);
    if stored_len != header_len as u64 {
        return Err(FormatError::HeaderLength {
            found: stored_len,
            expected: header_len as u64,
            max_depth,
        });
    }
    for offset in (20..24).chain(56..64).chain(76..80).chain(81..88) {
        if bytes[offset] != 0 {
            return Err(FormatError::Reserved { offset });
        }
    }
    let (kind, width, height, encoding) = (bytes[16], bytes[17], bytes[18], bytes[19]);
    if kind != KIND_DISTANCE_TABLE || encoding != ENCODING_BYTE_PER_STATE {
        return Err(FormatError::UnsupportedKind { kind, encoding });
    }
    let board = Board::new(width as usize, height as usize)
        .ok()
        .filter(|b| RankSpace::new(*b).is_ok())
        .ok_or(FormatError::UnsupportedBoard { width, height })?;
    let goal_bytes = &bytes[24..24 + GOAL_BYTES];
    if goal_bytes[board.cells()..].iter().any(|&b| b != 0xFF) {
        return Err(FormatError::BadGoal);
    }
    let goal =
        State::from_tiles(board, &goal_bytes[..board.cells()]).map_err(|_| FormatError::BadGoal)?;
    let expected_entries = (1..=board.cells() as u64).product::<u64>() / 2;
    let entries = u64_at(bytes, 64);
    if entries != expected_entries {
        return Err(FormatError::EntryCount {
            found: entries,
            expected: expected_entries,
            board,
        });
    }
    if bytes.len() < header_len {
        return Err(FormatError::Truncated {
            found: bytes.len(),
            expected: header_len + entries as usize,
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
    if sum != Some(entries) || counts.last() == Some(&0) || counts.first() != Some(&1) {
        return Err(FormatError::DepthCounts {
            found: sum.unwrap_or(u64::MAX),
            expected: entries,
        });
    }
    let file_len = header_len + entries as usize;
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
    let body_checksum = u32_at(bytes, 72);
    let found = crc32fast::hash(&bytes[header_len..]);
    if found != body_checksum {
        return Err(FormatError::BodyChecksum {
            stored: body_checksum,
            found,
        });
    }
    let body = crate::bfs::count_depths_all(&bytes[header_len..]);
    if let Some(depth) = (0..256).find(|&d| body[d] != counts.get(d).copied().unwrap_or(0)) {
        return Err(FormatError::BodyCounts {
            depth,
            header: counts.get(depth).copied().unwrap_or(0),
            body: body[depth],
        });
    }
    Ok(Header {
        goal,
        entries,
        max_depth,
        counts,
        body_checksum,
        len: header_len,
    })
}

/// Offsets where each header field starts, for damage tests and `npuzzle check`.
pub const FIELD_OFFSETS: [(usize, &str); 13] = [
    (0, "magic"),
    (8, "version"),
    (12, "header length"),
    (16, "kind"),
    (17, "width"),
    (18, "height"),
    (19, "encoding"),
    (24, "goal"),
    (56, "pattern mask"),
    (64, "entry count"),
    (72, "body checksum"),
    (80, "max depth"),
    (FIXED_HEADER_LEN, "depth counts"),
];

/// The goal bytes' capacity must hold the largest board's cells.
const _: () = assert!(GOAL_BYTES >= MAX_CELLS);
