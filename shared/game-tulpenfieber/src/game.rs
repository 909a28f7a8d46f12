//! The `game_core::Game` and `game_core::Redeal` implementations: the constants, the
//! associated types and every trait method, each either the rule itself or a call of the
//! function of the same name in its role's file.

use crate::action::Action;
use crate::error::Error;
use crate::event::Event;
use crate::options::Options;
use crate::state::{GameResult, Phase, SoloTier, Tulpenfieber};
use crate::view::{self, View};
use crate::{rules, setup, words};
use game_core::words::Names;
use game_core::Redeal;
use game_core::{Game, GameRng, LegalAction, Logged, Outcome, Seat, SeatSet, SetupError, Viewer};

impl Game for Tulpenfieber {
    const RULESET: &'static str = "tulpenfieber";
    const NAME: &'static str = "Tulpenfieber";
    const RULES_VERSION: u32 = 1;
    const SUMMARY: &'static str = words::SUMMARY;
    const MIN_SEATS: u8 = 1;
    const MAX_SEATS: u8 = 4;
    const ACTIONS: &'static [&'static str] = &[
        "set_bonus_die",
        "roll",
        "reroll",
        "buy_roll",
        "place",
        "place_above",
        "claim_bonus",
        "end_turn",
        "start_next_round",
    ];
    const PASSES: &'static [&'static str] = &["end_turn"];

    type Options = Options;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Error = Error;

    /// §1.4 / §1.5: no randomness is used at setup. Logs `boards_dealt` and the first
    /// `turn_started`, both public.
    fn setup(
        n_seats: u8,
        options: &Options,
        rng: &mut GameRng,
    ) -> Result<(Self, Vec<Logged<Event>>), SetupError> {
        setup::setup(n_seats, options, rng)
    }

    fn n_seats(&self) -> u8 {
        self.players.len() as u8
    }

    fn to_act(&self) -> SeatSet {
        if self.phase == Phase::GameOver {
            SeatSet::EMPTY
        } else {
            SeatSet::only(self.active)
        }
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

    /// §6.4.
    fn phase(&self) -> &'static str {
        crate::state::phase_name(&self.phase)
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.result.as_ref()? {
            GameResult::Winner { seat, condition } => {
                let scores = (0..self.players.len())
                    .map(|i| i64::from(i == seat.index()))
                    .collect();
                Some(Outcome::from_scores(scores, condition.reason()))
            }
            GameResult::SoloResult { total, tier, .. } => Some(Outcome {
                scores: vec![i64::from(*total)],
                ranks: vec![1],
                winners: if *tier == SoloTier::Lost {
                    SeatSet::EMPTY
                } else {
                    SeatSet::only(Seat(0))
                },
                reason: tier.reason().to_string(),
            }),
        }
    }

    /// The field that reaches furthest down from row 1 leads (the win is a full row 4 or a
    /// run in row 5), then the most covered spaces.
    fn standing(&self) -> Option<Outcome> {
        let scores = self
            .players
            .iter()
            .map(|player| {
                10 * i64::from(player.field.longest_line()) + player.field.covered_count() as i64
            })
            .collect();
        Some(Outcome::from_scores(scores, "standing"))
    }

    fn describe_action(action: &Action, seat: Seat, names: &Names) -> String {
        words::describe_action(action, seat, names)
    }

    fn describe_event(event: &Event, names: &Names) -> String {
        words::describe_event(event, names)
    }

    fn label_action(&self, _seat: Seat, action: &Action, _names: &Names) -> String {
        words::label_action(action)
    }

    fn restates(action: &Action, event: &Event) -> bool {
        words::restates(action, event)
    }

    /// Nothing in Tulpenfieber is hidden: every move that rolls no die may be taken back
    /// until another seat acts (docs/rules/tulpenfieber.md, "Taking a move back").
    fn undoable(&self, _seat: Seat, _action: &Action, _events: &[Logged<Event>]) -> bool {
        true
    }
}

/// Everything is public (§2): a re-deal is the same state.
impl Redeal for Tulpenfieber {
    fn redeal(&self, _viewer: Viewer, _rng: &mut GameRng) -> Self {
        self.clone()
    }
}
