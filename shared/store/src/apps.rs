//! Apps: the third parties that share one deployment (docs/apps.md). An app has API keys,
//! each with its scopes; the store keeps an app as one versioned record, like a game.

use serde::{Deserialize, Serialize};

/// What an app's key may do. Serialized as `games:create`, `games:admin`, ...
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::Display,
    strum::EnumIter,
    strum::IntoStaticStr,
)]
pub enum Scope {
    /// Create games, which then belong to the app.
    #[serde(rename = "games:create")]
    #[strum(serialize = "games:create")]
    GamesCreate,
    /// Everything a game's admin token can do, on the app's own games.
    #[serde(rename = "games:admin")]
    #[strum(serialize = "games:admin")]
    GamesAdmin,
    /// Seat bots in the app's games.
    #[serde(rename = "bots:seat")]
    #[strum(serialize = "bots:seat")]
    BotsSeat,
    /// Subscribe webhooks to the app's games and manage them.
    #[serde(rename = "webhooks:manage")]
    #[strum(serialize = "webhooks:manage")]
    WebhooksManage,
    /// Read the app's games, including listing them (invite-only ones too).
    #[serde(rename = "games:read")]
    #[strum(serialize = "games:read")]
    GamesRead,
}

impl Scope {
    /// Every scope, in declaration order: what a key gets when none are named.
    pub fn all() -> Vec<Scope> {
        <Scope as strum::IntoEnumIterator>::iter().collect()
    }
}

/// One API key of an app. The key itself is shown once, when it is issued; the store keeps
/// only its SHA-256.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyRecord {
    /// The key's public id (`k_…`), which names it in listings and to revoke it.
    pub id: String,
    /// SHA-256 (hex) of the key.
    pub hash: String,
    /// What the key may do.
    pub scopes: Vec<Scope>,
    /// When it was issued, Unix milliseconds.
    pub created_at: u64,
    /// When it was revoked, if it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revoked_at: Option<u64>,
}

impl KeyRecord {
    /// Whether the key still works.
    pub fn live(&self) -> bool {
        self.revoked_at.is_none()
    }
}

/// The games an app created in one clock hour: what its hourly creation quota counts. Kept
/// in the app's record, so that every server (every Lambda instance) counts against the one
/// number, under the record's optimistic concurrency.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreationWindow {
    /// The hour (Unix milliseconds / 3,600,000) counted.
    pub hour: u64,
    /// Games created in it.
    pub created: u32,
}

/// An app, as the store keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppRecord {
    /// The app id (`a_…`).
    pub id: String,
    /// The app's name, as the operator gave it.
    pub name: String,
    /// +1 per saved change.
    pub version: u64,
    /// Creation time, Unix milliseconds.
    pub created_at: u64,
    /// Its keys, live and revoked, oldest first.
    pub keys: Vec<KeyRecord>,
    /// Its game creations in the current hour.
    #[serde(default)]
    pub creations: CreationWindow,
}

/// A player of an app (docs/api.md, "Players"): the app's own id for a person, and the
/// tokens the app was issued for them, each of which acts as that player's seat token in
/// every game of the app they sit in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRecord {
    /// The app the player belongs to (`a_…`).
    pub app: String,
    /// The app's id for the player: its own opaque string, unique within the app.
    pub id: String,
    /// +1 per saved change; 0 for a player not stored yet.
    pub version: u64,
    /// Creation time, Unix milliseconds.
    pub created_at: u64,
    /// Its tokens, live and revoked, oldest first (hashes only; no scopes).
    pub tokens: Vec<KeyRecord>,
}
