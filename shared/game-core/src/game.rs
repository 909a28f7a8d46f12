//! The `Game` trait and the plain types around it.

use crate::words::Names;
use crate::{GameRng, Seat, SeatSet, Viewer};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// What a game type must offer to be described in the OpenAPI document. With the `openapi`
/// feature this is `utoipa::ToSchema`; without it, every type qualifies.
#[cfg(feature = "openapi")]
pub trait Schema: utoipa::ToSchema {}
#[cfg(feature = "openapi")]
impl<T: utoipa::ToSchema> Schema for T {}

/// What a game type must offer to be described in the OpenAPI document. With the `openapi`
/// feature this is `utoipa::ToSchema`; without it, every type qualifies.
#[cfg(not(feature = "openapi"))]
pub trait Schema {}
#[cfg(not(feature = "openapi"))]
impl<T> Schema for T {}

/// One game's rules. The implementing type is the complete game state.
///
/// Contract (checked for every game by [`crate::testing`]):
/// - `apply` validates fully before it mutates: an `Err` leaves the state unchanged;
/// - every concrete entry of `legal_actions` applies `Ok`;
/// - `to_act` is empty exactly when `outcome` is `Some`; `waiting_on ⊆ to_act`;
/// - `view` is the only way state reaches a player, and shows a viewer only what it may see;
/// - everything is deterministic given the seed, the options and the accepted actions.
pub trait Game:
    Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The ruleset id used in the API, e.g. `tulipmania-1637`.
    const RULESET: &'static str;
    /// The game's human-readable name.
    const NAME: &'static str;
    /// Bumped whenever a change would alter the replay of a recorded game.
    const RULES_VERSION: u32;
    /// What the game is about, for players choosing one: two to four plain sentences (the
    /// theme, the goal, how a turn goes, how it ends).
    const SUMMARY: &'static str;

    /// Whether this code still plays a game recorded under `rules_version` exactly as it was
    /// played then (its options, stored with the game, select the old behaviour), so the
    /// server may keep serving it and `verify` may replay it. By default only the current
    /// version; a game that keeps an older version reachable through its options says so.
    fn serves_rules_version(rules_version: u32) -> bool {
        rules_version == Self::RULES_VERSION
    }
    /// The fewest seats the game (with any options) supports.
    const MIN_SEATS: u8;
    /// The seat counts between [`Game::MIN_SEATS`] and [`Game::MAX_SEATS`] that deal only
    /// with a boolean option switched on, each with that option's name (Tulip Traders' two
    /// seats need `allow_two_players`). Every other count in the range deals with the default
    /// options; `testing::check_declarations` holds both to what `setup` does.
    const SEATS_WITH_OPTIONS: &'static [(u8, &'static str)] = &[];
    /// The `type` tag of every action of the game, each once. The API tells another game's
    /// action from a malformed one by them; the playouts check that every action played has
    /// one of them, and the API's tests that they are the action schema's tags.
    const ACTIONS: &'static [&'static str];
    /// The `type` tags of the moves that pass, declining to act, where the rules offer one:
    /// the `pass` timeout policy plays one of these when the seat's legal actions list it.
    /// Each ruleset's page in docs/rules names them.
    const PASSES: &'static [&'static str] = &[];
    /// The `type` tags of the moves a seat may make at any time that never hold the game up
    /// (Tulip Bubble's `buy_back`): a clock acting for an absent seat under the `pass` policy
    /// plays one only when the seat has no other move. Each ruleset's page in docs/rules
    /// names them.
    const ANY_TIME: &'static [&'static str] = &[];
    /// The most seats the game supports.
    const MAX_SEATS: u8;

    /// Options chosen at creation; `Default` gives the standard game. Unknown fields must be
    /// rejected (`#[serde(deny_unknown_fields)]`).
    type Options: Clone + Debug + Default + Serialize + DeserializeOwned + Schema;
    /// A move, serde-tagged: `{"type": "play_card", "card": "speculate"}`.
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Schema;
    /// Something that happened, as recorded in the log.
    type Event: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Schema;
    /// What one viewer may see of the state.
    type View: Serialize + Schema;
    /// Why a move was refused.
    type Error: RuleError;

    /// Deals a new game for `n_seats` players. Log entry 0 supplies `rng`. Returns the state
    /// and what the deal showed, as log entry 0's events: public events for what is dealt or
    /// rolled face up, and for each seat's hidden deal a private event (plus its redacted twin
    /// where the game logs draws that way).
    fn setup(
        n_seats: u8,
        options: &Self::Options,
        rng: &mut GameRng,
    ) -> Result<Setup<Self>, SetupError>;

    /// The number of seats at the table.
    fn n_seats(&self) -> u8;

    /// Every seat that has at least one legal action now. Empty means the game is over.
    fn to_act(&self) -> SeatSet;

    /// The seats the game cannot progress without (a subset of `to_act`). "Your turn"
    /// notifications go to these seats only.
    fn waiting_on(&self) -> SeatSet {
        self.to_act()
    }

    /// Everything `seat` may do now; empty for a seat not in `to_act`.
    fn legal_actions(&self, seat: Seat) -> Vec<LegalAction<Self::Action>>;

    /// Validates and applies `action` by `seat`. On `Err` the state is unchanged.
    fn apply(
        &mut self,
        seat: Seat,
        action: Self::Action,
        rng: &mut GameRng,
    ) -> Result<Vec<Logged<Self::Event>>, Self::Error>;

    /// What `viewer` may see.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The name of the phase the game is in, as its view names it (`purchase`, `sale`): a
    /// refused move's problem says it, beside the moves the seat may make instead.
    fn phase(&self) -> &'static str;

    /// Who is ahead now, by the game's own rough measure, as if it ended here; `None` (the
    /// default) when the game has none. The searching bots cut a playout of a long game
    /// short after a few dozen moves and score it with this; without it they play on to the
    /// end. Never shown to players, never used by the rules.
    fn standing(&self) -> Option<Outcome> {
        None
    }

    /// Whether `action` by `seat` is a move a person who plays to win might make: a bid no
    /// higher than what the lot can be worth, an offer that offers something. The bots play
    /// only sensible moves while they have one (the `random` bot's samples, the searching
    /// bots' candidates and playouts); the rules still accept every legal move, and the test
    /// harness still plays them all. It must depend only on what `seat` sees (the playout
    /// harness checks it against re-deals), like everything a bot decides from. The default:
    /// every move is sensible.
    fn sensible(&self, _seat: Seat, _action: &Self::Action) -> bool {
        true
    }

    /// The move a plain greedy player would make for `seat` now, if the game has one: a
    /// player with a plan (buy what should rise, sell what stands high, claim the prize when
    /// it may). The searching bots' playouts follow it most of the time and try it first
    /// ([`crate::search`]), so that a goal that takes many consistent moves, which random
    /// moves never string together, is still within their sight. It must depend only on what
    /// `seat` sees (the playout harness checks it against re-deals), and whatever it returns
    /// must be a move the rules accept. `rng` is for a plan that mixes its play. The default:
    /// no plan.
    fn plan(&self, _seat: Seat, _rng: &mut GameRng) -> Option<Self::Action> {
        None
    }

    /// When `action` is one combination of a pick (several items chosen at once: the tulips
    /// to bid on, the cards to discard), the field it picks into and the pick in words. The
    /// API's listing then offers all the pick's combinations as one schema entry that a
    /// client fills step by step, if they are every combination of their items
    /// ([`crate::pick`]). `None` (the default): the action is listed as it is.
    fn pick_of(&self, _seat: Seat, _action: &Self::Action) -> Option<crate::pick::Pick> {
        None
    }

    /// Who may read `action` by `seat` in the log. Sealed choices are shown only to their
    /// author (the events say the rest); everything else is public.
    fn action_visibility(_action: &Self::Action, _seat: Seat) -> Visibility {
        Visibility::Public
    }

    /// `action` by `seat` as a sentence a player understands, naming players by `names`
    /// ("Anna bids ƒ300 for the red tulip."). The API shows it beside the action in the log,
    /// only to readers who may read the action. Plain words: see [`crate::words`].
    fn describe_action(action: &Self::Action, seat: Seat, names: &Names) -> String;

    /// `event` as a sentence a player understands ("The red tulip rises to ƒ40."). Private
    /// events and their redacted twins each get their own sentence: the API describes the
    /// event the reader sees, so the twin's sentence must not say what the private event hides.
    fn describe_event(event: &Self::Event, names: &Names) -> String;

    /// `action` by `seat` as the label of a button a player clicks: a short imperative with
    /// the prices, colours and names that decide it ("Bid ƒ17", "Roll the dice", "Offer the
    /// red tulip for sale"), never the log's past-tense sentence. `self` is the state in which
    /// the action is legal, so a label may say what the action's fields do not (a price).
    fn label_action(&self, seat: Seat, action: &Self::Action, names: &Names) -> String;

    /// Whether `event` tells the move `action` itself, with what the action's sentence could
    /// not know (the faces a roll showed, the price a sale fetched). The log then shows the
    /// event's sentence as the entry's headline, in place of the action's, and does not
    /// repeat it among the move's consequences. No event restates an action by default.
    fn restates(_action: &Self::Action, _event: &Self::Event) -> bool {
        false
    }

    /// Whether `seat` may take back `action`, which it just made, leaving this state with
    /// `events`: the move showed nothing that was hidden from anyone (no card turned face up,
    /// no sealed choice resolved), so undoing it cannot let anyone peek. Each ruleset's page
    /// in docs/rules says which moves qualify. [`takeback_allowed`] adds the conditions every
    /// game shares (nothing drawn, nothing sealed or private, the game not over); the API
    /// adds that no other seat has acted since. No move may be taken back by default.
    fn undoable(
        &self,
        _seat: Seat,
        _action: &Self::Action,
        _events: &[Logged<Self::Event>],
    ) -> bool {
        false
    }
}

/// Whether the move `action` by `seat`, which left `state` with `events` and drew from the
/// random stream if `drew`, may be taken back: it drew nothing (so an undo cannot re-roll),
/// it is not sealed, every event it caused is public (nobody learnt anything privately),
/// the game is not over, and the ruleset's [`Game::undoable`] agrees.
pub fn takeback_allowed<G: Game>(
    state: &G,
    seat: Seat,
    action: &G::Action,
    events: &[Logged<G::Event>],
    drew: bool,
) -> bool {
    !drew
        && G::action_visibility(action, seat) == Visibility::Public
        && events
            .iter()
            .all(|logged| logged.visibility == Visibility::Public)
        && state.outcome().is_none()
        && state.undoable(seat, action, events)
}

/// What [`Game::setup`] returns: the new state and its events (log entry 0), each with its
/// visibility.
pub type Setup<G> = (G, Vec<Logged<<G as Game>::Event>>);

/// A refused move: a stable kebab-case code, its [`RuleKind`], and a human message (its
/// `Display`).
pub trait RuleError: std::error::Error + Clone + PartialEq + Send + Sync + 'static {
    /// The stable kebab-case code, e.g. `bid-too-low`.
    fn code(&self) -> &'static str;
    /// What kind of refusal this is. Every game classifies every error; the API maps kinds
    /// to statuses (`Turn` and `GameOver` are conflicts, `Rule` is unprocessable).
    fn kind(&self) -> RuleKind;
    /// Every code [`RuleError::code`] can return, each once with its kind: the closed set
    /// the API publishes. [`rule_error!`](crate::rule_error) implements `code`, `kind` and
    /// this from one table, so the list is complete by construction; the playout harness
    /// also checks every refusal it meets against it.
    fn all_codes() -> Vec<(&'static str, RuleKind)>;
}

/// Implements [`RuleError`] for an error enum from one table of
/// `pattern => "code", Kind;` rows (`Kind` a [`RuleKind`] variant): `code` and `kind` are
/// matches over the rows, so a variant without a row does not compile, and `all_codes` lists
/// the rows' codes (each once, in table order).
///
/// ```
/// #[derive(Clone, Debug, PartialEq, thiserror::Error)]
/// enum Refused {
///     #[error("over")]
///     Over,
///     #[error("not yet")]
///     NotYet(u8),
///     #[error("too low")]
///     TooLow { min: u32 },
/// }
/// game_core::rule_error! {
///     Refused {
///         Refused::Over => "game-over", GameOver;
///         Refused::NotYet(_) => "not-your-turn", Turn;
///         Refused::TooLow { .. } => "bid-too-low", Rule;
///     }
/// }
/// use game_core::{RuleError, RuleKind};
/// assert_eq!(Refused::NotYet(2).code(), "not-your-turn");
/// assert_eq!(Refused::all_codes()[2], ("bid-too-low", RuleKind::Rule));
/// ```
#[macro_export]
macro_rules! rule_error {
    ($error:ty { $($pattern:pat => $code:literal, $kind:ident;)+ }) => {
        impl $crate::RuleError for $error {
            fn code(&self) -> &'static str {
                match self {
                    $($pattern => $code,)+
                }
            }

            fn kind(&self) -> $crate::RuleKind {
                match self {
                    $($pattern => $crate::RuleKind::$kind,)+
                }
            }

            fn all_codes() -> ::std::vec::Vec<(&'static str, $crate::RuleKind)> {
                let mut codes: ::std::vec::Vec<(&'static str, $crate::RuleKind)> =
                    ::std::vec::Vec::new();
                for row in [$(($code, $crate::RuleKind::$kind)),+] {
                    if !codes.contains(&row) {
                        codes.push(row);
                    }
                }
                codes
            }
        }
    };
}

/// The kind of a refused move, the same family across every game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleKind {
    /// Turn order: the seat may not act now, or it already acted or committed in this step
    /// (codes `not-your-turn`, `already-committed`, and a game's own turn-order codes).
    Turn,
    /// The game is finished (`game-over`).
    GameOver,
    /// The rules refuse this move.
    Rule,
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The game does not support this many seats (with these options).
    #[error("this game needs {min} to {max} seats, not {got}")]
    SeatCount {
        /// Fewest seats allowed.
        min: u8,
        /// Most seats allowed.
        max: u8,
        /// Seats asked for.
        got: u8,
    },
    /// The options do not parse or are inconsistent.
    #[error("invalid options: {0}")]
    InvalidOptions(String),
}

impl SetupError {
    /// The stable problem code.
    pub fn code(&self) -> &'static str {
        match self {
            SetupError::SeatCount { .. } => "bad-seat-count",
            SetupError::InvalidOptions(_) => "invalid-options",
        }
    }
}

/// One entry of `legal_actions`: a complete action, or a JSON Schema the action must match
/// (for moves with large spaces such as bids); the engine still has the final word.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LegalAction<A> {
    /// A complete action, ready to submit.
    Action {
        /// The action.
        action: A,
    },
    /// A family of actions described by a JSON Schema.
    Schema {
        /// What the family is, for humans.
        label: String,
        /// A JSON Schema (integers with bounds, enums, arrays with item counts, objects),
        /// shared: an engine that lists the same schema many times builds it once.
        schema: std::sync::Arc<serde_json::Value>,
    },
}

impl<A> LegalAction<A> {
    /// A complete action.
    pub fn action(action: A) -> Self {
        LegalAction::Action { action }
    }
}

/// Who may see an event (or an action) in the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Every seat and every spectator.
    Public,
    /// Only these seats.
    Seats(SeatSet),
    /// Everyone (spectators included) except these seats.
    AllExcept(SeatSet),
}

impl Visibility {
    /// Whether `viewer` may see something with this visibility.
    pub fn shows(self, viewer: Viewer) -> bool {
        match (self, viewer) {
            (Visibility::Public, _) => true,
            (Visibility::Seats(seats), Viewer::Seat(seat)) => seats.contains(seat),
            (Visibility::Seats(_), Viewer::Spectator) => false,
            (Visibility::AllExcept(seats), Viewer::Seat(seat)) => !seats.contains(seat),
            (Visibility::AllExcept(_), Viewer::Spectator) => true,
        }
    }
}

/// An event together with who may see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Logged<E> {
    /// Who may see the event.
    pub visibility: Visibility,
    /// What happened.
    pub event: E,
}

impl<E> Logged<E> {
    /// An event everyone may see.
    pub fn public(event: E) -> Self {
        Logged {
            visibility: Visibility::Public,
            event,
        }
    }

    /// An event only `seat` may see.
    pub fn private(seat: Seat, event: E) -> Self {
        Logged {
            visibility: Visibility::Seats(SeatSet::only(seat)),
            event,
        }
    }

    /// An event everyone except `seat` may see (the redacted twin of a private event).
    pub fn others(seat: Seat, event: E) -> Self {
        Logged {
            visibility: Visibility::AllExcept(SeatSet::only(seat)),
            event,
        }
    }
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Outcome {
    /// Each seat's final score, by seat.
    pub scores: Vec<i64>,
    /// Each seat's rank, by seat: 1 + the number of seats that did strictly better.
    pub ranks: Vec<u8>,
    /// Every seat of rank 1 (ties share the win).
    pub winners: SeatSet,
    /// Why the game ended, e.g. `final_burst`.
    pub reason: String,
}

impl Outcome {
    /// Ranks by score alone: higher is better, equal scores share a rank.
    pub fn from_scores(scores: Vec<i64>, reason: impl Into<String>) -> Outcome {
        let keys: Vec<Vec<i64>> = scores.iter().map(|&score| vec![score]).collect();
        Outcome::from_keys(scores, &keys, reason)
    }

    /// Ranks by `keys` compared lexicographically (score first, then tie-breakers); higher
    /// is better and equal keys share a rank. `scores` is what is reported.
    pub fn from_keys(scores: Vec<i64>, keys: &[Vec<i64>], reason: impl Into<String>) -> Outcome {
        let ranks: Vec<u8> = keys
            .iter()
            .map(|key| 1 + keys.iter().filter(|other| *other > key).count() as u8)
            .collect();
        let winners = ranks
            .iter()
            .enumerate()
            .filter(|(_, &rank)| rank == 1)
            .map(|(seat, _)| Seat(seat as u8))
            .collect();
        Outcome {
            scores,
            ranks,
            winners,
            reason: reason.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_ranks_share_ties() {
        let outcome = Outcome::from_scores(vec![500, 900, 900, 100], "done");
        assert_eq!(outcome.ranks, vec![3, 1, 1, 4]);
        assert_eq!(outcome.winners, [Seat(1), Seat(2)].into_iter().collect());
    }

    #[test]
    fn tie_breakers_separate_equal_scores() {
        let keys = vec![vec![900, 2], vec![900, 3], vec![100, 9]];
        let outcome = Outcome::from_keys(vec![900, 900, 100], &keys, "done");
        assert_eq!(outcome.ranks, vec![2, 1, 3]);
        assert_eq!(outcome.winners, SeatSet::only(Seat(1)));
    }

    #[test]
    fn visibility_rules() {
        let ann = Viewer::Seat(Seat(0));
        let bill = Viewer::Seat(Seat(1));
        assert!(Visibility::Public.shows(Viewer::Spectator));
        assert!(Visibility::Seats(SeatSet::only(Seat(0))).shows(ann));
        assert!(!Visibility::Seats(SeatSet::only(Seat(0))).shows(bill));
        assert!(!Visibility::Seats(SeatSet::only(Seat(0))).shows(Viewer::Spectator));
        assert!(!Visibility::AllExcept(SeatSet::only(Seat(0))).shows(ann));
        assert!(Visibility::AllExcept(SeatSet::only(Seat(0))).shows(bill));
        assert!(Visibility::AllExcept(SeatSet::only(Seat(0))).shows(Viewer::Spectator));
    }

    #[test]
    fn legal_action_json_shapes() {
        let concrete: LegalAction<u8> = LegalAction::action(3);
        assert_eq!(serde_json::to_string(&concrete).unwrap(), r#"{"action":3}"#);
        let schema: LegalAction<u8> = LegalAction::Schema {
            label: "bid".into(),
            schema: serde_json::json!({"type": "integer"}).into(),
        };
        assert_eq!(
            serde_json::to_string(&schema).unwrap(),
            r#"{"label":"bid","schema":{"type":"integer"}}"#
        );
    }
}
