//! The OpenAPI document: utoipa describes the routes and DTOs; every registered game adds its
//! options, action, view and event schemas, and the game-specific fields of the DTOs are
//! narrowed to the `anyOf` of those schemas.

use crate::error;
use game_core::Registry;
use serde_json::{json, Map, Value};
use service::audit;
use service::catalog::bound_integers;
use service::dto;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

/// The routes and shared schemas.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Beurs",
        version = "1.4.0",
        description = "Rules as a service for speculative-market board games: create games, claim seats, read each seat's view, list legal moves and submit them. Every shuffle and die roll is auditable from a committed seed.",
        license(name = "MIT"),
    ),
    components(schemas(
        error::Problem,
        dto::RulesetInfo, dto::RulesetList, dto::CreateGame, dto::CreatedGame, dto::ClaimSeat,
        dto::ClaimedSeat, dto::SeatInfo, dto::You, dto::GameEnvelope, dto::GameSummary,
        dto::GameList, dto::Include, dto::LegalActions, dto::SubmitAction, dto::ActionResult, dto::LogItem,
        dto::LogPage, audit::Audit, audit::AuditEntry, game_core::Outcome, dto::WebhookEvent,
        dto::CreateWebhook, dto::Webhook, dto::CreatedWebhook, dto::WebhookList,
        dto::DeliveryAttempt, dto::Delivery, dto::DeliveryList, dto::GameStatus,
        dto::DeliveryStatus, dto::SeatCountWithOptions, dto::TurnData, dto::ActionData,
        dto::FinishedData, dto::ReminderData, dto::TimeoutData, dto::Author,
    )),
    modifiers(&BearerAuth),
    tags(
        (name = "rulesets", description = "The games on offer"),
        (name = "games", description = "Creating, listing, reading and auditing games"),
        (name = "seats", description = "Joining a game, seats for bots, resigning, replacing a player"),
        (name = "actions", description = "Playing: legal moves and submitting them"),
        (name = "webhooks", description = "Signed notifications: subscriptions and deliveries"),
        (name = "apps", description = "The operator's apps and their API keys (docs/apps.md)"),
        (name = "players", description = "An app's players: tokens that follow a player across the app's games, and each player's games"),
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
                        "a seat token (bt_seat_…), the admin token (bt_admin_…), a player token (bp_…: the seat token of its player in each game of its app they sit in), or an app's API key (bk_…) with the scopes the operation needs (docs/apps.md): games:create, games:admin, bots:seat, webhooks:manage, games:read",
                    ))
                    .build(),
            ),
        );
    }
}

fn schema_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

/// The names of one ruleset's schemas: its id (`tulipmania-1637`), the prefix of its
/// schemas (`tulipmania`) and the names of its options, action, view and event schemas.
struct Game {
    id: String,
    prefix: String,
    options: String,
    action: String,
    view: String,
    event: String,
}

impl Game {
    /// The reference to this game's schema `name`: `Options`, `Action`, `View` and `Event`
    /// are the game's own; any other name is one this document adds (`tulipmania.LogItem`).
    fn schema(&self, name: &str) -> Value {
        schema_ref(&self.name(name))
    }

    fn name(&self, name: &str) -> String {
        match name {
            "Options" => self.options.clone(),
            "Action" => self.action.clone(),
            "View" => self.view.clone(),
            "Event" => self.event.clone(),
            other => format!("{}.{other}", self.prefix),
        }
    }
}

/// The complete OpenAPI document as JSON.
pub fn spec(registry: &Registry) -> Value {
    spec_for(registry, &service::catalog::ruleset_list(registry))
}

/// [`spec`], given what `GET /v1/rulesets` answers for `registry` (a caller that has the
/// list already, built once with the options schemas it inlines, passes it).
pub fn spec_for(registry: &Registry, rulesets: &dto::RulesetList) -> Value {
    // The paths come from the one route list ([`crate::routes::api_routes`]).
    let (_, paths) = crate::routes::api_routes().split_for_parts();
    let mut openapi = ApiDoc::openapi();
    openapi.merge(paths);
    let mut doc = serde_json::to_value(openapi).expect("the OpenAPI document serializes");
    let mut games = Vec::new();
    let schemas = doc["components"]["schemas"]
        .as_object_mut()
        .expect("components.schemas exists");
    for ruleset in registry.iter() {
        let game = ruleset.schemas();
        let prefix = game
            .action
            .0
            .split_once('.')
            .map_or(game.action.0.as_str(), |(prefix, _)| prefix)
            .to_string();
        games.push(Game {
            id: ruleset.id().to_string(),
            prefix,
            options: game.options.0.clone(),
            action: game.action.0.clone(),
            view: game.view.0.clone(),
            event: game.event.0.clone(),
        });
        for (name, schema) in
            game.components
                .into_iter()
                .chain([game.options, game.action, game.view, game.event])
        {
            schemas.insert(
                name,
                serde_json::to_value(schema).expect("schemas serialize"),
            );
        }
    }
    schemas.insert("CreateGame".into(), create_game(&games, rulesets, schemas));
    shared_schemas(schemas, registry);
    // A seat goes to a player (`name`) or to a bot (`bot`), exactly one: said in the schema, so
    // that a body the contract allows is one the server takes (utoipa-gen 5.5 writes a
    // `min_properties` attribute as `maxProperties`, so both are set here).
    if let Some(replace) = schemas.get_mut("ReplaceSeat") {
        replace["minProperties"] = 1.into();
        replace["maxProperties"] = 1.into();
    }
    // Every response and notification that carries a game's JSON is one variant per ruleset,
    // told apart by its `ruleset` property, so a client narrows the view, actions and events
    // by testing `ruleset`.
    for game in &games {
        // Actions are internally tagged enums that refuse unknown fields: say so per variant.
        let variants = schemas
            .get_mut(&game.name("Action"))
            .and_then(|schema| schema.get_mut("oneOf"))
            .and_then(Value::as_array_mut);
        for variant in variants.into_iter().flatten() {
            if variant["type"] == "object" {
                variant["additionalProperties"] = Value::Bool(false);
            }
        }
        let view = game.schema("View");
        let action = game.schema("Action");
        // What a seat may send and list (its game's actions and the undo move), and what a
        // log entry may hold (its game's actions, the undo entry and the clocks' notes).
        let playable = json!({"anyOf": [action, schema_ref("Undo")]});
        let logged = json!({"anyOf": [
            action,
            schema_ref("UndoEntry"),
            schema_ref("PauseNote"),
            schema_ref("VacationNote"),
        ]});
        let events = json!({"type": "array", "items": game.schema("Event")});
        let maybe = |schema: &Value| json!({"anyOf": [schema, {"type": "null"}]});
        let described = |mut schema: Value, description: &str| {
            schema["description"] = description.into();
            schema
        };
        schemas.insert(
            game.name("LegalMove"),
            json!({
                "type": "object",
                "description": "A complete action: submit it as it is.",
                "required": ["action", "label", "text", "sealed"],
                "additionalProperties": false,
                "properties": {
                    "action": playable,
                    "label": {
                        "type": "string",
                        "description": "The move as a button's label: a short imperative with the prices, colours and names that decide it (\"Bid ƒ17\", \"Offer a red tulip for sale at ƒ250\").",
                    },
                    "text": {
                        "type": "string",
                        "description": "The move in words, as the log will say it once it is played (\"Anna bought a red tulip for ƒ250.\").",
                    },
                    "sealed": {
                        "type": "boolean",
                        "description": "Whether the move is sealed: once played, the other seats see only that a move was made (the log shows them no action), until the events reveal it.",
                    },
                },
            }),
        );
        let specialised: [(&str, Vec<(&str, Value)>); 9] = [
            (
                "GameEnvelope",
                vec![
                    ("view", maybe(&view)),
                    (
                        "legal_actions",
                        described(
                            game.schema("LegalActions"),
                            "The caller's legal actions at `version`: present only when asked for with `include=legal_actions`, by a seat token, once the game has started.",
                        ),
                    ),
                ],
            ),
            (
                "ActionResult",
                vec![
                    ("view", view.clone()),
                    ("events", events.clone()),
                    (
                        "legal_actions",
                        described(
                            game.schema("LegalActions"),
                            "The caller's legal actions now: present only when asked for with `include=legal_actions`. Their `version` is the game's version when the answer was made, later than this move's `version` if bots moved after it.",
                        ),
                    ),
                ],
            ),
            (
                "LegalActions",
                vec![(
                    "actions",
                    json!({"type": "array", "items": {"oneOf": [
                        game.schema("LegalMove"),
                        schema_ref("LegalActionFamily"),
                    ]}}),
                )],
            ),
            (
                "LogItem",
                vec![("action", maybe(&logged)), ("events", events.clone())],
            ),
            (
                "LogPage",
                vec![(
                    "entries",
                    json!({"type": "array", "items": game.schema("LogItem")}),
                )],
            ),
            (
                "AuditEntry",
                vec![
                    ("action", maybe(&logged)),
                    (
                        "events",
                        json!({"type": "array", "items": {"anyOf": [
                            game.schema("Event"),
                            game.schema("LoggedEvent"),
                        ]}}),
                    ),
                ],
            ),
            (
                "Audit",
                vec![
                    ("options", game.schema("Options")),
                    (
                        "entries",
                        json!({"type": "array", "items": game.schema("AuditEntry")}),
                    ),
                ],
            ),
            ("TurnData", vec![("view", view.clone())]),
            ("FinishedData", vec![("view", view.clone())]),
        ];
        for (base, fields) in specialised {
            let mut schema = schemas[base].clone();
            for (field, value) in fields {
                let description = schema["properties"][field]["description"].clone();
                let mut value = value;
                if let (Some(object), Value::String(_)) = (value.as_object_mut(), &description) {
                    object.insert("description".into(), description);
                }
                schema["properties"][field] = value;
            }
            if schema["properties"].get("ruleset").is_some() {
                schema["properties"]["ruleset"] =
                    json!({"type": "string", "const": game.id, "description": "the ruleset id"});
            }
            schemas.insert(game.name(base), schema);
        }
        let mut action_data = schemas["ActionData"].clone();
        action_data["properties"]["action"] = maybe(&logged);
        action_data["properties"]["events"] = events.clone();
        action_data["properties"]["ruleset"] =
            json!({"type": "string", "const": game.id, "description": "the ruleset id"});
        schemas.insert(game.name("ActionData"), action_data);
        schemas.insert(
            game.name("LoggedEvent"),
            json!({
                "type": "object",
                "description": "An event of a finished game's audit, with who could see it.",
                "required": ["visibility", "event"],
                "additionalProperties": false,
                "properties": {
                    "visibility": schema_ref("Visibility"),
                    "event": game.schema("Event"),
                },
            }),
        );
    }
    for base in [
        "GameEnvelope",
        "ActionResult",
        "LegalActions",
        "LogPage",
        "Audit",
        "TurnData",
        "ActionData",
        "FinishedData",
    ] {
        let description = schemas[base]["description"].clone();
        let refs: Vec<Value> = games.iter().map(|game| game.schema(base)).collect();
        let mapping: Map<String, Value> = games
            .iter()
            .map(|game| {
                (
                    game.id.clone(),
                    Value::String(format!("#/components/schemas/{}", game.name(base))),
                )
            })
            .collect();
        schemas.insert(
            base.into(),
            json!({
                "description": description,
                "oneOf": refs,
                "discriminator": {"propertyName": "ruleset", "mapping": mapping},
            }),
        );
    }
    // Only their per-ruleset forms are used.
    schemas.remove("LogItem");
    schemas.remove("AuditEntry");
    let actions: Vec<Value> = games
        .iter()
        .map(|game| game.schema("Action"))
        .chain([schema_ref("Undo")])
        .collect();
    schemas["SubmitAction"]["properties"]["action"] = json!({
        "anyOf": actions,
        "description": "An action of the game's ruleset, e.g. `{\"type\": \"commit_card\", \"card\": \"speculate\"}`: one of the `action`s listed by `GET …/legal-actions`, or an instance of one of its schemas. `{\"type\": \"undo\"}` takes back the seat's last move while it may.",
    });
    schemas.insert(
        "Undo".into(),
        json!({
            "type": "object",
            "title": "Undo",
            "description": "Take back your last move. Listed by `GET …/legal-actions` while the seat may: until another seat acts, and never once the move rolled, drew, revealed or sealed something (docs/api.md, \"Undo\").",
            "required": ["type"],
            "additionalProperties": false,
            "properties": {"type": {"type": "string", "const": "undo"}},
        }),
    );
    schemas.insert(
        "UndoEntry".into(),
        json!({
            "type": "object",
            "title": "UndoEntry",
            "description": "A move taken back, as the log records it: `move` is the log entry of the move undone.",
            "required": ["type", "move"],
            "additionalProperties": false,
            "properties": {
                "type": {"type": "string", "const": "undo"},
                "move": {"type": "integer", "format": "int64", "minimum": 1},
            },
        }),
    );
    schemas.insert(
        "PauseNote".into(),
        json!({
            "type": "object",
            "title": "PauseNote",
            "description": "The admin paused every clock (`pause`) or started them again (`resume`), as the log records it; the entry's `seat` is null. A note changes nothing in the game (docs/api.md, \"Pauses and vacations\").",
            "required": ["type"],
            "additionalProperties": false,
            "properties": {"type": {"type": "string", "enum": ["pause", "resume"]}},
        }),
    );
    schemas.insert(
        "VacationNote".into(),
        json!({
            "type": "object",
            "title": "VacationNote",
            "description": "The entry's seat went on vacation (`on`: true) or came back (`on`: false; `ran_out` when its allowance ran out), as the log records it. A note changes nothing in the game.",
            "required": ["type", "on"],
            "additionalProperties": false,
            "properties": {
                "type": {"type": "string", "const": "vacation"},
                "on": {"type": "boolean"},
                "ran_out": {"type": "boolean"},
            },
        }),
    );
    schemas["RulesetInfo"]["properties"]["options_schema"] = json!({
        "$ref": "#/components/schemas/JsonSchema",
        "description": "A JSON Schema of the `options` object accepted by `POST /v1/games`.",
    });
    for schema in schemas.values_mut() {
        single_values_are_const(schema);
        no_single_choices(schema);
        bound_integers(schema);
    }
    webhooks(&mut doc);
    finish_operations(&mut doc);
    headers_are_never_null(&mut doc);
    crate::reference::decorate(&mut doc, registry, rulesets);
    doc
}

/// `CreateGame`: one variant per ruleset, so the schema states each ruleset's seat counts and
/// options. A seat count that needs an option is allowed by `seats` and made conditional on
/// that option by an `if`/`then`.
fn create_game(games: &[Game], rulesets: &dto::RulesetList, schemas: &Map<String, Value>) -> Value {
    let mut variants = Vec::new();
    for (game, info) in games.iter().zip(&rulesets.rulesets) {
        let lowest = info
            .seats_with_options
            .iter()
            .map(|unlocked| unlocked.seats)
            .chain([info.min_seats])
            .min()
            .unwrap_or(info.min_seats);
        let highest = info
            .seats_with_options
            .iter()
            .map(|unlocked| unlocked.seats)
            .chain([info.max_seats])
            .max()
            .unwrap_or(info.max_seats);
        let conditions: Vec<Value> = info
            .seats_with_options
            .iter()
            .map(|unlocked| {
                let options = unlocked.options.as_object().cloned().unwrap_or_default();
                let required: Vec<&String> = options.keys().collect();
                let consts: Map<String, Value> = options
                    .iter()
                    .map(|(name, value)| (name.clone(), json!({ "const": value })))
                    .collect();
                json!({
                    "if": {"properties": {"seats": {"const": unlocked.seats}}},
                    "then": {
                        "required": ["options"],
                        "properties": {"options": {"type": "object", "required": required, "properties": consts}},
                    },
                })
            })
            .collect();
        let seats_description = if info.seats_with_options.is_empty() {
            "number of seats".to_string()
        } else {
            let unlocked: Vec<String> = info
                .seats_with_options
                .iter()
                .map(|unlocked| {
                    format!(
                        "{} seats need the options {}",
                        unlocked.seats, unlocked.options
                    )
                })
                .collect();
            format!(
                "number of seats: {} to {} with the default options; {}",
                info.min_seats,
                info.max_seats,
                unlocked.join("; ")
            )
        };
        let mut variant = json!({
            "type": "object",
            "title": info.id,
            "required": ["ruleset", "seats"],
            "additionalProperties": false,
            "properties": {
                "ruleset": {"type": "string", "const": info.id, "description": "the ruleset id (see `GET /v1/rulesets`)"},
                "seats": {"type": "integer", "minimum": lowest, "maximum": highest, "description": seats_description},
                "options": {"anyOf": [game.schema("Options"), {"type": "null"}], "description": "the ruleset's options; omitted fields take their defaults"},
                "invite_only": {"type": "boolean", "description": "when true, only the admin may claim seats and the game is not listed in the lobby"}
            }
        });
        if !conditions.is_empty() {
            variant["allOf"] = Value::Array(conditions);
        }
        variants.push(variant);
    }
    let description = schemas
        .get("CreateGame")
        .and_then(|schema| schema.get("description"))
        .cloned()
        .unwrap_or_else(|| json!("Create a game."));
    json!({"description": description, "oneOf": variants})
}

/// The schemas that are written here rather than derived: the subset of JSON Schema that
/// legal actions and options use, visibilities, legal-action families, problem codes and
/// notification envelopes.
fn shared_schemas(schemas: &mut Map<String, Value>, registry: &Registry) {
    let int = json!({"type": "integer", "minimum": 0});
    schemas.insert(
        "JsonSchema".into(),
        json!({
            "description": "A JSON Schema (draft 2020-12). Legal actions and options use the keywords listed here, with integers bounded and strings enumerated. Three extensions state what JSON Schema cannot: `x-sum-of-values` (the values of this object must add up to this number), `x-refused-with` (the problem code the rules answer when the constraint is broken) and `x-enum-labels` (each `enum` value in words, in the same order, for a button or a checkbox).",
            "type": ["object", "boolean"],
            "properties": {
                "type": {"anyOf": [
                    {"$ref": "#/components/schemas/JsonType"},
                    {"type": "array", "items": {"$ref": "#/components/schemas/JsonType"}},
                ]},
                "const": {"description": "the only value allowed (any JSON)"},
                "enum": {"type": "array", "items": {}, "description": "the values allowed"},
                "oneOf": {"type": "array", "items": {"$ref": "#/components/schemas/JsonSchema"}},
                "anyOf": {"type": "array", "items": {"$ref": "#/components/schemas/JsonSchema"}},
                "allOf": {"type": "array", "items": {"$ref": "#/components/schemas/JsonSchema"}},
                "properties": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/JsonSchema"}},
                "required": {"type": "array", "items": {"type": "string"}},
                "additionalProperties": {"$ref": "#/components/schemas/JsonSchema"},
                "propertyNames": {"$ref": "#/components/schemas/JsonSchema"},
                "items": {"$ref": "#/components/schemas/JsonSchema"},
                "minItems": int, "maxItems": int, "uniqueItems": {"type": "boolean"},
                "minProperties": int, "maxProperties": int,
                "minLength": int, "maxLength": int, "pattern": {"type": "string"},
                "minimum": {"type": "number"}, "maximum": {"type": "number"},
                "format": {"type": "string"},
                "title": {"type": "string"}, "description": {"type": "string"},
                "default": {"description": "the value taken when the property is omitted"},
                "examples": {"type": "array", "items": {}},
                "x-sum-of-values": {"type": "integer", "description": "the values of this object must add up to this number"},
                "x-refused-with": {"type": "string", "description": "the problem `code` the rules answer when this schema's constraint is broken"},
                "x-enum-labels": {"type": "array", "items": {"type": "string"}, "description": "each value of `enum` in words, in the same order"},
            },
        }),
    );
    schemas.insert(
        "JsonType".into(),
        json!({"type": "string", "enum": ["null", "boolean", "integer", "number", "string", "array", "object"]}),
    );
    schemas.insert(
        "LegalActionFamily".into(),
        json!({
            "type": "object",
            "description": "A family of actions: build one that matches `schema` (the rules still have the final word). A move that picks several items at once (the tulips to bid on, the cards to discard) is one family whose array of items (`enum` with `x-enum-labels`, `uniqueItems`, `minItems` to `maxItems`) a client fills one item at a time; every such combination is legal.",
            "required": ["label", "schema"],
            "additionalProperties": false,
            "properties": {
                "label": {"type": "string", "description": "what the family is, in words"},
                "schema": {"$ref": "#/components/schemas/JsonSchema"},
                "sealed": {"type": "boolean", "description": "present and true when the move is sealed: only you see it until it is revealed"},
            },
        }),
    );
    schemas.insert(
        "Visibility".into(),
        json!({
            "description": "Who could see an event: everyone (`public`), only some seats, or everyone but some seats.",
            "oneOf": [
                {"type": "string", "const": "public"},
                {"type": "object", "required": ["seats"], "additionalProperties": false, "properties": {"seats": {"$ref": "#/components/schemas/SeatSet"}}},
                {"type": "object", "required": ["all_except"], "additionalProperties": false, "properties": {"all_except": {"$ref": "#/components/schemas/SeatSet"}}},
            ],
        }),
    );
    let mut codes: Vec<&str> = error::Code::ALL.iter().map(|code| code.as_str()).collect();
    for ruleset in registry.iter() {
        codes.extend(ruleset.rule_codes().into_iter().map(|(code, _)| code));
    }
    codes.sort_unstable();
    codes.dedup();
    schemas["Problem"]["properties"]["code"]["enum"] = json!(codes);
    for event in service::dto::WebhookEvent::ALL {
        let (kind, (_, _, data)) = (event.as_str(), event.words());
        let name = format!("{}Notification", title_case(kind));
        schemas.insert(
            name,
            json!({
                "type": "object",
                "description": format!("The body of a `{kind}` notification."),
                "required": ["type", "timestamp", "data"],
                "additionalProperties": false,
                "properties": {
                    "type": {"type": "string", "const": kind},
                    "timestamp": {"type": "string", "format": "date-time", "description": "when the move that caused it was committed"},
                    "data": schema_ref(data),
                },
            }),
        );
    }
}

fn title_case(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The OpenAPI 3.1 `webhooks` section: what Beurs POSTs to a subscription's URL.
fn webhooks(doc: &mut Value) {
    let header = |name: &str, description: &str| json!({"name": name, "in": "header", "required": true, "description": description, "schema": {"type": "string"}});
    let parameters = json!([
        header("webhook-id", "The notification's id: the same on every attempt, so a receiver can drop duplicates."),
        json!({"name": "webhook-timestamp", "in": "header", "required": true, "description": "Unix seconds when this attempt was signed; refuse old ones to stop replays.", "schema": {"type": "string", "pattern": "^[0-9]+$"}}),
        header("webhook-signature", "`v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the subscription's secret (Standard Webhooks)."),
    ]);
    let mut section = Map::new();
    for event in service::dto::WebhookEvent::ALL {
        let (kind, (summary, description, _)) = (event.as_str(), event.words());
        section.insert(kind.into(), json!({"post": {
            "operationId": format!("webhook_{kind}"),
            "summary": summary,
            "description": description,
            "tags": ["webhooks"],
            "security": [],
            "parameters": parameters,
            "requestBody": {"required": true, "content": {"application/json": {"schema": schema_ref(&format!("{}Notification", title_case(kind)))}}},
            "responses": {
                "2XX": {"description": "Acknowledged (answer within 10 s); the body is ignored."},
                "410": {"description": "Gone: the subscription is disabled and nothing more is sent to it."},
                "default": {"description": "Anything else, or no answer, is retried with the same `webhook-id` and body: 12 attempts over about 34 hours."},
            },
        }}));
    }
    doc["webhooks"] = Value::Object(section);
}

/// Document-wide finishing: operations without authentication say so (`security: []`); every
/// answer carries `x-request-id`, and any operation may answer the edge's 500 (a bug, with
/// its request id in the log) and 503 (over 30 s); the licence names its SPDX identifier, and
/// the default server is `beurs serve`'s address.
fn finish_operations(doc: &mut Value) {
    let problem = |description: &str| {
        json!({
            "description": description,
            "content": {"application/problem+json": {"schema": schema_ref("Problem")}},
        })
    };
    let request_id = json!({
        "required": true,
        "description": "The request's id, also in a problem's `request_id` and in the server's log: quote it when reporting a problem.",
        "schema": {"type": "string", "pattern": "^req_[A-Za-z0-9_-]{22}$"},
    });
    if let Some(paths) = doc["paths"].as_object_mut() {
        for operation in paths
            .values_mut()
            .filter_map(Value::as_object_mut)
            .flat_map(|item| item.values_mut())
            .filter_map(Value::as_object_mut)
        {
            let security = operation
                .entry("security")
                .or_insert_with(|| Value::Array(Vec::new()));
            let bearer = security
                .as_array()
                .is_some_and(|schemes| schemes.iter().any(|scheme| scheme.get("bearer").is_some()));
            let Some(responses) = operation
                .get_mut("responses")
                .and_then(Value::as_object_mut)
            else {
                continue;
            };
            responses.entry("500").or_insert_with(|| {
                problem("Something failed on our side; the log has the cause under the request id")
            });
            responses.entry("503").or_insert_with(|| {
                problem("The request took over 30 s (`timeout`); a move may or may not have been applied: resend it with the same Idempotency-Key")
            });
            // Any request may be over its app key's or its address's rate (docs/apps.md).
            let limited = responses.entry("429").or_insert_with(|| {
                problem("Over the request rate of the app key or the client address (`rate-limited`), or over a creation quota of the app or, without a key, of the client address (`quota-exceeded`): retry after `Retry-After` seconds")
            });
            limited["headers"]["retry-after"] = json!({
                "description": "Seconds until a retry may succeed (on `rate-limited` and `quota-exceeded`).",
                "schema": {"type": "integer", "minimum": 1},
            });
            limited["headers"]["ratelimit-policy"] = json!({
                "description": "The policy the request was over, as the IETF draft \"RateLimit header fields for HTTP\" writes it: `\"requests\";q=200;w=2`.",
                "schema": {"type": "string"},
            });
            limited["headers"]["ratelimit"] = json!({
                "description": "What is left of the policy and when it resets (draft \"RateLimit header fields for HTTP\"): `\"requests\";r=0;t=1`.",
                "schema": {"type": "string"},
            });
            // A route that takes a bearer token takes an app key too: an unknown or revoked
            // key is 401, a key without the route's scope 403.
            if bearer {
                responses.entry("401").or_insert_with(|| {
                    problem("The token or app key is not valid (unknown, revoked, or of no game)")
                });
                responses.entry("403").or_insert_with(|| {
                    problem("An app key without the scope this route needs (`missing-scope`, naming it)")
                });
            }
            for response in responses.values_mut() {
                response["headers"]["x-request-id"] = request_id.clone();
            }
        }
    }
    doc["info"]["license"] = json!({"name": "MIT", "identifier": "MIT"});
    doc["info"]["contact"] = json!({"name": "Beurs", "url": "https://beurs.dev"});
    doc["servers"] = json!([{
        "url": "http://127.0.0.1:8080",
        "description": "`beurs serve` on your machine (`cargo run --release`); a deployment answers at its own URL",
    }]);
}

/// A `oneOf`/`anyOf` of one schema is that schema: utoipa wraps a `$ref` that has a default
/// in one (`{"oneOf": [{"$ref": …}], "default": …}`); OpenAPI 3.1 allows keywords beside
/// `$ref`.
fn no_single_choices(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            for key in ["oneOf", "anyOf"] {
                let single = match object.get(key) {
                    Some(Value::Array(choices)) if choices.len() == 1 => choices[0].clone(),
                    _ => continue,
                };
                let Value::Object(single) = single else {
                    continue;
                };
                object.remove(key);
                for (name, value) in single {
                    object.entry(name).or_insert(value);
                }
            }
            object.values_mut().for_each(no_single_choices);
        }
        Value::Array(items) => items.iter_mut().for_each(no_single_choices),
        _ => {}
    }
}

/// A one-value `enum` is a `const` (the `type` tag of an action or event variant).
fn single_values_are_const(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            if let Some(Value::Array(values)) = object.get("enum") {
                if let [only] = values.as_slice() {
                    let only = only.clone();
                    object.remove("enum");
                    object.insert("const".into(), only);
                }
            }
            object.values_mut().for_each(single_values_are_const);
        }
        Value::Array(items) => items.iter_mut().for_each(single_values_are_const),
        _ => {}
    }
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

/// The OpenAPI document, serialized (built on the first call in this process).
pub fn openapi_json(ctx: &service::AppCtx) -> &str {
    ctx.openapi_json
        .get_or_init(|| spec_for(&ctx.registry, ctx.rulesets()).to_string())
}
