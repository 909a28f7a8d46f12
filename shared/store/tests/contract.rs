//! Runs the store contract (`store::testing::contract`) against every store, and checks that
//! SqliteStore keeps what it acknowledged across a reopen.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use store::testing::{contract, sample_record};
use store::{Commit, GameStore, IdempotencyRecord, LogEntry, MemoryStore, SqliteStore, Status};

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
}

#[tokio::test]
async fn sqlite_store_in_memory_meets_the_contract() {
    contract(&SqliteStore::open_in_memory().unwrap()).await;
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

#[tokio::test]
async fn sqlite_store_keeps_acknowledged_commits_across_a_reopen() {
    let db = TempDb::new("durable");
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
    let idem = IdempotencyRecord {
        seat: 0,
        key: "k-1".to_owned(),
        seq: 0,
        response: "{}".to_owned(),
    };
    {
        let store = SqliteStore::open(&db.0).unwrap();
        store.create(&record).await.unwrap();
        let commit = Commit {
            record: started.clone(),
            expected_version: 0,
            entry: Some(entry.clone()),
            idempotency: Some(idem.clone()),
        };
        store.commit(&commit).await.unwrap();
        // Dropped here without any explicit flush or checkpoint: an acknowledged commit must
        // already be on disk.
    }

    let reopened = SqliteStore::open(&db.0).unwrap();

    assert_eq!(reopened.load("g_durable").await.unwrap(), Some(started));
    assert_eq!(
        reopened.log("g_durable", None, 10).await.unwrap(),
        vec![entry]
    );
    assert_eq!(
        reopened.idempotency("g_durable", 0, "k-1").await.unwrap(),
        Some(idem)
    );
}
