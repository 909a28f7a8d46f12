//! The log in words: exact sentences for actions and events, the sealed Black Tulip
//! decision and its redacted twin, and examples of spec §9 told as a player reads them.
//!
//! Names follow the spec's examples: seat 0 Andy, 1 Bob, 2 Charles, 3 Dennis.

use game_core::words::{check_sentence, Names};
use game_core::{Game, GameRng, Logged, Seat, SeatSet, Viewer};
use game_tulip_bubble::{
    Action, CardId, Collector, Colour, EndReason, Event, EventCard, Loan, Options, PaymentMethod,
    Phase, Slot, Track, Tulip, TulipBubble,
};

const ANDY: Seat = Seat(0);
const BOB: Seat = Seat(1);
const CHARLES: Seat = Seat(2);
const DENNIS: Seat = Seat(3);

fn t(id: &str) -> Tulip {
    Tulip::parse(id).unwrap_or_else(|| panic!("bad id {id}"))
}

fn spec_names() -> Vec<Option<String>> {
    ["Andy", "Bob", "Charles", "Dennis"]
        .iter()
        .map(|name| Some((*name).to_string()))
        .collect()
}

fn action(action: Action, seat: Seat) -> String {
    let names = spec_names();
    let sentence = TulipBubble::describe_action(&action, seat, &Names::new(&names));
    check_sentence(&sentence, &action);
    sentence
}

fn event(event: &Event) -> String {
    let names = spec_names();
    let sentence = TulipBubble::describe_event(event, &Names::new(&names));
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

fn play(game: &mut TulipBubble, seat: Seat, action: Action) -> Vec<Logged<Event>> {
    game.apply(seat, action.clone(), &mut GameRng::for_entry([9; 32], 1))
        .unwrap_or_else(|error| panic!("{action:?} by {seat} refused: {error}"))
}

/// A dealt game with empty areas, start player Andy, round 2, nobody holding anything
/// (as in the crate's rulebook tests).
fn game(n_seats: u8) -> TulipBubble {
    let options = Options {
        start_player: Some(ANDY),
        ..Options::default()
    };
    let mut game = TulipBubble::setup(n_seats, &options, &mut GameRng::for_entry([7; 32], 0))
        .expect("a valid deal")
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

/// Puts every tulip that is nowhere else into the deck, so tulip conservation holds.
fn finish(game: &mut TulipBubble) {
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

#[test]
fn the_summary_is_a_few_plain_sentences() {
    let summary = TulipBubble::SUMMARY;
    check_sentence(summary, &"the summary");
    let sentences = summary.matches(". ").count() + 1;
    assert!((2..=4).contains(&sentences), "{sentences} sentences");
    assert!(summary.ends_with('.'));
    assert!(summary.contains("Black Tulip") && summary.contains("Bubble Bust"));
}

#[test]
fn actions_read_as_sentences() {
    assert_eq!(
        action(
            Action::SellToMarket {
                tulip: "WC1#1".into()
            },
            ANDY
        ),
        "Andy sold the white C1 tulip to the market."
    );
    assert_eq!(
        action(
            Action::SellToCollector {
                collector: Collector::FairLady,
                tulips: ["YB1#1", "YB2#3", "YC2#2"].map(CardId::from).to_vec(),
            },
            BOB
        ),
        "Bob sold the yellow B1, yellow B2 and yellow C2 tulips to the Fair Lady."
    );
    assert_eq!(
        action(
            Action::BuyBack {
                tulip: "RA#2".into()
            },
            CHARLES
        ),
        "Charles repaid the loan on the red A tulip."
    );
    assert_eq!(
        action(Action::EndSellingTurn {}, DENNIS),
        "Dennis finished selling."
    );
    assert_eq!(
        action(Action::PlaceBids { cards: vec![] }, ANDY),
        "Andy placed no bid markers."
    );
    assert_eq!(
        action(
            Action::PlaceBids {
                cards: vec!["WA#1".into()]
            },
            ANDY
        ),
        "Andy placed a bid marker on the white A tulip."
    );
    assert_eq!(
        action(
            Action::PlaceBids {
                cards: ["WA#1", "RB1#2", "YC3#1"].map(CardId::from).to_vec()
            },
            ANDY
        ),
        "Andy placed bid markers on the white A, red B1 and yellow C3 tulips."
    );
    assert_eq!(
        action(
            Action::PlaceBids {
                cards: ["WA#1", "nothing"].map(CardId::from).to_vec()
            },
            ANDY
        ),
        "Andy placed 2 bid markers."
    );
    assert_eq!(
        action(
            Action::SellToCollector {
                collector: Collector::Madame,
                tulips: ["YB1#1", "nothing", "YC2#2"].map(CardId::from).to_vec(),
            },
            BOB
        ),
        "Bob sold three tulips to Madame."
    );
    assert_eq!(
        action(
            Action::BuyBack {
                tulip: "nothing".into()
            },
            CHARLES
        ),
        "Charles repaid the loan on a tulip."
    );
    assert_eq!(
        action(Action::AuctionBid { amount: 16 }, BOB),
        "Bob bid ƒ16."
    );
    assert_eq!(
        action(Action::AuctionPass {}, CHARLES),
        "Charles left the auction."
    );
    assert_eq!(
        action(
            Action::ChoosePayment {
                method: PaymentMethod::Finance
            },
            BOB
        ),
        "Bob paid with a loan."
    );
    assert_eq!(
        action(
            Action::ChoosePayment {
                method: PaymentMethod::Cash
            },
            BOB
        ),
        "Bob paid in cash."
    );
    assert_eq!(
        action(Action::BlackTulipDecision { claim: true }, DENNIS),
        "Dennis chose to buy the Black Tulip."
    );
    // A sealed decision is shown only to its author, so it may say what was chosen.
    assert_eq!(
        action(Action::BlackTulipDecision { claim: false }, DENNIS),
        "Dennis chose not to buy the Black Tulip."
    );
    // An id that names no card is never echoed back.
    assert_eq!(
        action(
            Action::SellToMarket {
                tulip: "Some(x)".into()
            },
            ANDY
        ),
        "Andy sold a tulip to the market."
    );
}

/// §9 T4 (the rulebook's selling example): a market sale, a financed sale repaying its
/// loan, and the Servant collector.
#[test]
fn t4_the_selling_example_told() {
    let mut game = game(4);
    game.track = Track::new(2, 3, 4);
    game.phase = Phase::Selling { seller: ANDY };
    game.players[0].cash = 10;
    game.players[0].concealed = vec![t("WC1#1")];
    game.players[1].cash = 4;
    game.players[1].financed = vec![Loan {
        tulip: t("YA#1"),
        loan: 18,
    }];
    game.players[2].cash = 7;
    game.players[2].concealed = ["RB1#1", "RC1#1", "RC2#1", "RC3#1"].map(t).to_vec();
    game.players[3].cash = 12;
    game.collector_stacks[0] = vec![
        Collector::Servant,
        Collector::YoungMan,
        Collector::Scholar,
        Collector::TavernOwner,
    ];
    game.new_arrivals = ["YC3#1", "YB1#1", "WB1#1", "WA#1", "RC2#2", "WC2#1"]
        .map(|id| Slot::new(t(id)))
        .to_vec();
    game.next_shipment = ["RA#1", "RA#2", "WA#2", "YA#2", "RB2#2", "WB2#2"]
        .map(t)
        .to_vec();
    finish(&mut game);

    let mut log = play(
        &mut game,
        ANDY,
        Action::SellToMarket {
            tulip: "WC1#1".into(),
        },
    );
    log.extend(play(&mut game, ANDY, Action::EndSellingTurn {}));
    log.extend(play(
        &mut game,
        BOB,
        Action::SellToMarket {
            tulip: "YA#1".into(),
        },
    ));
    log.extend(play(&mut game, BOB, Action::EndSellingTurn {}));
    log.extend(play(
        &mut game,
        CHARLES,
        Action::SellToCollector {
            collector: Collector::Servant,
            tulips: ["RC1#1", "RC2#1", "RC3#1"].map(CardId::from).to_vec(),
        },
    ));
    assert_eq!(
        told(&log, Viewer::Spectator),
        [
            "Andy sold a white C1 tulip to the market for ƒ5.",
            "Andy's selling turn ended.",
            "Bob sold the financed yellow A tulip to the market for ƒ20 and repaid the ƒ18 \
             loan.",
            "Bob's selling turn ended.",
            "Charles sold the red C1, red C2 and red C3 tulips to the Servant for ƒ19; the \
             Young Man took their place.",
        ]
    );
}

/// §9 E4: Bob's sealed claim reads differently for Bob and for everyone else; the reveal
/// and the ending are public.
#[test]
fn e4_the_sealed_claim_and_its_twin() {
    let mut game = game(4);
    game.round = 5;
    game.phase = Phase::BlackTulipWindow {
        submitted: SeatSet::EMPTY,
        claims: SeatSet::EMPTY,
    };
    for (player, cash) in game.players.iter_mut().zip([121, 130, 120, 200]) {
        player.cash = cash;
    }
    finish(&mut game);

    let log = play(&mut game, BOB, Action::BlackTulipDecision { claim: true });
    let bob = told(&log, Viewer::Seat(BOB));
    let andy = told(&log, Viewer::Seat(ANDY));
    assert_eq!(bob, ["Bob secretly decided to buy the Black Tulip."]);
    assert_eq!(andy, ["Bob made a secret decision about the Black Tulip."]);
    assert_eq!(told(&log, Viewer::Spectator), andy);
    assert_ne!(bob, andy);
    assert!(!andy[0].contains("to buy") && !andy[0].contains("not"));

    let log = play(&mut game, ANDY, Action::BlackTulipDecision { claim: false });
    assert_eq!(
        told(&log, Viewer::Seat(ANDY)),
        ["Andy secretly decided not to buy the Black Tulip."]
    );
    play(
        &mut game,
        CHARLES,
        Action::BlackTulipDecision { claim: false },
    );
    let log = play(
        &mut game,
        DENNIS,
        Action::BlackTulipDecision { claim: false },
    );
    let public = told(&log, Viewer::Spectator);
    assert_eq!(
        public[1..],
        [
            "The decisions were revealed: Bob claimed the Black Tulip.".to_string(),
            "Bob bought the Black Tulip and won the game. The event card set aside at the \
             start was a Crash."
                .to_string(),
        ]
    );
    assert_eq!(
        public[0],
        "Dennis made a secret decision about the Black Tulip."
    );
}

#[test]
fn market_events_and_the_response() {
    assert_eq!(
        event(&Event::MarketEvent {
            round: 3,
            card: EventCard::rise(Colour::W, 2),
            track: Track::new(2, 4, 5),
        }),
        "Round 3 opened with a white Rise, which lifted the white price one level; prices now \
         stand at red II, white IV and yellow V."
    );
    assert_eq!(
        event(&Event::MarketEvent {
            round: 8,
            card: EventCard::BUST,
            track: Track::new(2, 4, 5),
        }),
        "Round 8 opened with the Bubble Bust."
    );
    assert_eq!(
        event(&Event::MarketResponse {
            counts: [5, 7, 3],
            track: Track::new(3, 1, 7),
        }),
        "The market responded to the 5 red, 7 white and 3 yellow tulips on show; prices now \
         stand at red III, white I and yellow VII."
    );
}

#[test]
fn auctions_purchases_and_premiums() {
    assert_eq!(
        event(&Event::AuctionStarted {
            tulip: t("WA#1"),
            market_price: 15,
            participants: vec![BOB, DENNIS],
        }),
        "Bob and Dennis marked the white A tulip, so it went to auction; bids must beat its \
         market price of ƒ15."
    );
    assert_eq!(
        event(&Event::PurchaseDue {
            tulip: t("WA#1"),
            buyer: DENNIS,
            price: 18,
            auction: true,
        }),
        "Dennis won the auction for the white A tulip at ƒ18."
    );
    assert_eq!(
        event(&Event::TulipBought {
            seat: DENNIS,
            tulip: t("WA#1"),
            price: 18,
            method: PaymentMethod::Finance,
        }),
        "Dennis took a ƒ18 loan for the white A tulip and left it face up."
    );
    assert_eq!(
        event(&Event::PremiumPaid {
            seats: SeatSet::only(BOB),
            amount: 3,
        }),
        "Bob received a premium of ƒ3 from the winning bid."
    );
}

/// §9 E9: a Bust score can be negative; every score is told, best first.
#[test]
fn the_bust_ending_tells_every_score() {
    assert_eq!(
        event(&Event::GameEnded {
            reason: EndReason::Bust,
            winners: SeatSet::only(BOB),
            cash: vec![4, 10, 0, 2],
            scores: vec![-14, 10, 0, 2],
            removed_event: EventCard::crash(2),
        }),
        "The Bubble Bust ended the game and Bob won. Scores after loans: Bob ƒ10, Dennis ƒ2, \
         Charles ƒ0 and Andy minus ƒ14. The event card set aside at the start was a Crash."
    );
}
