//! The `game_core::Game` and `game_core::Redeal` implementations: the constants, the
//! associated types and every trait method, each either the rule itself or a call of the
//! function of the same name in its role's file.

use crate::action::Action;
use crate::error::Error;
use crate::event::Event;
use crate::options::Options;
use crate::state::{Phase, Tulipmania};
use crate::view::{self, View};
use crate::{rules, setup, words};
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
    type Error = Error;

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

    /// The seats that may act now (spec §3.1).
    fn to_act(&self) -> SeatSet {
        match &self.phase {
            Phase::GameOver { .. } => SeatSet::EMPTY,
            Phase::Commit { commits } => Seat::all(self.n_seats)
                .filter(|&seat| seat != self.current_player && commits[seat.index()].is_none())
                .collect(),
            _ => SeatSet::only(self.current_player),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<LegalAction<Action>> {
        self.legal_actions(seat)
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        _rng: &mut GameRng,
    ) -> Result<Vec<Logged<Event>>, Error> {
        // Every random draw happens at setup (spec §5), so the step's stream is not used.
        rules::apply(self, seat, action)
    }

    fn view(&self, viewer: Viewer) -> View {
        view::view(self, viewer)
    }

    /// The result once the game is over (spec §6): score = cash, shared ranks.
    fn phase(&self) -> &'static str {
        self.phase.name()
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.phase {
            Phase::GameOver { reason } => {
                Some(Outcome::from_scores(self.cash.clone(), reason.as_str()))
            }
            _ => None,
        }
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

    fn label_action(&self, _seat: Seat, action: &Action, _names: &Names) -> String {
        words::label_action(self, action)
    }

    fn restates(action: &Action, event: &Event) -> bool {
        words::restates(action, event)
    }

    /// Offering a tulip for sale, or declining to, may be taken back before anyone commits
    /// a card (docs/rules/tulipmania-1637.md, "Taking a move back").
    fn undoable(&self, _seat: Seat, action: &Action, _events: &[Logged<Event>]) -> bool {
        matches!(action, Action::SellTulip { .. } | Action::SkipSale {})
    }
}

impl game_core::Redeal for Tulipmania {
    fn redeal(&self, viewer: Viewer, rng: &mut GameRng) -> Self {
        setup::redeal(self, viewer, rng)
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
