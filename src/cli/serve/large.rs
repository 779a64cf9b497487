//! Boards beyond 5x5 in the API: up to [`MAX_CELLS`] cells (32x32, or any shape with as many
//! cells), answered by the library's [`npuzzle::large`]: shuffles by its seeded scramblers,
//! solutions and hints by the constructive solver, labelled with the guarantee it carries
//! (`none`); claimed solutions replayed and judged by the library ([`judge_large`]). No exact
//! distance is given there: no table or pattern database exists beyond
//! 5x5, and an optimal search would not finish within a request's time.
//!
//! The bound on cells is the server's, not the library's (which reads up to 64x64): the
//! constructive solver takes under a second on a 32x32 (BENCHMARKS.md), so a request stays
//! within the server's time limit, and its state and solution stay small in memory.

use axum::Json;

use npuzzle::large::{scrambles, solve_constructive, LargeBoard, LargeState, Scrambler};
use npuzzle::verify::large::judge_large;
use npuzzle::{moves_to_string, Guarantee, Metric, Move, State};

use super::super::input::shorten;
use super::api::{ApiError, InstanceJson, SampleJson, SolveJson, VerifyJson, MAX_SAMPLE_COUNT};

/// The most cells of a board the server answers on (a 32x32 board).
pub const MAX_CELLS: usize = 1024;

/// The boards beyond 5x5 of the page's menu, in its order (the API takes any up to
/// [`MAX_CELLS`]).
pub const MENU: [(usize, usize); 5] = [(6, 6), (7, 7), (8, 8), (9, 9), (10, 10)];

/// The longest random walk a shuffle takes, in moves.
pub const MAX_WALK: usize = 100_000;

/// The most work one `sample` request on these boards may ask: instances times the larger of
/// the walk's moves and the board's cells (each cell is written out).
pub const MAX_SAMPLE_WORK: u64 = 1_000_000;

/// Why the page shows no distance on these boards, and what the hints are.
pub fn detail(board: LargeBoard) -> String {
    format!(
        "{board}: no exact distance (beyond 5x5 there is no table and no pattern databases, and an optimal search would not finish within the server's time limit); hints and solutions come from the constructive solver (rows and columns in turn), guarantee none: not optimal (about twice the optimum on random 4x4s). It works in single-tile moves: under MTM its runs of moves in one direction count as one slide each and a hint is the first slide, but it does not look for short MTM solutions. Shuffles: a uniformly random solvable state, or a random walk"
    )
}

/// The board of a question, where it is beyond 5x5: the `board` parameter, else the start's
/// rows or cell count (where the small types cannot read it). `None`: a question for the
/// small boards, whose own parsing then answers (and names any error).
fn large_board(board: Option<&str>, start: Option<&str>) -> Result<Option<LargeBoard>, ApiError> {
    let board = match board.filter(|t| !t.is_empty()) {
        Some(text) => text
            .parse::<LargeBoard>()
            .map_err(|e| ApiError::bad(format!("invalid board `{}`: {e}", shorten(text))))?,
        None => match start {
            Some(text) if State::parse(text, None).is_err() => {
                match LargeState::parse(text, None) {
                    Ok(state) => state.board(),
                    Err(_) => return Ok(None),
                }
            }
            _ => return Ok(None),
        },
    };
    if board.to_small().is_some() {
        return Ok(None);
    }
    if board.cells() > MAX_CELLS {
        return Err(ApiError::bad(format!(
            "board {board} has {} cells, over this server's limit of {MAX_CELLS} (32x32); `npuzzle solve` takes boards up to 64x64",
            board.cells()
        )));
    }
    Ok(Some(board))
}

/// Reads one state of `board`.
fn read_state(what: &str, text: &str, board: LargeBoard) -> Result<LargeState, ApiError> {
    LargeState::parse(text, Some(board))
        .map_err(|e| ApiError::bad(format!("invalid {what} `{}`: {e}", shorten(text))))
}

/// A start and goal beyond 5x5, or `None` where the question is for the small boards.
pub fn read_pair(
    start: Option<&str>,
    goal: Option<&str>,
    board: Option<&str>,
) -> Result<Option<(LargeState, LargeState)>, ApiError> {
    let Some(board) = large_board(board, start)? else {
        return Ok(None);
    };
    let start =
        start.ok_or_else(|| ApiError::bad("no start: add ?start=STATE (e.g. start=867254301)"))?;
    let start = read_state("start", start, board)?;
    let goal = match goal.filter(|g| !g.is_empty()) {
        Some(text) => read_state("goal", text, board)?,
        None => LargeState::goal(board),
    };
    Ok(Some((start, goal)))
}

/// The answer to `distance` beyond 5x5: none, and why (400: a question this server does not
/// answer).
pub fn no_distance(board: LargeBoard) -> ApiError {
    ApiError::bad(format!(
        "no exact distance on {board}: beyond 5x5 the server has no table or pattern databases and an optimal search would not finish in time; /api/solve gives a constructive solution (guarantee none)"
    ))
}

/// `verify` beyond 5x5: the library's verdict ([`judge_large`]: the moves replayed and
/// checked, the claimed guarantee held to what can be shown without an exact distance), the
/// claimed length counted in `metric`; no exact distance.
pub fn verify(
    (start, goal): (&LargeState, &LargeState),
    moves: Option<&[Move]>,
    unsolvable: Option<bool>,
    guarantee: Guarantee,
    metric: Metric,
) -> VerifyJson {
    let verdict = judge_large(start, goal, moves, unsolvable, guarantee);
    VerifyJson {
        start: start.to_string(),
        goal: goal.to_string(),
        verdict: verdict.kind().name(),
        detail: verdict.detail(),
        passes: verdict.passes(),
        exact: serde_json::Value::Null,
        // 2^32 moves or more saturate, as on the small boards.
        claimed: moves.map(|m| u32::try_from(metric.length(m)).unwrap_or(u32::MAX)),
        algorithm: "replay".into(),
    }
}

/// `solve` beyond 5x5: the constructive solver's solution, its length and first move counted
/// in `metric`, guarantee none. Unsolvable pairs are 422.
pub fn solve(start: &LargeState, goal: &LargeState, metric: Metric) -> Result<SolveJson, ApiError> {
    let began = std::time::Instant::now();
    let moves = solve_constructive(start, goal).map_err(|e| ApiError::unsolvable(e.to_string()))?;
    let elapsed = began.elapsed();
    Ok(SolveJson {
        start: start.to_string(),
        goal: goal.to_string(),
        board: start.board().to_string(),
        metric: metric.name(),
        distance: None,
        length: metric.length(&moves),
        moves: moves_to_string(&moves),
        hint: moves_to_string(metric.first_move(&moves)),
        path: None,
        algorithm: "constructive".into(),
        optimal: false,
        guarantee: Guarantee::None.to_string(),
        expanded: 0,
        time_ms: elapsed.as_secs_f64() * 1e3,
    })
}

/// Reads `scramble=uniform|walk` (uniform unless given).
pub fn read_scrambler(text: Option<&str>, moves: Option<usize>) -> Result<Scrambler, ApiError> {
    match text.filter(|t| !t.is_empty()).unwrap_or("uniform") {
        "uniform" if moves.is_some() => Err(ApiError::bad(
            "moves= goes with scramble=walk (a uniform draw takes no moves)",
        )),
        "uniform" => Ok(Scrambler::Uniform),
        "walk" => match moves {
            Some(moves) if moves > MAX_WALK => Err(ApiError::bad(format!(
                "moves {moves} is over the server's maximum of {MAX_WALK} a walk"
            ))),
            Some(moves) => Ok(Scrambler::Walk(moves)),
            None => Err(ApiError::bad("scramble=walk needs moves=N")),
        },
        other => Err(ApiError::bad(format!(
            "invalid scramble `{}`: expected uniform or walk",
            shorten(other)
        ))),
    }
}

/// The goal of a `sample` on any board: `goal` on `board`, or the board's default goal.
/// `None` where neither says a board beyond 5x5 (the small boards' parsing then reads it).
pub fn sample_goal(
    goal: Option<&str>,
    board: Option<&str>,
) -> Result<Option<LargeState>, ApiError> {
    let Some(board) = large_board(board, goal)? else {
        return Ok(None);
    };
    Ok(Some(match goal.filter(|g| !g.is_empty()) {
        Some(text) => read_state("goal", text, board)?,
        None => LargeState::goal(board),
    }))
}

/// `sample` with a scrambler (any board): `count` states drawn from one stream seeded with
/// `seed`, as `npuzzle sample --scramble` draws them; no distance. Boards of at most 25 cells
/// keep their compact spelling.
pub fn sample(
    goal: &LargeState,
    scrambler: Scrambler,
    count: u64,
    seed: u64,
) -> Result<Json<SampleJson>, ApiError> {
    if count > MAX_SAMPLE_COUNT {
        return Err(ApiError::bad(format!(
            "count {count} is over the server's maximum of {MAX_SAMPLE_COUNT} per request"
        )));
    }
    let each = match scrambler {
        Scrambler::Uniform => goal.board().cells(),
        Scrambler::Walk(moves) => moves.max(goal.board().cells()),
    } as u64;
    if count.saturating_mul(each) > MAX_SAMPLE_WORK {
        return Err(ApiError::bad(format!(
            "count {count} of {} on {} is over the server's maximum work of {MAX_SAMPLE_WORK} moves or cells per request",
            match scrambler {
                Scrambler::Uniform => "uniform states".to_string(),
                Scrambler::Walk(moves) => format!("{moves}-move walks"),
            },
            goal.board()
        )));
    }
    let spell = |state: &LargeState| match state.to_small() {
        Some(small) => small.to_string(),
        None => state.to_string(),
    };
    let goal_text = spell(goal);
    let instances = scrambles(goal, scrambler, seed)
        .take(usize::try_from(count).unwrap_or(usize::MAX))
        .map(|start| InstanceJson {
            start: spell(&start),
            goal: goal_text.clone(),
            distance: None,
        })
        .collect();
    Ok(Json(SampleJson {
        board: goal.board().to_string(),
        goal: goal_text,
        seed,
        instances,
    }))
}
