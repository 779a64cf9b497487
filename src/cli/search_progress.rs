//! A live line on stderr while a long search runs on a terminal: nodes expanded, the bound
//! on `g + h` being searched, the share of the iteration done (parallel IDA*: its subtrees
//! finished), the rate, and the time, so that a 15-puzzle search that takes minutes
//! shows it is alive. Nothing is shown in the first second, nor when stderr is not a terminal
//! (logs and pipes stay clean).

use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use npuzzle::search::{Limits, Progress};

use super::interrupt;
use super::verify_report::group;

/// Searches shorter than this show nothing.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// The line is redrawn at most this often.
const REDRAW_EVERY_MS: u64 = 250;

/// The last redraw, in units of [`REDRAW_EVERY_MS`] since the search began. The observer is a
/// `'static` function (so that `Limits` stays `Copy`), hence the statics: one search at a time is
/// watched per process.
static LAST_REDRAW: AtomicU64 = AtomicU64::new(0);

/// Whether a line is on the terminal, to be cleared when the search ends.
static SHOWN: AtomicBool = AtomicBool::new(false);

/// `limits`, watched by the live line when stderr is a terminal.
pub fn watched(limits: Limits) -> Limits {
    if terminal() {
        limits.observe(&watch)
    } else {
        limits
    }
}

/// `limits` of a checkpointed search: stopped by Ctrl-C or SIGTERM ([`interrupt`]), its
/// checkpoint written with the work inside each subtree in progress, and watched by the live
/// line on a terminal.
pub fn interruptible(limits: Limits) -> Limits {
    interrupt::catch();
    limits.observe(&watch)
}

/// Whether stderr is a terminal (asked once: the observer runs thousands of times a second).
fn terminal() -> bool {
    static TERMINAL: OnceLock<bool> = OnceLock::new();
    *TERMINAL.get_or_init(|| std::io::stderr().is_terminal())
}

/// The observer: a caught signal stops the search, else the line is drawn on a terminal.
fn watch(progress: &Progress) -> ControlFlow<()> {
    if interrupt::requested() {
        return ControlFlow::Break(());
    }
    if terminal() {
        show(progress)
    } else {
        ControlFlow::Continue(())
    }
}

/// Clears the live line, if one was drawn, so the answer is printed on a clean line.
pub fn clear() {
    if SHOWN.swap(false, Ordering::Relaxed) {
        stderr_text!("\r\x1b[2K");
    }
}

/// Draws the line (never stops the search).
fn show(progress: &Progress) -> ControlFlow<()> {
    if progress.elapsed < SHOW_AFTER {
        return ControlFlow::Continue(());
    }
    let tick = u64::try_from(progress.elapsed.as_millis() / u128::from(REDRAW_EVERY_MS))
        .unwrap_or(u64::MAX);
    if LAST_REDRAW.swap(tick, Ordering::Relaxed) == tick {
        return ControlFlow::Continue(());
    }
    SHOWN.store(true, Ordering::Relaxed);
    let bound = progress
        .bound
        .map(|bound| format!(", bound {bound}"))
        .unwrap_or_default();
    let share = match progress.subtrees {
        Some((done, all)) if all > 0 => format!(
            ", {:.0}% of the iteration",
            100.0 * done as f64 / all as f64
        ),
        _ => String::new(),
    };
    let seconds = progress.elapsed.as_secs_f64();
    stderr_text!(
        "\r\x1b[2Ksearching: {} nodes expanded{bound}{share}, {}/s, {seconds:.1} s",
        group(progress.expanded as f64),
        group(progress.expanded as f64 / seconds.max(1e-9)),
    );
    ControlFlow::Continue(())
}
