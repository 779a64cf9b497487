//! A search watched from Python: its progress told to a callback on the calling thread, and
//! a way to stop it (the callback's `False`, an exception, Ctrl-C).
//!
//! The library's one way to watch and stop a search is its observer
//! ([`npuzzle::search::Observer`]), a `'static` function so that `Limits` stays `Copy`. A
//! Python call needs state of its own behind it (its stop request, its latest report), so
//! each running call borrows a [`Slot`]: leaked once, handed back when the call ends and
//! reused by later calls, so the memory held is bounded by the most calls ever running at
//! once, not by the calls made.
//!
//! The search runs on a thread of its own with the GIL released; the calling thread wakes
//! every [`POLL`] (or when the search ends) to look for a signal and to give the latest report
//! to the caller's function, with the GIL held, on the thread that called (as Python code
//! expects: no callback from a foreign thread). A stop is seen by the search at its next
//! report, a few thousand expansions later (well under a millisecond).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use npuzzle::search::{Observer, Progress};

/// How often the calling thread wakes while the search runs.
pub const POLL: Duration = Duration::from_millis(100);

/// The state behind one running call's observer.
struct Slot {
    /// Set to stop the search at its next report.
    stop: AtomicBool,
    /// The latest report not yet given to the caller.
    latest: Mutex<Option<Progress>>,
}

impl Slot {
    /// The observer's body: keeps the report (skipped when the caller is reading the last one:
    /// another comes a few thousand expansions later) and says whether to go on.
    fn observe(&self, progress: &Progress) -> ControlFlow<()> {
        if let Ok(mut latest) = self.latest.try_lock() {
            *latest = Some(*progress);
        }
        if self.stop.load(Ordering::Relaxed) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// Slots of calls that have ended, each with its observer.
static FREE: Mutex<Vec<(&'static Slot, Observer)>> = Mutex::new(Vec::new());

/// One call's slot, handed back when dropped (after the search has ended: the scope in
/// [`watched`] joins the search's thread first).
struct Lease {
    slot: &'static Slot,
    observer: Observer,
}

impl Lease {
    fn take() -> Lease {
        let reused = FREE.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let (slot, observer) = reused.unwrap_or_else(|| {
            let slot: &'static Slot = Box::leak(Box::new(Slot {
                stop: AtomicBool::new(false),
                latest: Mutex::new(None),
            }));
            let observer: Observer = Box::leak(Box::new(move |p: &Progress| slot.observe(p)));
            (slot, observer)
        });
        slot.stop.store(false, Ordering::Relaxed);
        *slot.latest.lock().unwrap_or_else(|e| e.into_inner()) = None;
        Lease { slot, observer }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        FREE.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((self.slot, self.observer));
    }
}

/// Runs `work` (given the observer to put in its limits) on a thread of its own with the GIL
/// released. Every [`POLL`] while it runs, the calling thread checks for signals and calls
/// `on_report` with the latest report, if a new one came: `Ok(false)` stops the search (its
/// result then gives up with `Limit::Stopped`), an error stops it and is returned once it has
/// stopped, as is a signal's (KeyboardInterrupt).
pub fn watched<T: Send>(
    py: Python<'_>,
    mut on_report: impl FnMut(Python<'_>, &Progress) -> PyResult<bool>,
    work: impl FnOnce(Observer) -> T + Send,
) -> PyResult<T> {
    let lease = Lease::take();
    let observer = lease.observer;
    let slot = lease.slot;
    let (done, ended) = mpsc::channel::<()>();
    // Only this thread receives; the mutex makes the receiver shareable with the closure that
    // runs with the GIL released.
    let ended = Mutex::new(ended);
    let mut raised: Option<PyErr> = None;
    let outcome = std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            let out = work(observer);
            // Fails only once the waiting thread has gone, which it never does first.
            let _ = done.send(());
            out
        });
        loop {
            let next = py.detach(|| match ended.lock() {
                Ok(ended) => ended.recv_timeout(POLL),
                Err(_) => Err(mpsc::RecvTimeoutError::Disconnected),
            });
            if !matches!(next, Err(mpsc::RecvTimeoutError::Timeout)) {
                break;
            }
            if raised.is_some() || slot.stop.load(Ordering::Relaxed) {
                continue;
            }
            let latest = slot.latest.lock().unwrap_or_else(|e| e.into_inner()).take();
            let step = py.check_signals().and_then(|()| match latest {
                Some(progress) => on_report(py, &progress),
                None => Ok(true),
            });
            match step {
                Ok(true) => {}
                Ok(false) => slot.stop.store(true, Ordering::Relaxed),
                Err(error) => {
                    raised = Some(error);
                    slot.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        worker.join()
    });
    drop(lease);
    if let Some(error) = raised {
        return Err(error);
    }
    match outcome {
        Ok(out) => Ok(out),
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// A report as the dict the Python side sees (the same keys as `npuzzle.distributed.solve`'s
/// progress): `bound` (None for searches without one), `expanded`, `rate` (nodes per second
/// so far), `elapsed` (seconds), and for a parallel IDA* the iteration's subtrees `done` of
/// `subtrees` (the share of the iteration done; None otherwise).
pub fn report<'py>(py: Python<'py>, progress: &Progress) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let seconds = progress.elapsed.as_secs_f64();
    dict.set_item("bound", progress.bound)?;
    dict.set_item("expanded", progress.expanded)?;
    let rate = if seconds > 0.0 {
        progress.expanded as f64 / seconds
    } else {
        0.0
    };
    dict.set_item("rate", rate)?;
    dict.set_item("elapsed", seconds)?;
    dict.set_item("done", progress.subtrees.map(|(done, _)| done))?;
    dict.set_item("subtrees", progress.subtrees.map(|(_, all)| all))?;
    Ok(dict)
}

/// `progress(report)` for [`watched`]: its `False` (exactly: `None`, what a function without a
/// return gives, goes on) stops the search; an exception it raises stops it and is raised.
pub fn callback<'a>(
    progress: &'a Bound<'a, PyAny>,
) -> impl FnMut(Python<'_>, &Progress) -> PyResult<bool> + 'a {
    move |_, p| {
        let answer = progress.call1((report(progress.py(), p)?,))?;
        let stop = answer
            .cast::<pyo3::types::PyBool>()
            .is_ok_and(|answer| !answer.is_true());
        Ok(!stop)
    }
}

/// Refuses a `progress` that cannot be called.
pub fn check_callable(progress: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    match progress {
        Some(callback) if !callback.is_callable() => {
            Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "progress must be callable or None, not {}",
                crate::convert::type_name(callback)
            )))
        }
        _ => Ok(()),
    }
}
