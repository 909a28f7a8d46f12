//! The worked scenarios of spec §8 (one test each, named after it) and every error code.
//!
//! Scenario states are built by writing the `pub` state fields (fixture F of §8). Where the
//! spec scripts a random outcome (`rng:` lines), the test searches the log-entry streams of
//! a fixed seed for one that produces it ([`apply_until`]); everything else is asserted
//! exactly as the spec gives it.

use game_black_thursday::{
    Action, BlackThursday, ClaimStatus, Event, Handle, OfferStatus, Options, Phase, Piece,
    Position, PromiseStatus, SessionStatus, Space, SpaceKind, Status, Suit,
};
use game_core::{Game, GameRng, LegalAction, Logged, RuleError, Seat, SeatSet, Viewer, Visibility};
use serde_json::{json, Value};

const P0: Seat = Seat(0);
const P1: Seat = Seat(1);
const P2: Seat = Seat(2);
const P3: Seat = Seat(3);

fn piece(text: &str) -> u8 {
    let suit = match &text[..1] {
        "S" => Suit::Suns,
        "M" => Suit::Moons,
        "C" => Suit::Crowns,
        _ => Suit::Arms,
    };
    Piece {
        suit,
        value: text[1..].parse().unwrap(),
    }
    .index()
}

fn h(n: u32) -> Handle {
    Handle(n)
}

fn act(value: Value) -> Action {
    serde_json::from_value(value).expect("a valid command")
}

/// Fixture F (spec §8): every slot face-down, every coin in the bag, every pawn unplaced,
/// `active` in ACTIONS with `ap` AP. Handles issued by tests are below 100.
fn fixture(n: u8, active: Seat, ap: u32) -> BlackThursday {
    let mut g = BlackThursday::setup(n, &Options::default(), &mut GameRng::for_entry([1; 32], 0))
        .unwrap()
        .0;
    for slot in &mut g.slots {
        slot.face_up = false;
        slot.rotation = None;
        slot.seen = false;
    }
    g.bag = (0..24).collect();
    for p in &mut g.players {
        p.coins.clear();
        p.status = Status::InBuilding;
        p.position = Position::Unplaced;
        p.ap_bonus = 0;
        p.ap_debt = 0;
    }
    g.counters.handle = 100;
    g.turn.number = 10;
    g.turn.active = active;
    g.turn.die = Some(ap.min(5) as u8);
    g.turn.ap = ap;
    g.turn.moved = false;
    g.turn.market_traded = false;
    g.turn.groups_used.clear();
    g.phase = Phase::Actions;
    g.session = None;
    g.promises.clear();
    g.claims.clear();
    g.version = 0;
    // Pawns far away: the bottom-left region, out of the scenarios' way.
    for (seat, y) in [(0usize, 16u16), (1, 18), (2, 20), (3, 22)] {
        if seat < usize::from(n) {
            g.players[seat].position = Position::At(Space::new(0, y));
        }
    }
    g
}

fn at(g: &mut BlackThursday, seat: Seat, x: u16, y: u16) {
    g.players[seat.index()].position = Position::At(Space::new(x, y));
}

/// Gives `seat` the coin `text` (taken from the bag) under handle `hn`.
fn give(g: &mut BlackThursday, seat: Seat, hn: u32, text: &str) {
    let coin = piece(text);
    let pos = g
        .bag
        .iter()
        .position(|&c| c == coin)
        .expect("coin in the bag");
    g.bag.remove(pos);
    let coins = &mut g.players[seat.index()].coins;
    coins.push(game_black_thursday::Held {
        handle: h(hn),
        coin,
        known_by: SeatSet::only(seat),
    });
    coins.sort_by_key(|c| c.handle);
}

/// Moves bag coins to `seat` (handles 200+) until the bag holds `keep`.
fn bag_holds(g: &mut BlackThursday, keep: usize, dump: Seat) {
    let mut next = 200;
    while g.bag.len() > keep {
        let coin = g.bag.remove(0);
        let coins = &mut g.players[dump.index()].coins;
        coins.push(game_black_thursday::Held {
            handle: h(next),
            coin,
            known_by: SeatSet::only(dump),
        });
        next += 1;
    }
}

/// Puts tile `text` in slot `slot` (swapping it with wherever it was).
fn tile(g: &mut BlackThursday, slot: usize, text: &str, face_up: bool, rotation: Option<u16>) {
    let id = piece(text);
    if let Some(other) = g.slots.iter().position(|s| s.tile == id) {
        let old = g.slots[slot].tile;
        g.slots[other].tile = old;
    } else {
        let pos = g.out_of_play.iter().position(|&t| t == id).unwrap();
        g.out_of_play[pos] = g.slots[slot].tile;
        g.out_of_play.sort_unstable();
    }
    g.slots[slot].tile = id;
    g.slots[slot].face_up = face_up;
    g.slots[slot].rotation = rotation;
    g.slots[slot].seen = face_up;
}

/// The slot id of `T(i,j)` on `tower_2x12`.
fn t(i: usize, j: usize) -> usize {
    2 * j + i
}

fn ok(g: &mut BlackThursday, seat: Seat, action: Value) -> Vec<Logged<Event>> {
    let action = act(action);
    g.apply(seat, action.clone(), &mut GameRng::for_entry([3; 32], 1))
        .unwrap_or_else(|e| panic!("{action:?} by {seat} refused: {e}"))
}

fn err(g: &BlackThursday, seat: Seat, action: Value, code: &str) {
    let mut copy = g.clone();
    let action = act(action);
    let result = copy.apply(seat, action.clone(), &mut GameRng::for_entry([3; 32], 1));
    match result {
        Err(e) => assert_eq!(e.code(), code, "{action:?} by {seat}"),
        Ok(_) => panic!("{action:?} by {seat} was accepted, expected {code}"),
    }
    assert_eq!(&copy, g, "a refused command changed the state");
}

/// Applies `action` with the first log-entry stream for which `pred` holds afterwards: the
/// way the tests reproduce the spec's scripted `rng:` outcomes.
fn apply_until(
    g: &BlackThursday,
    seat: Seat,
    action: Value,
    pred: impl Fn(&BlackThursday, &[Logged<Event>]) -> bool,
) -> (BlackThursday, Vec<Logged<Event>>) {
    let action = act(action);
    for entry in 0..20_000 {
        let mut copy = g.clone();
        let events = copy
            .apply(
                seat,
                action.clone(),
                &mut GameRng::for_entry([9; 32], entry),
            )
            .expect("accepted");
        if pred(&copy, &events) {
            return (copy, events);
        }
    }
    panic!("no random stream produced the scripted outcome");
}

fn handles(g: &BlackThursday, seat: Seat) -> Vec<u32> {
    g.players[seat.index()]
        .coins
        .iter()
        .map(|c| c.handle.0)
        .collect()
}

fn value_seen(g: &BlackThursday, viewer: Seat, of: Seat, hn: u32) -> Option<u8> {
    let view = g.view(Viewer::Seat(viewer));
    view.players[of.index()]
        .coins
        .iter()
        .find(|c| c.handle == h(hn))
        .and_then(|c| c.value)
}

fn die_rolled(events: &[Logged<Event>], who: Seat) -> Option<u8> {
    events.iter().find_map(|e| match &e.event {
        Event::DieRolled { seat, die, .. } if *seat == who => Some(*die),
        _ => None,
    })
}

/// §8 S1 Movement and blocking.
#[test]
fn s1_movement_and_blocking() {
    let mut g = fixture(4, P0, 2);
    at(&mut g, P0, 1, 5);
    at(&mut g, P1, 0, 6);
    at(&mut g, P2, 1, 6);
    at(&mut g, P3, 3, 9);
    give(&mut g, P0, 1, "S1");
    err(
        &g,
        P0,
        json!({"type": "move", "to": {"x": 1, "y": 6}}),
        "space-occupied",
    );
    err(
        &g,
        P0,
        json!({"type": "move", "to": {"x": 0, "y": 6}}),
        "space-occupied",
    );
    err(
        &g,
        P0,
        json!({"type": "move", "to": {"x": 2, "y": 5}}),
        "not-down-adjacent",
    );
    err(
        &g,
        P0,
        json!({"type": "move", "to": {"x": 1, "y": 4}}),
        "not-down-adjacent",
    );
    err(
        &g,
        P0,
        json!({"type": "move", "to": {"x": 3, "y": 6}}),
        "not-down-adjacent",
    );
    err(
        &g,
        P1,
        json!({"type": "move", "to": {"x": 0, "y": 7}}),
        "not-your-turn",
    );
    ok(&mut g, P0, json!({"type": "move", "to": {"x": 2, "y": 6}}));
    assert_eq!(g.players[0].position, Position::At(Space::new(2, 6)));
    assert_eq!(g.kind(Space::new(2, 6)), Some(SpaceKind::Office));
    assert_eq!(
        (g.turn.ap, g.turn.moved, g.phase),
        (1, true, Phase::Actions)
    );
    err(
        &g,
        P0,
        json!({"type": "move", "to": {"x": 2, "y": 7}}),
        "already-moved",
    );
    assert_eq!(g.version, 1);
}

/// §8 S2 Exit; what an exited player may do; AP left unspent (3 players).
#[test]
fn s2_exit_and_exited_player() {
    let mut g = fixture(3, P0, 5);
    at(&mut g, P0, 3, 23);
    at(&mut g, P1, 0, 18);
    at(&mut g, P2, 2, 21);
    give(&mut g, P0, 1, "M3");
    bag_holds(&mut g, 4, P2);
    ok(&mut g, P0, json!({"type": "move", "to": "exit"}));
    assert_eq!(g.players[0].status, Status::Exited);
    assert_eq!(g.players[0].position, Position::Gone);
    assert_ne!(g.phase, Phase::Ended);
    assert_eq!(g.turn.ap, 4);
    err(&g, P0, json!({"type": "buy"}), "not-in-market");
    err(
        &g,
        P0,
        json!({"type": "market_trade", "handles": ["h1"]}),
        "not-in-market",
    );
    err(
        &g,
        P0,
        json!({"type": "move", "to": "exit"}),
        "not-in-building",
    );
    ok(&mut g, P0, json!({"type": "open_session", "with": [1]}));
    assert_eq!((g.phase, g.turn.ap), (Phase::Session, 3));
    err(
        &g,
        P0,
        json!({"type": "post_offer", "session": "s1", "terms": [{"kind": "coins", "giver": 0, "receiver": 1, "handles": ["h1"]}]}),
        "stock-trade-forbidden",
    );
    ok(
        &mut g,
        P0,
        json!({"type": "post_offer", "session": "s1", "terms": [
            {"kind": "reveal", "from": 0, "to": 1, "handles": ["h1"]},
            {"kind": "action_points", "from": 1, "to": 0, "amount": 1}]}),
    );
    let session = g.session.as_ref().unwrap();
    assert_eq!(session.offers[0].status, OfferStatus::Live);
    ok(
        &mut g,
        P1,
        json!({"type": "leave_session", "session": "s1"}),
    );
    assert_eq!(g.session.as_ref().unwrap().status, SessionStatus::Abandoned);
    assert_eq!(value_seen(&g, P1, P0, 1), None, "nothing was transferred");
    assert_eq!((g.phase, g.turn.ap), (Phase::Actions, 3));
    err(
        &g,
        P0,
        json!({"type": "open_session", "with": [1]}),
        "group-used",
    );
    ok(
        &mut g,
        P0,
        json!({"type": "open_session", "with": [2], "pass": true}),
    );
    assert_eq!(g.turn.ap, 2);
    let events = ok(
        &mut g,
        P0,
        json!({"type": "open_session", "with": [1, 2], "pass": true}),
    );
    let forfeited = events.iter().find_map(|e| match e.event {
        Event::TurnEnded { seat, ap_forfeited } if seat == P0 => Some(ap_forfeited),
        _ => None,
    });
    assert_eq!(forfeited, Some(1));
    assert_eq!(g.turn.active, P1);
}

fn s3_state() -> BlackThursday {
    let mut g = fixture(4, P0, 3);
    at(&mut g, P0, 3, 5);
    give(&mut g, P0, 1, "M2");
    give(&mut g, P0, 2, "M5");
    give(&mut g, P0, 3, "S1");
    bag_holds(&mut g, 9, P3);
    tile(&mut g, t(1, 3), "M4", true, Some(0));
    g
}

/// §8 S3 Ordinary window: forced sale.
#[test]
fn s3_ordinary_window_forced_sale() {
    let mut g = s3_state();
    assert_eq!(
        g.kind(Space::new(2, 6)),
        Some(SpaceKind::GreatWindow(Suit::Moons))
    );
    ok(&mut g, P0, json!({"type": "move", "to": {"x": 3, "y": 6}}));
    assert_eq!(g.turn.ap, 2);
    assert_eq!(
        g.phase,
        Phase::Sale {
            suit: Suit::Moons,
            great: false
        }
    );
    err(&g, P0, json!({"type": "buy"}), "wrong-phase");
    err(
        &g,
        P0,
        json!({"type": "sell", "handles": ["h3"]}),
        "suit-mismatch",
    );
    err(
        &g,
        P0,
        json!({"type": "sell", "handles": ["h1", "h2"]}),
        "sale-count",
    );
    let events = ok(&mut g, P0, json!({"type": "sell", "handles": ["h1"]}));
    assert_eq!(g.turn.ap, 1);
    assert_eq!(g.bag.len(), 10);
    assert_eq!(g.phase, Phase::Actions);
    assert_eq!(handles(&g, P0), vec![2, 3]);
    // The public twin shows the suit and count only; the seller's copy shows the value.
    for logged in &events {
        if let Event::CoinsReturned { coins, .. } = &logged.event {
            assert_eq!(coins.len(), 1);
            assert_eq!(coins[0].suit, Suit::Moons);
            let private = logged.visibility == Visibility::Seats(SeatSet::only(P0));
            assert_eq!(coins[0].value.is_some(), private);
        }
    }
    assert!(g.has_ap_command(), "P0 must still spend 1 AP");
}

/// §8 S4 Great window reached by moving within a tile: multi-sale.
#[test]
fn s4_great_window_multi_sale() {
    let mut g = fixture(4, P0, 2);
    at(&mut g, P0, 2, 6);
    tile(&mut g, t(1, 3), "S3", true, Some(180));
    give(&mut g, P0, 4, "S0");
    give(&mut g, P0, 5, "S4");
    give(&mut g, P0, 6, "S5");
    give(&mut g, P0, 7, "C2");
    bag_holds(&mut g, 5, P3);
    ok(&mut g, P0, json!({"type": "move", "to": {"x": 3, "y": 7}}));
    assert_eq!(g.turn.ap, 1);
    assert_eq!(
        g.phase,
        Phase::Sale {
            suit: Suit::Suns,
            great: true
        }
    );
    err(&g, P0, json!({"type": "sell", "handles": []}), "bad-params");
    err(
        &g,
        P0,
        json!({"type": "sell", "handles": ["h7"]}),
        "suit-mismatch",
    );
    ok(
        &mut g,
        P0,
        json!({"type": "sell", "handles": ["h4", "h5", "h6"]}),
    );
    assert_eq!(g.bag.len(), 8);
    assert_eq!(handles(&g, P0), vec![7]);
    assert_eq!(g.turn.active, P1);
}

fn s5_state() -> BlackThursday {
    let mut g = fixture(4, P1, 3);
    at(&mut g, P1, 1, 9);
    give(&mut g, P1, 10, "M3");
    give(&mut g, P1, 11, "S2");
    tile(&mut g, t(0, 5), "C1", true, Some(0));
    at(&mut g, P0, 2, 2);
    give(&mut g, P0, 1, "M2");
    give(&mut g, P0, 2, "A4");
    at(&mut g, P2, 3, 14);
    give(&mut g, P2, 20, "S0");
    g.players[3].status = Status::Exited;
    g.players[3].position = Position::Gone;
    give(&mut g, P3, 30, "C5");
    give(&mut g, P3, 31, "M1");
    g
}

/// §8 S5 Missed ordinary window → jump with penalty coins.
#[test]
fn s5_missed_window_jump() {
    let g = s5_state();
    let (g, events) = apply_until(
        &g,
        P1,
        json!({"type": "move", "to": {"x": 1, "y": 10}}),
        |g, _| g.players[1].coins.iter().any(|c| c.handle == h(2)),
    );
    assert_eq!(g.players[1].status, Status::Jumped);
    assert_eq!(g.players[1].position, Position::Gone);
    assert_eq!(handles(&g, P1), vec![2, 10, 11, 20]);
    assert_eq!(value_seen(&g, P1, P1, 20), Some(0));
    assert_eq!(value_seen(&g, P1, P1, 2), Some(4));
    assert_eq!(handles(&g, P0), vec![1]);
    assert_eq!(handles(&g, P2), Vec::<u32>::new());
    assert_eq!(handles(&g, P3), vec![30, 31]);
    // Givers clockwise from the jumper: P2 first, then P0.
    let order: Vec<Seat> = events
        .iter()
        .find_map(|e| match &e.event {
            Event::Jumped { received, .. } => Some(received.iter().map(|t| t.from).collect()),
            _ => None,
        })
        .unwrap();
    assert_eq!(order, vec![P2, P0]);
    assert_ne!(g.phase, Phase::Ended);
    assert_eq!(g.turn.active, P2);

    // Follow-up: nobody may open a session with a jumped player.
    let mut later = g.clone();
    later.turn.active = P0;
    later.turn.ap = 2;
    later.phase = Phase::Actions;
    err(
        &later,
        P0,
        json!({"type": "open_session", "with": [1]}),
        "player-jumped",
    );
    // P1's next turn: a roll of 4 is void; a null makes P1 the actor in OPPORTUNITY.
    later.turn.ap = 1;
    later.bag.len();
    let (after, events) = apply_until(
        &later,
        P0,
        json!({"type": "open_session", "with": [2], "pass": true}),
        |_, ev| die_rolled(ev, P1) == Some(4),
    );
    assert!(events
        .iter()
        .any(|e| matches!(e.event, Event::TurnEnded { seat, .. } if seat == P1)));
    assert_eq!(after.turn.active, P2);
    let (after, _) = apply_until(
        &later,
        P0,
        json!({"type": "open_session", "with": [2], "pass": true}),
        |_, ev| die_rolled(ev, P1) == Some(0),
    );
    assert_eq!((after.turn.active, after.phase), (P1, Phase::Opportunity));
}

/// §8 S6 Missed great window for lack of AP; a giver with only 1 coin.
#[test]
fn s6_missed_great_window_for_lack_of_ap() {
    let mut g = fixture(4, P2, 1);
    at(&mut g, P2, 1, 16);
    give(&mut g, P2, 30, "A1");
    give(&mut g, P2, 31, "A3");
    tile(&mut g, t(1, 8), "A2", true, Some(270));
    at(&mut g, P3, 0, 3);
    give(&mut g, P3, 40, "S5");
    at(&mut g, P0, 2, 9);
    give(&mut g, P0, 1, "M1");
    give(&mut g, P0, 2, "M2");
    give(&mut g, P0, 3, "M3");
    at(&mut g, P1, 3, 11);
    give(&mut g, P1, 10, "C1");
    give(&mut g, P1, 11, "C2");
    assert_eq!(
        g.kind(Space::new(2, 17)),
        Some(SpaceKind::GreatWindow(Suit::Arms))
    );
    let (g, _) = apply_until(
        &g,
        P2,
        json!({"type": "move", "to": {"x": 2, "y": 17}}),
        |g, _| handles(g, P0) == vec![2],
    );
    assert_eq!(g.players[2].status, Status::Jumped);
    assert_eq!(handles(&g, P2), vec![1, 3, 10, 11, 30, 31, 40]);
    assert!(handles(&g, P3).is_empty());
    assert!(handles(&g, P1).is_empty());
    assert_ne!(g.phase, Phase::Ended);
    assert_eq!(g.turn.active, P3);
}

/// §8 S7 Opportunity: flip, reveal, rotate; occupied tiles; closing a window.
#[test]
fn s7_opportunity_flip_and_rotate() {
    let mut g = fixture(4, P0, 0);
    g.turn.die = Some(0);
    g.phase = Phase::Opportunity;
    at(&mut g, P0, 2, 3);
    at(&mut g, P1, 1, 4);
    tile(&mut g, t(1, 5), "S2", false, None);
    tile(&mut g, t(1, 6), "M0", true, Some(0));
    // Hidden: nobody sees the face-down tile's identity.
    let view = g.view(Viewer::Seat(P0));
    assert_eq!(view.slots[t(1, 5)].tile, None);
    err(
        &g,
        P0,
        json!({"type": "flip_tile", "slot": t(0, 2)}),
        "tile-occupied",
    );
    err(
        &g,
        P0,
        json!({"type": "flip_tile", "slot": t(1, 1)}),
        "tile-occupied",
    );
    ok(&mut g, P0, json!({"type": "flip_tile", "slot": t(1, 5)}));
    let view = g.view(Viewer::Spectator);
    let s2 = Piece {
        suit: Suit::Suns,
        value: 2,
    };
    assert_eq!(view.slots[t(1, 5)].tile, Some(s2));
    assert_eq!(view.slots[t(1, 5)].last_seen, Some(s2));
    assert_eq!(
        g.phase,
        Phase::Orient {
            slot: t(1, 5) as u16
        }
    );
    err(
        &g,
        P1,
        json!({"type": "orient_tile", "rotation": 90}),
        "not-your-turn",
    );
    let (g, _) = apply_until(
        &g,
        P0,
        json!({"type": "orient_tile", "rotation": 90}),
        |g, _| g.phase == Phase::Opportunity,
    );
    assert_eq!(
        g.kind(Space::new(3, 10)),
        Some(SpaceKind::GreatWindow(Suit::Suns))
    );
    for (x, y) in [(2, 10), (2, 11), (3, 11)] {
        assert_eq!(
            g.kind(Space::new(x, y)),
            Some(SpaceKind::Window(Suit::Suns))
        );
    }
    assert_eq!(g.turn.active, P1);
    let mut g = g;
    ok(&mut g, P1, json!({"type": "flip_tile", "slot": t(1, 6)}));
    let slot = &g.slots[t(1, 6)];
    assert!(!slot.face_up);
    assert_eq!(slot.rotation, None);
    let view = g.view(Viewer::Spectator);
    assert_eq!(
        view.slots[t(1, 6)].last_seen,
        Some(Piece {
            suit: Suit::Moons,
            value: 0
        })
    );
    for (x, y) in [(2, 12), (3, 12), (2, 13), (3, 13)] {
        assert_eq!(g.kind(Space::new(x, y)), Some(SpaceKind::Office));
    }
    assert_eq!(g.turn.active, P2);
}

fn s8_state() -> BlackThursday {
    let mut g = fixture(4, P0, 4);
    at(&mut g, P0, 0, 4);
    give(&mut g, P0, 1, "S5");
    give(&mut g, P0, 2, "M4");
    give(&mut g, P0, 3, "C0");
    // The bag holds exactly A1, A2, S3, C4, M1, S1; everything else goes to P3.
    let keep: Vec<u8> = ["A1", "A2", "S3", "C4", "M1", "S1"]
        .iter()
        .map(|t| piece(t))
        .collect();
    let mut next = 200;
    for coin in g.bag.clone() {
        if !keep.contains(&coin) {
            g.bag.retain(|&c| c != coin);
            g.players[3].coins.push(game_black_thursday::Held {
                handle: h(next),
                coin,
                known_by: SeatSet::only(P3),
            });
            next += 1;
        }
    }
    g.counters.handle = 50;
    g
}

/// §8 S8 Market trade at most once per turn; empty bag.
#[test]
fn s8_market_trade_once_per_turn() {
    let g = s8_state();
    let (mut g, events) = apply_until(
        &g,
        P0,
        json!({"type": "market_trade", "handles": ["h1", "h2"]}),
        |g, _| {
            let coins = &g.players[0].coins;
            coins
                .iter()
                .any(|c| c.handle == h(50) && c.coin == piece("M4"))
                && coins
                    .iter()
                    .any(|c| c.handle == h(51) && c.coin == piece("A1"))
        },
    );
    assert_eq!(g.turn.ap, 3);
    assert!(g.turn.market_traded);
    assert_eq!(g.bag.len(), 6);
    assert_eq!(handles(&g, P0), vec![3, 50, 51]);
    // Public: the suits returned and the handles and suits drawn, no values.
    let public_draw = events
        .iter()
        .find(|e| {
            e.visibility != Visibility::Seats(SeatSet::only(P0))
                && matches!(e.event, Event::CoinsDrawn { .. })
        })
        .unwrap();
    if let Event::CoinsDrawn { coins, .. } = &public_draw.event {
        assert_eq!(
            coins
                .iter()
                .map(|c| (c.handle, c.suit, c.value))
                .collect::<Vec<_>>(),
            vec![(h(50), Suit::Moons, None), (h(51), Suit::Arms, None)]
        );
    }
    err(
        &g,
        P0,
        json!({"type": "market_trade", "handles": ["h3"]}),
        "market-trade-used",
    );
    ok(&mut g, P0, json!({"type": "buy"}));
    // Variant: an empty bag.
    let mut empty = s8_state();
    bag_holds(&mut empty, 0, P3);
    err(&empty, P0, json!({"type": "buy"}), "bag-empty");
    err(
        &empty,
        P0,
        json!({"type": "market_trade", "handles": ["h1"]}),
        "bag-empty",
    );
}

/// §8 S9 Two-player trade with a counter-offer, value assertions and a reveal.
#[test]
fn s9_two_player_trade_with_counter_offer() {
    let mut g = fixture(4, P0, 3);
    give(&mut g, P0, 1, "M5");
    give(&mut g, P0, 2, "A3");
    give(&mut g, P0, 3, "A0");
    give(&mut g, P1, 10, "C0");
    give(&mut g, P1, 11, "S4");
    give(&mut g, P1, 12, "M1");
    ok(&mut g, P0, json!({"type": "open_session", "with": [1]}));
    assert_eq!(g.turn.ap, 2);
    err(
        &g,
        P0,
        json!({"type": "post_offer", "session": "s1", "terms": [
        {"kind": "coins", "giver": 0, "receiver": 1, "handles": ["h1"], "values": [2]}]}),
        "assertion-false",
    );
    ok(
        &mut g,
        P0,
        json!({"type": "post_offer", "session": "s1", "terms": [
        {"kind": "coins", "giver": 0, "receiver": 1, "handles": ["h1"]},
        {"kind": "coins", "giver": 1, "receiver": 0, "handles": ["h11"], "values": [0]}]}),
    );
    assert_eq!(
        g.session.as_ref().unwrap().pointers[0],
        Some(game_black_thursday::OfferId(1))
    );
    err(
        &g,
        P1,
        json!({"type": "accept_offer", "offer": "o1"}),
        "assertion-false",
    );
    ok(
        &mut g,
        P1,
        json!({"type": "post_offer", "session": "s1", "counters": "o1", "terms": [
        {"kind": "coins", "giver": 0, "receiver": 1, "handles": ["h1"]},
        {"kind": "coins", "giver": 1, "receiver": 0, "handles": ["h10"], "values": [0]},
        {"kind": "reveal", "from": 0, "to": 1, "handles": ["h2", "h3"]}]}),
    );
    assert_eq!(g.phase, Phase::Session, "no agreement yet");
    let events = ok(&mut g, P0, json!({"type": "accept_offer", "offer": "o2"}));
    assert_eq!(value_seen(&g, P1, P0, 2), Some(3));
    assert_eq!(value_seen(&g, P1, P0, 3), Some(0));
    assert_eq!(value_seen(&g, P1, P1, 1), Some(5));
    assert_eq!(value_seen(&g, P0, P0, 10), Some(0));
    let session = g.session.as_ref().unwrap();
    assert_eq!(session.status, SessionStatus::Agreed);
    assert_eq!(session.offers[0].status, OfferStatus::Closed);
    assert_eq!(session.offers[1].status, OfferStatus::Executed);
    assert_eq!((g.phase, g.turn.ap), (Phase::Actions, 2));
    assert_eq!(handles(&g, P0), vec![2, 3, 10]);
    assert_eq!(handles(&g, P1), vec![1, 11, 12]);
    // The public record has no values.
    for e in events.iter().filter(|e| e.visibility == Visibility::Public) {
        if let Event::AgreementExecuted { transfers, .. } = &e.event {
            assert!(transfers.iter().all(|t| t.coin.value.is_none()));
            assert_eq!(transfers.len(), 2);
        }
    }
    assert_eq!(value_seen(&g, P2, P0, 10), None);
    err(
        &g,
        P0,
        json!({"type": "open_session", "with": [1]}),
        "group-used",
    );
    ok(&mut g, P0, json!({"type": "open_session", "with": [1, 2]}));
}

fn s10_state() -> BlackThursday {
    let mut g = fixture(4, P0, 4);
    give(&mut g, P0, 5, "C3");
    give(&mut g, P0, 6, "C4");
    give(&mut g, P0, 7, "S1");
    give(&mut g, P2, 20, "S0");
    give(&mut g, P2, 21, "M2");
    give(&mut g, P2, 22, "A5");
    g
}

fn s10_offer() -> Value {
    json!({"type": "post_offer", "session": "s1", "terms": [
        {"kind": "coins", "giver": 0, "receiver": 1, "handles": ["h5", "h6"]},
        {"kind": "action_points", "from": 0, "to": 1, "amount": 1},
        {"kind": "action_points", "from": 2, "to": 0, "amount": 2},
        {"kind": "promise", "promisor": 1, "promisee": 2, "text": "On my next turn I will move diagonally."},
        {"kind": "promise", "promisor": 0, "promisee": 2, "text": "On my next opportunity roll I will flip the tile P2 names and orient it as P2 says."}]})
}

/// §8 S10 Three-player agreement with AP and promises.
#[test]
fn s10_three_player_agreement() {
    let mut g = s10_state();
    ok(&mut g, P0, json!({"type": "open_session", "with": [1, 2]}));
    assert_eq!(g.turn.ap, 3);
    // Variant C: 4 AP given in total with 3 left.
    let mut variant_c = s10_offer();
    variant_c["terms"]
        .as_array_mut()
        .unwrap()
        .push(json!({"kind": "action_points", "from": 0, "to": 1, "amount": 3}));
    err(&g, P0, variant_c, "insufficient-ap");
    ok(&mut g, P0, s10_offer());
    ok(&mut g, P1, json!({"type": "accept_offer", "offer": "o1"}));
    assert_eq!(g.phase, Phase::Session);
    // Variant A: P2 leaves instead.
    let mut variant_a = g.clone();
    ok(
        &mut variant_a,
        P2,
        json!({"type": "leave_session", "session": "s1"}),
    );
    assert_eq!(
        variant_a.session.as_ref().unwrap().status,
        SessionStatus::Abandoned
    );
    assert_eq!(
        (variant_a.turn.ap, handles(&variant_a, P0)),
        (3, vec![5, 6, 7])
    );
    assert!(variant_a
        .turn
        .groups_used
        .contains(&[P1, P2].into_iter().collect()));

    ok(&mut g, P2, json!({"type": "accept_offer", "offer": "o1"}));
    assert_eq!(handles(&g, P1), vec![5, 6]);
    assert_eq!(value_seen(&g, P1, P1, 5), Some(3));
    assert_eq!(value_seen(&g, P1, P1, 6), Some(4));
    assert_eq!(g.turn.ap, 2);
    assert_eq!(g.players[1].ap_bonus, 1);
    assert_eq!(g.players[2].ap_debt, 2);
    assert_eq!(g.players[0].ap_bonus, 2);
    assert_eq!(g.promises.len(), 2);
    assert_eq!((g.promises[0].promisor, g.promises[0].promisee), (P1, P2));
    assert_eq!((g.promises[1].promisor, g.promises[1].promisee), (P0, P2));
    assert!(g.promises.iter().all(|p| p.status == PromiseStatus::Open));
    assert_eq!(g.session.as_ref().unwrap().status, SessionStatus::Agreed);
    assert_eq!((g.phase, g.turn.ap), (Phase::Actions, 2));

    // Later turns. 5: P1 rolls 3 → 4 AP, bonus spent.
    let mut before_p1 = g.clone();
    before_p1.turn.ap = 1;
    let (after, _) = apply_until(&before_p1, P0, json!({"type": "buy"}), |g, ev| {
        die_rolled(ev, P1) == Some(3) && g.turn.active == P1
    });
    assert_eq!((after.turn.ap, after.players[1].ap_bonus), (4, 0));
    // 6: P2 with debt 2 rolls 2 → 0 AP, debt 0, the turn ends at once.
    let mut before_p2 = g.clone();
    before_p2.turn.active = P1;
    before_p2.turn.ap = 1;
    at(&mut before_p2, P1, 1, 2);
    let (after, _) = apply_until(&before_p2, P1, json!({"type": "buy"}), |_, ev| {
        die_rolled(ev, P2) == Some(2)
    });
    assert_eq!(after.players[2].ap_debt, 0);
    assert_eq!(after.turn.active, P3);
    // Variant B: debt 3 with a roll of 2 leaves debt 1; a null roll keeps it.
    let mut variant_b = before_p2.clone();
    variant_b.players[2].ap_debt = 3;
    let (after, _) = apply_until(&variant_b, P1, json!({"type": "buy"}), |_, ev| {
        die_rolled(ev, P2) == Some(2)
    });
    assert_eq!((after.players[2].ap_debt, after.turn.active), (1, P3));
    let (after, _) = apply_until(&variant_b, P1, json!({"type": "buy"}), |_, ev| {
        die_rolled(ev, P2) == Some(0)
    });
    assert_eq!(after.players[2].ap_debt, 3);
    // 8: P0 rolls null; a promise moves no control.
    let mut opportunity = g.clone();
    opportunity.turn.ap = 0;
    opportunity.turn.die = Some(0);
    opportunity.phase = Phase::Opportunity;
    err(
        &opportunity,
        P2,
        json!({"type": "flip_tile", "slot": t(1, 11)}),
        "not-your-turn",
    );
    ok(
        &mut opportunity,
        P0,
        json!({"type": "flip_tile", "slot": t(1, 11)}),
    );
    ok(
        &mut opportunity,
        P0,
        json!({"type": "orient_tile", "rotation": 180}),
    );
    ok(
        &mut opportunity,
        P2,
        json!({"type": "waive_promise", "promise": "pr2"}),
    );
    assert_eq!(opportunity.promises[1].status, PromiseStatus::Waived);
    assert_eq!(
        opportunity.players[0].ap_bonus, 2,
        "the bonus carries over a null roll"
    );
}

fn s11_state(n: u8) -> BlackThursday {
    let mut g = fixture(n, P0, 2);
    give(&mut g, P2, 20, "S0");
    give(&mut g, P2, 21, "M2");
    give(&mut g, P2, 22, "A5");
    at(&mut g, P1, 1, 6);
    g.promises.push(game_black_thursday::Promise {
        id: game_black_thursday::PromiseId(1),
        promisor: P1,
        promisee: P2,
        text: "On my next turn I will move diagonally.".into(),
        status: PromiseStatus::Open,
    });
    g.counters.promise = 2;
    g
}

/// §8 S11 Breach claim.
#[test]
fn s11_breach_claim() {
    let mut g = s11_state(4);
    err(
        &g,
        P0,
        json!({"type": "file_claim", "promise": "pr1"}),
        "not-promisee",
    );
    ok(&mut g, P2, json!({"type": "file_claim", "promise": "pr1"}));
    let claim = &g.claims[0];
    assert_eq!(claim.status, ClaimStatus::Voting);
    assert_eq!(claim.jury, [P0, P3].into_iter().collect());
    assert_eq!(g.promises[0].status, PromiseStatus::Claimed);
    assert!(g.to_act().contains(P0) && g.to_act().contains(P3) && g.to_act().contains(P1));
    err(
        &g,
        P1,
        json!({"type": "vote_claim", "claim": "k1", "uphold": true}),
        "not-juror",
    );
    err(
        &g,
        P0,
        json!({"type": "concede_claim", "claim": "k1"}),
        "not-accused",
    );
    let filed = g.clone();
    ok(
        &mut g,
        P0,
        json!({"type": "vote_claim", "claim": "k1", "uphold": true}),
    );
    assert_eq!(g.claims[0].status, ClaimStatus::Voting);
    err(
        &g,
        P0,
        json!({"type": "vote_claim", "claim": "k1", "uphold": true}),
        "already-voted",
    );
    let one_vote = g.clone();
    let (g, _) = apply_until(
        &g,
        P3,
        json!({"type": "vote_claim", "claim": "k1", "uphold": true}),
        |g, _| handles(g, P1) == vec![21, 22],
    );
    assert_eq!(g.claims[0].status, ClaimStatus::Upheld);
    assert_eq!(value_seen(&g, P1, P1, 21), Some(2));
    assert_eq!(value_seen(&g, P1, P1, 22), Some(5));
    assert_eq!(g.promises[0].status, PromiseStatus::Breached);
    err(
        &g,
        P2,
        json!({"type": "file_claim", "promise": "pr1"}),
        "promise-not-open",
    );
    err(
        &g,
        P0,
        json!({"type": "concede_claim", "claim": "k1"}),
        "not-accused",
    );
    let mut closed = g.clone();
    closed.claims[0].accused = P0;
    err(
        &closed,
        P0,
        json!({"type": "concede_claim", "claim": "k1"}),
        "claim-not-open",
    );

    // (a) P3 dismisses: the claim is dismissed, the promise cleared, nothing moves.
    let mut a = one_vote.clone();
    ok(
        &mut a,
        P3,
        json!({"type": "vote_claim", "claim": "k1", "uphold": false}),
    );
    assert_eq!(a.claims[0].status, ClaimStatus::Dismissed);
    assert_eq!(a.promises[0].status, PromiseStatus::Cleared);
    assert_eq!(handles(&a, P2), vec![20, 21, 22]);
    // (b) The accused concedes.
    let mut b = filed.clone();
    ok(&mut b, P1, json!({"type": "concede_claim", "claim": "k1"}));
    assert_eq!(b.claims[0].status, ClaimStatus::Upheld);
    assert_eq!(handles(&b, P1).len(), 2);
    // (c) 3 players: one juror decides.
    let mut c = s11_state(3);
    ok(&mut c, P2, json!({"type": "file_claim", "promise": "pr1"}));
    assert_eq!(c.claims[0].jury, SeatSet::only(P0));
    ok(
        &mut c,
        P0,
        json!({"type": "vote_claim", "claim": "k1", "uphold": true}),
    );
    assert_eq!(c.claims[0].status, ClaimStatus::Upheld);
    // (d) The claimant holds only one coin.
    let mut d = filed.clone();
    let keep = d.players[2].coins.remove(0);
    d.players[2].coins.truncate(0);
    d.players[2].coins.push(keep);
    d.bag.push(piece("M2"));
    d.bag.push(piece("A5"));
    d.bag.sort_unstable();
    ok(&mut d, P1, json!({"type": "concede_claim", "claim": "k1"}));
    assert_eq!(handles(&d, P1), vec![20]);
    // (f) During a SALE, the vote is refused.
    let mut f = one_vote.clone();
    f.phase = Phase::Sale {
        suit: Suit::Suns,
        great: false,
    };
    give(&mut f, P0, 1, "S1");
    err(
        &f,
        P3,
        json!({"type": "vote_claim", "claim": "k1", "uphold": true}),
        "wrong-phase",
    );
    assert!(
        !f.to_act().contains(P3),
        "jurors drop out of to_act during SALE"
    );
}

/// §8 S12 An off-turn penalty invalidates a live offer.
#[test]
fn s12_penalty_invalidates_live_offer() {
    let mut g = fixture(4, P0, 3);
    give(&mut g, P1, 11, "S3");
    give(&mut g, P1, 12, "M1");
    ok(&mut g, P0, json!({"type": "open_session", "with": [1]}));
    assert_eq!(g.turn.ap, 2);
    ok(
        &mut g,
        P1,
        json!({"type": "post_offer", "session": "s1", "terms": [
        {"kind": "coins", "giver": 1, "receiver": 0, "handles": ["h12"], "values": [1]}]}),
    );
    g.promises.push(game_black_thursday::Promise {
        id: game_black_thursday::PromiseId(1),
        promisor: P3,
        promisee: P1,
        text: "I obey you next turn.".into(),
        status: PromiseStatus::Open,
    });
    ok(&mut g, P1, json!({"type": "file_claim", "promise": "pr1"}));
    assert_eq!(g.claims[0].jury, [P0, P2].into_iter().collect());
    ok(
        &mut g,
        P0,
        json!({"type": "vote_claim", "claim": "k1", "uphold": true}),
    );
    ok(
        &mut g,
        P2,
        json!({"type": "vote_claim", "claim": "k1", "uphold": true}),
    );
    assert_eq!(g.claims[0].status, ClaimStatus::Upheld);
    assert_eq!(handles(&g, P3), vec![11, 12]);
    let session = g.session.as_ref().unwrap();
    assert_eq!(session.offers[0].status, OfferStatus::Failed);
    assert_eq!(session.pointers[1], None);
    assert_eq!(session.status, SessionStatus::Open);
    err(
        &g,
        P0,
        json!({"type": "accept_offer", "offer": "o1"}),
        "offer-not-live",
    );
    ok(
        &mut g,
        P0,
        json!({"type": "leave_session", "session": "s1"}),
    );
    assert_eq!(g.session.as_ref().unwrap().status, SessionStatus::Abandoned);
    assert_eq!((g.phase, g.turn.ap), (Phase::Actions, 2));
}

fn s13_state() -> BlackThursday {
    let mut g = fixture(4, P2, 2);
    at(&mut g, P2, 1, 23);
    g.players[2].ap_bonus = 1;
    for (seat, status) in [(0, Status::Exited), (1, Status::Jumped)] {
        g.players[seat].status = status;
        g.players[seat].position = Position::Gone;
    }
    at(&mut g, P3, 3, 20);
    give(&mut g, P0, 1, "S0");
    give(&mut g, P0, 2, "M2");
    give(&mut g, P1, 10, "A1");
    give(&mut g, P1, 11, "C1");
    give(&mut g, P2, 20, "M0");
    give(&mut g, P2, 21, "S3");
    give(&mut g, P3, 30, "A5");
    g.promises.push(game_black_thursday::Promise {
        id: game_black_thursday::PromiseId(1),
        promisor: P0,
        promisee: P1,
        text: "I flip your tile.".into(),
        status: PromiseStatus::Claimed,
    });
    g.claims.push(game_black_thursday::Claim {
        id: game_black_thursday::ClaimId(3),
        promise: game_black_thursday::PromiseId(1),
        claimant: P1,
        accused: P0,
        jury: [P2, P3].into_iter().collect(),
        uphold: SeatSet::default(),
        dismiss: SeatSet::default(),
        status: ClaimStatus::Voting,
    });
    g
}

/// §8 S13 End of game with ties.
#[test]
fn s13_end_of_game_with_ties() {
    let mut g = s13_state();
    assert_eq!(g.view(Viewer::Spectator).players[3].coins[0].value, None);
    ok(&mut g, P2, json!({"type": "move", "to": "exit"}));
    assert_eq!(g.phase, Phase::Ended);
    assert_eq!(g.claims[0].status, ClaimStatus::Lapsed);
    assert_eq!(g.promises[0].status, PromiseStatus::Lapsed);
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.ranks, vec![1, 1, 3, 4]);
    assert_eq!(outcome.scores, vec![2, 2, 3, 5]);
    assert_eq!(outcome.winners, [P0, P1].into_iter().collect());
    assert!(g.to_act().is_empty());
    // Everything becomes public.
    let view = g.view(Viewer::Spectator);
    assert!(view
        .players
        .iter()
        .all(|p| p.coins.iter().all(|c| c.value.is_some())));
    assert_eq!(view.bag.as_ref().map(Vec::len), Some(g.bag.len()));
    assert!(view.slots.iter().all(|s| s.tile.is_some()));
    err(&g, P3, json!({"type": "buy"}), "game-over");
    // Variant: P1 also holds a null, so its key is (2,3): P0 wins alone.
    let mut variant = s13_state();
    give(&mut variant, P1, 12, "C0");
    ok(&mut variant, P2, json!({"type": "move", "to": "exit"}));
    assert_eq!(variant.outcome().unwrap().winners, SeatSet::only(P0));
}

/// §8 S14 Opening roll, roof entry and waiting (`tower_1x15`, 4 players).
#[test]
fn s14_opening_roll_roof_and_waiting() {
    let options = Options {
        layout: game_black_thursday::Layout::Tower1x15,
        ..Options::default()
    };
    // The opening roll: the unique lowest of the last round goes first; nulls re-roll.
    let mut found = None;
    for seed in 0..200u8 {
        let mut rng = GameRng::for_entry([seed; 32], 0);
        let mut events = Vec::new();
        let g = BlackThursday::new_game(4, &options, &mut rng, &mut events).unwrap();
        let Some(Event::OpeningRolled { rounds, first }) = events
            .iter()
            .map(|e| e.event.clone())
            .find(|e| matches!(e, Event::OpeningRolled { .. }))
        else {
            panic!("no opening roll");
        };
        let last = rounds.last().unwrap();
        let lowest = last.iter().map(|r| *r.rolls.last().unwrap()).min().unwrap();
        assert_eq!(
            last.iter()
                .filter(|r| *r.rolls.last().unwrap() == lowest)
                .count(),
            1
        );
        assert!(rounds
            .iter()
            .flatten()
            .all(|r| r.rolls.iter().rev().skip(1).all(|&v| v == 0)));
        assert_eq!(g.turn.active, first);
        if first == P2 && rounds.len() > 1 && found.is_none() {
            found = Some(g);
        }
    }
    let g = found.expect("a seed where P2 wins a re-rolled opening");
    assert_eq!(g.roof_spaces(), vec![Space::new(0, 0), Space::new(1, 0)]);
    assert_eq!(g.slots.len(), 15);
    assert_eq!(g.out_of_play.len(), 9);
    // Turn 1 (P2): PLACE.
    assert_eq!(g.phase, Phase::Place);
    err(
        &g,
        P2,
        json!({"type": "place_pawn", "space": {"x": 0, "y": 1}}),
        "bad-space",
    );
    let (mut g, _) = apply_until(
        &g,
        P2,
        json!({"type": "place_pawn", "space": {"x": 0, "y": 0}}),
        |g, _| g.turn.die == Some(1),
    );
    assert_eq!(g.turn.ap, 1);
    ok(&mut g, P2, json!({"type": "buy"}));
    // Turn 2 (P3): place, null roll, flip slot 7 (origin (0,14)), orient.
    assert_eq!((g.turn.active, g.phase), (P3, Phase::Place));
    let (mut g, _) = apply_until(
        &g,
        P3,
        json!({"type": "place_pawn", "space": {"x": 1, "y": 0}}),
        |g, _| g.turn.die == Some(0),
    );
    assert_eq!(g.slots[7].origin, Space::new(0, 14));
    ok(&mut g, P3, json!({"type": "flip_tile", "slot": 7}));
    // Turn 3 (P0): the roof is full, so P0 waits; roll 2.
    let (g, _) = apply_until(
        &g,
        P3,
        json!({"type": "orient_tile", "rotation": 0}),
        |g, _| g.turn.active == P0 && g.turn.die == Some(2),
    );
    assert_eq!((g.phase, g.turn.ap), (Phase::Actions, 2));
    assert_eq!(g.players[0].position, Position::Unplaced);
    err(
        &g,
        P0,
        json!({"type": "move", "to": {"x": 0, "y": 0}}),
        "not-placed",
    );
    let legal = g.legal_actions(P0);
    let has = |name: &str| {
        legal.iter().any(|entry| match entry {
            LegalAction::Action { action } => serde_json::to_value(action).unwrap()["type"] == name,
            LegalAction::Schema { schema, .. } => schema["properties"]["type"]["const"] == name,
        })
    };
    assert!(has("buy") && has("market_trade") && has("open_session") && !has("move"));
    // Turn 5 (P2) moves down; on turn 7 P0 finds (0,0) free and places.
    let mut g = g;
    g.turn.active = P2;
    g.turn.ap = 2;
    ok(&mut g, P2, json!({"type": "move", "to": {"x": 1, "y": 1}}));
    g.players[3].position = Position::At(Space::new(1, 0));
    let mut before_p0 = g.clone();
    before_p0.turn.active = P3;
    before_p0.turn.ap = 1;
    before_p0.turn.moved = true;
    before_p0.phase = Phase::Actions;
    let events = ok(
        &mut before_p0,
        P3,
        json!({"type": "open_session", "with": [0], "pass": true}),
    );
    assert!(events
        .iter()
        .any(|e| matches!(e.event, Event::TurnStarted { seat, .. } if seat == P0)));
    assert_eq!((before_p0.turn.active, before_p0.phase), (P0, Phase::Place));
}

/// §8 S15 Unresponsive participant; session limits.
#[test]
fn s15_unresponsive_participant_and_limits() {
    let mut g = fixture(4, P0, 3);
    g.options.limits.max_offers_per_session = 2;
    ok(&mut g, P0, json!({"type": "open_session", "with": [1, 3]}));
    assert_eq!(g.turn.ap, 2);
    assert_eq!(g.to_act(), [P0, P1, P3].into_iter().collect());
    assert_eq!(g.waiting_on(), SeatSet::only(P0));
    err(
        &g,
        P2,
        json!({"type": "post_offer", "session": "s1", "terms": []}),
        "not-participant",
    );
    err(&g, P0, json!({"type": "buy"}), "wrong-phase");
    ok(
        &mut g,
        P0,
        json!({"type": "post_offer", "session": "s1", "terms": []}),
    );
    ok(&mut g, P1, json!({"type": "accept_offer", "offer": "o1"}));
    assert_eq!(g.phase, Phase::Session);
    ok(
        &mut g,
        P1,
        json!({"type": "post_offer", "session": "s1", "terms": [
        {"kind": "action_points", "from": 3, "to": 1, "amount": 1}]}),
    );
    assert_eq!(
        g.session.as_ref().unwrap().pointers[1],
        Some(game_black_thursday::OfferId(2))
    );
    err(
        &g,
        P0,
        json!({"type": "post_offer", "session": "s1", "terms": [
        {"kind": "promise", "promisor": 0, "promisee": 3, "text": "I will not block you."}]}),
        "offer-limit",
    );
    ok(
        &mut g,
        P0,
        json!({"type": "leave_session", "session": "s1"}),
    );
    let session = g.session.as_ref().unwrap();
    assert_eq!(session.status, SessionStatus::Abandoned);
    assert!(session
        .offers
        .iter()
        .all(|o| o.status == OfferStatus::Closed));
    assert_eq!((g.phase, g.turn.ap), (Phase::Actions, 2));
    assert_eq!(g.to_act(), SeatSet::only(P0));
    err(
        &g,
        P3,
        json!({"type": "accept_offer", "offer": "o1"}),
        "wrong-phase",
    );
    err(
        &g,
        P0,
        json!({"type": "open_session", "with": [1, 3]}),
        "group-used",
    );
}

/// The error codes no scenario produces.
#[test]
fn remaining_error_codes() {
    let mut g = fixture(4, P0, 3);
    at(&mut g, P0, 1, 23);
    give(&mut g, P0, 1, "S1");
    give(&mut g, P1, 10, "M1");
    let mut no_ap = g.clone();
    no_ap.turn.ap = 0;
    err(&no_ap, P0, json!({"type": "buy"}), "no-ap");
    let mut not_ground = g.clone();
    at(&mut not_ground, P0, 1, 20);
    err(
        &not_ground,
        P0,
        json!({"type": "move", "to": "exit"}),
        "not-ground-floor",
    );
    err(
        &g,
        P0,
        json!({"type": "market_trade", "handles": ["h10"]}),
        "not-owner",
    );
    err(
        &g,
        P0,
        json!({"type": "market_trade", "handles": []}),
        "bad-params",
    );
    err(
        &g,
        P0,
        json!({"type": "open_session", "with": [0]}),
        "self-trade",
    );
    err(
        &g,
        P0,
        json!({"type": "open_session", "with": [1, 1]}),
        "bad-params",
    );
    let mut opportunity = g.clone();
    opportunity.phase = Phase::Opportunity;
    err(
        &opportunity,
        P0,
        json!({"type": "flip_tile", "slot": 24}),
        "bad-slot",
    );
    let mut orient = g.clone();
    orient.phase = Phase::Orient { slot: 0 };
    err(
        &orient,
        P0,
        json!({"type": "orient_tile", "rotation": 45}),
        "bad-params",
    );

    let mut g2 = g.clone();
    g2.options.limits.max_terms_per_offer = 1;
    ok(&mut g2, P0, json!({"type": "open_session", "with": [1]}));
    err(
        &g2,
        P0,
        json!({"type": "post_offer", "session": "s1", "terms": [
        {"kind": "share_knowledge", "from": 0, "to": 1, "about": 2},
        {"kind": "share_knowledge", "from": 1, "to": 0, "about": 2}]}),
        "too-many-terms",
    );
    err(
        &g2,
        P0,
        json!({"type": "post_offer", "session": "s1", "terms": [
        {"kind": "coins", "giver": 0, "receiver": 1, "handles": ["h10"]}]}),
        "not-owner",
    );
    err(
        &g2,
        P0,
        json!({"type": "post_offer", "session": "s1", "terms": [
        {"kind": "promise", "promisor": 0, "promisee": 2, "text": "x"}]}),
        "not-participant",
    );
    err(
        &g2,
        P0,
        json!({"type": "post_offer", "session": "s9", "terms": []}),
        "bad-params",
    );
    err(
        &g2,
        P0,
        json!({"type": "revoke_acceptance", "session": "s1"}),
        "no-acceptance",
    );
    ok(
        &mut g2,
        P0,
        json!({"type": "post_offer", "session": "s1", "terms": [
        {"kind": "promise", "promisor": 0, "promisee": 1, "text": "x"}]}),
    );
    err(
        &g2,
        P1,
        json!({"type": "withdraw_offer", "offer": "o1"}),
        "not-author",
    );
    err(
        &g2,
        P0,
        json!({"type": "accept_offer", "offer": "o1"}),
        "already-accepted",
    );
    ok(
        &mut g2,
        P0,
        json!({"type": "revoke_acceptance", "session": "s1"}),
    );
    ok(
        &mut g2,
        P0,
        json!({"type": "withdraw_offer", "offer": "o1"}),
    );
    err(
        &g2,
        P0,
        json!({"type": "withdraw_offer", "offer": "o1"}),
        "offer-not-live",
    );
    assert_eq!(g2.phase, Phase::Session);
}

/// Hidden information: a seat sees its own values and what it was told; others see suits.
#[test]
fn views_hide_values_and_the_bag() {
    let g = BlackThursday::setup(4, &Options::default(), &mut GameRng::for_entry([5; 32], 0))
        .unwrap()
        .0;
    for seat in 0..4u8 {
        let view = g.view(Viewer::Seat(Seat(seat)));
        for (owner, p) in view.players.iter().enumerate() {
            assert_eq!(p.coins.len(), 5);
            assert!(p
                .coins
                .iter()
                .all(|c| c.value.is_some() == (owner == usize::from(seat))));
        }
        assert!(view.bag.is_none());
        assert!(view.slots.iter().all(|s| s.tile.is_none()));
    }
    let json = serde_json::to_string(&g.view(Viewer::Spectator)).unwrap();
    assert!(!json.contains("\"value\":1") && !json.contains("\"value\":5"));
}

/// Options: defaults, unknown fields, invalid layouts and deals.
#[test]
fn options_validate() {
    let options: Options = serde_json::from_value(json!({})).unwrap();
    assert_eq!(options, Options::default());
    assert!(serde_json::from_value::<Options>(json!({"bogus": 1})).is_err());
    let custom: Options =
        serde_json::from_value(json!({"layout": {"custom": [{"x": 0, "y": 0}, {"x": 4, "y": 0}]}}))
            .unwrap();
    let mut rng = GameRng::for_entry([0; 32], 0);
    // Two side-by-side slots with a gap have dead ends? No: each is its own column down to
    // the ground, so it is valid.
    assert!(BlackThursday::setup(3, &custom, &mut rng).is_ok());
    let dead_end: Options =
        serde_json::from_value(json!({"layout": {"custom": [{"x": 0, "y": 0}, {"x": 4, "y": 2}]}}))
            .unwrap();
    assert!(BlackThursday::setup(3, &dead_end, &mut rng).is_err());
    let too_many: Options = serde_json::from_value(json!({"starting_coins": [9, 9, 9]})).unwrap();
    assert!(BlackThursday::setup(3, &too_many, &mut rng).is_err());
    assert!(BlackThursday::setup(2, &Options::default(), &mut rng).is_err());
    assert!(BlackThursday::setup(5, &Options::default(), &mut rng).is_err());
    for layout in ["tower_2x12", "tower_3x8", "tower_3x7_pyramid", "tower_1x15"] {
        let options: Options = serde_json::from_value(json!({"layout": layout})).unwrap();
        let g = BlackThursday::setup(4, &options, &mut rng).unwrap().0;
        assert_eq!(g.slots.len(), if layout == "tower_1x15" { 15 } else { 24 });
    }
}

/// Setup logs each seat's deal (`coins_drawn`, reason `deal`: values to the seat, suits only
/// to everyone else) and the opening roll (`opening_rolled`, public), then the first turn.
#[test]
fn setup_logs_the_deal_and_the_opening_roll() {
    let (g, events) =
        BlackThursday::setup(4, &Options::default(), &mut GameRng::for_entry([5; 32], 0)).unwrap();
    for viewer in Seat::all(4).map(Viewer::Seat).chain([Viewer::Spectator]) {
        let mut deals = 0;
        for logged in events.iter().filter(|e| e.visibility.shows(viewer)) {
            let json = serde_json::to_value(&logged.event).unwrap();
            if json["type"] == "coins_drawn" && json["reason"] == "deal" {
                deals += 1;
                let own = viewer == Viewer::Seat(Seat(json["seat"].as_u64().unwrap() as u8));
                let coins = json["coins"].as_array().unwrap();
                assert_eq!(coins.len(), 5);
                assert!(
                    coins.iter().all(|c| c["value"].is_null() != own),
                    "{viewer:?} sees {json}"
                );
            }
        }
        assert_eq!(deals, 4, "{viewer:?} sees every seat's deal once");
    }
    let rolled = events
        .iter()
        .find(|e| serde_json::to_value(&e.event).unwrap()["type"] == "opening_rolled")
        .expect("the opening roll is logged");
    assert_eq!(rolled.visibility, Visibility::Public);
    let json = serde_json::to_value(&rolled.event).unwrap();
    assert_eq!(json["first"], json!(g.active().0));
}

/// docs/rules/black-thursday.md, "Who the game waits on in a session" (refines D39): the game
/// waits on the participants the newest live offer awaits, and on the initiator while no
/// offer is live.
#[test]
fn waiting_on_in_a_session_follows_the_newest_live_offer() {
    let mut g = fixture(4, P0, 3);
    ok(&mut g, P0, json!({"type": "open_session", "with": [1, 3]}));
    // Nothing posted yet: the initiator.
    assert_eq!(g.waiting_on(), SeatSet::only(P0));
    let ap_to = |to: u8| json!([{"kind": "action_points", "from": 0, "to": to, "amount": 1}]);
    ok(
        &mut g,
        P0,
        json!({"type": "post_offer", "session": "s1", "terms": ap_to(1)}),
    );
    // The initiator's offer awaits both others.
    assert_eq!(g.waiting_on(), [P1, P3].into_iter().collect());
    ok(&mut g, P1, json!({"type": "accept_offer", "offer": "o1"}));
    assert_eq!(g.waiting_on(), SeatSet::only(P3));
    // A counter-offer by P3 awaits the two who have not accepted it.
    ok(
        &mut g,
        P3,
        json!({"type": "post_offer", "session": "s1", "terms": ap_to(3), "counters": "o1"}),
    );
    assert_eq!(g.waiting_on(), [P0, P1].into_iter().collect());
    // Withdrawn, the counter no longer awaits anyone: the newest live offer is o1 again.
    ok(&mut g, P3, json!({"type": "withdraw_offer", "offer": "o2"}));
    assert_eq!(g.waiting_on(), SeatSet::only(P3));
    ok(&mut g, P0, json!({"type": "withdraw_offer", "offer": "o1"}));
    // No live offer: the initiator again; everyone may still act.
    assert_eq!(g.waiting_on(), SeatSet::only(P0));
    assert_eq!(g.to_act(), [P0, P1, P3].into_iter().collect());
    // The initiator can always leave, awaited or not.
    ok(
        &mut g,
        P1,
        json!({"type": "post_offer", "session": "s1", "terms": ap_to(1)}),
    );
    assert_eq!(g.waiting_on(), [P0, P3].into_iter().collect());
    ok(
        &mut g,
        P0,
        json!({"type": "leave_session", "session": "s1"}),
    );
    assert_eq!(g.waiting_on(), SeatSet::only(P0));
    assert_eq!(g.phase, Phase::Actions);
}
