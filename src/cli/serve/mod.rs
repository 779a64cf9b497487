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
//! [`api::MAX_LIMIT`]); `sample` draws at most [`api::MAX_SAMPLE_COUNT`] instances. Boards
//! beyond 5x5 are answered up to [`large::MAX_CELLS`] cells (the constructive solver, in a
//! search slot; larger boards are refused with 400).
//!
//! Connections, so that idle or slow clients cannot hold it either: at most
//! [`connection_cap`] open at once (below the descriptor limit; past it a connection gets a
//! 503 and is closed), request headers within [`HEADER_READ_TIMEOUT`] of a connection's
//! start or of its previous answer (hyper's header-read timeout, so an idle connection is
//! closed), and every request answered within [`REQUEST_TIMEOUT`] (tower-http's timeout,
//! 503 past it). What it may build is its [`policy`]: by default only what the data
//! directory holds is used.

mod api;
mod boards;
mod large;
mod page;
mod policy;

pub use policy::parse_memory;

use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::sync::Semaphore;
use tower_http::timeout::TimeoutLayer;

use npuzzle::answer::{BuildInMemory, DataDir, SourceEvent};
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
    /// Whether missing tables and databases are built on first use (`--build`).
    pub builds: bool,
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

/// How long a connection may take to send a request's headers, from its start or from its
/// previous answer: an idle connection is closed after this.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest a request may take: the longest search a request may ask for, and a margin
/// for the table reads around it. Past it the answer is 503.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(api::MAX_LIMIT.as_secs() + 10);

/// The most connections served at once whatever the descriptor limit allows.
pub const MAX_CONNECTIONS: usize = 4096;

/// Descriptors kept free of connections: the listener, the runtime's own, table files being
/// opened, and the one a refused connection takes while it is told so.
const DESCRIPTOR_RESERVE: usize = 128;

/// The soft limit on open descriptors (`Max open files` in `/proc/self/limits`), where it
/// can be read.
fn descriptor_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    let soft = line
        .trim_start_matches("Max open files")
        .split_whitespace()
        .next()?;
    if soft == "unlimited" {
        return Some(usize::MAX);
    }
    soft.parse().ok()
}

/// The most connections open at once: [`DESCRIPTOR_RESERVE`] below the descriptor limit (1024
/// assumed where it cannot be read), at least 16, at most [`MAX_CONNECTIONS`].
pub fn connection_cap() -> usize {
    descriptor_limit()
        .unwrap_or(1024)
        .saturating_sub(DESCRIPTOR_RESERVE)
        .clamp(16, MAX_CONNECTIONS)
}

/// The answer layer the server asks: the data directory's tables under `policy` (in memory
/// when there is no data directory).
fn policy_oracle(context: &Context, policy: policy::Policy) -> Oracle {
    let report = |event: SourceEvent<'_>| match event {
        SourceEvent::Notice(notice) => stderr_line!("npuzzle: {notice}"),
        SourceEvent::Building { goal, states } => stderr_line!(
            "npuzzle: building the {} table for goal {goal} ({states} states)",
            goal.board()
        ),
        SourceEvent::BuildingPattern { goal, tiles, .. } => {
            stderr_line!(
                "npuzzle: building the pattern database of tiles {tiles:?} for goal {goal}"
            )
        }
        _ => {}
    };
    match context.data_dir() {
        Ok(dir) => Oracle::new(policy::PolicySource::new(
            DataDir::new(dir.clone()).on_event(report),
            Some(dir.clone()),
            policy,
        )),
        Err(_) => Oracle::new(policy::PolicySource::new(
            BuildInMemory::default(),
            None,
            policy,
        )),
    }
}

/// Serves until Ctrl-C (or SIGTERM). The URL goes to stdout, flushed, before the first request
/// is accepted, so a script (or a test) that started `serve --port 0` can read it.
pub fn run(args: &ServeArgs, context: &mut Context) -> CommandResult {
    let policy = policy::Policy {
        build: args.build,
        max_memory: args.max_memory.unwrap_or_else(policy::default_max_memory),
    };
    let shared = Shared {
        oracle: Arc::new(policy_oracle(context, policy)),
        answering: Arc::new(Semaphore::new(MAX_ANSWERING)),
        searches: Arc::new(Semaphore::new(search_slots())),
        builds: policy.build,
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
        let cap = connection_cap();
        stderr_line!(
            "npuzzle: serving on http://{bound}/ (Ctrl-C stops); at most {cap} connections, {} tables: {}, memory for tables at most {:.0} MB",
            if policy.build { "missing" } else { "no missing" },
            if policy.build { "built on demand" } else { "not built (--build)" },
            policy.max_memory as f64 / 1e6
        );
        serve(listener, router(shared), cap).await;
        Ok(())
    })
}

/// The accept loop: each connection is served by hyper with [`HEADER_READ_TIMEOUT`], the
/// router behind [`REQUEST_TIMEOUT`]; past `cap` open connections a new one gets a 503 and is
/// closed. On Ctrl-C or SIGTERM it stops accepting, lets open requests finish (idle
/// connections close at once) and returns.
async fn serve(listener: tokio::net::TcpListener, app: Router, cap: usize) {
    let app = app.layer(TimeoutLayer::with_status_code(
        StatusCode::SERVICE_UNAVAILABLE,
        REQUEST_TIMEOUT,
    ));
    let open = Arc::new(Semaphore::new(cap));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT)
        .keep_alive(true);
    let stop = stop_signal();
    tokio::pin!(stop);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(_) => {
                    // Out of descriptors (or another transient error): the connections that
                    // hold them close within the header timeout; try again shortly rather
                    // than spin.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            tokio::spawn(refuse(stream, cap));
            continue;
        };
        let connection =
            http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    // Requests under way finish (each within REQUEST_TIMEOUT); idle connections close now.
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(REQUEST_TIMEOUT) => {}
    }
}

/// Tells a connection over the cap that the server is full, and closes it.
async fn refuse(mut stream: tokio::net::TcpStream, cap: usize) {
    use tokio::io::AsyncWriteExt;
    let body = format!(
        "{{\"error\":\"busy: the server has {cap} connections open, its limit; try again in a moment\"}}"
    );
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\nretry-after: 1\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
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
