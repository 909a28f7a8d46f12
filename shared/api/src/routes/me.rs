//! `GET /v1/me/games`: the games a token is in, for a "my games" page.

use super::problems::{problems, BadHeader};
use crate::error::{ApiError, Error};
use crate::http::{Bearer, Reply};
use axum::extract::State;
use game_core::Seat;
use service::auth::{game_of_token, identify, Caller};
use service::clock::Clock;
use service::ctx::AppCtx;
use service::dto::{MyGame, MyGames};
use service::game::{engine_of, load_record, seat_numbers};
use service::time::rfc3339;
use std::sync::Arc;
use store::GameRecord;

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

/// The game a bearer token is in, and its seat there (`None`: the admin's token); 401 for no
/// token, a token no game knows, or one issued before tokens named their game.
pub(crate) async fn token_game(
    ctx: &AppCtx,
    token: Option<&str>,
) -> Result<(GameRecord, Option<u8>), Error> {
    const UNKNOWN: &str = "the token is not valid for any game";
    let token = token.ok_or(Error::Unauthorized(
        "send a seat or admin token (Authorization: Bearer …)",
    ))?;
    let id = game_of_token(token).ok_or(Error::Unauthorized(UNKNOWN))?;
    let record = match load_record(ctx, &id).await {
        Err(Error::GameNotFound) => return Err(Error::Unauthorized(UNKNOWN)),
        other => other?,
    };
    let seat = match identify(&record, Some(token)) {
        Ok(Caller::Seat(seat)) => Some(seat),
        Ok(Caller::Admin) => None,
        Ok(Caller::Anonymous) | Err(_) => return Err(Error::Unauthorized(UNKNOWN)),
    };
    Ok((record, seat))
}

/// `record` as a "my games" entry for the holder of `seat`'s token (`None`: the admin's).
pub(crate) fn my_game(
    ctx: &AppCtx,
    record: &GameRecord,
    seat: Option<u8>,
) -> Result<MyGame, Error> {
    let engine = engine_of(ctx, record)?;
    let waiting_on = engine
        .as_ref()
        .map(|engine| seat_numbers(engine.waiting_on()))
        .unwrap_or_default();
    let your_turn = seat.is_some_and(|seat| {
        engine
            .as_ref()
            .is_some_and(|engine| engine.waiting_on().contains(Seat(seat)))
    });
    Ok(MyGame {
        id: record.id.clone(),
        ruleset: record.ruleset.clone(),
        status: record.status.into(),
        version: record.version,
        seat,
        your_turn,
        waiting_on,
        clock: Clock::of(record)?.map(|clock| clock.view()),
        updated_at: rfc3339(record.updated_at),
    })
}
