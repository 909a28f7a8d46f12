//! The log in words: exact sentences for actions and events, the private draws and their
//! redacted twins, and scenarios of spec §8 told as a player reads them.
//!
//! Names follow the §8 table: seat 0 Ann, 1 Bill, 2 Charles, 3 Dave.

use game_core::words::{check_sentence, Names};
use game_core::{Game, Logged, Seat, Viewer};
use game_tulipmania::event::Event;
use game_tulipmania::pieces::DiscardReason;
use game_tulipmania::rules::apply;
use game_tulipmania::scenario::{balance_buyers, burst_colour, table, ANN, BILL, CHARLES, DAVE};
use game_tulipmania::{Action, Card, Colour, EndReason, Phase, Tulipmania};
use std::collections::BTreeMap;

const P: Colour = Colour::Purple;
const Y: Colour = Colour::Yellow;
const O: Colour = Colour::Orange;
const B: Colour = Colour::Blue;

fn table_names() -> Vec<Option<String>> {
    ["Ann", "Bill", "Charles", "Dave"]
        .iter()
        .map(|name| Some((*name).to_string()))
        .collect()
}

fn action(action: Action, seat: Seat) -> String {
    let names = table_names();
    let sentence = Tulipmania::describe_action(&action, seat, &Names::new(&names));
    check_sentence(&sentence, &action);
    sentence
}

fn event(event: &Event) -> String {
    let names = table_names();
    let sentence = Tulipmania::describe_event(event, &Names::new(&names));
    check_sentence(&sentence, event);
    sentence
}

/// The sentences of the events of `log` that `viewer` may see, in order.
fn told(log: &[Logged<Event>], viewer: Viewer) -> Vec<String> {
    log.iter()
        .filter(|logged| logged.visibility.shows(viewer))
        .map(|logged| event(&logged.event))
        .collect()
}

fn act(game: &mut Tulipmania, seat: Seat, action: Action) -> Vec<Logged<Event>> {
    apply(game, seat, action)
        .unwrap_or_else(|error| panic!("{action:?} by {seat} was refused: {error}"))
}

#[test]
fn the_summary_is_a_few_plain_sentences() {
    let summary = Tulipmania::SUMMARY;
    check_sentence(summary, &"the summary");
    let sentences = summary.matches(". ").count() + 1;
    assert!((2..=4).contains(&sentences), "{sentences} sentences");
    assert!(summary.ends_with('.'));
    assert!(summary.contains("1637") && summary.contains("richest player wins"));
}

#[test]
fn actions_read_as_sentences() {
    assert_eq!(
        action(Action::SellTulip { colour: O }, BILL),
        "Bill offered an orange tulip for sale."
    );
    assert_eq!(
        action(Action::SkipSale {}, BILL),
        "Bill kept their only tulip and sold nothing."
    );
    assert_eq!(
        action(
            Action::CommitCard {
                card: Card::SpeculateByProxy
            },
            ANN
        ),
        "Ann secretly chose the Speculate by proxy card."
    );
    assert_eq!(
        action(Action::PlaySellerCard { card: Card::Pass }, BILL),
        "Bill passed on their own sale."
    );
    assert_eq!(
        action(
            Action::PlaySellerCard {
                card: Card::PurchaseByProxy
            },
            BILL
        ),
        "Bill played Purchase by proxy on their own sale."
    );
    assert_eq!(
        action(Action::DrawBuyer { face_up: Some(0) }, CHARLES),
        "Charles took the face-up buyer card in slot 1."
    );
    assert_eq!(
        action(Action::DrawBuyer { face_up: None }, CHARLES),
        "Charles drew a buyer card from the deck."
    );
    assert_eq!(
        action(Action::BuyTulip { colour: B }, DAVE),
        "Dave bought a blue tulip from the stockpile."
    );
    assert_eq!(
        action(Action::SkipPurchase {}, DAVE),
        "Dave bought no tulip this turn."
    );
}

/// The deal: the private hand names its colours, its twin only the count.
#[test]
fn a_dealt_hand_and_its_twin() {
    let hand: BTreeMap<Colour, u8> = [(P, 2), (Y, 0), (O, 1)].into_iter().collect();
    let private = event(&Event::BuyersDealt {
        seat: BILL,
        count: 3,
        buyers: Some(hand),
    });
    let twin = event(&Event::BuyersDealt {
        seat: BILL,
        count: 3,
        buyers: None,
    });
    assert_eq!(
        private,
        "Bill was dealt 3 buyer cards: 2 purple and 1 orange."
    );
    assert_eq!(twin, "Bill was dealt 3 buyer cards face down.");
    assert_ne!(private, twin);
    for colour in ["purple", "yellow", "orange"] {
        assert!(!twin.contains(colour), "{twin}");
    }
    assert_eq!(
        event(&Event::GameDealt {
            first_player: CHARLES,
            face_up: vec![Y, P],
            deck: 9,
            reserve: 4,
        }),
        "The cards were dealt and Charles was chosen to go first. The face-up buyer cards were \
         yellow and purple, with 9 cards left in the deck and 4 in the reserve."
    );
}

/// A deck draw: Ann reads the colour, the others read that a card was drawn.
#[test]
fn a_deck_draw_and_its_twin() {
    let private = event(&Event::BuyerDrawn {
        seat: ANN,
        face_up: None,
        colour: Some(O),
    });
    let twin = event(&Event::BuyerDrawn {
        seat: ANN,
        face_up: None,
        colour: None,
    });
    assert_eq!(private, "Ann drew an orange buyer card from the deck.");
    assert_eq!(twin, "Ann drew a buyer card from the deck.");
    assert!(!twin.contains("orange"));
    // A face-up card is public, colour and all.
    assert_eq!(
        event(&Event::BuyerDrawn {
            seat: ANN,
            face_up: Some(1),
            colour: Some(B),
        }),
        "Ann took the face-up blue buyer card from slot 2."
    );
}

/// §8 S12b: Ann draws a burst purple from the deck; the reserve's purple is discarded too
/// and its orange replaces it, which only Ann may read.
#[test]
fn s12b_the_replacement_is_told_to_ann_alone() {
    let mut game = table(4);
    burst_colour(&mut game, P);
    game.current_player = ANN;
    game.priority_holder = DAVE;
    game.deck_exhausted = false;
    game.deck = vec![P, O, Y];
    game.face_up = vec![Y, B];
    game.reserve = vec![P, O, Y, B];
    game.draws = 12 - 3;
    game.phase = Phase::Draw;
    balance_buyers(&mut game);
    let log = act(&mut game, ANN, Action::DrawBuyer { face_up: None });
    let shown = [
        "A purple buyer card came off the deck; purple had already burst, so it was shown \
         and discarded.",
        "A purple buyer card came off the reserve; purple had already burst, so it was shown \
         and discarded.",
    ];
    let ann = told(&log, Viewer::Seat(ANN));
    let bill = told(&log, Viewer::Seat(BILL));
    assert_eq!(
        ann,
        [
            shown[0],
            shown[1],
            "Ann got an orange buyer card from the reserve instead."
        ]
    );
    assert_eq!(
        bill,
        [
            shown[0],
            shown[1],
            "Ann got a buyer card from the reserve instead."
        ]
    );
    assert_eq!(told(&log, Viewer::Spectator), bill);
    assert!(bill.iter().all(|sentence| !sentence.contains("orange")));
}

/// §8 S14: a cheap orange tulip that everybody passes on, Bill included.
#[test]
fn s14_an_all_pass_sale_told() {
    let mut game = table(4);
    let mut log = act(&mut game, BILL, Action::SellTulip { colour: O });
    for seat in [ANN, CHARLES, DAVE] {
        log.extend(act(
            &mut game,
            seat,
            Action::CommitCard { card: Card::Pass },
        ));
    }
    log.extend(act(
        &mut game,
        BILL,
        Action::PlaySellerCard { card: Card::Pass },
    ));
    assert_eq!(
        told(&log, Viewer::Spectator),
        [
            "Bill put an orange tulip up for sale.",
            "Ann placed an action card face down.",
            "Charles placed an action card face down.",
            "Dave placed an action card face down.",
            "The action cards were turned over: Ann Pass, Charles Pass and Dave Pass.",
            "Everyone else passed, and Bill passed as the seller too.",
            "Nobody took Bill's orange tulip: the bank paid Bill ƒ50, the tulip went to the \
             stockpile and the orange price fell.",
        ]
    );
}

/// §8 S1-style sale won with a purchase card, and priority moving on.
#[test]
fn a_won_sale_names_buyer_price_and_direction() {
    let sentence = event(&Event::SaleResolved {
        seller: BILL,
        colour: O,
        winner: Some(ANN),
        card: Card::Purchase,
        price: 250,
        paid_by: game_tulipmania::event::Payer::Winner,
        tulip_to: Some(ANN),
        from: "r2c1".to_string(),
        to: "r2c2".to_string(),
    });
    assert_eq!(
        sentence,
        "Ann won Bill's orange tulip with Purchase: Ann paid Bill ƒ250, the tulip went to \
         Ann and the orange price rose."
    );
    assert_eq!(
        event(&Event::PriorityPassed {
            from: ANN,
            to: DAVE
        }),
        "The priority card passed from Ann to Dave."
    );
    assert_eq!(
        event(&Event::BuyersDiscarded {
            seat: CHARLES,
            colour: Y,
            count: 2,
            reason: DiscardReason::Proxy,
        }),
        "Charles gave up 2 yellow buyer cards to buy by proxy."
    );
}

/// §8 S11: Ann's speculation bursts yellow, orange is the last colour and bursts too, and
/// the game ends with Ann first.
#[test]
fn s11_the_final_burst_told() {
    let mut game = table(3);
    burst_colour(&mut game, P);
    game.current_player = CHARLES;
    game.priority_holder = BILL;
    game.set_marker(Y, "r4c1");
    game.set_marker(O, "r2c2");
    for (seat, cash) in [(ANN, 4000), (BILL, 1200), (CHARLES, 900)] {
        game.set_cash(seat, cash);
    }
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
    let mut log = act(&mut game, CHARLES, Action::SellTulip { colour: Y });
    log.extend(act(
        &mut game,
        ANN,
        Action::CommitCard {
            card: Card::Speculate,
        },
    ));
    log.extend(act(
        &mut game,
        BILL,
        Action::CommitCard { card: Card::Pass },
    ));
    let sentences = told(&log, Viewer::Spectator);
    for expected in [
        "Ann won Charles's yellow tulip with Speculate: Ann paid Charles ƒ3000, the tulip went \
         to Ann and the yellow price rose.",
        "Yellow burst on Ann's speculation; everyone else holding a yellow buyer card had \
         to give one up.",
        "Ann sold a yellow tulip to the bank for ƒ4000, and the yellow price dropped a step.",
        "Yellow left the game, along with the 7 yellow tulips in the stockpile.",
        "Orange was the last colour left, so it burst as well.",
        "Ann and Charles each sold an orange tulip together with a buyer card to the bank for \
         ƒ375, and the orange price dropped a step.",
        "Ann, Bill and Charles each sold an orange tulip to the bank for ƒ75, and the orange \
         price dropped a step.",
        "The game ended when the last colour burst. Ann won with ƒ5450, ahead of Charles with \
         ƒ4575 and Bill with ƒ1275.",
    ] {
        assert!(
            sentences.iter().any(|sentence| sentence == expected),
            "{expected:?} is not among {sentences:#?}"
        );
    }
}

#[test]
fn the_other_endings_and_a_shared_win() {
    assert_eq!(
        event(&Event::GameEnded {
            reason: EndReason::AllDecline,
            cash: vec![950, 700, 950],
            ranks: vec![1, 3, 1],
        }),
        "The game ended after a full round in which nobody traded. Ann and Charles shared the \
         win with ƒ950 each, ahead of Bill with ƒ700."
    );
    assert_eq!(
        event(&Event::Liquidated {
            payouts: vec![250, 50, 0],
        }),
        "Every remaining tulip was sold to the bank at its current price: Ann ƒ250 and Bill \
         ƒ50."
    );
    assert_eq!(
        event(&Event::TurnEnded {
            seat: ANN,
            idle: true,
            idle_turns: 2,
            current_player: BILL,
            priority_holder: ANN,
            turn_number: 7,
        }),
        "Ann ended the turn without trading (2 quiet turns in a row). Turn 7 went to Bill, \
         and Ann held the priority card."
    );
}
