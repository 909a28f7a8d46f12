//! Seats that change hands: seats claimed for bots, resigning (a bot plays on), and the admin
//! giving a seat to a new player (the old token stops working).

use crate::{options_for, test_options};
use api_tests::{spawn_app, TestApp};
use game_core::GameRng;
use serde_json::{json, Value};

/// The seats a finished game's log shows moving (entry 0, the deal, has none).
async fn movers(app: &TestApp, id: &str) -> Vec<u64> {
    let audit = app.full_audit(id).await;
    assert_eq!(audit.status, 200, "{}", audit.text());
    let mut seats: Vec<u64> = audit.json()["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter_map(|entry| entry["seat"].as_u64())
        .collect();
    seats.sort_unstable();
    seats.dedup();
    seats
}

/// Plays the seats in `players` (seat, token) with random legal moves until the game is
/// over; the server plays every other seat. Returns the players' moves. Panics if the game
/// ever waits on nobody but its bots (they must have moved before the last answer).
async fn play_players(app: &TestApp, id: &str, players: &[(u64, String)], seed: u64) -> usize {
    let mut bot = GameRng::for_entry([seed as u8; 32], 0);
    let mut moves = 0;
    for _ in 0..20_000 {
        let envelope = app.get(&format!("/v1/games/{id}"), None).await.json();
        if envelope["status"] == "finished" {
            return moves;
        }
        let waiting: Vec<u64> = envelope["waiting_on"]
            .as_array()
            .expect("waiting_on")
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        let (seat, token) = players
            .iter()
            .find(|(seat, _)| waiting.contains(seat))
            .unwrap_or_else(|| panic!("the game waits on {waiting:?}, none of them a player"));
        let legal = app
            .get(&format!("/v1/games/{id}/legal-actions"), Some(token))
            .await
            .json();
        let actions = legal["actions"].as_array().expect("actions").clone();
        let mut accepted = false;
        for _ in 0..20 {
            let action =
                game_core::testing::random_action_json(&actions, &mut bot).expect("an action");
            let reply = app.submit(id, token, &action).await;
            match reply.status {
                200 => {
                    accepted = true;
                    break;
                }
                422 => continue,
                status => panic!("seat {seat}'s move {action} got {status}: {}", reply.text()),
            }
        }
        assert!(accepted, "no sampled move of seat {seat} was accepted");
        moves += 1;
    }
    panic!("game {id} did not finish");
}

/// Creates a game of `ruleset` with `seats` seats; returns its id and admin token.
async fn create(app: &TestApp, ruleset: &str, seats: u8, options: Value) -> (String, String) {
    app.create_game(&json!({"ruleset": ruleset, "seats": seats, "options": options}))
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_player_finishes_every_ruleset_against_random_bots() {
    let app = spawn_app().await;
    for ruleset in service::registry().iter() {
        let seats = ruleset.seat_range().0.max(3);
        one_player_against_bots(&app, ruleset.id(), seats).await;
    }
}

/// A game of `ruleset` where seat 0 is a player and every other seat a random bot, played to
/// the end by the player alone; its audit verifies and shows every seat moving.
pub async fn one_player_against_bots(app: &TestApp, ruleset: &str, seats: u8) {
    one_player_against(app, ruleset, seats, &["random"]).await;
}

/// [`one_player_against_bots`] with the other seats' bots taken in turn from `bots`.
pub async fn one_player_against(app: &TestApp, ruleset: &str, seats: u8, bots: &[&str]) {
    let registry = service::registry();
    let bot_of = |seat: u8| bots[usize::from(seat - 1) % bots.len()];
    let (id, _) = create(app, ruleset, seats, options_for(ruleset, seats)).await;
    let mut player = None;
    for seat in 0..seats {
        let body = if seat == 0 {
            json!({"name": "Ann"})
        } else {
            json!({"bot": bot_of(seat)})
        };
        let claimed = app
            .post(&format!("/v1/games/{id}/seats/{seat}"), None, &body, &[])
            .await;
        assert_eq!(claimed.status, 201, "{}", claimed.text());
        let claimed = claimed.json();
        if seat == 0 {
            player = Some(claimed["player_token"].as_str().expect("token").to_string());
        } else {
            assert!(
                claimed.get("player_token").is_none(),
                "a bot seat got a token: {claimed}"
            );
            assert_eq!(claimed["bot"], bot_of(seat));
        }
    }
    let envelope = app.get(&format!("/v1/games/{id}"), None).await.json();
    assert_eq!(envelope["seats"][1]["bot"], bot_of(1));
    let mut name = bot_of(1).to_string();
    name[..1].make_ascii_uppercase();
    assert_eq!(envelope["seats"][1]["name"], format!("{name} bot"));
    assert_eq!(envelope["seats"][1]["claimed"], true);
    assert_eq!(envelope["seats"][0]["bot"], Value::Null);

    let player = player.expect("seat 0 is a player's");
    let moves = play_players(app, &id, &[(0, player)], u64::from(seats)).await;
    // Every seat moved: the bots through the same commit path as the player.
    assert_eq!(
        movers(app, &id).await,
        (0..u64::from(seats)).collect::<Vec<_>>(),
        "{ruleset}"
    );
    let audit: service::audit::Audit =
        serde_json::from_slice(&app.full_audit(&id).await.body).expect("an audit");
    let verified = service::audit::verify(&registry, &audit).expect("the audit verifies");
    assert!(
        verified.entries > moves + 1,
        "the bots' moves are in the log"
    );
    eprintln!(
        "{ruleset}: the player made {moves} of {} moves",
        verified.entries - 1
    );
}

/// One request plays bots for at most the server's drive budget (`AppCtx::drive_budget`,
/// 5 s in production, 1 ms here) and leaves the rest due at once; the deadline worker plays
/// on, each sweep within the same budget, until the game is over. Every other test gives its
/// server minutes (`api_tests::TEST_DRIVE_BUDGET`), so that none depends on this limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_plays_bots_within_its_budget_and_the_worker_plays_on() {
    let budget = std::time::Duration::from_millis(1);
    let app = api_tests::spawn_app_configured(|ctx| ctx.with_drive_budget(budget)).await;
    let (id, _admin) = create(&app, "tulip-bubble", 3, test_options("tulip-bubble")).await;
    for seat in 0..3 {
        app.claim_bot(&id, seat, "random").await;
    }
    // A game of three bots takes hundreds of moves; the last claim played a few at most.
    let left = app.record(&id).await;
    assert_eq!(left.status, store::Status::Active);
    let due = left.due_at.expect("a game waiting on bots is due");
    assert!(due <= service::time::now_ms(), "due at once, not later");

    // The worker (another process over the same store, with the same budget) plays on.
    let worker = service::AppCtx::new(std::sync::Arc::clone(&app.store)).with_drive_budget(budget);
    let mut sweeps = 0;
    while app.record(&id).await.status == store::Status::Active {
        assert!(sweeps < 10_000, "the worker did not finish the game");
        let report = service::deadlines::sweep(&worker, service::time::now_ms())
            .await
            .expect("a sweep");
        assert_eq!(report.games, 1, "the game is due until it is over");
        assert!(report.bot_moves >= 1, "each sweep plays on");
        sweeps += 1;
    }
    assert!(sweeps > 1, "one sweep played the whole game within 1 ms");
    let finished = app.record(&id).await;
    assert_eq!(finished.due_at, None, "a finished game is not due");
    assert_eq!(movers(&app, &id).await, vec![0, 1, 2]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_bots_alone_plays_itself_to_the_end_when_its_last_seat_is_claimed() {
    let app = spawn_app().await;
    let (id, admin) = create(&app, "tulip-bubble", 3, test_options("tulip-bubble")).await;
    for seat in 0..3 {
        let claimed = app
            .post(
                &format!("/v1/games/{id}/seats/{seat}"),
                None,
                &json!({"bot": "random", "name": format!("Robo {seat}")}),
                &[],
            )
            .await;
        assert_eq!(claimed.status, 201, "{}", claimed.text());
    }
    let envelope = app.get(&format!("/v1/games/{id}"), None).await.json();
    assert_eq!(envelope["status"], "finished", "{envelope}");
    assert_eq!(envelope["seats"][2]["name"], "Robo 2");
    assert_eq!(movers(&app, &id).await, vec![0, 1, 2]);
    // A bot seat has no token to replace; the admin may still give it to a player, but not
    // once the game is over.
    let replaced = app
        .post(
            &format!("/v1/games/{id}/seats/1/replace"),
            Some(&admin),
            &json!({"name": "Late"}),
            &[],
        )
        .await;
    assert_eq!(replaced.status, 409, "{}", replaced.text());
    assert_eq!(replaced.json()["code"], "game-over");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_needs_a_name_or_a_bot_and_refuses_unknown_bots() {
    let app = spawn_app().await;
    let (id, _) = create(&app, "tulip-bubble", 3, json!({})).await;
    let claim = |body: Value| {
        let app = &app;
        let id = id.clone();
        async move {
            app.post(&format!("/v1/games/{id}/seats/0"), None, &body, &[])
                .await
        }
    };
    let nameless = claim(json!({})).await;
    assert_eq!(nameless.status, 422, "{}", nameless.text());
    assert_eq!(nameless.json()["code"], "invalid-name");
    let unknown = claim(json!({"bot": "genius"})).await;
    assert_eq!(unknown.status, 400, "{}", unknown.text());
    // Nothing was taken by the refused claims.
    let record = app.record(&id).await;
    assert!(record.seats.iter().all(|seat| !seat.is_claimed()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resigned_seat_is_played_by_a_bot_and_its_token_only_reads() {
    let app = spawn_app().await;
    let (id, admin) = create(&app, "tulip-bubble", 3, json!({})).await;
    let mut tokens = Vec::new();
    for seat in 0..3 {
        let claimed = app
            .post(
                &format!("/v1/games/{id}/seats/{seat}"),
                None,
                &json!({"name": format!("player {seat}")}),
                &[],
            )
            .await;
        tokens.push(
            claimed.json()["player_token"]
                .as_str()
                .expect("token")
                .to_string(),
        );
        if seat == 0 {
            // Nothing to resign from before the game starts.
            let early = app
                .post(
                    &format!("/v1/games/{id}/seats/0/resign"),
                    Some(&tokens[0]),
                    &json!({}),
                    &[],
                )
                .await;
            assert_eq!(early.status, 409, "{}", early.text());
            assert_eq!(early.json()["code"], "game-not-active");
        }
    }
    let resign = |token: Option<String>, seat: u8| {
        let app = &app;
        let id = id.clone();
        async move {
            app.post(
                &format!("/v1/games/{id}/seats/{seat}/resign"),
                token.as_deref(),
                &json!({}),
                &[],
            )
            .await
        }
    };
    // Only the seat's own token resigns it.
    assert_eq!(resign(None, 1).await.status, 401);
    assert_eq!(resign(Some(tokens[0].clone()), 1).await.status, 403);
    assert_eq!(resign(Some(admin.clone()), 1).await.status, 403);
    assert_eq!(resign(Some(tokens[1].clone()), 7).await.status, 404);
    let before = app.record(&id).await;
    assert!(before.seats.iter().all(|seat| seat.bot.is_none()));

    let resigned = resign(Some(tokens[1].clone()), 1).await;
    assert_eq!(resigned.status, 200, "{}", resigned.text());
    assert_eq!(resigned.json()["bot"], "random");
    let again = resign(Some(tokens[1].clone()), 1).await;
    assert_eq!(again.status, 409);
    assert_eq!(again.json()["code"], "seat-resigned");

    // The token still reads the seat's own view, but moves no more.
    let own = app.get(&format!("/v1/games/{id}"), Some(&tokens[1])).await;
    assert_eq!(own.status, 200);
    let own = own.json();
    assert_eq!(own["you"]["seat"], 1);
    assert_eq!(own["seats"][1]["resigned"], true);
    assert_eq!(own["seats"][1]["bot"], "random");
    let refused = app
        .submit(&id, &tokens[1], &json!({"type": "end_selling_turn"}))
        .await;
    assert_eq!(refused.status, 409, "{}", refused.text());
    assert_eq!(refused.json()["code"], "seat-resigned");

    // The two players finish the game; the bot moves for seat 1 whenever it is waited on.
    let players = [(0, tokens[0].clone()), (2, tokens[2].clone())];
    play_players(&app, &id, &players, 5).await;
    assert!(
        movers(&app, &id).await.contains(&1),
        "the bot moved for seat 1"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_admin_gives_a_seat_to_a_new_player_and_the_old_token_stops_working() {
    let app = spawn_app().await;
    let game = app
        .start_game("tulip-bubble", 3, test_options("tulip-bubble"))
        .await;
    let id = &game.id;
    let replace = |token: Option<&str>, seat: u8, body: Value| {
        let app = &app;
        let path = format!("/v1/games/{id}/seats/{seat}/replace");
        let token = token.map(str::to_string);
        async move { app.post(&path, token.as_deref(), &body, &[]).await }
    };
    let name = json!({"name": "Bea"});
    assert_eq!(replace(None, 2, name.clone()).await.status, 401);
    assert_eq!(
        replace(Some(&game.tokens[0]), 2, name.clone()).await.status,
        403
    );
    let bad_name = replace(Some(&game.admin_token), 2, json!({"name": ""})).await;
    assert_eq!(bad_name.status, 422);
    assert_eq!(
        replace(Some(&game.admin_token), 9, name.clone())
            .await
            .status,
        404
    );

    // Seat 2's player subscribed to its turns; the subscription is theirs, not the seat's.
    let hook = app
        .post(
            &format!("/v1/games/{id}/webhooks"),
            Some(&game.tokens[2]),
            &json!({"url": "https://1.1.1.1/hook", "events": ["turn"]}),
            &[],
        )
        .await;
    assert_eq!(hook.status, 201, "{}", hook.text());
    let before = app.record(id).await;

    let replaced = replace(Some(&game.admin_token), 2, name).await;
    assert_eq!(replaced.status, 200, "{}", replaced.text());
    let replaced = replaced.json();
    let new_token = replaced["player_token"].as_str().expect("a new token");
    assert_ne!(new_token, game.tokens[2]);
    assert_eq!(replaced["version"], before.version + 1);

    let old = app
        .get(
            &format!("/v1/games/{id}/legal-actions"),
            Some(&game.tokens[2]),
        )
        .await;
    assert_eq!(old.status, 401, "the old token still works");
    let new = app
        .get(&format!("/v1/games/{id}"), Some(new_token))
        .await
        .json();
    assert_eq!(new["you"]["seat"], 2);
    assert_eq!(new["seats"][2]["name"], "Bea");
    let after = app.record(id).await;
    assert_eq!(after.state, before.state, "the game itself is unchanged");
    assert_eq!(after.log_len, before.log_len);
    assert!(
        before.hooks.iter().any(|hook| hook.seat == Some(2))
            && after.hooks.iter().all(|hook| hook.seat != Some(2)),
        "the old player's subscription survived"
    );

    // A resigned seat given to a new player is a player's again.
    let resigned = app
        .post(
            &format!("/v1/games/{id}/seats/0/resign"),
            Some(&game.tokens[0]),
            &json!({}),
            &[],
        )
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text());
    let back = replace(Some(&game.admin_token), 0, json!({"name": "Cas"})).await;
    assert_eq!(back.status, 200, "{}", back.text());
    let back_token = back.json()["player_token"]
        .as_str()
        .expect("token")
        .to_string();
    let envelope = app.get(&format!("/v1/games/{id}"), None).await.json();
    assert_eq!(envelope["seats"][0]["bot"], Value::Null);
    assert_eq!(envelope["seats"][0]["resigned"], false);
    let players = [
        (0, back_token),
        (1, game.tokens[1].clone()),
        (2, new_token.to_string()),
    ];
    play_players(&app, id, &players, 9).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_free_seat_cannot_be_replaced() {
    let app = spawn_app().await;
    let (id, admin) = create(&app, "tulip-bubble", 3, json!({})).await;
    let reply = app
        .post(
            &format!("/v1/games/{id}/seats/1/replace"),
            Some(&admin),
            &json!({"name": "Bea"}),
            &[],
        )
        .await;
    assert_eq!(reply.status, 409, "{}", reply.text());
    assert_eq!(reply.json()["code"], "seat-free");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_games_lists_the_tokens_game_with_whose_turn_it_is() {
    let app = spawn_app().await;
    let game = app
        .start_game("tulip-bubble", 3, test_options("tulip-bubble"))
        .await;
    let envelope = app
        .get(&format!("/v1/games/{}", game.id), None)
        .await
        .json();
    let waiting: Vec<u64> = envelope["waiting_on"]
        .as_array()
        .expect("waiting_on")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    for (seat, token) in game.tokens.iter().enumerate() {
        let mine = app.get("/v1/me/games", Some(token)).await;
        assert_eq!(mine.status, 200, "{}", mine.text());
        let games = mine.json()["games"].as_array().expect("games").clone();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0]["id"], game.id.as_str());
        assert_eq!(games[0]["seat"], seat);
        assert_eq!(games[0]["your_turn"], waiting.contains(&(seat as u64)));
        assert_eq!(games[0]["waiting_on"], envelope["waiting_on"]);
        assert_eq!(games[0]["version"], envelope["version"]);
    }
    let admin = app
        .get("/v1/me/games", Some(&game.admin_token))
        .await
        .json();
    assert_eq!(admin["games"][0]["seat"], Value::Null);
    assert_eq!(admin["games"][0]["your_turn"], false);

    // No token, a token of no game, a forged token naming this game, an old-style token:
    // all 401, none of them telling anything about the game.
    let forged = format!(
        "{}.{}",
        game.tokens[0].rsplit_once('.').expect("a game part").0,
        "A".repeat(43)
    );
    for token in [
        None,
        Some("bt_seat_AAAAAAAAAAAAAAAAAAAAAA.".to_string() + &"B".repeat(43)),
        Some(forged),
        Some(format!("bt_seat_{}", "C".repeat(43))),
    ] {
        let reply = app.get("/v1/me/games", token.as_deref()).await;
        assert_eq!(reply.status, 401, "{token:?}: {}", reply.text());
        assert!(!reply.text().contains(&game.id), "{}", reply.text());
    }
}

/// Two bots of a kind get names that tell them apart ("Basic bot", "Basic bot 2"), so the
/// log, the results and a choice of buyer can say which one; a named bot keeps its name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_of_one_kind_get_names_that_tell_them_apart() {
    let app = spawn_app().await;
    let (id, _) = create(&app, "tulip-bubble", 5, json!({})).await;
    for (seat, body) in [
        (1, json!({"bot": "basic"})),
        (2, json!({"bot": "basic"})),
        (3, json!({"bot": "basic", "name": "Robo"})),
        (4, json!({"bot": "basic"})),
    ] {
        let claimed = app
            .post(&format!("/v1/games/{id}/seats/{seat}"), None, &body, &[])
            .await;
        assert_eq!(claimed.status, 201, "{}", claimed.text());
    }
    let envelope = app.get(&format!("/v1/games/{id}"), None).await.json();
    let names: Vec<&Value> = (1..5)
        .map(|seat| &envelope["seats"][seat]["name"])
        .collect();
    assert_eq!(
        names,
        [
            &json!("Basic bot"),
            &json!("Basic bot 2"),
            &json!("Robo"),
            &json!("Basic bot 3")
        ]
    );
}

/// The claim of the last seat deals, and its answer says who moves first (issue 54): the
/// same seats the game's `to_act` names at that version. Earlier claims name nobody.
#[tokio::test]
async fn the_last_claim_says_who_moves_first() {
    let app = spawn_app().await;
    let (id, _) = app
        .create_game(&json!({"ruleset": "tulip-bubble", "seats": 3}))
        .await;
    for seat in 0..2 {
        let claimed = app
            .post(
                &format!("/v1/games/{id}/seats/{seat}"),
                None,
                &json!({"name": format!("p{seat}")}),
                &[],
            )
            .await
            .json();
        assert_eq!(claimed["status"], "open", "{claimed}");
        assert_eq!(claimed["to_act"], json!([]), "{claimed}");
    }
    let last = app
        .post(
            &format!("/v1/games/{id}/seats/2"),
            None,
            &json!({"name": "p2"}),
            &[],
        )
        .await
        .json();
    assert_eq!(last["status"], "active", "{last}");
    let game = app.get(&format!("/v1/games/{id}"), None).await.json();
    assert_eq!(game["version"], last["version"], "no bot moved since");
    assert_eq!(last["to_act"], game["to_act"], "{last}");
    assert!(!last["to_act"].as_array().expect("seats").is_empty());
}

/// A resigning player may name the bot that plays on (issue 54: it was always `random`); an
/// unknown level is refused and changes nothing; no body at all still means `random`.
#[tokio::test]
async fn a_resigning_player_chooses_the_bot_that_plays_on() {
    let app = spawn_app().await;
    let game = app
        .start_game("tulip-bubble", 3, test_options("tulip-bubble"))
        .await;
    let path = |seat: usize| format!("/v1/games/{}/seats/{seat}/resign", game.id);
    let bearer = |seat: usize| format!("Bearer {}", game.tokens[seat]);
    let unknown = app
        .post(
            &path(1),
            Some(&game.tokens[1]),
            &json!({"bot": "genius"}),
            &[],
        )
        .await;
    assert_eq!(unknown.status, 400, "{}", unknown.text());
    assert!(
        app.record(&game.id).await.seats[1].bot.is_none(),
        "unchanged"
    );
    let strong = app
        .post(
            &path(1),
            Some(&game.tokens[1]),
            &json!({"bot": "strong"}),
            &[],
        )
        .await;
    assert_eq!(strong.status, 200, "{}", strong.text());
    assert_eq!(strong.json()["bot"], "strong");
    let seen = app
        .get(&format!("/v1/games/{}", game.id), None)
        .await
        .json();
    assert_eq!(seen["seats"][1]["bot"], "strong", "{seen}");
    // No body and no Content-Type (as a browser's bare POST sends it): `random`.
    let bare = app
        .send(
            "POST",
            &path(2),
            &[("authorization", &bearer(2))],
            Vec::new(),
        )
        .await;
    assert_eq!(bare.status, 200, "{}", bare.text());
    assert_eq!(bare.json()["bot"], "random");
}

/// The admin may give a claimed seat to a bot of a chosen level instead of a new player
/// (issue 54): the answer names the bot and holds no token, the old token stops working, and
/// the game goes on with the bot. Neither or both of `name` and `bot` is a 400 and changes
/// nothing.
#[tokio::test]
async fn the_admin_gives_a_seat_to_a_bot_of_a_chosen_level() {
    let app = spawn_app().await;
    let game = app
        .start_game("tulip-bubble", 3, test_options("tulip-bubble"))
        .await;
    let path = format!("/v1/games/{}/seats/1/replace", game.id);
    let admin = Some(game.admin_token.as_str());
    for body in [json!({}), json!({"name": "Bea", "bot": "basic"})] {
        let refused = app.post(&path, admin, &body, &[]).await;
        assert_eq!(refused.status, 400, "{body}: {}", refused.text());
    }
    assert!(
        app.record(&game.id).await.seats[1].bot.is_none(),
        "unchanged"
    );
    let given = app.post(&path, admin, &json!({"bot": "strong"}), &[]).await;
    assert_eq!(given.status, 200, "{}", given.text());
    let given = given.json();
    assert_eq!(given["bot"], "strong", "{given}");
    assert!(given.get("player_token").is_none(), "{given}");
    let seen = app
        .get(&format!("/v1/games/{}", game.id), None)
        .await
        .json();
    assert_eq!(seen["seats"][1]["bot"], "strong", "{seen}");
    let old = app
        .get(&format!("/v1/games/{}", game.id), Some(&game.tokens[1]))
        .await;
    assert_eq!(old.status, 401, "the old token stops working");
    // The game goes on: the bot moves whenever it is waited on, and never holds it up.
    let waiting = seen["waiting_on"].as_array().expect("waiting_on").clone();
    assert!(
        !waiting.contains(&json!(1)) || seen["status"] == "finished",
        "the game waits on the bot: {seen}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_leaves_a_seat_before_the_game_starts_and_not_after() {
    let app = spawn_app().await;
    let (id, admin) = create(&app, "tulip-bubble", 4, test_options("tulip-bubble")).await;
    let seat_path = |seat: u8| format!("/v1/games/{id}/seats/{seat}");
    let claim = |seat: u8, body: Value| {
        let app = &app;
        let path = seat_path(seat);
        async move {
            let claimed = app.post(&path, None, &body, &[]).await;
            assert_eq!(claimed.status, 201, "{}", claimed.text());
            claimed.json()["player_token"].as_str().map(str::to_owned)
        }
    };
    let leave = |seat: u8, token: Option<String>| {
        let app = &app;
        let path = seat_path(seat);
        async move {
            let auth = token.map(|token| format!("Bearer {token}"));
            let headers: Vec<(&str, &str)> = auth
                .iter()
                .map(|value| ("authorization", value.as_str()))
                .collect();
            app.send("DELETE", &path, &headers, Vec::new()).await
        }
    };
    let ann = claim(0, json!({"name": "Ann", "entropy": "Ann's own dice"}))
        .await
        .expect("Ann's token");
    assert_eq!(claim(1, json!({"bot": "basic"})).await, None);
    let bea = claim(2, json!({"name": "Bea"})).await.expect("Bea's token");

    // Nobody, another seat, or no such seat: refused, and nothing changes.
    let before = app.record(&id).await;
    assert_eq!(leave(0, None).await.status, 401);
    let other = leave(0, Some(bea.clone())).await;
    assert_eq!(other.status, 403, "{}", other.text());
    assert_eq!(leave(9, Some(ann.clone())).await.status, 404);
    assert_eq!(app.record(&id).await.version, before.version);

    // Ann leaves: her seat is free, with nothing of hers left in it; her token is dead.
    let left = leave(0, Some(ann.clone())).await;
    assert_eq!(left.status, 200, "{}", left.text());
    let left_json = left.json();
    assert_eq!(left_json["seat"], 0);
    assert_eq!(left_json["status"], "open");
    assert_eq!(left_json["version"], before.version + 1);
    assert_eq!(
        left.header("etag").map(str::to_owned),
        Some(format!("\"{}\"", before.version + 1))
    );
    let after = app.record(&id).await;
    assert_eq!(after.seats[0], store::SeatRecord::default());
    assert_eq!(after.seats[1..], before.seats[1..], "the other seats stay");
    let dead = app.get(&format!("/v1/games/{id}"), Some(&ann)).await;
    assert_eq!(
        dead.status,
        401,
        "the old token still works: {}",
        dead.text()
    );
    let again = leave(0, Some(admin.clone())).await;
    assert_eq!(again.status, 409);
    assert_eq!(again.json()["code"], "seat-free");

    // The admin frees the bot's seat; the lobby offers both seats again.
    assert_eq!(leave(1, Some(admin.clone())).await.status, 200);
    let lobby = app.get("/v1/games", None).await.json();
    let listed = lobby["games"]
        .as_array()
        .and_then(|games| games.iter().find(|game| game["id"] == id.as_str()))
        .cloned()
        .expect("the game is in the lobby");
    assert_eq!(listed["open_seats"], json!([0, 1, 3]));

    // Once the last seat is claimed the game starts: a seat can no longer be left.
    claim(0, json!({"name": "Cas"})).await;
    claim(1, json!({"bot": "random"})).await;
    claim(3, json!({"bot": "random"})).await;
    let started = app.record(&id).await;
    assert_eq!(started.status, store::Status::Active);
    let late = leave(2, Some(bea)).await;
    assert_eq!(late.status, 409, "{}", late.text());
    assert_eq!(late.json()["code"], "game-not-open");
    assert_eq!(app.record(&id).await.version, started.version);
}
