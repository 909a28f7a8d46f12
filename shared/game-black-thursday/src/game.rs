//! The `game_core::Game` and `Redeal` implementations.

use crate::action::Action;
use crate::error::Error;
use crate::event::Event;
use crate::options::Options;
use crate::state::{BlackThursday, Phase};
use crate::view::{self, View};
use crate::{rules, setup, words};
use game_core::words::Names;
use game_core::Redeal;
use game_core::{
    Game, GameRng, LegalAction, Logged, Outcome, Seat, SeatSet, Setup, SetupError, Viewer,
};

impl Game for BlackThursday {
    const RULESET: &'static str = "black-thursday";
    const NAME: &'static str = "Black Thursday";
    const RULES_VERSION: u32 = 1;
    const MIN_SEATS: u8 = 3;
    const MAX_SEATS: u8 = 4;
    const ACTIONS: &'static [&'static str] = &[
        "place_pawn",
        "flip_tile",
        "orient_tile",
        "move",
        "sell",
        "buy",
        "market_trade",
        "open_session",
        "post_offer",
        "withdraw_offer",
        "accept_offer",
        "revoke_acceptance",
        "leave_session",
        "file_claim",
        "concede_claim",
        "vote_claim",
        "waive_promise",
    ];
    const PASSES: &'static [&'static str] = &["leave_session"];
    const SUMMARY: &'static str = words::SUMMARY;

    type Options = Options;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Error = Error;

    fn setup(n_seats: u8, options: &Options, rng: &mut GameRng) -> Result<Setup<Self>, SetupError> {
        setup::setup(n_seats, options, rng)
    }

    fn n_seats(&self) -> u8 {
        self.n_seats
    }

    fn to_act(&self) -> SeatSet {
        self.to_act()
    }

    /// The turn player, except in a session whose newest live offer awaits answers: then
    /// the participants it awaits (docs/rules/black-thursday.md, "Who the game waits on in a
    /// session"). The turn player can still leave the session at any time.
    fn waiting_on(&self) -> SeatSet {
        if self.phase == Phase::Ended {
            return SeatSet::default();
        }
        let awaited = self
            .open_session()
            .filter(|_| self.phase == Phase::Session)
            .and_then(|session| session.awaited())
            .filter(|seats| !seats.is_empty());
        awaited.unwrap_or(SeatSet::only(self.active()))
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

    /// Offers that ask for something and repeat nothing, acceptances that give nothing away
    /// for nothing (`sensible::sensible`).
    fn sensible(&self, seat: Seat, action: &Action) -> bool {
        crate::sensible::sensible(self, seat, action)
    }

    fn describe_action(action: &Action, seat: Seat, names: &Names) -> String {
        words::describe_action(action, seat, names)
    }

    fn describe_event(event: &Event, names: &Names) -> String {
        words::describe_event(event, names)
    }

    fn label_action(&self, _seat: Seat, action: &Action, names: &Names) -> String {
        words::label_action(self, action, names)
    }

    fn restates(action: &Action, event: &Event) -> bool {
        words::restates(action, event)
    }

    /// Placing the pawn, turning the tile just flipped and moving down may be taken back
    /// until another seat acts (docs/rules/black-thursday.md, "Taking a move back").
    fn undoable(&self, _seat: Seat, action: &Action, _events: &[Logged<Event>]) -> bool {
        matches!(
            action,
            Action::PlacePawn { .. } | Action::OrientTile { .. } | Action::Move { .. }
        )
    }

    fn phase(&self) -> &'static str {
        self.phase.into()
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Ended {
            return None;
        }
        Some(self.ranked("building_emptied"))
    }

    /// The standings the end would use, on what each investor holds now.
    fn standing(&self) -> Option<Outcome> {
        Some(self.ranked("standing"))
    }
}

impl Redeal for BlackThursday {
    fn redeal(&self, viewer: Viewer, rng: &mut GameRng) -> Self {
        setup::redeal(self, viewer, rng)
    }
}
