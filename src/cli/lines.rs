//! The bound on an input line, shared by `batch` and `verify`: at most [`MAX_LINE`] bytes
//! before its newline. A longer line is that line's error (a row with the error for `batch`, a
//! `malformed` verdict for `verify`), or nothing when it is a `#` comment; its rest is read
//! once and dropped, never kept, and the lines after it are read as usual. So memory stays
//! flat, and time linear, whatever the input holds.

use std::io::{self, BufRead};

/// The most bytes a line may hold before its newline: 1 MiB, some thousand times the longest
/// state or answer line npuzzle has a use for.
pub const MAX_LINE: usize = 1 << 20;

/// Bytes kept of a line over [`MAX_LINE`]: enough to quote its start in the error (40
/// characters of up to 4 bytes) and to tell a `#` comment.
pub const LONG_LINE_PREFIX: usize = 256;

/// The error of a line over the limit.
pub fn too_long() -> String {
    format!("line too long: more than 1 MiB ({MAX_LINE} bytes), the most npuzzle reads of a line; skipped unread")
}

/// Whether the first bytes of a line say it is a `#` comment.
pub fn is_comment(prefix: &[u8]) -> bool {
    prefix.trim_ascii_start().starts_with(b"#")
}

/// One line read by [`read_line`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineRead {
    /// Bytes consumed from the reader, newline included; 0 at the end of the input.
    pub consumed: u64,
    /// The line held more than [`MAX_LINE`] bytes: only its first [`LONG_LINE_PREFIX`]
    /// bytes were kept.
    pub long: bool,
}

/// Appends one line of `reader` (with its newline, when it has one) to `buf`; a line over
/// [`MAX_LINE`] bytes leaves only its first [`LONG_LINE_PREFIX`] bytes there, and the rest is
/// read and dropped, a buffer at a time.
///
/// # Errors
/// Read errors other than interruptions.
pub fn read_line(reader: &mut dyn BufRead, buf: &mut Vec<u8>) -> io::Result<LineRead> {
    let start = buf.len();
    let mut read = LineRead {
        consumed: 0,
        long: false,
    };
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read);
        }
        let (take, ends) = match memchr::memchr(b'\n', available) {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        if !read.long {
            buf.extend_from_slice(&available[..take]);
            let content = buf.len() - start - usize::from(ends);
            if content > MAX_LINE {
                read.long = true;
                buf.truncate(start + LONG_LINE_PREFIX);
            }
        }
        reader.consume(take);
        read.consumed += take as u64;
        if ends {
            return Ok(read);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_over_the_limit_keeps_its_prefix_and_the_next_line_is_read_whole() {
        let long = "x".repeat(MAX_LINE + 1);
        let exact = "y".repeat(MAX_LINE);
        let text = format!("{long}\n{exact}\nshort");
        // A small buffer: the line arrives in many pieces.
        let mut reader = io::BufReader::with_capacity(1000, text.as_bytes());
        let mut buf = Vec::new();
        let first = read_line(&mut reader, &mut buf).unwrap();
        assert_eq!((first.consumed, first.long), (MAX_LINE as u64 + 2, true));
        assert_eq!(buf, "x".repeat(LONG_LINE_PREFIX).as_bytes());
        buf.clear();
        let second = read_line(&mut reader, &mut buf).unwrap();
        assert!(!second.long);
        assert_eq!(buf.len(), MAX_LINE + 1);
        buf.clear();
        let third = read_line(&mut reader, &mut buf).unwrap();
        assert_eq!(
            (third.consumed, third.long, &buf[..]),
            (5, false, &b"short"[..])
        );
        buf.clear();
        assert_eq!(read_line(&mut reader, &mut buf).unwrap().consumed, 0);
    }
}
