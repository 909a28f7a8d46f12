//! `GET /v1/me/games`: the games a token is in, for a "my games" page.

use super::problems::{problems, BadHeader};
use crate::auth::{game_of_token, identify, Caller};
use crate::clock::Clock;
use crate::ctx::AppCtx;
use crate::dto::{MyGame, MyGames};
use crate::error::ApiError;
use crate::game::{engine_of, load_record, seat_numbers};
use crate::http::{Bearer, Reply};
use crate::time::rfc3339;
use axum::extract::State;
use game_core::Seat;
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
    const UNKNOWN: &str = "the token is not valid for any game";
    let token = bearer.token().ok_or(ApiError::Unauthorized(
        "send a seat or admin token (Authorization: Bearer …)",
    ))?;
    let id = game_of_token(token).ok_or(ApiError::Unauthorized(UNKNOWN))?;
    let record = match load_record(&ctx, &id).await {
        Err(ApiError::GameNotFound) => return Err(ApiError::Unauthorized(UNKNOWN)),
        other => other?,
    };
    let seat = match identify(&record, Some(token)) {
        Ok(Caller::Seat(seat)) => Some(seat),
        Ok(Caller::Admin) => None,
        Ok(Caller::Anonymous) | Err(_) => return Err(ApiError::Unauthorized(UNKNOWN)),
    };
    let engine = engine_of(&ctx, &record)?;
    let waiting_on = engine
        .as_ref()
        .map(|engine| seat_numbers(engine.waiting_on()))
        .unwrap_or_default();
    let your_turn = seat.is_some_and(|seat| {
        engine
            .as_ref()
            .is_some_and(|engine| engine.waiting_on().contains(Seat(seat)))
    });
    let game = MyGame {
        id: record.id.clone(),
        ruleset: record.ruleset.clone(),
        status: record.status.into(),
        version: record.version,
        seat,
        your_turn,
        waiting_on,
        clock: Clock::of(&record)?.map(|clock| clock.view()),
        updated_at: rfc3339(record.updated_at),
    };
    Ok(Reply::json(200, &MyGames { games: vec![game] }))
}
