//! A real DynamoDB API for tests, on this machine: a moto server on a free loopback port,
//! started once per test process, or the endpoint in `BEURS_TEST_DYNAMODB_URL` (DynamoDB
//! Local, or DynamoDB itself) instead. Plus [`CallCounter`], which counts the requests a client
//! sends, to check what a move costs.
//!
//! moto comes from PyPI (`moto[server]`); when `python3` cannot import it, it is installed
//! with `python3 -m pip install 'moto[server]'` first. The server is a small Python wrapper
//! around moto's WSGI app that serialises requests (moto's backend has no locks, and a
//! `TransactWriteItems` must be atomic for the race checks to mean anything) and exits when
//! its standard input closes, that is, when the test process that started it ends, however it
//! ends.
//!
//! Compiled always (not only under `cfg(test)`), like [`crate::testing`], so that the HTTP
//! tests in `tests/` can run the API on a [`DynamoStore`].

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef;
use aws_sdk_dynamodb::config::{
    BehaviorVersion, ConfigBag, Credentials, Intercept, Region, RuntimeComponents,
};
use aws_sdk_dynamodb::error::BoxError;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

use super::DynamoStore;

/// The environment variable that points the tests at another DynamoDB endpoint.
pub const ENDPOINT_VARIABLE: &str = "BEURS_TEST_DYNAMODB_URL";
/// With [`ENDPOINT_VARIABLE`]: an existing table to use instead of creating one per store
/// (the suites only use ids unique to their run, so they can share a table).
pub const TABLE_VARIABLE: &str = "BEURS_TEST_DYNAMODB_TABLE";

/// The moto server: moto's WSGI app behind one lock, on a free port it prints, until stdin
/// closes.
const MOTO_SERVER: &str = r#"
import sys, threading
from moto.server import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import make_server

app = DomainDispatcherApplication(create_backend_app)
lock = threading.Lock()

def serialised(environ, start_response):
    with lock:
        return list(app(environ, start_response))

server = make_server("127.0.0.1", 0, serialised, threaded=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
print(server.server_port, flush=True)
sys.stdin.read()
"#;

/// The moto server of this process: its child (whose stdin pipe we hold open) and its URL.
struct Moto {
    _child: Child,
    url: String,
}

/// Starts moto, installing it first if needed.
fn start_moto() -> Result<Moto, String> {
    let importable = |python: &str| {
        Command::new(python)
            .args(["-c", "import moto.server, werkzeug"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    };
    if !importable("python3") {
        eprintln!("moto is missing: python3 -m pip install 'moto[server]'");
        let installed = Command::new("python3")
            .args(["-m", "pip", "install", "--quiet", "moto[server]"])
            .status()
            .map_err(|error| format!("running pip: {error}"))?;
        if !installed.success() || !importable("python3") {
            return Err("could not install moto[server] with pip".to_owned());
        }
    }
    let mut child = Command::new("python3")
        .args(["-c", MOTO_SERVER])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|error| format!("starting moto: {error}"))?;
    let stdout = child.stdout.take().ok_or("moto has no stdout")?;
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(|error| format!("reading moto's port: {error}"))?;
    let port: u16 = line
        .trim()
        .parse()
        .map_err(|_| format!("moto printed {line:?} instead of its port"))?;
    Ok(Moto {
        _child: child,
        url: format!("http://127.0.0.1:{port}"),
    })
}

/// The endpoint the tests use: `BEURS_TEST_DYNAMODB_URL`, or this process's moto server
/// (started on first use). Panics when neither can be had: that is a failed test.
pub fn endpoint() -> String {
    if let Ok(url) = std::env::var(ENDPOINT_VARIABLE) {
        if !url.is_empty() {
            return url;
        }
    }
    static MOTO: OnceLock<Result<Moto, String>> = OnceLock::new();
    match MOTO.get_or_init(start_moto) {
        Ok(moto) => moto.url.clone(),
        Err(error) => panic!("no DynamoDB endpoint for the tests: {error}"),
    }
}

/// A client for [`endpoint`], with `interceptor` counting its requests. Against our own moto
/// server it signs with dummy credentials; against another endpoint it uses the usual AWS
/// environment (and dummy credentials only when the environment has none).
pub async fn client(counter: &CallCounter) -> Client {
    let url = endpoint();
    let own_moto = std::env::var(ENDPOINT_VARIABLE).map_or(true, |url| url.is_empty());
    let has_credentials = std::env::var_os("AWS_ACCESS_KEY_ID").is_some()
        || std::env::var_os("AWS_PROFILE").is_some();
    let mut loader = aws_config::defaults(BehaviorVersion::latest()).endpoint_url(&url);
    if own_moto || !has_credentials {
        loader = loader.credentials_provider(Credentials::new(
            "beurs-test",
            "beurs-test",
            None,
            None,
            "beurs-tests",
        ));
    }
    if own_moto || std::env::var_os("AWS_REGION").is_none() {
        loader = loader.region(Region::new("us-east-1"));
    }
    let shared = loader.load().await;
    let config = aws_sdk_dynamodb::config::Builder::from(&shared)
        .interceptor(counter.clone())
        .build();
    Client::from_conf(config)
}

/// A table name no other store of this run (or an earlier one) uses.
fn unique_table() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.as_nanos())
        .unwrap_or(0);
    format!(
        "beurs-test-{}-{nanos:x}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A [`DynamoStore`] on the test endpoint, on a new table (or on `BEURS_TEST_DYNAMODB_TABLE`),
/// with its requests counted by `counter`.
pub async fn store_with(counter: &CallCounter) -> DynamoStore {
    let client = client(counter).await;
    if let Ok(table) = std::env::var(TABLE_VARIABLE) {
        if !table.is_empty() && std::env::var(ENDPOINT_VARIABLE).is_ok() {
            return DynamoStore::new(client, table);
        }
    }
    let store = DynamoStore::new(client, unique_table());
    store
        .create_table()
        .await
        .unwrap_or_else(|error| panic!("creating the test table: {error}"));
    store
}

/// A [`DynamoStore`] on the test endpoint (see [`store_with`]).
pub async fn store() -> DynamoStore {
    store_with(&CallCounter::default()).await
}

/// Counts the DynamoDB requests a client sends, by operation (`GetItem`,
/// `TransactWriteItems`, ...), including retries. Clones share the count.
#[derive(Clone, Debug, Default)]
pub struct CallCounter {
    calls: Arc<Mutex<Vec<String>>>,
}

impl CallCounter {
    /// The operations sent since the last `take`, in order, and a fresh start.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.calls.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Intercept for CallCounter {
    fn name(&self) -> &'static str {
        "CallCounter"
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        // DynamoDB's JSON protocol names the operation in `X-Amz-Target: DynamoDB_20120810.Op`.
        let target = context
            .request()
            .headers()
            .get("x-amz-target")
            .unwrap_or("unknown");
        let operation = target.rsplit('.').next().unwrap_or(target).to_owned();
        self.calls
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(operation);
        Ok(())
    }
}

/// Removes game `id`'s record (its `META` item) alone, as DynamoDB's TTL does when a finished
/// game expires: moto and DynamoDB Local do not run the TTL on their own schedule.
pub async fn expire_record(store: &DynamoStore, id: &str) {
    store
        .client
        .delete_item()
        .table_name(store.table())
        .key(super::keys::PK, AttributeValue::S(super::keys::game_pk(id)))
        .key(
            super::keys::SK,
            AttributeValue::S(super::keys::meta_sk().to_owned()),
        )
        .send()
        .await
        .unwrap_or_else(|error| panic!("expiring game {id}: {error}"));
}
