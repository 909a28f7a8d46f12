//! The Beurs HTTP API (DESIGN.md §5): the HTTP edge over the game service (the `service`
//! crate): every route, its extractors, problem+json errors and the OpenAPI document.
//!
//! Layout:
//! - [`routes`]: one module per resource; each handler is an axum handler with typed
//!   extractors, returning `Result<Reply, ApiError>`. [`api_routes`] lists them all once.
//! - [`edge`]: request ids, tracing spans, problem bodies, CORS, limits and timeouts around
//!   the router; `beurs serve` and every Lambda function serve the very same [`edge::app`].
//! - [`http`]: the extractors and [`http::Reply`]. [`error`]: `ApiError`, the status of each
//!   of the service's codes, and the one place an error becomes a problem.
//! - [`openapi`]: the utoipa document, with every game's schemas; [`reference`]: the
//!   reference pages.
//!
//! Architecture invariant: this is the only crate that knows HTTP. It never serializes an
//! engine state to a client: clients get `view(viewer)` and projected events only, and the
//! seed and secret appear only in the audit of a finished game.

pub mod edge;
#[cfg(feature = "dynamo")]
mod env;
pub mod error;
pub mod http;
pub mod lambda;
pub mod openapi;
pub mod pages;
pub mod reference;
pub mod routes;

#[cfg(feature = "dynamo")]
pub use env::{init_lambda_logs, run_lambda};
pub use pages::docs::{get_docs, get_openapi};
pub use pages::{router, PAGE_ROUTES};
pub use routes::api_routes;
#[cfg(feature = "dynamo")]
pub use service::EnvError;
pub use service::{registry, AppCtx};
