//! §7.2: each option that changes a rule, shown on a scenario of §8.

use crate::common::*;
use game_core::{Game, GameRng, Seat};
use game_tulip_traders::options::{ReofferMin, SemperValue};
use game_tulip_traders::state::EndReason;
use game_tulip_traders::{Action, Card, Options, Phase, Side, TulipTraders};

/// A `base` game with different options.
fn with(n: u8, fp: u8, options: Options) -> TulipTraders {
    let mut g = base(n, fp);
    g.options = Options {
        first_player: Some(fp),
        allow_two_players: true,
        ..options
    };
    g
}

/// `post_accusation_min_strict = false`: after S0 the accuser sells from RV, not RV + 1.
#[test]
fn lenient_post_accusation_minimum() {
    let mut g = with(
        3,
        0,
        Options {
            post_accusation_min_strict: false,
            ..Options::legacy()
        },
    );
    set_grid(&mut g, &G0);
    g.set_hand(A, &cards(&["K-OY", "L-O", "WEED-1"]));
    g.phase = Phase::Offer {
        seller: A,
        min: 1,
        final_offer: false,
    };
    act(&mut g, A, offer(&["K-OY", "L-O", "WEED-1"], B, 7));
    act(&mut g, B, Action::Accuse {});
    assert_eq!(
        g.phase,
        Phase::Offer {
            seller: B,
            min: 1,
            final_offer: false
        }
    );
}

/// The S7 position with the given options, after B's offer to C at 9.
fn s7(options: Options) -> TulipTraders {
    let mut g = with(4, 0, options);
    g.round = 2;
    set_grid(
        &mut g,
        &[
            "L-R 1  S-R 3  S-Y 2  S-Pk 3",
            "D-Pu 1  L-PuR 5  P-O X  P-Pk 2",
            "K-OY 1  P-Y 1  D-O 2  D-R 1",
        ],
    );
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
    g
}

/// `reoffer_min = rv_plus_one`: S7's re-offer needs RV + 1.
#[test]
fn reoffer_minimum_rv_plus_one() {
    let mut g = s7(Options {
        reoffer_min: ReofferMin::RvPlusOne,
        ..Options::legacy()
    });
    act(&mut g, C, Action::Accuse {});
    assert_eq!(
        g.phase,
        Phase::Offer {
            seller: B,
            min: 2,
            final_offer: false
        }
    );
}

/// `auto_single_choice`: S7's forced accusation is played by the engine.
#[test]
fn auto_single_choice_plays_the_forced_accusation() {
    let g = s7(Options {
        auto_single_choice: true,
        ..Options::legacy()
    });
    assert!(g.player(C).bankrupt);
    assert_eq!(
        g.phase,
        Phase::Offer {
            seller: B,
            min: 1,
            final_offer: false
        }
    );
}

/// `crisis_arrival_wipes = false`: S11's target keeps its tokens, inert while in crisis.
#[test]
fn crisis_keeps_inert_tokens() {
    let mut g = with(
        3,
        0,
        Options {
            crisis_arrival_wipes: false,
            ..Options::legacy()
        },
    );
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
    g.offer = None;
    g.phase = Phase::Manipulate;
    act(&mut g, A, Action::PassManipulation {});
    let bank = g.bank_issued;
    act(
        &mut g,
        B,
        Action::MoveCrisis {
            from: cell("S-R"),
            to: cell("L-R"),
        },
    );
    assert_eq!(g.bank_issued - bank, -4, "only the fee leaves");
    assert!(in_crisis(&g, "L-R"));
    assert_eq!((tokens(&g, "L-R"), g.mv(card("L-R"))), (2, 0));
}

/// `crisis_neighbour_booms = true`: in S2, P-Pk still booms off P-O in crisis (P-O gets nothing).
#[test]
fn crisis_neighbour_still_booms() {
    let mut g = with(
        3,
        0,
        Options {
            crisis_neighbour_booms: true,
            ..Options::legacy()
        },
    );
    g.round = 2;
    set_grid(&mut g, &G1_PO_CRISIS);
    g.stack_market(&[cell("S-Pk"), cell("P-Pk"), cell("D-R")]);
    g.phase = Phase::AddLine;
    let bank = g.bank_issued;
    act(&mut g, A, Action::AddMarketLine { side: Side::Right });
    assert_eq!((tokens(&g, "P-Pk"), tokens(&g, "P-O")), (2, 0));
    assert_eq!(g.bank_issued - bank, 7);
}

/// `sacks_to_supply = false`: S4's SACK-3 follows the lot into the deck.
#[test]
fn sacks_follow_the_lot() {
    let mut g = with(
        3,
        0,
        Options {
            sacks_to_supply: false,
            ..Options::legacy()
        },
    );
    g.round = 3;
    set_grid(&mut g, &G3);
    g.set_hand(A, &cards(&["S-R", "P-Y", "SACK-3"]));
    g.phase = Phase::Offer {
        seller: A,
        min: 2,
        final_offer: false,
    };
    act(&mut g, A, offer(&["S-R", "P-Y", "SACK-3"], B, 15));
    act(&mut g, B, Action::Accuse {});
    assert_eq!(bottom(&g, 3), cards(&["S-R", "P-Y", "SACK-3"]));
    assert_eq!(g.sack_supply.len(), 9);
}

/// The S10 position with the given options, after A reveals.
fn s10(options: Options) -> TulipTraders {
    let mut g = with(3, 0, options);
    g.round = 4;
    set_grid(&mut g, &G10);
    g.set_hand(A, &cards(&["L-Y", "P-Y", "D-Y", "K-OY", "BOUQUET"]));
    g.set_hand(B, &cards(&["L-PuR", "S-OPk", "P-YR", "D-PkPu"]));
    g.set_hand(C, &cards(&["S-R", "SEMPER", "WEED-1", "SACK-4"]));
    g.set_purse(A, 50);
    g.set_purse(B, 45);
    g.set_purse(C, 60);
    for p in &mut g.players {
        p.limit = 5;
    }
    g.offer = None;
    g.phase = Phase::Reveal;
    act(&mut g, A, Action::RevealPortfolio {});
    g
}

/// `score_includes_cash = false`, `weed_penalty`, `semper_value`: S10 rescored.
#[test]
fn scoring_options() {
    let g = s10(Options {
        score_includes_cash: false,
        ..Options::legacy()
    });
    let result = g.result.clone().unwrap();
    assert_eq!(result.scores, Some(vec![Some(29), Some(34), Some(11)]));
    assert_eq!(result.ranking, vec![B, A, C]);
    let g = s10(Options {
        weed_penalty: -10,
        semper_value: SemperValue::Fixed(20),
        ..Options::legacy()
    });
    assert_eq!(
        g.result.unwrap().scores,
        Some(vec![Some(79), Some(79), Some(77)])
    );
}

/// `queen_per_crisis` and `bouquet_value` change the special cards' market values.
#[test]
fn special_card_values() {
    let mut g = with(
        3,
        0,
        Options {
            queen_per_crisis: 5,
            bouquet_value: 2,
            ..Options::legacy()
        },
    );
    set_grid(&mut g, &G1_PO_CRISIS);
    assert_eq!((g.mv(Card::Queen), g.mv(Card::Bouquet)), (5, 2));
}

/// `three_pairs_distinct = false`: pairs may share the same attribute.
#[test]
fn three_pairs_without_distinct_attributes() {
    let hand = cards(&["L-Pk", "L-Pu", "L-O", "L-Y", "S-R", "P-R"]);
    let strict = Options::legacy();
    let lenient = Options {
        three_pairs_distinct: false,
        ..Options::legacy()
    };
    assert_eq!(
        game_tulip_traders::scoring::bonus(&hand, &strict),
        10,
        "only Lily ×4"
    );
    assert_eq!(
        game_tulip_traders::scoring::bonus(&hand, &lenient),
        15,
        "Lily, Lily, Red"
    );
}

/// `collapse_tiebreak_precollapse_values`: S8's tie goes to the better final-grid tulip.
#[test]
fn collapse_tiebreak_uses_final_values() {
    let mut g = with(
        3,
        2,
        Options {
            collapse_tiebreak_precollapse_values: true,
            ..Options::legacy()
        },
    );
    g.round = 3;
    set_grid(&mut g, &G3P);
    g.players[2].sold = true;
    g.players[0].bought = true;
    g.set_purse(A, 40);
    g.set_purse(B, 50);
    g.set_purse(C, 63);
    g.set_hand(A, &cards(&["D-R", "SACK-1", "SACK-2"]));
    g.set_hand(B, &cards(&["L-R", "WEED-2"]));
    g.set_hand(C, &cards(&["S-Pk"]));
    g.stack_deck(&cards(&["S-O", "D-Pu", "L-Y"]));
    g.phase = Phase::Offer {
        seller: A,
        min: 2,
        final_offer: false,
    };
    act(&mut g, A, offer(&["D-R", "SACK-1", "SACK-2"], B, 4));
    act(&mut g, B, Action::Accuse {});
    // B keeps L-R (2) and sells C three cards worth at most 1 each; C keeps S-Pk (3).
    act(&mut g, B, offer(&["S-O", "D-Pu", "L-Y"], C, 5));
    act(&mut g, C, Action::Buy { liquidate: vec![] });
    let result = g.result.clone().unwrap();
    assert_eq!(result.reason, EndReason::Collapse);
    assert_eq!((g.best_tulip(B), g.best_tulip(C)), (2, 3));
    assert_eq!(result.ranking, vec![C, B, A]);
}

/// Setup honours `first_player` and refuses two seats without the variant.
#[test]
fn seats_and_first_player() {
    let mut rng = GameRng::for_entry([2; 32], 0);
    let g = TulipTraders::setup(
        3,
        &Options {
            first_player: Some(2),
            ..Options::legacy()
        },
        &mut rng,
    )
    .unwrap()
    .0;
    assert_eq!((g.fp, g.actor()), (C, Some(C)));
    let err = TulipTraders::setup(2, &Options::legacy(), &mut rng).unwrap_err();
    assert_eq!(err.code(), "bad-seat-count");
    let two = TulipTraders::setup(
        2,
        &Options {
            allow_two_players: true,
            ..Options::legacy()
        },
        &mut rng,
    )
    .unwrap()
    .0;
    assert_eq!(two.portfolio_deck.len(), 28);
    assert_eq!(two.market_deck.len(), 16);
    assert_eq!(Seat(0), A);
}
