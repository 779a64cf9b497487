//! Long tier (`cargo test --test korf50_results -- --ignored`, with `NPUZZLE_DATA_DIR`
//! holding the 6-6-6-6 databases of Korf's goal): the five 24-puzzles with the fewest
//! published nodes, solved again as the runner solves them (IDA* with the move-pruning
//! automaton, regular + reflected lookups), give the published lengths and exactly the node
//! counts committed in `data/korf50_24-results.txt` (IDA* is deterministic; those lines were
//! counted with the automaton of 10 moves, so that one is searched here, and the automaton of
//! 12 moves must find the same lengths with no more nodes), and every line
//! of that file replays to the goal at the published length; BENCHMARKS.md's table of the
//! fifty is `instance_set::progress_table` of that file (`solve_set --report`).

mod references;

use npuzzle::answer::{DataDir, Oracle};
use npuzzle::heuristic::{Lookups, PatternHeuristic};
use npuzzle::instance_set;
use npuzzle::search::checkpoint::{fingerprint, Checkpoint};
use npuzzle::search::prune::{MovePruner, LENGTH_BEFORE_12};
use npuzzle::search::{self, Algorithm, Limits};
use npuzzle::{Board, State};

#[test]
#[ignore = "long tier: needs the 6-6-6-6 databases in NPUZZLE_DATA_DIR and minutes of search"]
fn the_five_easiest_24_puzzles_match_the_committed_results() {
    let board = Board::new(5, 5).unwrap();
    let goal = State::canonical_goal(board, 0);
    let mut set = references::instance_file("korf50_24.txt", board);
    let finished = committed_results(&set, &goal);
    set.sort_by_key(|i| *i.extra.last().unwrap());
    let h = runner_heuristic(&goal);
    let mut compared = 0;
    for instance in set.iter().take(5) {
        // As the runner searches: on the node without dual terms.
        let lean = h.regular_reflected().expect("no dual lookup");
        let before_12 = MovePruner::for_board_up_to(board, LENGTH_BEFORE_12);
        let result =
            search::idastar_with_pruner(&instance.start, &lean, Limits::default(), &before_12);
        let now = search::run_with(
            Algorithm::IdaStar,
            &lean,
            &instance.start,
            Limits::default(),
        );
        assert_eq!(
            now.solution().map(|s| s.len()),
            result.solution().map(|s| s.len()),
            "#{}",
            instance.id
        );
        assert!(now.generated <= result.generated, "#{}", instance.id);
        let solution = result.solution().expect("solved");
        assert_eq!(solution.end(), goal);
        assert_eq!(
            Some(solution.len() as u32),
            instance.published,
            "#{}",
            instance.id
        );
        if let Some(line) = finished.iter().find(|f| f.id == instance.id) {
            assert_eq!(result.generated, line.nodes, "#{}: nodes", instance.id);
            compared += 1;
        }
    }
    assert!(
        compared >= 2,
        "fewer than two of the five are in the results file"
    );
}

/// The committed checkpoints resume with this build: each names the fingerprint of the
/// runner's heuristic (regular + reflected 6-6-6-6, seen from the instance's start), which a
/// build hashing another name, or estimating differently, would not give; the runner would
/// then refuse the checkpoint and start that instance's search again.
#[test]
#[ignore = "long tier: needs the 6-6-6-6 databases in NPUZZLE_DATA_DIR"]
fn the_committed_checkpoints_are_of_this_builds_heuristic() {
    let board = Board::new(5, 5).unwrap();
    let goal = State::canonical_goal(board, 0);
    let h = runner_heuristic(&goal);
    let lean = h.regular_reflected().expect("no dual lookup");
    let root = env!("CARGO_MANIFEST_DIR");
    let mut seen = 0;
    for entry in std::fs::read_dir(format!("{root}/data/korf50_24-checkpoints")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "checkpoint") {
            continue;
        }
        let c = Checkpoint::load(&path).unwrap().expect("a checkpoint");
        assert_eq!(c.goal, goal, "{}", path.display());
        assert_eq!(
            c.heuristic,
            fingerprint(&c.start, &lean),
            "{}: written by another heuristic",
            path.display()
        );
        seen += 1;
    }
    // The runner keeps a checkpoint for the instance it is on until all fifty are solved.
    let set = references::instance_file("korf50_24.txt", board);
    let solved = committed_results(&set, &goal).len();
    assert!(
        seen > 0 || solved == set.len(),
        "no checkpoint committed, {solved} of {} solved",
        set.len()
    );
}

/// The runner's heuristic before its node is narrowed (`regular_reflected`): regular + reflected
/// lookups in the 6-6-6-6 databases of `goal` found in `NPUZZLE_DATA_DIR`.
fn runner_heuristic(goal: &State) -> PatternHeuristic {
    let dir = std::env::var_os("NPUZZLE_DATA_DIR")
        .expect("NPUZZLE_DATA_DIR must name a directory with the 5x5 6-6-6-6 databases");
    let found = Oracle::new(DataDir::new(dir))
        .pattern_databases(goal)
        .unwrap()
        .expect("the 6-6-6-6 databases of Korf's goal (npuzzle build --pdb 5x5:6-6-6-6)");
    PatternHeuristic::with_lookups(goal, found.0.databases().to_vec(), Lookups::REFLECTED).unwrap()
}

/// The runner's committed results; `parse_results` replays every line's path to the goal and
/// checks its length against the published optimum, so reading them is the check.
fn committed_results(set: &[instance_set::Instance], goal: &State) -> Vec<instance_set::Finished> {
    let root = env!("CARGO_MANIFEST_DIR");
    let results = std::fs::read_to_string(format!("{root}/data/korf50_24-results.txt")).unwrap();
    instance_set::parse_results(&results, set, goal).unwrap()
}

#[test]
fn every_committed_24_puzzle_result_replays_to_the_goal_at_the_published_length() {
    let board = Board::new(5, 5).unwrap();
    let goal = State::canonical_goal(board, 0);
    let set = references::instance_file("korf50_24.txt", board);
    let finished = committed_results(&set, &goal);
    assert!(!finished.is_empty());
    let mut ids: Vec<_> = finished.iter().map(|f| f.id.clone()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), finished.len(), "an instance is listed twice");
}

#[test]
fn the_file_holds_50_solvable_24_puzzles_whose_manhattan_distance_matches_its_column() {
    let set = references::korf50_24();
    assert_eq!(set.len(), 50);
    let goal = State::canonical_goal(Board::new(5, 5).unwrap(), 0);
    let manhattan = npuzzle::heuristic::Manhattan::new(&goal);
    for instance in &set {
        assert_eq!(instance.goal, goal);
        assert!(instance.start.can_reach(&goal), "#{}", instance.id);
        let h = npuzzle::Heuristic::estimate(&manhattan, &instance.start);
        assert_eq!(h, instance.manhattan, "#{}", instance.id);
        assert!(
            h <= instance.optimal && h % 2 == instance.optimal % 2,
            "#{}",
            instance.id
        );
    }
}

#[test]
fn benchmarks_holds_the_per_instance_table_of_the_committed_results() {
    let board = Board::new(5, 5).unwrap();
    let goal = State::canonical_goal(board, 0);
    let set = references::instance_file("korf50_24.txt", board);
    let table = instance_set::progress_table(&set, &committed_results(&set, &goal));
    // A header of two lines, a row per instance, the sum.
    assert_eq!(table.lines().count(), 2 + 50 + 1, "{table}");
    assert!(!table.contains("differs"), "{table}");
    let path = format!("{}/BENCHMARKS.md", env!("CARGO_MANIFEST_DIR"));
    let mut benchmarks = std::fs::read_to_string(&path).unwrap();
    if std::env::var_os("NPUZZLE_BLESS").is_some() {
        benchmarks = with_table_replaced(&benchmarks, &table);
        std::fs::write(&path, &benchmarks).unwrap();
    }
    assert!(
        benchmarks.contains(&table),
        "BENCHMARKS.md's table of the fifty is not what `npuzzle solve-set \
         data/korf50_24.txt --goal \"$(seq -s ' ' 0 24)\" --results \
         data/korf50_24-results.txt --report` prints: paste its output there, or run \
         `NPUZZLE_BLESS=1 cargo test --test korf50_results` to write it\n{table}"
    );
}

/// `text` with its table of the fifty (from the header line that `table` starts with to the
/// row `N of 50 solved`) replaced by `table`; unchanged where it holds no such table, so the
/// assertion after a bless still fails on a file that lost its table.
fn with_table_replaced(text: &str, table: &str) -> String {
    let header = table.lines().next().unwrap_or_default();
    let Some(start) = text.find(&format!("{header}\n")) else {
        return text.to_string();
    };
    let Some(sum) = text[start..].find(" of 50 solved |") else {
        return text.to_string();
    };
    let sum = start + sum;
    let end = text[sum..].find('\n').map_or(text.len(), |n| sum + n + 1);
    let newline = if table.ends_with('\n') { "" } else { "\n" };
    format!("{}{table}{newline}{}", &text[..start], &text[end..])
}

#[test]
fn a_bless_replaces_the_whole_table_and_nothing_else() {
    let table = "| id | x |\n| ---: | ---: |\n| 1 | 2 |\n| 1 of 50 solved | 2 |\n";
    let old = "# B\n\nbefore\n| id | x |\n| ---: | ---: |\n| 1 | 3 |\n| 7 | 3 |\n| 2 of 50 solved | 6 |\nafter\n";
    assert_eq!(
        with_table_replaced(old, table),
        format!("# B\n\nbefore\n{table}after\n")
    );
    assert_eq!(with_table_replaced("no table\n", table), "no table\n");
}
