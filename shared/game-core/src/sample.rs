//! Random instances of the small JSON Schemas that parameterised legal actions carry.
//!
//! Supported: `const`, `enum`, `oneOf`/`anyOf`, and `type` of `null`, `boolean`, `integer`
//! (`minimum`/`maximum`), `string` (only with `enum`/`const`), `array` (`items`,
//! `minItems`/`maxItems`, `uniqueItems` for enum items) and `object` (`properties`; every
//! property is filled). Games keep their schemas within this subset so random bots (the test
//! harness and the HTTP test clients) can play from `legal_actions` alone.

use crate::GameRng;
use serde_json::{Map, Value};

/// A random value matching `schema`, or `None` if the schema uses something unsupported.
pub fn sample(schema: &Value, rng: &mut GameRng) -> Option<Value> {
    if let Some(constant) = schema.get("const") {
        return Some(constant.clone());
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        return rng.choose(options).cloned();
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(options) = schema.get(key).and_then(Value::as_array) {
            return rng.choose(options).and_then(|option| sample(option, rng));
        }
    }
    match schema.get("type").and_then(Value::as_str)? {
        "null" => Some(Value::Null),
        "boolean" => Some(Value::Bool(rng.below(2) == 1)),
        "integer" => {
            let minimum = schema.get("minimum").and_then(Value::as_i64).unwrap_or(0);
            let maximum = schema
                .get("maximum")
                .and_then(Value::as_i64)
                .unwrap_or(minimum.saturating_add(100));
            if maximum < minimum {
                return None;
            }
            let span = (maximum - minimum) as u64 + 1;
            // Favour the bounds a little: edge values find more bugs.
            let value = match rng.below(8) {
                0 => minimum,
                1 => maximum,
                _ => minimum + rng.below(span) as i64,
            };
            Some(Value::from(value))
        }
        "array" => {
            let items = schema.get("items")?;
            let min_items = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            let max_items = schema
                .get("maxItems")
                .and_then(Value::as_u64)
                .unwrap_or(min_items + 3);
            if max_items < min_items {
                return None;
            }
            let count = min_items + rng.below(max_items - min_items + 1);
            let unique = schema
                .get("uniqueItems")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            if unique {
                let mut pool = items.get("enum").and_then(Value::as_array)?.clone();
                rng.shuffle(&mut pool);
                pool.truncate(count as usize);
                return Some(Value::Array(pool));
            }
            (0..count)
                .map(|_| sample(items, rng))
                .collect::<Option<Vec<_>>>()
                .map(Value::Array)
        }
        "object" => {
            let mut object = Map::new();
            if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                for (name, property) in properties {
                    object.insert(name.clone(), sample(property, rng)?);
                }
            }
            Some(Value::Object(object))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn samples_respect_bounds_and_shapes() {
        let schema = json!({
            "type": "object",
            "properties": {
                "type": {"const": "place_bid"},
                "amount": {"type": "integer", "minimum": 3, "maximum": 9},
                "cards": {"type": "array", "items": {"enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2, "uniqueItems": true},
                "kind": {"oneOf": [{"const": "x"}, {"type": "null"}]}
            }
        });
        let mut rng = GameRng::for_entry([5; 32], 0);
        for _ in 0..200 {
            let value = sample(&schema, &mut rng).unwrap();
            assert_eq!(value["type"], "place_bid");
            let amount = value["amount"].as_i64().unwrap();
            assert!((3..=9).contains(&amount));
            let cards = value["cards"].as_array().unwrap();
            assert!((1..=2).contains(&cards.len()));
            assert!(cards.len() < 2 || cards[0] != cards[1]);
            assert!(value["kind"] == "x" || value["kind"].is_null());
        }
        assert_eq!(sample(&json!({"type": "mystery"}), &mut rng), None);
    }
}
