//! Games: creating, reading, listing, history and rematch.

use super::actions::LegalActions;
use super::common::GameStatus;
use super::seats::SeatInfo;
use game_core::Outcome;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use utoipa::ToSchema;

/// Create a game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// The ruleset id (see `GET /v1/rulesets`).
    #[schema(example = "tulipmania-1637")]
    pub ruleset: String,
    /// Number of seats, within the ruleset's range.
    #[schema(example = 3, minimum = 1, maximum = 16)]
    pub seats: u8,
    /// The ruleset's options; omitted fields take their defaults.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub options: Value,
    /// When true, only the admin may claim seats and the game is not listed in the lobby.
    #[serde(default)]
    pub invite_only: bool,
    /// A move clock (default none: the game waits for its players for ever). When a seat's
    /// time runs out, `on_timeout` says what happens; reminders and timeouts are webhooks.
    #[serde(default)]
    pub clock: Option<crate::clock::ClockOptions>,
}

/// A newly created game. The admin token is shown only here.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedGame {
    /// The game id.
    #[schema(example = "g_5bWq1t0yqgGQm3WJcS4XxQ")]
    pub id: String,
    /// The ruleset id.
    pub ruleset: String,
    /// Number of seats.
    pub seats: u8,
    /// Always `open`.
    pub status: GameStatus,
    /// The record version (the `ETag`).
    pub version: u64,
    /// The admin token (`bt_admin_…`): keep it, it is never shown again.
    pub admin_token: String,
    /// SHA-256 (hex) of the server secret; the audit reveals the secret once the game ends.
    pub seed_commitment: String,
    /// The app the game belongs to (`a_…`), when an app's key created it: that key (with
    /// `games:admin`) administers it as the admin token does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app: Option<String>,
}

/// The caller's seat.
#[derive(Debug, Serialize, ToSchema)]
pub struct You {
    /// The caller's seat.
    pub seat: u8,
}

/// A game as the caller may see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameEnvelope {
    /// The game id.
    pub id: String,
    /// The ruleset id.
    pub ruleset: String,
    /// The rules version.
    pub rules_version: u32,
    /// Where the game is in its life.
    pub status: GameStatus,
    /// The record version, also sent as `ETag`.
    pub version: u64,
    /// Every seat.
    pub seats: Vec<SeatInfo>,
    /// The caller's seat, or null for spectators and the admin.
    pub you: Option<You>,
    /// Seats with at least one legal action now.
    pub to_act: Vec<u8>,
    /// Seats the game is waiting on.
    pub waiting_on: Vec<u8>,
    /// SHA-256 (hex) of the server secret.
    pub seed_commitment: String,
    /// The caller's view of the game (null until it starts).
    #[schema(value_type = Object, nullable)]
    pub view: Box<RawValue>,
    /// The result, once finished.
    pub outcome: Option<Outcome>,
    /// The move clock and each seat's deadline; null in a game without a clock.
    pub clock: Option<crate::clock::ClockView>,
    /// The caller's legal actions at `version`: present only when asked for with
    /// `include=legal_actions`, by a seat token, once the game has started.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_actions: Option<LegalActions>,
    /// Creation time (RFC 3339).
    pub created_at: String,
    /// Time of the last change (RFC 3339).
    pub updated_at: String,
    /// The game's rematch, once someone asked for one (`POST /v1/games/{id}/rematch`).
    pub rematch: Option<String>,
    /// The game this one is the rematch of.
    pub rematch_of: Option<String>,
}

/// The game as it stood after one log entry, as the caller saw it then
/// (`GET /v1/games/{id}/history/{seq}`).
#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryPoint {
    /// The game's ruleset (tells which view this is).
    pub ruleset: String,
    /// The log entry the game stood after (0: as dealt).
    pub seq: u64,
    /// The game's last log entry now: the history runs from 0 to it.
    pub last_seq: u64,
    /// `active`, or `finished` if the game had ended by then.
    pub status: GameStatus,
    /// Seats with at least one legal action then.
    pub to_act: Vec<u8>,
    /// Seats the game was waiting on then.
    pub waiting_on: Vec<u8>,
    /// The caller's view then: a seat's token shows that seat's, no token or the admin's
    /// the spectator's.
    #[schema(value_type = Object)]
    pub view: Box<RawValue>,
    /// The result, if the game had ended by then.
    pub outcome: Option<Outcome>,
}

/// The rematch of a finished game (`POST /v1/games/{id}/rematch`).
#[derive(Debug, Serialize, ToSchema)]
pub struct Rematch {
    /// The new game's id. Every request for a rematch of the same game gets the same one.
    pub game_id: String,
    /// The caller's seat in the new game (the seats turn one place: the old seat 1 is the
    /// new seat 0), or null for the admin.
    pub seat: Option<u8>,
    /// The caller's token for the new game (`bt_seat_…`), or null for the admin, whose token
    /// also administers the new game. Asking again returns the same token.
    pub player_token: Option<String>,
    /// The new game's status: `open` until every player of the old game has asked, then
    /// `active`.
    pub status: GameStatus,
    /// The new game's version.
    pub version: u64,
}

/// A game in the lobby.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameSummary {
    /// The game id.
    pub id: String,
    /// The ruleset id.
    pub ruleset: String,
    /// Number of seats.
    pub seats: u8,
    /// Seats still free.
    pub open_seats: Vec<u8>,
    /// Creation time (RFC 3339).
    pub created_at: String,
    /// `open` in the lobby; an app's own listing holds its `active` games too.
    pub status: GameStatus,
}

/// One page of the lobby.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameList {
    /// Open games, oldest first.
    pub games: Vec<GameSummary>,
    /// Pass as `after` to get the next page; null on the last page.
    pub next_after: Option<String>,
}

/// What an answer carries besides its own body, on request (`?include=`): a seat's client
/// then needs no second request to learn what it may do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Include {
    /// The caller's legal actions at the game's current version (a seat token only), as
    /// `GET …/legal-actions` lists them.
    LegalActions,
}
