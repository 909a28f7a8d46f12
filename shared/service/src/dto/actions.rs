//! Moves: the legal actions of a seat, a submitted action and its answer.

use super::common::GameStatus;
use game_core::Outcome;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use utoipa::ToSchema;

/// The caller's legal actions.
#[derive(Debug, Serialize, ToSchema)]
pub struct LegalActions {
    /// The game's ruleset (tells which actions these are).
    pub ruleset: String,
    /// The version these actions are legal at (use it as `If-Match`).
    pub version: u64,
    /// The caller's seat.
    pub seat: u8,
    /// Each entry is `{"action": {…}}` (ready to submit) or `{"label": "…", "schema": {…}}`
    /// (a JSON Schema the action must match; the engine still has the final word).
    #[schema(value_type = Vec<Object>)]
    pub actions: Box<RawValue>,
}

/// Submit a move.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SubmitAction {
    /// The action, e.g. `{"type": "commit_card", "card": "speculate"}`.
    #[schema(value_type = Object)]
    pub action: Value,
}

/// An accepted move.
// Also what an Idempotency-Key keeps: a retry is answered with the first one, read back.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ActionResult {
    /// The game's ruleset (tells which view and events these are).
    pub ruleset: String,
    /// The record version after the move.
    pub version: u64,
    /// The move's position in the log.
    pub seq: u64,
    /// The events the move caused that the caller may see.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Value>,
    /// Each of `events` in words, in the same order.
    pub event_texts: Vec<String>,
    /// The caller's view after the move.
    #[schema(value_type = Object)]
    pub view: Box<RawValue>,
    /// `active`, or `finished` if the move ended the game.
    pub status: GameStatus,
    /// Seats with at least one legal action after the move.
    pub to_act: Vec<u8>,
    /// Seats the game is waiting on after the move.
    pub waiting_on: Vec<u8>,
    /// The result, if the move ended the game.
    pub outcome: Option<Outcome>,
    /// The caller's legal actions now: present only when asked for with
    /// `include=legal_actions`. Their `version` is the game's version when the answer was
    /// made, which is later than this move's `version` if bots moved after it.
    #[serde(skip_serializing_if = "Option::is_none", default, skip_deserializing)]
    pub legal_actions: Option<LegalActions>,
}
