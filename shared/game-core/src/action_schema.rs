//! Building the JSON Schemas of parameterised legal actions, closed so that generated clients
//! need no casts: every object schema says `"type": "object"`, lists every property as
//! `required` and forbids others (`"additionalProperties": false`), and an action's `type`
//! tag is a `const`.
//!
//! Games build their schema entries with [`LegalAction::closed_schema`] (or
//! [`action_object`] / [`closed_object`] for nested objects, e.g. the terms of an offer),
//! giving only the properties; [`closed_violations`] is what the test harness checks every
//! listed schema against.
//!
//! Objects used as maps (a JSON object whose keys are data, e.g. cell → amount) are not
//! closed this way: they name their keys with `propertyNames` (an `enum`) and their values
//! with an `additionalProperties` schema, and have no `properties`.

use crate::LegalAction;
use serde_json::{Map, Value};

/// A closed object schema with these `properties` (a JSON object of property schemas):
/// `{"type": "object", "properties": …, "required": [every property], "additionalProperties":
/// false}`.
///
/// # Panics
/// If `properties` is not a JSON object (a bug in the calling game).
pub fn closed_object(properties: Value) -> Value {
    let Value::Object(properties) = properties else {
        panic!("closed_object takes an object of property schemas, not {properties}");
    };
    let required: Vec<Value> = properties.keys().cloned().map(Value::String).collect();
    let mut schema = Map::new();
    schema.insert("type".into(), Value::from("object"));
    schema.insert("properties".into(), Value::Object(properties));
    schema.insert("required".into(), Value::Array(required));
    schema.insert("additionalProperties".into(), Value::Bool(false));
    Value::Object(schema)
}

/// The closed schema of an action whose `type` tag is `tag`, with these other `properties`:
/// [`closed_object`] with `"type": {"const": tag}` added.
///
/// # Panics
/// If `properties` is not a JSON object or already names `type`.
pub fn action_object(tag: &str, properties: Value) -> Value {
    let Value::Object(mut properties) = properties else {
        panic!("action_object takes an object of property schemas, not {properties}");
    };
    let tag_schema = serde_json::json!({ "const": tag });
    assert!(
        properties.insert("type".into(), tag_schema).is_none(),
        "the properties of '{tag}' name `type` themselves"
    );
    closed_object(Value::Object(properties))
}

/// The marker of a choice of seats ([`seat_choice`]), replaced when the API lists it.
const SEAT_CHOICE: &str = "x-seat-choice";

/// A choice among `seats`, titled `title`: `{"title", "enum": seats}`. When the API lists it
/// ([`label_seats`]) it gets `x-enum-labels` with the players' names.
pub fn seat_choice(title: &str, seats: impl IntoIterator<Item = crate::Seat>) -> Value {
    let seats: Vec<u8> = seats.into_iter().map(|seat| seat.0).collect();
    serde_json::json!({"title": title, "enum": seats, SEAT_CHOICE: true})
}

/// `schema` with each [`seat_choice`] in it named: `x-enum-labels` holds each seat's player
/// name (`names`), and the marker is gone. `None` when it has no choice of seats (the schema
/// is served as it is).
pub fn label_seats(schema: &Value, names: &crate::words::Names) -> Option<Value> {
    fn has_choice(schema: &Value) -> bool {
        match schema {
            Value::Object(map) => map.contains_key(SEAT_CHOICE) || map.values().any(has_choice),
            Value::Array(items) => items.iter().any(has_choice),
            _ => false,
        }
    }
    fn label(schema: &mut Value, names: &crate::words::Names) {
        match schema {
            Value::Object(map) => {
                if map.remove(SEAT_CHOICE).is_some() {
                    let labels: Vec<Value> = map
                        .get("enum")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_u64)
                        .map(|seat| Value::from(names.seat(crate::Seat(seat as u8))))
                        .collect();
                    map.insert("x-enum-labels".into(), Value::Array(labels));
                }
                map.values_mut().for_each(|value| label(value, names));
            }
            Value::Array(items) => items.iter_mut().for_each(|item| label(item, names)),
            _ => {}
        }
    }
    has_choice(schema).then(|| {
        let mut labelled = schema.clone();
        label(&mut labelled, names);
        labelled
    })
}

/// `schema` with a constraint it cannot state in JSON Schema: `description` says it in plain
/// words and `x-refused-with` is `code`, the rule code the engine answers when a move breaks
/// it (see [`crate::sample`] for the `x-` keywords).
///
/// # Panics
/// If `schema` is not a JSON object.
pub fn with_unstated_rule(schema: Value, description: &str, code: &str) -> Value {
    let Value::Object(mut schema) = schema else {
        panic!("with_unstated_rule takes an object schema, not {schema}");
    };
    schema.insert("description".into(), Value::from(description));
    schema.insert("x-refused-with".into(), Value::from(code));
    Value::Object(schema)
}

impl<A> LegalAction<A> {
    /// A family of actions tagged `tag`, described by the closed schema of its other
    /// `properties` ([`action_object`]); `label` says in plain words what the family is.
    pub fn closed_schema(label: impl Into<String>, tag: &str, properties: Value) -> Self {
        LegalAction::Schema {
            label: label.into(),
            schema: action_object(tag, properties).into(),
        }
    }
}

/// Where `schema` (a legal-action schema) is not closed, as human-readable findings; empty
/// when it is. Checked: the top level is an object whose `type` property is a string
/// `const`; every schema with `properties` (at any depth: properties, `items`, `oneOf`,
/// `anyOf`, `additionalProperties`) has `"type": "object"`, `required` naming exactly its
/// properties and `"additionalProperties": false`; an object schema without `properties` is
/// a map (`propertyNames` with an `enum`, and an `additionalProperties` schema).
pub fn closed_violations(schema: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let tag = schema
        .get("properties")
        .and_then(|properties| properties.get("type"))
        .and_then(|tag| tag.get("const"));
    if !matches!(tag, Some(Value::String(_))) {
        found.push("the action's `type` property is not a string `const`".into());
    }
    walk(schema, "", &mut found);
    found
}

fn walk(schema: &Value, at: &str, found: &mut Vec<String>) {
    let Some(object) = schema.as_object() else {
        found.push(format!("{at}: a schema that is not an object"));
        return;
    };
    let is_object_type = object.get("type").and_then(Value::as_str) == Some("object");
    if let Some(properties) = object.get("properties") {
        let Some(properties) = properties.as_object() else {
            found.push(format!("{at}: `properties` is not an object"));
            return;
        };
        if !is_object_type {
            found.push(format!(
                "{at}: has `properties` but no \"type\": \"object\""
            ));
        }
        let mut names: Vec<&str> = properties.keys().map(String::as_str).collect();
        names.sort_unstable();
        let mut required: Vec<&str> = object
            .get("required")
            .and_then(Value::as_array)
            .map(|list| list.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        required.sort_unstable();
        if required != names {
            found.push(format!(
                "{at}: `required` is {required:?}, not every property {names:?}"
            ));
        }
        if object.get("additionalProperties") != Some(&Value::Bool(false)) {
            found.push(format!("{at}: `additionalProperties` is not false"));
        }
        for (name, property) in properties {
            walk(property, &format!("{at}/{name}"), found);
        }
    } else if is_object_type {
        let names_enum = object
            .get("propertyNames")
            .and_then(|names| names.get("enum"))
            .is_some_and(Value::is_array);
        match object.get("additionalProperties") {
            Some(values @ Value::Object(_)) if names_enum => {
                walk(values, &format!("{at}/*"), found);
            }
            _ => found.push(format!(
                "{at}: an object without `properties` that is not a map (`propertyNames` with \
                 an `enum` and an `additionalProperties` schema)"
            )),
        }
    }
    if let Some(items) = object.get("items") {
        walk(items, &format!("{at}[]"), found);
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(options) = object.get(key).and_then(Value::as_array) {
            for (index, option) in options.iter().enumerate() {
                walk(option, &format!("{at}/{key}/{index}"), found);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_listed_choice_of_seats_names_the_players() {
        let schema = action_object(
            "offer",
            json!({"buyer": seat_choice("Buyer", [crate::Seat(0), crate::Seat(2)]), "price": {"type": "integer"}}),
        );
        let names = [Some("Anna".to_string()), None, None];
        let listed =
            label_seats(&schema, &crate::words::Names::new(&names)).expect("a choice of seats");
        assert_eq!(
            listed["properties"]["buyer"],
            json!({"title": "Buyer", "enum": [0, 2], "x-enum-labels": ["Anna", "Seat 3"]})
        );
        assert_eq!(listed["properties"]["price"], schema["properties"]["price"]);
        let plain = action_object("roll", json!({"dice": {"type": "integer"}}));
        assert_eq!(label_seats(&plain, &crate::words::Names::new(&names)), None);
    }

    #[test]
    fn action_objects_are_closed() {
        let schema = action_object(
            "post_offer",
            json!({
                "terms": {"type": "array", "items": {"oneOf": [
                    closed_object(json!({"kind": {"const": "coins"}, "amount": {"type": "integer"}})),
                ]}},
                "alloc": {"type": "object", "propertyNames": {"enum": ["a"]},
                          "additionalProperties": {"type": "integer"}},
            }),
        );
        assert_eq!(schema["required"], json!(["alloc", "terms", "type"]));
        assert_eq!(schema["additionalProperties"], false);
        assert_eq!(schema["properties"]["type"], json!({"const": "post_offer"}));
        assert_eq!(closed_violations(&schema), Vec::<String>::new());
    }

    #[test]
    fn open_schemas_are_found() {
        let open = json!({"type": "object", "properties": {
            "type": {"const": "bid"},
            "term": {"type": "object", "properties": {"kind": {"const": "x"}}},
        }});
        let found = closed_violations(&open);
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(!closed_violations(&json!({"type": "object"})).is_empty());
    }

    #[test]
    fn legal_action_closed_schema_serializes_as_a_schema_entry() {
        let entry: LegalAction<u8> = LegalAction::closed_schema(
            "bid",
            "auction_bid",
            json!({"amount": {"type": "integer"}}),
        );
        let json = serde_json::to_value(&entry).unwrap();
        assert_eq!(json["label"], "bid");
        assert_eq!(json["schema"]["required"], json!(["amount", "type"]));
    }
}
