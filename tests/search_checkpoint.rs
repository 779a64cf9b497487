//! `solve --checkpoint FILE`: a solve killed after its first checkpoint resumes from the file
//! and gives the same optimal answer, one stopped by SIGTERM keeps the work inside its
//! subtrees too; a damaged checkpoint, or one of another search, is refused with exit 2 and
//! never used.

mod common;

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use common::TestCommand;
#[cfg(unix)]
use common::{terminate_inside_subtrees, KORF_49};
use npuzzle::search::checkpoint::Checkpoint;

/// Korf's instance 1 (57 moves): seconds with Manhattan distance on two threads, so a
/// checkpoint with finished subtrees is written before it ends.
const KORF_1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
const KORF_GOAL: &str = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";

fn solve(checkpoint: &Path, start: &str) -> TestCommand {
    let mut command = TestCommand::new();
    command
        .args(["solve", start, "--goal", KORF_GOAL, "--no-table"])
        .args(["--algorithm", "idastar", "--heuristic", "manhattan"])
        .args(["--threads", "2", "-f", "json", "--checkpoint"])
        .arg(checkpoint)
        .env("NPUZZLE_CHECKPOINT_SECONDS", "0.1");
    command
}

fn length(output: &Output) -> u64 {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    json["length"].as_u64().unwrap()
}

#[test]
fn a_killed_solve_resumes_from_its_checkpoint_with_the_same_answer() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("korf1.checkpoint");
    let mut child = solve(&file, KORF_1).spawn();
    let began = Instant::now();
    // Wait for a checkpoint with finished subtrees, then kill the search.
    let saved = loop {
        if let Ok(Some(c)) = Checkpoint::load(&file) {
            if c.finished() > 0 {
                break c;
            }
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the search ended before a checkpoint with finished subtrees"
        );
        assert!(began.elapsed() < Duration::from_secs(300), "no checkpoint");
        std::thread::sleep(Duration::from_millis(20));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    // The file is whole (written atomically) and names this search.
    let on_disk = Checkpoint::load(&file).unwrap().expect("still there");
    assert!(on_disk.bound >= saved.bound && on_disk.finished() > 0);
    assert_eq!(on_disk.start.to_string(), saved.start.to_string());
    let resumed = solve(&file, KORF_1).output();
    assert_eq!(length(&resumed), 57, "Korf's published length");
    // Solved: the checkpoint is gone, and a fresh run gives the same length.
    assert!(!file.exists());
    assert_eq!(length(&solve(&file, KORF_1).output()), 57);
}

#[test]
fn a_damaged_or_foreign_checkpoint_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c");
    // A sound checkpoint of an easy instance: stopped by a node limit, it stays on disk.
    let easy = "1 2 3 7 4 5 6 11 8 9 10 0 12 13 14 15";
    let limited = solve(&file, easy).arg("--limit").arg("1").output();
    assert!(!file.exists() || Checkpoint::load(&file).is_ok());
    let mut sound = Checkpoint::load(&file).unwrap().unwrap_or_else(|| {
        panic!(
            "no checkpoint after the limit: {}",
            String::from_utf8_lossy(&limited.stderr)
        )
    });
    // Damaged: one byte changed.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replacen("bound ", "bound 1", 1)).unwrap();
    let out = solve(&file, easy).output();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("damaged") && stderr.contains("not used"),
        "{stderr}"
    );
    // Not a checkpoint at all.
    std::fs::write(&file, "hello\n").unwrap();
    assert_eq!(solve(&file, easy).output().status.code(), Some(2));
    // Sound, but of another start.
    sound.start = KORF_1.parse().unwrap();
    sound.save(&file).unwrap();
    let out = solve(&file, easy).output();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("another search"), "{stderr}");
    // The refused file is left as it was.
    assert_eq!(Checkpoint::load(&file).unwrap().unwrap(), sound);
}

/// SIGTERM (or Ctrl-C) stops a checkpointed solve cleanly: exit 1 with a line saying so,
/// and the checkpoint holds the work done inside the subtrees in progress; run again, the
/// search goes on from there to the published length.
#[cfg(unix)]
#[test]
fn a_terminated_solve_keeps_the_work_inside_its_subtrees() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("korf49.checkpoint");
    let spawn = || {
        let mut command = solve(&file, KORF_49);
        command.env("NPUZZLE_CHECKPOINT_SECONDS", "2");
        command.spawn()
    };
    let stopped = terminate_inside_subtrees(spawn, &file, 57);
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("stopped on request") && stderr.contains("korf49.checkpoint"),
        "{stderr}"
    );
    let saved = Checkpoint::load(&file).unwrap().expect("the checkpoint");
    assert!(saved.bound >= 57);
    assert!(
        !saved.partial.is_empty() && saved.partial.len() <= 2,
        "subtrees stopped part way: {:?}",
        saved.partial.keys()
    );
    assert!(saved.partial.values().all(|p| p.expanded > 0));
    let resumed = solve(&file, KORF_49).output();
    assert_eq!(length(&resumed), 59, "Korf's published length");
    assert!(!file.exists());
}
