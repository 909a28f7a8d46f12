//! The Lambda binary of every HTTP route. infra/template.yaml deploys this one artifact as
//! one function per route group (`api::lambda::FUNCTIONS`), each with its own policy,
//! timeout and log group; API Gateway decides which requests reach which function, and
//! every function serves them with the whole router behind the edge, the very app
//! `beurs serve` runs (docs/decisions.md #1 and #37).

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    api::run_lambda().await
}
