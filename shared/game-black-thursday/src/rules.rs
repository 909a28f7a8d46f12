//! The single source of legality ([`BlackThursday::check`], spec §3–§4) and [`apply`], the
//! entry of every command's effects: it calls `check` first, so an error never mutates, then
//! hands the command to the turn machine (`turn.rs`) or to trading (`trading.rs`).

use crate::action::{Action, MoveTarget, Term};
use crate::error::Error;
use crate::event::Events;
use crate::ids::{ClaimId, Handle, OfferId, PromiseId};
use crate::pieces::Suit;
use crate::state::{
    BlackThursday, ClaimStatus, OfferStatus, Phase, Position, PromiseStatus, Session, Status,
};
use game_core::{GameRng, Seat, SeatSet};

/// Result of a check.
pub type Checked = Result<(), Error>;

/// Checks `action` by `seat`, then applies it with every automatic step that follows, up
/// to the next command the game waits for. On `Err` nothing has changed.
pub fn apply(
    game: &mut BlackThursday,
    seat: Seat,
    action: Action,
    rng: &mut GameRng,
) -> Result<Events, Error> {
    game.check(seat, &action)?;
    let mut events = Vec::new();
    game.version += 1;
    match action {
        Action::PostOffer { .. }
        | Action::WithdrawOffer { .. }
        | Action::AcceptOffer { .. }
        | Action::RevokeAcceptance { .. }
        | Action::LeaveSession { .. } => game.apply_session(seat, action, rng, &mut events),
        Action::FileClaim { .. }
        | Action::ConcedeClaim { .. }
        | Action::VoteClaim { .. }
        | Action::WaivePromise { .. } => game.apply_claim(seat, action, rng, &mut events),
        _ => game.apply_turn(seat, action, rng, &mut events),
    }
    Ok(events)
}

impl BlackThursday {
    /// Whether `seat` holds every one of `handles`, which are distinct.
    fn holds_all(&self, seat: Seat, handles: &[Handle]) -> bool {
        distinct(handles)
            && handles.iter().all(|&h| {
                self.players[seat.index()]
                    .coins
                    .iter()
                    .any(|held| held.handle == h)
            })
    }

    /// The single source of legality: `Ok` iff `seat` may issue `action` now.
    pub fn check(&self, seat: Seat, action: &Action) -> Checked {
        if self.phase == Phase::Ended {
            return Err(Error::GameOver);
        }
        if seat.index() >= self.players.len() {
            return Err(Error::NotYourTurn);
        }
        match action {
            Action::PlacePawn { space } => {
                self.turn_command(seat, self.phase == Phase::Place)?;
                if !self.is_roof(*space) {
                    return Err(Error::BadSpace);
                }
                if self.occupied(*space) {
                    return Err(Error::SpaceOccupied);
                }
                Ok(())
            }
            Action::FlipTile { slot } => {
                self.turn_command(seat, self.phase == Phase::Opportunity)?;
                let slot = usize::from(*slot);
                if slot >= self.slots.len() {
                    return Err(Error::BadSlot);
                }
                if self.slot_occupied(slot) {
                    return Err(Error::TileOccupied);
                }
                Ok(())
            }
            Action::OrientTile { rotation } => {
                self.turn_command(seat, matches!(self.phase, Phase::Orient { .. }))?;
                if ![0, 90, 180, 270].contains(rotation) {
                    return Err(Error::BadParams("rotation must be 0, 90, 180 or 270"));
                }
                Ok(())
            }
            Action::Move { to } => self.check_move(seat, to),
            Action::Sell { handles } => self.check_sell(seat, handles),
            Action::Buy => {
                self.ap_command(seat)?;
                if self.players[seat.index()].status != Status::InBuilding {
                    return Err(Error::NotInMarket);
                }
                if self.bag.is_empty() {
                    return Err(Error::BagEmpty);
                }
                Ok(())
            }
            Action::MarketTrade { handles } => {
                self.ap_command(seat)?;
                if self.players[seat.index()].status != Status::InBuilding {
                    return Err(Error::NotInMarket);
                }
                if self.turn.market_traded {
                    return Err(Error::MarketTradeUsed);
                }
                if self.bag.is_empty() {
                    return Err(Error::BagEmpty);
                }
                if handles.is_empty() || !distinct(handles) {
                    return Err(Error::BadParams("handles must be non-empty and distinct"));
                }
                if !self.holds_all(seat, handles) {
                    return Err(Error::NotOwner);
                }
                Ok(())
            }
            Action::OpenSession { with_seats, .. } => self.check_open_session(seat, with_seats),
            Action::PostOffer {
                session,
                terms,
                counters,
            } => {
                let open = self.session_command(seat, Some(*session))?;
                self.check_post(seat, open, terms, *counters)
            }
            Action::WithdrawOffer { offer } => {
                let open = self.session_command(seat, None)?;
                let offer = open
                    .offer(*offer)
                    .ok_or(Error::BadParams("unknown offer"))?;
                if offer.author != seat {
                    return Err(Error::NotAuthor);
                }
                if offer.status != OfferStatus::Live {
                    return Err(Error::OfferNotLive);
                }
                Ok(())
            }
            Action::AcceptOffer { offer } => {
                let open = self.session_command(seat, None)?;
                let Some(found) = open.offer(*offer).filter(|o| o.status == OfferStatus::Live)
                else {
                    return Err(Error::OfferNotLive);
                };
                if open.pointers[seat.index()] == Some(*offer) {
                    return Err(Error::AlreadyAccepted);
                }
                if !self.assertions_hold(seat, &found.terms) {
                    return Err(Error::AssertionFalse);
                }
                Ok(())
            }
            Action::RevokeAcceptance { session } => {
                let open = self.session_command(seat, Some(*session))?;
                if open.pointers[seat.index()].is_none() {
                    return Err(Error::NoAcceptance);
                }
                Ok(())
            }
            Action::LeaveSession { session } => {
                self.session_command(seat, Some(*session))?;
                Ok(())
            }
            Action::FileClaim { promise } | Action::WaivePromise { promise } => {
                self.check_promise_command(seat, *promise)
            }
            Action::ConcedeClaim { claim } => {
                if matches!(self.phase, Phase::Sale { .. }) {
                    return Err(Error::WrongPhase);
                }
                let claim = self.claim(*claim)?;
                if claim.accused != seat {
                    return Err(Error::NotAccused);
                }
                if claim.status != ClaimStatus::Voting {
                    return Err(Error::ClaimNotOpen);
                }
                Ok(())
            }
            Action::VoteClaim { claim, .. } => {
                if matches!(self.phase, Phase::Sale { .. }) {
                    return Err(Error::WrongPhase);
                }
                let claim = self.claim(*claim)?;
                if claim.status != ClaimStatus::Voting {
                    return Err(Error::ClaimNotOpen);
                }
                if !claim.jury.contains(seat) {
                    return Err(Error::NotJuror);
                }
                if claim.uphold.contains(seat) || claim.dismiss.contains(seat) {
                    return Err(Error::AlreadyVoted);
                }
                Ok(())
            }
        }
    }

    fn claim(&self, id: ClaimId) -> Result<&crate::state::Claim, Error> {
        self.claims
            .iter()
            .find(|c| c.id == id)
            .ok_or(Error::BadParams("unknown claim"))
    }

    fn check_promise_command(&self, seat: Seat, id: PromiseId) -> Checked {
        let promise = self
            .promises
            .iter()
            .find(|p| p.id == id)
            .ok_or(Error::BadParams("unknown promise"))?;
        if promise.promisee != seat {
            return Err(Error::NotPromisee);
        }
        if promise.status != PromiseStatus::Open {
            return Err(Error::PromiseNotOpen);
        }
        Ok(())
    }

    /// Phase, then actor.
    fn turn_command(&self, seat: Seat, right_phase: bool) -> Checked {
        if !right_phase {
            return Err(Error::WrongPhase);
        }
        if seat != self.active() {
            return Err(Error::NotYourTurn);
        }
        Ok(())
    }

    /// An ACTIONS-phase command: phase, actor, then at least 1 AP.
    fn ap_command(&self, seat: Seat) -> Checked {
        self.turn_command(seat, self.phase == Phase::Actions)?;
        if self.turn.ap == 0 {
            return Err(Error::NoAp);
        }
        Ok(())
    }

    fn check_move(&self, seat: Seat, to: &MoveTarget) -> Checked {
        self.ap_command(seat)?;
        let player = &self.players[seat.index()];
        if player.status != Status::InBuilding {
            return Err(Error::NotInBuilding);
        }
        let Position::At(here) = player.position else {
            return Err(Error::NotPlaced);
        };
        if self.turn.moved {
            return Err(Error::AlreadyMoved);
        }
        match to {
            MoveTarget::Space(space) => {
                if !self.down_neighbours(here).contains(space) {
                    return Err(Error::NotDownAdjacent);
                }
                if self.occupied(*space) {
                    return Err(Error::SpaceOccupied);
                }
            }
            MoveTarget::Exit(_) => {
                if here.y != self.ground_row() {
                    return Err(Error::NotGroundFloor);
                }
            }
        }
        Ok(())
    }

    fn check_sell(&self, seat: Seat, handles: &[Handle]) -> Checked {
        let Phase::Sale { suit, great } = self.phase else {
            return Err(Error::WrongPhase);
        };
        if seat != self.active() {
            return Err(Error::NotYourTurn);
        }
        if handles.is_empty() {
            return Err(Error::BadParams("sell at least one coin"));
        }
        if !self.holds_all(seat, handles) {
            return Err(Error::NotOwner);
        }
        if !handles
            .iter()
            .all(|&h| self.suit_of_handle(h) == Some(suit))
        {
            return Err(Error::SuitMismatch);
        }
        if !great && handles.len() != 1 {
            return Err(Error::SaleCount);
        }
        Ok(())
    }

    /// The (public) suit of a live handle.
    pub fn suit_of_handle(&self, handle: Handle) -> Option<Suit> {
        self.holder(handle)
            .map(|(seat, pos)| self.players[seat].coins[pos].suit())
    }

    fn check_open_session(&self, seat: Seat, with_seats: &[Seat]) -> Checked {
        self.ap_command(seat)?;
        if self.players[seat.index()].status == Status::Jumped {
            return Err(Error::PlayerJumped);
        }
        // Seats beyond the table first: a SeatSet cannot hold them (the shift would overflow).
        if with_seats.iter().any(|s| s.index() >= self.players.len()) {
            return Err(Error::BadParams("unknown seat"));
        }
        let set: SeatSet = with_seats.iter().copied().collect();
        if with_seats.is_empty() || set.len() != with_seats.len() {
            return Err(Error::BadParams("with must be non-empty and distinct"));
        }
        if set.contains(seat) {
            return Err(Error::SelfTrade);
        }
        if with_seats
            .iter()
            .any(|s| self.players[s.index()].status == Status::Jumped)
        {
            return Err(Error::PlayerJumped);
        }
        if self.turn.groups_used.contains(&set) {
            return Err(Error::GroupUsed);
        }
        Ok(())
    }

    /// Open session, participant, then the `session` parameter.
    fn session_command(
        &self,
        seat: Seat,
        session: Option<crate::ids::SessionId>,
    ) -> Result<&Session, Error> {
        let open = self.open_session().ok_or(Error::WrongPhase)?;
        if !open.participants.contains(seat) {
            return Err(Error::NotParticipant);
        }
        if session.is_some_and(|id| id != open.id) {
            return Err(Error::BadParams("not the open session"));
        }
        Ok(open)
    }

    /// Whether every value assertion on `seat`'s own coins in `terms` is true.
    pub fn assertions_hold(&self, seat: Seat, terms: &[Term]) -> bool {
        terms.iter().all(|term| match term {
            Term::Coins {
                giver,
                handles,
                values: Some(values),
                ..
            } if *giver == seat => handles.iter().all(|&h| {
                self.holder(h).is_some_and(|(s, pos)| {
                    values.contains(&crate::pieces::value_of(self.players[s].coins[pos].coin))
                })
            }),
            _ => true,
        })
    }

    fn check_post(
        &self,
        seat: Seat,
        open: &Session,
        terms: &[Term],
        counters: Option<OfferId>,
    ) -> Checked {
        let limits = &self.options.limits;
        if terms.len() > limits.max_terms_per_offer as usize {
            return Err(Error::TooManyTerms);
        }
        if open.offers.len() >= limits.max_offers_per_session as usize {
            return Err(Error::OfferLimit);
        }
        if counters.is_some_and(|id| open.offer(id).is_none()) {
            return Err(Error::BadParams(
                "counters must name an offer of this session",
            ));
        }
        let mut seen: Vec<Handle> = Vec::new();
        let mut budget: u64 = 0;
        for term in terms {
            self.check_term(open, term)?;
            match term {
                Term::Coins { handles, .. } => {
                    if handles.iter().any(|h| seen.contains(h)) {
                        return Err(Error::BadParams("a coin appears in two coins terms"));
                    }
                    seen.extend(handles.iter().copied());
                }
                Term::ActionPoints { from, amount, .. } if *from == self.active() => {
                    budget += u64::from(*amount);
                }
                _ => {}
            }
        }
        if budget > u64::from(self.turn.ap) {
            return Err(Error::InsufficientAp);
        }
        if !self.assertions_hold(seat, terms) {
            return Err(Error::AssertionFalse);
        }
        Ok(())
    }

    fn check_term(&self, open: &Session, term: &Term) -> Checked {
        let n = self.players.len();
        if let Term::ShareKnowledge { about, .. } = term {
            if about.index() >= n {
                return Err(Error::BadParams("unknown seat"));
            }
        }
        let (giver, receiver) = term.parties();
        let named = [giver, receiver];
        if named.iter().any(|s| s.index() >= n) {
            return Err(Error::BadParams("unknown seat"));
        }
        if named.iter().any(|&s| !open.participants.contains(s)) {
            return Err(Error::NotParticipant);
        }
        if named[0] == named[1] {
            return Err(Error::BadParams("a term needs two different players"));
        }
        match term {
            Term::Coins {
                giver,
                receiver,
                handles,
                values,
            } => {
                if self.players[giver.index()].status == Status::Exited
                    || self.players[receiver.index()].status == Status::Exited
                {
                    return Err(Error::StockTradeForbidden);
                }
                if handles.is_empty() {
                    return Err(Error::BadParams("handles must be non-empty"));
                }
                if !self.holds_all(*giver, handles) {
                    return Err(Error::NotOwner);
                }
                if let Some(values) = values {
                    let distinct_values = values
                        .iter()
                        .enumerate()
                        .all(|(i, v)| !values[..i].contains(v));
                    if values.is_empty() || !distinct_values || values.iter().any(|&v| v > 5) {
                        return Err(Error::BadParams("values must be a non-empty set of 0..=5"));
                    }
                }
            }
            Term::Reveal { from, handles, .. } => {
                if handles.is_empty() {
                    return Err(Error::BadParams("handles must be non-empty"));
                }
                if !self.holds_all(*from, handles) {
                    return Err(Error::NotOwner);
                }
            }
            Term::ShareKnowledge { from, about, .. } => {
                if about == from {
                    return Err(Error::BadParams("about must differ from from"));
                }
            }
            Term::ActionPoints { amount, .. } => {
                if *amount == 0 || *amount > self.options.max_ap_per_term {
                    return Err(Error::BadParams("amount out of range"));
                }
            }
            Term::Promise { text, .. } => {
                let chars = text.chars().count();
                if chars == 0 || chars > self.options.limits.max_promise_chars as usize {
                    return Err(Error::BadParams("promise text length out of range"));
                }
            }
        }
        Ok(())
    }
}

/// Whether a list has no duplicates.
pub fn distinct<T: PartialEq>(items: &[T]) -> bool {
    items
        .iter()
        .enumerate()
        .all(|(i, item)| !items[..i].contains(item))
}
