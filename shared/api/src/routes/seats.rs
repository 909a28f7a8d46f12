//! `POST /v1/games/{id}/seats/{seat}`: claiming seats (for a player or a bot); the last claim
//! starts the game; `DELETE` leaves one before it starts. `…/resign` hands a seat to a bot;
//! `…/replace` gives it to a new player.
//! The service does the work ([`service::seats`]).

use super::etag;
use super::problems::{problems, BadHeader, BadToken, JsonBodyRefused, RetiredRules};
use crate::error::ApiError;
use crate::http::{Bearer, JsonBody, OptionalJsonBody, Params, Reply};
use axum::extract::State;
use service::ctx::AppCtx;
use service::dto::{ClaimSeat, ClaimedSeat, LeftSeat, ReplaceSeat, ResignSeat, Resigned};
use service::seats;
use std::sync::Arc;

problems! {
    /// How `claim_seat` refuses a request, beyond the shared refusals it lists.
    ClaimSeatRefused {
        400 => "Malformed body",
        401 => "Invite-only game and no valid admin token",
        403 => "Invite-only game and not the admin token",
        404 => "No such game or seat",
        409 => "Seat taken or game not open",
        422 => "Invalid name or entropy",
    }
}

/// Claim a seat
///
/// Takes a free seat and returns its player token (shown once). The optional `entropy` is
/// mixed into the game seed. When the last seat is claimed the seed is fixed and the game is
/// dealt. In an invite-only game only the admin token may claim seats.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/seats/{seat}",
    tag = "seats",
    params(("id" = String, Path, description = "The game id"), ("seat" = u8, Path, description = "The seat, 0-based")),
    request_body = ClaimSeat,
    security((), ("bearer" = [])),
    responses(
        (status = 201, description = "The seat is yours", body = ClaimedSeat),
        ClaimSeatRefused,
        RetiredRules,
        JsonBodyRefused,
    )
)]
pub async fn claim_seat(
    State(ctx): State<Arc<AppCtx>>,
    Params((id, seat_param)): Params<(String, String)>,
    bearer: Bearer,
    JsonBody(body): JsonBody<ClaimSeat>,
) -> Result<Reply, ApiError> {
    let done = seats::claim_seat(&ctx, id, &seat_param, bearer.who(), body).await?;
    Ok(Reply::json(201, &done.answer)
        .header("etag", etag(done.answer.version))
        .detail(done.bots_failed))
}

problems! {
    /// How `leave_seat` refuses a request, beyond the shared refusals it lists.
    LeaveSeatRefused {
        401 => "No token",
        403 => "Neither this seat's token nor the admin's (or an app key without `games:admin`)",
        404 => "No such game or seat",
        409 => "The game has started (resign instead), or the seat is free",
    }
}

/// Leave a seat
///
/// Before the game starts, a seat's player leaves it with the seat's token, or the admin
/// (the admin token, or the game's app key with `games:admin`) frees it, a bot's seat too.
/// The seat is free again for anyone to claim; its token stops working at once, the
/// entropy it gave is forgotten, and its webhook subscriptions are deleted. Once the game has
/// started, a player resigns instead (`…/resign`).
#[utoipa::path(
    delete,
    path = "/v1/games/{id}/seats/{seat}",
    tag = "seats",
    params(("id" = String, Path, description = "The game id"), ("seat" = u8, Path, description = "The seat, 0-based")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The seat is free again", body = LeftSeat, headers(("etag" = String, description = "The new version"))),
        LeaveSeatRefused,
        BadToken,
    )
)]
pub async fn leave_seat(
    State(ctx): State<Arc<AppCtx>>,
    Params((id, seat_param)): Params<(String, String)>,
    bearer: Bearer,
) -> Result<Reply, ApiError> {
    let left = seats::leave_seat(&ctx, id, &seat_param, bearer.who()).await?;
    let version = left.version;
    Ok(Reply::json(200, &left).header("etag", etag(version)))
}

problems! {
    /// How `resign_seat` refuses a request, beyond the shared refusals it lists.
    ResignSeatRefused {
        400 => "Malformed body (an unknown bot level, say)",
        403 => "Not this seat's token",
        404 => "No such game or seat",
        409 => "The game is not being played, or the seat already resigned",
    }
}

/// Resign
///
/// The seat's player leaves the game; a bot plays the seat from then on (`random`, or the
/// level the optional body names: `{"bot": "strong"}`), so the game goes on for everyone else (each ruleset's page in docs/rules says the same). The seat's
/// token still reads its view and log, but may no longer move (409 `seat-resigned`). Only
/// the seat's own token may resign it, and only while the game is being played.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/seats/{seat}/resign",
    tag = "seats",
    request_body(content = Option<ResignSeat>, description = "Optional: the bot that plays on (no body, `null` or `{}`: `random`)"),
    params(("id" = String, Path, description = "The game id"), ("seat" = u8, Path, description = "The seat, 0-based")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The seat is a bot's now", body = Resigned, headers(("etag" = String, description = "The new version"))),
        ResignSeatRefused,
        JsonBodyRefused,
        BadHeader,
        BadToken,
        RetiredRules,
    )
)]
pub async fn resign_seat(
    State(ctx): State<Arc<AppCtx>>,
    Params((id, seat_param)): Params<(String, String)>,
    bearer: Bearer,
    OptionalJsonBody(body): OptionalJsonBody<ResignSeat>,
) -> Result<Reply, ApiError> {
    let done = seats::resign_seat(&ctx, id, &seat_param, bearer.who(), body).await?;
    Ok(Reply::json(200, &done.answer)
        .header("etag", etag(done.answer.version))
        .detail(done.bots_failed))
}

problems! {
    /// How `replace_seat` refuses a request, beyond the shared refusals it lists.
    ReplaceSeatRefused {
        400 => "Malformed body (neither or both of `name` and `bot`, an unknown bot level)",
        403 => "Not the admin token",
        404 => "No such game or seat",
        409 => "The seat is free (claim it instead) or the game is over",
        422 => "Invalid name",
    }
}

/// Give a seat to a new player
///
/// The admin hands a claimed seat to a new player (`{"name": …}`): the answer holds the seat's
/// new token (shown once), the old token stops working at once, and the old player's webhook
/// subscriptions for the seat are deleted. A seat a bot plays (claimed for one, or resigned)
/// becomes a player's again. Or the admin hands it to a bot of a chosen level
/// (`{"bot": "strong"}`): a seat its clock dropped, say, or one whose player left without
/// resigning; the old token stops working, and the bot moves at once if the game waits on it.
/// The game, its log and the seat's hand are unchanged.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/seats/{seat}/replace",
    tag = "seats",
    params(("id" = String, Path, description = "The game id"), ("seat" = u8, Path, description = "The seat, 0-based")),
    request_body = ReplaceSeat,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The seat's new token, or the bot that plays it now", body = ClaimedSeat, headers(("etag" = String, description = "The new version"))),
        ReplaceSeatRefused,
        BadToken,
        RetiredRules,
        JsonBodyRefused,
    )
)]
pub async fn replace_seat(
    State(ctx): State<Arc<AppCtx>>,
    Params((id, seat_param)): Params<(String, String)>,
    bearer: Bearer,
    JsonBody(body): JsonBody<ReplaceSeat>,
) -> Result<Reply, ApiError> {
    let done = seats::replace_seat(&ctx, id, &seat_param, bearer.who(), body).await?;
    Ok(Reply::json(200, &done.answer)
        .header("etag", etag(done.answer.version))
        .detail(done.bots_failed))
}
