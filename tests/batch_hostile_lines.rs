//! Hostile input to `npuzzle batch`, as a property: whatever the lines, the run never panics,
//! every question line gets exactly one row in order, and the exit code is 0 when every row was
//! answered and 1 otherwise. (The cargo-fuzz target `batch_input` explores the reader further.)

mod common;

use proptest::prelude::*;

/// A line: a valid state, a near miss, or noise.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("867254301".to_string()),
        Just("123456780,123804765".to_string()),
        Just("1 2 3 4 5 6 7 8 0".to_string()),
        Just("213456780".to_string()),
        "[0-9_.]{0,12}",
        "[0-9, /]{0,20}",
        "[0-9]{9},[0-9]{9}",
        "\\PC{0,16}",
    ]
}

fn is_question(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('#')
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_question_line_gets_one_row_and_nothing_panics(lines in proptest::collection::vec(line(), 1..40)) {
        // Keep the input in the plain-lines form: a first line that looks like CSV or JSON
        // would switch the reader (that path has its own tests).
        let mut input = String::from("867254301\n");
        for l in &lines {
            input.push_str(&l.replace(['\n', '\r'], " "));
            input.push('\n');
        }
        let dir = tempfile::tempdir().unwrap();
        let out = common::run_with_stdin(&["batch", "-", "--format", "jsonl"], dir.path(), &input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        prop_assert!(!stderr.contains("panicked"), "{}", stderr);
        let rows = common::json_lines(&out);
        let questions = input.lines().filter(|l| is_question(l)).count();
        prop_assert_eq!(rows.len(), questions, "input:\n{}", input);
        let failed = rows.iter().filter(|r| !r["error"].is_null()).count();
        for row in &rows {
            prop_assert!(row["error"].is_null() != row["distance"].is_null(), "{}", row);
        }
        prop_assert_eq!(out.status.code(), Some(if failed > 0 { 1 } else { 0 }), "{}", stderr);
    }
}

#[test]
fn a_utf8_byte_order_mark_before_a_csv_header_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::run_with_stdin(
        &["batch", "-", "--format", "jsonl"],
        dir.path(),
        "\u{feff}start,goal\n867254301,\n",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = common::json_lines(&out);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["distance"], 31);
}

/// Regression: a line of millions of characters was echoed whole (and parsed at 32 bytes a
/// character); now its row quotes it in part.
#[test]
fn a_huge_line_is_echoed_in_part() {
    let dir = tempfile::tempdir().unwrap();
    let input = format!("{}\n867254301\n", "1".repeat(2_000_000));
    let out = common::run_with_stdin(&["batch", "-", "--format", "jsonl"], dir.path(), &input);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        out.stdout.len() < 2_000,
        "{} bytes of output",
        out.stdout.len()
    );
    let rows = common::json_lines(&out);
    assert!(
        rows[0]["error"].as_str().unwrap().contains("too long"),
        "{}",
        rows[0]
    );
    assert_eq!(rows[1]["distance"], 31);
}
