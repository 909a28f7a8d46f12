//! Issue 55: every list of a vocabulary agrees with the enum it comes from. Webhook types
//! ([`WebhookEvent`]), stream event names ([`StreamEvent`]) and problem codes
//! ([`ApiCode`]): the contract, docs/webhooks.md and docs/api.md name exactly what the enums
//! hold.

use api::routes::events::StreamEvent;
use serde_json::Value;
use service::dto::WebhookEvent;
use service::error::Code as ApiCode;
use std::collections::BTreeSet;

fn repository_file(path: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    std::fs::read_to_string(format!("{root}/{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn contract() -> Value {
    serde_json::from_str(&repository_file("openapi/openapi.json")).expect("the contract is JSON")
}

/// The `code`-quoted words of `text` (`turn` → turn).
fn quoted(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

#[test]
fn the_contracts_webhooks_are_the_webhook_event_enum() {
    let contract = contract();
    let listed: BTreeSet<&str> = contract["webhooks"]
        .as_object()
        .expect("a webhooks section")
        .keys()
        .map(String::as_str)
        .collect();
    let kinds: BTreeSet<&str> = WebhookEvent::ALL.iter().map(|e| e.as_str()).collect();
    assert_eq!(listed, kinds);
    let schema = &contract["components"]["schemas"]["WebhookEvent"]["enum"];
    let enumerated: BTreeSet<&str> = schema
        .as_array()
        .expect("WebhookEvent is an enum")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(enumerated, kinds);
}

#[test]
fn docs_webhooks_tables_name_each_callers_types() {
    let docs = repository_file("docs/webhooks.md");
    for (caller, types) in [("seat", WebhookEvent::SEAT), ("admin", WebhookEvent::ADMIN)] {
        let rows: BTreeSet<String> = docs
            .lines()
            .filter_map(|line| line.strip_prefix(&format!("| {caller} | `")))
            .filter_map(|rest| rest.split('`').next())
            .map(str::to_string)
            .collect();
        let expected: BTreeSet<String> = types.iter().map(|e| e.as_str().to_string()).collect();
        assert_eq!(rows, expected, "docs/webhooks.md, the {caller}'s rows");
    }
}

#[test]
fn each_stream_documents_the_events_it_sends() {
    let all: BTreeSet<&str> = StreamEvent::GAME_STREAM
        .iter()
        .chain(&StreamEvent::MY_STREAM)
        .map(|e| e.as_str())
        .collect();
    let variants: BTreeSet<&str> = <StreamEvent as strum::VariantArray>::VARIANTS
        .iter()
        .map(|e| e.as_str())
        .collect();
    assert_eq!(all, variants, "every event belongs to a stream");
    let contract = contract();
    for (path, events) in [
        ("/v1/games/{id}/events", &StreamEvent::GAME_STREAM[..]),
        ("/v1/me/events", &StreamEvent::MY_STREAM[..]),
    ] {
        let answer = &contract["paths"][path]["get"]["responses"]["200"]["description"];
        let named = quoted(answer.as_str().expect("a description"));
        let expected: BTreeSet<String> = events.iter().map(|e| e.as_str().to_string()).collect();
        assert_eq!(named, expected, "{path}: its 200 answer names its events");
    }
}

#[test]
fn the_contracts_problem_codes_include_every_api_code() {
    let contract = contract();
    let codes: BTreeSet<&str> = contract["components"]["schemas"]["Problem"]["properties"]["code"]
        ["enum"]
        .as_array()
        .expect("Problem.code is an enum")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for code in ApiCode::ALL {
        assert!(
            codes.contains(code.as_str()),
            "{} is not in Problem.code",
            code.as_str()
        );
    }
    let docs = repository_file("docs/api.md");
    let documented = quoted(&docs);
    let missing: Vec<&str> = ApiCode::ALL
        .iter()
        .map(|code| code.as_str())
        .filter(|code| !documented.contains(*code))
        .collect();
    assert!(missing.is_empty(), "docs/api.md does not name {missing:?}");
}
