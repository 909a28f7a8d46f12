//! `beurs verify`: offline replay of a finished game's audit.

use anyhow::{bail, Context};
use api::audit::{Audit, Verified};
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;

/// Reads an audit from a file, or fetches it from an `http://` URL.
pub async fn load(source: &str) -> anyhow::Result<Audit> {
    let text = if source.starts_with("http://") {
        fetch(source).await?
    } else if source.starts_with("https://") {
        bail!("https is not supported by this verifier: download the audit (curl -o audit.json URL) and pass the file")
    } else {
        std::fs::read_to_string(source)?
    };
    serde_json::from_str(&text).context("the document is not an audit")
}

/// Checks an audit against the rules this binary was built with.
pub fn check(audit: &Audit) -> anyhow::Result<Verified> {
    api::audit::verify(&api::registry(), audit)
        .map_err(|error| anyhow::anyhow!("audit rejected: {error}"))
}

async fn fetch(url: &str) -> anyhow::Result<String> {
    let uri: hyper::Uri = url.parse().context("not a valid URL")?;
    let host = uri.host().context("the URL has no host")?.to_string();
    let port = uri.port_u16().unwrap_or(80);
    let stream = tokio::net::TcpStream::connect((host.as_str(), port))
        .await
        .with_context(|| format!("connecting to {host}:{port}"))?;
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(connection);
    let path = uri.path_and_query().map_or("/", |path| path.as_str());
    let request = hyper::Request::get(path)
        .header("host", host)
        .body(Empty::<Bytes>::new())?;
    let response = sender.send_request(request).await?;
    let status = response.status();
    let body = response.into_body().collect().await?.to_bytes();
    if !status.is_success() {
        bail!(
            "GET {url} answered {status}: {}",
            String::from_utf8_lossy(&body)
        );
    }
    Ok(String::from_utf8(body.to_vec())?)
}
