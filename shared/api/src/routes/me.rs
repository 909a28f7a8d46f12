//! `GET /v1/me/games`: the games a token is in, for a "my games" page.

use super::problems::{problems, BadHeader};
use crate::error::ApiError;
use crate::http::{limit_in, Bearer, QueryParams, Reply};
use axum::extract::State;
use service::ctx::AppCtx;
use service::dto::MyGames;
use service::me::{my_game, token_game};
use std::sync::Arc;

problems! {
    /// How `my_games` refuses a request, beyond the shared refusals it lists.
    MyGamesRefused {
        400 => "Bad query parameter (`after` not a cursor from this server, `limit` out of range)",
        401 => "No token, or a token no game knows",
    }
}

/// List your games
///
/// The games the bearer token is in, each with whose turn it is and every seat's deadline:
/// what a "my games" page shows. A seat's or the admin's token belongs to one game, so the
/// list has one entry. A player token (`bp_…`, docs/api.md "Players") lists every game of
/// its app the player sits in, newest first, paged with `after` and `limit`. Tokens issued
/// before tokens named their game are refused here (401) and still work on their game's
/// routes.
#[utoipa::path(
    get,
    path = "/v1/me/games",
    tag = "games",
    params(super::players::PlayerGamesPage),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The token's games", body = MyGames),
        MyGamesRefused,
        BadHeader,
    )
)]
pub async fn my_games(
    State(ctx): State<Arc<AppCtx>>,
    bearer: Bearer,
    params: Result<QueryParams<super::players::PlayerGamesPage>, ApiError>,
) -> Result<Reply, ApiError> {
    // Who is asking comes first: without a token the answer is 401, whatever the query.
    if matches!(bearer.who(), service::auth::Credential::Anonymous) {
        return Err(service::Error::Unauthorized(
            "send a seat, admin or player token (Authorization: Bearer …)",
        )
        .into());
    }
    let QueryParams(params) = params?;
    let limit = limit_in(params.limit, 20, 100)?;
    if let service::auth::Credential::Player(player) = bearer.who() {
        let games = service::players::games(
            &ctx,
            &player.app,
            &player.player,
            params.after.as_deref(),
            limit,
        )
        .await?;
        return Ok(Reply::json(200, &games));
    }
    let (record, seat) = token_game(&ctx, bearer.token()).await?;
    let game = my_game(&ctx, &record, seat)?;
    Ok(Reply::json(
        200,
        &MyGames {
            games: vec![game],
            next_after: None,
        },
    ))
}
