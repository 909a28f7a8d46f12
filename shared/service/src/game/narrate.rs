//! A game's actions and events in words, for one reader.

use super::seat_names;
use crate::ctx::AppCtx;
use crate::dto::Author;
use crate::log::{Entry, OwnEntry};
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
        Narrator::with(ctx.registry.get(&record.ruleset), record)
    }

    /// The narrator of `record`'s game, whose ruleset is `ruleset`.
    pub fn with(ruleset: Option<&'a dyn DynRuleset>, record: &GameRecord) -> Self {
        Narrator {
            ruleset,
            names: seat_names(record),
        }
    }

    /// `events` (as projected for one reader) in words, in order.
    pub fn events(&self, events: &[Value]) -> Vec<String> {
        let names = Names::new(&self.names);
        events
            .iter()
            .map(|event| self.event_with(event, &names))
            .collect()
    }

    /// `action` by `seat` in words, or `None` when the action is null (hidden from the
    /// reader).
    pub fn action(&self, seat: Seat, action: &Value) -> Option<String> {
        (!action.is_null()).then(|| self.action_with(seat, action, &Names::new(&self.names)))
    }

    /// One log entry in words for its reader: a headline that tells the move once, and only
    /// the consequences the headline does not say. `action` and `events` are as projected for
    /// the reader (the action null when hidden from them); `by` is who chose the move when
    /// its seat's player did not.
    ///
    /// The headline is the event that restates the action ([`game_core::Game::restates`]:
    /// it says what the action could not, a roll's faces, a sale's price), else the action's
    /// sentence. A sealed action read by its author heads the entry itself (it names the
    /// choice; the event only says one was made). An action hidden from the reader is told by
    /// the first event it caused. Restating events are not repeated among the details. A
    /// bot's move names its seat "Ben (bot)"; a move the clock made starts with the timeout.
    pub fn entry(
        &self,
        seat: Option<Seat>,
        action: &Value,
        events: &[Value],
        by: Option<Author>,
    ) -> (String, Vec<String>) {
        if let Some(note) = Entry::of(action).note() {
            let names = Names::new(&self.names);
            return (super::pause::note_text(seat, note, &names), Vec::new());
        }
        let texts = self.events(events);
        let Some(seat) = seat else {
            return ("The game began.".to_string(), counted(texts));
        };
        let restates: Vec<bool> = events
            .iter()
            .map(|event| {
                !action.is_null()
                    && self
                        .ruleset
                        .and_then(|ruleset| ruleset.restates(action, event))
                        .unwrap_or(false)
            })
            .collect();
        let sealed = !action.is_null()
            && self
                .ruleset
                .and_then(|ruleset| ruleset.is_sealed(action, seat))
                .unwrap_or(false);
        let name = Names::new(&self.names).seat(seat);
        let mut names = self.names.clone();
        if by == Some(Author::Bot) {
            if let Some(slot) = names.get_mut(seat.index()) {
                if !name.to_lowercase().contains("bot") {
                    *slot = Some(format!("{name} (bot)"));
                }
            }
        }
        let names = Names::new(&names);
        let restating = restates.iter().position(|&restates| restates);
        let (headline, told) = match (action.is_null(), sealed, restating) {
            (false, false, Some(index)) => (self.event_with(&events[index], &names), Some(index)),
            (false, _, _) => (self.action_with(seat, action, &names), None),
            (true, _, _) if !events.is_empty() => (self.event_with(&events[0], &names), Some(0)),
            (true, _, _) => (format!("{} made a secret choice.", names.seat(seat)), None),
        };
        let details = counted(
            texts
                .into_iter()
                .enumerate()
                .filter(|(index, _)| !restates[*index] && Some(*index) != told)
                .map(|(_, text)| text)
                .collect(),
        );
        let headline = match by {
            Some(Author::Clock) => {
                format!("{name}'s time ran out; a bot played for them: {headline}")
            }
            Some(Author::Bot) | None => headline,
        };
        (headline, details)
    }

    fn event_with(&self, event: &Value, names: &Names) -> String {
        self.ruleset
            .and_then(|ruleset| ruleset.describe_event(event, names))
            .unwrap_or_else(|| UNDESCRIBED.to_string())
    }

    fn action_with(&self, seat: Seat, action: &Value, names: &Names) -> String {
        match Entry::of(action) {
            Entry::Own(OwnEntry::Undo { .. }) => return super::undo::undo_text(seat, names),
            Entry::Own(note) => return super::pause::note_text(Some(seat), note, names),
            Entry::Move(_) => {}
        }
        self.ruleset
            .and_then(|ruleset| ruleset.describe_action(action, seat, names))
            .unwrap_or_else(|| UNDESCRIBED.to_string())
    }
}

/// `texts` with each sentence once, where it first appears, and how often it was told when
/// more than once ("Ben drew 1 card. (twice)"): one move can cause the same event twice (a
/// card drawn at setup and again at the round's start), and a log line tells it once.
fn counted(texts: Vec<String>) -> Vec<String> {
    let mut counts: Vec<(String, usize)> = Vec::with_capacity(texts.len());
    for text in texts {
        match counts.iter_mut().find(|(seen, _)| *seen == text) {
            Some((_, count)) => *count += 1,
            None => counts.push((text, 1)),
        }
    }
    counts
        .into_iter()
        .map(|(text, count)| match count {
            1 => text,
            2 => format!("{text} (twice)"),
            _ => format!("{text} ({count} times)"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn a_sentence_told_twice_is_told_once_and_counted() {
        let texts = [
            "Ben drew 1 card.",
            "Round 1 began.",
            "Ben drew 1 card.",
            "Ben drew 1 card.",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            counted(texts),
            ["Ben drew 1 card. (3 times)", "Round 1 began."]
        );
        assert_eq!(counted(vec!["a".into(), "a".into()]), ["a (twice)"]);
        assert!(counted(Vec::new()).is_empty());
    }
}
