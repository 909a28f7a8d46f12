//! Webhook subscriptions and their deliveries.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

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
    strum::EnumString,
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
        name.parse().ok()
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

impl From<WebhookFormat> for store::HookFormat {
    fn from(format: WebhookFormat) -> store::HookFormat {
        match format {
            WebhookFormat::Standard => store::HookFormat::Standard,
            WebhookFormat::Discord => store::HookFormat::Discord,
            WebhookFormat::Slack => store::HookFormat::Slack,
        }
    }
}
