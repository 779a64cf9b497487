//! Helpers shared by the integration tests that drive the `npuzzle` binary.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `npuzzle ARGS --data-dir DIR` with `input` on stdin and waits for it.
#[allow(dead_code)] // not every test binary drives the binary this way
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

/// One of Korf's 100 random 15-puzzle instances, with its published optimal length.
#[allow(dead_code)] // not every test binary solves 15-puzzles
pub struct KorfInstance {
    /// The start, tiles separated by spaces.
    pub start: String,
    /// Korf's goal: the blank first, then 1..15.
    pub goal: String,
    /// The published optimal length.
    pub optimal: u64,
}

/// The `count` instances of Korf's 100 (data/korf100.txt) with the fewest IDA* nodes in his
/// 1985 run: the quickest to solve, so tests stay fast.
#[allow(dead_code)] // not every test binary solves 15-puzzles
pub fn easiest_korf_instances(count: usize) -> Vec<KorfInstance> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/korf100.txt"))
        .expect("data/korf100.txt is part of the repository");
    let mut rows: Vec<Vec<u64>> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect())
        .collect();
    rows.sort_by_key(|r| r[19]);
    let join = |tiles: &[u64]| {
        tiles
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let goal = join(&(0..16).collect::<Vec<u64>>());
    rows.iter()
        .take(count)
        .map(|r| KorfInstance {
            start: join(&r[1..17]),
            goal: goal.clone(),
            optimal: r[17],
        })
        .collect()
}

/// Runs `command` with `input` on stdin and waits for it, failing the test (not hanging it)
/// if it has not finished within `limit`: for the regressions where npuzzle once blocked.
#[allow(dead_code)] // not every test binary guards against a hang
pub fn output_within(mut command: Command, input: &str, limit: std::time::Duration) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let _ = child
        .stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes());
    let began = std::time::Instant::now();
    while child
        .try_wait()
        .expect("the child can be waited for")
        .is_none()
    {
        if began.elapsed() > limit {
            child.kill().expect("the child can be killed");
            panic!("{command:?} did not finish within {limit:?}: it blocked");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("the binary finishes")
}

/// Runs `npuzzle --data-dir DIR ARGS` on a terminal, through `script` (util-linux), and
/// returns its exit code and everything it showed (stdout and stderr together, as a terminal
/// shows them, with the progress bars' carriage returns and escapes).
#[allow(dead_code)] // not every test binary needs a terminal
pub fn on_a_terminal(data_dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let command = format!(
        "'{}' --data-dir '{}' {}",
        env!("CARGO_BIN_EXE_npuzzle"),
        data_dir.display(),
        quoted.join(" ")
    );
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("`script` (util-linux) gives the run a terminal: install util-linux");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}
