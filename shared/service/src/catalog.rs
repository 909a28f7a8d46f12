//! The rulesets this server hosts, as `GET /v1/rulesets` lists them and the contract
//! describes them: seat counts, options schemas and action types, read from each registered
//! game.

use crate::dto::{RulesetInfo, RulesetList, SeatCountWithOptions};
use game_core::{DynRuleset, Registry};
use serde_json::{json, Map, Value};

/// Every game this build can host.
pub fn registry() -> Registry {
    Registry::new()
        .with::<game_tulipmania::Tulipmania>()
        .with::<game_tulip_bubble::TulipBubble>()
        .with::<game_tulip_traders::TulipTraders>()
        .with::<game_tulpenfieber::Tulpenfieber>()
        .with::<game_black_thursday::BlackThursday>()
}

/// What `GET /v1/rulesets` says of every registered ruleset, as each game declares it
/// ([`game_core::Game::SEATS_WITH_OPTIONS`]; the game's playouts hold the declaration to what
/// its setup deals, so it cannot disagree with what `POST /v1/games` accepts).
pub fn ruleset_list(registry: &Registry) -> RulesetList {
    let rulesets = registry
        .iter()
        .map(|ruleset| {
            let (lowest, highest) = ruleset.seat_range();
            let needs_option = |seats: u8| {
                ruleset
                    .seats_with_options()
                    .iter()
                    .any(|(count, _)| *count == seats)
            };
            let by_default: Vec<u8> = (lowest..=highest)
                .filter(|&seats| !needs_option(seats))
                .collect();
            let seats_with_options = ruleset
                .seats_with_options()
                .iter()
                .map(|&(seats, option)| SeatCountWithOptions {
                    seats,
                    options: json!({ option: true }),
                })
                .collect();
            RulesetInfo {
                id: ruleset.id().to_string(),
                name: ruleset.name().to_string(),
                summary: ruleset.summary().to_string(),
                min_seats: by_default.first().copied().unwrap_or(lowest),
                max_seats: by_default.last().copied().unwrap_or(highest),
                seats_with_options,
                rules_version: ruleset.rules_version(),
                options_schema: options_schema(ruleset),
            }
        })
        .collect();
    RulesetList { rulesets }
}

/// Rust integer types reach the schema as `format: u-int8`, `int16`, … (utoipa's
/// `non_strict_integers`). JSON Schema validators know only `int32`/`int64`, so state each
/// type's exact range as `minimum`/`maximum` (keeping tighter bounds already given) and keep
/// the standard format name. A client is then never refused for a number the schema allows.
pub fn bound_integers(schema: &mut Value) {
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
