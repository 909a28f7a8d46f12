//! Seats: claiming, resigning, replacing, and the games a token is in (`GET /v1/me/games`).

use super::common::{BotKind, GameStatus};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Claim a seat, for yourself or for a bot.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimSeat {
    /// The player's display name (1 to 64 characters, no control characters). Required for a
    /// player (422 `invalid-name` without it); a bot is named after its kind when omitted.
    #[serde(default)]
    #[schema(
        example = "Ann",
        min_length = 1,
        max_length = 64,
        pattern = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"
    )]
    pub name: Option<String>,
    /// Fill the seat with a server-side bot instead: it sees only its seat's view and legal
    /// actions, moves through the same checks as a player, and gets no token.
    #[serde(default)]
    pub bot: Option<BotKind>,
    /// Any text of at most 256 characters mixed into the game seed, so no one (the server
    /// included) can steer the shuffles alone.
    #[serde(default)]
    #[schema(example = "my lucky string", max_length = 256)]
    pub entropy: Option<String>,
    /// The app's own id for the person taking the seat (1 to 64 characters), claimed with the
    /// game's app key (`games:admin`): the app's player tokens for that id then act as this
    /// seat's token, and the game is among the player's games (docs/api.md, "Players").
    #[serde(default)]
    #[schema(example = "user-42", min_length = 1, max_length = 64)]
    pub player_id: Option<String>,
}

/// A claimed seat. The player token is shown only here.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClaimedSeat {
    /// The game id.
    pub game_id: String,
    /// The seat (0-based).
    pub seat: u8,
    /// The seat's token (`bt_seat_…`): keep it, it is never shown again. Absent when the
    /// seat was claimed for a bot.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub player_token: Option<String>,
    /// The bot that plays the seat, when it was claimed for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub bot: Option<BotKind>,
    /// The game's status after the claim (`active` once every seat is taken).
    pub status: GameStatus,
    /// The record version after the claim.
    pub version: u64,
    /// Who acts at this version, once the game has started: the claim of the last seat deals
    /// and says who moves first (bots among them move before this answer; the game's
    /// `to_act` tells who acts after them). Empty while the game waits for players.
    pub to_act: Vec<u8>,
}

/// One seat as everyone sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatInfo {
    /// The seat (0-based).
    pub seat: u8,
    /// The player's name, once claimed.
    pub name: Option<String>,
    /// Whether the seat is taken (by a player or a bot).
    pub claimed: bool,
    /// The server-side bot playing the seat, if one is: claimed for a bot, or since its player
    /// resigned.
    pub bot: Option<BotKind>,
    /// Whether the seat's player resigned (the bot plays on for it).
    pub resigned: bool,
}

/// One of the caller's games.
#[derive(Debug, Serialize, ToSchema)]
pub struct MyGame {
    /// The game id.
    pub id: String,
    /// The ruleset id.
    pub ruleset: String,
    /// Where the game is in its life.
    pub status: GameStatus,
    /// The record version.
    pub version: u64,
    /// The token's seat; null for the admin token.
    pub seat: Option<u8>,
    /// Whether the game is waiting on the token's seat.
    pub your_turn: bool,
    /// Seats the game is waiting on.
    pub waiting_on: Vec<u8>,
    /// The move clock with each seat's deadline; null in a game without a clock.
    pub clock: Option<crate::clock::ClockView>,
    /// Time of the last change (RFC 3339).
    pub updated_at: String,
}

/// The games a token is in.
#[derive(Debug, Serialize, ToSchema)]
pub struct MyGames {
    /// The games: a seat or admin token's one game; a player token's games, newest first.
    pub games: Vec<MyGame>,
    /// With a player token, where the next page starts (`after`), if there may be one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_after: Option<String>,
}

/// How a player resigns: the body is optional (none, `null` or `{}` give the seat to a
/// `random` bot).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResignSeat {
    /// The bot that plays the seat from now on (`random` unless named).
    #[serde(default)]
    pub bot: Option<BotKind>,
}

/// A seat whose player resigned.
#[derive(Debug, Serialize, ToSchema)]
pub struct Resigned {
    /// The game id.
    pub game_id: String,
    /// The seat (0-based).
    pub seat: u8,
    /// The bot that plays the seat from now on.
    pub bot: BotKind,
    /// The record version after the resignation.
    pub version: u64,
}

/// A seat left free again before the game started.
#[derive(Debug, Serialize, ToSchema)]
pub struct LeftSeat {
    /// The game id.
    pub game_id: String,
    /// The seat (0-based), free again.
    pub seat: u8,
    /// The game's status: still `open`.
    pub status: GameStatus,
    /// The record version after the seat was left.
    pub version: u64,
}

/// Give a seat to a new player (`name`) or to a bot (`bot`): exactly one of the two.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplaceSeat {
    /// The new player's display name (1 to 64 characters, no control characters).
    #[schema(
        example = "Bea",
        min_length = 1,
        max_length = 64,
        pattern = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
        nullable = false
    )]
    #[serde(default)]
    pub name: Option<String>,
    /// The bot that plays the seat from now on, instead of a player (a seat dropped by its
    /// clock, say, given to a `strong` bot).
    #[serde(default)]
    #[schema(nullable = false)]
    pub bot: Option<BotKind>,
}
