//! The `game_core::Game` and `game_core::Redeal` implementations: the constants, the
//! associated types and every trait method, each either the rule itself or a call of the
//! function of the same name in its role's file.

use crate::action::Action;
use crate::error::Error;
use crate::event::Event;
use crate::options::Options;
use crate::state::TulipTraders;
use crate::view::{self, View};
use crate::{rules, scoring, setup, words};
use game_core::words::Names;
use game_core::Redeal;
use game_core::{
    Game, GameRng, LegalAction, Logged, Outcome, Seat, SeatSet, SetupError, Viewer, Visibility,
};

impl Game for TulipTraders {
    const RULESET: &'static str = "tulip-traders";
    const NAME: &'static str = "Tulip Traders";
    const RULES_VERSION: u32 = 2;
    const SUMMARY: &'static str = words::SUMMARY;

    /// Rules v1 games keep their v1 behaviour: their stored options read as
    /// `portfolio_rules: "v1"` with the v1 tables (docs decision 11; tests/rules_versions.rs).
    fn serves_rules_version(rules_version: u32) -> bool {
        rules_version == 1 || rules_version == 2
    }
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 4;
    const SEATS_WITH_OPTIONS: &'static [(u8, &'static str)] = &[(2, "allow_two_players")];
    const ACTIONS: &'static [&'static str] = &[
        "declare_investment",
        "discard",
        "add_market_line",
        "move_crisis",
        "pass_manipulation",
        "place_investment",
        "offer_lot",
        "buy",
        "accuse",
        "liquidate",
        "return_excess",
        "reveal_portfolio",
        "decline_reveal",
    ];
    const PASSES: &'static [&'static str] = &["pass_manipulation", "decline_reveal"];

    type Options = Options;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Error = Error;

    /// Logs the opening market (`market_card_placed`, `boom`), each seat's dealt card
    /// (`cards_drawn`, private with its redacted twin), `round_started`, and any forced step.
    fn setup(
        n_seats: u8,
        options: &Options,
        rng: &mut GameRng,
    ) -> Result<(Self, Vec<Logged<Event>>), SetupError> {
        setup::setup(n_seats, options, rng)
    }

    fn n_seats(&self) -> u8 {
        self.n_seats
    }

    fn to_act(&self) -> SeatSet {
        self.actor().map(SeatSet::only).unwrap_or_default()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<LegalAction<Action>> {
        self.legal_actions(seat)
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        rng: &mut GameRng,
    ) -> Result<Vec<Logged<Event>>, Error> {
        rules::apply(self, seat, action, rng)
    }

    fn view(&self, viewer: Viewer) -> View {
        view::view(self, viewer)
    }

    fn phase(&self) -> &'static str {
        (&self.phase).into()
    }

    fn outcome(&self) -> Option<Outcome> {
        scoring::outcome(self)
    }

    fn action_visibility(action: &Action, seat: Seat) -> Visibility {
        // Card choices are private to their author; the events carry the public counts.
        match action {
            Action::Discard { .. } | Action::ReturnExcess { .. } | Action::OfferLot { .. } => {
                Visibility::Seats(SeatSet::only(seat))
            }
            _ => Visibility::Public,
        }
    }

    fn describe_action(action: &Action, seat: Seat, names: &Names) -> String {
        words::describe_action(action, seat, names)
    }

    fn describe_event(event: &Event, names: &Names) -> String {
        words::describe_event(event, names)
    }

    fn label_action(&self, _seat: Seat, action: &Action, names: &Names) -> String {
        words::label_action(action, names)
    }

    fn pick_of(&self, _seat: Seat, action: &Action) -> Option<game_core::pick::Pick> {
        words::pick_of(action)
    }

    fn restates(action: &Action, event: &Event) -> bool {
        words::restates(action, event)
    }

    /// Moving a crisis, passing the manipulation turn and placing an investment may be taken
    /// back until another seat acts (docs/rules/tulip-traders.md, "Taking a move back"). Not
    /// adding a market line: it turns cards of the deck face up.
    fn undoable(&self, _seat: Seat, action: &Action, _events: &[Logged<Event>]) -> bool {
        matches!(
            action,
            Action::MoveCrisis { .. }
                | Action::PassManipulation {}
                | Action::PlaceInvestment { .. }
        )
    }
}

impl Redeal for TulipTraders {
    fn redeal(&self, viewer: Viewer, rng: &mut GameRng) -> Self {
        setup::redeal(self, viewer, rng)
    }
}
