//! Random playouts (STYLE §8) for every seat count and every option that changes the flow
//! of play, checking the invariants of spec §10 after every accepted action.
//!
//! Step bound: 3,000 accepted actions. A game has at most 10 rounds (§5.3: BUST is at event
//! position 8–10). Per round: N selling turns, each with at most one sale per tulip held
//! (≤ 51), one collector sale and one buy-back per loan (≤ 3 per seat, since a loan holds a
//! marker) plus the end of turn; N Black Tulip decisions; 2N placements; at most 3N marked
//! cards, each with one payment and an auction of at most 1,000,000 bids in the worst
//! case. Random bots bid from the `auction_bid` schema (uniform between the minimum and
//! the 1,000,000 cap), so an auction ends after a few bids in practice; buy-backs cannot
//! cycle because a tulip becomes financed only by winning it in resolution (at most 3N
//! per round) and each buy-back removes one loan, so buy-backs over the whole game are at
//! most the number of purchases. Random games stay far below the bound: the longest seen
//! were 287 steps with the default options and 427 with `bid_cap = 40` (the counts are
//! printed by each test with `--nocapture`).

use game_core::testing::{PlayoutStats, Playouts};
use game_core::{Game, Seat, Viewer};
use game_tulip_bubble::{
    Collector, EndReason, EventCard, Options, Phase, Tulip, TulipBubble, View as TulipBubbleView,
    COLLECTOR_STACKS,
};

const MAX_STEPS: usize = 3_000;

/// The invariants of spec §10 that a single state can show.
fn invariants(game: &TulipBubble) {
    let n = usize::from(game.n_seats);
    // 1. Tulip conservation.
    let mut places = vec![0u8; 51];
    let mut count = |tulip: Tulip| places[tulip.index()] += 1;
    game.tulip_deck.iter().for_each(|&t| count(t));
    game.tulip_discard.iter().for_each(|&t| count(t));
    game.next_shipment.iter().for_each(|&t| count(t));
    game.new_arrivals
        .iter()
        .chain(&game.just_sold)
        .for_each(|slot| count(slot.tulip));
    for player in &game.players {
        player.concealed.iter().for_each(|&t| count(t));
        player.financed.iter().for_each(|loan| count(loan.tulip));
    }
    assert!(
        places.iter().all(|&n| n == 1),
        "tulip conservation: {places:?}"
    );
    // 2. Event conservation.
    let mut events: Vec<EventCard> = game
        .event_deck
        .iter()
        .chain(&game.event_history)
        .copied()
        .collect();
    events.push(game.removed_event);
    events.sort();
    assert_eq!(
        events,
        EventCard::all().collect::<Vec<_>>(),
        "event conservation"
    );
    let bust_revealed = game.event_history.contains(&EventCard::BUST);
    let ended_by_bust = matches!(
        game.phase,
        Phase::GameOver {
            reason: EndReason::Bust,
            ..
        }
    );
    assert_eq!(
        bust_revealed, ended_by_bust,
        "BUST revealed exactly when the game ended by it"
    );
    assert_ne!(game.removed_event, EventCard::BUST);
    // 3. Track.
    assert!(game.track.is_valid(), "track {:?}", game.track);
    // 4. Markers.
    let marking = matches!(
        game.phase,
        Phase::BidPlacement { .. } | Phase::Auction { .. } | Phase::Payment { .. }
    );
    for seat in Seat::all(game.n_seats) {
        let placed = game
            .new_arrivals
            .iter()
            .chain(&game.just_sold)
            .filter(|slot| slot.markers.contains(seat))
            .count();
        let financed = game.players[seat.index()].financed.len();
        assert!(
            placed + financed <= 3,
            "{seat}: {placed} placed + {financed} financed"
        );
        assert_eq!(game.markers_available(seat) + placed + financed, 3);
        if !marking {
            assert_eq!(placed, 0, "markers left on cards outside the buying phase");
        }
    }
    // 5. Money.
    for player in &game.players {
        assert!(player.cash >= 0, "negative cash {}", player.cash);
        assert!(player.financed.iter().all(|loan| loan.loan >= 1));
        let mut sorted = player.concealed.clone();
        sorted.sort();
        assert_eq!(sorted, player.concealed, "concealed tulips are kept sorted");
    }
    // 7. Collectors.
    let mut collectors: Vec<Collector> = game
        .collector_stacks
        .iter()
        .flatten()
        .chain(&game.collectors_boxed)
        .copied()
        .collect();
    collectors.sort();
    let mut all: Vec<Collector> = COLLECTOR_STACKS
        .iter()
        .flat_map(|(_, cards)| cards.iter().copied())
        .collect();
    all.sort();
    assert_eq!(collectors, all, "collector conservation");
    for (stack, (_, cards)) in game.collector_stacks.iter().zip(COLLECTOR_STACKS) {
        assert!(
            stack.iter().all(|collector| cards.contains(collector)),
            "a collector changed stacks"
        );
    }
    // 8. Areas.
    assert!(game.next_shipment.len() <= n + 2);
    if let Phase::Selling { .. } = game.phase {
        assert!(game.round >= 2, "no Selling in round 1");
        // A short shipment happens only when deck and discard are both exhausted.
        if game.next_shipment.len() < n + 2
            && game.players.iter().all(|player| !player.selling_done)
        {
            assert!(
                game.tulip_deck.is_empty() && game.tulip_discard.is_empty(),
                "short shipment with cards left"
            );
        }
    }
    // 9. Round bound.
    assert!(game.round <= 10, "round {}", game.round);
    assert_eq!(
        game.event_history.len() as u32,
        game.round,
        "one event per round plus the setup event"
    );
    if ended_by_bust {
        assert!(
            (8..=10).contains(&game.round),
            "BUST revealed in round {}",
            game.round
        );
    }
    // 10. Auctions.
    if let Phase::Auction { auction, .. } = &game.phase {
        assert!(auction.participants.len() >= 2);
        assert!(
            auction.active.len() >= 2,
            "an auction with one active seat must have ended"
        );
        assert!(auction.active.contains(auction.actor));
        if let Some(game_tulip_bubble::HighBid {
            seat: bidder,
            amount: bid,
        }) = auction.high_bid
        {
            assert!(bid > auction.market_price);
            assert_ne!(
                bidder, auction.actor,
                "the high bidder is never asked to act"
            );
        }
    }
    // 12. Views.
    let over = game.is_over();
    let spectator: TulipBubbleView = game.view(Viewer::Spectator);
    assert!(
        over || spectator
            .players
            .iter()
            .all(|player| player.cash.is_none() && player.concealed.is_none())
    );
    assert!(
        over || (spectator.removed_event.is_none()
            && spectator.tulip_deck.is_none()
            && spectator.event_deck.is_none())
    );
    for seat in Seat::all(game.n_seats) {
        let view = game.view(Viewer::Seat(seat));
        for other in &view.players {
            let mine = other.seat == seat;
            assert_eq!(
                other.cash.is_some(),
                mine || over,
                "{seat} sees the cash of {}",
                other.seat
            );
            assert_eq!(other.concealed.is_some(), mine || over);
        }
    }
    // 15. The game is waiting for someone with something to do, or it is over.
    assert_eq!(over, game.outcome().is_some());
}

fn report(label: &str, stats: &PlayoutStats) {
    eprintln!(
        "{label}: {} games, {} steps, longest {}, reasons {:?}, wins {:?}, redeals that changed state {}",
        stats.games, stats.steps, stats.longest_game, stats.reasons, stats.wins_by_seat, stats.redeals_that_changed_state
    );
}

fn run(n_seats: u8, options: Options, label: &str) -> PlayoutStats {
    let stats = Playouts::<TulipBubble>::new(n_seats)
        .options(options)
        .games(1000)
        .max_steps(MAX_STEPS)
        .any_time(|action| matches!(action, game_tulip_bubble::Action::BuyBack { .. }))
        .run(invariants);
    report(label, &stats);
    assert_eq!(stats.games, 1000);
    assert!(
        stats.redeals_that_changed_state > 0,
        "hidden information was re-dealt"
    );
    // Random bots bid up to the 1,000,000 cap, so the premiums make most seats rich enough
    // for the Black Tulip long before the Bust; `cautious_*` below covers Bust endings.
    assert!(
        stats.reasons.get("black_tulip").copied().unwrap_or(0) > 0,
        "some games end with the Black Tulip"
    );
    assert!(stats
        .reasons
        .keys()
        .all(|reason| reason == "bust" || reason == "black_tulip"));
    stats
}

/// 1000 random 3-seat games with the standard options (step bound: see the module docs).
#[test]
fn playouts_three_seats() {
    let stats = run(3, Options::default(), "3 seats");
    assert!(
        stats.reasons.get("bust").copied().unwrap_or(0) > 0,
        "some games end in the Bust"
    );
}

/// 1000 random 4-seat games with the standard options (step bound: see the module docs).
#[test]
fn playouts_four_seats() {
    run(4, Options::default(), "4 seats");
}

/// 1000 random 5-seat games with the standard options (step bound: see the module docs).
#[test]
fn playouts_five_seats() {
    run(5, Options::default(), "5 seats");
}

/// 1000 random 4-seat games with the §7.1 opening Market Response.
#[test]
fn playouts_opening_market_response() {
    run(
        4,
        Options {
            opening_market_response: true,
            ..Options::default()
        },
        "opening market response",
    );
}

/// 1000 random 4-seat games with the §7.2 EVIL leverage rule (financed tulips cannot be sold).
#[test]
fn playouts_evil_leverage() {
    run(
        4,
        Options {
            evil_leverage: true,
            ..Options::default()
        },
        "evil leverage",
    );
}

/// A bot that keeps bids low: it bids the minimum a third of the time and passes otherwise,
/// and plays uniformly among the concrete entries elsewhere (so it claims the Black Tulip
/// half of the time it is eligible). Its games reach the Bust and deck reshuffles, which the
/// harness's cap-happy bidders rarely do. After every step it checks the §10 invariants and
/// the ledger (invariant 6): each seat's cash is 20 plus the income minus the outflow that
/// the public events report.
fn cautious_games(
    n_seats: u8,
    options: Options,
    games: u64,
) -> std::collections::BTreeMap<String, u64> {
    use game_core::testing::{game_seed, Redeal};
    use game_core::{GameRng, LegalAction, Visibility};
    use game_tulip_bubble::{Action, Event, PaymentMethod};
    let mut reasons = std::collections::BTreeMap::new();
    let mut reshuffles = 0;
    let mut rounds = [0u32; 11];
    for index in 0..games {
        let seed = game_seed(4242, index);
        let mut bot = GameRng::for_entry(game_seed(77, index), 0);
        let mut state = TulipBubble::setup(n_seats, &options, &mut GameRng::for_entry(seed, 0))
            .expect("setup")
            .0;
        let mut ledger = vec![20i64; usize::from(n_seats)];
        let mut history: Vec<(Seat, Action)> = Vec::new();
        let mut step = 0u64;
        while !state.to_act().is_empty() {
            step += 1;
            assert!(step as usize <= MAX_STEPS, "game {index} did not end");
            let pool = if bot.below(10) == 0 {
                state.to_act()
            } else {
                state.waiting_on()
            };
            let seats: Vec<Seat> = pool.iter().collect();
            let seat = *bot.choose(&seats).expect("someone acts");
            let legal = state.legal_actions(seat);
            let concrete: Vec<Action> = legal
                .iter()
                .filter_map(|entry| match entry {
                    LegalAction::Action { action } => Some(action.clone()),
                    LegalAction::Schema { .. } => None,
                })
                .collect();
            let action = match (&state.phase, state.minimum_bid()) {
                (Phase::Auction { auction, .. }, Some(minimum))
                    if auction.actor == seat && minimum <= 1_000_000 && bot.below(3) == 0 =>
                {
                    Action::AuctionBid { amount: minimum }
                }
                (Phase::Auction { auction, .. }, _) if auction.actor == seat => {
                    Action::AuctionPass {}
                }
                _ => bot.choose(&concrete).expect("a concrete action").clone(),
            };
            // The harness's generic properties, in these longer games too: every listed
            // action applies, a stale action is refused without a trace, no view leaks.
            if step.is_multiple_of(8) {
                for listed in &concrete {
                    let mut copy = state.clone();
                    copy.apply(seat, listed.clone(), &mut GameRng::for_entry(seed, step))
                        .unwrap_or_else(|error| panic!("listed {listed:?} refused: {error}"));
                }
            }
            if let Some((_, stale)) = history.get(bot.index(history.len().max(1))) {
                let mut copy = state.clone();
                let other = Seat(bot.below(u64::from(n_seats)) as u8);
                if copy
                    .apply(other, stale.clone(), &mut GameRng::for_entry(seed, step))
                    .is_err()
                {
                    assert!(copy == state, "a refused action changed the state");
                }
            }
            if step.is_multiple_of(7) {
                let viewers = Seat::all(n_seats)
                    .map(Viewer::Seat)
                    .chain([Viewer::Spectator]);
                for viewer in viewers {
                    let twin = state.redeal(viewer, &mut bot);
                    let seen = serde_json::to_string(&state.view(viewer)).expect("view");
                    let seen_in_twin = serde_json::to_string(&twin.view(viewer)).expect("view");
                    assert_eq!(seen, seen_in_twin, "the view of {viewer:?} leaks");
                    assert_eq!(twin.to_act(), state.to_act());
                }
            }
            history.push((seat, action.clone()));
            let previous_shipment = state.next_shipment.clone();
            let events = state
                .apply(seat, action, &mut GameRng::for_entry(seed, step))
                .expect("listed action applies");
            for logged in &events {
                let public = logged.visibility == Visibility::Public;
                match &logged.event {
                    Event::SoldToMarket {
                        seat,
                        price,
                        loan_repaid,
                        ..
                    } => ledger[seat.index()] += price - loan_repaid.unwrap_or(0),
                    Event::SoldToCollector { seat, amount, .. } => ledger[seat.index()] += amount,
                    Event::BoughtBack { seat, loan, .. } => ledger[seat.index()] -= loan,
                    Event::TulipBought {
                        seat,
                        price,
                        method: PaymentMethod::Cash,
                        ..
                    } => ledger[seat.index()] -= price,
                    Event::PremiumPaid { seats, amount } => {
                        seats.iter().for_each(|seat| ledger[seat.index()] += amount)
                    }
                    Event::ShipmentArrived {
                        new_arrivals,
                        reshuffled,
                        ..
                    } => {
                        // Invariant 8: NA is exactly the previous NS, and JS starts empty.
                        assert_eq!(new_arrivals, &previous_shipment);
                        assert!(state.just_sold.is_empty());
                        reshuffles += u32::from(*reshuffled);
                    }
                    Event::BlackTulipDecisionSubmitted { seat, claim } => {
                        // The sealed decision is shown to its author only.
                        assert_eq!(
                            claim.is_some(),
                            logged.visibility == Visibility::Seats(game_core::SeatSet::only(*seat))
                        );
                    }
                    _ => assert!(public, "only Black Tulip decisions are private"),
                }
            }
            let cash: Vec<i64> = state.players.iter().map(|player| player.cash).collect();
            assert_eq!(cash, ledger, "ledger of game {index} at step {step}");
            invariants(&state);
        }
        // Replay: the same seed and actions give the same final state.
        let mut replay = TulipBubble::setup(n_seats, &options, &mut GameRng::for_entry(seed, 0))
            .expect("setup")
            .0;
        for (step, (seat, action)) in history.iter().enumerate() {
            replay
                .apply(
                    *seat,
                    action.clone(),
                    &mut GameRng::for_entry(seed, step as u64 + 1),
                )
                .expect("replay");
        }
        assert!(replay == state, "replay of game {index} diverged");
        rounds[state.round as usize] += 1;
        let outcome = state.outcome().expect("finished");
        *reasons.entry(outcome.reason).or_default() += 1;
    }
    eprintln!("cautious {n_seats} seats {options:?}: {reasons:?}, {reshuffles} reshuffles, final rounds {rounds:?}");
    assert!(
        reshuffles > 0 || n_seats == 3,
        "some games reshuffle the discard pile"
    );
    reasons
}

/// 200 cautious games at each seat count and with each optional rule reach the Bust
/// (bound: `MAX_STEPS`).
#[test]
fn cautious_games_reach_the_bust() {
    for n_seats in 3..=5 {
        let reasons = cautious_games(n_seats, Options::default(), 200);
        assert!(
            reasons.get("bust").copied().unwrap_or(0) > 0,
            "{n_seats} seats: {reasons:?}"
        );
    }
    for options in [
        Options {
            evil_leverage: true,
            ..Options::default()
        },
        Options {
            opening_market_response: true,
            a_price_low: [5, 9],
            ..Options::default()
        },
    ] {
        let reasons = cautious_games(4, options, 200);
        assert!(reasons.get("bust").copied().unwrap_or(0) > 0, "{reasons:?}");
    }
}

/// 400 random 5-seat games with `bid_cap = 40` (an extra configuration on top of the
/// 1000-game runs above): sane bids keep the premiums small, so the harness's checks also
/// run through late rounds, reshuffles and the Bust (with the default cap most random games
/// end with the Black Tulip in round 2 or 3). These games average about 330 steps.
#[test]
fn playouts_low_bid_cap() {
    let options = Options {
        bid_cap: 40,
        ..Options::default()
    };
    let stats = Playouts::<TulipBubble>::new(5)
        .options(options)
        .games(400)
        .max_steps(MAX_STEPS)
        .any_time(|action| matches!(action, game_tulip_bubble::Action::BuyBack { .. }))
        .run(invariants);
    report("5 seats, bid cap 40", &stats);
    assert_eq!(stats.games, 400);
    assert!(stats.redeals_that_changed_state > 0);
    assert!(
        stats.reasons.get("bust").copied().unwrap_or(0) > 0,
        "{:?}",
        stats.reasons
    );
}
