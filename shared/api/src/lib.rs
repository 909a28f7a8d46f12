//! The Beurs HTTP API (DESIGN.md §5): every route, auth, optimistic concurrency,
//! problem+json errors, the audit and the OpenAPI document.
//!
//! Layout:
//! - [`routes`]: one module per resource; each handler is an axum handler with typed
//!   extractors, returning `Result<Reply, ApiError>`. [`api_routes`] lists them all once.
//! - [`edge`]: request ids, tracing spans, problem bodies, CORS, limits and timeouts around
//!   the router; `beurs serve` and every Lambda function serve the very same [`edge::app`].
//! - [`http`]: the extractors and [`http::Reply`]. [`error`]: `ApiError`, its statuses and
//!   codes, and the one place an error becomes a problem.
//! - [`auth`]: tokens (random, prefixed, stored as SHA-256, compared in constant time).
//! - [`audit`]: the seed, state hashes, the audit document and its offline verification.
//! - [`openapi`]: the utoipa document, with every game's schemas.
//!
//! Architecture invariant: this is the only crate that knows HTTP. It never serializes an
//! engine state to a client: clients get `view(viewer)` and projected events only, and the
//! seed and secret appear only in the audit of a finished game.

pub mod allowance;
pub mod audit;
pub mod auth;
pub mod bots;
pub mod catalog;
pub mod clock;
pub mod ctx;
pub mod deadlines;
pub mod delivery;
pub mod dice;
pub mod dto;
pub mod edge;
#[cfg(feature = "dynamo")]
mod env;
pub mod error;
pub mod game;
pub mod http;
pub mod lambda;
pub mod log;
pub mod openapi;
pub mod reference;
pub mod routes;
pub mod seed;
pub mod states;
pub mod streams;
pub mod time;
pub mod webhooks;

pub use catalog::registry;
pub use ctx::AppCtx;
#[cfg(feature = "dynamo")]
pub use env::{init_lambda_logs, run_lambda, EnvError};
pub use routes::docs::{get_docs, get_openapi};
pub use routes::{api_routes, router, PAGE_ROUTES};
