//! The `list-deliveries` Lambda function: API Gateway sends it `GET /v1/games/{id}/webhooks/{hook}/deliveries`.
//!
//! Like every route function it serves the whole router behind the edge, the very app
//! `beurs serve` runs; only API Gateway's routing decides which requests reach it
//! (docs/decisions.md #1).

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    api::run_lambda().await
}
