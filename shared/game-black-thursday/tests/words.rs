//! The log in words: exact sentences for commands and events, the private events and their
//! redacted twins (the twin's sentence never says a value), and scenarios S10, S11, S13 and
//! S14 of the spec (§8) told as a player reads them.

use game_black_thursday::event::{DrawReason, OpeningRoll};
use game_black_thursday::{
    Action, BlackThursday, ClaimId, CoinInfo, Event, Handle, OfferId, Options, Phase, Piece,
    Position, Promise, PromiseId, PromiseStatus, SessionId, Space, Standing, Status, Suit, Term,
    Transfer,
};
use game_core::words::{check_sentence, Names};
use game_core::{Game, GameRng, Logged, Seat, SeatSet, Visibility};
use serde_json::{json, Value};

const P0: Seat = Seat(0);
const P1: Seat = Seat(1);
const P2: Seat = Seat(2);
const P3: Seat = Seat(3);

fn names() -> Vec<Option<String>> {
    ["Anna", "Ben", "Cas", "Dirk"]
        .iter()
        .map(|n| Some((*n).to_string()))
        .collect()
}

fn action_words(action: &Action, seat: Seat) -> String {
    let names = names();
    let sentence = BlackThursday::describe_action(action, seat, &Names::new(&names));
    check_sentence(&sentence, action);
    sentence
}

fn event_words(event: &Event) -> String {
    let names = names();
    let sentence = BlackThursday::describe_event(event, &Names::new(&names));
    check_sentence(&sentence, event);
    sentence
}

fn act(value: Value) -> Action {
    serde_json::from_value(value).expect("a valid command")
}

fn h(n: u32) -> Handle {
    Handle(n)
}

fn coin(handle: u32, suit: Suit, value: Option<u8>) -> CoinInfo {
    CoinInfo {
        handle: h(handle),
        suit,
        value,
    }
}

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

/// Fixture F of spec §8 (as in `tests/rulebook.rs`): every slot face-down, every coin in the
/// bag, pawns out of the way, `active` in ACTIONS with `ap` AP.
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
    for (seat, p) in g.players.iter_mut().enumerate() {
        p.coins.clear();
        p.status = Status::InBuilding;
        p.position = Position::At(Space::new(0, 16 + 2 * seat as u16));
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
    g
}

/// Gives `seat` the coin `text` (taken from the bag) under handle `hn`.
fn give(g: &mut BlackThursday, seat: Seat, hn: u32, text: &str) {
    let coin = piece(text);
    let pos = g.bag.iter().position(|&c| c == coin).expect("in the bag");
    g.bag.remove(pos);
    let coins = &mut g.players[seat.index()].coins;
    coins.push(game_black_thursday::Held {
        handle: h(hn),
        coin,
        known_by: SeatSet::only(seat),
    });
    coins.sort_by_key(|c| c.handle);
}

fn ok(g: &mut BlackThursday, seat: Seat, action: Value) -> Vec<Logged<Event>> {
    let action = act(action);
    g.apply(seat, action.clone(), &mut GameRng::for_entry([3; 32], 1))
        .unwrap_or_else(|e| panic!("{action:?} by {seat} refused: {e}"))
}

/// Applies `action` with the first log-entry stream for which `pred` holds afterwards.
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

/// Each event's sentence with its visibility.
fn told(events: &[Logged<Event>]) -> Vec<(Visibility, String)> {
    events
        .iter()
        .map(|e| (e.visibility, event_words(&e.event)))
        .collect()
}

#[test]
fn the_summary_is_two_to_four_plain_sentences() {
    let summary = <BlackThursday as Game>::SUMMARY;
    check_sentence(summary, &"the summary");
    let sentences = summary.matches(". ").count() + usize::from(summary.ends_with('.'));
    assert!((2..=4).contains(&sentences), "{sentences} sentences");
    assert!(summary.contains("fewest shares"), "the goal is stated");
    assert!(summary.contains("The game ends when"), "the end is stated");
}

/// A buy in real play: the buyer's private event names the value, everyone else's twin
/// only the handle and company.
#[test]
fn a_bought_certificate_shows_its_value_only_to_the_buyer() {
    let g = fixture(4, P0, 2);
    assert_eq!(
        action_words(&Action::Buy, P0),
        "Anna bought a certificate from the market."
    );
    let (_, events) = apply_until(&g, P0, json!({"type": "buy"}), |g, _| {
        g.players[0].coins.first().map(|c| c.coin) == Some(piece("M3"))
    });
    let told = told(&events[..2]);
    assert_eq!(
        told[0],
        (
            Visibility::Seats(SeatSet::only(P0)),
            "Anna bought h100 (Sickle Moon Steel, 3 shares) from the market.".to_string()
        )
    );
    assert_eq!(
        told[1],
        (
            Visibility::AllExcept(SeatSet::only(P0)),
            "Anna bought h100 (Sickle Moon Steel) from the market.".to_string()
        )
    );
    assert_ne!(told[0].1, told[1].1);
    assert!(!told[1].1.contains('3') && !told[1].1.contains("share"));
}

/// The deal of setup: a private event per seat with values, a twin with suits only.
#[test]
fn a_deal_and_its_twin() {
    let private = Event::CoinsDrawn {
        seat: P1,
        reason: DrawReason::Deal,
        coins: vec![
            coin(6, Suit::Suns, Some(0)),
            coin(7, Suit::Crowns, Some(1)),
            coin(8, Suit::Arms, Some(5)),
        ],
    };
    let twin = Event::CoinsDrawn {
        seat: P1,
        reason: DrawReason::Deal,
        coins: vec![
            coin(6, Suit::Suns, None),
            coin(7, Suit::Crowns, None),
            coin(8, Suit::Arms, None),
        ],
    };
    assert_eq!(
        event_words(&private),
        "Ben was dealt 3 certificates: h6 (Sun Textiles, preferred), h7 (Crown Petroleum, \
         1 share) and h8 (Clean Arms Chemical, 5 shares)."
    );
    assert_eq!(
        event_words(&twin),
        "Ben was dealt 3 certificates: h6 (Sun Textiles), h7 (Crown Petroleum) and h8 \
         (Clean Arms Chemical)."
    );
}

/// A jump: the jumper's copy says what it received, the twin only which certificates.
#[test]
fn a_jump_and_its_twin() {
    let received = |known: bool| {
        vec![
            Transfer {
                from: P1,
                to: P0,
                coin: coin(4, Suit::Crowns, known.then_some(0)),
            },
            Transfer {
                from: P1,
                to: P0,
                coin: coin(3, Suit::Suns, known.then_some(2)),
            },
            Transfer {
                from: P2,
                to: P0,
                coin: coin(9, Suit::Arms, known.then_some(1)),
            },
        ]
    };
    let private = Event::Jumped {
        seat: P0,
        penalty: 2,
        received: received(true),
    };
    let twin = Event::Jumped {
        seat: P0,
        penalty: 2,
        received: received(false),
    };
    assert_eq!(
        event_words(&private),
        "Anna missed the sale at a great window and jumped. Ben handed Anna h3 (Sun Textiles, \
         2 shares) and h4 (Crown Petroleum, preferred); Cas handed Anna h9 (Clean Arms \
         Chemical, 1 share)."
    );
    assert_eq!(
        event_words(&twin),
        "Anna missed the sale at a great window and jumped. Ben handed Anna h3 (Sun Textiles) \
         and h4 (Crown Petroleum); Cas handed Anna h9 (Clean Arms Chemical)."
    );
    let alone = Event::Jumped {
        seat: P3,
        penalty: 1,
        received: Vec::new(),
    };
    assert_eq!(
        event_words(&alone),
        "Dirk missed the sale at a window and jumped. Nobody still in the building had a \
         certificate to hand over."
    );
}

#[test]
fn sales_and_market_trades() {
    assert_eq!(
        action_words(&act(json!({"type": "sell", "handles": ["h1", "h4"]})), P2),
        "Cas sold h1 and h4 at the window."
    );
    let sold = Event::CoinsReturned {
        seat: P2,
        sale: true,
        coins: vec![coin(1, Suit::Moons, None), coin(4, Suit::Moons, None)],
    };
    assert_eq!(
        event_words(&sold),
        "Cas sold h1 (Sickle Moon Steel) and h4 (Sickle Moon Steel) into the market."
    );
    assert_eq!(
        action_words(&act(json!({"type": "market_trade", "handles": ["h2"]})), P2),
        "Cas traded h2 back to the market for as many new certificates."
    );
    let returned = Event::CoinsReturned {
        seat: P2,
        sale: false,
        coins: vec![coin(2, Suit::Arms, Some(4))],
    };
    assert_eq!(
        event_words(&returned),
        "Cas put h2 (Clean Arms Chemical, 4 shares) back into the market."
    );
    let drawn = Event::CoinsDrawn {
        seat: P2,
        reason: DrawReason::MarketTrade,
        coins: vec![coin(31, Suit::Suns, None)],
    };
    assert_eq!(
        event_words(&drawn),
        "Cas drew h31 (Sun Textiles) from the market in exchange."
    );
}

#[test]
fn dice_with_bonus_debt_null_and_a_void_roll() {
    let roll = |die, ap, bonus_used, debt_paid| {
        event_words(&Event::DieRolled {
            seat: P0,
            die,
            ap,
            bonus_used,
            debt_paid,
        })
    };
    assert_eq!(roll(4, 4, 0, 0), "Anna rolled 4 and had 4 action points.");
    assert_eq!(
        roll(3, 4, 2, 1),
        "Anna rolled 3, added a bonus of 2, paid back a debt of 1 and had 4 action points."
    );
    // Spec S10 variant B: a debt of 3 against a roll of 2.
    assert_eq!(
        roll(2, 0, 0, 2),
        "Anna rolled 2, paid back a debt of 2 and had no action points left."
    );
    assert_eq!(
        roll(0, 0, 0, 0),
        "Anna rolled a null: an opportunity to flip a tile."
    );
    assert_eq!(
        roll(5, 0, 0, 0),
        "Anna rolled 5, which gives a player who has jumped no action points."
    );
}

#[test]
fn the_building_tiles_and_pawns() {
    assert_eq!(
        action_words(
            &act(json!({"type": "place_pawn", "space": {"x": 1, "y": 0}})),
            P3
        ),
        "Dirk placed a pawn on the roof at column 2, row 1."
    );
    assert_eq!(
        event_words(&Event::PawnPlaced {
            seat: P3,
            space: Space::new(1, 0)
        }),
        "Dirk's pawn entered the roof at column 2, row 1."
    );
    assert_eq!(
        action_words(&act(json!({"type": "flip_tile", "slot": 23})), P0),
        "Anna flipped the tile in slot 24."
    );
    let up = Event::TileFlipped {
        slot: 23,
        face_up: true,
        tile: Piece {
            suit: Suit::Arms,
            value: 4,
        },
    };
    assert_eq!(
        event_words(&up),
        "The tile in slot 24 was turned face up, showing the Clean Arms Chemical 4: its spaces \
         became Clean Arms Chemical windows."
    );
    let down = Event::TileFlipped {
        slot: 5,
        face_up: false,
        tile: Piece {
            suit: Suit::Suns,
            value: 0,
        },
    };
    assert_eq!(
        event_words(&down),
        "The tile in slot 6, the Sun Textiles 0, was turned face down: its spaces became \
         offices again."
    );
    assert_eq!(
        action_words(&act(json!({"type": "orient_tile", "rotation": 180})), P0),
        "Anna turned the newly revealed tile 180 degrees clockwise."
    );
    assert_eq!(
        event_words(&Event::TileOriented {
            slot: 23,
            rotation: 180
        }),
        "The tile in slot 24 was turned 180 degrees clockwise, with its great window at the \
         bottom right."
    );
    assert_eq!(
        event_words(&Event::TileOriented {
            slot: 2,
            rotation: 0
        }),
        "The tile in slot 3 was left upright, with its great window at the top left."
    );
    assert_eq!(
        action_words(&act(json!({"type": "move", "to": {"x": 2, "y": 6}})), P1),
        "Ben moved down to column 3, row 7."
    );
    assert_eq!(
        event_words(&Event::PawnMoved {
            seat: P1,
            to: Some(Space::new(2, 6))
        }),
        "Ben's pawn reached column 3, row 7."
    );
    assert_eq!(
        event_words(&Event::TurnStarted { turn: 7, seat: P1 }),
        "Ben's turn began (turn 7)."
    );
    assert_eq!(
        event_words(&Event::TurnEnded {
            seat: P1,
            ap_forfeited: 2
        }),
        "Ben's turn ended and 2 unspent action points were lost."
    );
}

/// Spec §8 S14: the opening roll with a null and a roll-off.
#[test]
fn s14_the_opening_roll() {
    let roll = |seat, rolls: &[u8]| OpeningRoll {
        seat,
        rolls: rolls.to_vec(),
    };
    let event = Event::OpeningRolled {
        rounds: vec![
            vec![
                roll(P0, &[3]),
                roll(P1, &[0, 2]),
                roll(P2, &[2]),
                roll(P3, &[5]),
            ],
            vec![roll(P1, &[4]), roll(P2, &[1])],
        ],
        first: P2,
    };
    assert_eq!(
        event_words(&event),
        "In the opening roll Anna rolled 3, Ben rolled 2 after a null, Cas rolled 2 and Dirk \
         rolled 5; in a roll-off Ben rolled 4 and Cas rolled 1. Cas plays first."
    );
}

/// Spec §8 S10: a three-player agreement with coins, action points and promises.
#[test]
fn s10_a_three_player_agreement_told() {
    let mut g = fixture(4, P0, 4);
    give(&mut g, P0, 5, "C3");
    give(&mut g, P0, 6, "C4");
    give(&mut g, P0, 7, "S1");
    let open = json!({"type": "open_session", "with": [1, 2]});
    assert_eq!(
        action_words(&act(open.clone()), P0),
        "Anna opened a trading session with Ben and Cas."
    );
    let events = ok(&mut g, P0, open);
    assert_eq!(
        told(&events),
        vec![(
            Visibility::Public,
            "Session s1 opened for Anna, Ben and Cas.".to_string()
        )]
    );
    let offer = json!({"type": "post_offer", "session": "s1", "terms": [
        {"kind": "coins", "giver": 0, "receiver": 1, "handles": ["h5", "h6"]},
        {"kind": "action_points", "from": 0, "to": 1, "amount": 1},
        {"kind": "action_points", "from": 2, "to": 0, "amount": 2},
        {"kind": "promise", "promisor": 1, "promisee": 2, "text": "On my next turn I will move diagonally."},
        {"kind": "promise", "promisor": 0, "promisee": 2, "text": "On my next opportunity roll I will flip the tile P2 names and orient it as P2 says."}]});
    let terms = "Anna gives Ben h5 and h6; Anna gives Ben 1 action point; Cas gives Anna 2 \
                 action points; Ben promises Cas “On my next turn I will move diagonally.”; \
                 Anna promises Cas “On my next opportunity roll I will flip the tile P2 names \
                 and orient it as P2 says.”";
    assert_eq!(
        action_words(&act(offer.clone()), P0),
        format!("Anna made an offer in session s1: {terms}")
    );
    let events = ok(&mut g, P0, offer);
    assert_eq!(
        told(&events),
        vec![(Visibility::Public, format!("Anna posted offer o1: {terms}"))]
    );
    let events = ok(&mut g, P1, json!({"type": "accept_offer", "offer": "o1"}));
    assert_eq!(
        told(&events),
        vec![(Visibility::Public, "Ben accepted offer o1.".to_string())]
    );
    let events = ok(&mut g, P2, json!({"type": "accept_offer", "offer": "o1"}));
    assert_eq!(
        told(&events),
        vec![
            (Visibility::Public, "Cas accepted offer o1.".to_string()),
            (
                Visibility::Public,
                "Offer o1 was carried out as agreement a1: Anna gave Ben h5 (Crown Petroleum) \
                 and h6 (Crown Petroleum); promises pr1 and pr2 were recorded."
                    .to_string()
            ),
            (
                Visibility::Seats(SeatSet::only(P1)),
                "Ben learned the values of h5 (Crown Petroleum, 3 shares) and h6 (Crown \
                 Petroleum, 4 shares)."
                    .to_string()
            ),
            (
                Visibility::Public,
                "Session s1 closed with an agreement.".to_string()
            ),
        ]
    );
}

/// Counter-offers with value assertions, reveals and shared knowledge (spec §4.3, S12).
#[test]
fn counter_offers_with_assertions_and_information() {
    let counter = act(
        json!({"type": "post_offer", "session": "s3", "counters": "o4", "terms": [
        {"kind": "coins", "giver": 1, "receiver": 0, "handles": ["h12"], "values": [1]},
        {"kind": "coins", "giver": 0, "receiver": 1, "handles": ["h2", "h3"], "values": [5, 0]},
        {"kind": "reveal", "from": 1, "to": 0, "handles": ["h11", "h12"]},
        {"kind": "share_knowledge", "from": 1, "to": 0, "about": 3}]}),
    );
    assert_eq!(
        action_words(&counter, P1),
        "Ben countered offer o4 in session s3: Ben gives Anna h12, which must be worth 1 share; \
         Anna gives Ben h2 and h3, each of which must be worth 0 or 5 shares; Ben shows Anna \
         the values of h11 and h12; Ben tells Anna every value Ben knows of the certificates \
         Dirk holds."
    );
    let posted = Event::OfferPosted {
        offer: game_black_thursday::Offer {
            id: OfferId(6),
            author: P1,
            terms: vec![Term::Coins {
                giver: P1,
                receiver: P0,
                handles: vec![h(12)],
                values: Some(vec![0]),
            }],
            counters: Some(OfferId(5)),
            status: game_black_thursday::OfferStatus::Live,
        },
    };
    assert_eq!(
        event_words(&posted),
        "Ben posted offer o6 as a counter to o5: Ben gives Anna h12, which must be preferred."
    );
    let nothing = Event::OfferPosted {
        offer: game_black_thursday::Offer {
            id: OfferId(1),
            author: P0,
            terms: Vec::new(),
            counters: None,
            status: game_black_thursday::OfferStatus::Live,
        },
    };
    assert_eq!(
        event_words(&nothing),
        "Anna posted offer o1: nothing for nothing."
    );
    assert_eq!(
        event_words(&Event::OffersFailed {
            offers: vec![OfferId(5)]
        }),
        "Offer o5 failed because a penalty moved a certificate it named."
    );
    assert_eq!(
        event_words(&Event::SessionClosed {
            session: SessionId(3),
            status: game_black_thursday::SessionStatus::Abandoned,
            left_by: Some(P0),
        }),
        "Anna left session s3, which closed without an agreement."
    );
}

/// A promise's free text is quoted, and what would read as markup becomes plain.
#[test]
fn promise_text_is_quoted_as_plain_words() {
    let offer = Action::PostOffer {
        session: SessionId(2),
        terms: vec![Term::Promise {
            promisor: P3,
            promisee: P0,
            text: "I say \"yes\" [maybe]\nto {move_down}; None else".to_string(),
        }],
        counters: None,
    };
    assert_eq!(
        action_words(&offer, P3),
        "Dirk made an offer in session s2: Dirk promises Anna “I say 'yes' (maybe) to \
         (move down); none else”."
    );
}

fn s11_state() -> BlackThursday {
    let mut g = fixture(4, P0, 2);
    give(&mut g, P2, 20, "S0");
    give(&mut g, P2, 21, "M2");
    give(&mut g, P2, 22, "A5");
    g.promises.push(Promise {
        id: PromiseId(1),
        promisor: P1,
        promisee: P2,
        text: "On my next turn I will move diagonally.".into(),
        status: PromiseStatus::Open,
    });
    g.counters.promise = 2;
    g
}

/// Spec §8 S11: a breach claim, voted and upheld; the penalty's values go to the accused
/// alone.
#[test]
fn s11_a_breach_claim_told() {
    let mut g = s11_state();
    let file = json!({"type": "file_claim", "promise": "pr1"});
    assert_eq!(
        action_words(&act(file.clone()), P2),
        "Cas claimed that promise pr1 was broken."
    );
    let events = ok(&mut g, P2, file);
    assert_eq!(
        told(&events),
        vec![(
            Visibility::Public,
            "Cas filed claim k1 against Ben for breaking promise pr1; Anna and Dirk sit on \
             the jury."
                .to_string()
        )]
    );
    let vote = json!({"type": "vote_claim", "claim": "k1", "uphold": true});
    assert_eq!(
        action_words(&act(vote.clone()), P0),
        "Anna voted to uphold claim k1."
    );
    ok(&mut g, P0, vote.clone());
    let (_, events) = apply_until(&g, P3, vote, |g, _| {
        g.players[1]
            .coins
            .iter()
            .map(|c| c.handle)
            .collect::<Vec<_>>()
            == vec![h(21), h(22)]
    });
    assert_eq!(
        told(&events),
        vec![
            (
                Visibility::Public,
                "Dirk voted to uphold claim k1.".to_string()
            ),
            (
                Visibility::Public,
                "Claim k1 was upheld: as the penalty Cas handed Ben h21 (Sickle Moon Steel) \
                 and h22 (Clean Arms Chemical)."
                    .to_string()
            ),
            (
                Visibility::Seats(SeatSet::only(P1)),
                "Ben learned the values of h21 (Sickle Moon Steel, 2 shares) and h22 (Clean \
                 Arms Chemical, 5 shares)."
                    .to_string()
            ),
        ]
    );
    // Variant (a): the second juror dismisses.
    assert_eq!(
        event_words(&Event::ClaimDecided {
            claim: ClaimId(1),
            upheld: false,
            moved: Vec::new()
        }),
        "Claim k1 was dismissed and no certificates changed hands."
    );
    assert_eq!(
        action_words(&act(json!({"type": "concede_claim", "claim": "k1"})), P1),
        "Ben conceded claim k1."
    );
}

/// Spec §8 S13: the last exit ends the game in a draw.
#[test]
fn s13_the_end_in_a_draw_told() {
    let mut g = fixture(4, P2, 2);
    g.players[2].position = Position::At(Space::new(1, 23));
    for seat in [0, 1] {
        g.players[seat].status = if seat == 0 {
            Status::Exited
        } else {
            Status::Jumped
        };
        g.players[seat].position = Position::Gone;
    }
    g.players[3].position = Position::At(Space::new(3, 20));
    give(&mut g, P0, 1, "S0");
    give(&mut g, P0, 2, "M2");
    give(&mut g, P1, 10, "A1");
    give(&mut g, P1, 11, "C1");
    give(&mut g, P2, 20, "M0");
    give(&mut g, P2, 21, "S3");
    give(&mut g, P3, 30, "A5");
    let exit = json!({"type": "move", "to": "exit"});
    assert_eq!(
        action_words(&act(exit.clone()), P2),
        "Cas left the building by the ground floor."
    );
    let events = ok(&mut g, P2, exit);
    assert_eq!(
        told(&events),
        vec![
            (
                Visibility::Public,
                "Cas left the building and is out of the market.".to_string()
            ),
            (
                Visibility::Public,
                "The game ended in a draw between Anna and Ben, with 2 shares on 2 \
                 certificates each; then came Cas 3rd with 3 shares on 2 certificates and \
                 Dirk 4th with 5 shares on 1 certificate. Every certificate is now revealed."
                    .to_string()
            ),
        ]
    );
    let alone = Event::GameEnded {
        standings: vec![
            Standing {
                seat: P0,
                common: 2,
                certs: 2,
                rank: 1,
            },
            Standing {
                seat: P1,
                common: 2,
                certs: 3,
                rank: 2,
            },
            Standing {
                seat: P2,
                common: 7,
                certs: 1,
                rank: 3,
            },
        ],
        portfolios: Vec::new(),
        bag: Vec::new(),
    };
    assert_eq!(
        event_words(&alone),
        "The game ended and Anna won with 2 shares on 2 certificates; then came Ben 2nd with \
         2 shares on 3 certificates and Cas 3rd with 7 shares on 1 certificate. Every \
         certificate is now revealed."
    );
}

/// Every command reads as plain words, naming its author.
#[test]
fn every_command_names_its_author() {
    let commands = [
        json!({"type": "place_pawn", "space": {"x": 0, "y": 0}}),
        json!({"type": "flip_tile", "slot": 7}),
        json!({"type": "orient_tile", "rotation": 90}),
        json!({"type": "move", "to": "exit"}),
        json!({"type": "sell", "handles": ["h1"]}),
        json!({"type": "buy"}),
        json!({"type": "market_trade", "handles": ["h1", "h2"]}),
        json!({"type": "open_session", "with": [1, 2], "pass": true}),
        json!({"type": "post_offer", "session": "s1", "terms": []}),
        json!({"type": "withdraw_offer", "offer": "o1"}),
        json!({"type": "accept_offer", "offer": "o2"}),
        json!({"type": "revoke_acceptance", "session": "s1"}),
        json!({"type": "leave_session", "session": "s1"}),
        json!({"type": "file_claim", "promise": "pr1"}),
        json!({"type": "concede_claim", "claim": "k1"}),
        json!({"type": "vote_claim", "claim": "k1", "uphold": false}),
        json!({"type": "waive_promise", "promise": "pr1"}),
    ];
    let sentences: Vec<String> = commands
        .iter()
        .map(|c| action_words(&act(c.clone()), P3))
        .collect();
    for sentence in &sentences {
        assert!(sentence.starts_with("Dirk "), "{sentence}");
        assert!(sentence.ends_with('.'), "{sentence}");
    }
    assert_eq!(
        sentences[7],
        "Dirk opened a trading session with Ben and Cas and abandoned it at once."
    );
    assert_eq!(
        sentences[8],
        "Dirk made an offer in session s1: nothing for nothing."
    );
    assert_eq!(sentences[15], "Dirk voted to dismiss claim k1.");
    let unnamed = [Some("Anna".to_string())];
    assert_eq!(
        BlackThursday::describe_action(&Action::Buy, P2, &Names::new(&unnamed)),
        "Seat 3 bought a certificate from the market."
    );
}
