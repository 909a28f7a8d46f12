//! What the log tells a reader: a page of it as the caller may see it, the audit, and the
//! game as it stood after one entry (replayed from the log by [`crate::log::Replayer`]).

use crate::audit::{Audit, AuditEntry};
use crate::ctx::AppCtx;
use crate::dto::{GameStatus, HistoryPoint, LogItem};
use crate::error::{Code, Error};
use crate::game::{engine_of, project_events, ruleset_of, seat_numbers, Narrator};
use crate::log::{stored_events, Replayer, StoredAction};
use crate::seed::seed_of_record;
use crate::time::rfc3339;
use game_core::{Seat, Viewer, Visibility};
use serde_json::Value;
use store::{GameRecord, LogEntry, Status};

/// The most log entries one read of the store returns while the history is replayed.
const PAGE: usize = 1000;

/// The action of a stored entry, if `viewer` may read it (its author always may).
fn visible_action(entry: &LogEntry, viewer: Viewer) -> Value {
    let Ok(stored) = serde_json::from_value::<StoredAction>(entry.action.clone()) else {
        return Value::Null;
    };
    let is_author = entry.seat.is_some() && entry.seat == viewer.seat().map(|seat| seat.0);
    if is_author || stored.visibility.shows(viewer) {
        stored.action
    } else {
        Value::Null
    }
}

/// `entries` of `record`'s log as `viewer` may read them: what `GET /v1/games/{id}/log`
/// lists and what a stream's `log` events carry.
pub fn log_items(
    ctx: &AppCtx,
    record: &GameRecord,
    entries: &[LogEntry],
    viewer: Viewer,
) -> Vec<LogItem> {
    let narrator = Narrator::new(ctx, record);
    entries
        .iter()
        .map(|entry| {
            let action = visible_action(entry, viewer);
            let events = project_events(&stored_events(&entry.events), viewer);
            let by = serde_json::from_value::<StoredAction>(entry.action.clone())
                .ok()
                .and_then(|stored| stored.by);
            let seat = entry.seat.map(Seat);
            let (headline, details) = narrator.entry(seat, &action, &events, by);
            LogItem {
                seq: entry.seq,
                seat: entry.seat,
                action_text: seat.and_then(|seat| narrator.action(seat, &action)),
                event_texts: narrator.events(&events),
                headline,
                details,
                by,
                action,
                events,
                at: rfc3339(entry.at),
            }
        })
        .collect()
}

/// The `after` of the next page: the last entry's seq, unless it is the log's last.
pub fn next_after(entries: &[LogEntry], record: &GameRecord) -> Option<u64> {
    entries
        .last()
        .map(|entry| entry.seq)
        .filter(|&seq| seq + 1 < record.log_len)
}

/// The audit of `record` with one page of its log, `entries` (read by the caller): the
/// seed and every action once the game has finished, only what a spectator sees before.
pub fn audit(ctx: &AppCtx, record: &GameRecord, entries: Vec<LogEntry>) -> Result<Audit, Error> {
    let next_after = next_after(&entries, record);
    let finished = record.status == Status::Finished;
    let entries = entries
        .iter()
        .map(|entry| {
            if finished {
                let stored: StoredAction =
                    serde_json::from_value(entry.action.clone()).unwrap_or(StoredAction {
                        action: Value::Null,
                        visibility: Visibility::Public,
                        by: None,
                    });
                AuditEntry {
                    seq: entry.seq,
                    seat: entry.seat,
                    action: stored.action,
                    events: entry.events.as_array().cloned().unwrap_or_default(),
                    state_hash: Some(entry.state_hash.clone()),
                }
            } else {
                AuditEntry {
                    seq: entry.seq,
                    seat: entry.seat,
                    action: visible_action(entry, Viewer::Spectator),
                    events: project_events(&stored_events(&entry.events), Viewer::Spectator),
                    state_hash: None,
                }
            }
        })
        .collect();
    let outcome = match &record.state {
        // A game of a retired rules version keeps its audit, without the outcome only the
        // rules can compute.
        Some(_) if finished => match engine_of(ctx, record) {
            Ok(engine) => engine.and_then(|engine| engine.outcome()),
            Err(Error::RulesVersionRetired { .. }) => None,
            Err(error) => return Err(error),
        },
        _ => None,
    };
    let audit = Audit {
        id: record.id.clone(),
        ruleset: record.ruleset.clone(),
        rules_version: record.rules_version,
        status: record.status.into(),
        seats: record.seats.len() as u8,
        options: record.options.clone(),
        seed_commitment: record.seed_commitment.clone(),
        seed_scheme: record.seed_scheme,
        server_secret: finished.then(|| record.server_secret.clone()),
        entropies: finished.then(|| {
            record
                .seats
                .iter()
                .map(|seat| seat.entropy.clone())
                .collect()
        }),
        entries,
        outcome,
        next_after,
    };
    Ok(audit)
}

/// Game `record` as it stood right after log entry `seq` ([`entry_in`] checks it), as
/// `viewer` saw it then.
pub async fn point(
    ctx: &AppCtx,
    record: &GameRecord,
    seq: u64,
    viewer: Viewer,
) -> Result<HistoryPoint, Error> {
    let entries = log_until(ctx, record, seq).await?;
    let ruleset = ruleset_of(ctx, record)?;
    let seed = seed_of_record(record)?;
    let dealt = ruleset
        .deal(record.seats.len() as u8, &record.options, seed)
        .map_err(|error| Error::Internal(format!("the game does not deal again: {error}")))?;
    let mut replay = Replayer::new(dealt.game, seed);
    for entry in entries.iter().skip(1) {
        let stored: StoredAction = serde_json::from_value(entry.action.clone())
            .map_err(|error| Error::Internal(format!("entry {}: {error}", entry.seq)))?;
        replay.entry(entry.seat, &stored.action).map_err(|reason| {
            Error::Internal(format!("entry {} does not replay: {reason}", entry.seq))
        })?;
    }
    let game = replay.game();
    let outcome = game.outcome();
    let point = HistoryPoint {
        ruleset: record.ruleset.clone(),
        seq,
        last_seq: record.log_len - 1,
        status: if outcome.is_some() {
            GameStatus::Finished
        } else {
            GameStatus::Active
        },
        to_act: seat_numbers(game.to_act()),
        waiting_on: seat_numbers(game.waiting_on()),
        view: game.view_raw(viewer),
        outcome,
    };
    Ok(point)
}

/// A log position as the path gives it: decimal digits only. A number too large for any log
/// (beyond `u64`) is a position past the end, as the contract's integer allows it: `None`.
pub fn parse_seq(text: &str) -> Result<Option<u64>, Error> {
    if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(Error::Malformed(format!(
            "the history position must be a log entry number (0, 1, 2, …), not '{text}'"
        )));
    }
    Ok(text.parse().ok())
}

/// The log entries 0 to `seq`, read a page at a time.
async fn log_until(ctx: &AppCtx, record: &GameRecord, seq: u64) -> Result<Vec<LogEntry>, Error> {
    let mut entries: Vec<LogEntry> = Vec::new();
    while entries.len() as u64 <= seq {
        let after = entries.last().map(|entry| entry.seq);
        let wanted = (seq + 1 - entries.len() as u64).min(PAGE as u64) as usize;
        let page = ctx.store.log(&record.id, after, wanted).await?;
        if page.is_empty() {
            return Err(Error::Internal(format!(
                "game {}: the log ends before entry {seq}",
                record.id
            )));
        }
        entries.extend(page);
    }
    entries.truncate(seq as usize + 1);
    Ok(entries)
}

/// Log entry `seq` of `record` (`None`: a number past any log), or 404 `entry-not-found`.
pub fn entry_in(record: &GameRecord, seq: Option<u64>) -> Result<u64, Error> {
    seq.filter(|&seq| seq < record.log_len).ok_or_else(|| {
        Error::refused(
            Code::EntryNotFound,
            match record.log_len {
                0 => "the game has not started: its log is empty".to_string(),
                len => format!("the log runs from entry 0 to {}", len - 1),
            },
        )
    })
}
