//! The page: plain HTML, CSS and JavaScript from `web/`, embedded in the binary at compile
//! time (no build step, nothing fetched at run time).

use axum::http::header;
use axum::response::{Html, IntoResponse};

/// `web/index.html`.
pub const INDEX: &str = include_str!("../../../web/index.html");
/// `web/app.js`.
pub const SCRIPT: &str = include_str!("../../../web/app.js");
/// `web/style.css`.
pub const STYLE: &str = include_str!("../../../web/style.css");

/// `GET /`.
pub async fn index() -> Html<&'static str> {
    Html(INDEX)
}

/// `GET /app.js`.
pub async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
}

/// `GET /style.css`.
pub async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE)
}
