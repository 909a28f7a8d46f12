//! `GET /v1/games/{id}/log` (projected for the caller) and `GET /v1/games/{id}/audit`.

use super::problems::{problems, NoSuchGame};
use crate::error::{ApiError, Error};
use crate::http::{limit_in, Bearer, IfNoneMatch, Params, QueryParams, Reply};
use axum::extract::State;
use serde::Deserialize;
use service::audit::Audit;
use service::auth::{identify, Credential};
use service::ctx::AppCtx;
use service::dto::LogPage;
use service::game::load_record;
use service::history;
use std::sync::Arc;

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
    let viewer = identify(&record, bearer.who())?.viewer();
    if let Some(not_modified) = if_none_match.not_modified(record.version) {
        return Ok(not_modified);
    }
    let entries = ctx.store.log(&id, after, limit).await?;
    let next_after = history::next_after(&entries, &record);
    let entries = history::log_items(&ctx, &record, &entries, viewer);
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
/// and the state hash after each entry, so anyone can replay it (`beurs verify`). No token
/// is needed; another app's key finds no game here, as on every route (docs/apps.md).
#[utoipa::path(
    get,
    path = "/v1/games/{id}/audit",
    tag = "games",
    security((), ("bearer" = [])),
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
    bearer: Bearer,
    QueryParams(page): QueryParams<PageParams>,
) -> Result<Reply, ApiError> {
    let limit = limit_in(page.limit, 200, MAX_AUDIT_PAGE)?;
    let record = load_record(&ctx, &id).await?;
    // Anyone may read the audit, with any token or none; only another app's key is
    // refused, as if there were no game.
    if let Credential::App(_) = bearer.who() {
        identify(&record, bearer.who())?;
    }
    let entries = ctx.store.log(&id, page.after()?, limit).await?;
    Ok(Reply::json(200, &history::audit(&ctx, &record, entries)?))
}
