//! Memory sizes as people write them (`512M`, `1.5G`) and what this machine has, from
//! Linux's `/proc/meminfo`. The library's check before a pattern-database build
//! (`NPUZZLE_MEMORY_LIMIT`) and the server's `--max-memory` both read sizes here, so a size
//! means the same wherever it is given.
//!
//! ```
//! use npuzzle::memory::parse_size;
//!
//! assert_eq!(parse_size("512M"), Ok(512 << 20));
//! assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
//! assert!(parse_size("lots").is_err());
//! ```

use std::fmt;

/// Why a size could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeError {
    /// Not a number with an optional unit (the text as given).
    Malformed(String),
    /// Zero, which no build or server can work within.
    Zero,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SizeError::Malformed(text) => {
                write!(f, "expected a size such as 512M or 2G, not `{text}`")
            }
            SizeError::Zero => f.write_str("a memory size must be more than 0"),
        }
    }
}

impl std::error::Error for SizeError {}

/// Reads a size in bytes: a number, whole or decimal, then optionally `K`, `M`, `G` or `T`
/// (powers of 1024, in either case, an optional `B` or `iB` after them): `1000`, `64kb`,
/// `512M`, `1.5GiB`. A size beyond `u64` reads as `u64::MAX`.
///
/// # Errors
/// [`SizeError::Malformed`] for anything else, [`SizeError::Zero`] for zero.
pub fn parse_size(text: &str) -> Result<u64, SizeError> {
    let text = text.trim();
    let malformed = || SizeError::Malformed(text.to_string());
    let upper = text.to_ascii_uppercase();
    let unit_at = upper
        .find(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(upper.len());
    let (number, unit) = upper.split_at(unit_at);
    let scale: u64 = match unit.trim_end_matches("IB").trim_end_matches('B') {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => return Err(malformed()),
    };
    let number = number.trim();
    // `f64` parses words such as `inf` and `NaN`: only digits and one point are a size.
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(malformed());
    }
    let value: f64 = number.parse().map_err(|_| malformed())?;
    if value == 0.0 {
        return Err(SizeError::Zero);
    }
    // Positive and finite (digits and a point only); `as` saturates beyond u64 at u64::MAX.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let bytes = (value * scale as f64) as u64;
    Ok(bytes.max(1))
}

/// The machine's memory in bytes (`MemTotal`), where `/proc/meminfo` can be read.
pub fn total() -> Option<u64> {
    meminfo("MemTotal:")
}

/// The memory a new allocation can have without swapping, in bytes (`MemAvailable`: free
/// memory plus what the page cache can give back), where `/proc/meminfo` can be read.
pub fn available() -> Option<u64> {
    meminfo("MemAvailable:")
}

/// The `/proc/meminfo` line starting with `key`, in bytes (the file counts in kB).
fn meminfo(key: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let value = text.lines().find_map(|line| line.strip_prefix(key))?;
    let kb: u64 = value.trim().trim_end_matches("kB").trim().parse().ok()?;
    kb.checked_mul(1024)
}

/// Bytes in GiB, for messages.
pub fn gib(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1u32 << 30)
}

#[cfg(test)]
mod tests {
    use super::{available, parse_size, total, SizeError};

    #[test]
    fn sizes_parse_with_and_without_a_unit() {
        assert_eq!(parse_size("123"), Ok(123));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("64kb"), Ok(64 << 10));
        assert_eq!(parse_size(" 512m "), Ok(512 << 20));
        assert_eq!(parse_size("8G"), Ok(8 << 30));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("2T"), Ok(2 << 40));
        assert_eq!(parse_size("99999999999999999999G"), Ok(u64::MAX));
        assert_eq!(parse_size("0"), Err(SizeError::Zero));
        assert_eq!(parse_size("0.0M"), Err(SizeError::Zero));
        for bad in [
            "", "G", "-1", "12X", "lots", "inf", "NaN", "1e9", "1..5G", "5 5G",
        ] {
            assert_eq!(
                parse_size(bad),
                Err(SizeError::Malformed(bad.trim().to_string())),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn this_machine_reports_its_memory() {
        // Linux CI and development machines have /proc/meminfo; elsewhere both are None.
        if cfg!(target_os = "linux") {
            let (total, available) = (total().unwrap(), available().unwrap());
            assert!(
                available > 0 && available <= total,
                "{available} of {total}"
            );
        }
    }
}
