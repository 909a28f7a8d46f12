//! One delivery attempt: POST a signed notification to a vetted address and report what the
//! receiver answered.
//!
//! Hand-rolled on hyper's connection API rather than a general HTTP client, because the
//! safety rules need control a client hides: connect only to the addresses [`super::url`]
//! approved (no second DNS lookup), never follow redirects, one deadline for the whole
//! attempt, and read at most [`MAX_RESPONSE_BYTES`] of the answer.

use super::url::WebhookUrl;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_rustls::rustls::pki_types::ServerName;
use tokio_rustls::rustls::{ClientConfig, RootCertStore};
use tokio_rustls::TlsConnector;

/// The most of a receiver's response body that is read (the rest is dropped unread).
pub const MAX_RESPONSE_BYTES: usize = 16 * 1024;

/// The headers of one attempt, as Standard Webhooks names them.
#[derive(Clone, Debug)]
pub struct Signed<'a> {
    /// `webhook-id`: the message id, the same on every attempt.
    pub id: &'a str,
    /// `webhook-timestamp`: this attempt's time, Unix seconds.
    pub timestamp: u64,
    /// `webhook-signature`.
    pub signature: String,
    /// The JSON body.
    pub body: &'a str,
}

/// POSTs `signed` to `url` at one of `addrs` within `timeout`; `Ok(status)` if the receiver
/// answered, `Err(reason)` if it could not be reached or did not answer in time.
pub async fn post(
    url: &WebhookUrl,
    addrs: &[SocketAddr],
    signed: &Signed<'_>,
    timeout: Duration,
) -> Result<u16, String> {
    tokio::time::timeout(timeout, attempt(url, addrs, signed))
        .await
        .unwrap_or_else(|_| Err(format!("no answer within {} ms", timeout.as_millis())))
}

async fn attempt(
    url: &WebhookUrl,
    addrs: &[SocketAddr],
    signed: &Signed<'_>,
) -> Result<u16, String> {
    let mut last_error = String::from("no address to connect to");
    for addr in addrs {
        match TcpStream::connect(addr).await {
            Ok(stream) => {
                let _ = stream.set_nodelay(true);
                return if url.https {
                    let server_name = ServerName::try_from(url.host.clone())
                        .map_err(|_| format!("{} is not a valid TLS server name", url.host))?;
                    let tls = TlsConnector::from(tls_config())
                        .connect(server_name, stream)
                        .await
                        .map_err(|error| format!("TLS handshake with {addr} failed: {error}"))?;
                    exchange(TokioIo::new(tls), url, signed).await
                } else {
                    exchange(TokioIo::new(stream), url, signed).await
                };
            }
            Err(error) => last_error = format!("connecting to {addr} failed: {error}"),
        }
    }
    Err(last_error)
}

/// Sends the request over an open connection and reads the status (and a bounded body).
async fn exchange<I>(io: I, url: &WebhookUrl, signed: &Signed<'_>) -> Result<u16, String>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|error| format!("HTTP handshake failed: {error}"))?;
    let driver = tokio::spawn(connection);
    let default_port = if url.https { 443 } else { 80 };
    let host = match (url.host.contains(':'), url.port == default_port) {
        (false, true) => url.host.clone(),
        (false, false) => format!("{}:{}", url.host, url.port),
        (true, true) => format!("[{}]", url.host),
        (true, false) => format!("[{}]:{}", url.host, url.port),
    };
    let request = hyper::Request::post(url.path_and_query.as_str())
        .header("host", host)
        .header("content-type", "application/json")
        .header(
            "user-agent",
            concat!("Beurs-Webhooks/", env!("CARGO_PKG_VERSION")),
        )
        .header("webhook-id", signed.id)
        .header("webhook-timestamp", signed.timestamp.to_string())
        .header("webhook-signature", signed.signature.as_str())
        .body(Full::new(Bytes::copy_from_slice(signed.body.as_bytes())))
        .map_err(|error| format!("building the request failed: {error}"))?;
    let response = sender
        .send_request(request)
        .await
        .map_err(|error| format!("the request failed: {error}"))?;
    let status = response.status().as_u16();
    // Read (and discard) a bounded part of the answer so the receiver is not cut off mid-write;
    // a larger or broken body does not change the verdict, which is the status.
    let _ = Limited::new(response.into_body(), MAX_RESPONSE_BYTES)
        .collect()
        .await;
    driver.abort();
    Ok(status)
}

/// The TLS client configuration: the operating system's roots, built once.
fn tls_config() -> Arc<ClientConfig> {
    static CONFIG: OnceLock<Arc<ClientConfig>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let mut roots = RootCertStore::empty();
            // Certificates that fail to load are skipped; with no roots at all every https
            // delivery fails its handshake, which the delivery log shows.
            let native = rustls_native_certs::load_native_certs();
            for certificate in native.certs {
                let _ = roots.add(certificate);
            }
            // The provider is named, not taken from the process default, so that linking a second
            // rustls provider elsewhere can never make this ambiguous.
            let provider = Arc::new(tokio_rustls::rustls::crypto::aws_lc_rs::default_provider());
            let config = ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .expect("aws-lc-rs supports the default protocol versions")
                .with_root_certificates(roots)
                .with_no_client_auth();
            Arc::new(config)
        })
        .clone()
}
