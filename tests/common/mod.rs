//! Helpers shared by the integration tests that drive the `npuzzle` binary.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `npuzzle ARGS --data-dir DIR` with `input` on stdin and waits for it.
pub fn run_with_stdin(args: &[&str], data_dir: &Path, input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(args)
        .arg("--data-dir")
        .arg(data_dir)
        .env_remove("NPUZZLE_DATA_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.as_ref().to_vec();
    // Written from another thread so that a large input cannot deadlock against a full stdout
    // pipe; a child that exits early closes its stdin, and what it did not read is its own
    // business.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("the binary finishes");
    writer.join().expect("the writer thread ends");
    output
}

/// Parses every stdout line as a JSON object.
#[allow(dead_code)] // not every test binary reads JSON lines
pub fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(output.stdout.clone())
        .expect("UTF-8 output")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}
