//! `npuzzle serve`: a local web page and a JSON API over the answer layer, on 127.0.0.1.
//!
//! A shell like the command line: each route parses its input with the CLI's spellings
//! ([`super::input`]), asks the [`npuzzle::Oracle`] (which decides table or search), and
//! writes JSON; outcomes map to statuses (malformed input 400, unsolvable pair 422, a limit
//! reached or every search slot taken 503) with `{"error": "..."}` carrying the CLI's message.
//!
//! Bounds, so that one client cannot take the server down: request bodies of at most
//! [`MAX_BODY`]; every question runs on tokio's blocking pool (never on the threads that
//! accept connections), at most [`MAX_ANSWERING`] at once; questions that need a search
//! (boards without a table) take one of [`search_slots`] slots or are refused with 503 at
//! once; a search runs within its request's `limit` (default [`api::DEFAULT_LIMIT`], at most
//! [`api::MAX_LIMIT`]); `sample` draws at most [`api::MAX_SAMPLE_COUNT`] instances.

mod api;
mod boards;
mod page;

use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use tokio::sync::Semaphore;

use npuzzle::Oracle;

use super::args::ServeArgs;
use super::{CommandResult, Context, Failure};

/// The largest request body read (a verify request with a long move string fits many times).
pub const MAX_BODY: usize = 64 * 1024;

/// Questions answered at once on the blocking pool (table reads take microseconds; more
/// requests wait their turn).
pub const MAX_ANSWERING: usize = 64;

/// Searches (questions on boards without a table) running at once: one per core, at least
/// two. A search request beyond them is refused with 503 rather than queued behind minutes of
/// work.
pub fn search_slots() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().max(2))
}

/// What every request handler shares.
#[derive(Clone)]
pub struct Shared {
    /// The answer layer.
    pub oracle: Arc<Oracle>,
    /// Permits to run a question on the blocking pool.
    pub answering: Arc<Semaphore>,
    /// Permits to run a search.
    pub searches: Arc<Semaphore>,
}

/// The router: the page, its assets and the API.
pub fn router(shared: Shared) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/style.css", get(page::style))
        .route("/api/distance", get(api::distance))
        .route("/api/solve", get(api::solve))
        .route("/api/verify", post(api::verify))
        .route("/api/sample", get(api::sample))
        .route("/api/boards", get(boards::boards))
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared)
}

/// Serves until Ctrl-C (or SIGTERM). The URL goes to stdout, flushed, before the first request
/// is accepted, so a script (or a test) that started `serve --port 0` can read it.
pub fn run(args: &ServeArgs, context: &mut Context) -> CommandResult {
    let shared = Shared {
        oracle: context.shared_oracle(),
        answering: Arc::new(Semaphore::new(MAX_ANSWERING)),
        searches: Arc::new(Semaphore::new(search_slots())),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        // Blocking threads beyond the permits would only wait.
        .max_blocking_threads(MAX_ANSWERING + 2)
        .enable_all()
        .build()
        .map_err(|e| Failure::usage(format!("cannot start the server's runtime: {e}")))?;
    runtime.block_on(async move {
        let address = SocketAddr::from((Ipv4Addr::LOCALHOST, args.port));
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| Failure::usage(format!("cannot listen on {address}: {e}")))?;
        let bound = listener.local_addr()?;
        {
            let mut out = std::io::stdout().lock();
            writeln!(out, "http://{bound}/")?;
            out.flush()?;
        }
        eprintln!("npuzzle: serving on http://{bound}/ (Ctrl-C stops)");
        axum::serve(listener, router(shared))
            .with_graceful_shutdown(stop_signal())
            .await?;
        Ok(())
    })
}

/// Resolves on Ctrl-C or SIGTERM.
async fn stop_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}
