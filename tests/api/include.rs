//! Issue 37: `include=legal_actions`. A seat's client learns what it may do next from an answer
//! it gets anyway (its move's, or its read or long-poll of the game), and what it learns is
//! exactly what `GET …/legal-actions` lists at that moment.

use crate::start_small;
use api_tests::{spawn_app, TestApp};
use serde_json::{json, Value};

/// `GET …/legal-actions` as the holder of `token`.
async fn listing(app: &TestApp, id: &str, token: &str) -> Value {
    let reply = app
        .get(&format!("/v1/games/{id}/legal-actions"), Some(token))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

#[tokio::test]
async fn a_seat_gets_its_legal_actions_with_the_game_and_with_its_moves_answer() {
    let app = spawn_app().await;
    for ruleset in service::registry().iter() {
        let game = start_small(&app, ruleset).await;
        let id = &game.id;
        let mut moved = 0;
        for _ in 0..12 {
            let public = app.get(&format!("/v1/games/{id}"), None).await.json();
            if public["status"] != "active" {
                break;
            }
            assert!(public.get("legal_actions").is_none(), "not asked for");
            let seat = public["to_act"][0].as_u64().expect("someone acts") as usize;
            let token = &game.tokens[seat];
            let read = app
                .get(
                    &format!("/v1/games/{id}?include=legal_actions"),
                    Some(token),
                )
                .await;
            assert_eq!(read.status, 200, "{}", read.text());
            let read = read.json();
            assert_eq!(read["legal_actions"]["version"], read["version"]);
            assert_eq!(
                read["legal_actions"],
                listing(&app, id, token).await,
                "{}",
                ruleset.id()
            );
            let action = api_tests::some_action(&read["legal_actions"]);
            let reply = app
                .post(
                    &format!("/v1/games/{id}/actions?include=legal_actions"),
                    Some(token),
                    &json!({ "action": action }),
                    &[],
                )
                .await;
            if reply.status == 422 {
                // A sample the rules refuse: nothing changed, try again.
                continue;
            }
            assert_eq!(reply.status, 200, "{}: {}", ruleset.id(), reply.text());
            let answer = reply.json();
            // No bots here: nothing moved after the move, so the listing is at its version.
            assert_eq!(answer["legal_actions"]["version"], answer["version"]);
            assert_eq!(answer["legal_actions"]["seat"], seat);
            assert_eq!(
                answer["legal_actions"],
                listing(&app, id, token).await,
                "{}",
                ruleset.id()
            );
            moved += 1;
        }
        assert!(
            moved >= 3,
            "{}: only {moved} moves were played",
            ruleset.id()
        );
    }
}

#[tokio::test]
async fn a_long_poll_answers_with_the_legal_actions_after_the_change() {
    let app = spawn_app().await;
    let game = app.start_game("tulipmania-1637", 3, json!({})).await;
    let id = game.id.clone();
    let public = app.get(&format!("/v1/games/{id}"), None).await.json();
    let version = public["version"].as_u64().expect("a version");
    let mover = public["to_act"][0].as_u64().expect("someone acts") as usize;
    // Another seat follows the game and waits for any change.
    let follower = (mover + 1) % 3;
    let poll = {
        let (addr, token, id) = (app.addr, game.tokens[follower].clone(), id.clone());
        tokio::spawn(async move {
            let path =
                format!("/v1/games/{id}?after_version={version}&wait=25&include=legal_actions");
            api_tests::request(
                addr,
                "GET",
                &path,
                &[("authorization", &format!("Bearer {token}"))],
                Vec::new(),
            )
            .await
        })
    };
    app.wait_for_polls(1).await;
    let action = crate::first_action(&app, &id, &game.tokens[mover]).await;
    let moved = app.submit(&id, &game.tokens[mover], &action).await;
    assert_eq!(moved.status, 200, "{}", moved.text());
    let answer = poll.await.expect("the poll ends");
    assert_eq!(answer.status, 200, "{}", answer.text());
    let answer = answer.json();
    assert!(answer["version"].as_u64() > Some(version), "{answer}");
    assert_eq!(answer["legal_actions"]["version"], answer["version"]);
    assert_eq!(answer["legal_actions"]["seat"], follower);
    assert_eq!(
        answer["legal_actions"],
        listing(&app, &id, &game.tokens[follower]).await
    );
}

#[tokio::test]
async fn include_needs_a_seat_token_and_a_known_value_and_changes_nothing() {
    let app = spawn_app().await;
    let game = app.start_game("tulipmania-1637", 3, json!({})).await;
    let id = &game.id;
    let before = app.record(id).await;
    let asked = format!("/v1/games/{id}?include=legal_actions");
    let problem = |reply: &api_tests::Reply| reply.json()["code"].clone();
    // A spectator and the admin hold no seat: nothing to list.
    let anonymous = app.get(&asked, None).await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.text());
    let admin = app.get(&asked, Some(&game.admin_token)).await;
    assert_eq!(admin.status, 403, "{}", admin.text());
    assert_eq!(problem(&admin), "forbidden");
    // An unknown value is a 400 problem, on both routes, and no move is made.
    let public = app.get(&format!("/v1/games/{id}"), None).await.json();
    let token = &game.tokens[public["to_act"][0].as_u64().expect("someone acts") as usize];
    let unknown = app
        .get(&format!("/v1/games/{id}?include=everything"), Some(token))
        .await;
    assert_eq!(unknown.status, 400, "{}", unknown.text());
    assert_eq!(problem(&unknown), "malformed-request");
    let action = crate::first_action(&app, id, token).await;
    let post = app
        .post(
            &format!("/v1/games/{id}/actions?include=legal_action"),
            Some(token),
            &json!({ "action": action }),
            &[],
        )
        .await;
    assert_eq!(post.status, 400, "{}", post.text());
    assert_eq!(problem(&post), "malformed-request");
    assert_eq!(app.record(id).await.version, before.version);
    // Before the game starts there is nothing to list: the field is absent.
    let (open, _) = app
        .create_game(&json!({"ruleset": "tulipmania-1637", "seats": 3}))
        .await;
    let claimed = app
        .post(
            &format!("/v1/games/{open}/seats/0"),
            None,
            &json!({"name": "Ann"}),
            &[],
        )
        .await
        .json();
    let seat_token = claimed["player_token"].as_str().expect("a token");
    let lobby = app
        .get(
            &format!("/v1/games/{open}?include=legal_actions"),
            Some(seat_token),
        )
        .await;
    assert_eq!(lobby.status, 200, "{}", lobby.text());
    assert!(
        lobby.json().get("legal_actions").is_none(),
        "{}",
        lobby.text()
    );
}

#[tokio::test]
async fn a_replayed_move_answers_with_the_legal_actions_of_now() {
    let app = spawn_app().await;
    let game = app.start_game("tulip-bubble", 3, json!({})).await;
    let id = &game.id;
    let public = app.get(&format!("/v1/games/{id}"), None).await.json();
    let seat = public["to_act"][0].as_u64().expect("someone acts") as usize;
    let token = &game.tokens[seat];
    let action = crate::first_action(&app, id, token).await;
    let path = format!("/v1/games/{id}/actions?include=legal_actions");
    let body = json!({ "action": action });
    let key = [("idempotency-key", "include-1")];
    let first = app.post(&path, Some(token), &body, &key).await;
    assert_eq!(first.status, 200, "{}", first.text());
    let again = app.post(&path, Some(token), &body, &key).await;
    assert_eq!(again.status, 200, "{}", again.text());
    assert_eq!(again.header("idempotent-replay"), Some("true"));
    let (mut first, mut again) = (first.json(), again.json());
    assert_eq!(again["legal_actions"], listing(&app, id, token).await);
    // Apart from the listing, the replay is the first answer.
    first
        .as_object_mut()
        .expect("an object")
        .remove("legal_actions");
    again
        .as_object_mut()
        .expect("an object")
        .remove("legal_actions");
    assert_eq!(first, again);
}

#[tokio::test]
async fn with_bots_the_listing_comes_after_their_answers() {
    let app = spawn_app().await;
    let (id, _) = app
        .create_game(&json!({"ruleset": "tulipmania-1637", "seats": 3}))
        .await;
    let token = crate::seat_player_and_bots(&app, &id, 3, "basic").await;
    let mut bots_answered = 0;
    for _ in 0..40 {
        let read = app
            .get(
                &format!("/v1/games/{id}?include=legal_actions"),
                Some(&token),
            )
            .await
            .json();
        if read["status"] != "active" {
            break;
        }
        let action = api_tests::some_action(&read["legal_actions"]);
        let reply = app
            .post(
                &format!("/v1/games/{id}/actions?include=legal_actions"),
                Some(&token),
                &json!({ "action": action }),
                &[],
            )
            .await;
        if reply.status == 422 {
            continue;
        }
        assert_eq!(reply.status, 200, "{}", reply.text());
        let answer = reply.json();
        let now = app.get(&format!("/v1/games/{id}"), None).await.json();
        // What the seat may do once the bots have answered, at the game's version now.
        assert_eq!(answer["legal_actions"]["version"], now["version"]);
        assert_eq!(answer["legal_actions"], listing(&app, &id, &token).await);
        if answer["legal_actions"]["version"].as_u64() > answer["version"].as_u64() {
            bots_answered += 1;
        }
    }
    assert!(
        bots_answered > 0,
        "no move of the player was answered by a bot"
    );
}
