//! The JSON shapes of requests and responses. Doc comments become the OpenAPI descriptions.
//!
//! Fields typed `serde_json::Value` carry a game's own JSON (its options, actions, views and
//! events); the OpenAPI document narrows them to the `anyOf` of every game's schema.

use game_core::Outcome;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use store::Status;
use utoipa::ToSchema;

/// Where a game is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Waiting for seats to be claimed.
    Open,
    /// Being played.
    Active,
    /// Over; the audit reveals the secret.
    Finished,
}

impl From<Status> for GameStatus {
    fn from(status: Status) -> Self {
        match status {
            Status::Open => GameStatus::Open,
            Status::Active => GameStatus::Active,
            Status::Finished => GameStatus::Finished,
        }
    }
}

/// A server-side player for a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum BotKind {
    /// Picks uniformly among the seat's legal actions (a schema entry is sampled).
    Random,
    /// A cheap search: 48 random playouts over worlds its seat cannot tell from the real one
    /// (a few milliseconds a move).
    Basic,
    /// A determinized Monte-Carlo search over worlds its seat cannot tell from the real one,
    /// for about 100 ms a move.
    Strong,
}

impl BotKind {
    /// The bot as the store keeps it.
    pub fn as_str(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Basic => "basic",
            BotKind::Strong => "strong",
        }
    }

    /// The bot a stored seat names; an unknown name (written by a newer server) plays as
    /// `random`, so a seat handed to a bot is never left without one.
    pub fn from_stored(name: &str) -> BotKind {
        [BotKind::Basic, BotKind::Strong]
            .into_iter()
            .find(|bot| bot.as_str() == name)
            .unwrap_or(BotKind::Random)
    }
}

/// Who chose a move that its seat's player did not choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Author {
    /// The bot that plays the seat (claimed for a bot, or resigned).
    Bot,
    /// The move clock: the seat's time ran out and a bot played its turn.
    Clock,
}

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
}

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
    /// The games, most recently changed first.
    pub games: Vec<MyGame>,
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
#[derive(Debug, Serialize, ToSchema)]
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_actions: Option<LegalActions>,
}

/// One log entry as the caller may see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct LogItem {
    /// Position in the log; 0 is the setup.
    pub seq: u64,
    /// The acting seat (null for the setup).
    pub seat: Option<u8>,
    /// The action, or null if the caller may not see it (a sealed choice) or for the setup.
    #[schema(value_type = Object, nullable)]
    pub action: Value,
    /// The events the caller may see.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Value>,
    /// The action in words ("Anna bought a red tulip for ƒ250."), or null when `action` is.
    pub action_text: Option<String>,
    /// Who chose the move when the seat's player did not: `bot` (the seat is a bot's) or
    /// `clock` (the seat's time ran out). Null for a player's move and the setup.
    pub by: Option<Author>,
    /// Each of `events` in words, in the same order.
    pub event_texts: Vec<String>,
    /// The entry as one line of the game's log: the move told once, with what it showed (a
    /// roll's faces, a sale's price), naming a bot's seat "Ben (bot)" and starting with the
    /// timeout when the clock moved. An action hidden from the reader is told by what it
    /// caused. What a client shows as the log.
    pub headline: String,
    /// The consequences `headline` does not say (a price moved, a colour burst, the next
    /// turn), in order: what a client shows under the headline.
    pub details: Vec<String>,
    /// When the entry was committed (RFC 3339).
    pub at: String,
}

/// A page of the log.
#[derive(Debug, Serialize, ToSchema)]
pub struct LogPage {
    /// The game's ruleset (tells which actions and events these are).
    pub ruleset: String,
    /// Entries in order.
    pub entries: Vec<LogItem>,
    /// Pass as `after` to get the next page; null when there are no more entries now.
    pub next_after: Option<u64>,
}

/// A notification type.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    ToSchema,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum WebhookEvent {
    /// (Seats) the game is now waiting on your seat.
    Turn,
    /// (Admin) a move was made; public information only.
    Action,
    /// (Seats and admin) the game is over.
    Finished,
    /// (Seats) a move clock's reminder: the seat's time is running out.
    Reminder,
    /// (Seats and admin) a seat's time ran out; the clock's policy was applied.
    Timeout,
}

impl WebhookEvent {
    /// Every notification type (every variant, in order: strum's `VariantArray`).
    pub const ALL: &'static [WebhookEvent] = <WebhookEvent as strum::VariantArray>::VARIANTS;
    /// The types a seat may subscribe to, and its default.
    pub const SEAT: &'static [WebhookEvent] = &[
        WebhookEvent::Turn,
        WebhookEvent::Finished,
        WebhookEvent::Reminder,
        WebhookEvent::Timeout,
    ];
    /// The types the admin may subscribe to, and its default.
    pub const ADMIN: &'static [WebhookEvent] = &[
        WebhookEvent::Action,
        WebhookEvent::Finished,
        WebhookEvent::Timeout,
    ];

    /// The type named `name` in payloads and the store.
    pub fn parse(name: &str) -> Option<WebhookEvent> {
        WebhookEvent::ALL
            .iter()
            .copied()
            .find(|event| event.as_str() == name)
    }

    /// The type as sent in payloads and kept in the store.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Its words in the contract: a summary, when it is sent, and the schema of its `data`.
    /// Every list of the types (the contract's `webhooks` section and notification bodies)
    /// is built from [`WebhookEvent::ALL`] and these.
    pub fn words(self) -> (&'static str, &'static str, &'static str) {
        match self {
            WebhookEvent::Turn => ("turn: your seat is to act", "Sent to a seat's subscription when the game starts waiting on that seat, with the seat's view at that version.", "TurnData"),
            WebhookEvent::Action => ("action: a move was made", "Sent to the admin's subscription after every move, with public information only.", "ActionData"),
            WebhookEvent::Finished => ("finished: the game is over", "Sent to every subscription when the game ends, with the outcome and the subscriber's final view.", "FinishedData"),
            WebhookEvent::Reminder => ("reminder: your time runs out soon", "Sent to a seat's subscription once per wait, when the fraction of its move clock set by `remind_at` is left.", "ReminderData"),
            WebhookEvent::Timeout => ("timeout: a seat's time ran out", "Sent to that seat's subscription and the admin's when a seat's move clock runs out, saying which policy was applied.", "TimeoutData"),
        }
    }
}

/// Subscribe to notifications.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateWebhook {
    /// Where to POST notifications: an `https` URL on a public address.
    #[schema(example = "https://bot.example/beurs", max_length = 2048)]
    pub url: String,
    /// What to be notified of. A seat may choose `turn`, `finished`, `reminder` and `timeout`
    /// (the default: all four); the admin `action`, `finished` and `timeout` (the default: all
    /// three).
    #[serde(default)]
    #[schema(min_items = 1, max_items = 4)]
    pub events: Option<Vec<WebhookEvent>>,
    /// The body's shape (default `standard`). `discord` and `slack` post a chat message that
    /// the platform's incoming webhook shows in a channel; their `url` must then be the
    /// platform's webhook address (`https://discord.com/api/webhooks/…`,
    /// `https://hooks.slack.com/services/…`).
    #[serde(default)]
    pub format: WebhookFormat,
    /// A page of this game in your app, which chat messages link to (absolute `https` URL;
    /// never put a token in it: a chat channel is read by many). Without it a chat message
    /// names the game by its id.
    #[serde(default)]
    #[schema(example = "https://tables.example/games/42", max_length = 2048)]
    pub link: Option<String>,
}

/// The shape of a subscription's notifications.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WebhookFormat {
    /// The signed JSON event (Standard Webhooks): `{"type", "timestamp", "data"}`.
    #[default]
    Standard,
    /// A Discord incoming-webhook message: `{"content", "username", "allowed_mentions"}`.
    Discord,
    /// A Slack incoming-webhook message: `{"text"}`.
    Slack,
}

impl From<WebhookFormat> for store::HookFormat {
    fn from(format: WebhookFormat) -> store::HookFormat {
        match format {
            WebhookFormat::Standard => store::HookFormat::Standard,
            WebhookFormat::Discord => store::HookFormat::Discord,
            WebhookFormat::Slack => store::HookFormat::Slack,
        }
    }
}

impl From<store::HookFormat> for WebhookFormat {
    fn from(format: store::HookFormat) -> WebhookFormat {
        match format {
            store::HookFormat::Standard => WebhookFormat::Standard,
            store::HookFormat::Discord => WebhookFormat::Discord,
            store::HookFormat::Slack => WebhookFormat::Slack,
        }
    }
}

/// A subscription.
#[derive(Debug, Serialize, ToSchema)]
pub struct Webhook {
    /// The subscription id.
    pub id: String,
    /// Where notifications go.
    pub url: String,
    /// What is notified.
    pub events: Vec<WebhookEvent>,
    /// The subscribing seat; null for the admin.
    pub seat: Option<u8>,
    /// RFC 3339.
    pub created_at: String,
    /// Why deliveries stopped (the receiver answered 410 Gone), or null.
    pub disabled: Option<String>,
    /// The body's shape.
    pub format: WebhookFormat,
    /// The page chat messages link to, or null.
    pub link: Option<String>,
}

/// A new subscription, with its signing secret (shown only in this response).
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedWebhook {
    /// The subscription.
    #[serde(flatten)]
    pub webhook: Webhook,
    /// The Standard Webhooks signing secret (`whsec_…`): verify `webhook-signature` with it.
    pub secret: String,
}

/// The caller's subscriptions.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookList {
    /// Newest last.
    pub webhooks: Vec<Webhook>,
}

/// Where a notification is in its delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryStatus {
    /// Not delivered yet; another attempt is due.
    Pending,
    /// The receiver answered 2xx.
    Delivered,
    /// The attempts were used up, or the receiver answered 410 Gone.
    Failed,
    /// The subscription was deleted or disabled first.
    Cancelled,
}

/// One delivery attempt.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryAttempt {
    /// 1 for the first.
    pub attempt: u32,
    /// RFC 3339.
    pub at: String,
    /// The receiver's HTTP status, or null if it did not answer.
    pub status_code: Option<u16>,
    /// Why there was no answer (refused address, timeout, connection error), or null.
    pub error: Option<String>,
}

/// One notification and its delivery.
#[derive(Debug, Serialize, ToSchema)]
pub struct Delivery {
    /// The `webhook-id` (the same on every attempt).
    pub id: String,
    /// The notification type.
    #[serde(rename = "type")]
    pub kind: WebhookEvent,
    /// Where the notification is in its delivery.
    pub status: DeliveryStatus,
    /// RFC 3339: when the move that caused it was committed.
    pub created_at: String,
    /// The attempts so far, oldest first.
    pub attempts: Vec<DeliveryAttempt>,
    /// RFC 3339: when the next attempt is due, while pending.
    pub next_attempt_at: Option<String>,
}

/// A subscription's recent notifications.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryList {
    /// Newest first.
    pub deliveries: Vec<Delivery>,
    /// Pass as `after` to get the next (older) page; null on the last page.
    pub next_after: Option<String>,
}

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
