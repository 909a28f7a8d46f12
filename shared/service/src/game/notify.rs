//! Who is notified of a change: the messages a move, a claim or a clock's event puts in the
//! transactional outbox, committed with the change itself (DESIGN.md §6). A message's body is
//! fixed here, from the projections its recipient may see (a seat's own view; the spectator's
//! for the admin), so retries resend the same bytes and nothing hidden leaks later.

use super::narrate::Narrator;
use super::project_events;
use crate::dto::{
    ActionData, FinishedData, Notification, ReminderData, TimeoutData, TurnData, WebhookEvent,
};
use crate::error::Error;
use crate::log::StoredAction;
use crate::time::rfc3339;
use crate::webhooks::chat;
use game_core::adapter::LoggedJson;
use game_core::words::Names;
use game_core::{DynGame, Outcome, Seat, SeatSet, Viewer};
use serde::Serialize;
use serde_json::Value;
use store::{DeliveryStatus, GameRecord, HookRecord, OutboxMessage};

/// What just happened to a game, from which its notifications follow.
pub struct Moment<'a> {
    /// The record after the change (its hooks are the subscribers).
    pub record: &'a GameRecord,
    /// The engine after the change.
    pub engine: &'a dyn DynGame,
    /// Who the game waited on before the change (nobody before it started).
    pub waiting_before: SeatSet,
    /// The move, for a move; `None` for the claim that started the game.
    pub action: Option<MomentAction<'a>>,
}

/// The move of a [`Moment`].
pub struct MomentAction<'a> {
    /// Its log position.
    pub seq: u64,
    /// Who made it.
    pub seat: u8,
    /// The action and who may read it.
    pub stored: &'a StoredAction,
    /// Its events, with their visibility.
    pub events: &'a [LoggedJson],
}

/// The seats whose player's turn begins when `record`'s game comes to `engine`'s state from
/// one waiting on `waiting_before`: the game waits on them now and did not before, it is not
/// over, and no bot plays them. Each gets a `turn` notice (webhooks, and
/// `GET /v1/me/events` by [`count_turns`]).
pub fn turns_begun(record: &GameRecord, engine: &dyn DynGame, waiting_before: SeatSet) -> SeatSet {
    let mut begun = SeatSet::EMPTY;
    if engine.outcome().is_some() {
        return begun;
    }
    for seat in engine.waiting_on().iter() {
        let played_by_bot = record
            .seats
            .get(usize::from(seat.0))
            .is_some_and(|seat| seat.bot.is_some());
        if !waiting_before.contains(seat) && !played_by_bot {
            begun.insert(seat);
        }
    }
    begun
}

/// Counts a turn ([`store::SeatRecord::turns`]) in `next` for each seat whose turn begins as
/// the game comes to `engine`'s state ([`turns_begun`]).
pub fn count_turns(next: &mut GameRecord, engine: &dyn DynGame, waiting_before: SeatSet) {
    for seat in turns_begun(next, engine, waiting_before).iter() {
        if let Some(seat) = next.seats.get_mut(usize::from(seat.0)) {
            seat.turns = seat.turns.saturating_add(1);
        }
    }
}

/// The notifications `moment` causes, one per interested, enabled subscription, ready to be
/// committed with the change.
pub fn notifications(moment: &Moment<'_>, now: u64) -> Result<Vec<OutboxMessage>, Error> {
    let record = moment.record;
    let engine = moment.engine;
    let outcome = engine.outcome();
    let waiting_now = engine.waiting_on();
    let begun = turns_begun(record, engine, moment.waiting_before);
    let seats = |set: SeatSet| -> Vec<u8> { set.iter().map(|seat| seat.0).collect() };
    let mut messages = Vec::new();
    let chat = ChatWords::of(record);
    for hook in record.hooks.iter().filter(|hook| hook.disabled.is_none()) {
        let wants = |kind: WebhookEvent| hook.events.iter().any(|event| event == kind.as_str());
        let mut queue = |kind: WebhookEvent, body: String, sentence: &dyn Fn() -> String| {
            // The sentence is worked out only for a chat subscription (not on every move).
            let body = match hook.format.is_standard() {
                true => body,
                false => chat::body(hook.format, &sentence(), hook.link.as_deref()).unwrap_or(body),
            };
            messages.push(message(record, hook, kind, body, now)?);
            Ok::<(), Error>(())
        };
        let finished = |seat: Option<u8>, outcome: &Outcome, viewer: Viewer| FinishedData {
            game_id: record.id.clone(),
            ruleset: record.ruleset.clone(),
            version: record.version,
            seat,
            outcome: outcome.clone(),
            view: engine.view_json(viewer),
        };
        match hook.seat {
            Some(seat) => {
                let viewer = Viewer::Seat(Seat(seat));
                // A seat a bot plays (its player resigned) is not told it is its turn.
                if wants(WebhookEvent::Turn) && begun.contains(Seat(seat)) {
                    let data = TurnData {
                        game_id: record.id.clone(),
                        ruleset: record.ruleset.clone(),
                        version: record.version,
                        seat,
                        seq: record.log_len.saturating_sub(1),
                        to_act: seats(engine.to_act()),
                        waiting_on: seats(waiting_now),
                        deadline: crate::clock::deadline_of(record, seat),
                        view: engine.view_json(viewer),
                    };
                    let sentence = || chat.turn(seat, data.deadline.as_deref());
                    queue(
                        WebhookEvent::Turn,
                        body(WebhookEvent::Turn, now, &data),
                        &sentence,
                    )?;
                }
                if let (true, Some(outcome)) = (wants(WebhookEvent::Finished), &outcome) {
                    let data = finished(Some(seat), outcome, viewer);
                    queue(
                        WebhookEvent::Finished,
                        body(WebhookEvent::Finished, now, data),
                        &|| chat.finished(outcome),
                    )?;
                }
            }
            None => {
                if let (true, Some(action)) = (wants(WebhookEvent::Action), &moment.action) {
                    let public = action.stored.visibility.shows(Viewer::Spectator);
                    let data = ActionData {
                        game_id: record.id.clone(),
                        ruleset: record.ruleset.clone(),
                        version: record.version,
                        seq: action.seq,
                        seat: action.seat,
                        action: if public {
                            action.stored.action.clone()
                        } else {
                            Value::Null
                        },
                        events: project_events(action.events, Viewer::Spectator),
                        status: record.status.into(),
                        to_act: seats(engine.to_act()),
                    };
                    let sentence = || chat.action(action.seat, &data.action, &data.events);
                    queue(
                        WebhookEvent::Action,
                        body(WebhookEvent::Action, now, &data),
                        &sentence,
                    )?;
                }
                if let (true, Some(outcome)) = (wants(WebhookEvent::Finished), &outcome) {
                    let data = finished(None, outcome, Viewer::Spectator);
                    queue(
                        WebhookEvent::Finished,
                        body(WebhookEvent::Finished, now, data),
                        &|| chat.finished(outcome),
                    )?;
                }
            }
        }
    }
    Ok(messages)
}

/// A pending notification of `kind` with `body` for `hook`, due at once.
fn message(
    record: &GameRecord,
    hook: &HookRecord,
    kind: WebhookEvent,
    body: String,
    now: u64,
) -> Result<OutboxMessage, Error> {
    Ok(OutboxMessage {
        id: crate::auth::new_message_id()?,
        game_id: record.id.clone(),
        hook_id: hook.id.clone(),
        event: kind.as_str().to_string(),
        body,
        created_at: now,
        status: DeliveryStatus::Pending,
        attempts: Vec::new(),
        next_attempt_at: Some(now),
    })
}

/// The notifications of a move clock's event for `seat` in `record` (the record as it will
/// be committed): a `reminder` to the seat's subscriptions, or a `timeout` to the seat's and
/// the admin's. Only public facts: the deadline, or the policy applied.
pub fn clock_notifications(
    record: &GameRecord,
    seat: u8,
    kind: WebhookEvent,
    now: u64,
) -> Result<Vec<OutboxMessage>, Error> {
    let clock = crate::clock::Clock::of(record)?;
    let chat = ChatWords::of(record);
    let (payload, sentence) = match (kind, &clock) {
        (WebhookEvent::Reminder, _) => {
            let Some(deadline) = crate::clock::deadline_of(record, seat) else {
                return Ok(Vec::new());
            };
            let sentence = chat.reminder(seat, &deadline);
            let data = ReminderData {
                game_id: record.id.clone(),
                ruleset: record.ruleset.clone(),
                version: record.version,
                seat,
                deadline,
            };
            (body(kind, now, data), sentence)
        }
        (WebhookEvent::Timeout, Some(clock)) => {
            let data = TimeoutData {
                game_id: record.id.clone(),
                ruleset: record.ruleset.clone(),
                version: record.version,
                seat,
                policy: clock.rules.on_timeout,
            };
            (body(kind, now, data), chat.timeout(seat))
        }
        _ => return Ok(Vec::new()),
    };
    record
        .hooks
        .iter()
        .filter(|hook| hook.disabled.is_none())
        .filter(|hook| match hook.seat {
            Some(subscriber) => subscriber == seat,
            None => kind == WebhookEvent::Timeout,
        })
        .filter(|hook| hook.events.iter().any(|event| event == kind.as_str()))
        .map(|hook| {
            let body = chat::body(hook.format, &sentence, hook.link.as_deref())
                .unwrap_or_else(|| payload.clone());
            message(record, hook, kind, body, now)
        })
        .collect()
}

/// The sentences of chat notifications ([`chat`]): plain words with the players' names, the
/// game's name and id, and nothing a spectator could not read. Worked out only for a chat
/// subscription.
struct ChatWords<'a> {
    record: &'a GameRecord,
}

impl<'a> ChatWords<'a> {
    fn of(record: &'a GameRecord) -> ChatWords<'a> {
        ChatWords { record }
    }

    fn game(&self) -> String {
        let title = crate::catalog::registry()
            .get(&self.record.ruleset)
            .map_or("A game", |ruleset| ruleset.name());
        format!("{title} (game {})", self.record.id)
    }

    fn names(&self) -> Vec<Option<String>> {
        super::seat_names(self.record)
    }

    fn name(&self, seat: u8) -> String {
        Names::new(&self.names()).seat(Seat(seat))
    }

    fn turn(&self, seat: u8, deadline: Option<&str>) -> String {
        let until = deadline
            .map(|deadline| format!(" Your time runs out at {deadline}."))
            .unwrap_or_default();
        format!(
            "{}, it is your turn in {}.{until}",
            self.name(seat),
            self.game()
        )
    }

    fn finished(&self, outcome: &Outcome) -> String {
        if outcome.winners.is_empty() {
            format!("{} is over.", self.game())
        } else {
            let winners = Names::new(&self.names()).list(outcome.winners.iter());
            format!("{} is over: {winners} won.", self.game())
        }
    }

    fn action(&self, seat: u8, action: &Value, events: &[Value]) -> String {
        let registry = crate::catalog::registry();
        let narrator = Narrator::with(registry.get(&self.record.ruleset), self.record);
        let (headline, _) = narrator.entry(Some(Seat(seat)), action, events, None);
        format!("{}: {headline}", self.game())
    }

    fn reminder(&self, seat: u8, deadline: &str) -> String {
        format!(
            "{}, your time in {} runs out at {deadline}.",
            self.name(seat),
            self.game()
        )
    }

    fn timeout(&self, seat: u8) -> String {
        format!("{}'s time ran out in {}.", self.name(seat), self.game())
    }
}

/// The whole body of a notification of `kind` carrying `data`.
fn body<D: Serialize>(kind: WebhookEvent, now: u64, data: D) -> String {
    let notification = Notification {
        kind,
        timestamp: rfc3339(now),
        data,
    };
    serde_json::to_string(&notification).expect("a payload serializes")
}
