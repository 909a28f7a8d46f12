//! Provable fairness (DESIGN.md §3): the audit document of a finished game and its offline
//! verification (`beurs verify`). The seed is [`crate::seed`]'s; the log's format and its one
//! replayer are [`crate::log`]'s.

use crate::log::{state_hash, Replayer};
use crate::seed::{commitment_of, parse_hex32, seed_for, SeedContext};
use game_core::{Outcome, Registry};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use store::SeedScheme;
use utoipa::ToSchema;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::secret_hex;
    use game_core::adapter::LoggedJson;
    use game_core::{GameRng, Seat};
    use serde_json::json;

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
        for ruleset in crate::catalog::registry().iter() {
            let id = ruleset.id();
            // Games under chosen seeds until one meets a move that may be taken back.
            let tried: Vec<u8> = (0..8).collect();
            let met = tried
                .iter()
                .find(|&&game| undone_moves_compared(id, [5 + game; 32], [10 + game; 32]) >= 1);
            assert!(
                met.is_some(),
                "{id}: no move that may be taken back was met in the games of seeds {tried:?}"
            );
        }
    }

    /// Plays a game of `id` dealt by `seed`, its moves drawn by `bot`, and at each move that may
    /// be taken back (up to three) compares the game with the move taken back to the game
    /// without it, and then one more move in both; how many it compared.
    fn undone_moves_compared(id: &str, seed: [u8; 32], bot: [u8; 32]) -> usize {
        let mut moves: Vec<(u8, Value)> = Vec::new();
        let mut main = replayed(id, seed, &[]);
        let mut bot = GameRng::for_entry(bot, 0);
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
            let mut stream = GameRng::for_entry(seed, moves.len() as u64 + 1);
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
                if let Some(next) = game_core::testing::random_action_json(&next_legal, &mut bot) {
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
        compared
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
}
