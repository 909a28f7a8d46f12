//! A Lambda function's cold start, measured on this machine: the time from starting the
//! function's process to its first response, with a stand-in for the Lambda Runtime API on a
//! loopback port handing it one API Gateway event (`tests/fixtures/apigw/submit-action.json`,
//! a move to a game id that cannot exist, so it is answered without a DynamoDB round trip).
//!
//! ```sh
//! cargo build --release --locked --workspace --features local/dynamo --bin api --example lambda_cold_start
//! target/release/examples/lambda_cold_start target/release/api 30
//! ```
//!
//! It prints, over the runs, the median and the slowest time to the function's first request
//! for an event (its init: runtime, tracing, the AWS SDK's configuration, the context and the
//! router) and to its response. docs/benchmarks.md has the figures.

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::Notify;

/// What one run saw, in the order it happens.
#[derive(Default)]
struct Seen {
    /// When the function first asked for an event.
    next: Option<Instant>,
    /// When it posted the response, and the status code inside it.
    response: Option<(Instant, u16)>,
    /// An init or invocation error it reported.
    error: Option<String>,
}

struct RuntimeApi {
    event: String,
    seen: Mutex<Seen>,
    done: Notify,
}

async fn handle(
    api: Arc<RuntimeApi>,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, hyper::Error> {
    let path = request.uri().path().to_owned();
    let method = request.method().clone();
    let body = request.into_body().collect().await?.to_bytes();
    let now = Instant::now();
    if method == hyper::Method::GET && path.ends_with("/runtime/invocation/next") {
        let first = {
            let mut seen = api.seen.lock().expect("seen");
            let first = seen.next.is_none();
            seen.next.get_or_insert(now);
            first
        };
        if !first {
            // One event per process: the next poll waits until the process is stopped.
            std::future::pending::<()>().await;
        }
        let deadline = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("clock")
            .as_millis()
            + 30_000;
        let response = Response::builder()
            .header("content-type", "application/json")
            .header("lambda-runtime-aws-request-id", "cold-start-1")
            .header("lambda-runtime-deadline-ms", deadline.to_string())
            .header(
                "lambda-runtime-invoked-function-arn",
                "arn:aws:lambda:eu-west-1:123456789012:function:submit-action",
            )
            .header(
                "lambda-runtime-trace-id",
                "Root=1-6740a1b2-3c4d5e6f7a8b9c0d1e2f3a4b;Sampled=0",
            )
            .body(Full::new(Bytes::from(api.event.clone())))
            .expect("response");
        return Ok(response);
    }
    if method == hyper::Method::POST && path.ends_with("/response") {
        let status = serde_json::from_slice::<serde_json::Value>(&body)
            .ok()
            .and_then(|answer| answer["statusCode"].as_u64())
            .unwrap_or(0) as u16;
        api.seen.lock().expect("seen").response = Some((now, status));
        api.done.notify_one();
    } else if method == hyper::Method::POST && path.ends_with("/error") {
        api.seen.lock().expect("seen").error = Some(String::from_utf8_lossy(&body).into_owned());
        api.done.notify_one();
    }
    Ok(Response::builder()
        .status(202)
        .body(Full::new(Bytes::new()))
        .expect("response"))
}

/// One cold start: a fresh process and a fresh Runtime API; returns (to init, to response).
async fn cold_start(binary: &str, event: &str) -> Result<(Duration, Duration), String> {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let api = Arc::new(RuntimeApi {
        event: event.to_owned(),
        seen: Mutex::new(Seen::default()),
        done: Notify::new(),
    });
    let server = {
        let api = api.clone();
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let api = api.clone();
                tokio::spawn(async move {
                    let service =
                        hyper::service::service_fn(move |request| handle(api.clone(), request));
                    let _ = auto::Builder::new(TokioExecutor::new())
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        })
    };
    let started = Instant::now();
    let mut child = std::process::Command::new(binary)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("AWS_LAMBDA_RUNTIME_API", addr.to_string())
        .env("AWS_LAMBDA_FUNCTION_NAME", "submit-action")
        .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256")
        .env("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
        .env("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/submit-action")
        .env("AWS_LAMBDA_LOG_STREAM_NAME", "cold-start")
        .env("AWS_REGION", "eu-west-1")
        .env("AWS_ACCESS_KEY_ID", "cold-start")
        .env("AWS_SECRET_ACCESS_KEY", "cold-start")
        // Nothing listens there: the event is answered without DynamoDB.
        .env("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
        .env("BEURS_TABLE", "beurs")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("starting {binary}: {e}"))?;
    let waited = tokio::time::timeout(Duration::from_secs(20), api.done.notified()).await;
    let _ = child.kill();
    let _ = child.wait();
    server.abort();
    if waited.is_err() {
        return Err("no response within 20 s".into());
    }
    let seen = api.seen.lock().expect("seen");
    if let Some(error) = &seen.error {
        return Err(format!("the function reported an error: {error}"));
    }
    match (seen.next, seen.response) {
        (Some(next), Some((answered, 404))) => Ok((next - started, answered - started)),
        (_, Some((_, status))) => Err(format!("expected the 404 of an unknown game, got {status}")),
        _ => Err("no response".into()),
    }
}

fn event() -> String {
    let fixture = include_str!("../fixtures/apigw/submit-action.json");
    // The fixture's body is base64, as API Gateway sends it.
    use base64::Engine;
    let body = base64::engine::general_purpose::STANDARD.encode(r#"{"action":{"type":"pass"}}"#);
    fixture
        .replace("{{body}}", &body)
        .replace("{{id}}", "no-such-game")
        .replace("{{token}}", "bt_seat_cold_start")
        .replace("{{version}}", "1")
}

fn millis(duration: Duration) -> String {
    format!("{:.1} ms", duration.as_secs_f64() * 1000.0)
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let binary = args
        .next()
        .ok_or("usage: lambda_cold_start FUNCTION_BINARY [RUNS]")?;
    let runs: usize = args
        .next()
        .map(|runs| runs.parse().map_err(|_| "RUNS must be a number"))
        .transpose()?
        .unwrap_or(20);
    let event = event();
    // One run first, not counted: the binary's pages come into the page cache.
    cold_start(&binary, &event).await?;
    let (mut init, mut answer) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let (to_next, to_response) = cold_start(&binary, &event).await?;
        init.push(to_next);
        answer.push(to_response);
    }
    init.sort();
    answer.sort();
    let size = std::fs::metadata(&binary).map(|m| m.len()).unwrap_or(0);
    println!(
        "{binary} ({:.1} MiB), {runs} cold starts:",
        size as f64 / 1048576.0
    );
    println!(
        "  process start to first event request (init): median {}, slowest {}",
        millis(init[runs / 2]),
        millis(init[runs - 1])
    );
    println!(
        "  process start to first response:             median {}, slowest {}",
        millis(answer[runs / 2]),
        millis(answer[runs - 1])
    );
    Ok(())
}
