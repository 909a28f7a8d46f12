//! Words every resource uses: a game's status, the bot kinds, who chose a move.

use serde::{Deserialize, Serialize};
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
