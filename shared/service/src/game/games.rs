//! A game as a whole: a new open record, and its envelope as a caller sees it.

use super::{engine_of, load_record, seat_numbers};
use crate::apps::Origin;
use crate::auth::{
    identify, new_game_id, new_token, random_bytes, sha256_hex, Caller, Credential, ADMIN_PREFIX,
};
use crate::ctx::AppCtx;
use crate::dto::{
    BotKind, CreateGame, CreatedGame, GameEnvelope, GameList, GameSummary, SeatInfo, You,
};
use crate::error::{Code, Error};
use crate::seed::{commitment_of, secret_hex};
use crate::time::{now_ms, rfc3339};
use std::time::Duration;
use store::Scope;
use store::{GameRecord, ListQuery, SeatRecord, Status};

/// A new open game as `body` asks, with its admin token (shown once): refused now if the
/// ruleset would refuse to deal it, rather than at the last claim.
///
/// `origin` is where a request without an app key came from, if the server knows: such
/// creations count against that address's keyless quotas (docs/apps.md, "Limits").
pub async fn create_game(
    ctx: &AppCtx,
    who: &Credential,
    origin: Option<&Origin>,
    body: CreateGame,
) -> Result<CreatedGame, Error> {
    let app = match who {
        Credential::App(key) => {
            key.scopes.require(Scope::GamesCreate)?;
            Some(key)
        }
        _ if ctx.limits.require_app_key => return Err(Error::Unauthorized(
            "this server creates games for apps only: send an app key (Authorization: Bearer bk_…)",
        )),
        _ => None,
    };
    let ruleset = ctx.registry.get(&body.ruleset).ok_or_else(|| {
        Error::refused(
            Code::UnknownRuleset,
            format!("there is no ruleset '{}'", body.ruleset),
        )
    })?;
    if !body.options.is_null() && !body.options.is_object() {
        return Err(Error::refused(
            Code::InvalidOptions,
            "options must be an object",
        ));
    }
    let options = ruleset.normalize_options(&body.options)?;
    // A trial deal with a throwaway seed validates everything setup checks (seat count,
    // boards given as data, ...), so a bad game is refused now rather than at the last claim.
    ruleset.setup(body.seats, &options, random_bytes::<32>()?)?;

    let clock = body
        .clock
        .as_ref()
        .map(|clock| clock.rules())
        .transpose()?
        .map(|rules| crate::clock::Clock::new(rules, usize::from(body.seats)));

    let id = new_game_id(&ctx.dice)?;
    let admin_token = new_token(ADMIN_PREFIX, &id)?;
    let mut record = open_record(
        &ctx.dice,
        id,
        ruleset,
        options,
        vec![SeatRecord::default(); usize::from(body.seats)],
        body.invite_only,
        sha256_hex(admin_token.as_bytes()),
    )?;
    if let Some(clock) = &clock {
        clock.save(&mut record);
    }
    if let Some(key) = app {
        // Counted last, once everything else is known to be acceptable: a refused game
        // costs no quota.
        crate::apps::admit_creation(ctx.store.as_ref(), key, &ctx.limits).await?;
        record.app = Some(key.app.clone());
    } else if let Some(origin) = origin {
        crate::apps::admit_keyless_creation(ctx.store.as_ref(), origin, &ctx.limits).await?;
        // Kept only while a quota counts the address's games.
        if ctx.limits.keyless_live_games.is_some() {
            record.origin = Some(origin.as_str().to_owned());
        }
    }
    ctx.store.create(&record).await?;
    let created = CreatedGame {
        id: record.id.clone(),
        ruleset: record.ruleset.clone(),
        seats: body.seats,
        status: Status::Open.into(),
        version: record.version,
        admin_token,
        seed_commitment: record.seed_commitment.clone(),
        app: record.app.clone(),
    };
    Ok(created)
}

/// One page of the lobby: open games (`status` may only say so), of `ruleset` if given,
/// after the cursor `after`, at most `limit`. With an app key (`games:read`), the app's own
/// games instead: open and under way, invite-only ones too.
pub async fn lobby(
    ctx: &AppCtx,
    who: &Credential,
    ruleset: Option<&str>,
    status: Option<&str>,
    after: Option<&str>,
    limit: usize,
) -> Result<GameList, Error> {
    let app = match who {
        Credential::App(key) => {
            key.scopes.require(Scope::GamesRead)?;
            Some(key.app.as_str())
        }
        _ => None,
    };
    if app.is_some() && status.is_some() {
        return Err(Error::Malformed(
            "an app's listing holds its open and its active games, each with its status: leave out status".into(),
        ));
    }
    if status.is_some_and(|status| status != "open") {
        return Err(Error::Malformed(
            "the lobby lists open games only: status must be 'open'".into(),
        ));
    }
    if let Some(ruleset) = ruleset {
        if ctx.registry.get(ruleset).is_none() {
            return Err(Error::refused(
                Code::UnknownRuleset,
                format!("there is no ruleset '{ruleset}' (GET /v1/rulesets lists them)"),
            ));
        }
    }
    let query = ListQuery {
        ruleset: ruleset.map(str::to_string),
        cursor: after.map(str::to_string),
        limit,
    };
    let page = match app {
        Some(app) => ctx.store.list_app(app, &query).await?,
        None => ctx.store.list_open(&query).await?,
    };
    let games = page
        .games
        .iter()
        .map(|record| GameSummary {
            id: record.id.clone(),
            ruleset: record.ruleset.clone(),
            seats: record.seats.len() as u8,
            open_seats: (0..record.seats.len() as u8)
                .filter(|&seat| !record.seats[usize::from(seat)].is_claimed())
                .collect(),
            created_at: rfc3339(record.created_at),
            status: record.status.into(),
        })
        .collect();
    Ok(GameList {
        games,
        next_after: page.next_cursor,
    })
}

/// Deletes game `id` and everything stored under it (its log, idempotency keys, pending
/// notifications and subscriptions), at the request of its admin (`token`): from then on it
/// is not found by anyone, and a move in flight finds it gone.
pub async fn delete_game(ctx: &AppCtx, id: &str, who: &Credential) -> Result<(), Error> {
    let record = load_record(ctx, id).await?;
    match identify(&record, who)? {
        Caller::Admin => {}
        Caller::App(scopes) => scopes.require(Scope::GamesAdmin)?,
        Caller::Anonymous => {
            return Err(Error::Unauthorized(
                "deleting a game needs its admin token (Authorization: Bearer bt_admin_…)",
            ))
        }
        Caller::Seat(_) => {
            return Err(Error::Forbidden(
                "only the game's admin token may delete it",
            ))
        }
    }
    forget(ctx, id).await
}

/// Deletes game `id` from the store and from this process's caches, and wakes whoever waits
/// on it (a long-poll then finds it gone).
pub async fn forget(ctx: &AppCtx, id: &str) -> Result<(), Error> {
    ctx.store.delete(id).await?;
    ctx.states.remove(id);
    ctx.seeds.forget(id);
    // No receiver is not an error: nobody waits.
    let _ = ctx.changes.send(id.to_owned());
    Ok(())
}

/// A new open game of `ruleset`: version 1, a fresh server secret and its commitment, no
/// log yet. Its creator adds what else it has (a clock, a link to the game it rematches).
pub fn open_record(
    dice: &crate::dice::Dice,
    id: String,
    ruleset: &dyn game_core::DynRuleset,
    options: serde_json::Value,
    seats: Vec<SeatRecord>,
    invite_only: bool,
    admin_token_hash: String,
) -> Result<GameRecord, Error> {
    let secret = dice.bytes::<32>()?;
    Ok(GameRecord::open(store::NewGame {
        id,
        ruleset: ruleset.id().to_string(),
        rules_version: ruleset.rules_version(),
        options,
        invite_only,
        seats,
        admin_token_hash,
        server_secret: secret_hex(&secret),
        seed_commitment: commitment_of(&secret),
        now: now_ms(),
    }))
}

/// JSON `null`, as a view before the game starts.
fn null_raw() -> Box<serde_json::value::RawValue> {
    serde_json::value::RawValue::from_string("null".into()).expect("null is JSON")
}

/// The envelope of `record` as `caller` may see it.
pub fn envelope(ctx: &AppCtx, record: &GameRecord, caller: Caller) -> Result<GameEnvelope, Error> {
    let viewer = caller.viewer();
    let engine = engine_of(ctx, record)?;
    let (view, to_act, waiting_on, outcome) = match &engine {
        Some(engine) => (
            engine.view_raw(viewer),
            seat_numbers(engine.to_act()),
            seat_numbers(engine.waiting_on()),
            engine.outcome(),
        ),
        None => (null_raw(), Vec::new(), Vec::new(), None),
    };
    Ok(GameEnvelope {
        id: record.id.clone(),
        ruleset: record.ruleset.clone(),
        rules_version: record.rules_version,
        status: record.status.into(),
        version: record.version,
        seats: record
            .seats
            .iter()
            .enumerate()
            .map(|(seat, seat_record)| SeatInfo {
                seat: seat as u8,
                name: seat_record.name.clone(),
                claimed: seat_record.is_claimed(),
                bot: seat_record.bot.as_deref().map(BotKind::from_stored),
                resigned: seat_record.resigned,
            })
            .collect(),
        you: viewer.seat().map(|seat| You { seat: seat.0 }),
        to_act,
        waiting_on,
        seed_commitment: record.seed_commitment.clone(),
        view,
        outcome,
        clock: crate::clock::Clock::of(record)?.map(|clock| clock.view()),
        created_at: rfc3339(record.created_at),
        updated_at: rfc3339(record.updated_at),
        rematch: record.rematch.clone(),
        rematch_of: record.rematch_of.clone(),
        legal_actions: None,
    })
}

/// How often a long-poll re-reads the store when no commit of this process says the game
/// changed: a move may be committed by another process (another Lambda, another server).
const POLL_INTERVAL: Duration = Duration::from_secs(1);

/// Waits until the game's version is greater than `after` or `wait` runs out, and returns
/// the game as it is then. Commits made by this process wake the wait at once; others are
/// seen by re-reading the store every [`POLL_INTERVAL`].
pub async fn wait_for_version(
    ctx: &AppCtx,
    mut record: GameRecord,
    after: u64,
    wait: Duration,
) -> Result<GameRecord, Error> {
    let deadline = tokio::time::Instant::now() + wait;
    let mut changes = ctx.changes.subscribe();
    let mut stopping = ctx.stopping.subscribe();
    while record.version <= after && !*stopping.borrow() {
        let now = tokio::time::Instant::now();
        if now >= deadline {
            break;
        }
        let next_read = (now + POLL_INTERVAL).min(deadline);
        loop {
            let changed = tokio::select! {
                changed = tokio::time::timeout_at(next_read, changes.recv()) => changed,
                // The server is stopping: answer with the game as it is.
                _ = stopping.changed() => break,
            };
            match changed {
                // A commit of this game, or commits missed while lagging: read again.
                Ok(Ok(changed)) if changed == record.id => break,
                Ok(Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => break,
                Ok(Ok(_)) => continue,
                Ok(Err(tokio::sync::broadcast::error::RecvError::Closed)) | Err(_) => break,
            }
        }
        record = load_record(ctx, &record.id).await?;
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use game_core::{Seat, Viewer};

    /// What the API sends as a view ([`game_core::DynGame::view_raw`]) is the view the engine
    /// describes, for every ruleset and viewer.
    #[test]
    fn a_sent_view_is_the_engines_view() {
        for ruleset in crate::catalog::registry().iter() {
            let options = ruleset.normalize_options(&serde_json::json!({})).unwrap();
            let (_, most) = ruleset.seat_range();
            let game = ruleset.deal(most, &options, [7; 32]).unwrap().game;
            let viewers = (0..most)
                .map(|seat| Viewer::Seat(Seat(seat)))
                .chain([Viewer::Spectator]);
            for viewer in viewers {
                let sent: serde_json::Value =
                    serde_json::from_str(game.view_raw(viewer).get()).unwrap();
                assert_eq!(sent, game.view_json(viewer), "{} {viewer:?}", ruleset.id());
            }
        }
    }
}
