//! `POST /v1/games/{id}/pause` and `/resume` (the admin's), and `POST`/`DELETE
//! /v1/games/{id}/seats/{seat}/vacation` (the seat's): stopping move clocks. What they do to
//! a game is in [`service::game::pause`].

use super::etag;
use super::problems::{problems, BadHeader, BadToken, RetiredRules};
use crate::error::{ApiError, Error};
use crate::http::{Bearer, Params, Reply};
use axum::extract::State;
use service::auth::{identify, Caller};
use service::ctx::AppCtx;
use service::dto::GameEnvelope;
use service::game::games::envelope;
use service::game::pause::{change_clock, ClockChange};
use service::game::{load_record, ruleset_of, Guard};
use service::seats::{require_own_seat, seat_in};
use service::time::now_ms;
use std::sync::Arc;
use store::GameRecord;
use store::Scope;

problems! {
    /// How `pause_game` and `resume_game` refuse a request, beyond the shared refusals.
    PauseRefused {
        403 => "Not the game's admin token",
        404 => "No such game",
        409 => "The game is not being played (`game-not-active`, `game-over`) or has no move clock (`no-clock`)",
    }
}

/// The game as `caller` sees it, with its version as the `ETag`.
fn answer(ctx: &AppCtx, record: &GameRecord, caller: Caller) -> Result<Reply, Error> {
    let envelope: GameEnvelope = envelope(ctx, record, caller)?;
    Ok(Reply::json(200, &envelope).header("etag", etag(record.version)))
}

/// The admin's change of every clock of game `id`.
async fn by_admin(
    ctx: &AppCtx,
    id: &str,
    bearer: &Bearer,
    change: ClockChange,
) -> Result<Reply, Error> {
    let record = load_record(ctx, id).await?;
    match identify(&record, bearer.who())? {
        Caller::Admin => {}
        Caller::App(scopes) => scopes.require(Scope::GamesAdmin)?,
        Caller::Anonymous => {
            return Err(Error::Unauthorized(
                "pausing needs the game's admin token (Authorization: Bearer bt_admin_…)",
            ))
        }
        Caller::Seat(_) => {
            return Err(Error::Forbidden(
                "only the game's admin may pause or resume its clocks",
            ))
        }
    }
    ruleset_of(ctx, &record)?;
    let record = change_clock(ctx, record, &Guard::default(), change, now_ms()).await?;
    answer(ctx, &record, Caller::Admin)
}

/// Pause every clock
///
/// The admin stops every move clock of the game: no deadline passes and no reminder is sent
/// until they resume it. Play goes on meanwhile; a move made while paused costs no time.
/// The log tells it ("The admin paused every clock."), and the game's `clock.paused_since`
/// says since when. Pausing a paused game changes nothing.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/pause",
    tag = "games",
    params(("id" = String, Path, description = "The game id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, its clocks paused", body = GameEnvelope, headers(("etag" = String, description = "The version"))),
        PauseRefused,
        BadHeader,
        BadToken,
        RetiredRules,
    )
)]
pub async fn pause_game(
    State(ctx): State<Arc<AppCtx>>,
    Params(id): Params<String>,
    bearer: Bearer,
) -> Result<Reply, ApiError> {
    Ok(by_admin(&ctx, &id, &bearer, ClockChange::Pause).await?)
}

/// Resume every clock
///
/// The admin starts the clocks again: each wait goes on with the time it had left when the
/// game was paused (a wait that began during the pause begins now). A seat on vacation stays
/// still until it comes back. Resuming a game that is not paused changes nothing.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/resume",
    tag = "games",
    params(("id" = String, Path, description = "The game id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, its clocks running", body = GameEnvelope, headers(("etag" = String, description = "The version"))),
        PauseRefused,
        BadHeader,
        BadToken,
        RetiredRules,
    )
)]
pub async fn resume_game(
    State(ctx): State<Arc<AppCtx>>,
    Params(id): Params<String>,
    bearer: Bearer,
) -> Result<Reply, ApiError> {
    Ok(by_admin(&ctx, &id, &bearer, ClockChange::Resume).await?)
}

problems! {
    /// How `start_vacation` and `end_vacation` refuse a request, beyond the shared refusals.
    VacationRefused {
        403 => "Not this seat's token",
        404 => "No such game or seat",
        409 => "The game is not being played (`game-not-active`, `game-over`), has no move clock (`no-clock`), or the seat has no vacation left (`no-vacation-left`)",
    }
}

/// The seat's own change of its clock.
async fn by_seat(
    ctx: &AppCtx,
    id: &str,
    seat_param: &str,
    bearer: &Bearer,
    change: impl FnOnce(u8) -> ClockChange,
) -> Result<Reply, Error> {
    let record = load_record(ctx, id).await?;
    let caller = identify(&record, bearer.who())?;
    let seat = seat_in(&record, seat_param)?;
    require_own_seat(
        caller,
        seat,
        "a vacation needs the seat's token (Authorization: Bearer bt_seat_…)",
        "only the seat's own token may take its vacation",
    )?;
    ruleset_of(ctx, &record)?;
    let record = change_clock(ctx, record, &Guard::default(), change(seat), now_ms()).await?;
    answer(ctx, &record, caller)
}

/// Go on vacation
///
/// The seat's clock stands still until its player comes back (`DELETE`) or the seat's
/// vacation allowance for this game runs out (`vacation` in the clock's options, a week by
/// default); every other seat's clock runs on. The player may still move meanwhile. The log
/// tells it, and the game's `clock.seats[…].vacation_since` and `vacation_left_ms` show it.
/// Going on vacation while on vacation changes nothing.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/seats/{seat}/vacation",
    tag = "seats",
    params(("id" = String, Path, description = "The game id"), ("seat" = u8, Path, description = "The seat, 0-based")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, the seat's clock standing still", body = GameEnvelope, headers(("etag" = String, description = "The version"))),
        VacationRefused,
        BadHeader,
        BadToken,
        RetiredRules,
    )
)]
pub async fn start_vacation(
    State(ctx): State<Arc<AppCtx>>,
    Params((id, seat_param)): Params<(String, String)>,
    bearer: Bearer,
) -> Result<Reply, ApiError> {
    Ok(by_seat(&ctx, &id, &seat_param, &bearer, ClockChange::VacationStart).await?)
}

/// Come back from vacation
///
/// The seat's clock runs again: its wait goes on with the time it had left when the vacation
/// began. The time away is taken from the seat's allowance. Coming back when not away
/// changes nothing.
#[utoipa::path(
    delete,
    path = "/v1/games/{id}/seats/{seat}/vacation",
    tag = "seats",
    params(("id" = String, Path, description = "The game id"), ("seat" = u8, Path, description = "The seat, 0-based")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, the seat's clock running", body = GameEnvelope, headers(("etag" = String, description = "The version"))),
        VacationRefused,
        BadHeader,
        BadToken,
        RetiredRules,
    )
)]
pub async fn end_vacation(
    State(ctx): State<Arc<AppCtx>>,
    Params((id, seat_param)): Params<(String, String)>,
    bearer: Bearer,
) -> Result<Reply, ApiError> {
    Ok(by_seat(&ctx, &id, &seat_param, &bearer, |seat| {
        ClockChange::VacationEnd {
            seat,
            ran_out: false,
        }
    })
    .await?)
}
