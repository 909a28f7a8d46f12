//! Runs the store contract (`store::testing::contract`) against every store, and checks that
//! SqliteStore keeps what it acknowledged across a reopen and a SIGKILL.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use store::testing::{contract, polled_outbox_contract, sample_record};
use store::{
    Commit, GameRecord, GameStore, IdempotencyRecord, LogEntry, MemoryStore, SqliteStore, Status,
};

/// A database path no other test (or earlier run) uses; removed, with its WAL files, on drop.
struct TempDb(PathBuf);

impl TempDb {
    fn new(name: &str) -> TempDb {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let unique = format!(
            "beurs-store-{name}-{}-{}.sqlite",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let db = TempDb(std::env::temp_dir().join(unique));
        db.remove();
        db
    }

    fn remove(&self) {
        for suffix in ["", "-wal", "-shm"] {
            let mut path = self.0.clone().into_os_string();
            path.push(suffix);
            // Missing files are fine: there is nothing to clean up.
            let _ = std::fs::remove_file(path);
        }
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        self.remove();
    }
}

#[tokio::test]
async fn memory_store_meets_the_contract() {
    contract(&MemoryStore::new()).await;
    polled_outbox_contract(&MemoryStore::new()).await;
}

#[tokio::test]
async fn sqlite_store_in_memory_meets_the_contract() {
    contract(&SqliteStore::open_in_memory().unwrap()).await;
    polled_outbox_contract(&SqliteStore::open_in_memory().unwrap()).await;
}

// Multi-threaded, so that the racing commits really run on several threads at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_store_on_disk_meets_the_contract() {
    let db = TempDb::new("contract");
    contract(&SqliteStore::open(&db.0).unwrap()).await;
}

#[tokio::test]
async fn the_contract_can_run_twice_on_one_store() {
    // Each run uses its own ids, so a store shared by several suites (or a reused database)
    // does not make the suite fail.
    let store = MemoryStore::new();
    contract(&store).await;
    contract(&store).await;
}

/// A created game and a first commit to it, as a move acknowledged to a player.
fn acknowledged_move() -> (GameRecord, Commit) {
    let record = sample_record("g_durable");
    let mut started = record.clone();
    started.version = 1;
    started.status = Status::Active;
    started.state = Some(r#"{"turn":1}"#.to_owned());
    started.log_len = 1;
    let entry = LogEntry {
        seq: 0,
        seat: Some(0),
        action: serde_json::json!({ "type": "start" }),
        events: serde_json::json!([]),
        idempotency_key: Some("k-1".to_owned()),
        state_hash: "ab".repeat(32),
        at: 1_700_000_000_001,
    };
    let idempotency = IdempotencyRecord {
        seat: 0,
        key: "k-1".to_owned(),
        seq: 0,
        response: "{}".to_owned(),
    };
    let commit = Commit {
        record: started,
        expected_version: 0,
        entry: Some(entry),
        idempotency: Some(idempotency),
        outbox: Vec::new(),
    };
    (record, commit)
}

/// Asserts that `store` holds everything `commit` wrote.
async fn assert_kept(store: &SqliteStore, commit: &Commit) {
    let id = &commit.record.id;
    assert_eq!(store.load(id).await.unwrap().as_ref(), Some(&commit.record));
    assert_eq!(
        store.log(id, None, 10).await.unwrap(),
        vec![commit.entry.clone().unwrap()]
    );
    let idempotency = commit.idempotency.clone().unwrap();
    assert_eq!(
        store
            .idempotency(id, idempotency.seat, &idempotency.key)
            .await
            .unwrap(),
        Some(idempotency)
    );
}

#[tokio::test]
async fn sqlite_store_keeps_acknowledged_commits_across_a_reopen() {
    let db = TempDb::new("durable");
    let (record, commit) = acknowledged_move();
    {
        let store = SqliteStore::open(&db.0).unwrap();
        store.create(&record).await.unwrap();
        store.commit(&commit).await.unwrap();
    }

    let reopened = SqliteStore::open(&db.0).unwrap();

    assert_kept(&reopened, &commit).await;
}

/// Set (to a database path) in the child process that
/// `sqlite_store_keeps_acknowledged_commits_after_sigkill` starts and kills.
const CHILD_DB: &str = "BEURS_STORE_TEST_SIGKILL_DB";
/// What the child prints once its commit has returned `Ok`.
const ACKNOWLEDGED: &str = "<<commit acknowledged>>";

/// The process dies right after a commit returned, with no destructor, close or checkpoint:
/// the commit must be recovered from the WAL. (Power loss cannot be simulated here; that is
/// what `synchronous = FULL` is for, and a unit test checks it is set.)
#[tokio::test]
async fn sqlite_store_keeps_acknowledged_commits_after_sigkill() {
    if let Some(path) = std::env::var_os(CHILD_DB) {
        let store = SqliteStore::open(PathBuf::from(path)).unwrap();
        let (record, commit) = acknowledged_move();
        store.create(&record).await.unwrap();
        store.commit(&commit).await.unwrap();
        println!("{ACKNOWLEDGED}");
        std::io::stdout().flush().unwrap();
        // Keep the store open until the parent kills this process.
        loop {
            std::thread::sleep(Duration::from_secs(60));
        }
    }
    let db = TempDb::new("sigkill");
    // This very test again, in a child process that takes the branch above.
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            // Its name in this binary: module path, then the function.
            concat!(
                module_path!(),
                "::sqlite_store_keeps_acknowledged_commits_after_sigkill"
            )
            .split_once("::")
            .map_or("", |(_crate, test)| test),
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_DB, &db.0)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    // libtest may print "test <name> ... " on the same line, hence `contains`. If the child
    // fails before acknowledging, it exits and the lines simply end.
    let acknowledged = stdout
        .lines()
        .map_while(Result::ok)
        .any(|line| line.contains(ACKNOWLEDGED));
    // SIGKILL on Unix: the child cannot run any cleanup.
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(acknowledged, "the child never acknowledged its commit");

    let reopened = SqliteStore::open(&db.0).unwrap();

    assert_kept(&reopened, &acknowledged_move().1).await;
}
