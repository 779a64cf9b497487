//! The whole-search account of a search run on several threads: the expansions every thread
//! has told, the limits applied to their sum, the observer told of it, and the flag that stops
//! every thread. Parallel IDA* ([`super::parallel`]) and the two-thread bounded search
//! ([`super::pair`]) keep one each, so that a node limit, a time limit or an observer's stop
//! means the same in both: the rule lives here once.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::{Limit, Limits, Progress};

/// What the threads of one search share about its limits.
pub(super) struct SearchAccount {
    limits: Limits,
    began: Instant,
    /// Expansions told so far by every thread.
    expanded: AtomicU64,
    /// Every thread stops: the answer is in, or a limit was reached.
    stop: AtomicBool,
    /// The limit reached, if one was (set once: the first thread to reach one names it).
    limit: OnceLock<Limit>,
}

impl SearchAccount {
    /// An account for a search with `limits`, begun at `began`.
    pub(super) fn new(limits: Limits, began: Instant) -> SearchAccount {
        SearchAccount {
            limits,
            began,
            expanded: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            limit: OnceLock::new(),
        }
    }

    pub(super) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Adds `expanded` expansions of one thread; returns the total of every thread.
    pub(super) fn tell(&self, expanded: u64) -> u64 {
        self.expanded.fetch_add(expanded, Ordering::Relaxed) + expanded
    }

    /// The expansions told so far.
    pub(super) fn total(&self) -> u64 {
        self.expanded.load(Ordering::Relaxed)
    }

    /// Sets the expansions told so far (a resumed search starts from its checkpoint's).
    pub(super) fn set_total(&self, expanded: u64) {
        self.expanded.store(expanded, Ordering::Relaxed);
    }

    /// Every thread stops (the answer is in; a limit reached stops them through
    /// [`check`](Self::check)).
    pub(super) fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// The limit that stopped the search, if one did.
    pub(super) fn limit(&self) -> Option<Limit> {
        self.limit.get().copied()
    }

    /// Records `limit` (unless one is already recorded) and stops every thread.
    fn give_up(&self, limit: Limit) -> Option<Limit> {
        let _ = self.limit.set(limit);
        self.stop();
        Some(limit)
    }

    /// Applies the limits to the whole search at `total` expansions (the node limit, then the
    /// observer, told `progress(total, elapsed)`, which may stop it, then the time limit);
    /// the limit reached, if any, stops every thread.
    pub(super) fn check(
        &self,
        total: u64,
        progress: impl FnOnce(u64, Duration) -> Progress,
    ) -> Option<Limit> {
        let limits = &self.limits;
        if limits.max_expanded.is_some_and(|max| total >= max) {
            return self.give_up(Limit::Nodes);
        }
        if limits.max_time.is_none() && limits.observer.is_none() {
            return None;
        }
        let elapsed = self.began.elapsed();
        if let Some(observe) = limits.observer {
            if observe(&progress(total, elapsed)).is_break() {
                return self.give_up(Limit::Stopped);
            }
        }
        if limits.max_time.is_some_and(|max| elapsed >= max) {
            return self.give_up(Limit::Time);
        }
        None
    }
}
