//! The `notify` Lambda function: webhook deliveries from the table's stream and the retry
//! queue. The logic is in the library (`notify::Notifier`); see its documentation.

use lambda_runtime::{service_fn, LambdaEvent};
use serde_json::Value;

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    // Built once per cold start: the DynamoDB and SQS clients and the delivery settings.
    let notifier = notify::Notifier::from_env().await?;
    lambda_runtime::run(service_fn(|event: LambdaEvent<Value>| {
        let notifier = notifier.clone();
        async move {
            notifier
                .handle(event.payload)
                .await
                .map_err(lambda_runtime::Error::from)
        }
    }))
    .await
}
