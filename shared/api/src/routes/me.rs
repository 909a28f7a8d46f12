//! `GET /v1/me/games`: the games a token is in, for a "my games" page.

use super::problems::{problems, BadHeader};
use crate::error::ApiError;
use crate::http::{Bearer, Reply};
use axum::extract::State;
use service::ctx::AppCtx;
use service::dto::MyGames;
use service::me::{my_game, token_game};
use std::sync::Arc;

problems! {
    /// How `my_games` refuses a request, beyond the shared refusals it lists.
    MyGamesRefused {
        401 => "No token, or a token no game knows",
    }
}

/// List your games
///
/// The games the bearer token (a seat's or the admin's) is in, each with whose turn it is and
/// every seat's deadline: what a "my games" page shows. A token belongs to one game, so the
/// list has one entry; it is a list so that it can grow when tokens do. Tokens issued before
/// tokens named their game are refused here (401) and still work on their game's routes.
#[utoipa::path(
    get,
    path = "/v1/me/games",
    tag = "games",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The token's games", body = MyGames),
        MyGamesRefused,
        BadHeader,
    )
)]
pub async fn my_games(State(ctx): State<Arc<AppCtx>>, bearer: Bearer) -> Result<Reply, ApiError> {
    let (record, seat) = token_game(&ctx, bearer.token()).await?;
    let game = my_game(&ctx, &record, seat)?;
    Ok(Reply::json(200, &MyGames { games: vec![game] }))
}
