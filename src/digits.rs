//! Whole numbers as people read them, a comma between groups of three digits: the one
//! spelling of counts in the command line's reports (`verify`, the live search line) and in
//! the set runner's table ([`crate::instance_set::progress_table`]).

/// `digits` (a whole number's decimal digits, as `to_string` or `{:.0}` write them) with a
/// comma between groups of three.
///
/// ```
/// use npuzzle::digits::grouped;
/// assert_eq!(grouped("1234567"), "1,234,567");
/// assert_eq!(grouped(&format!("{:.0}", 999.6)), "1,000");
/// assert_eq!(grouped("12"), "12");
/// ```
#[must_use]
pub fn grouped(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
