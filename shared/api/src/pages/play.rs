//! `GET /play` and `GET /play/{file}`: the reference play-by-web client (clients/web).
//!
//! The client is a TypeScript bundle built by `clients/web/build.mjs` into
//! `shared/api/assets/play/` and committed there, so the binary embeds it and a fresh machine
//! serves it with no Node.js (`.ci/web` checks the committed files match a fresh build). For
//! work on the client, `BEURS_PLAY_DIR=<dir>` serves the same three files from that directory
//! instead, read at every request, so a rebuild shows on reload.

use crate::error::{ApiError, Error};
use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS};
use axum::http::HeaderName;
use axum::response::{IntoResponse, Response};

/// The page, the script and the style sheet, as built.
const FILES: [(&str, &str, &[u8]); 3] = [
    (
        "index.html",
        "text/html; charset=utf-8",
        include_bytes!("../../assets/play/index.html"),
    ),
    (
        "play.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/play/play.js"),
    ),
    (
        "play.css",
        "text/css; charset=utf-8",
        include_bytes!("../../assets/play/play.css"),
    ),
];

/// What the page may load and talk to: this server only.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
     style-src 'self' 'unsafe-inline'; connect-src 'self'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// Serve the client's page.
pub async fn get_play() -> Result<Response, ApiError> {
    serve("index.html")
}

/// Serve the client's script or style sheet.
pub async fn get_play_file(Path(file): Path<String>) -> Result<Response, ApiError> {
    if file == "index.html" {
        return Err(ApiError::RouteNotFound);
    }
    serve(&file)
}

fn serve(file: &str) -> Result<Response, ApiError> {
    let (name, content_type, embedded) = FILES
        .iter()
        .find(|(name, _, _)| *name == file)
        .ok_or(ApiError::RouteNotFound)?;
    let body = match std::env::var_os("BEURS_PLAY_DIR") {
        Some(dir) => std::fs::read(std::path::Path::new(&dir).join(name)).map_err(|error| {
            Error::Internal(format!("BEURS_PLAY_DIR: cannot read {name}: {error}"))
        })?,
        None => embedded.to_vec(),
    };
    Ok((
        [
            (CONTENT_TYPE, *content_type),
            // Small files, always revalidated: a new release shows at once.
            (CACHE_CONTROL, "no-cache"),
            (X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (
                HeaderName::from_static("content-security-policy"),
                CONTENT_SECURITY_POLICY,
            ),
        ],
        body,
    )
        .into_response())
}
