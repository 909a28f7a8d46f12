//! The bodies of the notifications a subscription receives.

use super::common::GameStatus;
use super::webhooks::WebhookEvent;
use game_core::Outcome;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

/// The `data` of a `turn` notification: the game now waits on the subscribing seat.
#[derive(Debug, Serialize, ToSchema)]
pub struct TurnData {
    /// The game id.
    pub game_id: String,
    /// The ruleset id (tells which view this is).
    pub ruleset: String,
    /// The record version that started the turn (use it as `If-Match`).
    pub version: u64,
    /// The subscribing seat, whose turn it is.
    pub seat: u8,
    /// The log entry that started the turn.
    pub seq: u64,
    /// Seats with at least one legal action now.
    pub to_act: Vec<u8>,
    /// Seats the game is waiting on.
    pub waiting_on: Vec<u8>,
    /// When the seat's move clock runs out (RFC 3339); null in a game without a clock.
    pub deadline: Option<String>,
    /// The seat's view, as `GET /v1/games/{id}` with its token shows it at this version.
    #[schema(value_type = Object)]
    pub view: Value,
}

/// The `data` of a `reminder` notification: the seat's time is running out.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReminderData {
    /// The game id.
    pub game_id: String,
    /// The ruleset id.
    pub ruleset: String,
    /// The record version when the reminder was sent.
    pub version: u64,
    /// The subscribing seat, whose time is running out.
    pub seat: u8,
    /// When the seat's time runs out (RFC 3339).
    pub deadline: String,
}

/// The `data` of a `timeout` notification: a seat's time ran out.
#[derive(Debug, Serialize, ToSchema)]
pub struct TimeoutData {
    /// The game id.
    pub game_id: String,
    /// The ruleset id.
    pub ruleset: String,
    /// The record version right after the timeout was applied.
    pub version: u64,
    /// The seat whose time ran out.
    pub seat: u8,
    /// What was done: `bot` (a bot played the seat's turn) or `drop` (the seat resigned and a
    /// bot plays it to the end).
    pub policy: crate::clock::TimeoutPolicy,
}

/// The `data` of an `action` notification (admin subscriptions): a move was made. Public
/// information only.
#[derive(Debug, Serialize, ToSchema)]
pub struct ActionData {
    /// The game id.
    pub game_id: String,
    /// The ruleset id (tells which action and events these are).
    pub ruleset: String,
    /// The record version after the move.
    pub version: u64,
    /// The move's position in the log.
    pub seq: u64,
    /// The seat that moved.
    pub seat: u8,
    /// The action, or null when it is hidden from spectators (a sealed choice).
    #[schema(value_type = Object, nullable)]
    pub action: Value,
    /// The move's public events.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Value>,
    /// The game's status after the move.
    pub status: GameStatus,
    /// Seats with at least one legal action after the move.
    pub to_act: Vec<u8>,
}

/// The `data` of a `finished` notification: the game is over.
#[derive(Debug, Serialize, ToSchema)]
pub struct FinishedData {
    /// The game id.
    pub game_id: String,
    /// The ruleset id (tells which view this is).
    pub ruleset: String,
    /// The record version of the finished game.
    pub version: u64,
    /// The subscribing seat; absent in the admin's notification.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// The result.
    pub outcome: Outcome,
    /// The final view: the seat's, or the spectator's for the admin.
    #[schema(value_type = Object)]
    pub view: Value,
}

/// The body of every notification, in the shape Standard Webhooks recommends.
#[derive(Debug, Serialize)]
pub struct Notification<D> {
    /// `turn`, `action` or `finished`.
    #[serde(rename = "type")]
    pub kind: WebhookEvent,
    /// When the move that caused it was committed (RFC 3339).
    pub timestamp: String,
    /// What happened.
    pub data: D,
}
