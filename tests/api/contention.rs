//! Contention: 64 clients hammer four games at once for 40 rounds each, with random legal
//! moves, idempotent retries (concurrent and late) and stale `If-Match`es. Afterwards every
//! acknowledged move must be in the log exactly once where its response said, nothing else
//! may be there, the log must replay to the stored state, and every answer must have been a
//! documented status with a documented code.

use crate::options_for;
use api_tests::{spawn_app, StartedGame, TestApp};
use game_core::GameRng;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

const CLIENTS: usize = 64;
/// Each client plays `MAX_ROUNDS` rounds: the amount of contention is counted in requests,
/// not in seconds, so a busy machine gets the same test as an idle one, only slower.
/// `HAMMER_FOR` is a safety cap that a working server never reaches.
const MAX_ROUNDS: usize = 40;
const HAMMER_FOR: Duration = Duration::from_secs(120);

/// The games: two Tulipmania tables (whose sealed commit phase lets every seat but the
/// seller act at once) and two strictly turn-based games.
const TABLES: [(&str, u8); 4] = [
    ("tulipmania-1637", 5),
    ("tulipmania-1637", 4),
    ("tulpenfieber", 4),
    ("tulip-bubble", 3),
];

/// One request a client sent and what came back.
#[derive(Debug)]
struct Sent {
    game: usize,
    seat: u8,
    key: Option<String>,
    action: Value,
    /// The `If-Match` was deliberately older than the version the client had seen.
    stale: bool,
    status: u16,
    body: Vec<u8>,
}

impl Sent {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

/// The codes each status may carry on this route under contention (docs/api.md).
fn documented(status: u16, code: &str) -> bool {
    let turn_order = ["not-your-turn", "already-committed", "game-over"];
    match status {
        // An undo listed before another client's move, which ended it, is refused so.
        409 => turn_order.contains(&code) || code == "version-conflict" || code == "cannot-undo",
        412 => code == "stale-version",
        // A rule's own code: kebab-case, and neither a turn-order code nor another ruleset's.
        422 => {
            !code.is_empty()
                && code.split('-').all(|word| {
                    !word.is_empty()
                        && word
                            .bytes()
                            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit())
                })
                && !turn_order.contains(&code)
                && code != "wrong-ruleset"
        }
        _ => false,
    }
}

/// One client: a few dozen rounds of look, choose, submit (and sometimes resubmit).
async fn client(
    app: Arc<TestApp>,
    games: Arc<Vec<StartedGame>>,
    index: usize,
    deadline: tokio::time::Instant,
) -> Vec<Sent> {
    let table = index % games.len();
    let game = &games[table];
    let seats = game.tokens.len() as u8;
    let mut bot = GameRng::for_entry([0xC0; 32], index as u64);
    let mut sent: Vec<Sent> = Vec::new();
    // Keys this client used, with the seat and action, for late resends.
    let mut keys: Vec<(u8, String, Value)> = Vec::new();
    let mut last_action: Option<Value> = None;
    for round in 0..MAX_ROUNDS {
        if tokio::time::Instant::now() >= deadline {
            break;
        }
        let envelope = app.get(&format!("/v1/games/{}", game.id), None).await;
        assert_eq!(envelope.status, 200, "{}", envelope.text());
        let envelope = envelope.json();
        let to_act: Vec<u8> = envelope["to_act"]
            .as_array()
            .expect("to_act")
            .iter()
            .filter_map(Value::as_u64)
            .map(|seat| seat as u8)
            .collect();

        // A late resend of an earlier key, sometimes with a different body: the first
        // acknowledged response must come back whatever the body says.
        if !keys.is_empty() && bot.below(5) == 0 {
            let (seat, key, action) = keys[bot.index(keys.len())].clone();
            let action = match &last_action {
                Some(other) if bot.below(2) == 0 => other.clone(),
                _ => action,
            };
            let reply = submit(&app, game, seat, &action, Some(&key), None).await;
            sent.push(record(table, seat, Some(key), action, false, reply));
        }

        // Mostly a seat that may act; sometimes any seat (not-your-turn, already-committed).
        let seat = match bot.choose(&to_act) {
            Some(&seat) if bot.below(5) != 0 => seat,
            _ => bot.below(u64::from(seats)) as u8,
        };
        let legal = app
            .get(
                &format!("/v1/games/{}/legal-actions", game.id),
                Some(&game.tokens[usize::from(seat)]),
            )
            .await;
        assert_eq!(legal.status, 200, "{}", legal.text());
        let legal = legal.json();
        let version = legal["version"].as_u64().expect("version");
        let entries = legal["actions"].as_array().cloned().unwrap_or_default();
        // A seat that may not act has nothing listed: it resends its last move instead.
        let Some(action) = game_core::testing::random_action_json(&entries, &mut bot)
            .or_else(|| last_action.clone())
        else {
            continue;
        };
        last_action = Some(action.clone());

        let roll = bot.below(20);
        if roll < 2 {
            // A deliberately stale If-Match (and no key): always 412.
            let stale = version.saturating_sub(1 + bot.below(3));
            let reply = submit(&app, game, seat, &action, None, Some(stale)).await;
            sent.push(record(table, seat, None, action, true, reply));
            continue;
        }
        // If-Match with the version just seen: 200, or 412 if someone moved meanwhile.
        let if_match = (roll < 7).then_some(version);
        let key = (bot.below(3) == 0).then(|| format!("client-{index}-round-{round}"));
        if let Some(key) = &key {
            keys.push((seat, key.clone(), action.clone()));
        }
        if key.is_some() && bot.below(3) == 0 {
            // The same key twice at the same moment: one move at most, one response.
            let (first, second) = tokio::join!(
                submit(&app, game, seat, &action, key.as_deref(), if_match),
                submit(&app, game, seat, &action, key.as_deref(), if_match),
            );
            sent.push(record(
                table,
                seat,
                key.clone(),
                action.clone(),
                false,
                first,
            ));
            sent.push(record(table, seat, key, action, false, second));
        } else {
            let reply = submit(&app, game, seat, &action, key.as_deref(), if_match).await;
            sent.push(record(table, seat, key, action, false, reply));
        }
    }
    sent
}

async fn submit(
    app: &TestApp,
    game: &StartedGame,
    seat: u8,
    action: &Value,
    key: Option<&str>,
    if_match: Option<u64>,
) -> api_tests::Reply {
    let if_match = if_match.map(|version| format!("\"{version}\""));
    let mut extra: Vec<(&str, &str)> = Vec::new();
    if let Some(key) = key {
        extra.push(("idempotency-key", key));
    }
    if let Some(version) = &if_match {
        extra.push(("if-match", version));
    }
    app.post(
        &format!("/v1/games/{}/actions", game.id),
        Some(&game.tokens[usize::from(seat)]),
        &json!({ "action": action }),
        &extra,
    )
    .await
}

fn record(
    game: usize,
    seat: u8,
    key: Option<String>,
    action: Value,
    stale: bool,
    reply: api_tests::Reply,
) -> Sent {
    Sent {
        game,
        seat,
        key,
        action,
        stale,
        status: reply.status,
        body: reply.body,
    }
}

/// An acknowledged move: one request without a key, or every request with one key.
#[derive(Debug)]
struct Acked {
    seat: u8,
    key: Option<String>,
    /// The actions sent (one, or every body sent with the key).
    actions: Vec<Value>,
    seq: u64,
    version: u64,
}

/// Checks every answer's status and code, and groups the 200s into acknowledged moves.
fn acknowledged(sent: &[Sent], tables: usize) -> Vec<Vec<Acked>> {
    let mut acked: Vec<Vec<Acked>> = (0..tables).map(|_| Vec::new()).collect();
    // (game, seat, key) → the first 200 body seen for it.
    let mut first_by_key: HashMap<(usize, u8, String), &[u8]> = HashMap::new();
    for request in sent {
        let body = request.json();
        if request.status != 200 {
            let code = body["code"].as_str().unwrap_or("");
            assert!(
                documented(request.status, code),
                "undocumented answer {} {code:?} to {} by seat {}: {}",
                request.status,
                request.action,
                request.seat,
                String::from_utf8_lossy(&request.body)
            );
            assert_eq!(
                body["status"], request.status,
                "the problem names its status"
            );
        }
        if request.stale {
            assert_eq!(request.status, 412, "a stale If-Match must be refused");
            continue;
        }
        if request.status != 200 {
            continue;
        }
        let seq = body["seq"].as_u64().expect("a 200 has a seq");
        let version = body["version"].as_u64().expect("a 200 has a version");
        match &request.key {
            None => acked[request.game].push(Acked {
                seat: request.seat,
                key: None,
                actions: vec![request.action.clone()],
                seq,
                version,
            }),
            Some(key) => {
                let slot = (request.game, request.seat, key.clone());
                if let Some(first) = first_by_key.get(&slot) {
                    assert_eq!(
                        *first,
                        request.body.as_slice(),
                        "key {key} was answered with two different 200s"
                    );
                    continue;
                }
                first_by_key.insert(slot, &request.body);
                let actions = sent
                    .iter()
                    .filter(|other| {
                        other.game == request.game
                            && other.seat == request.seat
                            && other.key.as_deref() == Some(key)
                    })
                    .map(|other| other.action.clone())
                    .collect();
                acked[request.game].push(Acked {
                    seat: request.seat,
                    key: Some(key.clone()),
                    actions,
                    seq,
                    version,
                });
            }
        }
    }
    acked
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixty_four_clients_lose_and_duplicate_nothing() {
    let app = Arc::new(spawn_app().await);
    let mut games = Vec::new();
    let mut log_before = Vec::new();
    for (ruleset, seats) in TABLES {
        let mut options = options_for(ruleset, seats);
        if ruleset == "tulipmania-1637" {
            // Long enough to stay in play for the whole run.
            options = json!({"max_turns": 400});
        }
        let game = app.start_game(ruleset, seats, options).await;
        log_before.push(app.record(&game.id).await.log_len);
        games.push(game);
    }
    let games = Arc::new(games);

    let started = std::time::Instant::now();
    let deadline = tokio::time::Instant::now() + HAMMER_FOR;
    let clients: Vec<_> = (0..CLIENTS)
        .map(|index| tokio::spawn(client(app.clone(), games.clone(), index, deadline)))
        .collect();
    let mut sent = Vec::new();
    for client in clients {
        sent.extend(client.await.expect("a client panicked"));
    }
    let elapsed = started.elapsed();

    let acked = acknowledged(&sent, games.len());
    let mut by_status: BTreeMap<(u16, String), usize> = BTreeMap::new();
    for request in &sent {
        let code = request.json()["code"].as_str().unwrap_or("").to_string();
        *by_status.entry((request.status, code)).or_default() += 1;
    }
    eprintln!(
        "{} requests in {elapsed:?}; answers: {by_status:?}",
        sent.len()
    );
    let total: usize = acked.iter().map(Vec::len).sum();
    assert!(
        total >= 50,
        "too few acknowledged moves to mean anything: {total}"
    );
    for status in [409, 412, 422] {
        assert!(
            sent.iter().any(|request| request.status == status),
            "no {status} at all: the contention did not bite"
        );
    }
    assert!(
        acked.iter().flatten().any(|move_| move_.key.is_some()),
        "no idempotent move was acknowledged"
    );
    let keyed_200s = sent
        .iter()
        .filter(|request| request.key.is_some() && request.status == 200)
        .count();
    let keyed_moves = acked
        .iter()
        .flatten()
        .filter(|move_| move_.key.is_some())
        .count();
    assert!(
        keyed_200s > keyed_moves,
        "no acknowledged key was ever replayed"
    );

    for (index, game) in games.iter().enumerate() {
        let record = app.record(&game.id).await;
        let log = app
            .store
            .log(&game.id, None, usize::MAX)
            .await
            .expect("log");
        let seqs: Vec<u64> = log.iter().map(|entry| entry.seq).collect();
        assert_eq!(
            seqs,
            (0..record.log_len).collect::<Vec<_>>(),
            "{}: the log has gaps or duplicates",
            game.id
        );
        // Every move added during the run was acknowledged to exactly one logical request.
        let added = record.log_len - log_before[index];
        assert_eq!(
            added,
            acked[index].len() as u64,
            "{} ({}): {} moves in the log, {} acknowledged",
            game.id,
            record.ruleset,
            added,
            acked[index].len()
        );
        let offset = record.version - record.log_len;
        let mut seen_seqs = BTreeSet::new();
        for move_ in &acked[index] {
            assert!(
                seen_seqs.insert(move_.seq),
                "two acknowledged moves claim seq {}",
                move_.seq
            );
            let entry = &log[move_.seq as usize];
            assert_eq!(
                entry.seat,
                Some(move_.seat),
                "seq {}: wrong seat",
                move_.seq
            );
            // An undo is logged with the move it took back: an earlier entry of its seat.
            let logged = &entry.action["action"];
            let sent_undo = logged["type"] == "undo"
                && move_.actions.contains(&json!({"type": "undo"}))
                && logged["move"].as_u64().is_some_and(|taken| {
                    taken < move_.seq && log[taken as usize].seat == Some(move_.seat)
                });
            assert!(
                sent_undo || move_.actions.contains(logged),
                "seq {}: the log has {}, the client sent {:?}",
                move_.seq,
                entry.action["action"],
                move_.actions
            );
            assert_eq!(entry.idempotency_key, move_.key, "seq {}: key", move_.seq);
            assert_eq!(
                move_.version,
                move_.seq + 1 + offset,
                "seq {}: the reported version does not match the log position",
                move_.seq
            );
            if let Some(key) = &move_.key {
                let stored = app
                    .store
                    .idempotency(&game.id, move_.seat, key)
                    .await
                    .expect("store works")
                    .expect("an acknowledged key is remembered");
                assert_eq!(stored.seq, move_.seq, "key {key}: stored seq");
            }
        }
        // No seat's key appears twice in the log.
        let mut keyed = BTreeSet::new();
        for entry in &log {
            if let Some(key) = &entry.idempotency_key {
                assert!(
                    keyed.insert((entry.seat, key.clone())),
                    "key {key} of seat {:?} is in the log twice",
                    entry.seat
                );
            }
        }
        api_tests::replay_matches(&record, &log);
        eprintln!(
            "{} ({} seats): {added} moves, {:?}",
            record.ruleset,
            record.seats.len(),
            record.status
        );
        if record.status == store::Status::Finished {
            let audit = app.full_audit(&game.id).await;
            let audit: service::audit::Audit =
                serde_json::from_slice(&audit.body).expect("an audit");
            service::audit::verify(&service::registry(), &audit).expect("the audit verifies");
        }
    }
}
