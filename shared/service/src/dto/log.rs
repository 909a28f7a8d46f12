//! The log as a reader may read it.

use super::common::Author;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

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
