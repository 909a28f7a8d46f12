//! Provable fairness (DESIGN.md §3): the seed, state hashes, the audit document and its
//! offline verification (`beurs verify`).

use crate::auth::sha256_hex;
use crate::game::{pause, undo};
use game_core::adapter::LoggedJson;
use game_core::{DynGame, GameRng, Outcome, Registry, Seat, Visibility};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use store::{GameRecord, SeedScheme};
use utoipa::ToSchema;

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
pub fn seed_of_record(record: &GameRecord) -> Result<[u8; 32], crate::error::ApiError> {
    let secret = parse_hex32(&record.server_secret).ok_or_else(|| {
        crate::error::ApiError::Internal(format!("game {} has a malformed secret", record.id))
    })?;
    let seats = u8::try_from(record.seats.len()).map_err(|_| {
        crate::error::ApiError::Internal(format!("game {} has too many seats", record.id))
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

/// The hash recorded after every log entry: SHA-256 (hex) of the state's JSON.
pub fn state_hash(state_json: &str) -> String {
    sha256_hex(state_json.as_bytes())
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

/// The stored form of an entry's action: the action and who may read it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredAction {
    /// The action (`null` for the setup entry).
    pub action: Value,
    /// Who may read it.
    pub visibility: Visibility,
    /// Who chose the move when it was not the seat's player: a bot, or the clock (a timeout).
    /// Entries written before this field existed have none: their player chose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<crate::dto::Author>,
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
    /// Where the game is in its life.
    pub status: crate::dto::GameStatus,
    /// Number of seats.
    pub seats: u8,
    /// The options the game was created with (normalised).
    #[schema(value_type = Object)]
    pub options: Value,
    /// SHA-256 (hex) of the server secret, published at creation.
    pub seed_commitment: String,
    /// How the seed is derived: `v2` (every new game) binds the id, ruleset, rules version,
    /// options and seat count into it; `v1` (games created before, and audits without this
    /// field) does not.
    #[serde(default)]
    #[schema(value_type = String, example = "v2")]
    pub seed_scheme: SeedScheme,
    /// The server secret (hex); only once the game is finished.
    pub server_secret: Option<String>,
    /// Each seat's entropy (null if it gave none); only once the game is finished.
    pub entropies: Option<Vec<Option<String>>>,
    /// The log: public projection while the game runs, complete once it is finished. One
    /// page of it when read over HTTP (`after`, `limit`).
    pub entries: Vec<AuditEntry>,
    /// The result, once finished.
    pub outcome: Option<Outcome>,
    /// The `after` of the next page of `entries`; null on the last page (and in a complete
    /// audit document), as in every list.
    #[serde(default)]
    pub next_after: Option<u64>,
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
    /// The document is one page of an audit (`next_after` is set): the rest of the log is
    /// not in it, so it cannot be replayed to the end. Nothing says it was tampered with.
    #[error(
        "this file holds one page of the audit: entries up to {last} of a longer log. Verify \
         the game's audit URL instead (`beurs verify https://…/v1/games/{{id}}/audit` fetches \
         every page), or join the pages fetched with `?after={after}` and on into one file"
    )]
    Incomplete {
        /// The last entry in the document.
        last: u64,
        /// Where the next page starts (`after`).
        after: u64,
    },
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
    if audit.status != crate::dto::GameStatus::Finished {
        return Err(VerifyError::NotFinished);
    }
    let secret_hex = audit
        .server_secret
        .as_deref()
        .ok_or(VerifyError::NotFinished)?;
    if let Some(after) = audit.next_after {
        let last = audit.entries.last().map_or(0, |entry| entry.seq);
        return Err(VerifyError::Incomplete { last, after });
    }
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
    let context = SeedContext {
        id: &audit.id,
        ruleset: &audit.ruleset,
        rules_version: audit.rules_version,
        options: &audit.options,
        seats: audit.seats,
    };
    let seed = seed_for(audit.seed_scheme, &secret, &context, entropies);
    let ruleset = registry
        .get(&audit.ruleset)
        .ok_or_else(|| VerifyError::UnknownRuleset(audit.ruleset.clone()))?;
    if !ruleset.serves_rules_version(audit.rules_version) {
        return Err(VerifyError::Malformed(format!(
            "the game was played under rules version {}, which this verifier (rules version {}) \
             no longer replays: verify it with the release that served it",
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
    let game = dealt.game;
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
    let mut replay = Replayer::new(game, seed);
    for (index, entry) in rest.iter().enumerate() {
        let seq = index as u64 + 1;
        let fail = |reason: String| VerifyError::Entry { seq, reason };
        if entry.seq != seq {
            return Err(fail(format!(
                "found seq {} where {seq} was expected",
                entry.seq
            )));
        }
        if let Some(seat) = entry.seat.filter(|&seat| seat >= audit.seats) {
            return Err(fail(format!("seat {seat} does not exist")));
        }
        let events: Vec<Value> = replay
            .entry(entry.seat, &entry.action)
            .map_err(fail)?
            .iter()
            .map(|logged| serde_json::to_value(logged).expect("events serialize"))
            .collect();
        if events != entry.events {
            return Err(fail(
                "the replayed events differ from the recorded ones".into(),
            ));
        }
        if Some(state_hash(&replay.game().state_json())) != entry.state_hash {
            return Err(fail("the state hash differs".into()));
        }
    }
    let game = replay.game();
    if game.outcome() != audit.outcome {
        return Err(VerifyError::OutcomeMismatch);
    }
    Ok(Verified {
        entries: audit.entries.len(),
    })
}

/// A game played forward from its log as the server played it: each move with the random
/// stream of its place among the moves still standing, each undo by returning to the state
/// before the move it takes back (docs/api.md, "Undo"). It keeps every move that may be taken
/// back as the server does, and refuses an undo the server could not have accepted.
pub struct Replayer {
    game: Box<dyn DynGame>,
    seed: [u8; 32],
    seq: u64,
    undone: u64,
    notes: u64,
    takebacks: Vec<(u64, u8, Box<dyn DynGame>)>,
}

impl Replayer {
    /// A replay of the game `game` was dealt as, by `seed` (after entry 0).
    pub fn new(game: Box<dyn DynGame>, seed: [u8; 32]) -> Replayer {
        Replayer {
            game,
            seed,
            seq: 0,
            undone: 0,
            notes: 0,
            takebacks: Vec::new(),
        }
    }

    /// The game after the entries replayed so far.
    pub fn game(&self) -> &dyn DynGame {
        self.game.as_ref()
    }

    /// Replays the next log entry, `action` by `seat` (none for the admin's notes, a pause or
    /// a resume): the events it caused, or why it does not replay.
    pub fn entry(&mut self, seat: Option<u8>, action: &Value) -> Result<Vec<LoggedJson>, String> {
        match seat {
            Some(seat) => self.step(seat, action),
            None if pause::is_note(action) => self.step(0, action),
            None => Err("an action entry has no seat".into()),
        }
    }

    /// Replays the next entry, `action` by `seat`: the events it caused (none for an undo or
    /// a note), or why it does not replay.
    pub fn step(&mut self, seat: u8, action: &Value) -> Result<Vec<LoggedJson>, String> {
        let seq = self.seq + 1;
        if pause::is_note(action) {
            // A pause or a vacation: time stood still, nothing in the game changed.
            self.notes += 1;
            self.seq = seq;
            return Ok(Vec::new());
        }
        if undo::is_undo(action) {
            let taken = action.get("move").and_then(Value::as_u64);
            let Some((move_seq, mover, before)) = self.takebacks.pop() else {
                return Err("an undo, with no move that could be taken back".into());
            };
            if mover != seat || Some(move_seq) != taken {
                return Err(format!(
                    "an undo of move {taken:?} by seat {seat}, where the move that could be taken \
                     back was {move_seq} by seat {mover}"
                ));
            }
            self.game = before;
            self.undone += 1;
            self.seq = seq;
            return Ok(Vec::new());
        }
        let before = self.game.clone_box();
        let mut rng =
            GameRng::for_entry(self.seed, pause::stream_index(seq, self.notes, self.undone));
        let applied = self
            .game
            .apply_json(Seat(seat), action, &mut rng)
            .map_err(|error| format!("the action is refused: {error}"))?;
        // As the server keeps them (game::undo::after_move), except that the audit does not
        // say who chose a move: a bot's or the clock's move that could be taken back is kept
        // too. The server's list is then a tail of this one, so every undo it accepted pops
        // the same move here.
        if !applied.undoable || self.takebacks.last().is_some_and(|last| last.1 != seat) {
            self.takebacks.clear();
        }
        if applied.undoable {
            if self.takebacks.len() == undo::MAX_TAKEBACKS {
                self.takebacks.remove(0);
            }
            self.takebacks.push((seq, seat, before));
        }
        self.seq = seq;
        Ok(applied.events)
    }
}

/// The stored events of an entry, parsed.
pub fn stored_events(events: &Value) -> Vec<LoggedJson> {
    serde_json::from_value(events.clone()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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

    /// A game of Tulipmania 1637 played to its end by random seats under `scheme`, and its
    /// audit, built as the audit route builds it.
    fn finished_audit(scheme: SeedScheme) -> Audit {
        let registry = crate::catalog::registry();
        let ruleset = registry.get("tulipmania-1637").expect("registered");
        let options = ruleset
            .normalize_options(&serde_json::json!({"max_turns": 60}))
            .expect("options");
        let secret = [7u8; 32];
        let entropies = vec![Some("anna".to_string()), None, Some("cor".to_string())];
        let mut audit = Audit {
            id: "g_0123456789abcdefghij".into(),
            ruleset: ruleset.id().into(),
            rules_version: ruleset.rules_version(),
            status: crate::dto::GameStatus::Finished,
            seats: 3,
            options,
            seed_commitment: commitment_of(&secret),
            seed_scheme: scheme,
            server_secret: Some(secret_hex(&secret)),
            entropies: Some(entropies.clone()),
            entries: Vec::new(),
            outcome: None,
            next_after: None,
        };
        let context = SeedContext {
            id: &audit.id,
            ruleset: &audit.ruleset,
            rules_version: audit.rules_version,
            options: &audit.options,
            seats: audit.seats,
        };
        let seed = seed_for(scheme, &secret, &context, &entropies);
        let mut game = ruleset.setup(3, &audit.options, seed).expect("setup");
        let mut entries = vec![AuditEntry {
            seq: 0,
            seat: None,
            action: Value::Null,
            events: Vec::new(),
            state_hash: Some(state_hash(&game.state_json())),
        }];
        let mut bot = GameRng::for_entry([9u8; 32], 0);
        for _ in 0..100_000 {
            if game.outcome().is_some() {
                break;
            }
            let to_act: Vec<Seat> = game.to_act().iter().collect();
            let seat = *bot.choose(&to_act).expect("someone is to act");
            let legal = game.legal_actions(seat);
            let Some(action) = game_core::testing::random_action_json(&legal, &mut bot) else {
                continue;
            };
            let seq = entries.len() as u64;
            let mut rng = GameRng::for_entry(seed, seq);
            let Ok(applied) = game.apply_json(seat, &action, &mut rng) else {
                continue;
            };
            entries.push(AuditEntry {
                seq,
                seat: Some(seat.0),
                action,
                events: applied
                    .events
                    .iter()
                    .map(|logged| serde_json::to_value(logged).expect("events serialize"))
                    .collect(),
                state_hash: Some(state_hash(&game.state_json())),
            });
        }
        audit.outcome = game.outcome();
        assert!(audit.outcome.is_some(), "the game did not finish");
        audit.entries = entries;
        audit
    }

    /// Whether `audit` fails to verify because its replay differs (not for a trivial reason
    /// such as a malformed field): the seed, and so the replay, changed.
    fn replay_differs(audit: &Audit) -> bool {
        matches!(
            verify(&crate::catalog::registry(), audit),
            Err(VerifyError::Setup(_) | VerifyError::Entry { .. } | VerifyError::OutcomeMismatch)
        )
    }

    /// The replay of `moves` (seat, action) from a deal of `ruleset` by `seed`.
    fn replayed(ruleset: &str, seed: [u8; 32], moves: &[(u8, Value)]) -> Replayer {
        let registry = crate::catalog::registry();
        let ruleset = registry.get(ruleset).expect("registered");
        let (fewest, most) = ruleset.seat_range();
        let options = ruleset.normalize_options(&Value::Null).expect("defaults");
        let game = ruleset
            .setup(3.clamp(fewest, most), &options, seed)
            .expect("dealt");
        let mut replay = Replayer::new(game, seed);
        for (seat, action) in moves {
            replay.step(*seat, action).expect("replays");
        }
        replay
    }

    /// In every ruleset, a move taken back changes nothing that follows: after move M and
    /// its undo, the next move draws, causes and leaves exactly what it does when M was never
    /// made (its stream is that of its place among the standing moves). And a move that drew
    /// cannot be taken back, so nothing can be re-rolled.
    #[test]
    fn an_undone_move_does_not_change_the_next_draw() {
        let seed = [5u8; 32];
        for ruleset in crate::catalog::registry().iter() {
            let id = ruleset.id();
            let mut moves: Vec<(u8, Value)> = Vec::new();
            let mut main = replayed(id, seed, &[]);
            let mut bot = GameRng::for_entry([10u8; 32], 0);
            let mut compared = 0;
            for _ in 0..400 {
                let game = main.game();
                if game.outcome().is_some() || compared == 3 {
                    break;
                }
                let to_act: Vec<Seat> = game.to_act().iter().collect();
                let seat = *bot.choose(&to_act).expect("someone is to act");
                let legal = game.legal_actions(seat);
                let Some(action) = game_core::testing::random_action_json(&legal, &mut bot) else {
                    continue;
                };
                let mut copy = game.clone_box();
                let mut stream =
                    GameRng::for_entry(seed, undo::stream_index(moves.len() as u64 + 1, 0));
                let Ok(applied) = copy.apply_json(seat, &action, &mut stream) else {
                    continue;
                };
                assert!(
                    !(applied.undoable && stream.drawn()),
                    "{id}: a move that drew may be taken back"
                );
                if applied.undoable {
                    // Without the move, then the same next move in both worlds.
                    let without = replayed(id, seed, &moves);
                    let mut with = replayed(id, seed, &moves);
                    with.step(seat.0, &action).expect("replays");
                    with.step(seat.0, &json!({"type": "undo", "move": moves.len() + 1}))
                        .expect("the move may be taken back");
                    assert_eq!(with.game().state_json(), without.game().state_json());
                    let mut without = without;
                    let next_seat = *bot
                        .choose(&without.game().to_act().iter().collect::<Vec<_>>())
                        .expect("someone is to act");
                    let next_legal = without.game().legal_actions(next_seat);
                    if let Some(next) =
                        game_core::testing::random_action_json(&next_legal, &mut bot)
                    {
                        let expected = without.step(next_seat.0, &next);
                        let got = with.step(next_seat.0, &next);
                        assert_eq!(got.is_ok(), expected.is_ok(), "{id}");
                        if let (Ok(got), Ok(expected)) = (got, expected) {
                            let as_json = |events: Vec<LoggedJson>| -> Vec<Value> {
                                events
                                    .iter()
                                    .map(|logged| serde_json::to_value(logged).expect("JSON"))
                                    .collect()
                            };
                            assert_eq!(as_json(got), as_json(expected), "{id}: the next move");
                            assert_eq!(with.game().state_json(), without.game().state_json());
                            compared += 1;
                        }
                    }
                }
                main.step(seat.0, &action).expect("replays");
                moves.push((seat.0, action));
            }
            assert!(
                compared >= 1,
                "{id}: no move that may be taken back was met"
            );
        }
    }

    #[test]
    fn a_finished_games_audit_verifies_under_either_scheme() {
        let registry = crate::catalog::registry();
        for scheme in [SeedScheme::V1, SeedScheme::V2] {
            let audit = finished_audit(scheme);
            let verified = verify(&registry, &audit).expect("verifies");
            assert_eq!(verified.entries, audit.entries.len());
        }
    }

    #[test]
    fn a_v2_audit_with_another_id_ruleset_options_or_seats_does_not_verify() {
        let audit = finished_audit(SeedScheme::V2);
        let registry = crate::catalog::registry();

        let mut id = audit.clone();
        id.id = "g_someothergame000000".into();
        assert!(replay_differs(&id), "a changed id verified");

        let mut options = audit.clone();
        options.options["max_turns"] = serde_json::json!(61);
        assert!(replay_differs(&options), "changed options verified");

        // Another seat count (with an entropy for the extra seat, so the shape is right).
        let mut seats = audit.clone();
        seats.seats = 4;
        seats.entropies.as_mut().expect("entropies").push(None);
        assert!(
            verify(&registry, &seats).is_err(),
            "a changed seat count verified"
        );

        // Another ruleset: no other ruleset replays these actions, and the seed changes too.
        let mut ruleset = audit.clone();
        ruleset.ruleset = "tulip-bubble".into();
        ruleset.rules_version = registry
            .get("tulip-bubble")
            .expect("registered")
            .rules_version();
        assert!(
            verify(&registry, &ruleset).is_err(),
            "a changed ruleset verified"
        );

        // Claiming the legacy scheme to escape the binding changes the seed as well.
        let mut downgraded = id.clone();
        downgraded.seed_scheme = SeedScheme::V1;
        assert!(replay_differs(&downgraded), "a downgraded scheme verified");
    }

    #[test]
    fn legacy_audits_still_verify_and_do_not_bind_the_id() {
        let audit = finished_audit(SeedScheme::V1);
        // An audit file written before the scheme existed has no `seed_scheme` field.
        let mut json = serde_json::to_value(&audit).expect("serializes");
        assert_eq!(json["seed_scheme"], "v1");
        json.as_object_mut().expect("object").remove("seed_scheme");
        let old: Audit = serde_json::from_value(json).expect("an old audit parses");
        assert_eq!(old.seed_scheme, SeedScheme::V1);
        let registry = crate::catalog::registry();
        assert!(verify(&registry, &old).is_ok());
        // The documented limit of scheme 1: the id is not bound.
        let mut id = old.clone();
        id.id = "g_someothergame000000".into();
        assert!(verify(&registry, &id).is_ok());
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
