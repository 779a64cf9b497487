//! Helpers shared by the integration tests that drive the `npuzzle` binary: [`TestCommand`],
//! the one way a test runs it (in the manner of ripgrep's `TestCommand`), and the readers of
//! what it printed.
#![allow(dead_code)] // each test binary uses some of these

use std::ffi::OsStr;
use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// One run of the `npuzzle` binary, built up and then run: arguments, environment, standard
/// input, a time limit. Every run starts without `NPUZZLE_DATA_DIR` (a developer's own
/// setting must not leak into a test); a test that wants one sets it with [`TestCommand::env`].
///
/// ```ignore
/// let run = TestCommand::new().args(["distance", "867254301"]).data_dir(dir).expect_code(0);
/// assert_eq!(run.stdout(), "31\n");
/// ```
pub struct TestCommand {
    command: Command,
    stdin: Option<Vec<u8>>,
    stdin_from: Option<Stdio>,
    within: Option<Duration>,
}

impl TestCommand {
    /// The binary this test run built (`CARGO_BIN_EXE_npuzzle`).
    pub fn new() -> TestCommand {
        TestCommand::of(env!("CARGO_BIN_EXE_npuzzle"))
    }

    /// Another copy of the binary (one copied out of `target/`, as `cargo install` leaves it).
    pub fn of(program: impl AsRef<OsStr>) -> TestCommand {
        let mut command = Command::new(program);
        command.env_remove("NPUZZLE_DATA_DIR");
        TestCommand {
            command,
            stdin: None,
            stdin_from: None,
            within: None,
        }
    }

    pub fn arg(&mut self, arg: impl AsRef<OsStr>) -> &mut TestCommand {
        self.command.arg(arg);
        self
    }

    pub fn args<I, S>(&mut self, args: I) -> &mut TestCommand
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.command.args(args);
        self
    }

    /// `--data-dir DIR`, at this point of the arguments (the binary reads it before or after
    /// the subcommand).
    pub fn data_dir(&mut self, dir: impl AsRef<Path>) -> &mut TestCommand {
        self.command.arg("--data-dir").arg(dir.as_ref());
        self
    }

    pub fn env(&mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> &mut TestCommand {
        self.command.env(key, value);
        self
    }

    pub fn env_remove(&mut self, key: impl AsRef<OsStr>) -> &mut TestCommand {
        self.command.env_remove(key);
        self
    }

    pub fn env_clear(&mut self) -> &mut TestCommand {
        self.command.env_clear();
        self
    }

    pub fn current_dir(&mut self, dir: impl AsRef<Path>) -> &mut TestCommand {
        self.command.current_dir(dir);
        self
    }

    /// What the run reads on standard input (without it, standard input is empty, as
    /// [`Command::output`] leaves it).
    pub fn stdin(&mut self, input: impl AsRef<[u8]>) -> &mut TestCommand {
        self.stdin = Some(input.as_ref().to_vec());
        self
    }

    /// Standard input from elsewhere: a file, `Stdio::null()`, or `Stdio::piped()` for a
    /// test that writes it itself after [`Self::spawn`].
    pub fn stdin_from(&mut self, stdin: impl Into<Stdio>) -> &mut TestCommand {
        self.stdin_from = Some(stdin.into());
        self
    }

    /// The standard input this run gets: piped for [`Self::stdin`]'s bytes, else what
    /// [`Self::stdin_from`] gave, else nothing (empty).
    fn stdin_stdio(&mut self) -> Stdio {
        if self.stdin.is_some() {
            Stdio::piped()
        } else {
            self.stdin_from.take().unwrap_or_else(Stdio::null)
        }
    }

    /// Fails the test (rather than hanging it) if the run has not finished within `limit`:
    /// for the regressions where npuzzle once blocked.
    pub fn within(&mut self, limit: Duration) -> &mut TestCommand {
        self.within = Some(limit);
        self
    }

    /// Starts the run with its stdout and stderr piped (its stdin as [`Self::stdin_stdio`]
    /// says; [`Self::stdin`]'s bytes are written here, in full, before returning); for tests
    /// that run several at once, watch one, or kill one.
    pub fn spawn(&mut self) -> Child {
        let stdin = self.stdin_stdio();
        self.command
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = spawn_retrying(&mut self.command);
        if let Some(input) = self.stdin.clone() {
            let mut stdin = child.stdin.take().expect("piped");
            // A child that exits early closes its stdin; what it did not read is its own
            // business.
            let _ = stdin.write_all(&input);
        }
        child
    }

    /// Runs it to the end and returns what it printed and its status.
    pub fn output(&mut self) -> Output {
        let input = self.stdin.clone();
        let stdin = self.stdin_stdio();
        self.command
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = spawn_retrying(&mut self.command);
        // Written from another thread so that a large input cannot deadlock against a full
        // stdout pipe; a child that exits early closes its stdin, and what it did not read is
        // its own business.
        let writer = input.map(|input| {
            let mut stdin = child.stdin.take().expect("piped");
            std::thread::spawn(move || {
                let _ = stdin.write_all(&input);
            })
        });
        if let Some(limit) = self.within {
            let began = Instant::now();
            while child
                .try_wait()
                .expect("the child can be waited for")
                .is_none()
            {
                if began.elapsed() > limit {
                    child.kill().expect("the child can be killed");
                    panic!(
                        "{:?} did not finish within {limit:?}: it blocked",
                        self.command
                    );
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        let output = child.wait_with_output().expect("the binary finishes");
        if let Some(writer) = writer {
            writer.join().expect("the writer thread ends");
        }
        output
    }

    /// Runs it to the end.
    pub fn run(&mut self) -> Run {
        let output = self.output();
        Run {
            what: format!("{:?}", self.command),
            output,
        }
    }

    /// Runs it to the end and fails the test, showing stderr, unless it exits with `code`.
    pub fn expect_code(&mut self, code: i32) -> Run {
        let run = self.run();
        assert_eq!(
            run.code(),
            Some(code),
            "{}: stderr: {}",
            run.what,
            run.stderr()
        );
        run
    }

    /// Runs it, expects exit code 0, and returns its stdout.
    pub fn stdout(&mut self) -> String {
        self.expect_code(0).stdout()
    }
}

/// A finished run: its status and what it printed.
pub struct Run {
    /// The command, for messages.
    pub what: String,
    pub output: Output,
}

impl Run {
    pub fn code(&self) -> Option<i32> {
        self.output.status.code()
    }

    /// Stdout, which must be UTF-8.
    pub fn stdout(&self) -> String {
        String::from_utf8(self.output.stdout.clone()).expect("UTF-8 stdout")
    }

    /// Stderr, lossily (a message may quote bytes that are not UTF-8).
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    /// Every stdout line parsed as a JSON object.
    pub fn json_lines(&self) -> Vec<serde_json::Value> {
        json_lines(&self.output)
    }
}

/// Runs `npuzzle ARGS --data-dir DIR` with `input` on stdin and waits for it.
pub fn run_with_stdin(args: &[&str], data_dir: &Path, input: impl AsRef<[u8]>) -> Output {
    TestCommand::new()
        .args(args)
        .data_dir(data_dir)
        .stdin(input)
        .output()
}

/// Parses every stdout line as a JSON object.
pub fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(output.stdout.clone())
        .expect("UTF-8 output")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// Runs `npuzzle --data-dir DIR ARGS` on a terminal, through `script` (util-linux), and
/// returns its exit code and everything it showed (stdout and stderr together, as a terminal
/// shows them, with the progress bars' carriage returns and escapes).
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

/// Spawns `command`, retrying while the kernel says the executable is busy: a test that copies
/// the binary (to run it outside the checkout) races every other test thread that forks, since
/// a child forked while the copy's write handle is open holds it until it execs (ETXTBSY). The
/// window is microseconds; a second of retries is far more than it needs.
pub fn spawn_retrying(command: &mut Command) -> Child {
    let mut tries = 0;
    loop {
        match command.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            result => return result.expect("the binary runs"),
        }
    }
}

/// The address (`127.0.0.1:PORT`) that `npuzzle serve --port 0`, spawned as `child` with its
/// stdout piped, prints as its first line (`http://ADDRESS/`); waits for that line.
pub fn served_address(child: &mut Child) -> String {
    use std::io::BufRead;
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout piped"))
        .read_line(&mut line)
        .expect("the URL line");
    line.trim()
        .strip_prefix("http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("a URL on stdout, not {line:?}"))
        .to_string()
}

/// Korf's instance 49 (59 moves): about 14 s with Manhattan distance on two threads, 1.1 G
/// nodes; its last iterations' subtrees take tens of thousands of expansions each, so a stop
/// finds the threads inside subtrees.
pub const KORF_49: &str = "10 0 2 4 5 1 6 12 11 13 9 7 15 3 14 8";

/// Sends SIGTERM to `child` once its checkpoint `file` has reached `bound`; returns its
/// output.
#[cfg(unix)]
pub fn terminate_at_bound(
    mut child: std::process::Child,
    file: &Path,
    bound: u32,
) -> std::process::Output {
    let began = Instant::now();
    while !npuzzle::search::checkpoint::Checkpoint::load(file)
        .is_ok_and(|c| c.is_some_and(|c| c.bound >= bound))
    {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the search ended before bound {bound}"
        );
        assert!(
            began.elapsed() < Duration::from_secs(300),
            "no bound {bound}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Inside the iteration, past its first subtrees.
    std::thread::sleep(Duration::from_millis(300));
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    child.wait_with_output().unwrap()
}

/// [`terminate_at_bound`] on the search `spawn` starts, again (resuming from the checkpoint
/// `file`) until the stop finds a thread inside a subtree, at most five times; returns the
/// output of the last run. A stop that comes while every thread is between two subtrees
/// (now and then on a loaded machine, where the last iterations hold many small subtrees)
/// keeps no partial subtree, rightly; tests of the partial ones need one that does.
#[cfg(unix)]
pub fn terminate_inside_subtrees(
    spawn: impl Fn() -> std::process::Child,
    file: &Path,
    bound: u32,
) -> std::process::Output {
    for _ in 0..5 {
        let stopped = terminate_at_bound(spawn(), file, bound);
        let saved = npuzzle::search::checkpoint::Checkpoint::load(file);
        if saved.is_ok_and(|c| c.is_some_and(|c| !c.partial.is_empty())) {
            return stopped;
        }
    }
    panic!("five stops at bound {bound} or later, none inside a subtree");
}
