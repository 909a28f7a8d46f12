//! A game's actions and events in words, for one reader.

use super::seat_names;
use crate::ctx::AppCtx;
use game_core::words::Names;
use game_core::{DynRuleset, Seat};
use serde_json::Value;
use store::GameRecord;

/// What a client shows for an event or action the server cannot put in words (a ruleset no
/// longer registered); never expected in practice.
const UNDESCRIBED: &str = "Something happened.";

/// Puts one game's actions and events into words for its readers: the ruleset and the
/// players' names, gathered once per request. Any registered ruleset describes its events,
/// whatever rules version the game was recorded under, so a retired game's log still reads.
pub struct Narrator<'a> {
    ruleset: Option<&'a dyn DynRuleset>,
    names: Vec<Option<String>>,
}

impl<'a> Narrator<'a> {
    /// The narrator of `record`'s game.
    pub fn new(ctx: &'a AppCtx, record: &GameRecord) -> Self {
        Narrator {
            ruleset: ctx.registry.get(&record.ruleset),
            names: seat_names(record),
        }
    }

    /// `events` (as projected for one reader) in words, in order.
    pub fn events(&self, events: &[Value]) -> Vec<String> {
        let names = Names::new(&self.names);
        events
            .iter()
            .map(|event| {
                self.ruleset
                    .and_then(|ruleset| ruleset.describe_event(event, &names))
                    .unwrap_or_else(|| UNDESCRIBED.to_string())
            })
            .collect()
    }

    /// `action` by `seat` in words, or `None` when the action is null (hidden from the
    /// reader).
    pub fn action(&self, seat: Seat, action: &Value) -> Option<String> {
        if action.is_null() {
            return None;
        }
        let text = self
            .ruleset
            .and_then(|ruleset| ruleset.describe_action(action, seat, &Names::new(&self.names)))
            .unwrap_or_else(|| UNDESCRIBED.to_string());
        Some(text)
    }
}
