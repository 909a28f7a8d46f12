//! Random playouts (STYLE §8) for every seat count and every option that changes the flow of
//! play, checking the invariants of spec §9 after setup and after every accepted action.
//!
//! Step bound: every configuration sets `max_turns = 400` (the spec's suggestion for hosted
//! games, D25), because random play with no cap need not terminate. A turn takes at most
//! `n + 3` accepted actions (a sale, `n − 1` commits, a seller card, a draw, a purchase), so
//! 400 turns of 5 players take at most 400 × 8 = 3,200 actions; `MAX_STEPS = 4,000` leaves
//! room and still fails fast on a runaway game.

use game_core::testing::{PlayoutStats, Playouts};
use game_core::{Game, Seat, Viewer};
use game_tulipmania::pieces::{total, BUYERS_PER_COLOUR, TOTAL_MONEY};
use game_tulipmania::setup::{tulips_in_circulation, Parameters};
use game_tulipmania::{
    BottomDescent, EndReason, IdleRoundRule, IllegalCardPolicy, Options, Phase, SpaceKind,
    Tulipmania,
};
use std::cell::RefCell;

/// The bound on accepted actions per game (see the module comment).
const MAX_STEPS: usize = 4_000;
/// Games per configuration.
const GAMES: u64 = 1_000;

fn capped(options: Options) -> Options {
    Options {
        max_turns: Some(400),
        ..options
    }
}

/// Every invariant of spec §9 that can be read off a single quiescent state, plus the
/// transition checks that compare it with the previous state of the same game.
fn check(state: &Tulipmania, previous: &RefCell<Option<Tulipmania>>) {
    let n = usize::from(state.n_seats);
    let colours = state.colours();
    let parameters = Parameters::for_seats(state.n_seats);
    // 1, 2: money.
    assert_eq!(
        state.cash.iter().sum::<i64>() + state.bank,
        TOTAL_MONEY,
        "money is conserved"
    );
    for &cash in &state.cash {
        assert!(
            cash >= 0 && cash % 25 == 0,
            "cash {cash} is a non-negative multiple of 25"
        );
    }
    assert_eq!(state.bank % 25, 0);
    // 3: tulips.
    for &colour in colours {
        let held: u32 = state
            .tulips
            .iter()
            .map(|hand| u32::from(hand[colour.index()]))
            .sum();
        if state.is_live(colour) {
            let transit = u32::from(state.in_transit == Some(colour));
            assert_eq!(
                held + u32::from(state.stock[colour.index()]) + transit,
                u32::from(tulips_in_circulation(state.n_seats)),
                "{colour} tulips are conserved"
            );
        } else {
            assert_eq!(held, 0, "nobody holds burst {colour}");
            assert_eq!(state.stock[colour.index()], 0);
            assert!(state.burst_order.contains(&colour));
        }
    }
    // 4: buyers.
    let buyers: usize = state
        .buyers
        .iter()
        .map(|hand| total(hand) as usize)
        .sum::<usize>()
        + state.deck.len()
        + state.face_up.len()
        + state.reserve.len()
        + state.buyer_discard.len();
    assert_eq!(
        buyers,
        BUYERS_PER_COLOUR * colours.len(),
        "buyer cards are conserved"
    );
    // 5: no burst-colour buyers in hands or face up.
    for &colour in colours.iter().filter(|&&colour| !state.is_live(colour)) {
        assert!(
            state.buyers.iter().all(|hand| hand[colour.index()] == 0),
            "no burst {colour} buyer in a hand"
        );
        assert!(
            !state.face_up.contains(&colour),
            "no burst {colour} buyer face up"
        );
    }
    // 6: markers rest on current spaces.
    for colour in state.live_colours() {
        assert_eq!(state.marker_kind(colour), Some(SpaceKind::Current));
        assert!(state.price(colour).unwrap() < 3000);
    }
    // 7: priority.
    assert!(state.current_player.index() < n && state.priority_holder.index() < n);
    if state.phase == Phase::SellChoice {
        assert_ne!(
            state.priority_holder, state.current_player,
            "the current player never holds priority at a sale"
        );
    }
    // 8: the deck.
    let draws_possible = (parameters.deck_size - parameters.face_up) as u32;
    assert!(state.face_up.len() <= parameters.face_up);
    assert_eq!(state.deck_exhausted, state.deck.is_empty());
    if state.deck_exhausted {
        assert!(state.face_up.is_empty());
        assert_eq!(
            state.draws, draws_possible,
            "exactly N − k draws once exhausted"
        );
    }
    assert_eq!(
        state.deck.len() as u32 + state.draws,
        draws_possible,
        "one deck card per draw"
    );
    // 13: commits never for the seller; the cards return outside a sale.
    if let Phase::Commit { commits } = &state.phase {
        assert!(commits[state.current_player.index()].is_none());
        assert!(state.in_transit.is_some());
    } else if !matches!(state.phase, Phase::SellerCard { .. }) {
        assert!(
            state.in_transit.is_none(),
            "a tulip is in transit only during a sale"
        );
    }
    // 15: idle counter.
    let bound = match state.options.idle_round_rule {
        IdleRoundRule::Sliding => n as u32,
        IdleRoundRule::Anchored => 2 * n as u32 - 1,
    };
    assert!(state.idle_turns <= bound);
    if state.idle_turns > 0 {
        assert!(state.deck_exhausted);
    }
    // 11, 16: the end.
    assert!(state.burst_order.len() <= colours.len());
    if let Phase::GameOver { reason } = state.phase {
        let outcome = state.outcome().expect("a finished game has an outcome");
        for a in 0..n {
            for b in 0..n {
                if state.cash[a] > state.cash[b] {
                    assert!(outcome.ranks[a] < outcome.ranks[b]);
                }
                if state.cash[a] == state.cash[b] {
                    assert_eq!(outcome.ranks[a], outcome.ranks[b]);
                }
            }
        }
        assert!(
            state.tulips.iter().all(|hand| total(hand) == 0),
            "nobody holds tulips at the end"
        );
        if reason == EndReason::FinalBurst {
            assert_eq!(state.burst_order.len(), colours.len());
        }
    }
    // 17: a seat's view shows no other seat's buyer colours or sealed card, the spectator's
    // view nothing private, and seat views differ from it only in the viewer's own fields.
    let spectator = state.view(Viewer::Spectator);
    assert!(spectator
        .players
        .iter()
        .all(|player| player.buyers.is_none() && player.sealed_card.is_none()));
    for seat in Seat::all(state.n_seats) {
        let mut view = state.view(Viewer::Seat(seat));
        for player in &mut view.players {
            if player.seat != seat {
                assert!(
                    player.buyers.is_none() && player.sealed_card.is_none(),
                    "{seat} sees {}'s secrets",
                    player.seat
                );
            }
            player.buyers = None;
            player.sealed_card = None;
        }
        view.viewer = None;
        assert!(
            view == spectator,
            "the view of {seat} differs from the public one outside its own fields"
        );
    }
    // Transitions (9, 11): compared with the previous state of the same game.
    let mut previous = previous.borrow_mut();
    let fresh = state.turn_number == 1
        && state.draws == 0
        && state.phase == Phase::SellChoice
        && state.buyer_discard.is_empty();
    if let (Some(before), false) = (previous.as_ref(), fresh) {
        assert!(
            state.burst_order.starts_with(&before.burst_order),
            "the burst order only grows"
        );
        for seat in Seat::all(state.n_seats) {
            let (was, now) = (before.buyer_count(seat), state.buyer_count(seat));
            assert!(
                now <= was + 1,
                "a hand grows by at most one card per action"
            );
            if now == was + 1 {
                assert_eq!(seat, before.current_player, "only the drawer's hand grows");
                assert_eq!(state.draws, before.draws + 1);
            }
        }
        assert!(state.draws == before.draws || state.draws == before.draws + 1);
        assert!(state.turn_number >= before.turn_number);
    }
    *previous = Some(state.clone());
}

fn run(n_seats: u8, options: Options) -> PlayoutStats {
    let previous = RefCell::new(None);
    let stats = Playouts::<Tulipmania>::new(n_seats)
        .options(options)
        .games(GAMES)
        .max_steps(MAX_STEPS)
        .run(|state| check(state, &previous));
    eprintln!("{n_seats} seats: {stats:?}");
    assert_eq!(stats.games, GAMES);
    assert!(
        stats.redeals_that_changed_state > 0,
        "the no-leak check had hidden cards to re-deal"
    );
    assert!(stats.refusals_checked > 0);
    stats
}

fn reason(stats: &PlayoutStats, reason: &str) -> u64 {
    stats.reasons.get(reason).copied().unwrap_or(0)
}

/// §9 over 1,000 random 3-player games, default options with `max_turns = 400`.
#[test]
fn three_seats_default() {
    let stats = run(3, capped(Options::default()));
    assert!(reason(&stats, "final_burst") > 0);
}

/// §9 over 1,000 random 4-player games, default options with `max_turns = 400`.
#[test]
fn four_seats_default() {
    let stats = run(4, capped(Options::default()));
    assert!(reason(&stats, "final_burst") > 0);
}

/// §9 over 1,000 random 5-player games, default options with `max_turns = 400`.
#[test]
fn five_seats_default() {
    let stats = run(5, capped(Options::default()));
    assert!(reason(&stats, "final_burst") > 0);
}

/// §9 with `illegal_card_policy = reject_on_commit` (only legal cards are listed).
#[test]
fn reject_on_commit() {
    for n_seats in [3, 5] {
        let options = Options {
            illegal_card_policy: IllegalCardPolicy::RejectOnCommit,
            ..capped(Options::default())
        };
        let stats = run(n_seats, options);
        assert!(reason(&stats, "final_burst") > 0);
    }
}

/// §9 with `idle_round_rule = anchored`.
#[test]
fn anchored_idle_rule() {
    for n_seats in [3, 4] {
        let options = Options {
            idle_round_rule: IdleRoundRule::Anchored,
            ..capped(Options::default())
        };
        let stats = run(n_seats, options);
        assert!(reason(&stats, "final_burst") > 0);
    }
}

/// §9 with `bottom_descent = stay`.
#[test]
fn bottom_descent_stay() {
    let options = Options {
        bottom_descent: BottomDescent::Stay,
        ..capped(Options::default())
    };
    let stats = run(4, options);
    assert!(reason(&stats, "final_burst") > 0);
}

/// A short cap (`max_turns = 12`) so that `TURN_CAP` endings and the liquidation of §4.5 are
/// exercised by random play too (random games almost always end by `FINAL_BURST`).
#[test]
fn short_turn_cap() {
    let options = Options {
        max_turns: Some(12),
        ..Options::default()
    };
    let stats = run(4, options);
    assert!(reason(&stats, "turn_cap") > 0);
}

/// The invariants of spec §9 that are about steps rather than states (9 hand changes,
/// 10 price direction, 11 bursts, 12 sale outcome, 14 purchase restriction, 17 private
/// draws), read off the events of 1,000 seeded random games per seat count. Same bound as
/// above: `max_turns = 400`, at most `MAX_STEPS` actions.
#[test]
fn step_invariants_from_events() {
    use game_core::testing::game_seed;
    use game_core::{GameRng, LegalAction, Visibility};
    use game_tulipmania::event::Event;
    use game_tulipmania::{Card, Colour};

    for n_seats in [3u8, 4, 5] {
        let mut total_steps = 0;
        let mut sales_seen = 0;
        for index in 0..GAMES {
            let seed = game_seed(99, index);
            let options = capped(Options::default());
            let mut state = Tulipmania::setup(n_seats, &options, &mut GameRng::for_entry(seed, 0))
                .expect("setup")
                .0;
            let mut bot = GameRng::for_entry(game_seed(98, index), 0);
            let value = |state: &Tulipmania, id: &str| {
                state
                    .board
                    .value(state.board.find(id).expect("a board space"))
            };
            let mut steps = 0;
            while !state.to_act().is_empty() {
                steps += 1;
                assert!(
                    steps <= MAX_STEPS,
                    "game {index} with {n_seats} seats did not finish"
                );
                let acting: Vec<Seat> = state.to_act().iter().collect();
                let seat = *bot.choose(&acting).unwrap();
                let legal = state.legal_actions(seat);
                let LegalAction::Action { action } = bot.choose(&legal).unwrap().clone() else {
                    unreachable!()
                };
                let before = state.clone();
                let log = state
                    .apply(seat, action, &mut GameRng::for_entry(seed, steps as u64))
                    .expect("listed actions apply");
                let mut sales = 0;
                let mut landed_on_burst: Vec<Colour> = Vec::new();
                for logged in &log {
                    match &logged.event {
                        Event::SaleResolved {
                            seller,
                            winner,
                            card,
                            from,
                            to,
                            colour,
                            ..
                        } => {
                            sales += 1;
                            let (from, to) = (value(&state, from), value(&state, to));
                            match card {
                                Card::Pass => {
                                    assert!(winner.is_none());
                                    assert!(
                                        to < from || (to == from && from == 25),
                                        "an all-pass lowers the price"
                                    );
                                }
                                _ => assert!(to > from, "purchase and speculate raise the price"),
                            }
                            if *winner == Some(*seller) {
                                assert!(matches!(
                                    card,
                                    Card::SpeculateByProxy | Card::PurchaseByProxy
                                ));
                            }
                            if to >= 3000 {
                                landed_on_burst.push(*colour);
                            }
                        }
                        Event::TulipBought {
                            colour, from, to, ..
                        } => {
                            assert_ne!(before.sold_colour_this_turn, Some(*colour), "invariant 14");
                            assert!(value(&state, to) > value(&state, from));
                            if value(&state, to) >= 3000 {
                                landed_on_burst.push(*colour);
                            }
                        }
                        Event::TulipsSoldOff { from, to, .. } => {
                            assert!(
                                value(&state, to) <= value(&state, from),
                                "a descent never rises"
                            );
                        }
                        Event::BurstStarted {
                            colour,
                            final_burst,
                            ..
                        } => {
                            assert!(
                                *final_burst || landed_on_burst.contains(colour),
                                "a burst starts only on a burst space"
                            );
                        }
                        Event::BuyersDiscarded { reason, count, .. } => match reason {
                            game_tulipmania::pieces::DiscardReason::BurstPenalty => {
                                assert_eq!(*count, 1)
                            }
                            game_tulipmania::pieces::DiscardReason::Proxy => {
                                assert!(*count == 1 || *count == 2)
                            }
                            _ => assert!(*count >= 1),
                        },
                        Event::BuyerDrawn {
                            seat,
                            face_up: None,
                            colour: Some(_),
                        }
                        | Event::ReplacementReceived {
                            seat,
                            colour: Some(_),
                            ..
                        } => {
                            assert_eq!(
                                logged.visibility,
                                Visibility::Seats(game_core::SeatSet::only(*seat)),
                                "deck draws are private"
                            );
                        }
                        _ => {}
                    }
                }
                // 12: a sale has exactly one outcome, produced when its last card is in.
                let sale_over = before.in_transit.is_some() && state.in_transit.is_none();
                assert_eq!(sales, usize::from(sale_over));
                sales_seen += sales;
                // 11: the burst order only grows, by the colours that burst.
                assert!(state.burst_order.starts_with(&before.burst_order));
            }
            total_steps += steps;
            assert_eq!(
                state.burst_order.len(),
                state.colours().len(),
                "random games end by the final burst"
            );
        }
        eprintln!("{n_seats} seats: {total_steps} actions, {sales_seen} sales checked");
        assert!(sales_seen > 0);
    }
}

/// `ALL_DECLINE` under play: a "lazy" seeded bot that, 7 times in 10 when it may, keeps its
/// tulip, skips the purchase or passes (otherwise it picks at random) lets idle rounds happen,
/// so the
/// decline end and its liquidation are exercised for both idle rules. The §9 state
/// invariants are checked after every action; `max_turns = 400` bounds each game.
#[test]
fn lazy_players_decline() {
    use game_core::testing::game_seed;
    use game_core::{GameRng, LegalAction};
    use game_tulipmania::{Action, Card};

    // Seen with these seeds: all_decline in most games, final_burst in some.
    for (n_seats, rule) in [(3u8, IdleRoundRule::Sliding), (4, IdleRoundRule::Anchored)] {
        let previous = RefCell::new(None);
        let mut reasons = std::collections::BTreeMap::new();
        for index in 0..GAMES {
            let seed = game_seed(77, index);
            let options = Options {
                idle_round_rule: rule,
                ..capped(Options::default())
            };
            let mut state = Tulipmania::setup(n_seats, &options, &mut GameRng::for_entry(seed, 0))
                .expect("setup")
                .0;
            check(&state, &previous);
            let mut bot = GameRng::for_entry(game_seed(76, index), 0);
            let mut steps = 0;
            while !state.to_act().is_empty() {
                steps += 1;
                assert!(steps <= MAX_STEPS);
                let acting: Vec<Seat> = state.to_act().iter().collect();
                let seat = *bot.choose(&acting).unwrap();
                let legal: Vec<Action> = state
                    .legal_actions(seat)
                    .into_iter()
                    .map(|entry| match entry {
                        LegalAction::Action { action } => action,
                        LegalAction::Schema { .. } => unreachable!("every entry is concrete"),
                    })
                    .collect();
                let lazy = legal.iter().copied().find(|action| {
                    matches!(
                        action,
                        Action::SkipSale {}
                            | Action::SkipPurchase {}
                            | Action::CommitCard { card: Card::Pass }
                            | Action::PlaySellerCard { card: Card::Pass }
                    )
                });
                let action = match lazy {
                    Some(action) if bot.below(10) < 7 => action,
                    _ => *bot.choose(&legal).unwrap(),
                };
                state
                    .apply(seat, action, &mut GameRng::for_entry(seed, steps as u64))
                    .expect("listed actions apply");
                check(&state, &previous);
            }
            *reasons
                .entry(state.outcome().unwrap().reason)
                .or_insert(0u64) += 1;
        }
        eprintln!("lazy {n_seats} seats, {rule:?}: {reasons:?}");
        assert!(
            reasons.get("all_decline").copied().unwrap_or(0) > 0,
            "{reasons:?}"
        );
    }
}
