//! `POST /v1/games/{id}/seats/{seat}`: claiming seats; the last claim starts the game.

use super::{etag, load_record, ruleset_of, update, Change, Guard, Updated};
use crate::audit::{state_hash, StoredAction};
use crate::auth::{identify, new_token, sha256_hex, Caller, SEAT_PREFIX};
use crate::dto::{ClaimSeat, ClaimedSeat};
use crate::error::{ApiError, Problem};
use crate::http::{Bearer, JsonBody, Params, Reply};
use crate::time::now_ms;
use crate::webhooks::{self, Moment};
use crate::AppCtx;
use axum::extract::State;
use game_core::{SeatSet, Visibility};
use serde_json::Value;
use std::sync::Arc;
use store::{GameRecord, LogEntry, Status};

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
        (status = 400, description = "Malformed body", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Invite-only game and no valid admin token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Invite-only game and not the admin token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game or seat", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Seat taken or game not open", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "The game was recorded under a rules version this server no longer plays", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over 64 KiB", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid name or entropy", body = Problem, content_type = "application/problem+json"),
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
    // These limits are exactly the ones the OpenAPI schema states (a pattern and lengths in
    // characters), so a schema-valid claim is never refused for its shape.
    let name = body.name;
    if name.is_empty() || name.chars().count() > 64 || name.chars().any(char::is_control) {
        return Err(ApiError::unprocessable(
            "invalid-name",
            "the name must be 1 to 64 characters without control characters",
        ));
    }
    if body
        .entropy
        .as_ref()
        .is_some_and(|entropy| entropy.chars().count() > 256)
    {
        return Err(ApiError::unprocessable(
            "entropy-too-long",
            "entropy must be at most 256 characters",
        ));
    }
    let seat = parse_seat(&seat_param)
        .filter(|&seat| usize::from(seat) < record.seats.len())
        .ok_or_else(|| ApiError::SeatNotFound(seat_param.clone()))?;
    let player_token = new_token(SEAT_PREFIX)?;
    let token_hash = sha256_hex(player_token.as_bytes());
    let updated = update(&ctx, record, &Guard::default(), |record| {
        claim(
            &ctx,
            record,
            caller,
            seat,
            &name,
            &body.entropy,
            &token_hash,
        )
    })
    .await?;
    let Updated::Committed {
        value: status,
        version,
    } = updated
    else {
        return Err(ApiError::Internal(
            "a claim has no idempotency key to replay".into(),
        ));
    };
    let claimed = ClaimedSeat {
        game_id: id,
        seat,
        player_token,
        status: status.into(),
        version,
    };
    Ok(Reply::json(201, &claimed).header("etag", etag(version)))
}

/// A seat number as the path gives it: decimal digits only (no sign, no spaces).
fn parse_seat(text: &str) -> Option<u8> {
    if text.is_empty() || text.len() > 3 || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The claim of `seat` on `record`, dealing the game if it is the last free seat.
fn claim(
    ctx: &AppCtx,
    record: &GameRecord,
    caller: Caller,
    seat: u8,
    name: &str,
    entropy: &Option<String>,
    token_hash: &str,
) -> Result<Change<Status>, ApiError> {
    if record.invite_only {
        match caller {
            Caller::Admin => {}
            Caller::Anonymous => {
                return Err(ApiError::Unauthorized(
                    "this game is invite-only: claim seats with the admin token",
                ))
            }
            Caller::Seat(_) => {
                return Err(ApiError::Forbidden(
                    "this game is invite-only: only the admin token may claim seats",
                ))
            }
        }
    }
    if record.status != Status::Open {
        return Err(ApiError::conflict(
            "game-not-open",
            "every seat of this game is taken",
        ));
    }
    if record.seats[usize::from(seat)].is_claimed() {
        return Err(ApiError::conflict(
            "seat-taken",
            format!("seat {seat} is already taken"),
        ));
    }
    let mut next = record.clone();
    let now = now_ms();
    let seat_record = &mut next.seats[usize::from(seat)];
    seat_record.name = Some(name.to_string());
    seat_record.token_hash = Some(token_hash.to_string());
    seat_record.entropy = entropy.clone();
    next.version = record.version + 1;
    next.updated_at = now;
    if !next.seats.iter().all(|seat| seat.is_claimed()) {
        let status = next.status;
        return Ok(Change::record(next, status));
    }
    // The last claim: the seed is now fixed, so deal (log entry 0).
    let seed = crate::audit::seed_of_record(&next)?;
    let ruleset = ruleset_of(ctx, &next)?;
    let dealt = ruleset
        .deal(next.seats.len() as u8, &next.options, seed)
        .map_err(|error| ApiError::Internal(format!("setup failed after validation: {error}")))?;
    let game = dealt.game;
    let state = game.state_json();
    let setup = StoredAction {
        action: Value::Null,
        visibility: Visibility::Public,
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
    // The start: every seat the game now waits on is notified of its turn.
    let outbox = webhooks::notifications(
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
    })
}
