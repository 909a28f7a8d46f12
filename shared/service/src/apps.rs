//! Apps and their API keys (docs/apps.md): what an operator creates, rotates and revokes, and
//! what a request's key says about who is calling. Keys are shown once and stored as SHA-256,
//! like seat tokens; a key names its app (`bk_<app>.<secret>`), so checking one is a single
//! read of that app, with no index of keys.

use crate::auth::{random_bytes, sha256_hex};
pub use crate::auth::{AppKey, Scopes};
pub use crate::error::Limited;
use crate::error::{Code, Error};
use crate::time::now_ms;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use std::net::{IpAddr, Ipv6Addr};
use std::time::Duration;
use store::{AppRecord, CreationWindow, GameStore, KeyRecord, Owner, Scope, StoreError};
use subtle::ConstantTimeEq;

/// Prefix of app keys.
pub const KEY_PREFIX: &str = "bk_";
/// The most keys an app has live at once: two, so that a key is rotated without downtime
/// (issue the new one, move the clients, revoke the old one).
pub const LIVE_KEYS: usize = 2;
/// The longest app name.
const NAME_LIMIT: usize = 80;

/// The limits a deployment sets on apps and on requests without a key (docs/apps.md,
/// "Limits").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Whether creating a game needs an app key (`--require-app-key`); otherwise keyless
    /// creations are allowed, under the per-address limits.
    pub require_app_key: bool,
    /// Games one app may create in one clock hour.
    pub creations_per_hour: u32,
    /// Games of one app that may be unfinished at once.
    pub live_games: u32,
    /// Games one client address may create in one clock hour without an app key; `None`:
    /// no such quota.
    pub keyless_creations_per_hour: Option<u32>,
    /// Games created without an app key from one client address that may be unfinished at
    /// once; `None`: no such quota.
    pub keyless_live_games: Option<u32>,
}

/// The default hourly quota of keyless creations per client address (`beurs serve`, and the
/// Lambda functions' `KeylessCreationsPerHour`).
pub const KEYLESS_CREATIONS_PER_HOUR: u32 = 100;
/// The default quota of unfinished keyless games per client address.
pub const KEYLESS_LIVE_GAMES: u32 = 50;

impl Default for Limits {
    /// An app's quotas, and no keyless quotas: a server that knows no client addresses (a
    /// test's router) counts nothing per address. `beurs serve` and the Lambda functions
    /// turn them on ([`KEYLESS_CREATIONS_PER_HOUR`], [`KEYLESS_LIVE_GAMES`]).
    fn default() -> Limits {
        Limits {
            require_app_key: false,
            creations_per_hour: 1_000,
            live_games: 500,
            keyless_creations_per_hour: None,
            keyless_live_games: None,
        }
    }
}

/// An app and the key just issued to it (the only time the key is shown).
#[derive(Clone, Debug)]
pub struct Issued {
    /// The app, as stored.
    pub app: AppRecord,
    /// The new key's record.
    pub record: KeyRecord,
    /// The key itself.
    pub key: String,
}

/// A new app id: `a_` and 128 random bits.
fn new_app_id() -> Result<String, Error> {
    Ok(format!(
        "a_{}",
        URL_SAFE_NO_PAD.encode(random_bytes::<16>()?)
    ))
}

/// A new key of `app` and its record.
fn new_key(app: &str, scopes: &[Scope]) -> Result<(String, KeyRecord), Error> {
    let body = app.strip_prefix("a_").unwrap_or(app);
    let key = format!(
        "{KEY_PREFIX}{body}.{}",
        URL_SAFE_NO_PAD.encode(random_bytes::<32>()?)
    );
    let mut scopes = scopes.to_vec();
    scopes.sort();
    scopes.dedup();
    let record = KeyRecord {
        id: format!("k_{}", URL_SAFE_NO_PAD.encode(random_bytes::<9>()?)),
        hash: sha256_hex(key.as_bytes()),
        scopes,
        created_at: now_ms(),
        revoked_at: None,
    };
    Ok((key, record))
}

/// The app a key names, if it has a key's shape.
fn app_of_key(key: &str) -> Option<String> {
    let (body, _) = key.strip_prefix(KEY_PREFIX)?.split_once('.')?;
    let id = format!("a_{body}");
    is_app_id(&id).then_some(id)
}

/// Whether `id` has the shape of an app id.
pub fn is_app_id(id: &str) -> bool {
    id.len() == 24
        && id.starts_with("a_")
        && id[2..]
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

/// Whether a bearer token is an app key (by its prefix).
pub fn is_app_key(token: &str) -> bool {
    token.starts_with(KEY_PREFIX)
}

/// Creates an app named `name` with one key holding `scopes` (every scope when empty).
pub async fn create(store: &dyn GameStore, name: &str, scopes: &[Scope]) -> Result<Issued, Error> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > NAME_LIMIT || name.chars().any(char::is_control) {
        return Err(Error::refused(
            Code::InvalidName,
            format!("an app's name is 1 to {NAME_LIMIT} characters, without control characters"),
        ));
    }
    let scopes = if scopes.is_empty() {
        Scope::all()
    } else {
        scopes.to_vec()
    };
    let id = new_app_id()?;
    let (key, record) = new_key(&id, &scopes)?;
    let app = AppRecord {
        id,
        name: name.to_owned(),
        version: 1,
        created_at: record.created_at,
        keys: vec![record.clone()],
        creations: CreationWindow::default(),
    };
    store.create_app(&app).await?;
    Ok(Issued { app, record, key })
}

/// Every app, oldest first.
pub async fn list(store: &dyn GameStore) -> Result<Vec<AppRecord>, Error> {
    Ok(store.apps().await?)
}

/// App `id`, or the 404 that says there is none.
pub async fn load(store: &dyn GameStore, id: &str) -> Result<AppRecord, Error> {
    if !is_app_id(id) {
        return Err(Error::refused(Code::AppNotFound, "no app with this id"));
    }
    store
        .load_app(id)
        .await?
        .ok_or_else(|| Error::refused(Code::AppNotFound, "no app with this id"))
}

/// Issues a new key to app `id` (the first half of a rotation), with `scopes` (those of the
/// app's newest live key when empty). Refused while the app already has [`LIVE_KEYS`] live
/// keys: revoke one first.
pub async fn rotate(store: &dyn GameStore, id: &str, scopes: &[Scope]) -> Result<Issued, Error> {
    change(store, id, |app| {
        let live: Vec<&KeyRecord> = app.keys.iter().filter(|key| key.live()).collect();
        if live.len() >= LIVE_KEYS {
            return Err(Error::refused(
                Code::TooManyKeys,
                format!(
                    "an app has at most {LIVE_KEYS} live keys: revoke one before issuing another"
                ),
            ));
        }
        let scopes = if scopes.is_empty() {
            live.last()
                .map_or_else(Scope::all, |key| key.scopes.clone())
        } else {
            scopes.to_vec()
        };
        let (key, record) = new_key(&app.id, &scopes)?;
        app.keys.push(record.clone());
        Ok((key, record))
    })
    .await
    .map(|(app, (key, record))| Issued { app, record, key })
}

/// Revokes key `key` of app `id`: from now on it is a 401. Revoking a revoked key changes
/// nothing.
pub async fn revoke(store: &dyn GameStore, id: &str, key: &str) -> Result<AppRecord, Error> {
    change(store, id, |app| {
        let found = app
            .keys
            .iter_mut()
            .find(|record| record.id == key)
            .ok_or_else(|| Error::refused(Code::KeyNotFound, "this app has no key with this id"))?;
        found.revoked_at.get_or_insert_with(now_ms);
        Ok(())
    })
    .await
    .map(|(app, ())| app)
}

/// Applies `edit` to app `id` and saves it under its version, reading again if another
/// change got there first.
async fn change<T>(
    store: &dyn GameStore,
    id: &str,
    mut edit: impl FnMut(&mut AppRecord) -> Result<T, Error>,
) -> Result<(AppRecord, T), Error> {
    for _ in 0..8 {
        let mut app = load(store, id).await?;
        let expected = app.version;
        let done = edit(&mut app)?;
        app.version += 1;
        match store.save_app(&app, expected).await {
            Ok(()) => return Ok((app, done)),
            Err(StoreError::VersionConflict { .. }) => continue,
            Err(other) => return Err(other.into()),
        }
    }
    Err(Error::refused(
        Code::VersionConflict,
        "the app kept changing; try again",
    ))
}

/// `Ok` if `token` is the operator's key (whose SHA-256 is `operator_key_hash`, the
/// context's); 401 for no token or another, 403 for a token when the deployment has no
/// operator key (the routes are off).
pub fn check_operator(operator_key_hash: Option<&str>, token: Option<&str>) -> Result<(), Error> {
    if token.is_none() {
        return Err(Error::Unauthorized(
            "this route needs the operator's key (Authorization: Bearer <BEURS_OPERATOR_KEY>)",
        ));
    }
    let Some(expected) = operator_key_hash else {
        return Err(Error::Forbidden(
            "managing apps over HTTP is off: the operator sets BEURS_OPERATOR_KEY to turn it on",
        ));
    };
    let given = sha256_hex(token.unwrap_or_default().as_bytes());
    if token.is_some() && bool::from(given.as_bytes().ct_eq(expected.as_bytes())) {
        Ok(())
    } else {
        Err(Error::Unauthorized(
            "this route needs the operator's key (Authorization: Bearer <BEURS_OPERATOR_KEY>)",
        ))
    }
}

/// The live key `key` is, or a 401. Every live key's hash is compared in constant time.
pub async fn authenticate(store: &dyn GameStore, key: &str) -> Result<AppKey, Error> {
    const REFUSED: &str = "the API key is not valid, or was revoked";
    let app = app_of_key(key).ok_or(Error::Unauthorized(REFUSED))?;
    let Some(record) = store.load_app(&app).await? else {
        return Err(Error::Unauthorized(REFUSED));
    };
    let hash = sha256_hex(key.as_bytes());
    let mut found = None;
    for candidate in record.keys.iter().filter(|candidate| candidate.live()) {
        if bool::from(hash.as_bytes().ct_eq(candidate.hash.as_bytes())) {
            found = Some(candidate);
        }
    }
    let found = found.ok_or(Error::Unauthorized(REFUSED))?;
    Ok(AppKey {
        app,
        key: found.id.clone(),
        scopes: found.scopes.iter().copied().collect(),
    })
}

/// Counts one more game of `key`'s app against its quotas, or refuses with a 429: the
/// unfinished games it has, and the games it created this clock hour (counted in the app's
/// record, so every server of the deployment counts against one number).
pub async fn admit_creation(
    store: &dyn GameStore,
    key: &AppKey,
    limits: &Limits,
) -> Result<(), Error> {
    let live = store.live_games(Owner::App(&key.app)).await?;
    if live >= u64::from(limits.live_games) {
        return Err(live_games_exceeded(
            limits.live_games,
            format!("the app has {live} unfinished games, its limit; finish or delete one first"),
        ));
    }
    let (hour, retry_after) = this_hour();
    change(store, &key.app, |app| {
        if app.creations.hour != hour {
            app.creations = CreationWindow { hour, created: 0 };
        }
        if app.creations.created >= limits.creations_per_hour {
            return Err(creations_exceeded(
                limits.creations_per_hour,
                retry_after,
                format!(
                    "the app has created {} games this hour, its limit",
                    app.creations.created
                ),
            ));
        }
        app.creations.created += 1;
        Ok(())
    })
    .await
    .map(drop)
}

/// Counts one more game created without an app key from `origin` against the keyless
/// quotas, or refuses with a 429: its unfinished games, and its creations this clock hour
/// (counted in the store, so every server of the deployment counts against one number).
/// Either quota off ([`Limits::keyless_live_games`], [`Limits::keyless_creations_per_hour`])
/// is not checked.
pub async fn admit_keyless_creation(
    store: &dyn GameStore,
    origin: &Origin,
    limits: &Limits,
) -> Result<(), Error> {
    if let Some(quota) = limits.keyless_live_games {
        let live = store.live_games(Owner::Origin(origin.as_str())).await?;
        if live >= u64::from(quota) {
            return Err(live_games_exceeded(
                quota,
                format!(
                    "this address has {live} unfinished games created without an app key, its limit; finish one first, or use an app key (docs/apps.md)"
                ),
            ));
        }
    }
    if let Some(quota) = limits.keyless_creations_per_hour {
        let (hour, retry_after) = this_hour();
        if store
            .count_creation(origin.as_str(), hour, quota)
            .await?
            .is_none()
        {
            return Err(creations_exceeded(
                quota,
                retry_after,
                format!(
                    "this address has created {quota} games this hour without an app key, its limit (docs/apps.md)"
                ),
            ));
        }
    }
    Ok(())
}

/// The current clock hour (Unix hours), and how long until the next.
fn this_hour() -> (u64, Duration) {
    let now = now_ms();
    let hour = now / 3_600_000;
    (hour, Duration::from_millis((hour + 1) * 3_600_000 - now))
}

/// The 429 of a live-games quota of `quota`.
fn live_games_exceeded(quota: u32, message: String) -> Error {
    Error::Limited(Box::new(Limited {
        code: Code::QuotaExceeded,
        policy: "live-games",
        quota,
        window: None,
        retry_after: Duration::from_secs(60),
        message,
    }))
}

/// The 429 of an hourly creations quota of `quota`, open again in `retry_after`.
fn creations_exceeded(quota: u32, retry_after: Duration, message: String) -> Error {
    Error::Limited(Box::new(Limited {
        code: Code::QuotaExceeded,
        policy: "creations",
        quota,
        window: Some(Duration::from_secs(3_600)),
        retry_after,
        message,
    }))
}

/// Who created a game without an app key, as the keyless quotas count it: a pseudonym of the
/// client's address (the first 128 bits of a SHA-256), never the address itself. An IPv6
/// address counts by its /64 network, the block one subscriber is usually given, so that an
/// address cannot escape its quota by stepping through its own network.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Origin(String);

impl Origin {
    /// The origin of a request from `address`.
    pub fn of(address: IpAddr) -> Origin {
        let address = match address {
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpAddr::V4(v4),
                None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !((1u128 << 64) - 1))),
            },
            v4 => v4,
        };
        let hash = sha256_hex(format!("beurs origin v1 {address}").as_bytes());
        Origin(format!("o_{}", &hash[..32]))
    }

    /// The pseudonym, as the store keeps it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use store::MemoryStore;

    #[test]
    fn an_origin_is_a_pseudonym_of_an_address_or_of_an_ipv6_network() {
        let of = |address: &str| Origin::of(address.parse().unwrap());
        let home = of("203.0.113.7");
        assert!(home.as_str().starts_with("o_") && home.as_str().len() == 34);
        assert!(!home.as_str().contains("203.0.113.7"));
        assert_ne!(home, of("203.0.113.8"), "every IPv4 address apart");
        // An IPv4 address is one origin however it arrives.
        assert_eq!(home, of("::ffff:203.0.113.7"));
        // An IPv6 address counts by its /64: stepping through one's own network escapes
        // nothing, and the next network is another origin.
        assert_eq!(
            of("2001:db8:1:2::1"),
            of("2001:db8:1:2:ffff:ffff:ffff:ffff")
        );
        assert_ne!(of("2001:db8:1:2::1"), of("2001:db8:1:3::1"));
    }

    #[tokio::test]
    async fn keyless_quotas_count_an_origins_games_and_creations() {
        let store = MemoryStore::new();
        let limits = Limits {
            keyless_creations_per_hour: Some(3),
            keyless_live_games: Some(1),
            ..Limits::default()
        };
        let origin = Origin::of("198.51.100.1".parse().unwrap());
        admit_keyless_creation(&store, &origin, &limits)
            .await
            .unwrap();
        // No game was recorded under the origin yet: the live quota has nothing to count.
        admit_keyless_creation(&store, &origin, &limits)
            .await
            .unwrap();
        admit_keyless_creation(&store, &origin, &limits)
            .await
            .unwrap();
        let Err(Error::Limited(limited)) = admit_keyless_creation(&store, &origin, &limits).await
        else {
            panic!("the fourth creation of the hour is refused");
        };
        assert_eq!((limited.policy, limited.quota), ("creations", 3));
        // With the creations quota off, the live quota counts the origin's games.
        let live_only = Limits {
            keyless_creations_per_hour: None,
            ..limits
        };
        let mut game = store::testing::sample_record("g_live");
        game.origin = Some(origin.as_str().to_owned());
        store.create(&game).await.unwrap();
        let Err(Error::Limited(limited)) =
            admit_keyless_creation(&store, &origin, &live_only).await
        else {
            panic!("a second live game is refused");
        };
        assert_eq!((limited.policy, limited.quota), ("live-games", 1));
        let elsewhere = Origin::of("198.51.100.2".parse().unwrap());
        admit_keyless_creation(&store, &elsewhere, &live_only)
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn a_key_names_its_app_and_works_until_revoked() {
        let store = MemoryStore::new();
        let issued = create(&store, "Chat bot", &[Scope::GamesCreate])
            .await
            .unwrap();
        assert!(issued.key.starts_with(KEY_PREFIX), "{}", issued.key);
        assert_eq!(app_of_key(&issued.key), Some(issued.app.id.clone()));
        assert_ne!(issued.record.hash, issued.key, "only the hash is kept");
        let key = authenticate(&store, &issued.key).await.unwrap();
        assert!(key.scopes.has(Scope::GamesCreate) && !key.scopes.has(Scope::GamesAdmin));
        assert!(matches!(
            key.scopes.require(Scope::GamesAdmin),
            Err(Error::MissingScope(Scope::GamesAdmin))
        ));

        // Rotation: the new key works beside the old one, a third is refused.
        let second = rotate(&store, &issued.app.id, &[]).await.unwrap();
        assert_eq!(
            second.record.scopes,
            [Scope::GamesCreate],
            "scopes carry over"
        );
        assert!(authenticate(&store, &issued.key).await.is_ok());
        assert!(authenticate(&store, &second.key).await.is_ok());
        let third = rotate(&store, &issued.app.id, &[]).await.unwrap_err();
        assert_eq!(third.service_code(), Some(Code::TooManyKeys));
        revoke(&store, &issued.app.id, &issued.record.id)
            .await
            .unwrap();
        assert!(matches!(
            authenticate(&store, &issued.key).await,
            Err(Error::Unauthorized(_))
        ));
        assert!(authenticate(&store, &second.key).await.is_ok());

        // A forged key of the same app, and keys of no app, are refused alike.
        let forged = format!("{}x", &second.key[..second.key.len() - 1]);
        for bad in [forged.as_str(), "bk_nothing", "bk_../x.y", "bt_seat_x.y"] {
            assert!(
                matches!(authenticate(&store, bad).await, Err(Error::Unauthorized(_))),
                "{bad}"
            );
        }
    }

    #[tokio::test]
    async fn creations_count_against_the_hourly_quota() {
        let store = MemoryStore::new();
        let issued = create(&store, "Site", &[]).await.unwrap();
        let key = authenticate(&store, &issued.key).await.unwrap();
        let limits = Limits {
            creations_per_hour: 2,
            ..Limits::default()
        };
        admit_creation(&store, &key, &limits).await.unwrap();
        admit_creation(&store, &key, &limits).await.unwrap();
        let Err(Error::Limited(limited)) = admit_creation(&store, &key, &limits).await else {
            panic!("the third creation of the hour is refused");
        };
        assert_eq!(
            (limited.code, limited.policy),
            (Code::QuotaExceeded, "creations")
        );
        assert!(limited.retry_after <= Duration::from_secs(3_600));
        let app = load(&store, &issued.app.id).await.unwrap();
        assert_eq!(app.creations.created, 2, "a refusal counts nothing");
    }

    #[test]
    fn only_the_operators_key_manages_apps() {
        let hash = sha256_hex(b"the operator");
        assert!(check_operator(Some(&hash), Some("the operator")).is_ok());
        for (configured, token) in [
            (Some(hash.as_str()), None),
            (Some(hash.as_str()), Some("another")),
            (None, None),
        ] {
            assert!(
                matches!(
                    check_operator(configured, token),
                    Err(Error::Unauthorized(_))
                ),
                "{configured:?} {token:?}"
            );
        }
        // No operator key configured: the routes are off for any key.
        assert!(matches!(
            check_operator(None, Some("the operator")),
            Err(Error::Forbidden(_))
        ));
    }

    #[tokio::test]
    async fn names_are_checked() {
        let store = MemoryStore::new();
        for bad in ["", "   ", "a\u{7}b", &"x".repeat(81)] {
            assert!(create(&store, bad, &[]).await.is_err(), "{bad:?}");
        }
        assert!(store.apps().await.unwrap().is_empty());
    }
}
