//! The turn machine (spec §3.3): what the turn player can still do, the effects of turn
//! commands (§4.1), the jump (§4.5) and the end check (§6).

use crate::action::{Action, MoveTarget};
use crate::board::SpaceKind;
use crate::coins::{coin_info, private_pair, redact, redact_transfers};
use crate::event::{CoinInfo, DrawReason, Event, Events};
use crate::pieces::Piece;
use crate::state::{
    BlackThursday, ClaimStatus, Phase, Position, PromiseStatus, Session, SessionStatus, Status,
};
use game_core::{GameRng, Logged, Seat, SeatSet};

impl BlackThursday {
    /// Every group (set of other seats) the turn player may still open a session with,
    /// ordered by size, then by seat numbers.
    pub fn available_groups(&self) -> Vec<SeatSet> {
        let active = self.active();
        if self.players[active.index()].status == Status::Jumped {
            return Vec::new();
        }
        let others: Vec<Seat> = Seat::all(self.n_seats)
            .filter(|&s| s != active && self.players[s.index()].status != Status::Jumped)
            .collect();
        let mut groups: Vec<(usize, Vec<Seat>, SeatSet)> = Vec::new();
        for mask in 1u32..(1 << others.len()) {
            let seats: Vec<Seat> = others
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, &s)| s)
                .collect();
            let set: SeatSet = seats.iter().copied().collect();
            if !self.turn.groups_used.contains(&set) {
                groups.push((seats.len(), seats, set));
            }
        }
        groups.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        groups.into_iter().map(|g| g.2).collect()
    }

    /// Whether the turn player can move now (ignoring AP).
    pub fn can_move(&self) -> bool {
        let player = &self.players[self.active().index()];
        if player.status != Status::InBuilding || self.turn.moved {
            return false;
        }
        match player.position {
            Position::At(space) => {
                space.y == self.ground_row()
                    || self
                        .down_neighbours(space)
                        .into_iter()
                        .any(|s| !self.occupied(s))
            }
            _ => false,
        }
    }

    /// Whether the turn player has a legal AP command (spec §3.4).
    pub fn has_ap_command(&self) -> bool {
        if self.turn.ap == 0 {
            return false;
        }
        let player = &self.players[self.active().index()];
        let in_market = player.status == Status::InBuilding;
        self.can_move()
            || (in_market && !self.bag.is_empty())
            || !self.available_groups().is_empty()
    }

    /// TURN_START (and the internal steps after it) until a phase that waits for a command.
    pub(crate) fn begin_turn(&mut self, rng: &mut GameRng, events: &mut Events) {
        loop {
            self.turn.number += 1;
            self.turn.die = None;
            self.turn.ap = 0;
            self.turn.moved = false;
            self.turn.market_traded = false;
            self.turn.groups_used.clear();
            let seat = self.active();
            events.push(Logged::public(Event::TurnStarted {
                turn: self.turn.number,
                seat,
            }));
            let player = &self.players[seat.index()];
            if player.status == Status::InBuilding
                && player.position == Position::Unplaced
                && self.roof_spaces().iter().any(|&s| !self.occupied(s))
            {
                self.phase = Phase::Place;
                return;
            }
            if self.roll(rng, events) {
                return;
            }
            self.end_turn_step(events);
        }
    }

    /// ROLL: `true` if the turn now waits for a command.
    fn roll(&mut self, rng: &mut GameRng, events: &mut Events) -> bool {
        let seat = self.active();
        let die = rng.below(6) as u8;
        self.turn.die = Some(die);
        let player = &mut self.players[seat.index()];
        let (mut bonus_used, mut debt_paid) = (0, 0);
        if die != 0 && player.status != Status::Jumped {
            let mut ap = u32::from(die) + player.ap_bonus;
            bonus_used = player.ap_bonus;
            player.ap_bonus = 0;
            debt_paid = player.ap_debt.min(ap);
            ap -= debt_paid;
            player.ap_debt -= debt_paid;
            self.turn.ap = ap;
        }
        events.push(Logged::public(Event::DieRolled {
            seat,
            die,
            ap: self.turn.ap,
            bonus_used,
            debt_paid,
        }));
        if die == 0 {
            if (0..self.slots.len()).any(|slot| !self.slot_occupied(slot)) {
                self.phase = Phase::Opportunity;
                return true;
            }
            return false;
        }
        if self.players[seat.index()].status == Status::Jumped {
            return false;
        }
        self.phase = Phase::Actions;
        self.has_ap_command()
    }

    /// TURN_END: forfeits AP and passes the turn to the next seat.
    fn end_turn_step(&mut self, events: &mut Events) {
        let seat = self.active();
        events.push(Logged::public(Event::TurnEnded {
            seat,
            ap_forfeited: self.turn.ap,
        }));
        self.turn.ap = 0;
        self.turn.active = seat.left(self.n_seats);
    }

    /// TURN_END then TURN_START.
    pub(crate) fn next_turn(&mut self, rng: &mut GameRng, events: &mut Events) {
        self.end_turn_step(events);
        self.begin_turn(rng, events);
    }

    /// Row 22: in ACTIONS without a legal AP command, the turn ends.
    pub(crate) fn settle(&mut self, rng: &mut GameRng, events: &mut Events) {
        if self.phase == Phase::Actions && !self.has_ap_command() {
            self.next_turn(rng, events);
        }
    }

    /// END_CHECK: ends the game when at most one player is in the building.
    fn end_check(&mut self, events: &mut Events) -> bool {
        let inside = self
            .players
            .iter()
            .filter(|p| p.status == Status::InBuilding)
            .count();
        if inside > 1 {
            return false;
        }
        self.phase = Phase::Ended;
        self.turn.ap = 0;
        for promise in &mut self.promises {
            if matches!(promise.status, PromiseStatus::Open | PromiseStatus::Claimed) {
                promise.status = PromiseStatus::Lapsed;
            }
        }
        for claim in &mut self.claims {
            if claim.status == ClaimStatus::Voting {
                claim.status = ClaimStatus::Lapsed;
            }
        }
        let standings = self.standings();
        let portfolios = self
            .players
            .iter()
            .map(|p| p.coins.iter().map(|h| coin_info(h, true)).collect())
            .collect();
        let bag = self.bag.iter().map(|&c| Piece::from_index(c)).collect();
        events.push(Logged::public(Event::GameEnded {
            standings,
            portfolios,
            bag,
        }));
        true
    }

    /// Applies a turn command that `check` accepted.
    pub(crate) fn apply_turn(
        &mut self,
        seat: Seat,
        action: Action,
        rng: &mut GameRng,
        events: &mut Events,
    ) {
        match action {
            Action::PlacePawn { space } => {
                self.players[seat.index()].position = Position::At(space);
                events.push(Logged::public(Event::PawnPlaced { seat, space }));
                if !self.roll(rng, events) {
                    self.next_turn(rng, events);
                }
            }
            Action::FlipTile { slot } => {
                let tile = &mut self.slots[usize::from(slot)];
                tile.face_up = !tile.face_up;
                tile.rotation = None;
                tile.seen = true;
                let face_up = tile.face_up;
                events.push(Logged::public(Event::TileFlipped {
                    slot,
                    face_up,
                    tile: Piece::from_index(tile.tile),
                }));
                if face_up {
                    self.phase = Phase::Orient { slot };
                } else {
                    self.next_turn(rng, events);
                }
            }
            Action::OrientTile { rotation } => {
                if let Phase::Orient { slot } = self.phase {
                    self.slots[usize::from(slot)].rotation = Some(rotation);
                    events.push(Logged::public(Event::TileOriented { slot, rotation }));
                }
                self.next_turn(rng, events);
            }
            Action::Move { to } => self.apply_move(seat, to, rng, events),
            Action::Sell { handles } => {
                self.turn.ap -= 1;
                let sold = self.return_to_bag(seat, &handles);
                private_pair(
                    events,
                    seat,
                    Event::CoinsReturned {
                        seat,
                        sale: true,
                        coins: sold.clone(),
                    },
                    Event::CoinsReturned {
                        seat,
                        sale: true,
                        coins: redact(&sold),
                    },
                );
                self.phase = Phase::Actions;
                self.settle(rng, events);
            }
            Action::Buy => {
                self.turn.ap -= 1;
                let drawn = vec![self.draw_to(seat, rng)];
                private_pair(
                    events,
                    seat,
                    Event::CoinsDrawn {
                        seat,
                        reason: DrawReason::Buy,
                        coins: drawn.clone(),
                    },
                    Event::CoinsDrawn {
                        seat,
                        reason: DrawReason::Buy,
                        coins: redact(&drawn),
                    },
                );
                self.settle(rng, events);
            }
            Action::MarketTrade { handles } => {
                self.turn.ap -= 1;
                self.turn.market_traded = true;
                let returned = self.return_to_bag(seat, &handles);
                let drawn: Vec<CoinInfo> = (0..returned.len())
                    .map(|_| self.draw_to(seat, rng))
                    .collect();
                private_pair(
                    events,
                    seat,
                    Event::CoinsReturned {
                        seat,
                        sale: false,
                        coins: returned.clone(),
                    },
                    Event::CoinsReturned {
                        seat,
                        sale: false,
                        coins: redact(&returned),
                    },
                );
                private_pair(
                    events,
                    seat,
                    Event::CoinsDrawn {
                        seat,
                        reason: DrawReason::MarketTrade,
                        coins: drawn.clone(),
                    },
                    Event::CoinsDrawn {
                        seat,
                        reason: DrawReason::MarketTrade,
                        coins: redact(&drawn),
                    },
                );
                self.settle(rng, events);
            }
            Action::OpenSession {
                with_seats,
                pass_at_once,
            } => {
                self.turn.ap -= 1;
                let group: SeatSet = with_seats.iter().copied().collect();
                self.turn.groups_used.push(group);
                let id = crate::ids::SessionId(self.counters.session);
                self.counters.session += 1;
                let participants = group.with(seat);
                self.session = Some(Session {
                    id,
                    initiator: seat,
                    participants,
                    status: if pass_at_once {
                        SessionStatus::Abandoned
                    } else {
                        SessionStatus::Open
                    },
                    offers: Vec::new(),
                    pointers: vec![None; self.players.len()],
                });
                events.push(Logged::public(Event::SessionOpened {
                    session: id,
                    participants,
                    passed: pass_at_once,
                }));
                if pass_at_once {
                    events.push(Logged::public(Event::SessionClosed {
                        session: id,
                        status: SessionStatus::Abandoned,
                        left_by: Some(seat),
                    }));
                    self.settle(rng, events);
                } else {
                    self.phase = Phase::Session;
                }
            }
            _ => {}
        }
    }

    fn apply_move(&mut self, seat: Seat, to: MoveTarget, rng: &mut GameRng, events: &mut Events) {
        self.turn.ap -= 1;
        self.turn.moved = true;
        match to {
            MoveTarget::Exit(_) => {
                let player = &mut self.players[seat.index()];
                player.status = Status::Exited;
                player.position = Position::Gone;
                events.push(Logged::public(Event::PawnMoved { seat, to: None }));
                if !self.end_check(events) {
                    self.phase = Phase::Actions;
                    self.settle(rng, events);
                }
            }
            MoveTarget::Space(space) => {
                self.players[seat.index()].position = Position::At(space);
                events.push(Logged::public(Event::PawnMoved {
                    seat,
                    to: Some(space),
                }));
                let (suit, great) = match self.kind(space) {
                    Some(SpaceKind::Window(suit)) => (suit, false),
                    Some(SpaceKind::GreatWindow(suit)) => (suit, true),
                    _ => {
                        self.settle(rng, events);
                        return;
                    }
                };
                let holds_suit = self.players[seat.index()]
                    .coins
                    .iter()
                    .any(|h| h.suit() == suit);
                if self.turn.ap >= 1 && holds_suit {
                    self.phase = Phase::Sale { suit, great };
                    return;
                }
                self.jump(seat, if great { 2 } else { 1 }, rng, events);
                if !self.end_check(events) {
                    self.next_turn(rng, events);
                }
            }
        }
    }

    /// The jump (spec §4.5).
    fn jump(&mut self, seat: Seat, penalty: u8, rng: &mut GameRng, events: &mut Events) {
        let n = self.n_seats;
        let mut received = Vec::new();
        let mut giver = seat.left(n);
        while giver != seat {
            if self.players[giver.index()].status == Status::InBuilding {
                received.extend(self.move_random(giver, seat, usize::from(penalty), rng));
            }
            giver = giver.left(n);
        }
        let player = &mut self.players[seat.index()];
        player.status = Status::Jumped;
        player.position = Position::Gone;
        player.ap_bonus = 0;
        player.ap_debt = 0;
        self.turn.ap = 0;
        private_pair(
            events,
            seat,
            Event::Jumped {
                seat,
                penalty,
                received: received.clone(),
            },
            Event::Jumped {
                seat,
                penalty,
                received: redact_transfers(&received),
            },
        );
    }
}
