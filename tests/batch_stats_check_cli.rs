//! `npuzzle stats` and `npuzzle check` end to end, cross-checked against tables the library
//! builds in memory.

mod common;
mod reseal;

use std::path::Path;
use std::process::Output;

use common::TestCommand;
use npuzzle::store::file::file_name;
use npuzzle::{Board, BuildOptions, State, Table};

fn npuzzle(args: &[&str], data_dir: &Path) -> Output {
    TestCommand::new().data_dir(data_dir).args(args).output()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON object")
}

#[test]
fn stats_json_matches_a_recount_of_the_table_body() {
    let dir = tempfile::tempdir().unwrap();
    for goal_text in ["123456780", "087654321", "1 2 3 8 0 4 7 6 5", "123/450"] {
        let goal: State = goal_text.parse().unwrap();
        let table = Table::build(
            &State::canonical_goal(goal.board(), goal.blank()),
            BuildOptions::default(),
        )
        .unwrap();
        let recount = table.recount_depths();
        let stats = json(&npuzzle(
            &["stats", "--json", "--goal", goal_text],
            dir.path(),
        ));
        let counts: Vec<u64> = stats["counts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        assert_eq!(counts, recount, "{goal_text}");
        let total: u64 = counts.iter().sum();
        assert_eq!(stats["total"], total);
        assert_eq!(total, table.space().states() as u64);
        assert_eq!(stats["goal"], goal.to_string());
        assert_eq!(stats["board"], goal.board().to_string());
        let max_depth = counts.len() - 1;
        assert_eq!(stats["max_depth"], max_depth);
        let mean: f64 = counts
            .iter()
            .enumerate()
            .map(|(d, &c)| (d as u64 * c) as f64)
            .sum::<f64>()
            / total as f64;
        assert!((stats["mean_depth"].as_f64().unwrap() - mean).abs() < 1e-9);
        assert_eq!(stats["max_depth_count"], counts[max_depth]);
        // The farthest states, in the goal's own labels: each really is max_depth away.
        let farthest = stats["max_depth_states"].as_array().unwrap();
        assert_eq!(farthest.len() as u64, counts[max_depth].min(20));
        for state in farthest {
            let state: State = state.as_str().unwrap().parse().unwrap();
            assert_eq!(
                table.distance_to(&state, &goal).unwrap(),
                Some(max_depth as u8),
                "{goal_text}: {state}"
            );
        }
    }
}

#[test]
fn stats_of_the_default_goal_names_the_two_hardest_states() {
    let dir = tempfile::tempdir().unwrap();
    let out = npuzzle(&["stats"], dir.path());
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("goal 123456780 (3x3 board)\n"),
        "{stdout}"
    );
    assert!(stdout.contains("states:     181440\n"), "{stdout}");
    assert!(stdout.contains("max depth:  31 (2 states)\n"), "{stdout}");
    // The hardest states are found by scanning the table, not from a list in the code:
    // check them against the library.
    let table = Table::build(&State::goal(Board::THREE_BY_THREE), BuildOptions::default()).unwrap();
    let listed: Vec<State> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("states at depth 31"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().parse().unwrap())
        .collect();
    assert_eq!(listed.len(), 2);
    for state in &listed {
        assert_eq!(table.distance(state).unwrap(), Some(31));
    }
    // One histogram line per depth.
    let bars = stdout
        .lines()
        .skip_while(|l| !l.starts_with("depth  states"))
        .skip(1)
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|d| d.parse::<u32>().is_ok())
        })
        .count();
    assert_eq!(bars, 32);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("built table"),
        "the table is built on first use: {stderr}"
    );
}

#[test]
fn stats_draws_svg_and_png_plots_with_a_title_naming_the_goal() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("depths.svg");
    let png = dir.path().join("depths.png");
    let out = npuzzle(
        &[
            "stats",
            "--goal",
            "1 2 3 8 0 4 7 6 5",
            "--svg",
            svg.to_str().unwrap(),
            "--png",
            png.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(
        drawn.starts_with("<svg"),
        "{}",
        &drawn[..80.min(drawn.len())]
    );
    assert!(drawn.contains("Distances to goal 123804765 (3x3 board, 181440 states)"));
    assert!(drawn.contains("depth: moves to the goal") && drawn.contains(">\nstates\n<"));
    assert!(drawn.matches("<rect").count() >= 30, "a bar per depth");
    let image = std::fs::read(&png).unwrap();
    assert!(image.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG file");
    assert!(image.len() > 10_000, "a drawn image, not an empty one");
}

#[test]
fn stats_refuses_what_it_cannot_do_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let unwritable = dir.path().join("no/such/dir/plot.svg");
    let unwritable_png = dir.path().join("no/such/dir/plot.png");
    let not_png = dir.path().join("plot.txt");
    let svg = dir.path().join("plot.svg");
    let svg_then_not_png = vec![
        "stats",
        "--svg",
        svg.to_str().unwrap(),
        "--png",
        not_png.to_str().unwrap(),
    ];
    for args in [
        vec!["stats", "--goal", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"],
        vec!["stats", "--svg", unwritable.to_str().unwrap()],
        vec!["stats", "--png", unwritable_png.to_str().unwrap()],
        svg_then_not_png.clone(),
    ] {
        let out = npuzzle(&args, dir.path());
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.lines().last().unwrap().starts_with("npuzzle: "),
            "{stderr}"
        );
        assert!(out.stdout.is_empty());
    }
    for (flag, path) in [("--svg", &unwritable), ("--png", &unwritable_png)] {
        let stderr = text(&npuzzle(&["stats", flag, path.to_str().unwrap()], dir.path()).stderr);
        assert_eq!(
            stderr,
            format!(
                "npuzzle: cannot write {}: No such file or directory (os error 2)\n",
                path.display()
            ),
            "the system's reason, not the drawing backend's debug text"
        );
    }
    let stderr = text(&npuzzle(&svg_then_not_png, dir.path()).stderr);
    assert!(
        stderr.contains("--png needs a file name ending in .png"),
        "{stderr}"
    );
    assert!(
        !svg.exists(),
        "the bad --png name is refused before the SVG is drawn"
    );
}

/// Runs `check` with `args`, asserts that it passes, and returns its stdout.
fn passing_check(args: &[&str], dir: &Path) -> String {
    let out = npuzzle(args, dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Builds the default table into `dir` and returns its path.
fn built_table(dir: &Path) -> std::path::PathBuf {
    let out = npuzzle(&["build"], dir);
    assert_eq!(out.status.code(), Some(0));
    dir.join(file_name(&State::goal(Board::THREE_BY_THREE)))
}

#[test]
fn check_passes_a_good_table_and_prints_what_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    let path = built_table(dir.path());
    for args in [
        vec!["check"],
        vec!["check", path.to_str().unwrap(), "--deep"],
    ] {
        let stdout = passing_check(&args, dir.path());
        assert!(stdout.contains("goal:          123456780\n"), "{stdout}");
        assert!(stdout.contains("entries:       181440\n"), "{stdout}");
        assert!(stdout.contains("max depth:     31\n"), "{stdout}");
        assert!(
            stdout.lines().last().unwrap().starts_with("ok: "),
            "{stdout}"
        );
        assert_eq!(stdout.contains("deep check"), args.contains(&"--deep"));
    }
    let serves = npuzzle(&["check", "--goal", "876543210"], dir.path());
    assert_eq!(
        serves.status.code(),
        Some(0),
        "the blank-last table serves any blank-last goal"
    );
}

#[test]
fn a_damaged_table_of_the_data_directory_gets_the_command_that_rebuilds_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = built_table(dir.path());
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let out = npuzzle(&["check"], dir.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("npuzzle: damaged: "), "{stderr}");
    assert!(
        stderr
            .trim_end()
            .ends_with("rebuild it with `npuzzle build`"),
        "{stderr}"
    );
    // A file named on the command line is the caller's: no data-directory command is offered.
    let out = npuzzle(&["check", path.to_str().unwrap()], dir.path());
    assert!(!text(&out.stderr).contains("npuzzle build"));
}

#[test]
fn check_finds_damage_with_exit_code_1() {
    let dir = tempfile::tempdir().unwrap();
    let path = built_table(dir.path());
    let good = std::fs::read(&path).unwrap();
    let header_len = u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize;
    let damaged = dir.path().join("damaged.npt");
    let run = |bytes: &[u8], deep: bool| {
        std::fs::write(&damaged, bytes).unwrap();
        let mut args = vec!["check", damaged.to_str().unwrap()];
        if deep {
            args.push("--deep");
        }
        npuzzle(&args, dir.path())
    };

    let mut flipped = good.clone();
    flipped[header_len + 1000] ^= 0x04;
    let mut truncated = good.clone();
    truncated.truncate(good.len() - 1);
    let mut magic = good.clone();
    magic[0] = b'X';
    for (bytes, needle) in [
        (flipped, "corrupt body"),
        (truncated, "truncated"),
        (magic, "not an npuzzle table"),
    ] {
        let out = run(&bytes, false);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.starts_with("npuzzle: damaged: ") && stderr.contains(needle),
            "{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1);
    }

    // A wrong entry with both checksums rewritten: the body's histogram no longer matches the
    // header's counts, so even the plain check sees it.
    let mut wrong = good.clone();
    let index = (1..good.len() - header_len)
        .find(|&i| good[header_len + i] > 2)
        .unwrap();
    wrong[header_len + index] -= 2;
    reseal::reseal_body(&mut wrong);
    let out = run(&wrong, false);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("the header says"),
        "{}",
        text(&out.stderr)
    );

    // Two entries of different depths swapped, checksums rewritten: the histogram still
    // matches, so only --deep (every entry against its neighbours) sees it.
    let mut swapped = good.clone();
    let (a, b) = (header_len + index, header_len + index + 1);
    let b = (b..good.len()).find(|&j| good[j] != good[a]).unwrap();
    swapped.swap(a, b);
    reseal::reseal_body(&mut swapped);
    assert_eq!(run(&swapped, false).status.code(), Some(0));
    let out = run(&swapped, true);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("disagrees with its neighbours"), "{stderr}");

    // Header counts that do not match the body (still summing to the entry count).
    let mut counts = good.clone();
    let at = |d: usize| 88 + 8 * d;
    let c30 = u64::from_le_bytes(counts[at(30)..at(30) + 8].try_into().unwrap());
    let c29 = u64::from_le_bytes(counts[at(29)..at(29) + 8].try_into().unwrap());
    counts[at(30)..at(30) + 8].copy_from_slice(&(c30 - 1).to_le_bytes());
    counts[at(29)..at(29) + 8].copy_from_slice(&(c29 + 1).to_le_bytes());
    reseal::reseal_body(&mut counts);
    let out = run(&counts, false);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the header says"), "{stderr}");
}

#[test]
fn check_cannot_read_missing_paths_or_directories_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.npt");
    for args in [
        vec!["check", missing.to_str().unwrap()],
        vec!["check", dir.path().to_str().unwrap()],
        vec!["check"],
    ] {
        let out = npuzzle(&args, dir.path());
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("npuzzle: cannot read table"), "{stderr}");
    }
    // A valid table that does not serve the goal asked for: a negative answer.
    let path = built_table(dir.path());
    let out = npuzzle(
        &["check", path.to_str().unwrap(), "--goal", "012345678"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("does not serve goal 012345678"));
}

#[test]
fn check_finds_a_small_boards_table_by_size_and_names_the_build_command_when_missing() {
    let dir = tempfile::tempdir().unwrap();
    let missing = npuzzle(&["check", "--size", "3x2"], dir.path());
    let stderr = text(&missing.stderr);
    assert_eq!(missing.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("npuzzle build --size 3x2"),
        "the hint names the command that builds the table: {stderr}"
    );

    let spaced = npuzzle(&["check", "--goal", "1 2 3/4 5 0"], dir.path());
    assert!(
        text(&spaced.stderr).contains("npuzzle build --goal '1 2 3/4 5 0'`"),
        "a goal with spaces is quoted in the hint: {}",
        text(&spaced.stderr)
    );
    let too_big = npuzzle(&["check", "--size", "4x4"], dir.path());
    assert_eq!(too_big.status.code(), Some(2));
    assert!(
        text(&too_big.stderr).contains("no exact table for the 4x4 board"),
        "not a hint to build a table that cannot be built: {}",
        text(&too_big.stderr)
    );

    let built = npuzzle(&["build", "--size", "3x2"], dir.path());
    assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
    for args in [
        vec!["check", "--size", "3x2"],
        vec!["check", "--size", "3x2", "--goal", "123450", "--deep"],
    ] {
        let stdout = passing_check(&args, dir.path());
        assert!(stdout.contains("goal:          123/450\n"), "{stdout}");
        assert!(stdout.contains("entries:       360\n"), "{stdout}");
    }
}
