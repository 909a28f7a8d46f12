//! The type-erased face of a game: JSON in, JSON out, selected at runtime by ruleset id.
//!
//! [`DynGame`] has one blanket impl over every [`Game`], so a `Box<dyn DynGame>` *is* the
//! game state; [`Erased<G>`] is the [`DynRuleset`] that creates and loads it. The API holds a
//! [`Registry`] of rulesets and never names a concrete game type outside of building it.

use crate::search::{self, Budget, Choice, Redeal};
use crate::words::Names;
use crate::{
    Game, GameRng, LegalAction, Logged, Outcome, RuleError, RuleKind, Seat, SeatSet, SetupError,
    Viewer, Visibility,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt::Debug;
use std::marker::PhantomData;

/// An action the engine refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The JSON is not an action of this game (unknown type, missing field, wrong type).
    #[error("not an action of this game: {0}")]
    Malformed(String),
    /// The action is well formed but the rules refuse it.
    #[error("{message}")]
    Rule {
        /// The rule's stable kebab-case code.
        code: &'static str,
        /// A human message that reveals nothing hidden.
        message: String,
        /// Turn order, game over, or refused by the rules.
        kind: RuleKind,
    },
}

/// An event as stored in the log: its visibility and its JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoggedJson {
    /// Who may see the event.
    pub visibility: Visibility,
    /// The event.
    pub event: Value,
}

/// What an accepted action produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    /// The action as the engine parsed it (normalised JSON).
    pub action: Value,
    /// Who may read the action in the log.
    pub action_visibility: Visibility,
    /// The events, each with its visibility.
    pub events: Vec<LoggedJson>,
    /// Whether the mover may take the move back ([`crate::takeback_allowed`]).
    pub undoable: bool,
}

/// A new game and what its deal showed (log entry 0's events).
#[derive(Debug)]
pub struct Dealt {
    /// The game state.
    pub game: Box<dyn DynGame>,
    /// The setup events, each with its visibility.
    pub events: Vec<LoggedJson>,
}

/// A game state behind a trait object.
pub trait DynGame: Send + Sync + Debug {
    /// The number of seats.
    fn n_seats(&self) -> u8;
    /// Every seat with a legal action now.
    fn to_act(&self) -> SeatSet;
    /// The seats the game is waiting on.
    fn waiting_on(&self) -> SeatSet;
    /// The seat's legal actions, each `{"action": …}` or `{"label": …, "schema": …}`.
    fn legal_actions(&self, seat: Seat) -> Vec<Value>;
    /// [`DynGame::legal_actions`] as the API lists them, serialized, with the combinations of a
    /// pick folded into one schema entry ([`crate::pick`]); each ready action also
    /// carries its button label ([`Game::label_action`]), its words (`text`,
    /// [`Game::describe_action`] with `names`) and whether it is
    /// sealed ([`Game::action_visibility`] not public). Built from the typed actions, so
    /// nothing is parsed back from JSON.
    fn legal_actions_listed(&self, seat: Seat, names: &Names) -> Box<serde_json::value::RawValue>;
    /// [`Game::label_action`] of `action` by `seat` in this state; `None` if it is not an
    /// action of this game.
    fn label(&self, seat: Seat, action: &Value, names: &Names) -> Option<String>;
    /// Parses and applies an action. On `Err` the state is unchanged.
    fn apply_json(
        &mut self,
        seat: Seat,
        action: &Value,
        rng: &mut GameRng,
    ) -> Result<Applied, ActionError>;
    /// What `viewer` may see.
    fn view_json(&self, viewer: Viewer) -> Value;
    /// [`DynGame::view_json`] serialized: the same JSON, without building a `Value` first
    /// (what the API sends).
    fn view_raw(&self, viewer: Viewer) -> Box<serde_json::value::RawValue>;
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// [`Game::phase`].
    fn phase(&self) -> &'static str;
    /// The full state as JSON (for storage and audit only, never for a client).
    fn state_json(&self) -> String;
    /// A copy of the state.
    fn clone_box(&self) -> Box<dyn DynGame>;
    /// A move for `seat` chosen by [`crate::search::choose`] within `budget` and until
    /// `spent` reaches 1 (the action `None`: wait, if `may_wait`), with what the search
    /// counted. The search sees `seat`'s legal actions and worlds re-dealt for `seat`
    /// ([`Redeal`]), never this state.
    fn search_move(
        &self,
        seat: Seat,
        budget: &Budget,
        may_wait: bool,
        spent: &mut dyn FnMut() -> f64,
        rng: &mut GameRng,
    ) -> Option<Choice<Value>>;
    /// Up to `count` random moves for `seat` as the `random` bot plays them
    /// ([`search::sensible_action`]: sensible ones while it has any), drawn in a world
    /// re-dealt for `seat` ([`Redeal`]), never in this state, so they carry nothing `seat`
    /// cannot see; each one the world accepts. Empty when `seat` has nothing to do.
    fn sensible_moves(&self, seat: Seat, count: u32, rng: &mut GameRng) -> Vec<Value>;
}

impl<G: Game + Redeal> DynGame for G {
    fn n_seats(&self) -> u8 {
        Game::n_seats(self)
    }

    fn to_act(&self) -> SeatSet {
        Game::to_act(self)
    }

    fn waiting_on(&self) -> SeatSet {
        Game::waiting_on(self)
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Value> {
        Game::legal_actions(self, seat)
            .iter()
            .map(|legal| serde_json::to_value(legal).expect("legal actions serialize"))
            .collect()
    }

    fn legal_actions_listed(&self, seat: Seat, names: &Names) -> Box<serde_json::value::RawValue> {
        let legal = Game::legal_actions(self, seat);
        let slots = crate::pick::slots(self, seat, &legal);
        let listed: Vec<Listed<'_, G::Action>> = legal
            .iter()
            .zip(slots)
            .filter_map(|(legal, slot)| match (legal, slot) {
                (_, crate::pick::Slot::Folded) => None,
                (
                    _,
                    crate::pick::Slot::Pick {
                        label,
                        schema,
                        sealed,
                    },
                ) => Some(Listed::Pick {
                    label,
                    schema,
                    sealed: sealed.then_some(true),
                }),
                (LegalAction::Action { action }, crate::pick::Slot::Own) => Some(Listed::Action {
                    label: self.label_action(seat, action, names),
                    text: G::describe_action(action, seat, names),
                    sealed: G::action_visibility(action, seat) != Visibility::Public,
                    action,
                }),
                (LegalAction::Schema { label, schema }, crate::pick::Slot::Own) => {
                    Some(Listed::Schema {
                        label,
                        schema: crate::action_schema::label_seats(schema, names).map_or(
                            std::borrow::Cow::Borrowed(schema.as_ref()),
                            std::borrow::Cow::Owned,
                        ),
                        sealed: schema_sealed::<G>(schema, seat).then_some(true),
                    })
                }
            })
            .collect();
        serde_json::value::to_raw_value(&listed).expect("legal actions serialize")
    }

    fn label(&self, seat: Seat, action: &Value, names: &Names) -> Option<String> {
        let action = G::Action::deserialize(action).ok()?;
        Some(self.label_action(seat, &action, names))
    }

    fn apply_json(
        &mut self,
        seat: Seat,
        action: &Value,
        rng: &mut GameRng,
    ) -> Result<Applied, ActionError> {
        let action = G::Action::deserialize(action)
            .map_err(|error| ActionError::Malformed(error.to_string()))?;
        let action_json = serde_json::to_value(&action).expect("actions serialize");
        let action_visibility = G::action_visibility(&action, seat);
        let events =
            Game::apply(self, seat, action.clone(), rng).map_err(|error| ActionError::Rule {
                code: error.code(),
                message: error.to_string(),
                kind: error.kind(),
            })?;
        // The stream is the move's own (one per log entry), so anything drawn was drawn by it.
        let drew = rng.drawn();
        Ok(Applied {
            action: action_json,
            action_visibility,
            undoable: crate::takeback_allowed(self, seat, &action, &events, drew),
            events: events.iter().map(to_logged_json).collect(),
        })
    }

    fn view_json(&self, viewer: Viewer) -> Value {
        serde_json::to_value(Game::view(self, viewer)).expect("views serialize")
    }

    fn view_raw(&self, viewer: Viewer) -> Box<serde_json::value::RawValue> {
        serde_json::value::to_raw_value(&Game::view(self, viewer)).expect("views serialize")
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }

    fn phase(&self) -> &'static str {
        Game::phase(self)
    }

    fn state_json(&self) -> String {
        serde_json::to_string(self).expect("states serialize")
    }

    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }

    fn search_move(
        &self,
        seat: Seat,
        budget: &Budget,
        may_wait: bool,
        spent: &mut dyn FnMut() -> f64,
        rng: &mut GameRng,
    ) -> Option<Choice<Value>> {
        let choice = search::choose_for(self, seat, budget, may_wait, spent, rng)?;
        Some(Choice {
            action: choice
                .action
                .map(|action| serde_json::to_value(&action).expect("actions serialize")),
            playouts: choice.playouts,
            candidates: choice.candidates,
            finalists: choice.finalists,
        })
    }

    fn sensible_moves(&self, seat: Seat, count: u32, rng: &mut GameRng) -> Vec<Value> {
        let world = self.redeal(Viewer::Seat(seat), rng);
        let legal = Game::legal_actions(&world, seat);
        let mut moves = Vec::new();
        let mut others = Vec::new();
        // Moves the world refuses (a constraint no schema states) are drawn again, a few
        // times over: the rules would refuse them in the real game too, since the world
        // differs from it only in what the seat cannot see. Moves that are not sensible
        // (what `sensible_action` settles for when its draws found none) come last.
        for _ in 0..count.saturating_mul(4) {
            if moves.len() >= count as usize {
                break;
            }
            let Some(action) = search::sensible_action(&world, seat, &legal, rng) else {
                break;
            };
            if world.clone().apply(seat, action.clone(), rng).is_ok() {
                let json = serde_json::to_value(&action).expect("actions serialize");
                if world.sensible(seat, &action) {
                    moves.push(json);
                } else {
                    others.push(json);
                }
            }
        }
        moves.extend(others);
        moves.truncate(count as usize);
        moves
    }
}

fn to_logged_json<E: Serialize>(logged: &Logged<E>) -> LoggedJson {
    LoggedJson {
        visibility: logged.visibility,
        event: serde_json::to_value(&logged.event).expect("events serialize"),
    }
}

/// The OpenAPI schemas of one game, named after the game.
#[cfg(feature = "openapi")]
pub struct GameSchemas {
    /// Name and schema of the options type.
    pub options: (
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    ),
    /// Name and schema of the action type.
    pub action: (
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    ),
    /// Name and schema of the view type.
    pub view: (
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    ),
    /// Name and schema of the event type.
    pub event: (
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    ),
    /// Every schema the four above refer to.
    pub components: Vec<(
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    )>,
}

/// A ruleset behind a trait object: creates and loads games of one kind.
pub trait DynRuleset: Send + Sync {
    /// The ruleset id, e.g. `tulipmania-1637`.
    fn id(&self) -> &'static str;
    /// The game's name.
    fn name(&self) -> &'static str;
    /// What the game is about, for players ([`Game::SUMMARY`]).
    fn summary(&self) -> &'static str;
    /// The rules version recorded with every new game.
    fn rules_version(&self) -> u32;
    /// Whether games recorded under `rules_version` are still served and replayed exactly
    /// (see [`Game::serves_rules_version`]).
    fn serves_rules_version(&self, rules_version: u32) -> bool;
    /// The fewest and most seats.
    fn seat_range(&self) -> (u8, u8);
    /// The seat counts that deal only with a boolean option on ([`Game::SEATS_WITH_OPTIONS`]).
    fn seats_with_options(&self) -> &'static [(u8, &'static str)];
    /// The `type` tags of the game's actions ([`Game::ACTIONS`]).
    fn action_types(&self) -> &'static [&'static str];
    /// Parses options (missing fields take their defaults) and returns them normalised.
    fn normalize_options(&self, options: &Value) -> Result<Value, SetupError>;
    /// Deals a new game; the randomness is log entry 0 of `seed`. The setup events belong in
    /// log entry 0.
    fn deal(&self, n_seats: u8, options: &Value, seed: [u8; 32]) -> Result<Dealt, SetupError>;
    /// The game of [`DynRuleset::deal`] without its setup events: for trial deals and replays
    /// that only need the state. Whatever writes or verifies a log uses `deal`.
    fn setup(
        &self,
        n_seats: u8,
        options: &Value,
        seed: [u8; 32],
    ) -> Result<Box<dyn DynGame>, SetupError> {
        self.deal(n_seats, options, seed).map(|dealt| dealt.game)
    }
    /// Checks that `action` is an action of this game (its shape only, not its legality) and
    /// returns it normalised, as the log would store it.
    fn parse_action(&self, action: &Value) -> Result<Value, ActionError>;
    /// Every rule code an action of this game can be refused with ([`ActionError::Rule`]),
    /// each once with its kind ([`RuleError::all_codes`]). The adapter adds none of its own:
    /// an action that does not parse is [`ActionError::Malformed`], which has no code (the
    /// API answers it as a bad request).
    fn rule_codes(&self) -> Vec<(&'static str, RuleKind)>;
    /// Loads a stored state.
    fn load(&self, state_json: &str) -> Result<Box<dyn DynGame>, serde_json::Error>;
    /// [`Game::describe_action`] of a logged action; `None` if it is not an action of this
    /// game.
    fn describe_action(&self, action: &Value, seat: Seat, names: &Names) -> Option<String>;
    /// [`Game::describe_event`] of a logged event; `None` if it is not an event of this game.
    fn describe_event(&self, event: &Value, names: &Names) -> Option<String>;
    /// Whether `action` by `seat` is sealed: hidden from the other seats once played
    /// ([`Game::action_visibility`] is not public). `None` if it is not an action of this game.
    fn is_sealed(&self, action: &Value, seat: Seat) -> Option<bool>;
    /// [`Game::restates`] of a logged action and one of its events; `None` if either is not
    /// this game's.
    fn restates(&self, action: &Value, event: &Value) -> Option<bool>;
    /// The `type` tags of the game's passing moves ([`Game::PASSES`]).
    fn passes(&self) -> &'static [&'static str];
    /// The `type` tags of the game's any-time moves ([`Game::ANY_TIME`]).
    fn any_time(&self) -> &'static [&'static str];
    /// The game's OpenAPI schemas.
    #[cfg(feature = "openapi")]
    fn schemas(&self) -> GameSchemas;
}

/// One entry of [`DynGame::legal_actions_listed`].
#[derive(Serialize)]
#[serde(untagged)]
enum Listed<'a, A> {
    Action {
        action: &'a A,
        label: String,
        text: String,
        sealed: bool,
    },
    Schema {
        label: &'a str,
        schema: std::borrow::Cow<'a, Value>,
        #[serde(skip_serializing_if = "Option::is_none")]
        sealed: Option<bool>,
    },
    /// A pick's combinations as one schema entry ([`crate::pick`]).
    Pick {
        label: String,
        schema: Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        sealed: Option<bool>,
    },
}

/// Whether the moves of a schema entry are sealed: one instance of the schema, asked
/// [`Game::action_visibility`]. Every game's visibility depends on the kind of move only (the
/// API's schema-filler test holds each listing's `sealed` to the moves it accepts).
fn schema_sealed<G: Game>(schema: &Value, seat: Seat) -> bool {
    crate::sample::sample(schema, &mut GameRng::for_entry([0; 32], 0))
        .and_then(|instance| G::Action::deserialize(&instance).ok())
        .is_some_and(|action| G::action_visibility(&action, seat) != Visibility::Public)
}

/// The [`DynRuleset`] of the game `G`.
pub struct Erased<G>(PhantomData<fn() -> G>);

impl<G> Default for Erased<G> {
    fn default() -> Self {
        Erased(PhantomData)
    }
}

fn parse_options<G: Game>(options: &Value) -> Result<G::Options, SetupError> {
    let options = if options.is_null() {
        &Value::Object(Default::default())
    } else {
        options
    };
    G::Options::deserialize(options).map_err(|error| SetupError::InvalidOptions(error.to_string()))
}

impl<G: Game + Redeal> DynRuleset for Erased<G> {
    fn id(&self) -> &'static str {
        G::RULESET
    }

    fn name(&self) -> &'static str {
        G::NAME
    }

    fn summary(&self) -> &'static str {
        G::SUMMARY
    }

    fn rules_version(&self) -> u32 {
        G::RULES_VERSION
    }

    fn serves_rules_version(&self, rules_version: u32) -> bool {
        G::serves_rules_version(rules_version)
    }

    fn seat_range(&self) -> (u8, u8) {
        (G::MIN_SEATS, G::MAX_SEATS)
    }

    fn seats_with_options(&self) -> &'static [(u8, &'static str)] {
        G::SEATS_WITH_OPTIONS
    }

    fn action_types(&self) -> &'static [&'static str] {
        G::ACTIONS
    }

    fn normalize_options(&self, options: &Value) -> Result<Value, SetupError> {
        let parsed = parse_options::<G>(options)?;
        Ok(serde_json::to_value(parsed).expect("options serialize"))
    }

    fn deal(&self, n_seats: u8, options: &Value, seed: [u8; 32]) -> Result<Dealt, SetupError> {
        if !(G::MIN_SEATS..=G::MAX_SEATS).contains(&n_seats) {
            return Err(SetupError::SeatCount {
                min: G::MIN_SEATS,
                max: G::MAX_SEATS,
                got: n_seats,
            });
        }
        let options = parse_options::<G>(options)?;
        let mut rng = GameRng::for_entry(seed, 0);
        let (game, events) = G::setup(n_seats, &options, &mut rng)?;
        Ok(Dealt {
            game: Box::new(game),
            events: events.iter().map(to_logged_json).collect(),
        })
    }

    fn parse_action(&self, action: &Value) -> Result<Value, ActionError> {
        G::Action::deserialize(action)
            .map(|action| serde_json::to_value(action).expect("actions serialize"))
            .map_err(|error| ActionError::Malformed(error.to_string()))
    }

    fn rule_codes(&self) -> Vec<(&'static str, RuleKind)> {
        G::Error::all_codes()
    }

    fn load(&self, state_json: &str) -> Result<Box<dyn DynGame>, serde_json::Error> {
        Ok(Box::new(serde_json::from_str::<G>(state_json)?))
    }

    fn describe_action(&self, action: &Value, seat: Seat, names: &Names) -> Option<String> {
        let action = G::Action::deserialize(action).ok()?;
        Some(G::describe_action(&action, seat, names))
    }

    fn describe_event(&self, event: &Value, names: &Names) -> Option<String> {
        let event = G::Event::deserialize(event).ok()?;
        Some(G::describe_event(&event, names))
    }

    fn is_sealed(&self, action: &Value, seat: Seat) -> Option<bool> {
        let action = G::Action::deserialize(action).ok()?;
        Some(G::action_visibility(&action, seat) != Visibility::Public)
    }

    fn restates(&self, action: &Value, event: &Value) -> Option<bool> {
        let action = G::Action::deserialize(action).ok()?;
        let event = G::Event::deserialize(event).ok()?;
        Some(G::restates(&action, &event))
    }

    fn passes(&self) -> &'static [&'static str] {
        G::PASSES
    }

    fn any_time(&self) -> &'static [&'static str] {
        G::ANY_TIME
    }

    #[cfg(feature = "openapi")]
    fn schemas(&self) -> GameSchemas {
        use utoipa::{PartialSchema, ToSchema};
        let mut components = Vec::new();
        G::Options::schemas(&mut components);
        G::Action::schemas(&mut components);
        G::View::schemas(&mut components);
        G::Event::schemas(&mut components);
        GameSchemas {
            options: (G::Options::name().into_owned(), G::Options::schema()),
            action: (G::Action::name().into_owned(), G::Action::schema()),
            view: (G::View::name().into_owned(), G::View::schema()),
            event: (G::Event::name().into_owned(), G::Event::schema()),
            components,
        }
    }
}

/// The rulesets a server offers, in registration order.
#[derive(Default)]
pub struct Registry {
    rulesets: Vec<Box<dyn DynRuleset>>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// The registry with game `G` added.
    pub fn with<G: Game + Redeal>(mut self) -> Registry {
        self.rulesets.push(Box::new(Erased::<G>::default()));
        self
    }

    /// The ruleset with this id.
    pub fn get(&self, id: &str) -> Option<&dyn DynRuleset> {
        self.rulesets
            .iter()
            .find(|ruleset| ruleset.id() == id)
            .map(|ruleset| ruleset.as_ref())
    }

    /// Every ruleset.
    pub fn iter(&self) -> impl Iterator<Item = &dyn DynRuleset> {
        self.rulesets.iter().map(|ruleset| ruleset.as_ref())
    }
}

/// Parses a legal-action entry produced by [`DynGame::legal_actions`].
pub fn parse_legal_action(entry: &Value) -> Option<LegalAction<Value>> {
    LegalAction::<Value>::deserialize(entry).ok()
}
