//! Legality and the state machine: `check` is the single source of legality (§4.1) and
//! [`apply`] runs it, then the action's effect, then the automatic steps. The effects live in
//! the concept files: `rounds` (the round machine), `market` (the grid) and
//! `lots` (Phase 5's chain, settlement, liquidation, bankruptcy).

use crate::action::Action;
use crate::cards::Card;
use crate::error::Error;
use crate::event::Event;
use crate::lots::MAX_DECLARED;
use crate::scoring::bonus;
use crate::state::{Phase, Player, TulipTraders};
use game_core::{GameRng, LegalAction, Logged, Seat};

/// Applies `action` by `seat`: `check`, then the action's own effect, then the automatic
/// steps (and, with `auto_single_choice`, any forced action). On `Err` nothing has changed.
pub fn apply(
    game: &mut TulipTraders,
    seat: Seat,
    action: Action,
    rng: &mut GameRng,
) -> Result<Vec<Logged<Event>>, Error> {
    game.check(seat, &action)?;
    let mut events = Vec::new();
    game.effect(seat, action, &mut events);
    game.advance(rng, &mut events);
    while let Some((seat, action)) = game.forced_action() {
        game.effect(seat, action, &mut events);
        game.advance(rng, &mut events);
    }
    Ok(events)
}

/// Checks that `cards` are distinct cards of `player`'s hand.
pub(crate) fn check_cards_in_hand(player: &Player, cards: &[Card]) -> Result<(), Error> {
    for (i, card) in cards.iter().enumerate() {
        if cards[..i].contains(card) {
            return Err(Error::DuplicateCard);
        }
        if !player.hand.contains(card) {
            return Err(Error::CardNotInHand);
        }
    }
    Ok(())
}

impl TulipTraders {
    /// The single source of legality: `Ok` iff `apply` would accept the action.
    pub fn check(&self, seat: Seat, action: &Action) -> Result<(), Error> {
        if self.phase == Phase::GameOver {
            return Err(Error::GameOver);
        }
        let actor = self.actor().ok_or(Error::GameOver)?;
        if seat != actor {
            return Err(Error::NotYourTurn(seat));
        }
        let player = self.player(seat);
        let row = self.row();
        match (&self.phase, action) {
            (Phase::Declare, Action::DeclareInvestment { option }) => {
                let chosen = self
                    .options
                    .investment_options
                    .iter()
                    .find(|o| &o.name == option)
                    .ok_or_else(|| Error::UnknownOption(option.clone()))?;
                let cost = chosen.cost_rv * row.rv;
                if player.purse < cost {
                    return Err(Error::OptionUnaffordable { cost });
                }
                Ok(())
            }
            (Phase::Discard, Action::Discard { cards })
            | (Phase::Return, Action::ReturnExcess { cards }) => {
                let expected = player.hand.len() - player.limit as usize;
                if cards.len() != expected {
                    return Err(Error::WrongCardCount {
                        expected,
                        got: cards.len(),
                    });
                }
                check_cards_in_hand(player, cards)
            }
            (Phase::AddLine, Action::AddMarketLine { side }) => {
                if self.side_allowed(*side) {
                    Ok(())
                } else {
                    Err(Error::IllegalSide)
                }
            }
            (Phase::Manipulate, Action::MoveCrisis { from, to }) => {
                let source = self.cell(*from).ok_or(Error::UnknownCell(*from))?;
                let target = self.cell(*to).ok_or(Error::UnknownCell(*to))?;
                if !source.crisis {
                    return Err(Error::SourceNotInCrisis(*from));
                }
                if from == to {
                    return Err(Error::SameCell);
                }
                if target.crisis {
                    return Err(Error::TargetInCrisis(*to));
                }
                if !from.shares(*to) {
                    return Err(Error::NoSharedAttribute(*from, *to));
                }
                if player.purse < row.rc {
                    return Err(Error::FeeUnaffordable { fee: row.rc });
                }
                Ok(())
            }
            (Phase::Manipulate, Action::PassManipulation {}) => Ok(()),
            (Phase::Place, Action::PlaceInvestment { alloc }) => {
                let mut sum = 0u64;
                for (&cell, &n) in alloc {
                    let c = self.cell(cell).ok_or(Error::UnknownCell(cell))?;
                    if c.crisis {
                        return Err(Error::CellInCrisis(cell));
                    }
                    if n == 0 {
                        return Err(Error::AmountNotPositive);
                    }
                    sum += u64::from(n);
                }
                if sum != u64::from(player.earmark) {
                    return Err(Error::AllocationSumMismatch {
                        got: sum,
                        earmark: player.earmark,
                    });
                }
                Ok(())
            }
            (
                Phase::Offer {
                    min, final_offer, ..
                },
                Action::OfferLot {
                    cards,
                    buyer,
                    declared,
                },
            ) => {
                if cards.len() != 3 {
                    return Err(Error::WrongCardCount {
                        expected: 3,
                        got: cards.len(),
                    });
                }
                check_cards_in_hand(player, cards)?;
                let allowed = if *final_offer {
                    *buyer == self.fp
                } else {
                    self.eligible_buyers(seat).contains(buyer)
                };
                if !allowed {
                    return Err(Error::BuyerNotAllowed(*buyer));
                }
                if declared < min {
                    return Err(Error::DeclaredTooLow { min: *min });
                }
                if *declared > MAX_DECLARED {
                    return Err(Error::DeclaredTooHigh { max: MAX_DECLARED });
                }
                Ok(())
            }
            (Phase::Respond, Action::Buy { liquidate }) => {
                let declared = self.offer.as_ref().map_or(0, |o| o.declared);
                if self.cap(seat) < u64::from(declared) {
                    return Err(Error::BuyUnaffordable);
                }
                self.check_liquidation(seat, declared, liquidate)
            }
            (Phase::Respond, Action::Accuse {}) => Ok(()),
            (Phase::Liquidate { debt }, Action::Liquidate { cards }) => {
                self.check_liquidation(seat, debt.amount, cards)
            }
            (Phase::Reveal, Action::RevealPortfolio {}) => {
                if bonus(&player.hand, &self.options) > 0 {
                    Ok(())
                } else {
                    Err(Error::NoCompletePortfolio)
                }
            }
            (Phase::Reveal, Action::DeclineReveal {}) => Ok(()),
            _ => Err(Error::WrongPhase),
        }
    }

    /// Checks a liquidation set for `seat` owing `owed` (A8, A10).
    pub(crate) fn check_liquidation(
        &self,
        seat: Seat,
        owed: u32,
        cards: &[Card],
    ) -> Result<(), Error> {
        let player = self.player(seat);
        if player.purse >= owed {
            return if cards.is_empty() {
                Ok(())
            } else {
                Err(Error::LiquidationNotAllowed)
            };
        }
        if self.cap(seat) < u64::from(owed) {
            return Err(Error::BuyUnaffordable);
        }
        check_cards_in_hand(player, cards)?;
        if cards.iter().any(|c| !c.is_tulip()) {
            return Err(Error::NotATulip);
        }
        let need = u64::from(owed - player.purse);
        let values: Vec<u64> = cards.iter().map(|&c| u64::from(self.mv(c))).collect();
        let sum: u64 = values.iter().sum();
        if sum < need {
            return Err(Error::LiquidationInsufficient);
        }
        if values.iter().any(|&v| sum - v >= need) {
            return Err(Error::LiquidationExcessive);
        }
        Ok(())
    }

    /// Applies a checked action's own effect (no validation, no automatic steps).
    pub(crate) fn effect(&mut self, seat: Seat, action: Action, events: &mut Vec<Logged<Event>>) {
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
    pub(crate) fn forced_action(&self) -> Option<(Seat, Action)> {
        if !self.options.auto_single_choice || matches!(self.phase, Phase::Reveal | Phase::GameOver)
        {
            return None;
        }
        let seat = self.actor()?;
        let mut legal = self.legal_actions(seat);
        if legal.len() != 1 {
            return None;
        }
        match legal.pop() {
            Some(LegalAction::Action { action }) => Some((seat, action)),
            _ => None,
        }
    }
}
