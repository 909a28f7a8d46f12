//! Bearer tokens, game ids and secrets: random, prefixed, stored only as SHA-256.

use crate::dice::Dice;
use crate::error::Error;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};
use store::{GameRecord, Scope};
use subtle::ConstantTimeEq;

/// Prefix of admin tokens.
pub const ADMIN_PREFIX: &str = "bt_admin_";
/// Prefix of seat tokens.
pub const SEAT_PREFIX: &str = "bt_seat_";

/// `n` bytes from the operating system's CSPRNG.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], Error> {
    Dice::Os.bytes()
}

/// A new 256-bit token of game `game_id`: `<prefix><the id without g_>.<256 random bits>`.
/// The game's id in the token is not a secret (it is in every URL of the game); it lets
/// `GET /v1/me/games` find the token's game without an index of tokens. Tokens issued before
/// it was added (no `.`) still work on their game's routes.
pub fn new_token(prefix: &str, game_id: &str) -> Result<String, Error> {
    let game = game_id.strip_prefix("g_").unwrap_or(game_id);
    Ok(format!(
        "{prefix}{game}.{}",
        URL_SAFE_NO_PAD.encode(random_bytes::<32>()?)
    ))
}

/// The game a token names (see [`new_token`]), if it names one.
pub fn game_of_token(token: &str) -> Option<String> {
    let rest = token
        .strip_prefix(SEAT_PREFIX)
        .or_else(|| token.strip_prefix(ADMIN_PREFIX))?;
    let (game, _) = rest.split_once('.')?;
    let id = format!("g_{game}");
    is_game_id(&id).then_some(id)
}

/// A new game id: `g_` and 128 random bits.
pub fn new_game_id(dice: &Dice) -> Result<String, Error> {
    Ok(format!("g_{}", URL_SAFE_NO_PAD.encode(dice.bytes::<16>()?)))
}

/// Whether `id` has the shape of a game id (anything else cannot exist: 404 without a lookup).
pub fn is_game_id(id: &str) -> bool {
    id.len() == 24
        && id.starts_with("g_")
        && id[2..]
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

/// SHA-256 as lowercase hex.
pub fn sha256_hex(data: &[u8]) -> String {
    hex::encode(Sha256::digest(data))
}

/// The scopes a key holds, as a small set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scopes(u8);

impl Scopes {
    /// Whether the set holds `scope`.
    pub fn has(self, scope: Scope) -> bool {
        self.0 & Scopes::bit(scope) != 0
    }

    /// `Ok` if the set holds `scope`; otherwise the 403 that names it.
    pub fn require(self, scope: Scope) -> Result<(), Error> {
        if self.has(scope) {
            Ok(())
        } else {
            Err(Error::MissingScope(scope))
        }
    }

    fn bit(scope: Scope) -> u8 {
        1 << (scope as u8)
    }
}

impl FromIterator<Scope> for Scopes {
    fn from_iter<I: IntoIterator<Item = Scope>>(scopes: I) -> Scopes {
        Scopes(scopes.into_iter().fold(0, |set, s| set | Scopes::bit(s)))
    }
}

/// A checked, live app key: the app it speaks for and what it may do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppKey {
    /// The app (`a_…`).
    pub app: String,
    /// The key's id (`k_…`).
    pub key: String,
    /// Its scopes.
    pub scopes: Scopes,
}

/// A checked, live player token: the app and the app's id for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerKey {
    /// The app (`a_…`).
    pub app: String,
    /// The app's id for the player.
    pub player: String,
    /// The token's id (`pt_…`), to tell whether it is still live.
    pub token: String,
}

/// What a request presented: nothing, a game's token (seat or admin), a checked app key, or a
/// checked player token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Credential {
    /// No `Authorization` header.
    #[default]
    Anonymous,
    /// A bearer token that is not an app key: a seat's or a game's admin token, checked
    /// against each game's record.
    Token(String),
    /// A live app key (already checked against its app).
    App(AppKey),
    /// A live player token (already checked against its player): that player's seat in each
    /// game of the app they sit in.
    Player(PlayerKey),
}

impl Credential {
    /// The game token, if the credential is one.
    pub fn token(&self) -> Option<&str> {
        match self {
            Credential::Token(token) => Some(token),
            _ => None,
        }
    }

    /// The app key, if the credential is one.
    pub fn app(&self) -> Option<&AppKey> {
        match self {
            Credential::App(key) => Some(key),
            _ => None,
        }
    }
}

/// Who a request's token says it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    /// No token: a spectator.
    Anonymous,
    /// The game's admin token.
    Admin,
    /// A seat's token.
    Seat(u8),
    /// A key of the app the game belongs to, with its scopes: the game's admin where its
    /// scopes allow, a spectator otherwise.
    App(Scopes),
}

impl Caller {
    /// Whose view the caller gets: a seat's own, or the spectator's (admin and anonymous).
    pub fn viewer(self) -> game_core::Viewer {
        match self {
            Caller::Seat(seat) => game_core::Viewer::Seat(game_core::Seat(seat)),
            Caller::Admin | Caller::Anonymous | Caller::App(_) => game_core::Viewer::Spectator,
        }
    }
}

/// Identifies the caller of `record` from what the request presented. A token that matches
/// nothing is 401. Every stored hash is compared, in constant time, so timing reveals nothing
/// about which. An app key acts only on its own app's games: any other game is, to it, a
/// game that does not exist (404), so that it cannot even learn of another app's
/// invite-only games.
pub fn identify(record: &GameRecord, who: &Credential) -> Result<Caller, Error> {
    let token = match who {
        Credential::Anonymous => return Ok(Caller::Anonymous),
        Credential::App(key) if record.app.as_deref() == Some(key.app.as_str()) => {
            return Ok(Caller::App(key.scopes))
        }
        Credential::App(_) => return Err(Error::GameNotFound),
        // A player reads the games of their app where they sit no seat as a spectator does.
        Credential::Player(key) if record.app.as_deref() == Some(key.app.as_str()) => {
            return Ok(
                seat_of(record, &key.app, &key.player).map_or(Caller::Anonymous, Caller::Seat)
            )
        }
        Credential::Player(_) => return Err(Error::GameNotFound),
        Credential::Token(token) => token,
    };
    let hash = sha256_hex(token.as_bytes());
    let mut caller = None;
    if bool::from(hash.as_bytes().ct_eq(record.admin_token_hash.as_bytes())) {
        caller = Some(Caller::Admin);
    }
    for (seat, seat_record) in record.seats.iter().enumerate() {
        if let Some(seat_hash) = &seat_record.token_hash {
            if bool::from(hash.as_bytes().ct_eq(seat_hash.as_bytes())) {
                caller = Some(Caller::Seat(seat as u8));
            }
        }
    }
    caller.ok_or(Error::Unauthorized("the token is not valid for this game"))
}

/// The seat player `player` of `app` sits in, in `record`, if any.
pub fn seat_of(record: &GameRecord, app: &str, player: &str) -> Option<u8> {
    if record.app.as_deref() != Some(app) {
        return None;
    }
    record
        .seats
        .iter()
        .position(|seat| seat.player.as_deref() == Some(player))
        .and_then(|seat| u8::try_from(seat).ok())
}

/// A new message id (`webhook-id`): `msg_` and 128 random bits.
pub fn new_message_id() -> Result<String, Error> {
    Ok(format!(
        "msg_{}",
        URL_SAFE_NO_PAD.encode(random_bytes::<16>()?)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_tokens_have_their_shapes() {
        let id = new_game_id(&Dice::Os).unwrap();
        assert!(is_game_id(&id), "{id}");
        assert!(!is_game_id("g_../../etc/passwd"));
        assert!(!is_game_id("g_short"));
        let token = new_token(SEAT_PREFIX, &id).unwrap();
        assert!(token.starts_with(SEAT_PREFIX));
        assert_eq!(token.len(), SEAT_PREFIX.len() + 22 + 1 + 43);
        assert_ne!(new_token(SEAT_PREFIX, &id).unwrap(), token);
        assert_eq!(game_of_token(&token), Some(id.clone()));
        let admin = new_token(ADMIN_PREFIX, &id).unwrap();
        assert_eq!(game_of_token(&admin), Some(id));
        // Tokens without a game (issued before tokens named one), and forgeries.
        assert_eq!(
            game_of_token("bt_seat_5bWq1t0yqgGQm3WJcS4XxQ5bWq1t0yqgGQm3WJcS4Xx"),
            None
        );
        assert_eq!(game_of_token("bt_seat_../etc.x"), None);
        assert_eq!(game_of_token("bearer.x"), None);
    }

    #[test]
    fn sha256_matches_the_standard_vector() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
