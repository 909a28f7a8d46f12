//! `POST /v1/games/{id}/seats/{seat}`: claiming seats (for a player or a bot); the last claim
//! starts the game. `…/resign` hands a seat to a bot; `…/replace` gives it to a new player.

use super::etag;
use super::problems::{problems, BadHeader, BadToken, JsonBodyRefused, RetiredRules};
use crate::error::{ApiError, Code, Error};
use crate::http::{Bearer, JsonBody, OptionalJsonBody, Params, Reply};
use axum::extract::State;
use game_core::{SeatSet, Visibility};
use serde_json::Value;
use service::auth::{identify, new_token, sha256_hex, Caller, SEAT_PREFIX};
use service::ctx::AppCtx;
use service::dto::{BotKind, ClaimSeat, ClaimedSeat, ReplaceSeat, ResignSeat, Resigned};
use service::game::{
    load_record, notifications, on_record_change, ruleset_of, update, Change, Guard, Moment,
    Updated,
};
use service::log::{state_hash, StoredAction};
use service::time::now_ms;
use std::sync::Arc;
use store::{GameRecord, LogEntry, Status};

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
    let record = load_record(&ctx, &id).await?;
    let caller = identify(&record, bearer.token())?;
    // The last claim deals with the rules: a retired rules version is refused at any claim.
    ruleset_of(&ctx, &record)?;
    let name = match (body.name, body.bot) {
        (Some(name), _) => check_name(name)?,
        (None, Some(bot)) => bot_name(&record, bot),
        (None, None) => {
            return Err(Error::refused(
                Code::InvalidName,
                "a player needs a name (or claim the seat for a bot with \"bot\")",
            )
            .into())
        }
    };
    if body
        .entropy
        .as_ref()
        .is_some_and(|entropy| entropy.chars().count() > 256)
    {
        return Err(Error::refused(
            Code::EntropyTooLong,
            "entropy must be at most 256 characters",
        )
        .into());
    }
    let seat = seat_in(&record, &seat_param)?;
    // A bot seat has no token: nobody may read its hand or play for it.
    let player_token = match body.bot {
        Some(_) => None,
        None => Some(new_token(SEAT_PREFIX, &id)?),
    };
    let claimant = match (body.bot, &player_token) {
        (Some(bot), _) => Claimant::Bot(bot),
        (None, Some(token)) => Claimant::Player(sha256_hex(token.as_bytes())),
        (None, None) => return Err(Error::Internal("a player claim without a token".into()).into()),
    };
    let mut bots = false;
    let updated = update(&ctx, record, &Guard::default(), |record| {
        let change = claim(&ctx, record, caller, seat, &name, &body.entropy, &claimant)?;
        bots = service::bots::has_bots(&change.next);
        Ok(change)
    })
    .await?;
    let Updated::Committed {
        value: status,
        version,
        record,
    } = updated
    else {
        return Err(Error::Internal("a claim has no idempotency key to replay".into()).into());
    };
    let to_act = acting(&ctx, &record)?;
    let bots_failed = if status == Status::Active && bots {
        service::bots::drive_after_commit(&ctx, &id).await
    } else {
        None
    };
    let claimed = ClaimedSeat {
        game_id: id,
        seat,
        player_token,
        bot: body.bot,
        status: status.into(),
        version,
        to_act,
    };
    Ok(Reply::json(201, &claimed)
        .header("etag", etag(version))
        .detail(bots_failed))
}

/// Who takes a seat.
pub(crate) enum Claimant {
    /// A player, by the hash of their new token.
    Player(String),
    /// A server-side bot.
    Bot(BotKind),
}

/// A display name within the limits the OpenAPI schema states (a pattern and lengths in
/// characters), so a schema-valid name is never refused for its shape.
fn check_name(name: String) -> Result<String, Error> {
    if name.is_empty() || name.chars().count() > 64 || name.chars().any(char::is_control) {
        return Err(Error::refused(
            Code::InvalidName,
            "the name must be 1 to 64 characters without control characters",
        ));
    }
    Ok(name)
}

/// `random` → `Random`.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A seat number as the path gives it: decimal digits only (no sign, no spaces).
fn parse_seat(text: &str) -> Option<u8> {
    if text.is_empty() || text.len() > 3 || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The claim of `seat` on `record`, dealing the game if it is the last free seat.
pub(crate) fn claim(
    ctx: &AppCtx,
    record: &GameRecord,
    caller: Caller,
    seat: u8,
    name: &str,
    entropy: &Option<String>,
    claimant: &Claimant,
) -> Result<Change<Status>, Error> {
    if record.invite_only {
        match caller {
            Caller::Admin => {}
            Caller::Anonymous => {
                return Err(Error::Unauthorized(
                    "this game is invite-only: claim seats with the admin token",
                ))
            }
            Caller::Seat(_) => {
                return Err(Error::Forbidden(
                    "this game is invite-only: only the admin token may claim seats",
                ))
            }
        }
    }
    if record.status != Status::Open {
        return Err(Error::refused(
            Code::GameNotOpen,
            "every seat of this game is taken",
        ));
    }
    if record.seats[usize::from(seat)].is_claimed() {
        return Err(Error::refused(
            Code::SeatTaken,
            format!("seat {seat} is already taken"),
        ));
    }
    let mut next = record.clone();
    let now = now_ms();
    let seat_record = &mut next.seats[usize::from(seat)];
    seat_record.name = Some(name.to_string());
    match claimant {
        Claimant::Player(token_hash) => seat_record.token_hash = Some(token_hash.clone()),
        Claimant::Bot(bot) => seat_record.bot = Some(bot.as_str().to_string()),
    }
    seat_record.entropy = entropy.clone();
    next.version = record.version + 1;
    next.updated_at = now;
    if !next.seats.iter().all(|seat| seat.is_claimed()) {
        let status = next.status;
        return Ok(Change::record(next, status));
    }
    // The last claim: the seed is now fixed, so deal (log entry 0).
    let seed = service::seed::seed_of_record(&next)?;
    let ruleset = ruleset_of(ctx, &next)?;
    let dealt = ruleset
        .deal(next.seats.len() as u8, &next.options, seed)
        .map_err(|error| Error::Internal(format!("setup failed after validation: {error}")))?;
    let game = dealt.game;
    let state = game.state_json();
    let setup = StoredAction {
        action: Value::Null,
        visibility: Visibility::Public,
        by: None,
    };
    let entry = LogEntry {
        seq: 0,
        seat: None,
        action: serde_json::to_value(setup).expect("serializes"),
        events: serde_json::to_value(&dealt.events).expect("serializes"),
        idempotency_key: None,
        state_hash: state_hash(&state),
        at: now,
    };
    next.state = Some(state);
    next.log_len = 1;
    next.status = if game.outcome().is_some() {
        Status::Finished
    } else {
        Status::Active
    };
    // The clocks of the seats the game waits on start now.
    service::clock::on_commit(&mut next, Some(game.as_ref()), None, now)?;
    // The start: every seat the game now waits on is notified of its turn.
    service::game::count_turns(&mut next, game.as_ref(), SeatSet::default());
    let outbox = notifications(
        &Moment {
            record: &next,
            engine: game.as_ref(),
            waiting_before: SeatSet::default(),
            action: None,
        },
        now,
    )?;
    let status = next.status;
    Ok(Change {
        next,
        entry: Some(entry),
        idempotency: None,
        outbox,
        value: status,
        subscriptions_only: false,
    })
}

/// Refuses any caller but `seat`'s own token: 401 with `anonymous` without a token, 403 with
/// `other` for another seat's or the admin's.
pub(crate) fn require_own_seat(
    caller: Caller,
    seat: u8,
    anonymous: &'static str,
    other: &'static str,
) -> Result<(), Error> {
    match caller {
        Caller::Seat(own) if own == seat => Ok(()),
        Caller::Anonymous => Err(Error::Unauthorized(anonymous)),
        Caller::Seat(_) | Caller::Admin => Err(Error::Forbidden(other)),
    }
}

/// The seat a path names, if the game has it.
pub(crate) fn seat_in(record: &GameRecord, seat_param: &str) -> Result<u8, Error> {
    parse_seat(seat_param)
        .filter(|&seat| usize::from(seat) < record.seats.len())
        .ok_or_else(|| Error::SeatNotFound(seat_param.to_string()))
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
    let record = load_record(&ctx, &id).await?;
    let caller = identify(&record, bearer.token())?;
    let seat = seat_in(&record, &seat_param)?;
    require_own_seat(
        caller,
        seat,
        "resigning needs the seat's token (Authorization: Bearer bt_seat_…)",
        "only the seat's own token may resign it",
    )?;
    ruleset_of(&ctx, &record)?;
    let bot = body.and_then(|body| body.bot).unwrap_or(BotKind::Random);
    let updated = update(&ctx, record, &Guard::default(), |record| {
        match record.status {
            Status::Open => {
                return Err(Error::refused(
                    Code::GameNotActive,
                    "the game has not started: there is nothing to resign from",
                ))
            }
            Status::Finished => return Err(Error::refused(Code::GameOver, "the game is over")),
            Status::Active => {}
        }
        let seat_record = &record.seats[usize::from(seat)];
        if seat_record.resigned || seat_record.bot.is_some() {
            return Err(Error::refused(
                Code::SeatResigned,
                format!("seat {seat} already resigned"),
            ));
        }
        let mut next = record.clone();
        service::bots::hand_over(&mut next, seat, bot);
        on_record_change(&ctx, record, &mut next, now_ms())?;
        Ok(Change::record(next, ()))
    })
    .await?;
    let Updated::Committed { version, .. } = updated else {
        return Err(
            Error::Internal("a resignation has no idempotency key to replay".into()).into(),
        );
    };
    // If the game was waiting on this seat, its bot moves now.
    let bots_failed = service::bots::drive_after_commit(&ctx, &id).await;
    let resigned = Resigned {
        game_id: id,
        seat,
        bot,
        version,
    };
    Ok(Reply::json(200, &resigned)
        .header("etag", etag(version))
        .detail(bots_failed))
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
    let record = load_record(&ctx, &id).await?;
    match identify(&record, bearer.token())? {
        Caller::Admin => {}
        Caller::Anonymous => {
            return Err(Error::Unauthorized("replacing a player needs the admin token").into())
        }
        Caller::Seat(_) => {
            return Err(Error::Forbidden("only the admin token may replace a player").into())
        }
    }
    let seat = seat_in(&record, &seat_param)?;
    ruleset_of(&ctx, &record)?;
    let taker =
        match (body.name, body.bot) {
            (Some(name), None) => {
                let name = check_name(name)?;
                let token = new_token(SEAT_PREFIX, &id)?;
                Taker::Player {
                    name,
                    token_hash: sha256_hex(token.as_bytes()),
                    token,
                }
            }
            (None, Some(bot)) => Taker::Bot(bot),
            _ => return Err(Error::Malformed(
                "give the seat to a new player (`name`) or to a bot (`bot`): exactly one of them"
                    .into(),
            )
            .into()),
        };
    let updated = update(&ctx, record, &Guard::default(), |record| {
        if record.status == Status::Finished {
            return Err(Error::refused(Code::GameOver, "the game is over"));
        }
        if !record.seats[usize::from(seat)].is_claimed() {
            return Err(Error::refused(
                Code::SeatFree,
                format!("seat {seat} is free: claim it instead"),
            ));
        }
        let mut next = record.clone();
        let name = match &taker {
            Taker::Player { name, .. } => name.clone(),
            Taker::Bot(bot) => bot_name(record, *bot),
        };
        let seat_record = &mut next.seats[usize::from(seat)];
        seat_record.name = Some(name);
        match &taker {
            Taker::Player { token_hash, .. } => {
                seat_record.token_hash = Some(token_hash.clone());
                seat_record.bot = None;
                seat_record.resigned = false;
            }
            // A bot plays on for the seat (whether its player left or not).
            Taker::Bot(bot) => {
                seat_record.token_hash = None;
                seat_record.bot = Some(bot.as_str().to_string());
            }
        }
        // The old player's subscriptions would tell them the new player's hand.
        next.hooks.retain(|hook| hook.seat != Some(seat));
        on_record_change(&ctx, record, &mut next, now_ms())?;
        let status = next.status;
        Ok(Change::record(next, status))
    })
    .await?;
    let Updated::Committed {
        value: status,
        version,
        record,
    } = updated
    else {
        return Err(
            Error::Internal("a replacement has no idempotency key to replay".into()).into(),
        );
    };
    let to_act = acting(&ctx, &record)?;
    // A bot given the seat moves now if the game waits on it.
    let (player_token, bot, bots_failed) = match taker {
        Taker::Player { token, .. } => (Some(token), None, None),
        Taker::Bot(bot) => (
            None,
            Some(bot),
            service::bots::drive_after_commit(&ctx, &id).await,
        ),
    };
    let replaced = ClaimedSeat {
        game_id: id,
        seat,
        player_token,
        bot,
        status: status.into(),
        version,
        to_act,
    };
    Ok(Reply::json(200, &replaced)
        .header("etag", etag(version))
        .detail(bots_failed))
}

/// Who the admin gives a seat to.
enum Taker {
    /// A new player, and the token made for them (shown once).
    Player {
        name: String,
        token_hash: String,
        token: String,
    },
    /// A bot of this level.
    Bot(BotKind),
}

/// A bot's name: "Basic bot", and "Basic bot 2", "Basic bot 3"… when the game already has one
/// of that name, so that the log, the results and a buyer's choice tell two bots apart.
fn bot_name(record: &GameRecord, bot: BotKind) -> String {
    let base = format!("{} bot", capitalised(bot.as_str()));
    let taken = |name: &str| {
        record
            .seats
            .iter()
            .any(|seat| seat.name.as_deref() == Some(name))
    };
    (1u32..)
        .map(|n| {
            if n == 1 {
                base.clone()
            } else {
                format!("{base} {n}")
            }
        })
        .find(|name| !taken(name))
        .expect("a free name")
}

/// The seats that act in `record`'s game, or none before it started.
fn acting(ctx: &AppCtx, record: &GameRecord) -> Result<Vec<u8>, Error> {
    Ok(service::game::engine_of(ctx, record)?
        .map(|engine| engine.to_act().iter().map(|seat| seat.0).collect())
        .unwrap_or_default())
}
