//! The greedy player (`game_tulip_bubble::greedy`), the plan the searching bots follow: its
//! move in hand-built positions, and that it reaches the Black Tulip, which random play
//! never does.

use crate::rulebook::{conceal, finance, finish, game, marked, play, slots, t, ANDY, BOB, CHARLES};
use game_core::search::sensible_action;
use game_core::testing::game_seed;
use game_core::{Game, GameRng, Seat, SeatSet};
use game_tulip_bubble::greedy::{self, Forecast, MARGIN};
use game_tulip_bubble::{
    Action, Auction, CardId, Collector, EndReason, HighBid, Options, Payment, PaymentMethod, Phase,
    Resolution, Track, TulipBubble,
};

/// The greedy move of `seat`, checked to be the game's plan and a move the rules accept.
fn chosen(game: &TulipBubble, seat: Seat) -> Action {
    let action = greedy::choose(game, seat).expect("the game waits on the seat");
    let plan = game.plan(seat, &mut GameRng::for_entry([1; 32], 0));
    assert_eq!(plan.as_ref(), Some(&action), "the plan is the greedy move");
    play(&mut game.clone(), seat, action.clone());
    action
}

fn ids(list: &[&str]) -> Vec<CardId> {
    list.iter().map(|&id| CardId::from(id)).collect()
}

#[test]
fn in_the_black_tulip_window_it_claims_when_it_may_and_buys_its_loans_back_first() {
    let mut game = game(3);
    game.round = 5;
    game.phase = Phase::BlackTulipWindow {
        submitted: SeatSet::EMPTY,
        claims: SeatSet::EMPTY,
    };
    game.players[ANDY.index()].cash = 130;
    game.players[BOB.index()].cash = 130;
    finance(&mut game, BOB, &[("RA#1", 5)]);
    game.players[CHARLES.index()].cash = 125;
    finance(&mut game, CHARLES, &[("WA#1", 10)]);
    finish(&mut game);
    let claim = |claim| Action::BlackTulipDecision { claim };
    assert_eq!(chosen(&game, ANDY), claim(true));
    // ƒ125 after repaying ƒ5: above the threshold.
    assert_eq!(
        chosen(&game, BOB),
        Action::BuyBack {
            tulip: "RA#1".into()
        }
    );
    // ƒ115 after repaying ƒ10: not enough, so the loan stays.
    assert_eq!(chosen(&game, CHARLES), claim(false));
    play(
        &mut game,
        BOB,
        Action::BuyBack {
            tulip: "RA#1".into(),
        },
    );
    assert_eq!(chosen(&game, BOB), claim(true));
    // The table's own threshold counts.
    game.options.black_tulip_threshold = 130;
    assert_eq!(chosen(&game, ANDY), claim(false));
}

/// Red is rare in the areas and at the bottom of the track, white and yellow common and at
/// the top: red should rise, the others fall.
fn red_should_rise() -> TulipBubble {
    let mut game = game(3);
    game.round = 3;
    game.track = Track::new(1, 6, 7);
    game.next_shipment = vec![t("WB1#2"), t("YB1#2"), t("WC1#1"), t("YC1#1")];
    game.new_arrivals = slots(&["WA#1", "RA#1", "YA#1"]);
    game.just_sold = slots(&["WB1#1", "YB1#1", "RB1#1"]);
    game.phase = Phase::BidPlacement {
        pass: 1,
        placer: ANDY,
    };
    finish(&mut game);
    game
}

#[test]
fn it_forecasts_the_market_response_and_the_unseen_events() {
    let game = red_should_rise();
    let forecast = Forecast::of(&game);
    // Nine events unseen, the Bust not yet possible (round 4 reveals position 4).
    assert_eq!(forecast.tracks.len(), 9);
    assert_eq!(forecast.bust, 0.0);
    let total: f64 = forecast.tracks.iter().map(|(chance, _)| chance).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    // Red rises from I (ƒ6 for an A) to at least II (ƒ10) before any event.
    assert!(forecast.price(&game, t("RA#1")) > 10);
    assert!(forecast.price(&game, t("WA#1")) < game.price_of(t("WA#1")));
    assert!(forecast.price(&game, t("YA#1")) < game.price_of(t("YA#1")));
    // From round 7 the next event may be the Bust, and a tulip is then worth nothing.
    let mut late = game.clone();
    late.round = 7;
    let late_forecast = Forecast::of(&late);
    assert!(late_forecast.bust > 0.0);
    assert!(late_forecast.price(&late, t("RA#1")) < forecast.price(&game, t("RA#1")));
}

#[test]
fn it_marks_the_cards_that_should_rise_in_listing_order_within_its_means() {
    let mut game = red_should_rise();
    // Both red cards, in resolution order (New Arrivals, then Just Sold).
    assert_eq!(
        chosen(&game, ANDY),
        Action::PlaceBids {
            cards: ids(&["RA#1", "RB1#1"])
        }
    );
    // Pass 2: one card, the best.
    game.phase = Phase::BidPlacement {
        pass: 2,
        placer: ANDY,
    };
    assert_eq!(
        chosen(&game, ANDY),
        Action::PlaceBids {
            cards: ids(&["RA#1"])
        }
    );
    // Another marker on RA#1 costs it ƒ1 of gain, not the mark.
    game.new_arrivals[1] = marked("RA#1", &[BOB]);
    assert_eq!(
        chosen(&game, ANDY),
        Action::PlaceBids {
            cards: ids(&["RA#1"])
        }
    );
    // Owing ƒ20 with no cash: it can pay for nothing more.
    game.players[ANDY.index()].cash = 0;
    finance(&mut game, ANDY, &[("RC1#1", 20)]);
    finish(&mut game);
    assert_eq!(chosen(&game, ANDY), Action::PlaceBids { cards: vec![] });
    // No marker left (three financed tulips): nothing to place.
    let mut game = red_should_rise();
    finance(&mut game, ANDY, &[("RC1#1", 1), ("RC2#1", 1), ("RC3#1", 1)]);
    finish(&mut game);
    assert_eq!(game.markers_available(ANDY), 0);
    assert_eq!(chosen(&game, ANDY), Action::PlaceBids { cards: vec![] });
}

/// An auction of RA#1 between Andy and Bob, Andy to act.
fn auction(high_bid: Option<i64>) -> TulipBubble {
    let mut game = red_should_rise();
    game.new_arrivals[1] = marked("RA#1", &[ANDY, BOB]);
    game.phase = Phase::Auction {
        resolution: Resolution {
            queue: vec![t("RA#1")],
            cursor: 0,
        },
        auction: Auction {
            tulip: t("RA#1"),
            market_price: game.price_of(t("RA#1")),
            participants: vec![ANDY, BOB],
            active: [ANDY, BOB].into_iter().collect(),
            high_bid: high_bid.map(|amount| HighBid { seat: BOB, amount }),
            actor: ANDY,
        },
    };
    game
}

#[test]
fn it_bids_the_minimum_while_the_lot_is_forecast_to_sell_for_more() {
    let game = auction(None);
    let worth = Forecast::of(&game).price(&game, t("RA#1"));
    let minimum = game.minimum_bid().expect("an auction");
    assert!(
        minimum + MARGIN <= worth,
        "{minimum} for a lot worth {worth}"
    );
    assert_eq!(chosen(&game, ANDY), Action::AuctionBid { amount: minimum });
    // A high bid that leaves less than the margin: it passes.
    let game = auction(Some(worth - MARGIN));
    assert_eq!(chosen(&game, ANDY), Action::AuctionPass {});
    // Never above the table's bid cap.
    let mut capped = auction(None);
    capped.options.bid_cap = minimum - 1;
    assert_eq!(chosen(&capped, ANDY), Action::AuctionPass {});
    // Nor beyond its cash and credit.
    let mut broke = auction(None);
    broke.players[ANDY.index()].cash = 0;
    finance(&mut broke, ANDY, &[("RC1#1", 20)]);
    finish(&mut broke);
    assert_eq!(chosen(&broke, ANDY), Action::AuctionPass {});
}

#[test]
fn it_pays_cash_when_it_can_and_finances_otherwise() {
    let mut game = red_should_rise();
    game.new_arrivals[0] = marked("WA#1", &[ANDY]);
    game.phase = Phase::Payment {
        resolution: Resolution {
            queue: vec![t("WA#1")],
            cursor: 0,
        },
        payment: Payment {
            tulip: t("WA#1"),
            buyer: ANDY,
            price: 20,
            market_price: 20,
            participants: vec![ANDY],
        },
    };
    let pay = |method| Action::ChoosePayment { method };
    assert_eq!(chosen(&game, ANDY), pay(PaymentMethod::Cash));
    game.players[ANDY.index()].cash = 19;
    assert_eq!(chosen(&game, ANDY), pay(PaymentMethod::Finance));
}

#[test]
fn on_its_selling_turn_it_sells_to_a_collector_then_what_should_not_rise() {
    let mut game = red_should_rise();
    game.phase = Phase::Selling { seller: ANDY };
    game.collector_stacks[0] = vec![Collector::Servant, Collector::Scholar];
    conceal(
        &mut game,
        ANDY,
        &["RC1#2", "RC2#1", "RC3#1", "WA#2", "RA#2"],
    );
    finish(&mut game);
    assert_eq!(
        chosen(&game, ANDY),
        Action::SellToCollector {
            collector: Collector::Servant,
            tulips: ids(&["RC1#2", "RC2#1", "RC3#1"])
        }
    );
    let sale = chosen(&game, ANDY);
    play(&mut game, ANDY, sale);
    // White should fall: sold. Red should rise: kept.
    let forecast = Forecast::of(&game);
    assert!(forecast.price(&game, t("WA#2")) <= game.price_of(t("WA#2")));
    assert!(forecast.price(&game, t("RA#2")) > game.price_of(t("RA#2")));
    let sale = chosen(&game, ANDY);
    assert_eq!(
        sale,
        Action::SellToMarket {
            tulip: "WA#2".into()
        }
    );
    play(&mut game, ANDY, sale);
    assert_eq!(chosen(&game, ANDY), Action::EndSellingTurn {});
}

#[test]
fn it_has_a_move_only_where_the_game_waits_on_it() {
    let (mut game, _) =
        TulipBubble::setup(3, &Options::default(), &mut GameRng::for_entry([5; 32], 0))
            .expect("a deal");
    let waiting = game.waiting_on();
    for seat in Seat::all(3) {
        let planned = greedy::choose(&game, seat);
        assert_eq!(
            planned.is_some(),
            waiting.contains(seat),
            "{seat}: {planned:?}"
        );
    }
    game.phase = Phase::GameOver {
        reason: EndReason::Bust,
        winners: SeatSet::only(ANDY),
        claimants: SeatSet::EMPTY,
    };
    assert!(Seat::all(3).all(|seat| greedy::choose(&game, seat).is_none()));
}

/// One greedy seat against two random ones: it buys the Black Tulip itself, which the
/// `random` bots alone never reach (shared/api/tests/plausible.rs).
#[test]
fn a_greedy_seat_among_random_ones_buys_the_black_tulip() {
    let mut claimed = None;
    for index in 0..200 {
        let seed = game_seed(1637, index);
        let (mut game, _) =
            TulipBubble::setup(3, &Options::default(), &mut GameRng::for_entry(seed, 0))
                .expect("a deal");
        let mut rng = GameRng::for_entry(game_seed(1638, index), 0);
        for step in 1..20_000 {
            let Some(seat) = game.waiting_on().iter().next() else {
                break;
            };
            let action = greedy::choose(&game, seat)
                .filter(|_| seat == ANDY)
                .or_else(|| sensible_action(&game, seat, &game.legal_actions(seat), &mut rng))
                .expect("a move");
            // A refused random draw is drawn again at the next step.
            let _ = game.apply(seat, action, &mut GameRng::for_entry(seed, step));
        }
        let Phase::GameOver {
            reason, winners, ..
        } = &game.phase
        else {
            panic!("game {index} did not end");
        };
        if *reason == EndReason::BlackTulip && winners.contains(ANDY) {
            claimed = Some(index);
            break;
        }
    }
    let index = claimed.expect("the greedy seat never bought the Black Tulip in 200 games");
    eprintln!("the greedy seat bought the Black Tulip in game {index}");
}

/// With a plan, a searching bot whose clock allows few playouts plays fewer candidates, one
/// per `CLOCK_CANDIDATES` of the playouts it gets, instead of spreading them over all the
/// candidates its budget would have allowed (`strong`: 250); with time to spare, it keeps
/// them all.
#[test]
fn with_a_plan_a_searching_bot_sizes_its_field_to_its_clock() {
    use game_core::search::{self, Budget, CLOCK_CANDIDATES};
    let game = red_should_rise();
    let search = |step: f64| {
        let mut rng = GameRng::for_entry([5; 32], 0);
        let mut calls = 0.0;
        let mut spent = || {
            calls += 1.0;
            calls * step
        };
        search::choose_for(&game, ANDY, &Budget::STRONG, false, &mut spent, &mut rng)
            .expect("a choice")
    };
    // A clock that never moves: every candidate, and (within a round) the whole budget.
    let idle = search(0.0);
    assert!(
        idle.playouts + 2 >= Budget::STRONG.playouts,
        "{}",
        idle.playouts
    );
    // A clock with room for fewer than 200 playouts (it moves at every reading).
    let busy = search(1.0 / 200.0);
    eprintln!(
        "idle: {} candidates, {} playouts; busy: {} candidates, {} playouts",
        idle.candidates, idle.playouts, busy.candidates, busy.playouts
    );
    assert!(idle.candidates > 16, "{}", idle.candidates);
    assert!(busy.candidates >= 2);
    assert!(
        busy.candidates as u32 * CLOCK_CANDIDATES <= busy.playouts + 2 * CLOCK_CANDIDATES,
        "{} candidates for {} playouts",
        busy.candidates,
        busy.playouts
    );
    assert!(busy.candidates < idle.candidates);
}
