//! End to end: tools/check-solver runs the Python example solver on a sample and pipes its
//! answers to `npuzzle verify`. The correct solver passes (exit 0); with `--flaw` (an
//! inadmissible heuristic) verify catches the longer answers (exit 1).
//!
//! These tests need `bash` and `python3`. They fail, loudly, when either is missing: a skipped
//! check would look like a passing one. CI installs python3 (see .ci/run).

use std::path::Path;
use std::process::{Command, Output};

fn require(program: &str) {
    let found = Command::new(program)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    assert!(
        found,
        "`{program}` is required by tools/check-solver and its example solver, but `{program} --version` failed: install {program} (CI does so in .ci/run) and run the tests again"
    );
}

fn check_solver(args: &[&str], data_dir: &Path) -> Output {
    require("bash");
    require("python3");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    Command::new("bash")
        .arg(root.join("tools/check-solver"))
        .args(args)
        .env("NPUZZLE", env!("CARGO_BIN_EXE_npuzzle"))
        .env("NPUZZLE_DATA_DIR", data_dir)
        .current_dir(root)
        .output()
        .expect("run tools/check-solver")
}

/// Instances from 0 to 22 moves keep the Python A* quick; seed 11 draws a spread of depths.
const SAMPLE: [&str; 8] = [
    "--count",
    "30",
    "--seed",
    "11",
    "--max-depth",
    "22",
    "--unsolvable",
    "4",
];

#[test]
fn the_correct_example_solver_passes() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = SAMPLE.to_vec();
    args.extend(["--", "python3", "tools/example_solver.py"]);
    let output = check_solver(&args, dir.path());
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(0),
        "stdout:\n{out}\nstderr:\n{err}"
    );
    assert!(out.starts_with("verified 30 answers in "), "{out}");
    assert!(out.contains("  optimal                     26\n"), "{out}");
    assert!(out.contains("  correct-unsolvable           4\n"), "{out}");
    assert!(
        out.contains("PASS: all 30 answers are optimal or rightly unsolvable"),
        "{out}"
    );
}

#[test]
fn verify_catches_the_flawed_example_solver() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = SAMPLE.to_vec();
    args.extend([
        "--jsonl",
        "--",
        "python3",
        "tools/example_solver.py",
        "--flaw",
    ]);
    let output = check_solver(&args, dir.path());
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(1),
        "stdout:\n{out}\nstderr:\n{err}"
    );
    let verdicts: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("verify's JSON lines"))
        .collect();
    assert_eq!(verdicts.len(), 30, "{out}");
    let suboptimal: Vec<&serde_json::Value> = verdicts
        .iter()
        .filter(|v| v["verdict"] == "suboptimal")
        .collect();
    assert!(
        !suboptimal.is_empty(),
        "the flaw makes some answers longer: {out}"
    );
    for v in &suboptimal {
        let (exact, claimed) = (v["exact"].as_u64().unwrap(), v["claimed"].as_u64().unwrap());
        assert_eq!(v["by"].as_u64(), Some(claimed - exact), "{v}");
        assert!(claimed > exact, "{v}");
    }
    // The flaw only lengthens answers: everything else is still right.
    for v in &verdicts {
        let verdict = v["verdict"].as_str().unwrap();
        assert!(
            ["optimal", "suboptimal", "correct-unsolvable"].contains(&verdict),
            "{v}"
        );
    }
    // And letting suboptimal answers pass makes the flawed solver pass.
    let mut args = SAMPLE.to_vec();
    args.extend([
        "--allow-suboptimal",
        "--",
        "python3",
        "tools/example_solver.py",
        "--flaw",
    ]);
    let output = check_solver(&args, dir.path());
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

#[test]
fn a_solver_that_answers_too_few_lines_fails() {
    let dir = tempfile::tempdir().unwrap();
    // `head -n 5` echoes five instances back: five unreadable answers and twenty-five missing.
    let output = check_solver(
        &["--count", "30", "--seed", "1", "--", "head", "-n", "5"],
        dir.path(),
    );
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{out}{err}");
    assert!(out.contains("  malformed                   30\n"), "{out}");
    assert!(
        err.contains("check-solver: the solver printed 5 lines for 30 instances"),
        "{err}"
    );
}

#[test]
fn a_solver_that_hangs_is_stopped_by_timeout_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let output = check_solver(
        &["--count", "10", "--timeout", "1", "--", "sleep", "60"],
        dir.path(),
    );
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{out}{err}");
    assert!(
        err.contains("check-solver: the solver was stopped after 1 s (--timeout)"),
        "{err}"
    );
    assert!(out.contains("  malformed                   10\n"), "{out}");

    // Coreutils reads 0 as "no timeout": refused, like any other non-positive value.
    for value in ["soon", "0", "0.0", "-1"] {
        let bad = check_solver(&["--timeout", value, "--", "cat"], dir.path());
        assert_eq!(bad.status.code(), Some(2), "--timeout {value}");
        assert!(
            String::from_utf8_lossy(&bad.stderr)
                .contains("--timeout must be a positive number of seconds"),
            "--timeout {value}"
        );
    }
}

#[test]
fn a_solver_that_cannot_be_started_is_a_setup_error_with_its_cause() {
    let dir = tempfile::tempdir().unwrap();
    let missing = check_solver(&["--count", "5", "--", "no-such-solver-x7"], dir.path());
    let err = String::from_utf8_lossy(&missing.stderr);
    assert_eq!(missing.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot start the solver 'no-such-solver-x7': no such command or file"),
        "{err}"
    );
    assert!(!String::from_utf8_lossy(&missing.stdout).contains("malformed"));
    // A script without the execute bit, given by its path.
    let script = dir.path().join("solver.py");
    std::fs::write(&script, "print('R')\n").unwrap();
    let script = script.to_str().unwrap();
    let not_executable = check_solver(&["--count", "5", "--", script], dir.path());
    let err = String::from_utf8_lossy(&not_executable.stderr);
    assert_eq!(not_executable.status.code(), Some(2), "{err}");
    assert!(err.contains("it is not executable"), "{err}");
    // An executable whose interpreter line names no program: the shell cannot run it (126/127).
    let bad = dir.path().join("bad-interpreter");
    std::fs::write(&bad, "#!/no/such/interpreter\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&bad, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let bad = bad.to_str().unwrap();
    let output = check_solver(&["--count", "5", "--", bad], dir.path());
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot start the solver"), "{err}");
}
