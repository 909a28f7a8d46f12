//! Webhooks end to end (DESIGN.md §6): subscriptions, `turn`/`action`/`finished` at the right
//! moments with the right views, signatures checked by the reference Standard Webhooks
//! package, delivery surviving a receiver outage and a server restart, 410 Gone, and refused
//! URLs.

use crate::options_for;
use api_tests::webhooks::{verify_with_reference, Received, Receiver};
use api_tests::{
    random_move, remove_db, spawn_app, spawn_app_at, spawn_app_at_configured, temp_db, StartedGame,
    TestApp,
};
use serde_json::{json, Value};
use service::dice::Dice;
use service::webhooks::{RetryPolicy, WebhookConfig};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// Tulip Bubble with 3 seats: random games finish in a few hundred moves.
const RULESET: &str = "tulip-bubble";
const SEATS: u8 = 3;

/// Dev mode (loopback receivers) and a quick retry schedule: `attempts` attempts `delay` apart.
/// An attempt may take a minute: the tests count deliveries exactly, and a shorter timeout
/// would retry (and count twice) an attempt that a busy machine answered late.
fn config_with(attempts: usize, delay: Duration) -> WebhookConfig {
    WebhookConfig {
        dev: true,
        retry: RetryPolicy {
            delays: vec![delay; attempts - 1],
            jitter: 0.2,
            attempt_timeout: Duration::from_secs(60),
        },
        ..WebhookConfig::default()
    }
}

/// [`config_with`] 12 attempts 150 ms apart.
fn test_config() -> WebhookConfig {
    config_with(12, Duration::from_millis(150))
}

fn seq_of(value: &Value) -> u64 {
    value.as_u64().expect("a number")
}

/// Creates a game and claims every seat but the last; returns its id, admin token and tokens.
async fn open_game(app: &TestApp) -> StartedGame {
    let created = app
        .post(
            "/v1/games",
            None,
            &json!({"ruleset": RULESET, "seats": SEATS, "options": options_for(RULESET, SEATS)}),
            &[],
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text());
    let created = created.json();
    let id = created["id"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for seat in 0..SEATS - 1 {
        tokens.push(claim(app, &id, seat).await);
    }
    StartedGame {
        id,
        admin_token: created["admin_token"].as_str().unwrap().to_string(),
        seed_commitment: created["seed_commitment"].as_str().unwrap().to_string(),
        tokens,
    }
}

async fn claim(app: &TestApp, id: &str, seat: u8) -> String {
    let claimed = app
        .post(
            &format!("/v1/games/{id}/seats/{seat}"),
            None,
            &json!({"name": format!("player {seat}")}),
            &[],
        )
        .await;
    assert_eq!(claimed.status, 201, "{}", claimed.text());
    claimed.json()["player_token"].as_str().unwrap().to_string()
}

/// Subscribes with `token`; returns the created subscription (with its secret).
async fn subscribe(
    app: &TestApp,
    id: &str,
    token: &str,
    url: &str,
    events: Option<Value>,
) -> Value {
    let mut body = json!({ "url": url });
    if let Some(events) = events {
        body["events"] = events;
    }
    subscribe_with(app, id, token, &body).await
}

/// Subscribes with `token` and the request `body`; returns the created subscription.
async fn subscribe_with(app: &TestApp, id: &str, token: &str, body: &Value) -> Value {
    let reply = app
        .post(&format!("/v1/games/{id}/webhooks"), Some(token), body, &[])
        .await;
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()
}

async fn envelope(app: &TestApp, id: &str, token: Option<&str>) -> Value {
    let reply = app.get(&format!("/v1/games/{id}"), token).await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

fn seats_of(value: &Value) -> BTreeSet<u64> {
    value
        .as_array()
        .expect("a seat list")
        .iter()
        .map(seq_of)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_complete_game_notifies_each_seat_of_its_turns_with_its_own_view() {
    let receiver = Receiver::start().await;
    let db = temp_db("webhooks-game");
    let app = spawn_app_at(&db, test_config()).await;
    let mut game = open_game(&app).await;
    let id = game.id.clone();

    // Seats 0 and 1 subscribe before the start; the admin too; the last seat right after
    // its claim (which starts the game).
    let mut secrets: BTreeMap<String, String> = BTreeMap::new();
    for seat in 0..SEATS - 1 {
        let url = receiver.url(&format!("/seat/{seat}"));
        let hook = subscribe(&app, &id, &game.tokens[seat as usize], &url, None).await;
        assert_eq!(
            hook["events"],
            json!(["finished", "reminder", "timeout", "turn"])
        );
        assert_eq!(hook["seat"], json!(seat));
        secrets.insert(
            format!("/seat/{seat}"),
            hook["secret"].as_str().unwrap().into(),
        );
    }
    let admin = subscribe(&app, &id, &game.admin_token, &receiver.url("/admin"), None).await;
    assert_eq!(admin["seat"], Value::Null);
    secrets.insert("/admin".into(), admin["secret"].as_str().unwrap().into());

    // Expected `turn` notifications: (seat, version) for every seat that entered waiting_on.
    let mut expected_turns: BTreeMap<(u64, u64), Value> = BTreeMap::new();
    let last = SEATS - 1;
    game.tokens.push(claim(&app, &id, last).await);
    let started = envelope(&app, &id, None).await;
    let start_version = seq_of(&started["version"]);
    for seat in seats_of(&started["waiting_on"]) {
        if seat != u64::from(last) {
            let view = envelope(&app, &id, Some(&game.tokens[seat as usize])).await["view"].clone();
            expected_turns.insert((seat, start_version), view);
        }
    }
    let url = receiver.url(&format!("/seat/{last}"));
    let hook = subscribe(&app, &id, &game.tokens[last as usize], &url, None).await;
    secrets.insert(
        format!("/seat/{last}"),
        hook["secret"].as_str().unwrap().into(),
    );

    let mut before = envelope(&app, &id, None).await;
    let mut moves = 0u64;
    while random_move(&app, &game, 7, moves + 1).await.is_some() {
        moves += 1;
        assert!(moves < 5_000, "the game did not finish");
        let after = envelope(&app, &id, None).await;
        if after["status"] != "finished" {
            let entered: Vec<u64> = seats_of(&after["waiting_on"])
                .difference(&seats_of(&before["waiting_on"]))
                .copied()
                .collect();
            for seat in entered {
                let mine = envelope(&app, &id, Some(&game.tokens[seat as usize])).await;
                assert_eq!(mine["version"], after["version"], "nothing moved meanwhile");
                expected_turns.insert((seat, seq_of(&after["version"])), mine["view"].clone());
            }
        }
        before = after;
    }
    let finished = envelope(&app, &id, None).await;
    let final_version = seq_of(&finished["version"]);

    // Every move: one `action` to the admin; the end: one `finished` to each subscriber.
    let expected_total = expected_turns.len() + moves as usize + usize::from(SEATS) + 1;
    let received = receiver
        .wait_for(60, "every notification", |got| got.len() >= expected_total)
        .await;
    assert_eq!(received.len(), expected_total, "no notification twice");

    let mut turns: BTreeMap<(u64, u64), Value> = BTreeMap::new();
    let mut actions = BTreeSet::new();
    let mut finished_to = BTreeSet::new();
    for delivery in &received {
        let body = delivery.json();
        let data = &body["data"];
        assert_eq!(data["game_id"], json!(id));
        match (delivery.path.as_str(), body["type"].as_str().unwrap()) {
            (path, "turn") if path.starts_with("/seat/") => {
                assert_eq!(
                    path,
                    format!("/seat/{}", data["seat"]),
                    "a seat's own turn only"
                );
                turns.insert(
                    (seq_of(&data["seat"]), seq_of(&data["version"])),
                    data["view"].clone(),
                );
            }
            ("/admin", "action") => {
                assert!(actions.insert(seq_of(&data["seq"])), "one action per move");
                assert!(data.get("view").is_none(), "the admin gets no seat's view");
            }
            (path, "finished") => {
                assert_eq!(data["version"], json!(final_version));
                assert_eq!(data["outcome"], finished["outcome"]);
                finished_to.insert(path.to_string());
            }
            (path, kind) => panic!("unexpected {kind} to {path}"),
        }
    }
    assert_eq!(
        turns.keys().collect::<Vec<_>>(),
        expected_turns.keys().collect::<Vec<_>>(),
        "turn notifications go to exactly the seats the game started waiting on, when it did"
    );
    assert_eq!(
        turns, expected_turns,
        "each carries the seat's own view at that version"
    );
    assert_eq!(
        actions,
        (1..=moves).collect(),
        "one action notification per move"
    );
    assert_eq!(finished_to.len(), usize::from(SEATS) + 1);

    let signed: Vec<(String, Received)> = received
        .iter()
        .map(|delivery| (secrets[&delivery.path].clone(), delivery.clone()))
        .collect();
    verify_with_reference(&signed);

    // The deliveries route shows them, delivered at the first attempt.
    let hook_id = admin["id"].as_str().unwrap();
    let listed = app
        .get(
            &format!("/v1/games/{id}/webhooks/{hook_id}/deliveries?limit=100"),
            Some(&game.admin_token),
        )
        .await;
    assert_eq!(listed.status, 200, "{}", listed.text());
    let listed = listed.json();
    let deliveries = listed["deliveries"].as_array().unwrap();
    assert!(!deliveries.is_empty());
    assert!(deliveries.iter().all(|d| d["status"] == "delivered"
        && d["attempts"].as_array().unwrap().len() == 1
        && d["attempts"][0]["status_code"] == 204));
    drop(app);
    remove_db(&db);
}

/// The dice of [`a_turn_given_back_by_an_undo_is_notified`]'s server (its deals), and how
/// many of its games it plays looking for a move that passes the turn on and may be taken back.
const UNDO_DICE_SEED: u64 = 64;
const UNDO_GAMES: u64 = 4;

/// An undo that gives a seat its turn back tells that seat, like any move that makes the game
/// wait on it: a `turn` notification at the undo's version with the view the undo left.
///
/// The deals come from a dice seed the test chose (not the server's secret), and the moves
/// from the test's own generator, so every run plays the same games; it plays up to
/// [`UNDO_GAMES`] of them until one has the situation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_given_back_by_an_undo_is_notified() {
    let receiver = Receiver::start().await;
    let db = temp_db("webhooks-undo");
    let seed = api_tests::dice_seed(UNDO_DICE_SEED);
    let app =
        spawn_app_at_configured(&db, test_config(), |ctx| ctx.with_dice(Dice::seeded(seed))).await;
    let mut searched = Vec::new();
    for game_number in 0..UNDO_GAMES {
        match undo_gives_a_turn_back(&app, &receiver, game_number).await {
            Ok(()) => {
                drop(app);
                remove_db(&db);
                return;
            }
            Err(ended) => searched.push(format!("game {game_number}: {ended}")),
        }
    }
    panic!(
        "under dice seed {seed}, no game had a move that passed the turn on and \
         could be taken back: {searched:?}"
    );
}

/// Plays one new game of `app` (the test's `game_number`th) with seeded random moves until a
/// move passes the turn on and may be taken back, takes it back, and checks that the seat was
/// told its turn came back. `Err` says how the game went without such a move.
async fn undo_gives_a_turn_back(
    app: &TestApp,
    receiver: &Receiver,
    game_number: u64,
) -> Result<(), String> {
    let mut game = open_game(app).await;
    let id = game.id.clone();
    game.tokens.push(claim(app, &id, SEATS - 1).await);
    for seat in 0..SEATS {
        let url = receiver.url(&format!("/{id}/seat/{seat}"));
        subscribe(
            app,
            &id,
            &game.tokens[usize::from(seat)],
            &url,
            Some(json!(["turn"])),
        )
        .await;
    }
    let undo = json!({"type": "undo"});
    let mut bot = game_core::GameRng::for_entry([36; 32], game_number);
    for moves in 0..300 {
        let now = envelope(app, &id, None).await;
        if now["status"] != "active" {
            return Err(format!("{} after {moves} requests", now["status"]));
        }
        let waiting = seats_of(&now["waiting_on"]);
        let seat = *bot
            .choose(&waiting.iter().copied().collect::<Vec<_>>())
            .expect("someone to wait on") as usize;
        let token = &game.tokens[seat];
        let legal = app
            .get(&format!("/v1/games/{id}/legal-actions"), Some(token))
            .await
            .json()["actions"]
            .as_array()
            .expect("actions")
            .iter()
            .filter(|entry| entry["action"] != undo)
            .cloned()
            .collect::<Vec<_>>();
        // A raise of an auction (which may be taken back) is preferred when the seat has one:
        // a random game can otherwise end before any move passes the turn on and may be taken
        // back.
        let takeable = legal
            .iter()
            .filter(|entry| matches!(entry["action"]["type"].as_str(), Some("auction_bid")))
            .cloned()
            .collect::<Vec<_>>();
        let from = if takeable.is_empty() {
            &legal
        } else {
            &takeable
        };
        let action = game_core::testing::random_action_json(from, &mut bot).expect("a move");
        if app.submit(&id, token, &action).await.status != 200 {
            continue;
        }
        let after = envelope(app, &id, None).await;
        let may_undo = app
            .get(&format!("/v1/games/{id}/legal-actions"), Some(token))
            .await
            .json()["actions"]
            .as_array()
            .expect("actions")
            .iter()
            .any(|entry| entry["action"] == undo);
        if !may_undo || seats_of(&after["waiting_on"]).contains(&(seat as u64)) {
            continue;
        }
        // The move passed the turn on and may be taken back: take it back.
        let reply = app.submit(&id, token, &undo).await;
        assert_eq!(reply.status, 200, "{}", reply.text());
        let mine = envelope(app, &id, Some(token)).await;
        assert!(seats_of(&mine["waiting_on"]).contains(&(seat as u64)));
        let path = format!("/{id}/seat/{seat}");
        let version = mine["version"].clone();
        let received = receiver
            .wait_for(60, "the undo's turn notification", |got| {
                got.iter().any(|delivery| {
                    delivery.path == path && delivery.json()["data"]["version"] == version
                })
            })
            .await;
        let told = received
            .iter()
            .find(|delivery| delivery.path == path && delivery.json()["data"]["version"] == version)
            .expect("found above")
            .json();
        assert_eq!(told["type"], "turn");
        assert_eq!(told["data"]["view"], mine["view"], "the view the undo left");
        return Ok(());
    }
    Err("still active after 300 requests".into())
}

/// Chat formats (docs/webhooks.md): a Discord and a Slack subscription get each platform's
/// incoming-webhook message, one sentence naming the player and the game with a link to the
/// subscriber's page, and nothing else (a loopback receiver stands in for the platforms in dev
/// mode, at their webhook paths). A URL off the platform's path, a bad link and an unknown
/// format are refused and change nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_formats_post_each_platforms_message() {
    let receiver = Receiver::start().await;
    let db = temp_db("webhooks-chat");
    let app = spawn_app_at(&db, test_config()).await;
    let mut game = open_game(&app).await;
    let id = game.id.clone();
    let link = "https://tables.example/games/42";

    let before = app.record(&id).await;
    for (body, status, code) in [
        (
            json!({"url": receiver.url("/hook"), "format": "discord"}),
            422,
            "invalid-webhook-url",
        ),
        (
            json!({"url": receiver.url("/api/webhooks/1/a"), "format": "slack"}),
            422,
            "invalid-webhook-url",
        ),
        (
            json!({"url": receiver.url("/api/webhooks/1/a"), "format": "discord", "link": "ftp://t.example/"}),
            422,
            "invalid-link",
        ),
        (
            json!({"url": receiver.url("/api/webhooks/1/a"), "format": "discord", "link": "/games/42"}),
            422,
            "invalid-link",
        ),
        (
            json!({"url": receiver.url("/api/webhooks/1/a"), "format": "teams"}),
            400,
            "malformed-request",
        ),
    ] {
        let reply = app
            .post(
                &format!("/v1/games/{id}/webhooks"),
                Some(&game.tokens[0]),
                &body,
                &[],
            )
            .await;
        assert_eq!(reply.status, status, "{body}: {}", reply.text());
        assert_eq!(reply.json()["code"], code, "{body}: {}", reply.text());
    }
    assert_eq!(
        app.record(&id).await,
        before,
        "a refused subscription changed the game"
    );

    let discord = "/api/webhooks/1/seat-0";
    let slack = "/services/T0/B0/seat-1";
    let admin = "/api/webhooks/2/admin";
    let body = json!({"url": receiver.url(discord), "format": "discord", "link": link});
    let hook = subscribe_with(&app, &id, &game.tokens[0], &body).await;
    assert_eq!(hook["format"], "discord");
    assert_eq!(hook["link"], link);
    let body = json!({"url": receiver.url(slack), "format": "slack"});
    let hook = subscribe_with(&app, &id, &game.tokens[1], &body).await;
    assert_eq!(hook["link"], Value::Null);
    let body = json!({"url": receiver.url(admin), "format": "discord", "link": link});
    subscribe_with(&app, &id, &game.admin_token, &body).await;

    game.tokens.push(claim(&app, &id, SEATS - 1).await);
    let mut moves = 0;
    while random_move(&app, &game, 11, moves + 1).await.is_some() {
        moves += 1;
        assert!(moves < 5_000, "the game did not finish");
    }
    let game_name = format!("Tulip Bubble (game {id})");
    let over = |delivery: &Received| {
        let body = delivery.json();
        let text = body["content"]
            .as_str()
            .or(body["text"].as_str())
            .unwrap_or("");
        text.replace('\\', "")
            .contains(&format!("{game_name} is over"))
    };
    let received = receiver
        .wait_for(60, "every subscriber's end of the game", |got| {
            got.iter().filter(|delivery| over(delivery)).count() == 3
        })
        .await;

    let mut turns = BTreeMap::<&str, usize>::new();
    for delivery in &received {
        let body = delivery.json();
        let object = body.as_object().expect("an object");
        let path = delivery.path.as_str();
        if path == discord || path == admin {
            let keys: BTreeSet<&str> = object.keys().map(String::as_str).collect();
            assert_eq!(
                keys,
                BTreeSet::from(["allowed_mentions", "content", "username"])
            );
            assert_eq!(
                body["allowed_mentions"],
                json!({"parse": []}),
                "pings nobody"
            );
            let content = body["content"].as_str().unwrap();
            assert!(content.chars().count() <= 2000, "{content}");
            assert!(content.ends_with(&format!(" <{link}>")), "{content}");
            // As Discord shows it: its markdown escapes are backslashes.
            let content = content.replace('\\', "");
            let content = content.as_str();
            assert!(content.contains(&game_name), "{content}");
            let turn = content.starts_with(&format!("player 0, it is your turn in {game_name}."));
            if (path == discord && turn) || (path == admin && !over(delivery)) {
                *turns.entry(path).or_default() += 1;
            }
        } else if path == slack {
            let keys: Vec<&str> = object.keys().map(String::as_str).collect();
            assert_eq!(keys, ["text"]);
            let text = body["text"].as_str().unwrap();
            assert!(text.contains(&game_name), "{text}");
            assert!(!text.contains('<'), "no link was given: {text}");
            if text == format!("player 1, it is your turn in {game_name}.") {
                *turns.entry(path).or_default() += 1;
            }
        } else {
            panic!("a delivery to {path}");
        }
        // Chat messages carry no view, no token and no secret.
        for secret in game.tokens.iter().chain([&game.admin_token]) {
            assert!(
                !delivery.body.contains(secret.as_str()),
                "a token in {}",
                delivery.body
            );
        }
        assert!(
            !delivery.body.contains("\"view\""),
            "a view in {}",
            delivery.body
        );
    }
    assert!(
        turns.get(discord) > Some(&0),
        "seat 0 was told of its turns: {turns:?}"
    );
    assert!(
        turns.get(slack) > Some(&0),
        "seat 1 was told of its turns: {turns:?}"
    );
    assert_eq!(
        turns.get(admin),
        Some(&(moves as usize)),
        "the admin hears of every move"
    );
    drop(app);
    remove_db(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notifications_survive_a_receiver_outage_and_a_server_restart() {
    let mut receiver = Receiver::start().await;
    receiver.answer(503);
    let db = temp_db("webhooks-restart");
    // Retries 400 ms apart: 100 attempts (40 s) outlast the outage below (about a second on
    // an idle machine, several on a busy one) by far; how long it lasts must not decide the
    // test, and nothing waits for the schedule's end.
    let config = config_with(100, Duration::from_millis(400));
    let app = spawn_app_at(&db, config.clone()).await;
    let game = open_game(&app).await;
    let id = game.id.clone();
    let admin = subscribe(&app, &id, &game.admin_token, &receiver.url("/admin"), None).await;
    let secret = admin["secret"].as_str().unwrap().to_string();
    let mut game = game;
    game.tokens.push(claim(&app, &id, SEATS - 1).await);

    // Moves while the receiver fails (503), then while it is down (connection refused).
    for step in 1..=4 {
        random_move(&app, &game, 11, step)
            .await
            .expect("the game goes on");
    }
    receiver
        .wait_for(60, "a failed attempt of every move", |got| {
            got.iter()
                .map(|r| r.id.as_str())
                .collect::<BTreeSet<_>>()
                .len()
                >= 4
        })
        .await;
    receiver.stop();
    for step in 5..=6 {
        random_move(&app, &game, 11, step)
            .await
            .expect("the game goes on");
    }
    let failed_ids: BTreeSet<String> = receiver.received().into_iter().map(|r| r.id).collect();

    // The server stops with notifications pending; another starts on the same database.
    drop(app);
    let app = spawn_app_at(&db, config).await;
    let store = app.store.clone();
    let hook_id = admin["id"].as_str().unwrap().to_string();
    let pending = store
        .messages(&id, &hook_id, None, 100)
        .await
        .unwrap()
        .messages;
    assert_eq!(
        pending.len(),
        6,
        "one action notification per move, all kept"
    );
    for step in 7..=8 {
        random_move(&app, &game, 11, step)
            .await
            .expect("the game goes on");
    }

    // The receiver comes back and answers 2xx: everything is delivered.
    receiver.answer(204);
    receiver.resume().await;
    let received = receiver
        .wait_for(60, "every notification delivered", |got| {
            got.iter()
                .filter(|r| r.answered == 204)
                .map(|r| r.id.as_str())
                .collect::<BTreeSet<_>>()
                .len()
                >= 8
        })
        .await;
    let delivered: BTreeSet<String> = received
        .iter()
        .filter(|r| r.answered == 204)
        .map(|r| r.id.clone())
        .collect();
    let queued: BTreeSet<String> = store
        .messages(&id, &hook_id, None, 100)
        .await
        .unwrap()
        .messages
        .into_iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(
        delivered, queued,
        "every queued notification arrived, nothing else"
    );
    assert!(
        failed_ids.is_subset(&delivered),
        "retries keep their webhook-id, so the receiver can tell a repeat"
    );
    let seqs: BTreeSet<u64> = received
        .iter()
        .filter(|r| r.answered == 204)
        .map(|r| seq_of(&r.json()["data"]["seq"]))
        .collect();
    assert_eq!(seqs, (1..=8).collect(), "one per move, none lost");
    // Each id's body is the same on every attempt, and every attempt is correctly signed.
    for delivery in &received {
        let first = received.iter().find(|r| r.id == delivery.id).unwrap();
        assert_eq!(first.body, delivery.body, "a retry resends the same body");
    }
    verify_with_reference(
        &received
            .iter()
            .map(|r| (secret.clone(), r.clone()))
            .collect::<Vec<_>>(),
    );
    // The receiver has answered; the worker records each answer just after. Wait for that.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let messages = loop {
        let messages = store
            .messages(&id, &hook_id, None, 100)
            .await
            .unwrap()
            .messages;
        if messages
            .iter()
            .all(|m| m.status == store::DeliveryStatus::Delivered)
        {
            break messages;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "not every delivery was recorded as delivered: {:?}",
            messages.iter().map(|m| m.status).collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    };
    assert!(
        messages.iter().any(|m| m.attempts.len() > 1
            && m.attempts[0].status_code == Some(503)
            && m.attempts.last().unwrap().status_code == Some(204)),
        "the attempts are recorded"
    );
    drop(app);
    remove_db(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_receiver_answering_410_disables_its_subscription() {
    let receiver = Receiver::start().await;
    receiver.answer(410);
    let db = temp_db("webhooks-gone");
    let app = spawn_app_at(&db, test_config()).await;
    let mut game = open_game(&app).await;
    let id = game.id.clone();
    let admin = subscribe(&app, &id, &game.admin_token, &receiver.url("/admin"), None).await;
    // A healthy receiver beside it, to know when a move's notifications have gone out.
    let marker = Receiver::start().await;
    subscribe(
        &app,
        &id,
        &game.admin_token,
        &marker.url("/marker"),
        Some(json!(["action"])),
    )
    .await;
    game.tokens.push(claim(&app, &id, SEATS - 1).await);
    random_move(&app, &game, 3, 1).await.expect("a move");
    receiver
        .wait_for(60, "the first attempt", |got| !got.is_empty())
        .await;

    let hook_id = admin["id"].as_str().unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let listed = loop {
        let listed = app
            .get(&format!("/v1/games/{id}/webhooks"), Some(&game.admin_token))
            .await
            .json();
        let gone = listed["webhooks"]
            .as_array()
            .expect("webhooks")
            .iter()
            .find(|hook| hook["id"] == admin["id"])
            .expect("the subscription is listed")
            .clone();
        if !gone["disabled"].is_null() {
            break gone;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the 410 did not disable the subscription: {listed}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(
        listed["disabled"].as_str().unwrap().contains("410"),
        "{listed}"
    );
    random_move(&app, &game, 3, 2).await.expect("a move");
    // Once the healthy receiver has move 2, the move's notifications have been queued (in the
    // move's own commit) and sent: the gone receiver got none.
    marker
        .wait_for(60, "move 2's notification", |got| {
            got.iter()
                .any(|delivery| delivery.json()["data"]["seq"] == 2)
        })
        .await;
    assert_eq!(
        receiver.received().len(),
        1,
        "a gone receiver is not called again"
    );
    let deliveries = app
        .get(
            &format!("/v1/games/{id}/webhooks/{hook_id}/deliveries"),
            Some(&game.admin_token),
        )
        .await
        .json();
    assert_eq!(deliveries["deliveries"].as_array().unwrap().len(), 1);
    assert_eq!(deliveries["deliveries"][0]["status"], "failed");
    assert_eq!(
        deliveries["deliveries"][0]["attempts"][0]["status_code"],
        410
    );
    drop(app);
    remove_db(&db);
}

#[tokio::test]
async fn forbidden_and_malformed_urls_are_refused_and_change_nothing() {
    // Not in dev mode: plain http is refused even to loopback.
    let app = spawn_app().await;
    let game = app
        .start_game(RULESET, SEATS, options_for(RULESET, SEATS))
        .await;
    let id = &game.id;
    let version = envelope(&app, id, None).await["version"].clone();
    let token = game.tokens[0].as_str();
    for (url, code) in [
        ("http://127.0.0.1:8080/hook", "forbidden-webhook-url"),
        ("http://hooks.example/hook", "forbidden-webhook-url"),
        ("https://10.1.2.3/hook", "forbidden-webhook-url"),
        ("https://192.168.0.10/hook", "forbidden-webhook-url"),
        ("https://172.20.0.1/hook", "forbidden-webhook-url"),
        ("https://127.0.0.1/hook", "forbidden-webhook-url"),
        (
            "https://169.254.169.254/latest/meta-data/",
            "forbidden-webhook-url",
        ),
        ("https://[fd00:ec2::254]/", "forbidden-webhook-url"),
        ("https://[::ffff:10.0.0.1]/", "forbidden-webhook-url"),
        ("https://localhost/hook", "forbidden-webhook-url"),
        ("https://hooks.invalid/hook", "unresolvable-webhook-url"),
        ("not a url", "invalid-webhook-url"),
        ("ftp://hooks.example/", "invalid-webhook-url"),
        ("https://user:secret@hooks.example/", "invalid-webhook-url"),
        ("https:///nohost", "invalid-webhook-url"),
    ] {
        let reply = app
            .post(
                &format!("/v1/games/{id}/webhooks"),
                Some(token),
                &json!({"url": url}),
                &[],
            )
            .await;
        assert_eq!(reply.status, 422, "{url}: {}", reply.text());
        assert_eq!(
            reply.header("content-type"),
            Some("application/problem+json")
        );
        assert_eq!(reply.json()["code"], code, "{url}");
    }
    // Who may subscribe to what.
    let reply = app
        .post(
            &format!("/v1/games/{id}/webhooks"),
            Some(token),
            &json!({"url": "https://93.184.215.14/", "events": ["action"]}),
            &[],
        )
        .await;
    assert_eq!(reply.status, 422);
    assert_eq!(reply.json()["code"], "event-not-allowed");
    let reply = app
        .post(
            &format!("/v1/games/{id}/webhooks"),
            None,
            &json!({"url": "https://93.184.215.14/"}),
            &[],
        )
        .await;
    assert_eq!(reply.status, 401);
    let reply = app
        .post(
            &format!("/v1/games/{id}/webhooks"),
            Some(token),
            &json!({"url": 5}),
            &[],
        )
        .await;
    assert_eq!(reply.status, 400);
    assert_eq!(
        envelope(&app, id, None).await["version"],
        version,
        "nothing changed"
    );
    assert!(app.record(id).await.hooks.is_empty());
}

/// A subscription without `events` takes its subscriber's default, and is listed with every
/// type it stores: a seat's with `turn`, `finished`, `reminder` and `timeout`, the admin's with
/// `action`, `finished` and `timeout` (the listing once dropped the clock's two).
#[tokio::test]
async fn default_subscriptions_are_listed_with_every_event_they_deliver() {
    let db = temp_db("webhooks-defaults");
    let app = spawn_app_at(&db, test_config()).await;
    let game = app
        .start_game(RULESET, SEATS, options_for(RULESET, SEATS))
        .await;
    let id = &game.id;
    let cases = [
        (
            &game.tokens[0],
            json!(["finished", "reminder", "timeout", "turn"]),
        ),
        (&game.admin_token, json!(["action", "finished", "timeout"])),
    ];
    for (token, expected) in cases {
        let created = subscribe(&app, id, token, "http://127.0.0.1:9/hook", None).await;
        assert_eq!(created["events"], expected, "{created}");
        let listed = app
            .get(&format!("/v1/games/{id}/webhooks"), Some(token))
            .await;
        assert_eq!(listed.status, 200, "{}", listed.text());
        assert_eq!(listed.json()["webhooks"][0]["events"], expected);
    }
    // Everything listed is what the store keeps and the worker delivers.
    let stored: Vec<Vec<String>> = app
        .record(id)
        .await
        .hooks
        .into_iter()
        .map(|hook| hook.events)
        .collect();
    assert_eq!(
        stored,
        [
            vec!["finished", "reminder", "timeout", "turn"],
            vec!["action", "finished", "timeout"]
        ]
    );
    drop(app);
    remove_db(&db);
}

#[tokio::test]
async fn subscriptions_are_private_capped_and_deletable() {
    let db = temp_db("webhooks-manage");
    let app = spawn_app_at(&db, test_config()).await;
    let game = app
        .start_game(RULESET, SEATS, options_for(RULESET, SEATS))
        .await;
    let id = &game.id;
    let url = "http://127.0.0.1:9/hook";
    let mine = subscribe(&app, id, &game.tokens[0], url, Some(json!(["turn"]))).await;
    assert!(mine["secret"].as_str().unwrap().starts_with("whsec_"));
    let hook = mine["id"].as_str().unwrap();

    // Listed for its seat only, and never with the secret.
    let listed = app
        .get(&format!("/v1/games/{id}/webhooks"), Some(&game.tokens[0]))
        .await;
    assert_eq!(listed.status, 200);
    assert_eq!(listed.json()["webhooks"][0]["id"], json!(hook));
    assert!(
        !listed.text().contains("whsec_"),
        "the secret is shown once only"
    );
    let theirs = app
        .get(&format!("/v1/games/{id}/webhooks"), Some(&game.tokens[1]))
        .await;
    assert_eq!(theirs.json()["webhooks"], json!([]));
    let envelope_text = app
        .get(&format!("/v1/games/{id}"), Some(&game.tokens[1]))
        .await
        .text();
    assert!(!envelope_text.contains("whsec_") && !envelope_text.contains(hook));

    // Another seat cannot read its deliveries or delete it.
    let path = format!("/v1/games/{id}/webhooks/{hook}");
    let other = app
        .get(&format!("{path}/deliveries"), Some(&game.tokens[1]))
        .await;
    assert_eq!(other.status, 404);
    assert_eq!(other.json()["code"], "webhook-not-found");
    let auth = format!("Bearer {}", game.tokens[1]);
    let other = app
        .send("DELETE", &path, &[("authorization", &auth)], Vec::new())
        .await;
    assert_eq!(other.status, 404);

    // The cap: 16 per game.
    for n in 1..16 {
        let token = &game.tokens[n % usize::from(SEATS)];
        subscribe(&app, id, token, &format!("http://127.0.0.1:9/{n}"), None).await;
    }
    let reply = app
        .post(
            &format!("/v1/games/{id}/webhooks"),
            Some(&game.admin_token),
            &json!({"url": url}),
            &[],
        )
        .await;
    assert_eq!(reply.status, 422);
    assert_eq!(reply.json()["code"], "too-many-webhooks");

    // Its owner deletes it.
    let auth = format!("Bearer {}", game.tokens[0]);
    let deleted = app
        .send("DELETE", &path, &[("authorization", &auth)], Vec::new())
        .await;
    assert_eq!(deleted.status, 204, "{}", deleted.text());
    let again = app
        .send("DELETE", &path, &[("authorization", &auth)], Vec::new())
        .await;
    assert_eq!(again.status, 404);
    assert_eq!(app.record(id).await.hooks.len(), 15);
    let wrong_method = app
        .send("PUT", &path, &[("authorization", &auth)], Vec::new())
        .await;
    assert_eq!(wrong_method.status, 405);
    assert_eq!(wrong_method.header("allow"), Some("DELETE"));
    drop(app);
    remove_db(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deliveries_come_in_pages_newest_first_like_every_list() {
    let receiver = Receiver::start().await;
    let db = temp_db("webhooks-pages");
    let app = spawn_app_at(&db, test_config()).await;
    let mut game = open_game(&app).await;
    let id = game.id.clone();
    let admin = subscribe(
        &app,
        &id,
        &game.admin_token,
        &receiver.url("/admin"),
        Some(json!(["action"])),
    )
    .await;
    game.tokens.push(claim(&app, &id, SEATS - 1).await);
    for salt in 0..5 {
        random_move(&app, &game, 3, salt).await.expect("a move");
    }
    let hook_id = admin["id"].as_str().unwrap();
    let path = format!("/v1/games/{id}/webhooks/{hook_id}/deliveries");
    let whole = app.get(&path, Some(&game.admin_token)).await.json();
    let whole: Vec<String> = whole["deliveries"]
        .as_array()
        .expect("deliveries")
        .iter()
        .map(|delivery| delivery["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(whole.len(), 5, "one `action` notification per move");

    let mut paged = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let query = after.map_or(String::new(), |after| format!("&after={after}"));
        let page = app
            .get(&format!("{path}?limit=2{query}"), Some(&game.admin_token))
            .await;
        assert_eq!(page.status, 200, "{}", page.text());
        let page = page.json();
        let deliveries = page["deliveries"].as_array().expect("deliveries");
        assert!(deliveries.len() <= 2);
        paged.extend(
            deliveries
                .iter()
                .map(|delivery| delivery["id"].as_str().unwrap().to_string()),
        );
        match page["next_after"].as_str() {
            Some(next) => after = Some(next.to_string()),
            None => break,
        }
    }
    assert_eq!(
        paged, whole,
        "pages of 2 join into the whole list, in order"
    );

    let bad = app
        .get(&format!("{path}?after=nonsense"), Some(&game.admin_token))
        .await;
    assert_eq!(bad.status, 400, "{}", bad.text());
    assert_eq!(bad.json()["code"], "malformed-request");
    remove_db(&db);
}

/// Subscribing and unsubscribing do not make a pending move stale (issue 54): a move guarded
/// by `If-Match` with the version its player saw still applies after another seat (or the
/// admin) subscribed or unsubscribed; a move by anyone does make it stale.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscriptions_do_not_make_a_pending_move_stale() {
    let receiver = Receiver::start().await;
    let db = temp_db("webhooks-if-match");
    let app = spawn_app_at(&db, test_config()).await;
    let mut game = open_game(&app).await;
    let id = game.id.clone();
    game.tokens.push(claim(&app, &id, SEATS - 1).await);
    let now = envelope(&app, &id, None).await;
    let seat = seats_of(&now["to_act"])
        .into_iter()
        .next()
        .expect("a seat acts") as usize;
    let token = game.tokens[seat].clone();
    let legal = app
        .get(&format!("/v1/games/{id}/legal-actions"), Some(&token))
        .await;
    let seen = legal.header("etag").expect("an ETag").to_string();
    let action = api_tests::some_action(&legal.json());

    // Another seat subscribes, the admin subscribes, and the admin removes its subscription.
    let other = (seat + 1) % usize::from(SEATS);
    subscribe(
        &app,
        &id,
        &game.tokens[other],
        &receiver.url("/other"),
        None,
    )
    .await;
    let admin = subscribe(&app, &id, &game.admin_token, &receiver.url("/admin"), None).await;
    let removed = app
        .send(
            "DELETE",
            &format!("/v1/games/{id}/webhooks/{}", admin["id"].as_str().unwrap()),
            &[("authorization", &format!("Bearer {}", game.admin_token))],
            Vec::new(),
        )
        .await;
    assert!(
        removed.status == 204 || removed.status == 200,
        "{}",
        removed.text()
    );

    let moved = app
        .post(
            &format!("/v1/games/{id}/actions"),
            Some(&token),
            &json!({ "action": action }),
            &[("if-match", &seen)],
        )
        .await;
    assert_eq!(
        moved.status,
        200,
        "a subscription made the move stale: {}",
        moved.text()
    );

    // A move, though, does: the same tag is now refused.
    let next = envelope(&app, &id, None).await;
    let mover = seats_of(&next["to_act"]).into_iter().next();
    if let Some(mover) = mover {
        let token = &game.tokens[mover as usize];
        let legal = app
            .get(&format!("/v1/games/{id}/legal-actions"), Some(token))
            .await
            .json();
        let stale = app
            .post(
                &format!("/v1/games/{id}/actions"),
                Some(token),
                &json!({ "action": api_tests::some_action(&legal) }),
                &[("if-match", &seen)],
            )
            .await;
        assert_eq!(stale.status, 412, "{}", stale.text());
    }
    drop(app);
    remove_db(&db);
}
