//! Seats: a claim (for a player or a bot; the last one deals the game), leaving a seat
//! before the game starts, a resignation (a bot plays on) and a replacement by the admin.

use crate::auth::{identify, new_token, sha256_hex, Caller, Credential, SEAT_PREFIX};
use crate::ctx::AppCtx;
use crate::dto::{BotKind, ClaimSeat, ClaimedSeat, LeftSeat, ReplaceSeat, ResignSeat, Resigned};
use crate::error::{Code, Error};
use crate::game::{
    load_record, notifications, on_record_change, ruleset_of, update, Change, Done, Guard, Moment,
};
use crate::log::{state_hash, StoredAction};
use crate::time::now_ms;
use game_core::{SeatSet, Visibility};
use serde_json::Value;
use store::Scope;
use store::{GameRecord, LogEntry, Status};

/// Claims seat `seat_param` of game `id` for the caller (`token`) as `body` asks: a player
/// (who gets a token, shown once) or a bot. The last claim deals the game, and its bots move.
pub async fn claim_seat(
    ctx: &AppCtx,
    id: String,
    seat_param: &str,
    who: &Credential,
    body: ClaimSeat,
) -> Result<Done<ClaimedSeat>, Error> {
    let record = load_record(ctx, &id).await?;
    let caller = identify(&record, who)?;
    // The last claim deals with the rules: a retired rules version is refused at any claim.
    ruleset_of(ctx, &record)?;
    let name = match (body.name, body.bot) {
        (Some(name), _) => check_name(name)?,
        (None, Some(bot)) => bot_name(&record, bot),
        (None, None) => {
            return Err(Error::refused(
                Code::InvalidName,
                "a player needs a name (or claim the seat for a bot with \"bot\")",
            ))
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
        ));
    }
    let seat = seat_in(&record, seat_param)?;
    let player = match (&body.player_id, who) {
        (None, _) => None,
        (Some(_), _) if body.bot.is_some() => {
            return Err(Error::refused(
                Code::InvalidName,
                "a bot's seat has no player id: leave out player_id",
            ))
        }
        (Some(player), Credential::App(key)) if record.app.as_deref() == Some(&key.app) => {
            key.scopes.require(Scope::GamesAdmin)?;
            let player = crate::players::check_player_id(player)?.to_owned();
            if let Some(other) = crate::players::seat_of(&record, &key.app, &player) {
                return Err(Error::refused(
                    Code::SeatTaken,
                    format!("player {player} already sits in seat {other} of this game"),
                ));
            }
            // Noted before the seat is taken: the notes may outlive a claim that fails, and
            // readers check the seats, but they never miss a seat.
            ctx.store
                .add_player_game(&key.app, &player, &id, record.created_at)
                .await?;
            Some(player)
        }
        (Some(_), _) => {
            return Err(Error::Forbidden(
                "naming a player (player_id) needs the game's app key",
            ))
        }
    };
    // A bot seat has no token: nobody may read its hand or play for it.
    let player_token = match body.bot {
        Some(_) => None,
        None => Some(new_token(SEAT_PREFIX, &id)?),
    };
    let claimant = match (body.bot, &player_token) {
        (Some(bot), _) => Claimant::Bot(bot),
        (None, Some(token)) => Claimant::Player {
            token_hash: sha256_hex(token.as_bytes()),
            player,
        },
        (None, None) => return Err(Error::Internal("a player claim without a token".into())),
    };
    let mut bots = false;
    let updated = update(ctx, record, &Guard::default(), |record| {
        let change = claim(ctx, record, caller, seat, &name, &body.entropy, &claimant)?;
        bots = crate::bots::has_bots(&change.next);
        Ok(change)
    })
    .await?;
    let (status, version, record) = updated.committed("a claim")?;
    let to_act = acting(ctx, &record)?;
    let bots_failed = if status == Status::Active && bots {
        crate::bots::drive_after_commit(ctx, &id).await
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
    Ok(Done {
        answer: claimed,
        bots_failed,
    })
}

/// Seat `seat_param` of game `id` is free again, while the game is still open: its player
/// (with the seat's token) leaves it, or the admin (the admin token, or the game's app key
/// with `games:admin`) frees it, a bot's seat too. The seat's token stops working, the entropy
/// it gave is forgotten with it, and its webhook subscriptions are deleted.
pub async fn leave_seat(
    ctx: &AppCtx,
    id: String,
    seat_param: &str,
    who: &Credential,
) -> Result<LeftSeat, Error> {
    let record = load_record(ctx, &id).await?;
    let caller = identify(&record, who)?;
    let seat = seat_in(&record, seat_param)?;
    match caller {
        Caller::Seat(own) if own == seat => {}
        Caller::Admin => {}
        Caller::App(scopes) => scopes.require(Scope::GamesAdmin)?,
        Caller::Anonymous => {
            return Err(Error::Unauthorized(
                "leaving a seat needs the seat's token (Authorization: Bearer bt_seat_…) or the admin token",
            ))
        }
        Caller::Seat(_) => {
            return Err(Error::Forbidden(
                "only the seat's own token, or the admin token, may free a seat",
            ))
        }
    }
    // The seat as it was when the caller was identified: a retry after a conflict must not
    // free a seat that someone else claimed meanwhile.
    let identified = record.seats[usize::from(seat)].clone();
    let left_player = identified.player.clone();
    let updated = update(ctx, record, &Guard::default(), |record| {
        if record.status != Status::Open {
            return Err(Error::refused(
                Code::GameNotOpen,
                "the game has started: a seat can no longer be left (resign it instead)",
            ));
        }
        if !record.seats[usize::from(seat)].is_claimed() {
            return Err(Error::refused(
                Code::SeatFree,
                format!("seat {seat} is free already"),
            ));
        }
        let now = &record.seats[usize::from(seat)];
        if (&now.token_hash, &now.bot, &now.player)
            != (&identified.token_hash, &identified.bot, &identified.player)
        {
            return Err(Error::refused(
                Code::SeatTaken,
                format!("seat {seat} changed hands meanwhile: read the game again"),
            ));
        }
        let mut next = record.clone();
        next.seats[usize::from(seat)] = store::SeatRecord::default();
        // Subscriptions for the seat would tell its next player's hand to the old one.
        next.hooks.retain(|hook| hook.seat != Some(seat));
        Ok(Change::record(next, ()))
    })
    .await?;
    let ((), version, record) = updated.committed("leaving a seat")?;
    forget_player(ctx, &record, &left_player, &id).await;
    Ok(LeftSeat {
        game_id: id,
        seat,
        status: record.status.into(),
        version,
    })
}

/// The seat's own player (`token`) leaves game `id`; a bot (`random` unless `body` names
/// another) plays on, and moves at once if the game waits on it.
pub async fn resign_seat(
    ctx: &AppCtx,
    id: String,
    seat_param: &str,
    who: &Credential,
    body: Option<ResignSeat>,
) -> Result<Done<Resigned>, Error> {
    let record = load_record(ctx, &id).await?;
    let caller = identify(&record, who)?;
    let seat = seat_in(&record, seat_param)?;
    require_own_seat(
        caller,
        seat,
        "resigning needs the seat's token (Authorization: Bearer bt_seat_…)",
        "only the seat's own token may resign it",
    )?;
    ruleset_of(ctx, &record)?;
    let bot = body.and_then(|body| body.bot).unwrap_or(BotKind::Random);
    let updated = update(ctx, record, &Guard::default(), |record| {
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
        crate::bots::hand_over(&mut next, seat, bot);
        on_record_change(ctx, record, &mut next, now_ms())?;
        Ok(Change::record(next, ()))
    })
    .await?;
    let ((), version, _) = updated.committed("a resignation")?;
    // If the game was waiting on this seat, its bot moves now.
    let bots_failed = crate::bots::drive_after_commit(ctx, &id).await;
    let resigned = Resigned {
        game_id: id,
        seat,
        bot,
        version,
    };
    Ok(Done {
        answer: resigned,
        bots_failed,
    })
}

/// The admin (`token`) gives a taken seat of game `id` to a new player or to a bot.
pub async fn replace_seat(
    ctx: &AppCtx,
    id: String,
    seat_param: &str,
    who: &Credential,
    body: ReplaceSeat,
) -> Result<Done<ClaimedSeat>, Error> {
    let record = load_record(ctx, &id).await?;
    match identify(&record, who)? {
        Caller::Admin => {}
        Caller::App(scopes) => scopes.require(Scope::GamesAdmin)?,
        Caller::Anonymous => {
            return Err(Error::Unauthorized(
                "replacing a player needs the admin token",
            ))
        }
        Caller::Seat(_) => {
            return Err(Error::Forbidden(
                "only the admin token may replace a player",
            ))
        }
    }
    let seat = seat_in(&record, seat_param)?;
    let replaced_player = record.seats[usize::from(seat)].player.clone();
    ruleset_of(ctx, &record)?;
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
            )),
        };
    let updated = update(ctx, record, &Guard::default(), |record| {
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
        // A new person: the app's id for the old one no longer names the seat.
        seat_record.player = None;
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
        on_record_change(ctx, record, &mut next, now_ms())?;
        let status = next.status;
        Ok(Change::record(next, status))
    })
    .await?;
    let (status, version, record) = updated.committed("a replacement")?;
    forget_player(ctx, &record, &replaced_player, &id).await;
    let to_act = acting(ctx, &record)?;
    // A bot given the seat moves now if the game waits on it.
    let (player_token, bot, bots_failed) = match taker {
        Taker::Player { token, .. } => (Some(token), None, None),
        Taker::Bot(bot) => (
            None,
            Some(bot),
            crate::bots::drive_after_commit(ctx, &id).await,
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
    Ok(Done {
        answer: replaced,
        bots_failed,
    })
}

/// Forgets the note that `player` (of `record`'s app) sits in game `id`, once a seat they
/// held is left or given away. Best effort: a note left behind is never listed (readers check
/// the seats), so a failure here only costs a wasted read later.
async fn forget_player(ctx: &AppCtx, record: &GameRecord, player: &Option<String>, id: &str) {
    let (Some(app), Some(player)) = (&record.app, player) else {
        return;
    };
    if crate::auth::seat_of(record, app, player).is_some() {
        return;
    }
    if let Err(error) = ctx.store.remove_player_game(app, player, id).await {
        tracing::warn!(%error, game = id, "a left seat's player note stays");
        return;
    }
    // Claimed again meanwhile (its note written before that claim): the note goes back, so
    // that the notes never miss a seat.
    if let Ok(Some(now)) = ctx.store.load(id).await {
        if crate::auth::seat_of(&now, app, player).is_some() {
            if let Err(error) = ctx
                .store
                .add_player_game(app, player, id, now.created_at)
                .await
            {
                tracing::warn!(%error, game = id, "a player's note could not be put back");
            }
        }
    }
}

/// Who takes a seat.
pub enum Claimant {
    /// A player, by the hash of their new token, and the app's id for them if it named one.
    Player {
        /// SHA-256 (hex) of the seat's new token.
        token_hash: String,
        /// The app's player id.
        player: Option<String>,
    },
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
pub fn claim(
    ctx: &AppCtx,
    record: &GameRecord,
    caller: Caller,
    seat: u8,
    name: &str,
    entropy: &Option<String>,
    claimant: &Claimant,
) -> Result<Change<Status>, Error> {
    if let Caller::App(scopes) = caller {
        // An app seats bots with `bots:seat`; players, as the game's admin.
        scopes.require(match claimant {
            Claimant::Bot(_) => Scope::BotsSeat,
            _ => Scope::GamesAdmin,
        })?;
    } else if record.invite_only {
        match caller {
            Caller::Admin | Caller::App(_) => {}
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
    if let (
        Claimant::Player {
            player: Some(player),
            ..
        },
        Some(app),
    ) = (claimant, &record.app)
    {
        // Checked again here, against the record this claim commits on.
        if let Some(other) = crate::auth::seat_of(record, app, player) {
            return Err(Error::refused(
                Code::SeatTaken,
                format!("player {player} already sits in seat {other} of this game"),
            ));
        }
    }
    let mut next = record.clone();
    let now = now_ms();
    let seat_record = &mut next.seats[usize::from(seat)];
    seat_record.name = Some(name.to_string());
    match claimant {
        Claimant::Player { token_hash, player } => {
            seat_record.token_hash = Some(token_hash.clone());
            seat_record.player = player.clone();
        }
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
    let seed = crate::seed::seed_of_record(&next)?;
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
    crate::clock::on_commit(&mut next, Some(game.as_ref()), None, now)?;
    // The start: every seat the game now waits on is notified of its turn.
    crate::game::count_turns(&mut next, game.as_ref(), SeatSet::default());
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
pub fn require_own_seat(
    caller: Caller,
    seat: u8,
    anonymous: &'static str,
    other: &'static str,
) -> Result<(), Error> {
    match caller {
        Caller::Seat(own) if own == seat => Ok(()),
        Caller::Anonymous => Err(Error::Unauthorized(anonymous)),
        Caller::Seat(_) | Caller::Admin | Caller::App(_) => Err(Error::Forbidden(other)),
    }
}

/// The seat a path names, if the game has it.
pub fn seat_in(record: &GameRecord, seat_param: &str) -> Result<u8, Error> {
    parse_seat(seat_param)
        .filter(|&seat| usize::from(seat) < record.seats.len())
        .ok_or_else(|| Error::SeatNotFound(seat_param.to_string()))
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
    Ok(crate::game::engine_of(ctx, record)?
        .map(|engine| engine.to_act().iter().map(|seat| seat.0).collect())
        .unwrap_or_default())
}
