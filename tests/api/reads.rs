//! Cheap reads (issue 54): `If-None-Match` answers 304 while the game is at the version it
//! names, on the game, its legal actions, its log and its history; answers are gzip-compressed
//! for clients that accept it.

use api_tests::spawn_app;
use serde_json::json;
use std::io::Read;

/// Every read that answers with the game's version as its `ETag`, for the seat `token`.
fn reads(id: &str) -> [String; 4] {
    [
        format!("/v1/games/{id}"),
        format!("/v1/games/{id}/legal-actions"),
        format!("/v1/games/{id}/log?limit=5"),
        format!("/v1/games/{id}/history/0"),
    ]
}

#[tokio::test]
async fn a_read_of_an_unchanged_game_is_a_304_and_a_move_makes_it_a_200_again() {
    let app = spawn_app().await;
    let game = app.start_game("tulipmania-1637", 3, json!({})).await;
    let seat = app
        .get(&format!("/v1/games/{}", game.id), None)
        .await
        .json()["to_act"][0]
        .as_u64()
        .expect("someone acts") as usize;
    let token = game.tokens[seat].as_str();
    let bearer = format!("Bearer {token}");
    for path in reads(&game.id) {
        let first = app.get(&path, Some(token)).await;
        assert_eq!(first.status, 200, "{path}: {}", first.text());
        let etag = first.header("etag").expect("an ETag").to_string();
        // The tag as given, the same tag marked weak (If-None-Match compares weakly), `*`,
        // and a list naming it: each is the copy the client holds.
        let weak = format!("W/{etag}");
        let listed = format!("\"0\", {etag}");
        for tag in [etag.as_str(), &weak, "*", &listed] {
            let again = app
                .send(
                    "GET",
                    &path,
                    &[("authorization", &bearer), ("if-none-match", tag)],
                    Vec::new(),
                )
                .await;
            assert_eq!(again.status, 304, "{path} with {tag}: {}", again.text());
            assert!(again.body.is_empty(), "{path}: a 304 has no body");
            assert_eq!(again.header("etag"), Some(etag.as_str()), "{path}");
        }
        // Another version's tag: the whole answer.
        let stale = app
            .send(
                "GET",
                &path,
                &[("authorization", &bearer), ("if-none-match", "\"1\"")],
                Vec::new(),
            )
            .await;
        assert_eq!(stale.status, 200, "{path}");
        assert_eq!(stale.body, first.body, "{path}");
    }

    // A move: the tag the client holds is stale, and every read answers in full.
    let held: Vec<String> = {
        let mut held = Vec::new();
        for path in reads(&game.id) {
            held.push(
                app.get(&path, Some(token))
                    .await
                    .header("etag")
                    .unwrap()
                    .to_string(),
            );
        }
        held
    };
    let version = app.record(&game.id).await.version;
    app.open_commit_phase(&game).await;
    assert!(
        app.record(&game.id).await.version > version,
        "the game moved"
    );
    for (path, tag) in reads(&game.id).iter().zip(&held) {
        let after = app
            .send(
                "GET",
                path,
                &[("authorization", &bearer), ("if-none-match", tag)],
                Vec::new(),
            )
            .await;
        assert_eq!(after.status, 200, "{path}: {}", after.text());
        assert_ne!(after.header("etag"), Some(tag.as_str()), "{path}");
    }
}

#[tokio::test]
async fn answers_are_gzipped_for_clients_that_accept_it() {
    let app = spawn_app().await;
    let game = app.start_game("tulip-bubble", 3, json!({})).await;
    for path in [
        "/v1/rulesets".to_string(),
        format!("/v1/games/{}", game.id),
        format!("/v1/games/{}/log", game.id),
        "/v1/games/g_AAAAAAAAAAAAAAAAAAAAAA".to_string(),
    ] {
        let plain = app.get(&path, None).await;
        assert_eq!(plain.header("content-encoding"), None, "{path}");
        let zipped = api_tests::try_request_unchecked(
            app.addr,
            "GET",
            &path,
            &[("accept-encoding", "gzip")],
            Vec::new(),
        )
        .await
        .expect("an answer");
        assert_eq!(zipped.status, plain.status, "{path}");
        assert_eq!(zipped.header("content-encoding"), Some("gzip"), "{path}");
        assert!(
            zipped.headers.iter().any(|(name, value)| name == "vary"
                && value.to_ascii_lowercase().contains("accept-encoding")),
            "{path}: {:?}",
            zipped.headers
        );
        let mut unzipped = Vec::new();
        flate2::read::GzDecoder::new(&zipped.body[..])
            .read_to_end(&mut unzipped)
            .expect("gzip");
        assert!(zipped.body.len() < unzipped.len(), "{path}: smaller");
        // The same answer but for what changes per request (the request id of a problem).
        let mut expected = plain.json();
        let mut got: serde_json::Value = serde_json::from_slice(&unzipped).expect("JSON");
        for value in [&mut expected, &mut got] {
            if let Some(object) = value.as_object_mut() {
                object.remove("request_id");
            }
        }
        assert_eq!(got, expected, "{path}");
    }
}
