//! The committed OpenAPI document matches the code (`UPDATE_OPENAPI=1` rewrites it).

use api_tests::spawn_app;
use std::path::PathBuf;

#[test]
fn committed_openapi_document_matches_the_code() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../openapi/openapi.json");
    let generated = serde_json::to_string_pretty(&api::openapi::spec(&service::registry()))
        .expect("serializes")
        + "\n";
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(&path, &generated).expect("write openapi/openapi.json");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "openapi/openapi.json is out of date: run `UPDATE_OPENAPI=1 cargo test -p api-tests --test api openapi` and commit it"
    );
}

#[tokio::test]
async fn the_server_serves_the_spec_and_a_docs_page() {
    let app = spawn_app().await;
    let spec = app.get("/openapi.json", None).await;
    assert_eq!(spec.status, 200);
    assert_eq!(spec.json(), api::openapi::spec(&service::registry()));
    let docs = app.get("/docs", None).await;
    assert_eq!(docs.status, 200);
    assert!(docs
        .header("content-type")
        .is_some_and(|kind| kind.starts_with("text/html")));
    // The reference page runs the vendored Redoc over this server's spec.
    let page = docs.text();
    assert!(page.contains("Redoc.init('openapi.json'"), "{page}");
    let script = format!("docs/assets/{}", api::pages::docs::bundle_file());
    assert!(page.contains(&script), "{page}");
    let bundle = app.get(&format!("/{script}"), None).await;
    assert_eq!(bundle.status, 200);
    assert_eq!(bundle.body, api::pages::docs::REDOC_BUNDLE);
    let rulesets = app.get("/v1/rulesets", None).await.json();
    let tulipmania = rulesets["rulesets"]
        .as_array()
        .expect("list")
        .iter()
        .find(|ruleset| ruleset["id"] == "tulipmania-1637")
        .expect("registered")
        .clone();
    assert_eq!(tulipmania["min_seats"], 3);
    assert_eq!(tulipmania["max_seats"], 5);
    assert!(
        tulipmania["options_schema"]["properties"]["max_turns"].is_object(),
        "{}",
        tulipmania["options_schema"]
    );
    assert!(
        !tulipmania["options_schema"].to_string().contains("$ref"),
        "refs are inlined"
    );
}
