//! The JSON API: each route reads its parameters with the command line's spellings and
//! messages, asks the answer layer on the blocking pool, and writes JSON.

use std::time::Duration;

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Query, State as With};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

use npuzzle::answer::{AnswerError, Exact, NoAnswer};
use npuzzle::sample::{self as sampling, SampleOptions};
use npuzzle::verify::{parse_moves, Claim};
use npuzzle::{
    moves_to_string, Board, Guarantee, How, Limits, Method, Metric, Oracle, State, TableError,
};

use super::super::input::{goal_of, parse_state, shorten};
use super::super::limits::{parse_limit, LimitArg};
use super::super::Failure;
use super::{large, Shared};

/// The search limit of a request that names none.
pub const DEFAULT_LIMIT: Duration = Duration::from_secs(5);

/// The largest search limit a request may ask for.
pub const MAX_LIMIT: Duration = Duration::from_secs(30);

/// The most instances one `sample` request draws.
pub const MAX_SAMPLE_COUNT: u64 = 1000;

/// An answer the API could not give: a status and the one-line message.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    /// On a search that gave up: a lower bound on the distance.
    lower_bound: Option<u32>,
}

#[derive(Serialize)]
struct ErrorJson<'a> {
    error: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    lower_bound: Option<u32>,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            lower_bound: None,
        }
    }

    /// Malformed input: 400.
    pub(super) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl ApiError {
    /// A pair with no solution: 422.
    pub(super) fn unsolvable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorJson {
            error: &self.message,
            lower_bound: self.lower_bound,
        };
        (self.status, Json(body)).into_response()
    }
}

/// A command-line failure's message (parse errors): 400.
impl From<Failure> for ApiError {
    fn from(failure: Failure) -> ApiError {
        ApiError::bad(failure.message.unwrap_or_else(|| "invalid input".into()))
    }
}

/// The answer layer's errors: a question that cannot be asked is 400; a table that cannot be
/// opened or read is the server's fault, 500.
impl From<AnswerError> for ApiError {
    fn from(error: AnswerError) -> ApiError {
        let refused = match &error {
            AnswerError::Source { reason, .. } | AnswerError::DatabaseSource { reason, .. } => {
                reason.downcast_ref::<super::policy::Refused>()
            }
            _ => None,
        };
        if let Some(refused) = refused {
            // Not built here (the build policy) or over the memory budget: the server's
            // choice, which a retry, `--build` or a larger budget changes.
            return ApiError::new(StatusCode::SERVICE_UNAVAILABLE, refused.to_string());
        }
        let status = match &error {
            AnswerError::Source { .. }
            | AnswerError::Table(TableError::Damaged { .. } | TableError::Inconsistent { .. }) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
            _ => StatusCode::BAD_REQUEST,
        };
        let message = Failure::from(error).message.unwrap_or_default();
        ApiError::new(status, message)
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> ApiError {
        ApiError::new(rejection.status(), rejection.body_text())
    }
}

/// A body that is not the JSON asked for is malformed input, 400 (axum says 422 for JSON of
/// the wrong shape; here 422 is kept for unsolvable pairs); too large stays 413.
impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        let status = match rejection.status() {
            StatusCode::UNPROCESSABLE_ENTITY => StatusCode::BAD_REQUEST,
            other => other,
        };
        ApiError::new(status, rejection.body_text())
    }
}

/// Any route that does not exist.
pub async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such page: the routes are /, /api/distance, /api/solve, /api/verify (POST), /api/sample and /api/boards",
    )
}

/// The parameters of `distance` and `solve`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairQuery {
    start: Option<String>,
    goal: Option<String>,
    #[serde(alias = "size")]
    board: Option<String>,
    limit: Option<String>,
    /// `stm` (the default) or `mtm`.
    metric: Option<String>,
}

/// A start and a goal read as the command line reads them.
struct Pair {
    start: State,
    goal: State,
    how: How,
}

fn read_board(text: Option<&str>) -> Result<Option<Board>, ApiError> {
    text.filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<Board>()
                .map_err(|e| ApiError::bad(format!("invalid board `{}`: {e}", shorten(t))))
        })
        .transpose()
}

/// The request's search limits: `limit` in the CLI's spellings (`5s`, `250ms`, `2M`), a time
/// of at most [`MAX_LIMIT`]; every search is bounded in time whatever is asked.
fn read_limits(text: Option<&str>) -> Result<Limits, ApiError> {
    let mut limits = Limits::NONE.time(DEFAULT_LIMIT);
    match text.filter(|t| !t.is_empty()).map(parse_limit).transpose() {
        Err(message) => return Err(ApiError::bad(message)),
        Ok(None) => {}
        Ok(Some(LimitArg::Nodes(nodes))) => limits.max_expanded = Some(nodes),
        Ok(Some(LimitArg::Time(time))) if time > MAX_LIMIT => {
            return Err(ApiError::bad(format!(
                "limit {} s is over the server's maximum of {} s",
                time.as_secs_f64(),
                MAX_LIMIT.as_secs()
            )))
        }
        Ok(Some(LimitArg::Time(time))) => limits.max_time = Some(time),
    }
    Ok(limits)
}

/// The request's metric: `stm` unless `metric=mtm`.
fn read_metric(text: Option<&str>) -> Result<Metric, ApiError> {
    let metric = match text.filter(|t| !t.is_empty()) {
        None => Metric::Stm,
        Some(text) => text
            .parse::<Metric>()
            .map_err(|e| ApiError::bad(format!("invalid metric `{}`: {e}", shorten(text))))?,
    };
    Ok(metric)
}

fn read_pair(query: &PairQuery) -> Result<Pair, ApiError> {
    let board = read_board(query.board.as_deref())?;
    let start = query
        .start
        .as_deref()
        .ok_or_else(|| ApiError::bad("no start: add ?start=STATE (e.g. start=867254301)"))?;
    let start = parse_state("start", start, board)?;
    let goal = match query.goal.as_deref().filter(|g| !g.is_empty()) {
        Some(text) => parse_state("goal", text, Some(start.board()))?,
        None => State::goal(start.board()),
    };
    let metric = read_metric(query.metric.as_deref())?;
    Ok(Pair {
        start,
        goal,
        how: How::within(read_limits(query.limit.as_deref())?).in_metric(metric),
    })
}

/// Runs `question` on the blocking pool, within the server's bounds: a question that needs a
/// search takes a search slot or is refused (503) at once.
pub(super) async fn ask<T: Send + 'static>(
    shared: &Shared,
    board: Board,
    question: impl FnOnce(&Oracle) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    ask_with(shared, !shared.oracle.uses_table(board), question).await
}

/// [`ask`] for a question that takes a search slot where `searches` (a search, or the
/// constructive solver on a large board: work that grows with the board, not a table read).
pub(super) async fn ask_with<T: Send + 'static>(
    shared: &Shared,
    searches: bool,
    question: impl FnOnce(&Oracle) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let search = if !searches {
        None
    } else {
        Some(shared.searches.clone().try_acquire_owned().map_err(|_| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "busy: every search slot ({}) is taken by another request; try again in a moment",
                    super::search_slots()
                ),
            )
        })?)
    };
    let permit = shared
        .answering
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping"))?;
    let oracle = shared.oracle.clone();
    let result = tokio::task::spawn_blocking(move || {
        let _permits = (permit, search);
        question(&oracle)
    })
    .await;
    result.unwrap_or_else(|e| {
        Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the question failed inside the server: {e}"),
        ))
    })
}

/// The error for an answer without a value: unsolvable 422, a limit reached 503 (with a
/// lower bound on the distance).
fn no_answer(
    oracle: &npuzzle::Oracle,
    why: NoAnswer,
    cost: &npuzzle::Answer<()>,
    pair: &Pair,
) -> ApiError {
    match why {
        NoAnswer::GaveUp(limit) => ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!(
                "{} gave up at the {limit} after expanding {} nodes in {:.2} s without reaching the goal; raise it with limit= (at most {} s)",
                match cost.method {
                    Method::Search { algorithm, .. } => algorithm.name(),
                    _ => "the search",
                },
                cost.expanded,
                cost.elapsed.as_secs_f64(),
                MAX_LIMIT.as_secs()
            ),
            lower_bound: oracle.lower_bound(&pair.start, &pair.goal),
        },
        why => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, why.to_string()),
    }
}

/// `method`'s name as the command line's `--stats` and JSON write it.
fn method_name(method: &Method) -> String {
    method.to_string()
}

#[derive(Serialize)]
pub struct DistanceJson {
    start: String,
    goal: String,
    board: String,
    distance: u8,
    algorithm: String,
    expanded: u64,
    time_ms: f64,
}

/// `GET /api/distance?start=S&goal=G[&board=WxH][&limit=5s]`.
pub async fn distance(
    With(shared): With<Shared>,
    query: Result<Query<PairQuery>, QueryRejection>,
) -> Result<Json<DistanceJson>, ApiError> {
    let Query(query) = query?;
    if let Some((start, _)) = large::read_pair(
        query.start.as_deref(),
        query.goal.as_deref(),
        query.board.as_deref(),
    )? {
        read_metric(query.metric.as_deref())?;
        return Err(large::no_distance(start.board()));
    }
    let pair = read_pair(&query)?;
    let board = pair.start.board();
    ask(&shared, board, move |oracle| {
        let answer = oracle.distance(&pair.start, &pair.goal, pair.how)?;
        let (value, cost) = answer.split();
        let distance = value.map_err(|why| no_answer(oracle, why, &cost, &pair))?;
        Ok(Json(DistanceJson {
            start: pair.start.to_string(),
            goal: pair.goal.to_string(),
            board: board.to_string(),
            distance,
            algorithm: method_name(&cost.method),
            expanded: cost.expanded,
            time_ms: cost.elapsed.as_secs_f64() * 1e3,
        }))
    })
    .await
}

/// A solution: optimal on boards up to 5x5, the constructive solver's beyond.
#[derive(Serialize)]
pub struct SolveJson {
    pub(super) start: String,
    pub(super) goal: String,
    pub(super) board: String,
    /// `stm` or `mtm`: what `distance`, `length` and `hint` count.
    pub(super) metric: &'static str,
    /// The exact distance where the solution is optimal, else null.
    pub(super) distance: Option<usize>,
    /// The solution's length in the metric.
    pub(super) length: usize,
    pub(super) moves: String,
    /// The solution's first move in the metric (one letter under STM, one slide under MTM).
    pub(super) hint: String,
    /// The states along the solution (not on boards beyond 5x5, where it would be long).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) path: Option<Vec<String>>,
    pub(super) algorithm: String,
    pub(super) optimal: bool,
    /// `optimal`, `within F` or `none`, as `npuzzle solve` labels it.
    pub(super) guarantee: String,
    pub(super) expanded: u64,
    pub(super) time_ms: f64,
}

/// `GET /api/solve?start=S&goal=G[&board=WxH][&limit=5s][&metric=mtm]`: an optimal solution,
/// or beyond 5x5 the constructive solver's (guarantee none).
pub async fn solve(
    With(shared): With<Shared>,
    query: Result<Query<PairQuery>, QueryRejection>,
) -> Result<Json<SolveJson>, ApiError> {
    let Query(query) = query?;
    if let Some((start, goal)) = large::read_pair(
        query.start.as_deref(),
        query.goal.as_deref(),
        query.board.as_deref(),
    )? {
        let metric = read_metric(query.metric.as_deref())?;
        return ask_with(&shared, true, move |_| {
            large::solve(&start, &goal, metric).map(Json)
        })
        .await;
    }
    let pair = read_pair(&query)?;
    let board = pair.start.board();
    ask(&shared, board, move |oracle| {
        let answer = oracle.solve(&pair.start, &pair.goal, pair.how)?;
        let (value, cost) = answer.split();
        let solution = value.map_err(|why| no_answer(oracle, why, &cost, &pair))?;
        let metric = pair.how.metric;
        let length = metric.length(solution.moves());
        Ok(Json(SolveJson {
            start: pair.start.to_string(),
            goal: pair.goal.to_string(),
            board: board.to_string(),
            metric: metric.name(),
            distance: cost.method.is_optimal().then_some(length),
            length,
            moves: solution.moves_string(),
            hint: moves_to_string(metric.first_move(solution.moves())),
            path: Some(solution.path().iter().map(State::to_string).collect()),
            algorithm: method_name(&cost.method),
            optimal: cost.method.is_optimal(),
            guarantee: cost.method.guarantee().to_string(),
            expanded: cost.expanded,
            time_ms: cost.elapsed.as_secs_f64() * 1e3,
        }))
    })
    .await
}

/// The body of `POST /api/verify`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifyBody {
    start: String,
    #[serde(default)]
    goal: Option<String>,
    #[serde(default, alias = "size")]
    board: Option<String>,
    /// The claimed moves (`U D L R`, any case, separators allowed, as `verify` reads them).
    #[serde(default)]
    moves: Option<String>,
    /// Claims that the pair has no solution.
    #[serde(default)]
    unsolvable: Option<bool>,
    #[serde(default)]
    limit: Option<String>,
    /// `stm` (the default) or `mtm`.
    #[serde(default)]
    metric: Option<String>,
    /// The guarantee the answer carries, as solutions are labelled (`optimal`, the default;
    /// `within 1.2`; `none`), which the verdict holds it to.
    #[serde(default)]
    guarantee: Option<String>,
}

#[derive(Serialize)]
pub struct VerifyJson {
    pub(super) start: String,
    pub(super) goal: String,
    pub(super) verdict: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) detail: Option<String>,
    pub(super) passes: bool,
    /// The exact distance, `"unsolvable"`, or null when it was not needed or not found.
    pub(super) exact: serde_json::Value,
    pub(super) claimed: Option<u32>,
    pub(super) algorithm: String,
}

/// The request's claimed guarantee: `optimal` unless given, else a label as
/// [`Guarantee`] reads it.
fn read_guarantee(text: Option<&str>) -> Result<Guarantee, ApiError> {
    match text.filter(|t| !t.is_empty()) {
        None => Ok(Guarantee::Optimal),
        Some(text) => text.parse().map_err(|e| {
            ApiError::bad(format!(
                "invalid guarantee `{}`: {e} (or optimal, none)",
                shorten(text)
            ))
        }),
    }
}

/// `POST /api/verify` with `{"start", "goal", "moves"}` (or `"unsolvable": true`), and the
/// `guarantee` the answer carries (`optimal` unless given): the verdict `npuzzle verify`
/// gives that answer. Beyond 5x5 the moves are replayed and checked and the guarantee held
/// to what can be shown without an exact distance ([`npuzzle::verify::large::judge_large`]).
pub async fn verify(
    With(shared): With<Shared>,
    body: Result<Json<VerifyBody>, JsonRejection>,
) -> Result<Json<VerifyJson>, ApiError> {
    let Json(body) = body?;
    let guarantee = read_guarantee(body.guarantee.as_deref())?;
    let large_pair = large::read_pair(
        Some(body.start.as_str()),
        body.goal.as_deref(),
        body.board.as_deref(),
    )?;
    let moves = body
        .moves
        .as_deref()
        .map(parse_moves)
        .transpose()
        .map_err(|e| ApiError::bad(format!("invalid moves: {e}")))?;
    if moves.is_none() && body.unsolvable.is_none() {
        return Err(ApiError::bad(
            "no claim: give `moves` (e.g. \"LURD\") or `unsolvable`",
        ));
    }
    if let Some((start, goal)) = large_pair {
        let metric = read_metric(body.metric.as_deref())?;
        let unsolvable = body.unsolvable;
        // A replay, no search: no search slot, but off the async threads (a claim may
        // hold many moves).
        return ask_with(&shared, false, move |_| {
            Ok(Json(large::verify(
                (&start, &goal),
                moves.as_deref(),
                unsolvable,
                guarantee,
                metric,
            )))
        })
        .await;
    }
    let query = PairQuery {
        start: Some(body.start),
        goal: body.goal,
        board: body.board,
        limit: body.limit,
        metric: body.metric,
    };
    let mut pair = read_pair(&query)?;
    pair.how = pair.how.with_guarantee(guarantee);
    let claim = Claim {
        moves,
        unsolvable: body.unsolvable,
        ..Claim::default()
    };
    let board = pair.start.board();
    ask(&shared, board, move |oracle| {
        let answer = oracle.judge(&pair.start, &pair.goal, &claim, pair.how)?;
        let (value, cost) = answer.split();
        // `judge` always has a value: a search that gave up is the `unverified` verdict.
        let judged = value.map_err(|why| no_answer(oracle, why, &cost, &pair))?;
        let exact = match judged.exact {
            Exact::Distance(d) => serde_json::Value::from(d),
            Exact::Unsolvable => serde_json::Value::from("unsolvable"),
            Exact::Unknown => serde_json::Value::Null,
        };
        Ok(Json(VerifyJson {
            start: pair.start.to_string(),
            goal: pair.goal.to_string(),
            verdict: judged.verdict.name(),
            detail: judged.verdict.detail(),
            passes: judged.verdict.passes(Default::default()),
            exact,
            claimed: match (&claim.moves, pair.how.metric) {
                // 2^32 moves or more saturate, judged too long rather than cut short.
                (Some(moves), Metric::Mtm) => {
                    Some(u32::try_from(Metric::Mtm.length(moves)).unwrap_or(u32::MAX))
                }
                _ => claim.claimed_length(&pair.start),
            },
            algorithm: method_name(&cost.method),
        }))
    })
    .await
}

/// The parameters of `sample`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SampleQuery {
    goal: Option<String>,
    #[serde(alias = "size")]
    board: Option<String>,
    depth: Option<u8>,
    min_depth: Option<u8>,
    max_depth: Option<u8>,
    count: Option<u64>,
    seed: Option<u64>,
    unsolvable: Option<u64>,
    /// `uniform` or `walk` (with `moves`): the library's scramblers, on any board; the only
    /// shuffles beyond 5x5.
    scramble: Option<String>,
    /// The moves of a `scramble=walk`.
    moves: Option<usize>,
}

#[derive(Serialize)]
pub struct InstanceJson {
    pub(super) start: String,
    pub(super) goal: String,
    /// The exact distance, `"unsolvable"`, or absent when nobody computed it (no table).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) distance: Option<serde_json::Value>,
}

#[derive(Serialize)]
pub struct SampleJson {
    pub(super) board: String,
    pub(super) goal: String,
    pub(super) seed: u64,
    pub(super) instances: Vec<InstanceJson>,
}

/// `GET /api/sample?depth=D&count=N&seed=X[&goal=G][&board=WxH]`: instances drawn as
/// `npuzzle sample` draws them (the same seed gives the same instances).
pub async fn sample(
    With(shared): With<Shared>,
    query: Result<Query<SampleQuery>, QueryRejection>,
) -> Result<Json<SampleJson>, ApiError> {
    let Query(query) = query?;
    let large_goal = large::sample_goal(query.goal.as_deref(), query.board.as_deref())?;
    if large_goal.is_some() || query.scramble.is_some() || query.moves.is_some() {
        if query.depth.is_some() || query.min_depth.is_some() || query.max_depth.is_some() {
            return Err(ApiError::bad(
                "depth, min_depth and max_depth need an exact table: leave them out with scramble= (and on boards beyond 5x5, where shuffles are scrambles)",
            ));
        }
        if query.unsolvable.is_some_and(|n| n > 0) {
            return Err(ApiError::bad("unsolvable= is not offered with scramble="));
        }
        let goal = match large_goal {
            Some(goal) => goal,
            None => {
                let board = read_board(query.board.as_deref())?;
                let goal = goal_of(query.goal.as_deref().filter(|g| !g.is_empty()), board)?;
                npuzzle::large::LargeState::from_small(&goal)
            }
        };
        let scrambler = large::read_scrambler(query.scramble.as_deref(), query.moves)?;
        let count = query.count.unwrap_or(1);
        let seed = query.seed.unwrap_or_else(sampling::fresh_seed);
        return ask_with(&shared, true, move |_| {
            large::sample(&goal, scrambler, count, seed)
        })
        .await;
    }
    let board = read_board(query.board.as_deref())?;
    let goal = goal_of(query.goal.as_deref().filter(|g| !g.is_empty()), board)?;
    let count = query.count.unwrap_or(1);
    if count > MAX_SAMPLE_COUNT {
        return Err(ApiError::bad(format!(
            "count {count} is over the server's maximum of {MAX_SAMPLE_COUNT} per request"
        )));
    }
    let depths = sampling::depth_range(query.depth, query.min_depth, query.max_depth)
        .map_err(|_| ApiError::bad("depth cannot be given with min_depth or max_depth"))?;
    let options = SampleOptions {
        count,
        depths,
        unsolvable: query.unsolvable.unwrap_or(0),
    };
    let seed = query.seed.unwrap_or_else(sampling::fresh_seed);
    ask(&shared, goal.board(), move |oracle| {
        let instances = oracle
            .sample(&goal, &options, seed)?
            .map(|instance| InstanceJson {
                start: instance.start.to_string(),
                goal: instance.goal.to_string(),
                distance: match (instance.solvable, instance.distance) {
                    (false, _) => Some("unsolvable".into()),
                    (true, Some(d)) => Some(d.into()),
                    (true, None) => None,
                },
            })
            .collect();
        Ok(Json(SampleJson {
            board: goal.board().to_string(),
            goal: goal.to_string(),
            seed,
            instances,
        }))
    })
    .await
}
