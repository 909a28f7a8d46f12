//! The contract suite every [`GameStore`] must pass, plus fixtures for tests elsewhere.
//!
//! `tests/contract.rs` runs [`contract`] on each store. The suite only creates games with ids
//! (and rulesets, for the lobby checks) unique to one run, so it can run against a store that
//! holds other data, or twice against the same store.
//!
//! Compiled always (not only under `cfg(test)`) so that other crates' tests can use
//! [`sample_record`] and a future store's tests can run [`contract`].

use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::Poll;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::json;

use crate::{
    Attempt, Commit, DeliveryStatus, GameRecord, GameStore, HookRecord, IdempotencyRecord,
    ListPage, ListQuery, LogEntry, OutboxMessage, Owner, SeatRecord, Status, StoreError,
};

/// A plausible open game with id `id`: version 0, no log yet, three seats of which the first is
/// claimed, non-trivial options. Tests change the fields they care about.
pub fn sample_record(id: &str) -> GameRecord {
    let mut record = GameRecord::open(crate::NewGame {
        id: id.to_owned(),
        ruleset: "tulipmania".to_owned(),
        rules_version: 1,
        options: json!({
            "players": 3,
            "variant": "standard",
            "market": { "start": 2.5, "lots": [1, 2, 3] },
        }),
        invite_only: false,
        seats: vec![
            SeatRecord {
                name: Some("Anna ✿".to_owned()),
                token_hash: Some("a1".repeat(32)),
                entropy: Some("e1".repeat(16)),
                ..SeatRecord::default()
            },
            SeatRecord {
                name: Some("Bot".to_owned()),
                bot: Some("random".to_owned()),
                resigned: true,
                ..SeatRecord::default()
            },
            SeatRecord::default(),
        ],
        admin_token_hash: "ad".repeat(32),
        server_secret: "5e".repeat(32),
        seed_commitment: "c0".repeat(32),
        now: 1_700_000_000_000,
    });
    record.version = 0;
    record.seed_scheme = crate::SeedScheme::V2;
    record.takebacks = vec![crate::Takeback {
        seq: 3,
        seat: 0,
        state: r#"{"before":"the move ✿"}"#.to_owned(),
    }];
    record.undone = 2;
    record.notes = 1;
    record.rematch = Some("g_rematch".to_owned());
    record
}

/// Runs every check of the store contract (DESIGN.md §4) against `store`, panicking with a
/// description of the first broken rule.
pub async fn contract(store: &dyn GameStore) {
    let run = RunIds::new();
    create_then_load_round_trips(store, &run).await;
    create_of_an_existing_id_is_refused(store, &run).await;
    load_of_an_unknown_id_is_none(store, &run).await;
    commit_writes_record_entry_and_idempotency(store, &run).await;
    stale_commit_conflicts_and_changes_nothing(store, &run).await;
    commit_to_an_unknown_game_is_not_found(store, &run).await;
    commit_that_skips_a_version_is_refused(store, &run).await;
    duplicate_seq_conflicts_and_changes_nothing(store, &run).await;
    idempotency_keys_are_per_game_and_seat(store, &run).await;
    reused_idempotency_key_conflicts_and_changes_nothing(store, &run).await;
    log_pages_ascending_after_a_seq(store, &run).await;
    lobby_lists_open_public_games_by_ruleset(store, &run).await;
    lobby_pages_without_duplicates_or_gaps(store, &run).await;
    lobby_drops_games_that_start(store, &run).await;
    bad_cursor_is_refused(store).await;
    racing_commits_have_exactly_one_winner(store, &run).await;
    commit_keeps_hooks_and_queues_notifications(store, &run).await;
    stale_commit_queues_no_notification(store, &run).await;
    delivery_updates_round_trip(store, &run).await;
    due_games_come_in_due_order_until_they_are_not_due(store, &run).await;
    delete_removes_the_game_and_everything_under_it(store, &run).await;
    apps_are_created_loaded_saved_and_listed(store, &run).await;
    an_apps_unfinished_games_are_listed_and_counted(store, &run).await;
    an_origins_unfinished_games_are_counted(store, &run).await;
    an_origins_creations_are_counted_per_hour_up_to_the_limit(store, &run).await;
    players_are_saved_under_their_version(store, &run).await;
    a_players_games_are_listed_newest_first(store, &run).await;
}

/// The part of the contract for stores drained by a local worker (SqliteStore, MemoryStore):
/// due notifications come back in due order and leave once they are no longer pending, and
/// finished games come back oldest first for the retention sweep.
pub async fn polled_outbox_contract(store: &dyn GameStore) {
    let run = RunIds::new();
    finished_games_come_oldest_first(store, &run).await;
    let record = sample_record(&run.game("due"));
    create(store, &record).await;
    let mut change = next(&record);
    change.log_len = record.log_len;
    let later = message(&record.id, "wh_a", "msg_later", 5_000);
    let sooner = message(&record.id, "wh_a", "msg_sooner", 1_000);
    let mut done = message(&record.id, "wh_a", "msg_done", 0);
    done.status = DeliveryStatus::Delivered;
    done.next_attempt_at = None;
    commit(
        store,
        &with_outbox(change, &record, vec![later, sooner, done]),
    )
    .await;

    let ids = |messages: Vec<OutboxMessage>| -> Vec<String> {
        messages
            .into_iter()
            .filter(|m| m.game_id == record.id)
            .map(|m| m.id)
            .collect()
    };
    assert_eq!(
        ids(store.due_messages(999, 100).await.unwrap()),
        Vec::<String>::new(),
        "nothing is due before its time"
    );
    assert_eq!(
        ids(store.due_messages(1_000, 100).await.unwrap()),
        ["msg_sooner"]
    );
    assert_eq!(
        ids(store.due_messages(10_000, 100).await.unwrap()),
        ["msg_sooner", "msg_later"],
        "most overdue first; a delivered message is never due"
    );

    let mut delivered = store
        .messages(&record.id, "wh_a", None, 10)
        .await
        .unwrap()
        .messages;
    delivered.retain(|m| m.id == "msg_sooner");
    let mut delivered = delivered.pop().expect("msg_sooner is listed");
    delivered.status = DeliveryStatus::Delivered;
    delivered.next_attempt_at = None;
    store.update_message(&delivered).await.unwrap();
    assert_eq!(
        ids(store.due_messages(10_000, 100).await.unwrap()),
        ["msg_later"]
    );
}

/// A pending notification of `hook` due at `due`.
fn message(game_id: &str, hook: &str, id: &str, due: u64) -> OutboxMessage {
    OutboxMessage {
        id: id.to_owned(),
        game_id: game_id.to_owned(),
        hook_id: hook.to_owned(),
        event: "turn".to_owned(),
        body: format!(r#"{{"type":"turn","id":"{id}"}}"#),
        created_at: 1_700_000_000_000 + due,
        status: DeliveryStatus::Pending,
        attempts: Vec::new(),
        next_attempt_at: Some(due),
    }
}

/// A commit of `record` (the next version of `from`) with notifications and no log entry.
fn with_outbox(record: GameRecord, from: &GameRecord, outbox: Vec<OutboxMessage>) -> Commit {
    Commit {
        record,
        expected_version: from.version,
        entry: None,
        idempotency: None,
        outbox,
    }
}

fn hook(id: &str, seat: Option<u8>) -> HookRecord {
    HookRecord {
        id: id.to_owned(),
        seat,
        url: format!("https://hooks.example/{id}"),
        events: vec!["turn".to_owned(), "finished".to_owned()],
        secret: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=".to_owned(),
        created_at: 1_700_000_000_000,
        disabled: None,
        format: crate::HookFormat::Standard,
        link: None,
    }
}

async fn commit_keeps_hooks_and_queues_notifications(store: &dyn GameStore, run: &RunIds) {
    let record = sample_record(&run.game("outbox"));
    create(store, &record).await;
    let mut subscribed = next(&record);
    subscribed.log_len = record.log_len;
    subscribed.hooks = vec![hook("wh_seat", Some(1)), hook("wh_admin", None)];
    commit(store, &with_outbox(subscribed.clone(), &record, Vec::new())).await;
    assert_eq!(
        store.load(&record.id).await.unwrap().map(|r| r.hooks),
        Some(subscribed.hooks.clone()),
        "subscriptions are part of the record"
    );

    let mut moved = next(&subscribed);
    moved.log_len = subscribed.log_len;
    let first = message(&record.id, "wh_seat", "msg_1", 10);
    let second = message(&record.id, "wh_seat", "msg_2", 20);
    let admin = message(&record.id, "wh_admin", "msg_3", 10);
    commit(
        store,
        &with_outbox(
            moved,
            &subscribed,
            vec![first.clone(), second.clone(), admin.clone()],
        ),
    )
    .await;
    assert_eq!(
        store
            .messages(&record.id, "wh_seat", None, 10)
            .await
            .unwrap()
            .messages,
        vec![second.clone(), first.clone()],
        "one subscription's notifications, newest first"
    );
    let page = store
        .messages(&record.id, "wh_seat", None, 1)
        .await
        .unwrap();
    assert_eq!(page.messages, vec![second], "at most `limit`");
    let cursor = page.next_cursor.expect("a full page has a next page");
    let rest = store
        .messages(&record.id, "wh_seat", Some(&cursor), 1)
        .await
        .unwrap();
    assert_eq!(
        (rest.messages, rest.next_cursor),
        (vec![first.clone()], None),
        "the next page starts after the cursor; the last page has no cursor"
    );
    assert!(matches!(
        store
            .messages(&record.id, "wh_seat", Some("not-a-cursor"), 1)
            .await,
        Err(StoreError::BadCursor)
    ));
    assert_eq!(
        store
            .messages(&record.id, "wh_admin", None, 10)
            .await
            .unwrap()
            .messages,
        vec![admin]
    );
    assert!(store
        .messages(&record.id, "wh_none", None, 10)
        .await
        .unwrap()
        .messages
        .is_empty());
}

async fn stale_commit_queues_no_notification(store: &dyn GameStore, run: &RunIds) {
    let record = sample_record(&run.game("outbox-stale"));
    create(store, &record).await;
    let mut winner = next(&record);
    winner.log_len = record.log_len;
    commit(store, &with_outbox(winner, &record, Vec::new())).await;

    let mut loser = next(&record);
    loser.log_len = record.log_len;
    let result = store
        .commit(&with_outbox(
            loser,
            &record,
            vec![message(&record.id, "wh_x", "msg_lost", 0)],
        ))
        .await;
    assert_conflict(result, &record.id, record.version, "a stale commit");
    assert!(
        store
            .messages(&record.id, "wh_x", None, 10)
            .await
            .unwrap()
            .messages
            .is_empty(),
        "a commit that lost its race queues nothing"
    );
}

async fn delivery_updates_round_trip(store: &dyn GameStore, run: &RunIds) {
    let record = sample_record(&run.game("outbox-update"));
    create(store, &record).await;
    let mut change = next(&record);
    change.log_len = record.log_len;
    let queued = message(&record.id, "wh_u", "msg_u", 0);
    commit(store, &with_outbox(change, &record, vec![queued.clone()])).await;

    let mut retried = queued.clone();
    retried.attempts.push(Attempt {
        attempt: 1,
        at: 1_700_000_000_500,
        status_code: Some(503),
        error: None,
    });
    retried.next_attempt_at = Some(1_700_000_005_500);
    store.update_message(&retried).await.unwrap();
    assert_eq!(
        store
            .messages(&record.id, "wh_u", None, 10)
            .await
            .unwrap()
            .messages,
        vec![retried.clone()]
    );

    let mut failed = retried;
    failed.attempts.push(Attempt {
        attempt: 2,
        at: 1_700_000_006_000,
        status_code: None,
        error: Some("connection refused".to_owned()),
    });
    failed.status = DeliveryStatus::Failed;
    failed.next_attempt_at = None;
    store.update_message(&failed).await.unwrap();
    assert_eq!(
        store
            .messages(&record.id, "wh_u", None, 10)
            .await
            .unwrap()
            .messages,
        vec![failed]
    );

    let mut unknown = queued;
    unknown.id = "msg_never_queued".to_owned();
    assert!(matches!(
        store.update_message(&unknown).await,
        Err(StoreError::NotFound(_))
    ));
}

/// `due_games` lists the games due by `now`, most overdue first, and a game leaves it once a
/// commit clears (or postpones) its `due_at`; the clock's JSON round-trips.
async fn due_games_come_in_due_order_until_they_are_not_due(store: &dyn GameStore, run: &RunIds) {
    let ids: Vec<String> = ["due-a", "due-b", "due-c", "due-d"]
        .iter()
        .map(|name| run.game(name))
        .collect();
    let due_at = [Some(5_000), Some(3_000), None, Some(9_000)];
    for (id, due_at) in ids.iter().zip(due_at) {
        let mut record = sample_record(id);
        record.due_at = due_at;
        record.clock = Some(json!({"per_move_ms": 2_000, "seats": [{"deadline": due_at}]}));
        create(store, &record).await;
        let loaded = store.load(id).await.expect("loads").expect("exists");
        assert_eq!(loaded, record, "the clock and due time round-trip");
    }
    let ours = |found: Vec<String>| -> Vec<String> {
        found.into_iter().filter(|id| ids.contains(id)).collect()
    };
    let due = ours(store.due_games(6_000, 1_000).await.expect("due games"));
    assert_eq!(
        due,
        vec![ids[1].clone(), ids[0].clone()],
        "due by 6000, in due order"
    );

    // A commit that clears A's due time and one that makes C due.
    let a = store.load(&ids[0]).await.expect("loads").expect("exists");
    let mut a_next = next(&a);
    a_next.due_at = None;
    commit(
        store,
        &Commit {
            record: a_next,
            expected_version: a.version,
            entry: None,
            idempotency: None,
            outbox: Vec::new(),
        },
    )
    .await;
    let c = store.load(&ids[2]).await.expect("loads").expect("exists");
    let mut c_next = next(&c);
    c_next.due_at = Some(1_000);
    commit(
        store,
        &Commit {
            record: c_next,
            expected_version: c.version,
            entry: None,
            idempotency: None,
            outbox: Vec::new(),
        },
    )
    .await;
    let due = ours(store.due_games(6_000, 1_000).await.expect("due games"));
    assert_eq!(due, vec![ids[2].clone(), ids[1].clone()], "A left, C came");
    let all = ours(store.due_games(10_000, 1_000).await.expect("due games"));
    assert_eq!(all, vec![ids[2].clone(), ids[1].clone(), ids[3].clone()]);
}

/// Ids unique to one run of the suite.
struct RunIds(String);

impl RunIds {
    fn new() -> RunIds {
        static RUNS: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let run = RUNS.fetch_add(1, Ordering::Relaxed);
        RunIds(format!("{}x{nanos:x}x{run}", std::process::id()))
    }

    /// A game id for one check.
    fn game(&self, name: &str) -> String {
        format!("g_{}_{name}", self.0)
    }

    /// A ruleset only this run's lobby games use, so that other games in the store cannot
    /// disturb the lobby checks.
    fn ruleset(&self, name: &str) -> String {
        format!("contract-{}-{name}", self.0)
    }
}

/// The record after one more committed change: what a caller builds for [`Commit::record`].
fn next(record: &GameRecord) -> GameRecord {
    let mut next = record.clone();
    next.version += 1;
    next.log_len += 1;
    next.status = Status::Active;
    next.state = Some(format!("{{\"turn\":{}}}", next.log_len));
    next.updated_at += 1_000;
    next
}

fn entry(seq: u64, seat: Option<u8>, key: Option<&str>) -> LogEntry {
    LogEntry {
        seq,
        seat,
        action: json!({ "action": { "type": "bid", "amount": seq }, "visible_to": "all" }),
        events: json!([{ "event": { "type": "bid_placed", "seq": seq }, "visible_to": [0, 1] }]),
        idempotency_key: key.map(str::to_owned),
        state_hash: format!("{seq:064x}"),
        at: 1_700_000_000_000 + seq,
    }
}

fn idem(seat: u8, key: &str, seq: u64) -> IdempotencyRecord {
    IdempotencyRecord {
        seat,
        key: key.to_owned(),
        seq,
        response: format!("{{\"seq\":{seq},\"seat\":{seat}}}"),
    }
}

/// A commit moving `record` one version on, appending `seq` for `seat` under `key`.
fn step(record: &GameRecord, seat: u8, key: &str) -> Commit {
    let seq = record.log_len;
    Commit {
        record: next(record),
        expected_version: record.version,
        entry: Some(entry(seq, Some(seat), Some(key))),
        idempotency: Some(idem(seat, key, seq)),
        outbox: Vec::new(),
    }
}

async fn create(store: &dyn GameStore, record: &GameRecord) {
    store
        .create(record)
        .await
        .unwrap_or_else(|e| panic!("creating {}: {e}", record.id));
}

async fn commit(store: &dyn GameStore, commit: &Commit) {
    store
        .commit(commit)
        .await
        .unwrap_or_else(|e| panic!("committing to {}: {e}", commit.record.id));
}

/// Everything the store holds about one game, to show that a refused commit changed nothing.
#[derive(Debug, PartialEq)]
struct Snapshot {
    record: Option<GameRecord>,
    log: Vec<LogEntry>,
    keys: Vec<Option<IdempotencyRecord>>,
}

async fn snapshot(store: &dyn GameStore, id: &str, keys: &[(u8, &str)]) -> Snapshot {
    let mut found = Vec::new();
    for (seat, key) in keys {
        found.push(store.idempotency(id, *seat, key).await.unwrap());
    }
    Snapshot {
        record: store.load(id).await.unwrap(),
        log: store.log(id, None, 1_000).await.unwrap(),
        keys: found,
    }
}

fn assert_conflict(result: Result<(), StoreError>, id: &str, expected: u64, what: &str) {
    match result {
        Err(StoreError::VersionConflict {
            id: got,
            expected: got_expected,
        }) => {
            assert_eq!(
                (got.as_str(), got_expected),
                (id, expected),
                "{what}: conflict names the wrong game or version"
            );
        }
        other => panic!("{what}: expected VersionConflict, got {other:?}"),
    }
}

async fn create_then_load_round_trips(store: &dyn GameStore, run: &RunIds) {
    let mut record = sample_record(&run.game("roundtrip"));
    record.state =
        Some(r#"{"phase":"auction","bids":[3,null],"note":"ünïcode \"quoted\""}"#.to_owned());
    record.invite_only = true;
    record.options = json!({ "nested": { "deep": [true, false, null, -7, 0.125] }, "empty": {} });

    create(store, &record).await;

    assert_eq!(
        store.load(&record.id).await.unwrap(),
        Some(record),
        "load returns what create stored, exactly"
    );
}

async fn create_of_an_existing_id_is_refused(store: &dyn GameStore, run: &RunIds) {
    let first = sample_record(&run.game("exists"));
    create(store, &first).await;
    let mut second = first.clone();
    second.ruleset = "other".to_owned();

    let refused = store.create(&second).await;

    assert!(
        matches!(&refused, Err(StoreError::AlreadyExists(id)) if *id == first.id),
        "got {refused:?}"
    );
    assert_eq!(
        store.load(&first.id).await.unwrap(),
        Some(first),
        "a refused create must not overwrite"
    );
}

async fn load_of_an_unknown_id_is_none(store: &dyn GameStore, run: &RunIds) {
    assert_eq!(store.load(&run.game("never-created")).await.unwrap(), None);
}

async fn commit_writes_record_entry_and_idempotency(store: &dyn GameStore, run: &RunIds) {
    let record = sample_record(&run.game("commit"));
    create(store, &record).await;
    let change = step(&record, 0, "k-commit");

    commit(store, &change).await;

    assert_eq!(
        store.load(&record.id).await.unwrap().as_ref(),
        Some(&change.record)
    );
    assert_eq!(
        store.log(&record.id, None, 10).await.unwrap(),
        vec![change.entry.clone().unwrap()]
    );
    assert_eq!(
        store.idempotency(&record.id, 0, "k-commit").await.unwrap(),
        change.idempotency
    );

    // A commit without entry or idempotency record (e.g. a seat claim) only updates the record.
    let mut claim = next(&change.record);
    claim.log_len = change.record.log_len;
    claim.seats[1].name = Some("Bram".to_owned());
    commit(
        store,
        &Commit {
            record: claim.clone(),
            expected_version: 1,
            entry: None,
            idempotency: None,
            outbox: Vec::new(),
        },
    )
    .await;
    assert_eq!(store.load(&record.id).await.unwrap(), Some(claim));
    assert_eq!(store.log(&record.id, None, 10).await.unwrap().len(), 1);
}

async fn stale_commit_conflicts_and_changes_nothing(store: &dyn GameStore, run: &RunIds) {
    let record = sample_record(&run.game("stale"));
    create(store, &record).await;
    let first = step(&record, 0, "k-first");
    commit(store, &first).await;
    let keys = [(0, "k-first"), (1, "k-stale")];
    let before = snapshot(store, &record.id, &keys).await;

    // Computed from version 0, which is no longer current; it reuses no seq or key, so only
    // the version can refuse it.
    let mut stale = step(&record, 1, "k-stale");
    stale.entry.as_mut().unwrap().seq = 1;
    stale.idempotency.as_mut().unwrap().seq = 1;
    let refused = store.commit(&stale).await;

    assert_conflict(refused, &record.id, 0, "stale commit");
    assert_eq!(
        snapshot(store, &record.id, &keys).await,
        before,
        "a stale commit must write nothing"
    );

    // A version from the future is just as stale.
    let mut ahead = step(&first.record, 1, "k-stale");
    ahead.expected_version = 7;
    ahead.record.version = 8;
    assert_conflict(
        store.commit(&ahead).await,
        &record.id,
        7,
        "commit from a future version",
    );
    assert_eq!(
        snapshot(store, &record.id, &keys).await,
        before,
        "a commit from a future version must write nothing"
    );
}

async fn commit_to_an_unknown_game_is_not_found(store: &dyn GameStore, run: &RunIds) {
    let ghost = sample_record(&run.game("ghost"));

    let refused = store.commit(&step(&ghost, 0, "k-ghost")).await;

    assert!(
        matches!(&refused, Err(StoreError::NotFound(id)) if *id == ghost.id),
        "got {refused:?}"
    );
    assert_eq!(
        store.load(&ghost.id).await.unwrap(),
        None,
        "a refused commit must not create the game"
    );
    assert_eq!(
        store.idempotency(&ghost.id, 0, "k-ghost").await.unwrap(),
        None
    );
}

async fn commit_that_skips_a_version_is_refused(store: &dyn GameStore, run: &RunIds) {
    let record = sample_record(&run.game("skip"));
    create(store, &record).await;
    let keys = [(0, "k-skip")];
    let before = snapshot(store, &record.id, &keys).await;

    // `Commit` requires `record.version == expected_version + 1`; anything else is a caller bug
    // (a retry would fail the same way), so it is not a `VersionConflict`.
    let mut skip = step(&record, 0, "k-skip");
    skip.record.version = 5;
    let refused = store.commit(&skip).await;

    assert!(
        matches!(refused, Err(StoreError::Backend(_))),
        "got {refused:?}"
    );
    assert_eq!(
        snapshot(store, &record.id, &keys).await,
        before,
        "a refused commit must write nothing"
    );
}

async fn duplicate_seq_conflicts_and_changes_nothing(store: &dyn GameStore, run: &RunIds) {
    let record = sample_record(&run.game("dup-seq"));
    create(store, &record).await;
    let first = step(&record, 0, "k-0");
    commit(store, &first).await;
    let keys = [(0, "k-0"), (1, "k-dup")];
    let before = snapshot(store, &record.id, &keys).await;

    // The right version, but seq 0 is taken (a caller that miscounted the log).
    let mut dup = step(&first.record, 1, "k-dup");
    dup.entry.as_mut().unwrap().seq = 0;
    let refused = store.commit(&dup).await;

    assert_conflict(refused, &record.id, 1, "duplicate seq");
    assert_eq!(
        snapshot(store, &record.id, &keys).await,
        before,
        "a duplicate seq must write nothing"
    );
}

async fn idempotency_keys_are_per_game_and_seat(store: &dyn GameStore, run: &RunIds) {
    let record = sample_record(&run.game("idem"));
    let other = sample_record(&run.game("idem-other"));
    create(store, &record).await;
    create(store, &other).await;
    let change = step(&record, 1, "k-same");

    commit(store, &change).await;

    assert_eq!(
        store.idempotency(&record.id, 1, "k-same").await.unwrap(),
        Some(idem(1, "k-same", 0))
    );
    assert_eq!(
        store.idempotency(&record.id, 2, "k-same").await.unwrap(),
        None,
        "another seat's key is separate"
    );
    assert_eq!(
        store.idempotency(&record.id, 1, "k-other").await.unwrap(),
        None
    );
    assert_eq!(
        store.idempotency(&other.id, 1, "k-same").await.unwrap(),
        None,
        "another game's key is separate"
    );

    // The same key from another seat is a different request, so it commits.
    commit(store, &step(&change.record, 2, "k-same")).await;
    assert_eq!(
        store.idempotency(&record.id, 2, "k-same").await.unwrap(),
        Some(idem(2, "k-same", 1))
    );
    assert_eq!(
        store.idempotency(&record.id, 1, "k-same").await.unwrap(),
        Some(idem(1, "k-same", 0))
    );
}

async fn reused_idempotency_key_conflicts_and_changes_nothing(store: &dyn GameStore, run: &RunIds) {
    let record = sample_record(&run.game("idem-reuse"));
    create(store, &record).await;
    let first = step(&record, 1, "k-reused");
    commit(store, &first).await;
    let keys = [(1, "k-reused")];
    let before = snapshot(store, &record.id, &keys).await;

    // The right version and a fresh seq: only the key is taken.
    let mut again = step(&first.record, 1, "k-reused");
    again.idempotency.as_mut().unwrap().response = "a different response".to_owned();
    let refused = store.commit(&again).await;

    assert_conflict(refused, &record.id, 1, "reused idempotency key");
    assert_eq!(
        snapshot(store, &record.id, &keys).await,
        before,
        "a reused key must write nothing"
    );
}

async fn log_pages_ascending_after_a_seq(store: &dyn GameStore, run: &RunIds) {
    let mut record = sample_record(&run.game("log"));
    create(store, &record).await;
    let mut entries = Vec::new();
    for seq in 0..5u8 {
        let change = step(&record, seq % 3, &format!("k-{seq}"));
        commit(store, &change).await;
        entries.push(change.entry.unwrap());
        record = change.record;
    }
    let id = &record.id;
    let seqs = |log: Vec<LogEntry>| log.into_iter().map(|e| e.seq).collect::<Vec<_>>();

    assert_eq!(
        store.log(id, None, 100).await.unwrap(),
        entries,
        "after = None starts at seq 0"
    );
    assert_eq!(
        seqs(store.log(id, Some(1), 100).await.unwrap()),
        [2, 3, 4],
        "after = Some(k) starts after k"
    );
    assert_eq!(
        seqs(store.log(id, None, 2).await.unwrap()),
        [0, 1],
        "limit is respected"
    );
    assert_eq!(seqs(store.log(id, Some(1), 2).await.unwrap()), [2, 3]);
    assert_eq!(
        seqs(store.log(id, Some(3), 2).await.unwrap()),
        [4],
        "a short last page"
    );
    assert_eq!(
        store.log(id, Some(4), 10).await.unwrap(),
        [],
        "nothing after the last entry"
    );
    assert_eq!(
        store.log(id, Some(u64::MAX), 10).await.unwrap(),
        [],
        "nothing after u64::MAX"
    );
}

/// Reads every page of the lobby for `ruleset`, checking the page size as it goes.
async fn all_pages(store: &dyn GameStore, ruleset: Option<&str>, limit: usize) -> Vec<GameRecord> {
    let mut games = Vec::new();
    let mut cursor = None;
    for _ in 0..10_000 {
        let query = ListQuery {
            ruleset: ruleset.map(str::to_owned),
            cursor: cursor.take(),
            limit,
        };
        let ListPage {
            games: page,
            next_cursor,
        } = store.list_open(&query).await.unwrap();
        assert!(
            page.len() <= limit,
            "a page of {} games exceeds the limit {limit}",
            page.len()
        );
        games.extend(page);
        match next_cursor {
            Some(next) => cursor = Some(next),
            None => return games,
        }
    }
    panic!("the lobby never ran out of pages");
}

fn ids(games: &[GameRecord]) -> Vec<&str> {
    games.iter().map(|g| g.id.as_str()).collect()
}

/// Creates `count` open public games of `ruleset`, in scrambled order and with some equal
/// creation times (so the id has to break ties); returns their ids in lobby order.
async fn create_lobby(
    store: &dyn GameStore,
    run: &RunIds,
    ruleset: &str,
    count: usize,
) -> Vec<String> {
    let mut games: Vec<GameRecord> = (0..count)
        .map(|i| {
            let mut game = sample_record(&run.game(&format!("{ruleset}-{i}")));
            game.ruleset = ruleset.to_owned();
            // Later ids are older, so that neither the id nor the insertion order alone gives
            // the lobby order; pairs share a creation time (0 and 1, 2 and 3, ...), so that the
            // id has to break ties.
            game.created_at = 1_600_000_000_000 + ((count - i) / 2) as u64 * 1_000;
            game
        })
        .collect();
    let mut expected: Vec<String> = games.iter().map(|g| g.id.clone()).collect();
    expected.sort_by_key(|id| {
        let game = games.iter().find(|g| g.id == *id).unwrap();
        (game.created_at, game.id.clone())
    });
    // Insert in neither id nor lobby order.
    games.rotate_left(count / 2);
    for game in &games {
        create(store, game).await;
    }
    expected
}

async fn lobby_lists_open_public_games_by_ruleset(store: &dyn GameStore, run: &RunIds) {
    let ruleset = run.ruleset("filter");
    let listed = create_lobby(store, run, &ruleset, 2).await;
    let mut hidden = Vec::new();
    for (name, status, invite_only) in [
        ("invite", Status::Open, true),
        ("active", Status::Active, false),
        ("finished", Status::Finished, false),
    ] {
        let mut game = sample_record(&run.game(&format!("lobby-{name}")));
        game.ruleset = ruleset.clone();
        game.status = status;
        game.invite_only = invite_only;
        create(store, &game).await;
        hidden.push(game.id);
    }
    let elsewhere = run.ruleset("elsewhere");
    let other = create_lobby(store, run, &elsewhere, 1).await;

    let filtered = all_pages(store, Some(&ruleset), 10).await;
    assert_eq!(
        ids(&filtered),
        listed,
        "only open, public games of the ruleset, oldest first"
    );
    assert_eq!(ids(&all_pages(store, Some(&elsewhere), 10).await), other);

    // Unfiltered, the lobby may hold other games, but all of them open and public, and ours.
    let everything = all_pages(store, None, 100).await;
    assert!(
        everything
            .iter()
            .all(|g| g.status == Status::Open && !g.invite_only),
        "the lobby lists a hidden game"
    );
    let everything = ids(&everything);
    for id in listed.iter().chain(&other) {
        assert!(
            everything.contains(&id.as_str()),
            "{id} is missing from the unfiltered lobby"
        );
    }
    for id in &hidden {
        assert!(
            !everything.contains(&id.as_str()),
            "{id} is listed but should be hidden"
        );
    }
}

async fn lobby_pages_without_duplicates_or_gaps(store: &dyn GameStore, run: &RunIds) {
    let ruleset = run.ruleset("pages");
    let expected = create_lobby(store, run, &ruleset, 7).await;

    let first = store
        .list_open(&ListQuery {
            ruleset: Some(ruleset.clone()),
            cursor: None,
            limit: 3,
        })
        .await
        .unwrap();
    assert_eq!(
        ids(&first.games),
        expected[..3],
        "the first page holds the three oldest games"
    );
    let cursor = first
        .next_cursor
        .expect("a first page of 3 out of 7 has a next cursor");
    let second = store
        .list_open(&ListQuery {
            ruleset: Some(ruleset.clone()),
            cursor: Some(cursor),
            limit: 3,
        })
        .await
        .unwrap();
    assert_eq!(
        ids(&second.games),
        expected[3..6],
        "the second page continues where the first ended"
    );

    let paged = all_pages(store, Some(&ruleset), 3).await;
    assert_eq!(
        ids(&paged),
        expected,
        "paging with limit 3 yields every game once, in order"
    );
}

async fn lobby_drops_games_that_start(store: &dyn GameStore, run: &RunIds) {
    let ruleset = run.ruleset("starts");
    let expected = create_lobby(store, run, &ruleset, 5).await;
    let first = store
        .list_open(&ListQuery {
            ruleset: Some(ruleset.clone()),
            cursor: None,
            limit: 2,
        })
        .await
        .unwrap();
    assert_eq!(ids(&first.games), expected[..2]);

    // Between two page requests, the first game of the next page starts.
    let started = store.load(&expected[2]).await.unwrap().unwrap();
    commit(store, &step(&started, 0, "k-start")).await;

    let rest = store
        .list_open(&ListQuery {
            ruleset: Some(ruleset.clone()),
            cursor: first.next_cursor,
            limit: 10,
        })
        .await
        .unwrap();
    assert_eq!(
        ids(&rest.games),
        expected[3..],
        "the cursor resumes after the last game shown, skipping none"
    );
    let now: Vec<&str> = expected
        .iter()
        .map(String::as_str)
        .filter(|id| *id != started.id)
        .collect();
    assert_eq!(
        ids(&all_pages(store, Some(&ruleset), 10).await),
        now,
        "a started game leaves the lobby"
    );
}

async fn bad_cursor_is_refused(store: &dyn GameStore) {
    for cursor in [
        "garbage",
        "",
        "12",
        "x1.g_1",
        "-5.g_1",
        "1.",
        "184467440737095516160.g_1",
    ] {
        let query = ListQuery {
            ruleset: None,
            cursor: Some(cursor.to_owned()),
            limit: 10,
        };
        let refused = store.list_open(&query).await;
        assert!(
            matches!(refused, Err(StoreError::BadCursor)),
            "cursor {cursor:?}: got {refused:?}"
        );
    }
}

async fn racing_commits_have_exactly_one_winner(store: &dyn GameStore, run: &RunIds) {
    const RACERS: u8 = 8;
    let record = sample_record(&run.game("race"));
    create(store, &record).await;
    let loaded = store.load(&record.id).await.unwrap().unwrap();
    // Every racer computed its change from the same loaded version, each with its own key and
    // its own `updated_at`, so that the stored record shows whose commit won.
    let commits: Vec<Commit> = (0..RACERS)
        .map(|seat| {
            let mut change = step(&loaded, seat, &format!("k-race-{seat}"));
            change.record.updated_at += u64::from(seat);
            change
        })
        .collect();

    // The suite only borrows the store, so the racers are futures polled together rather than
    // spawned tasks; each still reaches the store's own concurrency (for SqliteStore, the
    // writer thread's queue, where the racers usually land in one group transaction).
    let results = join_all(commits.iter().map(|c| store.commit(c)).collect()).await;

    let winners: Vec<usize> = results
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_ok())
        .map(|(i, _)| i)
        .collect();
    assert_eq!(winners.len(), 1, "exactly one racer wins: {results:?}");
    for (i, result) in results.into_iter().enumerate() {
        if i != winners[0] {
            assert_conflict(result, &record.id, 0, "a losing racer");
        }
    }
    let won = &commits[winners[0]];
    assert_eq!(
        store.load(&record.id).await.unwrap().as_ref(),
        Some(&won.record),
        "the winner's record is stored"
    );
    assert_eq!(
        store.log(&record.id, None, 100).await.unwrap(),
        vec![won.entry.clone().unwrap()],
        "one entry"
    );
    for seat in 0..RACERS {
        let kept = store
            .idempotency(&record.id, seat, &format!("k-race-{seat}"))
            .await
            .unwrap();
        assert_eq!(
            kept.is_some(),
            usize::from(seat) == winners[0],
            "only the winner's key is kept"
        );
    }
}

/// Polls all `futures` together until each has finished; their outputs in order. (A tiny
/// `futures::future::join_all`, to avoid a dependency for one test.)
async fn join_all<F: Future>(futures: Vec<F>) -> Vec<F::Output> {
    let mut futures: Vec<Pin<Box<F>>> = futures.into_iter().map(Box::pin).collect();
    let mut outputs: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    poll_fn(|cx| {
        let mut pending = false;
        for (future, output) in futures.iter_mut().zip(outputs.iter_mut()) {
            if output.is_none() {
                match future.as_mut().poll(cx) {
                    Poll::Ready(value) => *output = Some(value),
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    outputs
        .into_iter()
        .map(|output| output.expect("every future finished"))
        .collect()
}

async fn delete_removes_the_game_and_everything_under_it(store: &dyn GameStore, run: &RunIds) {
    let record = sample_record(&run.game("deleted"));
    create(store, &record).await;
    let moved = step(&record, 1, "k_deleted");
    commit(store, &moved).await;
    let mut subscribed = next(&moved.record);
    subscribed.log_len = moved.record.log_len;
    subscribed.hooks = vec![hook("wh_deleted", Some(1))];
    let pending = message(&record.id, "wh_deleted", &format!("msg_{}", record.id), 10);
    commit(
        store,
        &with_outbox(subscribed.clone(), &moved.record, vec![pending]),
    )
    .await;
    let neighbour = sample_record(&run.game("kept"));
    create(store, &neighbour).await;
    commit(store, &step(&neighbour, 0, "k_kept")).await;

    store
        .delete(&record.id)
        .await
        .unwrap_or_else(|e| panic!("deleting {}: {e}", record.id));
    assert_eq!(
        snapshot(store, &record.id, &[(1, "k_deleted")]).await,
        Snapshot {
            record: None,
            log: Vec::new(),
            keys: vec![None],
        },
        "nothing of a deleted game is read: record, log or idempotency key"
    );
    assert_eq!(
        store
            .messages(&record.id, "wh_deleted", None, 10)
            .await
            .unwrap()
            .messages,
        Vec::new(),
        "a deleted game's notifications are gone"
    );
    assert!(
        !store
            .due_messages(u64::MAX, 10_000)
            .await
            .unwrap()
            .iter()
            .any(|message| message.game_id == record.id),
        "nothing of a deleted game is due"
    );
    assert!(
        matches!(store.delete(&record.id).await, Err(StoreError::NotFound(_))),
        "a game is deleted once"
    );
    assert!(
        matches!(
            store.commit(&step(&subscribed, 0, "k_after")).await,
            Err(StoreError::NotFound(_))
        ),
        "a deleted game takes no commit"
    );
    let kept = snapshot(store, &neighbour.id, &[(0, "k_kept")]).await;
    assert!(
        kept.record.is_some() && kept.log.len() == 1 && kept.keys[0].is_some(),
        "another game is untouched: {kept:?}"
    );
}

async fn finished_games_come_oldest_first(store: &dyn GameStore, run: &RunIds) {
    let game = |name: &str, status: Status, updated_at: u64| {
        let mut record = sample_record(&run.game(name));
        record.status = status;
        record.updated_at = updated_at;
        record
    };
    let old = game("finished_old", Status::Finished, 1_000);
    let newer = game("finished_newer", Status::Finished, 2_000);
    let active = game("active_old", Status::Active, 500);
    for record in [&newer, &active, &old] {
        create(store, record).await;
    }
    let ours = |ids: Vec<String>| -> Vec<String> {
        ids.into_iter()
            .filter(|id| [&old.id, &newer.id, &active.id].contains(&id))
            .collect()
    };
    assert_eq!(
        ours(store.finished_before(1_500, 100).await.unwrap()),
        std::slice::from_ref(&old.id),
        "only finished games last changed before the time"
    );
    assert_eq!(
        ours(store.finished_before(u64::MAX, 100).await.unwrap()),
        [old.id.clone(), newer.id.clone()],
        "oldest first, never a live game"
    );
}

fn app(id: &str, created_at: u64) -> crate::AppRecord {
    crate::AppRecord {
        id: id.to_owned(),
        name: format!("the app {id} ✿"),
        version: 1,
        created_at,
        keys: vec![crate::KeyRecord {
            id: "k_first".to_owned(),
            hash: "ab".repeat(32),
            scopes: vec![crate::Scope::GamesCreate, crate::Scope::GamesRead],
            created_at,
            revoked_at: None,
        }],
        creations: crate::CreationWindow::default(),
    }
}

async fn apps_are_created_loaded_saved_and_listed(store: &dyn GameStore, run: &RunIds) {
    let first = app(&format!("a_{}_first", run.0), 1_000);
    let second = app(&format!("a_{}_second", run.0), 2_000);
    store.create_app(&second).await.unwrap();
    store.create_app(&first).await.unwrap();
    assert!(
        matches!(
            store.create_app(&first).await,
            Err(StoreError::AlreadyExists(_))
        ),
        "an app id is taken once"
    );
    assert_eq!(
        store.load_app(&first.id).await.unwrap(),
        Some(first.clone())
    );
    assert_eq!(
        store.load_app(&format!("a_{}_none", run.0)).await.unwrap(),
        None
    );

    // A save under the stored version wins; under any other it changes nothing.
    let mut rotated = first.clone();
    rotated.version = 2;
    rotated.keys[0].revoked_at = Some(3_000);
    rotated.creations = crate::CreationWindow {
        hour: 7,
        created: 3,
    };
    store.save_app(&rotated, 1).await.unwrap();
    let mut stale = first.clone();
    stale.version = 2;
    stale.name = "lost".to_owned();
    assert!(
        matches!(
            store.save_app(&stale, 1).await,
            Err(StoreError::VersionConflict { .. })
        ),
        "a save under an old version conflicts"
    );
    assert_eq!(
        store.load_app(&first.id).await.unwrap(),
        Some(rotated.clone())
    );
    let mut nobody = app(&format!("a_{}_nobody", run.0), 1);
    nobody.version = 2;
    assert!(
        matches!(
            store.save_app(&nobody, 1).await,
            Err(StoreError::NotFound(_))
        ),
        "saving an app that does not exist is NotFound"
    );

    // Listed oldest first (other apps of other runs may be listed too).
    let ours: Vec<String> = store
        .apps()
        .await
        .unwrap()
        .into_iter()
        .filter(|listed| listed.id.starts_with(&format!("a_{}_", run.0)))
        .map(|listed| listed.id)
        .collect();
    assert_eq!(ours, [first.id.clone(), second.id.clone()]);
}

async fn an_apps_unfinished_games_are_listed_and_counted(store: &dyn GameStore, run: &RunIds) {
    let owner = format!("a_{}_owner", run.0);
    let ruleset = run.ruleset("app");
    let mut expected = Vec::new();
    for (i, (status, invite_only)) in [
        (Status::Open, false),
        (Status::Open, true),
        (Status::Active, true),
        (Status::Active, false),
    ]
    .into_iter()
    .enumerate()
    {
        let mut game = sample_record(&run.game(&format!("app-{i}")));
        game.ruleset = ruleset.clone();
        game.app = Some(owner.clone());
        game.status = status;
        game.invite_only = invite_only;
        game.created_at = 1_650_000_000_000 + (4 - i as u64) * 1_000;
        create(store, &game).await;
        expected.push(game.id);
    }
    expected.reverse();
    // Not the app's: finished, another app's, nobody's.
    let mut finished = sample_record(&run.game("app-finished"));
    finished.ruleset = ruleset.clone();
    finished.app = Some(owner.clone());
    finished.status = Status::Finished;
    create(store, &finished).await;
    let mut other = sample_record(&run.game("app-other"));
    other.ruleset = ruleset.clone();
    other.app = Some(format!("a_{}_other", run.0));
    create(store, &other).await;
    let mut nobodys = sample_record(&run.game("app-nobody"));
    nobodys.ruleset = ruleset.clone();
    create(store, &nobodys).await;

    assert_eq!(store.live_games(Owner::App(&owner)).await.unwrap(), 4);
    // Paged by two, with and without the ruleset.
    for filter in [None, Some(ruleset.clone())] {
        let mut listed = Vec::new();
        let mut cursor = None;
        loop {
            let page = store
                .list_app(
                    &owner,
                    &ListQuery {
                        ruleset: filter.clone(),
                        cursor: cursor.take(),
                        limit: 2,
                    },
                )
                .await
                .unwrap();
            listed.extend(page.games.iter().map(|g| g.id.clone()));
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        assert_eq!(listed, expected, "the app's unfinished games, oldest first");
    }
    let elsewhere = store
        .list_app(
            &owner,
            &ListQuery {
                ruleset: Some(run.ruleset("none")),
                cursor: None,
                limit: 10,
            },
        )
        .await
        .unwrap();
    assert!(elsewhere.games.is_empty());

    // A game that finishes leaves the listing and the count.
    let first = store.load(&expected[0]).await.unwrap().unwrap();
    let mut done = next(&first);
    done.status = Status::Finished;
    commit(
        store,
        &Commit {
            record: done,
            expected_version: first.version,
            entry: Some(entry(first.log_len, Some(0), None)),
            idempotency: None,
            outbox: Vec::new(),
        },
    )
    .await;
    assert_eq!(store.live_games(Owner::App(&owner)).await.unwrap(), 3);
}

async fn an_origins_unfinished_games_are_counted(store: &dyn GameStore, run: &RunIds) {
    let origin = format!("o_{}_from", run.0);
    for (i, status) in [Status::Open, Status::Active, Status::Finished]
        .into_iter()
        .enumerate()
    {
        let mut game = sample_record(&run.game(&format!("origin-{i}")));
        game.origin = Some(origin.clone());
        game.status = status;
        create(store, &game).await;
    }
    // Another address's game, and an app's game (apps never count as an address).
    let mut other = sample_record(&run.game("origin-other"));
    other.origin = Some(format!("o_{}_elsewhere", run.0));
    create(store, &other).await;
    let mut keyed = sample_record(&run.game("origin-app"));
    keyed.app = Some(origin.clone());
    create(store, &keyed).await;

    assert_eq!(store.live_games(Owner::Origin(&origin)).await.unwrap(), 2);
    assert_eq!(store.live_games(Owner::App(&origin)).await.unwrap(), 1);

    // A game that finishes leaves the count.
    let open = store.load(&run.game("origin-0")).await.unwrap().unwrap();
    let mut done = next(&open);
    done.status = Status::Finished;
    commit(
        store,
        &Commit {
            record: done,
            expected_version: open.version,
            entry: Some(entry(open.log_len, Some(0), None)),
            idempotency: None,
            outbox: Vec::new(),
        },
    )
    .await;
    assert_eq!(store.live_games(Owner::Origin(&origin)).await.unwrap(), 1);
    // A deleted game leaves it too.
    store.delete(&run.game("origin-1")).await.unwrap();
    assert_eq!(store.live_games(Owner::Origin(&origin)).await.unwrap(), 0);
}

async fn an_origins_creations_are_counted_per_hour_up_to_the_limit(
    store: &dyn GameStore,
    run: &RunIds,
) {
    let origin = format!("o_{}_counted", run.0);
    let hour = 490_000;
    for expected in 1..=3 {
        assert_eq!(
            store.count_creation(&origin, hour, 3).await.unwrap(),
            Some(expected)
        );
    }
    // At the limit: refused, and refusing counts nothing (a higher limit admits the fourth).
    assert_eq!(store.count_creation(&origin, hour, 3).await.unwrap(), None);
    assert_eq!(store.count_creation(&origin, hour, 3).await.unwrap(), None);
    assert_eq!(
        store.count_creation(&origin, hour, 4).await.unwrap(),
        Some(4)
    );
    // Another address counts apart; the next hour starts again.
    let other = format!("o_{}_other", run.0);
    assert_eq!(
        store.count_creation(&other, hour, 3).await.unwrap(),
        Some(1)
    );
    assert_eq!(
        store.count_creation(&origin, hour + 1, 3).await.unwrap(),
        Some(1)
    );

    // Concurrent callers never admit more than the limit between them.
    let racing = format!("o_{}_racing", run.0);
    let admitted = join_all(
        (0..12)
            .map(|_| store.count_creation(&racing, hour, 5))
            .collect(),
    )
    .await
    .into_iter()
    .map(|counted| counted.unwrap())
    .filter(Option::is_some)
    .count();
    assert_eq!(admitted, 5);
}

async fn players_are_saved_under_their_version(store: &dyn GameStore, run: &RunIds) {
    let app = format!("a_{}_players", run.0);
    let mut player = crate::PlayerRecord {
        app: app.clone(),
        id: "user #42 (Ann)".to_owned(),
        version: 1,
        created_at: 1_700_000_000_000,
        tokens: Vec::new(),
    };
    assert_eq!(store.load_player(&app, &player.id).await.unwrap(), None);
    store.save_player(&player, 0).await.unwrap();
    assert_eq!(
        store.load_player(&app, &player.id).await.unwrap().as_ref(),
        Some(&player)
    );
    // A second creation, or a save from a stale version, is a conflict and changes nothing.
    assert!(matches!(
        store.save_player(&player, 0).await,
        Err(StoreError::VersionConflict { .. })
    ));
    let mut stale = player.clone();
    stale.version = 3;
    stale.created_at = 1;
    assert!(matches!(
        store.save_player(&stale, 2).await,
        Err(StoreError::VersionConflict { .. })
    ));
    player.version = 2;
    player.created_at = 2;
    store.save_player(&player, 1).await.unwrap();
    assert_eq!(
        store.load_player(&app, &player.id).await.unwrap(),
        Some(player.clone())
    );
    // Another app's player of the same id is another player.
    assert_eq!(
        store
            .load_player(&format!("a_{}_else", run.0), &player.id)
            .await
            .unwrap(),
        None
    );
}

async fn a_players_games_are_listed_newest_first(store: &dyn GameStore, run: &RunIds) {
    let app = format!("a_{}_seated", run.0);
    let player = "ann";
    let mut ids = Vec::new();
    for i in 0..5u64 {
        let mut game = sample_record(&run.game(&format!("seated-{i}")));
        game.app = Some(app.clone());
        game.created_at = 1_660_000_000_000 + i * 1_000;
        create(store, &game).await;
        store
            .add_player_game(&app, player, &game.id, game.created_at)
            .await
            .unwrap();
        ids.push(game.id);
    }
    // Noting twice is one note; another player's and another app's notes stay apart.
    store
        .add_player_game(&app, player, &ids[1], 1_660_000_001_000)
        .await
        .unwrap();
    store
        .add_player_game(&app, "bea", &ids[2], 1_660_000_002_000)
        .await
        .unwrap();
    store
        .add_player_game(
            &format!("a_{}_else", run.0),
            player,
            &ids[3],
            1_660_000_003_000,
        )
        .await
        .unwrap();
    // A note removed, and a game deleted: neither is listed.
    store
        .remove_player_game(&app, player, &ids[0])
        .await
        .unwrap();
    store.delete(&ids[4]).await.unwrap();

    let mut listed = Vec::new();
    let mut cursor = None;
    loop {
        let page = store
            .player_games(
                &app,
                player,
                &ListQuery {
                    ruleset: None,
                    cursor: cursor.take(),
                    limit: 2,
                },
            )
            .await
            .unwrap();
        assert!(page.games.len() <= 2);
        listed.extend(page.games.iter().map(|game| game.id.clone()));
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(listed, [ids[3].clone(), ids[2].clone(), ids[1].clone()]);
    let bea = store
        .player_games(
            &app,
            "bea",
            &ListQuery {
                ruleset: None,
                cursor: None,
                limit: 10,
            },
        )
        .await
        .unwrap();
    assert_eq!(
        bea.games
            .iter()
            .map(|game| game.id.clone())
            .collect::<Vec<_>>(),
        [ids[2].clone()]
    );
    assert!(matches!(
        store
            .player_games(
                &app,
                player,
                &ListQuery {
                    ruleset: None,
                    cursor: Some("nonsense".into()),
                    limit: 10
                }
            )
            .await,
        Err(StoreError::BadCursor)
    ));
}
