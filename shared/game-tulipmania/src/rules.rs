//! Legality (`check`) and the state machine (`apply` and the system steps of spec §3.2, §4).
//!
//! `check` is the single source of legality: [`apply`] calls it before mutating anything and
//! `legal_actions` (in [`crate::legal`]) filters candidates through it, so an `Err` never
//! changes the state.

use crate::action::Action;
use crate::board::SpaceKind;
use crate::error::Error;
use crate::event::{Event, Payer, Pile, RevealedCard};
use crate::options::{IdleRoundRule, IllegalCardPolicy};
use crate::pieces::{Card, Colour, DiscardReason, DiscardedBuyer, Florins};
use crate::state::{EndReason, Phase, Tulipmania};
use game_core::{Logged, Outcome, Seat};

/// The events of one accepted action, with their visibility.
pub type Log = Vec<Logged<Event>>;

/// Validates and applies `action` by `seat`, then runs every system step up to the next
/// quiescent state (spec §0). On `Err` nothing has changed.
pub fn apply(game: &mut Tulipmania, seat: Seat, action: Action) -> Result<Log, Error> {
    game.check(seat, &action)?;
    let mut log = Log::new();
    match action {
        Action::SellTulip { colour } => game.sell_tulip(colour, &mut log),
        Action::SkipSale {} => {
            log.push(Logged::public(Event::SaleSkipped { seat }));
            game.draw_step(&mut log);
        }
        Action::CommitCard { card } => game.commit_card(seat, card, &mut log),
        Action::PlaySellerCard { card } => game.play_seller_card(card, &mut log),
        Action::DrawBuyer { face_up } => {
            game.draw_buyer(face_up.map(|slot| slot as usize), &mut log)
        }
        Action::BuyTulip { colour } => game.buy_tulip(colour, &mut log),
        Action::SkipPurchase {} => {
            log.push(Logged::public(Event::PurchaseSkipped { seat }));
            game.turn_end(&mut log);
        }
    }
    Ok(log)
}

impl Tulipmania {
    /// Whether `card` is legal for `seat` in the sale now under way (spec §4.1.4 table).
    /// Outside a sale only `pass` is legal.
    pub fn card_is_legal(&self, seat: Seat, card: Card) -> bool {
        let Some(colour) = self.in_transit else {
            return card == Card::Pass;
        };
        let Some(space) = self.markers[colour.index()] else {
            return card == Card::Pass;
        };
        let space = self.board.space(space);
        let cash = self.cash[seat.index()];
        let buyers = self.buyers[seat.index()][colour.index()];
        match card {
            Card::Pass => true,
            Card::Purchase => cash >= space.value,
            Card::Speculate => space
                .speculate_via
                .is_some_and(|via| cash >= self.board.value(via)),
            Card::PurchaseByProxy => buyers >= 1,
            Card::SpeculateByProxy => buyers >= 2,
        }
    }

    /// Why the current player may not buy a tulip of `colour` now, if he may not
    /// (the preconditions of spec §4.1.7, in the order of §4.0).
    pub(crate) fn buy_error(&self, colour: Colour) -> Option<Error> {
        let Some(price) = self.price(colour) else {
            return Some(Error::ColourNotLive(colour));
        };
        if self.sold_colour_this_turn == Some(colour) {
            return Some(Error::SameColourAsSold(colour));
        }
        if self.stock[colour.index()] == 0 {
            return Some(Error::NoStock(colour));
        }
        let cash = self.cash[self.current_player.index()];
        if cash < price {
            return Some(Error::InsufficientCash { price, cash });
        }
        None
    }

    /// The single source of legality (spec §4.0: the checks run in the listed order).
    pub fn check(&self, seat: Seat, action: &Action) -> Result<(), Error> {
        if let Phase::GameOver { .. } = self.phase {
            return Err(Error::GameOver);
        }
        if let Phase::Commit { commits } = &self.phase {
            if seat != self.current_player && commits.get(seat.index()).is_some_and(Option::is_some)
            {
                return Err(Error::AlreadyCommitted);
            }
        }
        if !self.acting_seats().contains(seat) {
            return Err(Error::NotYourTurn(seat));
        }
        let current = self.current_player.index();
        match (&self.phase, action) {
            (Phase::SellChoice, Action::SellTulip { colour }) => {
                if !self.is_live(*colour) {
                    return Err(Error::ColourNotLive(*colour));
                }
                if self.tulips[current][colour.index()] == 0 {
                    return Err(Error::NoSuchTulip(*colour));
                }
                Ok(())
            }
            (Phase::SellChoice, Action::SkipSale {}) => {
                let held = self.tulip_count(self.current_player);
                if held == 1 {
                    Ok(())
                } else {
                    Err(Error::MustSell(held))
                }
            }
            (Phase::Commit { .. }, Action::CommitCard { card }) => {
                if self.options.illegal_card_policy == IllegalCardPolicy::RejectOnCommit
                    && !self.card_is_legal(seat, *card)
                {
                    return Err(Error::IllegalCard(*card));
                }
                Ok(())
            }
            (Phase::SellerCard { .. }, Action::PlaySellerCard { card }) => {
                if matches!(card, Card::Speculate | Card::Purchase) {
                    return Err(Error::SellerCardNotAllowed(*card));
                }
                if self.options.illegal_card_policy == IllegalCardPolicy::RejectOnCommit
                    && !self.card_is_legal(seat, *card)
                {
                    return Err(Error::IllegalCard(*card));
                }
                Ok(())
            }
            (Phase::Draw, Action::DrawBuyer { face_up }) => match face_up {
                Some(index) if *index as usize >= self.face_up.len() => {
                    Err(Error::BadFaceUpIndex {
                        index: *index,
                        len: self.face_up.len(),
                    })
                }
                _ => Ok(()),
            },
            (Phase::Purchase, Action::BuyTulip { colour }) => match self.buy_error(*colour) {
                Some(error) => Err(error),
                None => Ok(()),
            },
            (Phase::Purchase, Action::SkipPurchase {}) => Ok(()),
            _ => Err(Error::WrongPhase {
                action: action.kind(),
                phase: self.phase.name(),
            }),
        }
    }

    // ----- the sale (spec §4.1.1–4.1.5, §4.2) -----

    fn sell_tulip(&mut self, colour: Colour, log: &mut Log) {
        let seller = self.current_player;
        self.tulips[seller.index()][colour.index()] -= 1;
        self.in_transit = Some(colour);
        self.sold_colour_this_turn = Some(colour);
        self.did_sell = true;
        self.phase = Phase::Commit {
            commits: vec![None; usize::from(self.n_seats)],
        };
        log.push(Logged::public(Event::TulipOffered { seller, colour }));
    }

    fn commit_card(&mut self, seat: Seat, card: Card, log: &mut Log) {
        let Phase::Commit { commits } = &mut self.phase else {
            unreachable!("check accepts commit_card only in the commit phase");
        };
        commits[seat.index()] = Some(card);
        log.push(Logged::public(Event::CardCommitted { seat }));
        let seller = self.current_player;
        let all_in = Seat::all(self.n_seats)
            .all(|other| other == seller || commits[other.index()].is_some());
        if all_in {
            let commits = commits.clone();
            self.determine(commits, log);
        }
    }

    /// `DETERMINE` (spec §4.1.4): reveal, then find the winner, replacing illegal winning
    /// cards by a pass one at a time.
    fn determine(&mut self, mut effective: Vec<Option<Card>>, log: &mut Log) {
        let cards = Seat::all(self.n_seats)
            .filter_map(|seat| effective[seat.index()].map(|card| RevealedCard { seat, card }))
            .collect();
        log.push(Logged::public(Event::CardsRevealed { cards }));
        loop {
            let best = effective
                .iter()
                .flatten()
                .filter(|card| **card != Card::Pass)
                .map(|card| card.rank())
                .max();
            let Some(best) = best else {
                self.phase = Phase::SellerCard {
                    revealed: effective,
                };
                return;
            };
            let winner = self
                .tiebreak(|seat| effective[seat.index()].is_some_and(|card| card.rank() == best));
            let card = effective[winner.index()].expect("the winner committed a card");
            if self.card_is_legal(winner, card) {
                self.resolve(Some(winner), card, log);
                return;
            }
            log.push(Logged::public(Event::IllegalCardReplaced {
                seat: winner,
                card,
            }));
            effective[winner.index()] = Some(Card::Pass);
        }
    }

    /// `tiebreak` (spec §4.1.4 step 3): the priority holder if tied, else the first tied
    /// player anticlockwise from him.
    fn tiebreak(&self, in_tie: impl Fn(Seat) -> bool) -> Seat {
        let mut seat = self.priority_holder;
        for _ in 0..self.n_seats {
            if in_tie(seat) {
                return seat;
            }
            seat = seat.right(self.n_seats);
        }
        unreachable!("the tie is not empty")
    }

    fn play_seller_card(&mut self, card: Card, log: &mut Log) {
        let seller = self.current_player;
        log.push(Logged::public(Event::SellerCardPlayed {
            seat: seller,
            card,
        }));
        if card != Card::Pass && self.card_is_legal(seller, card) {
            self.resolve(Some(seller), card, log);
        } else {
            if card != Card::Pass {
                log.push(Logged::public(Event::IllegalCardReplaced {
                    seat: seller,
                    card,
                }));
            }
            self.resolve(None, Card::Pass, log);
        }
    }

    fn discard_buyers(
        &mut self,
        seat: Seat,
        colour: Colour,
        count: u8,
        reason: DiscardReason,
        log: &mut Log,
    ) {
        self.buyers[seat.index()][colour.index()] -= count;
        for _ in 0..count {
            self.buyer_discard.push(DiscardedBuyer { colour, reason });
        }
        log.push(Logged::public(Event::BuyersDiscarded {
            seat,
            colour,
            count,
            reason,
        }));
    }

    /// `RESOLVE` and `POST_SALE` (spec §4.2, §3.2). `winner = None` is an all-pass.
    fn resolve(&mut self, winner: Option<Seat>, card: Card, log: &mut Log) {
        let colour = self.in_transit.take().expect("a sale is under way");
        let seller = self.current_player;
        let from = self.markers[colour.index()].expect("the colour on sale is live");
        let space = self.board.space(from).clone();
        let value = |index: Option<u8>| self.board.value(index.expect("the board was validated"));
        let (price, paid_by, tulip_to, to) = match (winner, card) {
            (Some(winner), Card::Purchase) => {
                (space.value, Payer::Winner, Some(winner), space.purchase)
            }
            (Some(winner), Card::Speculate) => (
                value(space.speculate_via),
                Payer::Winner,
                Some(winner),
                space.speculate_to,
            ),
            (Some(_), Card::PurchaseByProxy) => (space.value, Payer::Bank, None, space.purchase),
            (Some(_), Card::SpeculateByProxy) => (
                value(space.speculate_via),
                Payer::Bank,
                None,
                space.speculate_to,
            ),
            // An all-pass pays at the pink arrow's transition space, or the current price on
            // the bottom row (no transition there).
            _ => (
                space
                    .sale_via
                    .map_or(space.value, |via| self.board.value(via)),
                Payer::Bank,
                None,
                space.sale_to,
            ),
        };
        let to = to.expect("the board was validated");
        match tulip_to {
            Some(buyer) => self.tulips[buyer.index()][colour.index()] += 1,
            None => self.stock[colour.index()] += 1,
        }
        match paid_by {
            Payer::Winner => self.cash[winner.expect("a paying winner").index()] -= price,
            Payer::Bank => self.bank -= price,
        }
        self.cash[seller.index()] += price;
        self.markers[colour.index()] = Some(to);
        log.push(Logged::public(Event::SaleResolved {
            seller,
            colour,
            winner,
            card,
            price,
            paid_by,
            tulip_to,
            from: space.id.clone(),
            to: self.board.space(to).id.clone(),
        }));
        if let Some(winner) = winner {
            match card {
                Card::PurchaseByProxy => {
                    self.discard_buyers(winner, colour, 1, DiscardReason::Proxy, log)
                }
                Card::SpeculateByProxy => {
                    self.discard_buyers(winner, colour, 2, DiscardReason::Proxy, log)
                }
                _ => {}
            }
            // P-a (spec §4.3).
            if winner == self.priority_holder {
                let to = winner.right(self.n_seats);
                log.push(Logged::public(Event::PriorityPassed { from: winner, to }));
                self.priority_holder = to;
            }
        }
        // The cards return to their owners: nothing to do, they are never used up.
        if self.board.space(to).kind == SpaceKind::Burst {
            self.burst(colour, card.is_speculative(), winner, log);
            if matches!(self.phase, Phase::GameOver { .. }) {
                return;
            }
        }
        self.draw_step(log);
    }

    // ----- bursts (spec §4.4) -----

    fn burst(
        &mut self,
        colour: Colour,
        speculative: bool,
        card_player: Option<Seat>,
        log: &mut Log,
    ) {
        log.push(Logged::public(Event::BurstStarted {
            colour,
            speculative,
            card_player,
            final_burst: false,
        }));
        if speculative {
            for seat in Seat::all(self.n_seats) {
                if Some(seat) != card_player && self.buyers[seat.index()][colour.index()] >= 1 {
                    self.discard_buyers(seat, colour, 1, DiscardReason::BurstPenalty, log);
                }
            }
        }
        self.sell_off(colour, log);
        self.clean_up(colour, log);
        let live: Vec<Colour> = self.live_colours().collect();
        if let [last] = live[..] {
            log.push(Logged::public(Event::BurstStarted {
                colour: last,
                speculative: false,
                card_player: None,
                final_burst: true,
            }));
            self.sell_off(last, log);
            self.clean_up(last, log);
            self.game_over(EndReason::FinalBurst, log);
        }
    }

    /// Steps 2 and 3: pairs first, then plain tulips; one tulip per player per step, then
    /// the marker moves one step down.
    fn sell_off(&mut self, colour: Colour, log: &mut Log) {
        for pairs in [true, false] {
            loop {
                let sellers: Vec<Seat> = Seat::all(self.n_seats)
                    .filter(|seat| {
                        self.tulips[seat.index()][colour.index()] >= 1
                            && (!pairs || self.buyers[seat.index()][colour.index()] >= 1)
                    })
                    .collect();
                if sellers.is_empty() {
                    break;
                }
                let at = self.markers[colour.index()].expect("a bursting colour has a marker");
                let price = self.board.value(at);
                for &seat in &sellers {
                    self.tulips[seat.index()][colour.index()] -= 1;
                    if pairs {
                        self.buyers[seat.index()][colour.index()] -= 1;
                        self.buyer_discard.push(DiscardedBuyer {
                            colour,
                            reason: DiscardReason::BurstPair,
                        });
                    }
                    self.cash[seat.index()] += price;
                    self.bank -= price;
                }
                let down = self.board.space(at).down;
                self.markers[colour.index()] = Some(down);
                log.push(Logged::public(Event::TulipsSoldOff {
                    colour,
                    pairs,
                    seats: sellers,
                    price,
                    from: self.board.space(at).id.clone(),
                    to: self.board.space(down).id.clone(),
                }));
            }
        }
    }

    /// Step 4: remove the stockpile and the marker, discard the colour's buyers from hands
    /// and the face-up row (refilling from the reserve, D21).
    fn clean_up(&mut self, colour: Colour, log: &mut Log) {
        let stock_removed = std::mem::take(&mut self.stock[colour.index()]);
        self.markers[colour.index()] = None;
        log.push(Logged::public(Event::ColourRemoved {
            colour,
            stock_removed,
        }));
        for seat in Seat::all(self.n_seats) {
            let count = self.buyers[seat.index()][colour.index()];
            if count > 0 {
                self.discard_buyers(seat, colour, count, DiscardReason::BurstCleanup, log);
            }
        }
        let row = std::mem::take(&mut self.face_up);
        let mut kept = Vec::with_capacity(row.len());
        for card in row {
            if card != colour {
                kept.push(card);
                continue;
            }
            let slot = kept.len() as u32;
            self.buyer_discard.push(DiscardedBuyer {
                colour,
                reason: DiscardReason::BurstCleanup,
            });
            log.push(Logged::public(Event::FaceUpDiscarded {
                slot,
                colour,
                reason: DiscardReason::BurstCleanup,
            }));
            match self.reserve_fetch(log) {
                Some(refill) => {
                    kept.push(refill);
                    log.push(Logged::public(Event::FaceUpRefilled {
                        slot,
                        colour: refill,
                        from: Pile::Reserve,
                    }));
                }
                None => log.push(Logged::public(Event::FaceUpSlotRemoved { slot })),
            }
        }
        self.face_up = kept;
        self.burst_order.push(colour);
    }

    /// `reserveFetch()` (spec §4.1.6): the first live card of the reserve; burst-colour cards
    /// on the way are shown and discarded.
    fn reserve_fetch(&mut self, log: &mut Log) -> Option<Colour> {
        while !self.reserve.is_empty() {
            let card = self.reserve.remove(0);
            if self.is_live(card) {
                return Some(card);
            }
            self.buyer_discard.push(DiscardedBuyer {
                colour: card,
                reason: DiscardReason::BurstColourDraw,
            });
            log.push(Logged::public(Event::BurstColourDrawn {
                colour: card,
                from: Pile::Reserve,
            }));
        }
        None
    }

    // ----- draw, purchase, end of turn (spec §4.1.6–4.1.8, §3.2) -----

    fn draw_step(&mut self, log: &mut Log) {
        if self.deck_exhausted {
            self.purchase_step(log);
        } else {
            self.phase = Phase::Draw;
        }
    }

    fn draw_buyer(&mut self, face_up: Option<usize>, log: &mut Log) {
        let seat = self.current_player;
        match face_up {
            None => {
                let card = self.deck.remove(0);
                if self.is_live(card) {
                    self.buyers[seat.index()][card.index()] += 1;
                    log.push(Logged::private(
                        seat,
                        Event::BuyerDrawn {
                            seat,
                            face_up: None,
                            colour: Some(card),
                        },
                    ));
                    log.push(Logged::others(
                        seat,
                        Event::BuyerDrawn {
                            seat,
                            face_up: None,
                            colour: None,
                        },
                    ));
                } else {
                    self.buyer_discard.push(DiscardedBuyer {
                        colour: card,
                        reason: DiscardReason::BurstColourDraw,
                    });
                    log.push(Logged::public(Event::BurstColourDrawn {
                        colour: card,
                        from: Pile::Deck,
                    }));
                    match self.reserve_fetch(log) {
                        Some(replacement) => {
                            self.buyers[seat.index()][replacement.index()] += 1;
                            log.push(Logged::private(
                                seat,
                                Event::ReplacementReceived {
                                    seat,
                                    received: true,
                                    colour: Some(replacement),
                                },
                            ));
                            log.push(Logged::others(
                                seat,
                                Event::ReplacementReceived {
                                    seat,
                                    received: true,
                                    colour: None,
                                },
                            ));
                        }
                        None => log.push(Logged::public(Event::ReplacementReceived {
                            seat,
                            received: false,
                            colour: None,
                        })),
                    }
                }
            }
            Some(slot) => {
                let card = self.face_up[slot];
                self.buyers[seat.index()][card.index()] += 1;
                log.push(Logged::public(Event::BuyerDrawn {
                    seat,
                    face_up: Some(slot as u32),
                    colour: Some(card),
                }));
                let mut refill = Some(self.deck.remove(0));
                if let Some(drawn) = refill.filter(|&drawn| !self.is_live(drawn)) {
                    self.buyer_discard.push(DiscardedBuyer {
                        colour: drawn,
                        reason: DiscardReason::BurstColourDraw,
                    });
                    log.push(Logged::public(Event::BurstColourDrawn {
                        colour: drawn,
                        from: Pile::Deck,
                    }));
                    refill = self.reserve_fetch(log);
                    if let Some(card) = refill {
                        self.face_up[slot] = card;
                        log.push(Logged::public(Event::FaceUpRefilled {
                            slot: slot as u32,
                            colour: card,
                            from: Pile::Reserve,
                        }));
                    } else {
                        self.face_up.remove(slot);
                        log.push(Logged::public(Event::FaceUpSlotRemoved {
                            slot: slot as u32,
                        }));
                    }
                } else if let Some(card) = refill {
                    self.face_up[slot] = card;
                    log.push(Logged::public(Event::FaceUpRefilled {
                        slot: slot as u32,
                        colour: card,
                        from: Pile::Deck,
                    }));
                }
            }
        }
        self.did_draw = true;
        self.draws += 1;
        if self.deck.is_empty() {
            let discarded = std::mem::take(&mut self.face_up);
            for &colour in &discarded {
                self.buyer_discard.push(DiscardedBuyer {
                    colour,
                    reason: DiscardReason::Exhaustion,
                });
            }
            self.deck_exhausted = true;
            log.push(Logged::public(Event::DeckExhausted { discarded }));
        }
        self.purchase_step(log);
    }

    fn purchase_step(&mut self, log: &mut Log) {
        if self
            .live_colours()
            .any(|colour| self.buy_error(colour).is_none())
        {
            self.phase = Phase::Purchase;
        } else {
            self.turn_end(log);
        }
    }

    fn buy_tulip(&mut self, colour: Colour, log: &mut Log) {
        let seat = self.current_player;
        let from = self.markers[colour.index()].expect("check: the colour is live");
        let space = self.board.space(from);
        let price = space.value;
        let to = space.purchase.expect("the board was validated");
        self.cash[seat.index()] -= price;
        self.bank += price;
        self.stock[colour.index()] -= 1;
        self.tulips[seat.index()][colour.index()] += 1;
        self.markers[colour.index()] = Some(to);
        self.did_buy = true;
        log.push(Logged::public(Event::TulipBought {
            seat,
            colour,
            price,
            from: space.id.clone(),
            to: self.board.space(to).id.clone(),
        }));
        if self.board.space(to).kind == SpaceKind::Burst {
            self.burst(colour, false, None, log);
            if matches!(self.phase, Phase::GameOver { .. }) {
                return;
            }
        }
        self.turn_end(log);
    }

    /// `TURN_END` (spec §3.2): idle counter, pass the current player card, P-b, end checks.
    fn turn_end(&mut self, log: &mut Log) {
        let idle = !self.did_sell && !self.did_draw && !self.did_buy;
        self.idle_turns = if idle { self.idle_turns + 1 } else { 0 };
        let finished = self.current_player;
        self.current_player = finished.left(self.n_seats);
        if self.priority_holder == self.current_player {
            self.priority_holder = self.current_player.right(self.n_seats);
        }
        self.turn_number += 1;
        log.push(Logged::public(Event::TurnEnded {
            seat: finished,
            idle,
            idle_turns: self.idle_turns,
            current_player: self.current_player,
            priority_holder: self.priority_holder,
            turn_number: self.turn_number,
        }));
        let round_done = match self.options.idle_round_rule {
            IdleRoundRule::Sliding => true,
            IdleRoundRule::Anchored => self.current_player == self.first_player,
        };
        if self.idle_turns >= u32::from(self.n_seats) && round_done {
            self.liquidate(log);
            self.game_over(EndReason::AllDecline, log);
        } else if self
            .options
            .max_turns
            .is_some_and(|cap| self.turn_number > cap)
        {
            self.liquidate(log);
            self.game_over(EndReason::TurnCap, log);
        } else {
            self.turn_start(log);
        }
    }

    /// `TURN_START` (spec §3.2).
    pub(crate) fn turn_start(&mut self, log: &mut Log) {
        self.did_sell = false;
        self.did_draw = false;
        self.did_buy = false;
        self.sold_colour_this_turn = None;
        if self.tulip_count(self.current_player) == 0 {
            self.draw_step(log);
        } else {
            self.phase = Phase::SellChoice;
        }
    }

    /// `LIQUIDATE` (spec §4.5): every held tulip pays its colour's current price and goes to
    /// the stockpile; markers do not move.
    fn liquidate(&mut self, log: &mut Log) {
        let mut payouts: Vec<Florins> = vec![0; usize::from(self.n_seats)];
        for colour in Colour::in_play(self.n_seats) {
            let Some(price) = self.price(*colour) else {
                continue;
            };
            for seat in Seat::all(self.n_seats) {
                let held = std::mem::take(&mut self.tulips[seat.index()][colour.index()]);
                let payout = Florins::from(held) * price;
                self.stock[colour.index()] += held;
                payouts[seat.index()] += payout;
                self.cash[seat.index()] += payout;
                self.bank -= payout;
            }
        }
        log.push(Logged::public(Event::Liquidated { payouts }));
    }

    fn game_over(&mut self, reason: EndReason, log: &mut Log) {
        self.phase = Phase::GameOver { reason };
        let outcome = Outcome::from_scores(self.cash.clone(), reason.as_str());
        log.push(Logged::public(Event::GameEnded {
            reason,
            cash: self.cash.clone(),
            ranks: outcome.ranks,
        }));
    }
}
