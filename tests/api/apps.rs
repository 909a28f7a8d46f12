//! Apps (docs/apps.md): the operator's keys, what a key's scopes allow, that an app's games
//! are invisible to every other app, rotation and revocation, the apps' quotas and the edge's
//! request limit. On SQLite and on DynamoDB (moto).

use api_tests::{temp_db, test_ctx, Reply, TestApp};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use store::GameStore;

const OPERATOR: &str = "operator key of the apps tests";
const RULESET: &str = "tulipmania-1637";

/// A server over `store` whose context `configure` changes, behind an edge that limits
/// requests to `requests` (none: unlimited). The server stops with the returned handle.
pub(crate) async fn serve(
    store: Arc<dyn GameStore>,
    configure: impl FnOnce(service::AppCtx) -> service::AppCtx,
    requests: Option<api::edge::RequestRate>,
) -> (TestApp, tokio::task::AbortHandle) {
    serve_behind(
        store,
        configure,
        api::edge::EdgeConfig {
            cors_origins: Vec::new(),
            requests,
        },
    )
    .await
}

/// [`serve`] behind the edge `edge`.
async fn serve_behind(
    store: Arc<dyn GameStore>,
    configure: impl FnOnce(service::AppCtx) -> service::AppCtx,
    edge: api::edge::EdgeConfig,
) -> (TestApp, tokio::task::AbortHandle) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a free port");
    let addr = listener.local_addr().expect("local address");
    let ctx = Arc::new(configure(
        test_ctx(store.clone()).with_operator_key(OPERATOR),
    ));
    let server = tokio::spawn(async move {
        local::serve::serve_with(listener, ctx, &edge, &local::serve::Limits::default()).await
    });
    (TestApp::external(addr, store), server.abort_handle())
}

pub(crate) fn sqlite() -> Arc<dyn GameStore> {
    Arc::new(store::SqliteStore::open(temp_db("apps")).expect("open the test database"))
}

pub(crate) async fn send(
    app: &TestApp,
    method: &str,
    path: &str,
    key: Option<&str>,
    body: Option<Value>,
) -> Reply {
    let auth = key.map(|key| format!("Bearer {key}"));
    let mut headers: Vec<(&str, &str)> = auth
        .iter()
        .map(|value| ("authorization", value.as_str()))
        .collect();
    if body.is_some() {
        headers.push(("content-type", "application/json"));
    }
    let body = body
        .map(|body| body.to_string().into_bytes())
        .unwrap_or_default();
    app.send(method, path, &headers, body).await
}

/// Creates an app over HTTP with the operator's key; returns its id and key.
pub(crate) async fn create_app(
    app: &TestApp,
    name: &str,
    scopes: Option<&[&str]>,
) -> (String, String) {
    let body = match scopes {
        Some(scopes) => json!({"name": name, "scopes": scopes}),
        None => json!({"name": name}),
    };
    let created = send(app, "POST", "/v1/apps", Some(OPERATOR), Some(body)).await;
    assert_eq!(created.status, 201, "{}", created.text());
    let created = created.json();
    let id = created["app"]["id"].as_str().expect("an app id").to_owned();
    let key = created["key"].as_str().expect("a key").to_owned();
    assert!(key.starts_with("bk_"), "{key}");
    (id, key)
}

fn new_game(invite_only: bool) -> Value {
    json!({"ruleset": RULESET, "seats": 3, "options": crate::test_options(RULESET), "invite_only": invite_only})
}

fn listed(list: &Reply, id: &str) -> bool {
    list.json()["games"]
        .as_array()
        .expect("games")
        .iter()
        .any(|game| game["id"] == id)
}

/// The whole seconds a 429 says to wait.
fn retry_after(reply: &Reply) -> u64 {
    reply
        .header("retry-after")
        .expect("Retry-After")
        .parse()
        .expect("seconds")
}

/// How many games the store's lobby holds (at most 100): what was created, in the tests that
/// create open games only.
async fn open_games(app: &TestApp) -> usize {
    let query = store::ListQuery {
        ruleset: None,
        cursor: None,
        limit: 100,
    };
    app.store.list_open(&query).await.unwrap().games.len()
}

pub(crate) fn refused(reply: &Reply, status: u16, code: &str) {
    assert_eq!(reply.status, status, "{}", reply.text());
    assert_eq!(reply.json()["code"], code, "{}", reply.text());
}

/// Everything the first "done when" asks, on `app`.
async fn keys_own_and_administer_their_games(app: &TestApp) {
    // Only the operator manages apps.
    refused(
        &send(app, "GET", "/v1/apps", None, None).await,
        401,
        "unauthorized",
    );
    refused(
        &send(app, "GET", "/v1/apps", Some("not the key"), None).await,
        401,
        "unauthorized",
    );
    let (a, a_key) = create_app(app, "Tulip Club", None).await;
    let (_b, b_key) = create_app(app, "Other Site", None).await;

    // A's key creates an invite-only game, which belongs to A.
    let created = send(app, "POST", "/v1/games", Some(&a_key), Some(new_game(true))).await;
    assert_eq!(created.status, 201, "{}", created.text());
    let created = created.json();
    assert_eq!(created["app"], a.as_str());
    let id = created["id"].as_str().expect("id").to_owned();
    let game = format!("/v1/games/{id}");

    // A administers it: seats a player (invite-only: an admin's claim) and a bot.
    let player = send(
        app,
        "POST",
        &format!("{game}/seats/0"),
        Some(&a_key),
        Some(json!({"name": "Ann"})),
    )
    .await;
    assert_eq!(player.status, 201, "{}", player.text());
    let bot = send(
        app,
        "POST",
        &format!("{game}/seats/1"),
        Some(&a_key),
        Some(json!({"bot": "random"})),
    )
    .await;
    assert_eq!(bot.status, 201, "{}", bot.text());
    let hook = send(
        app,
        "POST",
        &format!("{game}/webhooks"),
        Some(&a_key),
        Some(json!({"url": "https://hooks.example/beurs"})),
    )
    .await;
    assert!(hook.status == 201 || hook.status == 422, "{}", hook.text());
    assert_eq!(
        send(app, "GET", &game, Some(&a_key), None).await.status,
        200
    );
    let mine = send(app, "GET", "/v1/games", Some(&a_key), None).await;
    assert_eq!(mine.status, 200, "{}", mine.text());
    assert!(listed(&mine, &id), "A's listing holds its invite-only game");

    // B's key is refused every route of the game, as if it did not exist, and finds it in
    // no listing; nor does the public lobby list it.
    for (method, path, body) in [
        ("GET", game.clone(), None),
        ("GET", format!("{game}/legal-actions"), None),
        ("GET", format!("{game}/log"), None),
        ("GET", format!("{game}/audit"), None),
        ("GET", format!("{game}/history/0"), None),
        ("GET", format!("{game}/events"), None),
        ("GET", format!("{game}/webhooks"), None),
        (
            "POST",
            format!("{game}/seats/2"),
            Some(json!({"name": "Bob"})),
        ),
        (
            "POST",
            format!("{game}/webhooks"),
            Some(json!({"url": "https://hooks.example/b"})),
        ),
        ("POST", format!("{game}/pause"), None),
        ("DELETE", game.clone(), None),
    ] {
        let reply = send(app, method, &path, Some(&b_key), body).await;
        refused(&reply, 404, "game-not-found");
    }
    assert!(!listed(
        &send(app, "GET", "/v1/games", Some(&b_key), None).await,
        &id
    ));
    assert!(!listed(
        &send(app, "GET", "/v1/games", None, None).await,
        &id
    ));

    // Rotation: a second, read-only key works beside the first; a third is refused.
    let issued = send(
        app,
        "POST",
        &format!("/v1/apps/{a}/keys"),
        Some(OPERATOR),
        Some(json!({"scopes": ["games:read"]})),
    )
    .await;
    assert_eq!(issued.status, 201, "{}", issued.text());
    let read_key = issued.json()["key"].as_str().expect("key").to_owned();
    assert!(listed(
        &send(app, "GET", "/v1/games", Some(&read_key), None).await,
        &id
    ));
    assert!(listed(
        &send(app, "GET", "/v1/games", Some(&a_key), None).await,
        &id
    ));
    refused(
        &send(
            app,
            "POST",
            &format!("/v1/apps/{a}/keys"),
            Some(OPERATOR),
            None,
        )
        .await,
        422,
        "too-many-keys",
    );

    // A missing scope is a 403 that names it, and changes nothing.
    let denied = send(app, "DELETE", &game, Some(&read_key), None).await;
    refused(&denied, 403, "missing-scope");
    assert!(denied.json()["detail"]
        .as_str()
        .unwrap_or_default()
        .contains("games:admin"));
    let denied = send(
        app,
        "POST",
        "/v1/games",
        Some(&read_key),
        Some(new_game(false)),
    )
    .await;
    refused(&denied, 403, "missing-scope");
    assert!(denied.json()["detail"]
        .as_str()
        .unwrap_or_default()
        .contains("games:create"));
    assert_eq!(
        app.store.live_games(store::Owner::App(&a)).await.unwrap(),
        1
    );

    // Revoking the first key: it is a 401 from now on; the second still works.
    let listed_apps = send(app, "GET", "/v1/apps", Some(OPERATOR), None)
        .await
        .json();
    let first = listed_apps["apps"]
        .as_array()
        .expect("apps")
        .iter()
        .find(|listed| listed["id"] == a.as_str())
        .expect("A is listed")["keys"][0]["id"]
        .as_str()
        .expect("a key id")
        .to_owned();
    assert!(
        !listed_apps.to_string().contains(&a_key),
        "a listing never shows a key"
    );
    let revoked = send(
        app,
        "DELETE",
        &format!("/v1/apps/{a}/keys/{first}"),
        Some(OPERATOR),
        None,
    )
    .await;
    assert_eq!(revoked.status, 200, "{}", revoked.text());
    refused(
        &send(app, "GET", "/v1/games", Some(&a_key), None).await,
        401,
        "unauthorized",
    );
    refused(
        &send(app, "GET", &game, Some(&a_key), None).await,
        401,
        "unauthorized",
    );
    assert!(listed(
        &send(app, "GET", "/v1/games", Some(&read_key), None).await,
        &id
    ));

    // A new admin key deletes the game: gone for everyone.
    let issued = send(
        app,
        "POST",
        &format!("/v1/apps/{a}/keys"),
        Some(OPERATOR),
        Some(json!({"scopes": ["games:admin"]})),
    )
    .await;
    let admin_key = issued.json()["key"].as_str().expect("key").to_owned();
    assert_eq!(
        send(app, "DELETE", &game, Some(&admin_key), None)
            .await
            .status,
        204
    );
    refused(
        &send(app, "GET", &game, None, None).await,
        404,
        "game-not-found",
    );
    assert_eq!(
        app.store.live_games(store::Owner::App(&a)).await.unwrap(),
        0
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_own_and_administer_their_games_on_sqlite() {
    let (app, server) = serve(sqlite(), |ctx| ctx, None).await;
    keys_own_and_administer_their_games(&app).await;
    server.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_own_and_administer_their_games_on_dynamodb() {
    let store = store::dynamo::testing::store().await;
    let (app, server) = serve(Arc::new(store), |ctx| ctx, None).await;
    keys_own_and_administer_their_games(&app).await;
    server.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_deployment_creates_games_for_app_keys_only() {
    let require = |ctx: service::AppCtx| {
        ctx.with_limits(service::apps::Limits {
            require_app_key: true,
            ..service::apps::Limits::default()
        })
    };
    let (app, server) = serve(sqlite(), require, None).await;
    refused(
        &send(&app, "POST", "/v1/games", None, Some(new_game(false))).await,
        401,
        "unauthorized",
    );
    let (_, key) = create_app(&app, "Site", Some(&["games:create"])).await;
    assert_eq!(
        send(&app, "POST", "/v1/games", Some(&key), Some(new_game(false)))
            .await
            .status,
        201
    );
    server.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_app_over_its_quotas_gets_429_and_creates_nothing() {
    clear_of_the_hour_boundary().await;
    let quotas = |ctx: service::AppCtx| {
        ctx.with_limits(service::apps::Limits {
            creations_per_hour: 2,
            live_games: 10,
            ..service::apps::Limits::default()
        })
    };
    let (app, server) = serve(sqlite(), quotas, None).await;
    let (id, key) = create_app(&app, "Busy", None).await;
    for _ in 0..2 {
        assert_eq!(
            send(&app, "POST", "/v1/games", Some(&key), Some(new_game(true)))
                .await
                .status,
            201
        );
    }
    let over = send(&app, "POST", "/v1/games", Some(&key), Some(new_game(true))).await;
    refused(&over, 429, "quota-exceeded");
    let retry = retry_after(&over);
    assert!((1..=3_600).contains(&retry), "{retry}");
    assert_eq!(
        over.header("ratelimit-policy"),
        Some("\"creations\";q=2;w=3600")
    );
    assert!(over
        .header("ratelimit")
        .is_some_and(|left| left.starts_with("\"creations\";r=0;t=")));
    assert_eq!(
        app.store.live_games(store::Owner::App(&id)).await.unwrap(),
        2,
        "the refused game was not created"
    );
    server.abort();

    // The live-games quota: two unfinished games at most.
    let live = |ctx: service::AppCtx| {
        ctx.with_limits(service::apps::Limits {
            live_games: 2,
            ..service::apps::Limits::default()
        })
    };
    let (app, server) = serve(sqlite(), live, None).await;
    let (id, key) = create_app(&app, "Many", None).await;
    let mut games = Vec::new();
    for _ in 0..2 {
        let created = send(&app, "POST", "/v1/games", Some(&key), Some(new_game(true))).await;
        games.push(created.json()["id"].as_str().expect("id").to_owned());
    }
    refused(
        &send(&app, "POST", "/v1/games", Some(&key), Some(new_game(true))).await,
        429,
        "quota-exceeded",
    );
    // Deleting one makes room again.
    assert_eq!(
        send(
            &app,
            "DELETE",
            &format!("/v1/games/{}", games[0]),
            Some(&key),
            None
        )
        .await
        .status,
        204
    );
    assert_eq!(
        send(&app, "POST", "/v1/games", Some(&key), Some(new_game(true)))
            .await
            .status,
        201
    );
    assert_eq!(
        app.store.live_games(store::Owner::App(&id)).await.unwrap(),
        2
    );
    server.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_over_the_rate_get_429_change_nothing_and_recover() {
    let rate = api::edge::RequestRate {
        per_second: 1,
        burst: 3,
    };
    let (app, server) = serve(sqlite(), |ctx| ctx, Some(rate)).await;
    let (_, key) = create_app(&app, "Keyed", None).await;
    // Twenty creations at once from one address: a bucket of 3 refilling at 1 a second lets
    // through the first three and one per second after; the rest are refused.
    let mut created = 0;
    let mut limited = None;
    for _ in 0..20 {
        let reply = send(&app, "POST", "/v1/games", None, Some(new_game(false))).await;
        match reply.status {
            201 => created += 1,
            429 => limited = Some(reply),
            other => panic!("{other}: {}", reply.text()),
        }
    }
    let limited = limited.expect("some requests over the rate were refused");
    refused(&limited, 429, "rate-limited");
    assert_eq!(
        limited.header("ratelimit-policy"),
        Some("\"requests\";q=3;w=3")
    );
    let retry = retry_after(&limited);
    assert!((1..=3).contains(&retry), "{retry}");
    // Only the admitted creations made games.
    assert_eq!(
        open_games(&app).await,
        created,
        "a refused request created nothing"
    );
    // The app was created from the same address: one of the three went to it.
    assert!((2..20).contains(&created), "{created}");

    // An app key has its own bucket, apart from the address's.
    let keyed = send(&app, "GET", "/v1/games", Some(&key), None).await;
    assert_eq!(keyed.status, 200, "{}", keyed.text());

    // The bucket refills: after Retry-After, the address is served again.
    tokio::time::sleep(Duration::from_secs(retry) + Duration::from_millis(100)).await;
    assert_eq!(
        send(&app, "GET", "/v1/rulesets", None, None).await.status,
        200
    );
    server.abort();
}

/// Waits, if the clock hour ends within a minute, for the next: the hourly quotas count per
/// clock hour, and a test that counts across its end would see the count start again.
async fn clear_of_the_hour_boundary() {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs();
    let left = 3_600 - now % 3_600;
    if left < 60 {
        tokio::time::sleep(Duration::from_secs(left + 1)).await;
    }
}

/// A server over `store` holding each client address to `creations` keyless games an hour
/// and `live` unfinished ones.
async fn keyless_quotas(
    store: Arc<dyn GameStore>,
    creations: Option<u32>,
    live: Option<u32>,
) -> (TestApp, tokio::task::AbortHandle) {
    let limits = service::apps::Limits {
        keyless_creations_per_hour: creations,
        keyless_live_games: live,
        ..service::apps::Limits::default()
    };
    serve(store, move |ctx| ctx.with_limits(limits), None).await
}

/// Games created without a key from one address are held to its hourly quota, counted in
/// the store: a second server over the same store counts on from the first's count.
async fn an_address_is_held_to_its_hourly_quota(store: Arc<dyn GameStore>) {
    clear_of_the_hour_boundary().await;
    let (app, server) = keyless_quotas(store.clone(), Some(3), None).await;
    let before = open_games(&app).await;
    for _ in 0..2 {
        let created = send(&app, "POST", "/v1/games", None, Some(new_game(false))).await;
        assert_eq!(created.status, 201, "{}", created.text());
    }
    server.abort();
    // Another server of the deployment (another Lambda instance) knows the two.
    let (app, server) = keyless_quotas(store, Some(3), None).await;
    let third = send(&app, "POST", "/v1/games", None, Some(new_game(false))).await;
    assert_eq!(third.status, 201, "{}", third.text());
    let over = send(&app, "POST", "/v1/games", None, Some(new_game(false))).await;
    refused(&over, 429, "quota-exceeded");
    assert_eq!(
        over.header("ratelimit-policy"),
        Some("\"creations\";q=3;w=3600")
    );
    let retry = retry_after(&over);
    assert!((1..=3_600).contains(&retry), "{retry}");
    assert!(!over.text().contains("127.0.0.1"), "{}", over.text());
    assert_eq!(
        open_games(&app).await,
        before + 3,
        "the refused creation made no game"
    );
    // Reads are not creations; an app's key creates under its app's own quota.
    assert_eq!(send(&app, "GET", "/v1/games", None, None).await.status, 200);
    let (_, key) = create_app(&app, "Keyed", None).await;
    let keyed = send(&app, "POST", "/v1/games", Some(&key), Some(new_game(false))).await;
    assert_eq!(keyed.status, 201, "{}", keyed.text());
    server.abort();
}

/// Unfinished games created without a key from one address are held to its live-games
/// quota; deleting one makes room, and an app's games do not count.
async fn an_address_is_held_to_its_live_games(store: Arc<dyn GameStore>) {
    let (app, server) = keyless_quotas(store, None, Some(2)).await;
    let mut games = Vec::new();
    for _ in 0..2 {
        let created = send(&app, "POST", "/v1/games", None, Some(new_game(false))).await;
        assert_eq!(created.status, 201, "{}", created.text());
        let id = created.json()["id"].as_str().expect("id").to_owned();
        let admin = created.json()["admin_token"]
            .as_str()
            .expect("admin token")
            .to_owned();
        games.push((id, admin));
    }
    let over = send(&app, "POST", "/v1/games", None, Some(new_game(false))).await;
    refused(&over, 429, "quota-exceeded");
    assert_eq!(over.header("ratelimit-policy"), Some("\"live-games\";q=2"));
    assert!(retry_after(&over) >= 1);
    let (_, key) = create_app(&app, "Keyed", None).await;
    let keyed = send(&app, "POST", "/v1/games", Some(&key), Some(new_game(false))).await;
    assert_eq!(
        keyed.status,
        201,
        "an app's games are its own: {}",
        keyed.text()
    );
    // The address deletes one of its games: room for one more, and only one.
    let (id, admin) = &games[0];
    let deleted = send(
        &app,
        "DELETE",
        &format!("/v1/games/{id}"),
        Some(admin),
        None,
    )
    .await;
    assert_eq!(deleted.status, 204, "{}", deleted.text());
    let again = send(&app, "POST", "/v1/games", None, Some(new_game(false))).await;
    assert_eq!(again.status, 201, "{}", again.text());
    refused(
        &send(&app, "POST", "/v1/games", None, Some(new_game(false))).await,
        429,
        "quota-exceeded",
    );
    server.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_creating_games_without_a_key_is_held_to_its_quotas_on_sqlite() {
    let store = sqlite();
    an_address_is_held_to_its_hourly_quota(store.clone()).await;
    an_address_is_held_to_its_live_games(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_creating_games_without_a_key_is_held_to_its_quotas_on_dynamodb() {
    an_address_is_held_to_its_hourly_quota(Arc::new(store::dynamo::testing::store().await)).await;
    an_address_is_held_to_its_live_games(Arc::new(store::dynamo::testing::store().await)).await;
}
