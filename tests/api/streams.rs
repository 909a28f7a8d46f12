//! Server-Sent Event streams (`GET /v1/games/{id}/events`, `GET /v1/me/events`): every change
//! in order, redacted for the reader exactly as the reads are, resumable, bounded per client.

use crate::test_options;
use api_tests::sse::{EventStream, SseEvent};
use api_tests::{random_move, request, spawn_app, spawn_app_configured, StartedGame, TestApp};
use serde_json::Value;
use service::streams::{StreamLimits, StreamMode, Streams};

const RULESET: &str = "tulipmania-1637";

/// The `(version, log length)` of an event id (`<version>-<log length>`, and for a `me`
/// stream a third part).
fn cursor(event: &SseEvent) -> (u64, u64) {
    let id = event.id.as_deref().expect("the event has an id");
    let mut parts = id
        .split('-')
        .map(|part| part.parse::<u64>().expect("a number"));
    let (Some(version), Some(log_len)) = (parts.next(), parts.next()) else {
        panic!("<version>-<log length>: {id}");
    };
    (version, log_len)
}

fn bearer(token: Option<&str>) -> Vec<(&'static str, String)> {
    token
        .map(|token| vec![("authorization", format!("Bearer {token}"))])
        .unwrap_or_default()
}

async fn open(app: &TestApp, path: &str, token: Option<&str>, last: Option<&str>) -> EventStream {
    let mut headers = bearer(token);
    if let Some(last) = last {
        headers.push(("last-event-id", last.to_string()));
    }
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(name, value)| (*name, value.as_str()))
        .collect();
    EventStream::open(app.addr, path, &headers).await.stream()
}

/// The whole log as `token`'s reader gets it from `GET …/log`.
async fn read_log(app: &TestApp, id: &str, token: Option<&str>) -> Vec<Value> {
    let mut entries = Vec::new();
    let mut after: Option<u64> = None;
    loop {
        let path = match after {
            Some(after) => format!("/v1/games/{id}/log?limit=200&after={after}"),
            None => format!("/v1/games/{id}/log?limit=200"),
        };
        let page = app.get(&path, token).await.json();
        entries.extend(page["entries"].as_array().unwrap().iter().cloned());
        match page["next_after"].as_u64() {
            Some(next) => after = Some(next),
            None => return entries,
        }
    }
}

async fn play_to_the_end(app: &TestApp, game: &StartedGame) -> usize {
    let mut moves = 0;
    while random_move(app, game, 11, moves as u64 + 1).await.is_some() {
        moves += 1;
        assert!(moves < 5000, "the game did not finish");
    }
    moves
}

/// A seat's stream and a spectator's, opened before the first move of a game played to its
/// end: each gets its snapshot, then every log entry exactly once and in order, each equal to
/// what `GET …/log` shows that reader; and each `game` event shows what that reader saw at
/// that point (`GET …/history/{seq}`), ending with the game as `GET /v1/games/{id}` shows it.
#[tokio::test]
async fn a_stream_sees_every_change_in_order_and_only_what_its_reader_may() {
    let app = spawn_app().await;
    let game = app.start_game(RULESET, 3, test_options(RULESET)).await;
    let path = format!("/v1/games/{}/events", game.id);
    let readers = [Some(game.tokens[0].as_str()), None];
    let mut streams = Vec::new();
    for token in readers {
        streams.push(open(&app, &path, token, None).await);
    }
    let moves = play_to_the_end(&app, &game).await;
    for (token, mut stream) in readers.into_iter().zip(streams) {
        let log = read_log(&app, &game.id, token).await;
        let snapshot = stream.next().await.expect("a snapshot");
        assert_eq!(snapshot.event, "game");
        let (mut version, mut next_seq) = cursor(&snapshot);
        let mut games = 1;
        loop {
            let event = stream.next().await.expect("the stream ended early");
            match event.event.as_str() {
                "log" => {
                    let item = event.json();
                    assert_eq!(item["seq"], next_seq, "log entries in order, none missed");
                    assert_eq!(
                        item, log[next_seq as usize],
                        "the log as {token:?} reads it"
                    );
                    next_seq += 1;
                }
                "game" => {
                    games += 1;
                    let (now, log_len) = cursor(&event);
                    assert!(now > version, "versions go up: {version} then {now}");
                    assert_eq!(log_len, next_seq, "the game comes after its log entries");
                    version = now;
                    let sent = event.json();
                    let then = app
                        .get(
                            &format!("/v1/games/{}/history/{}", game.id, log_len - 1),
                            token,
                        )
                        .await
                        .json();
                    assert_eq!(sent["view"], then["view"], "the view {token:?} had then");
                    assert_eq!(sent["waiting_on"], then["waiting_on"]);
                    if sent["status"] == "finished" {
                        let now = app.get(&format!("/v1/games/{}", game.id), token).await;
                        assert_eq!(sent, now.json(), "the last event is the game as it is");
                        break;
                    }
                }
                other => panic!("an unexpected event {other:?}"),
            }
        }
        assert_eq!(next_seq as usize, log.len(), "every log entry was sent");
        assert!(games > 1 && moves > 0);
    }
}

/// A client that drops its stream and comes back with the last id it got misses nothing:
/// the log entries committed meanwhile, then the game as it is; coming back with the id of
/// the game as it is waits for the next change.
#[tokio::test]
async fn resuming_with_last_event_id_loses_nothing() {
    let app = spawn_app().await;
    let game = app.start_game(RULESET, 3, test_options(RULESET)).await;
    let path = format!("/v1/games/{}/events", game.id);
    let token = Some(game.tokens[1].as_str());
    let mut stream = open(&app, &path, token, None).await;
    let snapshot = stream.next().await.unwrap();
    drop(stream);
    for step in 1..=6 {
        random_move(&app, &game, 5, step)
            .await
            .expect("the game goes on");
    }
    let last = snapshot.id.as_deref().unwrap();
    let mut resumed = open(&app, &path, token, Some(last)).await;
    let (_, mut next_seq) = cursor(&snapshot);
    let log = read_log(&app, &game.id, token).await;
    let caught_up = loop {
        let event = resumed.next().await.expect("the resumed stream ended");
        match event.event.as_str() {
            "log" => {
                assert_eq!(event.json(), log[next_seq as usize]);
                next_seq += 1;
            }
            "game" => break event,
            other => panic!("an unexpected event {other:?}"),
        }
    };
    assert_eq!(
        next_seq as usize,
        log.len(),
        "the six moves' entries, and no more"
    );
    let now = app.get(&format!("/v1/games/{}", game.id), token).await;
    assert_eq!(caught_up.json(), now.json());

    // Up to date: the stream waits for the next move and sends only it.
    drop(resumed);
    let mut waiting = open(&app, &path, token, caught_up.id.as_deref()).await;
    random_move(&app, &game, 5, 7)
        .await
        .expect("the game goes on");
    let event = waiting.next().await.unwrap();
    assert_eq!(event.event, "log");
    assert_eq!(event.json()["seq"], next_seq);
}

/// A `Last-Event-ID` the stream never sent is a 400 problem with its code, whatever its
/// shape, and nothing about the game changes.
#[tokio::test]
async fn a_bad_last_event_id_is_a_400_problem() {
    let app = spawn_app().await;
    let game = app.start_game(RULESET, 3, test_options(RULESET)).await;
    let path = format!("/v1/games/{}/events", game.id);
    let before = app.record(&game.id).await;
    let beyond_version = format!("{}-1", before.version + 1);
    let beyond_log = format!("1-{}", before.log_len + 1);
    for bad in [
        "abc",
        "12",
        "-1-2",
        "1--2",
        "1-2-3",
        "+1-2",
        "99999999999999999999-1",
        &beyond_version,
        &beyond_log,
    ] {
        for token in [None, Some(game.tokens[0].as_str())] {
            let mut headers = bearer(token);
            headers.push(("last-event-id", bad.to_string()));
            let headers: Vec<(&str, &str)> = headers
                .iter()
                .map(|(name, value)| (*name, value.as_str()))
                .collect();
            let reply = request(app.addr, "GET", &path, &headers, Vec::new()).await;
            assert_eq!(reply.status, 400, "{bad:?}: {}", reply.text());
            assert_eq!(reply.json()["code"], "invalid-last-event-id", "{bad:?}");
        }
    }
    // A cursor of the token's game is good.
    let good = open(&app, "/v1/me/events", Some(&game.tokens[0]), Some("1-1")).await;
    drop(good);
    let after = app.record(&game.id).await;
    assert_eq!(after.version, before.version, "nothing changed");
}

/// A token holds at most its limit of streams; a stream its client dropped frees its place.
#[tokio::test]
async fn a_dropped_client_frees_its_stream() {
    let limits = StreamLimits {
        per_token: 1,
        anonymous_per_game: 1,
        total: 16,
    };
    let app = spawn_app_configured(move |ctx| {
        ctx.with_streams(Streams::new(StreamMode::Open).with_limits(limits))
    })
    .await;
    let game = app.start_game(RULESET, 3, test_options(RULESET)).await;
    let path = format!("/v1/games/{}/events", game.id);
    let token = Some(game.tokens[0].as_str());
    let mut held = open(&app, &path, token, None).await;
    held.next().await.expect("the snapshot");
    let auth = format!("Bearer {}", game.tokens[0]);
    let (status, problem) = EventStream::open(app.addr, &path, &[("authorization", &auth)])
        .await
        .refused();
    assert_eq!(status, 429);
    assert_eq!(problem["code"], "too-many-streams");
    // The limit is the token's: another seat and a spectator still get theirs.
    let _other = open(&app, &path, Some(&game.tokens[1]), None).await;
    let _spectator = open(&app, &path, None, None).await;

    drop(held);
    // The server learns of the drop when it next writes to the connection: moves make it
    // write. Each try is a move and a new request; the bound is generous (issue 38).
    let mut step = 1;
    let reopened = loop {
        match EventStream::open(app.addr, &path, &[("authorization", &auth)]).await {
            api_tests::sse::Opened::Stream(stream) => break stream,
            api_tests::sse::Opened::Refused(429, _) if step < 400 => {
                random_move(&app, &game, 3, step)
                    .await
                    .expect("the game goes on");
                step += 1;
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            api_tests::sse::Opened::Refused(status, body) => {
                panic!("the dropped stream's place was not freed: {status} {body}")
            }
        }
    };
    drop(reopened);
}

/// The turns of a `me` stream's `games` event id (`<version>-<log length>-<bits>-<turns>-
/// <reminders>`): how many of the seat's turns had begun.
fn turns_of(event: &SseEvent) -> u64 {
    let id = event.id.as_deref().expect("the event has an id");
    id.split('-')
        .nth(3)
        .and_then(|turns| turns.parse().ok())
        .unwrap_or_else(|| panic!("no turns in {id}"))
}

/// `GET /v1/me/events` tells a seat `turn` each time the game comes to wait on it, and
/// `finished` when it ends, each before the `games` event of that change: as many `turn`s as
/// turns began since the last `games` event (a stream that follows a fast game reads several
/// moves at once), and in all as many as the seat had.
#[tokio::test]
async fn my_stream_tells_my_turn_and_the_end() {
    let app = spawn_app().await;
    let game = app.start_game(RULESET, 3, test_options(RULESET)).await;
    let mut stream = open(&app, "/v1/me/events", Some(&game.tokens[2]), None).await;
    play_to_the_end(&app, &game).await;
    let snapshot = stream.next().await.unwrap();
    assert_eq!(snapshot.event, "games");
    let mut your_turn = snapshot.json()["games"][0]["your_turn"] == true;
    let (mut version, _) = cursor(&snapshot);
    let mut turns_before = turns_of(&snapshot);
    let mut pending: Vec<String> = Vec::new();
    let mut turns = 0;
    loop {
        let event = stream.next().await.expect("the stream ended early");
        if event.event != "games" {
            assert_eq!(event.json()["id"], game.id.as_str());
            pending.push(event.event);
            continue;
        }
        let (now, _) = cursor(&event);
        assert!(now > version);
        version = now;
        let entry = &event.json()["games"][0];
        let turn_now = entry["your_turn"] == true;
        let told = pending.iter().filter(|name| *name == "turn").count() as u64;
        let turns_now = turns_of(&event);
        assert_eq!(told, turns_now - turns_before, "turns told at v{now}");
        if turn_now && !your_turn {
            assert!(told >= 1, "the turn that began by v{now} was not told");
        }
        turns += told;
        turns_before = turns_now;
        your_turn = turn_now;
        let finished = entry["status"] == "finished";
        assert_eq!(pending.iter().any(|name| name == "finished"), finished);
        pending.clear();
        if finished {
            break;
        }
    }
    assert!(turns > 0, "seat 2 never got a turn");
    let record = app.record(&game.id).await;
    assert_eq!(
        turns,
        u64::from(record.seats[2].turns) - turns_of(&snapshot),
        "every turn after the snapshot, once"
    );
}

/// Behind API Gateway a response is buffered, so a stream answers one batch: the snapshot
/// alone, or the next change after `Last-Event-ID`; then `retry: 0` (reconnect at once) and
/// the end.
#[tokio::test]
async fn a_one_batch_stream_ends_after_its_batch_with_a_retry_hint() {
    let app =
        spawn_app_configured(|ctx| ctx.with_streams(Streams::new(StreamMode::OneBatch))).await;
    let game = app.start_game(RULESET, 3, test_options(RULESET)).await;
    let path = format!("/v1/games/{}/events", game.id);
    let mut first = open(&app, &path, None, None).await;
    let snapshot = first.next().await.unwrap();
    assert_eq!(snapshot.event, "game");
    // Come back at once: the next request is the next long-poll.
    let hint = first.next().await.unwrap();
    assert_eq!(hint.retry, Some(0));
    assert_eq!(first.next().await, None, "the response ended");

    let waiting = tokio::spawn({
        let addr = app.addr;
        let path = path.clone();
        let last = snapshot.id.clone().unwrap();
        async move {
            let headers = [("last-event-id", last.as_str())];
            let mut stream = EventStream::open(addr, &path, &headers).await.stream();
            let mut events = Vec::new();
            while let Some(event) = stream.next().await {
                events.push(event);
            }
            events
        }
    });
    // The request above waits for a change; the move is that change (whenever the request
    // arrives, its batch is this move: the version it resumes from is the snapshot's).
    random_move(&app, &game, 9, 1)
        .await
        .expect("the game goes on");
    let events = waiting.await.unwrap();
    let names: Vec<&str> = events.iter().map(|event| event.event.as_str()).collect();
    assert_eq!(names, ["log", "game", ""], "{events:?}");
    assert_eq!(events[2].retry, Some(0));
}

/// A `me` stream resumed from an older id still tells `turn`: the id carries what its reader
/// had been told, so every request on AWS (one batch each) and every reconnection tells it.
#[tokio::test]
async fn a_resumed_my_stream_still_tells_the_turn() {
    let app =
        spawn_app_configured(|ctx| ctx.with_streams(Streams::new(StreamMode::OneBatch))).await;
    let game = app.start_game(RULESET, 3, test_options(RULESET)).await;
    let now = app
        .get(&format!("/v1/games/{}", game.id), None)
        .await
        .json();
    let waiting: Vec<u64> = now["waiting_on"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    let seat = (0..3u64)
        .find(|seat| !waiting.contains(seat))
        .expect("a seat not waited on") as usize;
    let token = Some(game.tokens[seat].as_str());
    let mut first = open(&app, "/v1/me/events", token, None).await;
    let snapshot = first.next_named("games").await.expect("a snapshot");
    assert_eq!(snapshot.json()["games"][0]["your_turn"], false);
    drop(first);
    let mut step = 1;
    loop {
        let mine = app.get("/v1/me/games", token).await.json();
        if mine["games"][0]["your_turn"] == true {
            break;
        }
        random_move(&app, &game, 6, step)
            .await
            .expect("the game goes on");
        step += 1;
        assert!(step < 500, "the seat never got a turn");
    }
    let mut resumed = open(&app, "/v1/me/events", token, snapshot.id.as_deref()).await;
    let mut names = Vec::new();
    while let Some(event) = resumed.next().await {
        names.push(event.event);
    }
    assert_eq!(names, ["turn", "games", ""], "the turn is told on resuming");
}

/// A `me` stream resumed after a gap in which the seat had several turns tells each of them,
/// once (issue 54: a client that reconnected missed turns that fell in the gap).
#[tokio::test]
async fn a_resumed_my_stream_tells_every_turn_in_the_gap() {
    let app =
        spawn_app_configured(|ctx| ctx.with_streams(Streams::new(StreamMode::OneBatch))).await;
    let game = app.start_game(RULESET, 3, test_options(RULESET)).await;
    let seat = 1usize;
    let token = Some(game.tokens[seat].as_str());
    let mut first = open(&app, "/v1/me/events", token, None).await;
    let snapshot = first.next_named("games").await.expect("a snapshot");
    drop(first);
    let before = app.record(&game.id).await.seats[seat].turns;
    let mut step = 1;
    while app.record(&game.id).await.seats[seat].turns < before + 3 {
        random_move(&app, &game, 7, step)
            .await
            .expect("the game goes on");
        step += 1;
        assert!(step < 2000, "seat {seat} had fewer than 3 turns");
    }
    let began = app.record(&game.id).await.seats[seat].turns - before;
    let mut resumed = open(&app, "/v1/me/events", token, snapshot.id.as_deref()).await;
    let mut names = Vec::new();
    let mut last = None;
    while let Some(event) = resumed.next().await {
        if event.event == "games" {
            last = Some(event.clone());
        }
        names.push(event.event);
    }
    let told = names.iter().filter(|name| *name == "turn").count();
    assert_eq!(told, began as usize, "{names:?}");
    let last = last.expect("a games event");
    assert_eq!(
        turns_of(&last),
        u64::from(before + began),
        "the id counts them"
    );
}
