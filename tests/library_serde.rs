//! The optional `serde` feature: `cargo test --features serde --test library_serde`
//! (.ci/run does). Without the feature this file compiles to nothing.
#![cfg(feature = "serde")]

use npuzzle::verify::{judge, parse_moves, Claim, Verdict};
use npuzzle::{Move, Solution, State};
use serde_json::json;

#[test]
fn a_state_is_its_string_form() {
    let state: State = "123456708".parse().unwrap();
    assert_eq!(serde_json::to_value(state).unwrap(), json!("123456708"));
    let wide = State::parse("1 2 3 0 / 4 5 6 7", None).unwrap();
    let text = serde_json::to_string(&wide).unwrap();
    assert_eq!(text, "\"1230/4567\"");
    assert_eq!(serde_json::from_str::<State>(&text).unwrap(), wide);
    let error = serde_json::from_str::<State>("\"1234\"").unwrap_err();
    assert!(
        error.to_string().contains("cell count 4") || error.to_string().contains("tile"),
        "{error}"
    );
}

#[test]
fn a_move_is_its_letter() {
    assert_eq!(serde_json::to_value(Move::Left).unwrap(), json!("L"));
    assert_eq!(
        serde_json::from_value::<Move>(json!("up")).unwrap(),
        Move::Up
    );
    assert!(serde_json::from_value::<Move>(json!("x")).is_err());
}

#[test]
fn a_solution_is_its_start_and_moves_and_is_replayed_when_read() {
    let start: State = "123456078".parse().unwrap();
    let solution = Solution::from_moves(start, vec![Move::Right, Move::Right]).unwrap();
    let value = serde_json::to_value(&solution).unwrap();
    assert_eq!(value, json!({"start": "123456078", "moves": "RR"}));
    assert_eq!(serde_json::from_value::<Solution>(value).unwrap(), solution);
    let illegal = json!({"start": "123456078", "moves": "L"});
    assert!(serde_json::from_value::<Solution>(illegal).is_err());
}

#[test]
fn a_verdict_is_tagged_with_its_name() {
    let start: State = "123456078".parse().unwrap();
    let goal = State::goal(start.board());
    for (moves, name) in [
        ("RR", "optimal"),
        ("RRLR", "suboptimal"),
        ("LL", "illegal-move"),
        ("UU", "wrong-end"),
    ] {
        let verdict = judge(
            &start,
            &goal,
            Some(2),
            &Claim::moves(parse_moves(moves).unwrap()),
        );
        let value = serde_json::to_value(&verdict).unwrap();
        assert_eq!(value["verdict"], json!(name), "{value}");
        assert_eq!(serde_json::from_value::<Verdict>(value).unwrap(), verdict);
    }
    let illegal = judge(
        &start,
        &goal,
        Some(2),
        &Claim::moves(parse_moves("LL").unwrap()),
    );
    let value = serde_json::to_value(&illegal).unwrap();
    assert_eq!(value["step"], json!(1));
    assert_eq!(
        value["fault"],
        json!({"kind": "off-board", "move": "L", "cell": 6, "state": "123456078"})
    );
    assert_eq!(value["tile_moves_reach_goal"], json!(true));
}
