//! Random playouts (STYLE §8) for 3 and 4 seats and for every layout (the layout changes the
//! flow of play: roof size, waiting players, building height), plus a handicap deal and a
//! tight offer limit. The invariants of spec §9 that one state can show are checked after
//! every accepted action.
//!
//! Step bound: 5,000 accepted actions per game. The game has no fixed length (spec §4.7):
//! random bots spend most AP on buys, market trades and sessions, and a session can run to
//! `max_offers_per_session` posts plus accepts. But a pawn descends a row on most turns and
//! the tallest layout has 30 rows, so the building empties after a few dozen rounds. The
//! longest random games seen (printed with `--nocapture`) were 1,090 steps with 4 seats,
//! 1,304 with the handicap deal, 1,268 on the pyramid, 1,164 on the 3×8 tower and 825 on
//! the 1×15 tower; the bound leaves about 4× headroom.
//!
//! `BT_GAMES` (environment) may lower the number of games for local profiling; the default
//! and the CI value is 1,000 per configuration.

use game_black_thursday::{
    BlackThursday, Layout, Limits, OfferStatus, Options, Phase, Position, SessionStatus,
    StartingCoins, Status,
};
use game_core::testing::{PlayoutStats, Playouts};
use game_core::{Game, Seat, Viewer};

const MAX_STEPS: usize = 5_000;

/// The invariants of spec §9 that a single state shows.
fn invariants(game: &BlackThursday) {
    let n = game.players.len();
    // 1–3. Coin partition, share conservation, handles.
    let mut seen = [false; 24];
    let mut shares = 0u32;
    let mut handles = Vec::new();
    for &coin in &game.bag {
        assert!(!seen[usize::from(coin)], "coin {coin} twice");
        seen[usize::from(coin)] = true;
        shares += u32::from(coin % 6);
    }
    for (seat, player) in game.players.iter().enumerate() {
        for pair in player.coins.windows(2) {
            assert!(pair[0].handle < pair[1].handle, "portfolio not by handle");
        }
        for held in &player.coins {
            assert!(!seen[usize::from(held.coin)], "coin {} twice", held.coin);
            seen[usize::from(held.coin)] = true;
            shares += u32::from(held.coin % 6);
            // 20. Every player knows its own coins.
            assert!(
                held.known_by.contains(Seat(seat as u8)),
                "holder does not know its coin"
            );
            assert!(
                held.handle.0 < game.counters.handle,
                "handle from the future"
            );
            handles.push(held.handle);
        }
    }
    assert!(seen.iter().all(|&s| s), "a coin is missing");
    assert_eq!(shares, 60, "shares are not conserved");
    handles.sort();
    handles.dedup();
    assert_eq!(handles.len(), 24 - game.bag.len(), "duplicate handles");
    // 4–5. Tiles and rotations.
    let mut tiles: Vec<u8> = game.slots.iter().map(|s| s.tile).collect();
    tiles.extend(&game.out_of_play);
    tiles.sort_unstable();
    assert_eq!(tiles, (0..24).collect::<Vec<u8>>(), "tile partition");
    for (i, slot) in game.slots.iter().enumerate() {
        if slot.face_up {
            let orienting = game.phase == Phase::Orient { slot: i as u16 };
            assert!(orienting || matches!(slot.rotation, Some(0 | 90 | 180 | 270)));
            assert!(slot.seen);
        } else {
            assert_eq!(slot.rotation, None);
        }
    }
    // 7, 9. One pawn per space; status and position agree.
    let mut spaces = Vec::new();
    let mut inside = 0;
    for player in &game.players {
        match player.position {
            Position::At(space) => {
                assert!(game.slot_at(space).is_some(), "pawn outside the building");
                assert!(!spaces.contains(&space), "two pawns on one space");
                spaces.push(space);
            }
            Position::Gone => assert_ne!(player.status, Status::InBuilding),
            Position::Unplaced => {}
        }
        assert_eq!(
            player.position == Position::Gone,
            player.status != Status::InBuilding
        );
        if player.status == Status::InBuilding {
            inside += 1;
        }
    }
    // 10. End condition.
    if game.phase == Phase::Ended {
        assert_eq!(inside, 1, "the game ended with {inside} players inside");
        assert!(game.outcome().is_some());
    } else {
        assert!(inside >= 2, "the game goes on with {inside} players inside");
        assert!(game.outcome().is_none());
    }
    // 11. AP only for the turn player in ACTIONS / SALE / SESSION; 26. progress.
    match game.phase {
        Phase::Actions => assert!(game.has_ap_command(), "ACTIONS without a legal AP command"),
        Phase::Sale { suit, .. } => {
            assert!(game.turn.ap >= 1);
            let holds = game.players[game.turn.active.index()]
                .coins
                .iter()
                .any(|h| h.suit() == suit);
            assert!(holds, "SALE without a coin of the window's suit");
        }
        Phase::Ended => {}
        _ => {}
    }
    if !matches!(
        game.phase,
        Phase::Actions | Phase::Sale { .. } | Phase::Session
    ) {
        assert_eq!(game.turn.ap, 0, "AP outside the spending phases");
    }
    // 15. Sessions.
    if let Some(session) = &game.session {
        assert!(session.participants.len() >= 2);
        assert_eq!(
            session.status == SessionStatus::Open,
            game.phase == Phase::Session
        );
        if session.status == SessionStatus::Open {
            assert_eq!(session.initiator, game.turn.active);
            for seat in session.participants.iter() {
                assert_ne!(game.players[seat.index()].status, Status::Jumped);
            }
            // 25. Live offers are executable.
            for offer in session
                .offers
                .iter()
                .filter(|o| o.status == OfferStatus::Live)
            {
                let mut budget = 0;
                for term in &offer.terms {
                    match term {
                        game_black_thursday::Term::Coins { giver, handles, .. }
                        | game_black_thursday::Term::Reveal {
                            from: giver,
                            handles,
                            ..
                        } => {
                            for h in handles {
                                let held = game.players[giver.index()]
                                    .coins
                                    .iter()
                                    .any(|c| c.handle == *h);
                                assert!(held, "a live offer names a coin its giver lacks");
                            }
                        }
                        game_black_thursday::Term::ActionPoints { from, amount, .. }
                            if *from == game.turn.active =>
                        {
                            budget += amount
                        }
                        _ => {}
                    }
                }
                assert!(budget <= game.turn.ap, "a live offer exceeds the AP");
            }
            assert!(session.offers.len() <= game.options.limits.max_offers_per_session as usize);
        } else {
            for offer in &session.offers {
                assert_ne!(
                    offer.status,
                    OfferStatus::Live,
                    "live offer in a closed session"
                );
            }
        }
        let executed = session
            .offers
            .iter()
            .filter(|o| o.status == OfferStatus::Executed)
            .count();
        assert!(executed <= 1);
    }
    let groups = &game.turn.groups_used;
    for (i, g) in groups.iter().enumerate() {
        assert!(!groups[..i].contains(g), "a group used twice in one turn");
    }
    // 26. Progress: the turn player is in to_act; only it is waited on.
    if game.phase != Phase::Ended {
        let to_act = game.to_act();
        assert!(to_act.contains(game.turn.active));
        assert!(!game.waiting_on().is_empty());
    }
    // 21. No leaks: the spectator sees no value while the game runs.
    if game.phase != Phase::Ended && game.turn.number.is_multiple_of(7) {
        let view = game.view(Viewer::Spectator);
        assert!(view
            .players
            .iter()
            .all(|p| p.coins.iter().all(|c| c.value.is_none())));
        assert!(view.bag.is_none() && view.out_of_play.is_none());
        let _ = n;
    }
}

fn report(name: &str, stats: &PlayoutStats, games: u64) {
    println!(
        "{name}: {} games, {} steps, longest {}, reasons {:?}, wins {:?}, redeals changed {}",
        stats.games,
        stats.steps,
        stats.longest_game,
        stats.reasons,
        stats.wins_by_seat,
        stats.redeals_that_changed_state
    );
    assert_eq!(stats.games, games);
    assert_eq!(stats.reasons.get("building_emptied"), Some(&games));
    assert!(stats.redeals_that_changed_state > 0);
    assert!(stats.refusals_checked > 0);
}

fn run(name: &str, seats: u8, options: Options, seed: u64) {
    let games: u64 = std::env::var("BT_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(1000);
    let stats = Playouts::<BlackThursday>::new(seats)
        .options(options)
        .games(games)
        .max_steps(MAX_STEPS)
        .seed(seed);
    // Views are large (24 slots, every portfolio, the session): re-deal and compare them
    // every 20 steps instead of every 5, which still checks each game dozens of times.
    let stats = Playouts {
        leak_check_every: 20,
        ..stats
    }
    .run(invariants);
    report(name, &stats, games);
}

fn layout(layout: Layout) -> Options {
    Options {
        layout,
        ..Options::default()
    }
}

/// 3 seats, standard game.
#[test]
fn playouts_3_seats() {
    run("3 seats", 3, Options::default(), 31);
}

/// 4 seats, standard game.
#[test]
fn playouts_4_seats() {
    run("4 seats", 4, Options::default(), 41);
}

/// 4 seats on the 3×8 tower.
#[test]
fn playouts_tower_3x8() {
    run("3x8", 4, layout(Layout::Tower3x8), 38);
}

/// 4 seats on the pyramid (a 2-space roof: players wait).
#[test]
fn playouts_pyramid() {
    run("pyramid", 4, layout(Layout::Tower3x7Pyramid), 37);
}

/// 3 seats on the 1×15 tower (15 random tiles, 2-space roof).
#[test]
fn playouts_tower_1x15() {
    run("1x15", 3, layout(Layout::Tower1x15), 115);
}

/// 4 seats with a handicap deal (some players start with nothing) and a tight offer limit.
#[test]
fn playouts_handicap_and_limits() {
    let options = Options {
        starting_coins: StartingCoins::PerSeat(vec![0, 3, 6, 9]),
        limits: Limits {
            max_offers_per_session: 2,
            max_terms_per_offer: 1,
            max_promise_chars: 20,
        },
        ..Options::default()
    };
    run("handicap+limits", 4, options, 99);
}

/// The `post_offer` schema is kept with the state between listings and carried across
/// `apply`. A state that has listed at every step must list exactly what a fresh copy of
/// itself (read back from JSON, so with nothing kept) lists, for every seat; and two
/// listings of one state share the schema instead of building it twice.
#[test]
fn a_kept_offer_schema_is_never_stale() {
    use game_core::testing::{game_seed, random_move};
    use game_core::{GameRng, LegalAction};
    let mut shared = 0;
    for index in 0..30 {
        let seed = game_seed(0x5C4E, index);
        let mut state =
            BlackThursday::setup(4, &Options::default(), &mut GameRng::for_entry(seed, 0))
                .expect("setup")
                .0;
        let mut bot = GameRng::for_entry(seed, 1);
        for step in 1..=MAX_STEPS as u64 {
            let fresh: BlackThursday =
                serde_json::from_str(&serde_json::to_string(&state).unwrap()).unwrap();
            for seat in Seat::all(4) {
                let listed = state.legal_actions(seat);
                assert_eq!(
                    listed,
                    fresh.legal_actions(seat),
                    "game {index}, step {step}, {seat}"
                );
                let again = state.legal_actions(seat);
                for (first, second) in listed.iter().zip(&again) {
                    if let (
                        LegalAction::Schema { schema: a, .. },
                        LegalAction::Schema { schema: b, .. },
                    ) = (first, second)
                    {
                        if a["properties"]["type"]["const"] == "post_offer" {
                            assert!(std::sync::Arc::ptr_eq(a, b), "the schema was built twice");
                            shared += 1;
                        }
                    }
                }
            }
            let Some((seat, action)) = random_move(&state, &mut bot) else {
                break;
            };
            state
                .apply(seat, action, &mut GameRng::for_entry(seed, step))
                .expect("a listed action applies");
        }
    }
    assert!(shared > 100, "only {shared} post_offer listings were seen");
}
