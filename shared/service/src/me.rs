//! A token's own games: the game a seat or admin token names, and that game as a "my games"
//! entry.

use crate::auth::{game_of_token, identify, Caller, Credential};
use crate::clock::Clock;
use crate::ctx::AppCtx;
use crate::dto::MyGame;
use crate::error::Error;
use crate::game::{engine_of, load_record, seat_numbers};
use crate::time::rfc3339;
use game_core::Seat;
use store::GameRecord;

/// The game a bearer token is in, and its seat there (`None`: the admin's token); 401 for no
/// token, a token no game knows, or one issued before tokens named their game.
pub async fn token_game(
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
    let seat = match identify(&record, &Credential::Token(token.to_owned())) {
        Ok(Caller::Seat(seat)) => Some(seat),
        Ok(Caller::Admin) => None,
        Ok(Caller::Anonymous | Caller::App(_)) | Err(_) => {
            return Err(Error::Unauthorized(UNKNOWN))
        }
    };
    Ok((record, seat))
}

/// `record` as a "my games" entry for the holder of `seat`'s token (`None`: the admin's).
pub fn my_game(ctx: &AppCtx, record: &GameRecord, seat: Option<u8>) -> Result<MyGame, Error> {
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
