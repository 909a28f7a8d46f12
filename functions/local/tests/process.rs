//! Tests of the real `beurs` process: crash durability under SIGKILL, the `verify` CLI, and the
//! command line's help and usage errors.

use api_tests::{temp_db, Reply};
use game_core::GameRng;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `beurs serve` and its address.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(db: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_beurs"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .stdout(Stdio::piped())
            .spawn()
            .expect("start beurs");
        let (addr, _) = api_tests::read_banner(child.stdout.take().expect("stdout"));
        Server { child, addr }
    }

    /// SIGKILL: no chance to flush anything.
    fn kill(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reap");
    }
}

async fn post(
    addr: SocketAddr,
    path: &str,
    token: Option<&str>,
    body: &Value,
    extra: &[(&str, &str)],
) -> Option<Reply> {
    let auth = token.map(|token| format!("Bearer {token}"));
    let mut headers = vec![("content-type", "application/json")];
    headers.extend(auth.iter().map(|value| ("authorization", value.as_str())));
    headers.extend_from_slice(extra);
    try_request(
        addr,
        "POST",
        path,
        &headers,
        serde_json::to_vec(body).expect("json"),
    )
    .await
}

async fn get(addr: SocketAddr, path: &str, token: Option<&str>) -> Option<Reply> {
    let auth = token.map(|token| format!("Bearer {token}"));
    let headers: Vec<(&str, &str)> = auth
        .iter()
        .map(|value| ("authorization", value.as_str()))
        .collect();
    try_request(addr, "GET", path, &headers, Vec::new()).await
}

/// A request that may fail because the server was killed under it.
async fn try_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> Option<Reply> {
    let attempt = api_tests::try_request(addr, method, path, headers, body);
    tokio::time::timeout(Duration::from_secs(10), attempt)
        .await
        .ok()?
        .ok()
}

/// An acknowledged move: the server said 200 with this seq.
#[derive(Debug)]
struct Acked {
    game: String,
    seq: u64,
    seat: u8,
    action: Value,
}

/// One client playing one game with random legal moves until told to stop.
async fn drive(
    addr: SocketAddr,
    game: &str,
    tokens: &[String],
    round: u64,
    budget: Duration,
    acked: &mut Vec<Acked>,
) {
    let deadline = tokio::time::Instant::now() + budget;
    let mut step = 0;
    while tokio::time::Instant::now() < deadline {
        step += 1;
        let Some(envelope) = get(addr, &format!("/v1/games/{game}"), None).await else {
            return;
        };
        let envelope = envelope.json();
        if envelope["status"] != "active" {
            return;
        }
        let to_act: Vec<u64> = envelope["to_act"]
            .as_array()
            .expect("to_act")
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        let mut bot = GameRng::for_entry([round as u8; 32], step);
        let seat = *bot.choose(&to_act).expect("someone acts") as usize;
        let Some(legal) = get(
            addr,
            &format!("/v1/games/{game}/legal-actions"),
            Some(&tokens[seat]),
        )
        .await
        else {
            return;
        };
        let actions = legal.json()["actions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let Some(action) = game_core::testing::random_action_json(&actions, &mut bot) else {
            continue;
        };
        let key = format!("k-{round}-{step}");
        let extra: Vec<(&str, &str)> = if step % 2 == 0 {
            vec![("idempotency-key", key.as_str())]
        } else {
            Vec::new()
        };
        let Some(reply) = post(
            addr,
            &format!("/v1/games/{game}/actions"),
            Some(&tokens[seat]),
            &json!({"action": action}),
            &extra,
        )
        .await
        else {
            return;
        };
        if reply.status == 200 {
            let seq = reply.json()["seq"].as_u64().expect("seq");
            acked.push(Acked {
                game: game.to_string(),
                seq,
                seat: seat as u8,
                action: action.clone(),
            });
        }
    }
}

/// A logged action as its client sent it: the log adds to an undo the move it took back
/// (`{"type": "undo", "move": 7}` for `{"type": "undo"}`), which random clients take now
/// and then.
fn logged(action: &Value) -> Value {
    if action["type"] == "undo" {
        json!({"type": "undo"})
    } else {
        action.clone()
    }
}

async fn start_game(addr: SocketAddr, seats: u8) -> (String, Vec<String>) {
    let body = json!({"ruleset": "tulipmania-1637", "seats": seats, "options": {"max_turns": 400}});
    let created = post(addr, "/v1/games", None, &body, &[])
        .await
        .expect("create")
        .json();
    let id = created["id"].as_str().expect("id").to_string();
    let mut tokens = Vec::new();
    for seat in 0..seats {
        let claimed = post(
            addr,
            &format!("/v1/games/{id}/seats/{seat}"),
            None,
            &json!({"name": format!("p{seat}")}),
            &[],
        )
        .await
        .expect("claim");
        assert_eq!(claimed.status, 201, "{}", claimed.text());
        tokens.push(
            claimed.json()["player_token"]
                .as_str()
                .expect("token")
                .to_string(),
        );
    }
    (id, tokens)
}

/// Replays `log` from `record`'s seed and checks every entry's state hash and the stored
/// state against the replay.
fn assert_log_replays(
    registry: &game_core::Registry,
    record: &store::GameRecord,
    log: &[store::LogEntry],
) {
    let seed = service::seed::seed_of_record(record).expect("seed");
    let ruleset = registry.get(&record.ruleset).expect("ruleset");
    let engine = ruleset
        .setup(record.seats.len() as u8, &record.options, seed)
        .expect("setup");
    assert_eq!(
        service::log::state_hash(&engine.state_json()),
        log[0].state_hash
    );
    // As the audit replays it: undo entries (random clients take moves back) included.
    let mut replay = service::log::Replayer::new(engine, seed);
    for entry in &log[1..] {
        replay
            .entry(entry.seat, &entry.action["action"])
            .unwrap_or_else(|error| panic!("entry {} does not replay: {error}", entry.seq));
        assert_eq!(
            service::log::state_hash(&replay.game().state_json()),
            entry.state_hash,
            "entry {} does not replay",
            entry.seq
        );
    }
    assert_eq!(
        Some(replay.game().state_json()),
        record.state,
        "the stored state is not the replay of the log"
    );
}

/// Several clients play while the server is SIGKILLed at random moments 20 times and
/// restarted on the same database. Every acknowledged move must be in the log exactly once,
/// the log must have no gaps, and every game's stored state must equal the replay of its log.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sigkill_loses_no_acknowledged_move() {
    let db = temp_db("crash");
    let mut server = Server::start(&db);
    let mut games = Vec::new();
    for seats in [3, 4, 5] {
        games.push(start_game(server.addr, seats).await);
    }
    let mut acked = Vec::new();
    let mut chaos = GameRng::for_entry([99; 32], 0);
    for round in 0..20u64 {
        let budget = Duration::from_millis(100 + chaos.below(300));
        let addr = server.addr;
        let clients: Vec<_> = games
            .iter()
            .cloned()
            .map(|(game, tokens)| {
                tokio::spawn(async move {
                    let mut mine = Vec::new();
                    drive(addr, &game, &tokens, round, budget, &mut mine).await;
                    mine
                })
            })
            .collect();
        // Kill while the clients are mid-flight, not after they are done.
        tokio::time::sleep(budget / 2 + Duration::from_millis(chaos.below(50))).await;
        server.kill();
        for client in clients {
            acked.extend(client.await.expect("client"));
        }
        server = Server::start(&db);
    }
    server.kill();
    assert!(
        acked.len() > 20,
        "too few moves were acknowledged to mean anything: {}",
        acked.len()
    );

    let store = store::SqliteStore::open(&db).expect("reopen");
    use store::GameStore;
    let registry = service::registry();
    for (game, _) in &games {
        let record = store.load(game).await.expect("load").expect("exists");
        let log = store.log(game, None, usize::MAX).await.expect("log");
        let seqs: Vec<u64> = log.iter().map(|entry| entry.seq).collect();
        assert_eq!(
            seqs,
            (0..record.log_len).collect::<Vec<_>>(),
            "the log has gaps or duplicates"
        );
        for move_ in acked.iter().filter(|move_| &move_.game == game) {
            let entry = &log[move_.seq as usize];
            assert_eq!(
                entry.seat,
                Some(move_.seat),
                "acknowledged move {} lost or changed",
                move_.seq
            );
            assert_eq!(
                logged(&entry.action["action"]),
                move_.action,
                "acknowledged move {} lost or changed",
                move_.seq
            );
        }
        assert_log_replays(&registry, &record, &log);
    }
    for suffix in ["", "-wal", "-shm"] {
        let mut path = db.clone().into_os_string();
        path.push(suffix);
        let _ = std::fs::remove_file(path);
    }
    eprintln!("{} acknowledged moves survived 20 SIGKILLs", acked.len());
}

/// `beurs verify` exits 0 on a real finished game's audit file and non-zero, with a message,
/// when anything in it is altered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_cli_accepts_real_audits_and_rejects_altered_ones() {
    let app = api_tests::spawn_app().await;
    let game = app
        .start_game("tulipmania-1637", 3, json!({"max_turns": 60}))
        .await;
    api_tests::play_randomly(&app, &game, 5, 20_000).await;
    let audit = app.full_audit(&game.id).await.json();
    let dir = std::env::temp_dir();
    let run = |name: &str, audit: &Value| {
        let path = dir.join(format!("beurs-audit-{}-{name}.json", game.id));
        std::fs::write(&path, serde_json::to_vec(audit).expect("json")).expect("write");
        let output = Command::new(env!("CARGO_BIN_EXE_beurs"))
            .arg("verify")
            .arg(&path)
            .output()
            .expect("run verify");
        let _ = std::fs::remove_file(&path);
        output
    };
    let output = run("good", &audit);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("ok:"));

    let mut altered_entropy = audit.clone();
    altered_entropy["entropies"][0] = json!("not what was sent");
    let mut altered_hash = audit.clone();
    altered_hash["entries"][3]["state_hash"] = json!("0".repeat(64));
    let mut altered_action = audit.clone();
    let index = audit["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .position(|entry| entry["action"]["type"] == "sell_tulip")
        .expect("a sale");
    altered_action["entries"][index]["action"]["colour"] = json!("red");
    let mut altered_secret = audit.clone();
    altered_secret["server_secret"] = json!("1".repeat(64));
    // Hole 4 of issue 13: the game's id is bound into the seed (scheme v2).
    assert_eq!(audit["seed_scheme"], "v2");
    let mut altered_id = audit.clone();
    altered_id["id"] = json!("g_anothergame0000000");
    let mut altered_options = audit.clone();
    altered_options["options"]["max_turns"] = json!(61);
    for (name, altered) in [
        ("entropy", altered_entropy),
        ("hash", altered_hash),
        ("action", altered_action),
        ("secret", altered_secret),
        ("id", altered_id),
        ("options", altered_options),
    ] {
        let output = run(name, &altered);
        assert!(
            !output.status.success(),
            "verify accepted an audit with an altered {name}"
        );
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("audit rejected"),
            "{name}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// `beurs --help` and `beurs serve --help` list the commands and the serve flags; an unknown
/// flag is one line on stderr and a non-zero exit, with no backtrace or `Error:` debug dump.
#[test]
fn help_works_and_usage_errors_are_one_line() {
    let beurs = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_beurs"))
            .args(args)
            .env("RUST_BACKTRACE", "1")
            .output()
            .expect("run beurs")
    };
    for args in [&["--help"][..], &["serve", "--help"], &["help", "serve"]] {
        let output = beurs(args);
        assert!(output.status.success(), "beurs {args:?} failed");
        let help = String::from_utf8_lossy(&output.stdout);
        for flag in [
            "--addr",
            "--db",
            "--dev",
            "--store",
            "--table",
            "--cors-origin",
            "BEURS_ADDR",
            "BEURS_CORS_ORIGINS",
        ] {
            assert!(
                help.contains(flag),
                "beurs {args:?} does not mention {flag}:\n{help}"
            );
        }
    }
    let help = String::from_utf8_lossy(&beurs(&["--help"]).stdout).into_owned();
    for command in ["serve", "verify", "bench", "openapi"] {
        assert!(help.contains(command), "{command} is missing:\n{help}");
    }
    for (args, flag) in [
        (&["verify", "--help"][..], "URL"),
        (&["bench", "--help"], "--clients"),
    ] {
        let output = beurs(args);
        assert!(output.status.success());
        assert!(String::from_utf8_lossy(&output.stdout).contains(flag));
    }

    for args in [
        &["serve", "--nosuchflag"][..],
        &["--nosuchflag"],
        &["verify"],
        &["bench", "--clients", "none"],
        &["verify", "/nonexistent/audit.json"],
    ] {
        let output = beurs(args);
        assert!(!output.status.success(), "beurs {args:?} succeeded");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            stderr.trim_end().lines().count(),
            1,
            "beurs {args:?}: not one line:\n{stderr}"
        );
        assert!(stderr.starts_with("beurs: "), "{stderr}");
        assert!(
            !stderr.contains("backtrace") && !stderr.contains("Error: "),
            "{stderr}"
        );
    }
    let stderr = String::from_utf8_lossy(&beurs(&["serve", "--nosuchflag"]).stderr).into_owned();
    assert!(stderr.contains("--nosuchflag"), "{stderr}");
}

/// Serves `audit` in pages of `page` entries the way `GET …/audit?after=&limit=` pages it
/// (`next_after` on every page but the last), and records each request's query.
async fn serve_audit_pages(
    audit: Value,
    page: usize,
) -> (SocketAddr, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    use http_body_util::Full;
    use hyper::body::Bytes;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let queries = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = queries.clone();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let (audit, seen) = (audit.clone(), seen.clone());
            let service = hyper::service::service_fn(move |request: hyper::Request<_>| {
                let query = request.uri().query().unwrap_or("").to_string();
                seen.lock().expect("lock").push(query.clone());
                let after: Option<u64> = query
                    .split('&')
                    .find_map(|pair| pair.strip_prefix("after="))
                    .and_then(|value| value.parse().ok());
                let entries: Vec<Value> = audit["entries"]
                    .as_array()
                    .expect("entries")
                    .iter()
                    .filter(|entry| after.is_none_or(|after| entry["seq"].as_u64() > Some(after)))
                    .cloned()
                    .collect();
                let mut body = audit.clone();
                body["entries"] = json!(entries[..page.min(entries.len())]);
                body["next_after"] = if entries.len() > page {
                    entries[page - 1]["seq"].clone()
                } else {
                    Value::Null
                };
                let bytes = Bytes::from(serde_json::to_vec(&body).expect("json"));
                async move { Ok::<_, std::convert::Infallible>(hyper::Response::new(Full::new(bytes))) }
            });
            tokio::spawn(
                hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service),
            );
        }
    });
    (addr, queries)
}

/// `beurs verify URL` follows `next_after` page after page, verifies the whole log, and asks
/// for the largest page the server allows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_cli_follows_audit_pages() {
    let app = api_tests::spawn_app().await;
    let game = app
        .start_game("tulipmania-1637", 3, json!({"max_turns": 60}))
        .await;
    api_tests::play_randomly(&app, &game, 5, 20_000).await;
    // The whole audit: a game longer than one page of the audit route (its default limit)
    // would otherwise be served as if that page were all of it.
    let audit = app.full_audit(&game.id).await.json();
    let total = audit["entries"].as_array().expect("entries").len();
    assert!(total > 20, "a short game: {total} entries");
    let (addr, queries) = serve_audit_pages(audit, 7).await;
    let url = format!("http://{addr}/v1/games/{}/audit", game.id);
    let output = {
        let url = url.clone();
        tokio::task::spawn_blocking(move || {
            Command::new(env!("CARGO_BIN_EXE_beurs"))
                .args(["verify", &url])
                .output()
        })
        .await
        .expect("join")
        .expect("run verify")
    };
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains(&format!("{total} log entries")), "{stdout}");
    let queries = queries.lock().expect("lock").clone();
    assert_eq!(queries.len(), total.div_ceil(7), "{queries:?}");
    assert_eq!(queries[0], "limit=1000");
    assert_eq!(queries[1], "limit=1000&after=6");

    // The library function the CLI uses returns the concatenated document.
    let loaded = local::verify::load(&url).await.expect("load");
    assert_eq!(loaded.entries.len(), total);
    assert_eq!(loaded.next_after, None);
}

/// A clocked game whose player never moves, while the server is SIGKILLed at random moments
/// and restarted: the deadline worker applies the timeouts that fall due, a kill loses
/// nothing (the log has no gaps and replays to the stored state), and no wait is timed out
/// twice (every counted timeout starts its own run of moves chosen by the clock).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_during_timeouts_loses_nothing_and_applies_each_once() {
    let db = temp_db("clock-crash");
    let mut server = Server::start(&db);
    let clock = json!({"per_move": "PT1S", "remind_at": 0});
    let created = post(
        server.addr,
        "/v1/games",
        None,
        &json!({"ruleset": "tulip-bubble", "seats": 3, "clock": clock}),
        &[],
    )
    .await
    .expect("the server answers");
    assert_eq!(created.status, 201, "{}", created.text());
    let id = created.json()["id"].as_str().expect("id").to_string();
    for (seat, body) in [
        (0, json!({"name": "Absent"})),
        (1, json!({"bot": "random"})),
        (2, json!({"bot": "random"})),
    ] {
        let claimed = post(
            server.addr,
            &format!("/v1/games/{id}/seats/{seat}"),
            None,
            &body,
            &[],
        )
        .await
        .expect("the server answers");
        assert_eq!(claimed.status, 201, "{}", claimed.text());
    }
    let mut chaos = GameRng::for_entry([17; 32], 0);
    for _ in 0..6 {
        // About one deadline per second falls due; kill at any point of that cycle.
        tokio::time::sleep(Duration::from_millis(600 + chaos.below(1_000))).await;
        server.kill();
        server = Server::start(&db);
    }
    // Time for a few more timeouts after the last restart.
    tokio::time::sleep(Duration::from_millis(3_000)).await;
    server.kill();

    let store = store::SqliteStore::open(&db).expect("reopen");
    use store::GameStore;
    let record = store.load(&id).await.expect("load").expect("exists");
    let log = store.log(&id, None, usize::MAX).await.expect("log");
    let seqs: Vec<u64> = log.iter().map(|entry| entry.seq).collect();
    assert_eq!(
        seqs,
        (0..record.log_len).collect::<Vec<_>>(),
        "gaps or duplicates"
    );
    assert_log_replays(&service::registry(), &record, &log);

    let by_clock = |entry: &store::LogEntry| entry.action["by"] == "clock";
    let runs = log
        .windows(2)
        .filter(|pair| by_clock(&pair[1]) && !by_clock(&pair[0]))
        .count();
    let timeouts = record.clock.as_ref().expect("a clock")["seats"][0]["timeouts"]
        .as_u64()
        .expect("a count");
    assert!(
        timeouts >= 3,
        "too few timeouts to mean anything: {timeouts}"
    );
    assert!(
        timeouts as usize <= runs,
        "{timeouts} timeouts counted for {runs} turns played by the clock: one was applied twice"
    );
    assert!(log
        .iter()
        .filter(|entry| by_clock(entry))
        .all(|entry| entry.seat == Some(0)));
    for suffix in ["", "-wal", "-shm"] {
        let mut path = db.clone().into_os_string();
        path.push(suffix);
        let _ = std::fs::remove_file(path);
    }
    eprintln!(
        "{timeouts} timeouts over {} log entries survived 6 SIGKILLs",
        log.len()
    );
}

/// `beurs bench --instructions` runs its servers under valgrind's cachegrind and reports
/// their instructions per committed move, leaving nothing behind; without valgrind it says
/// what is missing instead of reporting a figure. Its clients play the two-request pattern
/// (`include=legal_actions`), which must need at most two requests per move once a game is
/// set up (in Tulipmania every listed move is complete, so none is refused): a read with the
/// listing only before a move, and the move.
#[test]
fn bench_counts_server_instructions_under_cachegrind() {
    let dir = temp_db("bench-instructions").with_extension("d");
    std::fs::create_dir_all(&dir).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_beurs"))
        .args([
            "bench",
            "--instructions",
            "--pattern",
            "two",
            "--ruleset",
            "tulipmania-1637",
            "--clients",
            "2",
            "--seconds",
            "2",
            // A fixed amount of work: on a busy machine the counted server may commit no
            // move at all in a few seconds (tools/under-load showed 0 of 3 runs passing).
            "--min-moves",
            "20",
            "--dir",
        ])
        .arg(&dir)
        .output()
        .expect("run beurs bench");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let has_valgrind = Command::new("valgrind").arg("--version").output().is_ok();
    if !has_valgrind {
        assert!(!output.status.success(), "{stdout}");
        assert!(stderr.contains("valgrind"), "{stderr}");
        return;
    }
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let number_after = |prefix: &str| -> f64 {
        let line = stdout
            .lines()
            .find_map(|line| line.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} in:\n{stdout}"));
        line.split_whitespace().next().unwrap().parse().unwrap()
    };
    assert!(number_after("committed moves: ") >= 20.0, "{stdout}");
    let per_move = number_after("server instructions: ");
    // A move is at least a parse, an apply and a commit: far more than a thousand instructions.
    assert!(per_move > 1.0, "{stdout}");
    assert!(stdout.contains("k per committed move"), "{stdout}");
    let requests = number_after("requests per committed move: ");
    assert!((1.0..=2.0).contains(&requests), "{stdout}");
    assert!(stdout.contains("errors: none"), "{stdout}");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
    let _ = std::fs::remove_dir(&dir);
}

/// SIGTERM (README.md, "Run it, test it"): the server stops accepting, answers a waiting
/// long-poll at once with the game as it is (not after its 20 s wait), lets the requests in
/// flight finish, stops its workers and exits 0; every move it acknowledged, up to the last,
/// is in the log after it stopped, and the log replays.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sigterm_drains_requests_in_flight_and_exits_0() {
    let db = temp_db("sigterm");
    let mut server = Server::start(&db);
    let addr = server.addr;
    let (waiting_game, _) = start_game(addr, 3).await;
    let (played_game, tokens) = start_game(addr, 4).await;
    let played_game_id = played_game.clone();
    let version_of = |id: String| async move {
        get(addr, &format!("/v1/games/{id}"), None)
            .await
            .expect("the server answers")
            .json()["version"]
            .as_u64()
            .expect("a version")
    };
    let played_from = version_of(played_game_id.clone()).await;
    let version = version_of(waiting_game.clone()).await;
    let stream_path = format!("/v1/games/{waiting_game}/events");
    // Nobody moves in this game: only the stop can answer the long-poll before its wait.
    let poll = tokio::spawn(async move {
        let started = std::time::Instant::now();
        let path = format!("/v1/games/{waiting_game}?after_version={version}&wait=20");
        (get(addr, &path, None).await, started.elapsed())
    });
    // A client plays on through the signal; it stops when the server stops answering.
    let player = tokio::spawn(async move {
        let mut acked = Vec::new();
        drive(
            addr,
            &played_game,
            &tokens,
            7,
            Duration::from_secs(30),
            &mut acked,
        )
        .await;
        acked
    });
    // A stream of the same game: the stop ends it with a `retry` hint, so its client
    // reconnects (to another server, or to this one when it restarts).
    let mut stream = api_tests::sse::EventStream::open(addr, &stream_path, &[])
        .await
        .stream();
    let snapshot = stream.next().await.expect("the stream's snapshot");
    assert_eq!(snapshot.event, "game");
    // The signal comes once the player has had moves committed (so the drain has a move to
    // keep), and the long-poll, sent before them, has had time to reach the server: the
    // player's progress is the test's clock, not a fixed sleep.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let now = get(addr, &format!("/v1/games/{played_game_id}"), None)
            .await
            .expect("the server answers")
            .json();
        if now["version"].as_u64() >= Some(played_from + 2) || now["status"] != "active" {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the player made no move in a minute"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let signalled = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(signalled.success());
    let mut status = None;
    for _ in 0..600 {
        if let Some(exited) = server.child.try_wait().expect("try_wait") {
            status = Some(exited);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let status = status.expect("the server did not exit within 30 s of SIGTERM");
    assert_eq!(status.code(), Some(0), "{status}");

    let (reply, waited) = poll.await.expect("the long-poll task");
    let reply = reply.expect("the long-poll was answered, not cut");
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["version"], version, "the game as it was");
    assert!(
        waited < Duration::from_secs(20),
        "it waited its whole wait: {waited:?}"
    );
    let mut rest = Vec::new();
    while let Some(event) = stream.next().await {
        rest.push(event);
    }
    assert!(
        rest.iter().any(|event| event.retry.is_some()),
        "the stream ended without a retry hint: {rest:?}"
    );
    let acked = player.await.expect("the player task");
    assert!(!acked.is_empty(), "the player made no move before the stop");

    let store = store::SqliteStore::open(&db).expect("reopen");
    use store::GameStore;
    let game = &acked[0].game;
    let record = store.load(game).await.expect("load").expect("exists");
    let log = store.log(game, None, usize::MAX).await.expect("log");
    for move_ in &acked {
        let entry = log
            .iter()
            .find(|entry| entry.seq == move_.seq)
            .unwrap_or_else(|| panic!("acknowledged move {} is not in the log", move_.seq));
        assert_eq!(entry.seat, Some(move_.seat));
        assert_eq!(logged(&entry.action["action"]), move_.action);
    }
    assert_log_replays(&service::registry(), &record, &log);
}

/// Installs the command-line tools a documented session needs when the machine lacks them
/// (Debian's packages, as CI installs Chromium), or fails saying which are missing.
fn ensure_tools(tools: &[(&str, &str)]) {
    let has = |tool: &str| {
        Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    };
    let missing: Vec<&str> = tools
        .iter()
        .filter(|(tool, _)| !has(tool))
        .map(|(_, package)| *package)
        .collect();
    if missing.is_empty() {
        return;
    }
    let installed = Command::new("apt-get")
        .args(["install", "-y", "--no-install-recommends"])
        .args(&missing)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .is_ok_and(|status| status.success());
    assert!(
        installed && tools.iter().all(|(tool, _)| has(tool)),
        "this test needs {missing:?} (apt-get install {})",
        missing.join(" ")
    );
}

/// docs/apps.md's "A whole session", run word for word by bash against the built server: its
/// `cargo run --release --` is this build's `beurs` (a shell function stands in for cargo),
/// on a free port instead of 8080. Every answer it prints is what the document says.
#[test]
fn docs_apps_md_whole_session_runs() {
    ensure_tools(&[("curl", "curl"), ("jq", "jq"), ("openssl", "openssl")]);
    let doc_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/apps.md");
    let doc = std::fs::read_to_string(&doc_path).expect("read docs/apps.md");
    let session = doc
        .split("## A whole session")
        .nth(1)
        .and_then(|rest| rest.split("```sh\n").nth(1))
        .and_then(|rest| rest.split("```").next())
        .expect("docs/apps.md has a sh block under 'A whole session'");
    assert!(session.contains("cargo run --release -- ") && session.contains(":8080"));

    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    let db = temp_db("docs-session");
    let script = format!(
        "set -euo pipefail\n\
         trap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n\
         cargo() {{ shift 2; [ \"${{1:-}}\" = -- ] && shift; exec \"$BEURS_BIN\" \"$@\"; }}\n\
         {}\necho \"game $GAME\"\n",
        session.replace("127.0.0.1:8080", &format!("127.0.0.1:{port}"))
    );
    // In a process group of its own, printing to a file: whatever the script leaves running
    // is killed with the group, and nothing holds a pipe open after the script ends.
    let out_path = db.with_extension("out");
    let mut script_run = Command::new("bash")
        .args(["-c", &script])
        .env("BEURS_BIN", env!("CARGO_BIN_EXE_beurs"))
        .env("BEURS_ADDR", format!("127.0.0.1:{port}"))
        .env("BEURS_DB", &db)
        .env("RUST_LOG", "warn")
        .stdout(std::fs::File::create(&out_path).expect("the output file"))
        .process_group(0)
        .spawn()
        .expect("run bash");
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = script_run.try_wait().expect("wait for bash") {
            break Some(status);
        }
        if started.elapsed() > Duration::from_secs(120) {
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let _ = Command::new("kill")
        .args(["-KILL", &format!("-{}", script_run.id())])
        .stderr(Stdio::null())
        .status();
    let _ = script_run.wait();
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    assert!(
        status.is_some_and(|status| status.success()),
        "the session failed or took over 2 minutes ({status:?}):\n{stdout}"
    );

    let lines: Vec<&str> = stdout.lines().collect();
    let game = lines
        .iter()
        .find_map(|line| line.strip_prefix("game "))
        .expect("the session made a game");
    assert!(game.starts_with("g_"), "{stdout}");
    let json: Vec<Value> = lines
        .iter()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(Value::is_object)
        .collect();
    let codes: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|line| line.len() == 3 && line.bytes().all(|b| b.is_ascii_digit()))
        .collect();
    // Without a key: 401. Deleted: 204, then 404.
    assert_eq!(codes, ["401", "204", "404"], "{stdout}");
    // Ann's seat token, and the bot's seat.
    assert!(
        json.iter()
            .any(|answer| answer.to_string().contains("\"bt_seat_")),
        "{stdout}"
    );
    // The app's games list the invite-only game; the lobby does not.
    let listings: Vec<&Value> = json
        .iter()
        .filter(|answer| answer.get("games").is_some())
        .collect();
    assert_eq!(listings.len(), 2, "{stdout}");
    let ids = |listing: &Value| -> Vec<String> {
        listing["games"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|game| game["id"].as_str().map(str::to_owned))
            .collect()
    };
    assert_eq!(ids(listings[0]), [game.to_owned()], "{stdout}");
    assert!(ids(listings[1]).is_empty(), "{stdout}");
}
