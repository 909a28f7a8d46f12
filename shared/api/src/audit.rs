//! Provable fairness (DESIGN.md §3): the seed, state hashes, the audit document and its
//! offline verification (`beurs verify`).

use crate::auth::{hex, sha256_hex};
use game_core::adapter::LoggedJson;
use game_core::{GameRng, Outcome, Registry, Seat, Visibility};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use store::GameRecord;
use utoipa::ToSchema;

/// The game seed: `sha256(server_secret ‖ sha256(entropy_0) ‖ … ‖ sha256(entropy_n-1))`.
/// A seat that gave no entropy contributes the hash of the empty string.
pub fn seed_of(server_secret: &[u8; 32], entropies: &[Option<String>]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(server_secret);
    for entropy in entropies {
        hasher.update(Sha256::digest(entropy.as_deref().unwrap_or("").as_bytes()));
    }
    hasher.finalize().into()
}

/// The seed of a started game.
pub fn seed_of_record(record: &GameRecord) -> Result<[u8; 32], crate::error::ApiError> {
    let secret = parse_hex32(&record.server_secret).ok_or_else(|| {
        crate::error::ApiError::Internal(format!("game {} has a malformed secret", record.id))
    })?;
    let entropies: Vec<Option<String>> = record
        .seats
        .iter()
        .map(|seat| seat.entropy.clone())
        .collect();
    Ok(seed_of(&secret, &entropies))
}

/// The hash recorded after every log entry: SHA-256 (hex) of the state's JSON.
pub fn state_hash(state_json: &str) -> String {
    sha256_hex(state_json.as_bytes())
}

/// Parses a 32-byte value from 64 hex digits.
pub fn parse_hex32(text: &str) -> Option<[u8; 32]> {
    if text.len() != 64 || !text.is_ascii() {
        return None;
    }
    let mut bytes = [0u8; 32];
    for (index, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * index..2 * index + 2], 16).ok()?;
    }
    Some(bytes)
}

/// The commitment published at creation: SHA-256 (hex) of the server secret.
pub fn commitment_of(server_secret: &[u8; 32]) -> String {
    sha256_hex(server_secret)
}

/// A new server secret, as hex.
pub fn secret_hex(secret: &[u8; 32]) -> String {
    hex(secret)
}

/// The stored form of an entry's action: the action and who may read it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredAction {
    /// The action (`null` for the setup entry).
    pub action: Value,
    /// Who may read it.
    pub visibility: Visibility,
}

/// The audit of a game: everything needed to check that nothing was rigged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Audit {
    /// The game id.
    pub id: String,
    /// The ruleset id.
    pub ruleset: String,
    /// The rules version the game was played under.
    pub rules_version: u32,
    /// `open`, `active` or `finished`.
    pub status: String,
    /// Number of seats.
    pub seats: u8,
    /// The options the game was created with (normalised).
    #[schema(value_type = Object)]
    pub options: Value,
    /// SHA-256 (hex) of the server secret, published at creation.
    pub seed_commitment: String,
    /// The server secret (hex); only once the game is finished.
    pub server_secret: Option<String>,
    /// Each seat's entropy (null if it gave none); only once the game is finished.
    pub entropies: Option<Vec<Option<String>>>,
    /// The log: public projection while the game runs, complete once it is finished.
    pub entries: Vec<AuditEntry>,
    /// The result, once finished.
    pub outcome: Option<Outcome>,
}

/// One log entry in an audit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AuditEntry {
    /// Position in the log; 0 is the setup.
    pub seq: u64,
    /// The acting seat (null for the setup).
    pub seat: Option<u8>,
    /// The action (null for the setup, or while hidden).
    #[schema(value_type = Object, nullable)]
    pub action: Value,
    /// The events. While the game runs: the public ones only. Once finished: every event with
    /// its visibility.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Value>,
    /// SHA-256 (hex) of the engine state after this entry; only once finished.
    pub state_hash: Option<String>,
}

/// Why an audit does not verify.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The audit is of a game that has not finished, so the secret is not in it.
    #[error("the game is not finished, so the audit does not reveal its secret yet")]
    NotFinished,
    /// Malformed audit.
    #[error("malformed audit: {0}")]
    Malformed(String),
    /// The secret does not hash to the commitment.
    #[error("the server secret does not hash to the published commitment")]
    CommitmentMismatch,
    /// Unknown ruleset.
    #[error("unknown ruleset {0}")]
    UnknownRuleset(String),
    /// Setup failed or differs.
    #[error("entry 0 (setup): {0}")]
    Setup(String),
    /// An entry does not replay.
    #[error("entry {seq}: {reason}")]
    Entry {
        /// The entry.
        seq: u64,
        /// What differs.
        reason: String,
    },
    /// The outcome differs.
    #[error("the recorded outcome differs from the replayed one")]
    OutcomeMismatch,
}

/// What a successful verification checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// Entries replayed (setup included).
    pub entries: usize,
}

/// Verifies a finished game's audit offline: recomputes the commitment and the seed, replays
/// the setup and every action with the stream of its entry, and compares every event list and
/// state hash, then the outcome.
pub fn verify(registry: &Registry, audit: &Audit) -> Result<Verified, VerifyError> {
    if audit.status != "finished" {
        return Err(VerifyError::NotFinished);
    }
    let secret_hex = audit
        .server_secret
        .as_deref()
        .ok_or(VerifyError::NotFinished)?;
    let secret = parse_hex32(secret_hex)
        .ok_or_else(|| VerifyError::Malformed("server_secret is not 64 hex digits".into()))?;
    if commitment_of(&secret) != audit.seed_commitment {
        return Err(VerifyError::CommitmentMismatch);
    }
    let entropies = audit.entropies.as_ref().ok_or(VerifyError::NotFinished)?;
    if entropies.len() != usize::from(audit.seats) {
        return Err(VerifyError::Malformed(
            "one entropy per seat is expected".into(),
        ));
    }
    let seed = seed_of(&secret, entropies);
    let ruleset = registry
        .get(&audit.ruleset)
        .ok_or_else(|| VerifyError::UnknownRuleset(audit.ruleset.clone()))?;
    if ruleset.rules_version() != audit.rules_version {
        return Err(VerifyError::Malformed(format!(
            "the game was played under rules version {}, this verifier has {}",
            audit.rules_version,
            ruleset.rules_version()
        )));
    }
    let (first, rest) = audit
        .entries
        .split_first()
        .ok_or_else(|| VerifyError::Malformed("the log is empty".into()))?;
    if first.seq != 0 {
        return Err(VerifyError::Malformed(
            "the first entry is not the setup".into(),
        ));
    }
    let dealt = ruleset
        .deal(audit.seats, &audit.options, seed)
        .map_err(|error| VerifyError::Setup(error.to_string()))?;
    let mut game = dealt.game;
    if Some(state_hash(&game.state_json())) != first.state_hash {
        return Err(VerifyError::Setup("the state hash differs".into()));
    }
    // An empty entry 0 was recorded before setup returned its events; the state hash above
    // still binds the deal. Otherwise the setup events must match like any entry's.
    let setup_events: Vec<Value> = dealt
        .events
        .iter()
        .map(|logged| serde_json::to_value(logged).expect("events serialize"))
        .collect();
    if !first.events.is_empty() && setup_events != first.events {
        return Err(VerifyError::Setup(
            "the replayed setup events differ from the recorded ones".into(),
        ));
    }
    for (index, entry) in rest.iter().enumerate() {
        let seq = index as u64 + 1;
        let fail = |reason: String| VerifyError::Entry { seq, reason };
        if entry.seq != seq {
            return Err(fail(format!(
                "found seq {} where {seq} was expected",
                entry.seq
            )));
        }
        let seat = entry
            .seat
            .ok_or_else(|| fail("an action entry has no seat".into()))?;
        if seat >= audit.seats {
            return Err(fail(format!("seat {seat} does not exist")));
        }
        let mut rng = GameRng::for_entry(seed, seq);
        let applied = game
            .apply_json(Seat(seat), &entry.action, &mut rng)
            .map_err(|error| fail(format!("the action is refused: {error}")))?;
        let events: Vec<Value> = applied
            .events
            .iter()
            .map(|logged| serde_json::to_value(logged).expect("events serialize"))
            .collect();
        if events != entry.events {
            return Err(fail(
                "the replayed events differ from the recorded ones".into(),
            ));
        }
        if Some(state_hash(&game.state_json())) != entry.state_hash {
            return Err(fail("the state hash differs".into()));
        }
    }
    if game.outcome() != audit.outcome {
        return Err(VerifyError::OutcomeMismatch);
    }
    Ok(Verified {
        entries: audit.entries.len(),
    })
}

/// The stored events of an entry, parsed.
pub fn stored_events(events: &Value) -> Vec<LoggedJson> {
    serde_json::from_value(events.clone()).unwrap_or_default()
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
    fn hex_round_trip() {
        let secret = [0xabu8; 32];
        assert_eq!(parse_hex32(&secret_hex(&secret)), Some(secret));
        assert_eq!(parse_hex32("zz"), None);
        assert_eq!(parse_hex32(&"é".repeat(32)), None);
    }
}
