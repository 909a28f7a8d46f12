//! `GET /v1/rulesets`.

use crate::ctx::AppCtx;
use crate::dto::RulesetList;
use crate::error::Problem;
use crate::http::Reply;
use axum::extract::State;
use std::sync::Arc;

/// List the games this server can host
///
/// Each ruleset has an id to create games with, the seat counts it plays (with default
/// options, and those that need an option), its rules version and a JSON Schema of its
/// options.
#[utoipa::path(
    get,
    path = "/v1/rulesets",
    tag = "rulesets",
    responses(
        (status = 200, description = "Every ruleset", body = RulesetList),
        (status = 413, description = "A request body over 64 KiB (this route reads none)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn list_rulesets(State(ctx): State<Arc<AppCtx>>) -> Reply {
    Reply::json(200, ctx.rulesets())
}
