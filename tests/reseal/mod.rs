//! Rewrites every checksum of a table file after its body was edited, as a deliberate editor
//! would: each block's, the whole body's, and the header's. What is left to catch the edit is
//! what does not depend on checksums (the histogram, the neighbour consistency).

/// Recomputes the block checksums, the body checksum and the header checksum of `bytes`.
pub fn reseal_body(bytes: &mut [u8]) {
    let header_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let shift = bytes[76];
    let max_depth = bytes[80] as usize;
    let blocks_at = 88 + 8 * (max_depth + 1);
    let body = bytes[header_len..].to_vec();
    for (block, chunk) in body.chunks(1 << shift).enumerate() {
        let at = blocks_at + 4 * block;
        bytes[at..at + 4].copy_from_slice(&crc32fast::hash(chunk).to_le_bytes());
    }
    bytes[72..76].copy_from_slice(&crc32fast::hash(&body).to_le_bytes());
    let header = crc32fast::hash(&bytes[..header_len - 4]);
    bytes[header_len - 4..header_len].copy_from_slice(&header.to_le_bytes());
}
