//! Random instances of the small JSON Schemas that parameterised legal actions carry.
//!
//! Supported: `const`, `enum`, `oneOf`/`anyOf`, and `type` of `null`, `boolean`, `integer`
//! (`minimum`/`maximum`), `string` (only with `enum`/`const`), `array` (`items`,
//! `minItems`/`maxItems`, `uniqueItems` for enum items) and `object`: with `properties`,
//! every property is filled (`required` and `additionalProperties: false` need nothing more);
//! without, a map whose keys are `propertyNames.enum` (distinct, between `minProperties` and
//! `maxProperties` of them) and whose values follow the `additionalProperties` schema. Games
//! keep their schemas within this subset so random bots (the test harness and the HTTP test
//! clients) can play from `legal_actions` alone.
//!
//! Two extension keywords say what JSON Schema cannot:
//! - `"x-sum-of-values": n` on a map: its values must add up to `n`. The sampler honours it
//!   for integer values (`additionalProperties` with `type: integer` and its bounds): it picks
//!   a number of keys for which the sum is reachable and a random split of `n` over them.
//! - `"x-refused-with": "<code>"` next to a constraint the schema cannot state (or an
//!   `x-` keyword): the rule code the engine answers when a move breaks it. Informative only;
//!   the sampler ignores it.

use crate::GameRng;
use serde_json::{Map, Value};

/// A random action from an erased legal-action list (each entry `{"action": …}` or
/// `{"label", "schema"}`): a uniformly chosen entry, its schema sampled. `None` when the list
/// is empty or the chosen schema uses something unsupported. A sampled action may still be
/// refused by the engine (a constraint the schema cannot state): the caller tries again.
pub fn random_action(legal: &[Value], rng: &mut GameRng) -> Option<Value> {
    random_action_spread(legal, Spread::Uniform, rng)
}

/// [`random_action`] with integers drawn as `spread` says.
pub fn random_action_spread(legal: &[Value], spread: Spread, rng: &mut GameRng) -> Option<Value> {
    let entry = rng.choose(legal)?;
    if let Some(action) = entry.get("action") {
        return Some(action.clone());
    }
    entry
        .get("schema")
        .and_then(|schema| sample_spread(schema, spread, rng))
}

/// How integers are drawn from their range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spread {
    /// Every value alike, the bounds a little more often: what the test harness and the HTTP
    /// test clients play, so that every corner of a schema gets exercised.
    Uniform,
    /// What a person would pick: a range of more than [`NARROW`] values is drawn among its
    /// lowest [`NARROW`] only, on a log scale above the minimum (a raise of 1 is as likely
    /// as one of 16–31); a narrower range uniformly. The bots (the `random` bot and the
    /// searching bots' candidates and playouts) sample this way: a sensible bid sits near
    /// the lowest allowed one, and a uniform draw from 16 to 1,000,000 almost never does.
    Sensible,
}

/// The widest range [`Spread::Sensible`] still draws uniformly, and how far above the
/// minimum it ever goes.
pub const NARROW: u64 = 32;

/// A random value matching `schema`, or `None` if the schema uses something unsupported.
/// Integers are drawn with [`Spread::Uniform`].
pub fn sample(schema: &Value, rng: &mut GameRng) -> Option<Value> {
    sample_spread(schema, Spread::Uniform, rng)
}

/// [`sample`] with integers drawn as `spread` says.
pub fn sample_spread(schema: &Value, spread: Spread, rng: &mut GameRng) -> Option<Value> {
    if let Some(constant) = schema.get("const") {
        return Some(constant.clone());
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        return rng.choose(options).cloned();
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(options) = schema.get(key).and_then(Value::as_array) {
            return rng
                .choose(options)
                .and_then(|option| sample_spread(option, spread, rng));
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
            match spread {
                Spread::Sensible if span > NARROW => {
                    return Some(Value::from(minimum + log_offset(NARROW, rng) as i64));
                }
                Spread::Sensible => {
                    return Some(Value::from(minimum + rng.below(span) as i64));
                }
                Spread::Uniform => {}
            }
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
                .map(|_| sample_spread(items, spread, rng))
                .collect::<Option<Vec<_>>>()
                .map(Value::Array)
        }
        "object" => {
            let mut object = Map::new();
            if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                for (name, property) in properties {
                    object.insert(name.clone(), sample_spread(property, spread, rng)?);
                }
            } else if let Some(names) = schema
                .get("propertyNames")
                .and_then(|names| names.get("enum"))
                .and_then(Value::as_array)
            {
                return sample_map(schema, names, spread, rng);
            }
            Some(Value::Object(object))
        }
        _ => None,
    }
}

/// An offset in `0..span` whose binary magnitude is uniform: a bucket `[2^k - 1, 2^(k+1) - 1)`
/// is picked uniformly among those that start inside the span, then a value in it (clipped to
/// the span).
fn log_offset(span: u64, rng: &mut GameRng) -> u64 {
    let buckets = u64::from(u64::BITS - span.leading_zeros());
    let k = rng.below(buckets) as u32;
    let bound = |k: u32| u64::try_from((1u128 << k) - 1).unwrap_or(u64::MAX);
    let low = bound(k);
    low + rng.below(bound(k + 1).min(span) - low)
}

/// A map keyed by distinct `names`, honouring `minProperties`/`maxProperties` and, for
/// integer values, `x-sum-of-values`.
fn sample_map(schema: &Value, names: &[Value], spread: Spread, rng: &mut GameRng) -> Option<Value> {
    let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
    let values = schema.get("additionalProperties")?;
    let min_count = schema
        .get("minProperties")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let max_count = schema
        .get("maxProperties")
        .and_then(Value::as_u64)
        .unwrap_or(names.len() as u64)
        .min(names.len() as u64);
    let mut keys = names;
    rng.shuffle(&mut keys);
    let mut object = Map::new();
    match schema.get("x-sum-of-values").and_then(Value::as_i64) {
        None => {
            if max_count < min_count {
                return None;
            }
            let count = min_count + rng.below(max_count - min_count + 1);
            for key in &keys[..count as usize] {
                object.insert((*key).to_string(), sample_spread(values, spread, rng)?);
            }
        }
        Some(sum) => {
            if values.get("type").and_then(Value::as_str) != Some("integer") {
                return None;
            }
            let low = values.get("minimum").and_then(Value::as_i64).unwrap_or(0);
            let high = values.get("maximum").and_then(Value::as_i64).unwrap_or(sum);
            // The counts for which `sum` splits into values within [low, high].
            let counts: Vec<u64> = (min_count..=max_count)
                .filter(|&count| {
                    let count = count as i64;
                    count * low <= sum && sum <= count.saturating_mul(high)
                })
                .collect();
            let count = *rng.choose(&counts)? as usize;
            let mut split = vec![low; count];
            let mut rest = sum - low * count as i64;
            // Hand out the rest a random chunk at a time to random keys with room left.
            while rest > 0 {
                let open: Vec<usize> = (0..count).filter(|&i| split[i] < high).collect();
                let slot = *rng.choose(&open)?;
                let room = (high - split[slot]).min(rest);
                let chunk = 1 + rng.below(room as u64) as i64;
                split[slot] += chunk;
                rest -= chunk;
            }
            for (key, value) in keys.iter().zip(split) {
                object.insert((*key).to_string(), Value::from(value));
            }
        }
    }
    Some(Value::Object(object))
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

    #[test]
    fn a_sensible_spread_keeps_near_the_minimum_and_favours_it() {
        let wide = json!({"type": "integer", "minimum": 21, "maximum": 1_000_000});
        let narrow = json!({"type": "integer", "minimum": 3, "maximum": 9});
        let mut rng = GameRng::for_entry([7; 32], 0);
        let draws = 2_000;
        let (mut at_minimum, mut wide_seen, mut narrow_seen) = (
            0,
            std::collections::BTreeSet::new(),
            std::collections::BTreeSet::new(),
        );
        for _ in 0..draws {
            let value = sample_spread(&wide, Spread::Sensible, &mut rng).unwrap();
            let value = value.as_i64().unwrap();
            assert!((21..21 + NARROW as i64).contains(&value), "{value}");
            at_minimum += usize::from(value == 21);
            wide_seen.insert(value);
            let value = sample_spread(&narrow, Spread::Sensible, &mut rng).unwrap();
            narrow_seen.insert(value.as_i64().unwrap());
        }
        // One magnitude in six is the minimum itself (offsets 0, 1, 2–3, 4–7, 8–15, 16–31).
        assert!(
            at_minimum * 8 > draws,
            "{at_minimum} of {draws} at the minimum"
        );
        // Every value of the lowest 32 turns up, and nothing above them.
        assert_eq!(wide_seen.len(), NARROW as usize);
        // A narrow range is drawn uniformly: every value turns up.
        assert_eq!(narrow_seen.len(), 7);
        // A uniform spread rarely lands near the minimum of a wide range.
        let uniform_low = (0..draws)
            .filter(|_| sample(&wide, &mut rng).unwrap().as_i64().unwrap() <= 21 + 15)
            .count();
        assert!(uniform_low * 5 < draws, "{uniform_low}");
    }

    #[test]
    fn log_offsets_cover_tiny_and_huge_spans() {
        let mut rng = GameRng::for_entry([8; 32], 0);
        for span in [1, 2, 33, 1 << 40, u64::MAX] {
            for _ in 0..200 {
                assert!(log_offset(span, &mut rng) < span, "{span}");
            }
        }
    }

    #[test]
    fn maps_honour_key_counts_and_sums() {
        let schema = json!({
            "type": "object",
            "minProperties": 1,
            "maxProperties": 3,
            "propertyNames": {"enum": ["a", "b", "c", "d"]},
            "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 7},
            "x-sum-of-values": 7,
            "x-refused-with": "allocation-sum-mismatch"
        });
        let mut rng = GameRng::for_entry([6; 32], 0);
        let mut sizes = std::collections::BTreeSet::new();
        for _ in 0..300 {
            let value = sample(&schema, &mut rng).unwrap();
            let map = value.as_object().unwrap();
            assert!((1..=3).contains(&map.len()), "{value}");
            sizes.insert(map.len());
            let values: Vec<i64> = map.values().map(|v| v.as_i64().unwrap()).collect();
            assert!(values.iter().all(|v| (1..=7).contains(v)), "{value}");
            assert_eq!(values.iter().sum::<i64>(), 7, "{value}");
        }
        assert_eq!(sizes.len(), 3, "every key count is tried");
        // A sum no count can reach cannot be sampled.
        let impossible = json!({
            "type": "object", "maxProperties": 1, "propertyNames": {"enum": ["a"]},
            "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 2},
            "x-sum-of-values": 5
        });
        assert_eq!(sample(&impossible, &mut rng), None);
        // Without a sum, values are independent.
        let free = json!({
            "type": "object", "propertyNames": {"enum": ["a", "b"]},
            "additionalProperties": {"type": "boolean"}
        });
        let value = sample(&free, &mut rng).unwrap();
        assert!(value.as_object().unwrap().len() <= 2);
    }
}
