//! The `sweep-deadlines` Lambda function's entry point; the logic is in the library.

use lambda_runtime::{service_fn, LambdaEvent};
use serde_json::Value;
use std::sync::Arc;

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    api::init_lambda_logs();
    // Built once per cold start: the DynamoDB client and every ruleset.
    let ctx = Arc::new(service::AppCtx::from_env().await?);
    lambda_runtime::run(service_fn(|event: LambdaEvent<Value>| {
        let ctx = Arc::clone(&ctx);
        async move {
            sweep_deadlines::handle(&ctx, event.payload)
                .await
                .map_err(|error| lambda_runtime::Error::from(error.to_string()))
        }
    }))
    .await
}
