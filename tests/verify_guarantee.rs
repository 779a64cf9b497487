//! `verify` reads the guarantee a solution states (`optimal`, `within FACTOR`, `none`, as
//! `npuzzle solve` prints it): through the library on every 2x3 state with solutions made
//! longer on purpose, and through the binary on CSV and JSON lines, `solve -f json` piped in.

mod common;

use std::path::Path;
use std::sync::OnceLock;

use npuzzle::verify::{parse_moves, Claim, Verdict};
use npuzzle::{Guarantee, How, Metric, Move, Oracle, State};

fn data_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("temp dir"))
        .path()
}

/// Every state of the 2x3 goal's class, by breadth-first search over the moves.
fn states_2x3() -> Vec<State> {
    let goal = State::goal("3x2".parse().expect("board"));
    let mut seen = vec![goal];
    let mut at = 0;
    while at < seen.len() {
        let state = seen[at];
        at += 1;
        for (_, next) in state.successors() {
            if !seen.contains(&next) {
                seen.push(next);
            }
        }
    }
    seen
}

/// The verdict expected of a legal solution of `length` moves where the exact distance is
/// `exact` and the solver states `thousandths`/1000 as its factor: written out here in
/// integers, apart from the library's `Factor::allows`.
fn expected(length: usize, exact: usize, thousandths: usize) -> &'static str {
    if length == exact {
        "optimal"
    } else if length * 1000 <= exact * thousandths {
        "within-guarantee"
    } else {
        "broken-guarantee"
    }
}

#[test]
fn every_2x3_state_with_detours_is_held_to_its_stated_factor() {
    let oracle = Oracle::in_memory();
    let states = states_2x3();
    assert_eq!(states.len(), 360);
    for metric in Metric::ALL {
        for start in &states {
            let goal = State::goal(start.board());
            let optimal = oracle
                .solve(start, &goal, How::default().in_metric(metric))
                .expect("answer")
                .value
                .expect("solvable");
            let exact = metric.length(optimal.moves());
            // At the goal (blank bottom right), "LR" is legal: two more moves in STM, and
            // under MTM two more as well (L is never the last optimal move's twin at the goal).
            for detours in 0..4 {
                let mut moves = optimal.moves().to_vec();
                for _ in 0..detours {
                    moves.extend([Move::Left, Move::Right]);
                }
                let length = metric.length(&moves);
                let claim = Claim::moves(moves);
                for (label, thousandths) in
                    [("1.2", 1200), ("1.5", 1500), ("2", 2000), ("3.25", 3250)]
                {
                    let how = How::default()
                        .in_metric(metric)
                        .with_guarantee(label.parse().expect("label"));
                    let judged = oracle.judge(start, &goal, &claim, how).expect("judged");
                    let verdict = judged.value.expect("a verdict").verdict;
                    assert_eq!(
                        verdict.name(),
                        expected(length, exact, thousandths),
                        "{start} {metric} within {label}: {length} moves, exact {exact}"
                    );
                    if let Verdict::WithinGuarantee { by, .. } = verdict {
                        assert_eq!(by, Some((length - exact) as u32));
                    }
                }
                // `optimal` as before: suboptimal when longer; `none`: legal is enough.
                let strict = oracle
                    .judge(start, &goal, &claim, How::default().in_metric(metric))
                    .expect("judged");
                let name = strict.value.expect("verdict").verdict.name();
                assert_eq!(
                    name,
                    if length == exact {
                        "optimal"
                    } else {
                        "suboptimal"
                    }
                );
                let none = How::default()
                    .in_metric(metric)
                    .with_guarantee(Guarantee::None);
                let judged = oracle.judge(start, &goal, &claim, none).expect("judged");
                assert_eq!(
                    judged.value.expect("verdict").verdict.name(),
                    "within-guarantee"
                );
            }
        }
    }
}

#[test]
fn none_checks_legality_only_without_a_table_or_a_search() {
    // A 4x4 pair: no table; a search would cost much more than the replay.
    let oracle = Oracle::search_only();
    let start: State = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"
        .parse()
        .expect("state");
    let goal = State::goal(start.board());
    let none = How::default().with_guarantee(Guarantee::None);
    let judge = |moves: &str| {
        let claim = Claim::moves(parse_moves(moves).expect("moves"));
        let answer = oracle.judge(&start, &goal, &claim, none).expect("judged");
        assert_eq!(answer.expanded, 0, "nothing searched for {moves}");
        answer.value.expect("verdict").verdict.name()
    };
    assert_eq!(judge("RLRLR"), "within-guarantee");
    assert_eq!(judge("D"), "illegal-move");
    assert_eq!(judge("L"), "wrong-end");
    // A length-only or unsolvable claim still needs the exact distance (one move here).
    let length = oracle
        .judge(&start, &goal, &Claim::length(3), none)
        .expect("judged");
    assert_eq!(
        length.value.expect("verdict").verdict.name(),
        "within-guarantee"
    );
    let unsolvable = oracle
        .judge(&start, &goal, &Claim::unsolvable(), none)
        .expect("judged");
    assert_eq!(
        unsolvable.value.expect("verdict").verdict.name(),
        "false-unsolvable"
    );
}

fn verify(input: &str) -> (Option<i32>, Vec<serde_json::Value>) {
    let output = common::TestCommand::new()
        .args(["verify", "-", "-f", "jsonl"])
        .data_dir(data_dir())
        .stdin(input)
        .output();
    (output.status.code(), common::json_lines(&output))
}

#[test]
fn the_cli_reads_a_guarantee_column_and_field() {
    // 123456708 is one move from the goal (R); RLR is three.
    let csv = "start,moves,guarantee\n\
               123456708,R,optimal\n\
               123456708,RLR,within 3\n\
               123456708,RLR,3\n\
               123456708,RLR,within 2.9\n\
               123456708,RLR,none\n\
               123456708,RLR,\n\
               123456708,RLR,soon\n\
               123456708,D,none\n";
    let (code, lines) = verify(csv);
    let names: Vec<&str> = lines
        .iter()
        .map(|l| l["verdict"].as_str().expect("verdict"))
        .collect();
    assert_eq!(
        names,
        [
            "optimal",
            "within-guarantee",
            "within-guarantee",
            "broken-guarantee",
            "within-guarantee",
            "suboptimal",
            "malformed",
            "illegal-move"
        ]
    );
    assert!(lines[6]["detail"]
        .as_str()
        .expect("detail")
        .contains("guarantee"));
    assert_eq!(code, Some(1), "failing lines fail the run");

    let jsonl = "{\"start\":\"123456708\",\"moves\":\"RLR\",\"guarantee\":\"within 3\"}\n\
                 {\"start\":\"123456708\",\"moves\":\"RLR\",\"guarantee\":\"none\"}\n";
    let (code, lines) = verify(jsonl);
    assert!(
        lines.iter().all(|l| l["verdict"] == "within-guarantee"),
        "{lines:?}"
    );
    assert_eq!(code, Some(0), "kept guarantees pass");
    let (code, lines) = verify("{\"start\":\"123456708\",\"moves\":\"RLR\",\"guarantee\":3}\n");
    assert_eq!(lines[0]["verdict"], "malformed");
    assert_eq!(code, Some(1));
}

#[test]
fn solve_json_with_its_guarantee_verifies_as_it_is() {
    for (start, within) in [
        ("867254301", "none"),
        ("867254301", "1.5"),
        ("123456078", "none"),
    ] {
        let solved = common::TestCommand::new()
            .args(["solve", "-f", "json", "--within", within, start])
            .data_dir(data_dir())
            .expect_code(0)
            .stdout();
        let json: serde_json::Value = serde_json::from_str(solved.trim()).expect("json");
        let (code, lines) = verify(&solved);
        let verdict = lines[0]["verdict"].as_str().expect("verdict");
        match json["guarantee"].as_str().expect("guarantee") {
            "optimal" => assert_eq!(verdict, "optimal"),
            "none" => assert_eq!(verdict, "within-guarantee"),
            other => panic!("unexpected guarantee {other}"),
        }
        assert_eq!(code, Some(0), "{solved} -> {lines:?}");
    }
}

#[test]
fn bounded_solve_json_states_its_factor_and_verifies() {
    // Without the table, `--within` runs the bounded search (linear conflict on 3x3): its
    // label is the factor, and `verify` holds the path to that factor of the table's
    // distance (31 for both: the two states farthest from the goal).
    for (start, within) in [("867254301", "1.2"), ("647850321", "1.1")] {
        let solved = common::TestCommand::new()
            .args([
                "solve",
                "-f",
                "json",
                "--no-table",
                "--within",
                within,
                start,
            ])
            .data_dir(data_dir())
            .expect_code(0)
            .stdout();
        let json: serde_json::Value = serde_json::from_str(solved.trim()).expect("json");
        assert_eq!(json["guarantee"], format!("within {within}"), "{solved}");
        let (code, lines) = verify(&solved);
        let verdict = lines[0]["verdict"].as_str().expect("verdict");
        assert!(
            verdict == "optimal" || verdict == "within-guarantee",
            "{solved} -> {lines:?}"
        );
        assert_eq!(code, Some(0), "{solved} -> {lines:?}");
    }
}
