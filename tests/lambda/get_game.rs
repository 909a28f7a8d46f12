//! `get-game` on an API Gateway event with a bearer token (tests/fixtures/apigw/get-game.json).

use api_tests::apigw::{call, event, memory_ctx, reply, started_game};

#[tokio::test]
async fn get_game_shows_the_seat_its_own_view() {
    let ctx = memory_ctx();
    let game = started_game(&ctx).await;

    let request = event("get-game", &[("id", &game.id), ("token", &game.tokens[2])]);
    let response = call(&ctx, request).await.unwrap();

    assert!(response.headers().contains_key("etag"));
    let (status, _, body) = reply(response);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["id"], game.id.as_str());
    assert_eq!(body["status"], "active");
    assert_eq!(body["you"]["seat"], 2);
}

#[tokio::test]
async fn get_game_of_an_unknown_id_is_a_404_problem() {
    let ctx = memory_ctx();
    let request = event(
        "get-game",
        &[("id", "g_nosuchgame"), ("token", "bt_seat_x")],
    );

    let (status, content_type, body) = reply(call(&ctx, request).await.unwrap());

    assert_eq!(status, 404, "{body}");
    assert_eq!(content_type, "application/problem+json");
}

#[tokio::test]
async fn get_game_long_polls_on_api_gateway_and_answers_the_unchanged_game_after_its_wait() {
    let ctx = memory_ctx();
    let game = started_game(&ctx).await;
    let plain = event("get-game", &[("id", &game.id), ("token", &game.tokens[0])]);
    let (_, _, before) = reply(call(&ctx, plain).await.unwrap());
    let version = before["version"].to_string();

    // Nobody moves: after its one-second wait the poll answers the same version.
    let poll = event(
        "get-game-long-poll",
        &[
            ("id", &game.id),
            ("token", &game.tokens[0]),
            ("after", &version),
        ],
    );
    let (status, _, body) = reply(call(&ctx, poll).await.unwrap());
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["version"], before["version"]);
}
