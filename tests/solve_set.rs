//! The set runner (`npuzzle::instance_set`): on a small file of 3x3 instances whose published
//! lengths come from the exact table, every solution is checked and appended; an instance
//! with a wrong published length is reported and not appended; a restart skips the finished
//! lines and searches only the rest; a run over a subset (`only`) shares the results file;
//! a tampered results line is refused, naming its line, and a last line cut short by a kill
//! is removed and its instance solved again; with a checkpoint directory, a solved instance's
//! checkpoint is removed only once its line is written.

use std::cell::Cell;

use npuzzle::heuristic::LinearConflict;
use npuzzle::instance_set::{self, SetError};
use npuzzle::rng::SplitMix64;
use npuzzle::search::{self, Algorithm, Limits};
use npuzzle::{Board, How, Move, Oracle, Solution, State};

#[test]
fn finished_lines_survive_restarts_and_wrong_lengths_are_reported() {
    let board = Board::THREE_BY_THREE;
    let goal = State::canonical_goal(board, 0);
    let oracle = Oracle::in_memory();
    let mut rng = SplitMix64::new(50);
    let mut text = String::from("# id tiles published_length\n");
    for id in 0..6 {
        let mut state = goal;
        for _ in 0..40 {
            let moves: Vec<State> = state.successors().map(|(_, s)| s).collect();
            state = moves[(rng.next_u64() % moves.len() as u64) as usize];
        }
        let exact = oracle
            .distance(&state, &goal, How::default())
            .unwrap()
            .value
            .unwrap() as u32;
        // Instance 3's published length is wrong.
        let published = if id == 3 { exact + 2 } else { exact };
        let tiles: Vec<String> = state.cells().iter().map(|t| t.to_string()).collect();
        text += &format!("i{id} {} {published} 123\n", tiles.join(" "));
    }
    let set = instance_set::parse_instances(&text, board).unwrap();
    assert_eq!(set.len(), 6);
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.txt");
    let h = LinearConflict::new(&goal);
    let searched = Cell::new(0);
    let solve = |instance: &instance_set::Instance| {
        searched.set(searched.get() + 1);
        ida_star(&h, &instance.start)
    };
    // What the run shows as each instance ends: its id and the outcome, in order.
    let mut seen = Vec::new();
    let observe = |instance: &instance_set::Instance, outcome: &Result<_, SetError>| {
        seen.push((instance.id.clone(), outcome.clone()));
    };
    let first = instance_set::run(&set, None, &goal, &results, None, solve, observe).unwrap();
    assert_eq!((first.skipped, first.solved.len()), (0, 5));
    assert_eq!(first.failed.len(), 1);
    assert!(
        matches!(&first.failed[0], SetError::Mismatch { id, why } if id == "i3" && why.contains("published")),
        "{:?}",
        first.failed
    );
    // Each instance searched is shown once, in the set's order, with what the summary holds.
    let ids: Vec<&str> = seen.iter().map(|(id, _)| id.as_str()).collect();
    let in_order: Vec<&str> = set.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, in_order);
    let shown_solved: Vec<_> = seen.iter().filter_map(|(_, o)| o.clone().ok()).collect();
    assert_eq!(shown_solved, first.solved);
    let shown_failed: Vec<_> = seen.iter().filter_map(|(_, o)| o.clone().err()).collect();
    assert_eq!(shown_failed, first.failed);
    assert!(
        matches!(&seen[3], (id, Err(SetError::Mismatch { .. })) if id == "i3"),
        "{seen:?}"
    );
    // The solution that failed its check is in the error, so the search is not lost: its
    // moves replay from i3's start to the goal.
    let SetError::Mismatch { why, .. } = &first.failed[0] else {
        unreachable!()
    };
    let letters = why.rsplit(": ").next().unwrap().trim_end_matches(')');
    let moves: Vec<_> = letters
        .chars()
        .map(|c| Move::from_letter(c).unwrap())
        .collect();
    assert_eq!(
        Solution::from_moves(set[3].start, moves).unwrap().end(),
        goal,
        "{why}"
    );
    let written = std::fs::read_to_string(&results).unwrap();
    assert_eq!(written.lines().count(), 5);
    assert!(!written.contains("i3\t"));
    for line in written.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 5, "{line}");
        assert_eq!(fields[4].len(), fields[1].parse::<usize>().unwrap());
    }
    assert_eq!(searched.get(), 6);

    // The same run, its outcomes not shown.
    let quiet = |only: Option<&[String]>| {
        instance_set::run(&set, only, &goal, &results, None, solve, |_, _| {})
    };
    // A restart searches only the unfinished instance (which fails again).
    let again = quiet(None).unwrap();
    assert_eq!(
        (again.skipped, again.solved.len(), again.failed.len()),
        (5, 0, 1)
    );
    assert_eq!(searched.get(), 7);
    assert_eq!(std::fs::read_to_string(&results).unwrap(), written);

    // A run over a subset reads the same results file, lines outside the subset included,
    // and searches only the subset's unfinished instance; an unknown id is refused before
    // anything is searched.
    let only = ["i3".to_string(), "i0".to_string()];
    let subset = quiet(Some(&only)).unwrap();
    assert_eq!(
        (subset.skipped, subset.solved.len(), subset.failed.len()),
        (1, 0, 1)
    );
    assert_eq!(searched.get(), 8);
    let unknown = ["i0".to_string(), "i9".to_string()];
    let refused = quiet(Some(&unknown));
    assert!(
        matches!(&refused, Err(SetError::UnknownId { id }) if id == "i9"),
        "{refused:?}"
    );
    assert_eq!(searched.get(), 8);
    assert_eq!(std::fs::read_to_string(&results).unwrap(), written);

    // A line whose moves were changed is refused, naming its line.
    let first_line = written.lines().next().unwrap();
    let (head, moves) = first_line.rsplit_once('\t').unwrap();
    let flipped: String = moves
        .chars()
        .map(|c| match c {
            'U' => 'D',
            'D' => 'U',
            other => other,
        })
        .collect();
    let tampered = written.replacen(first_line, &format!("{head}\t{flipped}"), 1);
    std::fs::write(&results, tampered).unwrap();
    let refused = quiet(None);
    assert!(
        matches!(refused, Err(SetError::BadResult { line: 1, .. })),
        "{refused:?}"
    );
    assert_eq!(searched.get(), 8);
}

#[test]
fn malformed_instance_lines_are_named() {
    let board = Board::THREE_BY_THREE;
    for (text, line) in [
        ("a 1 2 3\n", 1),
        ("# c\na 1 2 3 4 5 6 7 8 9 0\n", 2),
        ("a 1 2 3 4 5 6 7 8 0 x\n", 1),
        ("a 1 2 3 4 5 6 7 8 0\na 1 2 3 4 5 6 7 0 8\n", 2),
    ] {
        let error = instance_set::parse_instances(text, board).unwrap_err();
        let named = match error {
            SetError::BadInstance { line, .. } | SetError::DuplicateId { line, .. } => line,
            other => panic!("{other:?}"),
        };
        assert_eq!(named, line, "{text}");
    }
}

/// A solver that says why it ran no search for an instance: that instance is reported as
/// unsolved with the reason, not appended, and the others are solved.
#[test]
fn a_solver_refusing_one_instance_leaves_the_others_solved() {
    let (goal, set, _dir, results) =
        small_set("a 1 2 3 4 5 6 7 0 8 1\nb 1 2 3 4 5 6 0 7 8 2\nc 1 2 3 4 0 5 7 8 6 2\n");
    let h = LinearConflict::new(&goal);
    let solve = |instance: &instance_set::Instance| {
        if instance.id == "b" {
            return Err("no search for b".to_string());
        }
        ida_star(&h, &instance.start)
    };
    let mut errors = Vec::new();
    let summary = instance_set::run(&set, None, &goal, &results, None, solve, |_, outcome| {
        errors.extend(outcome.clone().err());
    })
    .unwrap();
    assert_eq!(summary.solved.len(), 2);
    assert!(
        matches!(&summary.failed[..], [SetError::Unsolved { id, why }] if id == "b" && why == "no search for b"),
        "{:?}",
        summary.failed
    );
    assert_eq!(errors, summary.failed);
    let written = std::fs::read_to_string(&results).unwrap();
    let ids: Vec<&str> = written
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(ids, ["a", "c"]);
}

/// Ids name checkpoint files, so an id that is a path (or hidden) is refused, naming its
/// line; results lines with seconds that are not a duration are refused too.
#[test]
fn ids_that_are_paths_and_seconds_that_are_not_durations_are_refused() {
    let board = Board::THREE_BY_THREE;
    for (text, line) in [
        ("../x 1 2 3 4 5 6 7 8 0\n", 1),
        ("ok 1 2 3 4 5 6 7 8 0\n/tmp/x 1 2 3 4 5 6 7 8 0\n", 2),
        (".hidden 1 2 3 4 5 6 7 8 0\n", 1),
        ("a\\b 1 2 3 4 5 6 7 8 0\n", 1),
        (&format!("{} 1 2 3 4 5 6 7 8 0\n", "i".repeat(101)), 1),
        // The columns after the length are counts: a word there is refused, not skipped
        // (skipping it made an earlier number the "last", and the order wrong).
        ("a 1 2 3 4 5 6 7 8 0 0 12 x\n", 1),
        ("a 1 2 3 4 5 6 7 8 0 0 99999999999999999999999\n", 1),
        ("a 1 2 3 4 5 6 7 8 0 0 +5\n", 1),
        ("a +1 2 3 4 5 6 7 8 0\n", 1),
        ("a 1 2 3 4 5 6 7 8 0 +0\n", 1),
    ] {
        let error = instance_set::parse_instances(text, board).unwrap_err();
        assert!(
            matches!(error, SetError::BadInstance { line: l, .. } if l == line),
            "{text}: {error:?}"
        );
    }
    let goal = State::goal(board);
    let set = instance_set::parse_instances("a 1 2 3 4 5 6 7 0 8 1\n", board).unwrap();
    for seconds in ["NaN", "inf", "-1", "x"] {
        let line = format!("a\t1\t3\t{seconds}\tR\n");
        let error = instance_set::parse_results(&line, &set, &goal).unwrap_err();
        assert!(
            matches!(error, SetError::BadResult { line: 1, .. }),
            "{seconds}: {error:?}"
        );
    }
    assert!(instance_set::parse_results("a\t1\t3\t0.5\tR\n", &set, &goal).is_ok());
    // Counts are digits only and moves the capitals U D L R: what the runner writes.
    for line in [
        "a\t1\t+3\t0.5\tR\n",
        "a\t+1\t3\t0.5\tR\n",
        "a\t1\t3\t0.5\tr\n",
    ] {
        let error = instance_set::parse_results(line, &set, &goal).unwrap_err();
        assert!(
            matches!(error, SetError::BadResult { line: 1, .. }),
            "{line:?}: {error:?}"
        );
    }
    // An editor's byte-order mark is not part of the first id.
    let with_bom = instance_set::parse_instances("\u{feff}a 1 2 3 4 5 6 7 0 8 1\n", board);
    assert_eq!(with_bom.unwrap(), set);
    let line = "\u{feff}a\t1\t3\t0.5\tR\n";
    assert_eq!(
        instance_set::parse_results(line, &set, &goal).unwrap()[0].id,
        "a"
    );
}

/// Two lines for one instance (runs sharing the file) count once when they agree on the
/// length and are refused when they do not; a byte-order mark inside the file (files joined
/// with `cat`) is no part of an id.
#[test]
fn duplicate_lines_must_agree_and_inner_byte_order_marks_are_ignored() {
    let board = Board::THREE_BY_THREE;
    let goal = State::goal(board);
    let set =
        instance_set::parse_instances("a 1 2 3 4 5 6 7 0 8\nb 1 2 3 4 5 6 0 7 8\n", board).unwrap();
    let twice = "a\t1\t3\t0.5\tR\n\u{feff}a\t1\t4\t0.7\tR\n";
    let finished = instance_set::parse_results(twice, &set, &goal).unwrap();
    assert_eq!(finished.len(), 1);
    assert_eq!(finished[0].nodes, 3);
    let disagree = "a\t1\t3\t0.5\tR\nb\t2\t3\t0.5\tRR\na\t3\t3\t0.5\tRLR\n";
    let error = instance_set::parse_results(disagree, &set, &goal).unwrap_err();
    assert!(
        matches!(&error, SetError::BadResult { line: 3, why } if why.contains("on line 1")),
        "{error:?}"
    );
}

/// An instance that another run sharing the results file finished while this run searched
/// the one before is not searched again.
#[test]
fn an_instance_another_run_finished_meanwhile_is_skipped() {
    let board = Board::THREE_BY_THREE;
    let goal = State::goal(board);
    let set = instance_set::parse_instances(
        "a 1 2 3 4 5 6 7 0 8\nb 1 2 3 4 5 6 0 7 8\nc 1 2 3 4 5 0 7 8 6\n",
        board,
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.txt");
    let h = LinearConflict::new(&goal);
    let searched = std::cell::RefCell::new(Vec::new());
    let solve = |instance: &instance_set::Instance| {
        searched.borrow_mut().push(instance.id.clone());
        if instance.id == "a" {
            // Meanwhile another run appends b's line.
            use std::io::Write as _;
            let mut other = std::fs::OpenOptions::new()
                .append(true)
                .open(&results)
                .unwrap();
            other.write_all(b"b\t2\t5\t0.100\tRR\n").unwrap();
        }
        ida_star(&h, &instance.start)
    };
    let summary = instance_set::run(&set, None, &goal, &results, None, solve, |_, _| {}).unwrap();
    assert_eq!(*searched.borrow(), ["a", "c"]);
    assert_eq!((summary.skipped, summary.solved.len()), (1, 2));
    let text = std::fs::read_to_string(&results).unwrap();
    assert_eq!(
        instance_set::parse_results(&text, &set, &goal)
            .unwrap()
            .len(),
        3
    );
}

/// A last line cut short (no end of line, does not check) is set apart by `read_results` and
/// removed by `run`, which solves its instance again; a complete last line without its end of
/// line counts and is finished; a bad line elsewhere is still refused.
#[test]
fn a_cut_last_line_is_removed_and_its_instance_solved_again() {
    let board = Board::THREE_BY_THREE;
    let goal = State::goal(board);
    let set = instance_set::parse_instances(
        "a 1 2 3 4 5 6 7 0 8 1\nb 1 2 3 4 5 6 0 7 8 2\nc 1 2 3 4 5 0 7 8 6 1\n",
        board,
    )
    .unwrap();
    let h = LinearConflict::new(&goal);
    let solve = |instance: &instance_set::Instance| ida_star(&h, &instance.start);
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.txt");
    let run = |only: Option<&[String]>| {
        instance_set::run(&set, only, &goal, &results, None, solve, |_, _| {})
    };

    std::fs::write(&results, "a\t1\t3\t0.5\tR\nb\t2\t9\t0.").unwrap();
    let read = instance_set::read_results(&results, &set, &goal).unwrap();
    assert_eq!(read.finished.len(), 1);
    assert_eq!(read.cut, Some((2, "b\t2\t9\t0.".to_string())));
    let summary = run(None).unwrap();
    assert_eq!(summary.cut, read.cut);
    assert_eq!((summary.skipped, summary.solved.len()), (1, 2));
    let text = std::fs::read_to_string(&results).unwrap();
    assert!(text.starts_with("a\t1\t3\t0.5\tR\nb\t2\t"), "{text:?}");
    assert_eq!(
        instance_set::parse_results(&text, &set, &goal)
            .unwrap()
            .len(),
        3
    );

    // A whole last line without its end of line: kept, finished, not searched again.
    std::fs::write(&results, "a\t1\t3\t0.5\tR").unwrap();
    let summary = run(Some(&["a".to_string(), "c".to_string()])).unwrap();
    assert_eq!(
        (summary.skipped, summary.solved.len(), summary.cut),
        (1, 1, None)
    );
    let text = std::fs::read_to_string(&results).unwrap();
    assert!(text.starts_with("a\t1\t3\t0.5\tR\nc\t1\t"), "{text:?}");

    // A bad line with its end of line is no cut write: refused, naming it, the file untouched.
    let bad = "b\t2\t9\t0.\na\t1\t3\t0.5\tR\n";
    std::fs::write(&results, bad).unwrap();
    let error = run(None).unwrap_err();
    assert!(
        matches!(error, SetError::BadResult { line: 1, .. }),
        "{error:?}"
    );
    assert_eq!(std::fs::read_to_string(&results).unwrap(), bad);
}

/// With a checkpoint directory, `run` removes a solved instance's checkpoint and seconds once
/// its line is in the results file (the solver kept them: a kill before the line is written
/// must not lose the search), and leaves an unsolved instance's for the next run.
#[test]
fn a_solved_instances_checkpoint_is_removed_after_its_line_is_written() {
    let (goal, set, dir, results) = small_set("a 1 2 3 4 5 6 7 0 8 1\nb 1 2 3 4 5 6 0 7 8 2\n");
    let checkpoints = dir.path().join("checkpoints");
    std::fs::create_dir(&checkpoints).unwrap();
    let files = |id: &str| {
        [
            checkpoints.join(format!("{id}.checkpoint")),
            checkpoints.join(format!("{id}.seconds")),
        ]
    };
    let h = LinearConflict::new(&goal);
    let solve = |instance: &instance_set::Instance| {
        // What a solver that keeps its checkpoint leaves behind (the contents do not matter
        // here), seen still there when the line is not yet written.
        for file in files(&instance.id) {
            std::fs::write(file, "kept\n").unwrap();
        }
        if instance.id == "b" {
            return Err("stopped before its path".to_string());
        }
        ida_star(&h, &instance.start)
    };
    let mut seen = Vec::new();
    let summary = instance_set::run(
        &set,
        None,
        &goal,
        &results,
        Some(&checkpoints),
        solve,
        |instance, outcome| {
            let lines = std::fs::read_to_string(&results).unwrap();
            let left = files(&instance.id).iter().filter(|f| f.exists()).count();
            seen.push((
                instance.id.clone(),
                outcome.is_ok(),
                lines.lines().count(),
                left,
            ));
        },
    )
    .unwrap();
    assert_eq!((summary.solved.len(), summary.failed.len()), (1, 1));
    // a: its line written, then its files removed; b: not solved, its files kept.
    assert_eq!(
        seen,
        [
            ("a".to_string(), true, 1, 0),
            ("b".to_string(), false, 1, 2)
        ]
    );
    assert!(files("b").iter().all(|f| f.exists()));
}

/// 3x3 instances from `text` (to the goal, blank last), and a temporary directory with the
/// path of a results file in it.
fn small_set(
    text: &str,
) -> (
    State,
    Vec<instance_set::Instance>,
    tempfile::TempDir,
    std::path::PathBuf,
) {
    let board = Board::THREE_BY_THREE;
    let set = instance_set::parse_instances(text, board).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.txt");
    (State::goal(board), set, dir, results)
}

/// `start` solved by IDA* with `h` and no limit, as a set's solver answers.
fn ida_star(h: &LinearConflict, start: &State) -> Result<npuzzle::SearchResult, String> {
    Ok(search::run_with(
        Algorithm::IdaStar,
        h,
        start,
        Limits::default(),
    ))
}
