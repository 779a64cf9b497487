//! `npuzzle serve` on boards beyond 5x5 (issue 28): shuffles are the library's seeded
//! scramblers, hints and solutions the constructive solver's, replayed here with the library
//! and labelled with the guarantee `none`; no exact distance is claimed; boards over the
//! server's limit are refused with a one-line 400.

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
        let mut stream = TcpStream::connect(&self.address).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .expect("a timeout");
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        )
        .expect("the request");
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
