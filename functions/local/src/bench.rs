//! `beurs bench`: concurrent random players over HTTP, and the raw store commit rate measured
//! in the same run on the same disk, so the API's overhead is a ratio rather than a guess.

use anyhow::{bail, Context};
use game_core::GameRng;
use reqwest::Method;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use store::{Commit, GameRecord, GameStore, LogEntry, SeatRecord, Status};

/// What to run ([`crate::cli::BenchArgs`] builds it from the flags).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Concurrent clients, each playing its own games.
    pub clients: usize,
    /// How long the clients play.
    pub duration: Duration,
    /// Rulesets to bench, one after the other (`all` = every registered one).
    pub rulesets: Vec<String>,
    /// A server to bench (its `http(s)://` base URL) instead of starting one.
    pub url: Option<String>,
    /// Where the started server (and the store-only run) keep their databases.
    pub dir: PathBuf,
    /// The `beurs` binary to start as the server (default: this one), so two builds can be
    /// compared in one run.
    pub server_bin: Option<PathBuf>,
    /// Count the server's instructions per committed move under valgrind's cachegrind
    /// instead of timing it: a fresh server per ruleset, counted from start to stop.
    pub instructions: bool,
    /// How the clients ask for what they need to move.
    pub pattern: Pattern,
    /// Pin the started server to the first CPU and the clients to the second
    /// (`sched_setaffinity`), so the server's capacity is one core's, measured.
    pub pin: bool,
    /// Leave out the store-only runs after each ruleset (20 s of 10 s runs).
    pub skip_store: bool,
    /// Play on past `duration` until this many moves are committed (at most five minutes
    /// more): a fixed amount of work however slow the machine is.
    pub min_moves: u64,
}

/// The requests a client makes per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Pattern {
    /// Read the game, then the acting seat's legal actions, then post the move: three
    /// requests per move, the plainest client.
    #[default]
    Three,
    /// Post the move with `?include=legal_actions`, and read the next seat's game with
    /// `?include=legal_actions` (the answer a long-poll of that seat would get): at most two
    /// requests per move, one when the same seat moves again (docs/api.md, "Fewer requests").
    Two,
}

/// Latencies per route, errors per status, moves and state sizes, shared by the clients.
#[derive(Default)]
struct Tally {
    latencies: BTreeMap<&'static str, Vec<Duration>>,
    errors: BTreeMap<(&'static str, u16), u64>,
    state_bytes: Vec<usize>,
}

/// The routes, as the report names them.
const CREATE: &str = "POST /v1/games";
const CLAIM: &str = "POST /v1/games/{id}/seats/{seat}";
const READ: &str = "GET /v1/games/{id}";
/// The two-request pattern's first read of a game (who acts first), part of its setup.
const FIRST_READ: &str = "GET /v1/games/{id} (first read of a game)";
const READ_WITH_LEGAL: &str = "GET /v1/games/{id}?include=legal_actions";
const LEGAL: &str = "GET /v1/games/{id}/legal-actions";
const MOVE: &str = "POST /v1/games/{id}/actions";
const MOVE_WITH_LEGAL: &str = "POST /v1/games/{id}/actions?include=legal_actions";

impl Tally {
    /// Requests made to play moves (not to set games up: create them, claim their seats,
    /// and, in the two-request pattern, read who acts first).
    fn requests_in_play(&self) -> usize {
        self.latencies
            .iter()
            .filter(|(route, _)| ![CREATE, CLAIM, FIRST_READ].contains(route))
            .map(|(_, latencies)| latencies.len())
            .sum()
    }
}

/// One player's HTTP client (reqwest keeps its connection alive between calls).
struct Client {
    http: reqwest::Client,
    base: Arc<str>,
}

impl Client {
    fn new(base: Arc<str>, local: bool) -> anyhow::Result<Client> {
        let mut builder = reqwest::Client::builder().user_agent("beurs-bench");
        if local {
            builder = builder.no_proxy();
        }
        Ok(Client {
            http: builder.build()?,
            base,
        })
    }

    /// One request; returns status, body and latency. The caller parses only the fields it
    /// reads: the clients share the machine with the server, and building a whole `Value` of
    /// every reply was a third of their CPU time (docs/benchmarks.md, sixth round).
    async fn call(
        &mut self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> anyhow::Result<(u16, Vec<u8>, Duration)> {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(body);
        }
        let request = request.build()?;
        let started = Instant::now();
        let response = self.http.execute(request).await?;
        let status = response.status().as_u16();
        let body = response.bytes().await?;
        let elapsed = started.elapsed();
        Ok((status, Vec::from(body), elapsed))
    }
}

/// The fields of the replies a client reads; the rest of each reply is skipped unparsed.
#[derive(Deserialize)]
struct Created {
    id: String,
}

#[derive(Deserialize)]
struct Claimed {
    player_token: String,
}

/// The fields a client reads of a game's envelope, of a move's answer, and of either with
/// `include=legal_actions`.
#[derive(Deserialize)]
struct Answer<'a> {
    #[serde(borrow)]
    status: &'a str,
    #[serde(default)]
    to_act: Vec<u64>,
    #[serde(borrow, default)]
    view: Option<&'a RawValue>,
    #[serde(borrow, default)]
    legal_actions: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Listing<'a> {
    #[serde(borrow)]
    actions: Vec<&'a RawValue>,
}

/// `body` parsed as `T`, or `None` if it is not one (an error reply, say).
fn parse<'a, T: Deserialize<'a>>(body: &'a [u8]) -> Option<T> {
    serde_json::from_slice(body).ok()
}

/// A player's client shared by the move loops: its connection, its random choices and the
/// tallies it adds to.
struct Player {
    client: Client,
    bot: GameRng,
    tally: Arc<Mutex<Tally>>,
    moves: Arc<AtomicU64>,
    deadline: Instant,
    /// Committed moves to reach before stopping, even after `deadline`.
    min_moves: u64,
}

/// How long past its deadline a run may go on to reach its minimum of moves.
const MIN_MOVES_GRACE: Duration = Duration::from_secs(300);

impl Player {
    /// Whether to start another move (or game): before the deadline, or after it while the
    /// run has committed fewer moves than its minimum (within [`MIN_MOVES_GRACE`]).
    fn playing(&self) -> bool {
        let now = Instant::now();
        now < self.deadline
            || (self.moves.load(Ordering::Relaxed) < self.min_moves
                && now < self.deadline + MIN_MOVES_GRACE)
    }

    /// One request, counted under `route`.
    async fn call(
        &mut self,
        route: &'static str,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> anyhow::Result<(u16, Vec<u8>)> {
        let (status, bytes, elapsed) = self.client.call(method, path, token, body).await?;
        let mut tally = self.tally.lock().expect("tally lock");
        tally.latencies.entry(route).or_default().push(elapsed);
        if !(200..300).contains(&status) {
            *tally.errors.entry((route, status)).or_default() += 1;
        }
        Ok((status, bytes))
    }

    /// A random action from a listing (`GET …/legal-actions`'s body or an included one);
    /// only the chosen entry becomes a `Value`.
    fn choose(&mut self, listing: &[u8]) -> Option<Value> {
        let listing = parse::<Listing>(listing)?;
        let entry = self.bot.choose(&listing.actions)?;
        let entry = serde_json::from_str::<Value>(entry.get()).ok()?;
        game_core::testing::random_action_json(std::slice::from_ref(&entry), &mut self.bot)
    }

    /// Counts a committed move; one in 16 records the view's size.
    fn committed(&mut self, view: Option<&RawValue>) {
        self.moves.fetch_add(1, Ordering::Relaxed);
        if self.bot.below(16) == 0 {
            if let Some(view) = view {
                // The server writes compact JSON: the raw text is the view's size.
                let bytes = view.get().len();
                self.tally
                    .lock()
                    .expect("tally lock")
                    .state_bytes
                    .push(bytes);
            }
        }
    }

    /// Three requests per move: the game, the acting seat's legal actions, the move.
    async fn play_three(&mut self, id: &str, tokens: &[String]) -> anyhow::Result<()> {
        while self.playing() {
            let (_, envelope) = self
                .call(READ, Method::GET, &format!("/v1/games/{id}"), None, None)
                .await?;
            let Some(envelope) = parse::<Answer>(&envelope) else {
                break;
            };
            if envelope.status != "active" {
                break;
            }
            let Some(&seat) = self.bot.choose(&envelope.to_act) else {
                break;
            };
            let token = tokens[seat as usize].as_str();
            let path = format!("/v1/games/{id}/legal-actions");
            let (_, legal) = self
                .call(LEGAL, Method::GET, &path, Some(token), None)
                .await?;
            let Some(action) = self.choose(&legal) else {
                continue;
            };
            let path = format!("/v1/games/{id}/actions");
            let body = json!({ "action": action });
            let (status, result) = self
                .call(MOVE, Method::POST, &path, Some(token), Some(&body))
                .await?;
            if status == 200 {
                let view = parse::<Answer>(&result).and_then(|applied| applied.view);
                self.committed(view);
            }
        }
        Ok(())
    }

    /// At most two requests per move: the move's answer carries the mover's legal actions,
    /// and another seat reads the game with its legal actions, as its long-poll's answer
    /// would carry them.
    async fn play_two(&mut self, id: &str, tokens: &[String]) -> anyhow::Result<()> {
        let (_, envelope) = self
            .call(
                FIRST_READ,
                Method::GET,
                &format!("/v1/games/{id}"),
                None,
                None,
            )
            .await?;
        let Some(mut to_act) = parse::<Answer>(&envelope).map(|envelope| envelope.to_act) else {
            return Ok(());
        };
        // The last mover and the listing its move's answer carried.
        let mut known: Option<(u64, Vec<u8>)> = None;
        while self.playing() {
            let Some(&seat) = self.bot.choose(&to_act) else {
                break;
            };
            let token = tokens[seat as usize].as_str();
            let listing = match known.take() {
                Some((mover, listing)) if mover == seat => listing,
                _ => {
                    let path = format!("/v1/games/{id}?include=legal_actions");
                    let (_, read) = self
                        .call(READ_WITH_LEGAL, Method::GET, &path, Some(token), None)
                        .await?;
                    let Some(read) = parse::<Answer>(&read) else {
                        break;
                    };
                    if read.status != "active" {
                        break;
                    }
                    to_act = read.to_act;
                    let Some(listing) = read.legal_actions else {
                        break;
                    };
                    listing.get().as_bytes().to_vec()
                }
            };
            let Some(action) = self.choose(&listing) else {
                continue;
            };
            let path = format!("/v1/games/{id}/actions?include=legal_actions");
            let body = json!({ "action": action });
            let (status, result) = self
                .call(
                    MOVE_WITH_LEGAL,
                    Method::POST,
                    &path,
                    Some(token),
                    Some(&body),
                )
                .await?;
            if status != 200 {
                // Refused: the next read says who acts now.
                continue;
            }
            let Some(applied) = parse::<Answer>(&result) else {
                continue;
            };
            let finished = applied.status != "active";
            to_act = applied.to_act;
            known = applied
                .legal_actions
                .map(|listing| (seat, listing.get().as_bytes().to_vec()));
            self.committed(applied.view);
            if finished {
                break;
            }
        }
        Ok(())
    }
}

/// One client: create games of `ruleset`, claim every seat, play randomly from the listed
/// legal actions until the deadline. Counts committed moves.
async fn play(
    mut player: Player,
    ruleset: String,
    seats: u8,
    pattern: Pattern,
) -> anyhow::Result<()> {
    while player.playing() {
        let body = json!({"ruleset": ruleset, "seats": seats});
        let (_, created) = player
            .call(CREATE, Method::POST, "/v1/games", None, Some(&body))
            .await?;
        let id = parse::<Created>(&created).context("create failed")?.id;
        let mut tokens = Vec::new();
        for seat in 0..seats {
            let path = format!("/v1/games/{id}/seats/{seat}");
            let body = json!({"name": format!("bench {seat}")});
            let (_, claimed) = player
                .call(CLAIM, Method::POST, &path, None, Some(&body))
                .await?;
            tokens.push(
                parse::<Claimed>(&claimed)
                    .context("claim failed")?
                    .player_token,
            );
        }
        match pattern {
            Pattern::Three => player.play_three(&id, &tokens).await?,
            Pattern::Two => player.play_two(&id, &tokens).await?,
        }
    }
    Ok(())
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() as f64 - 1.0) * fraction).round() as usize;
    sorted[index]
}

/// What the store alone managed.
struct StoreRate {
    /// Commits per second.
    per_second: f64,
    /// What its writer did: commits per fsync is `writes / groups`.
    counts: store::WriterCounts,
}

/// The store alone: `clients` tasks each committing moves to their own game, with a state and
/// log entry of `payload_bytes`, for `duration`, on a fresh database in `dir`.
async fn store_commit_rate(
    dir: &std::path::Path,
    clients: usize,
    payload_bytes: usize,
    duration: Duration,
    config: store::SqliteConfig,
) -> anyhow::Result<StoreRate> {
    let path = dir.join(format!("beurs-bench-store-{}.sqlite", std::process::id()));
    let sqlite = store::SqliteStore::open_with(&path, config)?;
    let store: Arc<dyn GameStore> = Arc::new(sqlite.clone());
    let state = format!("\"{}\"", "x".repeat(payload_bytes));
    let deadline = Instant::now() + duration;
    let commits = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for client in 0..clients {
        let (store, state, commits) = (store.clone(), state.clone(), commits.clone());
        tasks.push(tokio::spawn(async move {
            let mut record = GameRecord::open(store::NewGame {
                id: format!("g_bench{client:017}"),
                ruleset: "bench".into(),
                rules_version: 1,
                options: json!({}),
                invite_only: true,
                seats: vec![SeatRecord::default(); 4],
                admin_token_hash: "00".repeat(32),
                server_secret: "00".repeat(32),
                seed_commitment: "00".repeat(32),
                now: 0,
            });
            record.status = Status::Active;
            record.state = Some(state.clone());
            store.create(&record).await?;
            while Instant::now() < deadline {
                let mut next = record.clone();
                next.version += 1;
                next.log_len += 1;
                let entry = LogEntry {
                    seq: record.log_len,
                    seat: Some(0),
                    action: json!({"action": {"type": "bench"}, "visibility": "public"}),
                    events: json!([{"visibility": "public", "event": {"type": "bench", "filler": "y".repeat(200)}}]),
                    idempotency_key: None,
                    state_hash: "ab".repeat(32),
                    at: 0,
                };
                store.commit(&Commit { record: next.clone(), expected_version: record.version, entry: Some(entry), idempotency: None, outbox: Vec::new() }).await?;
                commits.fetch_add(1, Ordering::Relaxed);
                record = next;
            }
            anyhow::Ok(())
        }));
    }
    let started = Instant::now();
    for task in tasks {
        task.await??;
    }
    let per_second = commits.load(Ordering::Relaxed) as f64
        / started.elapsed().as_secs_f64().max(duration.as_secs_f64());
    let counts = sqlite.writer_counts();
    drop((store, sqlite));
    for file in sqlite_files(&path) {
        let _ = std::fs::remove_file(file);
    }
    Ok(StoreRate { per_second, counts })
}

/// A SQLite database's files: the database, its WAL and its shared-memory index.
fn sqlite_files(db: &std::path::Path) -> Vec<PathBuf> {
    ["", "-wal", "-shm"]
        .iter()
        .map(|suffix| {
            let mut file = db.as_os_str().to_owned();
            file.push(suffix);
            PathBuf::from(file)
        })
        .collect()
}

/// A `beurs serve` child process on a fresh database in `dir`, so that its CPU time is its own.
struct Server {
    child: std::process::Child,
    base: Arc<str>,
    files: Vec<PathBuf>,
    /// Where cachegrind writes its counts when the server runs under it.
    counts: Option<PathBuf>,
}

impl Server {
    /// Starts `bin serve`; under `valgrind --tool=cachegrind` when `counted`.
    fn start(
        bin: &std::path::Path,
        dir: &std::path::Path,
        counted: bool,
    ) -> anyhow::Result<Server> {
        let stem = dir.join(format!("beurs-bench-api-{}", std::process::id()));
        let db = stem.with_extension("sqlite");
        let log = stem.with_extension("log");
        let counts = counted.then(|| stem.with_extension("cachegrind"));
        let mut command = match &counts {
            Some(counts) => {
                let mut command = std::process::Command::new("valgrind");
                command
                    .args(["--tool=cachegrind", "--cache-sim=no"])
                    .arg(format!("--cachegrind-out-file={}", counts.display()))
                    .arg(bin);
                command
            }
            None => std::process::Command::new(bin),
        };
        command
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--requests-per-second",
                "0",
                "--keyless-creations-per-hour",
                "0",
                "--keyless-live-games",
                "0",
                "--db",
            ])
            .arg(&db)
            .stdin(std::process::Stdio::null())
            .stdout(std::fs::File::create(&log)?)
            .stderr(std::fs::File::create(stem.with_extension("err"))?);
        let child = match command.spawn() {
            Err(error) if counted && error.kind() == std::io::ErrorKind::NotFound => {
                bail!("--instructions runs the server under valgrind, which is not installed (apt-get install valgrind)")
            }
            spawned => spawned.with_context(|| format!("starting {} serve", bin.display()))?,
        };
        let mut files = vec![log.clone(), stem.with_extension("err")];
        files.extend(sqlite_files(&db));
        files.extend(counts.clone());
        let mut server = Server {
            child,
            base: "".into(),
            files,
            counts,
        };
        // Valgrind translates the binary first: give it longer to start.
        let patience = Duration::from_secs(if counted { 120 } else { 10 });
        let started = Instant::now();
        loop {
            let out = std::fs::read_to_string(&log).unwrap_or_default();
            if let Some(at) = out.find("listening on ") {
                let rest = &out[at + "listening on ".len()..];
                server.base = rest.split_whitespace().next().unwrap_or_default().into();
                return Ok(server);
            }
            if let Some(status) = server.child.try_wait()? {
                bail!("the server exited ({status}) before listening");
            }
            if started.elapsed() > patience {
                bail!("the server did not listen within {} s", patience.as_secs());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The server's CPU time so far (user + system, every thread, from /proc).
    fn cpu(&self) -> Option<Duration> {
        cpu_time(self.child.id())
    }

    /// Stops a server started under cachegrind with SIGTERM (valgrind then writes its counts)
    /// and returns the instructions it executed, start to stop.
    fn instructions(mut self) -> anyhow::Result<u64> {
        let counts = self.counts.clone().context("the server is not counted")?;
        // SIGTERM rather than `Child::kill`'s SIGKILL, which valgrind cannot catch.
        let status = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .context("running kill -TERM")?;
        if !status.success() {
            bail!("kill -TERM {} failed ({status})", self.child.id());
        }
        self.child.wait()?;
        let text = std::fs::read_to_string(&counts)
            .with_context(|| format!("reading cachegrind's counts {}", counts.display()))?;
        cachegrind_total(&text).with_context(|| format!("no summary line in {}", counts.display()))
    }
}

/// The instruction count (`Ir`) in a cachegrind output file's `summary:` line (with
/// `--cache-sim=no` the line holds only that count).
fn cachegrind_total(text: &str) -> Option<u64> {
    let summary = text
        .lines()
        .find_map(|line| line.strip_prefix("summary:"))?;
    summary.split_whitespace().next()?.parse().ok()
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        for file in &self.files {
            let _ = std::fs::remove_file(file);
        }
    }
}

/// A process's CPU time, user plus system, of all its threads (Linux `/proc/PID/stat`, in
/// clock ticks of 1/100 s); `None` elsewhere.
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    let fields: Vec<&str> = stat
        .get(stat.rfind(')')? + 1..)?
        .split_whitespace()
        .collect();
    // Fields 14 (utime) and 15 (stime) of proc(5); `fields[0]` is field 3.
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // USER_HZ is 100 on every Linux the kernel ABI supports.
    Some(Duration::from_millis(ticks * 10))
}

/// Confines every thread of process `pid` to CPU `cpu` (`sched_setaffinity`; a thread it
/// starts later inherits its starter's CPUs).
fn pin_process(pid: u32, cpu: usize) -> anyhow::Result<()> {
    let mut set = nix::sched::CpuSet::new();
    set.set(cpu).context("CPU number")?;
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task"))
        .with_context(|| format!("listing the threads of process {pid}"))?;
    for task in tasks {
        let tid: i32 = task?
            .file_name()
            .to_string_lossy()
            .parse()
            .context("a thread id")?;
        match nix::sched::sched_setaffinity(nix::unistd::Pid::from_raw(tid), &set) {
            // The thread ended meanwhile.
            Err(nix::errno::Errno::ESRCH) => {}
            done => done.with_context(|| format!("pinning thread {tid} to CPU {cpu}"))?,
        }
    }
    Ok(())
}

/// Runs the bench for every configured ruleset and prints the report.
pub async fn run(config: Config) -> anyhow::Result<()> {
    let registry = service::registry();
    // The binary a started server runs: `--server-bin`, or this one.
    let bin = match &config.server_bin {
        Some(bin) => bin.clone(),
        None => std::env::current_exe().context("finding this beurs binary")?,
    };
    let (base, server): (Arc<str>, Option<Server>) = match &config.url {
        Some(url) => {
            let parsed = reqwest::Url::parse(url).context("--url")?;
            if !matches!(parsed.scheme(), "http" | "https") {
                bail!("--url must be an http:// or https:// URL");
            }
            (url.trim_end_matches('/').into(), None)
        }
        None if config.instructions => ("".into(), None),
        None => {
            let server = Server::start(&bin, &config.dir, false)?;
            (server.base.clone(), Some(server))
        }
    };
    let local = config.url.is_none();
    if config.pin {
        let Some(server) = &server else {
            bail!("--pin places a server this bench starts: not with --url or --instructions");
        };
        let cpus = std::thread::available_parallelism().map_or(1, usize::from);
        if cpus < 2 {
            bail!("--pin needs two CPUs, one for the server and one for the clients; this process may use {cpus}");
        }
        // Every thread the two processes have now; threads they start later inherit it.
        pin_process(server.child.id(), 0)?;
        pin_process(std::process::id(), 1)?;
    }
    // Counting: what a server costs to start and stop with no requests, taken off each
    // ruleset's count so that the figure per move is the requests' own.
    let idle_instructions = if config.instructions {
        Server::start(&bin, &config.dir, true)?.instructions()?
    } else {
        0
    };
    println!(
        "beurs bench: {} clients, {} requests per move{}, {} s per ruleset, server {}{}",
        config.clients,
        match config.pattern {
            Pattern::Three => "three",
            Pattern::Two => "at most two",
        },
        if config.pin {
            ", server pinned to CPU 0 and clients to CPU 1"
        } else {
            ""
        },
        config.duration.as_secs(),
        if config.instructions {
            "under cachegrind, one per ruleset"
        } else {
            &base
        },
        match &config.server_bin {
            Some(bin) => format!(" ({})", bin.display()),
            None => String::new(),
        }
    );
    for ruleset_id in &config.rulesets {
        let ruleset = registry
            .get(ruleset_id)
            .with_context(|| format!("unknown ruleset {ruleset_id}"))?;
        let (min_seats, max_seats) = ruleset.seat_range();
        let seats = 4
            .clamp(min_seats, max_seats)
            .max(if ruleset_id == "tulip-traders" {
                3
            } else {
                min_seats
            });
        let counted = if config.instructions {
            Some(Server::start(&bin, &config.dir, true)?)
        } else {
            None
        };
        let base = counted
            .as_ref()
            .map_or(base.clone(), |server| server.base.clone());
        let tally = Arc::new(Mutex::new(Tally::default()));
        let moves = Arc::new(AtomicU64::new(0));
        let cpu_before = server.as_ref().and_then(Server::cpu);
        let started = Instant::now();
        let deadline = started + config.duration;
        let clients: Vec<_> = (0..config.clients)
            .map(|_| Client::new(base.clone(), local))
            .collect::<anyhow::Result<Vec<_>>>()?
            .into_iter()
            .enumerate()
            .map(|(index, client)| {
                let index = index as u64 + 1;
                let player = Player {
                    client,
                    bot: GameRng::for_entry([index as u8; 32], index),
                    tally: tally.clone(),
                    moves: moves.clone(),
                    deadline,
                    min_moves: config.min_moves,
                };
                tokio::spawn(play(player, ruleset_id.clone(), seats, config.pattern))
            })
            .collect();
        // Progress, once a second, on stderr.
        let progress = {
            let moves = moves.clone();
            let ruleset_id = ruleset_id.clone();
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    let elapsed = started.elapsed().as_secs_f64();
                    eprint!(
                        "\r  {ruleset_id:<16} {:>5.1} s  {:>8} moves  {:>8.1} moves/s",
                        elapsed,
                        moves.load(Ordering::Relaxed),
                        moves.load(Ordering::Relaxed) as f64 / elapsed
                    );
                }
            })
        };
        let progress_abort = progress.abort_handle();
        for client in clients {
            client.await??;
        }
        progress_abort.abort();
        eprintln!();
        let cpu_after = server.as_ref().and_then(Server::cpu);
        let elapsed = started.elapsed().as_secs_f64();
        let moves = moves.load(Ordering::Relaxed);
        let moves_per_second = moves as f64 / elapsed;
        let mut tally = Arc::try_unwrap(tally)
            .ok()
            .context("clients done")?
            .into_inner()
            .expect("tally lock");
        if let Some(counted) = counted {
            let total = counted.instructions()?;
            println!(
                "\n## {ruleset_id} ({seats} seats, {} clients, {elapsed:.1} s under cachegrind)",
                config.clients
            );
            println!("committed moves: {moves}");
            if moves > 0 {
                println!(
                    "requests per committed move: {:.2} (setting games up left out)",
                    tally.requests_in_play() as f64 / moves as f64
                );
                println!(
                    "server instructions: {:.0} k per committed move ({:.1} M in all, less {:.1} M to start and stop)",
                    total.saturating_sub(idle_instructions) as f64 / 1e3 / moves as f64,
                    total as f64 / 1e6,
                    idle_instructions as f64 / 1e6
                );
            }
            print_errors(&tally);
            continue;
        }
        let payload = if tally.state_bytes.is_empty() {
            2048
        } else {
            tally.state_bytes.iter().sum::<usize>() / tally.state_bytes.len()
        };
        let window = config.duration.min(Duration::from_secs(10));
        let store_rates = if config.skip_store {
            None
        } else {
            let grouped = store_commit_rate(
                &config.dir,
                config.clients,
                payload,
                window,
                store::SqliteConfig::default(),
            )
            .await?;
            let single = store_commit_rate(
                &config.dir,
                config.clients,
                payload,
                window,
                store::SqliteConfig {
                    group_commit: false,
                },
            )
            .await?;
            Some((grouped, single))
        };
        println!(
            "\n## {ruleset_id} ({seats} seats, {} clients, {:.1} s)",
            config.clients, elapsed
        );
        println!("committed moves: {moves}  ({moves_per_second:.1} moves/s)");
        if moves > 0 {
            println!(
                "requests per committed move: {:.2} (setting games up left out)",
                tally.requests_in_play() as f64 / moves as f64
            );
        }
        match (cpu_before, cpu_after) {
            (Some(before), Some(after)) if moves > 0 && after > before => {
                let cpu = after.saturating_sub(before);
                let cores = cpu.as_secs_f64() / elapsed;
                println!(
                    "server CPU: {:.2} s in {elapsed:.1} s ({:.0} % of one core), {:.0} µs per committed move, {:.0} moves/s per server core",
                    cpu.as_secs_f64(),
                    100.0 * cores,
                    cpu.as_secs_f64() * 1e6 / moves as f64,
                    moves_per_second / cores
                );
            }
            _ => {
                println!("server CPU: not measured (only for a server this bench starts, on Linux)")
            }
        }
        if let Some((grouped, single)) = &store_rates {
            println!(
                "store alone, same disk, {} concurrent writers, {payload}-byte state:",
                config.clients
            );
            for (label, rate) in [("group commit", grouped), ("one fsync per commit", single)] {
                println!(
                    "  {label}: {:.1} commits/s ({:.1} commits per fsync)",
                    rate.per_second,
                    rate.counts.writes as f64 / rate.counts.groups.max(1) as f64
                );
            }
            println!(
                "API moves/s ÷ store commits/s: {:.2} (group commit), {:.2} (one fsync per commit)",
                moves_per_second / grouped.per_second,
                moves_per_second / single.per_second
            );
        }
        println!("| route | requests | p50 | p95 | p99 | max |\n|---|---|---|---|---|---|");
        for (route, latencies) in tally.latencies.iter_mut() {
            latencies.sort_unstable();
            let ms = |duration: Duration| format!("{:.2} ms", duration.as_secs_f64() * 1000.0);
            println!(
                "| {route} | {} | {} | {} | {} | {} |",
                latencies.len(),
                ms(percentile(latencies, 0.50)),
                ms(percentile(latencies, 0.95)),
                ms(percentile(latencies, 0.99)),
                ms(*latencies.last().unwrap_or(&Duration::ZERO))
            );
        }
        print_errors(&tally);
    }
    drop(server);
    Ok(())
}

fn print_errors(tally: &Tally) {
    if tally.errors.is_empty() {
        println!("errors: none");
    } else {
        for ((route, status), count) in &tally.errors {
            println!("errors: {route} {status}: {count}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_instruction_count_is_read_from_the_summary_line() {
        let file = "desc: --cache-sim=no\ncmd: beurs serve\nevents: Ir\nfl=a.rs\nfn=main\n1 5\nsummary: 2250767377\n";
        assert_eq!(cachegrind_total(file), Some(2_250_767_377));
        assert_eq!(cachegrind_total("events: Ir\nfn=main\n1 5\n"), None);
        assert_eq!(cachegrind_total("summary: lots\n"), None);
    }
}
