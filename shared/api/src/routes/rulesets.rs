//! `GET /v1/rulesets`.

use crate::dto::{RulesetInfo, RulesetList, SeatCountWithOptions};
use crate::error::Problem;
use crate::http::Reply;
use crate::AppCtx;
use axum::extract::State;
use game_core::{DynRuleset, Registry};
use serde_json::{json, Value};
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

/// What `GET /v1/rulesets` says of every registered ruleset. The seat counts are found by
/// trial deals rather than declared, so they cannot disagree with what `POST /v1/games`
/// accepts: a count is listed with default options if a game of it deals, and otherwise under
/// `seats_with_options` with the first boolean option (off by default) that makes it deal.
pub fn ruleset_list(registry: &Registry) -> RulesetList {
    let rulesets = registry
        .iter()
        .map(|ruleset| {
            let defaults = ruleset
                .normalize_options(&Value::Null)
                .expect("a ruleset's default options are valid");
            let deals =
                |seats: u8, options: &Value| ruleset.setup(seats, options, TRIAL_SEED).is_ok();
            let (lowest, highest) = ruleset.seat_range();
            let by_default: Vec<u8> = (lowest..=highest)
                .filter(|&seats| deals(seats, &defaults))
                .collect();
            let switches = boolean_switches(ruleset);
            let seats_with_options = (lowest..=highest)
                .filter(|seats| !by_default.contains(seats))
                .filter_map(|seats| {
                    switches.iter().find_map(|name| {
                        let options = json!({ name.as_str(): true });
                        let normalized = ruleset.normalize_options(&options).ok()?;
                        deals(seats, &normalized).then_some(SeatCountWithOptions { seats, options })
                    })
                })
                .collect();
            RulesetInfo {
                id: ruleset.id().to_string(),
                name: ruleset.name().to_string(),
                summary: ruleset.summary().to_string(),
                min_seats: by_default.first().copied().unwrap_or(lowest),
                max_seats: by_default.last().copied().unwrap_or(highest),
                seats_with_options,
                rules_version: ruleset.rules_version(),
                options_schema: crate::openapi::options_schema(ruleset),
            }
        })
        .collect();
    RulesetList { rulesets }
}

/// Any fixed seed will do for a trial deal: only whether setup succeeds is used.
const TRIAL_SEED: [u8; 32] = [7; 32];

/// The ruleset's boolean options that default to false: the switches that may unlock a seat
/// count.
fn boolean_switches(ruleset: &dyn DynRuleset) -> Vec<String> {
    let schema = crate::openapi::options_schema(ruleset);
    let Some(properties) = schema["properties"].as_object() else {
        return Vec::new();
    };
    properties
        .iter()
        .filter(|(_, property)| property["type"] == "boolean" && property["default"] == false)
        .map(|(name, _)| name.clone())
        .collect()
}
