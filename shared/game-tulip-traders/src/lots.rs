//! Phase 5, the chain of sealed lots (§3.4), with settlement, liquidation and bankruptcy
//! (§3.5).

use crate::cards::Card;
use crate::event::{private_pair, Event, PaymentKind};
use crate::state::{Continuation, Debt, EndReason, Offer, Phase, TulipTraders};
use game_core::{Logged, Seat, SeatSet};

/// The overflow guard on declarations (§4.1, D-40).
pub const MAX_DECLARED: u32 = 1_000_000;

impl TulipTraders {
    /// BecomeSeller(p, draw, min) (§3.4).
    pub(crate) fn become_seller(
        &mut self,
        p: Seat,
        draw: bool,
        min: u32,
        events: &mut Vec<Logged<Event>>,
    ) {
        let final_offer = if !self.eligible_buyers(p).is_empty() {
            false
        } else if self.fp_available(p) {
            true
        } else {
            self.end_phase5(events);
            return;
        };
        if draw {
            self.draw_three(p, events);
            // D-37: if even the SACK supply cannot make up three cards, the chain ends.
            if self.player(p).hand.len() < 3 {
                self.end_phase5(events);
                return;
            }
        }
        self.phase = Phase::Offer {
            seller: p,
            min,
            final_offer,
        };
        events.push(Logged::public(Event::SellerPending {
            seller: p,
            min,
            final_offer,
        }));
    }

    /// Draws three Portfolio cards (private), topping up from the SACK supply if short.
    fn draw_three(&mut self, p: Seat, events: &mut Vec<Logged<Event>>) {
        let count = self.portfolio_deck.len().min(3);
        let drawn: Vec<Card> = self.portfolio_deck.drain(..count).collect();
        let mut sacks = Vec::new();
        while drawn.len() + sacks.len() < 3 && !self.sack_supply.is_empty() {
            sacks.push(self.sack_supply.remove(0));
        }
        for &card in drawn.iter().chain(&sacks) {
            self.players[p.index()].add_card(card);
        }
        private_pair(
            events,
            SeatSet::only(p),
            Event::CardsDrawn {
                seat: p,
                count,
                cards: Some(drawn),
                sacks: sacks.clone(),
            },
            Event::CardsDrawn {
                seat: p,
                count,
                cards: None,
                sacks,
            },
        );
    }

    /// A7 (checked).
    pub(crate) fn offer_lot(
        &mut self,
        seller: Seat,
        cards: &[Card],
        buyer: Seat,
        declared: u32,
        events: &mut Vec<Logged<Event>>,
    ) {
        let Phase::Offer {
            min, final_offer, ..
        } = self.phase
        else {
            return;
        };
        for &card in cards {
            self.players[seller.index()].remove_card(card);
        }
        self.offer = Some(Offer {
            seller,
            buyer,
            declared,
            min,
            final_offer,
            revealed: false,
            lot: cards.to_vec(),
        });
        self.phase = Phase::Respond;
        private_pair(
            events,
            SeatSet::only(seller),
            Event::LotOffered {
                seller,
                buyer,
                declared,
                final_offer,
                cards: Some(cards.to_vec()),
            },
            Event::LotOffered {
                seller,
                buyer,
                declared,
                final_offer,
                cards: None,
            },
        );
    }

    /// Liquidation of `card` by `seat` (§3.5); `with_sack` is false during bankruptcy.
    pub(crate) fn liquidate_card(
        &mut self,
        seat: Seat,
        card: Card,
        with_sack: bool,
        events: &mut Vec<Logged<Event>>,
    ) {
        let value = self.mv(card);
        let player = &mut self.players[seat.index()];
        player.remove_card(card);
        player.purse += value;
        self.bank_issued += i64::from(value);
        self.portfolio_deck.push(card);
        let sack = if with_sack && !self.sack_supply.is_empty() {
            Some(self.sack_supply.remove(0))
        } else {
            None
        };
        if let Some(sack) = sack {
            self.players[seat.index()].add_card(sack);
        }
        events.push(Logged::public(Event::CardLiquidated {
            seat,
            card,
            value,
            sack,
        }));
    }

    fn pay(
        &mut self,
        from: Seat,
        to: Seat,
        amount: u32,
        kind: PaymentKind,
        events: &mut Vec<Logged<Event>>,
    ) {
        self.players[from.index()].purse -= amount;
        self.players[to.index()].purse += amount;
        events.push(Logged::public(Event::Payment {
            from,
            to,
            amount,
            kind,
        }));
    }

    /// A8 (checked): liquidations, payment, the lot joins the buyer's hand, next seller.
    pub(crate) fn buy(&mut self, liquidate: &[Card], events: &mut Vec<Logged<Event>>) {
        let Some(offer) = self.offer.take() else {
            return;
        };
        let (seller, buyer) = (offer.seller, offer.buyer);
        for &card in liquidate {
            self.liquidate_card(buyer, card, true, events);
        }
        self.pay(buyer, seller, offer.declared, PaymentKind::Price, events);
        for &card in &offer.lot {
            self.players[buyer.index()].add_card(card);
        }
        self.players[seller.index()].sold = true;
        self.players[buyer.index()].bought = true;
        let both = SeatSet::only(seller).with(buyer);
        private_pair(
            events,
            both,
            Event::LotBought {
                seller,
                buyer,
                price: offer.declared,
                cards: Some(offer.lot.clone()),
            },
            Event::LotBought {
                seller,
                buyer,
                price: offer.declared,
                cards: None,
            },
        );
        if offer.final_offer {
            self.end_phase5(events);
        } else {
            self.become_seller(buyer, false, offer.declared + 1, events);
        }
    }

    /// The lot's actual value on the current state.
    pub fn lot_value(&self, lot: &[Card]) -> u32 {
        lot.iter().map(|&c| self.mv(c)).sum()
    }

    /// A9: reveal, compare, settle.
    pub(crate) fn accuse(&mut self, events: &mut Vec<Logged<Event>>) {
        let Some(offer) = self.offer.as_mut() else {
            return;
        };
        offer.revealed = true;
        let offer = offer.clone();
        self.players[offer.seller.index()].sold = true;
        self.players[offer.buyer.index()].bought = true;
        let actual = self.lot_value(&offer.lot);
        let honest = actual >= offer.declared;
        events.push(Logged::public(Event::Accused {
            seller: offer.seller,
            buyer: offer.buyer,
            lot: offer.lot.clone(),
            declared: offer.declared,
            actual,
            honest,
        }));
        if honest {
            self.settle(
                offer.buyer,
                offer.seller,
                offer.declared,
                Continuation::AfterHonest,
                events,
            );
        } else {
            self.settle(
                offer.seller,
                offer.buyer,
                offer.declared - actual,
                Continuation::AfterLie,
                events,
            );
        }
    }

    /// Settle(d → c, F) (§3.5).
    fn settle(
        &mut self,
        debtor: Seat,
        creditor: Seat,
        amount: u32,
        continuation: Continuation,
        events: &mut Vec<Logged<Event>>,
    ) {
        let kind = match continuation {
            Continuation::AfterHonest => PaymentKind::HonestAccusation,
            Continuation::AfterLie => PaymentKind::LieFine,
        };
        if amount == 0 {
            // Nothing to pay.
        } else if self.player(debtor).purse >= amount {
            self.pay(debtor, creditor, amount, kind, events);
        } else if self.cap(debtor) >= u64::from(amount) {
            self.phase = Phase::Liquidate {
                debt: Debt {
                    debtor,
                    creditor,
                    amount,
                    continuation,
                },
            };
            events.push(Logged::public(Event::LiquidationRequired {
                debtor,
                creditor,
                amount,
            }));
            return;
        } else {
            self.bankrupt(debtor, creditor, events);
            if self.phase == Phase::GameOver {
                return;
            }
        }
        self.continue_after(continuation, events);
    }

    /// A10 (checked): liquidate, pay, continue.
    pub(crate) fn liquidate_debt(&mut self, cards: &[Card], events: &mut Vec<Logged<Event>>) {
        let Phase::Liquidate { debt } = self.phase else {
            return;
        };
        for &card in cards {
            self.liquidate_card(debt.debtor, card, true, events);
        }
        let kind = match debt.continuation {
            Continuation::AfterHonest => PaymentKind::HonestAccusation,
            Continuation::AfterLie => PaymentKind::LieFine,
        };
        self.pay(debt.debtor, debt.creditor, debt.amount, kind, events);
        self.continue_after(debt.continuation, events);
    }

    /// Bankrupt(d, creditor c) (§3.5, D-27).
    fn bankrupt(&mut self, debtor: Seat, creditor: Seat, events: &mut Vec<Logged<Event>>) {
        let tulips: Vec<Card> = self
            .player(debtor)
            .hand
            .iter()
            .copied()
            .filter(|c| c.is_tulip())
            .collect();
        for card in tulips {
            self.liquidate_card(debtor, card, false, events);
        }
        let rest = std::mem::take(&mut self.players[debtor.index()].hand);
        for &card in &rest {
            self.dispose(card);
        }
        let cash = self.player(debtor).purse;
        self.pay(debtor, creditor, cash, PaymentKind::BankruptCash, events);
        let player = &mut self.players[debtor.index()];
        player.bankrupt = true;
        player.earmark = 0;
        self.elimination_order.push(debtor);
        events.push(Logged::public(Event::Bankrupt {
            seat: debtor,
            creditor,
            discarded: rest,
        }));
        if self.survivors() == 1 {
            self.finish(EndReason::SoleSurvivor, events);
        }
    }

    /// Puts the revealed lot away in lot order (§3.4) and clears `offer`.
    fn dispose_lot(&mut self, events: &mut Vec<Logged<Event>>) {
        if let Some(offer) = self.offer.take() {
            for &card in &offer.lot {
                self.dispose(card);
            }
            events.push(Logged::public(Event::LotDisposed { cards: offer.lot }));
        }
    }

    /// The continuations AFTER_HONEST and AFTER_LIE (§3.4).
    fn continue_after(&mut self, continuation: Continuation, events: &mut Vec<Logged<Event>>) {
        let Some(offer) = self.offer.clone() else {
            return;
        };
        let rv = self.rv();
        let accuser_min = if self.options.post_accusation_min_strict {
            rv + 1
        } else {
            rv
        };
        match continuation {
            Continuation::AfterHonest => {
                self.dispose_lot(events);
                if self.player(offer.buyer).bankrupt {
                    if offer.final_offer {
                        self.end_phase5(events);
                    } else {
                        let min = match self.options.reoffer_min {
                            crate::options::ReofferMin::Rv => rv,
                            crate::options::ReofferMin::RvPlusOne => rv + 1,
                        };
                        self.become_seller(offer.seller, true, min, events);
                    }
                } else if offer.final_offer {
                    self.end_phase5(events);
                } else {
                    self.become_seller(offer.buyer, true, accuser_min, events);
                }
            }
            Continuation::AfterLie => {
                self.disrupt(&offer.lot, events);
                self.dispose_lot(events);
                if self.collapse_flag || offer.final_offer {
                    self.end_phase5(events);
                } else {
                    self.become_seller(offer.buyer, true, accuser_min, events);
                }
            }
        }
    }

    /// Enumerates the non-excessive liquidation sets of `seat` for `owed` (§2.6), each in
    /// catalogue order; empty when the purse suffices or nothing suffices.
    pub fn liquidation_sets(&self, seat: Seat, owed: u32) -> Vec<Vec<Card>> {
        let player = self.player(seat);
        if player.purse >= owed {
            return Vec::new();
        }
        let need = u64::from(owed - player.purse);
        let candidates: Vec<(Card, u64)> = player
            .hand
            .iter()
            .filter(|c| c.is_tulip())
            .map(|&c| (c, u64::from(self.mv(c))))
            .filter(|&(_, v)| v > 0)
            .collect();
        let mut sets = Vec::new();
        for mask in 1u32..(1 << candidates.len()) {
            let chosen: Vec<&(Card, u64)> = candidates
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, c)| c)
                .collect();
            let sum: u64 = chosen.iter().map(|c| c.1).sum();
            if sum >= need && chosen.iter().all(|c| sum - c.1 < need) {
                sets.push(chosen.iter().map(|c| c.0).collect());
            }
        }
        sets
    }
}
