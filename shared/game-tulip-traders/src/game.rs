//! The `game_core::Game` implementation: `apply` = `check`, then the phase's effect, then the
//! automatic steps.

use crate::actions::Action;
use crate::error::TulipError;
use crate::events::Event;
use crate::options::Options;
use crate::state::{Phase, TulipTraders};
use crate::view::TulipView;
use game_core::words::Names;
use game_core::Redeal;
use game_core::{
    Game, GameRng, LegalAction, Logged, Outcome, Seat, SeatSet, SetupError, Viewer, Visibility,
};

impl TulipTraders {
    /// Applies a checked action's own effect (no validation, no automatic steps).
    fn effect(&mut self, seat: Seat, action: Action, events: &mut Vec<Logged<Event>>) {
        match action {
            Action::DeclareInvestment { option } => {
                let index = self
                    .options
                    .investment_options
                    .iter()
                    .position(|o| o.name == option)
                    .unwrap_or(0);
                self.declare(seat, index, events);
            }
            Action::Discard { cards } | Action::ReturnExcess { cards } => {
                self.put_away(seat, &cards, events)
            }
            Action::AddMarketLine { side } => {
                self.add_line(side, events);
                self.enter_phase3();
            }
            Action::MoveCrisis { from, to } => self.move_crisis(seat, from, to, events),
            Action::PassManipulation {} => {
                self.players[seat.index()].manipulated = true;
                events.push(Logged::public(Event::ManipulationPassed { seat }));
            }
            Action::PlaceInvestment { alloc } => self.place_investment(seat, &alloc, events),
            Action::OfferLot {
                cards,
                buyer,
                declared,
            } => self.offer_lot(seat, &cards, buyer, declared, events),
            Action::Buy { liquidate } => self.buy(&liquidate, events),
            Action::Accuse {} => self.accuse(events),
            Action::Liquidate { cards } => self.liquidate_debt(&cards, events),
            Action::RevealPortfolio {} => {
                self.players[seat.index()].reveal_decided = true;
                events.push(Logged::public(Event::PortfolioRevealed { seat }));
                self.finish(crate::state::EndReason::Reveal, events);
            }
            Action::DeclineReveal {} => {
                self.players[seat.index()].reveal_decided = true;
                events.push(Logged::public(Event::RevealDeclined { seat }));
            }
        }
    }

    /// With `auto_single_choice`, the one legal action when there is exactly one (never a
    /// reveal prompt).
    fn forced_action(&self) -> Option<(Seat, Action)> {
        if !self.options.auto_single_choice || matches!(self.phase, Phase::Reveal | Phase::GameOver)
        {
            return None;
        }
        let seat = self.actor()?;
        let mut legal = self.legal(seat);
        if legal.len() != 1 {
            return None;
        }
        match legal.pop() {
            Some(LegalAction::Action { action }) => Some((seat, action)),
            _ => None,
        }
    }
}

impl Game for TulipTraders {
    const RULESET: &'static str = "tulip-traders";
    const NAME: &'static str = "Tulip Traders";
    const RULES_VERSION: u32 = 2;
    const SUMMARY: &'static str = crate::words::SUMMARY;

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
    type View = TulipView;
    type Error = TulipError;

    /// Logs the opening market (`market_card_placed`, `boom`), each seat's dealt card
    /// (`cards_drawn`, private with its redacted twin), `round_started`, and any forced step.
    fn setup(
        n_seats: u8,
        options: &Options,
        rng: &mut GameRng,
    ) -> Result<(Self, Vec<Logged<Event>>), SetupError> {
        let (mut game, mut events) = TulipTraders::new_game(n_seats, options, rng)?;
        // Round 1 can have no automatic step before the first declaration, but the auto
        // option may already apply (a single affordable option).
        while let Some((seat, action)) = game.forced_action() {
            game.effect(seat, action, &mut events);
            game.advance(rng, &mut events);
        }
        Ok((game, events))
    }

    fn n_seats(&self) -> u8 {
        self.n_seats
    }

    fn to_act(&self) -> SeatSet {
        self.actor().map(SeatSet::only).unwrap_or_default()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<LegalAction<Action>> {
        self.legal(seat)
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        rng: &mut GameRng,
    ) -> Result<Vec<Logged<Event>>, TulipError> {
        self.check(seat, &action)?;
        let mut events = Vec::new();
        self.effect(seat, action, &mut events);
        self.advance(rng, &mut events);
        while let Some((seat, action)) = self.forced_action() {
            self.effect(seat, action, &mut events);
            self.advance(rng, &mut events);
        }
        Ok(events)
    }

    fn view(&self, viewer: Viewer) -> TulipView {
        self.view_for(viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game_outcome()
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
        crate::words::describe_action(action, seat, names)
    }

    fn describe_event(event: &Event, names: &Names) -> String {
        crate::words::describe_event(event, names)
    }
}

impl Redeal for TulipTraders {
    fn redeal(&self, viewer: Viewer, rng: &mut GameRng) -> Self {
        self.redeal_for(viewer, rng)
    }
}
