//! `GET /v1/rulesets`.

use crate::dto::{RulesetInfo, RulesetList};
use crate::error::Problem;
use crate::http::Reply;
use crate::AppCtx;
use axum::extract::State;
use std::sync::Arc;

/// List the games this server can host
///
/// Each ruleset has an id to create games with, its seat range, its rules version and a JSON
/// Schema of its options.
#[utoipa::path(
    get,
    path = "/v1/rulesets",
    tag = "rulesets",
    responses(
        (status = 200, description = "Every ruleset", body = RulesetList),
        (status = 500, description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn list_rulesets(State(ctx): State<Arc<AppCtx>>) -> Reply {
    let rulesets = ctx
        .registry
        .iter()
        .map(|ruleset| {
            let (min_seats, max_seats) = ruleset.seat_range();
            RulesetInfo {
                id: ruleset.id().to_string(),
                name: ruleset.name().to_string(),
                min_seats,
                max_seats,
                rules_version: ruleset.rules_version(),
                options_schema: crate::openapi::options_schema(ruleset),
            }
        })
        .collect();
    Reply::json(200, &RulesetList { rulesets })
}
