//! `legal_actions` and `to_act` (spec §3.5, §4.7).

use crate::action::{Action, Exit, MoveTarget};
use crate::state::{
    BlackThursday, ClaimStatus, OfferStatus, Phase, Position, PromiseStatus, Status,
};
use game_core::{action_object, closed_object, with_unstated_rule, LegalAction, Seat, SeatSet};
use serde_json::{json, Value};
use std::sync::Arc;

/// The fixed promise texts offered to bots in the `post_offer` schema (any text of
/// 1..=`max_promise_chars` characters is accepted).
pub const PROMISE_TEXTS: [&str; 3] = [
    "I move diagonally next turn.",
    "I obey you next turn.",
    "I flip your tile.",
];

impl BlackThursday {
    /// The seats with a claim command available now.
    fn claim_actors(&self) -> SeatSet {
        let in_sale = matches!(self.phase, Phase::Sale { .. });
        let mut seats = SeatSet::default();
        for promise in &self.promises {
            if promise.status == PromiseStatus::Open {
                seats.insert(promise.promisee);
            }
        }
        if !in_sale {
            for claim in self
                .claims
                .iter()
                .filter(|c| c.status == ClaimStatus::Voting)
            {
                seats.insert(claim.accused);
                for juror in claim.jury.iter() {
                    if !claim.uphold.contains(juror) && !claim.dismiss.contains(juror) {
                        seats.insert(juror);
                    }
                }
            }
        }
        seats
    }

    /// `to_act` (spec §3.5).
    pub fn to_act(&self) -> SeatSet {
        if self.phase == Phase::Ended {
            return SeatSet::default();
        }
        let mut seats = self.claim_actors();
        match self.open_session() {
            Some(session) if self.phase == Phase::Session => {
                for seat in session.participants.iter() {
                    seats.insert(seat);
                }
            }
            _ => seats.insert(self.active()),
        }
        seats
    }

    /// Everything `seat` may do now, in the order of spec §4.7.
    pub fn legal_actions(&self, seat: Seat) -> Vec<LegalAction<Action>> {
        let mut list = Vec::new();
        if self.phase == Phase::Ended || seat.index() >= self.players.len() {
            return list;
        }
        if seat == self.active() {
            self.list_turn(seat, &mut list);
        }
        self.list_session(seat, &mut list);
        self.list_claims(seat, &mut list);
        list
    }

    fn list_turn(&self, seat: Seat, list: &mut Vec<LegalAction<Action>>) {
        let push =
            |list: &mut Vec<LegalAction<Action>>, action| list.push(LegalAction::action(action));
        match self.phase {
            Phase::Place => {
                for space in self.roof_spaces() {
                    if !self.occupied(space) {
                        push(list, Action::PlacePawn { space });
                    }
                }
            }
            Phase::Opportunity => {
                for slot in 0..self.slots.len() {
                    if !self.slot_occupied(slot) {
                        push(list, Action::FlipTile { slot: slot as u16 });
                    }
                }
            }
            Phase::Orient { .. } => {
                for rotation in [0, 90, 180, 270] {
                    push(list, Action::OrientTile { rotation });
                }
            }
            Phase::Sale { suit, great } => {
                let matching: Vec<_> = self.players[seat.index()]
                    .coins
                    .iter()
                    .filter(|h| h.suit() == suit)
                    .map(|h| h.handle)
                    .collect();
                if great {
                    for mask in 1u32..(1 << matching.len()) {
                        let handles = matching
                            .iter()
                            .enumerate()
                            .filter(|(i, _)| mask & (1 << i) != 0)
                            .map(|(_, &h)| h)
                            .collect();
                        push(list, Action::Sell { handles });
                    }
                } else {
                    for &handle in &matching {
                        push(
                            list,
                            Action::Sell {
                                handles: vec![handle],
                            },
                        );
                    }
                }
            }
            Phase::Actions if self.turn.ap >= 1 => {
                let player = &self.players[seat.index()];
                if self.can_move() {
                    if let Position::At(here) = player.position {
                        for space in self.down_neighbours(here) {
                            if !self.occupied(space) {
                                push(
                                    list,
                                    Action::Move {
                                        to: MoveTarget::Space(space),
                                    },
                                );
                            }
                        }
                        if here.y == self.ground_row() {
                            push(
                                list,
                                Action::Move {
                                    to: MoveTarget::Exit(Exit::Exit),
                                },
                            );
                        }
                    }
                }
                let in_market = player.status == Status::InBuilding;
                if in_market && !self.bag.is_empty() {
                    push(list, Action::Buy);
                    if !self.turn.market_traded && !player.coins.is_empty() {
                        let handles: Vec<String> =
                            player.coins.iter().map(|h| h.handle.to_string()).collect();
                        let said: Vec<String> = player.coins.iter().map(certificate).collect();
                        list.push(LegalAction::closed_schema(
                            "Trade certificates back to the market for as many new ones",
                            "market_trade",
                            json!({
                                "handles": {
                                    "title": "Certificates to trade",
                                    "default": [],
                                    "type": "array",
                                    "items": {"enum": handles, "x-enum-labels": said},
                                    "minItems": 1,
                                    "maxItems": handles.len(),
                                    "uniqueItems": true
                                }
                            }),
                        ));
                    }
                }
                for group in self.available_groups() {
                    for pass_at_once in [true, false] {
                        push(
                            list,
                            Action::OpenSession {
                                with_seats: group.iter().collect(),
                                pass_at_once,
                            },
                        );
                    }
                }
            }
            _ => {}
        }
    }

    fn list_session(&self, seat: Seat, list: &mut Vec<LegalAction<Action>>) {
        let Some(session) = self.open_session() else {
            return;
        };
        if self.phase != Phase::Session || !session.participants.contains(seat) {
            return;
        }
        let push =
            |list: &mut Vec<LegalAction<Action>>, action| list.push(LegalAction::action(action));
        push(
            list,
            Action::LeaveSession {
                session: session.id,
            },
        );
        let pointer = session.pointers[seat.index()];
        if pointer.is_some() {
            push(
                list,
                Action::RevokeAcceptance {
                    session: session.id,
                },
            );
        }
        for offer in &session.offers {
            if offer.status == OfferStatus::Live && offer.author == seat {
                push(list, Action::WithdrawOffer { offer: offer.id });
            }
        }
        for offer in &session.offers {
            if offer.status == OfferStatus::Live
                && pointer != Some(offer.id)
                && self.assertions_hold(seat, &offer.terms)
            {
                push(list, Action::AcceptOffer { offer: offer.id });
            }
        }
        if session.offers.len() < self.options.limits.max_offers_per_session as usize {
            list.push(LegalAction::Schema {
                label: "Make an offer to the session".into(),
                schema: self.offer_schema(session),
            });
        }
    }

    /// The `post_offer` schema: up to two terms of any kind among the participants. It is
    /// kept small; a sample may name a coin its giver does not hold, which the engine
    /// refuses, so bots simply sample again.
    fn offer_schema(&self, session: &crate::state::Session) -> Arc<Value> {
        // The schema is a pure function of this key; listings repeat it many times in a
        // session, so the last one built is kept with the state ([`OfferSchemaCache`]).
        let key: Vec<u32> = [
            session.id.0,
            session.participants.iter().fold(0, |m, s| m | 1 << s.0),
            self.turn.ap.min(3),
            self.options.limits.max_promise_chars,
            self.options.limits.max_terms_per_offer.min(2),
            self.options.max_ap_per_term.min(3),
            u32::from(self.n_seats),
        ]
        .into_iter()
        .chain(
            session
                .participants
                .iter()
                .flat_map(|s| self.players[s.index()].coins.iter())
                .map(|h| h.handle.0),
        )
        .collect();
        let mut entry = self.offer_schema.entry();
        match entry.as_ref() {
            Some((cached_key, schema)) if *cached_key == key => Arc::clone(schema),
            _ => {
                let schema = Arc::new(self.build_offer_schema(session));
                *entry = Some((key, Arc::clone(&schema)));
                schema
            }
        }
    }

    fn build_offer_schema(&self, session: &crate::state::Session) -> Value {
        let participants: Vec<u8> = session.participants.iter().map(|s| s.0).collect();
        let held: Vec<&crate::state::Held> = session
            .participants
            .iter()
            .flat_map(|s| self.players[s.index()].coins.iter())
            .collect();
        let handles: Vec<String> = held.iter().map(|h| h.handle.to_string()).collect();
        // Certificates by company (public), never by value (only its holder may know it).
        let said: Vec<String> = held.iter().map(|h| certificate(h)).collect();
        let seats = json!({"enum": participants});
        let titled = |title: &str, schema: Value| {
            let mut schema = schema;
            schema["title"] = Value::from(title);
            schema
        };
        // What the schema cannot say: the two players of a term differ, and so on.
        let two_players = |term: Value, also: &str| {
            with_unstated_rule(
                closed_object(term),
                &format!("The two players of the term must be different players{also}."),
                "bad-params",
            )
        };
        let mut kinds: Vec<Value> = Vec::new();
        if !handles.is_empty() {
            let coins = with_unstated_rule(
                json!({"type": "array", "items": {"enum": handles, "x-enum-labels": said}, "minItems": 1, "maxItems": 1, "uniqueItems": true, "title": "Certificate"}),
                "Coins that the giving player holds.",
                "not-owner",
            );
            kinds.push(titled("Give a certificate", two_players(
                json!({
                    "kind": {"const": "coins"}, "giver": titled("Who gives", seats.clone()), "receiver": titled("Who receives", seats.clone()), "handles": coins,
                    "values": {"enum": [null, [0], [1, 2, 3, 4, 5], [5]], "x-enum-labels": ["any", "it must be preferred", "it must be common stock", "it must be worth 5 shares"], "title": "What it must be worth"}
                }),
                "",
            )));
            kinds.push(titled("Show a certificate", two_players(
                json!({
                    "kind": {"const": "reveal"}, "from": titled("Who shows", seats.clone()), "to": titled("To whom", seats.clone()), "handles": coins
                }),
                "",
            )));
        }
        let all: Vec<u8> = (0..self.n_seats).collect();
        kinds.push(titled("Tell what you know about a player's certificates", two_players(
            json!({
                "kind": {"const": "share_knowledge"}, "from": titled("Who tells", seats.clone()), "to": titled("To whom", seats.clone()), "about": {"enum": all, "title": "About whose certificates"}
            }),
            ", and `about` must differ from `from`",
        )));
        let max_amount = self.turn.ap.clamp(1, 3).min(self.options.max_ap_per_term);
        kinds.push(titled("Give action points", two_players(
            json!({
                "kind": {"const": "action_points"}, "from": titled("Who gives", seats.clone()), "to": titled("Who receives", seats.clone()),
                "amount": {"type": "integer", "minimum": 1, "maximum": max_amount, "title": "Action points"}
            }),
            "",
        )));
        let limit = self.options.limits.max_promise_chars as usize;
        let texts: Vec<String> = PROMISE_TEXTS
            .iter()
            .map(|t| t.chars().take(limit).collect())
            .collect();
        kinds.push(titled("Promise something", two_players(
            json!({
                "kind": {"const": "promise"}, "promisor": titled("Who promises", seats.clone()), "promisee": titled("To whom", seats), "text": {"enum": texts, "title": "The promise"}
            }),
            "",
        )));
        let max_terms = self.options.limits.max_terms_per_offer.min(2);
        action_object(
            "post_offer",
            json!({
                "session": {"const": session.id.to_string()},
                "terms": with_unstated_rule(
                    json!({"type": "array", "items": {"oneOf": kinds}, "minItems": 0, "maxItems": max_terms}),
                    "A coin may appear in one coins term only.",
                    "bad-params",
                ),
            }),
        )
    }

    fn list_claims(&self, seat: Seat, list: &mut Vec<LegalAction<Action>>) {
        let in_sale = matches!(self.phase, Phase::Sale { .. });
        for promise in &self.promises {
            if promise.status == PromiseStatus::Open && promise.promisee == seat {
                list.push(LegalAction::action(Action::FileClaim {
                    promise: promise.id,
                }));
                list.push(LegalAction::action(Action::WaivePromise {
                    promise: promise.id,
                }));
            }
        }
        if in_sale {
            return;
        }
        for claim in self
            .claims
            .iter()
            .filter(|c| c.status == ClaimStatus::Voting)
        {
            if claim.accused == seat {
                list.push(LegalAction::action(Action::ConcedeClaim {
                    claim: claim.id,
                }));
            }
            if claim.jury.contains(seat)
                && !claim.uphold.contains(seat)
                && !claim.dismiss.contains(seat)
            {
                for uphold in [true, false] {
                    list.push(LegalAction::action(Action::VoteClaim {
                        claim: claim.id,
                        uphold,
                    }));
                }
            }
        }
    }
}

/// A certificate as a schema's choices name it: its handle and company ("h3 (Sun
/// Textiles)"), as the log names it; never its value.
fn certificate(held: &crate::state::Held) -> String {
    format!("{} ({})", held.handle, crate::words::company(held.suit()))
}
