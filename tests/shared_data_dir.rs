//! Processes sharing one empty data directory (Dask workers, a cluster's shared path) build
//! each database file once: the first takes the file's lock, the others wait and open it.

mod common;

use common::TestCommand;

#[test]
fn two_processes_on_one_empty_directory_build_each_file_once() {
    let dir = tempfile::tempdir().unwrap();
    let spawn = || {
        TestCommand::new()
            .args(["solve", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"])
            .args([
                "--heuristic",
                "pdb",
                "--algorithm",
                "idastar",
                "-f",
                "moves",
            ])
            .data_dir(dir.path())
            .spawn()
    };
    let (a, b) = (spawn(), spawn());
    let outputs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
    let mut built = Vec::new();
    for output in &outputs {
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "R");
        built.extend(
            stderr
                .lines()
                .filter(|l| l.contains("note: built"))
                .map(str::to_string),
        );
    }
    // 6-6-3: three files, each built by one of the two.
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".npt"))
        .collect();
    assert_eq!(files.len(), 3, "{files:?}");
    assert_eq!(built.len(), files.len(), "{built:#?}");
    // The lock files are removed once the files are built (the record of verified files,
    // `.npuzzle-verified`, stays).
    let locks: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".lock"))
        .collect();
    assert!(locks.is_empty(), "{locks:?}");
}
