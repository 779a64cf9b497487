//! Hostile input to `npuzzle verify`, as a property: whatever the lines, the run never panics,
//! every answer line gets exactly one verdict in order, and the exit code is 0 exactly when
//! every verdict passes. (The cargo-fuzz target `verify_claim` explores the fields further.)

mod common;

use proptest::prelude::*;

/// One CSV field: plausible or noise (commas and quotes included, to stress the CSV reader).
fn field() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("867254301".to_string()),
        Just("123456708".to_string()),
        Just("213456780".to_string()),
        "[UDLRudlr ,]{0,12}",
        "[0-9]{0,3}",
        "(true|false|yes|no|1|0)",
        "[0-9_./;| ]{0,24}",
        "\\PC{0,12}",
    ]
}

fn line() -> impl Strategy<Value = String> {
    proptest::collection::vec(field(), 5).prop_map(|fields| {
        fields
            .into_iter()
            .map(|f| f.replace(['\n', '\r'], " "))
            .collect::<Vec<_>>()
            .join(",")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_answer_line_gets_one_verdict_and_nothing_panics(lines in proptest::collection::vec(line(), 1..40)) {
        let mut input = String::from("start,goal,moves,length,unsolvable\n");
        for l in &lines {
            input.push_str(l);
            input.push('\n');
        }
        let dir = tempfile::tempdir().unwrap();
        let out = common::run_with_stdin(&["verify", "-", "--format", "jsonl"], dir.path(), &input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        prop_assert!(!stderr.contains("panicked"), "{}", stderr);
        let rows = common::json_lines(&out);
        let answers = lines.iter().filter(|l| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        }).count();
        prop_assert_eq!(rows.len(), answers, "input:\n{}", input);
        let mut last = 0;
        for row in &rows {
            let line = row["line"].as_u64().unwrap();
            prop_assert!(line > last, "lines out of order: {}", row);
            last = line;
            prop_assert!(row["verdict"].as_str().is_some_and(|v| !v.is_empty()), "{}", row);
        }
        let all_pass = rows.iter().all(|r| matches!(r["verdict"].as_str(), Some("optimal" | "correct-unsolvable")));
        let expected = if all_pass && !rows.is_empty() { 0 } else { 1 };
        prop_assert_eq!(out.status.code(), Some(expected), "{}", stderr);
    }
}

/// Regression: a stray quote used to open a quoted field that swallowed the following lines,
/// so they got no verdict of their own.
#[test]
fn a_stray_quote_spoils_only_its_own_line() {
    let input = "start,goal,moves,length,unsolvable\n,,\",,no\n123456708,,R,,\n\"1,2,3,4,5,6,7,0,8\",,R,,\n";
    let dir = tempfile::tempdir().unwrap();
    let out = common::run_with_stdin(&["verify", "-", "--format", "jsonl"], dir.path(), input);
    let rows = common::json_lines(&out);
    let verdicts: Vec<(u64, &str)> = rows
        .iter()
        .map(|r| (r["line"].as_u64().unwrap(), r["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(verdicts, [(2, "malformed"), (3, "optimal"), (4, "optimal")]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_record_with_more_fields_than_the_header_is_malformed() {
    let dir = tempfile::tempdir().unwrap();
    let input = "start,moves\n123456708,R,extra\n123456708,R\n";
    let out = common::run_with_stdin(&["verify", "-", "--format", "jsonl"], dir.path(), input);
    let verdicts: Vec<String> = common::json_lines(&out)
        .iter()
        .map(|r| r["verdict"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(verdicts, ["malformed", "optimal"]);
    assert_eq!(out.status.code(), Some(1));
}
