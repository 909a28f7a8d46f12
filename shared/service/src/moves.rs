//! A seat's move, from its request to its answer: the action checked against the game's
//! ruleset, committed under the client's version tags and Idempotency-Key, and the bots the
//! game then waits on played; and a seat's legal actions.

use crate::auth::{identify, Caller, Credential};
use crate::ctx::AppCtx;
use crate::dto::{ActionResult, LegalActions, SubmitAction};
use crate::error::{Code, Error};
use crate::game::{
    apply, engine_of, load_record, ruleset_of, seat_names, undo, update, Guard, Moved,
    Precondition, Replay, Updated, VersionTags,
};
use game_core::words::Names;
use game_core::Seat;
use serde_json::Value;
use std::sync::Arc;
use store::GameRecord;

/// The seat a caller holds, for the routes only a seat may use.
pub fn seat_of(caller: Caller) -> Result<u8, Error> {
    match caller {
        Caller::Seat(seat) => Ok(seat),
        Caller::Anonymous => Err(Error::Unauthorized(
            "this route needs a seat token (Authorization: Bearer bt_seat_…)",
        )),
        Caller::Admin => Err(Error::Forbidden(
            "the admin token cannot play; use a seat token",
        )),
        Caller::App(_) => Err(Error::Forbidden("an app key cannot play; use a seat token")),
    }
}

/// A submitted move and what followed it.
pub struct Submitted {
    /// The seat that moved.
    pub seat: u8,
    /// The mover's answer.
    pub result: ActionResult,
    /// The version the move made now; `None` when its Idempotency-Key had been used, and
    /// `result` is the first move's answer as it was kept.
    pub made: Option<u64>,
    /// The record the move left, when nothing changed the game after it (no bot moved):
    /// what a listing of the seat's legal actions may be read from without reading again.
    pub after: Option<GameRecord>,
    /// Why the bots did not all move, if they did not (for the request's log line).
    pub bots_failed: Option<String>,
}

/// Seat `token`'s move `body` in game `id`, at the versions `tags` name and under `key`.
pub async fn submit(
    ctx: &AppCtx,
    id: &str,
    who: &Credential,
    tags: VersionTags,
    key: Option<String>,
    body: SubmitAction,
) -> Result<Submitted, Error> {
    let record = load_record(ctx, id).await?;
    let seat = seat_of(identify(&record, who)?)?;
    // The action as the Idempotency-Key keeps it: an undo as sent (the service checks it,
    // once), a game's action as this game parses it.
    let action = if crate::log::Entry::of(&body.action).is_undo() {
        body.action.clone()
    } else {
        check_ruleset(ctx, &record, &body)?
    };
    let guard = Guard {
        precondition: Precondition::Tags(tags),
        replay: key.clone().map(|key| Replay {
            seat,
            key,
            action: action.clone(),
        }),
    };
    let updated = update(ctx, record, &guard, |record| {
        apply(ctx, record, seat, &body, key.as_deref(), None)
    })
    .await?;
    Ok(match updated {
        Updated::Committed {
            value: Moved { result, engine },
            version,
            record,
        } => {
            // The next read of this game (its players' GETs) finds the new state parsed.
            ctx.states.insert(id, version, Arc::from(engine));
            let bots = crate::bots::has_bots(&record);
            let bots_failed = if bots {
                crate::bots::drive_after_commit(ctx, id).await
            } else {
                None
            };
            Submitted {
                seat,
                result,
                made: Some(version),
                // Bots may have answered: a listing reads the game as it is now.
                after: (!bots).then_some(*record),
                bots_failed,
            }
        }
        Updated::Replayed(first) => Submitted {
            seat,
            result: *first,
            made: None,
            after: None,
            bots_failed: None,
        },
    })
}

/// Seat `seat`'s legal actions in `record`, or in the game as the store has it now when
/// `record` is `None`.
pub async fn listing_now(
    ctx: &AppCtx,
    id: &str,
    record: Option<GameRecord>,
    seat: u8,
) -> Result<Option<LegalActions>, Error> {
    match record {
        Some(record) => legal_listing(ctx, &record, seat),
        None => legal_listing(ctx, &load_record(ctx, id).await?, seat),
    }
}

/// Seat `seat`'s legal actions in `record` (`None` before the game starts). Each ready move
/// carries its words, a label for a button, and whether it is sealed; the seat's last move,
/// while it may still take it back, is listed as an undo (docs/api.md, "Undo").
pub fn legal_listing(
    ctx: &AppCtx,
    record: &GameRecord,
    seat: u8,
) -> Result<Option<LegalActions>, Error> {
    let Some(engine) = engine_of(ctx, record)? else {
        return Ok(None);
    };
    let names = seat_names(record);
    let mut actions = engine.legal_actions_listed(Seat(seat), &Names::new(&names));
    if let Some(undo) = undo::legal_entry(record, seat) {
        let mut listed: Vec<Value> = serde_json::from_str(actions.get())
            .map_err(|error| Error::Internal(format!("legal actions: {error}")))?;
        listed.push(undo);
        actions = serde_json::value::to_raw_value(&listed).expect("serializes");
    }
    Ok(Some(LegalActions {
        ruleset: record.ruleset.clone(),
        version: record.version,
        seat,
        actions,
    }))
}

/// The seat of `token` in game `record`, which may list its legal actions: refused
/// without a seat's token, and before the game starts.
pub fn lister(record: &GameRecord, who: &Credential) -> Result<u8, Error> {
    let seat = seat_of(identify(record, who)?)?;
    if record.status == store::Status::Open {
        return Err(not_started());
    }
    Ok(seat)
}

/// The refusal of a listing before the game starts.
pub fn not_started() -> Error {
    Error::refused(Code::GameNotActive, "the game has not started")
}

/// Refuses a body that is not an action of this game, whatever the version says: 422 if it
/// is a well-formed action of another ruleset (the contract allows it, this game does not),
/// 400 if it is no action at all. Returns the action normalised.
fn check_ruleset(ctx: &AppCtx, record: &GameRecord, body: &SubmitAction) -> Result<Value, Error> {
    let this_ruleset = ruleset_of(ctx, record)?;
    let error = match this_ruleset.parse_action(&body.action) {
        Ok(normalised) => return Ok(normalised),
        Err(error) => error,
    };
    // Another game's action: it parses as one, or its `type` is one of that game's action
    // types and none of this game's (its fields may still be wrong for that game).
    let tag = body.action.get("type").and_then(serde_json::Value::as_str);
    let is_tag_of = |ruleset: &dyn game_core::DynRuleset| {
        tag.is_some_and(|tag| ruleset.action_types().contains(&tag))
    };
    let other_ruleset = ctx.registry.iter().find(|ruleset| {
        ruleset.id() != record.ruleset
            && (ruleset.parse_action(&body.action).is_ok()
                || (is_tag_of(*ruleset) && !is_tag_of(this_ruleset)))
    });
    Err(match other_ruleset {
        Some(other) => Error::refused(
            Code::WrongRuleset,
            format!(
                "this is an action of {}, and this game is {}",
                other.id(),
                record.ruleset
            ),
        ),
        None => Error::Malformed(error.to_string()),
    })
}
