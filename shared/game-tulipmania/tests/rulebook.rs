//! The worked scenarios of spec §8 (S1–S20 with their sub-scenarios), one test each, plus a
//! test for every error code of spec §4.0 and for the option shapes.
//!
//! Positions follow the §8 conventions through `game_tulipmania::scenario`: T4 = Ann, Bill,
//! Charles, Dave; Bill current, Ann priority, phase `sell_choice`, deck exhausted, every
//! marker on r0c1 (ƒ50), ƒ700 each, one tulip of each colour each, stock 5.

use game_core::{Game, GameRng, Logged, RuleError, Seat, SeatSet, Viewer, Visibility};
use game_tulipmania::event::{Event, RevealedCard};
use game_tulipmania::pieces::{Counts, DiscardReason, DiscardedBuyer};
use game_tulipmania::rules::apply;
use game_tulipmania::scenario::{
    balance_buyers, burst_colour, table, table_with, ANN, BILL, CHARLES, DAVE, EVE,
};
use game_tulipmania::{
    Action, BoardOption, Card, Colour, EndReason, IdleRoundRule, IllegalCardPolicy, Options, Phase,
    SpaceSpec, Tulipmania,
};
// The error type is `Error` now; this alias keeps the message assertion below as it was.
use game_tulipmania::Error as TulipError;

const P: Colour = Colour::Purple;
const Y: Colour = Colour::Yellow;
const O: Colour = Colour::Orange;
const B: Colour = Colour::Blue;

fn act(game: &mut Tulipmania, seat: Seat, action: Action) -> Vec<Logged<Event>> {
    apply(game, seat, action)
        .unwrap_or_else(|error| panic!("{action:?} by {seat} was refused: {error}"))
}

/// Applies an action that must be refused with `code`, and checks that nothing changed.
fn refused(game: &mut Tulipmania, seat: Seat, action: Action, code: &str) {
    let before = game.clone();
    let error = apply(game, seat, action).expect_err("the action must be refused");
    assert_eq!(error.code(), code, "{error}");
    assert!(*game == before, "a refused action changed the state");
}

fn sell(colour: Colour) -> Action {
    Action::SellTulip { colour }
}

fn commit(card: Card) -> Action {
    Action::CommitCard { card }
}

/// Bill sells `colour`, then the others commit `cards` in the order given.
fn sale(game: &mut Tulipmania, colour: Colour, cards: &[(Seat, Card)]) -> Vec<Logged<Event>> {
    let mut log = act(game, game.current_player, sell(colour));
    for &(seat, card) in cards {
        log.extend(act(game, seat, commit(card)));
    }
    log
}

fn counts(cards: &[Colour]) -> Counts {
    let mut counts = [0; 5];
    for card in cards {
        counts[card.index()] += 1;
    }
    counts
}

fn total_money(game: &Tulipmania) -> i64 {
    game.cash.iter().sum::<i64>() + game.bank
}

/// S1 (§8): T4, O at r2c1, Bill holds 2 O.
fn s1_table() -> Tulipmania {
    let mut game = table(4);
    game.set_marker(O, "r2c1");
    game.tulips[BILL.index()][O.index()] = 2;
    game.stock[O.index()] = 4;
    game
}

fn public_events(log: &[Logged<Event>]) -> Vec<&Event> {
    log.iter()
        .filter(|logged| logged.visibility == Visibility::Public)
        .map(|logged| &logged.event)
        .collect()
}

/// §8 S1 "Purchase": Ann's purchase card wins; she pays Bill 250 and priority passes to Dave.
#[test]
fn s1_purchase() {
    let mut game = s1_table();
    sale(
        &mut game,
        O,
        &[
            (ANN, Card::Purchase),
            (CHARLES, Card::Pass),
            (DAVE, Card::Pass),
        ],
    );
    assert_eq!(game.cash, vec![450, 950, 700, 700]);
    assert_eq!(game.bank, 97_200);
    assert_eq!(game.tulips[ANN.index()][O.index()], 2);
    assert_eq!(game.tulips[BILL.index()][O.index()], 1);
    assert_eq!(game.marker_id(O), Some("r2c2"));
    assert_eq!(game.price(O), Some(375));
    assert_eq!(game.priority_holder, DAVE);
    assert_eq!(game.phase, Phase::Purchase);
    assert_eq!(game.current_player, BILL);
    let buys: Vec<Action> = game
        .legal_actions(BILL)
        .into_iter()
        .map(|entry| match entry {
            game_core::LegalAction::Action { action } => action,
            game_core::LegalAction::Schema { .. } => unreachable!(),
        })
        .collect();
    assert_eq!(
        buys,
        vec![
            Action::BuyTulip { colour: P },
            Action::BuyTulip { colour: Y },
            Action::BuyTulip { colour: B },
            Action::SkipPurchase {}
        ]
    );
}

/// §8 S2 "Speculate": Ann pays v(r3c1) = 750 and the price jumps to r4c1 (1000).
#[test]
fn s2_speculate() {
    let mut game = s1_table();
    game.set_cash(ANN, 1000);
    assert_eq!(game.bank, 96_900);
    sale(
        &mut game,
        O,
        &[
            (ANN, Card::Speculate),
            (CHARLES, Card::Pass),
            (DAVE, Card::Pass),
        ],
    );
    assert_eq!(game.cash[ANN.index()], 250);
    assert_eq!(game.cash[BILL.index()], 1450);
    assert_eq!(game.tulips[ANN.index()][O.index()], 2);
    assert_eq!(game.marker_id(O), Some("r4c1"));
    assert_eq!(game.price(O), Some(1000));
    assert_eq!(game.priority_holder, DAVE);
}

/// §8 S3 "Purchase by proxy": Ann spends an O buyer; the bank pays Bill 250; O to the stock.
#[test]
fn s3_purchase_by_proxy() {
    let mut game = s1_table();
    game.set_buyers(ANN, &[O, Y, B]);
    balance_buyers(&mut game);
    let stock_before = game.stock[O.index()];
    let discards_before = game.buyer_discard.len();
    sale(
        &mut game,
        O,
        &[
            (ANN, Card::PurchaseByProxy),
            (CHARLES, Card::Pass),
            (DAVE, Card::Pass),
        ],
    );
    assert_eq!(game.buyers[ANN.index()], counts(&[Y, B]));
    assert_eq!(
        game.buyer_discard[discards_before..],
        [DiscardedBuyer {
            colour: O,
            reason: DiscardReason::Proxy
        }]
    );
    assert_eq!(game.stock[O.index()], stock_before + 1);
    assert_eq!(game.bank, 96_950);
    assert_eq!(game.cash, vec![700, 950, 700, 700]);
    assert_eq!(game.marker_id(O), Some("r2c2"));
    assert_eq!(game.priority_holder, DAVE);
}

/// §8 S4 "Speculate by proxy": Ann spends two O buyers; the bank pays Bill 750.
#[test]
fn s4_speculate_by_proxy() {
    let mut game = s1_table();
    game.set_buyers(ANN, &[O, O, Y]);
    balance_buyers(&mut game);
    let stock_before = game.stock[O.index()];
    let discards_before = game.buyer_discard.len();
    sale(
        &mut game,
        O,
        &[
            (ANN, Card::SpeculateByProxy),
            (CHARLES, Card::Pass),
            (DAVE, Card::Pass),
        ],
    );
    assert_eq!(game.buyers[ANN.index()], counts(&[Y]));
    let proxy = DiscardedBuyer {
        colour: O,
        reason: DiscardReason::Proxy,
    };
    assert_eq!(game.buyer_discard[discards_before..], [proxy, proxy]);
    assert_eq!(game.stock[O.index()], stock_before + 1);
    assert_eq!(game.bank, 96_450);
    assert_eq!(game.cash[BILL.index()], 1450);
    assert_eq!(game.marker_id(O), Some("r4c1"));
    assert_eq!(game.priority_holder, DAVE);
}

/// §8 S5 "All players passed": the seller gets the seller-card phase, passes, and the bank
/// pays v(r1c1) = 150; the price falls to r0c1; priority does not move.
#[test]
fn s5_all_players_passed() {
    let mut game = s1_table();
    let stock_before = game.stock[O.index()];
    sale(
        &mut game,
        O,
        &[(ANN, Card::Pass), (CHARLES, Card::Pass), (DAVE, Card::Pass)],
    );
    assert!(matches!(game.phase, Phase::SellerCard { .. }));
    assert_eq!(game.acting_seats(), SeatSet::only(BILL));
    act(&mut game, BILL, Action::PlaySellerCard { card: Card::Pass });
    assert_eq!(game.stock[O.index()], stock_before + 1);
    assert_eq!(game.bank, 97_050);
    assert_eq!(game.cash[BILL.index()], 850);
    assert_eq!(game.marker_id(O), Some("r0c1"));
    assert_eq!(game.priority_holder, ANN);
}

/// §8 S6 "Purchase a tulip": the sold colour may not be bought; Y at 250 can.
#[test]
fn s6_purchase_a_tulip() {
    let mut game = table(4);
    game.phase = Phase::Purchase;
    game.did_sell = true;
    game.sold_colour_this_turn = Some(O);
    game.set_marker(Y, "r2c1");
    refused(
        &mut game,
        BILL,
        Action::BuyTulip { colour: O },
        "same-colour-as-sold",
    );
    act(&mut game, BILL, Action::BuyTulip { colour: Y });
    assert_eq!(game.cash[BILL.index()], 450);
    assert_eq!(game.bank, 97_450);
    assert_eq!(game.stock[Y.index()], 4);
    assert_eq!(game.tulips[BILL.index()][Y.index()], 2);
    assert_eq!(game.marker_id(Y), Some("r2c2"));
    // TURN_END ran: Charles's turn starts.
    assert_eq!(game.current_player, CHARLES);
    assert_eq!(game.phase, Phase::SellChoice);
}

/// §8 S7 "Bubble burst": the rulebook's burst example, step by step.
#[test]
fn s7_bubble_burst() {
    let mut game = table(4);
    game.priority_holder = CHARLES;
    game.set_marker(O, "r4c1");
    for (seat, cash) in [(ANN, 5000), (BILL, 1000), (CHARLES, 2000), (DAVE, 500)] {
        game.set_cash(seat, cash);
    }
    assert_eq!(game.bank, 91_500);
    for (seat, tulips, buyers) in [(ANN, 1, 1), (BILL, 2, 3), (CHARLES, 4, 4), (DAVE, 2, 0)] {
        game.tulips[seat.index()][O.index()] = tulips;
        game.buyers[seat.index()][O.index()] = buyers;
    }
    game.stock[O.index()] = 0;
    balance_buyers(&mut game);
    let log = sale(
        &mut game,
        O,
        &[
            (ANN, Card::Speculate),
            (CHARLES, Card::Pass),
            (DAVE, Card::Pass),
        ],
    );
    let events = public_events(&log);
    // 1. Ann pays Bill 3000 and the marker lands on r6c1.
    assert!(events.contains(&&Event::SaleResolved {
        seller: BILL,
        colour: O,
        winner: Some(ANN),
        card: Card::Speculate,
        price: 3000,
        paid_by: game_tulipmania::event::Payer::Winner,
        tulip_to: Some(ANN),
        from: "r4c1".into(),
        to: "r6c1".into(),
    }));
    assert!(events.contains(&&Event::BurstStarted {
        colour: O,
        speculative: true,
        card_player: Some(ANN),
        final_burst: false
    }));
    // 2. The penalty: Bill and Charles, not Ann (exempt) nor Dave (no O buyer).
    let penalties: Vec<Seat> = events
        .iter()
        .filter_map(|event| match event {
            Event::BuyersDiscarded {
                seat,
                reason: DiscardReason::BurstPenalty,
                count: 1,
                ..
            } => Some(*seat),
            _ => None,
        })
        .collect();
    assert_eq!(penalties, vec![BILL, CHARLES]);
    // 3–7. The sell-off steps.
    let steps: Vec<(bool, Vec<Seat>, i64, String)> = events
        .iter()
        .filter_map(|event| match event {
            Event::TulipsSoldOff {
                pairs,
                seats,
                price,
                to,
                ..
            } => Some((*pairs, seats.clone(), *price, to.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        steps,
        vec![
            (true, vec![ANN, BILL, CHARLES], 4000, "r5c1".to_owned()),
            (true, vec![CHARLES], 3000, "r4c1".to_owned()),
            (true, vec![CHARLES], 1000, "r3c1".to_owned()),
            (false, vec![ANN, CHARLES, DAVE], 750, "r2c1".to_owned()),
            (false, vec![DAVE], 250, "r1c1".to_owned()),
        ]
    );
    // 8. Clean-up: Bill's last O buyer goes; O is removed.
    assert!(events.contains(&&Event::BuyersDiscarded {
        seat: BILL,
        colour: O,
        count: 1,
        reason: DiscardReason::BurstCleanup
    }));
    assert_eq!(game.burst_order, vec![O]);
    assert!(!game.is_live(O));
    assert!(game.buyers.iter().all(|hand| hand[O.index()] == 0));
    assert!(game.tulips.iter().all(|hand| hand[O.index()] == 0));
    assert_eq!(game.cash, vec![6750, 8000, 10_750, 1500]);
    assert_eq!(game.bank, 73_000);
    assert_eq!(total_money(&game), 100_000);
    assert_eq!(game.priority_holder, CHARLES);
    // DRAW_STEP for Bill; the deck is exhausted, so his purchase phase.
    assert_eq!(game.current_player, BILL);
    assert_eq!(game.phase, Phase::Purchase);
}

fn s8_table(priority: Seat) -> Tulipmania {
    let mut game = table(5);
    game.priority_holder = priority;
    game.set_marker(O, "r2c1");
    for seat in Seat::all(5) {
        game.set_cash(seat, 1000);
    }
    assert_eq!(game.bank, 95_000);
    game
}

/// §8 S8a: a tie without the priority holder goes to the first tied player anticlockwise
/// from him (Eve → Dave → Charles).
#[test]
fn s8a_tie_without_priority_holder() {
    let mut game = s8_table(EVE);
    sale(
        &mut game,
        O,
        &[
            (ANN, Card::Speculate),
            (CHARLES, Card::Speculate),
            (DAVE, Card::Purchase),
            (EVE, Card::Pass),
        ],
    );
    assert_eq!(game.cash[CHARLES.index()], 250);
    assert_eq!(game.cash[BILL.index()], 1750);
    assert_eq!(game.tulips[CHARLES.index()][O.index()], 2);
    assert_eq!(game.marker_id(O), Some("r4c1"));
    assert_eq!(game.priority_holder, EVE);
}

/// §8 S8b: the priority holder wins a tie he is in, and passes priority to his right.
#[test]
fn s8b_priority_holder_in_tie() {
    let mut game = s8_table(EVE);
    sale(
        &mut game,
        O,
        &[
            (ANN, Card::Speculate),
            (CHARLES, Card::Speculate),
            (DAVE, Card::Purchase),
            (EVE, Card::Speculate),
        ],
    );
    assert_eq!(game.cash[EVE.index()], 250);
    assert_eq!(game.cash[BILL.index()], 1750);
    assert_eq!(game.priority_holder, DAVE);
}

/// §8 S8c: the anticlockwise search skips the seller (Charles → Bill → Ann).
#[test]
fn s8c_tie_search_skips_seller() {
    let mut game = s8_table(CHARLES);
    sale(
        &mut game,
        O,
        &[
            (ANN, Card::Purchase),
            (DAVE, Card::Purchase),
            (CHARLES, Card::Pass),
            (EVE, Card::Pass),
        ],
    );
    assert_eq!(game.cash[ANN.index()], 750);
    assert_eq!(game.cash[BILL.index()], 1250);
    assert_eq!(game.tulips[ANN.index()][O.index()], 2);
    assert_eq!(game.priority_holder, CHARLES);
}

fn s9_table(dave_cash: i64) -> Tulipmania {
    let mut game = table(4);
    game.set_marker(O, "r2c1");
    game.set_cash(ANN, 600);
    game.set_buyers(CHARLES, &[O, P]);
    game.set_cash(DAVE, dave_cash);
    balance_buyers(&mut game);
    game
}

fn replacements(log: &[Logged<Event>]) -> Vec<(Seat, Card)> {
    log.iter()
        .filter_map(|logged| match logged.event {
            Event::IllegalCardReplaced { seat, card } => Some((seat, card)),
            _ => None,
        })
        .collect()
}

/// §8 S9a: illegal winning cards are replaced one at a time until a legal winner is found.
#[test]
fn s9a_illegal_cards_replaced() {
    let mut game = s9_table(300);
    let log = sale(
        &mut game,
        O,
        &[
            (ANN, Card::Speculate),
            (CHARLES, Card::SpeculateByProxy),
            (DAVE, Card::Purchase),
        ],
    );
    assert_eq!(
        replacements(&log),
        vec![(ANN, Card::Speculate), (CHARLES, Card::SpeculateByProxy)]
    );
    assert_eq!(game.cash[DAVE.index()], 50);
    assert_eq!(game.cash[BILL.index()], 950);
    assert_eq!(game.tulips[DAVE.index()][O.index()], 2);
    assert_eq!(game.marker_id(O), Some("r2c2"));
    assert_eq!(game.priority_holder, ANN);
    assert_eq!(game.buyers[CHARLES.index()], counts(&[O, P]));
}

/// §8 S9b: when every card is replaced the seller gets his card and plays purchase by proxy.
#[test]
fn s9b_all_replaced_seller_plays_proxy() {
    let mut game = s9_table(200);
    game.set_buyers(BILL, &[O]);
    balance_buyers(&mut game);
    let stock_before = game.stock[O.index()];
    let log = sale(
        &mut game,
        O,
        &[
            (ANN, Card::Speculate),
            (CHARLES, Card::SpeculateByProxy),
            (DAVE, Card::Purchase),
        ],
    );
    assert_eq!(replacements(&log).len(), 3);
    assert!(matches!(game.phase, Phase::SellerCard { .. }));
    act(
        &mut game,
        BILL,
        Action::PlaySellerCard {
            card: Card::PurchaseByProxy,
        },
    );
    assert_eq!(game.buyers[BILL.index()], [0; 5]);
    assert_eq!(game.stock[O.index()], stock_before + 1);
    assert_eq!(game.cash[BILL.index()], 950);
    assert_eq!(game.marker_id(O), Some("r2c2"));
}

/// §8 S9c: a losing illegal card is never checked, so no replacement event names Charles.
#[test]
fn s9c_losing_illegal_card_not_revealed() {
    let mut game = s9_table(300);
    game.set_cash(ANN, 1000);
    let log = sale(
        &mut game,
        O,
        &[
            (ANN, Card::Speculate),
            (CHARLES, Card::SpeculateByProxy),
            (DAVE, Card::Pass),
        ],
    );
    assert!(replacements(&log).is_empty());
    assert_eq!(game.cash[ANN.index()], 250);
    assert_eq!(game.tulips[ANN.index()][O.index()], 2);
}

/// §8 S9d: under `reject_on_commit` the illegal commit is refused and Ann must commit again.
#[test]
fn s9d_reject_on_commit() {
    let options = Options {
        illegal_card_policy: IllegalCardPolicy::RejectOnCommit,
        ..Options::default()
    };
    let mut game = table_with(4, &options);
    game.set_marker(O, "r2c1");
    game.set_cash(ANN, 600);
    act(&mut game, BILL, sell(O));
    refused(&mut game, ANN, commit(Card::Speculate), "illegal-card");
    assert!(game.acting_seats().contains(ANN));
    let listed: Vec<_> = game.legal_actions(ANN);
    assert_eq!(
        listed.len(),
        2,
        "only purchase and pass are legal for Ann: {listed:?}"
    );
    act(&mut game, ANN, commit(Card::Purchase));
}

/// §8 S10: a burst caused by speculate-by-proxy; the penalty spares only the card player.
#[test]
fn s10_burst_by_speculate_by_proxy() {
    let mut game = table(4);
    game.current_player = DAVE;
    game.priority_holder = CHARLES;
    game.set_marker(Y, "r4c1");
    for seat in Seat::all(4) {
        game.set_cash(seat, 2000);
    }
    assert_eq!(game.bank, 92_000);
    for (seat, tulips, buyers) in [(ANN, 1, 3), (BILL, 2, 1), (CHARLES, 1, 2), (DAVE, 2, 1)] {
        game.tulips[seat.index()][Y.index()] = tulips;
        game.buyers[seat.index()][Y.index()] = buyers;
    }
    game.stock[Y.index()] = 3;
    balance_buyers(&mut game);
    let log = sale(
        &mut game,
        Y,
        &[
            (ANN, Card::SpeculateByProxy),
            (BILL, Card::Purchase),
            (CHARLES, Card::Pass),
        ],
    );
    let events = public_events(&log);
    let penalties: Vec<Seat> = events
        .iter()
        .filter_map(|event| match event {
            Event::BuyersDiscarded {
                seat,
                reason: DiscardReason::BurstPenalty,
                ..
            } => Some(*seat),
            _ => None,
        })
        .collect();
    assert_eq!(penalties, vec![BILL, CHARLES, DAVE]);
    let steps: Vec<(bool, Vec<Seat>, i64)> = events
        .iter()
        .filter_map(|event| match event {
            Event::TulipsSoldOff {
                pairs,
                seats,
                price,
                ..
            } => Some((*pairs, seats.clone(), *price)),
            _ => None,
        })
        .collect();
    assert_eq!(
        steps,
        vec![
            (true, vec![ANN, CHARLES], 4000),
            (false, vec![BILL, DAVE], 3000),
            (false, vec![BILL], 1000)
        ]
    );
    assert!(events.contains(&&Event::ColourRemoved {
        colour: Y,
        stock_removed: 4
    }));
    assert_eq!(game.cash, vec![6000, 6000, 6000, 8000]);
    assert_eq!(game.bank, 74_000);
    assert_eq!(game.live_colours().count(), 3);
    assert_eq!(game.current_player, DAVE);
    assert_eq!(game.phase, Phase::Purchase);
}

/// §8 S11: the burst of Y leaves only O live, which bursts at once without a penalty.
#[test]
fn s11_last_colour_ends_the_game() {
    let mut game = table(3);
    burst_colour(&mut game, P);
    game.current_player = CHARLES;
    game.priority_holder = BILL;
    game.set_marker(Y, "r4c1");
    game.set_marker(O, "r2c2");
    for (seat, cash) in [(ANN, 4000), (BILL, 1200), (CHARLES, 900)] {
        game.set_cash(seat, cash);
    }
    assert_eq!(game.bank, 93_900);
    for (seat, yellow, orange, orange_buyers) in
        [(ANN, 0, 2, 1), (BILL, 0, 1, 0), (CHARLES, 1, 3, 2)]
    {
        game.tulips[seat.index()][Y.index()] = yellow;
        game.tulips[seat.index()][O.index()] = orange;
        game.buyers[seat.index()] = [0; 5];
        game.buyers[seat.index()][O.index()] = orange_buyers;
    }
    game.stock[Y.index()] = 7;
    game.stock[O.index()] = 2;
    balance_buyers(&mut game);
    let log = sale(&mut game, Y, &[(ANN, Card::Speculate), (BILL, Card::Pass)]);
    let events = public_events(&log);
    assert!(events.contains(&&Event::BurstStarted {
        colour: O,
        speculative: false,
        card_player: None,
        final_burst: true
    }));
    let steps: Vec<(Colour, bool, Vec<Seat>, i64)> = events
        .iter()
        .filter_map(|event| match event {
            Event::TulipsSoldOff {
                colour,
                pairs,
                seats,
                price,
                ..
            } => Some((*colour, *pairs, seats.clone(), *price)),
            _ => None,
        })
        .collect();
    assert_eq!(
        steps,
        vec![
            (Y, false, vec![ANN], 4000),
            (O, true, vec![ANN, CHARLES], 375),
            (O, true, vec![CHARLES], 225),
            (O, false, vec![ANN, BILL, CHARLES], 75),
        ]
    );
    assert_eq!(
        game.phase,
        Phase::GameOver {
            reason: EndReason::FinalBurst
        }
    );
    assert_eq!(game.cash, vec![5450, 1275, 4575]);
    assert_eq!(game.bank, 88_700);
    let outcome = game.outcome().expect("the game is over");
    assert_eq!(outcome.ranks, vec![1, 3, 2]);
    assert_eq!(outcome.winners, SeatSet::only(ANN));
    assert_eq!(outcome.reason, "final_burst");
    assert!(game.to_act().is_empty());
    assert_eq!(game.burst_order, vec![P, Y, O]);
}

/// §8 S12 position: T4 with P burst, deck [P, O, Y], face up [Y, B], reserve [P, O, Y, B];
/// Ann current (priority Dave), phase `draw`.
fn s12_table(reserve: Vec<Colour>) -> Tulipmania {
    let mut game = table(4);
    burst_colour(&mut game, P);
    game.current_player = ANN;
    game.priority_holder = DAVE;
    game.deck_exhausted = false;
    game.deck = vec![P, O, Y];
    game.face_up = vec![Y, B];
    game.reserve = reserve;
    game.draws = 12 - 3;
    game.phase = Phase::Draw;
    balance_buyers(&mut game);
    game
}

/// §8 S12a: taking a face-up card; the burst-colour refill and reserve card are discarded.
#[test]
fn s12a_face_up_draw_with_reserve_replacement() {
    let mut game = s12_table(vec![P, O, Y, B]);
    let discards_before = game.buyer_discard.len();
    act(&mut game, ANN, Action::DrawBuyer { face_up: Some(0) });
    assert_eq!(game.buyers[ANN.index()], counts(&[Y]));
    assert_eq!(game.face_up, vec![O, B]);
    assert_eq!(game.deck, vec![O, Y]);
    assert_eq!(game.reserve, vec![Y, B]);
    let discard = DiscardedBuyer {
        colour: P,
        reason: DiscardReason::BurstColourDraw,
    };
    assert_eq!(game.buyer_discard[discards_before..], [discard, discard]);
}

/// §8 S12b: a deck draw of a burst colour; the reserve replacement is private to Ann.
#[test]
fn s12b_deck_draw_with_reserve_replacement() {
    let mut game = s12_table(vec![P, O, Y, B]);
    let log = act(&mut game, ANN, Action::DrawBuyer { face_up: None });
    assert_eq!(game.buyers[ANN.index()], counts(&[O]));
    assert_eq!(game.face_up, vec![Y, B]);
    assert_eq!(game.deck.len(), 2);
    assert_eq!(game.reserve.len(), 2);
    let private = Logged {
        visibility: Visibility::Seats(SeatSet::only(ANN)),
        event: Event::ReplacementReceived {
            seat: ANN,
            received: true,
            colour: Some(O),
        },
    };
    let redacted = Logged {
        visibility: Visibility::AllExcept(SeatSet::only(ANN)),
        event: Event::ReplacementReceived {
            seat: ANN,
            received: true,
            colour: None,
        },
    };
    assert!(log.contains(&private) && log.contains(&redacted));
    // Nobody else sees the colour: only Ann's view lists her buyers.
    assert_eq!(
        game.view(Viewer::Seat(BILL)).players[ANN.index()].buyers,
        None
    );
    assert_eq!(
        game.view(Viewer::Seat(ANN)).players[ANN.index()]
            .buyers
            .as_ref()
            .map(|hand| hand[&O]),
        Some(1)
    );
}

/// §8 S12c: the reserve fails; Ann gets nothing but has drawn, so the turn is not idle.
#[test]
fn s12c_reserve_runs_out() {
    let mut game = s12_table(vec![P]);
    act(&mut game, ANN, Action::DrawBuyer { face_up: None });
    assert_eq!(game.buyer_count(ANN), 0);
    assert!(game.did_draw);
    assert!(game.reserve.is_empty());
    assert_eq!(game.phase, Phase::Purchase);
    let log = act(&mut game, ANN, Action::SkipPurchase {});
    assert!(log.iter().any(|logged| matches!(
        logged.event,
        Event::TurnEnded {
            idle: false,
            idle_turns: 0,
            ..
        }
    )));
}

/// §8 S12d: a face-up card of a bursting colour is replaced from the reserve, or its slot is
/// removed when the reserve is empty.
#[test]
fn s12d_face_up_refill_after_burst() {
    for (reserve, expected) in [(vec![], vec![B]), (vec![Y], vec![Y, B])] {
        let mut game = s12_table(reserve);
        game.deck = vec![Y, Y];
        game.face_up = vec![O, B];
        game.current_player = BILL;
        game.priority_holder = ANN;
        game.phase = Phase::Purchase;
        game.set_marker(O, "r4c3");
        game.set_cash(BILL, 2000);
        balance_buyers(&mut game);
        act(&mut game, BILL, Action::BuyTulip { colour: O });
        assert!(!game.is_live(O));
        assert_eq!(game.face_up, expected);
    }
}

/// §8 S13: after everybody passed, the seller may play a proxy card but not speculate.
#[test]
fn s13_seller_plays_after_all_pass() {
    let mut game = table(4);
    game.set_marker(O, "r2c1");
    game.set_buyers(BILL, &[O, O, P]);
    balance_buyers(&mut game);
    let stock_before = game.stock[O.index()];
    sale(
        &mut game,
        O,
        &[(ANN, Card::Pass), (CHARLES, Card::Pass), (DAVE, Card::Pass)],
    );
    refused(
        &mut game,
        BILL,
        Action::PlaySellerCard {
            card: Card::Speculate,
        },
        "seller-card-not-allowed",
    );
    act(
        &mut game,
        BILL,
        Action::PlaySellerCard {
            card: Card::SpeculateByProxy,
        },
    );
    assert_eq!(game.buyers[BILL.index()], counts(&[P]));
    assert_eq!(game.stock[O.index()], stock_before + 1);
    assert_eq!(game.cash[BILL.index()], 1450);
    assert_eq!(game.marker_id(O), Some("r4c1"));
    assert_eq!(game.priority_holder, ANN);
}

/// §8 S13b: the seller's speculate-by-proxy bursts O; everybody else pays the penalty.
#[test]
fn s13b_seller_proxy_burst() {
    let mut game = table(4);
    game.set_marker(O, "r4c1");
    game.set_buyers(BILL, &[O, O, P]);
    game.set_buyers(ANN, &[O]);
    game.set_buyers(CHARLES, &[O, O]);
    balance_buyers(&mut game);
    sale(
        &mut game,
        O,
        &[(ANN, Card::Pass), (CHARLES, Card::Pass), (DAVE, Card::Pass)],
    );
    let log = act(
        &mut game,
        BILL,
        Action::PlaySellerCard {
            card: Card::SpeculateByProxy,
        },
    );
    let events = public_events(&log);
    assert!(events.contains(&&Event::BurstStarted {
        colour: O,
        speculative: true,
        card_player: Some(BILL),
        final_burst: false
    }));
    let penalties: Vec<Seat> = events
        .iter()
        .filter_map(|event| match event {
            Event::BuyersDiscarded {
                seat,
                reason: DiscardReason::BurstPenalty,
                ..
            } => Some(*seat),
            _ => None,
        })
        .collect();
    assert_eq!(penalties, vec![ANN, CHARLES]);
    // Bill sold his only O tulip, so the bank's 3000 is all he gets from O.
    assert_eq!(game.cash[BILL.index()], 3700);
    assert_eq!(total_money(&game), 100_000);
}

/// §8 S14: a cheap tulip sold to nobody pays the current price and moves left; ƒ25 stays.
#[test]
fn s14_cheap_tulip_all_pass() {
    let mut game = table(4);
    let stock_before = game.stock[O.index()];
    sale(
        &mut game,
        O,
        &[(ANN, Card::Pass), (CHARLES, Card::Pass), (DAVE, Card::Pass)],
    );
    act(&mut game, BILL, Action::PlaySellerCard { card: Card::Pass });
    assert_eq!(game.cash[BILL.index()], 750);
    assert_eq!(game.stock[O.index()], stock_before + 1);
    assert_eq!(game.marker_id(O), Some("r0c0"));

    let mut game = table(4);
    game.set_marker(O, "r0c0");
    sale(
        &mut game,
        O,
        &[(ANN, Card::Pass), (CHARLES, Card::Pass), (DAVE, Card::Pass)],
    );
    act(&mut game, BILL, Action::PlaySellerCard { card: Card::Pass });
    assert_eq!(game.cash[BILL.index()], 725);
    assert_eq!(game.marker_id(O), Some("r0c0"));
}

/// §8 S15a: P-a may hand priority to the current player mid-turn; P-b then leaves it.
#[test]
fn s15a_priority_to_current_player() {
    let mut game = table(4);
    game.priority_holder = CHARLES;
    game.set_marker(O, "r2c1");
    sale(
        &mut game,
        O,
        &[
            (ANN, Card::Purchase),
            (CHARLES, Card::Purchase),
            (DAVE, Card::Pass),
        ],
    );
    assert_eq!(game.cash[CHARLES.index()], 450);
    assert_eq!(game.priority_holder, BILL);
    act(&mut game, BILL, Action::SkipPurchase {});
    assert_eq!(game.current_player, CHARLES);
    assert_eq!(game.priority_holder, BILL);
}

/// §8 S15b: P-b moves priority off the new current player.
#[test]
fn s15b_priority_moves_at_turn_end() {
    let mut game = table(4);
    game.priority_holder = CHARLES;
    game.set_marker(O, "r2c1");
    sale(
        &mut game,
        O,
        &[
            (DAVE, Card::Purchase),
            (ANN, Card::Pass),
            (CHARLES, Card::Pass),
        ],
    );
    assert_eq!(game.priority_holder, CHARLES);
    act(&mut game, BILL, Action::SkipPurchase {});
    assert_eq!(game.current_player, CHARLES);
    assert_eq!(game.priority_holder, BILL);
}

/// §8 S16: a purchase reaching r6c0 bursts Y without a penalty.
#[test]
fn s16_purchase_burst_no_penalty() {
    let mut game = table(4);
    game.phase = Phase::Purchase;
    game.set_marker(Y, "r4c3");
    game.set_cash(BILL, 2700);
    assert_eq!(game.bank, 95_200);
    for (seat, tulips) in [(ANN, 1), (BILL, 0), (CHARLES, 0), (DAVE, 2)] {
        game.tulips[seat.index()][Y.index()] = tulips;
    }
    game.stock[Y.index()] = 6;
    game.set_buyers(ANN, &[Y]);
    balance_buyers(&mut game);
    let log = act(&mut game, BILL, Action::BuyTulip { colour: Y });
    let events = public_events(&log);
    assert!(events.contains(&&Event::BurstStarted {
        colour: Y,
        speculative: false,
        card_player: None,
        final_burst: false
    }));
    assert!(!events.iter().any(|event| matches!(
        event,
        Event::BuyersDiscarded {
            reason: DiscardReason::BurstPenalty,
            ..
        }
    )));
    let steps: Vec<(bool, Vec<Seat>, i64)> = events
        .iter()
        .filter_map(|event| match event {
            Event::TulipsSoldOff {
                pairs,
                seats,
                price,
                ..
            } => Some((*pairs, seats.clone(), *price)),
            _ => None,
        })
        .collect();
    assert_eq!(
        steps,
        vec![
            (true, vec![ANN], 3000),
            (false, vec![BILL, DAVE], 2250),
            (false, vec![DAVE], 750)
        ]
    );
    assert_eq!(game.cash, vec![3700, 2950, 700, 3700]);
    assert_eq!(game.bank, 88_950);
    assert_eq!(game.current_player, CHARLES);
}

fn s17_table() -> Tulipmania {
    let mut game = table(3);
    burst_colour(&mut game, Y);
    game.current_player = ANN;
    game.priority_holder = CHARLES;
    game.set_marker(P, "r2c1");
    for seat in Seat::all(3) {
        game.tulips[seat.index()] = [0; 5];
    }
    game.tulips[ANN.index()][P.index()] = 1;
    game.tulips[BILL.index()][O.index()] = 1;
    game.stock[P.index()] = 7;
    game.stock[O.index()] = 7;
    game.draws = 9;
    balance_buyers(&mut game);
    game
}

/// §8 S17: three idle turns in a row at three players end the game by liquidation.
#[test]
fn s17_all_players_decline() {
    let mut game = s17_table();
    act(&mut game, ANN, Action::SkipSale {});
    act(&mut game, ANN, Action::SkipPurchase {});
    assert_eq!(game.idle_turns, 1);
    act(&mut game, BILL, Action::SkipSale {});
    act(&mut game, BILL, Action::SkipPurchase {});
    assert_eq!(game.idle_turns, 2);
    // Charles holds no tulip: his sale is skipped by the system.
    assert_eq!(
        (game.current_player, &game.phase),
        (CHARLES, &Phase::Purchase)
    );
    let log = act(&mut game, CHARLES, Action::SkipPurchase {});
    assert!(log.iter().any(|logged| logged.event
        == Event::Liquidated {
            payouts: vec![250, 50, 0]
        }));
    assert_eq!(
        game.phase,
        Phase::GameOver {
            reason: EndReason::AllDecline
        }
    );
    assert_eq!(game.cash, vec![950, 750, 700]);
    assert_eq!(
        game.outcome().map(|outcome| outcome.reason),
        Some("all_decline".to_owned())
    );
}

/// §8 S17 variant: a purchase resets the idle counter and play continues.
#[test]
fn s17_variant_purchase_resets_idle_counter() {
    let mut game = s17_table();
    for seat in [ANN, BILL] {
        act(&mut game, seat, Action::SkipSale {});
        act(&mut game, seat, Action::SkipPurchase {});
    }
    act(&mut game, CHARLES, Action::BuyTulip { colour: O });
    assert_eq!(game.idle_turns, 0);
    assert_eq!(
        (game.current_player, &game.phase),
        (ANN, &Phase::SellChoice)
    );
}

/// D13 with `idle_round_rule = anchored`: the game ends only when the idle run covers a
/// whole round that starts with the first player.
#[test]
fn d13_anchored_idle_round() {
    let options = Options {
        idle_round_rule: IdleRoundRule::Anchored,
        ..Options::default()
    };
    let mut game = s17_table();
    game.options = options;
    game.first_player = BILL;
    for seat in [ANN, BILL] {
        act(&mut game, seat, Action::SkipSale {});
        act(&mut game, seat, Action::SkipPurchase {});
    }
    act(&mut game, CHARLES, Action::SkipPurchase {});
    // Three idle turns, but the card is back with Ann, not the first player Bill.
    assert_eq!(game.idle_turns, 3);
    assert_eq!(game.current_player, ANN);
    act(&mut game, ANN, Action::SkipSale {});
    act(&mut game, ANN, Action::SkipPurchase {});
    assert_eq!(
        game.phase,
        Phase::GameOver {
            reason: EndReason::AllDecline
        }
    );
    assert_eq!(game.idle_turns, 4);
}

/// §8 S18: the draw that empties the deck discards the face-up row.
#[test]
fn s18_buyer_deck_exhaustion() {
    let mut game = table(3);
    game.current_player = CHARLES;
    game.priority_holder = BILL;
    game.deck_exhausted = false;
    game.deck = vec![Y];
    game.face_up = vec![P, O];
    game.draws = 8;
    game.phase = Phase::Draw;
    balance_buyers(&mut game);
    let discards_before = game.buyer_discard.len();
    let log = act(&mut game, CHARLES, Action::DrawBuyer { face_up: Some(1) });
    assert_eq!(game.buyers[CHARLES.index()], counts(&[O]));
    assert!(log.iter().any(|logged| logged.event
        == Event::DeckExhausted {
            discarded: vec![P, Y]
        }));
    let exhaustion = |colour| DiscardedBuyer {
        colour,
        reason: DiscardReason::Exhaustion,
    };
    assert_eq!(
        game.buyer_discard[discards_before..],
        [exhaustion(P), exhaustion(Y)]
    );
    assert!(game.face_up.is_empty() && game.deck.is_empty());
    assert!(game.deck_exhausted);
    assert_eq!(game.draws, 9);
    // From now on the draw step is skipped: Charles is in his purchase phase.
    assert_eq!(game.phase, Phase::Purchase);
    act(&mut game, CHARLES, Action::SkipPurchase {});
    act(&mut game, ANN, sell(P));
    for seat in [BILL, CHARLES] {
        act(&mut game, seat, commit(Card::Pass));
    }
    act(&mut game, ANN, Action::PlaySellerCard { card: Card::Pass });
    assert_eq!(game.phase, Phase::Purchase);
}

/// §8 S19: the obligation to sell, and who may commit.
#[test]
fn s19_obligation_to_sell() {
    // 0 tulips: the sale is skipped by the system.
    let mut game = table(4);
    game.current_player = ANN;
    game.priority_holder = DAVE;
    game.phase = Phase::Purchase;
    game.tulips[BILL.index()] = [0; 5];
    game.stock = [6; 5];
    game.stock[Colour::Red.index()] = 0;
    act(&mut game, ANN, Action::SkipPurchase {});
    assert_eq!(game.current_player, BILL);
    assert_eq!(game.phase, Phase::Purchase);
    assert!(!game.did_sell);

    // Exactly 1 tulip: the sale may be skipped.
    let mut game = table(4);
    game.tulips[BILL.index()] = [0, 0, 1, 0, 0];
    act(&mut game, BILL, Action::SkipSale {});
    assert_eq!(game.phase, Phase::Purchase);

    // 2 tulips: selling is compulsory.
    let mut game = table(4);
    game.tulips[BILL.index()] = [1, 0, 1, 0, 0];
    refused(&mut game, BILL, Action::SkipSale {}, "must-sell");

    // During COMMIT the seller may not commit, and nobody commits twice.
    let mut game = table(4);
    act(&mut game, BILL, sell(O));
    refused(&mut game, BILL, commit(Card::Pass), "not-your-turn");
    act(&mut game, ANN, commit(Card::Pass));
    refused(&mut game, ANN, commit(Card::Purchase), "already-committed");
}

/// §8 S20: the setup vector for five players with seat 2 first.
#[test]
fn s20_setup_vector() {
    let options = Options {
        first_player: Some(2),
        ..Options::default()
    };
    let game = Tulipmania::setup(5, &options, &mut GameRng::for_entry([7; 32], 0))
        .expect("setup")
        .0;
    for seat in Seat::all(5) {
        assert_eq!(game.cash[seat.index()], 700);
        assert_eq!(game.tulips[seat.index()], [1; 5]);
        assert_eq!(game.buyer_count(seat), 3);
    }
    assert_eq!(game.stock, [5; 5]);
    for colour in Colour::ALL {
        assert_eq!(game.marker_id(colour), Some("r0c1"));
    }
    assert_eq!(game.face_up.len(), 3);
    assert_eq!(game.deck.len(), 15);
    assert_eq!(game.reserve.len(), 7);
    assert_eq!(game.bank, 96_500);
    assert_eq!(game.current_player, CHARLES);
    assert_eq!(game.priority_holder, BILL);
    assert_eq!(game.phase, Phase::SellChoice);
    refused(&mut game.clone(), CHARLES, Action::SkipSale {}, "must-sell");
}

/// §5: the deal is the canonical list shuffled by GameRng, dealt round-robin from the first
/// player, then the deck (first k face up), then the reserve.
#[test]
fn deal_order_is_normative() {
    let options = Options {
        first_player: Some(1),
        ..Options::default()
    };
    let game = Tulipmania::setup(3, &options, &mut GameRng::for_entry([9; 32], 0))
        .expect("setup")
        .0;
    let mut cards: Vec<Colour> = [P, Y, O].iter().flat_map(|&colour| [colour; 8]).collect();
    GameRng::for_entry([9; 32], 0).shuffle(&mut cards);
    let mut hands = [[0u8; 5]; 3];
    for (i, card) in cards[..9].iter().enumerate() {
        hands[(1 + i) % 3][card.index()] += 1;
    }
    assert_eq!(game.buyers, hands.to_vec());
    assert_eq!(game.face_up, cards[9..11].to_vec());
    assert_eq!(game.deck, cards[11..20].to_vec());
    assert_eq!(game.reserve, cards[20..].to_vec());
}

/// §4.0: the remaining error codes, each with the state left unchanged.
#[test]
fn error_codes() {
    // game-over comes first, whoever asks.
    let mut game = table(3);
    game.phase = Phase::GameOver {
        reason: EndReason::TurnCap,
    };
    refused(&mut game, ANN, Action::SkipPurchase {}, "game-over");
    // not-your-turn, wrong-phase, colour-not-live, no-such-tulip.
    let mut game = table(4);
    refused(&mut game, ANN, sell(O), "not-your-turn");
    refused(&mut game, Seat(9), sell(O), "not-your-turn");
    refused(
        &mut game,
        BILL,
        Action::BuyTulip { colour: O },
        "wrong-phase",
    );
    refused(&mut game, BILL, commit(Card::Pass), "wrong-phase");
    refused(&mut game, BILL, sell(Colour::Red), "colour-not-live");
    burst_colour(&mut game, P);
    refused(&mut game, BILL, sell(P), "colour-not-live");
    game.tulips[BILL.index()][O.index()] = 0;
    refused(&mut game, BILL, sell(O), "no-such-tulip");
    // bad-face-up-index.
    let mut game = s12_table(vec![]);
    refused(
        &mut game,
        ANN,
        Action::DrawBuyer { face_up: Some(2) },
        "bad-face-up-index",
    );
    // no-stock, insufficient-cash.
    let mut game = table(4);
    game.phase = Phase::Purchase;
    game.stock[O.index()] = 0;
    refused(&mut game, BILL, Action::BuyTulip { colour: O }, "no-stock");
    game.set_marker(Y, "r4c3");
    refused(
        &mut game,
        BILL,
        Action::BuyTulip { colour: Y },
        "insufficient-cash",
    );
    refused(
        &mut game,
        BILL,
        Action::BuyTulip {
            colour: Colour::Red,
        },
        "colour-not-live",
    );
    // illegal-card for the seller under reject_on_commit.
    let options = Options {
        illegal_card_policy: IllegalCardPolicy::RejectOnCommit,
        ..Options::default()
    };
    let mut game = table_with(4, &options);
    act(&mut game, BILL, sell(O));
    for seat in [ANN, CHARLES, DAVE] {
        act(&mut game, seat, commit(Card::Pass));
    }
    refused(
        &mut game,
        BILL,
        Action::PlaySellerCard {
            card: Card::PurchaseByProxy,
        },
        "illegal-card",
    );
    refused(
        &mut game,
        BILL,
        Action::PlaySellerCard {
            card: Card::Purchase,
        },
        "seller-card-not-allowed",
    );
    act(&mut game, BILL, Action::PlaySellerCard { card: Card::Pass });
    // Messages never name hidden things; a sample.
    assert_eq!(
        TulipError::IllegalCard(Card::Speculate).to_string(),
        "speculate is not legal for you in this sale"
    );
}

/// §4.1.5: an illegal seller card under the default policy becomes a public pass.
#[test]
fn illegal_seller_card_becomes_pass() {
    let mut game = s1_table();
    sale(
        &mut game,
        O,
        &[(ANN, Card::Pass), (CHARLES, Card::Pass), (DAVE, Card::Pass)],
    );
    let log = act(
        &mut game,
        BILL,
        Action::PlaySellerCard {
            card: Card::SpeculateByProxy,
        },
    );
    assert_eq!(replacements(&log), vec![(BILL, Card::SpeculateByProxy)]);
    assert_eq!(game.cash[BILL.index()], 850);
    assert_eq!(game.marker_id(O), Some("r0c1"));
}

/// §3.1, §2 row 24: during COMMIT everybody sees who committed, only the author his card,
/// and the commit action itself is visible to its author only.
#[test]
fn commit_is_sealed() {
    let mut game = s1_table();
    act(&mut game, BILL, sell(O));
    let log = act(&mut game, ANN, commit(Card::Speculate));
    assert_eq!(
        log,
        vec![Logged::public(Event::CardCommitted { seat: ANN })]
    );
    assert_eq!(game.to_act(), [CHARLES, DAVE].into_iter().collect());
    let seen_by_ann = game.view(Viewer::Seat(ANN));
    assert_eq!(
        seen_by_ann.players[ANN.index()].sealed_card,
        Some(Card::Speculate)
    );
    for viewer in [Viewer::Seat(BILL), Viewer::Seat(CHARLES), Viewer::Spectator] {
        let view = game.view(viewer);
        assert!(view.players[ANN.index()].committed);
        assert_eq!(view.players[ANN.index()].sealed_card, None);
        assert_eq!(view.committed, Some(SeatSet::only(ANN)));
    }
    assert_eq!(
        Tulipmania::action_visibility(&commit(Card::Pass), ANN),
        Visibility::Seats(SeatSet::only(ANN))
    );
    let log = sale_rest(&mut game);
    assert!(log.iter().any(|logged| logged.event
        == Event::CardsRevealed {
            cards: vec![
                RevealedCard {
                    seat: ANN,
                    card: Card::Speculate
                },
                RevealedCard {
                    seat: CHARLES,
                    card: Card::Pass
                },
                RevealedCard {
                    seat: DAVE,
                    card: Card::Pass
                }
            ]
        }));
}

fn sale_rest(game: &mut Tulipmania) -> Vec<Logged<Event>> {
    let mut log = act(game, CHARLES, commit(Card::Pass));
    log.extend(act(game, DAVE, commit(Card::Pass)));
    log
}

/// §4.0: the JSON shapes of the actions.
#[test]
fn action_json_shapes() {
    let parse = |json: &str| serde_json::from_str::<Action>(json);
    assert_eq!(
        parse(r#"{"type": "sell_tulip", "colour": "orange"}"#).unwrap(),
        sell(O)
    );
    assert_eq!(
        parse(r#"{"type": "skip_sale"}"#).unwrap(),
        Action::SkipSale {}
    );
    assert_eq!(
        parse(r#"{"type": "commit_card", "card": "speculate"}"#).unwrap(),
        commit(Card::Speculate)
    );
    assert_eq!(
        parse(r#"{"type": "play_seller_card", "card": "purchase_by_proxy"}"#).unwrap(),
        Action::PlaySellerCard {
            card: Card::PurchaseByProxy
        }
    );
    assert_eq!(
        parse(r#"{"type": "draw_buyer", "face_up": null}"#).unwrap(),
        Action::DrawBuyer { face_up: None }
    );
    assert_eq!(
        parse(r#"{"type": "draw_buyer"}"#).unwrap(),
        Action::DrawBuyer { face_up: None }
    );
    assert_eq!(
        parse(r#"{"type": "draw_buyer", "face_up": 1}"#).unwrap(),
        Action::DrawBuyer { face_up: Some(1) }
    );
    assert_eq!(
        parse(r#"{"type": "buy_tulip", "colour": "yellow"}"#).unwrap(),
        Action::BuyTulip { colour: Y }
    );
    assert_eq!(
        parse(r#"{"type": "skip_purchase"}"#).unwrap(),
        Action::SkipPurchase {}
    );
    assert!(parse(r#"{"type": "sell_tulip", "colour": "black"}"#).is_err());
    assert!(parse(r#"{"type": "skip_sale", "extra": 1}"#).is_err());
    assert_eq!(
        serde_json::to_string(&commit(Card::SpeculateByProxy)).unwrap(),
        r#"{"type":"commit_card","card":"speculate_by_proxy"}"#
    );
}

/// §7.1: option defaults, shapes and validation.
#[test]
fn options_shapes_and_validation() {
    let defaults: Options = serde_json::from_str("{}").unwrap();
    assert_eq!(defaults, Options::default());
    let json = serde_json::to_value(&defaults).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "board": "reconstructed_v1", "first_player": null, "illegal_card_policy": "replace_and_reassess",
            "idle_round_rule": "sliding", "bottom_descent": "follow_left_arrow", "max_turns": null, "cash_tie": "shared"
        })
    );
    assert!(serde_json::from_str::<Options>(r#"{"colour": 1}"#).is_err());
    let mut rng = GameRng::for_entry([1; 32], 0);
    let bad_seat = Options {
        first_player: Some(3),
        ..Options::default()
    };
    assert_eq!(
        Tulipmania::setup(3, &bad_seat, &mut rng)
            .unwrap_err()
            .code(),
        "invalid-options"
    );
    assert_eq!(
        Tulipmania::setup(6, &Options::default(), &mut rng)
            .unwrap_err()
            .code(),
        "bad-seat-count"
    );
    let zero_cap = Options {
        max_turns: Some(0),
        ..Options::default()
    };
    assert_eq!(
        Tulipmania::setup(3, &zero_cap, &mut rng)
            .unwrap_err()
            .code(),
        "invalid-options"
    );

    // A replacement board equal to the default is accepted, through JSON.
    let spaces =
        game_tulipmania::board::builtin_spaces(game_tulipmania::BoardName::ReconstructedV1);
    let json = serde_json::json!({ "board": { "spaces": spaces } });
    let custom: Options = serde_json::from_value(json).unwrap();
    assert!(matches!(custom.board, BoardOption::Custom(_)));
    let game = Tulipmania::setup(4, &custom, &mut rng)
        .expect("the default table is valid")
        .0;
    assert_eq!(game.price(O), Some(50));

    // Each broken rule of §1.5.7 is refused.
    let broken = |edit: &dyn Fn(&mut Vec<SpaceSpec>)| {
        let mut spaces =
            game_tulipmania::board::builtin_spaces(game_tulipmania::BoardName::ReconstructedV1);
        edit(&mut spaces);
        let options = Options {
            board: BoardOption::Custom(game_tulipmania::board::CustomBoard { spaces }),
            ..Options::default()
        };
        Tulipmania::setup(4, &options, &mut GameRng::for_entry([1; 32], 0))
            .unwrap_err()
            .code()
    };
    assert_eq!(broken(&|spaces| spaces[0].start = true), "invalid-options"); // rule 1
    assert_eq!(
        broken(&|spaces| spaces[9].sale_via = None),
        "invalid-options"
    ); // rule 2
    assert_eq!(
        broken(&|spaces| spaces[9].purchase = Some("r2c0".into())),
        "invalid-options"
    ); // rule 3
    assert_eq!(
        broken(&|spaces| spaces[9].speculate_via = Some("r4c2".into())),
        "invalid-options"
    ); // rules 3/4
    assert_eq!(broken(&|spaces| spaces[24].value = 2900), "invalid-options"); // rule 5
    assert_eq!(
        broken(&|spaces| spaces[0].down = "r0c1".into()),
        "invalid-options"
    ); // rule 6
    assert_eq!(broken(&|spaces| spaces[4].value = 80), "invalid-options"); // rule 7
    assert_eq!(
        broken(&|spaces| spaces[4].down = "nowhere".into()),
        "invalid-options"
    );
}

/// D5 and option `bottom_descent`: a descent down column c1 reaches r0c1 (ƒ50); by default it
/// then follows the bottom row's arrow to r0c0 (ƒ25, which stays); with `stay` it stays on r0c1.
#[test]
fn d5_bottom_descent() {
    for (descent, tail) in [
        (
            game_tulipmania::BottomDescent::FollowLeftArrow,
            [50, 25, 25],
        ),
        (game_tulipmania::BottomDescent::Stay, [50, 50, 50]),
    ] {
        let options = Options {
            bottom_descent: descent,
            ..Options::default()
        };
        let mut game = table_with(4, &options);
        game.set_marker(Y, "r4c1");
        game.set_cash(ANN, 3000);
        game.tulips[ANN.index()][Y.index()] = 8;
        game.stock[Y.index()] = 0;
        let log = sale(
            &mut game,
            Y,
            &[
                (ANN, Card::Speculate),
                (CHARLES, Card::Pass),
                (DAVE, Card::Pass),
            ],
        );
        let prices: Vec<i64> = log
            .iter()
            .filter_map(|logged| match &logged.event {
                Event::TulipsSoldOff { price, .. } => Some(*price),
                _ => None,
            })
            .collect();
        let mut expected = vec![4000, 3000, 1000, 750, 250, 150];
        expected.extend(tail);
        assert_eq!(prices, expected, "{descent:?}");
    }
}

/// §1.5.5: the default board reproduces every board fact of the rulebook (B1–B10).
#[test]
fn board_facts_b1_to_b10() {
    use game_tulipmania::{Board, BoardName, BottomDescent, SpaceKind};
    let board = Board::builtin(BoardName::ReconstructedV1, BottomDescent::FollowLeftArrow);
    let at = |id: &str| board.find(id).unwrap_or_else(|| panic!("no space {id}"));
    let value = |index: u8| board.value(index);
    let space = |id: &str| board.space(at(id));
    // B1: start on 50.
    assert_eq!(
        (board.space(board.start).id.as_str(), value(board.start)),
        ("r0c1", 50)
    );
    // B2: purchase at 250 → 375.
    assert_eq!(value(space("r2c1").purchase.unwrap()), 375);
    // B3: speculate at 250 pays 750 and lands on 1000.
    assert_eq!(
        (
            value(space("r2c1").speculate_via.unwrap()),
            value(space("r2c1").speculate_to.unwrap())
        ),
        (750, 1000)
    );
    // B4: all pass at 250 pays 150 and lands on 50.
    assert_eq!(
        (
            value(space("r2c1").sale_via.unwrap()),
            value(space("r2c1").sale_to.unwrap())
        ),
        (150, 50)
    );
    // B5: speculate at 1000 pays 3000 and lands on the 4000 burst space.
    let to = space("r4c1").speculate_to.unwrap();
    assert_eq!(
        (
            value(space("r4c1").speculate_via.unwrap()),
            value(to),
            board.space(to).kind
        ),
        (3000, 4000, SpaceKind::Burst)
    );
    // B6: the descent from 4000 is 3000, 1000, 750, 250, 150.
    let mut descent = vec![value(to)];
    let mut here = to;
    for _ in 0..5 {
        here = board.space(here).down;
        descent.push(value(here));
    }
    assert_eq!(descent, vec![4000, 3000, 1000, 750, 250, 150]);
    // B7: the bottom row is 25, 50, 75, 100; all-pass moves left; 25 stays.
    let bottom: Vec<i64> = ["r0c0", "r0c1", "r0c2", "r0c3"]
        .iter()
        .map(|id| space(id).value)
        .collect();
    assert_eq!(bottom, vec![25, 50, 75, 100]);
    for (id, left) in [
        ("r0c0", "r0c0"),
        ("r0c1", "r0c0"),
        ("r0c2", "r0c1"),
        ("r0c3", "r0c2"),
    ] {
        assert_eq!(space(id).sale_to, Some(at(left)));
        assert_eq!(space(id).sale_via, None);
    }
    // B8: a purchase can make the price 3000 (r4c3 → r6c0).
    assert_eq!(value(space("r4c3").purchase.unwrap()), 3000);
    // B9, B10: every current space is below 3000; the top row is all burst.
    for space in &board.spaces {
        match space.kind {
            SpaceKind::Current => assert!(space.value < 3000),
            SpaceKind::Burst => assert!(space.id.starts_with("r6")),
            SpaceKind::Transition => {}
        }
    }
    assert!(board
        .spaces
        .iter()
        .filter(|space| space.id.starts_with("r6"))
        .all(|space| space.kind == SpaceKind::Burst));
}

/// The stored JSON of a state leaves the resolved board out and rebuilds it from the options
/// on load, for the default board and for a replacement table.
#[test]
fn state_json_rebuilds_the_board() {
    let spaces =
        game_tulipmania::board::builtin_spaces(game_tulipmania::BoardName::ReconstructedV1);
    let custom = Options {
        board: BoardOption::Custom(game_tulipmania::board::CustomBoard { spaces }),
        ..Options::default()
    };
    for options in [Options::default(), custom] {
        let game = Tulipmania::setup(4, &options, &mut GameRng::for_entry([3; 32], 0))
            .expect("setup")
            .0;
        let json = serde_json::to_value(&game).unwrap();
        assert!(json.get("board").is_none());
        let back: Tulipmania = serde_json::from_value(json).unwrap();
        assert_eq!(back, game);
    }
}

/// Setup logs the deal as log entry 0's events: the public `game_dealt`, and per seat its
/// buyer cards (colours to the seat, the count alone to everyone else).
#[test]
fn setup_logs_the_deal() {
    let (game, events) =
        Tulipmania::setup(4, &Options::default(), &mut GameRng::for_entry([7; 32], 0)).unwrap();
    assert_eq!(
        events[0],
        Logged::public(Event::GameDealt {
            first_player: game.first_player,
            face_up: game.face_up.clone(),
            deck: game.deck.len() as u32,
            reserve: game.reserve.len() as u32,
        })
    );
    for seat in Seat::all(4) {
        let view = game.view(Viewer::Seat(seat));
        let dealt: Vec<(Seat, u32, Option<_>)> = events
            .iter()
            .filter(|logged| logged.visibility.shows(Viewer::Seat(seat)))
            .filter_map(|logged| match &logged.event {
                Event::BuyersDealt {
                    seat,
                    count,
                    buyers,
                } => Some((*seat, *count, buyers.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(dealt.len(), 4, "one deal per seat");
        for (owner, count, buyers) in dealt {
            let player = &view.players[owner.index()];
            assert_eq!(count, player.buyer_count);
            assert_eq!(buyers, player.buyers, "{seat} sees only its own colours");
        }
    }
    let spectator = events
        .iter()
        .filter(|logged| logged.visibility.shows(Viewer::Spectator));
    for logged in spectator {
        if let Event::BuyersDealt { buyers, .. } = &logged.event {
            assert_eq!(*buyers, None);
        }
    }
}
