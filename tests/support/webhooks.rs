//! A webhook receiver on loopback that records every delivery (and checks each body against
//! the webhooks of the OpenAPI document, see [`crate::contract`]), and the check of recorded
//! signatures against the reference Standard Webhooks implementation (Python, PyPI).

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, Mutex};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// One request the receiver got.
#[derive(Clone, Debug)]
pub struct Received {
    /// The request path (tests give each subscriber its own).
    pub path: String,
    /// `webhook-id`.
    pub id: String,
    /// `webhook-timestamp`.
    pub timestamp: String,
    /// `webhook-signature`.
    pub signature: String,
    /// The raw body.
    pub body: String,
    /// The status the receiver answered.
    pub answered: u16,
}

impl Received {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).expect("a notification body is JSON")
    }
}

/// A receiver on `127.0.0.1`, answering every request with a settable status.
pub struct Receiver {
    /// Where it listens.
    pub addr: SocketAddr,
    answer: Arc<AtomicU16>,
    received: Arc<Mutex<Vec<Received>>>,
    /// Contract violations of received bodies. The receiver's tasks cannot fail the test, so
    /// the test's next look at what was received (or dropping the receiver) panics with them.
    violations: Arc<Mutex<Vec<String>>>,
    accept: Option<JoinHandle<()>>,
}

impl Receiver {
    /// Starts a receiver on a free port, answering 204.
    pub async fn start() -> Receiver {
        Receiver::start_on("127.0.0.1:0".parse().expect("an address")).await
    }

    /// Starts a receiver on `addr` (e.g. the port of one that was stopped), answering 204.
    pub async fn start_on(addr: SocketAddr) -> Receiver {
        let mut receiver = Receiver {
            addr,
            answer: Arc::new(AtomicU16::new(204)),
            received: Arc::new(Mutex::new(Vec::new())),
            violations: Arc::new(Mutex::new(Vec::new())),
            accept: None,
        };
        receiver.listen().await;
        receiver
    }

    async fn listen(&mut self) {
        let listener = TcpListener::bind(self.addr)
            .await
            .expect("bind the receiver");
        self.addr = listener.local_addr().expect("local address");
        let (answer, received, violations) = (
            self.answer.clone(),
            self.received.clone(),
            self.violations.clone(),
        );
        self.accept = Some(tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (answer, received, violations) =
                    (answer.clone(), received.clone(), violations.clone());
                tokio::spawn(async move {
                    let service = service_fn(move |request: hyper::Request<Incoming>| {
                        let (answer, received, violations) =
                            (answer.clone(), received.clone(), violations.clone());
                        async move {
                            let status = answer.load(Ordering::SeqCst);
                            record(request, status, &received, &violations).await;
                            let response = hyper::Response::builder()
                                .status(status)
                                .body(Full::new(Bytes::new()))
                                .expect("a response");
                            Ok::<_, std::convert::Infallible>(response)
                        }
                    });
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        }));
    }

    /// Stops listening: deliveries are refused until [`Receiver::resume`].
    pub fn stop(&mut self) {
        if let Some(accept) = self.accept.take() {
            accept.abort();
        }
    }

    /// Listens again on the same port.
    pub async fn resume(&mut self) {
        self.stop();
        // The aborted task drops its listener at its next poll; retry the bind until then
        // (a busy machine may take a while to poll it).
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
        while TcpListener::bind(self.addr).await.is_err() {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the receiver's port {} stayed taken",
                self.addr
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        self.listen().await;
    }

    /// From now on, answer `status`.
    pub fn answer(&self, status: u16) {
        self.answer.store(status, Ordering::SeqCst);
    }

    /// Everything received so far, in arrival order. Panics if a received body broke the
    /// contract.
    pub fn received(&self) -> Vec<Received> {
        self.assert_contract();
        self.received.lock().expect("not poisoned").clone()
    }

    /// Panics with every contract violation of a received body so far.
    pub fn assert_contract(&self) {
        let violations = self.violations.lock().expect("not poisoned").clone();
        assert!(violations.is_empty(), "{}", violations.join("\n"));
    }

    /// The URL of `path` on this receiver.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Waits (up to `seconds`) until `done` holds for what was received; returns it.
    pub async fn wait_for(
        &self,
        seconds: u64,
        what: &str,
        done: impl Fn(&[Received]) -> bool,
    ) -> Vec<Received> {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(seconds);
        loop {
            let received = self.received();
            if done(&received) {
                return received;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "timed out after {seconds} s waiting for {what}; received {}",
                received.len()
            );
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.stop();
        if !std::thread::panicking() {
            self.assert_contract();
        }
    }
}

/// The paths of Discord's and Slack's incoming webhooks, which a receiver stands in for.
pub const CHAT_PATHS: [&str; 2] = ["/api/webhooks/", "/services/"];

async fn record(
    request: hyper::Request<Incoming>,
    answered: u16,
    into: &Mutex<Vec<Received>>,
    violations: &Mutex<Vec<String>>,
) {
    let header = |name: &str| {
        request
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("")
            .to_string()
    };
    let (path, id, timestamp, signature) = (
        request.uri().path().to_string(),
        header("webhook-id"),
        header("webhook-timestamp"),
        header("webhook-signature"),
    );
    let body = request
        .into_body()
        .collect()
        .await
        .map(|collected| String::from_utf8_lossy(&collected.to_bytes()).into_owned())
        .unwrap_or_default();
    // Discord's and Slack's webhook paths get those platforms' messages, not the contract's
    // events (docs/webhooks.md, "Chat formats"): the tests that use them check their shapes.
    let chat = path.starts_with(CHAT_PATHS[0]) || path.starts_with(CHAT_PATHS[1]);
    if let Err(violation) = crate::contract::contract()
        .check_webhook(body.as_bytes())
        .or_else(|violation| if chat { Ok(()) } else { Err(violation) })
    {
        violations
            .lock()
            .expect("not poisoned")
            .push(format!("POST {path} (webhook-id {id}): {violation}"));
    }
    into.lock().expect("not poisoned").push(Received {
        path,
        id,
        timestamp,
        signature,
        body,
        answered,
    });
}

/// Verifies every `(secret, delivery)` with the `standardwebhooks` package from PyPI (installed
/// with pip when missing), which also checks that an altered body fails. Panics on failure.
pub fn verify_with_reference(deliveries: &[(String, Received)]) {
    ensure_reference_package();
    let input: Vec<Value> = deliveries
        .iter()
        .map(|(secret, received)| {
            json!({
                "secret": secret,
                "id": received.id,
                "timestamp": received.timestamp,
                "signature": received.signature,
                "body": received.body,
            })
        })
        .collect();
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/webhooks/verify_standard_webhooks.py"
    );
    let mut child = std::process::Command::new("python3")
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(&serde_json::to_vec(&input).expect("serializes"))
            .expect("write to python");
    }
    let output = child.wait_with_output().expect("python finishes");
    assert!(
        output.status.success(),
        "the reference implementation refused a signature: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        said.contains(&format!("verified {} deliveries", deliveries.len())),
        "{said}"
    );
}

fn ensure_reference_package() {
    let has = |()| {
        std::process::Command::new("python3")
            .args(["-c", "import standardwebhooks.webhooks"])
            .output()
            .is_ok_and(|output| output.status.success())
    };
    if has(()) {
        return;
    }
    let installed = std::process::Command::new("python3")
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "standardwebhooks>=1.0,<2",
        ])
        .status()
        .expect("pip runs");
    assert!(
        installed.success() && has(()),
        "could not install standardwebhooks from PyPI"
    );
}

/// What a [`Tarpit`] saw.
#[derive(Default)]
struct TarpitLog {
    /// Connections open now.
    open: usize,
    /// The most connections open at once.
    max_open: usize,
    /// The `webhook-id` of every request it read, in arrival order.
    ids: Vec<String>,
}

/// A receiver on `127.0.0.1` that accepts every connection, reads the request and never
/// answers: each connection stays open until the client gives up.
pub struct Tarpit {
    /// Where it listens.
    pub addr: SocketAddr,
    log: Arc<Mutex<TarpitLog>>,
    accept: JoinHandle<()>,
}

impl Tarpit {
    /// Starts a tarpit on a free port.
    pub async fn start() -> Tarpit {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the tarpit");
        let addr = listener.local_addr().expect("local address");
        let log = Arc::new(Mutex::new(TarpitLog::default()));
        let shared = log.clone();
        let accept = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let log = shared.clone();
                {
                    let mut log = log.lock().expect("not poisoned");
                    log.open += 1;
                    log.max_open = log.max_open.max(log.open);
                }
                tokio::spawn(async move {
                    let mut seen = Vec::new();
                    let mut buffer = [0u8; 4096];
                    let mut recorded = false;
                    // Read until the client closes the connection; answer nothing.
                    while stream.readable().await.is_ok() {
                        let read = match stream.try_read(&mut buffer) {
                            Ok(0) => break,
                            Ok(read) => read,
                            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {
                                continue
                            }
                            Err(_) => break,
                        };
                        seen.extend_from_slice(&buffer[..read]);
                        if !recorded {
                            if let Some(id) = header_of(&seen, "webhook-id") {
                                log.lock().expect("not poisoned").ids.push(id);
                                recorded = true;
                            }
                        }
                    }
                    log.lock().expect("not poisoned").open -= 1;
                });
            }
        });
        Tarpit { addr, log, accept }
    }

    /// The URL of `path` on this tarpit.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The most connections that were open at once.
    pub fn max_open(&self) -> usize {
        self.log.lock().expect("not poisoned").max_open
    }

    /// The connections open now: attempts the tarpit is holding.
    pub fn open(&self) -> usize {
        self.log.lock().expect("not poisoned").open
    }

    /// The `webhook-id` of every request read so far.
    pub fn ids(&self) -> Vec<String> {
        self.log.lock().expect("not poisoned").ids.clone()
    }

    /// Waits (up to `seconds`) until at least `count` requests were read; returns their ids.
    pub async fn wait_for_requests(&self, seconds: u64, count: usize) -> Vec<String> {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(seconds);
        loop {
            let ids = self.ids();
            if ids.len() >= count {
                return ids;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "timed out after {seconds} s waiting for {count} requests at the tarpit; got {}",
                ids.len()
            );
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
    }
}

impl Drop for Tarpit {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

/// The value of header `name` in a raw HTTP/1 request, once its header block is complete.
fn header_of(raw: &[u8], name: &str) -> Option<String> {
    let text = String::from_utf8_lossy(raw);
    let (head, _) = text.split_once("\r\n\r\n")?;
    head.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.trim()
            .eq_ignore_ascii_case(name)
            .then(|| value.trim().to_string())
    })
}
