//! Players across games (docs/api.md, "Players"): an app names the person in a seat with its
//! own player id, a player token acts as that player's seat token in every game of the app
//! they sit in, and lists all their games. On SQLite and on DynamoDB (moto).

use crate::apps::{create_app, refused, send, serve, sqlite};
use api_tests::TestApp;
use serde_json::{json, Value};
use std::sync::Arc;
use store::GameStore;

/// A game of `ruleset` created with `key`, its seat 0 claimed for player `player`, and its
/// other seats for bots unless `open` (then seat 1 stays free, and the game open).
async fn seat_player(app: &TestApp, key: &str, ruleset: &str, player: &str, open: bool) -> String {
    let body = json!({"ruleset": ruleset, "seats": 3, "options": crate::test_options(ruleset)});
    let created = send(app, "POST", "/v1/games", Some(key), Some(body)).await;
    assert_eq!(created.status, 201, "{}", created.text());
    let id = created.json()["id"].as_str().expect("id").to_owned();
    let claim = json!({"name": player.to_uppercase(), "player_id": player});
    let seat = send(
        app,
        "POST",
        &format!("/v1/games/{id}/seats/0"),
        Some(key),
        Some(claim),
    )
    .await;
    assert_eq!(seat.status, 201, "{}", seat.text());
    let bots: &[u8] = if open { &[2] } else { &[1, 2] };
    for n in bots {
        let bot = send(
            app,
            "POST",
            &format!("/v1/games/{id}/seats/{n}"),
            Some(key),
            Some(json!({"bot": "random"})),
        )
        .await;
        assert_eq!(bot.status, 201, "{}", bot.text());
    }
    id
}

fn ids(list: &Value) -> Vec<String> {
    list["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|game| game["id"].as_str().expect("id").to_owned())
        .collect()
}

async fn a_player_token_follows_its_player_across_games(store: Arc<dyn GameStore>) {
    let (app, server) = serve(store, |ctx| ctx, None).await;
    let (_, key) = create_app(&app, "Tulip Club", None).await;
    let (_, other_key) = create_app(&app, "Elsewhere", None).await;
    // Ann sits in three games of two rulesets, and in a fourth that is still open.
    let first = seat_player(&app, &key, "tulip-bubble", "ann", false).await;
    let second = seat_player(&app, &key, "tulipmania-1637", "ann", false).await;
    let third = seat_player(&app, &key, "tulip-bubble", "ann", false).await;
    let open = seat_player(&app, &key, "tulip-bubble", "ann", true).await;

    // Naming a player needs the game's app key; one player sits once in a game.
    let keyless = app
        .create_game(&json!({"ruleset": "tulip-bubble", "seats": 3}))
        .await
        .0;
    refused(
        &send(
            &app,
            "POST",
            &format!("/v1/games/{keyless}/seats/0"),
            None,
            Some(json!({"name": "Ann", "player_id": "ann"})),
        )
        .await,
        403,
        "forbidden",
    );
    refused(
        &send(
            &app,
            "POST",
            &format!("/v1/games/{open}/seats/1"),
            Some(&key),
            Some(json!({"name": "Ann again", "player_id": "ann"})),
        )
        .await,
        409,
        "seat-taken",
    );

    // The app asks for Ann's token; with it, Ann's games, newest first, paged.
    let issued = send(&app, "POST", "/v1/players/ann/tokens", Some(&key), None).await;
    assert_eq!(issued.status, 201, "{}", issued.text());
    let token = issued.json()["token"].as_str().expect("token").to_owned();
    let token_id = issued.json()["token_id"].as_str().expect("id").to_owned();
    assert!(token.starts_with("bp_"), "{token}");
    let mine = app.get("/v1/me/games", Some(&token)).await;
    assert_eq!(mine.status, 200, "{}", mine.text());
    let mine = mine.json();
    assert_eq!(
        ids(&mine),
        [open.clone(), third.clone(), second.clone(), first.clone()]
    );
    assert!(mine["games"]
        .as_array()
        .expect("games")
        .iter()
        .all(|game| game["seat"] == 0));
    assert_eq!(mine["games"][0]["status"], "open");
    let page = app.get("/v1/me/games?limit=3", Some(&token)).await.json();
    assert_eq!(ids(&page), [open.clone(), third.clone(), second.clone()]);
    let after = page["next_after"].as_str().expect("a next page");
    let rest = app
        .get(&format!("/v1/me/games?limit=3&after={after}"), Some(&token))
        .await
        .json();
    assert_eq!(ids(&rest), [first.as_str()]);
    assert_eq!(rest.get("next_after"), None);
    // The app sees the same list; another app knows no player of that id.
    let by_app = send(&app, "GET", "/v1/players/ann/games", Some(&key), None).await;
    assert_eq!(ids(&by_app.json()), ids(&mine), "{}", by_app.text());
    let elsewhere = send(&app, "GET", "/v1/players/ann/games", Some(&other_key), None).await;
    assert_eq!(ids(&elsewhere.json()), Vec::<String>::new());

    // The token is Ann's seat token in each game: her view, her legal actions.
    for id in [&first, &second, &third] {
        let view = app.get(&format!("/v1/games/{id}"), Some(&token)).await;
        assert_eq!(view.status, 200, "{}", view.text());
        assert_eq!(view.json()["you"]["seat"], 0, "{}", view.text());
        let legal = app
            .get(&format!("/v1/games/{id}/legal-actions"), Some(&token))
            .await;
        assert_eq!(legal.status, 200, "{}", legal.text());
    }
    // The app lists Ann's tokens (ids and dates, never the tokens).
    let listed = send(&app, "GET", "/v1/players/ann/tokens", Some(&key), None).await;
    assert_eq!(listed.status, 200, "{}", listed.text());
    assert_eq!(listed.json()["tokens"][0]["id"], token_id.as_str());
    assert!(!listed.text().contains(&token), "a token was shown again");
    // Another player's token reads Ann's game as a spectator, and plays nothing.
    let bea = send(&app, "POST", "/v1/players/bea/tokens", Some(&key), None).await;
    let bea = bea.json()["token"].as_str().expect("token").to_owned();
    let seen = app.get(&format!("/v1/games/{first}"), Some(&bea)).await;
    assert_eq!(seen.status, 200, "{}", seen.text());
    assert_eq!(seen.json()["you"], Value::Null, "{}", seen.text());
    assert_eq!(
        app.get(&format!("/v1/games/{first}/legal-actions"), Some(&bea))
            .await
            .status,
        401
    );
    assert_eq!(
        ids(&app.get("/v1/me/games", Some(&bea)).await.json()),
        Vec::<String>::new()
    );
    // The app gives Ann's seat of the third game to someone else: it is no longer hers.
    let replaced = send(
        &app,
        "POST",
        &format!("/v1/games/{third}/seats/0/replace"),
        Some(&key),
        Some(json!({"name": "Cas"})),
    )
    .await;
    assert_eq!(replaced.status, 200, "{}", replaced.text());
    assert_eq!(
        app.get(&format!("/v1/games/{third}/legal-actions"), Some(&token))
            .await
            .status,
        401
    );
    let mine = app.get("/v1/me/games", Some(&token)).await.json();
    assert_eq!(ids(&mine), [open.clone(), second.clone(), first.clone()]);

    // Another app's game is not found with it.
    let foreign = seat_player(&app, &other_key, "tulip-bubble", "ann", false).await;
    assert_eq!(
        app.get(&format!("/v1/games/{foreign}"), Some(&token))
            .await
            .status,
        404
    );

    // Ann leaves the open game: it is no longer hers.
    let left = send(
        &app,
        "DELETE",
        &format!("/v1/games/{open}/seats/0"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(left.status, 200, "{}", left.text());
    let mine = app.get("/v1/me/games", Some(&token)).await.json();
    assert_eq!(ids(&mine), [second.clone(), first.clone()]);

    // Revoked, the token is refused everywhere.
    let revoked = send(
        &app,
        "DELETE",
        &format!("/v1/players/ann/tokens/{token_id}"),
        Some(&key),
        None,
    )
    .await;
    assert_eq!(revoked.status, 200, "{}", revoked.text());
    assert_eq!(app.get("/v1/me/games", Some(&token)).await.status, 401);
    assert_eq!(
        app.get(&format!("/v1/games/{first}"), Some(&token))
            .await
            .status,
        401
    );
    // Tokens are the app key's to issue: not a seat token's, not without games:admin.
    let (_, reader) = create_app(&app, "Reader", Some(&["games:read"])).await;
    refused(
        &send(&app, "POST", "/v1/players/ann/tokens", Some(&reader), None).await,
        403,
        "missing-scope",
    );
    refused(
        &send(&app, "POST", "/v1/players/ann/tokens", None, None).await,
        401,
        "unauthorized",
    );
    server.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_token_follows_its_player_across_games_on_sqlite() {
    a_player_token_follows_its_player_across_games(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_token_follows_its_player_across_games_on_dynamodb() {
    a_player_token_follows_its_player_across_games(Arc::new(store::dynamo::testing::store().await))
        .await;
}

/// One event of a player's stream: the game a notice is about (empty for `games`), its name,
/// and its data.
type Told = (String, String, Value);

/// The events of `stream` up to and including its next `games`.
async fn until_games(stream: &mut api_tests::sse::EventStream) -> Vec<Told> {
    let mut seen = Vec::new();
    while let Some(event) = stream.next().await {
        let data: Value = serde_json::from_str(&event.data).expect("JSON data");
        let game = data["id"].as_str().unwrap_or_default().to_owned();
        let name = event.event.clone();
        seen.push((game, name.clone(), data));
        if name == "games" {
            return seen;
        }
    }
    panic!("the stream ended before a games event: {seen:?}");
}

/// The version of game `id` in the last `games` event of `events`.
fn resumed_games_version(events: &[Told], id: &str) -> Option<u64> {
    let (_, _, games) = events.iter().rev().find(|(_, name, _)| name == "games")?;
    games["games"]
        .as_array()?
        .iter()
        .find(|game| game["id"] == id)?["version"]
        .as_u64()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_stream_tells_a_player_every_turn_of_all_their_games_and_resumes_without_loss() {
    let (app, server) = serve(sqlite(), |ctx| ctx, None).await;
    let (_, key) = create_app(&app, "Tulip Club", None).await;
    let games = [
        seat_player(&app, &key, "tulip-bubble", "ann", false).await,
        seat_player(&app, &key, "tulipmania-1637", "ann", false).await,
        seat_player(&app, &key, "tulip-bubble", "ann", false).await,
    ];
    let issued = send(&app, "POST", "/v1/players/ann/tokens", Some(&key), None).await;
    let token = issued.json()["token"].as_str().expect("token").to_owned();
    let auth = format!("Bearer {token}");
    let open = |last: Option<String>| {
        let app = &app;
        let auth = auth.clone();
        async move {
            let mut headers = vec![("authorization", auth.as_str())];
            if let Some(last) = &last {
                headers.push(("last-event-id", last.as_str()));
            }
            api_tests::sse::EventStream::open(app.addr, "/v1/me/events", &headers)
                .await
                .stream()
        }
    };
    let turns = |id: String| {
        let app = &app;
        async move { app.record(&id).await.seats[0].turns }
    };

    // A new reader gets the games, all three.
    let mut stream = open(None).await;
    let snapshot = stream.next_named("games").await.expect("a snapshot");
    let listed: Value = serde_json::from_str(&snapshot.data).expect("JSON");
    assert_eq!(
        listed["games"].as_array().map(Vec::len),
        Some(3),
        "{listed}"
    );
    drop(stream);

    // Away, Ann plays in every game; each move of hers starts new turns of hers.
    let before: Vec<u32> = futures_turns(&games, &turns).await;
    for (i, id) in games.iter().enumerate() {
        for step in 0..3 {
            if !ann_moves(&app, id, &token, (i * 10 + step) as u64).await {
                break;
            }
        }
    }
    let after: Vec<u32> = futures_turns(&games, &turns).await;
    assert!(
        after.iter().zip(&before).any(|(a, b)| a > b),
        "no turn began"
    );

    // Resumed from the snapshot: every turn that began meanwhile, once, game by game.
    let mut resumed = open(snapshot.id.clone()).await;
    let told = until_games(&mut resumed).await;
    for (i, id) in games.iter().enumerate() {
        let turns_told = told
            .iter()
            .filter(|(game, name, _)| game == id && name == "turn")
            .count();
        assert_eq!(
            turns_told as u32,
            after[i] - before[i],
            "game {i}: {told:?}"
        );
    }

    // Live, on the same connection: Ann's next move in a game that waits on her; the bots
    // answer, and what it starts for her there is told (her next turn, or the end).
    let mut live = None;
    for (i, id) in games.iter().enumerate() {
        let was = turns(id.clone()).await;
        if ann_moves(&app, id, &token, 90 + i as u64).await {
            live = Some((id.clone(), was));
            break;
        }
    }
    let Some((id, was)) = live else {
        // Every game ended in the moves above: the resumed batch told each end.
        assert!(
            told.iter().any(|(_, name, _)| name == "finished"),
            "{told:?}"
        );
        server.abort();
        return;
    };
    let record = app.record(&id).await;
    // Batches follow the commits (Ann's, then each bot's): read until one shows the game
    // as it is now, counting what was told of it on the way.
    let mut events = Vec::new();
    while resumed_games_version(&events, &id) != Some(record.version) {
        events.extend(until_games(&mut resumed).await);
    }
    let told_turns = events
        .iter()
        .filter(|(game, name, _)| *game == id && name == "turn")
        .count() as u32;
    assert_eq!(told_turns, record.seats[0].turns - was, "{events:?}");
    let ended = record.status == store::Status::Finished;
    assert!(
        told_turns > 0 || ended,
        "Ann's move gave her no new turn and the game did not end: {events:?}"
    );
    if ended {
        assert!(events
            .iter()
            .any(|(game, name, _)| *game == id && name == "finished"));
    }
    server.abort();
}

/// One move of seat 0 in game `id`, by `token`, if the game waits on it: a random one of its
/// legal actions (drawn under `seed`). `false` when it is not seat 0's turn or the game is over.
async fn ann_moves(app: &TestApp, id: &str, token: &str, seed: u64) -> bool {
    let envelope = app
        .get(&format!("/v1/games/{id}"), Some(token))
        .await
        .json();
    let waits_on_ann = envelope["to_act"]
        .as_array()
        .is_some_and(|seats| seats.iter().any(|seat| seat == 0));
    if envelope["status"] != "active" || !waits_on_ann {
        return false;
    }
    let legal = app
        .get(&format!("/v1/games/{id}/legal-actions"), Some(token))
        .await;
    assert_eq!(legal.status, 200, "{}", legal.text());
    let actions = legal.json()["actions"].as_array().expect("actions").clone();
    let mut rng = game_core::GameRng::for_entry([seed as u8; 32], seed);
    for _ in 0..20 {
        let action =
            game_core::testing::random_action_json(&actions, &mut rng).expect("a playable entry");
        let reply = app
            .post(
                &format!("/v1/games/{id}/actions"),
                Some(token),
                &json!({"action": action}),
                &[],
            )
            .await;
        match reply.status {
            200 => return true,
            422 => continue,
            status => panic!("Ann's move {action} got {status}: {}", reply.text()),
        }
    }
    panic!("no sampled move of Ann's was accepted in {id}");
}

/// Ann's turns in each game so far.
async fn futures_turns<F, Fut>(games: &[String], turns: &F) -> Vec<u32>
where
    F: Fn(String) -> Fut,
    Fut: std::future::Future<Output = u32>,
{
    let mut all = Vec::new();
    for id in games {
        all.push(turns(id.clone()).await);
    }
    all
}
