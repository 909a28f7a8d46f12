//! Tulipmania 1637 (Scott Nicholson, JKLM Games, 2009) for 3–5 players, as a pure rules
//! crate implementing [`game_core::Game`] with ruleset id `tulipmania-1637`.
//!
//! The rules implemented are those of the spec `rules/tulipmania.md` (section numbers in
//! comments refer to it); `docs/rules/tulipmania.md` restates them with every decision.
//!
//! Layout:
//! - [`types`]: colours, action cards, counters, discard reasons;
//! - [`board`]: the market board as data (the reconstructed default table and the
//!   validation of replacement tables, spec §1.5);
//! - [`options`]: the options of spec §7.1;
//! - [`state`]: the full state and its quiescent phases;
//! - [`setup`]: the deal (spec §1.3, §5);
//! - [`rules`]: `check` (the single source of legality) and the state machine (spec §3–§4);
//! - [`action`]: actions, events, error codes (spec §4.0);
//! - [`view`]: per-viewer views and the re-deal of hidden cards for the no-leak test;
//! - [`scenario`]: the test-table conventions of spec §8 for building positions;
//! - [`words`]: the summary and the log's sentences.
//!
//! Architecture invariant: no I/O, no clock, no randomness outside setup (which draws only
//! from the `GameRng` it is given); the state is plain data, so a game replays exactly from
//! its seed, options and accepted actions.
//!
//! Glossary: a *buyer* card is the rulebook's buyer card (a right to buy by proxy); a
//! *marker* is the tulip that marks a colour's price on the board; the *stock* is the
//! stockpile; the *seller* is the current player during his sale; a colour is *live* until it
//! bursts.

pub mod action;
pub mod board;
pub mod options;
pub mod rules;
pub mod scenario;
pub mod setup;
pub mod state;
pub mod types;
pub mod view;
pub mod words;

pub use action::{Action, EndReason, Event, TulipError};
pub use board::{Board, BoardName, BoardOption, SpaceKind, SpaceSpec};
pub use options::{BottomDescent, CashTie, IdleRoundRule, IllegalCardPolicy, Options};
pub use state::{Phase, Tulipmania};
pub use types::{Card, Colour, Florins};
pub use view::View;

use game_core::words::Names;
use game_core::{
    Game, GameRng, LegalAction, Logged, Outcome, Seat, SeatSet, SetupError, Viewer, Visibility,
};

impl Game for Tulipmania {
    const RULESET: &'static str = "tulipmania-1637";
    const NAME: &'static str = "Tulipmania 1637";
    const RULES_VERSION: u32 = 1;
    const MIN_SEATS: u8 = setup::MIN_PLAYERS;
    const MAX_SEATS: u8 = setup::MAX_PLAYERS;
    const ACTIONS: &'static [&'static str] = &[
        "sell_tulip",
        "skip_sale",
        "commit_card",
        "play_seller_card",
        "draw_buyer",
        "buy_tulip",
        "skip_purchase",
    ];
    const PASSES: &'static [&'static str] = &["skip_sale", "skip_purchase"];
    const SUMMARY: &'static str = words::SUMMARY;

    type Options = Options;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Error = TulipError;

    fn setup(
        n_seats: u8,
        options: &Options,
        rng: &mut GameRng,
    ) -> Result<(Self, Vec<Logged<Event>>), SetupError> {
        setup::new_game(n_seats, options, rng)
    }

    fn n_seats(&self) -> u8 {
        self.n_seats
    }

    fn to_act(&self) -> SeatSet {
        self.acting_seats()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<LegalAction<Action>> {
        self.legal_action_list(seat)
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        _rng: &mut GameRng,
    ) -> Result<Vec<Logged<Event>>, TulipError> {
        // Every random draw happens at setup (spec §5), so the step's stream is not used.
        self.apply_action(seat, action)
    }

    fn view(&self, viewer: Viewer) -> View {
        self.view_for(viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result()
    }

    fn action_visibility(action: &Action, seat: Seat) -> Visibility {
        match action {
            // A sealed card is seen by its author only; `card_committed` tells the others.
            Action::CommitCard { .. } => Visibility::Seats(SeatSet::only(seat)),
            _ => Visibility::Public,
        }
    }

    fn describe_action(action: &Action, seat: Seat, names: &Names) -> String {
        words::describe_action(action, seat, names)
    }

    fn describe_event(event: &Event, names: &Names) -> String {
        words::describe_event(event, names)
    }
}

impl game_core::Redeal for Tulipmania {
    fn redeal(&self, viewer: Viewer, rng: &mut GameRng) -> Self {
        self.redeal_for(viewer, rng)
    }
}

#[cfg(all(test, feature = "openapi"))]
mod openapi_tests {
    /// Every schema component of this game is named `tulipmania.*`, so names stay unique
    /// across the games the API serves.
    #[test]
    fn schema_names_are_prefixed() {
        game_core::testing::assert_schema_names_prefixed::<super::Tulipmania>(
            "tulipmania",
            "tulipmania.Colour",
        );
    }
}
