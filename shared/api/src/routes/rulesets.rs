//! `GET /v1/rulesets`.

use super::problems::problems;
use crate::http::Reply;
use axum::extract::State;
use service::ctx::AppCtx;
use service::dto::RulesetList;
use std::sync::Arc;

problems! {
    /// How `list_rulesets` refuses a request, beyond the shared refusals it lists.
    ListRulesetsRefused {
        413 => "A request body over 64 KiB (this route reads none)",
    }
}

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
        ListRulesetsRefused,
    )
)]
pub async fn list_rulesets(State(ctx): State<Arc<AppCtx>>) -> Reply {
    Reply::json(200, ctx.rulesets())
}
