//! `--threads N` (batch, build): at least 1 and at most [`max_threads`], checked while the
//! arguments are parsed, so that a slip (`--threads 20000`) is a usage error instead of minutes
//! spent starting threads that have nothing to do.

/// The most worker threads `--threads` accepts: four per core, at least 64, at most 1024.
/// More than the cores never speeds anything up; the slack is for experiments.
pub fn max_threads() -> usize {
    cores().saturating_mul(4).clamp(64, 1024)
}

/// The cores this process may use, asked once: `available_parallelism` reads the cgroup's
/// quota files on Linux, which costs a process start a measurable share of its time.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES
        .get_or_init(|| std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get))
}

/// The threads of a pool built without `--threads`: `RAYON_NUM_THREADS` where it holds a
/// positive number, else one per core, and never more than [`max_threads`]. Rayon reads that
/// variable itself for a pool built without a count, so every pool the program builds is given
/// this count instead: `RAYON_NUM_THREADS=100000` must not start 100,000 threads.
pub fn default_threads() -> usize {
    let asked = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0);
    asked.unwrap_or_else(cores).min(max_threads())
}

/// The threads of a pool: `--threads` (already bounded) or [`default_threads`].
pub fn pool_threads(requested: Option<usize>) -> usize {
    requested.unwrap_or_else(default_threads).min(max_threads())
}

/// Caps rayon's global pool at [`default_threads`] before anything uses it, with one note on
/// stderr when `RAYON_NUM_THREADS` asked for more than the limit.
///
/// The pool itself is not built here: rayon builds it on first use, sized from
/// `RAYON_NUM_THREADS` or the cores. A question that never runs in parallel (one `distance`
/// with a table or a database) then starts no threads at all; building the pool eagerly cost
/// two thread starts and their idle spinning, a sixth of such a process's CPU time
/// (BENCHMARKS.md, "Issue 26: quiet-machine figures"). Where the variable asks for more than
/// the limit, it is rewritten to the limit, so the lazily built pool takes the cap.
pub fn cap_global_pool() {
    if let Some(asked) = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > max_threads())
    {
        stderr_line!(
            "npuzzle: RAYON_NUM_THREADS={asked} is more than the limit of {} threads on this machine; using {}",
            max_threads(),
            default_threads()
        );
        // Called first thing in `main`, before any other thread exists, so nothing reads the
        // environment concurrently.
        std::env::set_var("RAYON_NUM_THREADS", default_threads().to_string());
    }
}

/// Reads a `--threads` value (a clap `value_parser`).
///
/// # Errors
/// Not a number, 0, or more than [`max_threads`].
pub fn parse_threads(text: &str) -> Result<usize, String> {
    let threads: usize = text
        .trim()
        .parse()
        .map_err(|_| "expected a whole number of threads".to_string())?;
    let max = max_threads();
    if threads == 0 {
        Err("--threads must be at least 1".to_string())
    } else if threads > max {
        Err(format!(
            "{threads} threads are more than the limit of {max} on this machine (4 per core, at least 64, at most 1024)"
        ))
    } else {
        Ok(threads)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_four_per_core_between_64_and_1024() {
        let max = max_threads();
        assert!((64..=1024).contains(&max));
        assert_eq!(parse_threads("1"), Ok(1));
        assert_eq!(parse_threads(&max.to_string()), Ok(max));
        assert!(parse_threads(&(max + 1).to_string())
            .unwrap_err()
            .contains(&format!("limit of {max}")));
        assert!(parse_threads("0").is_err());
        assert!(parse_threads("-3").is_err());
        assert!(parse_threads("lots").is_err());
        assert!((1..=max).contains(&default_threads()));
        assert_eq!(pool_threads(Some(3)), 3);
        assert!(pool_threads(None) <= max);
    }
}
