//! Setup (spec §1.5–§1.6), the turn machine (§3.3) and the effects of turn commands (§4.1),
//! the jump (§4.5) and the end (§6).

use crate::action::{Action, MoveTarget};
use crate::board::{validate_origins, SpaceKind};
use crate::event::{CoinInfo, DrawReason, Event, OpeningRoll, Standing, Transfer};
use crate::ids::Handle;
use crate::options::Options;
use crate::pieces::{suit_of, value_of, Piece, Space, Suit};
use crate::state::{
    BlackThursday, ClaimStatus, Counters, Held, Phase, Player, Position, PromiseStatus, Session,
    SessionStatus, Slot, Status, Turn,
};
use game_core::{GameRng, Logged, Seat, SeatSet, SetupError};

/// Events produced by one step.
pub type Events = Vec<Logged<Event>>;

/// A coin as seen by someone who knows its value (`full`) or not.
pub fn coin_info(held: &Held, full: bool) -> CoinInfo {
    CoinInfo {
        handle: held.handle,
        suit: held.suit(),
        value: full.then(|| value_of(held.coin)),
    }
}

/// Pushes a private event for `seat` and its redacted twin for everyone else.
fn private_pair(events: &mut Events, seat: Seat, full: Event, redacted: Event) {
    events.push(Logged::private(seat, full));
    events.push(Logged::others(seat, redacted));
}

fn redact(coins: &[CoinInfo]) -> Vec<CoinInfo> {
    coins
        .iter()
        .map(|c| CoinInfo {
            value: None,
            ..c.clone()
        })
        .collect()
}

fn redact_transfers(transfers: &[Transfer]) -> Vec<Transfer> {
    transfers
        .iter()
        .map(|t| Transfer {
            coin: CoinInfo {
                value: None,
                ..t.coin.clone()
            },
            ..t.clone()
        })
        .collect()
}

/// Inserts `held` into a portfolio kept in ascending handle order.
pub fn insert_held(coins: &mut Vec<Held>, held: Held) {
    let at = coins.partition_point(|c| c.handle < held.handle);
    coins.insert(at, held);
}

impl BlackThursday {
    /// Deals a new game (spec §1.5).
    pub fn new_game(
        n_seats: u8,
        options: &Options,
        rng: &mut GameRng,
        events: &mut Events,
    ) -> Result<BlackThursday, SetupError> {
        if !(3..=4).contains(&n_seats) {
            return Err(SetupError::SeatCount {
                min: 3,
                max: 4,
                got: n_seats,
            });
        }
        let n = usize::from(n_seats);
        let invalid = |text: &str| SetupError::InvalidOptions(text.to_string());
        let origins = options.layout.origins();
        validate_origins(&origins).map_err(SetupError::InvalidOptions)?;
        let starting = options
            .starting_coins
            .per_seat(n)
            .ok_or_else(|| invalid("starting_coins needs one number per seat"))?;
        if starting.iter().map(|&c| u32::from(c)).sum::<u32>() > 24 {
            return Err(invalid("at most 24 starting coins in total"));
        }
        let mut suits = options.pawn_suits.clone();
        suits.sort();
        if suits != Suit::ALL {
            return Err(invalid(
                "pawn_suits must be a permutation of the four suits",
            ));
        }
        let limits = &options.limits;
        if limits.max_offers_per_session == 0
            || limits.max_terms_per_offer == 0
            || limits.max_promise_chars == 0
            || options.max_ap_per_term == 0
        {
            return Err(invalid("limits must be at least 1"));
        }

        let mut tiles: Vec<u8> = (0..24).collect();
        rng.shuffle(&mut tiles);
        let slots = origins
            .iter()
            .zip(&tiles)
            .map(|(&origin, &tile)| Slot {
                origin,
                tile,
                face_up: false,
                rotation: None,
                seen: false,
            })
            .collect();
        let mut out_of_play = tiles[origins.len()..].to_vec();
        out_of_play.sort_unstable();
        let players = (0..n)
            .map(|seat| Player {
                pawn_suit: options.pawn_suits[seat],
                status: Status::InBuilding,
                position: Position::Unplaced,
                ap_bonus: 0,
                ap_debt: 0,
                coins: Vec::new(),
            })
            .collect();
        let mut game = BlackThursday {
            options: options.clone(),
            n_seats,
            version: 0,
            slots,
            out_of_play,
            bag: (0..24).collect(),
            players,
            counters: Counters::default(),
            turn: Turn {
                number: 0,
                active: Seat(0),
                die: None,
                ap: 0,
                moved: false,
                market_traded: false,
                groups_used: Vec::new(),
            },
            phase: Phase::Place,
            session: None,
            promises: Vec::new(),
            claims: Vec::new(),
            offer_schema: Default::default(),
        };
        for (seat, &count) in starting.iter().enumerate() {
            let seat = Seat(seat as u8);
            let drawn: Vec<CoinInfo> = (0..count).map(|_| game.draw_to(seat, rng)).collect();
            if !drawn.is_empty() {
                private_pair(
                    events,
                    seat,
                    Event::CoinsDrawn {
                        seat,
                        reason: DrawReason::Deal,
                        coins: drawn.clone(),
                    },
                    Event::CoinsDrawn {
                        seat,
                        reason: DrawReason::Deal,
                        coins: redact(&drawn),
                    },
                );
            }
        }
        // Opening roll (spec §1.6).
        let mut contenders: Vec<Seat> = Seat::all(n_seats).collect();
        let mut rounds = Vec::new();
        let first = loop {
            let mut round = Vec::new();
            for &seat in &contenders {
                let mut rolls = Vec::new();
                loop {
                    let roll = rng.below(6) as u8;
                    rolls.push(roll);
                    if roll != 0 {
                        break;
                    }
                }
                round.push(OpeningRoll { seat, rolls });
            }
            let last = |r: &OpeningRoll| *r.rolls.last().unwrap_or(&0);
            let lowest = round.iter().map(last).min().unwrap_or(1);
            contenders = round
                .iter()
                .filter(|r| last(r) == lowest)
                .map(|r| r.seat)
                .collect();
            rounds.push(round);
            if contenders.len() == 1 {
                break contenders[0];
            }
        };
        events.push(Logged::public(Event::OpeningRolled { rounds, first }));
        game.turn.active = first;
        game.begin_turn(rng, events);
        Ok(game)
    }

    /// Draws a coin (spec §5.4) and gives it to `seat` with a fresh handle.
    fn draw_to(&mut self, seat: Seat, rng: &mut GameRng) -> CoinInfo {
        let coin = self.bag.remove(rng.index(self.bag.len()));
        let handle = Handle(self.counters.handle);
        self.counters.handle += 1;
        let held = Held {
            handle,
            coin,
            known_by: SeatSet::only(seat),
        };
        let info = coin_info(&held, true);
        insert_held(&mut self.players[seat.index()].coins, held);
        info
    }

    /// Returns coins to the bag (their handles retire).
    fn return_to_bag(&mut self, seat: Seat, handles: &[Handle]) -> Vec<CoinInfo> {
        let mut returned = Vec::new();
        for &handle in handles {
            let coins = &mut self.players[seat.index()].coins;
            if let Some(pos) = coins.iter().position(|c| c.handle == handle) {
                let held = coins.remove(pos);
                returned.push(coin_info(&held, true));
                let at = self.bag.partition_point(|&c| c < held.coin);
                self.bag.insert(at, held.coin);
            }
        }
        returned
    }

    /// Moves a uniform random `m`-subset of `from`'s coins to `to` (spec §5.6).
    pub(crate) fn move_random(
        &mut self,
        from: Seat,
        to: Seat,
        m: usize,
        rng: &mut GameRng,
    ) -> Vec<Transfer> {
        let mut moved = Vec::new();
        for _ in 0..m.min(self.players[from.index()].coins.len()) {
            let coins = &mut self.players[from.index()].coins;
            let mut held = coins.remove(rng.index(coins.len()));
            held.known_by.insert(to);
            moved.push(Transfer {
                from,
                to,
                coin: coin_info(&held, true),
            });
            insert_held(&mut self.players[to.index()].coins, held);
        }
        moved
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

    /// The scoring keys and ranks (spec §6.3–§6.5).
    pub fn standings(&self) -> Vec<Standing> {
        let keys: Vec<(u32, u32)> = self
            .players
            .iter()
            .map(|p| {
                (
                    p.coins.iter().map(|h| u32::from(value_of(h.coin))).sum(),
                    p.coins.len() as u32,
                )
            })
            .collect();
        keys.iter()
            .enumerate()
            .map(|(seat, &(common, certs))| Standing {
                seat: Seat(seat as u8),
                common,
                certs,
                rank: 1 + keys.iter().filter(|&&k| k < (common, certs)).count() as u8,
            })
            .collect()
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

    /// The public suits of coins in the bag, per suit (derivable: 6 minus those held).
    pub fn bag_by_suit(&self) -> Vec<u8> {
        let mut counts = vec![0u8; 4];
        for &coin in &self.bag {
            counts[suit_of(coin).index()] += 1;
        }
        counts
    }

    /// Whether `space` is free and in the building.
    pub fn free(&self, space: Space) -> bool {
        self.slot_at(space).is_some() && !self.occupied(space)
    }
}
