//! `beurs serve --store dynamodb`: the real process (built with the `dynamo` feature) on a
//! table of the test DynamoDB endpoint (moto, or `BEURS_TEST_DYNAMODB_URL`), playing a
//! complete game over HTTP, with every move found in the table afterwards.
//!
//! Built only with the feature: `cargo test -p local --features dynamo --test dynamo_serve`.

use api_tests::{play_randomly, TestApp};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use store::dynamo::testing::{self, ENDPOINT_VARIABLE};

/// The `beurs` process; killed when dropped, whatever the test's outcome.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `beurs serve --store dynamodb --table <table>` against the test endpoint and reads
/// its address from the banner.
fn serve_on(table: &str) -> (Server, std::net::SocketAddr, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_beurs"));
    command
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--store",
            "dynamodb",
            "--table",
            table,
        ])
        .env("AWS_ENDPOINT_URL", testing::endpoint())
        .env_remove("BEURS_STORE")
        .stdout(Stdio::piped());
    if std::env::var(ENDPOINT_VARIABLE).map_or(true, |url| url.is_empty()) {
        // Our own moto server takes any credentials; the process must not look for real ones.
        command
            .env("AWS_ACCESS_KEY_ID", "beurs-test")
            .env("AWS_SECRET_ACCESS_KEY", "beurs-test")
            .env("AWS_REGION", "us-east-1");
    }
    let mut child = command.spawn().expect("start beurs");
    let stdout = child.stdout.take().expect("stdout");
    let server = Server(child);
    let (addr, banner) = api_tests::read_banner(stdout);
    (server, addr, banner)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beurs_serves_a_complete_game_from_a_dynamodb_table() {
    let store = testing::store().await;
    let table = store.table().to_owned();
    let (_server, addr, banner) = serve_on(&table);
    assert!(
        banner.contains(&format!("DynamoDB table {table}")),
        "{banner}"
    );
    let app = TestApp::external(addr, Arc::new(store));

    let game = app
        .start_game("tulip-bubble", 3, serde_json::json!({}))
        .await;
    let moves = play_randomly(&app, &game, 7, 5_000).await;

    // What the process committed is in the table, read back with a client of our own.
    let record = app.record(&game.id).await;
    assert_eq!(record.status, store::Status::Finished);
    let audit = app.full_audit(&game.id).await;
    assert_eq!(audit.status, 200, "{}", audit.text());
    let audit: service::audit::Audit = serde_json::from_slice(&audit.body).expect("an audit");
    let verified =
        service::audit::verify(&service::registry(), &audit).expect("the audit verifies");
    assert_eq!(verified.entries, moves + 1, "setup plus every move");
}

#[test]
fn dynamodb_without_a_table_is_refused_before_serving() {
    let output = Command::new(env!("CARGO_BIN_EXE_beurs"))
        .args(["serve", "--addr", "127.0.0.1:0", "--store", "dynamodb"])
        .env_remove("BEURS_TABLE")
        .output()
        .expect("run beurs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("needs --table"), "{stderr}");
}
