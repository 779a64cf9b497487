//! `npuzzle verify` through the real binary: every verdict from a hand-made line in CSV and in
//! JSON lines, the JSON-lines fields, the summary, and the exit codes.

mod common;

use std::path::Path;
use std::process::Output;
use std::sync::OnceLock;

use serde_json::Value;

/// One data directory per test binary: the table is built once, on first use.
fn data_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("temp dir"))
        .path()
}

fn npuzzle(args: &[&str], stdin: Option<&str>) -> Output {
    common::run_with_stdin(args, data_dir(), stdin.unwrap_or(""))
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write input");
    path.to_str().expect("utf-8 path").to_string()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("utf-8 stderr")
}

fn jsonl(output: &Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}")))
        .collect()
}

/// What each hand-made line must get: verdict, exact, claimed, and step or by when given.
struct Expect {
    verdict: &'static str,
    exact: Value,
    claimed: Value,
    extra: Option<(&'static str, u64)>,
}

fn expect(verdict: &'static str, exact: Value, claimed: Value) -> Expect {
    Expect {
        verdict,
        exact,
        claimed,
        extra: None,
    }
}

/// The hand-made answers, as (CSV row, JSON line, expectation). 123456708 is one move (R) from
/// the default goal; 213456780 cannot reach it (two tiles swapped).
fn cases() -> Vec<(&'static str, &'static str, Expect)> {
    use serde_json::json;
    let null = Value::Null;
    vec![
        (
            "123456708,,R,,,",
            r#"{"start":"123456708","moves":"R"}"#,
            expect("optimal", json!(1), json!(1)),
        ),
        (
            "123456708,,rlr,,,",
            r#"{"start":"123456708","moves":"rlr"}"#,
            Expect {
                extra: Some(("by", 2)),
                ..expect("suboptimal", json!(1), json!(3))
            },
        ),
        (
            "123456708,,D,,,",
            r#"{"start":"123456708","moves":"D"}"#,
            Expect {
                extra: Some(("step", 1)),
                ..expect("illegal-move", json!(1), json!(1))
            },
        ),
        (
            "123456708,,\"L, U\",,,",
            r#"{"start":"123456708","moves":["L","U"]}"#,
            expect("wrong-end", json!(1), json!(2)),
        ),
        (
            "123456708,,,,2,",
            r#"{"start":"123456708","length":2}"#,
            expect("wrong-length", json!(1), json!(2)),
        ),
        (
            "123456708,,,,1,",
            r#"{"start":"123456708","length":1}"#,
            expect("optimal", json!(1), json!(1)),
        ),
        (
            "123456708,,,,,true",
            r#"{"start":"123456708","unsolvable":true}"#,
            expect("false-unsolvable", json!(1), json!("unsolvable")),
        ),
        // Solvability is decided first: R is off the board here, yet the verdict is false-solution.
        (
            "213456780,,R,,,",
            r#"{"start":"213456780","moves":"R"}"#,
            expect("false-solution", json!("unsolvable"), json!(1)),
        ),
        (
            "213456780,,,,5,",
            r#"{"start":"213456780","length":5}"#,
            expect("false-solution", json!("unsolvable"), json!(5)),
        ),
        (
            "213456780,,,,,yes",
            r#"{"start":"213456780","unsolvable":true}"#,
            expect(
                "correct-unsolvable",
                json!("unsolvable"),
                json!("unsolvable"),
            ),
        ),
        (
            "12345678,,R,,,",
            r#"{"start":"12345678","moves":"R"}"#,
            expect("malformed", null.clone(), null.clone()),
        ),
        // Empty CSV fields and absent (or null) JSON fields are no claim.
        (
            "123456708,,,,,",
            r#"{"start":"123456708","moves":null}"#,
            expect("malformed", json!(1), null.clone()),
        ),
        (
            "123456708,,RX,,,",
            r#"{"start":"123456708","moves":"RX"}"#,
            expect("malformed", json!(1), null.clone()),
        ),
        (
            "123456078,,,123456078;123456708;123456780,,",
            r#"{"start":"123456078","path":["123456078","123456708","123456780"]}"#,
            expect("optimal", json!(2), json!(2)),
        ),
        (
            "123456078,,,123456708 123456780,2,",
            r#"{"start":"123456078","path":["123456708","123456780"],"length":2}"#,
            expect("optimal", json!(2), json!(2)),
        ),
        (
            "123456078,,,123456078|123456780,,",
            r#"{"start":"123456078","path":["123456078","123456780"]}"#,
            Expect {
                extra: Some(("step", 1)),
                ..expect("illegal-move", json!(2), json!(1))
            },
        ),
        (
            "\"1,2,3,4,5,6,0,7,8\",123/456/780,\"r r\",,,no",
            r#"{"start":"1 2 3 4 5 6 0 7 8","goal":"123/456/780","moves":"r r","unsolvable":false}"#,
            expect("optimal", json!(2), json!(2)),
        ),
        (
            "123456780,123456708,L,,,",
            r#"{"start":"123456780","goal":"123456708","moves":"L"}"#,
            expect("optimal", json!(1), json!(1)),
        ),
        (
            "123456780,,-,,,",
            r#"{"start":"123456780","moves":""}"#,
            expect("optimal", json!(0), json!(0)),
        ),
        (
            "123456708,,R,,1,true",
            r#"{"start":"123456708","moves":"R","unsolvable":true}"#,
            expect("malformed", json!(1), json!("unsolvable")),
        ),
    ]
}

fn check_lines(values: &[Value], first_line: u64) {
    let cases = cases();
    assert_eq!(values.len(), cases.len(), "one object per answer");
    for (i, (value, (csv, _, expect))) in values.iter().zip(&cases).enumerate() {
        let context = format!("case {i} ({csv}): {value}");
        assert_eq!(value["line"], first_line + i as u64, "{context}");
        assert_eq!(value["verdict"], expect.verdict, "{context}");
        assert_eq!(value["exact"], expect.exact, "{context}");
        assert_eq!(value["claimed"], expect.claimed, "{context}");
        let passing = matches!(expect.verdict, "optimal" | "correct-unsolvable");
        assert_eq!(value["detail"].is_null(), passing, "{context}");
        if let Some((field, number)) = expect.extra {
            assert_eq!(value[field], number, "{context}");
        }
        // A failing answer to a solvable 3x3 pair carries one optimal solution, of the exact
        // length; passing answers and unsolvable pairs carry none.
        match (&value["optimal"], &value["exact"]) {
            (Value::String(moves), Value::Number(exact)) if !passing => {
                assert_eq!(Some(moves.len() as u64), exact.as_u64(), "{context}")
            }
            (optimal, _) => assert!(
                optimal.is_null()
                    && (passing || !value["exact"].is_number() || expect.verdict == "malformed"),
                "{context}"
            ),
        }
        let object = value.as_object().expect("an object");
        for key in object.keys() {
            assert!(
                ["line", "verdict", "exact", "claimed", "detail", "step", "by", "optimal"]
                    .contains(&key.as_str()),
                "unexpected field {key}: {context}"
            );
        }
    }
}

#[test]
fn every_verdict_from_a_hand_made_csv_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("start,goal,moves,path,length,unsolvable\n");
    for (csv, _, _) in cases() {
        text.push_str(csv);
        text.push('\n');
    }
    let file = write(dir.path(), "answers.csv", &text);
    let output = npuzzle(&["verify", &file, "--format", "jsonl"], None);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    check_lines(&jsonl(&output), 2);
}

#[test]
fn every_verdict_from_a_hand_made_json_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for (_, json, _) in cases() {
        text.push_str(json);
        text.push('\n');
    }
    let file = write(dir.path(), "answers.jsonl", &text);
    let output = npuzzle(&["verify", &file, "--format", "jsonl"], None);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    check_lines(&jsonl(&output), 1);
}

#[test]
fn all_optimal_answers_exit_zero_with_a_pass_summary() {
    let input = "start,moves\n123456708,R\n123456078,RR\n# a comment\n\n123456780,-\n";
    let output = npuzzle(&["verify", "-"], Some(input));
    let out = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{out}{}", stderr(&output));
    assert!(out.starts_with("verified 3 answers in "), "{out}");
    assert!(out.contains("  optimal                      3\n"), "{out}");
    assert!(
        out.contains("PASS: all 3 answers are optimal or rightly unsolvable"),
        "{out}"
    );
    assert!(!out.contains("worst lines"), "{out}");
}

#[test]
fn suboptimal_answers_fail_unless_allowed() {
    let input =
        "{\"start\":\"123456708\",\"moves\":\"RLR\"}\n{\"start\":\"123456708\",\"moves\":\"R\"}\n";
    let strict = npuzzle(&["verify", "-"], Some(input));
    assert_eq!(strict.status.code(), Some(1));
    let out = stdout(&strict);
    assert!(
        out.contains("suboptimal                   1  (2 moves longer"),
        "{out}"
    );
    assert!(
        out.contains("FAIL: 1 of 2 answers do not pass (--allow-suboptimal"),
        "{out}"
    );
    assert_eq!(
        stderr(&strict),
        "",
        "a negative answer needs no error message"
    );

    let allowed = npuzzle(&["verify", "-", "--allow-suboptimal"], Some(input));
    assert_eq!(allowed.status.code(), Some(0), "{}", stdout(&allowed));
    assert!(stdout(&allowed).contains("PASS: all 2 answers are legal and at the goal"));
    // An allowed answer is no failure: it is not listed among the worst lines.
    assert!(
        !stdout(&allowed).contains("worst lines"),
        "{}",
        stdout(&allowed)
    );

    // Allowing suboptimal answers does not let wrong ones pass; only those are listed.
    let wrong = "start,moves\n123456708,L\n123456708,RLR\n";
    let output = npuzzle(&["verify", "-", "--allow-suboptimal"], Some(wrong));
    assert_eq!(output.status.code(), Some(1));
    let out = stdout(&output);
    let listed: Vec<&str> = out
        .lines()
        .skip_while(|l| *l != "worst lines:")
        .skip(1)
        .take_while(|l| l.starts_with("  line "))
        .collect();
    assert_eq!(listed.len(), 1, "{out}");
    assert!(listed[0].starts_with("  line 2: wrong-end"), "{out}");
}

#[test]
fn the_summary_lists_the_worst_lines_first() {
    let input = "start,moves,unsolvable\n\
                 123456708,RLR,\n\
                 123456708,RLRLRLR,\n\
                 213456780,R,\n\
                 123456708,D,\n\
                 123456708,R,\n";
    let output = npuzzle(&["verify", "-", "--worst", "3"], Some(input));
    assert_eq!(output.status.code(), Some(1));
    let out = stdout(&output);
    let listed: Vec<&str> = out
        .lines()
        .skip_while(|l| *l != "worst lines:")
        .skip(1)
        .take_while(|l| l.starts_with("  line "))
        .collect();
    assert_eq!(listed.len(), 3, "{out}");
    assert!(listed[0].starts_with("  line 4: false-solution"), "{out}");
    assert!(
        listed[1].starts_with("  line 5: illegal-move: step 1: D"),
        "{out}"
    );
    assert!(
        listed[2].starts_with("  line 3: suboptimal: 6 moves longer"),
        "{out}"
    );
    assert!(out.contains("FAIL: 4 of 5 answers do not pass"), "{out}");
}

#[test]
fn a_goal_option_applies_to_lines_without_a_goal() {
    let input = "start,goal,moves\n123456780,,L\n123456708,123456780,R\n";
    let output = npuzzle(
        &["verify", "-", "--goal", "123456708", "-f", "jsonl"],
        Some(input),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let values = jsonl(&output);
    assert_eq!(values[0]["verdict"], "optimal");
    assert_eq!(values[1]["verdict"], "optimal");
}

#[test]
fn a_broken_json_line_is_malformed_and_the_others_are_judged() {
    let input = "{\"start\":\"123456708\",\"moves\":\"R\"}\n{\"start\": 123456708\n[1,2]\n{\"start\":\"123456708\",\"moves\":\"R\"}\r\n";
    let output = npuzzle(&["verify", "-", "-f", "jsonl"], Some(input));
    assert_eq!(output.status.code(), Some(1));
    let verdicts: Vec<String> = jsonl(&output)
        .iter()
        .map(|v| format!("{}:{}", v["line"], v["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(
        verdicts,
        ["1:optimal", "2:malformed", "3:malformed", "4:optimal"]
    );
}

#[test]
fn a_file_that_cannot_be_read_exits_two() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.csv");
    let output = npuzzle(&["verify", missing.to_str().unwrap()], None);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    let err = stderr(&output);
    assert!(
        err.starts_with("npuzzle: cannot read ") && err.ends_with('\n'),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");

    let output = npuzzle(&["verify", "-"], Some("123456708 R\n"));
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("neither a JSON object nor a CSV header naming a `start` column")
    );

    let output = npuzzle(&["verify", "-"], Some("start,goal\n123456708,123456780\n"));
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("names no claim column"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_input_without_answers_is_a_failure_not_a_pass() {
    for input in ["", "\n\n# only a comment\n", "start,moves\n"] {
        let output = npuzzle(&["verify", "-"], Some(input));
        assert_eq!(output.status.code(), Some(1), "{input:?}");
        assert!(
            stderr(&output).starts_with("npuzzle: no answers to verify in standard input"),
            "{}",
            stderr(&output)
        );
        let out = stdout(&output);
        assert!(out.ends_with("FAIL: no answers to verify\n"), "{out}");
        assert!(!out.contains("PASS"), "{out}");
    }
}

#[test]
fn a_byte_order_mark_before_the_header_is_ignored() {
    let input = "\u{feff}start,moves\n123456708,R\n";
    let output = npuzzle(&["verify", "-"], Some(input));
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}{}",
        stdout(&output),
        stderr(&output)
    );
}
