//! `GET /v1/rulesets`: the games a server hosts.

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

/// A seat count that needs options other than the defaults.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeatCountWithOptions {
    /// The seat count.
    pub seats: u8,
    /// Options that make it playable (merge them into the game's `options`).
    #[schema(value_type = Object)]
    pub options: Value,
}

/// A game the server can host.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RulesetInfo {
    /// The ruleset id to create games with.
    #[schema(example = "tulipmania-1637")]
    pub id: String,
    /// The game's name.
    pub name: String,
    /// What the game is about, for players choosing one: a few plain sentences.
    pub summary: String,
    /// The fewest seats with the default options.
    pub min_seats: u8,
    /// The most seats with the default options.
    pub max_seats: u8,
    /// Seat counts outside `min_seats`..`max_seats` that the ruleset plays only with certain
    /// options (empty for most rulesets).
    pub seats_with_options: Vec<SeatCountWithOptions>,
    /// Bumped whenever a change would alter the replay of a recorded game.
    pub rules_version: u32,
    /// A JSON Schema of the `options` object accepted by `POST /v1/games`.
    #[schema(value_type = Object)]
    pub options_schema: Value,
}

/// The rulesets on offer.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RulesetList {
    /// Every ruleset.
    pub rulesets: Vec<RulesetInfo>,
}
