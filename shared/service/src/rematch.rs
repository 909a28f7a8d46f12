//! `POST /v1/games/{id}/rematch`: one linked game after a finished one, with the same
//! ruleset, options and clock, the seats turned one place, and a fresh seed commitment.
//!
//! The new game's id is derived from the old game's id and its admin token's hash, so every
//! request, however many arrive at once, finds or creates the same game. Each player of the
//! old game joins it with their own token; their new token is derived from the old one, so
//! asking again returns the same token. Bots take their seats at once. The new game is
//! invite-only: only the old game's players (here) and its admin (whose token administers
//! the new game too) may take its seats.

use crate::auth::{identify, sha256_hex, Caller, Credential, SEAT_PREFIX};
use crate::ctx::AppCtx;
use crate::dto::Rematch;
use crate::error::{Code, Error};
use crate::game::games::open_record;
use crate::game::{load_record, ruleset_of, update, Change, Guard};
use crate::seats::{claim, Claimant};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};
use store::Scope;
use store::{GameRecord, SeatRecord, Status, StoreError};

/// The rematch of finished game `id` for the caller (`token`): created once, whoever asks
/// first; the caller is seated in it with a token derived from theirs.
pub async fn rematch(ctx: &AppCtx, id: String, who: &Credential) -> Result<Rematch, Error> {
    let old = load_record(ctx, &id).await?;
    if matches!(who, Credential::Player(_)) {
        // A rematch seat's token is derived from the seat token that asked (idempotency).
        return Err(Error::Forbidden(
            "a rematch is asked for with the seat's own token or the admin's, not a player token",
        ));
    }
    let caller = identify(&old, who)?;
    let old_seat = match caller {
        Caller::Anonymous => {
            return Err(Error::Unauthorized(
                "a rematch is asked for with a seat token or the admin token",
            ))
        }
        Caller::Seat(seat) if is_bot(&old.seats[usize::from(seat)]) => {
            return Err(Error::Forbidden(
                "a bot plays this seat: only the game's players may ask for a rematch",
            ))
        }
        Caller::Seat(seat) => Some(seat),
        Caller::Admin => None,
        Caller::App(scopes) => {
            scopes.require(Scope::GamesAdmin)?;
            None
        }
    };
    if old.status != Status::Finished {
        return Err(Error::refused(
            Code::GameNotFinished,
            "a rematch can be asked for once the game has finished",
        ));
    }
    if old.seats.iter().all(is_bot) {
        return Err(Error::Forbidden(
            "every seat of this game is a bot's: there is no player to play a rematch",
        ));
    }
    let new_id = rematch_id(&old);
    let created = match ctx.store.load(&new_id).await? {
        Some(record) => record,
        None => {
            let record = new_game(ctx, &old, &new_id)?;
            match ctx.store.create(&record).await {
                Ok(()) => record,
                // Another request created it first: the same game.
                Err(StoreError::AlreadyExists(_)) => ctx
                    .store
                    .load(&new_id)
                    .await?
                    .ok_or_else(|| Error::Internal("a rematch vanished".into()))?,
                Err(error) => return Err(error.into()),
            }
        }
    };
    if old.rematch.is_none() {
        let link = new_id.clone();
        update(ctx, old.clone(), &Guard::default(), |record| {
            let mut next = record.clone();
            next.rematch = Some(link.clone());
            next.version = record.version + 1;
            Ok(Change::record(next, ()))
        })
        .await?;
    }
    let Some(old_seat) = old_seat else {
        return Ok(answer(&created, None, None));
    };
    let n = old.seats.len() as u8;
    let seat = (old_seat + n - 1) % n;
    let token = rematch_token(who.token().unwrap_or_default(), &new_id);
    let token_hash = sha256_hex(token.as_bytes());
    let seat_record = &created.seats[usize::from(seat)];
    if seat_record.token_hash.as_deref() == Some(token_hash.as_str()) {
        return Ok(answer(&created, Some(seat), Some(token)));
    }
    let name = old.seats[usize::from(old_seat)]
        .name
        .clone()
        .unwrap_or_else(|| format!("Seat {}", old_seat + 1));
    // The app's player keeps their id in the rematch, and it is among their games.
    let player = old.seats[usize::from(old_seat)].player.clone();
    if let (Some(app), Some(player)) = (&created.app, &player) {
        ctx.store
            .add_player_game(app, player, &created.id, created.created_at)
            .await?;
    }
    let claimant = Claimant::Player {
        token_hash: token_hash.clone(),
        player,
    };
    let mut bots = false;
    let updated = update(ctx, created, &Guard::default(), |record| {
        if record.seats[usize::from(seat)].token_hash.as_deref() == Some(token_hash.as_str()) {
            // Claimed by this caller's earlier request meanwhile: nothing to change.
            return Ok(Change::record(record.clone(), record.clone()));
        }
        let change = claim(ctx, record, Caller::Admin, seat, &name, &None, &claimant)?;
        bots = crate::bots::has_bots(&change.next);
        let next = change.next.clone();
        Ok(Change {
            value: next,
            next: change.next,
            entry: change.entry,
            idempotency: change.idempotency,
            outbox: change.outbox,
            subscriptions_only: false,
        })
    })
    .await?;
    let (joined, _, _) = updated.committed("a rematch")?;
    if joined.status == Status::Active && bots {
        crate::bots::drive_after_commit(ctx, &new_id).await;
    }
    Ok(answer(&joined, Some(seat), Some(token)))
}

/// Whether a bot plays `seat` of its own (not for a player who resigned, who may come back).
fn is_bot(seat: &SeatRecord) -> bool {
    seat.bot.is_some() && !seat.resigned
}

/// The answer: the rematch, and the caller's seat and token in it.
fn answer(record: &GameRecord, seat: Option<u8>, player_token: Option<String>) -> Rematch {
    Rematch {
        game_id: record.id.clone(),
        seat,
        player_token,
        status: record.status.into(),
        version: record.version,
    }
}

/// The id of `old`'s rematch: from its id and its admin token's hash (which nobody outside
/// the server knows), so every request derives the same one and nobody can guess it.
fn rematch_id(old: &GameRecord) -> String {
    let digest = Sha256::new()
        .chain_update(b"beurs-rematch")
        .chain_update(old.id.as_bytes())
        .chain_update(old.admin_token_hash.as_bytes())
        .finalize();
    format!("g_{}", URL_SAFE_NO_PAD.encode(&digest[..16]))
}

/// A player's token for the rematch `new_id`, from their token for the old game: only its
/// holder can present the old token, and the same one always gives the same new token.
fn rematch_token(old_token: &str, new_id: &str) -> String {
    let digest = Sha256::new()
        .chain_update(b"beurs-rematch-seat")
        .chain_update(old_token.as_bytes())
        .finalize();
    let game = new_id.strip_prefix("g_").unwrap_or(new_id);
    format!("{SEAT_PREFIX}{game}.{}", URL_SAFE_NO_PAD.encode(digest))
}

/// The rematch record: `old`'s ruleset, options and clock, a new secret, the seats turned
/// one place with the bots already seated.
fn new_game(ctx: &AppCtx, old: &GameRecord, id: &str) -> Result<GameRecord, Error> {
    let ruleset = ruleset_of(ctx, old)?;
    let n = old.seats.len();
    let seats = (0..n)
        .map(|seat| {
            let from = &old.seats[(seat + 1) % n];
            if is_bot(from) {
                SeatRecord {
                    name: from.name.clone(),
                    bot: from.bot.clone(),
                    ..SeatRecord::default()
                }
            } else {
                SeatRecord::default()
            }
        })
        .collect();
    let mut record = open_record(
        &ctx.dice,
        id.to_string(),
        ruleset,
        old.options.clone(),
        seats,
        true,
        old.admin_token_hash.clone(),
    )?;
    record.rematch_of = Some(old.id.clone());
    // A rematch belongs to the app the game did: its key administers both.
    record.app = old.app.clone();
    // And a keyless game's rematch counts among its address's live games.
    record.origin = old.origin.clone();
    if let Some(clock) = crate::clock::Clock::of(old)? {
        crate::clock::Clock::new(clock.rules, n).save(&mut record);
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rematch_id_is_a_game_id_fixed_by_the_old_game() {
        let mut old = store::testing::sample_record("g_AAAAAAAAAAAAAAAAAAAAAA");
        let id = rematch_id(&old);
        assert!(crate::auth::is_game_id(&id), "{id}");
        assert_eq!(rematch_id(&old), id);
        old.admin_token_hash = "be".repeat(32);
        assert_ne!(rematch_id(&old), id);
    }

    #[test]
    fn a_rematch_token_names_the_new_game_and_follows_the_old_token() {
        let token = rematch_token("bt_seat_old.secret", "g_BBBBBBBBBBBBBBBBBBBBBB");
        assert_eq!(
            crate::auth::game_of_token(&token).as_deref(),
            Some("g_BBBBBBBBBBBBBBBBBBBBBB")
        );
        assert_eq!(
            token,
            rematch_token("bt_seat_old.secret", "g_BBBBBBBBBBBBBBBBBBBBBB")
        );
        assert_ne!(
            token,
            rematch_token("bt_seat_old.other", "g_BBBBBBBBBBBBBBBBBBBBBB")
        );
    }
}
