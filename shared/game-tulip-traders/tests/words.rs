//! The log in words: exact sentences for Tulip Traders' actions and events, and a private
//! draw beside its redacted twin.

use game_core::words::Names;
use game_core::{Game, Seat};
use game_tulip_traders::action::Action;
use game_tulip_traders::cards::{Card, Cell};
use game_tulip_traders::event::{Event, PaymentKind};
use game_tulip_traders::state::EndReason;
use game_tulip_traders::TulipTraders;
use std::collections::BTreeMap;

fn names() -> Vec<Option<String>> {
    vec![Some("Anna".into()), Some("Ben".into()), Some("Cas".into())]
}

fn action(action: Action, seat: u8) -> String {
    TulipTraders::describe_action(&action, Seat(seat), &Names::new(&names()))
}

fn event(event: Event) -> String {
    TulipTraders::describe_event(&event, &Names::new(&names()))
}

#[test]
fn a_private_draw_names_the_cards_and_its_twin_only_counts_them() {
    let private = event(Event::CardsDrawn {
        seat: Seat(1),
        count: 2,
        cards: Some(vec![Card::LR, Card::Semper]),
        sacks: vec![],
    });
    let twin = event(Event::CardsDrawn {
        seat: Seat(1),
        count: 2,
        cards: None,
        sacks: vec![],
    });
    assert_eq!(private, "Ben drew the red Lily and the Semper Augustus.");
    assert_eq!(twin, "Ben drew 2 cards.");
    assert!(!twin.contains("Lily") && !twin.contains("Semper"));
}

#[test]
fn lots_and_accusations_read_as_a_trade() {
    assert_eq!(
        action(
            Action::OfferLot {
                cards: vec![Card::LR, Card::SPk, Card::Weed1],
                buyer: Seat(2),
                declared: 12
            },
            0
        ),
        "Anna offered the red Lily, the pink Single and a weed to Cas, declared worth ƒ12."
    );
    assert_eq!(
        event(Event::LotOffered {
            seller: Seat(0),
            buyer: Seat(2),
            declared: 12,
            final_offer: false,
            cards: None
        }),
        "Anna offered a lot of three cards to Cas, declared worth ƒ12."
    );
    assert_eq!(
        event(Event::Accused {
            seller: Seat(0),
            buyer: Seat(2),
            lot: vec![Card::LR, Card::SPk, Card::Weed1],
            declared: 12,
            actual: 7,
            honest: false
        }),
        "Cas accused Anna: the lot of the red Lily, the pink Single and a weed was declared at ƒ12 and is worth ƒ7, so the seller lied."
    );
    assert_eq!(
        event(Event::Payment {
            from: Seat(0),
            to: Seat(2),
            amount: 5,
            kind: PaymentKind::LieFine
        }),
        "Anna paid Cas ƒ5 as a fine for lying."
    );
}

#[test]
fn the_market_and_investments_name_their_cells() {
    let mut alloc = BTreeMap::new();
    alloc.insert(Cell::LR, 2);
    alloc.insert(Cell::SPk, 1);
    assert_eq!(
        action(Action::PlaceInvestment { alloc }, 1),
        "Ben invested 2 tokens on the red Lily market and 1 token on the pink Single market."
    );
    assert_eq!(
        event(Event::CrisisPlaced {
            cell: Cell::LR,
            tokens_removed: 3
        }),
        "A crisis struck the red Lily market, which lost 3 tokens."
    );
    assert_eq!(
        event(Event::MarketCardPlaced {
            cell: Cell::SPk,
            row: 0,
            col: 2
        }),
        "The pink Single joined the market at row 1, column 3."
    );
}

#[test]
fn the_end_ranks_the_traders() {
    assert_eq!(
        event(Event::GameOver {
            reason: EndReason::RoundLimit,
            ranking: vec![Seat(2), Seat(0), Seat(1)],
            scores: Some(vec![Some(30), Some(12), Some(41)]),
            hands: vec![vec![], vec![], vec![]],
        }),
        "The game is over because the last round is over: 1st Cas with ƒ41, 2nd Anna with ƒ30, 3rd Ben with ƒ12."
    );
}

#[test]
fn the_summary_is_a_few_plain_sentences() {
    let summary = TulipTraders::SUMMARY;
    game_core::words::check_sentence(summary, &"the summary");
    assert!(
        (2..=5).contains(&(summary.matches(". ").count() + 1)),
        "{summary}"
    );
}

/// A button's label names cards by colour and type and the buyer by name, in the imperative;
/// never a catalogue code or the log's past tense.
#[test]
fn labels_are_imperatives_that_name_cards_and_buyers() {
    let names = names();
    let names = Names::new(&names);
    let mut rng = game_core::GameRng::for_entry([7; 32], 0);
    let (game, _) = TulipTraders::setup(3, &Default::default(), &mut rng).expect("dealt");
    let label = |action: Action| game.label_action(Seat(0), &action, &names);
    assert_eq!(
        label(Action::OfferLot {
            cards: vec![Card::LR, Card::KOY, Card::Weed1],
            buyer: Seat(2),
            declared: 12
        }),
        "Offer the red Lily, the orange-and-yellow Kaufmanniana and a weed to Cas, declared worth ƒ12"
    );
    assert_eq!(
        label(Action::DeclareInvestment {
            option: "abstain".into()
        }),
        "Abstain from investing"
    );
    assert_eq!(
        label(Action::DeclareInvestment {
            option: "broker".into()
        }),
        "Invest as a broker"
    );
    assert_eq!(
        action(
            Action::DeclareInvestment {
                option: "abstain".into()
            },
            0
        ),
        "Anna chose to abstain from investing."
    );
    assert_eq!(
        label(Action::MoveCrisis {
            from: Cell::LR,
            to: Cell::DPkPu
        }),
        "Move the crisis from the red Lily market to the pink-and-purple Double market"
    );
    assert_eq!(label(Action::Accuse {}), "Accuse the seller of lying");
}
