//! Legality (`check`, the single source of truth) and the effects of every action, plus the
//! automatic steps between decision points: resolution bookkeeping, premium, Cleanup, the
//! Event phase and the end of the game (spec §3–§4, §6).

use crate::action::{Action, PaymentMethod};
use crate::cards::{CardId, Collector, EventEffect, Tulip};
use crate::error::Error;
use crate::event::Event;
use crate::state::{
    Auction, EndReason, HighBid, Loan, Payment, Phase, Resolution, Slot, TulipBubble,
};
use game_core::{GameRng, Logged, Seat, SeatSet};

/// The log of one `apply`.
pub(crate) type Log = Vec<Logged<Event>>;

fn parse(id: &CardId) -> Result<Tulip, Error> {
    id.tulip().ok_or_else(|| Error::UnknownCard(id.0.clone()))
}

/// Checks and applies `action` by `seat`, then runs the automatic steps up to the next
/// decision point. On `Err` nothing has changed.
pub fn apply(
    game: &mut TulipBubble,
    seat: Seat,
    action: Action,
    rng: &mut GameRng,
) -> Result<Log, Error> {
    game.check(seat, &action)?;
    let mut log = Log::new();
    // `check` passed, so every id below parses and every lookup succeeds.
    let tulip_of = |id: &CardId| {
        id.tulip()
            .unwrap_or_else(|| unreachable!("checked card id"))
    };
    match action {
        Action::SellToMarket { tulip } => game.sell_to_market(seat, tulip_of(&tulip), &mut log),
        Action::SellToCollector { collector, tulips } => {
            let cards: Vec<Tulip> = tulips.iter().map(tulip_of).collect();
            game.sell_to_collector(seat, collector, cards, &mut log);
        }
        Action::BuyBack { tulip } => game.buy_back(seat, tulip_of(&tulip), &mut log),
        Action::EndSellingTurn {} => game.end_selling_turn(seat, &mut log),
        Action::BlackTulipDecision { claim } => game.black_tulip_decision(seat, claim, &mut log),
        Action::PlaceBids { cards } => {
            let cards: Vec<Tulip> = cards.iter().map(tulip_of).collect();
            game.place_bids(seat, cards, rng, &mut log);
        }
        Action::AuctionBid { amount } => game.auction_bid(seat, amount, &mut log),
        Action::AuctionPass {} => game.auction_pass(seat, &mut log),
        Action::ChoosePayment { method } => game.choose_payment(seat, method, rng, &mut log),
    }
    Ok(log)
}

impl TulipBubble {
    /// Whether `seat` may perform `action` now; the first failing check gives the error, in
    /// the precedence of §4.11. `apply` calls this before it changes anything.
    pub fn check(&self, seat: Seat, action: &Action) -> Result<(), Error> {
        if self.is_over() {
            return Err(Error::GameOver);
        }
        if seat.0 >= self.n_seats {
            return Err(Error::NotYourTurn);
        }
        if let Action::BuyBack { tulip } = action {
            return self.check_buy_back(seat, tulip);
        }
        let exists = matches!(
            (&self.phase, action),
            (
                Phase::Selling { .. },
                Action::SellToMarket { .. }
                    | Action::SellToCollector { .. }
                    | Action::EndSellingTurn {}
            ) | (
                Phase::BlackTulipWindow { .. },
                Action::BlackTulipDecision { .. }
            ) | (Phase::BidPlacement { .. }, Action::PlaceBids { .. })
                | (
                    Phase::Auction { .. },
                    Action::AuctionBid { .. } | Action::AuctionPass {}
                )
                | (Phase::Payment { .. }, Action::ChoosePayment { .. })
        );
        if !exists {
            return Err(Error::WrongPhase);
        }
        if let Phase::BlackTulipWindow { submitted, .. } = &self.phase {
            if submitted.contains(seat) {
                return Err(Error::AlreadyCommitted);
            }
        }
        if !self.required_actors().contains(seat) {
            return Err(Error::NotYourTurn);
        }
        match action {
            Action::SellToMarket { tulip } => self.check_sell_to_market(seat, tulip),
            Action::SellToCollector { collector, tulips } => {
                self.check_sell_to_collector(seat, *collector, tulips)
            }
            Action::BlackTulipDecision { claim } => {
                let player = &self.players[seat.index()];
                if *claim
                    && !(player.cash > self.options.black_tulip_threshold
                        && player.financed.is_empty())
                {
                    return Err(Error::NotEligible);
                }
                Ok(())
            }
            Action::PlaceBids { cards } => self.check_place_bids(seat, cards),
            Action::AuctionBid { amount } => {
                let maximum = self.options.bid_cap;
                let minimum = self.minimum_bid().unwrap_or(maximum + 1);
                if *amount < minimum {
                    return Err(Error::BidTooLow { minimum });
                }
                if *amount > maximum {
                    return Err(Error::BidTooHigh { maximum });
                }
                Ok(())
            }
            Action::ChoosePayment {
                method: PaymentMethod::Cash,
            } => {
                let price = match &self.phase {
                    Phase::Payment { payment, .. } => payment.price,
                    _ => return Err(Error::WrongPhase),
                };
                if self.players[seat.index()].cash < price {
                    return Err(Error::CashNotAllowed { price });
                }
                Ok(())
            }
            Action::EndSellingTurn {}
            | Action::AuctionPass {}
            | Action::ChoosePayment { .. }
            | Action::BuyBack { .. } => Ok(()),
        }
    }

    /// The smallest acceptable bid in the running auction (§3.5 B3).
    pub fn minimum_bid(&self) -> Option<i64> {
        match &self.phase {
            Phase::Auction { auction, .. } => Some(match auction.high_bid {
                Some(HighBid { amount, .. }) => amount + 1,
                None => auction.market_price + 1,
            }),
            _ => None,
        }
    }

    fn check_buy_back(&self, seat: Seat, id: &CardId) -> Result<(), Error> {
        let tulip = parse(id)?;
        let player = &self.players[seat.index()];
        let loan = player
            .loan_on(tulip)
            .ok_or_else(|| Error::NotFinanced(id.0.clone()))?;
        if player.cash < loan {
            return Err(Error::InsufficientCash {
                needed: loan,
                available: player.cash,
            });
        }
        Ok(())
    }

    fn check_sell_to_market(&self, seat: Seat, id: &CardId) -> Result<(), Error> {
        let tulip = parse(id)?;
        let player = &self.players[seat.index()];
        if player.concealed.binary_search(&tulip).is_ok() {
            return Ok(());
        }
        let loan = player
            .loan_on(tulip)
            .ok_or_else(|| Error::NotOwned(id.0.clone()))?;
        if self.options.evil_leverage {
            return Err(Error::FinancedSaleForbidden);
        }
        // D-7: a sale below the loan is allowed only if cash covers the shortfall.
        let price = self.price_of(tulip);
        if player.cash + price < loan {
            return Err(Error::InsufficientCash {
                needed: loan - price,
                available: player.cash,
            });
        }
        Ok(())
    }

    fn check_sell_to_collector(
        &self,
        seat: Seat,
        collector: Collector,
        ids: &[CardId],
    ) -> Result<(), Error> {
        if self.collector_stacks[collector.stack()].first() != Some(&collector) {
            return Err(Error::CollectorUnavailable(collector));
        }
        let player = &self.players[seat.index()];
        if player.collector_used_this_round {
            return Err(Error::CollectorLimit);
        }
        let [a, b, c] = ids else {
            return Err(Error::InvalidSet(collector));
        };
        for (index, id) in ids.iter().enumerate() {
            if ids[..index].contains(id) {
                return Err(Error::DuplicateCard(id.0.clone()));
            }
        }
        let mut cards = Vec::with_capacity(3);
        for id in [a, b, c] {
            let tulip = parse(id)?;
            if player.concealed.binary_search(&tulip).is_err() {
                if player.loan_on(tulip).is_some() {
                    return Err(Error::FinancedToCollector(id.0.clone()));
                }
                return Err(Error::NotOwned(id.0.clone()));
            }
            cards.push(tulip);
        }
        if !collector.accepts([cards[0], cards[1], cards[2]]) {
            return Err(Error::InvalidSet(collector));
        }
        Ok(())
    }

    fn check_place_bids(&self, seat: Seat, ids: &[CardId]) -> Result<(), Error> {
        let limit = match self.phase {
            Phase::BidPlacement { pass: 1, .. } => 2,
            _ => 1,
        };
        if ids.len() > limit {
            return Err(Error::TooManyMarkers { limit });
        }
        let available = self.markers_available(seat);
        if ids.len() > available {
            return Err(Error::NoMarkersAvailable { available });
        }
        for (index, id) in ids.iter().enumerate() {
            if ids[..index].contains(id) {
                return Err(Error::DuplicateCard(id.0.clone()));
            }
        }
        for id in ids {
            let tulip = parse(id)?;
            let slot = self
                .slot(tulip)
                .ok_or_else(|| Error::CardNotBiddable(id.0.clone()))?;
            if slot.markers.contains(seat) {
                return Err(Error::AlreadyMarked(id.0.clone()));
            }
        }
        Ok(())
    }

    // §4.1
    fn sell_to_market(&mut self, seat: Seat, tulip: Tulip, log: &mut Log) {
        let price = self.price_of(tulip);
        let player = &mut self.players[seat.index()];
        let loan_repaid = match player.concealed.binary_search(&tulip) {
            Ok(at) => {
                player.concealed.remove(at);
                player.cash += price;
                None
            }
            Err(_) => {
                let loan = player.loan_on(tulip).unwrap_or(0);
                player.financed.retain(|held| held.tulip != tulip);
                player.cash += price - loan;
                Some(loan)
            }
        };
        self.just_sold.push(Slot::new(tulip));
        log.push(Logged::public(Event::SoldToMarket {
            seat,
            tulip,
            price,
            loan_repaid,
        }));
    }

    // §4.2
    fn sell_to_collector(
        &mut self,
        seat: Seat,
        collector: Collector,
        cards: Vec<Tulip>,
        log: &mut Log,
    ) {
        let amount: i64 =
            cards.iter().map(|&tulip| self.price_of(tulip)).sum::<i64>() + collector.bonus();
        let player = &mut self.players[seat.index()];
        player.concealed.retain(|held| !cards.contains(held));
        player.cash += amount;
        player.collector_used_this_round = true;
        self.tulip_discard.extend(&cards);
        self.tulip_discard.sort();
        let stack = &mut self.collector_stacks[collector.stack()];
        stack.remove(0);
        let next_collector = stack.first().copied();
        self.collectors_boxed.push(collector);
        log.push(Logged::public(Event::SoldToCollector {
            seat,
            collector,
            tulips: cards,
            amount,
            next_collector,
        }));
    }

    // §4.3
    fn buy_back(&mut self, seat: Seat, tulip: Tulip, log: &mut Log) {
        let player = &mut self.players[seat.index()];
        let loan = player.loan_on(tulip).unwrap_or(0);
        player.financed.retain(|held| held.tulip != tulip);
        player.cash -= loan;
        player.conceal(tulip);
        log.push(Logged::public(Event::BoughtBack { seat, tulip, loan }));
    }

    // §4.4
    fn end_selling_turn(&mut self, seat: Seat, log: &mut Log) {
        self.players[seat.index()].selling_done = true;
        log.push(Logged::public(Event::SellingTurnEnded { seat }));
        let next = seat.left(self.n_seats);
        if next == self.start_player {
            // §3.5 B0: every round that has a Selling phase (round ≥ 2) has the window.
            self.phase = Phase::BlackTulipWindow {
                submitted: SeatSet::EMPTY,
                claims: SeatSet::EMPTY,
            };
            log.push(Logged::public(Event::BlackTulipWindowOpened));
        } else {
            self.phase = Phase::Selling { seller: next };
        }
    }

    // §4.9, §6.1
    fn black_tulip_decision(&mut self, seat: Seat, claim: bool, log: &mut Log) {
        let Phase::BlackTulipWindow { submitted, claims } = &mut self.phase else {
            return;
        };
        submitted.insert(seat);
        if claim {
            claims.insert(seat);
        }
        let (submitted, claims) = (*submitted, *claims);
        log.push(Logged::private(
            seat,
            Event::BlackTulipDecisionSubmitted {
                seat,
                claim: Some(claim),
            },
        ));
        log.push(Logged::others(
            seat,
            Event::BlackTulipDecisionSubmitted { seat, claim: None },
        ));
        if submitted != SeatSet::all(self.n_seats) {
            return;
        }
        log.push(Logged::public(Event::BlackTulipWindowClosed {
            claimants: claims,
        }));
        if claims.is_empty() {
            self.start_placement(log);
        } else {
            self.end_game(EndReason::BlackTulip, claims, log);
        }
    }

    fn start_placement(&mut self, log: &mut Log) {
        self.phase = Phase::BidPlacement {
            pass: 1,
            placer: self.start_player,
        };
        log.push(Logged::public(Event::PlacementPassStarted { pass: 1 }));
    }

    // §4.5
    fn place_bids(&mut self, seat: Seat, cards: Vec<Tulip>, rng: &mut GameRng, log: &mut Log) {
        let Phase::BidPlacement { pass, .. } = self.phase else {
            return;
        };
        for &tulip in &cards {
            if let Some(slot) = self.slot_mut(tulip) {
                slot.markers.insert(seat);
            }
        }
        log.push(Logged::public(Event::BidsPlaced { seat, pass, cards }));
        let next = seat.left(self.n_seats);
        if next != self.start_player {
            self.phase = Phase::BidPlacement { pass, placer: next };
        } else if pass == 1 {
            self.phase = Phase::BidPlacement {
                pass: 2,
                placer: next,
            };
            log.push(Logged::public(Event::PlacementPassStarted { pass: 2 }));
        } else {
            let queue = self
                .new_arrivals
                .iter()
                .chain(&self.just_sold)
                .map(|slot| slot.tulip)
                .collect();
            self.resolve(Resolution { queue, cursor: 0 }, rng, log);
        }
    }

    /// §3.5 B2: walks the snapshot from `resolution.cursor` to the next card with a marker,
    /// or on to Cleanup when none is left.
    fn resolve(&mut self, mut resolution: Resolution, rng: &mut GameRng, log: &mut Log) {
        while let Some(&tulip) = resolution.queue.get(resolution.cursor) {
            let markers = self.slot(tulip).map_or(SeatSet::EMPTY, |slot| slot.markers);
            if markers.is_empty() {
                resolution.cursor += 1;
                continue;
            }
            let market_price = self.price_of(tulip);
            let participants: Vec<Seat> = self
                .seats_from_start()
                .filter(|seat| markers.contains(*seat))
                .collect();
            if let [buyer] = participants[..] {
                log.push(Logged::public(Event::PurchaseDue {
                    tulip,
                    buyer,
                    price: market_price,
                    auction: false,
                }));
                let payment = Payment {
                    tulip,
                    buyer,
                    price: market_price,
                    market_price,
                    participants,
                };
                self.phase = Phase::Payment {
                    resolution,
                    payment,
                };
            } else {
                log.push(Logged::public(Event::AuctionStarted {
                    tulip,
                    market_price,
                    participants: participants.clone(),
                }));
                let actor = participants[0];
                let auction = Auction {
                    tulip,
                    market_price,
                    participants,
                    active: markers,
                    high_bid: None,
                    actor,
                };
                self.phase = Phase::Auction {
                    resolution,
                    auction,
                };
            }
            return;
        }
        self.cleanup(rng, log);
    }

    // §4.6
    fn auction_bid(&mut self, seat: Seat, amount: i64, log: &mut Log) {
        let Phase::Auction { auction, .. } = &mut self.phase else {
            return;
        };
        auction.high_bid = Some(HighBid { seat, amount });
        auction.actor = next_active(auction, seat);
        log.push(Logged::public(Event::AuctionBid { seat, amount }));
    }

    // §4.7
    fn auction_pass(&mut self, seat: Seat, log: &mut Log) {
        let Phase::Auction {
            auction,
            resolution,
        } = &mut self.phase
        else {
            return;
        };
        auction.active.remove(seat);
        log.push(Logged::public(Event::AuctionPassed { seat }));
        if auction.active.len() > 1 {
            auction.actor = next_active(auction, seat);
            return;
        }
        // D-12: with no bid the last seat buys at the market price.
        let buyer = auction.active.iter().next().unwrap_or(seat);
        let price = auction
            .high_bid
            .map_or(auction.market_price, |high| high.amount);
        let payment = Payment {
            tulip: auction.tulip,
            buyer,
            price,
            market_price: auction.market_price,
            participants: std::mem::take(&mut auction.participants),
        };
        log.push(Logged::public(Event::PurchaseDue {
            tulip: payment.tulip,
            buyer,
            price,
            auction: true,
        }));
        let resolution = std::mem::replace(
            resolution,
            Resolution {
                queue: Vec::new(),
                cursor: 0,
            },
        );
        self.phase = Phase::Payment {
            resolution,
            payment,
        };
    }

    // §4.8 and the premium of §3.5 B5.
    fn choose_payment(
        &mut self,
        seat: Seat,
        method: PaymentMethod,
        rng: &mut GameRng,
        log: &mut Log,
    ) {
        let Phase::Payment {
            resolution,
            payment,
        } = std::mem::replace(&mut self.phase, Phase::Selling { seller: seat })
        else {
            return;
        };
        let tulip = payment.tulip;
        self.new_arrivals.retain(|slot| slot.tulip != tulip);
        self.just_sold.retain(|slot| slot.tulip != tulip);
        let buyer = &mut self.players[seat.index()];
        match method {
            PaymentMethod::Cash => {
                buyer.cash -= payment.price;
                buyer.conceal(tulip);
            }
            PaymentMethod::Finance => buyer.financed.push(Loan {
                tulip,
                loan: payment.price,
            }),
        }
        log.push(Logged::public(Event::TulipBought {
            seat,
            tulip,
            price: payment.price,
            method,
        }));
        let others = payment.participants.len().saturating_sub(1);
        if others > 0 && payment.price > payment.market_price {
            let amount = (payment.price - payment.market_price) / others as i64;
            let seats: SeatSet = payment
                .participants
                .iter()
                .copied()
                .filter(|&other| other != seat)
                .collect();
            if amount > 0 {
                for receiver in seats.iter() {
                    self.players[receiver.index()].cash += amount;
                }
                log.push(Logged::public(Event::PremiumPaid { seats, amount }));
            }
        }
        let Resolution { queue, cursor } = resolution;
        self.resolve(
            Resolution {
                queue,
                cursor: cursor + 1,
            },
            rng,
            log,
        );
    }

    /// §3.6 C1: the Market Response over NS ∪ NA ∪ JS.
    pub(crate) fn market_response(&mut self, log: &mut Vec<Event>) {
        let counts = self.area_counts();
        self.track.market_response(counts);
        log.push(Event::MarketResponse {
            counts,
            track: self.track,
        });
    }

    /// §3.6 Cleanup, then the next round's Event phase.
    fn cleanup(&mut self, rng: &mut GameRng, log: &mut Log) {
        let mut response = Vec::new();
        self.market_response(&mut response);
        log.extend(response.into_iter().map(Logged::public));
        let tulips: Vec<Tulip> = self
            .new_arrivals
            .drain(..)
            .chain(self.just_sold.drain(..))
            .map(|slot| slot.tulip)
            .collect();
        self.tulip_discard.extend(&tulips);
        self.tulip_discard.sort();
        log.push(Logged::public(Event::TulipsDiscarded { tulips }));
        self.round += 1;
        self.event_phase(rng, log);
    }

    /// §3.3: the Event phase of round ≥ 2.
    fn event_phase(&mut self, rng: &mut GameRng, log: &mut Log) {
        // The deck cannot run out (BUST is among its bottom three, §5.3); an empty deck in a
        // hand-built state is treated like the Bust.
        let Some(card) = (!self.event_deck.is_empty()).then(|| self.event_deck.remove(0)) else {
            self.end_game(EndReason::Bust, SeatSet::EMPTY, log);
            return;
        };
        self.event_history.push(card);
        let effect = card.effect();
        self.track.apply_event(effect);
        log.push(Logged::public(Event::MarketEvent {
            round: self.round,
            card,
            track: self.track,
        }));
        if effect == EventEffect::Bust {
            self.end_game(EndReason::Bust, SeatSet::EMPTY, log);
            return;
        }
        // E2.
        self.new_arrivals = self.next_shipment.drain(..).map(Slot::new).collect();
        let reshuffled = self.draw(usize::from(self.n_seats) + 2, rng);
        log.push(Logged::public(Event::ShipmentArrived {
            new_arrivals: self.new_arrivals.iter().map(|slot| slot.tulip).collect(),
            next_shipment: self.next_shipment.clone(),
            reshuffled,
        }));
        // E3.
        self.start_player = self.start_player.left(self.n_seats);
        for player in &mut self.players {
            player.selling_done = false;
            player.collector_used_this_round = false;
        }
        log.push(Logged::public(Event::StartPlayerPassed {
            seat: self.start_player,
        }));
        self.phase = Phase::Selling {
            seller: self.start_player,
        };
    }

    /// §5.2: draws up to `count` cards to the right end of Next Shipment, shuffling the
    /// discard pile into a new deck when the deck runs out. Returns whether it reshuffled.
    pub(crate) fn draw(&mut self, count: usize, rng: &mut GameRng) -> bool {
        let mut reshuffled = false;
        for _ in 0..count {
            if self.tulip_deck.is_empty() && !self.tulip_discard.is_empty() {
                self.tulip_deck = std::mem::take(&mut self.tulip_discard);
                rng.shuffle(&mut self.tulip_deck);
                reshuffled = true;
            }
            if self.tulip_deck.is_empty() {
                break;
            }
            let card = self.tulip_deck.remove(0);
            self.next_shipment.push(card);
        }
        reshuffled
    }

    /// §6: ends the game and reveals everything.
    fn end_game(&mut self, reason: EndReason, claimants: SeatSet, log: &mut Log) {
        let winners: SeatSet = match reason {
            EndReason::Bust => {
                let scores = self.scores();
                let best = scores.iter().copied().max().unwrap_or(0);
                Seat::all(self.n_seats)
                    .filter(|seat| scores[seat.index()] == best)
                    .collect()
            }
            EndReason::BlackTulip => {
                self.black_tulip_available = false;
                let best = claimants
                    .iter()
                    .map(|seat| self.players[seat.index()].cash)
                    .max()
                    .unwrap_or(0);
                claimants
                    .iter()
                    .filter(|seat| self.players[seat.index()].cash == best)
                    .collect()
            }
        };
        self.phase = Phase::GameOver {
            reason,
            winners,
            claimants,
        };
        log.push(Logged::public(Event::GameEnded {
            reason,
            winners,
            cash: self.players.iter().map(|player| player.cash).collect(),
            scores: self.scores(),
            removed_event: self.removed_event,
        }));
    }
}

/// The next participant after `seat`, in cyclic order, that has not passed.
fn next_active(auction: &Auction, seat: Seat) -> Seat {
    let count = auction.participants.len();
    let at = auction
        .participants
        .iter()
        .position(|&other| other == seat)
        .unwrap_or(0);
    (1..=count)
        .map(|offset| auction.participants[(at + offset) % count])
        .find(|&other| other != seat && auction.active.contains(other))
        .unwrap_or(seat)
}
