//! A small, deterministic random number generator whose stream is part of npuzzle's contract.
//!
//! `npuzzle sample --seed S` must print the same instances on every machine and with every
//! build, forever: a user who shares a seed shares a test set. General-purpose crates make no
//! such promise across versions (rand's `StdRng` says so in its docs), so npuzzle carries
//! SplitMix64 (Steele, Lea and Flood, 2014; the reference C code is by Sebastiano Vigna): a
//! 64-bit counter passed through a strong mixing function. It is not cryptographic; it is
//! fast, has no bad seeds, and its output for a seed is fixed by the published algorithm
//! (a unit test pins the reference values).
#![warn(clippy::cast_possible_truncation)]

/// SplitMix64: a 64-bit state advanced by a constant and mixed on output.
///
/// ```
/// use npuzzle::rng::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// let roll = a.below(6);
/// assert!(roll < 6);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

/// The increment of the state: the odd integer closest to 2^64 divided by the golden ratio.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

impl SplitMix64 {
    /// The generator started from `seed`; every seed, zero included, is good.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..bound`, without modulo bias (Lemire's multiply-and-reject).
    ///
    /// # Panics
    /// If `bound` is 0: there is no integer to draw.
    #[inline]
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "below(0): the range 0..0 is empty");
        // Products whose low half falls under `2^64 mod bound` would make some results more
        // likely than others; drawing again for them keeps every result equally likely.
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(bound);
            let (high, low) = (product >> 64, product & u128::from(u64::MAX));
            if low >= u128::from(threshold) {
                return u64::try_from(high).expect("the high half of a 128-bit product");
            }
        }
    }

    /// A uniform index in `0..len`: [`below`](Self::below) for a length, so callers that pick
    /// from a slice need no cast (the same draw, so the same stream).
    ///
    /// # Panics
    /// If `len` is 0.
    #[inline]
    pub fn index_below(&mut self, len: usize) -> usize {
        let bound = u64::try_from(len).expect("a usize fits in a u64 on supported targets");
        usize::try_from(self.below(bound)).expect("below `len`, which is a usize")
    }

    /// A uniform `u32` in `0..bound`: [`below`](Self::below) for a rank (the same draw).
    ///
    /// # Panics
    /// If `bound` is 0.
    #[inline]
    pub fn below_u32(&mut self, bound: u32) -> u32 {
        u32::try_from(self.below(u64::from(bound))).expect("below `bound`, which is a u32")
    }

    /// `true` with probability `numerator / denominator`.
    ///
    /// # Panics
    /// If `denominator` is 0.
    pub fn chance(&mut self, numerator: u64, denominator: u64) -> bool {
        self.below(denominator) < numerator
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_matches_the_reference_splitmix64() {
        // Reference output of Vigna's splitmix64.c with x = 1234567, as published alongside
        // the algorithm and reproduced by many ports.
        let mut rng = SplitMix64::new(1_234_567);
        let expected = [
            6_457_827_717_110_365_317,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821,
        ];
        for value in expected {
            assert_eq!(rng.next_u64(), value);
        }
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut rng = SplitMix64::new(42);
        for bound in [1u64, 2, 3, 7, 10, 181_440] {
            let mut seen = [false; 16];
            for _ in 0..2_000 {
                let value = rng.below(bound);
                assert!(value < bound);
                if let Some(slot) = usize::try_from(value).ok().and_then(|v| seen.get_mut(v)) {
                    *slot = true;
                }
            }
            if bound <= 16 {
                let all = usize::try_from(bound).unwrap();
                assert!(seen[..all].iter().all(|&s| s), "bound {bound}: {seen:?}");
            }
        }
    }

    #[test]
    fn below_is_close_to_uniform() {
        let mut rng = SplitMix64::new(3);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[usize::try_from(rng.below(6)).unwrap()] += 1;
        }
        // Expected 10,000 each; a fair die stays within 5% here with overwhelming probability.
        for count in counts {
            assert!((9_500..=10_500).contains(&count), "{counts:?}");
        }
    }
}
