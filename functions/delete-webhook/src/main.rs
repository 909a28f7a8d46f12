//! The `delete-webhook` Lambda function: `DELETE /v1/games/{id}/webhooks/{hook}`. Deletes one of
//! the caller's subscriptions; the handler is `api::delete_webhook`, the very function the local
//! server calls for this route.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    // Built once per cold start and reused by every invocation: the DynamoDB client (its
    // connection pool), the game registry and the OpenAPI document.
    let ctx = api::AppCtx::from_env().await?;
    lambda_http::run(lambda_http::service_fn(|request| {
        api::delete_webhook(&ctx, request)
    }))
    .await
}
