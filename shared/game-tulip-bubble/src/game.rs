//! The `game_core::Game` and `testing::Redeal` implementations.

use crate::action::Action;
use crate::error::Error;
use crate::event::Event;
use crate::options::Options;
use crate::state::{EndReason, Phase, TulipBubble};
use crate::view::{self, View};
use crate::words;
use crate::{greedy, rules, sensible, setup};
use game_core::words::Names;
use game_core::Redeal;
use game_core::{
    Game, GameRng, LegalAction, Logged, Outcome, Seat, SeatSet, Setup, SetupError, Viewer,
    Visibility,
};

impl Game for TulipBubble {
    const RULESET: &'static str = "tulip-bubble";
    const NAME: &'static str = "Tulip Bubble";
    const RULES_VERSION: u32 = 1;
    const MIN_SEATS: u8 = 3;
    const MAX_SEATS: u8 = 5;
    const ACTIONS: &'static [&'static str] = &[
        "sell_to_market",
        "sell_to_collector",
        "buy_back",
        "end_selling_turn",
        "black_tulip_decision",
        "place_bids",
        "auction_bid",
        "auction_pass",
        "choose_payment",
    ];
    const PASSES: &'static [&'static str] = &["end_selling_turn", "auction_pass"];
    const ANY_TIME: &'static [&'static str] = &["buy_back"];
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

    /// The required actor(s) of §3.8, plus every seat that can afford to buy back one of
    /// its financed tulips (an any-time action). The spec lists every holder of a financed
    /// tulip; game-core requires each seat in `to_act` to have a legal action, so a holder
    /// who cannot afford any of its loans is left out. That reveals only "cash ≥ its
    /// smallest loan", which the public log already lets anyone compute.
    fn to_act(&self) -> SeatSet {
        let mut seats = self.required_actors();
        for seat in Seat::all(self.n_seats) {
            if self.can_buy_back(seat) {
                seats.insert(seat);
            }
        }
        seats
    }

    /// Only the required actor(s): buy-backs never hold the game up.
    fn waiting_on(&self) -> SeatSet {
        self.required_actors()
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
        let Phase::GameOver {
            reason, winners, ..
        } = &self.phase
        else {
            return None;
        };
        let scores = self.scores();
        match reason {
            EndReason::Bust => Some(Outcome::from_scores(scores, reason.as_str())),
            // §6.3: the buyer(s) rank first, everyone else shares the next rank.
            EndReason::BlackTulip => {
                let ranks = Seat::all(self.n_seats)
                    .map(|seat| {
                        if winners.contains(seat) {
                            1
                        } else {
                            winners.len() as u8 + 1
                        }
                    })
                    .collect();
                Some(Outcome {
                    scores,
                    ranks,
                    winners: *winners,
                    reason: reason.as_str().to_string(),
                })
            }
        }
    }

    /// A bid no higher than the lot could bring back (`sensible::worth_of_lot`).
    fn sensible(&self, seat: Seat, action: &Action) -> bool {
        sensible::sensible(self, seat, action)
    }

    /// The greedy player's move ([`greedy::choose`]): buy what should rise, sell what
    /// should not, claim the Black Tulip when it may.
    fn plan(&self, seat: Seat, _rng: &mut GameRng) -> Option<Action> {
        greedy::choose(self, seat)
    }

    /// The Black Tulip decision is sealed: only its author sees it in the log.
    fn action_visibility(action: &Action, seat: Seat) -> Visibility {
        match action {
            Action::BlackTulipDecision { .. } => Visibility::Seats(SeatSet::only(seat)),
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

    fn pick_of(&self, _seat: Seat, action: &Action) -> Option<game_core::pick::Pick> {
        words::pick_of(self, action)
    }

    fn restates(action: &Action, event: &Event) -> bool {
        words::restates(action, event)
    }

    /// Buying a tulip back and raising an auction may be taken back until another seat acts
    /// (docs/rules/tulip-bubble.md, "Taking a move back").
    fn undoable(&self, _seat: Seat, action: &Action, _events: &[Logged<Event>]) -> bool {
        matches!(action, Action::BuyBack { .. } | Action::AuctionBid { .. })
    }
}

impl Redeal for TulipBubble {
    fn redeal(&self, viewer: Viewer, rng: &mut GameRng) -> Self {
        setup::redeal(self, viewer, rng)
    }
}

#[cfg(all(test, feature = "openapi"))]
mod openapi_tests {
    /// Every schema component of this game is named `tulip_bubble.*`, so names stay unique
    /// across the games the API serves.
    #[test]
    fn schema_names_are_prefixed() {
        game_core::testing::assert_schema_names_prefixed::<super::TulipBubble>(
            "tulip_bubble",
            "tulip_bubble.Tulip",
        );
    }
}
