//! The game seed (DESIGN.md §3): committed before the first card is dealt, derived from the
//! server secret, the game as it was created (scheme 2) and every seat's entropy. Each log
//! entry's draws come from the stream of its place ([`crate::log::stream_index`]).

use crate::auth::sha256_hex;
use serde_json::Value;
use sha2::{Digest, Sha256};
use store::{GameRecord, SeedScheme};

/// The scheme-1 game seed: `sha256(server_secret ‖ sha256(entropy_0) ‖ … ‖ sha256(entropy_n-1))`.
/// A seat that gave no entropy contributes the hash of the empty string.
///
/// Scheme 1 does not bind the game's id, ruleset or options: games created before scheme 2
/// keep it (their record and audit say `v1`, or nothing). New games use [`seed_v2`].
pub fn seed_of(server_secret: &[u8; 32], entropies: &[Option<String>]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(server_secret);
    for entropy in entropies {
        hasher.update(Sha256::digest(entropy.as_deref().unwrap_or("").as_bytes()));
    }
    hasher.finalize().into()
}

/// The domain-separation prefix of scheme 2.
const SEED_V2_PREFIX: &[u8] = b"beurs-seed-v2";

/// What scheme 2 binds into the seed: the game as it was created.
#[derive(Clone, Copy, Debug)]
pub struct SeedContext<'a> {
    /// The game id.
    pub id: &'a str,
    /// The ruleset id.
    pub ruleset: &'a str,
    /// The rules version.
    pub rules_version: u32,
    /// The normalised options.
    pub options: &'a Value,
    /// The number of seats.
    pub seats: u8,
}

impl SeedContext<'_> {
    /// The canonical JSON of `{id, options, rules_version, ruleset, seats}`: keys sorted at
    /// every depth, no whitespace (whatever order the options were stored in).
    pub fn canonical_json(&self) -> String {
        let context = serde_json::json!({
            "id": self.id,
            "ruleset": self.ruleset,
            "rules_version": self.rules_version,
            "options": self.options,
            "seats": self.seats,
        });
        let mut out = String::new();
        write_canonical(&context, &mut out);
        out
    }
}

/// JSON with object keys sorted (by their UTF-8 bytes) at every depth and no whitespace.
fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (index, key) in keys.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(&map[key.as_str()], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// The scheme-2 game seed: `sha256("beurs-seed-v2" ‖ server_secret ‖ sha256(context) ‖
/// sha256(entropy_0) ‖ … ‖ sha256(entropy_n-1))`, where `context` is
/// [`SeedContext::canonical_json`]. Changing the id, ruleset, rules version, options or seat
/// count changes the seed, so the replay no longer matches the recorded state hashes.
pub fn seed_v2(
    server_secret: &[u8; 32],
    context: &SeedContext<'_>,
    entropies: &[Option<String>],
) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(SEED_V2_PREFIX);
    hasher.update(server_secret);
    hasher.update(Sha256::digest(context.canonical_json().as_bytes()));
    for entropy in entropies {
        hasher.update(Sha256::digest(entropy.as_deref().unwrap_or("").as_bytes()));
    }
    hasher.finalize().into()
}

/// The seed of a game under `scheme`.
pub fn seed_for(
    scheme: SeedScheme,
    server_secret: &[u8; 32],
    context: &SeedContext<'_>,
    entropies: &[Option<String>],
) -> [u8; 32] {
    match scheme {
        SeedScheme::V1 => seed_of(server_secret, entropies),
        SeedScheme::V2 => seed_v2(server_secret, context, entropies),
    }
}

/// The seed of a started game, under the scheme its record names.
pub fn seed_of_record(record: &GameRecord) -> Result<[u8; 32], crate::error::Error> {
    let secret = parse_hex32(&record.server_secret).ok_or_else(|| {
        crate::error::Error::Internal(format!("game {} has a malformed secret", record.id))
    })?;
    let seats = u8::try_from(record.seats.len()).map_err(|_| {
        crate::error::Error::Internal(format!("game {} has too many seats", record.id))
    })?;
    let entropies: Vec<Option<String>> = record
        .seats
        .iter()
        .map(|seat| seat.entropy.clone())
        .collect();
    let context = SeedContext {
        id: &record.id,
        ruleset: &record.ruleset,
        rules_version: record.rules_version,
        options: &record.options,
        seats,
    };
    Ok(seed_for(record.seed_scheme, &secret, &context, &entropies))
}

/// Parses a 32-byte value from 64 hex digits.
pub fn parse_hex32(text: &str) -> Option<[u8; 32]> {
    let mut bytes = [0u8; 32];
    hex::decode_to_slice(text, &mut bytes).ok()?;
    Some(bytes)
}

/// The commitment published at creation: SHA-256 (hex) of the server secret.
pub fn commitment_of(server_secret: &[u8; 32]) -> String {
    sha256_hex(server_secret)
}

/// A new server secret, as hex.
pub fn secret_hex(secret: &[u8; 32]) -> String {
    hex::encode(secret)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_depends_on_every_entropy() {
        let secret = [1u8; 32];
        let base = seed_of(&secret, &[Some("a".into()), None]);
        assert_ne!(base, seed_of(&secret, &[Some("b".into()), None]));
        assert_ne!(
            base,
            seed_of(&secret, &[Some("a".into()), Some("x".into())])
        );
        assert_ne!(base, seed_of(&[2u8; 32], &[Some("a".into()), None]));
        // No entropy and empty entropy are the same contribution.
        assert_eq!(
            base,
            seed_of(&secret, &[Some("a".into()), Some(String::new())])
        );
    }

    #[test]
    fn seed_of_record_follows_the_records_scheme() {
        let mut record = store::testing::sample_record("g_abc");
        record.seed_scheme = SeedScheme::V1;
        let secret = parse_hex32(&record.server_secret).expect("hex");
        let entropies: Vec<Option<String>> = record
            .seats
            .iter()
            .map(|seat| seat.entropy.clone())
            .collect();
        assert_eq!(
            seed_of_record(&record).expect("seed"),
            seed_of(&secret, &entropies)
        );
        // A record stored before the field existed is scheme 1: it plays on as it did.
        let mut json = serde_json::to_value(&record).expect("serializes");
        json.as_object_mut().expect("object").remove("seed_scheme");
        let old: GameRecord = serde_json::from_value(json).expect("parses");
        assert_eq!(old.seed_scheme, SeedScheme::V1);
        assert_eq!(
            seed_of_record(&old).expect("seed"),
            seed_of(&secret, &entropies)
        );

        record.seed_scheme = SeedScheme::V2;
        let context = SeedContext {
            id: &record.id,
            ruleset: &record.ruleset,
            rules_version: record.rules_version,
            options: &record.options,
            seats: 3,
        };
        let v2 = seed_of_record(&record).expect("seed");
        assert_eq!(v2, seed_v2(&secret, &context, &entropies));
        assert_ne!(v2, seed_of(&secret, &entropies));
        record.id = "g_abd".into();
        assert_ne!(
            seed_of_record(&record).expect("seed"),
            v2,
            "the id is bound"
        );
    }

    #[test]
    fn the_context_is_canonical_json() {
        let options = serde_json::json!({"b": [1, {"y": true, "x": null}], "a": "é\"q"});
        let context = SeedContext {
            id: "g_1",
            ruleset: "r",
            rules_version: 2,
            options: &options,
            seats: 3,
        };
        assert_eq!(
            context.canonical_json(),
            r#"{"id":"g_1","options":{"a":"é\"q","b":[1,{"x":null,"y":true}]},"rules_version":2,"ruleset":"r","seats":3}"#
        );
    }

    #[test]
    fn hex_round_trip() {
        let secret = [0xabu8; 32];
        assert_eq!(parse_hex32(&secret_hex(&secret)), Some(secret));
        assert_eq!(parse_hex32("zz"), None);
        assert_eq!(parse_hex32(&"é".repeat(32)), None);
        assert_eq!(parse_hex32(&"+f".repeat(32)), None, "a sign is not a digit");
    }
}
