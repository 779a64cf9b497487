//! `npuzzle serve` under load and under hostile requests, on 127.0.0.1 only.
//!
//! 200 clients ask for 10 s (NPUZZLE_LOAD_SECS changes it) over keep-alive connections, each
//! answer checked against the library's own table; meanwhile hostile requests (a huge body, a
//! chunked body over the limit, malformed JSON, an absurd state, a 5x5 with no limit, a limit
//! over the maximum) get a clear 4xx, or 503 for the search limit, and the server goes on.
//! At the end the server's peak memory (VmHWM) is bounded and SIGTERM stops it with exit 0.
//!
//! A tiny HTTP/1.1 client over `TcpStream` is enough here: every response has a length.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use npuzzle::answer::{How, Oracle};
use npuzzle::rng::SplitMix64;
use npuzzle::State;

const BIN: &str = env!("CARGO_BIN_EXE_npuzzle");

/// The server, killed if a test fails before stopping it.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(data_dir: &std::path::Path) -> Server {
        let mut child = Command::new(BIN)
            .arg("--data-dir")
            .arg(data_dir)
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("npuzzle serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the URL line");
        let address = line
            .trim()
            .strip_prefix("http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("a URL on stdout, not {line:?}"))
            .to_string();
        assert!(address.starts_with("127.0.0.1:"), "{address}");
        Server { child, address }
    }

    /// The peak resident memory of the server, in kB (VmHWM from /proc).
    fn peak_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("/proc/PID/status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("a VmHWM line")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One keep-alive connection.
struct Client {
    stream: BufReader<TcpStream>,
}

/// A response: the status and the body.
#[derive(Debug)]
struct Reply {
    status: u16,
    body: String,
}

impl Client {
    fn connect(address: &str) -> Client {
        let stream = TcpStream::connect(address).expect("connect to 127.0.0.1");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("a timeout");
        stream.set_nodelay(true).expect("nodelay");
        Client {
            stream: BufReader::new(stream),
        }
    }

    fn send(&mut self, head: &str, body: &[u8]) -> std::io::Result<Reply> {
        let stream = self.stream.get_mut();
        stream.write_all(head.as_bytes())?;
        stream.write_all(body)?;
        self.read_reply()
    }

    fn get(&mut self, path: &str) -> std::io::Result<Reply> {
        self.send(
            &format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n"),
            b"",
        )
    }

    fn post(&mut self, path: &str, json: &str) -> std::io::Result<Reply> {
        self.send(
            &format!(
                "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                json.len()
            ),
            json.as_bytes(),
        )
    }

    fn read_reply(&mut self) -> std::io::Result<Reply> {
        let mut line = String::new();
        self.stream.read_line(&mut line)?;
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
        let mut length = 0usize;
        loop {
            line.clear();
            self.stream.read_line(&mut line)?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().map_err(std::io::Error::other)?;
                }
            }
        }
        let mut body = vec![0; length];
        self.stream.read_exact(&mut body)?;
        Ok(Reply {
            status,
            body: String::from_utf8_lossy(&body).into_owned(),
        })
    }
}

fn json(reply: &Reply) -> serde_json::Value {
    serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("JSON body: {e}: {reply:?}"))
}

/// A random 3x3 state (either parity class): a shuffle of the tiles.
fn random_state(rng: &mut SplitMix64) -> State {
    let mut tiles: Vec<u8> = (0..9).collect();
    for i in (1..tiles.len()).rev() {
        tiles.swap(i, rng.below(i as u64 + 1) as usize);
    }
    State::from_tiles(npuzzle::Board::THREE_BY_THREE, &tiles).expect("a permutation")
}

#[test]
fn two_hundred_clients_get_exact_answers_while_hostile_requests_are_refused() {
    let data = tempfile::tempdir().expect("a temporary directory");
    let server = Server::start(data.path());
    let address = server.address.clone();
    // The first question builds the 3x3 table.
    let reply = Client::connect(&address)
        .get("/api/distance?start=867254301")
        .expect("an answer");
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(json(&reply)["distance"], 31);

    let oracle = Arc::new(Oracle::in_memory());
    let goal = State::goal(npuzzle::Board::THREE_BY_THREE);
    oracle.table(&goal).expect("the 3x3 table");
    let seconds: u64 = std::env::var("NPUZZLE_LOAD_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let until = Instant::now() + Duration::from_secs(seconds);
    let answered = Arc::new(AtomicU64::new(0));

    let clients: Vec<_> = (0..200u64)
        .map(|id| {
            let address = address.clone();
            let oracle = Arc::clone(&oracle);
            let answered = Arc::clone(&answered);
            std::thread::spawn(move || {
                let mut rng = SplitMix64::new(id);
                let mut client = Client::connect(&address);
                let mut n = 0u64;
                while Instant::now() < until {
                    let start = random_state(&mut rng);
                    let exact = oracle
                        .distance(&start, &goal, How::default())
                        .expect("the library answers")
                        .value
                        .ok();
                    let state = start.to_string();
                    let reply = match n % 4 {
                        0 | 1 => client.get(&format!("/api/distance?start={state}")),
                        2 => client.get(&format!("/api/solve?start={state}")),
                        _ => client.post(
                            "/api/verify",
                            &format!(r#"{{"start":"{state}","moves":"LURD"}}"#),
                        ),
                    }
                    .unwrap_or_else(|e| panic!("client {id}, request {n}: {e}"));
                    let body = json(&reply);
                    match (n % 4, exact) {
                        (0..=2, Some(d)) => {
                            assert_eq!(reply.status, 200, "{reply:?}");
                            assert_eq!(body["distance"], u64::from(d), "{state}");
                        }
                        (0..=2, None) => {
                            assert_eq!(reply.status, 422, "{reply:?}");
                            assert!(body["error"].as_str().unwrap().contains("cannot reach"));
                        }
                        _ => {
                            assert_eq!(reply.status, 200, "{reply:?}");
                            assert!(body["verdict"].is_string(), "{reply:?}");
                        }
                    }
                    n += 1;
                }
                answered.fetch_add(n, Ordering::Relaxed);
            })
        })
        .collect();

    // Hostile requests while the clients ask.
    let hostile = {
        let address = address.clone();
        std::thread::spawn(move || hostile_requests(&address))
    };
    for client in clients {
        client.join().expect("a client saw only right answers");
    }
    hostile.join().expect("hostile requests got clear refusals");
    let answered = answered.load(Ordering::Relaxed);
    eprintln!("{answered} answers in {seconds} s from 200 clients");
    assert!(answered >= 200, "{answered}");

    // The server goes on.
    let reply = Client::connect(&address)
        .get("/api/distance?start=123456708")
        .expect("an answer");
    assert_eq!(json(&reply)["distance"], 1);

    // Bounded memory: the 3x3 table is 182 kB; threads, buffers and 200 connections stay far
    // below this.
    let peak = server.peak_kb();
    eprintln!("server peak memory (VmHWM): {peak} kB");
    assert!(peak < 64 * 1024, "VmHWM {peak} kB");

    // SIGTERM stops it cleanly.
    let mut server = server;
    let killed = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let began = Instant::now();
    loop {
        if let Some(status) = server.child.try_wait().expect("wait") {
            assert!(status.success(), "{status:?}");
            break;
        }
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "still running after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn hostile_requests(address: &str) {
    // A body far over the limit, announced by its length: refused before it is read.
    let mut client = Client::connect(address);
    let head = format!(
        "POST /api/verify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        100 << 20
    );
    let reply = client
        .send(&head, &vec![b' '; 1 << 20])
        .or_else(|_| client.read_reply())
        .expect("a reply to a huge body");
    assert_eq!(reply.status, 413, "{reply:?}");
    assert!(json(&reply)["error"]
        .as_str()
        .unwrap()
        .contains("length limit"));

    // The same, chunked (no length announced): cut off at the limit.
    let mut client = Client::connect(address);
    let chunk = format!("{:x}\r\n{}\r\n", 32 << 10, " ".repeat(32 << 10));
    let head = "POST /api/verify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    let body = format!("{}0\r\n\r\n", chunk.repeat(8));
    let reply = client
        .send(head, body.as_bytes())
        .or_else(|_| client.read_reply())
        .expect("a reply to a chunked huge body");
    assert_eq!(reply.status, 413, "{reply:?}");

    let mut client = Client::connect(address);
    // Malformed JSON.
    let reply = client
        .post("/api/verify", r#"{"start": "123456780", "moves": "#)
        .unwrap();
    assert_eq!(reply.status, 400, "{reply:?}");
    assert!(json(&reply)["error"].as_str().unwrap().contains("JSON"));
    // JSON of the wrong shape: malformed too (422 means an unsolvable pair here).
    let reply = client.post("/api/verify", r#"[1, 2, 3]"#).unwrap();
    assert_eq!(reply.status, 400, "{reply:?}");
    // An absurd state: the CLI's message, cut short.
    let long = "1".repeat(20_000);
    let reply = client.get(&format!("/api/distance?start={long}")).unwrap();
    assert_eq!(reply.status, 400, "{reply:?}");
    assert!(json(&reply)["error"]
        .as_str()
        .unwrap()
        .starts_with("invalid start `111"));
    // A limit over the server's maximum.
    let reply = client
        .get("/api/distance?start=123456780&limit=1h")
        .unwrap();
    assert_eq!(reply.status, 400, "{reply:?}");
    // Too many instances.
    let reply = client.get("/api/sample?count=100000000").unwrap();
    assert_eq!(reply.status, 400, "{reply:?}");
    // A 5x5 with no limit named: the default limit stops it, 503 with a lower bound.
    let five = "24 23 22 21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0";
    let reply = client
        .get(&format!("/api/distance?start={}", five.replace(' ', "%20")))
        .unwrap();
    assert_eq!(reply.status, 503, "{reply:?}");
    let body = json(&reply);
    assert!(
        body["error"].as_str().unwrap().contains("gave up"),
        "{body}"
    );
    assert!(body["lower_bound"].as_u64().unwrap() > 0, "{body}");
}
