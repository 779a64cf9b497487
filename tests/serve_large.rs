//! `npuzzle serve` on boards beyond 5x5 (issue 28): shuffles are the library's seeded
//! scramblers, hints and solutions the constructive solver's, replayed here with the library
//! and labelled with the guarantee `none`; no exact distance is claimed; `/api/verify` replays
//! a claim there and holds its guarantee label to what can be shown without one (`none`
//! passes, `optimal` and `within F` are unverified); boards over the server's limit are
//! refused with a one-line 400.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use npuzzle::large::{scrambles, LargeBoard, LargeState, Scrambler};
use npuzzle::verify::parse_moves;
use npuzzle::Metric;

/// `npuzzle serve --port 0` on a fresh data directory, killed when dropped.
struct Server {
    child: Child,
    address: String,
    _data: tempfile::TempDir,
}

impl Server {
    fn start() -> Server {
        let data = tempfile::tempdir().expect("a temporary directory");
        let mut child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
            .arg("--data-dir")
            .arg(data.path())
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("npuzzle serve starts");
        let address = common::served_address(&mut child);
        Server {
            child,
            address,
            _data: data,
        }
    }

    /// `GET path` on a connection of its own: the status and the JSON body.
    fn get(&self, path: &str) -> (u16, serde_json::Value) {
        self.request(&format!(
            "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        ))
    }

    /// `POST path` with a JSON body, on a connection of its own.
    fn post(&self, path: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
        let body = body.to_string();
        self.request(&format!(
            "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ))
    }

    /// Sends `request` whole and reads the reply: the status and the JSON body.
    fn request(&self, request: &str) -> (u16, serde_json::Value) {
        let mut stream = TcpStream::connect(&self.address).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .expect("a timeout");
        stream.write_all(request.as_bytes()).expect("the request");
        let mut reply = String::new();
        stream.read_to_string(&mut reply).expect("the reply");
        let status = reply
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("a status line: {reply:?}"));
        let (_, body) = reply.split_once("\r\n\r\n").expect("a body");
        let json = serde_json::from_str(body).unwrap_or_else(|e| panic!("JSON: {e}: {body:?}"));
        (status, json)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A state as the page writes it: tiles separated by commas (nothing to escape in a URL).
fn commas(state: &LargeState) -> String {
    let tiles: Vec<String> = state.tiles().iter().map(u16::to_string).collect();
    tiles.join(",")
}

/// The one-line error of a refused request.
fn error(json: &serde_json::Value) -> &str {
    let message = json["error"].as_str().expect("an error message");
    assert!(
        !message.is_empty() && !message.contains('\n'),
        "{message:?}"
    );
    message
}

#[test]
fn large_boards_are_shuffled_seeded_solved_constructively_and_hinted_in_both_metrics() {
    let server = Server::start();
    for (board, seed) in [("10x10", 7u64), ("7x6", 11)] {
        let b: LargeBoard = board.parse().unwrap();
        let goal = LargeState::goal(b);

        // A uniform shuffle (the default beyond 5x5): the library's draw for that seed, of
        // that board, solvable.
        let (status, json) = server.get(&format!("/api/sample?board={board}&seed={seed}"));
        assert_eq!(status, 200, "{json}");
        let drawn = LargeState::parse(json["instances"][0]["start"].as_str().unwrap(), None)
            .expect("a state");
        assert_eq!(drawn.board(), b);
        assert!(drawn.can_reach(&goal), "{drawn}");
        assert_eq!(
            Some(&drawn),
            scrambles(&goal, Scrambler::Uniform, seed).next().as_ref()
        );
        assert!(json["instances"][0].get("distance").is_none(), "{json}");

        // A walk of 40 moves: the library's walk for that seed.
        let (status, json) = server.get(&format!(
            "/api/sample?board={board}&scramble=walk&moves=40&seed={seed}&count=2"
        ));
        assert_eq!(status, 200, "{json}");
        let walks: Vec<LargeState> = scrambles(&goal, Scrambler::Walk(40), seed)
            .take(2)
            .collect();
        for (instance, walk) in json["instances"].as_array().unwrap().iter().zip(&walks) {
            let state = LargeState::parse(instance["start"].as_str().unwrap(), None).unwrap();
            assert_eq!(&state, walk);
        }

        for metric in Metric::ALL {
            let (status, json) = server.get(&format!(
                "/api/solve?board={board}&start={}&metric={metric}",
                commas(&drawn)
            ));
            assert_eq!(status, 200, "{json}");
            assert_eq!(json["guarantee"], "none", "{json}");
            assert_eq!(json["optimal"], false);
            assert_eq!(json["algorithm"], "constructive");
            assert!(json["distance"].is_null(), "no exact distance is claimed");
            assert!(json.get("path").is_none());
            assert_eq!(json["metric"], metric.name());
            // The solution replayed reaches the goal; its length is counted in the metric.
            let moves = parse_moves(json["moves"].as_str().unwrap()).unwrap();
            assert_eq!(drawn.after(&moves), Ok(goal.clone()), "{board} {metric}");
            assert_eq!(json["length"], metric.length(&moves));
            // The hint is a legal move: one cell under STM, one slide (a run of one
            // direction) under MTM, the solution's first.
            let hint = parse_moves(json["hint"].as_str().unwrap()).unwrap();
            assert!(drawn.after(&hint).is_ok(), "{hint:?} is legal");
            assert!(!hint.is_empty() && hint.iter().all(|&mv| mv == hint[0]));
            assert_eq!(hint[..], moves[..hint.len()]);
            match metric {
                Metric::Stm => assert_eq!(hint.len(), 1),
                Metric::Mtm => assert_ne!(moves.get(hint.len()), Some(&hint[0])),
            }
        }

        // No exact distance is offered there, and the refusal says why.
        let (status, json) = server.get(&format!(
            "/api/distance?board={board}&start={}",
            commas(&drawn)
        ));
        assert_eq!(status, 400, "{json}");
        assert!(error(&json).contains("no exact distance"), "{json}");
    }

    // The other class cannot reach the goal: 422, as on small boards.
    let goal = LargeState::goal("10x10".parse().unwrap());
    let mut swapped = goal.tiles().to_vec();
    swapped.swap(0, 1);
    let swapped = LargeState::from_tiles(goal.board(), &swapped).unwrap();
    let (status, json) = server.get(&format!(
        "/api/solve?board=10x10&start={}",
        commas(&swapped)
    ));
    assert_eq!(status, 422, "{json}");
    error(&json);

    // The menu offers 6x6 to 10x10, each saying it gives constructive hints.
    let (status, json) = server.get("/api/boards");
    assert_eq!(status, 200);
    let offered: Vec<&str> = json["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["answers"] == "constructive")
        .map(|b| b["board"].as_str().unwrap())
        .collect();
    assert_eq!(offered, ["6x6", "7x7", "8x8", "9x9", "10x10"]);
}

#[test]
fn claims_on_large_boards_are_replayed_and_judged_with_their_guarantee_labels() {
    let server = Server::start();
    let board = "10x10";
    let goal = LargeState::goal(board.parse().unwrap());
    let start = scrambles(&goal, Scrambler::Uniform, 3).next().unwrap();
    let verify = |moves: &str, guarantee: Option<&str>, metric: &str| {
        let mut body = serde_json::json!({
            "board": board, "start": commas(&start), "moves": moves, "metric": metric,
        });
        if let Some(label) = guarantee {
            body["guarantee"] = label.into();
        }
        server.post("/api/verify", &body)
    };

    // The server's own solution, with the label it was served with (none), passes; its
    // claimed length is counted in the metric asked.
    let (status, json) = server.get(&format!(
        "/api/solve?board={board}&start={}",
        commas(&start)
    ));
    assert_eq!(status, 200, "{json}");
    assert_eq!(json["guarantee"], "none");
    let text = json["moves"].as_str().unwrap().to_string();
    let moves = parse_moves(&text).unwrap();
    for metric in Metric::ALL {
        let (status, json) = verify(&text, Some("none"), metric.name());
        assert_eq!(status, 200, "{json}");
        assert_eq!(json["verdict"], "within-guarantee", "{json}");
        assert_eq!(json["passes"], true);
        assert!(
            json["exact"].is_null(),
            "no exact distance is claimed: {json}"
        );
        assert_eq!(json["claimed"], metric.length(&moves));
        assert_eq!(json["algorithm"], "replay");
    }
    // Labelled optimal (also what no label means) or within a factor, it cannot be shown:
    // unverified, not a pass, and the detail says why.
    for label in [None, Some("optimal"), Some("within 1.2")] {
        let (status, json) = verify(&text, label, "stm");
        assert_eq!(status, 200, "{json}");
        assert_eq!(json["verdict"], "unverified", "{label:?}: {json}");
        assert_eq!(json["passes"], false);
        assert!(
            json["detail"].as_str().unwrap().contains("out of reach"),
            "{json}"
        );
    }
    // Wrong claims are named whatever the label: one move short ends elsewhere; the moves
    // read as the tiles' directions are named so; a move off the board gives its step.
    let (_, json) = verify(&text[..text.len() - 1], Some("none"), "stm");
    assert_eq!(json["verdict"], "wrong-end", "{json}");
    assert_eq!(json["passes"], false);
    let flipped: String = text
        .chars()
        .map(|c| match c {
            'U' => 'D',
            'D' => 'U',
            'L' => 'R',
            'R' => 'L',
            other => other,
        })
        .collect();
    let (_, json) = verify(&flipped, Some("none"), "stm");
    assert!(
        ["wrong-end", "illegal-move"].contains(&json["verdict"].as_str().unwrap()),
        "{json}"
    );
    assert!(
        json["detail"].as_str().unwrap().contains("tile moves"),
        "{json}"
    );
    let row = start.blank() / 10;
    let up = "U".repeat(row + 1);
    let (_, json) = verify(&up, Some("none"), "stm");
    assert_eq!(json["verdict"], "illegal-move", "{json}");
    assert!(
        json["detail"]
            .as_str()
            .unwrap()
            .starts_with(&format!("step {}:", row + 1)),
        "{json}"
    );
    // Solvability claims are decided by the parity class.
    let mut swapped = goal.tiles().to_vec();
    swapped.swap(0, 1);
    let swapped = LargeState::from_tiles(goal.board(), &swapped).unwrap();
    for (state, verdict) in [
        (&swapped, "correct-unsolvable"),
        (&start, "false-unsolvable"),
    ] {
        let body = serde_json::json!({"board": board, "start": commas(state), "unsolvable": true});
        let (status, json) = server.post("/api/verify", &body);
        assert_eq!(status, 200, "{json}");
        assert_eq!(json["verdict"], verdict, "{json}");
    }
    let body = serde_json::json!({"board": board, "start": commas(&swapped), "moves": text, "guarantee": "none"});
    let (_, json) = server.post("/api/verify", &body);
    assert_eq!(json["verdict"], "false-solution", "{json}");
    // A label that is none of optimal, within F, none: a one-line 400 naming it.
    let (status, json) = verify(&text, Some("roughly"), "stm");
    assert_eq!(status, 400, "{json}");
    assert!(error(&json).contains("roughly"), "{json}");
}

#[test]
fn boards_over_the_servers_limit_are_refused_with_a_one_line_400() {
    let server = Server::start();
    // The largest board served is answered; one more row is not.
    let big = LargeState::goal("32x32".parse().unwrap());
    let (status, json) = server.get("/api/sample?board=32x32&seed=1");
    assert_eq!(status, 200, "{json}");
    let over = LargeState::goal("33x32".parse().unwrap());
    for path in [
        format!("/api/solve?board=33x32&start={}", commas(&over)),
        format!(
            "/api/solve?start={}",
            commas(&LargeState::goal("40x40".parse().unwrap()))
        ),
        "/api/sample?board=40x40".to_string(),
        "/api/sample?board=100x100".to_string(),
        format!("/api/distance?board=64x64&start={}", commas(&big)),
    ] {
        let (status, json) = server.get(&path);
        assert_eq!(status, 400, "{path}: {json}");
        let message = error(&json);
        assert!(
            message.contains("limit") || message.contains("not supported"),
            "{path}: {message}"
        );
    }
    // Bounds on a shuffle's work.
    for path in [
        "/api/sample?board=10x10&scramble=walk&moves=100001",
        "/api/sample?board=32x32&count=1000",
        "/api/sample?board=10x10&scramble=walk&moves=100000&count=11",
        "/api/sample?board=10x10&depth=20",
        "/api/sample?board=10x10&scramble=sideways",
    ] {
        let (status, json) = server.get(path);
        assert_eq!(status, 400, "{path}");
        error(&json);
    }
}
