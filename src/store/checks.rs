//! Which blocks of a table's body have passed their checksum, shared by threads.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// One bit per block of the body, set once the block passed its checksum; a block whose bit
/// is clear is checked (again) before any of its entries is read. A table built in memory or
/// validated whole starts with every bit set.
///
/// The hot path of a lookup is [`BlockChecks::is_good`]: one relaxed load of the word that
/// holds the block's bit. Relaxed is enough: the body never changes (see `store::os`), so a
/// thread that sees a bit set by another reads the very bytes that other thread checked, and
/// a thread that does not see it yet only checks the block once more.
pub(crate) struct BlockChecks {
    good: Box<[AtomicU64]>,
    blocks: usize,
    /// Set once every block is good (what [`Table::entries`](crate::Table::entries) asks).
    all_good: AtomicBool,
    /// Set once every entry was found to agree with its neighbours'
    /// ([`Table::verify_deep`](crate::Table::verify_deep)): a checked read then needs no
    /// neighbours.
    pub(crate) all_consistent: AtomicBool,
}

impl BlockChecks {
    /// `blocks` blocks, all good or all unchecked.
    pub(crate) fn new(blocks: usize, good: bool) -> BlockChecks {
        let words = blocks.div_ceil(64);
        let fill = |word: usize| {
            let bits = (blocks - 64 * word).min(64);
            match (good, bits) {
                (false, _) => 0,
                (true, 64) => u64::MAX,
                (true, bits) => (1u64 << bits) - 1,
            }
        };
        BlockChecks {
            good: (0..words).map(|w| AtomicU64::new(fill(w))).collect(),
            blocks,
            all_good: AtomicBool::new(good),
            all_consistent: AtomicBool::new(false),
        }
    }

    /// The number of blocks.
    pub(crate) fn len(&self) -> usize {
        self.blocks
    }

    /// Whether `block` has passed its checksum in this process.
    ///
    /// # Panics
    /// If `block` is not a block of the body.
    #[inline(always)]
    pub(crate) fn is_good(&self, block: usize) -> bool {
        self.good[block / 64].load(Ordering::Relaxed) & (1 << (block % 64)) != 0
    }

    /// Whether every block has passed its checksum.
    pub(crate) fn all_good(&self) -> bool {
        self.all_good.load(Ordering::Relaxed)
    }

    /// Records that `block` passed its checksum; the flag of [`BlockChecks::all_good`]
    /// follows once every block has.
    pub(crate) fn set_good(&self, block: usize) {
        self.good[block / 64].fetch_or(1 << (block % 64), Ordering::Relaxed);
        if (0..self.blocks).all(|b| self.is_good(b)) {
            self.all_good.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_become_good_one_by_one_and_all_good_follows() {
        for blocks in [1, 63, 64, 65, 229] {
            let checks = BlockChecks::new(blocks, false);
            assert!(!checks.all_good());
            for block in (0..blocks).rev() {
                assert!(!checks.is_good(block));
                checks.set_good(block);
                assert!(checks.is_good(block));
                assert_eq!(checks.all_good(), block == 0, "{blocks} blocks");
            }
            let good = BlockChecks::new(blocks, true);
            assert!(good.all_good() && (0..blocks).all(|b| good.is_good(b)));
        }
    }
}
