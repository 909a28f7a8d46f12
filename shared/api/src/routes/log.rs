//! `GET /v1/games/{id}/log` (projected for the caller) and `GET /v1/games/{id}/audit`.

use super::problems::{problems, NoSuchGame};
use crate::error::{ApiError, Error};
use crate::http::{limit_in, Bearer, IfNoneMatch, Params, QueryParams, Reply};
use axum::extract::State;
use game_core::{Seat, Viewer, Visibility};
use serde::Deserialize;
use serde_json::Value;
use service::audit::{Audit, AuditEntry};
use service::auth::identify;
use service::ctx::AppCtx;
use service::dto::{LogItem, LogPage};
use service::game::{engine_of, load_record, project_events, Narrator};
use service::log::{stored_events, StoredAction};
use service::time::rfc3339;
use std::sync::Arc;
use store::{LogEntry, Status};

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

problems! {
    /// How `get_log` refuses a request, beyond the shared refusals it lists.
    GetLogRefused {
        400 => "Bad query parameter or header",
        401 => "The token is not valid for this game",
    }
}

/// Read the log
///
/// The game's log as the caller may see it: a seat sees its own sealed choices and private
/// events; everyone else sees only that something happened. Page with `after` (the last
/// `seq` you have) and `limit`.
#[utoipa::path(
    get,
    path = "/v1/games/{id}/log",
    tag = "games",
    params(
        ("id" = String, Path, description = "The game id"),
        ("after" = Option<i64>, Query, description = "Only entries with a greater seq", minimum = 0),
        ("limit" = Option<u32>, Query, description = "Entries per page, 1 to 200 (default 50)", minimum = 1, maximum = 200),
        ("if-none-match" = Option<String>, Header, description = "The ETag of the copy the client holds (`\"7\"`, weak tags too, or `*`; an empty one is ignored): when the game is still at that version the answer is 304 with no body", pattern = "^(|\\*|(W/)?\"[!#-~]*\"( *, *(W/)?\"[!#-~]*\")*)$"),
    ),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "A page of the log", body = LogPage, headers(("etag" = String, description = "The game's version"))),
        (status = 304, description = "Not modified: the game is still at the version If-None-Match named", headers(("etag" = String, description = "The version"))),
        GetLogRefused,
        NoSuchGame,
    )
)]
pub async fn get_log(
    State(ctx): State<Arc<AppCtx>>,
    Params(id): Params<String>,
    QueryParams(page): QueryParams<PageParams>,
    bearer: Bearer,
    if_none_match: IfNoneMatch,
) -> Result<Reply, ApiError> {
    let limit = limit_in(page.limit, 50, 200)?;
    let after = page.after()?;
    let record = load_record(&ctx, &id).await?;
    let viewer = identify(&record, bearer.token())?.viewer();
    if let Some(not_modified) = if_none_match.not_modified(record.version) {
        return Ok(not_modified);
    }
    let entries = ctx.store.log(&id, after, limit).await?;
    let next_after = next_after(&entries, &record);
    let entries = log_items(&ctx, &record, &entries, viewer);
    Ok(Reply::json(
        200,
        &LogPage {
            ruleset: record.ruleset.clone(),
            entries,
            next_after,
        },
    )
    .header("etag", super::etag(record.version)))
}

/// `entries` of `record`'s log as `viewer` may read them: what `GET /v1/games/{id}/log`
/// lists and what a stream's `log` events carry.
pub(crate) fn log_items(
    ctx: &AppCtx,
    record: &store::GameRecord,
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

/// A page of a list ordered by `seq`: the entries after `after`, at most `limit`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageParams {
    /// Signed as the contract states it (`int64`, minimum 0): a larger number is refused
    /// like any other bad value, and a negative one by [`PageParams::after`].
    after: Option<i64>,
    limit: Option<u32>,
}

impl PageParams {
    /// The `after` to read from, checked.
    fn after(&self) -> Result<Option<u64>, Error> {
        match self.after {
            Some(after) if after < 0 => Err(Error::Malformed(
                "after must be a non-negative integer".into(),
            )),
            after => Ok(after.map(|after| after as u64)),
        }
    }
}

/// The `after` of the next page: the last entry's seq, unless it is the log's last.
fn next_after(entries: &[LogEntry], record: &store::GameRecord) -> Option<u64> {
    entries
        .last()
        .map(|entry| entry.seq)
        .filter(|&seq| seq + 1 < record.log_len)
}

/// Most audit entries one response carries (`limit`'s maximum; the default is 200).
pub const MAX_AUDIT_PAGE: u32 = 1000;

problems! {
    /// How `get_audit` refuses a request, beyond the shared refusals it lists.
    GetAuditRefused {
        400 => "Bad query parameter",
    }
}

/// Audit a game
///
/// While the game runs: the seed commitment and the public log. Once it is finished: also
/// the server secret, every seat's entropy, the complete log with every event's visibility
/// and the state hash after each entry, so anyone can replay it (`beurs verify`).
#[utoipa::path(
    get,
    path = "/v1/games/{id}/audit",
    tag = "games",
    params(
        ("id" = String, Path, description = "The game id"),
        ("after" = Option<i64>, Query, description = "Only entries with a greater seq", minimum = 0),
        ("limit" = Option<u32>, Query, description = "Entries per page, 1 to 1000 (default 200)", minimum = 1, maximum = 1000),
    ),
    responses(
        (status = 200, description = "The audit, with one page of its entries", body = Audit),
        GetAuditRefused,
        NoSuchGame,
    )
)]
pub async fn get_audit(
    State(ctx): State<Arc<AppCtx>>,
    Params(id): Params<String>,
    QueryParams(page): QueryParams<PageParams>,
) -> Result<Reply, ApiError> {
    let limit = limit_in(page.limit, 200, MAX_AUDIT_PAGE)?;
    let record = load_record(&ctx, &id).await?;
    let entries = ctx.store.log(&id, page.after()?, limit).await?;
    let next_after = next_after(&entries, &record);
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
        Some(_) if finished => match engine_of(&ctx, &record) {
            Ok(engine) => engine.and_then(|engine| engine.outcome()),
            Err(Error::RulesVersionRetired { .. }) => None,
            Err(error) => return Err(error.into()),
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
    Ok(Reply::json(200, &audit))
}
