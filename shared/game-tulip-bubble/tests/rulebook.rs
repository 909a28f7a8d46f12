//! The worked examples of spec §9 (T1–T12, E1–E14), one test each, plus every error code.
//!
//! Positions are built by dealing a game and overwriting the public fields of
//! `TulipBubble` (see the crate docs); `finish` then puts every tulip not placed anywhere
//! into the deck so that tulip conservation holds.

use game_core::{Game, GameRng, RuleError, Seat, SeatSet, Viewer};
use game_tulip_bubble::{
    Action, CardId, Collector, Colour, EndReason, Event, EventCard, EventEffect, Loan, Options,
    PaymentMethod, Phase, Slot, Track, Tulip, TulipBubble,
};

pub(crate) const ANDY: Seat = Seat(0);
pub(crate) const BOB: Seat = Seat(1);
pub(crate) const CHARLES: Seat = Seat(2);
const DENNIS: Seat = Seat(3);
const EVE: Seat = Seat(4);

pub(crate) fn t(id: &str) -> Tulip {
    Tulip::parse(id).unwrap_or_else(|| panic!("bad id {id}"))
}

pub(crate) fn slots(ids: &[&str]) -> Vec<Slot> {
    ids.iter().map(|id| Slot::new(t(id))).collect()
}

pub(crate) fn marked(id: &str, seats: &[Seat]) -> Slot {
    Slot {
        tulip: t(id),
        markers: seats.iter().copied().collect(),
    }
}

/// A dealt game with empty areas, start player Andy, round 2, nobody holding anything.
pub(crate) fn game(n_seats: u8) -> TulipBubble {
    let options = Options {
        start_player: Some(ANDY),
        ..Options::default()
    };
    let mut game = TulipBubble::setup(n_seats, &options, &mut GameRng::for_entry([7; 32], 0))
        .unwrap()
        .0;
    game.next_shipment.clear();
    game.new_arrivals.clear();
    game.just_sold.clear();
    game.tulip_discard.clear();
    game.round = 2;
    game.event_history.truncate(1);
    game.start_player = ANDY;
    game
}

/// Puts every tulip that is nowhere else into the deck (canonical order).
pub(crate) fn finish(game: &mut TulipBubble) {
    let mut used: Vec<Tulip> = game.tulip_discard.clone();
    used.extend(&game.next_shipment);
    used.extend(
        game.new_arrivals
            .iter()
            .chain(&game.just_sold)
            .map(|slot| slot.tulip),
    );
    for player in &game.players {
        used.extend(&player.concealed);
        used.extend(player.financed.iter().map(|loan| loan.tulip));
    }
    game.tulip_deck = Tulip::all().filter(|tulip| !used.contains(tulip)).collect();
}

pub(crate) fn conceal(game: &mut TulipBubble, seat: Seat, ids: &[&str]) {
    let player = &mut game.players[seat.index()];
    player.concealed = ids.iter().map(|id| t(id)).collect();
    player.concealed.sort();
}

pub(crate) fn finance(game: &mut TulipBubble, seat: Seat, loans: &[(&str, i64)]) {
    game.players[seat.index()].financed = loans
        .iter()
        .map(|&(id, loan)| Loan { tulip: t(id), loan })
        .collect();
}

fn cash(game: &TulipBubble, seat: Seat) -> i64 {
    game.players[seat.index()].cash
}

pub(crate) fn play(game: &mut TulipBubble, seat: Seat, action: Action) -> Vec<Event> {
    let step = game.event_history.len() as u64 * 1000
        + game.players.iter().map(|p| p.cash as u64).sum::<u64>();
    let logged = game
        .apply(seat, action.clone(), &mut GameRng::for_entry([9; 32], step))
        .unwrap_or_else(|error| panic!("{action:?} by {seat} refused: {error}"));
    logged.into_iter().map(|logged| logged.event).collect()
}

/// Asserts that `action` is refused with `code` and changes nothing.
fn reject(game: &TulipBubble, seat: Seat, action: Action, code: &str) {
    let mut copy = game.clone();
    let error = copy
        .apply(seat, action.clone(), &mut GameRng::for_entry([9; 32], 1))
        .expect_err("must be refused");
    assert_eq!(error.code(), code, "{action:?} by {seat}: {error}");
    assert!(copy == *game, "a refused action changed the state");
}

fn sell(id: &str) -> Action {
    Action::SellToMarket { tulip: id.into() }
}

fn buy_back(id: &str) -> Action {
    Action::BuyBack { tulip: id.into() }
}

fn to_collector(collector: Collector, ids: &[&str]) -> Action {
    Action::SellToCollector {
        collector,
        tulips: ids.iter().map(|&id| CardId::from(id)).collect(),
    }
}

fn bids(ids: &[&str]) -> Action {
    Action::PlaceBids {
        cards: ids.iter().map(|&id| CardId::from(id)).collect(),
    }
}

fn bid(amount: i64) -> Action {
    Action::AuctionBid { amount }
}

fn pay(method: PaymentMethod) -> Action {
    Action::ChoosePayment { method }
}

fn claim(claim: bool) -> Action {
    Action::BlackTulipDecision { claim }
}

fn markers(game: &TulipBubble, id: &str) -> SeatSet {
    game.slot(t(id))
        .map(|slot| slot.markers)
        .unwrap_or_default()
}

fn rise(colour: Colour) -> EventEffect {
    EventEffect::Rise(colour)
}

// ---------------------------------------------------------------- price track

/// §9 T1 (rulebook §1.1): a Rise moves one marker up one space.
#[test]
fn t1_rise() {
    let mut track = Track::new(1, 2, 3);
    track.apply_event(rise(Colour::Y));
    assert_eq!(track, Track::new(1, 2, 4));
}

/// §9 T2: a Surge moves the lowest marker +2, skipping an occupied target.
#[test]
fn t2_surge() {
    let mut track = Track::new(1, 2, 3);
    track.apply_event(EventEffect::Surge);
    assert_eq!(track, Track::new(4, 2, 3));
}

/// §9 T3: a Crash of the highest marker with every lower space occupied leaves it in place.
#[test]
fn t3_crash() {
    let mut track = Track::new(1, 2, 3);
    track.apply_event(EventEffect::Crash);
    assert_eq!(track, Track::new(1, 2, 3));
}

// ---------------------------------------------------------------- T4 / T5

/// The position of T4: round 2, Selling, start player Andy, track {R:2, W:3, Y:4}.
fn t4_position() -> TulipBubble {
    let mut game = game(4);
    game.track = Track::new(2, 3, 4);
    game.phase = Phase::Selling { seller: ANDY };
    game.players[0].cash = 10;
    conceal(&mut game, ANDY, &["WC1#1"]);
    game.players[1].cash = 4;
    finance(&mut game, BOB, &[("YA#1", 18)]);
    game.players[2].cash = 7;
    conceal(&mut game, CHARLES, &["RC1#1", "RC2#1", "RC3#1", "RB1#1"]);
    game.players[3].cash = 12;
    game.collector_stacks[0] = vec![
        Collector::Servant,
        Collector::YoungMan,
        Collector::Scholar,
        Collector::TavernOwner,
    ];
    game.new_arrivals = slots(&["YC3#1", "YB1#1", "WB1#1", "WA#1", "RC2#2", "WC2#1"]);
    game.next_shipment = vec![
        t("RA#1"),
        t("RA#2"),
        t("WA#2"),
        t("YA#2"),
        t("RB2#2"),
        t("WB2#2"),
    ];
    finish(&mut game);
    game
}

/// §9 T4 (rulebook §2, selling example): market sales, a financed sale repaying its loan,
/// the Servant collector, the one-collector limit and the end of Selling.
#[test]
fn t4_selling_example() {
    let mut game = t4_position();
    assert_eq!(game.markers_available(BOB), 2);
    // 1.
    play(&mut game, ANDY, sell("WC1#1"));
    assert_eq!(cash(&game, ANDY), 15);
    assert_eq!(game.just_sold, slots(&["WC1#1"]));
    // 2.
    play(&mut game, ANDY, Action::EndSellingTurn {});
    reject(&game, ANDY, sell("WC1#1"), "not-your-turn");
    // 3.
    let events = play(&mut game, BOB, sell("YA#1"));
    assert_eq!(
        events,
        vec![Event::SoldToMarket {
            seat: BOB,
            tulip: t("YA#1"),
            price: 20,
            loan_repaid: Some(18)
        }]
    );
    assert_eq!(cash(&game, BOB), 6);
    assert_eq!(game.markers_available(BOB), 3);
    assert!(game.players[1].financed.is_empty());
    assert_eq!(game.just_sold, slots(&["WC1#1", "YA#1"]));
    play(&mut game, BOB, Action::EndSellingTurn {});
    // 4.
    play(
        &mut game,
        CHARLES,
        to_collector(Collector::Servant, &["RC1#1", "RC2#1", "RC3#1"]),
    );
    assert_eq!(cash(&game, CHARLES), 26);
    assert_eq!(game.tulip_discard, vec![t("RC1#1"), t("RC2#1"), t("RC3#1")]);
    assert_eq!(game.collectors_boxed, vec![Collector::Servant]);
    assert_eq!(game.collector_stacks[0].first(), Some(&Collector::YoungMan));
    // 5.
    reject(
        &game,
        CHARLES,
        to_collector(Collector::YoungMan, &["RB1#1", "RC2#1", "RC3#1"]),
        "collector-limit",
    );
    // 6.
    play(&mut game, CHARLES, sell("RB1#1"));
    assert_eq!(cash(&game, CHARLES), 31);
    assert_eq!(game.just_sold, slots(&["WC1#1", "YA#1", "RB1#1"]));
    play(&mut game, CHARLES, Action::EndSellingTurn {});
    // 7.
    play(&mut game, DENNIS, Action::EndSellingTurn {});
    assert!(matches!(game.phase, Phase::BlackTulipWindow { .. }));
}

/// §9 T5 (rulebook §3.1–3.2): two placement passes, then the left-to-right resolution with
/// a single-marker purchase, auctions, financing and premiums.
#[test]
fn t5_bid_placement_and_resolution() {
    let mut game = t4_position();
    for (seat, action) in [
        (ANDY, sell("WC1#1")),
        (ANDY, Action::EndSellingTurn {}),
        (BOB, sell("YA#1")),
        (BOB, Action::EndSellingTurn {}),
        (
            CHARLES,
            to_collector(Collector::Servant, &["RC1#1", "RC2#1", "RC3#1"]),
        ),
        (CHARLES, sell("RB1#1")),
        (CHARLES, Action::EndSellingTurn {}),
        (DENNIS, Action::EndSellingTurn {}),
    ] {
        play(&mut game, seat, action);
    }
    for seat in [ANDY, BOB, CHARLES, DENNIS] {
        play(&mut game, seat, claim(false));
    }
    assert_eq!(
        game.phase,
        Phase::BidPlacement {
            pass: 1,
            placer: ANDY
        }
    );
    reject(&game, ANDY, bids(&["RA#1"]), "card-not-biddable");
    // Pass 1.
    play(&mut game, ANDY, bids(&["YC3#1"]));
    play(&mut game, BOB, bids(&["YB1#1"]));
    play(&mut game, CHARLES, bids(&["YB1#1", "WB1#1"]));
    play(&mut game, DENNIS, bids(&["WB1#1", "RB1#1"]));
    // Pass 2.
    reject(&game, ANDY, bids(&["YB1#1", "WA#1"]), "too-many-markers");
    play(&mut game, ANDY, bids(&["YB1#1"]));
    play(&mut game, BOB, bids(&["RB1#1"]));
    reject(&game, CHARLES, bids(&["WB1#1"]), "already-marked");
    play(&mut game, CHARLES, bids(&["RB1#1"]));
    play(&mut game, DENNIS, bids(&["WA#1"]));
    assert_eq!(markers(&game, "YC3#1"), [ANDY].into_iter().collect());
    assert_eq!(
        markers(&game, "YB1#1"),
        [ANDY, BOB, CHARLES].into_iter().collect()
    );
    assert_eq!(
        markers(&game, "WB1#1"),
        [CHARLES, DENNIS].into_iter().collect()
    );
    assert_eq!(markers(&game, "WA#1"), [DENNIS].into_iter().collect());
    assert_eq!(
        markers(&game, "RB1#1"),
        [BOB, CHARLES, DENNIS].into_iter().collect()
    );
    let Phase::Payment {
        resolution,
        payment,
    } = &game.phase
    else {
        panic!("expected a payment: {:?}", game.phase)
    };
    let order: Vec<Tulip> = [
        "YC3#1", "YB1#1", "WB1#1", "WA#1", "RC2#2", "WC2#1", "WC1#1", "YA#1", "RB1#1",
    ]
    .map(t)
    .to_vec();
    assert_eq!(resolution.queue, order);
    // 1. YC3#1: Andy alone pays 7.
    assert_eq!((payment.buyer, payment.price), (ANDY, 7));
    play(&mut game, ANDY, pay(PaymentMethod::Cash));
    assert_eq!(cash(&game, ANDY), 8);
    // 2. YB1#1: auction at 10.
    let Phase::Auction { auction, .. } = &game.phase else {
        panic!("expected an auction")
    };
    assert_eq!(auction.market_price, 10);
    assert_eq!(auction.participants, vec![ANDY, BOB, CHARLES]);
    play(&mut game, ANDY, bid(11));
    play(&mut game, BOB, Action::AuctionPass {});
    play(&mut game, CHARLES, bid(13));
    play(&mut game, ANDY, Action::AuctionPass {});
    let events = play(&mut game, CHARLES, pay(PaymentMethod::Cash));
    assert!(events.contains(&Event::PremiumPaid {
        seats: [ANDY, BOB].into_iter().collect(),
        amount: 1
    }));
    assert_eq!(
        (cash(&game, CHARLES), cash(&game, ANDY), cash(&game, BOB)),
        (18, 9, 7)
    );
    // 3. WB1#1: Charles passes, Dennis buys at 7 and finances.
    let Phase::Auction { auction, .. } = &game.phase else {
        panic!("expected an auction")
    };
    assert_eq!(
        (auction.market_price, auction.participants.clone()),
        (7, vec![CHARLES, DENNIS])
    );
    play(&mut game, CHARLES, Action::AuctionPass {});
    let Phase::Payment { payment, .. } = &game.phase else {
        panic!("expected a payment")
    };
    assert_eq!((payment.buyer, payment.price), (DENNIS, 7));
    let events = play(&mut game, DENNIS, pay(PaymentMethod::Finance));
    assert!(!events
        .iter()
        .any(|event| matches!(event, Event::PremiumPaid { .. })));
    assert_eq!(cash(&game, DENNIS), 12);
    // 4. WA#1: Dennis alone at 15; cash refused, financed.
    let Phase::Payment { payment, .. } = &game.phase else {
        panic!("expected a payment")
    };
    assert_eq!((payment.buyer, payment.price), (DENNIS, 15));
    reject(&game, DENNIS, pay(PaymentMethod::Cash), "cash-not-allowed");
    play(&mut game, DENNIS, pay(PaymentMethod::Finance));
    // 5–6. Unmarked cards are skipped; RB1#1 is auctioned at 5.
    let Phase::Auction { auction, .. } = &game.phase else {
        panic!("expected an auction")
    };
    assert_eq!((auction.tulip, auction.market_price), (t("RB1#1"), 5));
    assert_eq!(auction.participants, vec![BOB, CHARLES, DENNIS]);
    play(&mut game, BOB, bid(6));
    play(&mut game, CHARLES, Action::AuctionPass {});
    play(&mut game, DENNIS, bid(8));
    play(&mut game, BOB, Action::AuctionPass {});
    play(&mut game, DENNIS, pay(PaymentMethod::Cash));
    // End of resolution (the game moved on to round 3).
    assert_eq!(game.round, 3);
    assert_eq!(
        [0, 1, 2, 3].map(|seat| cash(&game, Seat(seat))),
        [9, 8, 19, 4]
    );
    assert_eq!(game.players[0].concealed, vec![t("YC3#1")]);
    assert_eq!(game.players[2].concealed, vec![t("YB1#1")]);
    assert_eq!(game.players[3].concealed, vec![t("RB1#1")]);
    assert_eq!(
        game.players[3].financed,
        vec![
            Loan {
                tulip: t("WB1#1"),
                loan: 7
            },
            Loan {
                tulip: t("WA#1"),
                loan: 15
            }
        ]
    );
    assert_eq!(game.markers_available(DENNIS), 1);
}

// ---------------------------------------------------------------- T6, E1, E3, E13

/// A resolution about to start: `id` in New Arrivals marked by `seats`, every seat with
/// `start_cash`; the last placer of pass 2 still has to pass.
fn auction_position(
    n_seats: u8,
    track: Track,
    id: &str,
    seats: &[Seat],
    start_cash: i64,
) -> TulipBubble {
    let mut game = game(n_seats);
    game.track = track;
    for player in &mut game.players {
        player.cash = start_cash;
    }
    game.new_arrivals = vec![marked(id, seats)];
    let last = Seat(n_seats - 1);
    game.phase = Phase::BidPlacement {
        pass: 2,
        placer: last,
    };
    finish(&mut game);
    let mut placed = game.clone();
    play(&mut placed, last, bids(&[]));
    placed
}

/// §9 T6 (rulebook §3.2.3): the premium is split among the losers, rounded down, whether
/// the winner pays cash or finances.
#[test]
fn t6_bid_premium() {
    let mut game = auction_position(4, Track::new(1, 2, 3), "YB1#1", &[ANDY, BOB, CHARLES], 20);
    let Phase::Auction { auction, .. } = &game.phase else {
        panic!("expected an auction")
    };
    assert_eq!(auction.market_price, 7);
    for (seat, action) in [
        (ANDY, bid(8)),
        (BOB, bid(10)),
        (CHARLES, bid(12)),
        (ANDY, Action::AuctionPass {}),
        (BOB, Action::AuctionPass {}),
    ] {
        play(&mut game, seat, action);
    }
    let mut financed = game.clone();
    // (a) cash.
    play(&mut game, CHARLES, pay(PaymentMethod::Cash));
    assert_eq!(
        [ANDY, BOB, CHARLES, DENNIS].map(|seat| cash(&game, seat)),
        [22, 22, 8, 20]
    );
    // (b) finance.
    play(&mut financed, CHARLES, pay(PaymentMethod::Finance));
    assert_eq!(
        [ANDY, BOB, CHARLES, DENNIS].map(|seat| cash(&financed, seat)),
        [22, 22, 20, 20]
    );
    assert_eq!(
        financed.players[2].financed,
        vec![Loan {
            tulip: t("YB1#1"),
            loan: 12
        }]
    );
    assert_eq!(financed.markers_available(CHARLES), 2);
}

/// §9 E1: with no bid, the last seat left buys at the market price, with no premium.
#[test]
fn e1_auction_with_no_bids() {
    let mut game = auction_position(4, Track::new(1, 2, 3), "YB1#1", &[ANDY, BOB, CHARLES], 20);
    play(&mut game, ANDY, Action::AuctionPass {});
    play(&mut game, BOB, Action::AuctionPass {});
    let Phase::Payment { payment, .. } = &game.phase else {
        panic!("expected a payment")
    };
    assert_eq!((payment.buyer, payment.price), (CHARLES, 7));
    let events = play(&mut game, CHARLES, pay(PaymentMethod::Cash));
    assert!(!events
        .iter()
        .any(|event| matches!(event, Event::PremiumPaid { .. })));
    assert_eq!(
        [ANDY, BOB, CHARLES].map(|seat| cash(&game, seat)),
        [20, 20, 13]
    );
}

/// §9 E3: with 5 participants the premium is floor(excess / 4): 0 at 10, 1 at 11.
#[test]
fn e3_premium_rounding() {
    for (winning_bid, premium) in [(10, 0), (11, 1)] {
        let all = [ANDY, BOB, CHARLES, DENNIS, EVE];
        let mut game = auction_position(5, Track::new(1, 2, 3), "YB1#1", &all, 20);
        play(&mut game, ANDY, bid(8));
        play(&mut game, BOB, bid(9));
        play(&mut game, CHARLES, bid(winning_bid));
        for seat in [DENNIS, EVE, ANDY, BOB] {
            play(&mut game, seat, Action::AuctionPass {});
        }
        play(&mut game, CHARLES, pay(PaymentMethod::Cash));
        assert_eq!(
            all.map(|seat| cash(&game, seat)),
            [
                20 + premium,
                20 + premium,
                20 - winning_bid,
                20 + premium,
                20 + premium
            ]
        );
    }
}

/// §9 E13: the first bid must beat the market price and every later bid the high bid.
#[test]
fn e13_auction_raises() {
    let mut game = auction_position(4, Track::new(1, 2, 3), "YB1#1", &[ANDY, BOB], 20);
    reject(&game, ANDY, bid(7), "bid-too-low");
    play(&mut game, ANDY, bid(8));
    reject(&game, BOB, bid(8), "bid-too-low");
    reject(&game, BOB, bid(1_000_001), "bid-too-high");
    play(&mut game, BOB, bid(1_000_000));
    let Phase::Auction { auction, .. } = &game.phase else {
        panic!("expected an auction")
    };
    assert_eq!(
        auction.high_bid,
        Some(game_tulip_bubble::HighBid {
            seat: BOB,
            amount: 1_000_000
        })
    );
    // At the cap only passing is listed.
    assert_eq!(
        game.legal_actions(ANDY),
        vec![game_core::LegalAction::action(Action::AuctionPass {})]
    );
}

// ---------------------------------------------------------------- T7, E9

/// The last placer of pass 2 with nothing marked, and BUST on top of the event deck.
fn bust_position() -> TulipBubble {
    let mut game = game(4);
    game.event_deck.retain(|&card| card != EventCard::BUST);
    game.event_deck.insert(0, EventCard::BUST);
    game.phase = Phase::BidPlacement {
        pass: 2,
        placer: DENNIS,
    };
    game
}

/// §9 T7 (rulebook "Game End"): at the Bust, score = cash − loans; concealed tulips are
/// worth nothing; nothing can be done afterwards.
#[test]
fn t7_bubble_bust_scoring() {
    let mut game = bust_position();
    game.players[0].cash = 81;
    game.players[1].cash = 55;
    conceal(&mut game, BOB, &["RA#1", "RA#2", "WA#1", "WA#2", "YA#1"]);
    game.players[2].cash = 90;
    finance(&mut game, CHARLES, &[("RB1#1", 15)]);
    game.players[3].cash = 113;
    finance(&mut game, DENNIS, &[("WB1#1", 17), ("YB1#1", 9)]);
    finish(&mut game);
    play(&mut game, DENNIS, bids(&[]));
    assert_eq!(game.event_history.last(), Some(&EventCard::BUST));
    let outcome = game.outcome().expect("the game is over");
    assert_eq!(outcome.reason, "bust");
    assert_eq!(outcome.scores, vec![81, 55, 75, 87]);
    assert_eq!(outcome.winners, SeatSet::only(DENNIS));
    assert_eq!(outcome.ranks, vec![2, 4, 3, 1]);
    assert!(game.to_act().is_empty());
    reject(&game, DENNIS, buy_back("YB1#1"), "game-over");
    // D-30: everything is public now.
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.players[1].concealed.as_ref().map(Vec::len), Some(5));
    assert_eq!(view.removed_event, Some(game.removed_event));
}

/// §9 E9: a Bust score can be negative, and then loses to a seat with nothing.
#[test]
fn e9_negative_bust_score() {
    let mut game = bust_position();
    game.players[0].cash = 5;
    finance(&mut game, ANDY, &[("RA#1", 30)]);
    for seat in [BOB, CHARLES, DENNIS] {
        game.players[seat.index()].cash = 0;
    }
    finish(&mut game);
    play(&mut game, DENNIS, bids(&[]));
    let outcome = game.outcome().expect("the game is over");
    assert_eq!(outcome.scores, vec![-25, 0, 0, 0]);
    assert_eq!(
        outcome.winners,
        [BOB, CHARLES, DENNIS].into_iter().collect()
    );
    assert_eq!(outcome.ranks, vec![4, 1, 1, 1]);
}

// ---------------------------------------------------------------- T8–T10, E8, E12

/// §9 T8 (rulebook §4.1): the most common colour falls first, then the rarest rise.
#[test]
fn t8_market_response() {
    let mut track = Track::new(2, 3, 4);
    track.market_response([4, 4, 7]);
    assert_eq!(track, Track::new(3, 4, 1));
}

/// §9 T9 (FAQ Q3a): tied rising markers move leading marker first.
#[test]
fn t9_faq_q3a_tied_markers_rising() {
    let mut track = Track::new(1, 2, 3);
    track.market_response([1, 1, 7]);
    assert_eq!(track, Track::new(2, 4, 3));
}

/// §9 T10 (FAQ Q3b): tied falling markers blocked at the bottom stay put.
#[test]
fn t10_faq_q3b_tied_markers_falling() {
    let mut track = Track::new(1, 2, 3);
    track.group_move(&[Colour::W, Colour::Y], -1);
    assert_eq!(track, Track::new(1, 2, 3));
    track.market_response([1, 5, 5]);
    assert_eq!(track, Track::new(4, 2, 3));
    // Equal counts move nothing.
    track.market_response([4, 4, 4]);
    assert_eq!(track, Track::new(4, 2, 3));
}

/// §9 E8: the boundary rules of §3.7.
#[test]
fn e8_boundaries() {
    // (a)
    let mut track = Track::new(7, 5, 6);
    track.apply_event(rise(Colour::R));
    assert_eq!(track, Track::new(7, 5, 6));
    track.apply_event(rise(Colour::W));
    assert_eq!(track, Track::new(7, 5, 6));
    // (b)
    let mut track = Track::new(1, 2, 4);
    track.apply_event(EventEffect::Crash);
    assert_eq!(track, Track::new(1, 2, 3));
    // (c)
    let mut track = Track::new(3, 5, 6);
    track.apply_event(EventEffect::Surge);
    assert_eq!(track, Track::new(7, 5, 6));
    // (d)
    let mut track = Track::new(5, 6, 7);
    track.apply_event(EventEffect::Surge);
    assert_eq!(track, Track::new(5, 6, 7));
}

/// §9 E12 (§7.1): the opening Market Response runs on the dealt cards before the setup
/// event is revealed.
#[test]
fn e12_opening_market_response() {
    let mut track = Track::new(2, 3, 4);
    track.market_response([9, 5, 4]);
    assert_eq!(track, Track::new(1, 3, 5));
    // In setup: response first, then the setup event (the RNG use is the same either way).
    for index in 0..20u8 {
        let seed = [index; 32];
        let options = Options {
            opening_market_response: true,
            ..Options::default()
        };
        let game = TulipBubble::setup(4, &options, &mut GameRng::for_entry(seed, 0))
            .unwrap()
            .0;
        let plain = TulipBubble::setup(4, &Options::default(), &mut GameRng::for_entry(seed, 0))
            .unwrap()
            .0;
        assert_eq!(game.tulip_deck, plain.tulip_deck);
        let mut expected = game_tulip_bubble::initial_track(&mut GameRng::for_entry(seed, 0));
        let mut counts = [0; 3];
        for tulip in game.next_shipment.iter().chain(
            game.new_arrivals
                .iter()
                .chain(&game.just_sold)
                .map(|slot| &slot.tulip),
        ) {
            counts[tulip.colour().index()] += 1;
        }
        expected.market_response(counts);
        expected.apply_event(game.event_history[0].effect());
        assert_eq!(game.track, expected, "seed {index}");
    }
}

// ---------------------------------------------------------------- T11, E5

/// §9 T11 (FAQ Q1): three financed tulips leave no marker; a buy-back frees one.
#[test]
fn t11_faq_q1_three_financed_cards() {
    let mut game = game(4);
    game.phase = Phase::BidPlacement {
        pass: 1,
        placer: BOB,
    };
    game.new_arrivals = slots(&["YC1#1", "YC2#1"]);
    game.players[1].cash = 12;
    finance(&mut game, BOB, &[("RB1#1", 5), ("WB1#1", 9), ("YB1#1", 14)]);
    finish(&mut game);
    assert_eq!(game.markers_available(BOB), 0);
    reject(&game, BOB, bids(&["YC1#1"]), "no-markers-available");
    play(&mut game, BOB, buy_back("WB1#1"));
    assert_eq!(cash(&game, BOB), 3);
    assert_eq!(game.players[1].concealed, vec![t("WB1#1")]);
    assert_eq!(game.markers_available(BOB), 1);
    reject(&game, BOB, buy_back("YB1#1"), "insufficient-cash");
    play(&mut game, BOB, bids(&["YC1#1"]));
    assert_eq!(game.markers_available(BOB), 0);
}

/// §9 E5: placement limits per pass and per markers left.
#[test]
fn e5_placement_limits() {
    let mut game = game(4);
    game.phase = Phase::BidPlacement {
        pass: 1,
        placer: ANDY,
    };
    game.new_arrivals = slots(&["YC1#1", "YC2#1", "YC3#1"]);
    finance(&mut game, ANDY, &[("RB1#1", 50), ("WB1#1", 50)]);
    finish(&mut game);
    play(&mut game, ANDY, bids(&["YC1#1"]));
    play(&mut game, BOB, bids(&[]));
    play(&mut game, CHARLES, bids(&[]));
    play(&mut game, DENNIS, bids(&[]));
    // Andy has no marker left: only the empty list.
    assert_eq!(
        game.legal_actions(ANDY),
        vec![game_core::LegalAction::action(bids(&[]))]
    );
    reject(&game, ANDY, bids(&["YC2#1"]), "no-markers-available");
    play(&mut game, ANDY, bids(&[]));
    // Bob placed nothing in pass 1 but may place only one card in pass 2.
    reject(&game, BOB, bids(&["YC2#1", "YC3#1"]), "too-many-markers");
    play(&mut game, BOB, bids(&["YC2#1"]));
}

// ---------------------------------------------------------------- T12, E7, E11

/// §9 T12 (FAQ Q2): the only +20 collector is sold to, and its stack stays empty.
#[test]
fn t12_faq_q2_empty_collector_stack() {
    let mut game = game(4);
    game.track = Track::new(3, 1, 2);
    game.phase = Phase::Selling { seller: ANDY };
    conceal(&mut game, ANDY, &["RA#1", "RB1#2", "RB2#1"]);
    finish(&mut game);
    let before = game.collector_stacks.clone();
    play(
        &mut game,
        ANDY,
        to_collector(Collector::Nobleman, &["RA#1", "RB1#2", "RB2#1"]),
    );
    assert_eq!(cash(&game, ANDY), 20 + 49);
    assert!(game.collector_stacks[2].is_empty());
    assert_eq!(game.view(Viewer::Spectator).collector_stacks[2].top, None);
    assert_eq!(game.collector_stacks[..2], before[..2]);
    reject(
        &game,
        ANDY,
        to_collector(Collector::Nobleman, &["RA#1", "RB1#2", "RB2#1"]),
        "collector-unavailable",
    );
}

/// §9 E7: the collector predicates.
#[test]
fn e7_collector_validation() {
    let set = |ids: [&str; 3]| ids.map(t);
    assert!(Collector::Scholar.accepts(set(["RC2#1", "WC2#1", "YC2#1"])));
    assert!(!Collector::Scholar.accepts(set(["RC2#1", "WC2#1", "YC3#1"])));
    assert!(Collector::Scholar.accepts(set(["RA#1", "WA#1", "YA#1"])));
    assert!(Collector::Clergyman.accepts(set(["WB1#1", "WB1#2", "WB2#1"])));
    assert!(Collector::FairLady.accepts(set(["YB1#1", "YB2#1", "YC3#1"])));
    assert!(!Collector::FairLady.accepts(set(["YB1#1", "YB1#2", "YC3#1"])));
    assert!(Collector::Madame.accepts(set(["RB1#1", "WB2#1", "YB1#1"])));
    assert!(Collector::TavernOwner.accepts(set(["RC1#1", "WC1#1", "YC3#1"])));
    assert!(Collector::YoungMan.accepts(set(["RC1#1", "RC1#2", "RC3#1"])));
    assert!(!Collector::Servant.accepts(set(["RC1#1", "RC1#2", "RC3#1"])));
    // Through the action: a wrong set and a financed card.
    let mut game = game(4);
    game.phase = Phase::Selling { seller: ANDY };
    game.collector_stacks[0] = vec![
        Collector::Servant,
        Collector::Scholar,
        Collector::YoungMan,
        Collector::TavernOwner,
    ];
    conceal(&mut game, ANDY, &["RC1#1", "RC2#1", "WC3#1"]);
    finance(&mut game, ANDY, &[("RC3#1", 3)]);
    finish(&mut game);
    reject(
        &game,
        ANDY,
        to_collector(Collector::Servant, &["RC1#1", "RC2#1", "WC3#1"]),
        "invalid-set",
    );
    reject(
        &game,
        ANDY,
        to_collector(Collector::Servant, &["RC1#1", "RC2#1"]),
        "invalid-set",
    );
    reject(
        &game,
        ANDY,
        to_collector(Collector::Servant, &["RC1#1", "RC2#1", "RC3#1"]),
        "financed-to-collector",
    );
    reject(
        &game,
        ANDY,
        to_collector(Collector::Scholar, &["RC1#1", "WC1#1", "YC1#1"]),
        "collector-unavailable",
    );
}

/// §9 E11: sell, buy back, then use the bought-back tulip for a collector in one turn.
#[test]
fn e11_sell_buy_back_then_collector() {
    let mut game = game(4);
    game.track = Track::new(2, 3, 4);
    game.phase = Phase::Selling { seller: CHARLES };
    game.start_player = CHARLES;
    game.collector_stacks[0] = vec![
        Collector::Servant,
        Collector::Scholar,
        Collector::YoungMan,
        Collector::TavernOwner,
    ];
    game.players[2].cash = 1;
    finance(&mut game, CHARLES, &[("RC3#2", 4)]);
    conceal(&mut game, CHARLES, &["RC1#1", "RC2#1", "RB2#1"]);
    finish(&mut game);
    let servant = || to_collector(Collector::Servant, &["RC1#1", "RC2#1", "RC3#2"]);
    reject(&game, CHARLES, servant(), "financed-to-collector");
    reject(&game, CHARLES, buy_back("RC3#2"), "insufficient-cash");
    play(&mut game, CHARLES, sell("RB2#1"));
    assert_eq!(cash(&game, CHARLES), 6);
    play(&mut game, CHARLES, buy_back("RC3#2"));
    assert_eq!(cash(&game, CHARLES), 2);
    play(&mut game, CHARLES, servant());
    assert_eq!(cash(&game, CHARLES), 21);
}

// ---------------------------------------------------------------- E2, E10, E14

/// §9 E2: a financed tulip may be sold below its loan only if cash covers the difference.
#[test]
fn e2_financed_sale_at_a_loss() {
    let mut game = game(4);
    game.track = Track::new(1, 2, 3);
    game.phase = Phase::Selling { seller: BOB };
    game.start_player = BOB;
    finance(&mut game, BOB, &[("YA#1", 18)]);
    game.players[1].cash = 2;
    finish(&mut game);
    reject(&game, BOB, sell("YA#1"), "insufficient-cash");
    game.players[1].cash = 3;
    play(&mut game, BOB, sell("YA#1"));
    assert_eq!(cash(&game, BOB), 0);
    assert_eq!(game.markers_available(BOB), 3);
}

/// §9 E10 (§7.2): with the EVIL option a financed tulip must be bought back before sale.
#[test]
fn e10_evil_leverage() {
    let mut game = game(4);
    game.options.evil_leverage = true;
    game.track = Track::new(1, 2, 3);
    game.phase = Phase::Selling { seller: BOB };
    game.start_player = BOB;
    finance(&mut game, BOB, &[("YA#1", 10)]);
    game.players[1].cash = 12;
    finish(&mut game);
    reject(&game, BOB, sell("YA#1"), "financed-sale-forbidden");
    assert!(!game
        .legal_actions(BOB)
        .contains(&game_core::LegalAction::action(sell("YA#1"))));
    play(&mut game, BOB, buy_back("YA#1"));
    play(&mut game, BOB, sell("YA#1"));
    assert_eq!(cash(&game, BOB), 12 - 10 + 15);
}

/// §9 E14: a seat with nothing to sell still ends its turn explicitly.
#[test]
fn e14_explicit_empty_turns() {
    let mut game = game(4);
    game.phase = Phase::Selling { seller: ANDY };
    finish(&mut game);
    play(&mut game, ANDY, Action::EndSellingTurn {});
    assert_eq!(game.phase, Phase::Selling { seller: BOB });
    assert_eq!(
        game.legal_actions(BOB),
        vec![game_core::LegalAction::action(Action::EndSellingTurn {})]
    );
    assert_eq!(game.waiting_on(), SeatSet::only(BOB));
}

// ---------------------------------------------------------------- E4

/// The Black Tulip window of round 5 with the cash of E4.
fn e4_position(cash: [i64; 4]) -> TulipBubble {
    let mut game = game(4);
    game.round = 5;
    game.phase = Phase::BlackTulipWindow {
        submitted: SeatSet::EMPTY,
        claims: SeatSet::EMPTY,
    };
    for (player, cash) in game.players.iter_mut().zip(cash) {
        player.cash = cash;
    }
    finish(&mut game);
    game
}

/// §9 E4: claims need more than 120 and no loans; only claimants win; ties share.
#[test]
fn e4_black_tulip_eligibility() {
    let mut game = e4_position([121, 150, 120, 200]);
    finance(&mut game, BOB, &[("RB1#1", 20)]);
    finish(&mut game);
    reject(&game, CHARLES, claim(true), "not-eligible");
    reject(&game, BOB, claim(true), "not-eligible");
    play(&mut game, BOB, buy_back("RB1#1"));
    assert_eq!(cash(&game, BOB), 130);
    play(&mut game, BOB, claim(true));
    reject(&game, BOB, claim(false), "already-committed");
    // Sealed: the others do not see Bob's decision.
    let view = game.view(Viewer::Seat(ANDY));
    assert!(matches!(
        view.phase,
        game_tulip_bubble::PhaseView::BlackTulipWindow {
            your_claim: None,
            ..
        }
    ));
    let view = game.view(Viewer::Seat(BOB));
    assert!(matches!(
        view.phase,
        game_tulip_bubble::PhaseView::BlackTulipWindow {
            your_claim: Some(true),
            ..
        }
    ));
    play(&mut game, ANDY, claim(true));
    play(&mut game, DENNIS, claim(false));
    play(&mut game, CHARLES, claim(false));
    let outcome = game.outcome().expect("the game is over");
    assert_eq!(outcome.reason, "black_tulip");
    assert_eq!(outcome.winners, SeatSet::only(BOB));
    assert_eq!(outcome.ranks, vec![2, 1, 2, 2]);
    assert!(!game.black_tulip_available);
    assert!(matches!(
        game.phase,
        Phase::GameOver {
            reason: EndReason::BlackTulip,
            ..
        }
    ));
    // Variant: a tie shares the victory.
    let mut game = e4_position([130, 130, 120, 200]);
    play(&mut game, ANDY, claim(true));
    play(&mut game, BOB, claim(true));
    play(&mut game, CHARLES, claim(false));
    play(&mut game, DENNIS, claim(false));
    assert_eq!(
        game.outcome().expect("over").winners,
        [ANDY, BOB].into_iter().collect()
    );
}

// ---------------------------------------------------------------- E6

/// §9 E6: the shipment reshuffles the discard pile mid-draw, or stays short.
#[test]
fn e6_deck_exhaustion() {
    for (deck, discard, expected_ns, expected_deck) in [(2, 10, 5, 7), (0, 3, 3, 0)] {
        let mut game = game(3);
        game.phase = Phase::BidPlacement {
            pass: 2,
            placer: CHARLES,
        };
        let mut all: Vec<Tulip> = Tulip::all().collect();
        game.next_shipment = all.drain(..5).collect();
        game.tulip_deck = all.drain(..deck).collect();
        game.tulip_discard = all.drain(..discard).collect();
        let share = all.len() / 3 + 1;
        for player in &mut game.players {
            let take = share.min(all.len());
            player.concealed = all.drain(..take).collect();
        }
        let old_ns = game.next_shipment.clone();
        let top_of_deck = game.tulip_deck.clone();
        let events = play(&mut game, CHARLES, bids(&[]));
        assert_eq!(
            game.new_arrivals
                .iter()
                .map(|slot| slot.tulip)
                .collect::<Vec<_>>(),
            old_ns
        );
        assert_eq!(game.next_shipment.len(), expected_ns);
        assert_eq!(game.next_shipment[..deck], top_of_deck[..]);
        assert_eq!(game.tulip_deck.len(), expected_deck);
        assert!(game.tulip_discard.is_empty());
        assert!(events.iter().any(|event| matches!(
            event,
            Event::ShipmentArrived {
                reshuffled: true,
                ..
            }
        )));
    }
}

// ---------------------------------------------------------------- error codes, wire format

/// §4.11: the codes not exercised by a scenario above.
#[test]
fn remaining_error_codes() {
    let mut game = game(4);
    game.phase = Phase::Selling { seller: ANDY };
    game.new_arrivals = slots(&["YC1#1"]);
    conceal(&mut game, ANDY, &["RC1#1"]);
    finance(&mut game, BOB, &[("WC1#1", 3)]);
    finish(&mut game);
    reject(&game, ANDY, bids(&[]), "wrong-phase");
    reject(&game, ANDY, sell("ZZ#9"), "unknown-card");
    reject(&game, ANDY, sell("WC1#1"), "not-owned");
    reject(&game, BOB, sell("RC1#1"), "not-your-turn");
    reject(&game, ANDY, buy_back("RC1#1"), "not-financed");
    reject(&game, ANDY, buy_back("??"), "unknown-card");
    game.phase = Phase::BidPlacement {
        pass: 1,
        placer: ANDY,
    };
    reject(&game, ANDY, bids(&["YC1#1", "YC1#1"]), "duplicate-card");
    reject(&game, ANDY, bids(&["XX"]), "unknown-card");
    reject(&game, ANDY, bids(&["RC1#1"]), "card-not-biddable");
    // Every code is kebab-case and distinct.
    use game_tulip_bubble::Error as E;
    let errors = [
        E::GameOver,
        E::WrongPhase,
        E::NotYourTurn,
        E::AlreadyCommitted,
        E::UnknownCard(String::new()),
        E::NotOwned(String::new()),
        E::NotFinanced(String::new()),
        E::InsufficientCash {
            needed: 1,
            available: 0,
        },
        E::FinancedSaleForbidden,
        E::FinancedToCollector(String::new()),
        E::CollectorUnavailable(Collector::Servant),
        E::CollectorLimit,
        E::InvalidSet(Collector::Servant),
        E::TooManyMarkers { limit: 1 },
        E::NoMarkersAvailable { available: 0 },
        E::DuplicateCard(String::new()),
        E::CardNotBiddable(String::new()),
        E::AlreadyMarked(String::new()),
        E::BidTooLow { minimum: 1 },
        E::BidTooHigh { maximum: 1 },
        E::NotEligible,
        E::CashNotAllowed { price: 1 },
    ];
    let mut codes: Vec<&str> = errors.iter().map(|error| error.code()).collect();
    assert!(codes
        .iter()
        .all(|code| code.chars().all(|c| c.is_ascii_lowercase() || c == '-')));
    codes.sort();
    codes.dedup();
    assert_eq!(codes.len(), 22);
}

/// §4.12: the JSON shapes of the actions.
#[test]
fn wire_format() {
    let cases = [
        (sell("YA#1"), r#"{"type":"sell_to_market","tulip":"YA#1"}"#),
        (
            to_collector(Collector::Servant, &["RC1#1", "RC2#1", "RC3#1"]),
            r#"{"type":"sell_to_collector","collector":"SERVANT","tulips":["RC1#1","RC2#1","RC3#1"]}"#,
        ),
        (buy_back("WA#1"), r#"{"type":"buy_back","tulip":"WA#1"}"#),
        (Action::EndSellingTurn {}, r#"{"type":"end_selling_turn"}"#),
        (
            claim(false),
            r#"{"type":"black_tulip_decision","claim":false}"#,
        ),
        (
            bids(&["YB1#1", "WB1#1"]),
            r#"{"type":"place_bids","cards":["YB1#1","WB1#1"]}"#,
        ),
        (bid(11), r#"{"type":"auction_bid","amount":11}"#),
        (Action::AuctionPass {}, r#"{"type":"auction_pass"}"#),
        (
            pay(PaymentMethod::Finance),
            r#"{"type":"choose_payment","method":"finance"}"#,
        ),
    ];
    for (action, json) in cases {
        assert_eq!(serde_json::to_string(&action).unwrap(), json);
        assert_eq!(serde_json::from_str::<Action>(json).unwrap(), action);
    }
    assert!(serde_json::from_str::<Action>(r#"{"type":"auction_pass","seat":1}"#).is_err());
    assert!(serde_json::from_str::<Options>(r#"{"evil":true}"#).is_err());
    let options: Options = serde_json::from_str("{}").unwrap();
    assert_eq!(options, Options::default());
}

/// §1.7 S4 and §1.8: the event deck has BUST among its bottom three, and setup checks its
/// options.
#[test]
fn setup_shape() {
    let mut positions = [0u32; 10];
    for index in 0..300u32 {
        let mut seed = [0u8; 32];
        seed[..4].copy_from_slice(&index.to_le_bytes());
        let n_seats = 3 + (index % 3) as u8;
        let game = TulipBubble::setup(
            n_seats,
            &Options::default(),
            &mut GameRng::for_entry(seed, 0),
        )
        .unwrap()
        .0;
        let per_area = usize::from(n_seats) + 2;
        assert_eq!(game.next_shipment.len(), per_area);
        assert_eq!(game.new_arrivals.len(), per_area);
        assert_eq!(game.just_sold.len(), per_area);
        assert_eq!(game.tulip_deck.len(), 51 - 3 * per_area);
        assert_eq!(game.event_deck.len(), 9);
        assert_ne!(game.event_history[0], EventCard::BUST);
        let bust = game
            .event_deck
            .iter()
            .position(|&card| card == EventCard::BUST)
            .unwrap();
        positions[bust + 1] += 1;
        assert!(game.players.iter().all(|player| player.cash == 20));
        assert_eq!(
            game.phase,
            Phase::BidPlacement {
                pass: 1,
                placer: game.start_player
            }
        );
        assert_eq!(
            game.collector_stacks
                .iter()
                .map(Vec::len)
                .collect::<Vec<_>>(),
            vec![4, 3, 1]
        );
    }
    // BUST is at deck position 8, 9 or 10 (7, 8 or 9 after the setup event), roughly evenly.
    assert!(positions[..7].iter().all(|&count| count == 0));
    assert!(
        positions[7..].iter().all(|&count| count > 60),
        "{positions:?}"
    );
    let mut rng = GameRng::for_entry([1; 32], 0);
    assert!(TulipBubble::setup(6, &Options::default(), &mut rng).is_err());
    let bad = Options {
        a_price_low: [0, 10],
        ..Options::default()
    };
    assert_eq!(
        TulipBubble::setup(4, &bad, &mut rng).unwrap_err().code(),
        "invalid-options"
    );
    let bad = Options {
        start_player: Some(Seat(3)),
        ..Options::default()
    };
    assert!(TulipBubble::setup(3, &bad, &mut rng).is_err());
}

/// §7 and I-12: the numeric decisions D-3, D-4 and D-8 are options.
#[test]
fn numeric_options() {
    let options = Options {
        starting_cash: 35,
        black_tulip_threshold: 30,
        bid_cap: 50,
        ..Options::default()
    };
    let game = TulipBubble::setup(3, &options, &mut GameRng::for_entry([3; 32], 0))
        .unwrap()
        .0;
    assert!(game.players.iter().all(|player| player.cash == 35));
    // D-4 with a threshold of 30: 31 may claim, 30 may not.
    let mut game = e4_position([31, 30, 0, 0]);
    game.options = options.clone();
    play(&mut game, ANDY, claim(true));
    reject(&game, BOB, claim(true), "not-eligible");
    // D-8 with a cap of 50.
    let mut game = auction_position(4, Track::new(1, 2, 3), "YB1#1", &[ANDY, BOB], 20);
    game.options = options;
    reject(&game, ANDY, bid(51), "bid-too-high");
    play(&mut game, ANDY, bid(50));
    assert_eq!(
        game.legal_actions(BOB),
        vec![game_core::LegalAction::action(Action::AuctionPass {})]
    );
    for bad in [
        Options {
            starting_cash: -1,
            ..Options::default()
        },
        Options {
            bid_cap: 0,
            ..Options::default()
        },
        Options {
            black_tulip_threshold: -5,
            ..Options::default()
        },
        Options {
            bid_cap: i64::MAX,
            ..Options::default()
        },
        Options {
            a_price_low: [1, i64::MAX],
            ..Options::default()
        },
    ] {
        let error = TulipBubble::setup(4, &bad, &mut GameRng::for_entry([3; 32], 0)).unwrap_err();
        assert_eq!(error.code(), "invalid-options");
    }
}

/// Setup logs, all public: `game_dealt` (the market as dealt, the track before any move, the
/// collectors on top, the start player), the opening `market_response` when it is on, and the
/// setup `market_event` with the track it leaves.
#[test]
fn setup_logs_the_deal() {
    use game_core::Visibility;
    use game_tulip_bubble::Event;
    for opening_market_response in [false, true] {
        let options = Options {
            opening_market_response,
            ..Options::default()
        };
        let (game, events) =
            TulipBubble::setup(4, &options, &mut GameRng::for_entry([5; 32], 0)).unwrap();
        assert!(events
            .iter()
            .all(|logged| logged.visibility == Visibility::Public));
        let Event::GameDealt {
            next_shipment,
            new_arrivals,
            just_sold,
            collectors,
            start_player,
            ..
        } = &events[0].event
        else {
            panic!("setup opens with game_dealt: {events:?}");
        };
        assert_eq!(*next_shipment, game.next_shipment);
        let tulips = |slots: &[game_tulip_bubble::Slot]| -> Vec<_> {
            slots.iter().map(|slot| slot.tulip).collect()
        };
        assert_eq!(*new_arrivals, tulips(&game.new_arrivals));
        assert_eq!(*just_sold, tulips(&game.just_sold));
        let tops: Vec<_> = game
            .collector_stacks
            .iter()
            .map(|stack| stack.first().copied())
            .collect();
        assert_eq!(*collectors, tops);
        assert_eq!(*start_player, game.start_player);
        assert_eq!(
            matches!(events[1].event, Event::MarketResponse { .. }),
            opening_market_response
        );
        assert_eq!(
            events.last().unwrap().event,
            Event::MarketEvent {
                round: 1,
                card: game.event_history[0],
                track: game.track,
            }
        );
    }
}
