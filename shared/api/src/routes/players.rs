//! Players of apps (docs/api.md, "Players"): player tokens, and a player's games as their
//! app sees them. The service does the work ([`service::players`]).

use super::problems::{problems, BadHeader, JsonBodyRefused};
use crate::error::{ApiError, Error};
use crate::http::{limit_in, Bearer, Params, QueryParams, Reply};
use axum::extract::State;
use serde::Serialize;
use service::auth::{AppKey, Credential};
use service::ctx::AppCtx;
use service::dto::MyGames;
use std::sync::Arc;
use utoipa::ToSchema;

/// A player token, shown once.
#[derive(Serialize, ToSchema)]
pub struct IssuedPlayerToken {
    /// The app's id for the player.
    pub player_id: String,
    /// The token's id (`pt_…`), to revoke it by.
    pub token_id: String,
    /// The token (`bp_…`): the player's seat token in every game of the app they sit in.
    /// Shown only here; the server keeps its SHA-256.
    pub token: String,
}

/// A revoked player token.
#[derive(Serialize, ToSchema)]
pub struct RevokedPlayerToken {
    /// The app's id for the player.
    pub player_id: String,
    /// The token's id.
    pub token_id: String,
}

/// One of a player's tokens (never the token itself, which is shown once).
#[derive(Serialize, ToSchema)]
pub struct PlayerTokenInfo {
    /// The token's id (`pt_…`): what revoking names.
    pub id: String,
    /// When it was issued (RFC 3339).
    pub created_at: String,
    /// When it was revoked (RFC 3339), if it was: from then on it is refused with 401.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revoked_at: Option<String>,
}

/// A player's tokens.
#[derive(Serialize, ToSchema)]
pub struct PlayerTokens {
    /// The app's id for the player.
    pub player_id: String,
    /// The live tokens and the latest revoked ones, oldest first.
    pub tokens: Vec<PlayerTokenInfo>,
}

/// The app key a players route needs.
fn app_key(bearer: &Bearer) -> Result<&AppKey, ApiError> {
    match bearer.who() {
        Credential::App(key) => Ok(key),
        Credential::Anonymous => Err(Error::Unauthorized(
            "this route needs the app's key (Authorization: Bearer bk_…)",
        )
        .into()),
        _ => Err(Error::Forbidden("this route needs the app's key (bk_…)").into()),
    }
}

problems! {
    /// How the players routes refuse a request, beyond the shared refusals they list.
    PlayersRefused {
        401 => "No app key, or one not valid",
        403 => "Not an app key, or one without the scope the route needs",
        404 => "The player has no token with this id",
        422 => "A player id that is empty, too long or has control characters; too many live tokens",
    }
}

/// Issue a player token
///
/// With the app key (`games:admin`): a new token for the app's player `player_id` (the
/// app's own id, as given in `player_id` when it claimed seats for them). The token acts as
/// the player's seat token in every game of the app they sit in, now and later, and lists
/// their games at `GET /v1/me/games`. At most five live tokens per player (422
/// `too-many-keys`): revoke one first.
#[utoipa::path(
    post,
    path = "/v1/players/{player_id}/tokens",
    tag = "players",
    params(("player_id" = String, Path, description = "The app's id for the player")),
    security(("bearer" = [])),
    responses(
        (status = 201, description = "The new token (shown once)", body = IssuedPlayerToken),
        PlayersRefused,
        JsonBodyRefused,
    )
)]
pub async fn issue_player_token(
    State(ctx): State<Arc<AppCtx>>,
    Params(player_id): Params<String>,
    bearer: Bearer,
) -> Result<Reply, ApiError> {
    let key = app_key(&bearer)?;
    let issued = service::players::issue_token(ctx.store.as_ref(), key, &player_id).await?;
    Ok(Reply::json(
        201,
        &IssuedPlayerToken {
            player_id: issued.player.id,
            token_id: issued.record.id,
            token: issued.token,
        },
    ))
}

/// List a player's tokens
///
/// With the app key (`games:admin`): the ids and dates of the player's live tokens and of
/// the latest revoked ones, never the tokens themselves; what an app lists to find the token
/// to revoke. A player the app never issued a token to has none.
#[utoipa::path(
    get,
    path = "/v1/players/{player_id}/tokens",
    tag = "players",
    params(("player_id" = String, Path, description = "The app's id for the player")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The player's tokens", body = PlayerTokens),
        PlayersRefused,
        BadHeader,
    )
)]
pub async fn list_player_tokens(
    State(ctx): State<Arc<AppCtx>>,
    Params(player_id): Params<String>,
    bearer: Bearer,
) -> Result<Reply, ApiError> {
    let key = app_key(&bearer)?;
    let tokens = service::players::tokens(ctx.store.as_ref(), key, &player_id).await?;
    Ok(Reply::json(
        200,
        &PlayerTokens {
            player_id,
            tokens: tokens
                .iter()
                .map(|token| PlayerTokenInfo {
                    id: token.id.clone(),
                    created_at: service::time::rfc3339(token.created_at),
                    revoked_at: token.revoked_at.map(service::time::rfc3339),
                })
                .collect(),
        },
    ))
}

/// Revoke a player token
///
/// With the app key (`games:admin`): the token is refused (401) from now on. Revoking a
/// revoked token changes nothing.
#[utoipa::path(
    delete,
    path = "/v1/players/{player_id}/tokens/{token_id}",
    tag = "players",
    params(
        ("player_id" = String, Path, description = "The app's id for the player"),
        ("token_id" = String, Path, description = "The token's id (`pt_…`)"),
    ),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The token is revoked", body = RevokedPlayerToken),
        PlayersRefused,
        BadHeader,
    )
)]
pub async fn revoke_player_token(
    State(ctx): State<Arc<AppCtx>>,
    Params((player_id, token_id)): Params<(String, String)>,
    bearer: Bearer,
) -> Result<Reply, ApiError> {
    let key = app_key(&bearer)?;
    service::players::revoke_token(ctx.store.as_ref(), key, &player_id, &token_id).await?;
    Ok(Reply::json(
        200,
        &RevokedPlayerToken {
            player_id,
            token_id,
        },
    ))
}

/// A page of a player's games.
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PlayerGamesPage {
    /// Resume after this cursor (`next_after` of the last page).
    #[param(pattern = "^[0-9]{1,19}\\.[^\\u0000-\\u001f\\u007f-\\u009f]+$")]
    pub after: Option<String>,
    /// At most this many games (1 to 100, default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
}

/// List a player's games
///
/// With the app key (`games:read`): every game of the app that player `player_id` sits in,
/// newest first, each with the player's seat, whose turn it is and every seat's deadline, as
/// the player's own `GET /v1/me/games` shows them.
#[utoipa::path(
    get,
    path = "/v1/players/{player_id}/games",
    tag = "players",
    params(("player_id" = String, Path, description = "The app's id for the player"), PlayerGamesPage),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The player's games", body = MyGames),
        PlayersRefused,
        BadHeader,
    )
)]
pub async fn player_games(
    State(ctx): State<Arc<AppCtx>>,
    Params(player_id): Params<String>,
    bearer: Bearer,
    params: Result<QueryParams<PlayerGamesPage>, ApiError>,
) -> Result<Reply, ApiError> {
    let key = app_key(&bearer)?;
    let QueryParams(params) = params?;
    key.scopes.require(store::Scope::GamesRead)?;
    let limit = limit_in(params.limit, 20, 100)?;
    let games = service::players::games(
        &ctx,
        &key.app,
        service::players::check_player_id(&player_id)?,
        params.after.as_deref(),
        limit,
    )
    .await?;
    Ok(Reply::json(200, &games))
}
