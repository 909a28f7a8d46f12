//! `GET /v1/games/{id}/history/{seq}`: the game as it stood after one log entry, redacted
//! for the caller as it was then.

use super::problems::{problems, NoSuchGame, RetiredRules};
use crate::error::ApiError;
use crate::http::{Bearer, IfNoneMatch, Params, Reply};
use axum::extract::State;
use service::auth::identify;
use service::ctx::AppCtx;
use service::dto::HistoryPoint;
use service::game::load_record;
use service::history;
use std::sync::Arc;

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
    let viewer = identify(&record, bearer.who())?.viewer();
    let seq = history::entry_in(&record, history::parse_seq(&seq_param)?)?;
    if let Some(not_modified) = if_none_match.not_modified(record.version) {
        return Ok(not_modified);
    }
    let point = history::point(&ctx, &record, seq, viewer).await?;
    Ok(Reply::json(200, &point).header("etag", super::etag(record.version)))
}
