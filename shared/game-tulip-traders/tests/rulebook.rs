//! The worked examples of the spec (§8), one test each, plus every rule-error code (§4.1).
//! Every Given is an injected fixture built with the `scenario` helpers.

use crate::common::*;
use game_core::{Game, GameRng, LegalAction, Seat, Viewer, Visibility};
use game_tulip_traders::state::{Continuation, Debt, EndReason};
use game_tulip_traders::{Action, Card, Cell, Event, Options, Phase, Side, TulipTraders};
use std::collections::BTreeMap;

/// §8 S0, the rulebook crisis example: a lie, the fine, a crisis and ripples of 1.
#[test]
fn s0_rulebook_crisis_example() {
    let mut g = base(3, 0);
    set_grid(&mut g, &G0);
    g.set_purse(A, 20);
    g.set_purse(B, 30);
    g.set_hand(A, &cards(&["K-OY", "L-O", "WEED-1"]));
    g.phase = Phase::Offer {
        seller: A,
        min: 1,
        final_offer: false,
    };
    let bank = g.bank_issued;
    act(&mut g, A, offer(&["K-OY", "L-O", "WEED-1"], B, 7));
    let events = act(&mut g, B, Action::Accuse {});
    assert!(events.iter().any(|e| matches!(
        e.event,
        Event::Accused {
            actual: 2,
            declared: 7,
            honest: false,
            ..
        }
    )));
    assert_eq!((g.player(A).purse, g.player(B).purse), (15, 35));
    assert!(in_crisis(&g, "K-OY"));
    assert_eq!(
        (tokens(&g, "S-Y"), tokens(&g, "P-O"), tokens(&g, "D-Y")),
        (2, 0, 0)
    );
    assert!(
        !in_crisis(&g, "P-O") && !in_crisis(&g, "D-Y"),
        "exactly 0 is not a crisis"
    );
    assert_eq!(g.bank_issued - bank, -5);
    assert_eq!(g.crisis_count(), 1);
    assert!(!g.collapse_flag);
    assert_eq!(bottom(&g, 3), cards(&["K-OY", "L-O", "WEED-1"]));
    assert_eq!(
        g.phase,
        Phase::Offer {
            seller: B,
            min: 2,
            final_offer: false
        }
    );
    assert_eq!(g.eligible_buyers(B), vec![C]);
    // M:K-OY refuses investment while in crisis.
    let mut place = g.clone();
    place.phase = Phase::Place;
    place.players[2].earmark = 1;
    let err = refused(
        &place,
        C,
        Action::PlaceInvestment {
            alloc: BTreeMap::from([(cell("K-OY"), 1)]),
        },
    );
    assert_eq!(code(&err), "cell-in-crisis");
}

/// §8 S1: setup booms, including a double boom; 6 booms give Δbank +12.
#[test]
fn s1_setup_booms_double_boom() {
    let mut g = base(3, 0);
    g.clear_grid();
    assert_eq!(g.bank_issued, 225);
    let order = [
        "L-R", "S-R", "S-Y", "D-Pu", "L-PuR", "P-O", "K-OY", "P-Y", "D-O",
    ];
    g.stack_market(&order.iter().map(|id| cell(id)).collect::<Vec<_>>());
    let events = g.fill_setup_grid();
    let booms: Vec<(Cell, Cell)> = events
        .iter()
        .filter_map(|e| match e.event {
            Event::Boom {
                placed, neighbour, ..
            } => Some((placed, neighbour)),
            _ => None,
        })
        .collect();
    assert_eq!(booms.len(), 6);
    assert_eq!(
        booms.iter().filter(|b| b.0 == cell("L-PuR")).count(),
        2,
        "L-PuR booms twice"
    );
    expect_grid(&g, &G1);
    assert_eq!(g.bank_issued, 237);
}

/// §8 S2: Phase 2 expansion to the right; P-O in crisis blocks a boom.
#[test]
fn s2_phase2_expansion_blocked_boom() {
    let mut g = base(3, 0);
    g.round = 2;
    set_grid(&mut g, &G1_PO_CRISIS);
    g.stack_market(&[cell("S-Pk"), cell("P-Pk"), cell("D-R")]);
    g.phase = Phase::AddLine;
    for side in [Side::Top, Side::Bottom, Side::Left, Side::Right] {
        assert!(
            g.check(A, &Action::AddMarketLine { side }).is_ok(),
            "all four sides are legal from 3×3"
        );
    }
    let bank = g.bank_issued;
    act(&mut g, A, Action::AddMarketLine { side: Side::Right });
    expect_grid(&g, &G2);
    assert_eq!(g.bank_issued - bank, 6);
    assert_eq!(
        g.phase,
        Phase::Manipulate,
        "a crisis exists, so Phase 3 runs"
    );
    // Round 3 (3×4 → 4×4): only Top or Bottom.
    g.round = 3;
    g.phase = Phase::AddLine;
    assert_eq!(
        code(&refused(&g, A, Action::AddMarketLine { side: Side::Left })),
        "illegal-side"
    );
    assert_eq!(
        code(&refused(&g, A, Action::AddMarketLine { side: Side::Right })),
        "illegal-side"
    );
    assert!(g
        .check(A, &Action::AddMarketLine { side: Side::Top })
        .is_ok());
    assert!(g
        .check(A, &Action::AddMarketLine { side: Side::Bottom })
        .is_ok());
}

/// §8 S3: an honest accusation (equality counts as honest), and the lying control.
#[test]
fn s3_honest_accusation_equality() {
    let mut g = base(3, 0);
    set_grid(&mut g, &G1);
    g.set_hand(A, &cards(&["L-PuR", "S-R", "P-Pu", "WEED-1"]));
    g.phase = Phase::Offer {
        seller: A,
        min: 1,
        final_offer: false,
    };
    let mut control = g.clone();
    assert_eq!(code(&refused(&g, A, Action::Accuse {})), "wrong-phase");
    act(&mut g, A, offer(&["S-R", "L-PuR", "WEED-1"], B, 5));
    act(&mut g, B, Action::Accuse {});
    assert_eq!((g.player(A).purse, g.player(B).purse), (80, 70));
    assert_eq!(g.crisis_count(), 0, "no disruption");
    assert_eq!(bottom(&g, 3), cards(&["S-R", "L-PuR", "WEED-1"]));
    assert_eq!(g.player(A).hand, cards(&["P-Pu"]));
    assert!(g.player(A).sold && g.player(B).bought);
    assert_eq!(
        g.phase,
        Phase::Offer {
            seller: B,
            min: 2,
            final_offer: false
        }
    );
    assert_eq!(g.player(B).hand.len(), 4);
    assert_eq!(g.eligible_buyers(B), vec![C]);
    let hand: Vec<Card> = g.player(B).hand[..3].to_vec();
    let err = refused(
        &g,
        B,
        Action::OfferLot {
            cards: hand,
            buyer: A,
            declared: 2,
        },
    );
    assert_eq!(code(&err), "buyer-not-allowed");
    // Control: at 6 the seller lied, paid 1, and both lot tulips went into crisis.
    act(&mut control, A, offer(&["S-R", "L-PuR", "WEED-1"], B, 6));
    act(&mut control, B, Action::Accuse {});
    assert_eq!((control.player(A).purse, control.player(B).purse), (74, 76));
    assert!(in_crisis(&control, "S-R") && in_crisis(&control, "L-PuR"));
}

/// §8 S4: a lie with two lot tulips on the board, a double ripple and a below-RV crisis.
#[test]
fn s4_lying_accusation_double_ripple() {
    let mut g = base(3, 0);
    g.round = 3;
    set_grid(&mut g, &G3);
    g.set_purse(A, 30);
    g.set_purse(B, 20);
    g.set_hand(A, &cards(&["S-R", "P-Y", "SACK-3"]));
    assert_eq!(g.sack_supply.len(), 9);
    g.phase = Phase::Offer {
        seller: A,
        min: 2,
        final_offer: false,
    };
    let bank = g.bank_issued;
    act(&mut g, A, offer(&["S-R", "P-Y", "SACK-3"], B, 15));
    act(&mut g, B, Action::Accuse {});
    assert_eq!((g.player(A).purse, g.player(B).purse), (24, 26));
    expect_grid(&g, &G3P);
    assert_eq!(g.bank_issued - bank, -20);
    assert_eq!(g.crisis_count(), 3);
    assert_eq!(g.mv(Card::Queen), 9);
    assert!(!g.collapse_flag);
    assert_eq!(bottom(&g, 2), cards(&["S-R", "P-Y"]));
    assert_eq!(g.sack_supply.len(), 10);
    assert_eq!(
        g.phase,
        Phase::Offer {
            seller: B,
            min: 3,
            final_offer: false
        }
    );
}

/// §8 S5: buying with a non-excessive liquidation set.
#[test]
fn s5_buy_with_liquidation() {
    let mut g = base(3, 0);
    g.round = 3;
    set_grid(&mut g, &G3P);
    g.set_hand(C, &cards(&["SACK-3"]));
    g.set_hand(B, &cards(&["L-PuR", "D-R", "S-O", "WEED-2"]));
    g.set_purse(B, 4);
    g.set_offer(A, B, 9, 2, false, &cards(&["S-Y", "L-O", "P-R"]));
    assert_eq!(g.sack_supply.len(), 9);
    assert_eq!(g.cap(B), 9);
    let legal = g.legal_actions(B);
    assert_eq!(
        legal,
        vec![
            LegalAction::action(Action::Buy {
                liquidate: cards(&["L-PuR", "D-R"])
            }),
            LegalAction::action(Action::Accuse {})
        ]
    );
    let buy = |ids: &[&str]| Action::Buy {
        liquidate: cards(ids),
    };
    assert_eq!(code(&refused(&g, B, buy(&[]))), "liquidation-insufficient");
    assert_eq!(
        code(&refused(&g, B, buy(&["L-PuR"]))),
        "liquidation-insufficient"
    );
    assert_eq!(
        code(&refused(&g, B, buy(&["L-PuR", "D-R", "S-O"]))),
        "liquidation-excessive"
    );
    assert_eq!(
        code(&refused(&g, B, buy(&["L-PuR", "WEED-2"]))),
        "not-a-tulip"
    );
    assert_eq!(
        code(&refused(&g, B, buy(&["L-PuR", "L-PuR"]))),
        "duplicate-card"
    );
    let (bank, seller) = (g.bank_issued, g.player(A).purse);
    act(&mut g, B, buy(&["L-PuR", "D-R"]));
    assert_eq!(g.bank_issued - bank, 5);
    assert_eq!(g.player(B).purse, 0);
    assert_eq!(g.player(A).purse, seller + 9);
    assert_eq!(bottom(&g, 2), cards(&["L-PuR", "D-R"]));
    assert_eq!(g.sack_supply.len(), 7);
    assert_eq!(
        g.player(B).hand,
        cards(&["L-O", "S-O", "S-Y", "P-R", "WEED-2", "SACK-1", "SACK-2"])
    );
    assert_eq!((tokens(&g, "L-PuR"), tokens(&g, "D-R")), (4, 1));
    assert_eq!(
        g.phase,
        Phase::Offer {
            seller: B,
            min: 10,
            final_offer: false
        }
    );
}

/// §8 S6: a lying seller liquidates at pre-disruption prices.
#[test]
fn s6_lying_seller_liquidates_before_disruption() {
    let mut g = base(3, 0);
    set_grid(
        &mut g,
        &[
            "P-Y 4  K-OY 5  S-R 1",
            "L-Pk 0  D-Y 0  S-Pu 2",
            "L-R 0  S-O 1  P-Pu 0",
        ],
    );
    g.set_hand(A, &cards(&["K-OY", "S-Pu"]));
    g.set_purse(A, 2);
    g.set_offer(A, B, 10, 1, false, &cards(&["P-Y", "L-O", "WEED-1"]));
    let (bank, buyer) = (g.bank_issued, g.player(B).purse);
    act(&mut g, B, Action::Accuse {});
    assert_eq!(
        g.phase,
        Phase::Liquidate {
            debt: Debt {
                debtor: A,
                creditor: B,
                amount: 6,
                continuation: Continuation::AfterLie
            }
        }
    );
    assert_eq!(
        g.legal_actions(A),
        vec![LegalAction::action(Action::Liquidate {
            cards: cards(&["K-OY"])
        })]
    );
    let liq = |ids: &[&str]| Action::Liquidate { cards: cards(ids) };
    assert_eq!(
        code(&refused(&g, A, liq(&["S-Pu"]))),
        "liquidation-insufficient"
    );
    assert_eq!(
        code(&refused(&g, A, liq(&["K-OY", "S-Pu"]))),
        "liquidation-excessive"
    );
    assert_eq!(code(&refused(&g, A, liq(&["S-R"]))), "card-not-in-hand");
    assert_eq!(code(&refused(&g, B, liq(&["K-OY"]))), "not-your-turn");
    let events = act(&mut g, A, liq(&["K-OY"]));
    assert!(events.iter().any(|e| e.event
        == Event::CardLiquidated {
            seat: A,
            card: card("K-OY"),
            value: 5,
            sack: Some(Card::Sack1)
        }));
    assert_eq!(g.player(A).purse, 1);
    assert_eq!(g.player(B).purse, buyer + 6);
    assert_eq!(g.player(A).hand, cards(&["S-Pu", "SACK-1"]));
    assert!(in_crisis(&g, "P-Y"));
    assert_eq!(tokens(&g, "K-OY"), 4);
    assert_eq!(bottom(&g, 4), cards(&["K-OY", "P-Y", "L-O", "WEED-1"]));
    assert_eq!(g.bank_issued, bank);
    assert_eq!(
        g.phase,
        Phase::Offer {
            seller: B,
            min: 2,
            final_offer: false
        }
    );
}

/// §8 S7: a forced accusation, the false accuser's bankruptcy and the seller's re-offer.
#[test]
fn s7_forced_accusation_bankruptcy_reoffer() {
    let mut g = base(4, 0);
    g.round = 2;
    set_grid(
        &mut g,
        &[
            "L-R 1  S-R 3  S-Y 2  S-Pk 3",
            "D-Pu 1  L-PuR 5  P-O X  P-Pk 2",
            "K-OY 1  P-Y 1  D-O 2  D-R 1",
        ],
    );
    for p in &mut g.players {
        p.limit = 2;
    }
    g.players[0].sold = true;
    g.players[1].bought = true;
    g.set_hand(B, &cards(&["S-Pk", "P-Pk", "L-PuR"]));
    g.set_hand(C, &cards(&["S-O", "WEED-2"]));
    g.set_purse(C, 4);
    g.phase = Phase::Offer {
        seller: B,
        min: 7,
        final_offer: false,
    };
    act(&mut g, B, offer(&["S-Pk", "P-Pk", "L-PuR"], C, 9));
    assert_eq!(
        code(&refused(&g, C, Action::Buy { liquidate: vec![] })),
        "buy-unaffordable"
    );
    assert_eq!(
        g.legal_actions(C),
        vec![LegalAction::action(Action::Accuse {})]
    );
    let (bank, seller) = (g.bank_issued, g.player(B).purse);
    act(&mut g, C, Action::Accuse {});
    assert!(g.player(C).bankrupt && g.player(C).hand.is_empty());
    assert_eq!(g.elimination_order, vec![C]);
    assert_eq!(g.player(B).purse, seller + 4);
    assert_eq!(
        bottom(&g, 5),
        cards(&["S-O", "WEED-2", "S-Pk", "P-Pk", "L-PuR"])
    );
    assert_eq!(g.bank_issued, bank, "Δbank = 0");
    assert_eq!(
        g.phase,
        Phase::Offer {
            seller: B,
            min: 1,
            final_offer: false
        }
    );
    assert_eq!(g.eligible_buyers(B), vec![D]);
    // B offers to D, D buys, then D's offer is FINAL to A.
    let (s, a) = first_concrete(&g);
    act(&mut g, s, a);
    act(&mut g, D, Action::Buy { liquidate: vec![] });
    assert!(matches!(
        g.phase,
        Phase::Offer {
            seller: D,
            final_offer: true,
            ..
        }
    ));
    while g.round == 2 {
        let (s, a) = first_concrete(&g);
        act(&mut g, s, a);
    }
    assert_eq!(g.fp, B, "next round's fp is B");
}

/// §8 S8: collapse by four crises; B and C tie at 58 and ord (C, A, B) decides.
#[test]
fn s8_collapse_by_four_crises_tiebreak() {
    let mut g = base(3, 2);
    g.round = 3;
    set_grid(&mut g, &G3P);
    g.players[2].sold = true;
    g.players[0].bought = true;
    g.set_purse(A, 40);
    g.set_purse(B, 50);
    g.set_purse(C, 63);
    g.set_hand(A, &cards(&["D-R", "SACK-1", "SACK-2"]));
    g.phase = Phase::Offer {
        seller: A,
        min: 2,
        final_offer: false,
    };
    act(&mut g, A, offer(&["D-R", "SACK-1", "SACK-2"], B, 4));
    act(&mut g, B, Action::Accuse {});
    assert_eq!((g.player(A).purse, g.player(B).purse), (37, 53));
    assert!(in_crisis(&g, "D-R"));
    assert_eq!(tokens(&g, "L-PuR"), 2);
    assert_eq!((tokens(&g, "P-Pk"), in_crisis(&g, "P-Pk")), (1, false));
    assert_eq!(g.crisis_count(), 4);
    assert_eq!(g.mv(Card::Queen), 12);
    assert!(!g.collapse_flag);
    assert_eq!(
        g.phase,
        Phase::Offer {
            seller: B,
            min: 3,
            final_offer: true
        }
    );
    let lot = g.player(B).hand[..3].to_vec();
    act(
        &mut g,
        B,
        Action::OfferLot {
            cards: lot,
            buyer: C,
            declared: 5,
        },
    );
    act(&mut g, C, Action::Buy { liquidate: vec![] });
    assert_eq!((g.player(B).purse, g.player(C).purse), (58, 58));
    let result = g.result.clone().unwrap();
    assert_eq!(result.reason, EndReason::Collapse);
    assert_eq!(result.ranking, vec![C, B, A]);
    assert_eq!(result.scores, Some(vec![Some(37), Some(58), Some(58)]));
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.ranks, vec![3, 2, 1]);
    assert_eq!(outcome.reason, "collapse");
}

/// §8 S9: a lie exposing a lot with no tulip collapses the market at once.
#[test]
fn s9_collapse_by_no_tulip_lot() {
    let mut g = base(4, 0);
    g.round = 2;
    for (i, (sold, bought, purse)) in [
        (true, false, 70),
        (true, true, 80),
        (true, true, 60),
        (false, true, 75),
    ]
    .into_iter()
    .enumerate()
    {
        g.players[i].sold = sold;
        g.players[i].bought = bought;
        g.set_purse(Seat(i as u8), purse);
    }
    g.set_hand(D, &cards(&["SACK-1", "SACK-2", "WEED-1", "L-R"]));
    g.phase = Phase::Offer {
        seller: D,
        min: 2,
        final_offer: true,
    };
    assert!(g.eligible_buyers(D).is_empty());
    act(&mut g, D, offer(&["SACK-1", "SACK-2", "WEED-1"], A, 3));
    let mut control = g.clone();
    act(&mut g, A, Action::Accuse {});
    assert_eq!((g.player(D).purse, g.player(A).purse), (72, 73));
    assert!(g.collapse_flag);
    assert_eq!(g.sack_supply.len(), 10);
    assert_eq!(bottom(&g, 1), cards(&["WEED-1"]));
    let result = g.result.clone().unwrap();
    assert_eq!(result.reason, EndReason::Collapse);
    assert_eq!(result.ranking, vec![B, A, D, C]);
    assert_eq!(
        result.scores,
        Some(vec![Some(73), Some(80), Some(60), Some(72)])
    );
    // Control: buying reveals nothing and nothing collapses.
    act(&mut control, A, Action::Buy { liquidate: vec![] });
    assert!(!control.collapse_flag && control.result.is_none());
}

/// §8 S10: complete-portfolio reveal and full scoring; a tie broken by the best tulip.
#[test]
fn s10_reveal_and_full_scoring() {
    let mut g = base(3, 0);
    g.round = 4;
    set_grid(&mut g, &G10);
    for (i, (option, limit)) in [(2, 5), (1, 4), (1, 4)].into_iter().enumerate() {
        g.players[i].option = Some(option);
        g.players[i].limit = limit;
    }
    g.set_hand(A, &cards(&["L-Y", "P-Y", "D-Y", "K-OY", "BOUQUET"]));
    g.set_hand(B, &cards(&["L-PuR", "S-OPk", "P-YR", "D-PkPu"]));
    g.set_hand(C, &cards(&["S-R", "SEMPER", "WEED-1", "SACK-4"]));
    g.set_purse(A, 50);
    g.set_purse(B, 45);
    g.set_purse(C, 60);
    g.offer = None;
    g.phase = Phase::Reveal;
    assert_eq!(g.mv(Card::Semper), 9);
    let mut late = g.clone();
    late.players[0].reveal_decided = true;
    late.players[1].reveal_decided = true;
    assert_eq!(
        code(&refused(&late, C, Action::RevealPortfolio {})),
        "no-complete-portfolio"
    );
    act(&mut g, A, Action::RevealPortfolio {});
    let result = g.result.clone().unwrap();
    assert_eq!(result.reason, EndReason::Reveal);
    assert_eq!(result.scores, Some(vec![Some(79), Some(79), Some(71)]));
    assert_eq!(
        (g.best_tulip(A), g.best_tulip(B), g.best_tulip(C)),
        (4, 6, 9)
    );
    assert_eq!(result.ranking, vec![B, A, C]);
    // Every hand is public once the game is over.
    let view = g.view(Viewer::Spectator);
    assert_eq!(
        view.players[1].hand,
        Some(cards(&["L-PuR", "S-OPk", "P-YR", "D-PkPu"]))
    );
    assert_eq!(code(&refused(&g, B, Action::DeclineReveal {})), "game-over");
}

/// §8 S11: market manipulation, its fee and its rejected attempts.
#[test]
fn s11_market_manipulation() {
    let mut g = base(3, 0);
    g.round = 4;
    set_grid(
        &mut g,
        &[
            "S-R X  L-R 2  D-O 2  S-Y 1  P-R 0",
            "P-Y X  P-O X  L-Pk 0  L-O 0  L-Pu 0",
            "S-Pk 0  S-O 0  S-Pu 0  P-Pk 0  P-Pu 0",
            "D-R 0  D-Pk 0  D-Pu 0  D-Y 0  K-OY 0",
        ],
    );
    g.set_purse(B, 20);
    g.set_purse(C, 3);
    g.offer = None;
    g.phase = Phase::Manipulate;
    act(&mut g, A, Action::PassManipulation {});
    let mv = |from: &str, to: &str| Action::MoveCrisis {
        from: cell(from),
        to: cell(to),
    };
    assert_eq!(code(&refused(&g, B, mv("S-R", "P-O"))), "target-in-crisis");
    assert_eq!(
        code(&refused(&g, B, mv("S-R", "D-O"))),
        "no-shared-attribute"
    );
    assert_eq!(
        code(&refused(&g, B, mv("D-O", "S-Y"))),
        "source-not-in-crisis"
    );
    assert_eq!(code(&refused(&g, B, mv("S-R", "S-R"))), "same-cell");
    assert_eq!(code(&refused(&g, B, mv("S-R", "L-PuR"))), "unknown-cell");
    let bank = g.bank_issued;
    act(&mut g, B, mv("S-R", "L-R"));
    assert_eq!(g.player(B).purse, 16);
    assert_eq!(g.bank_issued - bank, -6);
    assert!(in_crisis(&g, "L-R") && tokens(&g, "L-R") == 0);
    assert!(!in_crisis(&g, "S-R") && tokens(&g, "S-R") == 0);
    assert_eq!(g.crisis_count(), 3);
    assert_eq!(code(&refused(&g, B, mv("P-Y", "D-Y"))), "not-your-turn");
    assert_eq!(
        g.legal_actions(C),
        vec![LegalAction::action(Action::PassManipulation {})]
    );
    assert_eq!(code(&refused(&g, C, mv("P-Y", "D-Y"))), "fee-unaffordable");
    act(&mut g, C, Action::PassManipulation {});
    assert!(
        matches!(g.phase, Phase::Offer { seller: A, .. }),
        "no earmarks: straight to Phase 5"
    );
}

/// §8 S12: investment options, the Phase 1 discard, placement and the Phase 6 return.
#[test]
fn s12_investment_discard_placement() {
    let mut g = base(4, 1);
    g.round = 2;
    g.offer = None;
    g.set_hand(A, &cards(&["L-Pk", "S-O", "P-Pu", "D-Pk"]));
    g.set_hand(B, &cards(&["L-Y"]));
    g.set_hand(C, &cards(&["S-Pu"]));
    g.set_hand(D, &cards(&["P-R"]));
    g.set_purse(C, 5);
    set_grid(&mut g, &G1_PO_CRISIS);
    g.stack_market(&[cell("S-Pk"), cell("P-Pk"), cell("D-R")]);
    for p in &mut g.players {
        p.option = None;
        p.earmark = 0;
    }
    g.phase = Phase::Declare;
    let declare = |name: &str| Action::DeclareInvestment {
        option: name.into(),
    };
    assert_eq!(code(&refused(&g, A, declare("abstain"))), "not-your-turn");
    act(&mut g, B, declare("abstain"));
    assert_eq!(
        code(&refused(&g, C, declare("patron"))),
        "option-unaffordable"
    );
    assert_eq!(code(&refused(&g, C, declare("tycoon"))), "unknown-option");
    act(&mut g, C, declare("broker"));
    assert_eq!((g.player(C).purse, g.player(C).earmark), (2, 3));
    act(&mut g, D, declare("abstain"));
    act(&mut g, A, declare("broker"));
    assert_eq!(g.player(A).limit, 3);
    assert_eq!((g.phase.clone(), g.actor()), (Phase::Discard, Some(A)));
    let discard = |ids: &[&str]| Action::Discard { cards: cards(ids) };
    assert_eq!(
        code(&refused(&g, A, discard(&["L-Pk", "S-O"]))),
        "wrong-card-count"
    );
    assert_eq!(code(&refused(&g, A, discard(&["S-R"]))), "card-not-in-hand");
    assert_eq!(g.legal_actions(A).len(), 4);
    act(&mut g, A, discard(&["L-Pk"]));
    assert_eq!(bottom(&g, 1), cards(&["L-Pk"]));
    assert_eq!((g.phase.clone(), g.actor()), (Phase::AddLine, Some(B)));
    act(&mut g, B, Action::AddMarketLine { side: Side::Right });
    expect_grid(&g, &G2);
    for seat in [B, C, D, A] {
        act(&mut g, seat, Action::PassManipulation {});
    }
    assert_eq!((g.phase.clone(), g.actor()), (Phase::Place, Some(C)));
    let place = |alloc: &[(&str, u32)]| Action::PlaceInvestment {
        alloc: alloc.iter().map(|&(c, n)| (cell(c), n)).collect(),
    };
    assert_eq!(
        code(&refused(&g, C, place(&[("P-O", 3)]))),
        "cell-in-crisis"
    );
    assert_eq!(
        code(&refused(&g, C, place(&[("S-Pk", 3), ("D-R", 0)]))),
        "amount-not-positive"
    );
    assert_eq!(
        code(&refused(&g, C, place(&[("S-Pk", 2)]))),
        "allocation-sum-mismatch"
    );
    assert_eq!(code(&refused(&g, C, place(&[("L-O", 3)]))), "unknown-cell");
    act(&mut g, C, place(&[("L-PuR", 3)]));
    assert_eq!(tokens(&g, "L-PuR"), 5);
    act(&mut g, A, place(&[("S-Pk", 2), ("D-R", 1)]));
    assert_eq!((tokens(&g, "S-Pk"), tokens(&g, "D-R")), (4, 2));
    assert!(matches!(g.phase, Phase::Offer { seller: B, .. }));
    // The chain with purchases only: B buys the final lot and must return 2.
    while !matches!(g.phase, Phase::Return) {
        let (s, a) = first_concrete(&g);
        let a = if let Action::Buy { .. } = a {
            Action::Buy { liquidate: vec![] }
        } else {
            a
        };
        act(&mut g, s, a);
    }
    assert_eq!(g.actor(), Some(B));
    assert_eq!(g.player(B).hand.len(), 4);
    let hand = g.player(B).hand.clone();
    assert_eq!(
        code(&refused(
            &g,
            B,
            Action::ReturnExcess {
                cards: vec![hand[0], hand[0]]
            }
        )),
        "duplicate-card"
    );
    assert_eq!(
        code(&refused(
            &g,
            B,
            Action::ReturnExcess {
                cards: vec![hand[0]]
            }
        )),
        "wrong-card-count"
    );
    assert_eq!(g.legal_actions(B).len(), 6);
    act(
        &mut g,
        B,
        Action::ReturnExcess {
            cards: hand[..2].to_vec(),
        },
    );
    assert_eq!(g.phase, Phase::Reveal);
}

/// §8 S13: chain order and minimum declarations with four players and no accusations.
#[test]
fn s13_chain_order_and_minimums() {
    let options = Options {
        first_player: Some(0),
        ..Options::legacy()
    };
    let mut g = TulipTraders::setup(4, &options, &mut GameRng::for_entry([5; 32], 0))
        .unwrap()
        .0;
    act(
        &mut g,
        A,
        Action::DeclareInvestment {
            option: "broker".into(),
        },
    );
    for seat in [B, C, D] {
        act(
            &mut g,
            seat,
            Action::DeclareInvestment {
                option: "abstain".into(),
            },
        );
    }
    let (s, a) = first_concrete(&g);
    assert_eq!(s, A);
    act(&mut g, s, a);
    assert_eq!(
        g.phase,
        Phase::Offer {
            seller: A,
            min: 1,
            final_offer: false
        }
    );
    let purses: Vec<i64> = g.players.iter().map(|p| i64::from(p.purse)).collect();
    let lot = |g: &TulipTraders, s: Seat| g.player(s).hand[..3].to_vec();
    let l = lot(&g, A);
    act(
        &mut g,
        A,
        Action::OfferLot {
            cards: l,
            buyer: C,
            declared: 2,
        },
    );
    act(&mut g, C, Action::Buy { liquidate: vec![] });
    assert_eq!(
        g.phase,
        Phase::Offer {
            seller: C,
            min: 3,
            final_offer: false
        }
    );
    assert_eq!(
        code(&refused(
            &g,
            C,
            Action::OfferLot {
                cards: lot(&g, C),
                buyer: A,
                declared: 3
            }
        )),
        "buyer-not-allowed"
    );
    assert_eq!(
        code(&refused(
            &g,
            C,
            Action::OfferLot {
                cards: lot(&g, C),
                buyer: B,
                declared: 2
            }
        )),
        "declared-too-low"
    );
    assert_eq!(
        code(&refused(
            &g,
            C,
            Action::OfferLot {
                cards: lot(&g, C),
                buyer: B,
                declared: 1_000_001
            }
        )),
        "declared-too-high"
    );
    assert_eq!(
        code(&refused(
            &g,
            C,
            Action::OfferLot {
                cards: lot(&g, C)[..2].to_vec(),
                buyer: B,
                declared: 3
            }
        )),
        "wrong-card-count"
    );
    let l = lot(&g, C);
    act(
        &mut g,
        C,
        Action::OfferLot {
            cards: l,
            buyer: B,
            declared: 3,
        },
    );
    act(&mut g, B, Action::Buy { liquidate: vec![] });
    assert_eq!(
        g.phase,
        Phase::Offer {
            seller: B,
            min: 4,
            final_offer: false
        }
    );
    let l = lot(&g, B);
    act(
        &mut g,
        B,
        Action::OfferLot {
            cards: l,
            buyer: D,
            declared: 5,
        },
    );
    assert_eq!(
        code(&refused(
            &g,
            D,
            Action::Buy {
                liquidate: cards(&["SEMPER"])
            }
        )),
        "liquidation-not-allowed"
    );
    act(&mut g, D, Action::Buy { liquidate: vec![] });
    assert_eq!(
        g.phase,
        Phase::Offer {
            seller: D,
            min: 6,
            final_offer: true
        }
    );
    assert_eq!(
        code(&refused(
            &g,
            D,
            Action::OfferLot {
                cards: lot(&g, D),
                buyer: B,
                declared: 6
            }
        )),
        "buyer-not-allowed"
    );
    let l = lot(&g, D);
    act(
        &mut g,
        D,
        Action::OfferLot {
            cards: l,
            buyer: A,
            declared: 6,
        },
    );
    act(&mut g, A, Action::Buy { liquidate: vec![] });
    assert_eq!(g.player(A).hand.len(), 4);
    let net: Vec<i64> = g
        .players
        .iter()
        .zip(&purses)
        .map(|(p, before)| i64::from(p.purse) - before)
        .collect();
    assert_eq!(net, vec![-4, 2, 1, 1]);
    assert_eq!(
        (g.phase.clone(), g.actor()),
        (Phase::Return, Some(A)),
        "A (BROKER, limit 3) returns 1"
    );
    assert_eq!(g.legal_actions(A).len(), 4);
}

/// §8 S14: the sole survivor; the revealed lot stays frozen in the offer.
#[test]
fn s14_sole_survivor() {
    let mut g = base(3, 0);
    g.round = 4;
    set_grid(&mut g, &G10);
    g.set_hand(B, &[]);
    g.set_purse(B, 0);
    g.players[1].bankrupt = true;
    g.elimination_order = vec![B];
    g.set_hand(C, &cards(&["S-O", "WEED-2"]));
    g.set_purse(C, 3);
    g.set_hand(A, &cards(&["S-R", "L-PuR", "D-PkPu"]));
    g.phase = Phase::Offer {
        seller: A,
        min: 2,
        final_offer: false,
    };
    assert_eq!(g.ord(), vec![A, C]);
    assert_eq!(g.lot_value(&cards(&["S-R", "L-PuR", "D-PkPu"])), 14);
    let purse = g.player(A).purse;
    act(&mut g, A, offer(&["S-R", "L-PuR", "D-PkPu"], C, 12));
    assert_eq!(
        g.legal_actions(C),
        vec![LegalAction::action(Action::Accuse {})]
    );
    act(&mut g, C, Action::Accuse {});
    assert_eq!(g.player(A).purse, purse + 3);
    let result = g.result.clone().unwrap();
    assert_eq!(result.reason, EndReason::SoleSurvivor);
    assert_eq!(result.ranking, vec![A, C, B]);
    assert_eq!(result.scores, None);
    let frozen = g.offer.clone().unwrap();
    assert!(frozen.revealed);
    assert_eq!(frozen.lot, cards(&["S-R", "L-PuR", "D-PkPu"]));
    assert_eq!(g.outcome().unwrap().ranks, vec![1, 3, 2]);
    assert!(g.to_act().is_empty());
}

/// §8 S15: valuing SEMPER, QUEEN and BOUQUET; a lie with no market effect.
#[test]
fn s15_special_cards_lie_without_market_effect() {
    let mut g = base(3, 0);
    g.round = 3;
    set_grid(
        &mut g,
        &[
            "L-R 2  S-R X  S-Y 0  S-Pk 3",
            "D-Pu 1  P-R 1  D-O 2  P-Pk 1",
            "K-OY 0  P-Y X  P-O 1  D-R 1",
            "L-Y 1  D-PkPu 2  S-O 0  L-PuR 7",
        ],
    );
    g.set_hand(A, &cards(&["SEMPER", "QUEEN", "BOUQUET"]));
    g.phase = Phase::Offer {
        seller: A,
        min: 2,
        final_offer: false,
    };
    let lot = ["SEMPER", "QUEEN", "BOUQUET"];
    assert_eq!(g.lot_value(&cards(&lot)), 13);
    let mut control = g.clone();
    let (bank, grid, a, b) = (
        g.bank_issued,
        g.grid.clone(),
        g.player(A).purse,
        g.player(B).purse,
    );
    act(&mut g, A, offer(&lot, B, 14));
    act(&mut g, B, Action::Accuse {});
    assert_eq!((g.player(A).purse, g.player(B).purse), (a - 1, b + 1));
    assert_eq!(g.grid, grid, "no crises, no ripples");
    assert_eq!(g.bank_issued, bank);
    assert!(!g.collapse_flag);
    assert_eq!(bottom(&g, 3), cards(&lot));
    assert_eq!(
        g.phase,
        Phase::Offer {
            seller: B,
            min: 3,
            final_offer: false
        }
    );
    act(&mut control, A, offer(&lot, B, 13));
    act(&mut control, B, Action::Accuse {});
    assert_eq!(
        (control.player(A).purse, control.player(B).purse),
        (a + 13, b - 13)
    );
}

/// §2.4, §2.5: a sealed lot is seen only by its seller; draws are private with a public twin.
#[test]
fn sealed_lot_and_private_draws() {
    let mut g = base(3, 0);
    let hand = g.player(A).hand.clone();
    assert_eq!(g.view(Viewer::Seat(B)).players[0].hand, None);
    assert_eq!(g.view(Viewer::Seat(A)).players[0].hand, Some(hand.clone()));
    assert_eq!(g.view(Viewer::Spectator).players[0].hand_size, 4);
    act(
        &mut g,
        A,
        Action::OfferLot {
            cards: hand[..3].to_vec(),
            buyer: B,
            declared: 1,
        },
    );
    assert_eq!(
        g.view(Viewer::Seat(A)).offer.unwrap().lot,
        Some(hand[..3].to_vec())
    );
    assert_eq!(g.view(Viewer::Seat(B)).offer.unwrap().lot, None);
    assert_eq!(g.view(Viewer::Spectator).offer.unwrap().lot_size, 3);
    let events = act(&mut g, B, Action::Accuse {});
    let draws: Vec<_> = events
        .iter()
        .filter(|e| matches!(e.event, Event::CardsDrawn { .. }))
        .collect();
    assert_eq!(draws.len(), 2);
    assert_eq!(
        draws[0].visibility,
        Visibility::Seats(game_core::SeatSet::only(B))
    );
    assert!(matches!(&draws[0].event, Event::CardsDrawn { cards: Some(c), .. } if c.len() == 3));
    assert_eq!(
        draws[1].visibility,
        Visibility::AllExcept(game_core::SeatSet::only(B))
    );
    assert!(matches!(
        draws[1].event,
        Event::CardsDrawn {
            cards: None,
            count: 3,
            ..
        }
    ));
    assert_eq!(
        TulipTraders::action_visibility(&Action::Discard { cards: vec![] }, A),
        Visibility::Seats(game_core::SeatSet::only(A))
    );
}

/// §6.2: three pairs with distinct attributes, and the BOUQUET as a wild bicolor.
#[test]
fn complete_portfolio_patterns() {
    let options = Options::legacy();
    let bonus = |ids: &[&str]| game_tulip_traders::scoring::bonus(&cards(ids), &options);
    assert_eq!(
        bonus(&["L-R", "S-R", "P-Y", "D-Y", "L-O", "S-O"]),
        15,
        "three pairs"
    );
    assert_eq!(
        bonus(&["L-PuR", "S-OPk", "P-YR", "BOUQUET"]),
        20,
        "bicolor ×4 with a wild"
    );
    assert_eq!(
        bonus(&["L-R", "L-Pk", "L-O", "L-Pu", "L-Y", "L-PuR", "S-R"]),
        30,
        "type ×6 from seven"
    );
    assert_eq!(
        bonus(&["L-R", "S-Pk", "P-O", "SEMPER", "QUEEN"]),
        0,
        "SEMPER and QUEEN never count"
    );
    let two = Options {
        max_bonuses_per_player: 2,
        ..Options::legacy()
    };
    let hand = cards(&["L-R", "S-R", "P-R", "D-R", "L-Y", "S-Y", "P-Y", "D-Y"]);
    assert_eq!(
        game_tulip_traders::scoring::bonus(&hand, &two),
        20,
        "two disjoint colour ×4"
    );
}

/// §4.1: ids are parsed by serde, so an unknown card or cell id is not an action at all.
#[test]
fn unknown_ids_are_rejected_at_parse_time() {
    assert!(serde_json::from_str::<Action>(r#"{"type":"discard","cards":["X-Q"]}"#).is_err());
    assert!(
        serde_json::from_str::<Action>(r#"{"type":"move_crisis","from":"S-R","to":"M:L-R"}"#)
            .is_err()
    );
    assert!(serde_json::from_str::<Action>(r#"{"type":"accuse","extra":1}"#).is_err());
    let parsed: Action =
        serde_json::from_str(r#"{"type":"place_investment","alloc":{"M:S-Pk":2,"M:D-R":1}}"#)
            .unwrap();
    assert_eq!(
        parsed,
        Action::PlaceInvestment {
            alloc: BTreeMap::from([(cell("S-Pk"), 2), (cell("D-R"), 1)])
        }
    );
    let buy: Action = serde_json::from_str(r#"{"type":"buy"}"#).unwrap();
    assert_eq!(buy, Action::Buy { liquidate: vec![] });
}

/// §9 I20: the disruption does not depend on the order of the lot (S4 with the lot reversed).
#[test]
fn i20_disruption_is_order_independent() {
    let run = |lot: &[&str]| {
        let mut g = base(3, 0);
        g.round = 3;
        set_grid(&mut g, &G3);
        g.set_hand(A, &cards(lot));
        g.phase = Phase::Offer {
            seller: A,
            min: 2,
            final_offer: false,
        };
        act(&mut g, A, offer(lot, B, 15));
        act(&mut g, B, Action::Accuse {});
        (g.grid.clone(), g.bank_issued)
    };
    let forward = run(&["S-R", "P-Y", "SACK-3"]);
    assert_eq!(forward, run(&["SACK-3", "P-Y", "S-R"]));
    assert_eq!(forward, run(&["P-Y", "SACK-3", "S-R"]));
}

/// §1.8 setup logs the opening market (nine `market_card_placed`, with any `boom`), each
/// seat's dealt card (`cards_drawn`: the card to the seat, the count alone to the others), and
/// `round_started` with the first player.
#[test]
fn setup_logs_the_deal() {
    let (game, events) =
        TulipTraders::setup(4, &Options::legacy(), &mut GameRng::for_entry([9; 32], 0)).unwrap();
    let placed: Vec<Cell> = events
        .iter()
        .filter_map(|logged| match logged.event {
            Event::MarketCardPlaced { cell, .. } => {
                assert_eq!(logged.visibility, Visibility::Public);
                Some(cell)
            }
            _ => None,
        })
        .collect();
    let on_grid: Vec<Cell> = game.grid.slots.iter().flatten().map(|c| c.cell).collect();
    assert_eq!(placed.len(), 9);
    assert_eq!(placed, on_grid);
    for seat in Seat::all(4) {
        let seen: Vec<(Seat, Option<Vec<Card>>)> = events
            .iter()
            .filter(|logged| logged.visibility.shows(Viewer::Seat(seat)))
            .filter_map(|logged| match &logged.event {
                Event::CardsDrawn {
                    seat, cards, count, ..
                } => {
                    assert_eq!(*count, 1);
                    Some((*seat, cards.clone()))
                }
                _ => None,
            })
            .collect();
        assert_eq!(seen.len(), 4, "{seat} sees every seat's deal once");
        for (owner, cards) in seen {
            if owner == seat {
                assert_eq!(cards.as_deref(), Some(&game.players[seat.index()].hand[..]));
            } else {
                assert_eq!(cards, None, "{seat} sees {owner}'s card");
            }
        }
    }
    assert!(events.iter().any(|logged| logged.event
        == Event::RoundStarted {
            round: 1,
            fp: game.fp
        }));
}

/// Issue 54: the declared value of a lot is one range, from the least the rules allow to the
/// largest, with a believable value suggested (`default`, `examples`), and the buyer a choice of
/// seats named at listing; the family is sealed.
#[test]
fn the_offer_schema_declares_one_range_and_a_choice_of_buyers() {
    let mut g = base(3, 0);
    g.set_hand(A, &cards(&["K-OY", "L-O", "WEED-1"]));
    g.phase = Phase::Offer {
        seller: A,
        min: 4,
        final_offer: false,
    };
    let schema = g
        .legal_actions(A)
        .into_iter()
        .find_map(|entry| match entry {
            LegalAction::Schema { schema, .. } => Some(schema),
            LegalAction::Action { .. } => None,
        })
        .expect("an offer family");
    let declared = &schema["properties"]["declared"];
    assert_eq!(declared["type"], "integer", "{declared}");
    assert_eq!(declared["minimum"], 4, "{declared}");
    assert!(declared.get("anyOf").is_none(), "one range: {declared}");
    assert_eq!(declared["default"], 4);
    let buyer = &schema["properties"]["buyer"];
    assert_eq!(buyer["x-seat-choice"], true, "{buyer}");
}
