//! Histograms of stored bytes: how many entries hold each value. The header's depth counts
//! are checked against them ([`verify_body`](super::format::verify_body)), and the generator
//! counts its depths with the same loop.

/// Counts the entries of every byte value.
pub fn count_depths_all(entries: &[u8]) -> [u64; 256] {
    // Four tables break the dependency between neighbouring increments of one counter.
    let mut counts = [[0u64; 256]; 4];
    let mut chunks = entries.chunks_exact(4);
    for chunk in &mut chunks {
        for (table, &d) in counts.iter_mut().zip(chunk) {
            table[d as usize] += 1;
        }
    }
    for &d in chunks.remainder() {
        counts[0][d as usize] += 1;
    }
    let mut total = [0u64; 256];
    for table in &counts {
        for (sum, &c) in total.iter_mut().zip(table) {
            *sum += c;
        }
    }
    total
}

/// The number of each four-bit code in `bytes`, both halves of every byte.
pub(crate) fn count_nibbles(bytes: &[u8]) -> [u64; 256] {
    let per_byte = count_depths_all(bytes);
    let mut out = [0u64; 256];
    for (byte, &n) in per_byte.iter().enumerate() {
        out[byte & 15] += n;
        out[byte >> 4] += n;
    }
    out
}
