//! Parallel IDA* (`Limits::threads`, `parallel_idastar`) against the exact tables of 3x3 and
//! 3x4 on sampled states, and against the published lengths of the ten easiest of Korf's 100,
//! at 1, 2 and 4 threads; the deterministic mode against the sequential search's path.

mod references;
mod search_support;

use npuzzle::heuristic::{Heuristic, LinearConflict, Manhattan};
use npuzzle::search::checkpoint::Checkpoint;
use npuzzle::search::Limit;
use npuzzle::search::{idastar, parallel_idastar_with, Splitting, SubtreeOrder};
use npuzzle::{Board, BuildOptions, Limits, Outcome, SearchResult, State, Table};
use search_support::{table, Rng};

const THREADS: [usize; 3] = [1, 2, 4];

/// Parallel IDA* splitting every iteration, so that the split and the threads run even on
/// the small trees of 3x3 and 3x4 (the default runs small iterations on one thread).
fn parallel_idastar<H: Heuristic + Sync>(start: &State, h: &H, limits: Limits) -> SearchResult {
    parallel_idastar_with(start, h, limits, Splitting::EveryIteration)
}

/// The `count` easiest of Korf's 100: start, goal and published length.
fn korf(count: usize) -> Vec<(State, State, usize)> {
    references::easiest(references::korf100(), count)
        .into_iter()
        .map(|i| (i.start, i.goal, i.optimal as usize))
        .collect()
}

/// `result` is a legal path from `start` to `goal` of `expected` moves.
fn assert_exact(result: &SearchResult, start: &State, goal: &State, expected: usize, what: &str) {
    let solution = result
        .solution()
        .unwrap_or_else(|| panic!("{what}: no path from {start}: {:?}", result.outcome));
    assert_eq!(solution.start(), *start, "{what}");
    assert_eq!(solution.end(), *goal, "{what}: from {start} ends elsewhere");
    assert_eq!(solution.len(), expected, "{what}: from {start}");
    assert!(
        result.expanded > 0 || expected == 0,
        "{what}: nodes counted"
    );
}

#[test]
fn every_sampled_3x3_state_gets_its_exact_distance_at_1_2_and_4_threads() {
    let table = table();
    let goal = *table.goal();
    let h = Manhattan::new(&goal);
    let mut rng = Rng::new(0x9a7a);
    let mut starts: Vec<State> = (0..300).map(|_| rng.table_state(table)).collect();
    starts.extend(search_support::states_at_depth(table, 31));
    starts.push(goal);
    for start in &starts {
        let expected = table.distance(start).unwrap().unwrap() as usize;
        for threads in THREADS {
            let result = parallel_idastar(start, &h, Limits::default().threads(threads));
            assert_exact(
                &result,
                start,
                &goal,
                expected,
                &format!("{threads} threads"),
            );
        }
    }
}

#[test]
fn every_sampled_3x4_state_gets_its_exact_distance_at_1_2_and_4_threads() {
    let board = Board::new(3, 4).unwrap();
    let goal = State::goal(board);
    let table = Table::build(&goal, BuildOptions::default()).unwrap();
    let h = LinearConflict::new(&goal);
    let mut rng = Rng::new(0x3b4);
    for _ in 0..60 {
        let start = rng.table_state(&table);
        let expected = table.distance(&start).unwrap().unwrap() as usize;
        for threads in THREADS {
            let limits = Limits::default().threads(threads);
            let result = parallel_idastar(&start, &h, limits);
            assert_exact(
                &result,
                &start,
                &goal,
                expected,
                &format!("{threads} threads"),
            );
        }
    }
}

#[test]
fn the_ten_easiest_of_korfs_100_get_their_published_lengths_at_1_2_and_4_threads() {
    let instances = korf(10);
    assert_eq!(instances.len(), 10);
    for (start, goal, optimal) in &instances {
        let h = LinearConflict::new(goal);
        for threads in THREADS {
            let result = parallel_idastar(start, &h, Limits::default().threads(threads));
            let what = format!("Korf's {start} at {threads} threads");
            assert_exact(&result, start, goal, *optimal, &what);
        }
        // The default: small iterations on one thread, large ones split.
        let result = npuzzle::search::parallel_idastar(start, &h, Limits::default().threads(2));
        assert_exact(
            &result,
            start,
            goal,
            *optimal,
            &format!("Korf's {start} adaptive"),
        );
    }
}

#[test]
fn the_deterministic_mode_returns_the_sequential_path_every_run() {
    let table = table();
    let goal = *table.goal();
    let h = LinearConflict::new(&goal);
    let mut rng = Rng::new(0xde7);
    let mut starts: Vec<State> = (0..40).map(|_| rng.table_state(table)).collect();
    starts.extend(search_support::states_at_depth(table, 31));
    let korf = korf(2);
    for start in &starts {
        let alone = idastar(start, &h, Limits::default());
        for threads in [2, 4] {
            for _ in 0..3 {
                let limits = Limits::default().threads(threads).deterministic(true);
                let result = parallel_idastar(start, &h, limits);
                assert_eq!(result.solution(), alone.solution(), "{start} at {threads}");
            }
        }
    }
    for (start, goal, _) in &korf {
        let h = LinearConflict::new(goal);
        let alone = idastar(start, &h, Limits::default());
        for _ in 0..3 {
            let limits = Limits::default().threads(4).deterministic(true);
            let result = parallel_idastar(start, &h, limits);
            assert_eq!(result.solution(), alone.solution(), "Korf's {start}");
        }
    }
}

#[test]
fn nodes_are_summed_over_the_threads() {
    // Every iteration but the last is searched in full by any number of threads, and the
    // last at least as far as the sequential search goes into it: the sum over the threads
    // is never below the sequential count, and every node is counted once (the split's nodes
    // are not searched again), so one thread stays close to it.
    let goal = *table().goal();
    let h = Manhattan::new(&goal);
    for text in ["867254301", "647850321"] {
        let start: State = text.parse().unwrap();
        let alone = idastar(&start, &h, Limits::default());
        for threads in THREADS {
            let r = parallel_idastar(&start, &h, Limits::default().threads(threads));
            assert_eq!(
                r.solution().map(|s| s.len()),
                alone.solution().map(|s| s.len())
            );
            assert!(r.expanded >= alone.expanded, "{text} at {threads}");
            assert!(r.generated >= r.expanded, "{text} at {threads}");
        }
        // The same search run twice on one thread counts the same nodes.
        let one = |_| parallel_idastar(&start, &h, Limits::default().threads(1)).expanded;
        assert_eq!(one(0), one(1));
    }
}

#[test]
fn limits_and_unsolvable_pairs_apply_to_the_whole_search() {
    let goal = *table().goal();
    let h = Manhattan::new(&goal);
    let start: State = "867254301".parse().unwrap();
    let result = parallel_idastar(&start, &h, Limits::default().threads(4).nodes(20_000));
    assert_eq!(result.gave_up(), Some(Limit::Nodes));
    assert!(result.expanded >= 20_000);
    let unsolvable: State = "213456780".parse().unwrap();
    let result = parallel_idastar(&unsolvable, &h, Limits::default().threads(4));
    assert_eq!(result.outcome, Outcome::Unsolvable);
}

#[test]
fn the_largest_first_order_keeps_every_answer_exact() {
    let table = table();
    let goal = *table.goal();
    let h = Manhattan::new(&goal);
    let mut rng = Rng::new(0x1a7e);
    let mut starts: Vec<State> = (0..200).map(|_| rng.table_state(table)).collect();
    starts.extend(search_support::states_at_depth(table, 31));
    let limits = Limits::default().order(SubtreeOrder::LargestFirst);
    for start in &starts {
        let expected = table.distance(start).unwrap().unwrap() as usize;
        for threads in [1, 2] {
            let result = parallel_idastar(start, &h, limits.threads(threads));
            assert_exact(&result, start, &goal, expected, "largest first");
        }
    }
    for (start, goal, optimal) in korf(5) {
        let h = LinearConflict::new(&goal);
        let result = parallel_idastar(&start, &h, limits.threads(2));
        assert_exact(&result, &start, &goal, optimal, "Korf's, largest first");
    }
}

/// The checkpoint of a search stopped in a later iteration, on one thread, largest first:
/// the iteration's keys are the previous iteration's nodes, and the finished subtrees are
/// the first ones of the largest-first order, not of the sequential one. Resumed, the search
/// goes on in that order: the same answer and the same nodes as a run never stopped.
#[test]
fn the_largest_first_order_is_kept_in_the_checkpoint_and_resumed() {
    let (start, goal, optimal) = korf(3).pop().unwrap();
    let h = Manhattan::new(&goal);
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| -> &'static std::path::Path {
        Box::leak(dir.path().join(name).into_boxed_path())
    };
    let limits = Limits::default()
        .threads(1)
        .order(SubtreeOrder::LargestFirst);
    let whole = parallel_idastar(&start, &h, limits.checkpoint(file("whole")));
    assert_exact(&whole, &start, &goal, optimal, "never stopped");
    // Stopped at a share of the whole run's nodes where the iteration has keys (not the
    // first one split) and has finished some of its subtrees but not all.
    let (path, saved) = (1..20)
        .find_map(|twentieths| {
            let path = file(&format!("stopped-{twentieths}"));
            let nodes = whole.expanded * twentieths / 20;
            let stopped = parallel_idastar(&start, &h, limits.checkpoint(path).nodes(nodes));
            assert_eq!(stopped.gave_up(), Some(Limit::Nodes));
            let saved = Checkpoint::load(path).unwrap().expect("a checkpoint");
            let keyed =
                saved.previous.len() == saved.subtrees && saved.previous.iter().any(|&k| k > 0);
            (keyed && saved.finished() > 1 && saved.finished() < saved.subtrees)
                .then_some((path, saved))
        })
        .expect("a stop within a keyed iteration");
    assert_eq!(saved.sizes.len(), saved.subtrees);
    let mut order: Vec<usize> = (0..saved.subtrees).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(saved.previous[i]));
    let finished = saved.finished();
    for (at, &index) in order.iter().enumerate() {
        assert_eq!(
            saved.is_done(index),
            at < finished,
            "subtree {index}, taken {at}th"
        );
        if at >= finished {
            assert_eq!(saved.sizes[index], 0, "size of unfinished subtree {index}");
        }
    }
    assert!(
        (0..finished).any(|i| !saved.is_done(i)),
        "the sequential order would have finished a prefix"
    );
    let resumed = parallel_idastar(&start, &h, limits.checkpoint(path));
    assert_exact(&resumed, &start, &goal, optimal, "resumed");
    assert_eq!(resumed.solution(), whole.solution());
    assert_eq!(resumed.generated, whole.generated);
}

/// A search stopped again and again, most stops inside a subtree, keeps the work done inside
/// each (the checkpoint's partial subtrees): resumed each time, it gives the path of a run
/// never stopped with the same nodes, and the runs' own work adds up to that run's, none
/// done twice (without the partial subtrees every stop would search its subtree again).
#[test]
fn stops_inside_subtrees_lose_no_work() {
    let (start, goal, optimal) = korf(25).pop().unwrap();
    let h = Manhattan::new(&goal);
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| -> &'static std::path::Path {
        Box::leak(dir.path().join(name).into_boxed_path())
    };
    for order in [SubtreeOrder::Sequential, SubtreeOrder::LargestFirst] {
        let limits = Limits::default().threads(1).order(order);
        let whole = parallel_idastar(&start, &h, limits.checkpoint(file("whole")));
        assert_exact(&whole, &start, &goal, optimal, "never stopped");
        let path = file(&format!("stopped-{}", order.name()));
        let step = whole.expanded / 60;
        let (mut counted, mut work, mut runs, mut deep) = (0u64, 0u64, 0, false);
        let resumed = loop {
            let result =
                parallel_idastar(&start, &h, limits.checkpoint(path).nodes(counted + step));
            runs += 1;
            work += result.expanded - counted;
            if result.gave_up().is_none() {
                break result;
            }
            let saved = Checkpoint::load(path).unwrap().expect("a checkpoint");
            assert!(saved.partial.len() <= 1, "one thread stops one subtree");
            deep |= saved.partial.values().any(|p| p.left.len() > 1);
            assert_eq!(
                saved.expanded, result.expanded,
                "every node counted is kept"
            );
            counted = saved.expanded;
            assert!(runs < 1000, "the runs make progress");
        };
        assert!(
            runs > 30 && deep,
            "{runs} runs, stops inside subtrees: {deep}"
        );
        assert_exact(&resumed, &start, &goal, optimal, "resumed");
        assert_eq!(resumed.solution(), whole.solution(), "{order:?}");
        assert_eq!(resumed.generated, whole.generated, "{order:?}");
        assert_eq!(resumed.expanded, whole.expanded, "{order:?}");
        assert_eq!(work, whole.expanded, "{order:?}: no work done twice");
    }
}

/// On two threads each stop leaves up to two partial subtrees; resumed until solved, the
/// answer is exact.
#[test]
fn stops_on_two_threads_resume_to_the_exact_length() {
    let (start, goal, optimal) = korf(25).pop().unwrap();
    let h = Manhattan::new(&goal);
    let dir = tempfile::tempdir().unwrap();
    let path: &'static std::path::Path = Box::leak(dir.path().join("c").into_boxed_path());
    let limits = Limits::default()
        .threads(2)
        .order(SubtreeOrder::LargestFirst);
    let (mut counted, mut partials, mut runs) = (0, 0, 0);
    let resumed = loop {
        let result = parallel_idastar(&start, &h, limits.checkpoint(path).nodes(counted + 200_000));
        runs += 1;
        if result.gave_up().is_none() {
            break result;
        }
        let saved = Checkpoint::load(path).unwrap().expect("a checkpoint");
        assert!(saved.partial.len() <= 2, "two threads stop two subtrees");
        partials += saved.partial.len();
        counted = saved.expanded;
        assert!(runs < 1000, "the runs make progress");
    };
    assert!(partials > 0, "{runs} runs, none stopped inside a subtree");
    assert_exact(&resumed, &start, &goal, optimal, "resumed on two threads");
}

/// A checkpoint whose partial subtree names trees outside it is refused, not searched: it
/// would skip part of the subtree.
#[test]
fn a_partial_subtree_outside_its_subtree_is_refused() {
    let (start, goal, _) = korf(25).pop().unwrap();
    let h = Manhattan::new(&goal);
    let dir = tempfile::tempdir().unwrap();
    let path: &'static std::path::Path = Box::leak(dir.path().join("c").into_boxed_path());
    let limits = Limits::default().threads(1);
    let mut counted = 0;
    let mut saved = loop {
        counted += 100_000;
        let stopped = parallel_idastar(&start, &h, limits.checkpoint(path).nodes(counted));
        assert_eq!(stopped.gave_up(), Some(Limit::Nodes));
        let saved = Checkpoint::load(path).unwrap().expect("a checkpoint");
        if !saved.partial.is_empty() {
            break saved;
        }
    };
    let part = saved.partial.values_mut().next().unwrap();
    // The same trees under another first move: another subtree's.
    let first = part.left[0][0];
    let other = npuzzle::Move::ALL
        .into_iter()
        .find(|&m| m != first && start.apply(m).is_some())
        .unwrap();
    part.left[0][0] = other;
    std::fs::write(path, saved.to_text()).unwrap();
    let refused = parallel_idastar(&start, &h, limits.checkpoint(path));
    assert!(
        matches!(&refused.outcome, Outcome::Refused(e) if e.to_string().contains("partial subtree")),
        "{:?}",
        refused.outcome
    );
}

/// A search that finds its path removes its checkpoint (nothing is left to resume), unless
/// the caller keeps it to remove once the answer is stored (`keep_solved_checkpoint`, what
/// `instance_set::run` relies on): then the kept checkpoint resumes to the same length.
#[test]
fn a_solved_search_removes_its_checkpoint_unless_told_to_keep_it() {
    let (start, goal, optimal) = korf(3).pop().unwrap();
    let h = Manhattan::new(&goal);
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| -> &'static std::path::Path {
        Box::leak(dir.path().join(name).into_boxed_path())
    };
    let limits = Limits::default().threads(2);
    let removed = file("removed");
    let result = parallel_idastar(&start, &h, limits.checkpoint(removed));
    assert_exact(&result, &start, &goal, optimal, "checkpointed");
    assert!(!removed.exists(), "the checkpoint of a solved search stays");
    let kept = file("kept");
    let result = parallel_idastar(
        &start,
        &h,
        limits.checkpoint(kept).keep_solved_checkpoint(true),
    );
    assert_exact(&result, &start, &goal, optimal, "kept");
    let saved = Checkpoint::load(kept)
        .unwrap()
        .expect("the kept checkpoint");
    assert!(saved.bound <= optimal as u32, "bound {}", saved.bound);
    let again = parallel_idastar(&start, &h, limits.checkpoint(kept));
    assert_exact(
        &again,
        &start,
        &goal,
        optimal,
        "resumed from the kept checkpoint",
    );
    assert!(!kept.exists());
}

/// A checkpoint names the split its subtree numbers refer to: one whose split CRC is another
/// split's (a build that splits the bound otherwise, with as many subtrees) is refused, not
/// resumed, since its finished subtrees would be other ones; one without the CRC (written
/// before version 5) resumes by its subtree count, as before, to the same answer.
#[test]
fn a_checkpoint_of_another_split_is_refused() {
    let (start, goal, optimal) = korf(2).pop().unwrap();
    let h = Manhattan::new(&goal);
    let dir = tempfile::tempdir().unwrap();
    let path: &'static std::path::Path = Box::leak(dir.path().join("c").into_boxed_path());
    let limits = Limits::default().threads(2).checkpoint(path);
    let whole = parallel_idastar(&start, &h, Limits::default().threads(2));
    let stopped = parallel_idastar(&start, &h, limits.nodes(whole.expanded / 2));
    assert_eq!(stopped.gave_up(), Some(Limit::Nodes));
    let saved = Checkpoint::load(path).unwrap().expect("a checkpoint");
    let crc = saved.prefixes.expect("the split's CRC");
    Checkpoint {
        prefixes: Some(crc ^ 1),
        ..saved.clone()
    }
    .save(path)
    .unwrap();
    let refused = parallel_idastar(&start, &h, limits);
    assert!(
        matches!(&refused.outcome, Outcome::Refused(e) if e.to_string().contains("do not match the split")),
        "{:?}",
        refused.outcome
    );
    Checkpoint {
        prefixes: None,
        ..saved
    }
    .save(path)
    .unwrap();
    let resumed = parallel_idastar(&start, &h, limits);
    assert_exact(&resumed, &start, &goal, optimal, "resumed without the CRC");
}
