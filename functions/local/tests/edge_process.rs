//! The real `beurs serve` process at its edge: clients that hold connections cannot stop it,
//! and the request id a 5xx problem names is in its log.

use api_tests::{temp_db, try_request};
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// `beurs serve` on a free port, run by `sh` so that `ulimit` can lower its limits first; its
/// stderr (the log) arrives line by line on the returned channel.
fn start(
    shell_prefix: &str,
    extra_args: &str,
    db: &std::path::Path,
) -> (Child, SocketAddr, mpsc::Receiver<String>) {
    let command =
        format!("{shell_prefix} exec \"$0\" serve --addr 127.0.0.1:0 --db \"$1\" {extra_args}");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .arg(env!("CARGO_BIN_EXE_beurs"))
        .arg(db)
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start beurs");
    let (addr, _) = api_tests::read_banner(child.stdout.take().expect("stdout"));
    let (lines, log) = mpsc::channel();
    let stderr = child.stderr.take().expect("stderr");
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    (child, addr, log)
}

/// Whether `GET /v1/rulesets` is answered 200 within `patience`.
async fn serves_within(addr: SocketAddr, patience: Duration) -> bool {
    let deadline = Instant::now() + patience;
    while Instant::now() < deadline {
        let attempt = tokio::time::timeout(
            Duration::from_secs(3),
            try_request(addr, "GET", "/v1/rulesets", &[], Vec::new()),
        )
        .await;
        if let Ok(Ok(reply)) = attempt {
            if reply.status == 200 {
                return true;
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn held_connections_past_the_fd_limit_do_not_stop_the_server() {
    let db = temp_db("fd-limit");
    let (mut child, addr, log) = start("ulimit -n 128;", "--header-timeout-ms 2000", &db);
    assert!(serves_within(addr, Duration::from_secs(60)).await);

    // Bare connections that never send a byte, more than the process has descriptors for:
    // accepting the later ones fails with EMFILE.
    let held: Vec<TcpStream> = (0..200)
        .filter_map(|_| TcpStream::connect_timeout(&addr, Duration::from_secs(2)).ok())
        .collect();
    assert!(
        held.len() > 150,
        "only {} connections were made",
        held.len()
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(
        child.try_wait().expect("poll the server").is_none(),
        "the server exited while connections were held"
    );

    // Still holding them: the server closes the silent ones after its header timeout, so
    // descriptors come free and it serves again.
    assert!(
        serves_within(addr, Duration::from_secs(30)).await,
        "the server did not serve while idle connections were held"
    );

    drop(held);
    assert!(serves_within(addr, Duration::from_secs(60)).await);
    // The limit was really reached: the log shows accepting failed (and went on). The line
    // was written before the server served again; its reader thread may pass it on later.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen = Vec::new();
    let reached = loop {
        match log.recv_timeout(Duration::from_millis(200)) {
            Ok(line) if line.contains("accept failed") => break true,
            Ok(line) => seen.push(line),
            Err(_) if Instant::now() > deadline => break false,
            Err(_) => {}
        }
    };
    assert!(
        reached,
        "the descriptor limit was never reached:\n{}",
        seen.join("\n")
    );
    assert!(child.try_wait().expect("poll the server").is_none());
    child.kill().expect("stop the server");
    child.wait().expect("reap");
    api_tests::remove_db(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_request_id_of_a_5xx_problem_is_in_the_log() {
    let db = temp_db("request-id");
    let (mut child, addr, log) = start("", "", &db);
    // A game whose stored state no longer loads: a 500 on reading it, whatever the client.
    let created = try_request(
        addr,
        "POST",
        "/v1/games",
        &[("content-type", "application/json")],
        serde_json::to_vec(&json!({"ruleset": "tulip-bubble", "seats": 3})).unwrap(),
    )
    .await
    .expect("create")
    .json();
    let id = created["id"].as_str().expect("an id").to_string();
    let store = store::SqliteStore::open(&db).expect("open the server's database");
    let store: &dyn store::GameStore = &store;
    let record = store.load(&id).await.expect("load").expect("the game");
    let mut broken = record.clone();
    broken.version += 1;
    broken.state = Some("{\"not\": \"a tulip bubble state\"}".into());
    store
        .commit(&store::Commit {
            record: broken,
            expected_version: record.version,
            entry: None,
            idempotency: None,
            outbox: Vec::new(),
        })
        .await
        .expect("commit the broken state");

    let reply = try_request(addr, "GET", &format!("/v1/games/{id}"), &[], Vec::new())
        .await
        .expect("an answer");
    assert_eq!(reply.status, 500, "{}", reply.text());
    let problem = reply.json();
    let request_id = problem["request_id"]
        .as_str()
        .expect("a request id")
        .to_string();
    assert_eq!(reply.header("x-request-id"), Some(request_id.as_str()));
    assert!(
        !problem["detail"].as_str().unwrap_or("").contains("state"),
        "internals leaked: {problem}"
    );

    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen = Vec::new();
    let found = loop {
        match log.recv_timeout(Duration::from_millis(200)) {
            Ok(line) if line.contains(&request_id) && line.contains("does not load") => break true,
            Ok(line) => seen.push(line),
            Err(_) if Instant::now() > deadline => break false,
            Err(_) => {}
        }
    };
    assert!(
        found,
        "no log line names {request_id} with the error:\n{}",
        seen.join("\n")
    );
    child.kill().expect("stop the server");
    child.wait().expect("reap");
    api_tests::remove_db(&db);
}
