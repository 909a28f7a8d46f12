//! The OpenAPI document: utoipa describes the routes and DTOs; every registered game adds its
//! options, action, view and event schemas, and the game-specific fields of the DTOs are
//! narrowed to the `anyOf` of those schemas.

use crate::{audit, dto, error};
use game_core::{DynRuleset, Registry};
use serde_json::{json, Map, Value};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

/// The routes and shared schemas.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Beurs",
        description = "Rules as a service for speculative-market board games: create games, claim seats, read each seat's view, list legal moves and submit them. Every shuffle and die roll is auditable from a committed seed.",
        license(name = "MIT"),
    ),
    components(schemas(
        error::Problem,
        dto::RulesetInfo, dto::RulesetList, dto::CreateGame, dto::CreatedGame, dto::ClaimSeat,
        dto::ClaimedSeat, dto::SeatInfo, dto::You, dto::GameEnvelope, dto::GameSummary,
        dto::GameList, dto::LegalActions, dto::SubmitAction, dto::ActionResult, dto::LogItem,
        dto::LogPage, audit::Audit, audit::AuditEntry, game_core::Outcome, dto::WebhookEvent,
        dto::CreateWebhook, dto::Webhook, dto::CreatedWebhook, dto::WebhookList,
        dto::DeliveryAttempt, dto::Delivery, dto::DeliveryList,
    )),
    modifiers(&BearerAuth),
    tags(
        (name = "rulesets", description = "The games on offer"),
        (name = "games", description = "Creating, listing, reading and auditing games"),
        (name = "seats", description = "Joining a game"),
        (name = "actions", description = "Playing: legal moves and submitting them"),
        (name = "webhooks", description = "Signed notifications: subscriptions and deliveries"),
    )
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "a seat token (bt_seat_…) or the admin token (bt_admin_…)",
                    ))
                    .build(),
            ),
        );
    }
}

fn schema_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

/// The complete OpenAPI document as JSON.
pub fn spec(registry: &Registry) -> Value {
    // The paths come from the one route list ([`crate::api_routes`]).
    let (_, openapi) = crate::api_routes().split_for_parts();
    let mut doc = serde_json::to_value(openapi).expect("the OpenAPI document serializes");
    let mut options = Vec::new();
    let mut actions = Vec::new();
    let mut views = Vec::new();
    let mut events = Vec::new();
    let schemas = doc["components"]["schemas"]
        .as_object_mut()
        .expect("components.schemas exists");
    for ruleset in registry.iter() {
        let game = ruleset.schemas();
        for (name, schema) in game.components.into_iter().chain([
            game.options.clone(),
            game.action.clone(),
            game.view.clone(),
            game.event.clone(),
        ]) {
            schemas.insert(
                name,
                serde_json::to_value(schema).expect("schemas serialize"),
            );
        }
        options.push(schema_ref(&game.options.0));
        actions.push(schema_ref(&game.action.0));
        views.push(schema_ref(&game.view.0));
        events.push(schema_ref(&game.event.0));
    }
    let any_of = |refs: &[Value], description: &str, nullable: bool| {
        let mut any_of = refs.to_vec();
        if nullable {
            any_of.push(json!({"type": "null"}));
        }
        json!({ "anyOf": any_of, "description": description })
    };
    // One variant per ruleset, so the schema states each ruleset's seat range and options.
    let variants: Vec<Value> = registry
        .iter()
        .zip(&options)
        .map(|(ruleset, options_ref)| {
            let (min_seats, max_seats) = ruleset.seat_range();
            json!({
                "type": "object",
                "title": ruleset.id(),
                "required": ["ruleset", "seats"],
                "additionalProperties": false,
                "properties": {
                    "ruleset": {"type": "string", "const": ruleset.id(), "description": "the ruleset id (see `GET /v1/rulesets`)"},
                    "seats": {"type": "integer", "minimum": min_seats, "maximum": max_seats, "description": "number of seats"},
                    "options": {"anyOf": [options_ref, {"type": "null"}], "description": "the ruleset's options; omitted fields take their defaults"},
                    "invite_only": {"type": "boolean", "description": "when true, only the admin may claim seats and the game is not listed in the lobby"}
                }
            })
        })
        .collect();
    schemas["CreateGame"] =
        json!({"description": "Create a game of one ruleset.", "oneOf": variants});
    // Actions are internally tagged enums that refuse unknown fields: say so per variant.
    for action in &actions {
        let name = action["$ref"]
            .as_str()
            .unwrap_or_default()
            .trim_start_matches("#/components/schemas/")
            .to_string();
        let variants = schemas
            .get_mut(&name)
            .and_then(|schema| schema.get_mut("oneOf"))
            .and_then(Value::as_array_mut);
        for variant in variants.into_iter().flatten() {
            if variant["type"] == "object" {
                variant["additionalProperties"] = Value::Bool(false);
            }
        }
    }
    for schema in schemas.values_mut() {
        bound_integers(schema);
    }
    let mut set = |schema: &str, property: &str, value: Value| {
        schemas[schema]["properties"][property] = value;
    };
    set(
        "SubmitAction",
        "action",
        any_of(&actions, "an action of the game's ruleset", false),
    );
    set(
        "GameEnvelope",
        "view",
        any_of(
            &views,
            "the caller's view (null until the game starts)",
            true,
        ),
    );
    set(
        "ActionResult",
        "view",
        any_of(&views, "the caller's view after the move", false),
    );
    let event_list = json!({ "type": "array", "items": any_of(&events, "an event of the game's ruleset", false) });
    set("ActionResult", "events", event_list.clone());
    set("LogItem", "events", event_list);
    set(
        "LogItem",
        "action",
        any_of(
            &actions,
            "the action, or null if hidden from the caller or for the setup",
            true,
        ),
    );
    headers_are_never_null(&mut doc);
    crate::reference::decorate(&mut doc);
    doc
}

/// An optional header is absent or a string: utoipa writes `Option<String>` as
/// `["string", "null"]`, which would tell clients (and schemathesis) that the text `null` is a
/// valid `If-Match`.
fn headers_are_never_null(doc: &mut Value) {
    let Some(paths) = doc["paths"].as_object_mut() else {
        return;
    };
    for operation in paths.values_mut().filter_map(Value::as_object_mut) {
        for parameter in operation
            .values_mut()
            .filter_map(|operation| operation.get_mut("parameters")?.as_array_mut())
            .flatten()
        {
            if parameter["in"] == "header" {
                if let Some(types) = parameter["schema"]["type"].as_array() {
                    let types: Vec<Value> = types
                        .iter()
                        .filter(|kind| *kind != "null")
                        .cloned()
                        .collect();
                    parameter["schema"]["type"] = match types.as_slice() {
                        [only] => only.clone(),
                        _ => Value::Array(types),
                    };
                }
            }
        }
    }
}

/// Rust integer types reach the schema as `format: u-int8`, `int16`, … (utoipa's
/// `non_strict_integers`). JSON Schema validators know only `int32`/`int64`, so state each
/// type's exact range as `minimum`/`maximum` (keeping tighter bounds already given) and keep
/// the standard format name. A client is then never refused for a number the schema allows.
fn bound_integers(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            let range: Option<(i128, i128, &str)> =
                match object.get("format").and_then(Value::as_str) {
                    Some("uint8" | "u-int8") => Some((0, u8::MAX.into(), "int32")),
                    Some("uint16" | "u-int16") => Some((0, u16::MAX.into(), "int32")),
                    Some("uint32" | "u-int32") => Some((0, u32::MAX.into(), "int64")),
                    Some("uint64" | "u-int64") => Some((0, i64::MAX.into(), "int64")),
                    Some("int8") => Some((i8::MIN.into(), i8::MAX.into(), "int32")),
                    Some("int16") => Some((i16::MIN.into(), i16::MAX.into(), "int32")),
                    Some("int32") => Some((i32::MIN.into(), i32::MAX.into(), "int32")),
                    Some("int64") => Some((i64::MIN.into(), i64::MAX.into(), "int64")),
                    _ => None,
                };
            if let Some((low, high, format)) = range {
                let given = |key: &str| {
                    object
                        .get(key)
                        .and_then(Value::as_f64)
                        .map(|bound| bound as i128)
                };
                let minimum = given("minimum").map_or(low, |bound| bound.max(low));
                let maximum = given("maximum").map_or(high, |bound| bound.min(high));
                object.insert("minimum".into(), json!(minimum as i64));
                object.insert("maximum".into(), json!(maximum as i64));
                object.insert("format".into(), json!(format));
            }
            object.values_mut().for_each(bound_integers);
        }
        Value::Array(items) => items.iter_mut().for_each(bound_integers),
        _ => {}
    }
}

/// The `type` tags of a ruleset's actions, read from its action schema (`oneOf` variants with
/// a one-value `type` enum or const).
pub fn action_types(ruleset: &dyn DynRuleset) -> Vec<String> {
    let schema = serde_json::to_value(ruleset.schemas().action.1).expect("schemas serialize");
    let variants = schema["oneOf"].as_array().cloned().unwrap_or_default();
    variants
        .iter()
        .filter_map(|variant| {
            let tag = &variant["properties"]["type"];
            tag["enum"][0]
                .as_str()
                .or_else(|| tag["const"].as_str())
                .map(str::to_string)
        })
        .collect()
}

/// The JSON Schema of a ruleset's options, with every reference inlined.
pub fn options_schema(ruleset: &dyn DynRuleset) -> Value {
    let game = ruleset.schemas();
    let mut components = Map::new();
    for (name, schema) in game.components {
        components.insert(
            name,
            serde_json::to_value(schema).expect("schemas serialize"),
        );
    }
    let mut schema = inline_refs(
        serde_json::to_value(game.options.1).expect("schemas serialize"),
        &components,
        0,
    );
    bound_integers(&mut schema);
    schema
}

fn inline_refs(value: Value, components: &Map<String, Value>, depth: usize) -> Value {
    match value {
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get("$ref") {
                let name = reference.trim_start_matches("#/components/schemas/");
                if let Some(target) = components.get(name).filter(|_| depth < 16) {
                    return inline_refs(target.clone(), components, depth + 1);
                }
            }
            Value::Object(
                object
                    .into_iter()
                    .map(|(key, value)| (key, inline_refs(value, components, depth)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|item| inline_refs(item, components, depth))
                .collect(),
        ),
        other => other,
    }
}
