//! `GET /v1/games/{id}/legal-actions` and `POST /v1/games/{id}/actions`.

use super::etag;
use super::problems::{problems, BadHeader, BadToken, JsonBodyRefused, NoSuchGame, RetiredRules};
use crate::error::{ApiError, Error};
use crate::http::{
    Bearer, IdempotencyKey, IfMatch, IfNoneMatch, JsonBody, Params, QueryParams, Reply,
};
use axum::extract::State;
use serde::Deserialize;
use service::ctx::AppCtx;
use service::dto::{ActionResult, Include, LegalActions, SubmitAction};
use service::game::load_record;
use service::moves;
use std::sync::Arc;

problems! {
    /// How `list_legal_actions` refuses a request, beyond the shared refusals it lists.
    ListLegalActionsRefused {
        403 => "Not a seat token",
        409 => "The game has not started",
    }
}

/// List the caller's legal actions
///
/// Everything the caller's seat may do at the current version. Each entry is either a
/// complete action (`{"action": …}`, ready to submit) or a JSON Schema (`{"label", "schema"}`)
/// for moves with large spaces. While the seat may take its last move back, the list also
/// holds `{"action": {"type": "undo"}}`, even when it is another seat's turn. Otherwise empty
/// when it is not the seat's turn or the game is over.
#[utoipa::path(
    get,
    path = "/v1/games/{id}/legal-actions",
    tag = "actions",
    params(
        ("id" = String, Path, description = "The game id"),
        ("if-none-match" = Option<String>, Header, description = "The ETag of the copy the client holds (`\"7\"`, weak tags too, or `*`; an empty one is ignored): when the game is still at that version the answer is 304 with no body", pattern = "^(|\\*|(W/)?\"[!#-~]*\"( *, *(W/)?\"[!#-~]*\")*)$"),
    ),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's legal actions", body = LegalActions, headers(("etag" = String, description = "The version"))),
        (status = 304, description = "Not modified: the game is still at the version If-None-Match named", headers(("etag" = String, description = "The version"))),
        ListLegalActionsRefused,
        BadHeader,
        BadToken,
        NoSuchGame,
        RetiredRules,
    )
)]
pub async fn list_legal_actions(
    State(ctx): State<Arc<AppCtx>>,
    Params(id): Params<String>,
    bearer: Bearer,
    if_none_match: IfNoneMatch,
) -> Result<Reply, ApiError> {
    let record = load_record(&ctx, &id).await?;
    let seat = moves::lister(&record, bearer.who())?;
    if_none_match.answer(record.version, || {
        let listing = moves::legal_listing(&ctx, &record, seat)?.ok_or_else(moves::not_started)?;
        Ok(Reply::json(200, &listing).header("etag", etag(record.version)))
    })
}

/// The `include` query parameter of the routes that take it.
#[derive(Debug, Default, Deserialize)]
pub struct Includes {
    /// What else to answer with.
    pub include: Option<Include>,
}

impl Includes {
    /// Whether the caller asked for its legal actions.
    pub fn legal_actions(&self) -> bool {
        self.include == Some(Include::LegalActions)
    }
}

problems! {
    /// How `submit_action` refuses a request, beyond the shared refusals it lists.
    SubmitActionRefused {
        400 => "Malformed body or not an action of this game",
        403 => "Not a seat token",
        409 => "Not your turn, game not active or over, or the game kept changing",
        412 => "If-Match does not match the current version",
        422 => "The rules refuse the move (the code is the rule's), or the Idempotency-Key was first sent with another action (`idempotency-key-reused`)",
    }
}

/// Submit a move
///
/// Validates the action against the full rules and applies it atomically. Send `If-Match`
/// with the version you decided on to refuse the move if anything changed meanwhile (412);
/// without it, the server retries lost races itself. An `Idempotency-Key` makes retries
/// safe: repeating it with the same action returns the first response unchanged (with
/// `idempotent-replay: true`); repeating it with another action is refused with 422
/// `idempotency-key-reused`, as payment APIs do.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/actions",
    tag = "actions",
    params(
        ("id" = String, Path, description = "The game id"),
        ("if-match" = Option<String>, Header, description = "The version the move was decided at, as the ETag gave it (`\"7\"`), or `*`; compared strongly, so a weak tag never matches", pattern = "^(\\*|(W/)?\"[!#-~]*\"( *, *(W/)?\"[!#-~]*\")*)$"),
        ("idempotency-key" = Option<String>, Header, description = "1 to 255 visible ASCII characters; a repeat returns the first response", pattern = "^[!-~]{1,255}$"),
        ("include" = Option<Include>, Query, description = "`legal_actions`: the answer also holds `legal_actions`, the seat's legal actions once the move (and any bots' answers to it) are committed, so the seat needs no second request to move again"),
    ),
    request_body = SubmitAction,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The move was applied (or, with `idempotent-replay: true`, had been applied under this Idempotency-Key)", body = ActionResult, headers(("etag" = String, description = "The new version (absent on a replay: the body's `version` is the version after that first move)"), ("idempotent-replay" = String, description = "`true` when this is the stored response to an earlier request with the same Idempotency-Key; nothing was applied now"))),
        SubmitActionRefused,
        BadToken,
        NoSuchGame,
        RetiredRules,
        JsonBodyRefused,
    )
)]
pub async fn submit_action(
    State(ctx): State<Arc<AppCtx>>,
    Params(id): Params<String>,
    bearer: Bearer,
    if_match: IfMatch,
    IdempotencyKey(key): IdempotencyKey,
    QueryParams(includes): QueryParams<Includes>,
    JsonBody(body): JsonBody<SubmitAction>,
) -> Result<Reply, ApiError> {
    let submitted = moves::submit(&ctx, &id, bearer.who(), if_match.0, key, body).await?;
    let reply = Reply::json(200, &submitted.result);
    let mut reply = match submitted.made {
        Some(version) => reply.header("etag", etag(version)),
        None => reply.header("idempotent-replay", "true".into()),
    };
    let mut detail = submitted.bots_failed;
    if includes.legal_actions() {
        let listing = moves::listing_now(&ctx, &id, submitted.after, submitted.seat).await;
        reply = with_listing(listing, reply, &mut detail);
    }
    Ok(reply.detail(detail))
}

/// `reply` (a move's answer) with the seat's legal actions. The move is made whatever
/// happens here: if the listing could not be read, the answer goes without it (a client asks
/// `GET …/legal-actions`) and what went wrong goes to the log as the reply's `detail`.
fn with_listing(
    listing: Result<Option<LegalActions>, Error>,
    reply: Reply,
    detail: &mut Option<String>,
) -> Reply {
    match listing {
        Ok(Some(listing)) => reply.member("legal_actions", &listing),
        Ok(None) => reply,
        Err(error) => {
            let failed = format!("include=legal_actions after the move: {error}");
            *detail = Some(match detail.take() {
                Some(before) => format!("{before}; {failed}"),
                None => failed,
            });
            reply
        }
    }
}

#[cfg(test)]
mod tests {
    use game_core::action_schema::label_seats;
    use game_core::sample::sample;
    use game_core::words::Names;
    use game_core::{GameRng, Seat};
    use serde_json::Value;

    /// The listing built from the typed actions is what the JSON path gave: every legal
    /// action, and each ready one with the words and the seal that describing and checking
    /// its JSON would give, in every ruleset, for every seat, along a played game; the
    /// combinations of a pick folded into one entry.
    #[test]
    fn listed_legal_actions_are_the_legal_actions_with_their_words_and_seals() {
        let registry = service::catalog::registry();
        let mut sealed = 0;
        let mut picks = 0;
        let mut picked = std::collections::BTreeSet::new();
        let named = [
            Some("Anna".to_string()),
            None,
            Some("Cas".into()),
            Some("Dirk".into()),
        ];
        let names = Names::new(&named);
        for ruleset in registry.iter() {
            let (fewest, most) = ruleset.seat_range();
            let seats = 4.clamp(fewest, most);
            let options = ruleset.normalize_options(&Value::Null).expect("defaults");
            let seed = [7; 32];
            let mut game = ruleset.setup(seats, &options, seed).expect("dealt");
            let mut compared = 0;
            for step in 1..=80u64 {
                let mut mover = None;
                for seat in (0..seats).map(Seat) {
                    let mut expected = game.legal_actions(seat);
                    for entry in &mut expected {
                        let object = entry.as_object_mut().expect("entries are objects");
                        let Some(action) = object.get("action").cloned() else {
                            // A family: its choices of seats named, and sealed when an
                            // instance of it is.
                            let schema = object.get("schema").cloned().expect("a family");
                            if let Some(named) = label_seats(&schema, &names) {
                                object.insert("schema".into(), named);
                            }
                            let instance = sample(&schema, &mut GameRng::for_entry([0; 32], 0));
                            if instance.and_then(|one| ruleset.is_sealed(&one, seat)) == Some(true)
                            {
                                object.insert("sealed".into(), Value::Bool(true));
                            }
                            continue;
                        };
                        let label = game.label(seat, &action, &names).expect("its own");
                        object.insert("label".into(), Value::String(label));
                        let text = ruleset.describe_action(&action, seat, &names);
                        let is_sealed = ruleset.is_sealed(&action, seat).expect("its own");
                        sealed += usize::from(is_sealed);
                        object.insert("text".into(), Value::String(text.expect("its own")));
                        object.insert("sealed".into(), Value::Bool(is_sealed));
                        if mover.is_none() && game.waiting_on().contains(seat) {
                            mover = Some((seat, action));
                        }
                    }
                    let listed = game.legal_actions_listed(seat, &names);
                    let listed: Value = serde_json::from_str(listed.get()).expect("JSON");
                    let before = picks;
                    let expected = fold_picks(expected, &listed, &mut picks);
                    if picks > before {
                        picked.insert(ruleset.id());
                    }
                    assert_eq!(
                        listed,
                        Value::Array(expected),
                        "{} seat {seat:?}",
                        ruleset.id()
                    );
                    compared += 1;
                }
                let Some((seat, action)) = mover else { break };
                let mut rng = GameRng::for_entry(seed, step);
                game.apply_json(seat, &action, &mut rng)
                    .expect("a listed action is legal");
                if game.outcome().is_some() {
                    break;
                }
            }
            assert!(
                compared >= 4 * usize::from(seats),
                "{}: {compared}",
                ruleset.id()
            );
        }
        assert!(sealed > 0, "some listed action is sealed");
        // Tulip Bubble's bid markers and Tulip Traders' discards are offered as picks.
        let picked: Vec<&str> = picked.into_iter().collect();
        assert_eq!(picked, ["tulip-bubble", "tulip-traders"]);
    }

    /// `expected` (every legal action, listed one by one) with the combinations of each pick
    /// that `listed` offers replaced by that pick, in the place of its first combination;
    /// panics unless the pick's combinations are exactly every set of `minItems` to
    /// `maxItems` of its items (game_core::pick's promise).
    fn fold_picks(mut expected: Vec<Value>, listed: &Value, picks: &mut usize) -> Vec<Value> {
        for pick in listed.as_array().expect("a list") {
            let Some(properties) = pick.pointer("/schema/properties") else {
                continue;
            };
            let properties = properties.as_object().expect("properties");
            // A pick: one array of labelled items, every other property fixed (a family such
            // as a lot offered, with a buyer and a price besides its cards, is not one).
            let Some((field, items)) = properties
                .iter()
                .find(|(_, schema)| schema.pointer("/items/x-enum-labels").is_some())
            else {
                continue;
            };
            if properties
                .iter()
                .any(|(name, schema)| name != field && schema.get("const").is_none())
            {
                continue;
            }
            let options = items["items"]["enum"].as_array().expect("enum");
            let labels = items["items"]["x-enum-labels"].as_array().expect("labels");
            assert_eq!(options.len(), labels.len(), "a label per item");
            let (min, max) = (items["minItems"].as_u64(), items["maxItems"].as_u64());
            let (min, max) = (min.expect("min") as usize, max.expect("max") as usize);
            let fits = |entry: &Value| {
                let Some(action) = entry.get("action").and_then(Value::as_object) else {
                    return false;
                };
                action
                    .iter()
                    .all(|(name, value)| match properties.get(name) {
                        Some(_) if name == field => {
                            let chosen = value.as_array().expect("an array");
                            (min..=max).contains(&chosen.len())
                                && chosen.iter().all(|item| options.contains(item))
                        }
                        Some(schema) => schema["const"] == *value,
                        None => false,
                    })
            };
            // A family of the game's own that names its items (not a fold): nothing to fold.
            let Some(first) = expected.iter().position(fits) else {
                continue;
            };
            let covered = expected.iter().filter(|entry| fits(entry)).count();
            let every: u64 = (min..=max)
                .map(|k| (0..k as u64).fold(1, |acc, i| acc * (options.len() as u64 - i) / (i + 1)))
                .sum();
            assert_eq!(
                covered as u64, every,
                "the pick {pick} is every combination"
            );
            let sealed = pick.get("sealed") == Some(&Value::Bool(true));
            assert!(
                expected
                    .iter()
                    .filter(|entry| fits(entry))
                    .all(|entry| entry["sealed"] == sealed),
                "the pick {pick} is sealed as its combinations are"
            );
            let mut index = 0;
            expected.retain(|entry| {
                index += 1;
                index - 1 == first || !fits(entry)
            });
            expected[first] = pick.clone();
            *picks += 1;
        }
        expected
    }
}
