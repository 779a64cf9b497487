//! Ctrl-C (SIGINT) and SIGTERM during a checkpointed search. The first stops the search
//! within a few thousand expansions per thread and writes its checkpoint with the work done
//! inside every subtree in progress ([`npuzzle::search::checkpoint::Partial`]), so that the
//! next run repeats nothing; a second ends the process at once (exit 130), as an uncaught
//! signal would, keeping the checkpoint last written. Searches without a checkpoint have
//! nothing to save and keep the signals' default.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use signal_hook::consts::{SIGINT, SIGTERM};

/// Set by the first signal once [`catch`] has run.
static REQUESTED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Catches SIGINT and SIGTERM from now on (once per process: later calls do nothing). Where
/// a handler cannot be installed, that signal keeps its default and a note says so.
pub fn catch() {
    let mut first = false;
    let flag = REQUESTED.get_or_init(|| {
        first = true;
        Arc::new(AtomicBool::new(false))
    });
    if !first {
        return;
    }
    for signal in [SIGINT, SIGTERM] {
        // Registered first, so it sees the flag as the earlier signal left it: set, the
        // second signal ends the process; unset, the first only sets it.
        let caught =
            signal_hook::flag::register_conditional_shutdown(signal, 130, Arc::clone(flag))
                .and_then(|_| signal_hook::flag::register(signal, Arc::clone(flag)));
        if let Err(e) = caught {
            stderr_line!(
                "npuzzle: note: signal {signal} cannot be caught ({e}); it ends the search \
                 without writing its checkpoint"
            );
        }
    }
}

/// Whether a caught signal asked the search to stop.
pub fn requested() -> bool {
    REQUESTED
        .get()
        .is_some_and(|flag| flag.load(Ordering::Relaxed))
}
