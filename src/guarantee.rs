//! What a solution's length is guaranteed to be: optimal, within a factor of the optimum, or
//! nothing (a constructive solution). The answer layer says it with every solution, the
//! command line prints it, and `verify` checks a claim that carries it.

use std::fmt;
use std::str::FromStr;

/// A factor of at least 1 bounding a length against the optimum, kept in thousandths
/// (`1.2` is 1200), so that it is exact and the bound a search enforces is the one written.
///
/// ```
/// use npuzzle::Factor;
/// let factor: Factor = "1.2".parse()?;
/// assert_eq!(factor.to_string(), "1.2");
/// assert!(factor.allows(60, 50) && !factor.allows(61, 50));
/// # Ok::<(), npuzzle::FactorError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Factor(u32);

/// The largest factor accepted: 100.
pub const MAX_FACTOR_THOUSANDTHS: u32 = 100_000;

/// A factor that is not a decimal number from 1 to 100.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("factor {0:?} is not a decimal number from 1 to 100 (for example 1.2)")]
pub struct FactorError(pub String);

impl Factor {
    /// Optimal: a factor of 1.
    pub const ONE: Factor = Factor(1000);

    /// The factor in thousandths (1.2 is 1200).
    pub fn thousandths(self) -> u32 {
        self.0
    }

    /// The factor as a reduced fraction `(num, den)`.
    pub fn ratio(self) -> (u32, u32) {
        let (mut a, mut b) = (self.0, 1000);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        (self.0 / a, 1000 / a)
    }

    /// Whether `length` is within this factor of `optimum` (exactly, in integers).
    pub fn allows(self, length: usize, optimum: usize) -> bool {
        length as u128 * 1000 <= optimum as u128 * u128::from(self.0)
    }
}

impl FromStr for Factor {
    type Err = FactorError;

    /// Reads `1`, `1.2`, `1.25`, `1.125`; digits past the third decimal are dropped, which
    /// only tightens the bound.
    fn from_str(text: &str) -> Result<Factor, FactorError> {
        let bad = || FactorError(text.chars().take(32).collect());
        let (whole, fraction) = text.trim().split_once('.').unwrap_or((text.trim(), ""));
        if whole.is_empty()
            || whole.len() > 3
            || !whole.bytes().all(|b| b.is_ascii_digit())
            || !fraction.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        let mut thousandths: u32 = whole.parse::<u32>().map_err(|_| bad())? * 1000;
        for (place, digit) in [100, 10, 1].into_iter().zip(fraction.bytes()) {
            thousandths += place * u32::from(digit - b'0');
        }
        if !(1000..=MAX_FACTOR_THOUSANDTHS).contains(&thousandths) {
            return Err(bad());
        }
        Ok(Factor(thousandths))
    }
}

impl fmt::Display for Factor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, part) = (self.0 / 1000, self.0 % 1000);
        if part == 0 {
            return write!(f, "{whole}");
        }
        let digits = format!("{part:03}");
        write!(f, "{whole}.{}", digits.trim_end_matches('0'))
    }
}

/// What is guaranteed of a solution's length (or asked of one: [`crate::How::with_guarantee`]).
///
/// With the `serde` feature it is written as its label (`"within 1.2"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "String", try_from = "String")
)]
pub enum Guarantee {
    /// The shortest there is.
    #[default]
    Optimal,
    /// At most this factor times the shortest.
    Within(Factor),
    /// Nothing: a solution (the constructive solver's, or greedy search's).
    None,
}

impl Guarantee {
    /// Whether a solution of `length` keeps this guarantee where the optimum is `optimum`.
    pub fn allows(self, length: usize, optimum: usize) -> bool {
        match self {
            Guarantee::Optimal => length == optimum,
            Guarantee::Within(factor) => factor.allows(length, optimum),
            Guarantee::None => true,
        }
    }
}

/// `optimal`, `within 1.2`, `none`: the label the command line prints and `verify` reads.
impl fmt::Display for Guarantee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Guarantee::Optimal => f.write_str("optimal"),
            Guarantee::Within(factor) => write!(f, "within {factor}"),
            Guarantee::None => f.write_str("none"),
        }
    }
}

impl FromStr for Guarantee {
    type Err = FactorError;

    /// Reads the labels of [`Display`](fmt::Display), and a bare factor (`1.2`) as `within 1.2`.
    fn from_str(text: &str) -> Result<Guarantee, FactorError> {
        let text = text.trim();
        match text {
            "optimal" => Ok(Guarantee::Optimal),
            "none" => Ok(Guarantee::None),
            _ => {
                let factor = text.strip_prefix("within").unwrap_or(text).trim();
                Ok(Guarantee::Within(factor.parse()?))
            }
        }
    }
}

impl From<Guarantee> for String {
    fn from(guarantee: Guarantee) -> String {
        guarantee.to_string()
    }
}

impl TryFrom<String> for Guarantee {
    type Error = FactorError;

    fn try_from(label: String) -> Result<Guarantee, FactorError> {
        label.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_read_and_print_exactly() {
        for (text, thousandths, shown) in [
            ("1", 1000, "1"),
            ("1.2", 1200, "1.2"),
            ("1.25", 1250, "1.25"),
            ("1.1239", 1123, "1.123"),
            ("100", 100_000, "100"),
        ] {
            let factor: Factor = text.parse().unwrap();
            assert_eq!(factor.thousandths(), thousandths);
            assert_eq!(factor.to_string(), shown);
        }
        for bad in ["", "0.9", "abc", "1.2.3", "-1", "101", ".5", "1e3"] {
            assert!(bad.parse::<Factor>().is_err(), "{bad}");
        }
        assert_eq!("1.2".parse::<Factor>().unwrap().ratio(), (6, 5));
    }

    #[test]
    fn labels_round_trip_and_bound_lengths() {
        for g in [
            Guarantee::Optimal,
            Guarantee::None,
            Guarantee::Within("1.5".parse().unwrap()),
        ] {
            assert_eq!(g.to_string().parse::<Guarantee>().unwrap(), g);
        }
        let g: Guarantee = "within 1.2".parse().unwrap();
        assert!(g.allows(60, 50) && !g.allows(61, 50));
        assert!(Guarantee::Optimal.allows(50, 50) && !Guarantee::Optimal.allows(52, 50));
    }
}
