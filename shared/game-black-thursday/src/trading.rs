//! Trading sessions, agreement execution (spec §3.6, §4.2–§4.4) and breach claims (§3.7,
//! §4.6).

use crate::action::{Action, Term};
use crate::coins::{coin_info, insert_held};
use crate::event::{CoinInfo, Event, Events, Transfer};
use crate::ids::{AgreementId, ClaimId, Handle, OfferId, PromiseId};
use crate::state::{
    BlackThursday, Claim, ClaimStatus, Offer, OfferStatus, Phase, Promise, PromiseStatus,
    SessionStatus,
};
use game_core::{GameRng, Logged, Seat, SeatSet};

impl BlackThursday {
    fn session_mut(&mut self) -> &mut crate::state::Session {
        self.session.as_mut().expect("checked: a session is open")
    }

    /// Applies a session command that `check` accepted.
    pub(crate) fn apply_session(
        &mut self,
        seat: Seat,
        action: Action,
        rng: &mut GameRng,
        events: &mut Events,
    ) {
        match action {
            Action::PostOffer {
                terms, counters, ..
            } => {
                let id = OfferId(self.counters.offer);
                self.counters.offer += 1;
                let offer = Offer {
                    id,
                    author: seat,
                    terms,
                    counters,
                    status: OfferStatus::Live,
                };
                let session = self.session_mut();
                session.offers.push(offer.clone());
                session.pointers[seat.index()] = Some(id);
                events.push(Logged::public(Event::OfferPosted { offer }));
                self.unanimity(rng, events);
            }
            Action::WithdrawOffer { offer } => {
                let session = self.session_mut();
                if let Some(found) = session.offers.iter_mut().find(|o| o.id == offer) {
                    found.status = OfferStatus::Withdrawn;
                }
                for pointer in &mut session.pointers {
                    if *pointer == Some(offer) {
                        *pointer = None;
                    }
                }
                events.push(Logged::public(Event::OfferWithdrawn { offer }));
            }
            Action::AcceptOffer { offer } => {
                self.session_mut().pointers[seat.index()] = Some(offer);
                events.push(Logged::public(Event::OfferAccepted { seat, offer }));
                self.unanimity(rng, events);
            }
            Action::RevokeAcceptance { .. } => {
                self.session_mut().pointers[seat.index()] = None;
                events.push(Logged::public(Event::AcceptanceRevoked { seat }));
            }
            Action::LeaveSession { .. } => {
                self.close_session(SessionStatus::Abandoned, Some(seat), events);
                self.settle(rng, events);
            }
            _ => {}
        }
    }

    /// Ends the open session; its other live offers become `CLOSED`.
    fn close_session(&mut self, status: SessionStatus, left_by: Option<Seat>, events: &mut Events) {
        let session = self.session_mut();
        session.status = status;
        for offer in &mut session.offers {
            if offer.status == OfferStatus::Live {
                offer.status = OfferStatus::Closed;
            }
        }
        let id = session.id;
        events.push(Logged::public(Event::SessionClosed {
            session: id,
            status,
            left_by,
        }));
        self.phase = Phase::Actions;
    }

    /// The unanimity check (spec §3.6).
    fn unanimity(&mut self, rng: &mut GameRng, events: &mut Events) {
        let session = self.session.as_ref().expect("checked: a session is open");
        let mut pointers = session
            .participants
            .iter()
            .map(|s| session.pointers[s.index()]);
        let Some(Some(first)) = pointers.next() else {
            return;
        };
        if !pointers.all(|p| p == Some(first)) {
            return;
        }
        let Some(offer) = session
            .offer(first)
            .filter(|o| o.status == OfferStatus::Live)
            .cloned()
        else {
            return;
        };
        self.execute(offer, rng, events);
    }

    /// Executes a live offer atomically (spec §4.4).
    fn execute(&mut self, offer: Offer, rng: &mut GameRng, events: &mut Events) {
        let mut learned: Vec<(Seat, Handle)> = Vec::new();
        // (a) reveals and shared knowledge, on the state before the transfers.
        for term in &offer.terms {
            match term {
                Term::Reveal { to, handles, .. } => {
                    learned.extend(handles.iter().map(|&h| (*to, h)));
                }
                Term::ShareKnowledge { from, to, about } => {
                    learned.extend(
                        self.players[about.index()]
                            .coins
                            .iter()
                            .filter(|h| h.known_by.contains(*from))
                            .map(|h| (*to, h.handle)),
                    );
                }
                _ => {}
            }
        }
        for &(to, handle) in &learned {
            if let Some((s, pos)) = self.holder(handle) {
                self.players[s].coins[pos].known_by.insert(to);
            }
        }
        // (b) stock.
        let mut transfers = Vec::new();
        for term in &offer.terms {
            if let Term::Coins {
                giver,
                receiver,
                handles,
                ..
            } = term
            {
                for &handle in handles {
                    let coins = &mut self.players[giver.index()].coins;
                    let Some(pos) = coins.iter().position(|c| c.handle == handle) else {
                        continue;
                    };
                    let mut held = coins.remove(pos);
                    held.known_by.insert(*receiver);
                    transfers.push(Transfer {
                        from: *giver,
                        to: *receiver,
                        coin: coin_info(&held, false),
                    });
                    learned.push((*receiver, handle));
                    insert_held(&mut self.players[receiver.index()].coins, held);
                }
            }
        }
        // (c) action points; (d) promises.
        let active = self.active();
        let mut promises = Vec::new();
        for term in &offer.terms {
            match term {
                Term::ActionPoints { from, to, amount } => {
                    if *from == active {
                        self.turn.ap -= amount;
                    } else {
                        self.players[from.index()].ap_debt += amount;
                    }
                    self.players[to.index()].ap_bonus += amount;
                }
                Term::Promise {
                    promisor,
                    promisee,
                    text,
                } => {
                    let id = PromiseId(self.counters.promise);
                    self.counters.promise += 1;
                    self.promises.push(Promise {
                        id,
                        promisor: *promisor,
                        promisee: *promisee,
                        text: text.clone(),
                        status: PromiseStatus::Open,
                    });
                    promises.push(id);
                }
                _ => {}
            }
        }
        let agreement = AgreementId(self.counters.agreement);
        self.counters.agreement += 1;
        if let Some(found) = self
            .session_mut()
            .offers
            .iter_mut()
            .find(|o| o.id == offer.id)
        {
            found.status = OfferStatus::Executed;
        }
        events.push(Logged::public(Event::AgreementExecuted {
            agreement,
            offer: offer.id,
            transfers,
            promises,
        }));
        self.push_learned(&learned, events);
        self.close_session(SessionStatus::Agreed, None, events);
        self.settle(rng, events);
    }

    /// Private `values_learned` events, one per learner.
    fn push_learned(&self, learned: &[(Seat, Handle)], events: &mut Events) {
        for seat in Seat::all(self.n_seats) {
            let mut coins: Vec<CoinInfo> = Vec::new();
            for &(to, handle) in learned {
                if to != seat || coins.iter().any(|c| c.handle == handle) {
                    continue;
                }
                if let Some((s, pos)) = self.holder(handle) {
                    coins.push(coin_info(&self.players[s].coins[pos], true));
                }
            }
            if !coins.is_empty() {
                events.push(Logged::private(seat, Event::ValuesLearned { seat, coins }));
            }
        }
    }

    /// Applies a claim command that `check` accepted.
    pub(crate) fn apply_claim(
        &mut self,
        seat: Seat,
        action: Action,
        rng: &mut GameRng,
        events: &mut Events,
    ) {
        match action {
            Action::FileClaim { promise } => {
                let Some(found) = self.promises.iter_mut().find(|p| p.id == promise) else {
                    return;
                };
                found.status = PromiseStatus::Claimed;
                let (claimant, accused) = (found.promisee, found.promisor);
                let jury: SeatSet = Seat::all(self.n_seats)
                    .filter(|&s| s != claimant && s != accused)
                    .collect();
                let claim = Claim {
                    id: ClaimId(self.counters.claim),
                    promise,
                    claimant,
                    accused,
                    jury,
                    uphold: SeatSet::default(),
                    dismiss: SeatSet::default(),
                    status: ClaimStatus::Voting,
                };
                self.counters.claim += 1;
                events.push(Logged::public(Event::ClaimFiled {
                    claim: claim.clone(),
                }));
                self.claims.push(claim);
            }
            Action::WaivePromise { promise } => {
                if let Some(found) = self.promises.iter_mut().find(|p| p.id == promise) {
                    found.status = PromiseStatus::Waived;
                }
                events.push(Logged::public(Event::PromiseWaived { promise }));
            }
            Action::ConcedeClaim { claim } => {
                events.push(Logged::public(Event::ClaimConceded { claim }));
                self.decide(claim, true, rng, events);
            }
            Action::VoteClaim { claim, uphold } => {
                let Some(found) = self.claims.iter_mut().find(|c| c.id == claim) else {
                    return;
                };
                if uphold {
                    found.uphold.insert(seat);
                } else {
                    found.dismiss.insert(seat);
                }
                let jury = found.jury.len();
                let (ups, downs) = (found.uphold.len(), found.dismiss.len());
                events.push(Logged::public(Event::ClaimVoted {
                    claim,
                    seat,
                    uphold,
                }));
                if ups * 2 > jury {
                    self.decide(claim, true, rng, events);
                } else if downs * 2 >= jury {
                    self.decide(claim, false, rng, events);
                }
            }
            _ => {}
        }
    }

    /// Upholds (penalty) or dismisses a claim.
    fn decide(&mut self, claim: ClaimId, upheld: bool, rng: &mut GameRng, events: &mut Events) {
        let Some(index) = self.claims.iter().position(|c| c.id == claim) else {
            return;
        };
        let (claimant, accused, promise) = {
            let found = &mut self.claims[index];
            found.status = if upheld {
                ClaimStatus::Upheld
            } else {
                ClaimStatus::Dismissed
            };
            (found.claimant, found.accused, found.promise)
        };
        if let Some(found) = self.promises.iter_mut().find(|p| p.id == promise) {
            found.status = if upheld {
                PromiseStatus::Breached
            } else {
                PromiseStatus::Cleared
            };
        }
        let moved = if upheld {
            self.move_random(claimant, accused, 2, rng)
        } else {
            Vec::new()
        };
        let public: Vec<Transfer> = moved
            .iter()
            .map(|t| Transfer {
                coin: CoinInfo {
                    value: None,
                    ..t.coin.clone()
                },
                ..t.clone()
            })
            .collect();
        events.push(Logged::public(Event::ClaimDecided {
            claim,
            upheld,
            moved: public,
        }));
        if !moved.is_empty() {
            events.push(Logged::private(
                accused,
                Event::ValuesLearned {
                    seat: accused,
                    coins: moved.iter().map(|t| t.coin.clone()).collect(),
                },
            ));
            self.fail_offers(&moved, events);
        }
        self.settle(rng, events);
    }

    /// Live offers naming a moved coin become `FAILED` (spec §3.6, D35).
    fn fail_offers(&mut self, moved: &[Transfer], events: &mut Events) {
        let Some(session) = self
            .session
            .as_mut()
            .filter(|s| s.status == SessionStatus::Open)
        else {
            return;
        };
        let names = |term: &Term, handle: Handle| match term {
            Term::Coins { handles, .. } | Term::Reveal { handles, .. } => handles.contains(&handle),
            _ => false,
        };
        let mut failed = Vec::new();
        for offer in &mut session.offers {
            if offer.status == OfferStatus::Live
                && moved
                    .iter()
                    .any(|t| offer.terms.iter().any(|term| names(term, t.coin.handle)))
            {
                offer.status = OfferStatus::Failed;
                failed.push(offer.id);
            }
        }
        for pointer in &mut session.pointers {
            if pointer.is_some_and(|p| failed.contains(&p)) {
                *pointer = None;
            }
        }
        if !failed.is_empty() {
            events.push(Logged::public(Event::OffersFailed { offers: failed }));
        }
    }
}
