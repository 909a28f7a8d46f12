//! The contract check: every response the HTTP and Lambda tests receive, and every webhook
//! notification the test receiver gets, is validated against the OpenAPI document that the
//! code under test generates (`api::openapi::spec`), not the committed copy.
//!
//! For a response: the operation is found by method and path template (`/v1/games/{id}`
//! matches `/v1/games/g_…`; the query string is ignored). Then the status must be declared
//! (exactly, as `4XX`, or as `default`), the content type must be a declared media type,
//! declared headers must be present when `required` and valid against their schema when
//! present, and a JSON body must be valid against the declared schema (JSON Schema 2020-12,
//! `$ref`s resolved inside the document). A request that matches no operation must still get
//! a problem: `application/problem+json`, valid against `#/components/schemas/Problem`.
//!
//! For a notification: its `type` (`turn`, `action`, `finished`) names the webhook in the
//! document's top-level `webhooks`, whose `post.requestBody` gives the schema. A document
//! without that webhook is not checked (nothing worse than no check).
//!
//! Validators are compiled once per schema location and cached for the whole test binary.
//! A known disagreement between a response and its schema that the contract owner has yet to
//! fix is listed once, with its reason, in [`KNOWN_GAPS`]; everything else fails the test.

use jsonschema::{Draft, Registry, Validator};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

/// Where the document is registered for `$ref` resolution (never fetched: the validator has
/// no retriever, and every reference is inside the document).
const DOC_URI: &str = "https://beurs.invalid/openapi.json";

/// Body bytes shown in a failure message.
const BODY_SHOWN: usize = 2000;

/// A disagreement between today's responses and today's contract, tolerated until the
/// contract owner fixes it (then the entry goes). A schema error is tolerated when the
/// operation and status match and the failing keyword's location in the document (the
/// canonical schema path) contains `schema_path`. Statuses missing from a route's
/// `responses(...)` are never tolerated here: they are added to the route instead.
pub struct KnownGap {
    /// `"GET /v1/games/{id}"`, or `"webhook turn"` for a notification body.
    pub operation: &'static str,
    /// The status as declared (`"200"`), or `"*"` for any (and for webhooks).
    pub status: &'static str,
    /// A part of the failing keyword's canonical location, e.g. `/LogItem/properties/seat`.
    pub schema_path: &'static str,
    /// What the body had and why it is tolerated for now.
    pub reason: &'static str,
}

/// Every tolerated disagreement (see [`KnownGap`]). The contract owner empties this list.
pub const KNOWN_GAPS: &[KnownGap] = &[];

/// Whether `GET path` (or `HEAD`) is one of the routes the app serves on purpose outside the
/// document (`api::PAGE_ROUTES`: the document itself, its HTML rendering with its assets,
/// `/` and the web client). Their answers are not checked.
pub fn outside_the_contract(method: &str, path: &str) -> bool {
    (method == "GET" || method == "HEAD")
        && api::PAGE_ROUTES
            .iter()
            .any(|template| match template.split_once('{') {
                // `/docs/assets/{file}`: every path under the prefix.
                Some((prefix, _)) => path.starts_with(prefix),
                None => path == *template,
            })
}

/// One way a response or a notification breaks the contract.
#[derive(Debug)]
pub struct Violation {
    /// What was checked: `GET /v1/games/g_x → 200`, or `webhook turn`.
    pub subject: String,
    /// What is wrong, with the schema and instance paths for a schema error.
    pub problems: Vec<String>,
    /// The body (truncated).
    pub body: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "contract violation: {}", self.subject)?;
        for problem in &self.problems {
            writeln!(f, "  - {problem}")?;
        }
        write!(f, "  body: {}", self.body)
    }
}

/// A response to check.
pub struct Response<'a> {
    /// The request's method (`GET`, `HEAD`, …).
    pub method: &'a str,
    /// The request's path, maybe with a query string (ignored).
    pub path: &'a str,
    /// The status.
    pub status: u16,
    /// Its headers (names in any case).
    pub headers: &'a [(String, String)],
    /// Its body.
    pub body: &'a [u8],
}

struct Route {
    method: String,
    template: String,
    /// `None` for a `{parameter}` segment.
    segments: Vec<Option<String>>,
}

/// The document, its routes, and the validators compiled so far.
pub struct Contract {
    doc: Value,
    registry: Registry<'static>,
    routes: Vec<Route>,
    validators: Mutex<HashMap<String, Result<Arc<Validator>, String>>>,
}

/// The contract of the code under test, built once per test binary.
pub fn contract() -> &'static Contract {
    static CONTRACT: OnceLock<Contract> = OnceLock::new();
    CONTRACT.get_or_init(|| Contract::new(api::openapi::spec(&service::registry())))
}

/// Panics with the violation if `response` breaks the contract of the code under test.
pub fn assert_response(response: &Response<'_>) {
    if let Err(violation) = contract().check_response(response) {
        panic!("{violation}");
    }
}

impl Contract {
    /// The contract stated by `doc`, an OpenAPI 3.1 document.
    pub fn new(doc: Value) -> Contract {
        let registry = Registry::new()
            .draft(Draft::Draft202012)
            .add(DOC_URI, doc.clone())
            .and_then(|builder| builder.prepare())
            .expect("the OpenAPI document is a valid schema resource");
        let mut routes = Vec::new();
        for (template, item) in doc["paths"].as_object().into_iter().flatten() {
            for method in [
                "get", "put", "post", "delete", "options", "head", "patch", "trace",
            ] {
                if item.get(method).is_some() {
                    routes.push(Route {
                        method: method.to_ascii_uppercase(),
                        template: template.clone(),
                        segments: template
                            .split('/')
                            .map(|segment| {
                                (!(segment.starts_with('{') && segment.ends_with('}')))
                                    .then(|| segment.to_string())
                            })
                            .collect(),
                    });
                }
            }
        }
        Contract {
            doc,
            registry,
            routes,
            validators: Mutex::new(HashMap::new()),
        }
    }

    /// The template of the route `method path` matches, preferring literal segments over
    /// parameters (as the router does); `None` when no operation matches.
    fn route(&self, method: &str, path: &str) -> Option<&Route> {
        let path = path.split(['?', '#']).next().unwrap_or("");
        let segments: Vec<&str> = path.split('/').collect();
        let method = if method == "HEAD" { "GET" } else { method };
        self.routes
            .iter()
            .filter(|route| route.method == method && route.segments.len() == segments.len())
            .filter(|route| {
                route
                    .segments
                    .iter()
                    .zip(&segments)
                    .all(|(expected, actual)| match expected {
                        Some(literal) => literal == actual,
                        None => !actual.is_empty(),
                    })
            })
            .max_by_key(|route| route.segments.iter().filter(|s| s.is_some()).count())
    }

    /// The validator of the schema at `pointer` (a JSON pointer into the document), compiled
    /// once.
    fn validator(&self, pointer: &str) -> Result<Arc<Validator>, String> {
        let mut cache = self
            .validators
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        cache
            .entry(pointer.to_string())
            .or_insert_with(|| {
                let schema =
                    serde_json::json!({ "$ref": format!("{DOC_URI}#{}", uri_fragment(pointer)) });
                jsonschema::options()
                    .with_draft(Draft::Draft202012)
                    .with_registry(&self.registry)
                    .build(&schema)
                    .map(Arc::new)
                    .map_err(|error| format!("the schema at {pointer} does not compile: {error}"))
            })
            .clone()
    }

    /// The schema errors of `instance` against the schema at `pointer`, each with its schema
    /// and instance path, less those [`KNOWN_GAPS`] tolerates for `operation` and `status`.
    fn schema_errors(
        &self,
        pointer: &str,
        instance: &Value,
        operation: &str,
        status: &str,
    ) -> Vec<String> {
        let validator = match self.validator(pointer) {
            Ok(validator) => validator,
            Err(error) => return vec![error],
        };
        validator
            .iter_errors(instance)
            .filter(|error| {
                let canonical = error.schema_path().to_string();
                let gap = KNOWN_GAPS.iter().position(|gap| {
                    gap.operation == operation
                        && (gap.status == "*" || gap.status == status)
                        && canonical.contains(gap.schema_path)
                });
                if let Some(index) = gap {
                    tolerated(index);
                }
                gap.is_none()
            })
            .map(|error| {
                format!(
                    "schema {pointer}: {error} (schema path {}, evaluation path {}, instance path {:?})",
                    error.schema_path(),
                    error.evaluation_path(),
                    error.instance_path().to_string()
                )
            })
            .collect()
    }

    /// Checks one response; `Err` says everything that is wrong with it.
    pub fn check_response(&self, response: &Response<'_>) -> Result<(), Violation> {
        let bare_path = response.path.split(['?', '#']).next().unwrap_or("");
        let check_body = response.method != "HEAD";
        let mut problems = Vec::new();
        let subject;
        match self.route(response.method, response.path) {
            None if outside_the_contract(response.method, bare_path) => {
                return Ok(());
            }
            None => {
                // No operation: a deliberately unknown route or method. Still a problem.
                subject = format!(
                    "{} {} → {} (no operation: must be a Problem)",
                    response.method, response.path, response.status
                );
                if !(400..600).contains(&response.status) {
                    problems.push(format!(
                        "status {} is not an error, but no operation matches",
                        response.status
                    ));
                }
                self.check_media_type(
                    response,
                    &["application/problem+json".to_string()],
                    &mut problems,
                );
                if check_body {
                    self.check_json_body(
                        response,
                        "/components/schemas/Problem",
                        "unknown route",
                        "*",
                        &mut problems,
                    );
                }
            }
            Some(route) => {
                let operation = format!("{} {}", route.method, route.template);
                subject = format!(
                    "{} {} ({operation}) → {}",
                    response.method, response.path, response.status
                );
                let operation_pointer = format!(
                    "/paths/{}/{}",
                    escape(&route.template),
                    route.method.to_ascii_lowercase()
                );
                let responses = &self
                    .doc
                    .pointer(&operation_pointer)
                    .expect("the route exists")["responses"];
                let code = response.status.to_string();
                let range = format!("{}XX", response.status / 100);
                let declared = [code.as_str(), range.as_str(), "default"]
                    .into_iter()
                    .find(|key| responses.get(*key).is_some());
                match declared {
                    None => {
                        let keys: Vec<&String> = responses
                            .as_object()
                            .into_iter()
                            .flatten()
                            .map(|(key, _)| key)
                            .collect();
                        problems.push(format!(
                            "status {} is not declared (declared: {keys:?})",
                            response.status
                        ));
                    }
                    Some(key) => {
                        let response_pointer = format!("{operation_pointer}/responses/{key}");
                        let declared = self.resolve(&response_pointer);
                        self.check_headers(response, &response_pointer, &declared.1, &mut problems);
                        let content = declared.1.get("content").and_then(Value::as_object);
                        match content {
                            Some(content) if !content.is_empty() => {
                                let types: Vec<String> = content.keys().cloned().collect();
                                let media = self.check_media_type(response, &types, &mut problems);
                                if let (true, Some(media)) = (check_body, media) {
                                    let has_schema = content[&media].get("schema").is_some();
                                    if has_schema && is_json(&media) {
                                        let pointer = format!(
                                            "{}/content/{}/schema",
                                            declared.0,
                                            escape(&media)
                                        );
                                        self.check_json_body(
                                            response,
                                            &pointer,
                                            &operation,
                                            key,
                                            &mut problems,
                                        );
                                    }
                                }
                            }
                            _ => {
                                if check_body && !response.body.is_empty() {
                                    problems.push(format!(
                                        "status {key} declares no content, but the body has {} bytes",
                                        response.body.len()
                                    ));
                                }
                            }
                        }
                    }
                }
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Violation {
                subject,
                problems,
                body: shown(response.body),
            })
        }
    }

    /// Follows a `$ref` at `pointer` (a response or header object may be one): the pointer
    /// of the object it names, and the object.
    fn resolve(&self, pointer: &str) -> (String, Value) {
        let mut pointer = pointer.to_string();
        for _ in 0..8 {
            let value = self.doc.pointer(&pointer).cloned().unwrap_or(Value::Null);
            match value.get("$ref").and_then(Value::as_str) {
                Some(reference) if reference.starts_with('#') => {
                    pointer = reference[1..].to_string();
                }
                _ => return (pointer, value),
            }
        }
        (pointer, Value::Null)
    }

    /// The response's media type must be one of `declared`; returns the one it is.
    fn check_media_type(
        &self,
        response: &Response<'_>,
        declared: &[String],
        problems: &mut Vec<String>,
    ) -> Option<String> {
        let actual = response
            .headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("content-type"))
            .map(|(_, value)| essence(value));
        let Some(actual) = actual else {
            if response.method == "HEAD" && response.body.is_empty() {
                return None;
            }
            problems.push(format!("no content-type; declared {declared:?}"));
            return None;
        };
        let found = declared.iter().find(|media| {
            let media = essence(media);
            media == actual
                || media == "*/*"
                || media
                    .strip_suffix("/*")
                    .is_some_and(|kind| actual.split('/').next() == Some(kind))
        });
        if found.is_none() {
            problems.push(format!(
                "content-type {actual} is not declared ({declared:?})"
            ));
        }
        found.cloned()
    }

    fn check_json_body(
        &self,
        response: &Response<'_>,
        schema_pointer: &str,
        operation: &str,
        status: &str,
        problems: &mut Vec<String>,
    ) {
        match serde_json::from_slice::<Value>(response.body) {
            Ok(body) => {
                problems.extend(self.schema_errors(schema_pointer, &body, operation, status))
            }
            Err(error) => problems.push(format!("the body is not JSON ({error})")),
        }
    }

    /// Declared headers: required ones present, present ones valid against their schema.
    fn check_headers(
        &self,
        response: &Response<'_>,
        response_pointer: &str,
        declared: &Value,
        problems: &mut Vec<String>,
    ) {
        for (name, header) in declared
            .get("headers")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let header_pointer = format!("{response_pointer}/headers/{}", escape(name));
            let (header_pointer, header) = if header.get("$ref").is_some() {
                self.resolve(&header_pointer)
            } else {
                (header_pointer, header.clone())
            };
            let values: Vec<&str> = response
                .headers
                .iter()
                .filter(|(actual, _)| actual.eq_ignore_ascii_case(name))
                .map(|(_, value)| value.as_str())
                .collect();
            if values.is_empty() {
                if header.get("required") == Some(&Value::Bool(true)) {
                    problems.push(format!("the required header {name} is missing"));
                }
                continue;
            }
            if header.get("schema").is_none() {
                continue;
            }
            for value in values {
                // A header's value is a string; a schema of another type sees it parsed.
                let instance = match header["schema"].get("type").and_then(Value::as_str) {
                    Some("integer" | "number" | "boolean") => {
                        serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.into()))
                    }
                    _ => Value::String(value.to_string()),
                };
                for error in
                    self.schema_errors(&format!("{header_pointer}/schema"), &instance, "", "")
                {
                    problems.push(format!("header {name}: {value:?}: {error}"));
                }
            }
        }
    }

    /// Checks one webhook notification body against `webhooks.<type>` of the document.
    /// A document without that webhook (or without a `webhooks` section) is not checked.
    pub fn check_webhook(&self, body: &[u8]) -> Result<(), Violation> {
        let violation = |subject: String, problems: Vec<String>| Violation {
            subject,
            problems,
            body: shown(body),
        };
        let parsed: Value = serde_json::from_slice(body).map_err(|error| {
            violation(
                "webhook".into(),
                vec![format!("the body is not JSON ({error})")],
            )
        })?;
        let Some(kind) = parsed.get("type").and_then(Value::as_str) else {
            return Err(violation(
                "webhook".into(),
                vec!["the body has no string `type`".into()],
            ));
        };
        let Some(webhooks) = self.doc.get("webhooks").and_then(Value::as_object) else {
            return Ok(()); // The document has no webhooks section yet.
        };
        if !webhooks.contains_key(kind) {
            let names: Vec<&String> = webhooks.keys().collect();
            return Err(violation(
                format!("webhook {kind}"),
                vec![format!(
                    "no webhook {kind:?} in the document (it has {names:?})"
                )],
            ));
        }
        let (request_pointer, request) =
            self.resolve(&format!("/webhooks/{}/post/requestBody", escape(kind)));
        if request
            .pointer("/content/application~1json/schema")
            .is_none()
        {
            return Err(violation(
                format!("webhook {kind}"),
                vec![format!("{request_pointer} has no application/json schema")],
            ));
        }
        let pointer = format!("{request_pointer}/content/application~1json/schema");
        let problems = self.schema_errors(&pointer, &parsed, &format!("webhook {kind}"), "*");
        if problems.is_empty() {
            Ok(())
        } else {
            Err(violation(format!("webhook {kind}"), problems))
        }
    }
}

/// Says once per test binary (on stderr) that the known gap `index` was met and tolerated, so
/// that a tolerated gap stays visible in `--nocapture` output.
fn tolerated(index: usize) {
    static SEEN: Mutex<Vec<usize>> = Mutex::new(Vec::new());
    let mut seen = SEEN.lock().unwrap_or_else(|poison| poison.into_inner());
    if !seen.contains(&index) {
        seen.push(index);
        let gap = &KNOWN_GAPS[index];
        eprintln!(
            "contract: tolerated known gap {} {} {}: {}",
            gap.operation, gap.status, gap.schema_path, gap.reason
        );
    }
}

/// A media type without parameters, lowercase.
fn essence(media: &str) -> String {
    media
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

fn is_json(media: &str) -> bool {
    let media = essence(media);
    media == "application/json" || media.ends_with("+json")
}

/// A JSON pointer token: `~` → `~0`, `/` → `~1`.
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// A JSON pointer as a URI fragment (RFC 6901 §6): bytes outside the fragment's characters
/// are percent-encoded (`{id}` → `%7Bid%7D`).
fn uri_fragment(pointer: &str) -> String {
    let mut fragment = String::new();
    for byte in pointer.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&byte) {
            fragment.push(byte as char);
        } else {
            fragment.push_str(&format!("%{byte:02X}"));
        }
    }
    fragment
}

/// A body for a failure message, truncated.
fn shown(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    if text.len() <= BODY_SHOWN {
        return text.into_owned();
    }
    let mut end = BODY_SHOWN;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], body.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A small document: one operation with a 201 (a body with a required field, a required
    /// header) and a 404 problem, and one webhook.
    fn document() -> Contract {
        Contract::new(json!({
            "openapi": "3.1.0",
            "info": {"title": "t", "version": "1"},
            "paths": {
                "/v1/things/{id}": {
                    "post": {
                        "responses": {
                            "201": {
                                "description": "made",
                                "headers": {
                                    "etag": {"required": true, "schema": {"type": "string", "pattern": "^\"[0-9]+\"$"}}
                                },
                                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}
                            },
                            "404": {
                                "description": "none",
                                "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
                            }
                        }
                    }
                },
                "/v1/things/{id}/parts": {
                    "delete": {"responses": {"204": {"description": "gone"}}}
                }
            },
            "webhooks": {
                "turn": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Turn"}}}}}}
            },
            "components": {"schemas": {
                "Thing": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}, "n": {"type": "integer", "minimum": 0}}},
                "Problem": {"type": "object", "required": ["status", "code"], "properties": {"status": {"type": "integer"}, "code": {"type": "string"}}},
                "Turn": {"type": "object", "required": ["type", "seat"], "properties": {"type": {"const": "turn"}, "seat": {"type": "integer", "minimum": 0}}}
            }}
        }))
    }

    fn headers(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }

    fn check(
        contract: &Contract,
        method: &str,
        path: &str,
        status: u16,
        pairs: &[(&str, &str)],
        body: &str,
    ) -> Result<(), Violation> {
        contract.check_response(&Response {
            method,
            path,
            status,
            headers: &headers(pairs),
            body: body.as_bytes(),
        })
    }

    const JSON: (&str, &str) = ("content-type", "application/json");
    const PROBLEM: (&str, &str) = ("content-type", "application/problem+json");

    #[test]
    fn a_response_as_declared_passes() {
        let contract = document();
        check(
            &contract,
            "POST",
            "/v1/things/a1?x=1",
            201,
            &[JSON, ("etag", "\"3\"")],
            r#"{"id": "a1", "n": 2}"#,
        )
        .unwrap();
        check(
            &contract,
            "POST",
            "/v1/things/a1",
            404,
            &[PROBLEM],
            r#"{"status": 404, "code": "x"}"#,
        )
        .unwrap();
        check(&contract, "DELETE", "/v1/things/a1/parts", 204, &[], "").unwrap();
        check(
            &contract,
            "GET",
            "/v1/nothing",
            404,
            &[PROBLEM],
            r#"{"status": 404, "code": "route-not-found"}"#,
        )
        .unwrap();
    }

    #[test]
    fn an_undeclared_status_fails() {
        let violation = check(
            &document(),
            "POST",
            "/v1/things/a1",
            409,
            &[PROBLEM],
            r#"{"status": 409, "code": "x"}"#,
        )
        .unwrap_err();
        assert!(
            violation.to_string().contains("status 409 is not declared"),
            "{violation}"
        );
    }

    #[test]
    fn a_missing_required_header_and_a_bad_header_fail() {
        let contract = document();
        let missing = check(
            &contract,
            "POST",
            "/v1/things/a1",
            201,
            &[JSON],
            r#"{"id": "a1"}"#,
        )
        .unwrap_err();
        assert!(
            missing
                .to_string()
                .contains("required header etag is missing"),
            "{missing}"
        );
        let bad = check(
            &contract,
            "POST",
            "/v1/things/a1",
            201,
            &[JSON, ("etag", "W/x")],
            r#"{"id": "a1"}"#,
        )
        .unwrap_err();
        assert!(bad.to_string().contains("header etag"), "{bad}");
    }

    #[test]
    fn a_bad_body_fails_with_its_schema_and_instance_paths() {
        let contract = document();
        let violation = check(
            &contract,
            "POST",
            "/v1/things/a1",
            201,
            &[JSON, ("etag", "\"3\"")],
            r#"{"id": "a1", "n": -1}"#,
        )
        .unwrap_err();
        let message = violation.to_string();
        assert!(message.contains("POST /v1/things/a1"), "{message}");
        assert!(message.contains("/properties/n/minimum"), "{message}");
        assert!(message.contains("\"/n\""), "{message}");
        let missing = check(
            &contract,
            "POST",
            "/v1/things/a1",
            201,
            &[JSON, ("etag", "\"3\"")],
            r#"{"n": 1}"#,
        )
        .unwrap_err();
        assert!(missing.to_string().contains("required"), "{missing}");
        let not_json = check(
            &contract,
            "POST",
            "/v1/things/a1",
            201,
            &[JSON, ("etag", "\"3\"")],
            "oops",
        )
        .unwrap_err();
        assert!(not_json.to_string().contains("not JSON"), "{not_json}");
    }

    #[test]
    fn a_wrong_content_type_or_an_unexpected_body_fails() {
        let contract = document();
        let text = check(
            &contract,
            "POST",
            "/v1/things/a1",
            404,
            &[("content-type", "text/plain")],
            "no",
        )
        .unwrap_err();
        assert!(
            text.to_string()
                .contains("content-type text/plain is not declared"),
            "{text}"
        );
        let body = check(
            &contract,
            "DELETE",
            "/v1/things/a1/parts",
            204,
            &[JSON],
            "{}",
        )
        .unwrap_err();
        assert!(body.to_string().contains("declares no content"), "{body}");
    }

    #[test]
    fn an_unknown_route_must_answer_a_problem() {
        let contract = document();
        let ok = check(&contract, "GET", "/v1/nothing", 200, &[JSON], "{}").unwrap_err();
        assert!(ok.to_string().contains("no operation"), "{ok}");
        let plain = check(
            &contract,
            "GET",
            "/v1/nothing",
            404,
            &[("content-type", "text/plain")],
            "Not Found",
        )
        .unwrap_err();
        assert!(plain.to_string().contains("not declared"), "{plain}");
        let shape = check(
            &contract,
            "PUT",
            "/v1/things/a1",
            405,
            &[PROBLEM],
            r#"{"status": "405"}"#,
        )
        .unwrap_err();
        assert!(
            shape.to_string().contains("/components/schemas/Problem"),
            "{shape}"
        );
    }

    #[test]
    fn webhook_bodies_are_checked_against_their_webhook() {
        let contract = document();
        contract
            .check_webhook(br#"{"type": "turn", "seat": 1}"#)
            .unwrap();
        let bad = contract
            .check_webhook(br#"{"type": "turn", "seat": "one"}"#)
            .unwrap_err();
        assert!(bad.to_string().contains("/seat"), "{bad}");
        let unknown = contract
            .check_webhook(br#"{"type": "gossip"}"#)
            .unwrap_err();
        assert!(
            unknown.to_string().contains("no webhook \"gossip\""),
            "{unknown}"
        );
        assert!(contract.check_webhook(b"not json").is_err());
    }

    #[test]
    fn a_document_without_webhooks_checks_none() {
        let contract =
            Contract::new(json!({"openapi": "3.1.0", "paths": {}, "components": {"schemas": {}}}));
        contract
            .check_webhook(br#"{"type": "turn", "seat": "one"}"#)
            .unwrap();
    }

    #[test]
    fn the_document_of_the_code_compiles_and_every_response_schema_compiles() {
        let contract = contract();
        for (template, item) in contract.doc["paths"].as_object().expect("paths") {
            for (method, operation) in item.as_object().expect("an item") {
                for (status, response) in operation["responses"].as_object().expect("responses") {
                    for media in response
                        .get("content")
                        .and_then(Value::as_object)
                        .into_iter()
                        .flatten()
                        .map(|(m, _)| m)
                    {
                        let pointer = format!(
                            "/paths/{}/{method}/responses/{status}/content/{}/schema",
                            escape(template),
                            escape(media)
                        );
                        contract.validator(&pointer).unwrap();
                    }
                }
            }
        }
    }
}
