//! The `get-openapi` Lambda function: `GET /openapi.json` (`api::get_openapi`) and its
//! browsable reference `GET /docs` (`api::get_docs`), two static routes that share one function.

use lambda_http::Request;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    // Built once per cold start: the OpenAPI document is rendered here, not per request.
    let ctx = api::AppCtx::from_env().await?;
    lambda_http::run(lambda_http::service_fn(|request: Request| async {
        if request.uri().path().ends_with("/docs") {
            api::get_docs(&ctx, request).await
        } else {
            api::get_openapi(&ctx, request).await
        }
    }))
    .await
}
