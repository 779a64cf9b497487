//! `--limit`: a node count (`500000`, `500k`, `2M`) or a duration (`10s`, `250ms`, `2min`).

use std::time::Duration;

use npuzzle::Limits;

/// One `--limit` value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LimitArg {
    /// Expanded nodes.
    Nodes(u64),
    /// Wall-clock time.
    Time(Duration),
}

/// Reads one `--limit` value; the message names the accepted forms.
pub fn parse_limit(text: &str) -> Result<LimitArg, String> {
    let bad = || {
        format!(
            "invalid limit `{text}`: expected a node count (500000, 500k, 2M) or a time (10s, 250ms, 2min)"
        )
    };
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let value: f64 = number.parse().map_err(|_| bad())?;
    if !value.is_finite() || value < 0.0 {
        return Err(bad());
    }
    let nodes = |scale: f64| {
        let n = value * scale;
        // Counts must be whole and fit comfortably in a u64.
        (n.fract() == 0.0 && n < 1e18)
            .then_some({
                // Whole and below 1e18 (checked just above), so the cast keeps the value.
                #[allow(clippy::cast_possible_truncation)]
                let n = n as u64;
                LimitArg::Nodes(n)
            })
            .ok_or_else(bad)
    };
    let time = |seconds: f64| {
        Duration::try_from_secs_f64(value * seconds)
            .map(LimitArg::Time)
            .map_err(|_| bad())
    };
    match unit {
        "" => nodes(1.0),
        "k" | "K" => nodes(1e3),
        "M" => nodes(1e6),
        "G" => nodes(1e9),
        "ms" => time(1e-3),
        "s" => time(1.0),
        "min" => time(60.0),
        // `2M` is two million nodes; a lower-case `m` could mean minutes or millions.
        "m" => Err(format!(
            "ambiguous limit `{text}`: write `{number}min` for minutes or `{number}M` for millions of nodes"
        )),
        _ => Err(bad()),
    }
}

/// The limits from `given`, each kind not given taken from `defaults`.
pub fn limits(given: &[LimitArg], defaults: Limits) -> Limits {
    let mut limits = defaults;
    for limit in given {
        match *limit {
            LimitArg::Nodes(n) => limits.max_expanded = Some(n),
            LimitArg::Time(t) => limits.max_time = Some(t),
        }
    }
    limits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lower_case_m_is_refused_offering_minutes_and_millions() {
        let message = parse_limit("5m").unwrap_err();
        assert!(
            message.contains("`5min`") && message.contains("`5M`"),
            "{message}"
        );
    }

    #[test]
    fn node_counts_and_times_are_read() {
        assert_eq!(parse_limit("500000"), Ok(LimitArg::Nodes(500_000)));
        assert_eq!(parse_limit("2M"), Ok(LimitArg::Nodes(2_000_000)));
        assert_eq!(parse_limit("1.5k"), Ok(LimitArg::Nodes(1500)));
        assert_eq!(
            parse_limit("10s"),
            Ok(LimitArg::Time(Duration::from_secs(10)))
        );
        assert_eq!(
            parse_limit("250ms"),
            Ok(LimitArg::Time(Duration::from_millis(250)))
        );
        assert_eq!(
            parse_limit("2min"),
            Ok(LimitArg::Time(Duration::from_secs(120)))
        );
        for bad in ["", "s", "10x", "-5", "1.5", "1e400s", "1..2s", "nan"] {
            assert!(parse_limit(bad).is_err(), "{bad}");
        }
    }
}
