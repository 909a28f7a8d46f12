//! `claim-seat` on API Gateway events with path parameters
//! (tests/fixtures/apigw/claim-seat.json).

use api_tests::apigw::{call, event, memory_ctx, reply};

#[tokio::test]
async fn claim_seat_reads_its_path_parameters_and_refuses_a_taken_seat() {
    let ctx = memory_ctx();
    let (_, _, created) = reply(call(&ctx, event("create-game", &[])).await.unwrap());
    let id = created["id"].as_str().unwrap();

    let first = call(&ctx, event("claim-seat", &[("id", id), ("seat", "1")]))
        .await
        .unwrap();
    let again = call(&ctx, event("claim-seat", &[("id", id), ("seat", "1")]))
        .await
        .unwrap();

    let (status, _, body) = reply(first);
    assert_eq!(status, 201, "{body}");
    assert!(body["player_token"]
        .as_str()
        .unwrap()
        .starts_with("bt_seat_"));
    let (status, content_type, body) = reply(again);
    assert_eq!(status, 409, "{body}");
    assert_eq!(content_type, "application/problem+json");
}
