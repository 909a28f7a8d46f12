//! What the reference at `/docs` needs and the contract's types alone do not say: a guide for
//! newcomers in `info.description`, request examples for every ruleset (real ones, taken from
//! freshly dealt games) and the webhook deliveries as OpenAPI 3.1 `webhooks`.
//!
//! [`decorate`] runs at the end of [`crate::openapi::spec`], so `/openapi.json`,
//! `openapi/openapi.json` and the reference all show the same document.

use game_core::{DynRuleset, Registry, Seat, SeatSet, Viewer};
use serde_json::{json, Map, Value};
use service::dto::RulesetList;

/// The guide shown first in the reference (markdown; Redoc turns its headings into sections).
const GUIDE: &str = r#"
Beurs plays the rules of its board games for you: your app creates a game, players claim
seats, and each player asks the server which moves are legal and submits one. The server
checks every move against the full rules, keeps the state, hides what a player may not see,
and can prove afterwards that every shuffle and die roll was fair.

# Getting started

A game goes through four steps. Each is one request; `$B` is the server's address.

1. **Create** a game of one ruleset: `POST /v1/games` with `{"ruleset": "tulip-bubble", "seats": 3}`
   (`GET /v1/rulesets` lists the ruleset ids, their seat ranges and their options). The answer
   holds the game `id` and the **admin token**. Keep it: it is shown once.
2. **Claim the seats**: `POST /v1/games/{id}/seats/{seat}` with `{"name": "Ada"}`, once per seat
   (seats are numbered from 0). Each answer holds that seat's **seat token**, shown once. When
   the last seat is claimed, the cards are dealt and the game is `active`.
3. **Ask what you may do**: `GET /v1/games/{id}/legal-actions` with a seat token. Each entry is
   either `{"action": {…}}`, a complete move you can send as it is, or a `label` with a JSON
   Schema for moves with many choices (bids, amounts).
4. **Submit a move**: `POST /v1/games/{id}/actions` with `{"action": {…}}`. The answer says what
   happened (the events), your new view, the new `version` and whom the game waits on next.
   Repeat steps 3 and 4 until the `status` is `finished`; `GET /v1/games/{id}/audit` then
   reveals everything needed to replay and verify the game.

```sh
curl -s -X POST $B/v1/games -H 'content-type: application/json' \
  -d '{"ruleset": "tulip-bubble", "seats": 3}'
curl -s -X POST $B/v1/games/$ID/seats/0 -H 'content-type: application/json' -d '{"name": "Ada"}'
curl -s $B/v1/games/$ID/legal-actions -H "authorization: Bearer $SEAT0"
curl -s -X POST $B/v1/games/$ID/actions -H "authorization: Bearer $SEAT0" \
  -H 'content-type: application/json' -H 'if-match: "7"' -H 'idempotency-key: move-42' \
  -d '{"action": {…one of the legal actions…}}'
```

# Authentication

There are no accounts. Every token belongs to one game and is sent as a bearer token:
`Authorization: Bearer <token>`.

- A **seat token** (`bt_seat_…`) comes from claiming a seat. It reads that seat's own view
  (its hand, its sealed choices), lists its legal actions and submits its moves.
- The **admin token** (`bt_admin_…`) comes from creating the game. It may claim seats in an
  `invite_only` game, subscribe to game-wide webhooks and delete the game, but it never plays.
- **No token** is needed to create a game, claim a seat in an open game, list the lobby or
  read a game as a spectator (public information only).

A token the game does not know is a `401`; a known token that may not do this (the admin
submitting a move, say) is a `403`. The server keeps only a hash of each token, so a lost
token cannot be shown again.

<!-- ReDoc-Inject: <security-definitions> -->

# Moves, versions and retries

Every change to a game increases its `version`, which answers carry as an `ETag` (`"7"`) and
`legal-actions` as `version`.

- Send **`If-Match: "7"`** with a move to say "only if the game is still at version 7": if
  anything happened meanwhile, the answer is `412 stale-version` and nothing changes. Send the
  tag exactly as the `ETag` gave it, quotes included.
- Without `If-Match`, the server applies the move to the current state, re-checking it if
  another move landed first. Games where everyone chooses at once (sealed choices) are played
  this way: each seat posts its own choice.
- Send an **`Idempotency-Key`** (any 1 to 255 visible ASCII characters, one per intended
  move) to make retries safe: if a request times out, send it again with the same key and you
  get the first answer back (marked `idempotent-replay: true`), never a second move. The same
  key with a different action is refused with `422 idempotency-key-reused`.
- The game, its legal actions, its log and its history carry the same `ETag`. Send it back as
  **`If-None-Match`** and, while the game is still at that version, the answer is
  `304 Not Modified` with no body (a long-poll too, when its wait ends with no change).

# Errors

Every error is an [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) problem with the media
type `application/problem+json`. Branch on its `code`, which is stable; the `title` and
`detail` are for people.

```json
{"type": "https://beurs.dev/problems/not-your-turn", "title": "Not your turn", "status": 409,
 "detail": "seat 2 may not act now", "instance": "/v1/games/g_…/actions",
 "code": "not-your-turn", "request_id": "req_0N8fQmXc2kS4v7pYbL1wHg"}
```

- `400 malformed-request`: the request is not what the contract says (wrong JSON, a bad header).
- `401 unauthorized`, `403 forbidden`: see *Authentication*.
- `404`: `game-not-found`, `seat-not-found`, `webhook-not-found`, `route-not-found`.
- `409`: the game is not waiting for this from you now (`not-your-turn`, `game-over`,
  `seat-taken`, `version-conflict`, …).
- `412 stale-version`: the `If-Match` version is no longer current.
- `415 unsupported-media-type`: a body not declared JSON. Send `Content-Type: application/json`
  with every body.
- `422`: well-formed but refused: the rules' own code (`insufficient-cash`, `bid-too-low`, …)
  or `invalid-options`, `bad-seat-count`, `unknown-ruleset`, and the webhook URL checks.

For a body the rule is: `415` if it is not declared JSON, `400` if it is not JSON or not the
shape the contract gives, `422` if it is well-formed but a value is refused.

Problems say how to recover. A refusal of the rules (a `409` or `422` of the game) carries
`to_act` and `waiting_on` (who may act, who the game waits on) and `expected` (the `type`s of
the moves you may make now); a `412` carries `current_version` and the current `ETag`. Each
is left out when empty.

A refused request never changes the game. Every answer has an `x-request-id`, repeated in
problems as `request_id`: quote it when you report something.

# Paging

Every list (the log, the audit, the lobby and a webhook's deliveries) pages the same way: ask
with `limit` and, from the second page on, `after`; pass the answer's `next_after` back as
`after`. `next_after` is `null` on the last page. For the log and the audit `after` is the
last `seq` you have; for the lobby and deliveries it is an opaque string.

# Webhook signatures

Instead of polling, a seat can subscribe to `turn` and `finished` notifications and the admin
to `action` and `finished` (`POST /v1/games/{id}/webhooks`). The answer holds a `secret`
(`whsec_…`), shown once. Each delivery is a `POST` to your URL signed the
[Standard Webhooks](https://www.standardwebhooks.com/) way:

- `webhook-signature` is `v1,` and the base64 HMAC-SHA256 of
  `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the
  secret after `whsec_`. Any Standard Webhooks library verifies it for you.
- Check that `webhook-timestamp` is recent and use `webhook-id` to drop repeats: a
  notification is delivered at least once, and a repeat carries the same id and body.
- Answer any `2xx` within 10 seconds. Anything else is retried for about a day and a half;
  `410 Gone` switches the subscription off.

The deliveries themselves are described under **Webhooks** below.
"#;

/// Adds the guide, the per-ruleset request examples and the webhooks to `doc`, the document
/// [`crate::openapi::spec`] built (it reuses the views, events, actions and outcome schemas
/// that function put in it).
/// `rulesets` is what `GET /v1/rulesets` answers for `registry`: its seat counts say which
/// games to deal.
pub fn decorate(doc: &mut Value, registry: &Registry, rulesets: &RulesetList) {
    let intro = doc["info"]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    doc["info"]["description"] = json!(format!("{intro}\n{GUIDE}"));
    if let Some(bearer) = doc["components"]["securitySchemes"]["bearer"].as_object_mut() {
        bearer.insert("bearerFormat".into(), json!("bt_seat_… or bt_admin_…"));
    }
    let dealt = deal_each(registry, rulesets);
    set_examples(
        doc,
        "/v1/games",
        dealt
            .iter()
            .map(|game| {
                let value = json!({"ruleset": game.ruleset, "seats": game.seats});
                let summary = format!("{}, {} seats", game.name, game.seats);
                (game.ruleset.to_string(), summary, value)
            })
            .collect(),
    );
    set_examples(
        doc,
        "/v1/games/{id}/actions",
        dealt
            .iter()
            .filter_map(|game| {
                let (seat, action) = game.first_action.clone()?;
                let summary = format!(
                    "{}: seat {seat}'s first legal move in a new game",
                    game.name
                );
                Some((
                    game.ruleset.to_string(),
                    summary,
                    json!({ "action": action }),
                ))
            })
            .collect(),
    );
    webhook_example(doc, dealt.first());
}

/// A new game of one ruleset at its fewest seats, and its first legal complete move.
struct Sample {
    ruleset: &'static str,
    name: &'static str,
    seats: u8,
    first_action: Option<(u8, Value)>,
    view: Option<(u8, Value)>,
}

/// Deals one game of each ruleset at the fewest seats its default options accept (a fixed
/// seed: the document is the same on every build).
fn deal_each(registry: &Registry, rulesets: &RulesetList) -> Vec<Sample> {
    registry
        .iter()
        .zip(&rulesets.rulesets)
        .map(|(ruleset, info)| sample(ruleset, info.min_seats))
        .collect()
}

fn sample(ruleset: &dyn DynRuleset, seats: u8) -> Sample {
    let mut sample = Sample {
        ruleset: ruleset.id(),
        name: ruleset.name(),
        seats,
        first_action: None,
        view: None,
    };
    let Ok(options) = ruleset.normalize_options(&Value::Null) else {
        return sample;
    };
    let Ok(game) = ruleset.setup(seats, &options, [7; 32]) else {
        return sample;
    };
    // The seats the game waits on first, then every other seat.
    let waiting = game.waiting_on();
    let order = waiting.iter().chain(
        SeatSet::all(seats)
            .iter()
            .filter(|seat| !waiting.contains(*seat)),
    );
    for seat in order {
        let action = game
            .legal_actions(seat)
            .into_iter()
            .find_map(|entry| entry.get("action").cloned());
        if let Some(action) = action {
            sample.first_action = Some((seat.0, action));
            sample.view = Some((seat.0, game.view_json(Viewer::Seat(Seat(seat.0)))));
            break;
        }
    }
    sample
}

/// Puts `examples` (key, summary, value) on the JSON request body of `POST path`.
fn set_examples(doc: &mut Value, path: &str, examples: Vec<(String, String, Value)>) {
    let Some(media) =
        doc["paths"][path]["post"]["requestBody"]["content"]["application/json"].as_object_mut()
    else {
        return;
    };
    let examples: Map<String, Value> = examples
        .into_iter()
        .map(|(key, summary, value)| (key, json!({"summary": summary, "value": value})))
        .collect();
    if !examples.is_empty() {
        media.insert("examples".into(), Value::Object(examples));
    }
}

/// A real `turn` notification as the example of the `turn` webhook (the section itself is
/// [`crate::openapi`]'s).
fn webhook_example(doc: &mut Value, sample: Option<&Sample>) {
    let turn_example = sample.and_then(|sample| {
        let (seat, view) = sample.view.clone()?;
        Some(json!({"turn": {"summary": format!("{}: seat {seat}'s turn at the start", sample.name), "value": {
            "type": "turn",
            "timestamp": "2026-11-22T06:00:00.000Z",
            "data": {
                "game_id": "g_2Qw8pXz0c1Vb6nS4aT9kLg",
                "ruleset": sample.ruleset,
                // Created at 1; one subscription, then every claim.
                "version": u32::from(sample.seats) + 2,
                "seat": seat,
                "seq": 0,
                "to_act": [seat],
                "waiting_on": [seat],
                "view": view
            }
        }}}))
    });
    if let (Some(example), Some(media)) = (
        turn_example,
        doc["webhooks"]["turn"]["post"]["requestBody"]["content"]["application/json"]
            .as_object_mut(),
    ) {
        media.insert("examples".into(), example);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ruleset_has_a_create_and_a_move_example() {
        let registry = service::catalog::registry();
        let doc = crate::openapi::spec(&registry);
        let create =
            &doc["paths"]["/v1/games"]["post"]["requestBody"]["content"]["application/json"];
        let submit = &doc["paths"]["/v1/games/{id}/actions"]["post"]["requestBody"]["content"]
            ["application/json"];
        for ruleset in registry.iter() {
            let example = &create["examples"][ruleset.id()];
            assert!(example["summary"].is_string(), "{}", ruleset.id());
            let seats = example["value"]["seats"].as_u64().expect("seats") as u8;
            let (min, max) = ruleset.seat_range();
            assert!((min..=max).contains(&seats));
            let options = ruleset.normalize_options(&Value::Null).expect("defaults");
            assert!(
                ruleset.setup(seats, &options, [1; 32]).is_ok(),
                "{}: {seats} seats deal",
                ruleset.id()
            );
            assert_eq!(example["value"]["ruleset"], ruleset.id());
            let action = &submit["examples"][ruleset.id()]["value"]["action"];
            assert!(action.is_object(), "{}: {action}", ruleset.id());
            ruleset
                .parse_action(action)
                .expect("the example is an action of its ruleset");
            assert!(!action.to_string().contains("$ref"));
        }
    }

    #[test]
    fn the_guide_and_the_webhooks_are_in_the_document() {
        let doc = crate::openapi::spec(&service::catalog::registry());
        let guide = doc["info"]["description"].as_str().expect("a description");
        for heading in [
            "# Getting started",
            "# Authentication",
            "# Errors",
            "# Paging",
            "# Webhook signatures",
        ] {
            assert!(guide.contains(heading), "{heading}");
        }
        for term in [
            "If-Match",
            "Idempotency-Key",
            "RFC 9457",
            "next_after",
            "whsec_",
        ] {
            assert!(guide.contains(term), "{term}");
        }
        for kind in ["turn", "action", "finished"] {
            let post = &doc["webhooks"][kind]["post"];
            assert_eq!(post["operationId"], format!("webhook_{kind}"));
            let reference = post["requestBody"]["content"]["application/json"]["schema"]["$ref"]
                .as_str()
                .expect("a reference to the notification's schema");
            let name = reference.trim_start_matches("#/components/schemas/");
            assert_eq!(
                doc["components"]["schemas"][name]["properties"]["type"]["const"],
                kind
            );
        }
        let example = &doc["webhooks"]["turn"]["post"]["requestBody"]["content"]
            ["application/json"]["examples"]["turn"]["value"];
        assert_eq!(
            example["type"], "turn",
            "the turn webhook has a real example"
        );
        // Every reference points into the document.
        let text = doc.to_string();
        for (at, _) in text.match_indices("\"$ref\":\"#/components/schemas/") {
            let name = &text[at + 29..];
            let name = &name[..name.find('"').expect("closed")];
            assert!(
                doc["components"]["schemas"][name].is_object(),
                "dangling {name}"
            );
        }
    }
}
