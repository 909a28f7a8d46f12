//! The round machine (§3.2): Phases 1–4 and 6 and the transitions between all phases.

use crate::cards::Card;
use crate::event::{private_pair, Event};
use crate::options::PortfolioRules;
use crate::state::{EndReason, Phase, TulipTraders};
use game_core::{GameRng, Logged, Seat, SeatSet};

impl TulipTraders {
    /// ROUND_START(r) (§3.2): reset flags, reshuffle the Portfolio deck (RNG-4), Phase 1.
    pub(crate) fn start_round(&mut self, rng: &mut GameRng, events: &mut Vec<Logged<Event>>) {
        for player in &mut self.players {
            player.option = None;
            player.earmark = 0;
            player.sold = false;
            player.bought = false;
            player.manipulated = false;
            player.reveal_decided = false;
        }
        rng.shuffle(&mut self.portfolio_deck);
        self.phase = Phase::Declare;
        events.push(Logged::public(Event::RoundStarted {
            round: self.round,
            fp: self.fp,
        }));
        if self.options.portfolio_rules == PortfolioRules::V2 {
            self.round_draws(events);
        }
    }

    /// Rules v2 (docs decision 11): each survivor in ord draws one Portfolio card from the top (private,
    /// with its count-only twin). Nothing is drawn once the deck is empty; no SACK tops up.
    fn round_draws(&mut self, events: &mut Vec<Logged<Event>>) {
        for seat in self.ord() {
            if self.portfolio_deck.is_empty() {
                break;
            }
            let card = self.portfolio_deck.remove(0);
            self.players[seat.index()].add_card(card);
            let drawn = |cards| Event::CardsDrawn {
                seat,
                count: 1,
                cards,
                sacks: Vec::new(),
            };
            private_pair(
                events,
                SeatSet::only(seat),
                drawn(Some(vec![card])),
                drawn(None),
            );
        }
    }

    /// A1 (checked).
    pub(crate) fn declare(&mut self, seat: Seat, option: usize, events: &mut Vec<Logged<Event>>) {
        let row = self.row();
        let chosen = self.options.investment_options[option].clone();
        let cost = chosen.cost_rv * row.rv;
        let player = &mut self.players[seat.index()];
        player.purse -= cost;
        player.earmark += cost;
        player.option = Some(option);
        player.limit = row.limit + chosen.limit_bonus;
        events.push(Logged::public(Event::InvestmentDeclared {
            seat,
            option: chosen.name,
            earmark: cost,
            limit: player.limit,
        }));
    }

    /// A2 / A11 (checked): cards go away in listed order.
    pub(crate) fn put_away(&mut self, seat: Seat, cards: &[Card], events: &mut Vec<Logged<Event>>) {
        for &card in cards {
            self.players[seat.index()].remove_card(card);
            self.dispose(card);
        }
        private_pair(
            events,
            SeatSet::only(seat),
            Event::CardsPutAway {
                seat,
                count: cards.len(),
                cards: Some(cards.to_vec()),
            },
            Event::CardsPutAway {
                seat,
                count: cards.len(),
                cards: None,
            },
        );
    }

    /// Runs the automatic steps (§3.1) until some seat must choose or the game is over:
    /// every phase whose actor is "the next seat in ord that ..." moves on once nobody is left.
    pub(crate) fn advance(&mut self, rng: &mut GameRng, events: &mut Vec<Logged<Event>>) {
        while self.phase != Phase::GameOver && self.actor().is_none() {
            match self.phase {
                Phase::Declare => self.phase = Phase::Discard,
                Phase::Discard if self.round == 1 => self.phase = Phase::Place,
                Phase::Discard => self.phase = Phase::AddLine,
                Phase::Manipulate => self.phase = Phase::Place,
                Phase::Place => {
                    let rv = self.rv();
                    self.become_seller(self.fp, true, rv, events);
                }
                Phase::Return if self.round >= 5 => self.finish(EndReason::RoundLimit, events),
                Phase::Return => self.phase = Phase::Reveal,
                Phase::Reveal => self.next_round(rng, events),
                // These phases always have an actor.
                Phase::AddLine
                | Phase::Offer { .. }
                | Phase::Respond
                | Phase::Liquidate { .. }
                | Phase::GameOver => break,
            }
        }
    }

    /// P3 entry after Phase 2 (§3.2): manipulation only if some cell is in crisis.
    pub(crate) fn enter_phase3(&mut self) {
        self.phase = if self.crisis_count() >= 1 {
            Phase::Manipulate
        } else {
            Phase::Place
        };
    }

    /// "end Phase 5" and Phase 6 entry (§3.2): 6.1 collapse check, then the 6.2 returns
    /// (the rest follows in [`Self::advance`]).
    pub(crate) fn end_phase5(&mut self, events: &mut Vec<Logged<Event>>) {
        events.push(Logged::public(Event::ChainEnded));
        if self.collapse_flag || self.crisis_count() >= 4 {
            self.finish(EndReason::Collapse, events);
        } else {
            self.phase = Phase::Return;
        }
    }

    /// 6.5: pass the deck to the left and start the next round.
    pub(crate) fn next_round(&mut self, rng: &mut GameRng, events: &mut Vec<Logged<Event>>) {
        let n = self.n_seats;
        let mut fp = self.fp;
        for _ in 0..n {
            fp = Seat((fp.0 + 1) % n);
            if !self.player(fp).bankrupt {
                break;
            }
        }
        self.fp = fp;
        self.round += 1;
        self.start_round(rng, events);
    }
}
