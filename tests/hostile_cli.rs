//! Regression tests from an adversarial run of the command line ("Hostile files, pipes and
//! inputs"): an output file that is the input, a reader that goes away, absurd `--threads`,
//! lines of hundreds of MiB, and control characters quoted back to a terminal. Each test drives
//! the binary and failed before its fix.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use common::TestCommand;

fn npuzzle(args: &[&str], data_dir: &Path) -> TestCommand {
    let mut command = TestCommand::new();
    command.args(args).data_dir(data_dir);
    command
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts a usage error: exit 2, nothing on stdout, one line on stderr holding `needle`.
fn assert_usage_error(out: &Output, needle: &str) {
    let stderr = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("npuzzle: ") && stderr.contains(needle),
        "{stderr}"
    );
}

// ---- 4. `-o` naming the input ----

/// Regression: `batch q.csv -o q.csv` truncated q.csv before reading it (1,000 questions lost,
/// exit 0); so did a symlink to it, and `-o q.csv < q.csv`.
#[test]
fn batch_refuses_an_output_file_that_is_its_input_by_any_name() {
    let dir = tempfile::tempdir().unwrap();
    let questions = dir.path().join("q.csv");
    let content = "start\n".to_string() + &"867254301\n".repeat(1000);
    std::fs::write(&questions, &content).unwrap();
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink(&questions, &link).unwrap();
    let hard = dir.path().join("hard.csv");
    std::fs::hard_link(&questions, &hard).unwrap();
    let q = questions.to_str().unwrap();
    for (input, output) in [
        (q, q),
        (q, link.to_str().unwrap()),
        (link.to_str().unwrap(), q),
        (q, hard.to_str().unwrap()),
    ] {
        let out = npuzzle(&["batch", input, "-o", output], dir.path())
            .stdin_from(Stdio::null())
            .output();
        assert_usage_error(&out, &format!("-o {output} is the input file {input}"));
        assert_eq!(std::fs::read_to_string(&questions).unwrap(), content);
    }
    // Standard input redirected from the output file, with `-` and with no FILE.
    for args in [vec!["batch", "-", "-o", q], vec!["batch", "-o", q]] {
        let out = npuzzle(&args, dir.path())
            .stdin_from(std::fs::File::open(&questions).unwrap())
            .output();
        assert_usage_error(
            &out,
            &format!("-o {q} is the file standard input reads from"),
        );
        assert_eq!(std::fs::read_to_string(&questions).unwrap(), content);
    }
    // Another file is fine, and so is an output that does not exist yet.
    let answers = dir.path().join("answers.csv");
    let out = npuzzle(&["batch", q, "-o", answers.to_str().unwrap()], dir.path())
        .stdin_from(std::fs::File::open(&questions).unwrap())
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let answers = std::fs::read_to_string(&answers).unwrap();
    assert_eq!(answers.lines().count(), 1001);
}

// ---- 5. a reader that goes away ----

/// Runs `child` with stdout piped, reads one line of it, closes the pipe and waits.
fn read_one_line_then_close(mut child: Child) -> Output {
    let stdout = child.stdout.take().expect("piped");
    let mut reader = BufReader::new(stdout);
    let mut first = String::new();
    reader.read_line(&mut first).unwrap();
    assert!(!first.is_empty(), "some output before the pipe closes");
    drop(reader);
    child.wait_with_output().unwrap()
}

/// Regression: `npuzzle batch ... | head -1` exited 0 even on input that exits 1 when run in
/// full, so `set -o pipefail` scripts passed wrong answers. Now it ends as `cat` does there:
/// status 141 (128 + SIGPIPE), nothing said.
#[test]
fn a_reader_that_goes_away_is_no_success_and_nothing_is_said() {
    let dir = tempfile::tempdir().unwrap();
    // The table first, so that its note ("built table ...") is not on stderr.
    let build = npuzzle(&["build"], dir.path()).output();
    assert_eq!(build.status.code(), Some(0), "{}", stderr(&build));
    let lines = 200_000;
    let batch_input = dir.path().join("batch.txt");
    // A failing line at the end: run in full, the exit code would be 1.
    std::fs::write(&batch_input, "867254301\n".repeat(lines) + "12345678\n").unwrap();
    let verify_input = dir.path().join("verify.csv");
    std::fs::write(
        &verify_input,
        "start,moves\n".to_string() + &"123456708,R\n".repeat(lines) + "123456708,L\n",
    )
    .unwrap();
    for args in [
        vec!["batch", batch_input.to_str().unwrap()],
        vec!["batch", batch_input.to_str().unwrap(), "-f", "jsonl"],
        vec!["verify", "-f", "jsonl", verify_input.to_str().unwrap()],
    ] {
        let child = npuzzle(&args, dir.path()).stdin_from(Stdio::null()).spawn();
        let out = read_one_line_then_close(child);
        assert_eq!(out.status.code(), Some(141), "{args:?}: {}", stderr(&out));
        assert!(out.stderr.is_empty(), "{args:?}: {}", stderr(&out));
    }
}

// ---- 6. `--threads` ----

/// The documented limit: four per core, at least 64, at most 1024.
fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (4 * cores).clamp(64, 1024)
}

/// Regression: `--threads` had no upper bound (5,000 threads took 56 s for one line, 20,000
/// did not end in 5 minutes).
#[test]
fn threads_over_the_limit_are_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let max = max_threads();
    let over = (max + 1).to_string();
    for args in [
        vec!["batch", "--threads", &over],
        vec!["build", "--threads", &over],
        vec!["batch", "--threads", "0"],
    ] {
        let out = npuzzle(&args, dir.path())
            .stdin_from(Stdio::null())
            .output();
        let needle = if args[2] == "0" {
            "at least 1".to_string()
        } else {
            format!("limit of {max}")
        };
        assert_usage_error(&out, &needle);
    }
    // The limit itself is accepted.
    let out = common::run_with_stdin(
        &["batch", "--threads", &max.to_string()],
        dir.path(),
        "867254301\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

// ---- 7 and 8: long lines, flat memory ----

/// Peak resident memory (VmHWM) of a child, polled from /proc while it runs.
struct PeakMemory {
    stop: Arc<AtomicBool>,
    poller: std::thread::JoinHandle<u64>,
}

impl PeakMemory {
    fn watch(pid: u32) -> PeakMemory {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let poller = std::thread::spawn(move || {
            let mut peak_kib = 0;
            while !flag.load(Ordering::Relaxed) {
                if let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
                    if let Some(kib) = status
                        .lines()
                        .find_map(|l| l.strip_prefix("VmHWM:"))
                        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                    {
                        peak_kib = peak_kib.max(kib);
                    }
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            peak_kib
        });
        PeakMemory { stop, poller }
    }

    /// The peak in MiB.
    fn finish(self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        self.poller.join().unwrap() / 1024
    }
}

/// Runs `npuzzle ARGS` with `feed` writing its stdin (from another thread, never holding the
/// whole input), and returns the output and the peak resident memory in MiB.
fn run_fed(
    args: &[&str],
    data_dir: &Path,
    feed: impl FnOnce(&mut ChildStdin) -> std::io::Result<()> + Send + 'static,
) -> (Output, u64) {
    let mut child = npuzzle(args, data_dir).stdin_from(Stdio::piped()).spawn();
    let peak = PeakMemory::watch(child.id());
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = feed(&mut stdin);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (out, peak.finish())
}

/// Writes `count` MiB of `byte`.
fn write_mib(to: &mut impl Write, byte: u8, count: usize) -> std::io::Result<()> {
    let block = vec![byte; 1 << 20];
    for _ in 0..count {
        to.write_all(&block)?;
    }
    Ok(())
}

const PEAK_LIMIT_MIB: u64 = 100;
const LONG_LINE_MIB: usize = 160;

fn errors(rows: &[serde_json::Value]) -> Vec<Option<String>> {
    rows.iter()
        .map(|r| r["error"].as_str().map(str::to_string))
        .collect()
}

/// Regression: a long line was read whole, its block grown and rescanned (memory grew with the
/// line, time with its square: 512 MiB took 36.7 s). Now a line over 1 MiB is skipped as it is
/// read and gets a row with the error; the lines after it are answered.
#[test]
fn batch_skips_a_line_over_1_mib_with_flat_memory_in_every_form() {
    let dir = tempfile::tempdir().unwrap();
    for (form, before, long_head, after) in [
        ("lines", "867254301\n", b'1', "867254301\n"),
        (
            "lines + comment",
            "# a comment\n",
            b'#',
            "867254301\n867254301\n",
        ),
        ("csv", "start\n867254301\n", b'1', "867254301\n"),
        (
            "jsonl",
            "{\"start\":\"867254301\"}\n",
            b'{',
            "{\"start\":\"867254301\"}\n",
        ),
        // The long line first: the form is told from its first bytes.
        ("long first", "", b'1', "867254301\n"),
        ("long first json", "", b'{', "{\"start\":\"867254301\"}\n"),
    ] {
        let (out, peak) = run_fed(&["batch", "-f", "jsonl"], dir.path(), move |stdin| {
            stdin.write_all(before.as_bytes())?;
            stdin.write_all(&[long_head])?;
            write_mib(stdin, b'2', LONG_LINE_MIB)?;
            stdin.write_all(b"\n")?;
            stdin.write_all(after.as_bytes())
        });
        let rows = common::json_lines(&out);
        let errors = errors(&rows);
        assert!(peak < PEAK_LIMIT_MIB, "{form}: peak {peak} MiB");
        if long_head == b'#' {
            // A comment is skipped whatever its length.
            assert_eq!(out.status.code(), Some(0), "{form}: {}", stderr(&out));
            assert_eq!(errors, [None, None], "{form}");
            continue;
        }
        assert_eq!(out.status.code(), Some(1), "{form}: {}", stderr(&out));
        let long_row = usize::from(!before.is_empty());
        assert_eq!(rows.len(), long_row + 2, "{form}: {rows:?}");
        let message = errors[long_row].as_deref().unwrap_or_default();
        assert!(
            message.starts_with(&format!("line {}: ", before.lines().count() + 1))
                && message.contains("line too long: more than 1 MiB"),
            "{form}: {message}"
        );
        assert!(rows[long_row]["start"].as_str().unwrap().len() < 64);
        for (i, row) in rows.iter().enumerate().filter(|(i, _)| *i != long_row) {
            assert_eq!(row["distance"], 31, "{form}: row {i}: {row}");
        }
    }
}

/// Regression: `batch` with a CSV header held 65,536 records whatever their size (1.07 GB on
/// lines of 16 KiB); chunks are now bounded by bytes too.
#[test]
fn batch_csv_chunks_are_bounded_by_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let lines = 8192;
    let (out, peak) = run_fed(&["batch", "-f", "jsonl"], dir.path(), move |stdin| {
        stdin.write_all(b"start\n")?;
        let line = "9".repeat(16 << 10) + "\n";
        for _ in 0..lines {
            stdin.write_all(line.as_bytes())?;
        }
        stdin.write_all(b"867254301\n")
    });
    assert!(peak < PEAK_LIMIT_MIB, "peak {peak} MiB");
    assert_eq!(out.status.code(), Some(1));
    let rows = common::json_lines(&out);
    assert_eq!(rows.len(), lines + 1);
    assert!(rows[..lines]
        .iter()
        .all(|r| r["error"].as_str().unwrap().contains("too long")));
    assert_eq!(rows[lines]["distance"], 31);
}

/// Regression: `verify` used 4.2 GB to reject one 1 GiB line. Now the line is `malformed`,
/// skipped as it is read, and the lines after it are judged.
#[test]
fn verify_judges_a_line_over_1_mib_malformed_with_flat_memory() {
    let dir = tempfile::tempdir().unwrap();
    for (form, header, answer, long_head) in [
        ("csv", "start,moves\n", "123456708,R\n", b'1'),
        (
            "jsonl",
            "",
            "{\"start\":\"123456708\",\"moves\":\"R\"}\n",
            b'{',
        ),
        (
            "long first jsonl",
            "",
            "{\"start\":\"123456708\",\"moves\":\"R\"}\n",
            b'{',
        ),
    ] {
        let first = !form.starts_with("long first");
        let (out, peak) = run_fed(&["verify", "-", "-f", "jsonl"], dir.path(), move |stdin| {
            stdin.write_all(header.as_bytes())?;
            if first {
                stdin.write_all(answer.as_bytes())?;
            }
            stdin.write_all(&[long_head])?;
            write_mib(stdin, b'2', LONG_LINE_MIB)?;
            stdin.write_all(b"\n")?;
            stdin.write_all(answer.as_bytes())
        });
        assert!(peak < PEAK_LIMIT_MIB, "{form}: peak {peak} MiB");
        assert_eq!(out.status.code(), Some(1), "{form}: {}", stderr(&out));
        let rows = common::json_lines(&out);
        let verdicts: Vec<&str> = rows
            .iter()
            .map(|r| r["verdict"].as_str().unwrap())
            .collect();
        let expected: &[&str] = if first {
            &["optimal", "malformed", "optimal"]
        } else {
            &["malformed", "optimal"]
        };
        assert_eq!(verdicts, expected, "{form}");
        let malformed = rows.iter().find(|r| r["verdict"] == "malformed").unwrap();
        assert!(
            malformed["detail"]
                .as_str()
                .unwrap()
                .contains("line too long: more than 1 MiB"),
            "{form}: {malformed}"
        );
    }
}

/// Regression: `verify` held 16,384 lines per chunk whatever their length (2.1 GB on lines of
/// 128 KiB); chunks are now bounded by bytes too, and long legal lines still pass.
#[test]
fn verify_chunks_are_bounded_by_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let lines = 2048;
    let (out, peak) = run_fed(&["verify", "-", "-f", "jsonl"], dir.path(), move |stdin| {
        stdin.write_all(b"start,moves\n")?;
        // One move, then 128 KiB of separators.
        let line = format!("123456708,R{}\n", " ".repeat(128 << 10));
        for _ in 0..lines {
            stdin.write_all(line.as_bytes())?;
        }
        Ok(())
    });
    assert!(peak < PEAK_LIMIT_MIB, "peak {peak} MiB");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows = common::json_lines(&out);
    assert_eq!(rows.len(), lines);
    assert!(rows.iter().all(|r| r["verdict"] == "optimal"));
}

// ---- control characters ----

/// Control characters from the input are escaped wherever they are quoted back: batch rows
/// (CSV), verify's summary, and messages on stderr.
#[test]
fn control_characters_from_the_input_never_reach_a_terminal_raw() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = "12\u{1b}[31m3\r45678";
    let raw = |bytes: &[u8]| bytes.iter().any(|&b| b == 0x1b || b == b'\r');

    let out = common::run_with_stdin(&["batch"], dir.path(), format!("{hostile}\n"));
    assert_eq!(out.status.code(), Some(1));
    assert!(!raw(&out.stdout) && !raw(&out.stderr));
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(stdout.contains("12\\x1b[31m3\\r45678"), "{stdout}");

    let input = format!("start,moves\n{hostile},R\n123456708,\u{1b}]0;title\u{7}R\n");
    let out = common::run_with_stdin(&["verify", "-"], dir.path(), &input);
    assert_eq!(out.status.code(), Some(1));
    assert!(!raw(&out.stdout) && !raw(&out.stderr), "{out:?}");
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(stdout.contains("\\x1b"), "{stdout}");
    assert!(!stdout.contains('\u{7}'), "{stdout}");

    let out = common::run_with_stdin(&["batch", "--goal", hostile], dir.path(), "");
    assert_usage_error(&out, "\\x1b[31m3\\r");
    assert!(!raw(&out.stderr));
}
