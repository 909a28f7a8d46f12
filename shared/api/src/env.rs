//! What a Lambda function runs: its logs, and the router over the context from its
//! environment ([`service::AppCtx::from_env`]).

use service::AppCtx;
use std::sync::Arc;

/// JSON logs for a Lambda function that is not a route (`sweep-deadlines`): the same
/// `tracing` subscriber as [`run_lambda`] installs.
pub fn init_lambda_logs() {
    lambda_http::tracing::init_default_subscriber();
}

/// The whole body of a Lambda function's `main`: JSON logs (when the function's log format
/// is JSON) through `lambda_http`'s subscriber, the context from the environment, and the
/// router behind the edge, served by the Lambda runtime.
///
/// Every function mounts the whole router, not just its route: API Gateway sends each
/// function only its own routes, so the others are never reached, and a function URL or the
/// emulator routes by path exactly like `beurs serve` (docs/decisions.md #1 has the cost).
pub async fn run_lambda() -> Result<(), lambda_http::Error> {
    lambda_http::tracing::init_default_subscriber();
    // API Gateway buffers a response: a stream answers one batch per request.
    let streams = service::streams::Streams::new(service::streams::StreamMode::OneBatch);
    let ctx = Arc::new(AppCtx::from_env().await?.with_streams(streams));
    let app = crate::edge::app(ctx, &crate::edge::EdgeConfig::from_env())
        .layer(axum::middleware::from_fn(client_address));
    lambda_http::run(app).await
}

/// Tells the routes the client's address as API Gateway saw it (the request context's
/// `sourceIp`), in the place `beurs serve` puts the peer's: what the keyless quotas count by.
async fn client_address(
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use lambda_http::request::RequestContext;
    use lambda_http::RequestExt;
    #[allow(unreachable_patterns)] // other variants exist only with other lambda_http features
    let source = match request.request_context_ref() {
        Some(RequestContext::ApiGatewayV2(context)) => context.http.source_ip.clone(),
        _ => None,
    };
    if let Some(ip) = source.and_then(|ip| ip.parse::<std::net::IpAddr>().ok()) {
        request
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(std::net::SocketAddr::new(ip, 0)));
    }
    next.run(request).await
}
