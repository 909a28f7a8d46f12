//! `legal_actions` and `to_act` (spec §3.5, §4.7).

use crate::action::{Action, Exit, MoveTarget};
use crate::state::{
    BlackThursday, ClaimStatus, OfferStatus, Phase, Position, PromiseStatus, Status,
};
use game_core::{
    action_object, closed_object, seat_choice, with_unstated_rule, LegalAction, Seat, SeatSet,
};
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
                schema: self.offer_schema(seat, session),
            });
        }
    }

    /// The `post_offer` schema for `seat`: up to two terms of any kind among the participants.
    /// Every rule of a single term is stated by the schema: each kind is a choice of who gives
    /// (a `const`), beside the others who may receive, the coins the giver holds, and for the
    /// author's own coins only the value assertions that are true (the author knows them; an
    /// offer with a false one is refused). What it cannot state (a coin in two terms, the
    /// active player's points over two terms) is marked with `x-refused-with`.
    fn offer_schema(&self, seat: Seat, session: &crate::state::Session) -> Arc<Value> {
        // The schema is a pure function of this key; listings repeat it many times in a
        // session, so the last one built is kept with the state ([`OfferSchemaCache`]).
        let exited = session
            .participants
            .iter()
            .filter(|s| self.players[s.index()].status == Status::Exited)
            .fold(0, |m, s| m | 1 << s.0);
        let key: Vec<u32> = [
            session.id.0,
            session.participants.iter().fold(0, |m, s| m | 1 << s.0),
            exited,
            u32::from(seat.0),
            u32::from(self.active().0),
            self.turn.ap.min(3),
            self.options.limits.max_promise_chars,
            self.options.limits.max_terms_per_offer.min(2),
            self.options.max_ap_per_term.min(3),
            u32::from(self.n_seats),
        ]
        .into_iter()
        .chain(session.participants.iter().flat_map(|s| {
            // Each participant's coins, closed by a separator.
            let coins = self.players[s.index()].coins.iter();
            coins.map(|h| h.handle.0).chain([u32::MAX])
        }))
        .collect();
        let mut entry = self.offer_schema.entry();
        match entry.as_ref() {
            Some((cached_key, schema)) if *cached_key == key => Arc::clone(schema),
            _ => {
                let schema = Arc::new(self.build_offer_schema(seat, session));
                *entry = Some((key, Arc::clone(&schema)));
                schema
            }
        }
    }

    fn build_offer_schema(&self, seat: Seat, session: &crate::state::Session) -> Value {
        let participants: Vec<Seat> = session.participants.iter().collect();
        let trading: Vec<Seat> = participants
            .iter()
            .copied()
            .filter(|s| self.players[s.index()].status != Status::Exited)
            .collect();
        let others = |among: &[Seat], giver: Seat| -> Vec<u8> {
            among.iter().filter(|&&s| s != giver).map(|s| s.0).collect()
        };
        // A kind of term: a choice among one closed shape per giver.
        let kind = |title: &str, givers: Vec<Value>| json!({"title": title, "oneOf": givers});
        let seats = |title: &str, seats: Vec<u8>| seat_choice(title, seats.into_iter().map(Seat));
        let coins_of = |holder: Seat, only: &dyn Fn(&crate::state::Held) -> bool| {
            let held: Vec<&crate::state::Held> = self.players[holder.index()]
                .coins
                .iter()
                .filter(|h| only(h))
                .collect();
            // Certificates by company (public), never by value (only its holder may know it).
            let handles: Vec<String> = held.iter().map(|h| h.handle.to_string()).collect();
            let said: Vec<String> = held.iter().map(|h| certificate(h)).collect();
            (!handles.is_empty()).then(|| {
                json!({"title": "Certificate", "type": "array", "items": {"enum": handles, "x-enum-labels": said}, "minItems": 1, "maxItems": 1, "uniqueItems": true})
            })
        };
        // What a coins term may assert of the coin's value: all four for another's coin (a
        // demand), only the true ones for the author's own.
        const ASSERTIONS: [(&str, &str); 4] = [
            ("null", "any"),
            ("[0]", "it must be preferred"),
            ("[1,2,3,4,5]", "it must be common stock"),
            ("[5]", "it must be worth 5 shares"),
        ];
        let assertions = |value: Option<u8>| {
            let holds = |index: usize| match (value, index) {
                (None, _) | (_, 0) => true,
                (Some(v), 1) => v == 0,
                (Some(v), 2) => v >= 1,
                (Some(v), _) => v == 5,
            };
            let (values, labels): (Vec<Value>, Vec<&str>) = ASSERTIONS
                .iter()
                .enumerate()
                .filter(|&(index, _)| holds(index))
                .map(|(_, (json, label))| {
                    (serde_json::from_str(json).expect("a value list"), *label)
                })
                .unzip();
            json!({"title": "What it must be worth", "enum": values, "x-enum-labels": labels})
        };
        let mut gives = Vec::new();
        let mut shows = Vec::new();
        for &giver in &trading {
            let receivers = others(&trading, giver);
            let mut give = |title: Option<&str>, handles: Value, values: Value| {
                let mut shape = closed_object(json!({
                    "kind": {"const": "coins"}, "giver": {"const": giver.0}, "receiver": seats("Who receives", receivers.clone()), "handles": handles, "values": values
                }));
                if let Some(title) = title {
                    shape["title"] = Value::from(title);
                }
                gives.push(shape);
            };
            if receivers.is_empty() {
                continue;
            }
            if giver == seat {
                // The author's coins, grouped by the assertions that are true of them.
                for (class, title) in [
                    (0u8, "Give one of your preferred certificates"),
                    (
                        1,
                        "Give one of your common certificates worth 1 to 4 shares",
                    ),
                    (5, "Give one of your certificates worth 5 shares"),
                ] {
                    let in_class = |h: &crate::state::Held| match crate::pieces::value_of(h.coin) {
                        0 => class == 0,
                        5 => class == 5,
                        _ => class == 1,
                    };
                    if let Some(handles) = coins_of(giver, &in_class) {
                        give(Some(title), handles, assertions(Some(class)));
                    }
                }
            } else if let Some(handles) = coins_of(giver, &|_| true) {
                give(None, handles, assertions(None));
            }
        }
        for &from in &participants {
            let to = others(&participants, from);
            if let (Some(handles), false) = (coins_of(from, &|_| true), to.is_empty()) {
                shows.push(closed_object(json!({
                    "kind": {"const": "reveal"}, "from": {"const": from.0}, "to": seats("To whom", to), "handles": handles
                })));
            }
        }
        let mut kinds: Vec<Value> = Vec::new();
        if !gives.is_empty() {
            kinds.push(kind("Give a certificate", gives));
        }
        if !shows.is_empty() {
            kinds.push(kind("Show a certificate", shows));
        }
        let per_giver = |make: &dyn Fn(Seat, Vec<u8>) -> Option<Value>| -> Vec<Value> {
            participants
                .iter()
                .filter_map(|&giver| {
                    let to = others(&participants, giver);
                    if to.is_empty() {
                        None
                    } else {
                        make(giver, to).map(closed_object)
                    }
                })
                .collect()
        };
        kinds.push(kind(
            "Tell what you know about a player's certificates",
            per_giver(&|from, to| {
                let about: Vec<u8> = (0..self.n_seats).filter(|&s| s != from.0).collect();
                Some(json!({
                    "kind": {"const": "share_knowledge"}, "from": {"const": from.0}, "to": seats("To whom", to), "about": seats("About whose certificates", about)
                }))
            }),
        ));
        let cap = self.options.max_ap_per_term.min(3);
        let points = kind(
            "Give action points",
            per_giver(&|from, to| {
                // The turn player gives from the points left; another player's points are not
                // counted here.
                let most = if from == self.active() {
                    self.turn.ap.min(cap)
                } else {
                    cap
                };
                (most >= 1).then(|| {
                    json!({
                        "kind": {"const": "action_points"}, "from": {"const": from.0}, "to": seats("Who receives", to),
                        "amount": {"type": "integer", "minimum": 1, "maximum": most, "title": "Action points"}
                    })
                })
            }),
        );
        if points["oneOf"]
            .as_array()
            .is_some_and(|givers| !givers.is_empty())
        {
            kinds.push(points);
        }
        let limit = self.options.limits.max_promise_chars as usize;
        let texts: Vec<String> = PROMISE_TEXTS
            .iter()
            .map(|t| t.chars().take(limit).collect())
            .collect();
        kinds.push(kind(
            "Promise something",
            per_giver(&|promisor, to| {
                Some(json!({
                    "kind": {"const": "promise"}, "promisor": {"const": promisor.0}, "promisee": seats("To whom", to), "text": {"enum": texts, "title": "The promise"}
                }))
            }),
        ));
        let max_terms = self.options.limits.max_terms_per_offer.min(2);
        action_object(
            "post_offer",
            json!({
                "session": {"const": session.id.to_string()},
                "terms": with_unstated_rule(
                    json!({"type": "array", "items": {"oneOf": kinds}, "minItems": 0, "maxItems": max_terms}),
                    "A coin may appear in one coins term only (refused as bad-params), and the \
                     turn player's action points given in all terms together may not exceed \
                     the points left (refused as insufficient-ap).",
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
