//! `GET /v1/games/{id}/history/{seq}`: the game as it stood after one log entry, redacted
//! for the caller as it was then.

use super::problems::{problems, NoSuchGame, RetiredRules};
use crate::error::{ApiError, Code, Error};
use crate::http::{Bearer, IfNoneMatch, Params, Reply};
use axum::extract::State;
use service::auth::identify;
use service::ctx::AppCtx;
use service::dto::{GameStatus, HistoryPoint};
use service::game::{load_record, ruleset_of, seat_numbers};
use service::log::{Replayer, StoredAction};
use service::seed::seed_of_record;
use std::sync::Arc;
use store::{GameRecord, LogEntry};

/// The most log entries one read of the store returns while the history is replayed.
const PAGE: usize = 1000;

problems! {
    /// How `get_history` refuses a request, beyond the shared refusals it lists.
    GetHistoryRefused {
        400 => "The position is not a whole number",
        401 => "The token is not valid for this game",
        404 => "No such game, or the log has no such entry yet (`entry-not-found`)",
    }
}

/// Read the game at an earlier point
///
/// The game as it stood right after log entry `seq` (0 is the deal), exactly as the caller
/// saw it then: a seat's token shows that seat's view, no token or the admin token the
/// spectator's. Nothing hidden then is shown now, even once the game has ended; the audit is
/// what reveals everything. A replay slider asks for each entry from 0 to `last_seq`.
#[utoipa::path(
    get,
    path = "/v1/games/{id}/history/{seq}",
    tag = "games",
    params(
        ("id" = String, Path, description = "The game id"),
        ("seq" = u64, Path, description = "The log entry, from 0 (the deal) to the game's last"),
        ("if-none-match" = Option<String>, Header, description = "The ETag of the copy the client holds (`\"7\"`, weak tags too, or `*`; an empty one is ignored): when the game is still at that version the answer is 304 with no body", pattern = "^(|\\*|(W/)?\"[!#-~]*\"( *, *(W/)?\"[!#-~]*\")*)$"),
    ),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The game as the caller saw it after that entry", body = HistoryPoint, headers(("etag" = String, description = "The game's version"))),
        (status = 304, description = "Not modified: the game is still at the version If-None-Match named", headers(("etag" = String, description = "The version"))),
        GetHistoryRefused,
        NoSuchGame,
        RetiredRules,
    )
)]
pub async fn get_history(
    State(ctx): State<Arc<AppCtx>>,
    Params((id, seq_param)): Params<(String, String)>,
    bearer: Bearer,
    if_none_match: IfNoneMatch,
) -> Result<Reply, ApiError> {
    let record = load_record(&ctx, &id).await?;
    let viewer = identify(&record, bearer.token())?.viewer();
    let seq = parse_seq(&seq_param)?;
    let Some(seq) = seq.filter(|&seq| seq < record.log_len) else {
        return Err(Error::refused(
            Code::EntryNotFound,
            match record.log_len {
                0 => "the game has not started: its log is empty".to_string(),
                len => format!("the log runs from entry 0 to {}", len - 1),
            },
        )
        .into());
    };
    if let Some(not_modified) = if_none_match.not_modified(record.version) {
        return Ok(not_modified);
    }
    let entries = log_until(&ctx, &record, seq).await?;
    let ruleset = ruleset_of(&ctx, &record)?;
    let seed = seed_of_record(&record)?;
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
    Ok(Reply::json(200, &point).header("etag", super::etag(record.version)))
}

/// A log position as the path gives it: decimal digits only. A number too large for any log
/// (beyond `u64`) is a position past the end, as the contract's integer allows it: `None`.
fn parse_seq(text: &str) -> Result<Option<u64>, Error> {
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
