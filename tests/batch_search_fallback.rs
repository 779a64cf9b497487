//! `npuzzle batch` on boards without an exact table: each line is answered by IDA* with linear
//! conflict, checked against published optimal lengths (Korf's 15-puzzle instances), and a line
//! whose search reaches `--limit` gets an error row without stopping the others.

mod common;
mod references;

/// The two instances of Korf's 100 with the fewest IDA* nodes in his 1985 run, as
/// `START,GOAL` lines (blank-first goal), with their published optimal lengths.
fn easiest_korf_instances() -> Vec<(String, u64)> {
    references::easiest(references::korf100(), 2)
        .into_iter()
        .map(|korf| {
            (
                format!("{},{}", korf.start, korf.goal),
                u64::from(korf.optimal),
            )
        })
        .collect()
}

#[test]
fn fifteen_puzzle_lines_get_their_published_optimal_lengths() {
    let instances = easiest_korf_instances();
    let mut input: String = instances
        .iter()
        .map(|(line, _)| format!("{line}\n"))
        .collect();
    input.push_str("867254301\n");
    let dir = tempfile::tempdir().unwrap();
    let out = common::run_with_stdin(
        &["batch", "-", "--format", "jsonl", "--solve"],
        dir.path(),
        &input,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = common::json_lines(&out);
    for (row, (line, optimal)) in rows.iter().zip(&instances) {
        assert_eq!(row["distance"].as_u64(), Some(*optimal), "{line}");
        let moves = row["moves"].as_str().unwrap();
        assert_eq!(moves.len() as u64, *optimal);
        // The moves really lead from the start to the goal.
        let (start, goal) = line.split_once(',').unwrap();
        let mut state: npuzzle::State = start.parse().unwrap();
        for letter in moves.chars() {
            state = state
                .apply(npuzzle::Move::from_letter(letter).unwrap())
                .expect("legal");
        }
        assert_eq!(state, goal.parse().unwrap());
    }
    assert_eq!(rows[2]["distance"], 31);
}

#[test]
fn a_line_whose_search_reaches_the_limit_fails_alone() {
    let (hard, _) = easiest_korf_instances().remove(0);
    let input = format!("{hard}\n867254301\n");
    let dir = tempfile::tempdir().unwrap();
    let out = common::run_with_stdin(
        &["batch", "-", "--format", "jsonl", "--limit", "1000"],
        dir.path(),
        &input,
    );
    assert_eq!(out.status.code(), Some(1));
    let rows = common::json_lines(&out);
    assert!(
        rows[0]["error"].as_str().unwrap().contains("node limit"),
        "{}",
        rows[0]
    );
    assert_eq!(rows[1]["distance"], 31);
}
