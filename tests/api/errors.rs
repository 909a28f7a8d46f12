//! Bad requests get their documented 4xx problem and change nothing.

use api_tests::{spawn_app, Reply, StartedGame, TestApp};
use serde_json::{json, Value};

/// What a game looks like in the store: version and state.
async fn snapshot(app: &TestApp, id: &str) -> (u64, Option<String>, u64) {
    let record = app.record(id).await;
    (record.version, record.state, record.log_len)
}

fn assert_problem(reply: &Reply, status: u16, code: &str) {
    assert_eq!(reply.status, status, "{}", reply.text());
    assert_eq!(
        reply.header("content-type"),
        Some("application/problem+json")
    );
    let problem = reply.json();
    assert_eq!(problem["code"], code, "{problem}");
    assert_eq!(problem["status"], status);
    assert!(problem["type"]
        .as_str()
        .is_some_and(|kind| kind.ends_with(code)));
    assert!(
        problem["title"].is_string()
            && problem["detail"].is_string()
            && problem["instance"].is_string()
    );
}

/// The seat whose turn it is (the seller at the start of a Tulipmania game).
async fn acting_seat(app: &TestApp, game: &StartedGame) -> usize {
    let envelope = app
        .get(&format!("/v1/games/{}", game.id), None)
        .await
        .json();
    envelope["to_act"][0].as_u64().expect("someone acts") as usize
}

#[tokio::test]
async fn bad_submissions_get_their_problem_and_change_nothing() {
    let app = spawn_app().await;
    let game = app.start_game("tulipmania-1637", 3, json!({})).await;
    let other = app.start_game("tulipmania-1637", 3, json!({})).await;
    let seller = acting_seat(&app, &game).await;
    let idle = (seller + 1) % 3;
    let path = format!("/v1/games/{}/actions", game.id);
    let before = snapshot(&app, &game.id).await;
    let version = app.record(&game.id).await.version;
    let token = game.tokens[seller].as_str();
    let json_headers = [
        ("content-type", "application/json"),
        ("authorization", &*format!("Bearer {token}")),
    ];
    let auth_header = format!("Bearer {token}");

    let cases: Vec<(&str, Reply, u16, &str)> = vec![
        (
            "malformed JSON",
            app.send("POST", &path, &json_headers, b"{\"action\": ".to_vec())
                .await,
            400,
            "malformed-request",
        ),
        (
            "invalid UTF-8",
            app.send("POST", &path, &json_headers, vec![0xff, 0xfe, b'{'])
                .await,
            400,
            "malformed-request",
        ),
        (
            "unknown action type",
            app.post(
                &path,
                Some(token),
                &json!({"action": {"type": "fly_away"}}),
                &[],
            )
            .await,
            400,
            "malformed-request",
        ),
        (
            "wrong field type",
            app.post(
                &path,
                Some(token),
                &json!({"action": {"type": "sell_tulip", "colour": 5}}),
                &[],
            )
            .await,
            400,
            "malformed-request",
        ),
        (
            "unknown body field",
            app.post(
                &path,
                Some(token),
                &json!({"action": {"type": "skip_sale"}, "extra": true}),
                &[],
            )
            .await,
            400,
            "malformed-request",
        ),
        (
            "unknown action field",
            app.post(
                &path,
                Some(token),
                &json!({"action": {"type": "skip_sale", "please": 1}}),
                &[],
            )
            .await,
            400,
            "malformed-request",
        ),
        (
            "JSON without a Content-Type",
            app.send(
                "POST",
                &path,
                &[("authorization", &auth_header)],
                br#"{"action": {"type": "sell_tulip", "colour": "purple"}}"#.to_vec(),
            )
            .await,
            415,
            "unsupported-media-type",
        ),
        (
            "not JSON at all",
            app.send(
                "POST",
                &path,
                &[
                    ("content-type", "text/plain"),
                    ("authorization", &auth_header),
                ],
                b"sell".to_vec(),
            )
            .await,
            415,
            "unsupported-media-type",
        ),
        (
            "empty body",
            app.send("POST", &path, &json_headers, Vec::new()).await,
            400,
            "malformed-request",
        ),
        (
            "oversized body",
            app.send("POST", &path, &json_headers, vec![b' '; 70 * 1024])
                .await,
            413,
            "payload-too-large",
        ),
        (
            "no token",
            app.post(&path, None, &json!({"action": {"type": "skip_sale"}}), &[])
                .await,
            401,
            "unauthorized",
        ),
        (
            "garbage token",
            app.post(
                &path,
                Some("bt_seat_nope"),
                &json!({"action": {"type": "skip_sale"}}),
                &[],
            )
            .await,
            401,
            "unauthorized",
        ),
        (
            "another game's token",
            app.post(
                &path,
                Some(&other.tokens[seller]),
                &json!({"action": {"type": "skip_sale"}}),
                &[],
            )
            .await,
            401,
            "unauthorized",
        ),
        (
            "admin token",
            app.post(
                &path,
                Some(&game.admin_token),
                &json!({"action": {"type": "skip_sale"}}),
                &[],
            )
            .await,
            403,
            "forbidden",
        ),
        (
            "wrong seat",
            app.post(
                &path,
                Some(&game.tokens[idle]),
                &json!({"action": {"type": "skip_sale"}}),
                &[],
            )
            .await,
            409,
            "not-your-turn",
        ),
        (
            "rule violation",
            app.post(
                &path,
                Some(token),
                &json!({"action": {"type": "skip_sale"}}),
                &[],
            )
            .await,
            422,
            "must-sell",
        ),
        (
            "another game's action type with fields it does not have",
            app.post(
                &path,
                Some(token),
                &json!({"action": {"type": "post_offer", "bogus": 1}}),
                &[],
            )
            .await,
            422,
            "wrong-ruleset",
        ),
        (
            "another game's action",
            app.post(
                &path,
                Some(token),
                &json!({"action": {"type": "end_turn"}}),
                &[],
            )
            .await,
            422,
            "wrong-ruleset",
        ),
        (
            "wrong phase",
            app.post(
                &path,
                Some(token),
                &json!({"action": {"type": "skip_purchase"}}),
                &[],
            )
            .await,
            422,
            "wrong-phase",
        ),
        (
            "bad If-Match",
            app.post(
                &path,
                Some(token),
                &json!({"action": {"type": "sell_tulip", "colour": "purple"}}),
                &[("if-match", "\"999\"")],
            )
            .await,
            412,
            "stale-version",
        ),
        (
            "weak If-Match",
            app.post(
                &path,
                Some(token),
                &json!({"action": {"type": "sell_tulip", "colour": "purple"}}),
                &[("if-match", &format!("W/\"{version}\""))],
            )
            .await,
            412,
            "stale-version",
        ),
        (
            "bad Idempotency-Key",
            app.post(
                &path,
                Some(token),
                &json!({"action": {"type": "skip_sale"}}),
                &[("idempotency-key", "")],
            )
            .await,
            400,
            "malformed-request",
        ),
        (
            "unknown game",
            app.post(
                "/v1/games/g_AAAAAAAAAAAAAAAAAAAAAA/actions",
                Some(token),
                &json!({"action": {"type": "skip_sale"}}),
                &[],
            )
            .await,
            404,
            "game-not-found",
        ),
        (
            "path traversal id",
            app.post(
                "/v1/games/..%2F..%2Fetc/actions",
                Some(token),
                &json!({"action": {"type": "skip_sale"}}),
                &[],
            )
            .await,
            404,
            "game-not-found",
        ),
    ];
    for (label, reply, status, code) in &cases {
        eprintln!("case: {label}");
        assert_problem(reply, *status, code);
        assert!(
            !reply.text().contains(token),
            "{label}: a problem echoes the token"
        );
    }
    // Each refusal says how to recover (issue 54): who is to act, what the seat may do
    // instead, the version and ETag the game is at, and that a weak tag never matches.
    let problem = |label: &str| {
        let (_, reply, _, _) = cases.iter().find(|case| case.0 == label).expect(label);
        (reply.json(), reply.header("etag").map(str::to_string))
    };
    let (wrong_seat, _) = problem("wrong seat");
    assert_eq!(wrong_seat["to_act"], json!([seller]), "{wrong_seat}");
    assert_eq!(wrong_seat["waiting_on"], json!([seller]), "{wrong_seat}");
    let (wrong_phase, _) = problem("wrong phase");
    assert_eq!(wrong_phase["phase"], "sell_choice", "{wrong_phase}");
    let expected = wrong_phase["expected"].as_array().expect("expected moves");
    assert!(
        expected.contains(&json!("sell_tulip")) && !expected.contains(&json!("skip_purchase")),
        "{wrong_phase}"
    );
    for label in ["bad If-Match", "weak If-Match"] {
        let (stale, etag) = problem(label);
        assert_eq!(stale["current_version"], version, "{label}: {stale}");
        assert_eq!(etag, Some(format!("\"{version}\"")), "{label}");
    }
    let (weak, _) = problem("weak If-Match");
    let detail = weak["detail"].as_str().expect("detail");
    assert!(
        detail.contains("weak") && detail.contains(&format!("\"{version}\"")),
        "{detail}"
    );
    assert_eq!(
        snapshot(&app, &game.id).await,
        before,
        "a refused request changed the game"
    );
    assert_eq!(
        app.store.log(&game.id, None, 100).await.expect("log").len(),
        1,
        "only the setup is logged"
    );
}

#[tokio::test]
async fn bad_creations_and_claims_are_refused() {
    let app = spawn_app().await;
    let cases: Vec<(Value, u16, &str)> = vec![
        (
            json!({"ruleset": "chess", "seats": 2}),
            422,
            "unknown-ruleset",
        ),
        (
            json!({"ruleset": "tulipmania-1637", "seats": 2}),
            422,
            "bad-seat-count",
        ),
        (
            json!({"ruleset": "tulipmania-1637", "seats": 9}),
            422,
            "bad-seat-count",
        ),
        (
            json!({"ruleset": "tulipmania-1637", "seats": 300}),
            400,
            "malformed-request",
        ),
        (
            json!({"ruleset": "tulipmania-1637", "seats": 3, "options": {"no_such_option": 1}}),
            422,
            "invalid-options",
        ),
        (
            json!({"ruleset": "tulipmania-1637", "seats": 3, "options": {"first_player": 7}}),
            422,
            "invalid-options",
        ),
        (
            json!({"ruleset": "tulipmania-1637", "seats": 3, "options": 5}),
            422,
            "invalid-options",
        ),
        (
            json!({"ruleset": "tulipmania-1637", "seats": 3, "colour": "red"}),
            400,
            "malformed-request",
        ),
        (json!({"seats": 3}), 400, "malformed-request"),
    ];
    for (body, status, code) in cases {
        let reply = app.post("/v1/games", None, &body, &[]).await;
        assert_problem(&reply, status, code);
    }
    let lobby = app.get("/v1/games", None).await.json();
    assert_eq!(
        lobby["games"],
        json!([]),
        "no refused creation left a game behind"
    );

    let created = app
        .post(
            "/v1/games",
            None,
            &json!({"ruleset": "tulipmania-1637", "seats": 3}),
            &[],
        )
        .await
        .json();
    let id = created["id"].as_str().expect("id");
    let claim = |seat: &str| format!("/v1/games/{id}/seats/{seat}");
    assert_problem(
        &app.post(&claim("3"), None, &json!({"name": "Ann"}), &[])
            .await,
        404,
        "seat-not-found",
    );
    assert_problem(
        &app.post(&claim("x"), None, &json!({"name": "Ann"}), &[])
            .await,
        404,
        "seat-not-found",
    );
    assert_problem(
        &app.post(&claim("0"), None, &json!({"name": ""}), &[]).await,
        422,
        "invalid-name",
    );
    assert_problem(
        &app.post(
            &claim("0"),
            None,
            &json!({"name": "Ann", "entropy": "x".repeat(257)}),
            &[],
        )
        .await,
        422,
        "entropy-too-long",
    );
    assert_eq!(
        app.post(&claim("0"), None, &json!({"name": "Ann"}), &[])
            .await
            .status,
        201
    );
    assert_problem(
        &app.post(&claim("0"), None, &json!({"name": "Bob"}), &[])
            .await,
        409,
        "seat-taken",
    );
    assert_problem(
        &app.get(
            &format!("/v1/games/{id}/legal-actions"),
            created["admin_token"].as_str(),
        )
        .await,
        403,
        "forbidden",
    );
    assert_problem(
        &app.get("/v1/games/g_AAAAAAAAAAAAAAAAAAAAAA", None).await,
        404,
        "game-not-found",
    );
    assert_problem(
        &app.get("/v1/nothing-here", None).await,
        404,
        "route-not-found",
    );
    assert_problem(
        &app.send("DELETE", "/v1/games", &[], Vec::new()).await,
        405,
        "method-not-allowed",
    );
}

#[tokio::test]
async fn invite_only_games_take_claims_from_the_admin_only() {
    let app = spawn_app().await;
    let created = app
        .post(
            "/v1/games",
            None,
            &json!({"ruleset": "tulipmania-1637", "seats": 3, "invite_only": true}),
            &[],
        )
        .await
        .json();
    let id = created["id"].as_str().expect("id");
    let admin = created["admin_token"].as_str().expect("admin");
    let path = format!("/v1/games/{id}/seats/0");
    assert_problem(
        &app.post(&path, None, &json!({"name": "Ann"}), &[]).await,
        401,
        "unauthorized",
    );
    assert_eq!(
        app.post(&path, Some(admin), &json!({"name": "Ann"}), &[])
            .await
            .status,
        201
    );
    let lobby = app.get("/v1/games", None).await.json();
    assert_eq!(
        lobby["games"],
        json!([]),
        "invite-only games are not in the lobby"
    );
}
