//! Every command's JSON output validates against its schema in docs/json/ (with the
//! `jsonschema` crate, a validator from the ecosystem): one object a line, every key present,
//! `null` for a missing value. The cases reach the rows with nulls (errors, unsolvable pairs,
//! each verdict), not only the happy path.

mod common;

use std::path::Path;

use serde_json::Value;

use common::TestCommand;

fn schema(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/json")
        .join(format!("{name}.schema.json"));
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs `npuzzle ARGS` with `stdin`, in its own data directory; returns stdout's lines.
fn run(dir: &Path, args: &[&str], stdin: &str) -> Vec<String> {
    let out = TestCommand::new()
        .args(args)
        .env("NPUZZLE_DATA_DIR", dir)
        .stdin(stdin)
        .output();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// `npuzzle sample --seed 1 -f jsonl` with `more` arguments, in `dir`; returns stdout's lines.
fn sample_jsonl(dir: &Path, more: &[&str]) -> Vec<String> {
    run(
        dir,
        &[&["sample", "--seed", "1", "-f", "jsonl"], more].concat(),
        "",
    )
}

/// Each line is one JSON object valid under `name`'s schema; returns them.
fn check(name: &str, lines: &[String]) -> Vec<Value> {
    let validator = schema(name);
    assert!(!lines.is_empty(), "{name}: no output");
    lines
        .iter()
        .map(|line| {
            let value: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{name}: not one JSON object a line: {e}: {line}"));
            let errors: Vec<String> = validator
                .iter_errors(&value)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{name}: {line}\n{}", errors.join("\n"));
            value
        })
        .collect()
}

#[test]
fn every_commands_json_validates_against_its_schema() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let rows = check(
        "distance",
        &[
            run(d, &["distance", "867254301", "-f", "json"], ""),
            run(d, &["distance", "213456780", "-f", "json"], ""),
            run(
                d,
                &[
                    "distance",
                    "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
                    "-f",
                    "json",
                ],
                "",
            ),
        ]
        .concat(),
    );
    assert_eq!(rows[0]["distance"], 31);
    assert!(rows[1]["distance"].is_null() && rows[1]["solvable"] == false);

    let rows = check(
        "solve",
        &[
            run(d, &["solve", "867254301", "-f", "json"], ""),
            run(d, &["solve", "213456780", "-f", "json"], ""),
            run(
                d,
                &["solve", "867254301", "-f", "json", "--algorithm", "greedy"],
                "",
            ),
            run(d, &["solve", "867254301", "-f", "json", "--within", "none"], ""),
            run(d, &["solve", "867254301", "-f", "json", "--within", "1.5", "--no-table"], ""),
            run(d, &["solve", "4 3 2 1 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 0", "-f", "json"], ""),
        ]
        .concat(),
    );
    assert_eq!(rows[1]["solvable"], false);
    assert_eq!(rows[0]["guarantee"], "optimal");
    assert_eq!(rows[3]["guarantee"], "none");
    assert!(rows[5]["path"].is_null() && rows[5]["guarantee"] == "none");

    check(
        "compare",
        &run(
            d,
            &["compare", "123456708", "-f", "json", "--all-heuristics"],
            "",
        ),
    );

    let rows = check(
        "batch",
        &[
            run(
                d,
                &["batch", "-f", "json", "--solve"],
                "123456708\nbad\n213456780\n123456708,bad goal\n",
            ),
            run(d, &["batch", "-f", "jsonl"], "123456708\n867254301\n"),
        ]
        .concat(),
    );
    assert!(
        rows[1]["goal"].is_null(),
        "no goal is null, not \"\": {}",
        rows[1]
    );
    assert!(
        rows[4]["moves"].is_null(),
        "moves is present, null, without --solve"
    );

    let one_line = run(d, &["stats", "-f", "json"], "");
    assert_eq!(one_line.len(), 1, "stats -f json is one line");
    check("stats", &one_line);
    let pretty = run(d, &["stats", "-f", "json", "--pretty"], "").join("\n");
    assert!(pretty.lines().count() > 1);
    check(
        "stats",
        &[serde_json::to_string(&serde_json::from_str::<Value>(&pretty).unwrap()).unwrap()],
    );

    check(
        "check",
        &[
            run(d, &["check", "-f", "json"], ""),
            run(d, &["check", "-f", "json", "--deep"], ""),
        ]
        .concat(),
    );

    let answers = "start,goal,moves\n123456708,,R\n123456708,,LRR\n123456708,,UUUU\n123456708,,L\n\
                   213456780,,-\n123456708,,XYZ\nbad,,R\n";
    let rows = check("verify", &run(d, &["verify", "-f", "json"], answers));
    let verdicts: Vec<&str> = rows
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    for expected in [
        "optimal",
        "suboptimal",
        "illegal-move",
        "wrong-end",
        "malformed",
    ] {
        assert!(
            verdicts.contains(&expected),
            "{expected} not reached: {verdicts:?}"
        );
    }
    check(
        "verify",
        &run(d, &["verify", "-f", "jsonl", "--allow-suboptimal"], answers),
    );

    let rows = check(
        "sample",
        &[
            run(d, &["sample", "-n", "3", "--seed", "1", "-f", "json"], ""),
            sample_jsonl(d, &["-n", "2", "--scramble", "uniform", "--board", "7x7"]),
            sample_jsonl(d, &["-n", "2", "--scramble", "walk", "--moves", "9"]),
            sample_jsonl(d, &["-n", "3", "--with-answers", "--unsolvable", "1"]),
        ]
        .concat(),
    );
    assert!(rows[0]["distance"].is_null());
    assert!(rows[3..].iter().any(|r| r["distance"] == "unsolvable"));

    // solve-set: an instance solved, one failed (unsolvable), then the report with one of
    // each and one not yet tried.
    let set = d.join("set.txt");
    std::fs::write(
        &set,
        "a 1 2 3 4 5 6 7 0 8 1 10\nu 2 1 3 4 5 6 7 8 0 5 20\nz 1 2 3 4 5 0 7 8 6 1 30\n",
    )
    .unwrap();
    let results = d.join("results.txt");
    let (set, results) = (set.to_str().unwrap(), results.to_str().unwrap());
    let solving = [
        "solve-set",
        set,
        "--board",
        "3x3",
        "--results",
        results,
        "-f",
        "json",
    ];
    // z in progress: its checkpoint, as a run stopped in its iteration at bound 1 leaves it.
    let checkpoints = d.join("checkpoints");
    std::fs::create_dir_all(&checkpoints).unwrap();
    let z: npuzzle::State = "123450786".parse().unwrap();
    let mut checkpoint =
        npuzzle::search::checkpoint::Checkpoint::new(z, "123456780".parse().unwrap(), 1, 4, 1);
    checkpoint.subtrees = 2;
    // As the largest-first order leaves it: the estimate's fields are numbers.
    checkpoint.previous = vec![3, 1];
    checkpoint.sizes = vec![0, 0];
    checkpoint.mark(0, Some(3), 1, 2);
    std::fs::write(checkpoints.join("z.checkpoint"), checkpoint.to_text()).unwrap();
    let report = [
        "--report",
        "--checkpoint-dir",
        checkpoints.to_str().unwrap(),
    ];
    let rows = check(
        "solve-set",
        &[
            run(d, &[&solving[..], &["--only", "a,u"]].concat(), ""),
            run(d, &[&solving[..], &report[..]].concat(), ""),
        ]
        .concat(),
    );
    assert_eq!(
        rows[4]["in_progress"]["finished_subtrees"], 1,
        "{}",
        rows[4]
    );
    assert_eq!(rows[4]["in_progress"]["iteration_share_done"], 0.75);
    assert!(rows[3]["in_progress"].is_null());
    let solved: Vec<(&str, bool)> = rows
        .iter()
        .map(|r| (r["id"].as_str().unwrap(), r["solved"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        solved,
        [
            ("a", true),
            ("u", false),
            ("a", true),
            ("u", false),
            ("z", false)
        ]
    );
    assert!(rows[1]["error"].as_str().unwrap().contains("unsolvable"));
    assert!(rows[4]["error"].is_null());
}

#[test]
fn the_schemas_reject_a_missing_key_or_an_unknown_one() {
    // The validation above is live: a row without one of its keys, or with one more, fails.
    let validator = schema("batch");
    let mut row: Value = serde_json::from_str(
        r#"{"start":"123456708","goal":"123456780","distance":1,"moves":null,"unsolvable":false,"error":null}"#,
    )
    .unwrap();
    assert!(validator.is_valid(&row));
    row.as_object_mut().unwrap().remove("moves");
    assert!(!validator.is_valid(&row));
    row["moves"] = Value::Null;
    row["method"] = Value::from("table");
    assert!(!validator.is_valid(&row));
    let mut goal_empty = row.clone();
    goal_empty.as_object_mut().unwrap().remove("method");
    goal_empty["goal"] = Value::from("");
    assert!(
        !validator.is_valid(&goal_empty),
        "an empty goal is not a state"
    );
}

#[test]
fn every_schema_is_a_valid_draft_2020_12_schema() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/json");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if let Some(kind) = name.strip_suffix(".schema.json") {
            schema(kind);
            names.push(kind.to_string());
        }
    }
    names.sort();
    assert_eq!(
        names,
        [
            "batch",
            "check",
            "compare",
            "distance",
            "sample",
            "solve",
            "solve-set",
            "stats",
            "verify"
        ]
    );
}
