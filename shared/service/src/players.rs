//! Players of apps (docs/api.md, "Players"): an app names the person in a seat with its own
//! player id when it claims the seat for them, and asks for player tokens, each of which acts
//! as that player's seat token in every game of the app they sit in. A token names its app
//! and its player (`bp_<app>.<player>.<secret>`, the player id in base64url), so checking one
//! is a single read of that player's record, like an app key.

pub use crate::auth::seat_of;
use crate::auth::{random_bytes, sha256_hex, AppKey, PlayerKey};
use crate::ctx::AppCtx;
use crate::dto::{MyGame, MyGames};
use crate::error::{Code, Error};
use crate::time::now_ms;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use store::{GameRecord, GameStore, KeyRecord, PlayerRecord, Scope, StoreError};
use subtle::ConstantTimeEq;

/// Prefix of player tokens.
pub const PLAYER_PREFIX: &str = "bp_";
/// The most tokens a player has live at once (one per device or client of the app).
pub const LIVE_TOKENS: usize = 5;
/// Revoked tokens kept in a player's record (the oldest go first).
const KEPT_REVOKED: usize = 20;
/// The longest player id, in characters.
const ID_LIMIT: usize = 64;

/// A player token just issued (the only time it is shown).
#[derive(Clone, Debug)]
pub struct IssuedToken {
    /// The player, as stored.
    pub player: PlayerRecord,
    /// The new token's record.
    pub record: KeyRecord,
    /// The token itself.
    pub token: String,
}

/// `Ok(id)` if `id` may name a player: 1 to 64 characters, no control characters.
pub fn check_player_id(id: &str) -> Result<&str, Error> {
    if id.is_empty() || id.chars().count() > ID_LIMIT || id.chars().any(char::is_control) {
        return Err(Error::refused(
            Code::InvalidName,
            format!("a player id is 1 to {ID_LIMIT} characters, without control characters"),
        ));
    }
    Ok(id)
}

/// Whether a bearer token is a player token (by its prefix).
pub fn is_player_token(token: &str) -> bool {
    token.starts_with(PLAYER_PREFIX)
}

/// The app and player a token names, if it has a player token's shape.
fn player_of_token(token: &str) -> Option<(String, String)> {
    let mut parts = token.strip_prefix(PLAYER_PREFIX)?.splitn(3, '.');
    let (app, player, _secret) = (parts.next()?, parts.next()?, parts.next()?);
    let app = format!("a_{app}");
    let player = String::from_utf8(URL_SAFE_NO_PAD.decode(player).ok()?).ok()?;
    (crate::apps::is_app_id(&app) && check_player_id(&player).is_ok()).then_some((app, player))
}

/// Applies `edit` to player `player_id` of `app` (created empty when `create` and there is
/// none; otherwise missing is a 404) and saves it under its version, reading again if
/// another change got there first.
async fn change<T>(
    store: &dyn GameStore,
    app: &str,
    player_id: &str,
    create: bool,
    mut edit: impl FnMut(&mut PlayerRecord) -> Result<T, Error>,
) -> Result<(PlayerRecord, T), Error> {
    for _ in 0..8 {
        let stored = store.load_player(app, player_id).await?;
        let expected = stored.as_ref().map_or(0, |player| player.version);
        let mut player = match stored {
            Some(player) => player,
            None if create => PlayerRecord {
                app: app.to_owned(),
                id: player_id.to_owned(),
                version: 0,
                created_at: now_ms(),
                tokens: Vec::new(),
            },
            None => {
                return Err(Error::refused(
                    Code::KeyNotFound,
                    "this player has no token with this id",
                ))
            }
        };
        let done = edit(&mut player)?;
        player.version = expected + 1;
        match store.save_player(&player, expected).await {
            Ok(()) => return Ok((player, done)),
            Err(StoreError::VersionConflict { .. }) => continue,
            Err(other) => return Err(other.into()),
        }
    }
    Err(Error::refused(
        Code::VersionConflict,
        "the player kept changing; try again",
    ))
}

/// Issues a new token to player `player_id` of `key`'s app (which needs `games:admin`),
/// creating the player on its first token. Refused while the player has [`LIVE_TOKENS`] live
/// tokens: revoke one first.
pub async fn issue_token(
    store: &dyn GameStore,
    key: &AppKey,
    player_id: &str,
) -> Result<IssuedToken, Error> {
    key.scopes.require(Scope::GamesAdmin)?;
    let player_id = check_player_id(player_id)?;
    let app_body = key.app.strip_prefix("a_").unwrap_or(&key.app);
    let (player, (record, token)) = change(store, &key.app, player_id, true, |player| {
        if player.tokens.iter().filter(|token| token.live()).count() >= LIVE_TOKENS {
            return Err(Error::refused(
                Code::TooManyKeys,
                format!(
                    "a player has at most {LIVE_TOKENS} live tokens: revoke one before issuing another"
                ),
            ));
        }
        let token = format!(
            "{PLAYER_PREFIX}{app_body}.{}.{}",
            URL_SAFE_NO_PAD.encode(player_id.as_bytes()),
            URL_SAFE_NO_PAD.encode(random_bytes::<32>()?)
        );
        let record = KeyRecord {
            id: format!("pt_{}", URL_SAFE_NO_PAD.encode(random_bytes::<9>()?)),
            hash: sha256_hex(token.as_bytes()),
            scopes: Vec::new(),
            created_at: now_ms(),
            revoked_at: None,
        };
        // Revoked tokens are kept for the listing, the latest few only: a player's record
        // must not grow with every token ever issued.
        let revoked = player.tokens.iter().filter(|token| !token.live()).count();
        let mut drop = revoked.saturating_sub(KEPT_REVOKED);
        player.tokens.retain(|token| {
            let gone = drop > 0 && !token.live();
            drop -= usize::from(gone);
            !gone
        });
        player.tokens.push(record.clone());
        Ok((record, token))
    })
    .await?;
    Ok(IssuedToken {
        player,
        record,
        token,
    })
}

/// Revokes token `token_id` of player `player_id` of `key`'s app (`games:admin`): from now on
/// it is a 401. Revoking a revoked token changes nothing.
pub async fn revoke_token(
    store: &dyn GameStore,
    key: &AppKey,
    player_id: &str,
    token_id: &str,
) -> Result<PlayerRecord, Error> {
    key.scopes.require(Scope::GamesAdmin)?;
    let player_id = check_player_id(player_id)?;
    change(store, &key.app, player_id, false, |player| {
        let found = player
            .tokens
            .iter_mut()
            .find(|token| token.id == token_id)
            .ok_or_else(|| {
                Error::refused(Code::KeyNotFound, "this player has no token with this id")
            })?;
        found.revoked_at.get_or_insert_with(now_ms);
        Ok(())
    })
    .await
    .map(|(player, ())| player)
}

/// The player a live token speaks for, or a 401. Every live token's hash is compared in
/// constant time.
pub async fn authenticate(store: &dyn GameStore, token: &str) -> Result<PlayerKey, Error> {
    const REFUSED: &str = "the player token is not valid, or was revoked";
    let (app, player) = player_of_token(token).ok_or(Error::Unauthorized(REFUSED))?;
    let Some(record) = store.load_player(&app, &player).await? else {
        return Err(Error::Unauthorized(REFUSED));
    };
    let hash = sha256_hex(token.as_bytes());
    let mut found = None;
    for candidate in record.tokens.iter().filter(|candidate| candidate.live()) {
        if bool::from(hash.as_bytes().ct_eq(candidate.hash.as_bytes())) {
            found = Some(candidate.id.clone());
        }
    }
    let token = found.ok_or(Error::Unauthorized(REFUSED))?;
    Ok(PlayerKey { app, player, token })
}

/// Whether `key`'s token is still live (a stream that outlives its token's revocation ends).
pub async fn still_live(store: &dyn GameStore, key: &PlayerKey) -> Result<bool, Error> {
    Ok(store
        .load_player(&key.app, &key.player)
        .await?
        .is_some_and(|player| {
            player
                .tokens
                .iter()
                .any(|token| token.id == key.token && token.live())
        }))
}

/// A player's tokens (ids and dates, never the tokens) for `key`'s app (`games:admin`):
/// what an app lists to find the one to revoke.
pub async fn tokens(
    store: &dyn GameStore,
    key: &AppKey,
    player_id: &str,
) -> Result<Vec<KeyRecord>, Error> {
    key.scopes.require(Scope::GamesAdmin)?;
    let player_id = check_player_id(player_id)?;
    Ok(store
        .load_player(&key.app, player_id)
        .await?
        .map(|player| player.tokens)
        .unwrap_or_default())
}

/// A game a player sits in: its record, their seat and their "my games" entry.
pub struct Seated {
    /// The game's record.
    pub record: GameRecord,
    /// The player's seat.
    pub seat: u8,
    /// The game as their "my games" entry.
    pub game: MyGame,
}

/// One page of the games player `player` of `app` sits in, newest first, and the cursor of
/// the next page. The notes are a superset: a game whose seat the player no longer holds is
/// left out, and so is a game that cannot be shown (its rules retired), not the page.
pub async fn seated(
    ctx: &AppCtx,
    app: &str,
    player: &str,
    after: Option<&str>,
    limit: usize,
) -> Result<(Vec<Seated>, Option<String>), Error> {
    let page = ctx
        .store
        .player_games(
            app,
            player,
            &store::ListQuery {
                ruleset: None,
                cursor: after.map(str::to_owned),
                limit,
            },
        )
        .await
        .map_err(|error| match error {
            StoreError::BadCursor => {
                Error::Malformed("after is not a cursor this server gave".into())
            }
            other => other.into(),
        })?;
    let mut seated = Vec::new();
    for record in page.games {
        let Some(seat) = seat_of(&record, app, player) else {
            continue;
        };
        match crate::me::my_game(ctx, &record, Some(seat)) {
            Ok(game) => seated.push(Seated { record, seat, game }),
            Err(error) => {
                tracing::warn!(%error, game = %record.id, "left out of a player's games")
            }
        }
    }
    Ok((seated, page.next_cursor))
}

/// One page of the games player `player` of `app` sits in, newest first, each as a "my
/// games" entry for their seat.
pub async fn games(
    ctx: &AppCtx,
    app: &str,
    player: &str,
    after: Option<&str>,
    limit: usize,
) -> Result<MyGames, Error> {
    let (seated, next_after) = seated(ctx, app, player, after, limit).await?;
    Ok(MyGames {
        games: seated.into_iter().map(|seated| seated.game).collect(),
        next_after,
    })
}

/// Who holds a player's streams, whichever of their tokens opened them.
pub fn stream_holder(key: &PlayerKey) -> crate::streams::Holder {
    crate::streams::Holder::Token(sha256_hex(
        format!("player {} {}", key.app, key.player).as_bytes(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use store::MemoryStore;

    #[tokio::test]
    async fn a_token_names_its_player_and_works_until_revoked() {
        let store = MemoryStore::new();
        let key = AppKey {
            app: "a_AAAAAAAAAAAAAAAAAAAAAA".to_owned(),
            key: "k_1".to_owned(),
            scopes: [Scope::GamesAdmin].into_iter().collect(),
        };
        let issued = issue_token(&store, &key, "user 42/é").await.unwrap();
        assert!(issued.token.starts_with(PLAYER_PREFIX));
        assert_eq!(
            player_of_token(&issued.token),
            Some((key.app.clone(), "user 42/é".to_owned()))
        );
        let found = authenticate(&store, &issued.token).await.unwrap();
        assert_eq!(
            (found.app.as_str(), found.player.as_str()),
            (key.app.as_str(), "user 42/é")
        );
        // A forged secret, or a token of another player, is refused.
        let forged = format!("{}x", &issued.token[..issued.token.len() - 1]);
        assert!(authenticate(&store, &forged).await.is_err());
        revoke_token(&store, &key, "user 42/é", &issued.record.id)
            .await
            .unwrap();
        assert!(matches!(
            authenticate(&store, &issued.token).await,
            Err(Error::Unauthorized(_))
        ));
        // Without games:admin, no token.
        let reader = AppKey {
            scopes: [Scope::GamesRead].into_iter().collect(),
            ..key.clone()
        };
        assert!(matches!(
            issue_token(&store, &reader, "bea").await,
            Err(Error::MissingScope(Scope::GamesAdmin))
        ));
        assert!(issue_token(&store, &key, "").await.is_err());
        for _ in 0..LIVE_TOKENS {
            issue_token(&store, &key, "cas").await.unwrap();
        }
        assert!(issue_token(&store, &key, "cas").await.is_err());
    }
}
