//! `POST /v1/games`, `GET /v1/games` (the lobby) and `GET /v1/games/{id}`.

use super::etag;
use super::problems::{problems, BadHeader, BadToken, JsonBodyRefused, NoSuchGame, RetiredRules};
use crate::error::{ApiError, Error};
use crate::http::{
    limit_in, Bearer, ClientOrigin, IfNoneMatch, JsonBody, Params, QueryParams, Reply,
};
use axum::extract::State;
use serde::Deserialize;
use service::auth::identify;
use service::ctx::AppCtx;
use service::dto::{CreateGame, CreatedGame, GameEnvelope, GameList, Include};
use service::game::games::{envelope, wait_for_version};
use service::game::load_record;
use service::moves::{legal_listing, seat_of};
use std::sync::Arc;
use std::time::Duration;

problems! {
    /// How `create_game` refuses a request, beyond the shared refusals it lists.
    CreateGameRefused {
        400 => "Malformed body",
        422 => "Unknown ruleset, bad seat count or invalid options",
    }
}

/// Create a game
///
/// Creates an open game with empty seats and returns its admin token (shown once) and the
/// seed commitment: the SHA-256 of a server secret that the audit reveals when the game ends.
/// The game starts when the last seat is claimed. Created with an app key (`games:create`),
/// the game belongs to the app: its key administers it as the admin token does, and no other
/// app's key finds it (docs/apps.md). A server started with `--require-app-key` creates games
/// for app keys only.
#[utoipa::path(
    post,
    path = "/v1/games",
    tag = "games",
    request_body = CreateGame,
    security((), ("bearer" = [])),
    responses(
        (status = 201, description = "The game was created", body = CreatedGame,
            headers(("location" = String, description = "The game's URL"), ("etag" = String, description = "The version"))),
        CreateGameRefused,
        JsonBodyRefused,
    )
)]
pub async fn create_game(
    State(ctx): State<Arc<AppCtx>>,
    bearer: Bearer,
    ClientOrigin(origin): ClientOrigin,
    JsonBody(body): JsonBody<CreateGame>,
) -> Result<Reply, ApiError> {
    let created =
        service::game::games::create_game(&ctx, bearer.who(), origin.as_ref(), body).await?;
    let location = format!("/v1/games/{}", created.id);
    let version = created.version;
    Ok(Reply::json(201, &created)
        .header("location", location)
        .header("etag", etag(version)))
}

/// The lobby's query parameters.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyParams {
    ruleset: Option<String>,
    status: Option<String>,
    after: Option<String>,
    limit: Option<u32>,
}

problems! {
    /// How `list_games` refuses a request, beyond the shared refusals it lists.
    ListGamesRefused {
        400 => "Bad query parameter",
        422 => "No such ruleset",
    }
}

/// List open games (the lobby)
///
/// Open games that anyone may join, oldest first, a page at a time. With an app key
/// (`games:read`), the app's own unfinished games instead, invite-only ones too, each with
/// its status.
#[utoipa::path(
    get,
    path = "/v1/games",
    tag = "games",
    security((), ("bearer" = [])),
    params(
        ("ruleset" = Option<String>, Query, description = "Only games of this ruleset"),
        ("status" = Option<String>, Query, description = "Only `open` is supported (the default)", pattern = "^open$"),
        ("after" = Option<String>, Query, description = "The `next_after` of the previous page", pattern = "^[0-9]{1,19}\\.[^\\u0000-\\u001f\\u007f-\\u009f]+$"),
        ("limit" = Option<u32>, Query, description = "Games per page, 1 to 100 (default 20)", minimum = 1, maximum = 100),
    ),
    responses(
        (status = 200, description = "One page of open games", body = GameList),
        ListGamesRefused,
    )
)]
pub async fn list_games(
    State(ctx): State<Arc<AppCtx>>,
    bearer: Bearer,
    QueryParams(params): QueryParams<LobbyParams>,
) -> Result<Reply, ApiError> {
    let limit = limit_in(params.limit, 20, 100)?;
    let list = service::game::games::lobby(
        &ctx,
        bearer.who(),
        params.ruleset.as_deref(),
        params.status.as_deref(),
        params.after.as_deref(),
        limit,
    )
    .await?;
    Ok(Reply::json(200, &list))
}

problems! {
    /// How `get_game` refuses a request, beyond the shared refusals it lists.
    GetGameRefused {
        401 => "The token is not valid for this game, or `include=legal_actions` came without a token",
        403 => "`include=legal_actions` came with the admin token, which holds no seat",
    }
}

/// Read a game
///
/// The envelope (status, seats, who is to act, the seed commitment) and the caller's view:
/// a seat's token shows that seat's view; no token, or the admin token, shows the spectator
/// view (public information only). The `ETag` is the version to send as `If-Match`.
///
/// To follow a game, long-poll: send `after_version` (the version you have) and `wait` (up
/// to 25 seconds). The answer comes as soon as the game's version is greater, or when `wait`
/// runs out with the unchanged game (compare `version`). This works the same on every
/// deployment, API Gateway included, so a page or bot needs no other channel.
#[utoipa::path(
    get,
    path = "/v1/games/{id}",
    tag = "games",
    params(
        ("id" = String, Path, description = "The game id"),
        ("after_version" = Option<i64>, Query, description = "Long-poll: answer once the game's version is greater than this", minimum = 0),
        ("wait" = Option<u32>, Query, description = "Long-poll: the most seconds to wait for a newer version (1 to 25); without `after_version`, for any change from the version the game has now", minimum = 1, maximum = 25),
        ("include" = Option<Include>, Query, description = "`legal_actions` (a seat token only): the answer also holds `legal_actions`, the seat's legal actions at the answer's version, once the game has started; a seat that long-polls this way needs one request to learn both what happened and what it may do"),
        ("if-none-match" = Option<String>, Header, description = "The ETag of the copy the client holds (`\"7\"`, weak tags too, or `*`; an empty one is ignored): when the game is still at that version the answer is 304 with no body", pattern = "^(|\\*|(W/)?\"[!#-~]*\"( *, *(W/)?\"[!#-~]*\")*)$"),
    ),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The game as the caller may see it", body = GameEnvelope,
            headers(("etag" = String, description = "The version"))),
        (status = 304, description = "Not modified: the game is still at the version If-None-Match named", headers(("etag" = String, description = "The version"))),
        GetGameRefused,
        BadHeader,
        NoSuchGame,
        RetiredRules,
    )
)]
pub async fn get_game(
    State(ctx): State<Arc<AppCtx>>,
    Params(id): Params<String>,
    QueryParams(poll): QueryParams<LongPoll>,
    bearer: Bearer,
    if_none_match: IfNoneMatch,
) -> Result<Reply, ApiError> {
    let wait = poll.wait()?;
    let mut record = load_record(&ctx, &id).await?;
    let caller = identify(&record, bearer.who())?;
    if poll.include == Some(Include::LegalActions) {
        // Refused before a long-poll, not after it.
        seat_of(caller)?;
    }
    if let Some((after, wait)) = wait {
        let after = after.unwrap_or(record.version);
        record = wait_for_version(&ctx, record, after, wait).await?;
    }
    if_none_match.answer(record.version, || {
        let mut envelope = envelope(&ctx, &record, caller)?;
        if poll.include == Some(Include::LegalActions) {
            envelope.legal_actions = legal_listing(&ctx, &record, seat_of(caller)?)?;
        }
        Ok(Reply::json(200, &envelope).header("etag", etag(record.version)))
    })
}

/// The longest long-poll: API Gateway answers 504 after 29 seconds.
pub const MAX_WAIT_SECONDS: u32 = 25;

/// The long-poll parameters of `GET /v1/games/{id}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LongPoll {
    after_version: Option<i64>,
    wait: Option<u32>,
    include: Option<Include>,
}

impl LongPoll {
    /// The version to wait past (none given: the version the game has now) and for how long,
    /// if this is a long-poll; checked.
    fn wait(&self) -> Result<Option<(Option<u64>, Duration)>, Error> {
        match (self.after_version, self.wait) {
            (None, None) => Ok(None),
            (Some(after), _) if after < 0 => Err(Error::Malformed(
                "after_version must be a non-negative integer".into(),
            )),
            (_, Some(wait)) if !(1..=MAX_WAIT_SECONDS).contains(&wait) => Err(Error::Malformed(
                format!("wait must be 1 to {MAX_WAIT_SECONDS} seconds"),
            )),
            // Without `wait`, `after_version` alone answers at once.
            (_, None) => Ok(None),
            (after, Some(wait)) => Ok(Some((
                after.map(|after| after as u64),
                Duration::from_secs(u64::from(wait)),
            ))),
        }
    }
}

problems! {
    /// How `delete_game` refuses a request, beyond the shared refusals it lists.
    DeleteGameRefused {
        403 => "A seat's token: only the admin token deletes a game",
    }
}

/// Delete a game
///
/// Deletes the game and everything stored under it: its log and audit, the kept answers of
/// its moves, its webhook subscriptions and the notifications not yet delivered. Only the
/// game's admin token may, at any point of its life. From then on the game is not found
/// (404) by anyone, and a move in flight finds it gone.
#[utoipa::path(
    delete,
    path = "/v1/games/{id}",
    tag = "games",
    params(("id" = String, Path, description = "The game id")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Deleted, with everything under it"),
        DeleteGameRefused,
        BadHeader,
        BadToken,
        NoSuchGame,
    )
)]
pub async fn delete_game(
    State(ctx): State<Arc<AppCtx>>,
    Params(id): Params<String>,
    bearer: Bearer,
) -> Result<Reply, ApiError> {
    service::game::games::delete_game(&ctx, &id, bearer.who()).await?;
    Ok(Reply::empty(204))
}
