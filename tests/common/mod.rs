//! Helpers shared by the integration tests that drive the `npuzzle` binary.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `npuzzle ARGS --data-dir DIR` with `input` on stdin and waits for it.
pub fn run_with_stdin(args: &[&str], data_dir: &Path, input: &str) -> Output {
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
    // A child that exits early closes its stdin; what it did not read is its own business.
    let _ = child
        .stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("the binary finishes")
}

/// Parses every stdout line as a JSON object.
pub fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(output.stdout.clone())
        .expect("UTF-8 output")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}
