//! Pauses and vacations: the admin stops every clock and starts them again; a seat's vacation
//! stops only its own clock, within its allowance. The deadline worker is driven here with an
//! injected `now` (`service::deadlines::sweep`), so the tests are about time without waiting for it.

use crate::test_options;
use api_tests::{random_move, spawn_app, TestApp};
use serde_json::{json, Value};
use std::sync::Arc;

const HOUR_MS: u64 = 3_600_000;

/// The players' names, by seat.
const NAMES: [&str; 3] = ["Anna", "Ben", "Cor"];

/// Tulipmania with three players and `clock`; the game id, the admin token and the seats'.
async fn clocked_game(app: &TestApp, clock: Value) -> (String, String, Vec<String>) {
    let mut body = json!({"ruleset": "tulipmania-1637", "seats": 3, "clock": clock});
    body["options"] = test_options("tulipmania-1637");
    let (id, admin) = app.create_game(&body).await;
    let mut tokens = Vec::new();
    for (seat, name) in (0u8..).zip(NAMES) {
        tokens.push(app.claim_player(&id, seat, name).await);
    }
    (id, admin, tokens)
}

/// A deadline worker of another process over the same store, swept at `now`.
async fn sweep_at(app: &TestApp, now: u64) -> service::deadlines::SweepReport {
    let ctx = api_tests::test_ctx(Arc::clone(&app.store));
    service::deadlines::sweep(&ctx, now).await.expect("a sweep")
}

async fn post(app: &TestApp, path: &str, token: &str) -> api_tests::Reply {
    app.post(path, Some(token), &json!({}), &[]).await
}

async fn delete(app: &TestApp, path: &str, token: &str) -> api_tests::Reply {
    let auth = format!("Bearer {token}");
    api_tests::request(
        app.addr,
        "DELETE",
        path,
        &[("authorization", &auth)],
        Vec::new(),
    )
    .await
}

/// The first seat the game waits on.
async fn waited(app: &TestApp, id: &str) -> usize {
    let game = app.get(&format!("/v1/games/{id}"), None).await.json();
    let waiting = game["waiting_on"].as_array().unwrap();
    assert!(!waiting.is_empty(), "{game}");
    waiting[0].as_u64().unwrap() as usize
}

fn seat_clock(record: &store::GameRecord, seat: usize) -> Value {
    record.clock.as_ref().expect("a clock")["seats"][seat].clone()
}

/// The log's last entry, as a spectator reads it.
async fn last_entry(app: &TestApp, id: &str) -> Value {
    let record = app.record(id).await;
    let after = record.log_len - 2;
    let page = app
        .get(&format!("/v1/games/{id}/log?after={after}"), None)
        .await
        .json();
    page["entries"][0].clone()
}

/// While the admin has paused a game, no deadline passes however late the worker sweeps;
/// resumed, the waiting seat's deadline has moved on by exactly the pause, and it runs out.
/// Both show in the view, `GET /v1/me/games` and the log.
#[tokio::test]
async fn a_paused_games_clocks_do_not_run_and_resume_exactly() {
    let app = spawn_app().await;
    let (id, admin, tokens) = clocked_game(&app, json!({"per_move": "PT60S"})).await;
    let seat = waited(&app, &id).await;
    let before = app.record(&id).await;
    let deadline_before = seat_clock(&before, seat)["deadline"].as_u64().unwrap();

    let paused = post(&app, &format!("/v1/games/{id}/pause"), &admin).await;
    assert_eq!(paused.status, 200, "{}", paused.text());
    let game = paused.json();
    assert!(game["clock"]["paused_since"].is_string(), "{game}");
    assert!(game["clock"]["seats"][seat]["deadline"].is_null());
    let left = game["clock"]["seats"][seat]["left_ms"].as_u64().unwrap();
    assert!(left > 0 && left <= 60_000, "{left}");
    let pause = last_entry(&app, &id).await;
    assert_eq!(pause["headline"], "The admin paused every clock.");
    assert!(pause["seat"].is_null());
    let mine = app.get("/v1/me/games", Some(&tokens[seat])).await.json();
    assert!(
        mine["games"][0]["clock"]["paused_since"].is_string(),
        "{mine}"
    );
    // Pausing again changes nothing.
    let again = post(&app, &format!("/v1/games/{id}/pause"), &admin).await;
    assert_eq!(again.status, 200);
    assert_eq!(again.json()["version"], game["version"]);

    let report = sweep_at(&app, service::time::now_ms() + 10 * HOUR_MS).await;
    assert_eq!(report.timeouts, 0, "a paused clock ran out: {report:?}");
    assert_eq!(waited(&app, &id).await, seat, "nobody moved for the seat");

    let resumed = post(&app, &format!("/v1/games/{id}/resume"), &admin).await;
    assert_eq!(resumed.status, 200, "{}", resumed.text());
    assert!(resumed.json()["clock"]["paused_since"].is_null());
    let resume = last_entry(&app, &id).await;
    assert_eq!(resume["headline"], "The admin started the clocks again.");
    let after = app.record(&id).await;
    let deadline_after = seat_clock(&after, seat)["deadline"].as_u64().unwrap();
    let log = app
        .store
        .log(&id, Some(before.log_len - 1), 10)
        .await
        .unwrap();
    let (pause_at, resume_at) = (log[0].at, log[1].at);
    assert_eq!(
        deadline_after - deadline_before,
        resume_at - pause_at,
        "the wait moved on by exactly the pause"
    );
    // The clock runs again: a late sweep times the seat out.
    let report = sweep_at(&app, deadline_after + 1).await;
    assert_eq!(report.timeouts, 1, "{report:?}");
}

/// A seat on vacation does not time out; once its allowance runs out (the worker ends the
/// vacation as of then), its clock runs again with the time its wait had left, and a seat
/// with no allowance left is refused. The log tells both.
#[tokio::test]
async fn a_vacation_ends_with_its_allowance() {
    let app = spawn_app().await;
    let (id, _admin, tokens) =
        clocked_game(&app, json!({"per_move": "PT60S", "vacation": "PT2H"})).await;
    let seat = waited(&app, &id).await;
    let path = format!("/v1/games/{id}/seats/{seat}/vacation");
    let away = post(&app, &path, &tokens[seat]).await;
    assert_eq!(away.status, 200, "{}", away.text());
    let game = away.json();
    assert!(
        game["clock"]["seats"][seat]["vacation_since"].is_string(),
        "{game}"
    );
    assert_eq!(
        game["clock"]["seats"][seat]["vacation_left_ms"],
        2 * HOUR_MS
    );
    assert_eq!(
        last_entry(&app, &id).await["headline"],
        format!(
            "{} went on vacation: their clock stands still.",
            NAMES[seat]
        )
    );
    let went = app.record(&id).await;
    let went_at = app.store.log(&id, Some(went.log_len - 2), 1).await.unwrap()[0].at;

    // An hour later: no timeout.
    let report = sweep_at(&app, went_at + HOUR_MS).await;
    assert_eq!(report.timeouts, 0, "{report:?}");
    // When the allowance runs out, the worker ends the vacation as of then: the wait goes on
    // with what it had left, moved on by exactly the two hours.
    let deadline_before = seat_clock(&went, seat)["deadline"].as_u64().unwrap();
    let report = sweep_at(&app, went_at + 2 * HOUR_MS + 1).await;
    assert_eq!(report.vacations_ended, 1, "{report:?}");
    assert_eq!(report.timeouts, 0, "{report:?}");
    let back = app.record(&id).await;
    assert_eq!(
        seat_clock(&back, seat)["deadline"].as_u64().unwrap(),
        deadline_before + 2 * HOUR_MS
    );
    let entries = app
        .get(
            &format!("/v1/games/{id}/log?after={}", went.log_len - 1),
            None,
        )
        .await;
    let headlines: Vec<String> = entries.json()["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["headline"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        headlines,
        [format!(
            "{}'s vacation ran out: their clock runs again.",
            NAMES[seat]
        )],
    );
    let refused = post(&app, &path, &tokens[seat]).await;
    assert_eq!(refused.status, 409, "{}", refused.text());
    assert_eq!(refused.json()["code"], "no-vacation-left");
}

/// Another seat's vacation stops only that seat: the seat the game waits on still runs out.
/// Back early, the time away (at least a minute) comes off the seat's allowance.
#[tokio::test]
async fn a_vacation_stops_only_its_seat() {
    let app = spawn_app().await;
    let (id, _admin, tokens) =
        clocked_game(&app, json!({"per_move": "PT60S", "vacation": "PT2H"})).await;
    let seat = waited(&app, &id).await;
    let other = (seat + 1) % 3;
    let other_path = format!("/v1/games/{id}/seats/{other}/vacation");
    assert_eq!(post(&app, &other_path, &tokens[other]).await.status, 200);
    let back = delete(&app, &other_path, &tokens[other]).await;
    assert_eq!(back.status, 200, "{}", back.text());
    let clock = &back.json()["clock"]["seats"][other];
    assert!(clock["vacation_since"].is_null());
    assert_eq!(
        clock["vacation_left_ms"],
        2 * HOUR_MS - service::clock::MIN_VACATION_MS,
        "a short vacation costs the minute a vacation costs at least"
    );
    assert_eq!(
        last_entry(&app, &id).await["headline"],
        format!(
            "{} is back from vacation: their clock runs again.",
            NAMES[other]
        )
    );
    assert_eq!(post(&app, &other_path, &tokens[other]).await.status, 200);
    let record = app.record(&id).await;
    let deadline = seat_clock(&record, seat)["deadline"].as_u64().unwrap();
    let report = sweep_at(&app, deadline + 1).await;
    assert!(report.timeouts >= 1, "{report:?}");
    let record = app.record(&id).await;
    assert!(seat_clock(&record, seat)["timeouts"].as_u64().unwrap() >= 1);
    assert_eq!(
        seat_clock(&record, other)["timeouts"],
        json!(0),
        "the seat away did not time out"
    );
}

/// Pauses and vacations are refused, with their codes, where they make no sense or the caller
/// may not; nothing changes then.
#[tokio::test]
async fn pauses_and_vacations_are_refused_where_they_make_no_sense() {
    let app = spawn_app().await;
    let (id, admin, tokens) =
        clocked_game(&app, json!({"per_move": "PT60S", "vacation": "PT0S"})).await;
    let version = app.record(&id).await.version;
    let pause = format!("/v1/games/{id}/pause");
    let vacation = format!("/v1/games/{id}/seats/1/vacation");
    let cases: Vec<(api_tests::Reply, u16, &str)> = vec![
        (post(&app, &pause, &tokens[0]).await, 403, "forbidden"),
        (
            app.post(&pause, None, &json!({}), &[]).await,
            401,
            "unauthorized",
        ),
        (post(&app, &vacation, &tokens[0]).await, 403, "forbidden"),
        (post(&app, &vacation, &admin).await, 403, "forbidden"),
        (
            post(&app, &vacation, &tokens[1]).await,
            409,
            "no-vacation-left",
        ),
        (
            post(
                &app,
                &format!("/v1/games/{id}/seats/7/vacation"),
                &tokens[1],
            )
            .await,
            404,
            "seat-not-found",
        ),
    ];
    for (reply, status, code) in cases {
        assert_eq!(reply.status, status, "{}", reply.text());
        assert_eq!(reply.json()["code"], code);
    }
    assert_eq!(app.record(&id).await.version, version, "nothing changed");

    // A game without a clock has nothing to pause; a finished game neither.
    let plain = app.start_game("tulip-bubble", 3, json!({})).await;
    let reply = post(
        &app,
        &format!("/v1/games/{}/pause", plain.id),
        &plain.admin_token,
    )
    .await;
    assert_eq!(reply.status, 409);
    assert_eq!(reply.json()["code"], "no-clock");
    let mut step = 0;
    let game = api_tests::StartedGame {
        id: id.clone(),
        admin_token: admin.clone(),
        seed_commitment: String::new(),
        tokens: tokens.clone(),
    };
    while random_move(&app, &game, 4, step).await.is_some() {
        step += 1;
    }
    let reply = post(&app, &pause, &admin).await;
    assert_eq!(reply.status, 409);
    assert_eq!(reply.json()["code"], "game-over");
}

/// A game whose log holds pauses and vacations replays: the audit verifies, and the history
/// steps over the notes. Notes take no place among the random streams, so a pause changes no
/// draw.
#[tokio::test]
async fn a_game_with_pauses_and_vacations_verifies() {
    let app = spawn_app().await;
    let (id, admin, tokens) = clocked_game(&app, json!({"per_move": "PT1H"})).await;
    let game = api_tests::StartedGame {
        id: id.clone(),
        admin_token: admin.clone(),
        seed_commitment: String::new(),
        tokens: tokens.clone(),
    };
    let mut step = 0;
    let ok = |reply: api_tests::Reply| assert_eq!(reply.status, 200, "{}", reply.text());
    while app.record(&id).await.status == store::Status::Active {
        match step % 7 {
            2 => ok(post(&app, &format!("/v1/games/{id}/pause"), &admin).await),
            4 => ok(post(&app, &format!("/v1/games/{id}/resume"), &admin).await),
            5 => {
                let seat = ((step / 7) % 3) as usize;
                let path = format!("/v1/games/{id}/seats/{seat}/vacation");
                ok(post(&app, &path, &tokens[seat]).await);
                ok(delete(&app, &path, &tokens[seat]).await);
            }
            _ => {}
        }
        if random_move(&app, &game, 8, step).await.is_none() {
            break;
        }
        step += 1;
    }
    let record = app.record(&id).await;
    assert!(record.notes >= 4, "the log has notes: {}", record.notes);
    let audit: service::audit::Audit =
        serde_json::from_slice(&app.full_audit(&id).await.body).unwrap();
    service::audit::verify(&service::registry(), &audit).expect("the audit verifies");
    let last = record.log_len - 1;
    let history = app
        .get(&format!("/v1/games/{id}/history/{last}"), None)
        .await;
    assert_eq!(history.status, 200, "{}", history.text());
    let now = app.get(&format!("/v1/games/{id}"), None).await.json();
    assert_eq!(history.json()["view"], now["view"]);
}

/// Issue 55: the live path and the one replayer agree at every entry, in every ruleset, with
/// undos and notes. Games with a clock are played by random seats (which now and then take a
/// move back), the admin pausing and resuming every few moves; then each stored entry's state
/// hash, the live state after it, must be the replayer's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_states_are_the_replayed_states_at_every_entry_with_undos_and_notes() {
    let app = api_tests::spawn_app_seeded(55).await;
    let (mut undos, mut notes) = (0, 0);
    for ruleset in service::registry().iter() {
        let (fewest, most) = ruleset.seat_range();
        let seats = 3.clamp(fewest, most);
        let mut body =
            json!({"ruleset": ruleset.id(), "seats": seats, "clock": {"per_move": "PT1H"}});
        body["options"] = test_options(ruleset.id());
        let (id, admin) = app.create_game(&body).await;
        let mut tokens = Vec::new();
        for (seat, name) in (0u8..seats).zip(NAMES) {
            tokens.push(app.claim_player(&id, seat, name).await);
        }
        let game = api_tests::StartedGame {
            id: id.clone(),
            admin_token: admin.clone(),
            seed_commitment: String::new(),
            tokens,
        };
        for step in 1..=80u64 {
            let active = app.record(&id).await.status == store::Status::Active;
            if step % 6 == 0 && active {
                for change in ["pause", "resume"] {
                    let changed = post(&app, &format!("/v1/games/{id}/{change}"), &admin).await;
                    assert_eq!(changed.status, 200, "{change}: {}", changed.text());
                }
            }
            if random_move(&app, &game, 55, step).await.is_none() {
                break;
            }
        }
        let record = app.record(&id).await;
        let log = app.store.log(&id, None, 10_000).await.expect("the log");
        assert_eq!(
            log.len() as u64,
            record.log_len,
            "{}: one page",
            ruleset.id()
        );
        api_tests::replay_matches(&record, &log);
        undos += record.undone;
        notes += record.notes;
    }
    assert!(notes >= 10, "the games had {notes} notes");
    assert!(undos >= 1, "no move was taken back in any game");
}
