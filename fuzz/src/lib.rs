//! What the fuzz targets run. Each target in `fuzz_targets/` is one line that calls into here,
//! so the checks live in one place and the seed inputs' format is described once.
//!
//! ## Game targets ([`fuzz_game`])
//!
//! The input is `[seats] [seed: 8 bytes] line ("\n" line)*`:
//! - `seats` picks the seat count within the ruleset's range;
//! - the 8 seed bytes (little-endian, missing bytes are zero) seed the deal and the bot;
//! - each line starts with a control byte `c`; the rest of the line is its payload:
//!   - `c % 4 == 0`: the bot plays `(c >> 2) % 16 + 1` random legal moves (to reach deep states);
//!   - `c % 4 == 1`: the payload is JSON, submitted as an action by seat `(c >> 2) % seats`;
//!   - `c % 4 == 2`: one of that seat's listed actions with one integer (at any depth) set
//!     from the payload: `[action index] [integer index] [1 to 8 bytes, little-endian, signed]`;
//!   - `c % 4 == 3`: one of that seat's listed actions with one field replaced: the payload is
//!     `field=json` (a payload that is not JSON becomes a string), or without `=` the field
//!     named by the payload is removed.
//!
//! Every submission is checked: no panic; a refusal leaves the state byte-identical and has a
//! kebab-case code (or is a parse error, exactly when `parse_action` refuses the JSON); an
//! accepted action came from a seat in `to_act`, and its normalised form replays to the same
//! state; the state survives a store round trip; `to_act` is empty exactly when there is an
//! outcome, and `waiting_on ⊆ to_act`.
//!
//! ## HTTP target ([`fuzz_http`])
//!
//! The input is a request in a text form close to HTTP/1.1: `METHOD PATH`, then `Name: value`
//! header lines, a blank line, and the body (`\r\n` or `\n`). In the path and the header values
//! `{id}` becomes the id of a started three-seat Tulipmania game, `{t0}`…`{t2}` its seat
//! tokens and `{admin}` its admin token. The request goes to the whole app (`api::edge::app`)
//! over a MemoryStore;
//! the response must not be a 5xx.

use game_core::adapter::ActionError;
use game_core::{DynGame, DynRuleset, GameRng, Seat};
use serde_json::Value;
use std::sync::OnceLock;

/// The seed bytes and seat count of a fuzz input, and the lines after them.
struct Header<'a> {
    seats: u8,
    seed: [u8; 32],
    rest: &'a [u8],
}

fn header(data: &[u8], min: u8, max: u8) -> Header<'_> {
    let seats_byte = data.first().copied().unwrap_or(0);
    let span = u16::from(max - min) + 1;
    let seats = min + (u16::from(seats_byte) % span) as u8;
    let mut seed = *b"beurs-fuzz-seed:________________";
    let seed_bytes = data.get(1..data.len().min(9)).unwrap_or(&[]);
    seed[16..16 + seed_bytes.len()].copy_from_slice(seed_bytes);
    Header {
        seats,
        seed,
        rest: data.get(9..).unwrap_or(&[]),
    }
}

/// Deals a game, trying the two-player option where the plain setup refuses the seat count.
fn deal(ruleset: &dyn DynRuleset, seats: u8, seed: [u8; 32]) -> Option<Box<dyn DynGame>> {
    ruleset.setup(seats, &Value::Null, seed).ok().or_else(|| {
        ruleset
            .setup(seats, &serde_json::json!({"allow_two_players": true}), seed)
            .ok()
    })
}

fn is_kebab(code: &str) -> bool {
    !code.is_empty()
        && !code.starts_with('-')
        && !code.ends_with('-')
        && !code.contains("--")
        && code
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
}

/// A game under fuzzing: the state, its ruleset and how many moves were accepted.
struct Table<'r> {
    ruleset: &'r dyn DynRuleset,
    state: Box<dyn DynGame>,
    /// `state.state_json()`, kept to compare against without serializing again.
    state_json: String,
    seed: [u8; 32],
    accepted: u64,
}

impl Table<'_> {
    fn rng(&self) -> GameRng {
        GameRng::for_entry(self.seed, self.accepted + 1)
    }

    /// Submits `action` by `seat` and checks everything a submission must satisfy.
    fn submit(&mut self, seat: Seat, action: &Value) {
        let before = &self.state_json;
        let shape = self.ruleset.parse_action(action);
        let mut copy = self.state.clone_box();
        match copy.apply_json(seat, action, &mut self.rng()) {
            Err(error) => {
                assert_eq!(
                    &copy.state_json(),
                    before,
                    "a refused action changed the state: {action} by {seat:?} ({error})"
                );
                match error {
                    ActionError::Malformed(_) => assert!(
                        shape.is_err(),
                        "apply calls {action} malformed but parse_action accepts it"
                    ),
                    ActionError::Rule { code, .. } => {
                        assert!(
                            shape.is_ok(),
                            "parse_action refuses {action}, apply parsed it"
                        );
                        assert!(is_kebab(code), "rule code {code:?} is not kebab-case");
                    }
                }
            }
            Ok(applied) => {
                assert!(
                    shape.is_ok(),
                    "parse_action refuses an applied action {action}"
                );
                assert!(
                    self.state.to_act().contains(seat),
                    "{seat:?} acted with {action} without being in to_act"
                );
                // The normalised action (what the log stores) replays to the same state.
                let after = copy.state_json();
                if applied.action != *action {
                    let mut replay = self.state.clone_box();
                    replay
                        .apply_json(seat, &applied.action, &mut self.rng())
                        .unwrap_or_else(|error| {
                            panic!(
                                "the logged form {} does not replay: {error}",
                                applied.action
                            )
                        });
                    assert_eq!(
                        replay.state_json(),
                        after,
                        "the logged form replays differently"
                    );
                }
                let loaded = self.ruleset.load(&after).expect("a stored state loads");
                assert_eq!(
                    loaded.state_json(),
                    after,
                    "the state changed in a store round trip"
                );
                self.state = copy;
                self.state_json = after;
                self.accepted += 1;
                self.check_invariants();
            }
        }
    }

    fn check_invariants(&self) {
        let to_act = self.state.to_act();
        assert_eq!(
            to_act.is_empty(),
            self.state.outcome().is_some(),
            "to_act is empty exactly when the game has an outcome"
        );
        let waiting_on = self.state.waiting_on();
        assert!(
            waiting_on.is_subset(to_act),
            "waiting_on is not within to_act"
        );
        // (That seats outside to_act list nothing is checked by every game's playouts; it
        // costs a legal-action listing per seat, too slow to repeat here at every move.)
    }

    /// The bot: a random seat of `to_act` and a random listed (or sampled) action.
    fn bot_move(&mut self, bot: &mut GameRng) {
        let acting: Vec<Seat> = self.state.to_act().iter().collect();
        let Some(&seat) = bot.choose(&acting) else {
            return;
        };
        let legal = self.state.legal_actions(seat);
        let concrete: Vec<&Value> = legal
            .iter()
            .filter_map(|entry| entry.get("action"))
            .collect();
        let before = self.accepted;
        for _ in 0..4 {
            if let Some(action) = game_core::testing::random_action_json(&legal, bot) {
                self.submit(seat, &action);
                if self.accepted > before {
                    return;
                }
            }
        }
        if let Some(action) = bot.choose(&concrete) {
            let action = (*action).clone();
            self.submit(seat, &action);
            assert!(
                self.accepted > before,
                "the listed action {action} was refused"
            );
        }
    }

    /// One of `seat`'s listed actions with one integer set from the payload's bytes.
    fn renumbered_listed_action(&self, seat: Seat, payload: &[u8]) -> Option<Value> {
        let (&which, rest) = payload.split_first()?;
        let (&leaf, bytes) = rest.split_first()?;
        let legal = self.state.legal_actions(seat);
        let concrete: Vec<&Value> = legal
            .iter()
            .filter_map(|entry| entry.get("action"))
            .collect();
        let mut action = (*concrete.get(usize::from(which) % concrete.len().max(1))?).clone();
        let mut pointers = Vec::new();
        integer_pointers(&action, String::new(), &mut pointers);
        let pointer = pointers.get(usize::from(leaf) % pointers.len().max(1))?;
        let bytes = &bytes[..bytes.len().min(8)];
        let mut raw = [0u8; 8];
        raw[..bytes.len()].copy_from_slice(bytes);
        // Sign-extend from the width given, so one byte already reaches -128..=127.
        let shift = 64 - 8 * bytes.len().max(1) as u32;
        let number = (i64::from_le_bytes(raw) << shift) >> shift;
        *action.pointer_mut(pointer)? = Value::from(number);
        Some(action)
    }

    /// One of `seat`'s listed actions with one field replaced or removed.
    fn mutated_listed_action(&self, seat: Seat, payload: &[u8]) -> Option<Value> {
        let legal = self.state.legal_actions(seat);
        let concrete: Vec<&Value> = legal
            .iter()
            .filter_map(|entry| entry.get("action"))
            .collect();
        if concrete.is_empty() {
            return None;
        }
        let mut action = concrete[payload.len() % concrete.len()].clone();
        let object = action.as_object_mut()?;
        match payload.iter().position(|&byte| byte == b'=') {
            Some(split) => {
                let field = String::from_utf8_lossy(&payload[..split]).into_owned();
                let raw = &payload[split + 1..];
                let value = serde_json::from_slice(raw)
                    .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(raw).into_owned()));
                object.insert(field, value);
            }
            None => {
                object.remove(String::from_utf8_lossy(payload).as_ref());
            }
        }
        Some(action)
    }
}

/// JSON pointers to every integer inside `value`.
fn integer_pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Number(number) if number.is_i64() || number.is_u64() => out.push(at),
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                integer_pointers(item, format!("{at}/{index}"), out);
            }
        }
        Value::Object(fields) => {
            for (name, item) in fields {
                let escaped = name.replace('~', "~0").replace('/', "~1");
                integer_pointers(item, format!("{at}/{escaped}"), out);
            }
        }
        _ => {}
    }
}

/// The game target: see the module documentation for the input format.
pub fn fuzz_game(ruleset_id: &str, data: &[u8]) {
    let registry = registry();
    let ruleset = registry.get(ruleset_id).expect("the ruleset is registered");
    let (min, max) = ruleset.seat_range();
    let input = header(data, min, max);
    let Some(state) = deal(ruleset, input.seats, input.seed) else {
        return;
    };
    let mut table = Table {
        ruleset,
        state_json: state.state_json(),
        state,
        seed: input.seed,
        accepted: 0,
    };
    table.check_invariants();
    let mut bot = GameRng::for_entry(input.seed, u64::MAX);
    for line in input.rest.split(|&byte| byte == b'\n') {
        let Some((&control, payload)) = line.split_first() else {
            continue;
        };
        let seat = Seat((control >> 2) % input.seats);
        match control % 4 {
            0 => {
                for _ in 0..(control >> 2) % 16 + 1 {
                    table.bot_move(&mut bot);
                }
            }
            2 => {
                if let Some(action) = table.renumbered_listed_action(seat, payload) {
                    table.submit(seat, &action);
                }
            }
            3 => {
                if let Some(action) = table.mutated_listed_action(seat, payload) {
                    table.submit(seat, &action);
                }
            }
            _ => {
                if let Ok(action) = serde_json::from_slice::<Value>(payload) {
                    table.submit(seat, &action);
                }
            }
        }
    }
}

fn registry() -> &'static game_core::Registry {
    static REGISTRY: OnceLock<game_core::Registry> = OnceLock::new();
    REGISTRY.get_or_init(api::registry)
}

/// The HTTP target's world: one runtime, one context, one started game.
struct World {
    runtime: tokio::runtime::Runtime,
    /// The whole app, edge included, as `beurs serve` and the Lambda functions serve it.
    ctx: axum::Router,
    game: std::sync::Mutex<Started>,
}

struct Started {
    id: String,
    admin: String,
    tokens: Vec<String>,
    requests: u32,
}

fn call(
    world_runtime: &tokio::runtime::Runtime,
    app: &axum::Router,
    request: lambda_http::Request,
) -> lambda_http::Response<lambda_http::Body> {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    world_runtime.block_on(async {
        let response = app
            .clone()
            .oneshot(request)
            .await
            .unwrap_or_else(|never| match never {});
        let (parts, body) = response.into_parts();
        let bytes = body.collect().await.map(|body| body.to_bytes());
        let body = match bytes {
            Ok(bytes) => match String::from_utf8(bytes.to_vec()) {
                Ok(text) => lambda_http::Body::Text(text),
                Err(error) => lambda_http::Body::Binary(error.into_bytes()),
            },
            Err(_) => lambda_http::Body::Empty,
        };
        lambda_http::Response::from_parts(parts, body)
    })
}

fn body_json(response: &lambda_http::Response<lambda_http::Body>) -> Value {
    match response.body() {
        lambda_http::Body::Text(text) => serde_json::from_str(text).unwrap_or(Value::Null),
        _ => Value::Null,
    }
}

fn post_json(path: &str, body: &Value) -> lambda_http::Request {
    lambda_http::http::Request::builder()
        .method("POST")
        .uri(path)
        .header("content-type", "application/json")
        .body(lambda_http::Body::Text(body.to_string()))
        .expect("a valid request")
}

/// Creates a three-seat Tulipmania game and claims every seat.
fn start_game(runtime: &tokio::runtime::Runtime, ctx: &axum::Router) -> Started {
    let created = call(
        runtime,
        ctx,
        post_json(
            "/v1/games",
            &serde_json::json!({"ruleset": "tulipmania-1637", "seats": 3}),
        ),
    );
    assert_eq!(created.status(), 201, "the fuzz game is created");
    let created = body_json(&created);
    let id = created["id"].as_str().expect("an id").to_string();
    let tokens = (0..3)
        .map(|seat| {
            let claimed = call(
                runtime,
                ctx,
                post_json(
                    &format!("/v1/games/{id}/seats/{seat}"),
                    &serde_json::json!({"name": format!("fuzz {seat}")}),
                ),
            );
            assert_eq!(claimed.status(), 201, "seat {seat} is claimed");
            body_json(&claimed)["player_token"]
                .as_str()
                .expect("a token")
                .to_string()
        })
        .collect();
    Started {
        id,
        admin: created["admin_token"]
            .as_str()
            .expect("an admin token")
            .to_string(),
        tokens,
        requests: 0,
    }
}

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a runtime");
        let ctx = api::edge::app(
            std::sync::Arc::new(api::AppCtx::new(std::sync::Arc::new(
                store::MemoryStore::new(),
            ))),
            &api::edge::EdgeConfig::default(),
        );
        let game = start_game(&runtime, &ctx);
        World {
            runtime,
            ctx,
            game: std::sync::Mutex::new(game),
        }
    })
}

fn fill(text: &str, game: &Started) -> String {
    let mut text = text
        .replace("{id}", &game.id)
        .replace("{admin}", &game.admin);
    for (seat, token) in game.tokens.iter().enumerate() {
        text = text.replace(&format!("{{t{seat}}}"), token);
    }
    text
}

/// The HTTP target: see the module documentation for the input format.
pub fn fuzz_http(data: &[u8]) {
    let world = world();
    let mut game = world
        .game
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    // A fresh game now and then, so moves do not pile up in one game forever.
    game.requests += 1;
    if game.requests > 5_000 {
        *game = start_game(&world.runtime, &world.ctx);
    }
    let (head, body) = split_head(data);
    let head = String::from_utf8_lossy(head);
    let mut lines = head.lines();
    let request_line = lines.next().unwrap_or("");
    let (method, path) = request_line.split_once(' ').unwrap_or((request_line, "/"));
    let mut builder = lambda_http::http::Request::builder()
        .method(method.trim())
        .uri(fill(path.trim(), &game));
    for line in lines {
        let (name, value) = line.split_once(':').unwrap_or((line, ""));
        builder = builder.header(name.trim(), fill(value.trim(), &game));
    }
    // As `beurs serve` does: UTF-8 bodies are text, anything else binary.
    let body = match std::str::from_utf8(body) {
        _ if body.is_empty() => lambda_http::Body::Empty,
        Ok(text) => lambda_http::Body::Text(text.to_string()),
        Err(_) => lambda_http::Body::Binary(body.to_vec()),
    };
    // Requests hyper would refuse to parse (bad method, URI or header) never reach the API.
    let Ok(request) = builder.body(body) else {
        return;
    };
    let response = call(&world.runtime, &world.ctx, request);
    let status = response.status().as_u16();
    assert!(
        status < 500,
        "{request_line:?} got {status}: {:?}",
        response.body()
    );
    if status == 200 && method.trim() == "POST" && body_json(&response)["view"].is_object() {
        let envelope = call(
            &world.runtime,
            &world.ctx,
            lambda_http::http::Request::builder()
                .uri(format!("/v1/games/{}", game.id))
                .body(lambda_http::Body::Empty)
                .expect("a valid request"),
        );
        if body_json(&envelope)["status"] == "finished" {
            *game = start_game(&world.runtime, &world.ctx);
        }
    }
}

/// Splits at the first blank line (`\n\n` or `\r\n\r\n`): head and body.
fn split_head(data: &[u8]) -> (&[u8], &[u8]) {
    for (index, window) in data.windows(2).enumerate() {
        if window == b"\n\n" {
            return (&data[..index], &data[index + 2..]);
        }
        if window == b"\r\n" && data.get(index + 2..index + 4) == Some(b"\r\n") {
            return (&data[..index], &data[index + 4..]);
        }
    }
    (data, &[])
}
