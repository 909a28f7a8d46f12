//! Test support for the HTTP tests: a server on a free loopback port over a temporary SQLite
//! database, a minimal HTTP client, and a random player that uses only `legal-actions`.

pub mod apigw;
pub mod apigw_webhooks;
pub mod contract;
pub mod sse;
pub mod webhooks;

use game_core::GameRng;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// How long one request (or one sweep of a game) of a test server may play bots. The
/// server's own limit, [`service::bots::DRIVE_BUDGET`], is 5 s of wall time; a test that needs
/// one request to play bots to some point would then depend on the machine's speed (a busy
/// machine stops the drive part-way, and test servers mostly run no deadline worker to play
/// on). The limit itself has its own test
/// (`seats::a_request_plays_bots_within_its_budget_and_the_worker_plays_on`).
pub const TEST_DRIVE_BUDGET: std::time::Duration = std::time::Duration::from_secs(600);

/// A context over `store` as every test server and worker uses it: the server's defaults
/// but for [`TEST_DRIVE_BUDGET`].
pub fn test_ctx(store: Arc<dyn store::GameStore>) -> service::AppCtx {
    service::AppCtx::new(store).with_drive_budget(TEST_DRIVE_BUDGET)
}

/// A running server and what tests may peek at behind its back.
pub struct TestApp {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its store, to check what was committed (never used to drive the API).
    pub store: Arc<dyn store::GameStore>,
    /// The database file.
    pub db: PathBuf,
    /// The server's (and webhook worker's) tasks, stopped when the app is dropped.
    tasks: Vec<tokio::task::AbortHandle>,
    /// Whether dropping the app removes its database (not when a test restarts on it).
    remove_db: bool,
    /// The server's context, when it runs in this process.
    ctx: Option<Arc<service::AppCtx>>,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
        if self.remove_db {
            remove_db(&self.db);
        }
    }
}

/// Removes an SQLite database and its WAL files. A server task may still hold them open;
/// removing them is fine on Unix.
pub fn remove_db(db: &std::path::Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut path = db.to_path_buf().into_os_string();
        path.push(suffix);
        let _ = std::fs::remove_file(path);
    }
}

/// A response: status, headers and body.
#[derive(Debug)]
pub struct Reply {
    /// Status code.
    pub status: u16,
    /// Headers, lowercase names.
    pub headers: Vec<(String, String)>,
    /// Raw body.
    pub body: Vec<u8>,
}

impl Reply {
    /// The body as JSON (panics if it is not: a test failure).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|error| panic!("not JSON ({error}): {}", self.text()))
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// Reads the first line a started `beurs serve` prints on its stdout ("beurs listening on
/// http://ADDR (…)") and returns it with the address, for tests of the real process.
pub fn read_banner(stdout: std::process::ChildStdout) -> (SocketAddr, String) {
    use std::io::BufRead;
    let mut banner = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut banner)
        .expect("read the banner");
    let addr = banner
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|addr| addr.parse().ok())
        .unwrap_or_else(|| panic!("no address in banner {banner:?}"));
    (addr, banner)
}

/// A fresh temporary database path.
pub fn temp_db(label: &str) -> PathBuf {
    let unique: u64 = GameRng::for_entry(
        *b"beurs-temp-db-name-salt-32-bytes",
        std::process::id().into(),
    )
    .next_u64()
        ^ std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|elapsed| elapsed.as_nanos() as u64)
            .unwrap_or(0);
    std::env::temp_dir().join(format!("beurs-{label}-{unique:x}.sqlite"))
}

/// Starts a server on `127.0.0.1:0` over a new temporary SQLite database.
pub async fn spawn_app() -> TestApp {
    spawn_app_configured(|ctx| ctx).await
}

/// The dice seed a test that searches for a situation starts from: `chosen`, unless the
/// environment's `BEURS_TEST_DICE` names another (`tools/luck/repeat` varies it on purpose, to
/// show that the search finds its situation under other deals too).
pub fn dice_seed(chosen: u64) -> u64 {
    std::env::var("BEURS_TEST_DICE")
        .ok()
        .and_then(|seed| seed.parse().ok())
        .unwrap_or(chosen)
}

/// [`spawn_app`] whose game ids, deals and bots' dice come from `seed`
/// (`service::dice::Dice::seeded`) instead of the server's random secret: a test that needs a
/// situation to arise plays the same games on every run, when its requests come one after
/// the other.
pub async fn spawn_app_seeded(seed: u64) -> TestApp {
    spawn_app_configured(|ctx| ctx.with_dice(service::dice::Dice::seeded(seed))).await
}

/// [`spawn_app`] with the context changed by `configure` (e.g. `strong` bots that think for
/// a few milliseconds).
pub async fn spawn_app_configured(
    configure: impl FnOnce(service::AppCtx) -> service::AppCtx,
) -> TestApp {
    let db = temp_db("api");
    let store: Arc<dyn store::GameStore> =
        Arc::new(store::SqliteStore::open(&db).expect("open the test database"));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a free port");
    let addr = listener.local_addr().expect("local address");
    let ctx = Arc::new(configure(test_ctx(store.clone())));
    let server = tokio::spawn(local::serve::serve(listener, ctx.clone()));
    TestApp {
        addr,
        store,
        db,
        tasks: vec![server.abort_handle()],
        remove_db: true,
        ctx: Some(ctx),
    }
}

/// Starts a server, its webhook delivery worker and its deadline worker (as `beurs serve`
/// runs them, the workers more often) over the
/// SQLite database `db`, which is kept when the app is dropped, so that a test can stop the
/// server and start another on the same file: a restart.
pub async fn spawn_app_at(
    db: &std::path::Path,
    webhooks: service::webhooks::WebhookConfig,
) -> TestApp {
    spawn_app_at_with(db, webhooks, DeadlineWorker::Running, |ctx| ctx).await
}

/// [`spawn_app_at`] with the context changed by `configure` (e.g. dice from a seed the test
/// chose, `AppCtx::with_dice`).
pub async fn spawn_app_at_configured(
    db: &std::path::Path,
    webhooks: service::webhooks::WebhookConfig,
    configure: impl FnOnce(service::AppCtx) -> service::AppCtx,
) -> TestApp {
    spawn_app_at_with(db, webhooks, DeadlineWorker::Running, configure).await
}

/// [`spawn_app_at`] without the deadline worker: the test sweeps the deadlines itself, at
/// the times it chooses (`service::deadlines::sweep(ctx, now)`), so that no clock of the
/// machine's races the test's own requests. The delivery worker runs.
pub async fn spawn_app_at_without_deadline_worker(
    db: &std::path::Path,
    webhooks: service::webhooks::WebhookConfig,
) -> TestApp {
    spawn_app_at_with(db, webhooks, DeadlineWorker::Absent, |ctx| ctx).await
}

/// [`spawn_app_at_without_deadline_worker`] with the context changed by `configure`.
pub async fn spawn_app_at_configured_without_deadline_worker(
    db: &std::path::Path,
    webhooks: service::webhooks::WebhookConfig,
    configure: impl FnOnce(service::AppCtx) -> service::AppCtx,
) -> TestApp {
    spawn_app_at_with(db, webhooks, DeadlineWorker::Absent, configure).await
}

/// Whether a test server runs its deadline worker.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DeadlineWorker {
    Running,
    Absent,
}

async fn spawn_app_at_with(
    db: &std::path::Path,
    webhooks: service::webhooks::WebhookConfig,
    deadlines: DeadlineWorker,
    configure: impl FnOnce(service::AppCtx) -> service::AppCtx,
) -> TestApp {
    let store: Arc<dyn store::GameStore> =
        Arc::new(store::SqliteStore::open(db).expect("open the test database"));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a free port");
    let addr = listener.local_addr().expect("local address");
    let ctx = Arc::new(configure(test_ctx(store.clone()).with_webhooks(webhooks)));
    let mut tasks = vec![
        tokio::spawn(ctx.deliverer().run(std::time::Duration::from_millis(50))).abort_handle(),
    ];
    if deadlines == DeadlineWorker::Running {
        tasks.push(
            tokio::spawn(service::deadlines::run(
                ctx.clone(),
                std::time::Duration::from_millis(50),
            ))
            .abort_handle(),
        );
    }
    tasks.push(tokio::spawn(local::serve::serve(listener, ctx.clone())).abort_handle());
    TestApp {
        addr,
        store,
        db: db.to_path_buf(),
        tasks,
        remove_db: false,
        ctx: Some(ctx),
    }
}

/// Starts a server on `127.0.0.1:0` over `store` instead of SQLite (e.g. a DynamoStore on the
/// moto server of `store::dynamo::testing`). `spawn_app` is unchanged; this is the opt-in.
pub async fn spawn_app_with(store: Arc<dyn store::GameStore>) -> TestApp {
    spawn_app_with_webhooks(store, service::webhooks::WebhookConfig::default()).await
}

/// Like [`spawn_app_with`], with the webhook configuration `webhooks` (e.g. dev mode, so that
/// subscriptions to a loopback receiver are accepted). No delivery worker runs: on DynamoDB the
/// table's stream drives deliveries (`functions/notify`), and its tests trigger it themselves.
pub async fn spawn_app_with_webhooks(
    store: Arc<dyn store::GameStore>,
    webhooks: service::webhooks::WebhookConfig,
) -> TestApp {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a free port");
    let addr = listener.local_addr().expect("local address");
    let ctx = Arc::new(test_ctx(store.clone()).with_webhooks(webhooks));
    let server = tokio::spawn(local::serve::serve(listener, ctx.clone()));
    // No database file is created; the path only satisfies `TestApp`'s cleanup.
    TestApp {
        addr,
        store,
        db: temp_db("unused"),
        tasks: vec![server.abort_handle()],
        remove_db: true,
        ctx: Some(ctx),
    }
}

impl TestApp {
    /// A client of a server that something else runs at `addr` (e.g. Lambda emulators behind
    /// a router), over `store`.
    pub fn external(addr: SocketAddr, store: Arc<dyn store::GameStore>) -> TestApp {
        TestApp {
            addr,
            store,
            db: temp_db("unused"),
            tasks: Vec::new(),
            remove_db: true,
            ctx: None,
        }
    }

    /// How many long-polls of this in-process server are waiting for a change now (each
    /// subscribes to its change notices while it waits); panics for an external server.
    pub fn waiting_polls(&self) -> usize {
        self.ctx
            .as_ref()
            .expect("an in-process server")
            .changes
            .receiver_count()
    }

    /// Waits (up to a minute) until at least `count` long-polls are waiting
    /// ([`TestApp::waiting_polls`]): a move made after that is what answers them, on a
    /// machine however busy.
    pub async fn wait_for_polls(&self, count: usize) {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
        while self.waiting_polls() < count {
            assert!(
                tokio::time::Instant::now() < deadline,
                "{} of {count} long-polls waiting after a minute",
                self.waiting_polls()
            );
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }

    /// Claims seat `seat` of the open game `id` for a player called `name`; panics unless the
    /// server answers 201. Returns the player's token.
    pub async fn claim_player(&self, id: &str, seat: u8, name: &str) -> String {
        self.claim(id, seat, json!({ "name": name })).await["player_token"]
            .as_str()
            .expect("a token")
            .to_string()
    }

    /// Claims seat `seat` of the open game `id` for a `bot` (`random`, `basic`, `strong`);
    /// panics unless the server answers 201. Returns the claim's answer.
    pub async fn claim_bot(&self, id: &str, seat: u8, bot: &str) -> Value {
        self.claim(id, seat, json!({ "bot": bot })).await
    }

    /// Claims seat `seat` of the open game `id` with `body`; panics unless the server answers
    /// 201. Returns the claim's answer.
    async fn claim(&self, id: &str, seat: u8, body: Value) -> Value {
        let claimed = self
            .post(&format!("/v1/games/{id}/seats/{seat}"), None, &body, &[])
            .await;
        assert_eq!(claimed.status, 201, "{}", claimed.text());
        claimed.json()
    }

    /// Sends one request with a raw body and extra headers.
    pub async fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Vec<u8>,
    ) -> Reply {
        request(self.addr, method, path, headers, body).await
    }

    /// GET, optionally with a bearer token.
    pub async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        let auth = token.map(|token| format!("Bearer {token}"));
        let headers: Vec<(&str, &str)> = auth
            .iter()
            .map(|value| ("authorization", value.as_str()))
            .collect();
        self.send("GET", path, &headers, Vec::new()).await
    }

    /// POST a JSON body, optionally with a bearer token and extra headers.
    pub async fn post(
        &self,
        path: &str,
        token: Option<&str>,
        body: &Value,
        extra: &[(&str, &str)],
    ) -> Reply {
        let auth = token.map(|token| format!("Bearer {token}"));
        let mut headers: Vec<(&str, &str)> = vec![("content-type", "application/json")];
        headers.extend(auth.iter().map(|value| ("authorization", value.as_str())));
        headers.extend_from_slice(extra);
        self.send(
            "POST",
            path,
            &headers,
            serde_json::to_vec(body).expect("serializes"),
        )
        .await
    }

    /// `POST /v1/games/{id}/actions` of `action` with the seat's `token`, no extra headers.
    pub async fn submit(&self, id: &str, token: &str, action: &Value) -> Reply {
        self.post(
            &format!("/v1/games/{id}/actions"),
            Some(token),
            &json!({"action": action}),
            &[],
        )
        .await
    }

    /// The complete audit of game `id`: every page of `GET …/audit` (1000 entries a page)
    /// joined into one document, as `beurs verify` joins them. A failed first page is
    /// returned as it is.
    pub async fn full_audit(&self, id: &str) -> Reply {
        let path = format!("/v1/games/{id}/audit?limit=1000");
        let first = self.get(&path, None).await;
        if first.status != 200 {
            return first;
        }
        let mut audit = first.json();
        while let Some(after) = audit["next_after"].as_u64() {
            let page = self.get(&format!("{path}&after={after}"), None).await;
            assert_eq!(
                page.status,
                200,
                "audit page after {after}: {}",
                page.text()
            );
            let mut page = page.json();
            let entries = page["entries"]
                .as_array_mut()
                .expect("entries")
                .split_off(0);
            audit["entries"]
                .as_array_mut()
                .expect("entries")
                .extend(entries);
            audit["next_after"] = page["next_after"].take();
        }
        if let Some(object) = audit.as_object_mut() {
            object.remove("next_after");
        }
        Reply {
            status: first.status,
            headers: first.headers,
            body: serde_json::to_vec(&audit).expect("serializes"),
        }
    }

    /// `POST /v1/games` with `body`, which must be accepted; returns the game id and admin token.
    pub async fn create_game(&self, body: &Value) -> (String, String) {
        let created = self.post("/v1/games", None, body, &[]).await;
        assert_eq!(created.status, 201, "create: {}", created.text());
        let created = created.json();
        (
            created["id"].as_str().expect("id").to_string(),
            created["admin_token"]
                .as_str()
                .expect("admin token")
                .to_string(),
        )
    }

    /// Creates a game and claims every seat; returns the game id, admin token and seat tokens.
    /// The seats are named "player 0", "player 1", ….
    pub async fn start_game(&self, ruleset: &str, seats: u8, options: Value) -> StartedGame {
        let names: Vec<String> = (0..seats).map(|seat| format!("player {seat}")).collect();
        self.start_game_named(ruleset, &names, options).await
    }

    /// [`TestApp::start_game`] with one seat per name, each claimed under its name.
    pub async fn start_game_named(
        &self,
        ruleset: &str,
        names: &[impl AsRef<str>],
        options: Value,
    ) -> StartedGame {
        let seats = u8::try_from(names.len()).expect("a seat count");
        let created = self
            .post(
                "/v1/games",
                None,
                &json!({"ruleset": ruleset, "seats": seats, "options": options}),
                &[],
            )
            .await;
        assert_eq!(created.status, 201, "create: {}", created.text());
        let created = created.json();
        let id = created["id"].as_str().expect("id").to_string();
        let mut tokens = Vec::new();
        for (seat, name) in names.iter().enumerate() {
            let claim =
                json!({"name": name.as_ref(), "entropy": format!("entropy of seat {seat}")});
            let claimed = self
                .post(&format!("/v1/games/{id}/seats/{seat}"), None, &claim, &[])
                .await;
            assert_eq!(claimed.status, 201, "claim: {}", claimed.text());
            tokens.push(
                claimed.json()["player_token"]
                    .as_str()
                    .expect("token")
                    .to_string(),
            );
        }
        StartedGame {
            id,
            admin_token: created["admin_token"]
                .as_str()
                .expect("admin token")
                .to_string(),
            seed_commitment: created["seed_commitment"]
                .as_str()
                .expect("commitment")
                .to_string(),
            tokens,
        }
    }

    /// The stored record (for assertions only).
    pub async fn record(&self, id: &str) -> store::GameRecord {
        self.store
            .load(id)
            .await
            .expect("store works")
            .expect("game exists")
    }
}

impl TestApp {
    /// In a started Tulipmania game, makes the seller sell the first tulip it lists, which
    /// opens the sealed commit phase for every other seat. Returns the seller's seat.
    pub async fn open_commit_phase(&self, game: &StartedGame) -> usize {
        let envelope = self
            .get(&format!("/v1/games/{}", game.id), None)
            .await
            .json();
        let seller = envelope["to_act"][0].as_u64().expect("a seller") as usize;
        let legal = self
            .get(
                &format!("/v1/games/{}/legal-actions", game.id),
                Some(&game.tokens[seller]),
            )
            .await
            .json();
        let sell = legal["actions"]
            .as_array()
            .expect("actions")
            .iter()
            .find(|entry| entry["action"]["type"] == "sell_tulip")
            .expect("a sale")["action"]
            .clone();
        let path = format!("/v1/games/{}/actions", game.id);
        let reply = self
            .post(
                &path,
                Some(&game.tokens[seller]),
                &json!({ "action": sell }),
                &[],
            )
            .await;
        assert_eq!(reply.status, 200, "{}", reply.text());
        seller
    }
}

/// A game whose seats are all claimed.
pub struct StartedGame {
    /// Game id.
    pub id: String,
    /// Admin token.
    pub admin_token: String,
    /// Published commitment.
    pub seed_commitment: String,
    /// Seat tokens, by seat.
    pub tokens: Vec<String>,
}

/// One HTTP/1.1 request on a new connection (panics on a transport error: a test failure).
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> Reply {
    try_request(addr, method, path, headers, body)
        .await
        .unwrap_or_else(|error| panic!("{method} {path}: {error}"))
}

/// One HTTP/1.1 request on a new connection; a transport error (say, the server was killed
/// under it) is an `Err`. The response is checked against the OpenAPI document of the code
/// under test ([`contract`]): a response that breaks it panics, naming what is wrong.
///
/// Not checked: CORS preflights (`OPTIONS` with `access-control-request-method`), which the
/// CORS layer answers as the Fetch standard says, outside the document; and for `HEAD`, the
/// body (there is none). See [`try_request_unchecked`] for the one other opt-out.
pub async fn try_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> Result<Reply, String> {
    let reply = try_request_unchecked(addr, method, path, headers, body).await?;
    let preflight = method == "OPTIONS"
        && headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("access-control-request-method"));
    if !preflight {
        contract::assert_response(&contract::Response {
            method,
            path,
            status: reply.status,
            headers: &reply.headers,
            body: &reply.body,
        });
    }
    Ok(reply)
}

/// [`try_request`] without the contract check, for a test that forwards requests to
/// something that is not the API's edge (the Lambda end-to-end test's router talks to
/// cargo-lambda's emulator under `/lambda-url/<function>/…`, which may answer its own errors
/// while a function starts); what the router passes on is checked when the test reads it.
pub async fn try_request_unchecked(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> Result<Reply, String> {
    let mut sender = connect(addr).await?;
    let mut builder = hyper::Request::builder()
        .method(method)
        .uri(path)
        .header("host", addr.to_string());
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    let request = builder
        .body(Full::new(Bytes::from(body)))
        .map_err(|error| format!("request: {error}"))?;
    let response = sender
        .send_request(request)
        .await
        .map_err(|error| format!("send: {error}"))?;
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .map(|(name, value)| {
            (
                name.as_str().to_string(),
                value.to_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|error| format!("body: {error}"))?
        .to_bytes()
        .to_vec();
    Ok(Reply {
        status,
        headers,
        body,
    })
}

/// A new HTTP/1.1 connection to `addr`, its driver spawned.
pub async fn connect(
    addr: SocketAddr,
) -> Result<hyper::client::conn::http1::SendRequest<Full<Bytes>>, String> {
    let stream = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|error| format!("connect: {error}"))?;
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|error| format!("handshake: {error}"))?;
    tokio::spawn(connection);
    Ok(sender)
}

/// Plays a started game to the end with random choices from `GET …/legal-actions` only.
/// Every concrete listed action must be accepted. Returns the number of accepted moves.
pub async fn play_randomly(
    app: &TestApp,
    game: &StartedGame,
    bot_seed: u64,
    max_moves: usize,
) -> usize {
    let mut moves = 0;
    while random_move(app, game, bot_seed, moves as u64 + 1)
        .await
        .is_some()
    {
        moves += 1;
        assert!(
            moves <= max_moves,
            "the game did not finish within {max_moves} moves"
        );
    }
    moves
}

/// Leaves a listed undo among `actions` one time in eight, as a player takes a move back
/// now and then: chosen as often as any other listed move, undos would make random games
/// walk back and forth (in Tulpenfieber every move that rolls nothing may be taken back).
pub fn rarely_undo(actions: &mut Vec<Value>, rng: &mut GameRng) {
    if actions.len() > 1 && rng.below(8) != 0 {
        actions.retain(|entry| entry["action"]["type"] != "undo");
    }
}

/// Makes one random move in a started game, by a random seat in `to_act`, with a random choice
/// from its `GET …/legal-actions`; returns the seat, or `None` if the game is over. Every
/// concrete listed action must be accepted. `step` varies the choice between calls.
pub async fn random_move(
    app: &TestApp,
    game: &StartedGame,
    bot_seed: u64,
    step: u64,
) -> Option<usize> {
    {
        let envelope = app.get(&format!("/v1/games/{}", game.id), None).await;
        assert_eq!(envelope.status, 200, "{}", envelope.text());
        let envelope = envelope.json();
        if envelope["status"] == "finished" {
            return None;
        }
        let to_act: Vec<u64> = envelope["to_act"]
            .as_array()
            .expect("to_act")
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        assert!(!to_act.is_empty(), "an active game has nobody to act");
        let mut bot = GameRng::for_entry([bot_seed as u8; 32], step);
        let seat = *bot.choose(&to_act).expect("someone acts") as usize;
        let token = &game.tokens[seat];
        let legal = app
            .get(&format!("/v1/games/{}/legal-actions", game.id), Some(token))
            .await;
        assert_eq!(legal.status, 200, "{}", legal.text());
        let mut actions = legal.json()["actions"].as_array().expect("actions").clone();
        assert!(
            !actions.is_empty(),
            "seat {seat} is in to_act but has no legal action"
        );
        rarely_undo(&mut actions, &mut bot);
        let mut accepted = false;
        for _ in 0..20 {
            let action = game_core::testing::random_action_json(&actions, &mut bot)
                .expect("a playable entry");
            let concrete = actions
                .iter()
                .any(|entry| entry.get("action") == Some(&action));
            let reply = app
                .post(
                    &format!("/v1/games/{}/actions", game.id),
                    Some(token),
                    &json!({"action": action}),
                    &[],
                )
                .await;
            match reply.status {
                200 => {
                    accepted = true;
                    break;
                }
                422 if !concrete => continue,
                status => panic!(
                    "listed action {action} by seat {seat} got {status}: {}",
                    reply.text()
                ),
            }
        }
        assert!(accepted, "no sampled action was accepted for seat {seat}");
        Some(seat)
    }
}

/// A move the listing `legal` (a `GET …/legal-actions` answer) offers: its first complete
/// action, else one built by the sampler from its first schema entry (a pick of several
/// items, when a move is a choice of cards, is listed as a schema). Panics when it offers
/// none.
pub fn some_action(legal: &Value) -> Value {
    let entries = legal["actions"].as_array().expect("actions");
    if let Some(action) = entries.iter().find_map(|entry| entry.get("action")) {
        return action.clone();
    }
    let mut rng = GameRng::for_entry([9; 32], 1);
    game_core::testing::random_action_json(&entries[..1.min(entries.len())], &mut rng)
        .unwrap_or_else(|| panic!("no move among {legal}"))
}

/// Replays the stored log with the one replayer ([`service::log::Replayer`]) and compares every
/// entry's state hash (the live state after it) and the final state.
pub fn replay_matches(record: &store::GameRecord, log: &[store::LogEntry]) {
    let registry = service::registry();
    let seed = service::seed::seed_of_record(record).expect("a stored secret");
    let engine = registry
        .get(&record.ruleset)
        .expect("a registered ruleset")
        .setup(record.seats.len() as u8, &record.options, seed)
        .expect("the setup replays");
    // As `beurs verify` replays: undo entries and the streams of the moves after them.
    let mut replay = service::log::Replayer::new(engine, seed);
    for entry in log {
        if entry.seq > 0 {
            replay
                .entry(entry.seat, &entry.action["action"])
                .unwrap_or_else(|error| panic!("entry {} does not replay: {error}", entry.seq));
        }
        let hash = service::log::state_hash(&replay.game().state_json());
        assert_eq!(
            hash, entry.state_hash,
            "entry {} replays differently",
            entry.seq
        );
    }
    assert_eq!(
        record.state.as_deref(),
        Some(replay.game().state_json().as_str()),
        "the stored state is not the replay of the log"
    );
}
