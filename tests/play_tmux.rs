//! `npuzzle play` through a real pseudo-terminal: tmux runs the game in a detached 80x24
//! session, `send-keys` plays, `capture-pane -p` reads the screen.
//!
//! Needs tmux. Without it the tests say so on stderr and pass, unless NPUZZLE_REQUIRE_TMUX=1
//! (set by `.ci/run`, which installs tmux), where they fail.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_npuzzle");

/// A tmux server of its own (`-L`), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// Starts `npuzzle ARGS` in an 80x24 session; `None` when tmux is missing (and allowed to be).
    fn start(name: &str, data_dir: &Path, args: &str) -> Option<Tmux> {
        Tmux::start_sized(name, data_dir, args, (80, 24))
    }

    /// Starts `npuzzle ARGS` in a session of `columns` x `lines`.
    fn start_sized(
        name: &str,
        data_dir: &Path,
        args: &str,
        (columns, lines): (u16, u16),
    ) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(
                std::env::var_os("NPUZZLE_REQUIRE_TMUX").is_none(),
                "tmux is required (NPUZZLE_REQUIRE_TMUX is set) but not installed"
            );
            eprintln!("note: tmux is not installed: the terminal game's test did not run");
            return None;
        }
        let tmux = Tmux {
            socket: format!("npuzzle-test-{}-{name}", std::process::id()),
        };
        let command = format!("{BIN} --data-dir '{}' play {args}", data_dir.display());
        let (columns, lines) = (columns.to_string(), lines.to_string());
        let out = tmux.run(&[
            "new-session",
            "-d",
            "-x",
            &columns,
            "-y",
            &lines,
            "-s",
            "play",
            &command,
        ]);
        assert!(out.status.success(), "tmux new-session: {out:?}");
        Some(tmux)
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .env("TERM", "xterm-256color")
            .output()
            .expect("tmux runs")
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "play"];
        args.extend_from_slice(keys);
        let out = self.run(&args);
        assert!(out.status.success(), "tmux send-keys: {out:?}");
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "play"]).stdout)
            .into_owned()
    }

    /// Waits until the screen shows `text`; returns the screen. The bound is generous: on a
    /// fresh data directory a 4x4 game first builds its 6-6-3 databases, which takes tens of
    /// seconds on a loaded machine (20 s was too short with three other builds running).
    fn wait_for(&self, text: &str) -> String {
        let began = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            // A bound on waiting, not a speed test: the 4x4 games build and deep-check two
            // 6-6-3 databases on first use, tens of seconds on a loaded machine.
            assert!(
                began.elapsed() < Duration::from_secs(90),
                "the screen never showed {text:?}; it shows:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Makes the terminal `columns` x `lines`, as a user dragging its window would.
    fn resize(&self, columns: u16, lines: u16) {
        let out = self.run(&[
            "resize-window",
            "-t",
            "play",
            "-x",
            &columns.to_string(),
            "-y",
            &lines.to_string(),
        ]);
        assert!(out.status.success(), "tmux resize-window: {out:?}");
    }

    /// Whether the game's session still runs.
    fn alive(&self) -> bool {
        self.run(&["has-session", "-t", "play"]).status.success()
    }

    /// Waits for the game to end.
    fn wait_gone(&self) {
        let began = Instant::now();
        while self.alive() {
            assert!(
                began.elapsed() < Duration::from_secs(10),
                "the game did not quit; it shows:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// The number after `Distance: ` on the screen.
fn distance(screen: &str) -> String {
    let at = screen.find("Distance: ").expect("a distance line") + "Distance: ".len();
    screen[at..]
        .split_whitespace()
        .next()
        .expect("a value")
        .to_string()
}

#[test]
fn the_game_shows_the_exact_distance_after_every_move_and_quits_on_q() {
    let data = tempfile::tempdir().expect("a temporary directory");
    // Two moves from the goal: the blank moves right twice.
    let Some(tmux) = Tmux::start("moves", data.path(), "123456078 --depth 7 --seed 5") else {
        return;
    };
    let screen = tmux.wait_for("Distance: 2 (exact, from the table)");
    assert!(screen.contains("npuzzle play: 3x3"), "{screen}");
    // Right arrow: the blank moves right, one move from the goal.
    tmux.keys(&["Right"]);
    tmux.wait_for("Distance: 1 (exact");
    // `h` (vi's left) moves it back: two again.
    tmux.keys(&["h"]);
    tmux.wait_for("Distance: 2 (exact");
    assert!(tmux.screen().contains("Moves made: 2"));
    // Undo: one.
    tmux.keys(&["u"]);
    tmux.wait_for("Distance: 1 (exact");
    // The hint is the optimal move R; following it solves the puzzle.
    tmux.keys(&["?"]);
    tmux.wait_for("hint: R (1 moves left");
    tmux.keys(&["l"]);
    let screen = tmux.wait_for("Distance: 0 (exact");
    assert!(screen.contains("solved in"), "{screen}");
    // A move off the board is refused and changes nothing.
    tmux.keys(&["Right"]);
    tmux.wait_for("R: the blank cannot leave the board");
    assert_eq!(distance(&tmux.screen()), "0");
    // Shuffle at depth 7, then at 8 (`+`): exact depths from the table.
    tmux.keys(&["s"]);
    tmux.wait_for("shuffled to exact depth 7");
    assert_eq!(distance(&tmux.screen()), "7");
    tmux.keys(&["+", "s"]);
    tmux.wait_for("shuffled to exact depth 8");
    assert_eq!(distance(&tmux.screen()), "8");
    tmux.keys(&["q"]);
    tmux.wait_gone();
}

#[test]
fn without_a_table_a_search_that_gives_up_shows_a_lower_bound_labelled_so() {
    let data = tempfile::tempdir().expect("a temporary directory");
    // A uniformly drawn 4x4 start (`npuzzle sample --board 4x4 --seed 1 -n 1`), tens of
    // moves from the goal, with a tiny limit: the search gives up.
    let start = "'10 0 1 4 7 3 8 13 2 12 15 9 5 6 14 11'";
    let Some(tmux) = Tmux::start("bound", data.path(), &format!("{start} --limit 1ms")) else {
        return;
    };
    let screen = tmux.wait_for("Distance: at least");
    assert!(screen.contains("lower bound"), "{screen}");
    let at = screen.find("at least ").expect("a bound") + "at least ".len();
    let bound: u32 = screen[at..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a number");
    assert!(bound > 0 && bound <= 80, "{screen}");
    tmux.keys(&["Escape"]);
    tmux.wait_gone();
}

#[test]
fn a_4x4_close_to_the_goal_is_answered_exactly_by_search() {
    let data = tempfile::tempdir().expect("a temporary directory");
    let start = "'1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15'";
    let Some(tmux) = Tmux::start("search", data.path(), start) else {
        return;
    };
    tmux.wait_for("Distance: 1 (exact, by idastar");
    tmux.keys(&["Right"]);
    tmux.wait_for("Distance: 0 (exact");
    tmux.keys(&["q"]);
    tmux.wait_gone();
}

/// The rows of tiles on the screen: lines made only of tile numbers and the blank `_`.
fn tile_rows(screen: &str, width: usize) -> Vec<Vec<String>> {
    screen
        .lines()
        .map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
        .filter(|words| {
            words.len() == width
                && words
                    .iter()
                    .all(|w| w == "_" || w.chars().all(|c| c.is_ascii_digit()))
        })
        .collect()
}

#[test]
fn a_terminal_too_small_says_so_and_the_whole_board_comes_back_when_it_grows() {
    let data = tempfile::tempdir().expect("a temporary directory");
    // 12 lines: once, the layout squeezed the board and a row of tiles went missing unsaid.
    let Some(tmux) = Tmux::start_sized("small", data.path(), "123456078", (80, 12)) else {
        return;
    };
    let screen = tmux.wait_for("too small");
    assert!(screen.contains("(80x12)"), "{screen}");
    assert!(screen.contains("needs at least"), "{screen}");
    assert!(
        tile_rows(&screen, 3).is_empty(),
        "no part of the board: {screen}"
    );
    // Grown: the whole board, every row, the blank drawn as `_` (as in every other output).
    tmux.resize(80, 24);
    let screen = tmux.wait_for("Distance: 2 (exact");
    let rows = tile_rows(&screen, 3);
    assert_eq!(
        rows,
        [["1", "2", "3"], ["4", "5", "6"], ["_", "7", "8"]],
        "{screen}"
    );
    assert!(screen.contains("q quit"), "{screen}");
    // Moves still work, and a shrink below the board's needs says so again.
    tmux.keys(&["Right"]);
    tmux.wait_for("Distance: 1 (exact");
    tmux.resize(30, 24);
    let screen = tmux.wait_for("too small");
    assert!(screen.contains("(30x24)"), "{screen}");
    // The smallest size it asks for shows everything.
    let at = screen.find("needs at least ").expect("a size") + "needs at least ".len();
    let size: String = screen[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == 'x')
        .collect();
    let (columns, lines) = size.split_once('x').expect("WxH");
    tmux.resize(columns.parse().unwrap(), lines.parse().unwrap());
    let screen = tmux.wait_for("Distance: 1 (exact");
    assert_eq!(tile_rows(&screen, 3).len(), 3, "{screen}");
    assert!(screen.contains("q quit"), "{screen}");
    tmux.keys(&["q"]);
    tmux.wait_gone();
}

#[test]
fn a_10x10_game_shows_no_distance_and_a_constructive_hint_labelled_not_optimal() {
    let data = tempfile::tempdir().expect("a temporary directory");
    let Some(tmux) = Tmux::start_sized(
        "large",
        data.path(),
        "--board 10x10 --seed 3 --metric mtm",
        (80, 30),
    ) else {
        return;
    };
    let screen = tmux.wait_for("Distance: not computed");
    assert!(screen.contains("npuzzle play: 10x10"), "{screen}");
    assert!(screen.contains("uniformly random"), "{screen}");
    assert_eq!(tile_rows(&screen, 10).len(), 10, "{screen}");
    tmux.keys(&["?"]);
    let screen = tmux.wait_for("constructive solver, not optimal");
    assert!(screen.contains("moves in MTM left)"), "{screen}");
    tmux.keys(&["q"]);
    tmux.wait_gone();
}
